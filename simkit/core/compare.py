"""Comparing two cells of one dataset as pairs: game i of each cell shares its seed.

Common random numbers make game i of cell A and game i of cell B see the same deal and dice, so
their outcomes are correlated and the difference between the cells is estimated from the pairs.
Wins use Tango's score interval for paired proportions (the McNemar setting: only the discordant
games carry the difference; it keeps its coverage when those are few, as with rare wins) with
McNemar's p-value; scores use the paired t interval and test on the per-game differences. Each
comes with the interval the same counts would give unpaired (Newcombe's hybrid score interval,
Welch), so what the pairing saves, or at rare wins costs, is visible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import t as student_t

from simkit.core import stats
from simkit.core.dataset import Dataset
from simkit.core.errors import UserError


@dataclass(frozen=True)
class Comparison:
    a: str  # cell ids
    b: str
    a_label: str
    b_label: str
    pairs: int  # games played in both cells (failures dropped from both)
    wins: stats.PairedDifference | None  # B minus A; None where the game has no team/solo win
    score: stats.Interval  # paired mean of B's score minus A's
    score_unpaired: stats.Interval  # Welch interval of the same difference, ignoring the pairing
    score_correlation: float
    score_p: float = math.nan  # paired t test of a zero mean difference, two-sided


def paired_scores(a: np.ndarray, b: np.ndarray) -> tuple[stats.Interval, stats.Interval, float]:
    """Mean of b - a with the paired t interval, the unpaired Welch interval and the correlation."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    paired = stats.mean_interval(b - a)
    n = len(a)
    diff = float(b.mean() - a.mean()) if n else math.nan
    if n < 2:
        return paired, stats.Interval(diff, math.nan, math.nan, n), math.nan
    va, vb = a.var(ddof=1) / n, b.var(ddof=1) / n
    se = math.sqrt(va + vb)
    dof = (va + vb) ** 2 / ((va**2 + vb**2) / (n - 1)) if va + vb > 0 else n - 1
    t = float(student_t.ppf(0.975, dof))
    unpaired = stats.Interval(diff, diff - t * se, diff + t * se, 2 * n)
    corr = float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else math.nan
    return paired, unpaired, corr


def compare_arrays(
    a_won: np.ndarray | None,
    b_won: np.ndarray | None,
    a_score: np.ndarray,
    b_score: np.ndarray,
    a_name: str = "A",
    b_name: str = "B",
    labels: tuple[str, str] = ("", ""),
    pairs: int | None = None,
) -> Comparison:
    """Compare two cells from aligned arrays (element i of each is game i): the wins of the games
    with a verdict in both (or None), the scores of the games scored in both."""
    wins = None
    if a_won is not None and b_won is not None and len(a_won):
        wins = stats.paired_difference(a_won, b_won)
    score, unpaired, corr = paired_scores(a_score, b_score)
    score_p = stats.mean_p_value(np.asarray(b_score, dtype=float) - np.asarray(a_score, dtype=float))
    a_label, b_label = labels[0] or a_name, labels[1] or b_name
    n = len(a_score) if pairs is None else pairs
    return Comparison(a_name, b_name, a_label, b_label, n, wins, score, unpaired, corr, score_p)


def compare_frames(
    a: pl.DataFrame, b: pl.DataFrame, a_name: str = "A", b_name: str = "B", labels: tuple[str, str] = ("", "")
) -> Comparison:
    """Compare two cells' games tables (columns game_index, won, score), paired on game_index."""
    joined = a.select("game_index", "won", "score").join(
        b.select("game_index", "won", "score"), on="game_index", suffix="_b"
    )
    if joined.height == 0:
        raise UserError(f"cells {a_name} and {b_name} share no game index: they cannot be paired")
    decided = joined.drop_nulls(["won", "won_b"])
    scored = joined.drop_nulls(["score", "score_b"])
    return compare_arrays(
        decided["won"].to_numpy() if decided.height else None,
        decided["won_b"].to_numpy() if decided.height else None,
        scored["score"].to_numpy(),
        scored["score_b"].to_numpy(),
        a_name,
        b_name,
        labels,
        joined.height,
    )


def find_cell(dataset: Dataset, spec: str) -> dict[str, Any]:
    """The manifest cell named by `spec` (see `find_manifest_cell`)."""
    return find_manifest_cell(dataset.manifest, dataset.path, spec)


