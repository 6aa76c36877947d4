"""Load and validate the Alien Attack: USA board file (data/board.toml by default).

The file holds the board (120 hex spaces in axial coordinates), its features (National Parks, herd
regions, borders, Canada icons, cities on hex vertices), the disc supply and the mission point
tables. Every fault is a `UserError` with one line that names the file, the key, and the space or
city at fault (RULINGS §1). The loaded `Board` carries the tables the rules read in their hot
loops: neighbours, the lines of three spaces through each space, and each space's cities.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
    data_key,
    read_toml,
)
from simkit.core.files import data_error as _fail
from simkit.core.files import data_source as _source

DEFAULT_FILE = Path(__file__).parent / "data" / "board.toml"

SPACES = 120  # rulebook: "divided into 120 numbered spaces"; one attack marker per space
PARKS = 22  # rulebook: "22 National Park markers ... correspond to the 22 National Parks"
HERD_REGION = 3  # rulebook: "Each herd belongs to a region with 3 connected herds"
# Rulebook: "the Atlantic Coast has eleven spaces, the Pacific Coast and the Gulf of Mexico have ten
# spaces, and Mexico has only seven". Canada: any length (RULINGS §1).
BORDERS = ("atlantic", "pacific", "gulf", "mexico", "canada")
BORDER_CARDS = BORDERS[:4]
BORDER_LENGTHS = {"atlantic": 11, "pacific": 10, "gulf": 10, "mexico": 7}
CITY_CARDS = (2, 3, 4, 5)
MAX_POINTS = 10_000  # per mission table entry: far above any printed table, far below overflow
MIN_CITIES = {1: 4, 2: 7}  # RULINGS §1: the rulebook's examples need 4 value-1 and 7 value-2 cities

# Axial directions in circular order; DIRECTIONS[k] and DIRECTIONS[(k + 3) % 6] are opposite.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
ICON = 0  # the pseudo-space index that stands for a Canada icon in `Board.lines`


class City(NamedTuple):
    name: str
    value: int
    spaces: tuple[int, ...]  # the 2 or 3 spaces touching the city's vertex
    vertex: tuple[float, float]  # the vertex in axial units (for drawing)


class Board(NamedTuple):
    """The board and its tables. Named tuples and read-only mappings all the way down: players
    hold it in their view, and nothing done through it can change what the engine or any other
    game reads (a frozen dataclass yields to object.__setattr__, a dict to item assignment)."""

    path: str
    sha256: str
    sources: Mapping[str, str]
    n: int  # number of spaces (120); spaces are numbered 1..n
    coords: tuple[tuple[int, int], ...]  # coords[s] = (q, r); index 0 unused
    neighbors: tuple[tuple[int, ...], ...]  # neighbors[s]: on-board neighbours of s
    # lines[s]: for every direction whose first step stays on the board, (n1, n2) with n1 = s + d
    # and n2 = s + 2d (a space, or ICON where a Canada icon sits there). Directions whose second
    # step is off the board and not an icon are left out.
    lines: tuple[tuple[tuple[int, int], ...], ...]
    # opposite[s]: pairs (a, b) of on-board neighbours of s on opposite sides (s between them).
    opposite: tuple[tuple[tuple[int, int], ...], ...]
    park: tuple[bool, ...]
    park_names: Mapping[int, str]
    herd_region: tuple[int, ...]  # region index per space, -1 when not a herd
    herd_regions: tuple[tuple[int, ...], ...]
    herd_nbrs: tuple[tuple[int, ...], ...]  # neighbours of s in its own herd region
    borders: Mapping[str, frozenset[int]]
    border_mask: tuple[int, ...]  # bit i set when the space is on BORDERS[i]
    icons: tuple[tuple[int, int], ...]
    cities: tuple[City, ...]
    city_value: tuple[int, ...]
    space_cities: tuple[tuple[int, ...], ...]  # cities touching each space
    discs: int
    park_markers: int
    city_tables: Mapping[int, tuple[int, ...]]
    border_tables: Mapping[str, tuple[int, ...]]
    parks_table: tuple[int, ...]
    bases_table: tuple[int, ...]
    territory_table: tuple[int, ...]
    protection_points: int
    protection_value1: int
    protection_herds: int
    protection_borders: int

    at: Mapping[tuple[int, int], int]  # (q, r) -> space number

    def space_at(self, q: int, r: int) -> int:
        """The space number at axial (q, r), or 0 when off the board."""
        return self.at.get((q, r), 0)


def points(table: tuple[int, ...], count: int) -> int:
    """A mission table's points for a count; counts past the end score the last entry."""
    return table[count] if count < len(table) else table[-1]


