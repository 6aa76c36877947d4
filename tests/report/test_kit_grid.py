"""Rates over a grid of two settings as a table (`kit.rate_grid_table`), the steps between
neighbouring values of a grid of settings (`kit.neighbour_steps`) and their paired differences in
one Holm family (`kit.paired_steps`), and a ladder of neighbours along one setting (`kit.paired_ladder`)."""

from __future__ import annotations

from typing import NamedTuple

import polars as pl

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


class Step(NamedTuple):
    group: str
    kind: str
    a: tuple
    b: tuple
    change: stats.PairedDifference
    resolved: bool = False


def _games(won: list[bool]) -> pl.DataFrame:
    return pl.DataFrame({"game_index": range(len(won)), "won": won})


def test_paired_steps_pair_each_groups_cells_by_game_and_resolve_them_as_one_family() -> None:
    many = [True] * 30 + [False] * 10
    cells = {
        ("bold", 7): _games([True, True, False, True]),
        ("bold", 6): _games([True, False, False, False]),
        ("calm", 7): _games(many),
        ("calm", 6): _games([False] * 40),
    }
    steps = [("fewer", (7,), (6,)), ("none played", (7,), (5,))]
    found, family = kit.paired_steps(cells, ["bold", "calm", "idle"], steps, pl.col("won"), Step)
    assert [(s.group, s.kind, s.a, s.b) for s in found] == [
        ("bold", "fewer", (7,), (6,)),
        ("calm", "fewer", (7,), (6,)),
    ]
    bold, calm = found
    # bold: games 1 and 3 won only at 7 cards, none only at 6, of 4 pairs
    assert (bold.change.difference, bold.change.a_only, bold.change.b_only, bold.change.n) == (-0.5, 2, 0, 4)
    assert (calm.change.difference, calm.change.a_only, calm.change.n) == (-0.75, 30, 40)
    assert family.members == 2 and [bold.resolved, calm.resolved] == [False, True]
    assert list(family.resolved) == [False, True]


class Rung(NamedTuple):
    group: str
    before: tuple
    after: tuple
    change: stats.PairedDifference
    resolved: bool = False


def test_paired_ladder_steps_each_group_up_its_ranks_and_leaves_out_thin_steps() -> None:
    many = [True] * 30 + [False] * 10
    frames = {  # (strategy, players): games
        ("calm", 4): _games([False] * 40),
        ("bold", 4): _games([True, False, False, False]),
        ("calm", 2): _games(many),
        ("bold", 2): _games([True, True, False, True]),
        ("bold", 3): _games([True, True, True, False]),
        ("lone", 2): _games([True]),
        ("lone", 3): _games([False]),  # one pair: left out at least 2
    }
    steps, family = kit.paired_ladder(frames, lambda k: k[0], lambda k: k[1], pl.col("won"), Rung, least=2)
    # the groups as first seen, each up its player counts
    assert [(s.group, s.before[1], s.after[1]) for s in steps] == [
        ("calm", 2, 4),
        ("bold", 2, 3),
        ("bold", 3, 4),
    ]
    assert [(s.change.difference, s.change.n) for s in steps] == [(-0.75, 40), (0.0, 4), (-0.5, 4)]
    assert family.members == 3 and [s.resolved for s in steps] == [True, False, False]
