"""Load and validate the Space Alert component file (data/space_alert.toml by default).

`FILE_SPEC` declares the file once: the loader checks a file against it, `simkit data check`
lists every fault and `simkit data template` writes the file with every field explained. The
loader refuses a file in one line naming the file, the key and what is wrong (`UserError`, exit
code 2).
The loaded `Components` holds precomputed tuples the resolution engine reads in its hot loop.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from simkit.core import schema
from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
)
from simkit.core.schema import Check, Field, FileSpec, Int, List, Problem, Section, Source, Str, Table, Tables

DEFAULT_FILE = Path(__file__).parent / "data" / "space_alert.toml"
ZONES = ("red", "white", "blue")
STATIONS = ("upper red", "upper white", "upper blue", "lower red", "lower white", "lower blue")
KINDS = ("external", "intruder", "malfunction")
DECKS = ("common", "serious")
COLOURS = ("white", "yellow")
BUTTONS = ("A", "B", "C", "BB")
TILES = ("reactor", "shield", "heavy_laser", "lower_cannon", "gravolift", "structural")
THREAT_COUNTS = {"E1": 10, "E2": 7, "SE1": 8, "SE2": 6, "I1": 7, "I2": 6, "SI1": 6, "SI2": 5}

# Effect steps the engine implements (rules.py); n = amount where the op takes one.
EFFECT_OPS = frozenset(
    {
        # external
        "attack", "attack_all", "attack_others", "attack_red_blue", "attack_unshielded",
        "attack_remaining", "attack_all_if_damaged", "attack_unless_damaged", "attack_counted",
        "reveal", "drain_all_shields", "drain_each_shield", "repair", "heal_half", "speed",
        "shield", "set_shield", "boost_others", "advance_others", "shield_all_external",
        "count", "damage_other_external", "self_damage", "destroy_ship", "delay_zone",
        "delay_aboard", "knockout_aboard",
        # internal
        "move_red", "move_blue", "change_deck", "drain_zone_reactor_1", "drain_zone_shield",
        "drain_zone_reactor", "attack_warheads", "destroy_rocket", "disable_idle_bots",
        "spread_red", "spread_blue", "attack_per_token", "drain_each_reactor",
        "attack_all_internal", "attack_reactor_energy", "destroy_fuel",
        "move_blue_if_damaged_else_attack", "move_red_if_damaged_else_attack", "knockout_station",
        "grow_up", "attack_players_present", "double_damage_zone", "double_damage_all",
        "energy_leak", "shield_leak", "reactor_leak", "knockout_with_bots",
        "knockout_at_stations", "knockout_aboard_red_blue", "knockout_without_bots", "seek",
        "drain_white_reactor", "delay_at_stations", "contaminate",
    }
)  # fmt: skip
# Ops that need an amount n.
NEEDS_N = frozenset(
    {
        "attack", "attack_all", "attack_others", "attack_red_blue", "attack_unshielded",
        "attack_remaining", "attack_all_if_damaged", "attack_unless_damaged", "attack_counted",
        "drain_each_shield", "repair", "speed", "shield", "set_shield", "advance_others",
        "shield_all_external", "damage_other_external", "self_damage", "attack_warheads",
        "attack_per_token", "drain_each_reactor", "attack_all_internal",
        "move_blue_if_damaged_else_attack", "move_red_if_damaged_else_attack",
        "drain_white_reactor",
    }
)  # fmt: skip
# Special-rule keys the engine implements (rules.py), with their meaning.
RULE_KEYS = {
    "double_damage": "damage past the shields counts twice",
    "stealth": "untargetable until its X action",
    "pulse_ignores_shield": "shield 0 in a damage step in which the pulse cannon targets it",
    "cryoshield": "the first damage step that targets it does nothing but remove the cryoshield",
    "rocket_immune": "rockets never target it",
    "rocket_wasted": "a rocket may target it but does no damage",
    "heavy_laser_ignores": "heavy lasers skip it and target the next threat in the zone",
    "max_one_damage": "takes at most 1 damage per damage step",
    "untargetable_far": "untargetable at distance 3",
    "behemoth_interceptors": "interceptors targeting it alone deal +6 and knock out the pilot",
    "rocket_magnet": "rockets target it at any distance; +1 shield per rocket hit",
    "nemesis_backlash": "every damage step that damages it attacks every zone for 1",
    "health_is_rockets": "health = rockets aboard when it appears",
    "slime": "a figure entering a slimed station is delayed; progeny tokens have 1 health",
    "fights_back": "battlebots that attack it are disabled (not with the heroic card)",
    "fights_back_after_x": "fights back once it has done its X action",
}


class Trajectory(NamedTuple):
    id: str
    length: int
    # action[s] for s in 0..length: 0 none, 1 X, 2 Y, 3 Z (index = space number)
    action: tuple[int, ...]


class Threat(NamedTuple):
    id: str
    name: str
    kind: str  # external | intruder | malfunction
    deck: str
    colour: str
    shield: int
    health: int
    speed: int
    effects: tuple  # (x, y, z, destroyed): each a tuple of (op, n)
    rules: frozenset
    stations: tuple[int, ...]  # internal: station indices
    button: str  # internal: A/B/C/BB; external: ""
    points: tuple[int, int]  # (destroyed, survived)
    text: str
    note: str

    @property
    def external(self) -> bool:
        return self.kind == "external"


class MissionThreat(NamedTuple):
    turn: int
    zone: int  # 0 red, 1 white, 2 blue, 3 internal
    serious: bool
    unconfirmed: bool


class Mission(NamedTuple):
    id: int
    threats: tuple[MissionThreat, ...]
    incoming_data: int
    data_transfers: int


class Components(NamedTuple):
    """The printed components. Named tuples and read-only mappings all the way down: planners
    see them in their view, and nothing a planner does through it can change what the engine or
    any other game reads (a frozen dataclass yields to object.__setattr__, a dict to item
    assignment)."""

    path: str
    sha256: str
    trajectories: tuple[Trajectory, ...]
    distance_bounds: tuple[int, int]
    ship: Mapping[str, Any]  # read-only: values are ints and tuples
    tiles: tuple[str, ...]
    points: Mapping[str, Any]
    moves: tuple[str, ...]
    actions: tuple[str, ...]
    copies: int
    heroic: tuple[tuple[str, int], ...]  # (action, teleport station)
    threats: tuple[Threat, ...]
    by_id: Mapping[str, Threat]
    missions: tuple[Mission, ...]
    recipe: Mapping[str, Any]
    sources: Mapping[str, str]


_MISSION_THREAT = re.compile(r"T([1-9]|1[0-2])(S?)([RWBI])(\??)")


def parse_mission_threat(text: str) -> MissionThreat:
    """'T7SR' -> turn 7, red, serious; 'T3I?' -> turn 3, internal, unconfirmed. ValueError otherwise."""
    m = _MISSION_THREAT.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(text)
    return MissionThreat(int(m.group(1)), "RWBI".index(m.group(3)), m.group(2) == "S", m.group(4) == "?")


# --- the file, declared once: the loader checks it, `simkit data template/check` explain it ----
# The kit's fields, plus four small ones this file needs (see each docstring). A Check needs
# whole sections: a section left out is reported at its own key ("recipe"), which a need for a
# key inside it ("recipe.incoming_data") would not notice.

RANGES = (  # the recipe's [low, high] ranges
    "internal_level", "common_external_turns", "serious_external_turns", "common_internal_turns",
    "serious_internal_turns", "incoming_data", "data_transfers",
)  # fmt: skip
EFFECT_NAMES = ("x", "y", "z", "destroyed")  # a card's effects, in the order of Threat.effects
STATION_ROLES = {  # the ship's named stations: what each is for
    "interceptor_station": "where the interceptors launch (C, with active battlebots)",
    "computer_station": "where the computer is maintained (A)",
    "window_station": "where figures watch the threats for visual confirmation",
    "rocket_station": "where rockets are launched (C)",
    "fuel_station": "where the fuel capsule is used (C)",
    "start_station": "where every figure starts",
}


@dataclass(frozen=True)
class Name(Field):
    """One of the engine's names (`known`); anything else is an "unknown {what}"."""

    known: tuple[str, ...] = ()
    what: str = "name"
    listed: bool = True  # a refusal lists the known names (False: too many to read)
    help: str = ""  # the allowed names in the template's words, where listing them each time is noise

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if not isinstance(value, str) or value not in self.known:
            known = f" (known: {', '.join(self.known)})" if self.listed else ""
            yield key, f"unknown {self.what} {value!r}{known}"

    def allowed(self) -> str:
        return self.help or "one of " + ", ".join(f'"{name}"' for name in self.known)