def _table(doc: dict, path: Path, key: str, allowed: set[str]) -> dict:
    value = doc.get(key.rsplit(".", 1)[-1])
    if not isinstance(value, dict):
        raise _fail(path, key, "missing table")
    unknown = set(value) - allowed
    if unknown:
        raise _fail(
            path, f"{key}.{sorted(unknown)[0]}", f"unknown key (allowed: {', '.join(sorted(allowed))})"
        )
    return value


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _space_list(value, path: Path, key: str, on_board: set[int]) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(s) for s in value):
        raise _fail(path, key, "must be a list of space numbers")
    seen: set[int] = set()
    for s in value:
        if s not in on_board:
            raise _fail(path, key, f"space {s} is not on the board (spaces are 1-{SPACES})")
        if s in seen:
            raise _fail(path, key, f"space {s} is listed twice")
        seen.add(s)
    return value


def _points_table(value, path: Path, key: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or not value
        or not all(_is_int(v) and 0 <= v <= MAX_POINTS for v in value)
        or value[0] != 0
        or any(b < a for a, b in zip(value, value[1:], strict=False))
    ):
        raise _fail(
            path, key, f"must be a list of points in 0..{MAX_POINTS} that starts at 0 and never decreases"
        )
    return tuple(value)


def _covers(table: tuple[int, ...], most: int, path: Path, key: str, what: str) -> None:
    """A City or Border table must give the points of every count the board allows (0 to the
    number of such cities or border spaces): a shorter table would silently score a full set as
    one less, which no printed card does."""
    if len(table) < most + 1:
        raise _fail(
            path,
            key,
            f"has {len(table)} entries (counts 0-{len(table) - 1}) but the board has "
            f"{most} {what}: give the points for every count 0-{most}",
        )


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


def load(path: str | Path | None = None) -> Board:
    """Load and validate a board file; `None` means the built-in default."""
    return _load_cached(*data_key(path, DEFAULT_FILE))


