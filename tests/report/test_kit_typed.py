"""A games table's columns typed (`kit.typed_columns`), the extremes of a grid of estimates
(`kit.grid_extremes`), and a chart's alt-text list cut short (`text.joined_upto`)."""

from __future__ import annotations

import math

import polars as pl

from simkit.core import stats
from simkit.reporting import kit, text

TYPED = (
    ("level", pl.Int64, -1, -1),
    ("strategy", pl.String, "crew", ""),
    ("threshold", pl.Float64, math.nan, math.nan),
)


def test_typed_columns_cast_fill_a_games_gap_and_add_a_lacking_column() -> None:
    games = pl.DataFrame({"level": ["1", None, "3"], "strategy": ["bold", None, "safe"], "won": [1, 0, 1]})
    typed = kit.typed_columns(games, TYPED)
    assert typed.schema["level"] == pl.Int64 and typed.schema["threshold"] == pl.Float64
    assert typed["level"].to_list() == [1, -1, 3]  # a game without one: its value
    assert typed["strategy"].to_list() == ["bold", "", "safe"]
    assert all(math.isnan(x) for x in typed["threshold"].to_list())  # the table lacks it: every game
    assert typed["won"].to_list() == [1, 0, 1]  # the others as they were
    lacking = kit.typed_columns(pl.DataFrame({"won": [True]}), TYPED)
    assert lacking.row(0, named=True)["strategy"] == "crew" and lacking["level"].to_list() == [-1]


def test_grid_extremes_the_highest_and_the_lowest_ties_the_first() -> None:
    grid = {
        (0, "a"): stats.wilson(2, 10),
        (1, "a"): stats.wilson(5, 10),
        (1, "b"): stats.wilson(2, 10),
        (2, "a"): stats.wilson(5, 10),
    }
    # 0.5 at (1, a) and (2, a): the first; 0.2 at (0, a) and (1, b): the first
    assert kit.grid_extremes(grid) == {"highest": (1, "a"), "lowest": (0, "a")}
    assert kit.grid_extremes({(0, "a"): stats.wilson(1, 2)}) == {}


def test_joined_upto_lists_the_first_items_then_says_there_are_more() -> None:
    items = ["a 1 %", "b 2 %", "c 3 %"]
    assert text.joined_upto(items, 2) == "a 1 %; b 2 %"
    assert text.joined_upto(items, 2, "; and more") == "a 1 %; b 2 %; and more"
    assert text.joined_upto(items, 3, "; and more") == "a 1 %; b 2 %; c 3 %"  # none left out
    assert text.joined_upto([], 3, "; and more") == ""