@dataclass(frozen=True)
class Names(List):
    """A list of `Name`s, each at most once: a repeat is "lists a {what} twice"."""

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        found = list(super().check(value, key))
        yield from found
        if not found and len(set(value)) != len(value):
            assert isinstance(self.item, Name)
            yield key, f"lists a {self.item.what} twice"

    def allowed(self) -> str:
        return f"a list, each entry once and {self.item.allowed()}"


@dataclass(frozen=True)
class Exactly(Field):
    """A value the engine fixes (its zone and station names): the file states it for people."""

    value: Any = None

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        if value != self.value:
            yield key, f"must be {self.value!r}, got {value!r}"

    def allowed(self) -> str:
        return "exactly " + json.dumps(self.value)  # a JSON list of strings reads as TOML


@dataclass(frozen=True)
class Cards(Tables):
    """Tables whose faults also name the entry by its id: "threats.cards[1] (E1-02).kind" finds
    the card among 55 where an index alone would not."""

    def check(self, value: Any, key: str) -> Iterator[Problem]:
        for where, message in super().check(value, key):
            yield _card_key(value, key, where), message


def _card_key(cards: Any, key: str, where: str) -> str:
    """`where` inside entry i of `cards` (at `key`), with the entry's id after its index."""
    m = re.match(re.escape(key) + r"\[(\d+)\](?=\.)", where)
    if m is None or where == m.group(0) + ".id":
        return where
    card = cards[int(m.group(1))]
    ident = card.get("id") if isinstance(card, dict) else None
    return f"{m.group(0)} ({ident}){where[m.end() :]}" if isinstance(ident, str) else where