@lru_cache(maxsize=8)
def _load_cached(path_text: str, shipped_digest: str) -> Board:
    """`shipped_digest` only keys the cache: other bytes shipped for the same path load afresh."""
    path = Path(path_text)
    doc, raw = read_toml(path, "board file")
    top = {"meta", "board", "parks", "herds", "borders", "canada_icons", "cities", "supply", "missions"}
    unknown = set(doc) - top
    if unknown:
        raise _fail(path, sorted(unknown)[0], f"unknown section (allowed: {', '.join(sorted(top))})")
    if "meta" in doc:
        _table(doc, path, "meta", {"name", "version", "description"})
    sources: dict[str, str] = {}

    # --- spaces -----------------------------------------------------------------------------
    board_t = _table(doc, path, "board", {"source", "spaces"})
    sources["board layout"] = _source(board_t, path, "board")
    entries = board_t.get("spaces")
    if not isinstance(entries, list):
        raise _fail(path, "board.spaces", "must be a list of { n, q, r }")
    coords: dict[int, tuple[int, int]] = {}
    at: dict[tuple[int, int], int] = {}
    for i, e in enumerate(entries):
        key = f"board.spaces[{i}]"
        if not isinstance(e, dict) or set(e) != {"n", "q", "r"} or not all(_is_int(e[k]) for k in e):
            raise _fail(path, key, "must be { n = number, q = int, r = int }")
        n, c = e["n"], (e["q"], e["r"])
        if not 1 <= n <= SPACES:
            raise _fail(path, key, f"space {n}: number out of range 1-{SPACES}")
        if n in coords:
            raise _fail(path, key, f"space {n}: duplicate number")
        if c in at:
            raise _fail(path, key, f"space {n}: same coordinates {c} as space {at[c]}")
        coords[n], at[c] = c, n
    missing = [n for n in range(1, SPACES + 1) if n not in coords]
    if missing:
        raise _fail(path, "board.spaces", f"space {missing[0]}: missing (numbers must run 1-{SPACES})")
    on_board = set(coords)
    nbrs = {
        s: [at[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in at]
        for s, (q, r) in coords.items()
    }
    reached, todo = {1}, [1]
    while todo:
        for t in nbrs[todo.pop()]:
            if t not in reached:
                reached.add(t)
                todo.append(t)
    if len(reached) != SPACES:
        lost = min(on_board - reached)
        raise _fail(path, "board.spaces", f"space {lost}: not connected to space 1 (the board is one piece)")
    on_edge = {s for s in on_board if len(nbrs[s]) < 6}

    # --- parks ------------------------------------------------------------------------------
    parks_t = _table(doc, path, "parks", {"source", "spaces"})
    sources["national parks"] = _source(parks_t, path, "parks")
    plist = parks_t.get("spaces")
    if not isinstance(plist, list) or not all(
        isinstance(p, dict)
        and set(p) <= {"space", "name"}
        and "space" in p
        and isinstance(p.get("name", "-"), str)
        and p.get("name", "-").strip()
        for p in plist
    ):
        raise _fail(path, "parks.spaces", "must be a list of { space = number, name = text }")
    park_spaces = _space_list([p["space"] for p in plist], path, "parks.spaces", on_board)
    if len(park_spaces) != PARKS:
        raise _fail(path, "parks.spaces", f"{len(park_spaces)} parks; the rulebook has {PARKS}")
    park_names = {p["space"]: str(p.get("name", f"park {p['space']}")) for p in plist}

    # --- herds ------------------------------------------------------------------------------
    herds_t = _table(doc, path, "herds", {"source", "regions"})
    sources["herds"] = _source(herds_t, path, "herds")
    regions = herds_t.get("regions")
    if not isinstance(regions, list) or not regions:
        raise _fail(path, "herds.regions", "must be a list of regions, each a list of 3 spaces")
    herd_region = [-1] * (SPACES + 1)
    for i, region in enumerate(regions):
        key = f"herds.regions[{i}]"
        region = _space_list(region, path, key, on_board)
        if len(region) != HERD_REGION:
            raise _fail(path, key, f"{len(region)} herd spaces; a herd region has exactly {HERD_REGION}")
        for s in region:
            if herd_region[s] != -1:
                raise _fail(path, key, f"space {s} is already in herd region {herd_region[s]}")
            herd_region[s] = i
        for s in region:
            if not any(_adjacent(coords[s], coords[t]) for t in region if t != s):
                raise _fail(path, key, f"space {s} touches no other herd of its region (not connected)")
        a, b, c = region
        if sum(_adjacent(coords[x], coords[y]) for x, y in ((a, b), (a, c), (b, c))) < 2:
            raise _fail(path, key, f"spaces {a}, {b}, {c} are not connected")

    # --- borders ----------------------------------------------------------------------------
    borders_t = _table(doc, path, "borders", {"source", *BORDERS})
    sources["borders"] = _source(borders_t, path, "borders")
    borders: dict[str, frozenset[int]] = {}
    for name in BORDERS:
        if name not in borders_t:
            raise _fail(path, f"borders.{name}", "missing border")
        spaces = _space_list(borders_t[name], path, f"borders.{name}", on_board)
        want = BORDER_LENGTHS.get(name)
        if want is not None and len(spaces) != want:
            raise _fail(path, f"borders.{name}", f"{len(spaces)} spaces; the rulebook gives {want}")
        if not spaces:
            raise _fail(path, f"borders.{name}", "no spaces")
        for s in spaces:
            if s not in on_edge:
                raise _fail(path, f"borders.{name}", f"space {s} is not on the board's edge")
        borders[name] = frozenset(spaces)
    border_mask = [0] * (SPACES + 1)
    for bit, name in enumerate(BORDERS):
        for s in borders[name]:
            border_mask[s] |= 1 << bit

    # --- Canada icons -----------------------------------------------------------------------
    icons_t = _table(doc, path, "canada_icons", {"source", "positions"})
    sources["canada icons"] = _source(icons_t, path, "canada_icons")
    positions = icons_t.get("positions")
    if not isinstance(positions, list):
        raise _fail(path, "canada_icons.positions", "must be a list of { q, r }")
    icons: list[tuple[int, int]] = []
    for i, p in enumerate(positions):
        key = f"canada_icons.positions[{i}]"
        if not isinstance(p, dict) or set(p) != {"q", "r"} or not all(_is_int(p[k]) for k in p):
            raise _fail(path, key, "must be { q = int, r = int }")
        c = (p["q"], p["r"])
        if c in at:
            raise _fail(path, key, f"icon at {c} is on space {at[c]}; icons sit off the board")
        if c in icons:
            raise _fail(path, key, f"icon at {c} is listed twice")
        touching = [at[(c[0] + dq, c[1] + dr)] for dq, dr in DIRECTIONS if (c[0] + dq, c[1] + dr) in at]
        if not any(s in borders["canada"] for s in touching):
            raise _fail(path, key, f"icon at {c} is not next to a Canadian border space")
        icons.append(c)
    icon_set = set(icons)

    # --- cities -----------------------------------------------------------------------------
    cities_t = _table(doc, path, "cities", {"source", "list"})
    sources["cities"] = _source(cities_t, path, "cities")
    clist = cities_t.get("list")
    if not isinstance(clist, list) or not clist:
        raise _fail(path, "cities.list", "must be a list of { name, value, spaces }")
    cities: list[City] = []
    vertices: dict[tuple, str] = {}
    for i, e in enumerate(clist):
        key = f"cities.list[{i}]"
        if not isinstance(e, dict) or set(e) != {"name", "value", "spaces"}:
            raise _fail(path, key, "must be { name = text, value = 1-7, spaces = [2 or 3 spaces] }")
        if not isinstance(e["name"], str) or not e["name"].strip():
            raise _fail(path, f"{key}.name", f"must be the city's name (text), got {e['name']!r}")
        name = e["name"]
        key = f"cities.list[{i}] ({name})"
        if not _is_int(e["value"]) or not 1 <= e["value"] <= 7:
            raise _fail(path, key, f"value must be 1-7, got {e['value']!r}")
        spaces = _space_list(e["spaces"], path, key, on_board)
        if len(spaces) not in (2, 3):
            raise _fail(path, key, f"touches {len(spaces)} spaces; a city touches 2 or 3")
        for x in range(len(spaces)):
            for y in range(x + 1, len(spaces)):
                if not _adjacent(coords[spaces[x]], coords[spaces[y]]):
                    raise _fail(
                        path, key, f"spaces {spaces[x]} and {spaces[y]} are not adjacent (not one vertex)"
                    )
        cs = [coords[s] for s in spaces]
        if len(spaces) == 3:
            vertex = (sum(c[0] for c in cs) / 3, sum(c[1] for c in cs) / 3)
            vkey = tuple(sorted(cs))
        else:
            # the third hex of one of the two vertices of the shared edge must be off the board
            a, b = cs
            thirds = [
                (a[0] + dq, a[1] + dr)
                for dq, dr in DIRECTIONS
                if (a[0] + dq, a[1] + dr) != b and _adjacent((a[0] + dq, a[1] + dr), b)
            ]
            off = [t for t in thirds if t not in at]
            if not off:
                raise _fail(
                    path, key, f"touches only spaces {spaces[0]} and {spaces[1]} but is not on the edge"
                )
            t = off[0]
            vertex = ((a[0] + b[0] + t[0]) / 3, (a[1] + b[1] + t[1]) / 3)
            vkey = tuple(sorted([a, b, t]))
        if vkey in vertices:
            raise _fail(path, key, f"sits on the same vertex as {vertices[vkey]}")
        vertices[vkey] = name
        cities.append(City(name, e["value"], tuple(spaces), vertex))
    for value, least in MIN_CITIES.items():
        have = sum(1 for c in cities if c.value == value)
        if have < least:
            raise _fail(path, "cities.list", f"{have} cities of value {value}; at least {least} are needed")

    # --- supply and missions ----------------------------------------------------------------
    supply = _table(doc, path, "supply", {"source", "discs", "park_markers"})
    sources["supply"] = _source(supply, path, "supply")
    discs = supply.get("discs")
    if not _is_int(discs) or not 1 <= discs <= 200:
        raise _fail(path, "supply.discs", f"must be an integer in 1..200, got {discs!r}")
    markers = supply.get("park_markers")
    if not _is_int(markers) or markers < len(park_spaces):
        raise _fail(path, "supply.park_markers", f"must be an integer >= {len(park_spaces)} (one per park)")

    missions = _table(doc, path, "missions", {"city", "border", "global", "protection"})
    city_t = _table(missions, path, "missions.city", {"source", *(str(v) for v in CITY_CARDS)})
    sources["city mission tables"] = _source(city_t, path, "missions.city")
    city_tables = {}
    for v in CITY_CARDS:
        if str(v) not in city_t:
            raise _fail(path, f"missions.city.{v}", "missing table")
        city_tables[v] = _points_table(city_t[str(v)], path, f"missions.city.{v}")
        _covers(
            city_tables[v],
            sum(1 for c in cities if c.value == v),
            path,
            f"missions.city.{v}",
            f"value-{v} cities",
        )
    border_t = _table(missions, path, "missions.border", {"source", *BORDER_CARDS})
    sources["border mission tables"] = _source(border_t, path, "missions.border")
    border_tables = {}
    for name in BORDER_CARDS:
        if name not in border_t:
            raise _fail(path, f"missions.border.{name}", "missing table")
        border_tables[name] = _points_table(border_t[name], path, f"missions.border.{name}")
        _covers(
            border_tables[name],
            len(borders[name]),
            path,
            f"missions.border.{name}",
            f"spaces on the {name} border",
        )
    global_t = _table(missions, path, "missions.global", {"source", "parks", "bases", "territory"})
    sources["global mission tables"] = _source(global_t, path, "missions.global")
    tables = {}
    for name in ("parks", "bases", "territory"):
        tables[name] = _points_table(global_t.get(name), path, f"missions.global.{name}")
    prot = _table(
        missions,
        path,
        "missions.protection",
        {"source", "points", "value1_cities", "herds", "other_border_spaces"},
    )
    sources["global protection"] = _source(prot, path, "missions.protection")
    for name in ("points", "value1_cities", "herds", "other_border_spaces"):
        if not _is_int(prot.get(name)) or prot[name] < 0:
            raise _fail(
                path, f"missions.protection.{name}", f"must be a whole number, got {prot.get(name)!r}"
            )

    # --- derived tables -----------------------------------------------------------------------
    coord_list = [(0, 0)] + [coords[s] for s in range(1, SPACES + 1)]
    lines, opposite = [()], [()]
    for s in range(1, SPACES + 1):
        q, r = coords[s]
        ls = []
        for dq, dr in DIRECTIONS:
            n1 = at.get((q + dq, r + dr))
            if n1 is None:
                continue
            far = (q + 2 * dq, r + 2 * dr)
            if far in at:
                ls.append((n1, at[far]))
            elif far in icon_set:
                ls.append((n1, ICON))
        lines.append(tuple(ls))
        ops = []
        for dq, dr in DIRECTIONS[:3]:
            a, b = at.get((q + dq, r + dr)), at.get((q - dq, r - dr))
            if a is not None and b is not None:
                ops.append((a, b))
        opposite.append(tuple(ops))
    space_cities = [[] for _ in range(SPACES + 1)]
    for ci, city in enumerate(cities):
        for s in city.spaces:
            space_cities[s].append(ci)
    herd_regions = tuple(tuple(r) for r in regions)
    herd_nbrs = [()] + [
        tuple(t for t in nbrs[s] if herd_region[s] != -1 and herd_region[t] == herd_region[s])
        for s in range(1, SPACES + 1)
    ]
    return Board(
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        sources=MappingProxyType(sources),
        n=SPACES,
        coords=tuple(coord_list),
        neighbors=tuple([()] + [tuple(nbrs[s]) for s in range(1, SPACES + 1)]),
        lines=tuple(lines),
        opposite=tuple(opposite),
        park=tuple(s in set(park_spaces) for s in range(SPACES + 1)),
        park_names=MappingProxyType(park_names),
        herd_region=tuple(herd_region),
        herd_regions=herd_regions,
        herd_nbrs=tuple(herd_nbrs),
        borders=MappingProxyType(borders),
        border_mask=tuple(border_mask),
        icons=tuple(icons),
        cities=tuple(cities),
        city_value=tuple(c.value for c in cities),
        space_cities=tuple(tuple(x) for x in space_cities),
        discs=discs,
        park_markers=markers,
        city_tables=MappingProxyType(city_tables),
        border_tables=MappingProxyType(border_tables),
        parks_table=tables["parks"],
        bases_table=tables["bases"],
        territory_table=tables["territory"],
        protection_points=prot["points"],
        protection_value1=prot["value1_cities"],
        protection_herds=prot["herds"],
        protection_borders=prot["other_border_spaces"],
        at=MappingProxyType(dict(at)),
    )
