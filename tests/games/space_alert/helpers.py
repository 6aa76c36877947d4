"""Small exact states for the Space Alert rule tests."""

from __future__ import annotations

from simkit.games.space_alert import components
from simkit.games.space_alert.rules import Resolution
from simkit.games.space_alert.state import ACTIVE, EMPTY, Live, card_code, new_state

COMP = components.load()
TRAJ = {t.id: t for t in COMP.trajectories}
# a fixed tile order (every zone): structural first, so a single hit changes nothing
TILES = ["structural", "gravolift", "reactor", "shield", "heavy_laser", "lower_cannon"]


def plan(*cards: str) -> list[int]:
    """A figure's 12 cards from names ('A', 'red', 'lift', 'B+1', 'teleport lower red', '-')."""
    codes = [card_code(c) for c in cards]
    return codes + [EMPTY] * (12 - len(codes))


def make(*plans: list[int], figures: int | None = None, tiles: list[str] | None = None, humans=None):
    """A fresh ship with these figures' plans; returns (state, its resolution with a log)."""
    n = figures if figures is not None else max(1, len(plans))
    rows = list(plans) + [[EMPTY] * 12 for _ in range(n - len(plans))]
    st = new_state(COMP, n, rows, [list(tiles or TILES) for _ in range(3)], humans)
    return st, Resolution(COMP, st, log=[])


def put(
    st, tid: str, zone: int = 0, traj: str = "T3", pos: int | None = None, token: int = 1, station=None
) -> Live:
    """Put threat `tid` in play (active) at `pos` (default: its entry space)."""
    th = Live(COMP.by_id[tid], token, zone if COMP.by_id[tid].external else 3, TRAJ[traj])
    if pos is not None:
        th.pos = pos
    if station is not None:
        th.stations = [station]
    th.status = ACTIVE
    if "slime" in th.card.rules:
        th.tokens = [[s, th.card.health] for s in th.stations]
    if "health_is_rockets" in th.card.rules:
        th.counted = st.rockets
    st.threats.append(th)
    return th


def events(r, name: str) -> list[dict]:
    return [e for e in r.log if e["event"] == name]


def find(log: list[dict], event: str, turn: int | None = None, **match) -> list[dict]:
    """A plan file's log events of this kind (on this turn) whose fields equal `match`."""
    return [
        e
        for e in log
        if e["event"] == event
        and (turn is None or e["turn"] == turn)
        and all(e.get(k) == v for k, v in match.items())
    ]


def run_effects(r, th: Live, which: str) -> None:
    """Run the card's X, Y, Z or 'destroyed' effect list on `th`."""
    for op, n in th.card.effects["xyzd".index(which[0])]:
        r.effect(th, op, n)