def find_manifest_cell(manifest: dict[str, Any], path: Path, spec: str) -> dict[str, Any]:
    """The manifest cell named by `spec`: its id (`c003`), its label, or settings as
    `key=value[,key=value...]` (`strategy=NAME` too) that match exactly one cell."""
    cells = manifest.get("cells") or []
    for cell in cells:
        if spec in (cell["cell"], cell.get("label")):
            return cell
    wanted: dict[str, str] = {}
    for part in spec.replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep:
            raise UserError(f"cell {spec!r}: expected a cell id, a label or key=value[,key=value]")
        wanted[key.strip()] = value.strip()

    def matches(cell: dict[str, Any]) -> bool:
        for key, value in wanted.items():
            if key == "strategy":
                if ",".join(cell.get("strategy") or []) != value:
                    return False
            elif str(cell.get("settings", {}).get(key, object())) != value:
                return False
        return True

    found = [c for c in cells if matches(c)]
    if len(found) != 1:
        names = "; ".join(c.get("label", c["cell"]) for c in cells)
        what = "no cell" if not found else f"{len(found)} cells"
        raise UserError(f"cell {spec!r}: {what} of {path} match (cells: {names})")
    return found[0]


def compare(dataset: Dataset, a: str, b: str) -> Comparison:
    """Compare the cells named `a` and `b` (see `find_cell`) of one dataset."""
    cell_a, cell_b = find_cell(dataset, a), find_cell(dataset, b)
    if cell_a["cell"] == cell_b["cell"]:
        raise UserError(f"--a and --b name the same cell ({cell_a['cell']})")
    games = dataset.games.with_columns(pl.col("won").cast(pl.Boolean), pl.col("score").cast(pl.Float64))
    return compare_frames(
        games.filter(pl.col("cell") == cell_a["cell"]),
        games.filter(pl.col("cell") == cell_b["cell"]),
        cell_a["cell"],
        cell_b["cell"],
        (cell_a.get("label", ""), cell_b.get("label", "")),
    )


def _pairing_effect(unpaired_width: float, paired_width: float) -> str:
    """How much narrower, or wider, the pairing makes the interval (never "0.7x narrower")."""
    if not paired_width > 0 or math.isnan(unpaired_width):
        return "the pairing's effect cannot be measured"
    ratio = unpaired_width / paired_width
    if 0.95 <= ratio <= 1.05:
        return "the pairing leaves it about as wide (the cells' outcomes are barely correlated)"
    if ratio > 1:
        return f"the pairing makes it {ratio:.1f}x narrower"
    return (
        f"the pairing makes it {1 / ratio:.1f}x wider (the cells' outcomes are not positively "
        "correlated, or too few games differ for the pairing to help)"
    )


def describe(c: Comparison) -> list[str]:
    """The comparison as lines of plain text (what `simkit compare` prints)."""

    def pts(x: float) -> str:
        return f"{100 * x:+.2f}"

    lines = [f"A = {c.a} ({c.a_label})", f"B = {c.b} ({c.b_label})", f"{c.pairs} games paired by seed"]
    if c.wins is not None:
        w = c.wins
        lines += [
            f"win rate B - A: {pts(w.difference)} points, 95 % paired CI [{pts(w.low)}, {pts(w.high)}] "
            f"(Tango's score interval, from {w.a_only} games only A won and {w.b_only} only B won; "
            f"McNemar p = {w.p_value:.2g})",
            f"  unpaired CI [{pts(w.unpaired_low)}, {pts(w.unpaired_high)}] (Newcombe): "
            + _pairing_effect(w.unpaired_high - w.unpaired_low, w.high - w.low),
        ]
    s, u = c.score, c.score_unpaired
    lines += [
        f"mean score B - A: {s.estimate:+.3f}, 95 % paired t CI [{s.low:+.3f}, {s.high:+.3f}] "
        f"(correlation of the pairs {c.score_correlation:.2f}; paired t p = {c.score_p:.2g})",
        f"  unpaired (Welch) CI [{u.low:+.3f}, {u.high:+.3f}]: "
        + _pairing_effect(u.high - u.low, s.high - s.low),
    ]
    return lines
