"""Plan files for `simkit resolve space-alert PLAN.toml`: one mission with fixed threat cards and
trajectories plus every figure's 12 action cards, resolved turn by turn by `rules.resolve` (see
RULES.md, "Plan files"). Players check their table game with it.

Plan file (TOML):

    [mission]
    threats = [
      { turn = 1, threat = "E1-07", zone = "red", trajectory = "T3" },
      { turn = 3, threat = "I1-05", zone = "internal", trajectory = "T4" },
    ]
    humans = 4                     # optional: figures after these are androids (cannot trip)

    [plans]                        # one row per figure, captain first; 12 cards each
    figures = [
      ["red", "A", "A", "-", "B", "A", "-", "-", "-", "-", "-", "-"],
      ...
    ]
    trips = [[0, 5]]               # optional: (figure, turn) "oops, I tripped"

    [tiles]                        # optional: each zone's damage tiles in draw order ...
    red = ["structural", "gravolift", "reactor", "shield", "heavy_laser", "lower_cannon"]
    seed = 7                       # ... or a seed that shuffles the stacks not given
"""

from __future__ import annotations

import random
from pathlib import Path

from simkit.core.errors import UserError
from simkit.core.files import read_toml
from simkit.games.space_alert import components, narrate, rules
from simkit.games.space_alert.state import ZONE_NAMES, KnownThreat, card_code


def load_plan(path: str | Path, comp: components.Components) -> dict:
    """Read and check a plan file; every fault is one `UserError` line naming file and key."""
    path = Path(path)
    doc, _raw = read_toml(path, "plan file")

    def fail(key: str, problem: str) -> UserError:
        return UserError(f"{path}: {key}: {problem}")

    unknown = set(doc) - {"mission", "plans", "tiles"}
    if unknown:
        raise fail(sorted(unknown)[0], "unknown section (allowed: mission, plans, tiles)")
    mission = doc.get("mission")
    if not isinstance(mission, dict) or not isinstance(mission.get("threats"), list):
        raise fail("mission.threats", "missing list of { turn, threat, zone, trajectory }")
    threats = []
    traj_ids = {t.id for t in comp.trajectories}
    for i, t in enumerate(mission["threats"]):
        key = f"mission.threats[{i}]"
        if not isinstance(t, dict) or set(t) != {"turn", "threat", "zone", "trajectory"}:
            raise fail(key, "must be { turn, threat, zone, trajectory }")
        if t["threat"] not in comp.by_id:
            raise fail(f"{key}.threat", f"unknown threat id {t['threat']!r}")
        card = comp.by_id[t["threat"]]
        zones = ("internal",) if not card.external else ZONE_NAMES
        if t["zone"] not in zones:
            raise fail(f"{key}.zone", f"must be one of {', '.join(zones)} for {card.id}")
        if t["trajectory"] not in traj_ids:
            raise fail(f"{key}.trajectory", f"unknown trajectory {t['trajectory']!r} (T1-T7)")
        if type(t["turn"]) is not int or not 1 <= t["turn"] <= 12:
            raise fail(f"{key}.turn", "must be a turn 1-12")
        zone = 3 if t["zone"] == "internal" else ZONE_NAMES.index(t["zone"])
        threats.append(KnownThreat(t["turn"], t["threat"], zone, t["trajectory"]))
    if len({t.turn for t in threats}) != len(threats):
        raise fail("mission.threats", "two threats share a turn (their tokens must differ)")
    plans_t = doc.get("plans")
    rows = plans_t.get("figures") if isinstance(plans_t, dict) else None
    if not isinstance(rows, list) or not 1 <= len(rows) <= 5:
        raise fail("plans.figures", "must list 1-5 rows of 12 cards")
    plans = []
    for f, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != 12:
            raise fail(f"plans.figures[{f}]", "must hold 12 cards ('-' for none)")
        try:
            plans.append([card_code(c) for c in row])
        except (ValueError, KeyError, TypeError):
            raise fail(f"plans.figures[{f}]", f"unknown card in {row!r}") from None
    trips = set()
    for item in plans_t.get("trips", []):
        if not (isinstance(item, list) and len(item) == 2 and all(type(v) is int for v in item)):
            raise fail("plans.trips", "must list [figure, turn] pairs")
        trips.add((item[0], item[1]))
    humans = mission.get("humans", len(plans))
    tiles_t = doc.get("tiles", {})
    rng = random.Random(tiles_t.get("seed", 0))
    stacks = []
    for name in ZONE_NAMES:
        given = tiles_t.get(name)
        if given is None:
            stack = list(comp.tiles)
            rng.shuffle(stack)
        elif not isinstance(given, list) or sorted(given) != sorted(comp.tiles):
            raise fail(f"tiles.{name}", f"must order the 6 tiles {', '.join(comp.tiles)}")
        else:
            stack = list(given)
        stacks.append(stack)
    return {"threats": threats, "plans": plans, "tiles": stacks, "humans": humans, "trips": trips}


def resolve_file(path: str | Path, data: str | Path | None = None) -> tuple[list[dict], dict]:
    """The event log and the score of a plan file."""
    comp = components.load(data)
    plan = load_plan(path, comp)
    log: list[dict] = []
    _st, result = rules.resolve(
        comp, plan["threats"], plan["plans"], plan["tiles"], plan["humans"], plan["trips"], log
    )
    return log, result


def format_log(log: list[dict], result: dict) -> str:
    """The turn-by-turn resolution as text, as the community's resolvers print it."""
    lines = []
    for turn, events in narrate.by_turn(log):
        lines.append(f"--- turn {turn} ---")
        for e in events:
            rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("event", "turn") and v is not None)
            lines.append(f"  {e['event']}: {rest}")
    outcome = "survived" if result["won"] else "ship destroyed"
    lines.append(f"{outcome}; {narrate.score_text(result)}; damage {result['tiles']}")
    return "\n".join(lines)
