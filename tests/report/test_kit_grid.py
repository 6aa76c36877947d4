"""Rates over a grid of two settings as a table (`kit.rate_grid_table`), and the steps between
neighbouring values of a grid of settings (`kit.neighbour_steps`)."""

from __future__ import annotations

from simkit.core import stats
from simkit.reporting import kit


def test_rate_grid_table_has_a_row_a_group_and_row_value_and_a_column_a_column_value() -> None:
    rates = {
        ("bold", 7, 6): stats.Interval(0.5, 0.4, 0.6, 100),
        ("bold", 6, 5): stats.Interval(0.25, 0.2, 0.31, 100),
    }
    heads = ("strategy, cards", "{group}, {row} cards", "{column} dice")
    table = kit.rate_grid_table("Win rate", ["bold"], [7, 6], [6, 5], rates, heads)
    assert table.caption == "Win rate"
    assert table.columns == ["strategy, cards", "6 dice", "5 dice"]
    assert table.rows == [
        ["bold, 7 cards", "50.0 % (40.0 to 60.0 %; n=100)", "–"],
        ["bold, 6 cards", "–", "25.0 % (20.0 to 31.0 %; n=100)"],
    ]


def test_neighbour_steps_step_along_one_setting_with_the_others_held() -> None:
    assert kit.neighbour_steps([[7, 6, 5], [6, 5]]) == [
        (0, (7, 6), (6, 6)),
        (0, (6, 6), (5, 6)),
        (0, (7, 5), (6, 5)),
        (0, (6, 5), (5, 5)),
        (1, (7, 6), (7, 5)),
        (1, (6, 6), (6, 5)),
        (1, (5, 6), (5, 5)),
    ]
    assert kit.neighbour_steps([["a", "b"]]) == [(0, ("a",), ("b",))]
    assert kit.neighbour_steps([[1], [2]]) == []  # one value each: no step
