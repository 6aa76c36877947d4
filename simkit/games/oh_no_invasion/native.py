"""What the native engine (`simkit._native`, native/src/oh_no/) is handed: the component file as
plain lists. The engine plays the same rules, crews and draws as this package;
`tests/native/test_equivalence.py` checks that the rows are identical."""

from __future__ import annotations

from typing import Any

from simkit.games.oh_no_invasion.components import Components


def native_data(comp: Components) -> dict[str, Any]:
    return {
        "colour_kind": list(comp.colour_kind),
        "points": list(comp.points),
        "res_category": list(comp.res_category),
        "res_colour": list(comp.res_colour),
        "res_type": list(comp.res_type),
        "res_symbols": [list(s) for s in comp.res_symbols],
        "hubs": list(comp.hubs),
        "spawn_shield": list(comp.spawn_shield),
        "spawn_colour": list(comp.spawn_colour),
        "spawn_kind": list(comp.spawn_kind),
        "spawn_aliens": list(comp.spawn_aliens),
        "spawn_flies": list(comp.spawn_flies),
        "spawn_orders": list(comp.spawn_orders),
        "spawn_threshold": list(comp.spawn_threshold),
        "shields_total": comp.shields_total,
    }
