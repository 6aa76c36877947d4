"""Load and validate the Alien Attack: USA board file (data/board.toml by default).

The file holds the board (120 hex spaces in axial coordinates), its features (National Parks, herd
regions, borders, Canada icons, cities on hex vertices), the disc supply and the mission point
tables. The file is declared once (`FILE_SPEC`): the loader checks it, `simkit data check` lists
every fault and `simkit data template` writes it out explained. Every fault is a `UserError` with
one line that names the file, the key, and the space or city at fault (RULINGS §1). The loaded
`Board` carries the tables the rules read in their hot loops: neighbours, the lines of three
spaces through each space, and each space's cities.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from simkit.core import schema
from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
)
from simkit.core.schema import Check, FileSpec, Int, List, Problem, Section, Source, Str, Table, Tables

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


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


def _grid(spaces: list[dict]) -> tuple[dict[int, tuple[int, int]], dict[tuple[int, int], int]]:
    """Space number -> (q, r), and (q, r) -> space number, from the entries of `board.spaces`."""
    coords = {e["n"]: (e["q"], e["r"]) for e in spaces}
    return coords, {c: n for n, c in coords.items()}


def _neighbours(coords: dict[int, tuple[int, int]], at: dict[tuple[int, int], int]) -> dict[int, list[int]]:
    return {
        s: [at[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in at]
        for s, (q, r) in coords.items()
    }


def _vertex(
    cs: list[tuple[int, int]], at: dict[tuple[int, int], int]
) -> tuple[tuple[float, float], tuple] | None:
    """(the vertex, the three hexes that meet there) of a city touching the hexes `cs` (pairwise
    adjacent); None for two hexes whose shared edge has no end off the board."""
    if len(cs) == 3:
        return (sum(c[0] for c in cs) / 3, sum(c[1] for c in cs) / 3), tuple(sorted(cs))
    # the third hex of one of the two vertices of the shared edge must be off the board
    a, b = cs
    thirds = [
        (a[0] + dq, a[1] + dr)
        for dq, dr in DIRECTIONS
        if (a[0] + dq, a[1] + dr) != b and _adjacent((a[0] + dq, a[1] + dr), b)
    ]
    off = [t for t in thirds if t not in at]
    if not off:
        return None
    t = off[0]
    return ((a[0] + b[0] + t[0]) / 3, (a[1] + b[1] + t[1]) / 3), tuple(sorted([a, b, t]))


# --- the file, declared once: the loader checks it, `simkit data template/check` explain it ----


@dataclass(frozen=True)
class PointsTable(List):
    """A mission table: points by count, starting at 0 and never decreasing. (`schema.List` knows
    only strictly increasing lists; a table may pay the same for two counts.)"""

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        found = list(super().check(value, key))
        yield from found
        if found:
            return
        if value[0] != 0:
            yield key, f"must be {self.allowed()}: the first entry is {value[0]}"
        else:
            drop = next((k for k, (a, b) in enumerate(pairwise(value), 1) if b < a), None)
            if drop is not None:
                yield key, f"must be {self.allowed()}: entry {drop} is {value[drop]}, after {value[drop - 1]}"

    def allowed(self) -> str:
        return f"a list of points in 0..{MAX_POINTS} that starts at 0 and never decreases"


def _points(doc: str) -> PointsTable:
    return PointsTable(doc=doc, item=Int(lo=0, hi=MAX_POINTS), min_len=1)


def _not_blank(text: str) -> bool:
    return bool(text.strip())


def _spaces(doc: str, least: int, most: int | None) -> List:
    """A list of `least` to `most` distinct space numbers (`most` None: no limit)."""
    return List(doc=doc, item=Int(lo=1, hi=SPACES), min_len=least, max_len=most, distinct=True)


def _one_piece(coords: dict[int, tuple[int, int]], at: dict[tuple[int, int], int]) -> Iterator[Problem]:
    nbrs = _neighbours(coords, at)
    reached, todo = {1}, [1]
    while todo:
        for t in nbrs[todo.pop()]:
            if t not in reached:
                reached.add(t)
                todo.append(t)
    if len(reached) != SPACES:
        lost = min(set(coords) - reached)
        yield "board.spaces", f"space {lost}: not connected to space 1 (the board is one piece)"


def _board_spaces(doc: dict) -> Iterator[Problem]:
    coords: dict[int, tuple[int, int]] = {}
    at: dict[tuple[int, int], int] = {}
    clean = True
    for i, e in enumerate(doc["board"]["spaces"]):
        n, c = e["n"], (e["q"], e["r"])
        if n in coords:
            clean = False
            yield f"board.spaces[{i}]", f"space {n}: duplicate number"
        elif c in at:
            clean = False
            coords[n] = c
            yield f"board.spaces[{i}]", f"space {n}: same coordinates {c} as space {at[c]}"
        else:
            coords[n], at[c] = c, n
    missing = [n for n in range(1, SPACES + 1) if n not in coords]
    if missing:
        numbers = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
        which = f"space {numbers}" if len(missing) == 1 else f"spaces {numbers}"
        yield "board.spaces", f"{which}: missing (numbers must run 1-{SPACES})"
    elif clean:
        yield from _one_piece(coords, at)


def _parks_once(doc: dict) -> Iterator[Problem]:
    seen: set[int] = set()
    for park in doc["parks"]["spaces"]:
        if park["space"] in seen:
            yield "parks.spaces", f"space {park['space']} is listed twice"
        seen.add(park["space"])


def _herd_regions(doc: dict) -> Iterator[Problem]:
    coords, _ = _grid(doc["board"]["spaces"])
    region_of: dict[int, int] = {}
    for i, region in enumerate(doc["herds"]["regions"]):
        key = f"herds.regions[{i}]"
        for s in region:
            if s in region_of:
                yield key, f"space {s} is already in herd region {region_of[s]}"
            else:
                region_of[s] = i
        # three spaces, each touching another of them, are connected
        for s in region:
            if not any(_adjacent(coords[s], coords[t]) for t in region if t != s):
                yield key, f"space {s} touches no other herd of its region (not connected)"
                break


def _borders_on_edge(doc: dict) -> Iterator[Problem]:
    nbrs = _neighbours(*_grid(doc["board"]["spaces"]))
    for name in BORDERS:
        for s in doc["borders"][name]:
            if len(nbrs[s]) == 6:
                yield f"borders.{name}", f"space {s} is not on the board's edge"
                break


def _canada_icons(doc: dict) -> Iterator[Problem]:
    _, at = _grid(doc["board"]["spaces"])
    canada = set(doc["borders"]["canada"])
    seen: set[tuple[int, int]] = set()
    for i, p in enumerate(doc["canada_icons"]["positions"]):
        key, c = f"canada_icons.positions[{i}]", (p["q"], p["r"])
        if c in at:
            yield key, f"icon at {c} is on space {at[c]}; icons sit off the board"
        elif c in seen:
            yield key, f"icon at {c} is listed twice"
        elif not any(at.get((c[0] + dq, c[1] + dr)) in canada for dq, dr in DIRECTIONS):
            yield key, f"icon at {c} is not next to a Canadian border space"
        seen.add(c)


def _cities_on_vertices(doc: dict) -> Iterator[Problem]:
    coords, at = _grid(doc["board"]["spaces"])
    vertices: dict[tuple, str] = {}
    for i, city in enumerate(doc["cities"]["list"]):
        name, spaces = city["name"], city["spaces"]
        key = f"cities.list[{i}] ({name})"
        apart = [(a, b) for a, b in combinations(spaces, 2) if not _adjacent(coords[a], coords[b])]
        if apart:
            yield key, f"spaces {apart[0][0]} and {apart[0][1]} are not adjacent (not one vertex)"
            continue
        corner = _vertex([coords[s] for s in spaces], at)
        if corner is None:
            yield key, f"touches only spaces {spaces[0]} and {spaces[1]} but is not on the edge"
        elif corner[1] in vertices:
            yield key, f"sits on the same vertex as {vertices[corner[1]]}"
        else:
            vertices[corner[1]] = name


def _enough_low_cities(doc: dict) -> Iterator[Problem]:
    for value, least in MIN_CITIES.items():
        have = sum(1 for c in doc["cities"]["list"] if c["value"] == value)
        if have < least:
            yield "cities.list", f"{have} cities of value {value}; at least {least} are needed"


def _covers(table: list[int], most: int, key: str, what: str) -> Iterator[Problem]:
    """A City or Border table must give the points of every count the board allows (0 to the
    number of such cities or border spaces): a shorter table would silently score a full set as
    one less, which no printed card does."""
    if len(table) < most + 1:
        yield (
            key,
            f"has {len(table)} entries (counts 0-{len(table) - 1}) but the board has "
            f"{most} {what}: give the points for every count 0-{most}",
        )


def _city_tables_cover(doc: dict) -> Iterator[Problem]:
    for v in CITY_CARDS:
        most = sum(1 for c in doc["cities"]["list"] if c["value"] == v)
        yield from _covers(doc["missions"]["city"][str(v)], most, f"missions.city.{v}", f"value-{v} cities")


def _border_tables_cover(doc: dict) -> Iterator[Problem]:
    for name in BORDER_CARDS:
        most = len(doc["borders"][name])
        table = doc["missions"]["border"][name]
        yield from _covers(table, most, f"missions.border.{name}", f"spaces on the {name} border")


def _present(doc: dict, key: str) -> bool:
    for name in key.split("."):
        if not isinstance(doc, dict) or name not in doc:
            return False
        doc = doc[name]
    return True


def _rule(needs: tuple[str, ...], rule: Callable[[dict], Iterator[Problem]], doc: str) -> Check:
    """A `Check` that also waits for the tables holding the keys it needs: `schema.problems` skips
    a rule when a needed key is faulty, but not when a table above it is missing or not a table
    (that fault is reported at the table's own key)."""

    def when_present(document: dict) -> Iterator[Problem]:
        if all(_present(document, need) for need in needs):
            yield from rule(document)

    return Check(needs, when_present, doc)


FILE_SPEC = FileSpec(
    title="Alien Attack: USA board file.",
    intro="The board (120 hex spaces), its National Parks, herd regions, borders, Canada icons and "
    "cities, the defense discs and park markers, and the mission point tables. The printed board is "
    "not public: the built-in one is a hand-made, USA-like layout (north at the top, the Pacific on "
    "the left) that keeps every count the rulebook states (RULINGS section 1). Spaces are pointy-top "
    "hexes in axial coordinates (q, r): q grows eastwards, r southwards, and the six neighbours of "
    "(q, r) are (q+1, r), (q-1, r), (q, r-1), (q, r+1), (q+1, r-1) and (q-1, r+1). A city sits on a "
    "corner where hexes meet and lists the 3 spaces touching it (2 on the board's edge). Canada "
    "icons sit on hexes off the board, next to Canadian border spaces.",
    root=Table(
        fields={
            "meta": schema.META,
            "board": Section(
                doc=f"The {SPACES} numbered spaces of the board and where each sits",
                source_doc="where the layout comes from",
                spaces=Tables(
                    doc=f"every space once, numbered 1-{SPACES}; together they form one piece",
                    item=Table(
                        inline=True,
                        fields={
                            "n": Int(doc="the number printed on the space", lo=1, hi=SPACES),
                            "q": Int(doc="its column, growing eastwards"),
                            "r": Int(doc="its row, growing southwards"),
                        },
                    ),
                ),
            ),
            "parks": Section(
                doc="The National Parks: one park marker starts on each",
                source_doc="where the park spaces come from",
                spaces=Tables(
                    doc=f"the {PARKS} parks the rulebook names, each on its own space",
                    min_len=PARKS,
                    max_len=PARKS,
                    item=Table(
                        inline=True,
                        fields={
                            "space": Int(doc="the space it is on", lo=1, hi=SPACES),
                            "name": Str(
                                doc='its name (left out: "park" and the space number)',
                                optional=True,
                                valid=_not_blank,
                                pattern_help="a name, not blank",
                            ),
                        },
                    ),
                ),
            ),
            "herds": Section(
                doc=f"The herd spaces, in regions of {HERD_REGION} connected spaces (rulebook)",
                source_doc="where the herd regions come from",
                regions=List(
                    doc=f"one entry per region: its {HERD_REGION} spaces, each touching another "
                    "of them; a space is in at most one region",
                    item=_spaces("", HERD_REGION, HERD_REGION),
                    min_len=1,
                ),
            ),
            "borders": Table(
                doc="The border spaces, each on the board's edge, in any order; a space may lie on "
                "two borders",
                fields={
                    "source": Source("where the border spaces come from"),
                    **{
                        name: _spaces(
                            f"the {length} spaces of the {name.title()} border (rulebook)", length, length
                        )
                        for name, length in BORDER_LENGTHS.items()
                    },
                    "canada": _spaces(
                        "the spaces of the Canadian border (any number: the rulebook gives none)", 1, None
                    ),
                },
            ),
            "canada_icons": Section(
                doc="The Canada icons printed beyond the Canadian border: a line of three may end on one",
                source_doc="where the icon positions come from",
                positions=Tables(
                    doc="one entry per icon, each on a hex off the board that touches a Canadian "
                    "border space",
                    item=Table(
                        inline=True,
                        fields={
                            "q": Int(doc="the icon's column, as for a space"),
                            "r": Int(doc="the icon's row, as for a space"),
                        },
                    ),
                ),
            ),
            "cities": Section(
                doc=f"The cities, each on a corner where spaces meet, worth 1-7 (at least "
                f"{MIN_CITIES[1]} worth 1 and {MIN_CITIES[2]} worth 2)",
                source_doc="where the cities, their corners and values come from",
                list=Tables(
                    doc="one entry per city, no two on the same corner",
                    min_len=1,
                    item=Table(
                        inline=True,
                        fields={
                            "name": Str(
                                doc="the city's name",
                                valid=_not_blank,
                                pattern_help="a name, not blank",
                            ),
                            "value": Int(doc="its printed value", lo=1, hi=7),
                            "spaces": _spaces(
                                "the spaces touching its corner, each next to the others: 3, or 2 "
                                "on the board's edge",
                                2,
                                3,
                            ),
                        },
                    ),
                ),
            ),
            "supply": Section(
                doc="The pieces in the box",
                source_doc="where the counts come from",
                discs=Int(doc="defense discs per player", lo=1, hi=200),
                park_markers=Int(doc="park markers, at least one per park", lo=PARKS),
            ),
            "missions": Table(
                doc="Mission point tables: entry k is the points for a count of k, and counts past "
                "the end score the last entry. The rulebook prints no table, only a worked example "
                "(City card 2 with 7 cities = 22, Pacific with 4 discs = 6, 5 parks = 10, 5 bases = 5, "
                "a largest group of 19 = 24); the built-in tables are invented around it",
                fields={
                    "city": Table(
                        doc="City mission cards: points by the number of cities of the card's value "
                        "that a player holds; each table covers every count up to all such cities",
                        fields={
                            "source": Source("where these tables come from"),
                            **{str(v): _points(f"the City {v} card") for v in CITY_CARDS},
                        },
                    ),
                    "border": Table(
                        doc="Border mission cards: points by the number of the border's spaces a "
                        "player holds; each table covers every count up to the whole border",
                        fields={
                            "source": Source("where these tables come from"),
                            **{name: _points(f"the {name.title()} card") for name in BORDER_CARDS},
                        },
                    ),
                    "global": Section(
                        doc="The Global mission cards every player scores",
                        source_doc="where these tables come from",
                        parks=_points("the National Parks card: points by the park markers a player holds"),
                        bases=_points("the Alien Bases card: points by the alien bases a player kept"),
                        territory=_points(
                            "the Territorial Expansion card: points by the size of a player's "
                            "largest group of connected discs"
                        ),
                    ),
                    "protection": Section(
                        doc="The Global Protection card: its points, scored when a player meets all "
                        "three requirements",
                        source_doc="where the points and requirements come from",
                        points=Int(doc="the points it scores", lo=0),
                        value1_cities=Int(doc="distinct value-1 cities the player's discs touch", lo=0),
                        herds=Int(doc="distinct herd spaces the player's discs cover", lo=0),
                        other_border_spaces=Int(
                            doc="border spaces the player's discs cover off the border of its own "
                            "Border card (Canada counts)",
                            lo=0,
                        ),
                    ),
                },
            ),
        }
    ),
    checks=(
        _rule(
            ("board.spaces",),
            _board_spaces,
            f"board.spaces numbers every space 1-{SPACES} once, no two spaces share coordinates, "
            "and every space connects to space 1.",
        ),
        _rule(("parks.spaces",), _parks_once, "no space holds two parks."),
        _rule(
            ("board.spaces", "herds.regions"),
            _herd_regions,
            "a space is in at most one herd region, and each space of a region touches another of it.",
        ),
        _rule(
            ("board.spaces", *(f"borders.{name}" for name in BORDERS)),
            _borders_on_edge,
            "every border space is on the board's edge (has fewer than six neighbours).",
        ),
        _rule(
            ("board.spaces", "borders.canada", "canada_icons.positions"),
            _canada_icons,
            "each Canada icon is off the board, listed once, and next to a space of borders.canada.",
        ),
        _rule(
            ("board.spaces", "cities.list"),
            _cities_on_vertices,
            "each city's spaces touch one another at one corner: 3 spaces, or 2 where the corner's "
            "third hex is off the board; no two cities share a corner.",
        ),
        _rule(
            ("cities.list",),
            _enough_low_cities,
            f"at least {MIN_CITIES[1]} cities are worth 1 and {MIN_CITIES[2]} worth 2 (the rulebook's "
            "examples need them).",
        ),
        _rule(
            ("cities.list", "missions.city"),
            _city_tables_cover,
            "each missions.city table gives the points for every count from 0 to the number of "
            "cities of its value.",
        ),
        _rule(
            (*(f"borders.{name}" for name in BORDER_CARDS), "missions.border"),
            _border_tables_cover,
            "each missions.border table gives the points for every count from 0 to the number of "
            "spaces on its border.",
        ),
    ),
)


def _build(path: Path, doc: dict[str, Any], sha256: str) -> Board:
    """The checked document of the board file at `path` as the engine's board."""
    missions = doc["missions"]
    sources = {
        "board layout": doc["board"]["source"],
        "national parks": doc["parks"]["source"],
        "herds": doc["herds"]["source"],
        "borders": doc["borders"]["source"],
        "canada icons": doc["canada_icons"]["source"],
        "cities": doc["cities"]["source"],
        "supply": doc["supply"]["source"],
        "city mission tables": missions["city"]["source"],
        "border mission tables": missions["border"]["source"],
        "global mission tables": missions["global"]["source"],
        "global protection": missions["protection"]["source"],
    }
    coords, at = _grid(doc["board"]["spaces"])
    nbrs = _neighbours(coords, at)
    parks = doc["parks"]["spaces"]
    park_spaces = {p["space"] for p in parks}
    regions = doc["herds"]["regions"]
    herd_region = [-1] * (SPACES + 1)
    for i, region in enumerate(regions):
        for s in region:
            herd_region[s] = i
    borders = {name: frozenset(doc["borders"][name]) for name in BORDERS}
    border_mask = [0] * (SPACES + 1)
    for bit, name in enumerate(BORDERS):
        for s in borders[name]:
            border_mask[s] |= 1 << bit
    icons = [(p["q"], p["r"]) for p in doc["canada_icons"]["positions"]]
    icon_set = set(icons)
    cities = [
        City(c["name"], c["value"], tuple(c["spaces"]), _vertex([coords[s] for s in c["spaces"]], at)[0])
        for c in doc["cities"]["list"]
    ]
    tables = {name: tuple(missions["global"][name]) for name in ("parks", "bases", "territory")}
    prot = missions["protection"]

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
        sha256=sha256,
        sources=MappingProxyType(sources),
        n=SPACES,
        coords=tuple(coord_list),
        neighbors=tuple([()] + [tuple(nbrs[s]) for s in range(1, SPACES + 1)]),
        lines=tuple(lines),
        opposite=tuple(opposite),
        park=tuple(s in park_spaces for s in range(SPACES + 1)),
        park_names=MappingProxyType({p["space"]: p.get("name", f"park {p['space']}") for p in parks}),
        herd_region=tuple(herd_region),
        herd_regions=herd_regions,
        herd_nbrs=tuple(herd_nbrs),
        borders=MappingProxyType(borders),
        border_mask=tuple(border_mask),
        icons=tuple(icons),
        cities=tuple(cities),
        city_value=tuple(c.value for c in cities),
        space_cities=tuple(tuple(x) for x in space_cities),
        discs=doc["supply"]["discs"],
        park_markers=doc["supply"]["park_markers"],
        city_tables=MappingProxyType({v: tuple(missions["city"][str(v)]) for v in CITY_CARDS}),
        border_tables=MappingProxyType({name: tuple(missions["border"][name]) for name in BORDER_CARDS}),
        parks_table=tables["parks"],
        bases_table=tables["bases"],
        territory_table=tables["territory"],
        protection_points=prot["points"],
        protection_value1=prot["value1_cities"],
        protection_herds=prot["herds"],
        protection_borders=prot["other_border_spaces"],
        at=MappingProxyType(dict(at)),
    )


load = schema.loader(FILE_SPEC, "alien-attack", DEFAULT_FILE, _build, "board file")
