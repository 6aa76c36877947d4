"""What the native engine (`simkit._native`, native/src/alien_attack/) is handed: the board file's
tables as plain values. The engine plays the same rules, players and draws as this package;
`tests/native/test_equivalence.py` checks that the game and seat rows are identical."""

from __future__ import annotations

from typing import Any

from simkit.games.alien_attack.components import BORDER_CARDS, CITY_CARDS, Board


def native_data(board: Board) -> dict[str, Any]:
    return {
        "n": board.n,
        "neighbors": [list(x) for x in board.neighbors],
        "lines": [list(x) for x in board.lines],
        "opposite": [list(x) for x in board.opposite],
        "park": list(board.park),
        "herd_region": list(board.herd_region),
        "herd_nbrs": [list(x) for x in board.herd_nbrs],
        "border_mask": list(board.border_mask),
        "border_cards": list(BORDER_CARDS),
        "borders": [sorted(board.borders[name]) for name in BORDER_CARDS],
        "city_cards": list(CITY_CARDS),
        "city_value": list(board.city_value),
        "space_cities": [list(x) for x in board.space_cities],
        "discs": board.discs,
        "park_markers": board.park_markers,
        "city_tables": [list(board.city_tables[v]) for v in CITY_CARDS],
        "border_tables": [list(board.border_tables[name]) for name in BORDER_CARDS],
        "parks_table": list(board.parks_table),
        "bases_table": list(board.bases_table),
        "territory_table": list(board.territory_table),
        "protection_points": board.protection_points,
        "protection_value1": board.protection_value1,
        "protection_herds": board.protection_herds,
        "protection_borders": board.protection_borders,
    }


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(_text(v) for v in value)
    return str(int(value))


def rust_fixture(board: Board) -> str:
    """`native_data` as the Rust tests read it (native/src/alien_attack/test_board.txt): one line
    `key v v ...` a table; a per-space list of lists starts with `;` and separates the spaces by
    `;`, a pair inside is `a,b`. The card names are not written (the tests know them)."""
    lines = [
        "# The built-in board's native_data (simkit/games/alien_attack/native.py) for the Rust tests:",
        "# `key v v ...`; a per-space list of lists is `;`-separated, a pair is `a,b`.",
    ]
    for key, value in native_data(board).items():
        if key in ("border_cards", "city_cards"):
            continue
        if not isinstance(value, list):
            lines.append(f"{key} {_text(value)}")
        elif value and isinstance(value[0], list):
            lines.append(f"{key} ;" + ";".join(" ".join(_text(v) for v in item) for item in value))
        else:
            lines.append(f"{key} " + " ".join(_text(v) for v in value))
    return "\n".join(lines) + "\n"
