"""The report's model: what it computes from a dataset, with no words and no rendering.

Cells in manifest order (`cell_infos`), the per-cell summary (`cell_summary`: n, wins and the 95 %
Wilson interval, mean score and its Student t interval, length), end reasons, length and score
distributions, running estimates for the convergence chart, and the paired comparisons along each
varied setting with their multiplicity adjustment. All numbers are aggregated with polars
`group_by`; Python loops run over cells (and a cell's end reasons), never over games. The win
rate counts games whose `won` is true or false; games with a null `won` (competitive games) are
left out and the table then says how many remain.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from simkit.core import compare, stats
from simkit.core import dataset as ds_io
from simkit.core.errors import UserError
from simkit.reporting import dataset_charts
from simkit.reporting.text import missing

REQUIRED_COLUMNS = ("cell", "won", "score", "length", "end_reason")
NO_REASON = "(none)"

# Summary columns; a setting with one of these names is written as `setting_<name>`.


SUMMARY_COLUMNS = (
    "cell",
    "label",
    "strategy",
    "n",
    "n_win_loss",
    "wins",
    "win_rate",
    "win_low",
    "win_high",
    "score_n",
    "score_mean",
    "score_low",
    "score_high",
    "length_mean",
    "length_median",
    "failed",
    "planned",
)


@dataclass
class CellInfo:
    """What the manifest says about a cell, in manifest order."""

    cell: str
    label: str
    settings: dict[str, Any]
    strategy: str
    x: str  # the difficulty label: the varied settings, strategy aside
    group: str | None  # the strategy, when the grid varies it
    planned: int | None = None  # the games the run planned for it (the cap of a precision run)


# A user's player named by its path (`/home/me/players/first_fit.py:FirstFit`): the page and its
# charts show the file name and class only; the manifest and the Reproduce block keep the path.


_PLAYER_PATH = re.compile(r"[^\s,=]*[/\\]([^/\\\s,=]+\.py:\w+)")


def short_players(text: str) -> str:
    return _PLAYER_PATH.sub(r"\1", text)


def _strategy_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        text = str(value[0]) if len(value) == 1 else ",".join(str(v) for v in value)
    else:
        text = "" if value is None else str(value)
    return short_players(text)


def cell_infos(manifest: dict[str, Any], games: pl.DataFrame) -> list[CellInfo]:
    """The cells in manifest order (plus any cell found only in the games table)."""
    grid_keys = list(manifest.get("grid_keys") or [])
    varied = [k for k in grid_keys if k != "strategy"]
    by_strategy = "strategy" in grid_keys
    infos: list[CellInfo] = []
    for entry in manifest.get("cells") or []:
        settings = dict(entry.get("settings") or {})
        strategy = _strategy_text(entry.get("strategy"))
        label = short_players(str(entry.get("label") or entry.get("cell")))
        if varied:
            x = " ".join(f"{k}={settings.get(k)}" for k in varied)
        elif by_strategy:
            x = strategy
        else:
            x = label
        planned, _ = ds_io.cell_plan(manifest, entry)
        infos.append(
            CellInfo(
                str(entry["cell"]),
                label,
                settings,
                strategy,
                x,
                strategy if varied and by_strategy else None,
                planned if isinstance(planned, int) else None,
            )
        )
    known = {i.cell for i in infos}
    for cell in sorted(set(games["cell"].unique().to_list()) - known):
        infos.append(CellInfo(cell, cell, {}, "", cell, None))
    return infos


def check_columns(d: ds_io.Dataset) -> None:
    for col in REQUIRED_COLUMNS:
        if col not in d.games.columns:
            raise UserError(
                f"{d.path}: games table has no '{col}' column (required: {', '.join(REQUIRED_COLUMNS)})"
            )


def cell_summary(d: ds_io.Dataset, infos: Sequence[CellInfo]) -> pl.DataFrame:
    """One row per cell: n, wins and the Wilson interval, mean score and its interval, length."""
    games = d.games.with_columns(
        pl.col("won").cast(pl.Boolean),
        pl.col("score").cast(pl.Float64),
        pl.col("length").cast(pl.Float64),
    )
    agg = games.group_by("cell").agg(
        n=pl.len(),
        n_win_loss=pl.col("won").count(),
        wins=pl.col("won").sum(),
        length_mean=pl.col("length").mean(),
        length_median=pl.col("length").median(),
    )
    per_cell = {row["cell"]: row for row in agg.iter_rows(named=True)}
    scores = {
        key[0]: part["score"].to_numpy()
        for key, part in games.select("cell", "score").drop_nulls().partition_by("cell", as_dict=True).items()
    }
    failed: dict[str, int] = {}
    if d.failures is not None and "cell" in d.failures.columns:
        failed = dict(d.failures.group_by("cell").len().iter_rows())
    setting_names = list(d.manifest.get("setting_names") or [])
    rows = []
    for info in infos:
        a = per_cell.get(info.cell, {})
        n, decided, wins = int(a.get("n") or 0), int(a.get("n_win_loss") or 0), int(a.get("wins") or 0)
        w = stats.wilson(wins, decided)
        s = stats.mean_interval(scores.get(info.cell, np.empty(0)))
        row: dict[str, Any] = {"cell": info.cell, "label": info.label}
        for name in setting_names:
            key = f"setting_{name}" if name in SUMMARY_COLUMNS else name
            value = info.settings.get(name)
            row[key] = None if value is None else str(value)
        row.update(
            strategy=info.strategy,
            n=n,
            n_win_loss=decided,
            wins=wins,
            win_rate=w.estimate,
            win_low=w.low if decided else math.nan,
            win_high=w.high if decided else math.nan,
            score_n=s.n,
            score_mean=s.estimate,
            score_low=s.low,
            score_high=s.high,
            length_mean=a.get("length_mean"),
            length_median=a.get("length_median"),
            failed=failed.get(info.cell, 0),
            planned=info.planned,
        )
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None, nan_to_null=False)


def end_reason_counts(games: pl.DataFrame) -> pl.DataFrame:
    """Rows (cell, end_reason, count), a missing reason named NO_REASON."""
    return (
        games.select("cell", pl.col("end_reason").cast(pl.String).fill_null(NO_REASON))
        .group_by("cell", "end_reason")
        .len("count")
    )


def distribution_table(games: pl.DataFrame, column: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(counts per cell and value, sorted; quantiles per cell) of a numeric column over the games
    that have it; the value column is named `length` whatever it holds (the charts read that)."""
    values = games.select("cell", pl.col(column).cast(pl.Float64).alias("length")).drop_nulls()
    values = values.filter(pl.col("length").is_not_nan())
    counts = values.group_by("cell", "length").len("count").sort("cell", "length")
    quantiles = values.group_by("cell").agg(
        q05=pl.col("length").quantile(0.05, "linear"),
        q25=pl.col("length").quantile(0.25, "linear"),
        q50=pl.col("length").median(),
        q75=pl.col("length").quantile(0.75, "linear"),
        q95=pl.col("length").quantile(0.95, "linear"),
        mean=pl.col("length").mean(),
    )
    return counts, quantiles


