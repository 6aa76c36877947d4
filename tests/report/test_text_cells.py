"""A win rate's table cells and the wins it rests on (`text.rate_cells`, `text.successes`), a
difference's interval in points (`text.points_interval`), a games column's values
(`kit.sorted_values`) and the games at one value of a swept setting (`kit.at_one_value`)."""

from __future__ import annotations

import polars as pl

from simkit.core import stats
from simkit.reporting import kit, text


def test_successes_are_the_wins_a_rate_rests_on() -> None:
    assert text.successes(stats.wilson(312, 1000)) == 312
    assert text.successes(stats.wilson(1, 3)) == 1  # 1/3 x 3 rounds back to 1
    assert text.successes(stats.wilson(0, 7)) == 0


def test_rate_cells_are_games_wins_rate_and_interval() -> None:
    w = stats.wilson(312, 1000)
    assert text.rate_cells(w) == ["1,000", "312", "31.2 %", f"{100 * w.low:.1f} to {100 * w.high:.1f} %"]
    assert text.rate_cells(stats.wilson(0, 4))[:3] == ["4", "0", "0.0 %"]


def test_sorted_values_lists_each_value_once_in_order() -> None:
    games = pl.DataFrame({"level": [3, 1, 3, 0], "crew": ["bold", "calm", "bold", "bold"]})
    assert kit.sorted_values(games, "level") == [0, 1, 3]
    assert kit.sorted_values(games, "crew") == ["bold", "calm"]


def test_points_interval_reads_a_differences_bounds_in_signed_points() -> None:
    assert text.points_interval(stats.Interval(0.01, -0.012, 0.034, 100)) == "-1.2 to +3.4"
    assert text.points_interval(stats.Interval(0.0, 0.0, 0.0004, 100)) == "0.0 to +0.04"


def test_at_one_value_takes_the_default_where_played_else_the_middle() -> None:
    games = pl.DataFrame({"t": [3.0, 6.0, 9.0, 6.0, float("nan")], "game_index": [0, 1, 2, 3, 4]})
    at, value, default = kit.at_one_value(games, "t", 6.0)
    assert (at["game_index"].to_list(), value, default) == ([1, 3], 6.0, True)
    at, value, default = kit.at_one_value(games.filter(pl.col("t") != 6.0), "t", 6.0)
    assert (at["game_index"].to_list(), value, default) == ([2], 9.0, False)  # the middle of 3 and 9
