"""The analysis kit's cells: a cell's own estimates (`kit.Cell.win`, `wins`, `score`, `mean`, `win_at`)
and cells grouped by a setting (`kit.grouped`)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from simkit.core import stats
from simkit.reporting import kit


def test_a_cell_reads_its_win_rate_wins_and_score() -> None:
    games = pl.DataFrame(
        {
            "won": [True, False, None, True, True],
            "score": [10.0, 0.0, 4.0, None, 6.0],
            "deck": ["red", "red", "white", "white", "white"],
        }
    )
    cell = kit.Cell("1", {"deck": "mixed"}, games)
    assert cell.win == stats.wilson(3, 4)  # the game without a verdict left out
    assert cell.wins == 3
    assert (
        cell.score.estimate == pytest.approx(5.0) and cell.score.n == 4
    )  # the game without a score left out
    assert cell.win_at("deck", "red") == stats.wilson(1, 2)
    assert cell.win_at("deck", "white") == stats.wilson(2, 2)
    assert cell.win_at("deck", "blue").n == 0
    assert cell.mean("score") == cell.score
    both = cell.mean("score", "won")  # score plus 1 for a win; the games lacking either left out
    assert both == stats.mean_interval(np.array([11.0, 0.0, 7.0]))


def test_grouped_keeps_the_order_of_first_appearance() -> None:
    games = pl.DataFrame({"won": [True]})
    cells = [
        kit.Cell("1", {"strategy": "bold", "deck": "red"}, games),
        kit.Cell("2", {"strategy": "shy", "deck": "red"}, games),
        kit.Cell("3", {"strategy": "bold", "deck": "white"}, games),
        kit.Cell("4", {"deck": "white"}, games),
    ]
    groups = kit.grouped(cells, "strategy")
    assert list(groups) == ["bold", "shy", ""]  # a cell without the setting under ""
    assert [[c.cell for c in g] for g in groups.values()] == [["1", "3"], ["2"], ["4"]]
    assert kit.grouped([], "strategy") == {}
