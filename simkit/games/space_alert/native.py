"""What the native engine (`simkit._native`, native/src/space_alert/) is handed: the component
file as plain values. The engine plays the same rules, crews and draws as this package;
`tests/native/test_equivalence.py` checks that the game rows are identical."""

from __future__ import annotations

from typing import Any

from simkit.games.space_alert.components import EFFECT_NAMES, Components

_BUTTONS = {"": 0, "A": 1, "B": 2, "C": 3, "BB": 4}
_HEROIC = {"A": 8, "B": 9, "BB": 10}


def native_data(comp: Components) -> dict[str, Any]:
    ship = comp.ship
    rec = comp.recipe
    out: dict[str, Any] = {
        "trajectories": [(t.id, t.length, list(t.action)) for t in comp.trajectories],
        "distance_bounds": tuple(comp.distance_bounds),
        "tiles": list(comp.tiles),
        "copies": comp.copies,
        "heroic": [(_HEROIC[a], s) for a, s in comp.heroic],
        "threat_ids": [t.id for t in comp.threats],
        "threat_kinds": [t.kind for t in comp.threats],
        "threat_serious": [t.deck == "serious" for t in comp.threats],
        "threat_colours": [t.colour for t in comp.threats],
        "threat_numbers": [(t.shield, t.health, t.speed) for t in comp.threats],
        "threat_effects": [
            [[(op, n) for op, n in t.effects[i]] for i in range(len(EFFECT_NAMES))] for t in comp.threats
        ],
        "threat_rules": [sorted(t.rules) for t in comp.threats],
        "threat_stations": [list(t.stations) for t in comp.threats],
        "threat_buttons": [_BUTTONS[t.button] for t in comp.threats],
        "threat_points": [tuple(t.points) for t in comp.threats],
        "missions": [
            (
                [(m.turn, m.zone, m.serious, m.unconfirmed) for m in mission.threats],
                mission.incoming_data,
                mission.data_transfers,
            )
            for mission in comp.missions
        ],
    }
    for name in ("reactor_capacity", "reactor_start", "shield_capacity", "shield_start", "heavy_laser",
                 "light_laser", "battlebots", "computer_checks", "phase_ends", "visual_points"):  # fmt: skip
        out[name] = list(ship[name])
    for name in ("fuel", "laser_range", "pulse_strength", "pulse_range", "rockets", "rocket_strength",
                 "rocket_range", "interceptor_single", "interceptor_multi", "interceptor_range",
                 "start_station"):  # fmt: skip
        out[name] = ship[name]
    for name in ("penalty_knocked_out", "penalty_disabled_bots", "penalty_damage"):
        out[name] = comp.points[name]
    for name in ("level_test", "level_simulation", "level_real", "unconfirmed_extra", "max_internal"):
        out[name] = rec[name]
    for name in ("internal_level", "common_external_turns", "serious_external_turns", "common_internal_turns",
                 "serious_internal_turns", "incoming_data", "data_transfers"):  # fmt: skip
        out[name] = tuple(rec[name])
    return out


def rust_fixture(comp: Components) -> str:
    """`native_data` as the cargo tests read it (native/src/space_alert/test_components.txt):
    `key v v ...` a line; `traj ID LENGTH ACTIONS...`; `threat ID KIND SERIOUS COLOUR SHIELD
    HEALTH SPEED BUTTON POINTS POINTS | rules | stations | x | y | z | destroyed`, a step `op:n`;
    `mission INCOMING TRANSFERS turn,zone,serious,unconfirmed ...` (booleans as 0/1)."""
    data = native_data(comp)
    lines = [
        "# simkit/games/space_alert/native.py's native_data() of the built-in component file, for",
        "# the cargo tests (regenerate after changing the data: see tests.rs).",
    ]

    def words(values) -> str:
        return " ".join(str(int(v)) if isinstance(v, bool) else str(v) for v in values)

    tables = ("trajectories", "missions", "threat_", "heroic", "tiles", "distance_bounds")
    for key, value in data.items():
        if key.startswith(tables):
            continue
        lines.append(f"{key} {words(value) if isinstance(value, list | tuple) else value}")
    lines.append(f"distance_bounds {words(data['distance_bounds'])}")
    lines.append(f"tiles {words(data['tiles'])}")
    lines.append("heroic " + " ".join(f"{a},{s}" for a, s in data["heroic"]))
    for trajectory_id, length, action in data["trajectories"]:
        lines.append(f"traj {trajectory_id} {length} {words(action)}")
    for i, threat_id in enumerate(data["threat_ids"]):
        head = [threat_id, data["threat_kinds"][i], int(data["threat_serious"][i]), data["threat_colours"][i]]
        head += [*data["threat_numbers"][i], data["threat_buttons"][i], *data["threat_points"][i]]
        fields = [words(head), " ".join(data["threat_rules"][i]), words(data["threat_stations"][i])]
        fields += [" ".join(f"{op}:{n}" for op, n in steps) for steps in data["threat_effects"][i]]
        lines.append("threat " + " | ".join(fields))
    for threats, incoming, transfers in data["missions"]:
        lines.append(
            f"mission {incoming} {transfers} " + " ".join(words(t).replace(" ", ",") for t in threats)
        )
    return "\n".join(lines) + "\n"
