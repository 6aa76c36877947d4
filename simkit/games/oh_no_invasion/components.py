"""Load and validate the Oh no... INVASION!!! component file (data/components.toml by default).

Cards become small ints: Resistance cards 0..43 and Spawn cards 0..61, in file order, with their
printed faces in parallel tuples (`res_*`, `spawn_*`) so the hot loop reads plain tuples.
Every fault names the file, the key and what is wrong, as a `UserError` (one line, exit code 2).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from simkit.core import schema
from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
)
from simkit.core.schema import Check, FileSpec, Int, List, Section, Source, Str, Table, Tables

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
# Components.sources: each part of the game -> the file section whose `source` it reports
SOURCE_SECTIONS = {
    "card counts": "totals",
    **{s: s for s in ("colours", "levels", "hubs", "modules", "weapons", "orders", "shields", "invaders")},
}


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


# --- the file, declared once: the loader checks it, `simkit data template/check` explain it ----


def _colour_names(doc: dict) -> list[str]:
    """The alien colours in index order: the Invalien colours, the Evaporalien, the Sabotalien."""
    return [name for kind in KINDS for name in doc["colours"][kind]]


def _colour_kinds(doc: dict) -> list[int]:
    return [k for k, kind in enumerate(KINDS) for _ in doc["colours"][kind]]


def _unknown_colour(value: str, names: list[str], key: str, black: bool = False) -> Iterator[schema.Problem]:
    allowed = [*names, "black"] if black else names
    if value not in allowed:
        yield key, f"unknown colour {value!r} (colours: {', '.join(allowed)})"


def _resistance_cards(doc: dict, names: list[str]) -> list[tuple[int, int, int, tuple[int, ...], str]]:
    """(category, colour, type, symbols, name) of each Resistance card in card-id order: the hubs,
    the modules, then the weapons. The loader reads it, and so does the rule that faces differ."""
    cards = [
        (HUB, -1, -1, tuple(names.index(s) for s in card["symbols"]), f"Hub {card['number']}")
        for card in doc["hubs"]["cards"]
    ]
    for card in doc["modules"]["cards"]:
        m, s = MODULES.index(card["module"]) + 1, names.index(card["symbol"])
        cards.append((m, s, 3, (s,), f"{CATEGORY_NAMES[m]} ({names[s]})"))
    types = doc["weapons"]["types"]
    for card in doc["weapons"]["cards"]:
        c = BLACK if card["colour"] == "black" else names.index(card["colour"])
        cards.append((WEAPON, c, types.index(card["type"]), (), f"{card['colour']} {card['type']}"))
    return cards


def _spawn_cards(
    doc: dict, names: list[str], kinds: list[int]
) -> list[tuple[bool, int, int, int, int, int, int, str]]:
    """(shield, colour, kind, aliens, flies, orders, threshold, name) of each Spawn card in card-id
    order: the Shield aliens, then the invaders."""
    cards = [(True, names.index(c), -1, 1, 0, -1, 0, f"{c} Shield alien") for c in doc["shields"]["colours"]]
    for card in doc["invaders"]["cards"]:
        c, n, flies = names.index(card["colour"]), card["aliens"], card["flies"]
        kind, threshold = kinds[c], card.get("threshold", 0)
        plural = KINDS[kind].capitalize() + ("s" if n > 1 else "")
        at = f" at {threshold}+" if kind == INVALIEN else ""
        name = f"{card['colour']} {plural} x{n} (flies {flies}, orders {card['orders']}{at})"
        direction = LEFT if flies == "left" else RIGHT
        cards.append((False, c, kind, n, direction, names.index(card["orders"]), threshold, name))
    return cards


def _colours_distinct(doc: dict) -> Iterator[schema.Problem]:
    seen: set[str] = set()
    for kind in KINDS:
        for name in doc["colours"][kind]:
            if name == "black":
                yield f"colours.{kind}", "'black' is the colour of the black weapons, not of an alien"
            elif name in seen:
                yield f"colours.{kind}", f"colour {name!r} is named twice"
            seen.add(name)
    found = len(_colour_names(doc))
    if found != N_COLOURS:
        yield "colours", f"must name {N_COLOURS} colours in all, found {found}"


def _hubs_numbered_once(doc: dict) -> Iterator[schema.Problem]:
    names, numbers = _colour_names(doc), set()
    for i, card in enumerate(doc["hubs"]["cards"]):
        if card["number"] in numbers:
            yield f"hubs.cards[{i}].number", f"hub {card['number']} is listed twice"
        numbers.add(card["number"])
        for symbol in card["symbols"]:
            yield from _unknown_colour(symbol, names, f"hubs.cards[{i}].symbols")


def _module_symbols(doc: dict) -> Iterator[schema.Problem]:
    names = _colour_names(doc)
    for i, card in enumerate(doc["modules"]["cards"]):
        yield from _unknown_colour(card["symbol"], names, f"modules.cards[{i}].symbol")


def _weapon_faces(doc: dict) -> Iterator[schema.Problem]:
    names, types = _colour_names(doc), doc["weapons"]["types"]
    for i, card in enumerate(doc["weapons"]["cards"]):
        if card["type"] not in types:
            yield (
                f"weapons.cards[{i}].type",
                f"unknown weapon type {card['type']!r} (types: {', '.join(types)})",
            )
        yield from _unknown_colour(card["colour"], names, f"weapons.cards[{i}].colour", black=True)


def _resistance_faces_differ(doc: dict) -> Iterator[schema.Problem]:
    faces = [card[4] for card in _resistance_cards(doc, _colour_names(doc))]
    twice = next((face for face in faces if faces.count(face) > 1), None)
    if twice is not None:
        yield "modules", f"two Resistance cards share the face {twice!r}; every card must differ"


def _resistance_total(doc: dict) -> Iterator[schema.Problem]:
    found = sum(len(doc[section]["cards"]) for section in ("hubs", "modules", "weapons"))
    total = doc["totals"]["resistance"]
    if found != total:
        yield "totals.resistance", f"the file lists {found} Resistance cards, totals says {total}"


def _order_table(doc: dict) -> Iterator[schema.Problem]:
    names, kinds, table = _colour_names(doc), _colour_kinds(doc), doc["orders"]
    for name in table:
        if name != "source" and name not in names:
            yield f"orders.{name}", f"unknown colour (colours: {', '.join(names)})"
    for c, name in enumerate(names):
        if name not in table:
            yield f"orders.{name}", "missing: list the colours this colour may order"
            continue
        ordered = table[name]
        if len(set(ordered)) != len(ordered):
            yield f"orders.{name}", "lists a colour twice"
        for other in ordered:
            if other not in names:
                yield from _unknown_colour(other, names, f"orders.{name}")
            elif other == name or kinds[names.index(other)] != kinds[c]:
                yield f"orders.{name}", f"must order another colour of its own kind, not {other!r}"


def _shield_colours(doc: dict) -> Iterator[schema.Problem]:
    names = _colour_names(doc)
    for colour in doc["shields"]["colours"]:
        yield from _unknown_colour(colour, names, "shields.colours")


def _invader_cards(doc: dict) -> Iterator[schema.Problem]:
    names, kinds, table = _colour_names(doc), _colour_kinds(doc), doc["orders"]
    for i, card in enumerate(doc["invaders"]["cards"]):
        key = f"invaders.cards[{i}]"
        if card["colour"] not in names:
            yield from _unknown_colour(card["colour"], names, f"{key}.colour")
            continue
        kind = kinds[names.index(card["colour"])]
        if kind == SABOTALIEN and card["aliens"] != 1:
            yield f"{key}.aliens", "a Sabotalien card shows one alien (one per module)"
        if card["orders"] not in names:
            yield from _unknown_colour(card["orders"], names, f"{key}.orders")
        elif card["orders"] not in table[card["colour"]]:
            yield (
                f"{key}.orders",
                f"{card['colour']} may order {', '.join(table[card['colour']])} (the [orders] table), "
                f"not {card['orders']!r}",
            )
        if kind == INVALIEN and "threshold" not in card:
            yield f"{key}.threshold", "missing: an Invalien card prints its elimination threshold"
        elif kind != INVALIEN and "threshold" in card:
            yield f"{key}.threshold", "only Invaliens print an elimination threshold"


def _spawn_total(doc: dict) -> Iterator[schema.Problem]:
    found = len(doc["shields"]["colours"]) + len(doc["invaders"]["cards"])
    total = doc["totals"]["spawn"]
    if found != total:
        yield "totals.spawn", f"the file lists {found} Spawn cards, totals says {total}"


def _every_colour_invades(doc: dict) -> Iterator[schema.Problem]:
    invading = {card["colour"] for card in doc["invaders"]["cards"]}
    for name in _colour_names(doc):
        if name not in invading:
            yield "invaders.cards", f"colour {name!r} has no invader card"


COLOUR_HELP = "an alien colour named in [colours]"


def _cards(doc: str, **fields: schema.Field) -> Tables:
    return Tables(doc=doc, min_len=1, item=Table(inline=True, fields=fields))


FILE_SPEC = FileSpec(
    title="Oh no... INVASION!!! component file.",
    intro="The card counts, the eight alien colours and their kinds, the points per survivor, the "
    "Resistance deck (5 Transport Hubs, the station modules, the weapons) and the Spawnmonster deck "
    "(the Shield aliens and the invader cards), with the order table of who orders whom. The counts "
    "are published and the points are in the rulebook; most printed faces are not public, so the "
    "built-in faces are invented (RULINGS section 2). Colours are named once, in [colours]; every "
    "other section refers to them by those names.",
    root=Table(
        fields={
            "meta": schema.META,
            "totals": Section(
                doc="How many cards each deck holds: the sections below must add up to these",
                resistance=Int(doc="Resistance cards: hubs + modules + weapons", lo=1, hi=1000),
                spawn=Int(doc="Spawn cards: Shield aliens + invader cards", lo=1, hi=1000),
            ),
            "colours": Section(
                doc=f"The {N_COLOURS} alien colours, listed under their kind; each colour has one kind. "
                'The weapons\' extra colour "black" is not an alien colour',
                invalien=List(
                    doc="the Invalien colours (ordered to attack, they eliminate a player with as "
                    "many of them as the ordering card's threshold)",
                    item=Str(),
                    min_len=1,
                ),
                evaporalien=List(
                    doc="the Evaporalien colours (an attack discards a hand card per alien)",
                    item=Str(),
                    min_len=1,
                ),
                sabotalien=List(
                    doc="the Sabotalien colours (they sit next to a module with their symbol and "
                    "sabotage it)",
                    item=Str(),
                    min_len=1,
                ),
            ),
            "levels": Section(
                doc="The Next Level: what each surviving crew member scores",
                points=List(
                    doc="points per survivor at levels 0, 1, 2 and 3",
                    item=Int(lo=0, hi=100),
                    min_len=4,
                    max_len=4,
                ),
            ),
            "hubs": Section(
                doc="The 5 Transport Hubs (Resistance cards): a game uses hubs 1 up to the number of "
                "players. A symbol is a colour: an invader lands at a station showing its colour",
                cards=Tables(
                    doc="the hub cards",
                    min_len=5,
                    max_len=5,
                    item=Table(
                        inline=True,
                        fields={
                            "number": Int(doc="its printed number, each of 1 to 5 once", lo=1, hi=5),
                            "symbols": List(
                                doc=f"its three different symbols, each {COLOUR_HELP}",
                                item=Str(),
                                min_len=3,
                                max_len=3,
                                distinct=True,
                            ),
                        },
                    ),
                ),
            ),
            "modules": Section(
                doc="The station modules (Resistance cards), each with one symbol",
                cards=_cards(
                    "the module cards",
                    module=Str(doc="which module", choices=MODULES),
                    symbol=Str(doc=f"its symbol, {COLOUR_HELP}"),
                ),
            ),
            "weapons": Section(
                doc="The weapon cards (Resistance cards): a weapon zaps aliens of its colour; a black "
                "weapon zaps any colour",
                types=List(doc="the three weapon types", item=Str(), min_len=3, max_len=3, distinct=True),
                cards=_cards(
                    "the weapon cards",
                    type=Str(doc="its type, one of `types`"),
                    colour=Str(doc=f'its colour: {COLOUR_HELP}, or "black"'),
                ),
            ),
            "orders": Table(
                doc="The order table: the colours an invader card of each colour may name in its "
                "text balloon (the colour it orders to attack). A colour orders other colours of "
                "its own kind only",
                fields={"source": Source()},
                keys=r"(?s).+",
                keys_help="each alien colour of [colours], once",
                values=List(doc="the colours this colour may order", item=Str(), min_len=1),
            ),
            "shields": Section(
                doc="The Shield aliens of the Spawnmonster deck",
                colours=List(
                    doc=f"one entry per Shield alien card: its colour, {COLOUR_HELP}",
                    item=Str(),
                    min_len=1,
                ),
            ),
            "invaders": Section(
                doc="The invader cards of the Spawnmonster deck (every Spawn card but the Shield aliens)",
                cards=_cards(
                    "the invader cards",
                    colour=Str(doc=f"its colour, {COLOUR_HELP}; the colour's kind is the card's kind"),
                    aliens=Int(doc="aliens it shows (a Sabotalien card shows one)", lo=1, hi=9),
                    flies=Str(
                        doc='its flying direction ("left" is clockwise, to the next seat)',
                        choices=("left", "right"),
                    ),
                    orders=Str(
                        doc="the colour its text balloon orders to attack, one its colour's "
                        "[orders] entry lists"
                    ),
                    threshold=Int(
                        doc="its printed elimination threshold, on every Invalien card and no other: a "
                        "player with this many aliens of the ordered colour is eliminated",
                        lo=1,
                        hi=99,
                        optional=True,
                    ),
                ),
            ),
        }
    ),
    checks=(
        Check(
            ("colours",),
            _colours_distinct,
            f'the colours are {N_COLOURS} different names, none of them "black".',
        ),
        Check(
            ("colours", "hubs"),
            _hubs_numbered_once,
            "each hub number appears once, and every hub symbol is a colour of [colours].",
        ),
        Check(("colours", "modules"), _module_symbols, "every module symbol is a colour of [colours]."),
        Check(
            ("colours", "weapons"),
            _weapon_faces,
            'every weapon\'s type is one of weapons.types, and its colour one of [colours] or "black".',
        ),
        Check(
            ("colours", "hubs", "modules", "weapons"),
            _resistance_faces_differ,
            "no two Resistance cards show the same face (module and symbol, or weapon type and colour).",
        ),
        Check(
            ("totals", "hubs", "modules", "weapons"),
            _resistance_total,
            "totals.resistance is the number of hubs, modules and weapons listed.",
        ),
        Check(
            ("colours", "orders"),
            _order_table,
            "[orders] has one entry per colour of [colours]; each lists, once each, other colours of "
            "the same kind.",
        ),
        Check(
            ("colours", "shields"), _shield_colours, "every Shield alien's colour is a colour of [colours]."
        ),
        Check(
            ("colours", "orders", "invaders"),
            _invader_cards,
            "every invader card's colour is a colour of [colours]; it orders a colour its colour's "
            "[orders] entry lists; a Sabotalien card shows one alien; Invalien cards, and only they, "
            "give a threshold.",
        ),
        Check(
            ("totals", "shields", "invaders"),
            _spawn_total,
            "totals.spawn is the number of Shield aliens and invader cards listed.",
        ),
        Check(("colours", "invaders"), _every_colour_invades, "every colour has at least one invader card."),
    ),
)


def _build(path: Path, doc: dict[str, Any], sha256: str) -> Components:
    """The checked document of the component file at `path` as the engine's components."""
    names, kinds = _colour_names(doc), _colour_kinds(doc)
    category, colour, type_, symbols, name = (
        tuple(part) for part in zip(*_resistance_cards(doc, names), strict=True)
    )
    hub_cards = doc["hubs"]["cards"]  # the first Resistance cards, ids 0..4
    shield, s_colour, s_kind, aliens, flies, s_orders, threshold, s_name = (
        tuple(part) for part in zip(*_spawn_cards(doc, names, kinds), strict=True)
    )
    return Components(
        path=str(path),
        sha256=sha256,
        colours=(*names, "black"),
        colour_kind=tuple(kinds),
        weapon_types=tuple(doc["weapons"]["types"]),
        points=tuple(doc["levels"]["points"]),
        orders=tuple(tuple(names.index(o) for o in doc["orders"][c]) for c in names),
        res_category=category,
        res_colour=colour,
        res_type=type_,
        res_symbols=symbols,
        res_name=name,
        res_is_weapon=tuple(c == WEAPON for c in category),
        res_is_module=tuple(c in (CATALYST, MORPH_BOX, TELEPORTER) for c in category),
        zappers=tuple(
            frozenset(i for i, k in enumerate(category) if k == WEAPON and colour[i] in (c, BLACK))
            for c in range(N_COLOURS)
        ),
        hubs=tuple(sorted(range(len(hub_cards)), key=lambda i: hub_cards[i]["number"])),  # by number
        spawn_shield=shield,
        spawn_colour=s_colour,
        spawn_kind=s_kind,
        spawn_aliens=aliens,
        spawn_flies=flies,
        spawn_orders=s_orders,
        spawn_threshold=threshold,
        spawn_name=s_name,
        shields_total=len(doc["shields"]["colours"]),
        sources=MappingProxyType({part: doc[section]["source"] for part, section in SOURCE_SECTIONS.items()}),
    )


load = schema.loader(FILE_SPEC, "oh-no-invasion", DEFAULT_FILE, _build, "component file")
