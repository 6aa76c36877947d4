"""`kit.win_at_columns`: a table column of each item's win rate at each value of each setting."""

from __future__ import annotations

import polars as pl

from simkit.reporting import kit


def test_win_at_columns_give_a_column_a_value_of_each_setting() -> None:
    games = pl.DataFrame({"won": [True, False, True, True], "deck": ["red", "red", "blue", "blue"]})
    cell = kit.Cell("1", {"deck": "mixed"}, games)
    columns = kit.win_at_columns({"deck": ["red", "blue"]}, "won at {key}={value}", "{rate:pct} of {rate.n}")
    table = kit.table("Cells", [("cell", "{cell}"), *columns], [cell])
    assert table.columns == ["cell", "won at deck=red", "won at deck=blue"]
    assert table.rows == [["1", "50.0 % of 2", "100.0 % of 2"]]
