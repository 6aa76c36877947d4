"""Statistics every report and comparison shares: Wilson intervals, paired differences, and the
adjustment of a family of comparisons.

Win rates carry 95 % Wilson score intervals (never Wald). Two cells played on the same seeds are
compared as pairs, which is what common random numbers buy: the discordant games carry the
difference. The paired interval is Tango's score interval (Tango 1998, Stat Med 17:891-908); it
inverts the score test whose value at zero is McNemar's, so the interval excludes zero exactly
when McNemar's test (`p_value`) is below 0.05, and it keeps its coverage when discordant games
are few (Fagerland, Lydersen and Laake 2014, Stat Med 33:2850-2875, recommend it;
Newcombe's hybrid interval is kept for independent samples and for the unpaired comparison).

A difference is called resolved only after the error rate over the family it was chosen from is
controlled: Holm's step-down (family-wise, Holm 1979) or Benjamini-Hochberg (false discovery
rate, 1995) on the family's p-values; see `adjust`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def longer_side(self) -> float:
        """The longer of the two sides (estimate to low, estimate to high): what "at most H on each
        side" bounds. Near 0 or 1 the Wilson interval is lopsided and this exceeds the half-width."""
        return max(self.high - self.estimate, self.estimate - self.low)


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for a proportion."""
    if n <= 0:
        return Interval(float("nan"), 0.0, 1.0, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = wilson_half_width(p, n, z)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the edges, no rounding fuzz
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high, n)


def wilson_half_width(p: float, n: int, z: float = Z95) -> float:
    """Half the width of the Wilson interval at observed rate `p` over `n` trials."""
    return z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)


def wilson_longer_side(p: float, n: int, z: float = Z95) -> float:
    """The longer side of the Wilson interval at observed rate `p` over `n` trials: the half-width
    plus how far the interval's centre sits from `p` (towards 0.5)."""
    shift = abs(0.5 - p) * (z * z / n) / (1 + z * z / n)
    return wilson_half_width(p, n, z) + shift