def _card(doc: dict, i: int, name: str) -> str:
    """The key of field `name` of threat card i, as the field checks name it."""
    return f"threats.cards[{i}] ({doc['threats']['cards'][i]['id']}).{name}"


def _is_mission_threat(text: str) -> bool:
    return _MISSION_THREAT.fullmatch(text) is not None


def _trajectory_spaces(doc: dict) -> Iterator[Problem]:
    for i, board in enumerate(doc["trajectories"]["boards"]):
        key = f"trajectories.boards[{i}]"
        if board["id"] != f"T{i + 1}":
            yield f"{key}.id", f"must be T{i + 1}, got {board['id']!r}"
        taken = {board["z"]}
        for name in ("x", "y"):
            for space in board[name]:
                if space >= board["length"]:
                    yield (
                        f"{key}.{name}",
                        f"space {space} is not between Z and the entry space {board['length']}",
                    )
                elif space in taken:
                    yield f"{key}.{name}", f"space {space} already holds an action"
                taken.add(space)


def _ship_energy(doc: dict) -> Iterator[Problem]:
    ship = doc["ship"]
    for what in ("reactor", "shield"):
        if any(s > c for s, c in zip(ship[f"{what}_start"], ship[f"{what}_capacity"], strict=True)):
            yield f"ship.{what}_start", f"start energy above capacity ({what}_capacity)"


def _phases_end_the_mission(doc: dict) -> Iterator[Problem]:
    if doc["ship"]["phase_ends"][-1] != doc["ship"]["turns"]:
        yield "ship.phase_ends", f"must end at turn {doc['ship']['turns']} (ship.turns)"


def _threat_ids(doc: dict) -> Iterator[Problem]:
    cards = doc["threats"]["cards"]
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if card["id"] in seen:
            yield f"threats.cards[{i}].id", f"duplicate threat id {card['id']}"
        seen.add(card["id"])
    counts = Counter(card["id"].split("-")[0] for card in cards)
    for prefix, want in THREAT_COUNTS.items():
        if counts[prefix] != want:
            yield "threats.cards", f"the base game has {want} {prefix} threats, found {counts[prefix]}"


