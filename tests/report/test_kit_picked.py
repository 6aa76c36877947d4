"""The analysis kit's correction for a top and a bottom picked from several values
(`kit.picked_extremes`), and the highest- and lowest-mean columns of the games
(`kit.column_extremes`)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simkit.core import stats
from simkit.reporting import kit


def test_picked_extremes_adjusts_over_every_pair_of_the_values() -> None:
    three = kit.picked_extremes(0.01, 3)  # 3 pairs: 0.03, below 5 %
    assert three == kit.Picked(pytest.approx(0.03), 3, True)
    eight = kit.picked_extremes(0.01, 8)  # 28 pairs: 0.28
    assert eight.pairs == 28 and eight.p == pytest.approx(0.28) and not eight.resolved
    assert kit.picked_extremes(0.2, 4) == kit.Picked(1.0, 6, False)  # 1.2 capped at 1
    assert kit.picked_extremes(0.02, 2) == kit.Picked(0.02, 1, True)  # two values: one pair, as tested
    assert kit.picked_extremes(math.nan, 3) == kit.Picked(1.0, 3, False)  # no test: not resolved


def test_column_extremes_pick_the_highest_and_lowest_mean_and_pair_their_gap() -> None:
    games = pl.DataFrame({"r": [3, 4, 5, 4], "w": [1, 1, 2, 0], "b": [2, 2, 2, 2]})
    found = kit.column_extremes(games, {"red": "r", "white": "w", "blue": "b"})
    assert (found.most, found.least, found.pairs) == ("red", "white", 3)
    assert found.top == stats.mean_interval(np.array([3.0, 4.0, 5.0, 4.0]))
    gap = np.array([2.0, 3.0, 3.0, 4.0])  # red minus white, game by game
    assert found.gap == stats.mean_interval(gap)
    assert found.p == pytest.approx(min(1.0, 3 * stats.mean_p_value(gap)))
    tied = kit.column_extremes(games, {"blue": "b", "also blue": "b"})
    assert (tied.most, tied.least, tied.pairs) == ("blue", "blue", 1) and math.isnan(tied.p)
