"""The mutable state of one Space Alert resolution: small ints and lists, cheap to copy.

Stations are numbered 0..5: upper red, upper white, upper blue, lower red, lower white, lower blue
(zone = station % 3, deck = station // 3); `SPACE` (6) is a figure out in the interceptors.
Action cards are small ints (see `CARD_NAMES`); a figure's plan is a list of 13 slots, slot t for
turn t (slot 0 unused).
"""

from __future__ import annotations

from typing import NamedTuple

from simkit.games.space_alert.components import ZONES, Components, Threat

SPACE = 6
# Card halves as played: empty, the four actions, the three moves, the heroic actions, teleports.
EMPTY, A, B, C, BB, RED, BLUE, LIFT, HA, HB, HBB = range(11)
TELEPORT = 16  # TELEPORT + station: a heroic card's move half
CARD_NAMES = {EMPTY: "-", A: "A", B: "B", C: "C", BB: "BB", RED: "red", BLUE: "blue", LIFT: "lift",
              HA: "A+1", HB: "B+1", HBB: "BB+"}  # fmt: skip
CARD_CODES = {v: k for k, v in CARD_NAMES.items()}
STATION_NAMES = ("upper red", "upper white", "upper blue", "lower red", "lower white", "lower blue", "space")
ZONE_NAMES = ZONES  # the component file must name them so

# threat status
WAITING, ACTIVE, DESTROYED, SURVIVED = 0, 1, 2, 3
STATUS_NAMES = ("waiting", "active", "destroyed", "survived")


def card_name(card: int) -> str:
    if card >= TELEPORT:
        return "teleport " + STATION_NAMES[card - TELEPORT]
    return CARD_NAMES[card]


def card_code(name: str) -> int:
    """'A', 'lift', 'B+1', 'teleport lower red', '-' -> the card int; ValueError otherwise."""
    if name.startswith("teleport "):
        return TELEPORT + STATION_NAMES.index(name[9:])
    return CARD_CODES[name]


class Live:
    """One threat card in play: its printed numbers (`card`) and what has happened to it."""

    __slots__ = ("card", "token", "zone", "traj", "pos", "damage", "shield", "speed", "status",
                 "cryo", "revealed", "counted", "stations", "tokens", "grown", "external")  # fmt: skip

    def __init__(self, card: Threat, token: int, zone: int, traj) -> None:
        self.card = card
        self.token = token  # the turn it appears: threats act lowest token first
        self.zone = zone  # 0..2 external; 3 internal
        self.traj = traj  # components.Trajectory
        self.pos = traj.length
        self.damage = 0
        self.shield = card.shield
        self.speed = card.speed
        self.status = WAITING
        self.cryo = "cryoshield" in card.rules
        self.revealed = "stealth" not in card.rules
        self.counted = 0  # asteroids: X/Y spaces crossed
        self.stations = list(card.stations)  # internal: current station(s)
        self.tokens: list[list[int]] = []  # slime: [station, health] per token
        self.grown = False
        self.external = card.kind == "external"

    def copy(self) -> Live:
        other = Live.__new__(Live)
        for name in Live.__slots__:
            setattr(other, name, getattr(self, name))
        other.stations = self.stations[:]
        other.tokens = [t[:] for t in self.tokens]
        return other


class State:
    """The ship, the figures and the threats during the resolution round."""

    __slots__ = (
        "turn", "reactor", "reactor_cap", "shield", "shield_cap", "fuel", "rockets", "rocket_track",
        "heavy", "light", "pulse_range", "lift_damaged", "tiles", "tile_stacks", "bots_at",
        "bots_disabled", "computer", "visual", "damage_mult", "pos", "knocked", "carry", "plans",
        "delayed_at", "threats", "broken", "boost", "lost", "end_reason", "humans", "culprit",
        "contaminated",
    )  # fmt: skip

    def copy(self) -> State:
        other = State.__new__(State)
        for name in State.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if type(value) is list else value)
        other.tiles = [t[:] for t in self.tiles]
        other.plans = [p[:] for p in self.plans]
        other.threats = [t.copy() for t in self.threats]
        other.broken = set(self.broken)
        other.contaminated = dict(self.contaminated)
        return other


class KnownThreat(NamedTuple):
    """A threat card as the crew sees it at planning time: face up, with its trajectory."""

    turn: int
    id: str
    zone: int  # 0 red, 1 white, 2 blue, 3 internal
    trajectory: str


def new_state(
    comp: Components,
    figures: int,
    plans: list[list[int]],
    tile_stacks: list[list[str]],
    humans: int | None = None,
) -> State:
    """The ship as set up for the resolution round ("return all the game pieces to their initial
    setup position"). `plans[f]` holds 12 cards (turns 1..12); `tile_stacks[z]` the zone's damage
    tiles in draw order."""
    ship = comp.ship
    st = State.__new__(State)
    st.turn = 0
    st.reactor = list(ship["reactor_start"])
    st.reactor_cap = list(ship["reactor_capacity"])
    st.shield = list(ship["shield_start"])
    st.shield_cap = list(ship["shield_capacity"])
    st.fuel = ship["fuel"]
    st.rockets = ship["rockets"]
    st.rocket_track = [0, 0]
    st.heavy = list(ship["heavy_laser"])
    st.light = list(ship["light_laser"])
    st.pulse_range = ship["pulse_range"]
    st.lift_damaged = [False, False, False]
    st.tiles = [[], [], []]
    st.tile_stacks = [list(s) for s in tile_stacks]
    st.bots_at = list(ship["battlebots"])  # squad k: its station, or -1 while a figure carries it
    st.bots_disabled = [False] * len(st.bots_at)
    st.computer = [False, False, False]
    st.visual = [0, 0, 0]
    st.damage_mult = [1, 1, 1]
    st.pos = [ship["start_station"]] * figures
    st.knocked = [False] * figures
    st.carry = [-1] * figures  # squad index carried, or -1
    st.plans = [[EMPTY] + list(p) for p in plans]
    st.delayed_at = [0] * figures
    st.threats = []
    st.broken = set()
    st.contaminated = {}  # station -> card id: entering it knocks a figure out (Contamination's Z)
    st.boost = 0  # scouts whose X is in force (+1 to the other external threats' attacks)
    st.lost = False
    st.end_reason = "survived"
    st.culprit = ""  # the threat whose attack or action destroyed the ship
    st.humans = figures if humans is None else humans
    return st