def mean_interval(values: np.ndarray, level: float = 0.95) -> Interval:
    """Mean with Student's t interval (n - 1 degrees of freedom)."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n == 0:
        return Interval(float("nan"), float("nan"), float("nan"), 0)
    m = float(values.mean())
    if n == 1:
        return Interval(m, float("nan"), float("nan"), 1)
    se = float(values.std(ddof=1)) / math.sqrt(n)
    # imported here: scipy.stats costs about a second to import, and every worker process
    # imports this module (through the runner) without needing it
    from scipy.stats import t as student_t

    t = float(student_t.ppf(0.5 + level / 2, n - 1))
    return Interval(m, m - t * se, m + t * se, n)


@dataclass(frozen=True)
class PairedDifference:
    """Difference in win rate, B minus A, from games paired by seed."""

    difference: float
    low: float  # Tango's score interval
    high: float
    n: int
    a_only: int  # games A won and B lost
    b_only: int  # games B won and A lost
    unpaired_low: float  # Newcombe's hybrid interval of the same rates, as if independent
    unpaired_high: float
    p_value: float = math.nan  # McNemar's test (the score test at zero), two-sided

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def _newcombe(
    p1: float, l1: float, u1: float, p2: float, l2: float, u2: float, phi: float
) -> tuple[float, float]:
    d = p1 - p2
    lower = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    upper = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return d - lower, d + upper


def tango_statistic(delta: float, b_only: int, a_only: int, n: int) -> float:
    """Tango's score statistic for H0: p_B - p_A = delta, from the discordant counts of n pairs.

    The nuisance parameter (the chance a pair is "A only") is replaced by its maximum-likelihood
    estimate under H0, the root of Tango's quadratic (1998, eq. 4). At delta = 0 this is
    McNemar's (b - c) / sqrt(b + c). Decreasing in delta."""
    a = 2 * n
    b = -b_only - a_only + (2 * n - b_only + a_only) * delta
    c = -a_only * delta * (1 - delta)
    q = (math.sqrt(max(0.0, b * b - 4 * a * c)) - b) / (2 * a)
    var = n * (2 * q + delta * (1 - delta))
    num = b_only - a_only - n * delta
    if var <= 0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def tango_interval(b_only: int, a_only: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Tango's score interval for p_B - p_A from paired binary outcomes: every delta whose score
    statistic lies within +-z (found with brentq on each side of the estimate)."""
    if n <= 0:
        return -1.0, 1.0
    from scipy.optimize import brentq  # imported here: see mean_interval

    est = (b_only - a_only) / n
    edge = 1 - 1e-12
    if est <= -edge or tango_statistic(-edge, b_only, a_only, n) <= z:
        low = -1.0
    else:
        low = brentq(lambda d: tango_statistic(d, b_only, a_only, n) - z, -edge, est, xtol=1e-12)
    if est >= edge or tango_statistic(edge, b_only, a_only, n) >= -z:
        high = 1.0
    else:
        high = brentq(lambda d: tango_statistic(d, b_only, a_only, n) + z, est, edge, xtol=1e-12)
    return low, high


def mcnemar_p(b_only: int, a_only: int) -> float:
    """Two-sided p-value of McNemar's test (asymptotic, no continuity correction): the score test
    Tango's interval inverts, so p < 0.05 exactly when that interval excludes zero."""
    m = b_only + a_only
    if m == 0:
        return 1.0
    return math.erfc(abs(b_only - a_only) / math.sqrt(m) / math.sqrt(2))


def paired_difference(a_won: np.ndarray, b_won: np.ndarray, z: float = Z95) -> PairedDifference:
    """B's win rate minus A's, for games that share seeds (element i of each is game i).

    The interval is Tango's score interval for paired proportions, with McNemar's p-value;
    `unpaired_*` is Newcombe's hybrid score interval for independent proportions (method 10,
    1998) of the same two rates, as if the cells had been played on independent seeds. `z` sets
    the paired interval's level (1.96: 95 %; larger for a Bonferroni-adjusted one).
    """
    a = np.asarray(a_won, dtype=bool)
    b = np.asarray(b_won, dtype=bool)
    if a.shape != b.shape:
        raise ValueError("paired arrays must have the same length")
    n = len(a)
    both = int(np.sum(a & b))
    a_only = int(np.sum(a & ~b))
    b_only = int(np.sum(~a & b))
    wa, wb = wilson(both + a_only, n), wilson(both + b_only, n)
    low, high = tango_interval(b_only, a_only, n, z)
    ulow, uhigh = _newcombe(wb.estimate, wb.low, wb.high, wa.estimate, wa.low, wa.high, 0.0)
    return PairedDifference(
        wb.estimate - wa.estimate, low, high, n, a_only, b_only, ulow, uhigh, mcnemar_p(b_only, a_only)
    )


def unpaired_difference(k1: int, n1: int, k2: int, n2: int) -> Interval:
    """Difference of two independent proportions, k1/n1 - k2/n2, with Newcombe's hybrid score
    interval (method 10 of Newcombe 1998, built from the two Wilson intervals)."""
    w1, w2 = wilson(k1, n1), wilson(k2, n2)
    low, high = _newcombe(w1.estimate, w1.low, w1.high, w2.estimate, w2.low, w2.high, 0.0)
    return Interval(w1.estimate - w2.estimate, low, high, n1 + n2)


def mean_p_value(values: np.ndarray) -> float:
    """Two-sided p-value of Student's one-sample t test of mean zero (the test `mean_interval`'s
    interval inverts: p < 0.05 exactly when that interval excludes zero)."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n < 2:
        return math.nan
    sd = float(values.std(ddof=1))
    m = float(values.mean())
    if sd == 0:
        return 1.0 if m == 0 else 0.0
    from scipy.stats import t as student_t

    return float(2 * student_t.sf(abs(m) / (sd / math.sqrt(n)), n - 1))


# --- families of comparisons ----------------------------------------------------------------------

HOLM = "holm"
BH = "bh"
METHOD_TEXT = {
    HOLM: "the Holm adjustment (family-wise error rate 5 %)",
    BH: "the Benjamini-Hochberg adjustment (false discovery rate 5 %)",
}
ALPHA = 0.05


def adjust(p_values: Sequence[float], method: str = HOLM) -> np.ndarray:
    """Adjusted p-values of a family: Holm's step-down (controls the chance of any false
    "resolved" in the family, under any dependence) or Benjamini-Hochberg's step-up (controls the
    expected share of false ones among those called resolved; valid for the positively dependent
    comparisons common seeds give, Benjamini and Yekutieli 2001). NaN stays NaN and does not count
    as a member. A comparison is resolved when its adjusted p-value is below ALPHA."""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    ranked = p[order]
    if method == HOLM:
        adj = np.maximum.accumulate((m - np.arange(m)) * ranked)
    elif method == BH:
        adj = np.minimum.accumulate((m / np.arange(1, m + 1) * ranked)[::-1])[::-1]
    else:
        raise ValueError(f"unknown adjustment {method!r}")
    out[order] = np.minimum(adj, 1.0)
    return out


def resolved(p_values: Sequence[float], method: str = HOLM) -> np.ndarray:
    """Which members of the family are resolved after `adjust` (NaN: never)."""
    adj = adjust(p_values, method)
    return np.where(np.isnan(adj), False, adj < ALPHA)


def family_text(members: int, method: str = HOLM) -> str:
    """How a page names the family a verdict was adjusted over."""
    return f"{METHOD_TEXT[method]} over {members:,} comparison{'s' if members != 1 else ''}"


@dataclass(frozen=True)
class Family:
    """The verdicts on a family of comparisons (see `family`)."""

    adjusted: np.ndarray  # adjusted p-values, NaN where a member has none
    resolved: np.ndarray  # bool: adjusted p below ALPHA
    members: int  # comparisons with a p-value
    method: str

    @property
    def text(self) -> str:
        return family_text(self.members, self.method)


def family(p_values: Sequence[float], method: str = HOLM) -> Family:
    """Adjust a family's p-values at once: what each analysis calls "resolved" comes from here."""
    adjusted = adjust(p_values, method)
    members = int(np.sum(~np.isnan(np.asarray(p_values, dtype=float))))
    return Family(adjusted, np.where(np.isnan(adjusted), False, adjusted < ALPHA), members, method)


def clustered_mean(values: np.ndarray, clusters: np.ndarray, level: float = 0.95) -> Interval:
    """The mean of `values` whose members come in clusters (the seats of one game), with a
    cluster-robust t interval: each cluster is one unit (the ratio estimator sum y / sum m and its
    sandwich variance with the k / (k - 1) small-sample factor, t with k - 1 degrees of freedom,
    k clusters). Seats of one game are not independent (in a competitive game one seat's win is
    the others' loss), so treating them as independent misstates the interval. `n` is the number
    of clusters."""
    y = np.asarray(values, dtype=float)
    if len(y) == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    _, index = np.unique(np.asarray(clusters), return_inverse=True)
    sums = np.bincount(index, weights=y)
    sizes = np.bincount(index).astype(float)
    k = len(sums)
    ratio = float(sums.sum() / sizes.sum())
    if k < 2:
        return Interval(ratio, math.nan, math.nan, k)
    resid = sums - ratio * sizes
    se = math.sqrt(k / (k - 1) * float(np.sum(resid**2))) / float(sizes.sum())
    from scipy.stats import t as student_t

    t = float(student_t.ppf(0.5 + level / 2, k - 1))
    return Interval(ratio, ratio - t * se, ratio + t * se, k)
