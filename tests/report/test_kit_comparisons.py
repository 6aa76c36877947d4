"""The analysis kit's paired comparisons in words and in families: `kit.pooled_over`,
`kit.difference_sentence`, `kit.Comparisons` and a swept setting's best value against the others
(`kit.sweep`, `kit.Sweep`)."""

from __future__ import annotations

import math

import polars as pl
import pytest

from simkit.core import stats
from simkit.reporting import kit

FORMS = (("players", "{} to {} players"), ("level", "levels {} to {}"))


def test_pooled_over_names_the_settings_that_vary_but_the_one_held() -> None:
    games = pl.DataFrame({"players": [3, 5, 4], "level": [1, 1, 1]})
    assert kit.pooled_over(games, FORMS) == ", pooled over 3 to 5 players"
    assert kit.pooled_over(games, FORMS, "players") == ""
    both = games.with_columns(pl.Series("level", [0, 2, 3]))
    assert kit.pooled_over(both, FORMS) == ", pooled over 3 to 5 players and levels 0 to 3"


WORDS = kit.Words(
    "test",
    {
        "said": "{b} {head} {a} (95 % CI {lo} to {hi}; {n} pairs{pooled})",
        "head": "wins {size} points {up:more|less} often than",
        "same": "wins as often as",
    },
)
KEYS = ("said", "head", "same")


def test_difference_sentence_reads_the_size_and_bounds_in_the_direction_of_the_difference() -> None:
    fewer = stats.Interval(-0.031, -0.05, -0.012, 200)
    said = kit.difference_sentence(WORDS, KEYS, fewer, b="B", a="A", pooled=", pooled")
    assert said == "B wins 3.1 points less often than A (95 % CI 1.2 to 5.0; 200 pairs, pooled)"
    paired = stats.PairedDifference(0.0004, 0.0001, 0.0008, 50, 0, 2, 0.0, 0.0)
    said = kit.difference_sentence(WORDS, KEYS, paired, b="B", a="A", pooled="")
    assert (
        said == "B wins 0.04 points more often than A (95 % CI 0.01 to 0.08; 50 pairs)"
    )  # two decimals: not 0.0
    score = stats.Interval(1.5, 0.25, 2.75, 30)
    said = kit.difference_sentence(WORDS, KEYS, score, False, b="B", a="A", pooled="")
    assert said == "B wins 1.50 points more often than A (95 % CI 0.25 to 2.75; 30 pairs)"
    same = stats.Interval(0.0, -0.02, 0.02, 10)
    said = kit.difference_sentence(WORDS, KEYS, same, b="B", a="A", pooled="")
    assert said == "B wins as often as A (95 % CI -2.0 to 2.0; 10 pairs)"


def test_comparisons_weigh_each_p_value_keep_the_first_of_a_name_and_resolve_by_holm() -> None:
    found = kit.Comparisons()
    assert found.add("a", "d1", 0.01) == "a"
    found.add("b", "d2", 0.03, weight=2)
    found.add("a", "ignored", 0.9)
    found.add("c", "d3", 0.8, weight=3)
    assert "b" in found and "z" not in found
    assert found.found["b"] == ("d2", 0.06) and found.found["c"] == ("d3", 1.0)
    compared = found.resolve()
    # Holm over 3: 0.01 x 3 = 0.03 resolved; then 0.06 x 2 = 0.12 and 1.0 not
    assert compared.verdicts == {"a": ("d1", True), "b": ("d2", False), "c": ("d3", False)}
    assert compared.family == stats.family_text(3)
    empty = kit.Comparisons().resolve()
    assert empty.verdicts == {} and empty.family == stats.family_text(0)


def test_a_comparison_without_a_test_stays_out_of_the_familys_count() -> None:
    found = kit.Comparisons()
    found.add("a", "d1", 0.01, weight=2)
    found.add("none", "d0", math.nan, weight=2)  # no test (every pair tied): NaN, not 1
    compared = found.resolve()
    assert compared.verdicts == {"a": ("d1", True), "none": ("d0", False)}
    assert compared.family == stats.family_text(1)


def _swept_games() -> pl.DataFrame:
    """Level 1 at thresholds 1, 2 and 3 (10 games each, same game indexes: 0, 10 and 8 won), and
    level 2 at threshold 1 only (5 games, 1 won)."""
    rows = []
    for t, won in ((1.0, 0), (2.0, 10), (3.0, 8)):
        rows += [(1, "bold", t, i, i < won) for i in range(10)]
    rows += [(2, "bold", 1.0, i, i < 1) for i in range(5)]
    games = pl.DataFrame(rows, schema=["level", "strategy", "t", "game_index", "won"], orient="row")
    return games.with_columns(pl.lit(0.0).alias("score"))