def _threat_kinds(doc: dict) -> Iterator[Problem]:
    """Kind, deck and colour as the id says; each kind with its own fields."""
    for i, card in enumerate(doc["threats"]["cards"]):
        serious, kind_letter, colour_digit = re.fullmatch(r"(S?)([EI])([12])-\d\d", card["id"]).groups()
        kind, deck, colour = card["kind"], card["deck"], card["colour"]
        if (kind_letter == "E") != (kind == "external"):
            yield _card(doc, i, "kind"), f"{kind} does not match the id {card['id']}"
        if (serious == "S") != (deck == "serious") or (colour_digit == "2") != (colour == "yellow"):
            yield _card(doc, i, "deck"), f"deck/colour {deck}/{colour} do not match the id {card['id']}"
        if kind == "external":
            if "shield" not in card:
                yield _card(doc, i, "shield"), "missing (an external threat has a shield)"
            for name in ("stations", "button"):
                if name in card:
                    yield _card(doc, i, name), "an external threat has no station or button"
            continue
        if "shield" in card:
            yield _card(doc, i, "shield"), "an internal threat has no shield"
        for name in ("stations", "button"):
            if name not in card:
                yield _card(doc, i, name), "missing (an internal threat has stations and a button)"
        if "button" in card and (kind == "intruder") != (card["button"] == "BB"):
            yield _card(doc, i, "button"), "intruders are fought with BB, malfunctions with A/B/C"


def _effect_amounts(doc: dict) -> Iterator[Problem]:
    for i, card in enumerate(doc["threats"]["cards"]):
        for name in EFFECT_NAMES:
            for j, step in enumerate(card.get(name, [])):
                if step["op"] in NEEDS_N and "n" not in step:
                    yield _card(doc, i, f"{name}[{j}].n"), f"missing (effect {step['op']!r} takes an amount)"
                elif step["op"] not in NEEDS_N and "n" in step:
                    yield _card(doc, i, f"{name}[{j}].n"), f"effect {step['op']!r} takes no amount"


def _mission_order(doc: dict) -> Iterator[Problem]:
    for i, mission in enumerate(doc["missions"]["list"]):
        key = f"missions.list[{i}]"
        if mission["id"] != i + 1:
            yield f"{key}.id", f"must be {i + 1}"
        turns = [parse_mission_threat(text).turn for text in mission["threats"]]
        if len(set(turns)) != len(turns):
            yield f"{key}.threats", "at most one threat per turn"


def _recipe_ranges(doc: dict) -> Iterator[Problem]:
    for name in RANGES:
        low, high = doc["recipe"][name]
        if low > high:
            yield f"recipe.{name}", f"must be [low, high], got {[low, high]}"


def _points_pair(what: str) -> List:
    return List(doc=what, item=Int(lo=0, hi=50), min_len=2, max_len=2)


def _range(what: str) -> List:
    return List(doc=f"{what}, [low, high]", item=Int(lo=0, hi=12), min_len=2, max_len=2)


def _three(what: str) -> List:
    return List(doc=f"{what}, per zone red, white, blue", item=Int(lo=0, hi=9), min_len=3, max_len=3)


STATION = Name(known=STATIONS, what="station", help="a station named in ship.stations")
NOTE = Str(doc="remarks for people: sources, disagreements", optional=True, nonempty=False)
EFFECT_STEPS = Table(
    inline=True,
    fields={
        "op": Name(
            doc="the effect",
            known=tuple(sorted(EFFECT_OPS)),
            what="effect",
            listed=False,
            help="an effect listed above",
        ),
        "n": Int(doc="its amount, for the effects that take one", lo=0, hi=20, optional=True),
    },
)


def _effects(doc: str, optional: bool = True, min_len: int = 0) -> Tables:
    return Tables(doc=doc, item=EFFECT_STEPS, optional=optional, min_len=min_len)


