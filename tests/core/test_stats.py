import math

import numpy as np
import pytest
from scipy.stats import norm

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


# --- Tango's paired interval, McNemar's test and the family adjustment ----------------------------


def test_tango_interval_matches_the_published_example():
    # Airway hyper-responsiveness before and after transplantation (Bentur et al. 2009), the
    # worked example of the paired 2x2 chapter of Fagerland, Lydersen and Laake (2017),
    # "Statistical Analysis of Contingency Tables": table (1, 1 / 7, 12), difference -0.286,
    # Tango's 95 % score interval -0.517 to -0.026 (three decimals; the defining-equation test
    # below checks every digit without resting on a printed table).
    low, high = stats.tango_interval(1, 7, 21)
    assert low == pytest.approx(-0.517, abs=5e-4)
    assert high == pytest.approx(-0.026, abs=5e-4)


def test_tango_interval_matches_the_contingencytables_package():
    # Complete response before and after consolidation therapy (Cavo et al. 2012), table
    # (59, 6 / 16, 80): the R package contingencytables (the book's own code) prints in its test
    # suite "estimate = -0.0621 (95% CI -0.1240 to -0.0054)" for Tango's score interval
    low, high = stats.tango_interval(6, 16, 161)
    assert (round(low, 4), round(high, 4)) == (-0.1240, -0.0054)


@pytest.mark.parametrize(("b_only", "a_only", "n"), [(9, 2, 27), (3, 0, 400), (0, 0, 50), (40, 20, 160)])
def test_tango_interval_solves_its_defining_equation(b_only, a_only, n):
    """Brute force: on a fine grid of deltas, those whose score statistic (computed from scratch
    with the constrained maximum-likelihood estimate found numerically) lies within +-1.96 are
    exactly those inside the interval."""
    from scipy.optimize import minimize_scalar

    def statistic(delta):
        # maximise the multinomial log-likelihood over p_a (the "A only" cell) with
        # p_b = p_a + delta, the concordant cells free (their total is 1 - p_a - p_b)
        def nll(pa):
            pb = pa + delta
            rest = 1 - pa - pb
            if pa <= 0 or pb <= 0 or rest <= 0:
                return np.inf
            return -(a_only * np.log(pa) + b_only * np.log(pb) + (n - a_only - b_only) * np.log(rest))

        lo_pa, hi_pa = max(0.0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12
        pa = minimize_scalar(nll, bounds=(lo_pa, hi_pa), method="bounded", options={"xatol": 1e-12}).x
        return (b_only - a_only - n * delta) / np.sqrt(n * (2 * pa + delta * (1 - delta)))

    low, high = stats.tango_interval(b_only, a_only, n)
    for delta in (low, high):
        assert abs(stats.tango_statistic(delta, b_only, a_only, n)) == pytest.approx(stats.Z95, abs=1e-6)
    for delta in np.linspace(-0.9, 0.9, 181):
        if abs(delta - low) > 2e-3 and abs(delta - high) > 2e-3:
            assert (abs(statistic(delta)) <= stats.Z95) == (low <= delta <= high), delta


def test_tango_at_zero_is_mcnemar_and_agrees_with_its_p_value():
    for b_only, a_only, n in [(9, 2, 27), (30, 12, 500), (5, 5, 100), (14, 4, 2000)]:
        z = (b_only - a_only) / np.sqrt(b_only + a_only)
        assert stats.tango_statistic(0.0, b_only, a_only, n) == pytest.approx(z)
        p = stats.mcnemar_p(b_only, a_only)
        assert p == pytest.approx(2 * norm.sf(abs(z)))
        low, high = stats.tango_interval(b_only, a_only, n)
        assert (p < 0.05) == (low > 0 or high < 0)


def test_tango_interval_covers_95_percent_when_wins_are_rare():
    """Wins about 1 % in each of two correlated cells, 2,000 pairs: a handful of discordant
    games. 2,000 simulated pairs of cells (fixed seed): coverage within 93-97 %."""
    rng = np.random.default_rng(5)
    n, reps, covered = 2000, 2000, 0
    pa, pb = 0.010, 0.012
    for _ in range(reps):
        u = rng.random(n)
        own = rng.random((2, n))
        shared = rng.random((2, n)) < 0.5
        a = np.where(shared[0], u, own[0]) < pa
        b = np.where(shared[1], u, own[1]) < pb
        d = stats.paired_difference(a, b)
        covered += d.low <= pb - pa <= d.high
    assert 0.93 <= covered / reps <= 0.97


def test_adjust_matches_holm_and_benjamini_hochberg_by_hand():
    p = [0.01, 0.04, 0.03, 0.005, np.nan]
    holm = stats.adjust(p, stats.HOLM)
    bh = stats.adjust(p, stats.BH)
    # sorted 0.005, 0.01, 0.03, 0.04 over m = 4: Holm 4x, 3x, 2x, 1x then running max
    assert holm[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # BH: m/rank x p, then running min from the top
    assert bh[:4] == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert np.isnan(holm[4]) and np.isnan(bh[4])
    assert list(stats.resolved(p)) == [True, False, False, True, False]
    assert stats.family_text(40) == "the Holm adjustment (family-wise error rate 5 %) over 40 comparisons"


def test_mean_p_value_agrees_with_the_t_interval():
    rng = np.random.default_rng(4)
    for shift in (0.0, 0.1, 0.3):
        x = rng.normal(shift, 1, 60)
        iv = stats.mean_interval(x)
        assert (stats.mean_p_value(x) < 0.05) == (iv.low > 0 or iv.high < 0)


def test_clustered_mean_counts_each_game_once():
    # four seats a game, exactly one winner: the average seat wins 1/4 in every game, so the
    # interval has no width; treating the 400 seats as independent would give +-4 points
    rng = np.random.default_rng(9)
    games = np.repeat(np.arange(100), 4)
    won = np.zeros(400)
    won[np.arange(100) * 4 + rng.integers(0, 4, 100)] = 1
    iv = stats.clustered_mean(won, games)
    assert iv.estimate == 0.25 and iv.low == pytest.approx(0.25) and iv.high == pytest.approx(0.25)
    assert iv.n == 100
    # seats that move together: the interval is that of the 100 game means, not of 400 values
    shared = np.repeat(rng.normal(0, 1, 100), 4) + rng.normal(0, 0.1, 400)
    by_game = stats.mean_interval(shared.reshape(100, 4).mean(axis=1))
    clustered = stats.clustered_mean(shared, games)
    assert clustered.estimate == pytest.approx(by_game.estimate)
    assert clustered.high - clustered.low == pytest.approx(by_game.high - by_game.low, rel=1e-9)
    naive = stats.mean_interval(shared)
    assert clustered.high - clustered.low > 1.7 * (naive.high - naive.low)
