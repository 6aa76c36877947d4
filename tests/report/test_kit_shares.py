"""The share of each category of a column in each group of games (`kit.shares`, `kit.Shares`), and
the mean of several columns in each group (`kit.means`)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from simkit.core import stats
from simkit.reporting import kit


def _ends() -> kit.Shares:
    # level 2: 3 games (2 shields, 1 eliminated); level 1: 4 games (1 won, 1 shields, 2 eliminated)
    games = pl.DataFrame(
        {
            "level": [2, 1, 1, 2, 1, 2, 1],
            "end": ["shields", "won", "eliminated", "shields", "shields", "eliminated", "eliminated"],
        }
    )
    return kit.shares(games, ("level",), "end")


def test_counts_each_group_and_each_category_in_it() -> None:
    ends = _ends()
    # the groups in their sorted order, keyed as the table holds the values
    assert ends.games == {(1,): 4, (2,): 3}
    assert ends.count((1,), "eliminated") == 2 and ends.count((2,), "won") == 0
    assert ends.count((3,), "won") == 0  # no such group


def test_shares_are_wilson_intervals_of_the_groups_games() -> None:
    ends = _ends()
    assert ends.share((1,), "eliminated") == stats.wilson(2, 4)
    assert ends.share((1,), "shields", "eliminated") == stats.wilson(3, 4)  # any of several
    shares = ends.of((2,), ["won", "shields", "eliminated"])
    assert list(shares) == ["won", "shields", "eliminated"]  # in the order given
    assert list(shares.values()) == [stats.wilson(0, 3), stats.wilson(2, 3), stats.wilson(1, 3)]
    assert ends.share((3,), "won").n == 0


def test_top_is_the_most_frequent_of_the_categories_given_ties_the_first() -> None:
    ends = _ends()
    assert ends.top((2,), ["eliminated", "shields"]) == ("shields", stats.wilson(2, 3))
    # level 1: shields 1, eliminated 2; among won and shields, a tie of 1: the first given
    assert ends.top((1,), ["won", "shields"]) == ("won", stats.wilson(1, 4))
    assert ends.top((2,), ["won"]) is None  # none of them comes up
    assert ends.top((3,), ["won", "shields"]) is None


def test_percents_and_the_categories_seen() -> None:
    ends = _ends()
    percents = ends.percents([(1,), (2,), (3,)], ["shields", "won"])
    assert percents == {"shields": [25.0, 100 * 2 / 3, 0.0], "won": [25.0, 0.0, 0.0]}
    # those of the order given first (an absent one left out), then the others sorted
    assert ends.seen(["won", "lost", "shields"]) == ["won", "shields", "eliminated"]
    assert ends.seen() == ["eliminated", "shields", "won"]


def test_alt_items_list_each_groups_shares_in_percent() -> None:
    items = _ends().alt_items(["shields", "won"], "level {}")
    assert items == ["level 1 (n=4): shields 25.0 %, won 25.0 %", "level 2 (n=3): shields 66.7 %, won 0.0 %"]
    assert _ends().alt_items(["won"], "level {}", ": ")[0] == "level 1 (n=4): won: 25.0 %"


def test_means_of_several_columns_in_each_group() -> None:
    games = pl.DataFrame(
        {
            "level": [2, 1, 1, 2, 1],
            "crew": ["b", "a", "a", "b", "b"],
            "kamikaze": [1, 0, 2, 3, None],
            "sabotage": [0.5, 1.0, None, 1.5, 2.0],
        }
    )
    means = kit.means(games, ("level", "crew"), ["kamikaze", "sabotage"])
    # the groups in their sorted order; each column's mean over the games with a value
    assert list(means) == [(1, "a"), (1, "b"), (2, "b")]
    assert means[(1, "a")]["kamikaze"] == stats.mean_interval(np.array([0.0, 2.0]))
    one = means[(1, "a")]["sabotage"]  # one game with a value: no interval
    assert (one.estimate, one.n) == (1.0, 1) and math.isnan(one.low)
    assert means[(1, "b")]["kamikaze"].n == 0  # no value in the group
    assert (means[(2, "b")]["kamikaze"].estimate, means[(2, "b")]["sabotage"].estimate) == (2.0, 1.0)
    assert means[(2, "b")]["sabotage"].n == 2