THREAT_CARD = Table(
    inline=True,
    fields={
        "id": Str(
            doc="as printed: S for serious, E external or I internal, 1 white or 2 yellow, a dash and "
            "two digits",
            pattern=r"S?[EI][12]-\d\d",
            pattern_help="a card id like E1-01 or SI2-05",
        ),
        "name": Str(doc="the card's title (default: its id)", optional=True),
        "kind": Str(doc="external, or internal: intruder or malfunction", choices=KINDS),
        "deck": Str(doc="the deck it is dealt from", choices=DECKS),
        "colour": Str(doc="white (basic) or yellow (harder) card back", choices=COLOURS),
        "shield": Int(
            doc="external threats only: the shield subtracted from each damage step",
            lo=-5,
            hi=10,
            optional=True,
        ),
        "health": Int(doc="damage it takes to destroy it", lo=1, hi=30),
        "speed": Int(doc="spaces it advances each turn", lo=1, hi=10),
        "stations": Names(
            doc="internal threats only: the station(s) it appears in",
            item=STATION,
            min_len=1,
            optional=True,
        ),
        "button": Str(
            doc="internal threats only: the action that damages it "
            "(BB battlebots for intruders, A/B/C for malfunctions)",
            choices=BUTTONS,
            optional=True,
        ),
        "x": _effects("the X action: effect steps run in order"),
        "y": _effects("the Y action"),
        "z": _effects("the Z action (every threat has one)", optional=False, min_len=1),
        "destroyed": _effects("what it does when destroyed"),
        "rules": Names(
            doc="its special rules",
            item=Name(known=tuple(RULE_KEYS), what="rule key", help="a rule key listed above"),
            optional=True,
        ),
        "points": List(
            doc="[destroyed, survived] when the card differs from the points table of its deck and colour",
            item=Int(lo=0, hi=50),
            min_len=2,
            max_len=2,
            optional=True,
        ),
        "text": Str(doc="the special rule as printed", optional=True, nonempty=False),
        "note": Str(doc="remarks for people: disagreeing transcriptions", optional=True, nonempty=False),
    },
)

THREATS_DOC = (
    "The threat cards: external threats fly down a trajectory, internal ones (intruders and "
    "malfunctions) sit in stations. A card's x, y, z and destroyed effects are lists of steps "
    "{ op = EFFECT } or { op = EFFECT, n = AMOUNT }, run in order. Effects with an amount n: "
    + ", ".join(sorted(NEEDS_N))
    + ". Effects without: "
    + ", ".join(sorted(EFFECT_OPS - NEEDS_N))
    + ". Special rules (a card's rules), with what each means: "
    + "; ".join(f"{key}: {meaning}" for key, meaning in RULE_KEYS.items())
)

