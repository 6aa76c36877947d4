"""Load and validate the Oh no... INVASION!!! component file (data/components.toml by default).

Cards become small ints: Resistance cards 0..43 and Spawn cards 0..61, in file order, with their
printed faces in parallel tuples (`res_*`, `spawn_*`) so the hot loop reads plain tuples.
Every fault names the file, the key and what is wrong, as a `UserError` (one line, exit code 2).
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
from simkit.core.files import data_int as _int
from simkit.core.files import data_source as _source
from simkit.core.files import data_table as _table

DEFAULT_FILE = Path(__file__).parent / "data" / "components.toml"
KINDS = ("invalien", "evaporalien", "sabotalien")
INVALIEN, EVAPORALIEN, SABOTALIEN = 0, 1, 2
MODULES = ("catalyst", "morph_box", "teleporter")
# Resistance card categories
HUB, CATALYST, MORPH_BOX, TELEPORTER, WEAPON = 0, 1, 2, 3, 4
CATEGORY_NAMES = ("Transport Hub", "Catalyst", "Morph-box", "Teleporter", "weapon")
LEFT, RIGHT = 1, -1  # flying left = clockwise = to the next seat (rulebook, Flying)
N_COLOURS = 8
BLACK = 8  # weapon colour index of the black weapons


class Components(NamedTuple):
    """The printed components as parallel tuples. A named tuple with a read-only `sources`:
    players hold it in their view, and nothing done through it can change what the engine or any
    other game reads (a frozen dataclass yields to object.__setattr__)."""

    path: str
    sha256: str
    colours: tuple[str, ...]  # 8 alien colours; index 8 (BLACK) is "black" for weapons
    colour_kind: tuple[int, ...]  # kind of each colour
    weapon_types: tuple[str, ...]  # 3 type names
    points: tuple[int, ...]  # points per survivor at levels 0..3
    orders: tuple[tuple[int, ...], ...]  # allowed ordered colours per colour (the order table)
    # Resistance cards, indexed by card id
    res_category: tuple[int, ...]
    res_colour: tuple[int, ...]  # weapon colour (BLACK for black); module symbol; -1 for hubs
    res_type: tuple[int, ...]  # weapon type 0..2; 3 for modules (Morph-box pairs "2 Modules"); -1 hubs
    res_symbols: tuple[tuple[int, ...], ...]  # symbols a station module shows (hubs 3, modules 1)
    res_name: tuple[str, ...]
    res_is_weapon: tuple[bool, ...]
    res_is_module: tuple[bool, ...]  # a module that can be built (not a Hub)
    zappers: tuple[frozenset[int], ...]  # per colour: the weapons that ZAP it (its colour or black)
    hubs: tuple[int, ...]  # card ids of hubs 1..5 in number order
    # Spawn cards, indexed by card id
    spawn_shield: tuple[bool, ...]
    spawn_colour: tuple[int, ...]
    spawn_kind: tuple[int, ...]  # -1 for shields
    spawn_aliens: tuple[int, ...]
    spawn_flies: tuple[int, ...]  # LEFT / RIGHT (0 for shields)
    spawn_orders: tuple[int, ...]  # ordered colour (-1 for shields)
    spawn_threshold: tuple[int, ...]  # Invaliens only (0 otherwise)
    spawn_name: tuple[str, ...]
    shields_total: int
    sources: Mapping[str, str]

    @property
    def n_res(self) -> int:
        return len(self.res_category)

    @property
    def n_spawn(self) -> int:
        return len(self.spawn_colour)


def _cards(table: dict, path: Path, key: str) -> list:
    cards = table.get("cards")
    if not isinstance(cards, list) or not cards:
        raise _fail(path, f"{key}.cards", "must be a non-empty list of tables")
    return cards


def _card(card, path: Path, key: str, required: set[str], optional: set[str] = frozenset()) -> dict:
    if not isinstance(card, dict) or not required <= set(card) <= required | optional:
        fields = ", ".join(sorted(required)) + (
            f" (optional {', '.join(sorted(optional))})" if optional else ""
        )
        raise _fail(path, key, f"must be a table with keys {fields}")
    return card


def _colour(value, path: Path, key: str, names: list[str], black: bool = False) -> int:
    allowed = names + ["black"] if black else names
    if value not in allowed:
        raise _fail(path, key, f"unknown colour {value!r} (colours: {', '.join(allowed)})")
    return BLACK if value == "black" else names.index(value)


def load(path: str | Path | None = None) -> Components:
    """Load and validate a component file; `None` means the built-in default."""
    return _load_cached(*data_key(path, DEFAULT_FILE))


@lru_cache(maxsize=8)
def _load_cached(path_text: str, shipped_digest: str) -> Components:
    """`shipped_digest` only keys the cache: other bytes shipped for the same path load afresh."""
    path = Path(path_text)
    doc, raw = read_toml(path, "component file")
    top = {
        "meta",
        "totals",
        "colours",
        "levels",
        "hubs",
        "modules",
        "weapons",
        "orders",
        "shields",
        "invaders",
    }
    unknown = set(doc) - top
    if unknown:
        raise _fail(path, sorted(unknown)[0], f"unknown section (allowed: {', '.join(sorted(top))})")
    if "meta" in doc:
        _table(doc, path, "meta", {"name", "version", "description"})
    sources: dict[str, str] = {}

    totals = _table(doc, path, "totals", {"source", "resistance", "spawn"})
    sources["card counts"] = _source(totals, path, "totals")
    total_res = _int(totals, path, "totals", "resistance", 1, 1000)
    total_spawn = _int(totals, path, "totals", "spawn", 1, 1000)

    colours_t = _table(doc, path, "colours", {"source", *KINDS})
    sources["colours"] = _source(colours_t, path, "colours")
    names: list[str] = []
    kind_of: list[int] = []
    for k, kind in enumerate(KINDS):
        value = colours_t.get(kind)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise _fail(path, f"colours.{kind}", "must be a non-empty list of colour names")
        for v in value:
            if v in names or v == "black":
                raise _fail(path, f"colours.{kind}", f"colour {v!r} is named twice (or is 'black')")
            names.append(v)
            kind_of.append(k)
    if len(names) != N_COLOURS:
        raise _fail(path, "colours", f"must name {N_COLOURS} colours in all, found {len(names)}")
    if len([k for k in kind_of if k == SABOTALIEN]) < 1:
        raise _fail(path, "colours.sabotalien", "needs at least one colour")

    levels = _table(doc, path, "levels", {"source", "points"})
    sources["levels"] = _source(levels, path, "levels")
    points = levels.get("points")
    if (
        not isinstance(points, list)
        or len(points) != 4
        or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 100 for p in points)
    ):
        raise _fail(path, "levels.points", "must list 4 integers 0..100 (points per survivor, levels 0-3)")

    cat: list[int] = []
    col: list[int] = []
    typ: list[int] = []
    syms: list[tuple[int, ...]] = []
    rname: list[str] = []

    hubs_t = _table(doc, path, "hubs", {"source", "cards"})
    sources["hubs"] = _source(hubs_t, path, "hubs")
    hub_list = _cards(hubs_t, path, "hubs")
    if len(hub_list) != 5:
        raise _fail(path, "hubs.cards", f"must list the 5 Transport Hubs, found {len(hub_list)}")
    hub_ids: dict[int, int] = {}
    for i, card in enumerate(hub_list):
        key = f"hubs.cards[{i}]"
        _card(card, path, key, {"number", "symbols"})
        number = _int(card, path, key, "number", 1, 5)
        if number in hub_ids:
            raise _fail(path, f"{key}.number", f"hub {number} is listed twice")
        symbols = card["symbols"]
        if not isinstance(symbols, list) or len(symbols) != 3:
            raise _fail(path, f"{key}.symbols", "must list three symbols (colours)")
        sym = tuple(_colour(s, path, f"{key}.symbols", names) for s in symbols)
        if len(set(sym)) != 3:
            raise _fail(path, f"{key}.symbols", "the three symbols must differ")
        hub_ids[number] = len(cat)
        cat.append(HUB)
        col.append(-1)
        typ.append(-1)
        syms.append(sym)
        rname.append(f"Hub {number}")

    modules_t = _table(doc, path, "modules", {"source", "cards"})
    sources["modules"] = _source(modules_t, path, "modules")
    for i, card in enumerate(_cards(modules_t, path, "modules")):
        key = f"modules.cards[{i}]"
        _card(card, path, key, {"module", "symbol"})
        if card["module"] not in MODULES:
            raise _fail(
                path, f"{key}.module", f"unknown module {card['module']!r} (known: {', '.join(MODULES)})"
            )
        m = MODULES.index(card["module"]) + 1
        s = _colour(card["symbol"], path, f"{key}.symbol", names)
        cat.append(m)
        col.append(s)
        typ.append(3)
        syms.append((s,))
        rname.append(f"{CATEGORY_NAMES[m]} ({names[s]})")

    weapons_t = _table(doc, path, "weapons", {"source", "types", "cards"})
    sources["weapons"] = _source(weapons_t, path, "weapons")
    wtypes = weapons_t.get("types")
    if (
        not isinstance(wtypes, list)
        or len(wtypes) != 3
        or not all(isinstance(t, str) and t for t in wtypes)
        or len(set(wtypes)) != 3
    ):
        raise _fail(path, "weapons.types", "must list 3 distinct weapon type names")
    for i, card in enumerate(_cards(weapons_t, path, "weapons")):
        key = f"weapons.cards[{i}]"
        _card(card, path, key, {"type", "colour"})
        if card["type"] not in wtypes:
            raise _fail(
                path, f"{key}.type", f"unknown weapon type {card['type']!r} (types: {', '.join(wtypes)})"
            )
        c = _colour(card["colour"], path, f"{key}.colour", names, black=True)
        cat.append(WEAPON)
        col.append(c)
        typ.append(wtypes.index(card["type"]))
        syms.append(())
        rname.append(f"{'black' if c == BLACK else names[c]} {card['type']}")
    if len(set(rname)) != len(rname):
        dup = next(n for n in rname if rname.count(n) > 1)
        raise _fail(path, "modules", f"two Resistance cards share the face {dup!r}; every card must differ")
    if len(cat) != total_res:
        raise _fail(
            path, "totals.resistance", f"the file lists {len(cat)} Resistance cards, totals says {total_res}"
        )

    orders_t = _table(doc, path, "orders", {"source", *names})
    sources["orders"] = _source(orders_t, path, "orders")
    orders: list[tuple[int, ...]] = []
    for c, name in enumerate(names):
        value = orders_t.get(name)
        if not isinstance(value, list) or not value:
            raise _fail(path, f"orders.{name}", "must list the colours this colour may order")
        allowed = tuple(_colour(v, path, f"orders.{name}", names) for v in value)
        if len(set(allowed)) != len(allowed):
            raise _fail(path, f"orders.{name}", "lists a colour twice")
        for o in allowed:
            if o == c or kind_of[o] != kind_of[c]:
                raise _fail(
                    path, f"orders.{name}", f"must order another colour of its own kind, not {names[o]!r}"
                )
        orders.append(allowed)

    shields_t = _table(doc, path, "shields", {"source", "colours"})
    sources["shields"] = _source(shields_t, path, "shields")
    s_list = shields_t.get("colours")
    if not isinstance(s_list, list) or not s_list:
        raise _fail(path, "shields.colours", "must list one colour per Shield alien")
    s_shield: list[bool] = []
    s_col: list[int] = []
    s_kind: list[int] = []
    s_n: list[int] = []
    s_fly: list[int] = []
    s_ord: list[int] = []
    s_thr: list[int] = []
    s_name: list[str] = []
    for v in s_list:
        c = _colour(v, path, "shields.colours", names)
        s_shield.append(True)
        s_col.append(c)
        s_kind.append(-1)
        s_n.append(1)
        s_fly.append(0)
        s_ord.append(-1)
        s_thr.append(0)
        s_name.append(f"{names[c]} Shield alien")

    inv_t = _table(doc, path, "invaders", {"source", "cards"})
    sources["invaders"] = _source(inv_t, path, "invaders")
    for i, card in enumerate(_cards(inv_t, path, "invaders")):
        key = f"invaders.cards[{i}]"
        _card(card, path, key, {"colour", "aliens", "flies", "orders"}, {"threshold"})
        c = _colour(card["colour"], path, f"{key}.colour", names)
        kind = kind_of[c]
        n = _int(card, path, key, "aliens", 1, 9)
        if kind == SABOTALIEN and n != 1:
            raise _fail(path, f"{key}.aliens", "a Sabotalien card shows one alien (one per module)")
        if card["flies"] not in ("left", "right"):
            raise _fail(path, f"{key}.flies", f"must be 'left' or 'right', got {card['flies']!r}")
        o = _colour(card["orders"], path, f"{key}.orders", names)
        if o not in orders[c]:
            allowed = ", ".join(names[x] for x in orders[c])
            raise _fail(
                path,
                f"{key}.orders",
                f"{names[c]} may order {allowed} (the [orders] table), not {names[o]!r}",
            )
        if kind == INVALIEN:
            thr = _int(card, path, key, "threshold", 1, 99)
        elif "threshold" in card:
            raise _fail(path, f"{key}.threshold", "only Invaliens print an elimination threshold")
        else:
            thr = 0
        s_shield.append(False)
        s_col.append(c)
        s_kind.append(kind)
        s_n.append(n)
        s_fly.append(LEFT if card["flies"] == "left" else RIGHT)
        s_ord.append(o)
        s_thr.append(thr)
        plural = KINDS[kind].capitalize() + ("s" if n > 1 else "")
        extra = f" at {thr}+" if kind == INVALIEN else ""
        s_name.append(f"{names[c]} {plural} x{n} (flies {card['flies']}, orders {names[o]}{extra})")
    if len(s_col) != total_spawn:
        raise _fail(
            path, "totals.spawn", f"the file lists {len(s_col)} Spawn cards, totals says {total_spawn}"
        )
    for c, name in enumerate(names):
        if not any(x == c and not sh for x, sh in zip(s_col, s_shield, strict=True)):
            raise _fail(path, "invaders.cards", f"colour {name!r} has no invader card")

    return Components(
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        colours=tuple(names) + ("black",),
        colour_kind=tuple(kind_of),
        weapon_types=tuple(wtypes),
        points=tuple(points),
        orders=tuple(orders),
        res_category=tuple(cat),
        res_colour=tuple(col),
        res_type=tuple(typ),
        res_symbols=tuple(syms),
        res_name=tuple(rname),
        res_is_weapon=tuple(c == WEAPON for c in cat),
        res_is_module=tuple(c in (CATALYST, MORPH_BOX, TELEPORTER) for c in cat),
        zappers=tuple(
            frozenset(i for i, k in enumerate(cat) if k == WEAPON and col[i] in (colour, BLACK))
            for colour in range(N_COLOURS)
        ),
        hubs=tuple(hub_ids[k] for k in range(1, 6)),
        spawn_shield=tuple(s_shield),
        spawn_colour=tuple(s_col),
        spawn_kind=tuple(s_kind),
        spawn_aliens=tuple(s_n),
        spawn_flies=tuple(s_fly),
        spawn_orders=tuple(s_ord),
        spawn_threshold=tuple(s_thr),
        spawn_name=tuple(s_name),
        shields_total=len(s_list),
        sources=MappingProxyType(sources),
    )