def length_table(games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    return distribution_table(games, "length")


def score_table(games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    return distribution_table(games, "score")


def distribution_series(
    tables: tuple[pl.DataFrame, pl.DataFrame], infos: Sequence[CellInfo]
) -> list[dataset_charts.DistSeries]:
    """One chart series per cell (in cell order) from `distribution_table`'s output."""
    counts, quantiles = tables
    q_of = {row["cell"]: row for row in quantiles.iter_rows(named=True)}
    by_cell = {key[0]: part for key, part in counts.partition_by("cell", as_dict=True).items()}
    return [
        dataset_charts.DistSeries(
            info.label,
            info.group,
            info.x,
            by_cell[info.cell]["length"].to_list(),
            by_cell[info.cell]["count"].to_list(),
            q_of[info.cell],
        )
        for info in infos
        if info.cell in by_cell
    ]


# How many points of each cell's running estimate the convergence chart draws (log-spaced).


RUNNING_POINTS = 160


def running_counts(total: int, points: int = RUNNING_POINTS) -> np.ndarray:
    """Log-spaced game counts 1..total (both ends included), at most `points` of them."""
    if total <= 0:
        return np.empty(0, dtype=np.int64)
    return np.unique(np.round(np.geomspace(1, total, min(points, total))).astype(np.int64))


def running_wilson(won: np.ndarray, points: int = RUNNING_POINTS) -> tuple[np.ndarray, ...]:
    """(n, win rate, low, high) after n games for log-spaced n: the 95 % Wilson interval of the
    first n games, in the order given (stats.wilson, vectorised)."""
    won = np.asarray(won, dtype=np.int64)
    ns = running_counts(len(won), points)
    if not len(ns):
        return ns, np.empty(0), np.empty(0), np.empty(0)
    k = np.cumsum(won)[ns - 1]
    n = ns.astype(float)
    z = stats.Z95
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = np.where(k == 0, 0.0, np.maximum(0.0, centre - half))
    high = np.where(k == ns, 1.0, np.minimum(1.0, centre + half))
    return ns, p, low, high


def running_mean(values: np.ndarray, points: int = RUNNING_POINTS) -> tuple[np.ndarray, ...]:
    """(n, mean, low, high) after n values for log-spaced n: the mean of the first n values with
    its 95 % Student t interval (stats.mean_interval, vectorised; no interval at n = 1)."""
    from scipy.stats import t as student_t

    x = np.asarray(values, dtype=float)
    ns = running_counts(len(x), points)
    if not len(ns):
        return ns, np.empty(0), np.empty(0), np.empty(0)
    shift = x[0]  # sums of squares about the first value stay accurate
    c1 = np.cumsum(x - shift)[ns - 1]
    c2 = np.cumsum((x - shift) ** 2)[ns - 1]
    n = ns.astype(float)
    mean = shift + c1 / n
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.maximum(0.0, (c2 - c1 * c1 / n) / (n - 1))
        t = student_t.ppf(0.975, np.maximum(n - 1, 1))
        half = np.where(ns > 1, t * np.sqrt(var / n), np.nan)
    return ns, mean, mean - half, mean + half


def running_series(
    games: pl.DataFrame, infos: Sequence[CellInfo], rate: bool
) -> list[dataset_charts.RunningSeries]:
    """Each cell's running win rate (`rate`) or mean score, games taken in seed (game_index) order."""
    col = "won" if rate else "score"
    frame = games.select(
        "cell", "game_index", pl.col(col).cast(pl.Boolean if rate else pl.Float64).alias("v")
    ).drop_nulls()
    if not rate:
        frame = frame.filter(pl.col("v").is_not_nan())
    frame = frame.sort("cell", "game_index")
    parts = {key[0]: part["v"].to_numpy() for key, part in frame.partition_by("cell", as_dict=True).items()}
    out = []
    for info in infos:
        values = parts.get(info.cell)
        if values is None or not len(values):
            continue
        ns, est, low, high = running_wilson(values) if rate else running_mean(values)
        out.append(
            dataset_charts.RunningSeries(info.label, ns.tolist(), est.tolist(), low.tolist(), high.tolist())
        )
    return out


MAX_COMPARISONS = 60


def _grid_value(info: CellInfo, key: str) -> str:
    return info.strategy if key == "strategy" else str(info.settings.get(key))


def shown_comparisons(rows: Sequence[dict[str, Any]], limit: int = MAX_COMPARISONS) -> list[dict[str, Any]]:
    """The comparisons the page shows when there are more than `limit`: a fair share for every
    setting (a setting with few rows keeps them all, the rest is split among the others), in
    their order, so the last setting of the grid (often the strategy) is never crowded out."""
    if len(rows) <= limit:
        return list(rows)
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(r["key"], []).append(i)
    keep: list[int] = []
    left = limit
    by_size = sorted(groups.values(), key=len)
    for k, idx in enumerate(by_size):
        share = left // (len(by_size) - k)
        keep += idx[:share]
        left -= min(share, len(idx))
    return [rows[i] for i in sorted(keep)]


def paired_comparisons(d: ds_io.Dataset, infos: Sequence[CellInfo]) -> list[dict[str, Any]]:
    """For each setting the grid varies: every cell against the cell that differs from it only in
    that setting, at the setting's first value, compared as pairs (`simkit compare`'s function).
    All of them: the page's table shows `shown_comparisons` of them, the CSV holds every one."""
    games = d.games.with_columns(pl.col("won").cast(pl.Boolean), pl.col("score").cast(pl.Float64))
    by_cell = {key[0]: part for key, part in games.partition_by("cell", as_dict=True).items()}
    keys = [str(k) for k in d.manifest.get("grid_keys") or []]
    rows: list[dict[str, Any]] = []
    for key in keys:
        values = list(dict.fromkeys(_grid_value(i, key) for i in infos))
        if len(values) < 2:
            continue

        def rest(info: CellInfo, key: str = key) -> tuple:
            return tuple(_grid_value(info, k) for k in keys if k != key)

        baseline = {rest(i): i for i in infos if _grid_value(i, key) == values[0]}
        for info in infos:
            base = baseline.get(rest(info))
            if base is None or base is info or info.cell not in by_cell or base.cell not in by_cell:
                continue
            c = compare.compare_frames(
                by_cell[base.cell], by_cell[info.cell], base.cell, info.cell, (base.label, info.label)
            )
            rows.append(
                {
                    "key": key,
                    "a": base.label,
                    "b": info.label,
                    "va": _grid_value(base, key),
                    "vb": _grid_value(info, key),
                    "others": ", ".join(f"{k}={_grid_value(info, k)}" for k in keys if k != key),
                    "c": c,
                }
            )
    return rows


def adjust_comparisons(
    rows: Sequence[dict[str, Any]], extremes: dict[str, Any] | None = None, method: str = stats.HOLM
) -> None:
    """Decide which paired comparisons are resolved, controlling the error over their family.

    The family is every paired comparison of the dataset (all settings together: the summary
    picks its findings from all of them) plus the summary's easiest-against-hardest pair
    (`extremes`, see `extremes_comparison`), so that the chance of the page calling anything
    resolved when nothing differs is at most 5 %. Win-rate and score differences are separate
    families. The extremes pair was picked from every pair of the ranked cells, so its p-value
    enters Bonferroni-multiplied by their number.

    Each row gets `win_p`, `win_p_adjusted`, `win_resolved`, `win_family`, `win_method` (and the
    same for `score_`): the p-value of the test its interval inverts (McNemar's for wins, paired t
    for scores), adjusted over the family, resolved when below 0.05, and the family's size.
    `extremes` gets `p`, `p_adjusted`, `resolved` and `family` for its kind (`extremes["kind"]`)."""
    win_p = [r["c"].wins.p_value if r["c"].wins is not None else math.nan for r in rows]
    score_p = [r["c"].score_p for r in rows]
    for kind, p in (("win", win_p), ("score", score_p)):
        members = list(p)
        if extremes is not None and extremes["kind"] == kind and not missing(extremes["p"]):
            members.append(min(1.0, extremes["p"] * extremes["pairs"]))
        adjusted = stats.adjust(members, method)
        size = int(np.sum(~np.isnan(np.asarray(members, dtype=float))))
        for row, raw, adj in zip(rows, p, adjusted, strict=False):
            row[f"{kind}_p"] = raw
            row[f"{kind}_p_adjusted"] = float(adj)
            row[f"{kind}_resolved"] = bool(adj < stats.ALPHA) if not math.isnan(adj) else False
            row[f"{kind}_family"] = size
            row[f"{kind}_method"] = method
        if len(members) > len(p):
            extremes.update(
                p_adjusted=float(adjusted[-1]), resolved=bool(adjusted[-1] < stats.ALPHA), family=size
            )


def extremes(rows: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any], bool] | None:
    """(best, worst, by win rate?) among the cells: the easiest and hardest by win rate (by mean
    score when no game has a team result); None when fewer than two cells can be ranked.
    Ties go to the better-measured cell."""
    rated = [r for r in rows if r["n_win_loss"] > 0]
    if rated:
        key, low_key, high_key, pool = "win_rate", "win_low", "win_high", rated
    else:
        pool = [r for r in rows if r["score_n"] > 0 and not missing(r["score_mean"])]
        key, low_key, high_key = "score_mean", "score_low", "score_high"
    if len(pool) < 2:
        return None
    best = max(pool, key=lambda r: (r[key], r[low_key] if not missing(r[low_key]) else -math.inf))
    worst = min(pool, key=lambda r: (r[key], r[high_key] if not missing(r[high_key]) else math.inf))
    return best, worst, bool(rated)


def extremes_comparison(games: pl.DataFrame, rows: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The hardest cell (A) against the easiest (B), paired on game_index, as the summary's first
    finding uses it: {"c": the comparison, "kind": "win" or "score", "p": its test's p-value,
    "pairs": how many pairs of cells it was picked from}; None when the cells cannot be ranked or
    the two share no games. `adjust_comparisons` adds the verdict."""
    found = extremes(rows)
    if found is None:
        return None
    best, worst, rated = found
    typed = games.with_columns(pl.col("won").cast(pl.Boolean), pl.col("score").cast(pl.Float64))
    a = typed.filter(pl.col("cell") == worst["cell"])
    b = typed.filter(pl.col("cell") == best["cell"])
    try:
        c = compare.compare_frames(a, b, worst["cell"], best["cell"], (worst["label"], best["label"]))
    except UserError:  # no shared game index: nothing to pair
        return None
    return extremes_verdict(c, rows, rated)


def extremes_verdict(c: compare.Comparison, rows: Sequence[dict[str, Any]], rated: bool) -> dict[str, Any]:
    """The extremes pair `c` as `adjust_comparisons` takes it (see `extremes_comparison`)."""
    k = len(
        [r for r in rows if r["n_win_loss"] > 0]
        if rated
        else [r for r in rows if r["score_n"] > 0 and not missing(r["score_mean"])]
    )
    use_wins = rated and c.wins is not None
    return {
        "c": c,
        "kind": "win" if use_wins else "score",
        "p": c.wins.p_value if use_wins else c.score_p,
        "cells": k,
        "pairs": k * (k - 1) // 2,
    }
