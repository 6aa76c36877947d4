"""A column's mean as an interval (`kit.mean_of`), a paired difference as one (`kit.as_interval`),
and the strategies a dataset plays in order (`kit.strategies_played`)."""

from __future__ import annotations

import math

import polars as pl

from simkit.core import stats
from simkit.core.dataset import Dataset
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext


def test_mean_of_leaves_out_the_games_without_a_value() -> None:
    games = pl.DataFrame({"length": [4, None, 6]})
    mean = kit.mean_of(games, "length")
    assert (mean.estimate, mean.n) == (5.0, 2)
    # a standard error of 1 (sd sqrt 2 over sqrt 2 games), times Student's t of one degree of freedom
    assert math.isclose(mean.high, 5.0 + 12.706204736174707)


def test_mean_of_a_column_the_table_lacks_rests_on_no_games() -> None:
    mean = kit.mean_of(pl.DataFrame({"length": [4]}), "aliens_left")
    assert mean.n == 0 and math.isnan(mean.estimate)


def test_as_interval_takes_the_difference_as_its_estimate() -> None:
    diff = stats.PairedDifference(-0.1, -0.2, 0.05, 40, 6, 2, -0.25, 0.1, 0.3)
    assert kit.as_interval(diff) == stats.Interval(-0.1, -0.2, 0.05, 40)


def test_strategies_played_follow_the_manifest_then_the_games_alone(tmp_path) -> None:
    cells = [{"cell": "0", "strategy": "greedy"}, {"cell": "1", "strategy": ["a", "b"]}, {"cell": "2"}]
    games = pl.DataFrame({"strategy": ["zeta", "a,b", "greedy", "alpha", "a,b"]})
    ctx = AnalysisContext(Dataset(tmp_path, {"cells": cells}, games, None, None), tmp_path, "t", "a test")
    # "" (cell 2) is not played; "zeta" and "alpha" only in the games, sorted after
    assert kit.strategies_played(ctx, games) == ["greedy", "a,b", "alpha", "zeta"]
