"""An estimate's games and its bounds in any formatter's numbers, as a template asks (`text.Shown`),
and the games each of a chart's points rests on (`text.per`)."""

from __future__ import annotations

from simkit.core import stats
from simkit.reporting import text


def test_games_read_as_a_count_with_its_noun() -> None:
    assert text.fill("{x:games}", x=stats.Interval(0.5, 0.0, 1.0, 1)) == "1 game"
    assert text.fill("{x:games}", x=stats.Interval(0.5, 0.4, 0.6, 1200)) == "1,200 games"


def test_interval_in_points_reads_both_bounds_signed() -> None:
    change = stats.PairedDifference(-0.012, -0.041, 0.02, 400, 9, 4, -0.05, 0.03, 0.2)
    assert text.fill("{x:points} ({x:interval points})", x=change) == "-1.2 (-4.1 to +2.0)"
    assert text.fill("{x:interval number}", x=stats.Interval(5.0, 4.31, 5.69, 9)) == "4.3 to 5.7"


def test_per_says_how_many_games_each_point_rests_on() -> None:
    rates = [stats.Interval(0.5, 0.4, 0.6, 400), stats.Interval(0.2, 0.1, 0.3, 1380)]
    assert text.per(rates, "square") == "400 to 1,380 games per square"
    assert text.per(rates[:1], "point", "pairs") == "400 pairs per point"
    assert text.per([], "square") == "no games"
