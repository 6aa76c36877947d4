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
