"""`kit.listed_table`: the items a games column lists most often (`kit.listed`), as a table."""

from __future__ import annotations

import polars as pl

from simkit.reporting import kit


def test_listed_table_gives_the_most_listed_items_first() -> None:
    games = pl.DataFrame({"spaces": ["3 1", "3", None, "2 3 9"]})  # 9 is past the board's 3 spaces
    listed = kit.listed(games, "spaces", 3, 4)
    table = kit.listed_table("Spaces", listed, "space", 2)
    assert table.caption == "Spaces" and table.columns == ["space", "share of games", "games"]
    assert [row[0::2] for row in table.rows] == [["3", "3"], ["1", "1"]]  # 1 before 2: ties by number
    assert table.rows[0][1].startswith("75.0 % [")  # 3 of the 4 games