def test_sweep_picks_each_groups_best_value_and_pairs_every_other_against_it() -> None:
    games = _swept_games()
    swept = kit.sweep(games, ("level", "strategy"), "t", ("level", "strategy", "t"))
    assert list(swept.grid) == [(1, "bold", 1.0), (1, "bold", 2.0), (1, "bold", 3.0), (2, "bold", 1.0)]
    assert swept.grid[(1, "bold", 3.0)] == stats.wilson(8, 10)
    [only] = swept.sweeps  # level 2 played one threshold: no sweep
    assert (only.group, only.best, only.rate, only.others) == ((1, "bold"), 2.0, stats.wilson(10, 10), 2)
    assert only.near == {"lower": 1.0, "higher": 3.0}
    low, high = only.against[1.0][0], only.against[3.0][0]
    assert (low.difference, low.n, high.difference) == (1.0, 10, pytest.approx(0.2))
    # the p-values enter times 3 / 2 (three thresholds), then Holm over the two
    family = stats.family([min(1.0, low.p_value * 1.5), min(1.0, high.p_value * 1.5)])
    assert [resolved for _, resolved in only.against.values()] == family.resolved.tolist() == [True, False]
    assert swept.family == family.text
    assert only.tied() == [3.0]
    assert only.neighbours() == [(1.0, low, True), (3.0, high, False)]
    assert not only.apart  # not resolved from 3
    assert only.versus("lower") == f"vs 1: +100.0 ({low.low * 100:+.1f} to {low.high * 100:+.1f})"
    alone = kit.Sweep((1,), 3.0, stats.wilson(5, 10), 1, {"lower": 2.0}, {})
    assert alone.versus("higher") == alone.versus("lower") == "none (end of the sweep)"
    top = kit.Sweep((1,), 3.0, stats.wilson(5, 10), 1, {"lower": 2.0}, {2.0: (low, True)})
    assert top.apart and top.neighbours() == [(2.0, low, True)]  # resolved from its one neighbour


def test_sweep_breaks_a_tie_for_the_best_by_the_lowest_value() -> None:
    games = _swept_games().filter(pl.col("t") != 1.0).with_columns(pl.lit(True).alias("won"))
    swept = kit.sweep(games, ("level",), "t", ("level", "strategy", "t"))
    assert swept.sweeps[0].best == 2.0


def test_a_sweeps_cells_are_its_best_value_rate_neighbours_and_ties() -> None:
    games = _swept_games()
    [only] = kit.sweep(games, ("level", "strategy"), "t", ("level", "strategy", "t")).sweeps
    w = stats.wilson(10, 10)
    rate = ["2", "100.0 %", f"{100 * w.low:.1f} to 100.0 %", "10"]
    assert only.cells() == [*rate, only.versus("lower"), only.versus("higher"), "no", "3"]
    alone = kit.Sweep((1,), 3.0, stats.wilson(1, 4), 1, {"lower": 2.0}, {})
    assert alone.cells()[:2] == ["3", "25.0 %"]
    assert alone.cells()[4:] == ["none (end of the sweep)"] * 2 + ["no", "none"]


def test_compared_says_a_comparison_with_its_sentence_verdict_and_family() -> None:
    words = kit.Words(
        "test", {**WORDS.texts, "verdict": "{lead}{sentence}: {resolved:resolved|not} after {family}."}
    )
    found = kit.Comparisons()
    found.add("bold", stats.Interval(0.05, 0.02, 0.08, 100), 0.001)
    compared = found.resolve()
    said = compared.said(words, "verdict", KEYS, "bold", lead="For bold, ", b="B", a="A", pooled="")
    sentence = "B wins 5.0 points more often than A (95 % CI 2.0 to 8.0; 100 pairs)"
    assert said == f"For bold, {sentence}: resolved after {stats.family_text(1)}."


def test_comparisons_pair_two_values_of_a_setting_by_seed_under_a_name() -> None:
    rows = [(1, i, i < 2) for i in range(10)] + [(3, i, i < 6) for i in range(10)]
    games = pl.DataFrame(rows, schema=["level", "game_index", "won"], orient="row")
    games = games.with_columns(pl.lit(0.0).alias("score"))
    found = kit.Comparisons()
    assert found.paired("up", games, ("level",), "level", 1, 3, weight=2.0) == "up"
    d, p = found.found["up"]
    assert (d.difference, d.n, d.b_only, d.a_only) == (pytest.approx(0.4), 10, 4, 0)
    assert p == min(1.0, 2.0 * d.p_value)
    assert found.paired("none", games, ("level",), "level", 1, 9) is None  # level 9 was not played
    assert "none" not in found


def test_compared_writes_a_comparison_as_table_cells() -> None:
    found = kit.Comparisons()
    found.add("up", stats.PairedDifference(0.05, 0.012, 0.09, 1200, 20, 80, 0.0, 0.0), 0.0001)
    found.add("flat", stats.PairedDifference(-0.01, -0.04, 0.02, 300, 8, 5, 0.0, 0.0), 0.6)
    compared = found.resolve()
    assert compared.cells("up") == ["1,200", "+5.0", "+1.2 to +9.0", "yes"]
    assert compared.cells("flat") == ["300", "-1.0", "-4.0 to +2.0", "no"]


def test_pairs_along_adds_each_pair_that_pairs_once_under_its_name() -> None:
    # level 2 against level 1 and level 3 against level 2, game i of each level sharing its deal;
    # level 3 against level 2 asked for twice counts once, level 4 against 3 has no games
    games = pl.DataFrame(
        {
            "level": [1, 1, 1, 2, 2, 2, 3, 3, 3],
            "game_index": [0, 1, 2] * 3,
            "won": [True, False, False, True, True, False, True, True, True],
            "score": [1.0] * 9,
        }
    )
    found = kit.Comparisons()
    pairs = [(1, 2), (2, 3), (2, 3), (3, 4)]
    out = kit.pairs_along(found, games, ("level",), "level", pairs, tag="bold", weight=2.0)
    names = [("level", 1, 2, "bold"), ("level", 2, 3, "bold")]
    assert out == [(names[0], 1, 2), (names[1], 2, 3), (names[1], 2, 3)]
    assert list(found.found) == names
    pairs_1_2 = kit.paired_in(games, ("level",), "level", 1, 2)
    assert found.found[names[0]] == (pairs_1_2.wins, min(1.0, 2.0 * pairs_1_2.wins.p_value))
