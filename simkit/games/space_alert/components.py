"""Load and validate the Space Alert component file (data/space_alert.toml by default).

Every fault names the file, the key and what is wrong, as a `UserError` (one line, exit code 2).
The loaded `Components` holds precomputed tuples the resolution engine reads in its hot loop.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
    data_key,
    read_toml,
)
from simkit.core.files import data_error as _fail
from simkit.core.files import data_int as _int
from simkit.core.files import data_source as _source
from simkit.core.files import data_table as _table

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


def _ints(table: dict, path: Path, key: str, name: str, size: int, lo: int, hi: int) -> tuple[int, ...]:
    value = table.get(name)
    if (
        not isinstance(value, list)
        or (size and len(value) != size)
        or not all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in value)
    ):
        count = f"{size} " if size else ""
        raise _fail(path, f"{key}.{name}", f"must be a list of {count}integers in {lo}..{hi}, got {value!r}")
    return tuple(value)


def _choice(table: dict, path: Path, key: str, name: str, allowed) -> str:
    value = table.get(name)
    if value not in allowed:
        raise _fail(path, f"{key}.{name}", f"must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _station(value, path: Path, key: str) -> int:
    if value not in STATIONS:
        raise _fail(path, key, f"unknown station {value!r} (stations: {', '.join(STATIONS)})")
    return STATIONS.index(value)


def load(path: str | Path | None = None) -> Components:
    """Load and validate a component file; `None` means the built-in default."""
    return _load_cached(*data_key(path, DEFAULT_FILE))


def _trajectories(doc: dict, path: Path, sources: dict) -> tuple[tuple[Trajectory, ...], tuple[int, int]]:
    t = _table(doc, path, "trajectories", {"source", "note", "boards", "distance_bounds"})
    sources["trajectories"] = _source(t, path, "trajectories")
    bounds = _ints(t, path, "trajectories", "distance_bounds", 2, 1, 30)
    if bounds[0] >= bounds[1]:
        raise _fail(path, "trajectories.distance_bounds", "must be increasing")
    boards = t.get("boards")
    if not isinstance(boards, list) or len(boards) != 7:
        raise _fail(path, "trajectories.boards", "must list the 7 trajectory boards")
    out = []
    for i, b in enumerate(boards):
        key = f"trajectories.boards[{i}]"
        if not isinstance(b, dict) or set(b) != {"id", "length", "x", "y", "z"}:
            raise _fail(path, key, "must be { id, length, x, y, z }")
        if b["id"] != f"T{i + 1}":
            raise _fail(path, f"{key}.id", f"must be T{i + 1}, got {b['id']!r}")
        length = _int(b, path, key, "length", 3, 30)
        action = [0] * (length + 1)
        z = _int(b, path, key, "z", 1, 1)
        action[z] = 3
        for name, code in (("x", 1), ("y", 2)):
            for s in _ints(b, path, key, name, 0, 2, length - 1):
                if action[s]:
                    raise _fail(path, f"{key}.{name}", f"space {s} already holds an action")
                action[s] = code
        if 1 not in action:
            raise _fail(path, f"{key}.x", "a trajectory needs an X space")
        out.append(Trajectory(b["id"], length, tuple(action)))
    return tuple(out), bounds


def _effects(card: dict, path: Path, key: str, name: str) -> tuple:
    steps = card.get(name, [])
    if not isinstance(steps, list):
        raise _fail(path, f"{key}.{name}", "must be a list of { op, n }")
    out = []
    for j, step in enumerate(steps):
        k = f"{key}.{name}[{j}]"
        if not isinstance(step, dict) or not set(step) <= {"op", "n"} or "op" not in step:
            raise _fail(path, k, "must be { op = NAME } or { op = NAME, n = AMOUNT }")
        op = step["op"]
        if not isinstance(op, str) or op not in EFFECT_OPS:
            raise _fail(path, f"{k}.op", f"unknown effect {op!r}")
        if op in NEEDS_N:
            n = _int(step, path, k, "n", 0, 20)
        elif "n" in step:
            raise _fail(path, f"{k}.n", f"effect {op!r} takes no amount")
        else:
            n = 0
        out.append((op, n))
    return tuple(out)


THREAT_KEYS = {
    "id", "name", "kind", "deck", "colour", "shield", "health", "speed", "x", "y", "z",
    "destroyed", "rules", "text", "note", "stations", "button", "points",
}  # fmt: skip


def _threats(doc: dict, path: Path, sources: dict, points: dict) -> tuple[Threat, ...]:
    t = _table(doc, path, "threats", {"source", "note", "cards"})
    sources["threats"] = _source(t, path, "threats")
    cards = t.get("cards")
    if not isinstance(cards, list):
        raise _fail(path, "threats.cards", "must be a list of threat cards")
    out: list[Threat] = []
    seen: set[str] = set()
    for i, c in enumerate(cards):
        key = f"threats.cards[{i}]"
        if not isinstance(c, dict):
            raise _fail(path, key, "must be a table")
        unknown = set(c) - THREAT_KEYS
        if unknown:
            raise _fail(path, f"{key}.{sorted(unknown)[0]}", "unknown key")
        ident = c.get("id")
        m = re.fullmatch(r"(S?)(E|I)([12])-(\d\d)", ident) if isinstance(ident, str) else None
        if m is None:
            raise _fail(path, f"{key}.id", f"must look like E1-01 or SI2-05, got {ident!r}")
        if ident in seen:
            raise _fail(path, f"{key}.id", f"duplicate threat id {ident}")
        seen.add(ident)
        key = f"threats.cards[{i}] ({ident})"
        kind = _choice(c, path, key, "kind", KINDS)
        deck = _choice(c, path, key, "deck", DECKS)
        colour = _choice(c, path, key, "colour", COLOURS)
        if (m.group(2) == "E") != (kind == "external"):
            raise _fail(path, f"{key}.kind", f"{kind} does not match the id {ident}")
        if (m.group(1) == "S") != (deck == "serious") or (m.group(3) == "2") != (colour == "yellow"):
            raise _fail(path, f"{key}.deck", f"deck/colour {deck}/{colour} do not match the id {ident}")
        health = _int(c, path, key, "health", 1, 30)
        speed = _int(c, path, key, "speed", 1, 10)
        if kind == "external":
            shield = _int(c, path, key, "shield", -5, 10)
            if "stations" in c or "button" in c:
                raise _fail(path, f"{key}.stations", "an external threat has no station or button")
            stations: tuple[int, ...] = ()
            button = ""
        else:
            shield = 0
            if "shield" in c:
                raise _fail(path, f"{key}.shield", "an internal threat has no shield")
            raw = c.get("stations")
            if not isinstance(raw, list) or not raw:
                raise _fail(path, f"{key}.stations", "must list one or more stations")
            stations = tuple(_station(s, path, f"{key}.stations") for s in raw)
            if len(set(stations)) != len(stations):
                raise _fail(path, f"{key}.stations", "lists a station twice")
            button = _choice(c, path, key, "button", BUTTONS)
            if (kind == "intruder") != (button == "BB"):
                raise _fail(path, f"{key}.button", "intruders are fought with BB, malfunctions with A/B/C")
        rules = c.get("rules", [])
        if not isinstance(rules, list):
            raise _fail(path, f"{key}.rules", "must be a list of rule keys")
        for r in rules:
            if not isinstance(r, str) or r not in RULE_KEYS:
                raise _fail(path, f"{key}.rules", f"unknown rule key {r!r} (known: {', '.join(RULE_KEYS)})")
        if len(set(rules)) != len(rules):
            raise _fail(path, f"{key}.rules", "lists a rule key twice")
        if "points" in c:
            pts = _ints(c, path, key, "points", 2, 0, 50)
        else:
            pts = points[f"{deck}_{colour}"]
        effects = tuple(_effects(c, path, key, name) for name in ("x", "y", "z", "destroyed"))
        if not effects[2]:
            raise _fail(path, f"{key}.z", "a threat needs a Z action")
        for name in ("text", "note", "name"):
            if name in c and not isinstance(c[name], str):
                raise _fail(path, f"{key}.{name}", "must be a string")
        out.append(
            Threat(
                ident, c.get("name", ident), kind, deck, colour, shield, health, speed, effects,
                frozenset(rules), stations, button, tuple(pts), c.get("text", ""), c.get("note", ""),
            )
        )  # fmt: skip
    counts = {p: 0 for p in THREAT_COUNTS}
    for th in out:
        counts[th.id.split("-")[0]] += 1
    for prefix, want in THREAT_COUNTS.items():
        if counts[prefix] != want:
            raise _fail(
                path, "threats.cards", f"the base game has {want} {prefix} threats, found {counts[prefix]}"
            )
    return tuple(out)


_MISSION_THREAT = re.compile(r"T([1-9]|1[0-2])(S?)([RWBI])(\??)")


def parse_mission_threat(text: str) -> MissionThreat:
    """'T7SR' -> turn 7, red, serious; 'T3I?' -> turn 3, internal, unconfirmed. ValueError otherwise."""
    m = _MISSION_THREAT.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError(text)
    return MissionThreat(int(m.group(1)), "RWBI".index(m.group(3)), m.group(2) == "S", m.group(4) == "?")


def _missions(doc: dict, path: Path, sources: dict) -> tuple[Mission, ...]:
    t = _table(doc, path, "missions", {"source", "note", "list"})
    sources["missions"] = _source(t, path, "missions")
    items = t.get("list")
    if not isinstance(items, list) or len(items) != 8:
        raise _fail(path, "missions.list", "must list the 8 transcribed missions")
    out = []
    for i, mm in enumerate(items):
        key = f"missions.list[{i}]"
        if not isinstance(mm, dict) or not set(mm) <= {
            "id",
            "threats",
            "incoming_data",
            "data_transfers",
            "phase_ends_s",
        }:
            raise _fail(path, key, "must be { id, threats, incoming_data, data_transfers, phase_ends_s }")
        if mm.get("id") != i + 1:
            raise _fail(path, f"{key}.id", f"must be {i + 1}")
        raw = mm.get("threats")
        if not isinstance(raw, list) or not raw:
            raise _fail(path, f"{key}.threats", "must list threats like 'T7SR'")
        threats = []
        for s in raw:
            try:
                threats.append(parse_mission_threat(s))
            except (TypeError, ValueError):
                raise _fail(
                    path, f"{key}.threats", f"bad threat {s!r} (want T<turn>[S]<R|W|B|I>[?])"
                ) from None
        turns = [x.turn for x in threats]
        if len(set(turns)) != len(turns):
            raise _fail(path, f"{key}.threats", "at most one threat per turn")
        if "phase_ends_s" in mm:  # the soundtrack's phase ends, in seconds (for reference only)
            ends = _ints(mm, path, key, "phase_ends_s", 3, 1, 3600)
            if list(ends) != sorted(set(ends)):
                raise _fail(path, f"{key}.phase_ends_s", f"must increase, got {list(ends)}")
        out.append(
            Mission(
                i + 1,
                tuple(threats),
                _int(mm, path, key, "incoming_data", 0, 9),
                _int(mm, path, key, "data_transfers", 0, 9),
            )
        )
    return tuple(out)


SHIP_KEYS = {
    "source", "zones", "stations", "reactor_capacity", "reactor_start", "shield_capacity",
    "shield_start", "fuel", "heavy_laser", "laser_range", "light_laser", "pulse_strength",
    "pulse_range", "rockets", "rocket_strength", "rocket_range", "interceptor_single",
    "interceptor_multi", "interceptor_range", "battlebots", "interceptor_station",
    "computer_station", "window_station", "rocket_station", "fuel_station", "start_station",
    "computer_checks", "phase_ends", "turns", "visual_points",
}  # fmt: skip


def _ship(doc: dict, path: Path, sources: dict) -> dict:
    t = _table(doc, path, "ship", SHIP_KEYS)
    sources["ship"] = _source(t, path, "ship")
    if t.get("zones") != list(ZONES) or t.get("stations") != list(STATIONS):
        raise _fail(path, "ship.zones", f"zones must be {list(ZONES)} and stations {list(STATIONS)}")
    ship: dict = {}
    for name in (
        "reactor_capacity",
        "reactor_start",
        "shield_capacity",
        "shield_start",
        "heavy_laser",
        "light_laser",
    ):
        ship[name] = _ints(t, path, "ship", name, 3, 0, 9)
    for z in range(3):
        if (
            ship["reactor_start"][z] > ship["reactor_capacity"][z]
            or ship["shield_start"][z] > ship["shield_capacity"][z]
        ):
            raise _fail(path, "ship.reactor_start", "start energy above capacity")
    for name, lo, hi in (
        ("fuel", 0, 9), ("laser_range", 1, 3), ("pulse_strength", 0, 9), ("pulse_range", 1, 3),
        ("rockets", 0, 9), ("rocket_strength", 0, 9), ("rocket_range", 1, 3),
        ("interceptor_single", 0, 9), ("interceptor_multi", 0, 9), ("interceptor_range", 1, 3),
        ("turns", 12, 12),
    ):  # fmt: skip
        ship[name] = _int(t, path, "ship", name, lo, hi)
    bots = t.get("battlebots")
    if not isinstance(bots, list) or len(bots) != 2:
        raise _fail(path, "ship.battlebots", "must name the 2 battlebot stations")
    ship["battlebots"] = tuple(_station(s, path, "ship.battlebots") for s in bots)
    for name in (
        "interceptor_station",
        "computer_station",
        "window_station",
        "rocket_station",
        "fuel_station",
        "start_station",
    ):
        ship[name] = _station(t.get(name), path, f"ship.{name}")
    ship["computer_checks"] = _ints(t, path, "ship", "computer_checks", 3, 1, 12)
    ship["phase_ends"] = _ints(t, path, "ship", "phase_ends", 3, 1, 12)
    if ship["phase_ends"][-1] != 12 or list(ship["phase_ends"]) != sorted(set(ship["phase_ends"])):
        raise _fail(path, "ship.phase_ends", "must be increasing and end at 12")
    ship["visual_points"] = _ints(t, path, "ship", "visual_points", 6, 0, 20)
    return ship


@lru_cache(maxsize=8)
def _load_cached(path_text: str, shipped_digest: str) -> Components:
    """`shipped_digest` only keys the cache: other bytes shipped for the same path load afresh."""
    path = Path(path_text)
    doc, raw = read_toml(path, "component file")
    top = {"meta", "trajectories", "ship", "damage", "points", "actions", "threats", "missions", "recipe"}
    unknown = set(doc) - top
    if unknown:
        raise _fail(path, sorted(unknown)[0], f"unknown section (allowed: {', '.join(sorted(top))})")
    sources: dict[str, str] = {}
    trajectories, bounds = _trajectories(doc, path, sources)
    ship = _ship(doc, path, sources)

    dmg = _table(doc, path, "damage", {"source", "tiles", "note"})
    sources["damage"] = _source(dmg, path, "damage")
    tiles = dmg.get("tiles")
    if (
        not isinstance(tiles, list)
        or not all(isinstance(t, str) for t in tiles)
        or sorted(tiles) != sorted(TILES)
    ):
        raise _fail(path, "damage.tiles", f"must list each of {', '.join(TILES)} once")

    pts_t = _table(
        doc,
        path,
        "points",
        {
            "source",
            "common_white",
            "common_yellow",
            "serious_white",
            "serious_yellow",
            "penalty_knocked_out",
            "penalty_disabled_bots",
            "penalty_damage",
        },
    )
    sources["points"] = _source(pts_t, path, "points")
    points = {f"{d}_{c}": _ints(pts_t, path, "points", f"{d}_{c}", 2, 0, 50) for d in DECKS for c in COLOURS}
    for name in ("penalty_knocked_out", "penalty_disabled_bots", "penalty_damage"):
        points[name] = _int(pts_t, path, "points", name, 0, 10)

    act = _table(doc, path, "actions", {"source", "note", "moves", "actions", "copies", "heroic"})
    sources["actions"] = _source(act, path, "actions")
    if act.get("moves") != ["red", "blue", "lift"] or act.get("actions") != list(BUTTONS):
        raise _fail(path, "actions.moves", "moves must be [red, blue, lift] and actions [A, B, C, BB]")
    copies = _int(act, path, "actions", "copies", 1, 50)
    heroic_raw = act.get("heroic")
    if not isinstance(heroic_raw, list) or len(heroic_raw) < 5:
        raise _fail(path, "actions.heroic", "must list at least 5 heroic cards { action, teleport }")
    heroic = []
    for i, h in enumerate(heroic_raw):
        k = f"actions.heroic[{i}]"
        if not isinstance(h, dict) or set(h) != {"action", "teleport"} or h["action"] not in ("A", "B", "BB"):
            raise _fail(path, k, "must be { action = A|B|BB, teleport = STATION }")
        heroic.append((h["action"], _station(h["teleport"], path, f"{k}.teleport")))

    threats = _threats(doc, path, sources, points)
    missions = _missions(doc, path, sources)

    rec = _table(
        doc,
        path,
        "recipe",
        {
            "source",
            "note",
            "level_test",
            "level_simulation",
            "level_real",
            "unconfirmed_extra",
            "internal_level",
            "max_internal",
            "common_external_turns",
            "serious_external_turns",
            "common_internal_turns",
            "serious_internal_turns",
            "incoming_data",
            "data_transfers",
        },
    )
    sources["recipe"] = _source(rec, path, "recipe")
    recipe: dict = {}
    for name in ("level_test", "level_simulation", "level_real", "unconfirmed_extra", "max_internal"):
        recipe[name] = _int(rec, path, "recipe", name, 0, 12)
    for name in (
        "internal_level",
        "common_external_turns",
        "serious_external_turns",
        "common_internal_turns",
        "serious_internal_turns",
        "incoming_data",
        "data_transfers",
    ):
        lo, hi = _ints(rec, path, "recipe", name, 2, 0, 12)
        if lo > hi:
            raise _fail(path, f"recipe.{name}", "must be [low, high]")
        recipe[name] = (lo, hi)
    return Components(
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        trajectories=trajectories,
        distance_bounds=bounds,
        ship=MappingProxyType(ship),
        tiles=tuple(dmg["tiles"]),
        points=MappingProxyType(points),
        moves=("red", "blue", "lift"),
        actions=BUTTONS,
        copies=copies,
        heroic=tuple(heroic),
        threats=threats,
        by_id=MappingProxyType({t.id: t for t in threats}),
        missions=missions,
        recipe=MappingProxyType(recipe),
        sources=MappingProxyType(sources),
    )