FILE_SPEC = FileSpec(
    title="Space Alert (base game) component file.",
    intro="The trajectory boards, the ship board, damage tiles, threat points, the action deck, the 55 "
    "threat cards of the base game, the 8 transcribed mission soundtracks and the recipe for random "
    "missions. Names the engine reads (zones, stations, effects, special rules) are spelt as here; a "
    "card whose effect or special rule is not among those listed at [threats] needs new engine code "
    "(rules.py).",
    root=Table(
        fields={
            "meta": schema.META,
            "trajectories": Section(
                doc="The seven trajectory boards T1-T7. Space 1 is next to the ship (the Z space); a "
                "threat enters on the highest space (its length) and moves down by its speed",
                note=NOTE,
                boards=Tables(
                    doc="the boards T1 to T7, in order",
                    min_len=7,
                    max_len=7,
                    item=Table(
                        inline=True,
                        fields={
                            "id": Str(
                                doc="the board's name", pattern=r"T\d", pattern_help="T1 to T7, in order"
                            ),
                            "length": Int(doc="spaces, the entry space included", lo=3, hi=30),
                            "x": List(doc="the X spaces", item=Int(lo=2, hi=29), min_len=1, distinct=True),
                            "y": List(doc="the Y spaces", item=Int(lo=2, hi=29), distinct=True),
                            "z": Int(doc="the Z space (always 1)", lo=1, hi=1),
                        },
                    ),
                ),
                distance_bounds=List(
                    doc="the last space at distance 1 and at distance 2 (beyond: distance 3)",
                    item=Int(lo=1, hi=30),
                    min_len=2,
                    max_len=2,
                    increasing=True,
                ),
            ),
            "ship": Table(
                doc="The ship board and its set-up",
                fields={
                    "source": Source(),
                    "zones": Exactly(doc="the zones, as the engine names them", value=list(ZONES)),
                    "stations": Exactly(doc="the stations, as the engine names them", value=list(STATIONS)),
                    "reactor_capacity": _three("energy a reactor holds"),
                    "reactor_start": _three("energy in each reactor at the start"),
                    "shield_capacity": _three("energy a shield holds"),
                    "shield_start": _three("energy on each shield at the start"),
                    "fuel": Int(doc="fuel capsules at the start", lo=0, hi=9),
                    "heavy_laser": _three("heavy laser strength (upper A; 1 energy from the zone's reactor)"),
                    "laser_range": Int(doc="range of the heavy and light lasers", lo=1, hi=3),
                    "light_laser": _three("light laser strength (lower A; own battery)"),
                    "pulse_strength": Int(
                        doc="pulse cannon damage to each threat in range (lower white A)", lo=0, hi=9
                    ),
                    "pulse_range": Int(doc="pulse cannon range", lo=1, hi=3),
                    "rockets": Int(
                        doc="rockets aboard at the start (lower blue C, one launch a turn)", lo=0, hi=9
                    ),
                    "rocket_strength": Int(doc="rocket damage", lo=0, hi=9),
                    "rocket_range": Int(doc="rocket range", lo=1, hi=3),
                    "interceptor_single": Int(doc="interceptor damage to a lone threat in range", lo=0, hi=9),
                    "interceptor_multi": Int(
                        doc="interceptor damage to each of several threats in range", lo=0, hi=9
                    ),
                    "interceptor_range": Int(doc="interceptor range", lo=1, hi=3),
                    "battlebots": List(
                        doc="the stations where the two battlebot squads start",
                        item=STATION,
                        min_len=2,
                        max_len=2,
                    ),
                    **{name: replace(STATION, doc=role) for name, role in STATION_ROLES.items()},
                    "computer_checks": List(
                        doc="the turns after which computer maintenance is checked",
                        item=Int(lo=1, hi=12),
                        min_len=3,
                        max_len=3,
                    ),
                    "phase_ends": List(
                        doc="the last turn of each of the three phases",
                        item=Int(lo=1, hi=12),
                        min_len=3,
                        max_len=3,
                        increasing=True,
                    ),
                    "turns": Int(doc="turns in a mission (the engine plays 12)", lo=12, hi=12),
                    "visual_points": List(
                        doc="points for the best turn of a phase with 0, 1, ... 5 figures watching",
                        item=Int(lo=0, hi=20),
                        min_len=6,
                        max_len=6,
                    ),
                },
            ),
            "damage": Section(
                doc="The damage tiles: one of each kind per zone; a seventh damage destroys the ship",
                note=NOTE,
                tiles=Names(
                    doc="the kinds of tile, each once",
                    item=Name(known=TILES, what="damage tile"),
                    min_len=len(TILES),
                    max_len=len(TILES),
                ),
            ),
            "points": Table(
                doc="Threat points [destroyed, survived] by deck and colour, and the penalties",
                fields={
                    "source": Source(),
                    **{
                        f"{d}_{c}": _points_pair(f"[destroyed, survived] points of a {d} {c} threat")
                        for d in DECKS
                        for c in COLOURS
                    },
                    "penalty_knocked_out": Int(doc="negative points per knocked-out figure", lo=0, hi=10),
                    "penalty_disabled_bots": Int(
                        doc="negative points per disabled battlebot squad", lo=0, hi=10
                    ),
                    "penalty_damage": Int(
                        doc="negative points per damage, and again per damage of the most damaged zone",
                        lo=0,
                        hi=10,
                    ),
                },
            ),
            "actions": Section(
                doc="The action deck: each card is a move on one half and an action on the other",
                note=NOTE,
                moves=Exactly(doc="the moves, as the engine names them", value=["red", "blue", "lift"]),
                actions=Exactly(doc="the actions, as the engine names them", value=list(BUTTONS)),
                copies=Int(doc="cards of each move/action pair", lo=1, hi=50),
                heroic=Tables(
                    doc="the heroic action cards",
                    min_len=5,
                    item=Table(
                        inline=True,
                        fields={
                            "action": Str(doc="the heroic action", choices=("A", "B", "BB")),
                            "teleport": Name(
                                doc="the teleport half's station", known=STATIONS, what="station"
                            ),
                        },
                    ),
                ),
            ),
            "threats": Section(
                doc=THREATS_DOC,
                note=NOTE,
                cards=Cards(doc="the 55 threat cards of the base game", item=THREAT_CARD),
            ),
            "missions": Section(
                doc='The transcribed mission soundtracks: each threat as "T<turn>[S]<zone>[?]" (zone '
                "R, W, B, or I for internal; S serious; ? unconfirmed, with 5 figures only)",
                note=NOTE,
                list=Tables(
                    doc="missions 1 to 8, in order",
                    min_len=8,
                    max_len=8,
                    item=Table(
                        inline=True,
                        fields={
                            "id": Int(doc="1 to 8, in order", lo=1, hi=8),
                            "threats": List(
                                doc="the threats announced, at most one a turn",
                                item=Str(
                                    valid=_is_mission_threat,
                                    pattern_help="T<turn>[S]<R|W|B|I>[?], like T7SR",
                                ),
                                min_len=1,
                            ),
                            "incoming_data": Int(doc="incoming data announcements", lo=0, hi=9),
                            "data_transfers": Int(doc="data transfer announcements", lo=0, hi=9),
                            "phase_ends_s": List(
                                doc="the soundtrack's phase ends in seconds (for reference only)",
                                item=Int(lo=1, hi=3600),
                                min_len=3,
                                max_len=3,
                                increasing=True,
                                optional=True,
                            ),
                        },
                    ),
                ),
            ),
            "recipe": Section(
                doc="Random missions: threat levels (commons + 2 x serious) and the turns threats "
                "may come in, [low, high] inclusive",
                note=NOTE,
                level_test=Int(doc="external threat level of a test mission", lo=0, hi=12),
                level_simulation=Int(doc="of a simulation", lo=0, hi=12),
                level_real=Int(doc="of a real mission", lo=0, hi=12),
                unconfirmed_extra=Int(
                    doc="extra level with 5 figures, announced as unconfirmed", lo=0, hi=12
                ),
                internal_level=_range("internal threat level"),
                max_internal=Int(doc="internal threats at most", lo=0, hi=12),
                common_external_turns=_range("turns of common external threats"),
                serious_external_turns=_range("turns of serious external threats"),
                common_internal_turns=_range("turns of common internal threats"),
                serious_internal_turns=_range("turns of serious internal threats"),
                incoming_data=_range("incoming data announcements"),
                data_transfers=_range("data transfer announcements"),
            ),
        }
    ),
    checks=(
        Check(
            ("trajectories",),
            _trajectory_spaces,
            "trajectory boards are T1 to T7 in order; each X and Y space lies between Z and the "
            "entry space, and no space holds two actions.",
        ),
        Check(
            ("ship",),
            _ship_energy,
            "no reactor or shield starts with more energy than it holds.",
        ),
        Check(
            ("ship",),
            _phases_end_the_mission,
            "the last phase ends on the last turn.",
        ),
        Check(
            ("threats",),
            _threat_ids,
            "threat ids are distinct, with the base game's count of each deck and colour: "
            + ", ".join(f"{n} {prefix}" for prefix, n in THREAT_COUNTS.items())
            + ".",
        ),
        Check(
            ("threats",),
            _threat_kinds,
            "a threat's kind, deck and colour match its id; an external threat has a shield and no "
            "stations or button; an internal one has stations and a button and no shield; intruders "
            "are fought with BB, malfunctions with A, B or C.",
        ),
        Check(
            ("threats",),
            _effect_amounts,
            "an effect step has an amount n exactly when its effect takes one.",
        ),
        Check(
            ("missions",),
            _mission_order,
            "missions are numbered 1 to 8 in order, each with at most one threat a turn.",
        ),
        Check(
            ("recipe",),
            _recipe_ranges,
            "each [low, high] range has low <= high.",
        ),
    ),
)


