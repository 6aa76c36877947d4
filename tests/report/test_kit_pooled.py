"""`kit.pooled_games` (the games of cells pooled by a label) and `kit.sole_shares` (which one of
several conditions holds alone in each game)."""

from __future__ import annotations

import polars as pl

from simkit.core import stats
from simkit.reporting import kit


def test_pooled_games_pools_the_cells_by_their_label_in_order_of_first_appearance() -> None:
    cells = [
        kit.Cell("a", {"crew": "bold"}, pl.DataFrame({"g": [1, 2]})),
        kit.Cell("b", {"crew": "calm"}, pl.DataFrame({"g": [3]})),
        kit.Cell("c", {"crew": "bold"}, pl.DataFrame({"g": [4]})),
    ]
    pooled = kit.pooled_games(cells, lambda c: c.settings["crew"])
    assert list(pooled) == ["bold", "calm"]
    assert pooled["bold"]["g"].to_list() == [1, 2, 4] and pooled["calm"]["g"].to_list() == [3]


def test_sole_shares_counts_a_game_where_one_condition_holds_alone() -> None:
    games = pl.DataFrame({"red": [6, 6, 1, 6, 2], "blue": [0, 6, 6, 1, None]})
    full = {"red": pl.col("red") >= 6, "blue": pl.col("blue") >= 6}
    shares, apart = kit.sole_shares(games, full)
    assert shares == {"red": stats.wilson(2, 5), "blue": stats.wilson(1, 5)}
    assert apart == 2  # both full in the second game, none in the last
