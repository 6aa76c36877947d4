"""Both engines give identical rows for the same settings, strategies and seeds (DESIGN.md,
"Native engines"): every game the native core plays, every native strategy, every combination of
the game's key settings (`Engine.verify_grid`, `verify_factors`, the slow strategies' and mixed
cells' parts), 2,000 games a cell (the native issues' figure), through the whole runner on two
jobs. `make verify-native` plays the same at
100,000 or 200,000 games a cell."""

import pytest

from simkit.core import dataset, native, scenario, verify
from simkit.core.registry import all_games

GAMES = 2000  # a cell, as the native issues set; `make verify-native` plays 100,000 or more
NATIVE_GAMES = [g for g in all_games() if g.has_native]


@pytest.mark.parametrize("engine", NATIVE_GAMES, ids=lambda g: g.id)
def test_native_and_python_rows_are_identical(core, engine, tmp_path):
    assert engine.verify_grid, f"{engine.id} declares no verify_grid"
    assert native.native_strategies(engine.id) == set(engine.strategies), "a built-in strategy is not native"
    assert verify.verify(engine, GAMES, 7, tmp_path, jobs=2) == []
    for part, spec in verify.parts_for(engine, GAMES, 7).items():
        folder = tmp_path / part if part else tmp_path
        native_rows = dataset.load(folder / "native")
        cells = len(scenario.parse(spec, part or "main").cells)
        assert native_rows.games.height == spec["scenario"]["games"] * cells  # every cell played, none failed
        assert {c["engine"] for c in native_rows.manifest["cells"]} == {"native"}
        assert {c["engine"] for c in dataset.load(folder / "python").manifest["cells"]} == {"python"}


def test_differences_names_the_column_and_game(tmp_path):
    """The comparison itself can fail: one changed value is reported with its cell and game."""
    import polars as pl

    frame = pl.DataFrame({"cell": ["c000", "c000"], "game_index": [0, 1], "score": [3, 4]})
    a = dataset.Dataset(tmp_path, {}, frame, None, None)
    b = dataset.Dataset(tmp_path, {}, frame.with_columns(pl.Series("score", [3, 5])), None, None)
    assert verify.differences(a, a) == []
    assert verify.differences(a, b) == ["games: column 'score' differs in 1 rows (first: cell c000, game 1)"]