def _trajectory(board: dict) -> Trajectory:
    action = [0] * (board["length"] + 1)  # index = space number: 0 none, 1 X, 2 Y, 3 Z
    action[board["z"]] = 3
    for name, code in (("x", 1), ("y", 2)):
        for space in board[name]:
            action[space] = code
    return Trajectory(board["id"], board["length"], tuple(action))


def _threat(card: dict, points: dict) -> Threat:
    external = card["kind"] == "external"
    return Threat(
        card["id"],
        card.get("name", card["id"]),
        card["kind"],
        card["deck"],
        card["colour"],
        card["shield"] if external else 0,
        card["health"],
        card["speed"],
        tuple(tuple((s["op"], s.get("n", 0)) for s in card.get(name, [])) for name in EFFECT_NAMES),
        frozenset(card.get("rules", [])),
        tuple(STATIONS.index(s) for s in card.get("stations", [])),
        card.get("button", ""),
        tuple(card.get("points", points[f"{card['deck']}_{card['colour']}"])),
        card.get("text", ""),
        card.get("note", ""),
    )


def _plain(value: int | list[int]) -> int | tuple[int, ...]:
    return tuple(value) if isinstance(value, list) else value


# The keys of Components.ship, .points and .recipe, in the order they have always had.
SHIP_VALUES = (
    "reactor_capacity", "reactor_start", "shield_capacity", "shield_start", "heavy_laser",
    "light_laser", "fuel", "laser_range", "pulse_strength", "pulse_range", "rockets",
    "rocket_strength", "rocket_range", "interceptor_single", "interceptor_multi",
    "interceptor_range", "turns",
)  # fmt: skip
POINTS = (
    *(f"{deck}_{colour}" for deck in DECKS for colour in COLOURS),
    "penalty_knocked_out", "penalty_disabled_bots", "penalty_damage",
)  # fmt: skip
RECIPE = ("level_test", "level_simulation", "level_real", "unconfirmed_extra", "max_internal", *RANGES)


