"""What the native engine (`simkit._native`, native/src/eight_bit/) is handed: the component file
and the settings as plain values. The engine plays the same rules, players and draws as this
package; `tests/native/test_equivalence.py` checks that the rows are identical."""

from __future__ import annotations

from typing import Any

from simkit.games.eight_bit_invaders.components import Components


def native_data(comp: Components) -> dict[str, Any]:
    return {
        "rows": comp.rows,
        "columns": comp.columns,
        "n_types": len(comp.types),
        "aliens": [(a.kind, a.a, a.b, a.type, a.bomber, a.need) for a in comp.aliens],
        "shield_start": list(comp.shield_start),
        "bonus_deck": list(comp.bonus_deck),
        "dice_per_turn": comp.dice_supplied,
    }
