"""Statistics every report and comparison shares: Wilson intervals and paired differences.

Win rates carry 95 % Wilson score intervals (never Wald). Two cells played on the same seeds are
compared as pairs (Newcombe's method 10 for a difference of paired proportions), which is what
common random numbers buy: the discordant games carry the difference.
"""

from __future__ import annotations

import math
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
    low: float
    high: float
    n: int
    a_only: int  # games A won and B lost
    b_only: int  # games B won and A lost
    unpaired_low: float
    unpaired_high: float


def _newcombe(
    p1: float, l1: float, u1: float, p2: float, l2: float, u2: float, phi: float
) -> tuple[float, float]:
    d = p1 - p2
    lower = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    upper = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return d - lower, d + upper


def paired_difference(a_won: np.ndarray, b_won: np.ndarray) -> PairedDifference:
    """B's win rate minus A's, for games that share seeds (element i of each is game i).

    The interval is Newcombe's hybrid score method for paired proportions (method 10, 1998),
    with the correlation of the pairs; `unpaired_*` is the same method with the correlation set
    to zero, as if the cells had been played on independent seeds.
    """
    a = np.asarray(a_won, dtype=bool)
    b = np.asarray(b_won, dtype=bool)
    if a.shape != b.shape:
        raise ValueError("paired arrays must have the same length")
    n = len(a)
    both = int(np.sum(a & b))
    a_only = int(np.sum(a & ~b))
    b_only = int(np.sum(~a & b))
    neither = n - both - a_only - b_only
    wa, wb = wilson(both + a_only, n), wilson(both + b_only, n)
    # Newcombe's correlation estimate for method 10: phi with its numerator shrunk by n/2
    # when positive (a continuity correction), and 0 when a margin is empty.
    den = (both + a_only) * (neither + b_only) * (both + b_only) * (neither + a_only)
    cross = both * neither - a_only * b_only
    cross = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = cross / math.sqrt(den) if den > 0 else 0.0
    low, high = _newcombe(wb.estimate, wb.low, wb.high, wa.estimate, wa.low, wa.high, phi)
    ulow, uhigh = _newcombe(wb.estimate, wb.low, wb.high, wa.estimate, wa.low, wa.high, 0.0)
    return PairedDifference(wb.estimate - wa.estimate, low, high, n, a_only, b_only, ulow, uhigh)


def unpaired_difference(k1: int, n1: int, k2: int, n2: int) -> Interval:
    """Difference of two independent proportions, k1/n1 - k2/n2, with Newcombe's hybrid score
    interval (method 10 of Newcombe 1998, built from the two Wilson intervals)."""
    w1, w2 = wilson(k1, n1), wilson(k2, n2)
    low, high = _newcombe(w1.estimate, w1.low, w1.high, w2.estimate, w2.low, w2.high, 0.0)
    return Interval(w1.estimate - w2.estimate, low, high, n1 + n2)