def _build(path: Path, doc: dict[str, Any], sha256: str) -> Components:
    """The checked document of the component file at `path` as the engine's components."""
    ship_t, actions_t = doc["ship"], doc["actions"]
    ship = {name: _plain(ship_t[name]) for name in SHIP_VALUES}
    ship["battlebots"] = tuple(STATIONS.index(s) for s in ship_t["battlebots"])
    ship.update({name: STATIONS.index(ship_t[name]) for name in STATION_ROLES})
    ship.update({name: tuple(ship_t[name]) for name in ("computer_checks", "phase_ends", "visual_points")})
    points = {name: _plain(doc["points"][name]) for name in POINTS}
    threats = tuple(_threat(card, points) for card in doc["threats"]["cards"])
    recipe = {name: _plain(doc["recipe"][name]) for name in RECIPE}
    sections = ("trajectories", "ship", "damage", "points", "actions", "threats", "missions", "recipe")
    return Components(
        path=str(path),
        sha256=sha256,
        trajectories=tuple(_trajectory(board) for board in doc["trajectories"]["boards"]),
        distance_bounds=tuple(doc["trajectories"]["distance_bounds"]),
        ship=MappingProxyType(ship),
        tiles=tuple(doc["damage"]["tiles"]),
        points=MappingProxyType(points),
        moves=("red", "blue", "lift"),
        actions=BUTTONS,
        copies=actions_t["copies"],
        heroic=tuple((h["action"], STATIONS.index(h["teleport"])) for h in actions_t["heroic"]),
        threats=threats,
        by_id=MappingProxyType({t.id: t for t in threats}),
        missions=tuple(
            Mission(
                m["id"],
                tuple(map(parse_mission_threat, m["threats"])),
                m["incoming_data"],
                m["data_transfers"],
            )
            for m in doc["missions"]["list"]
        ),
        recipe=MappingProxyType(recipe),
        sources=MappingProxyType({name: doc[name]["source"] for name in sections}),
    )


load = schema.loader(FILE_SPEC, "space-alert", DEFAULT_FILE, _build, "component file")
