import math

import numpy as np
import pytest

from simkit.core import stats


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        # Reference values: Wilson score interval, z = 1.96 (Newcombe 1998, table I; Agresti & Coull 1998)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (20, 20, 0.8389, 1.0),
    ],
)
def test_wilson_matches_published_values(k, n, low, high):
    interval = stats.wilson(k, n)
    assert interval.low == pytest.approx(low, abs=2e-4)
    assert interval.high == pytest.approx(high, abs=2e-4)
    assert interval.n == n


def test_wilson_is_not_wald_at_the_edges():
    # Wald would give the degenerate [0, 0] for 0 successes; Wilson must not.
    interval = stats.wilson(0, 100)
    assert interval.low == 0.0 and interval.high > 0.03


def test_unpaired_difference_matches_newcombe_example():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80 = 0.2000,
    # method 10 interval 0.0524 to 0.3339.
    d = stats.unpaired_difference(56, 70, 48, 80)
    assert d.estimate == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0524, abs=2e-4)
    assert d.high == pytest.approx(0.3339, abs=2e-4)


def test_paired_difference_counts_discordant_games():
    # (both, A only, B only, neither) = (12, 9, 2, 4): B - A = (2 - 9) / 27
    a = np.array([1] * 12 + [1] * 9 + [0] * 2 + [0] * 4, dtype=bool)
    b = np.array([1] * 12 + [0] * 9 + [1] * 2 + [0] * 4, dtype=bool)
    d = stats.paired_difference(a, b)
    assert (d.a_only, d.b_only, d.n) == (9, 2, 27)
    assert d.difference == pytest.approx(-7 / 27)
    assert d.low < d.difference < d.high < 0
    # swapping the cells mirrors the interval
    m = stats.paired_difference(b, a)
    assert (m.low, m.high) == pytest.approx((-d.high, -d.low))


def test_paired_difference_of_identical_cells_is_zero_width_around_zero():
    a = np.array([True, False] * 50)
    d = stats.paired_difference(a, a)
    assert d.difference == 0 and d.low <= 0 <= d.high
    assert d.high - d.low < d.unpaired_high - d.unpaired_low


def test_paired_interval_is_narrower_than_unpaired_for_correlated_cells():
    rng = np.random.default_rng(1)
    base = rng.random(5000)
    a = base < 0.40
    b = base < 0.45  # strongly correlated: only the games in between differ
    d = stats.paired_difference(a, b)
    assert d.low > 0
    assert (d.high - d.low) < 0.5 * (d.unpaired_high - d.unpaired_low)


def test_mean_interval_covers_the_mean():
    values = np.arange(100, dtype=float)
    interval = stats.mean_interval(values)
    assert interval.estimate == pytest.approx(49.5)
    se = values.std(ddof=1) / math.sqrt(100)
    assert interval.high - interval.estimate == pytest.approx(1.9842169515 * se)  # t(0.975, 99)
