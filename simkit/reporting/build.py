"""The HTML report: one self-contained `index.html` plus each chart as PNG and SVG and each
dataset's per-cell summary as CSV.

    write_report([Path("runs/a"), Path("runs/b")], Path("reports/latest"))

Layout of the page: a table of contents (every dataset and each of its sub-sections, the game's
own sections included), then one section per dataset with
  1. notes (invented component data, failed games, an unfinished run),
  2. a plain-language summary: the easiest and hardest cell and, for each setting the grid
     varies, the largest paired difference (largest first, three findings at most), each with its
     interval, game count and whether it is resolved; then the game's own findings,
  3. results by cell (the headline table: n, win rate with its 95 % Wilson interval, mean score
     with its interval, game length), also written as `<dataset>-summary.csv`,
  4. win rate by cell (chart), 5. convergence (the running win rate of each cell against games
     played with its running Wilson band; the running mean score with its t band when no game
     has a team result), 6. paired comparisons, 7. how games ended (chart and table),
  8. game length, 9. score distribution (ECDF per cell; quantile boxes past 16 cells),
  10. the game's own sections (its `analysis.py`, see sections.py),
  11. component data and its provenance, 12. how to reproduce the dataset.

Decisions:
- All numbers are aggregated with polars `group_by`; Python loops only run over cells (and the
  end reasons of a cell), never over games.
- The win rate counts games whose `won` is true or false; games with a null `won` (competitive
  games, where nobody wins as a team) are left out and the table then says how many remain.
- Mean score and length rest on the games where they are not null; their n is in the table.
- Datasets are loaded (and so validated) before anything is written: bad input leaves nothing
  behind. `index.html` is written under a temporary name and renamed.
- Output names: a dataset is named after its folder (made file-safe; a repeated name gets
  `-2`, `-3`...); its files are `<name>-summary.csv`, `<name>-end-reasons.csv`,
  `<name>-paired.csv` (every paired comparison; the page shows up to 60, a share per setting),
  `<name>-{win-rate,convergence,end-reasons,length,score}.{png,svg}`, and for each table of a
  game section `<name>-<key>-<i>.csv`.
- The summary's sentences are written by `summary_findings` from the same numbers as the tables;
  the template holds no figure of its own.
- The summary CSV has one row per cell: cell, label, one column per setting, strategy, n (games
  played), n_win_loss (games with a recorded win or loss), wins, win_rate, win_low, win_high
  (95 % Wilson), score_n, score_mean, score_low, score_high (95 % Student t interval),
  length_mean, length_median, failed (games that raised), planned (games per cell in the
  manifest). Undefined values (no games) are empty fields.
- The unit of `length` is "turns" unless the manifest names another (`length_unit`); of
  `score`, "points" (`score_unit`).
- Text from manifests, scenarios and data files reaches the page only through jinja2 with
  autoescape on; only the SVG that matplotlib wrote (which escapes its own text) is marked safe.
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import polars as pl
from markupsafe import Markup

from simkit.core import compare, replay, stats
from simkit.core import dataset as ds_io
from simkit.core.errors import UserError
from simkit.core.version import VERSION
from simkit.reporting import charts, sections
from simkit.reporting import text as page_text

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = "report.html.j2"
REQUIRED_COLUMNS = ("cell", "won", "score", "length", "end_reason")
DEFAULT_LENGTH_UNIT = "turns"
DEFAULT_SCORE_UNIT = "points"
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


# --- summaries (no rendering) ---------------------------------------------------------------------


@dataclass
class CellInfo:
    """What the manifest says about a cell, in manifest order."""

    cell: str
    label: str
    settings: dict[str, Any]
    strategy: str
    x: str  # the difficulty label: the varied settings, strategy aside
    group: str | None  # the strategy, when the grid varies it


# A user's player named by its path (`/home/me/players/first_fit.py:FirstFit`): the page and its
# charts show the file name and class only; the manifest and the Reproduce block keep the path.
_PLAYER_PATH = re.compile(r"[^\s,=]*[/\\]([^/\\\s,=]+\.py:\w+)")


def _short_players(text: str) -> str:
    return _PLAYER_PATH.sub(r"\1", text)


def _strategy_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        text = str(value[0]) if len(value) == 1 else ",".join(str(v) for v in value)
    else:
        text = "" if value is None else str(value)
    return _short_players(text)


def cell_infos(manifest: dict[str, Any], games: pl.DataFrame) -> list[CellInfo]:
    """The cells in manifest order (plus any cell found only in the games table)."""
    grid_keys = list(manifest.get("grid_keys") or [])
    varied = [k for k in grid_keys if k != "strategy"]
    by_strategy = "strategy" in grid_keys
    infos: list[CellInfo] = []
    for entry in manifest.get("cells") or []:
        settings = dict(entry.get("settings") or {})
        strategy = _strategy_text(entry.get("strategy"))
        label = _short_players(str(entry.get("label") or entry.get("cell")))
        if varied:
            x = " ".join(f"{k}={settings.get(k)}" for k in varied)
        elif by_strategy:
            x = strategy
        else:
            x = label
        infos.append(
            CellInfo(
                str(entry["cell"]), label, settings, strategy, x, strategy if varied and by_strategy else None
            )
        )
    known = {i.cell for i in infos}
    for cell in sorted(set(games["cell"].unique().to_list()) - known):
        infos.append(CellInfo(cell, cell, {}, "", cell, None))
    return infos


def _check_columns(d: ds_io.Dataset) -> None:
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
    planned = d.manifest.get("games_per_cell")
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
            planned=planned,
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
) -> list[charts.DistSeries]:
    """One chart series per cell (in cell order) from `distribution_table`'s output."""
    counts, quantiles = tables
    q_of = {row["cell"]: row for row in quantiles.iter_rows(named=True)}
    by_cell = {key[0]: part for key, part in counts.partition_by("cell", as_dict=True).items()}
    return [
        charts.DistSeries(
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


def running_series(games: pl.DataFrame, infos: Sequence[CellInfo], rate: bool) -> list[charts.RunningSeries]:
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
        out.append(charts.RunningSeries(info.label, ns.tolist(), est.tolist(), low.tolist(), high.tolist()))
    return out


# --- formatting helpers (jinja filters) -----------------------------------------------------------


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def fmt_pct(x: Any, digits: int = 1) -> str:
    return page_text.pct(x, digits, none="–")


def fmt_num(x: Any, digits: int = 2) -> str:
    return "–" if _missing(x) else f"{x:,.{digits}f}"


def fmt_int(x: Any) -> str:
    return "–" if _missing(x) else f"{int(x):,}"


def fmt_interval(low: Any, high: Any, digits: int = 2, pct: bool = False) -> str:
    if _missing(low) or _missing(high):
        return "–"
    if pct:
        return f"{100 * low:.1f} to {100 * high:.1f} %"
    return f"{low:,.{digits}f} to {high:,.{digits}f}"


# --- one dataset section --------------------------------------------------------------------------


@dataclass
class Section:
    id: str
    name: str
    path: str
    manifest: dict[str, Any]
    heading: str
    rows: list[dict[str, Any]]
    setting_columns: list[tuple[str, str]]  # (column in rows, setting name shown)
    fixed_settings: dict[str, str]
    show_win_loss_n: bool
    show_failed: bool
    csv_file: str
    charts: dict[str, charts.Chart]
    reasons: list[str]
    reason_rows: list[dict[str, Any]]
    length_unit: str
    invented: list[dict[str, Any]]  # [{path, components}]
    provenance: list[dict[str, Any]]  # [{path, sha256, components: [(name, source)]}]
    notes: list[str] = field(default_factory=list)
    repro: dict[str, Any] = field(default_factory=dict)
    replays: list[replay.CellPage] = field(default_factory=list)  # a page of game 0 of each cell
    comparisons: list[dict[str, Any]] = field(default_factory=list)  # see paired_comparisons
    game_sections: list[sections.GameSection] = field(default_factory=list)  # the game's analysis.py
    comparisons_total: int = 0  # all paired comparisons (the page shows `shown_comparisons`)
    family_text: str = ""  # what "resolved" in the paired table was adjusted over
    findings: list[str] = field(default_factory=list)  # the plain-language summary, generic part
    game_findings: list[dict[str, Any]] = field(default_factory=list)  # [{anchor, title, findings}]
    score_unit: str = DEFAULT_SCORE_UNIT
    files: dict[str, str] = field(default_factory=dict)  # CSV files: end_reasons, paired
    table_files: dict[str, list[str]] = field(default_factory=dict)  # game section key -> CSVs


def _invented(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for path, components in (manifest.get("data_sources") or {}).items():
        names = sorted(str(k) for k, v in (components or {}).items() if v == "invented")
        if names:
            out.append({"path": path, "components": names})
    return out


def _provenance(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    files = dict(manifest.get("data_files") or {})
    sources = dict(manifest.get("data_sources") or {})
    out = []
    for path in sorted(set(files) | set(sources)):
        components = sorted((str(k), str(v)) for k, v in (sources.get(path) or {}).items())
        out.append({"path": path, "sha256": files.get(path), "components": components})
    return out


def _repro(d: ds_io.Dataset) -> dict[str, Any]:
    m = d.manifest
    scenario = m.get("scenario") or {}
    spec = scenario.get("spec")
    return {
        "simkit_version": m.get("simkit_version"),
        "game": m.get("game"),
        "scenario_name": scenario.get("name"),
        "scenario_source": scenario.get("source"),
        "description": scenario.get("description") or "",
        "root_seed": m.get("root_seed"),
        "games_per_cell": m.get("games_per_cell"),
        "chunk_size": m.get("chunk_size"),
        "created": m.get("created"),
        "command": m.get("command"),
        "data_files": sorted((m.get("data_files") or {}).items()),
        "spec": json.dumps(spec, indent=2, sort_keys=True, default=str) if spec else None,
        "dataset_path": str(d.path),
        "replay": _replay_command(m),
    }


def _replay_command(m: dict[str, Any]) -> str | None:
    """`simkit replay` for game 0 of the first cell: any game of any cell is told the same way."""
    cells = m.get("cells") or []
    if not cells or m.get("game") is None or m.get("root_seed") is None:
        return None
    return replay.command(replay.from_manifest(m, cells[0], 0))


def _notes(d: ds_io.Dataset, summary: pl.DataFrame) -> list[str]:
    notes = []
    failed = int(summary["failed"].sum())
    if failed:
        notes.append(
            f"{failed:,} games failed with an error and are not counted in any number below; "
            f"their seeds and tracebacks are in {d.path / ds_io.FAILURES}/ "
            "(replay them with `simkit replay`)."
        )
    planned = d.manifest.get("games_per_cell")
    precision = d.manifest.get("precision")
    if isinstance(planned, int):
        short = summary.filter(pl.col("n") + pl.col("failed") < planned)
        if isinstance(precision, int | float):
            # a precision run's cell is finished once its interval met the precision: only cells
            # short of the cap whose interval is still wider are unfinished
            short = short.filter(
                pl.struct("wins", "n_win_loss").map_elements(
                    lambda r: (
                        r["n_win_loss"] == 0
                        or stats.wilson(r["wins"], r["n_win_loss"]).longer_side > precision
                    ),
                    return_dtype=pl.Boolean,
                )
            )
        if short.height:
            notes.append(
                f"The run is unfinished: {short.height} of {summary.height} cells hold fewer than the "
                f"{planned:,} games planned (see n). Running the same command again resumes it."
            )
    if isinstance(precision, int | float):
        notes.append(
            f"Each cell played until both sides of its win rate's 95 % interval were at most {precision:g} "
            "(a precision run), so cells hold different game counts. Stopping on the width is nearly "
            "free of bias, not quite: a cell winning rarely that happens to see few wins stops sooner, so "
            "its estimate leans low (at a true 2 % and a precision of 0.02, the stopped estimates average "
            "1.89 %: 6 % low, well within the interval; tests/core/test_precision.py measures it)."
        )
    undecided = summary.filter(pl.col("n_win_loss") < pl.col("n"))
    if undecided.height:
        notes.append(
            "Some games record no team win or loss (won is empty); win rates count only the games "
            "that do (column 'n win/loss')."
        )
    return notes


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
        if extremes is not None and extremes["kind"] == kind and not _missing(extremes["p"]):
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


# --- the plain-language summary -------------------------------------------------------------------


def _signed_points(x: float, digits: int = 1) -> str:
    return page_text.points(x, digits)


def _cell_rate(r: dict[str, Any]) -> str:
    return (
        f"{fmt_pct(r['win_rate'])} of {r['n_win_loss']:,} games "
        f"(95 % interval {fmt_interval(r['win_low'], r['win_high'], pct=True)})"
    )


def _cell_score(r: dict[str, Any]) -> str:
    return (
        f"a mean score of {fmt_num(r['score_mean'])} over {r['score_n']:,} games "
        f"(95 % interval {fmt_interval(r['score_low'], r['score_high'])})"
    )


def extremes(rows: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any], bool] | None:
    """(best, worst, by win rate?) among the cells: the easiest and hardest by win rate (by mean
    score when no game has a team result); None when fewer than two cells can be ranked.
    Ties go to the better-measured cell."""
    rated = [r for r in rows if r["n_win_loss"] > 0]
    if rated:
        key, low_key, high_key, pool = "win_rate", "win_low", "win_high", rated
    else:
        pool = [r for r in rows if r["score_n"] > 0 and not _missing(r["score_mean"])]
        key, low_key, high_key = "score_mean", "score_low", "score_high"
    if len(pool) < 2:
        return None
    best = max(pool, key=lambda r: (r[key], r[low_key] if not _missing(r[low_key]) else -math.inf))
    worst = min(pool, key=lambda r: (r[key], r[high_key] if not _missing(r[high_key]) else math.inf))
    return best, worst, bool(rated)


def _p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _extremes_finding(rows: Sequence[dict[str, Any]], pair: dict[str, Any] | None = None) -> str | None:
    """The easiest and hardest cell by win rate (by mean score when no game has a team result),
    and whether they differ, from `pair` (see `extremes_comparison`): the hardest (A) against the
    easiest (B) compared as pairs. Overlapping marginal intervals decide nothing here: the paired
    comparison does, adjusted for having been picked as the extremes of every pair of cells."""
    rated = [r for r in rows if r["n_win_loss"] > 0]
    if rated:
        describe, what = _cell_rate, "win rate"
        pool = rated
    else:
        pool = [r for r in rows if r["score_n"] > 0 and not _missing(r["score_mean"])]
        if not pool:
            return None
        describe, what = _cell_score, "mean score"
    if len(pool) == 1:
        r = pool[0]
        verb = "won" if rated else "had"
        return f"The one cell, {r['label']}, {verb} {describe(r)}."
    best, worst, _ = extremes(rows)
    key = "win_rate" if rated else "score_mean"
    if best[key] == worst[key]:
        verb = "won" if rated else "had"
        return (
            f"All {len(pool)} cells have the same {what}; for example {best['label']} {verb} "
            f"{describe(best)}. These games cannot rank the cells."
        )
    if rated:
        text = (
            f"Easiest cell: {best['label']}, won {describe(best)}. "
            f"Hardest: {worst['label']}, won {describe(worst)}."
        )
    else:
        text = (
            f"Highest-scoring cell: {best['label']}, with {describe(best)}. "
            f"Lowest: {worst['label']}, with {describe(worst)}."
        )
    if pair is None:
        return text + " They share no seeds, so they are not compared here."
    c = pair["c"]
    if pair["kind"] == "win":
        w = c.wins
        digits = sections.point_decimals(w.difference, w.low, w.high)
        diff = (
            f"the easiest wins {abs(100 * w.difference):.{digits}f} points more (95 % paired interval "
            f"{_signed_points(w.low, digits)} to {_signed_points(w.high, digits)} points; "
            f"{w.n:,} games paired by seed)"
        )
    else:
        sc = c.score
        diff = (
            f"the highest scores {sc.estimate:,.2f} more (95 % paired interval {page_text.signed(sc.low)} to "
            f"{page_text.signed(sc.high)}; {sc.n:,} games paired by seed)"
        )
    if "resolved" not in pair:
        return text + f" Compared game by game, {diff}."
    steps = []
    if pair["pairs"] > 1:
        steps.append(
            f"picked as the extremes of {pair['cells']} cells, so Bonferroni-adjusted over their "
            f"{pair['pairs']:,} pairs"
        )
    if pair["family"] > 1:
        steps.append(f"Holm-adjusted with the {pair['family'] - 1:,} paired comparisons below")
    adjusted = "adjusted " if steps else ""
    picked = ", then ".join(steps) + ("; " if steps else "") + adjusted + _p_text(pair["p_adjusted"])
    if pair["resolved"]:
        return text + f" Compared game by game, {diff}: resolved ({picked})."
    iv = c.wins if pair["kind"] == "win" else c.score
    alone = (
        " Its interval alone excludes zero, as the extremes of many cells often do by chance."
        if not _missing(iv.low) and (iv.low > 0 or iv.high < 0)
        else ""
    )
    return (
        text + f" Compared game by game, {diff}: not resolved ({picked}); "
        f"these games cannot yet tell the two cells apart.{alone}"
    )


def _comparison_finding(row: dict[str, Any], rate: bool, picked_from: int = 1) -> str:
    c = row["c"]
    where = f" (with {row['others']})" if row["others"] else ""
    change = f"Changing {row['key']} from {row['va']} to {row['vb']}{where}"
    if rate:
        w = c.wins
        digits = sections.point_decimals(w.difference, w.low, w.high)
        direction = "raises" if w.difference > 0 else "lowers" if w.difference < 0 else "leaves"
        amount = (
            f" the win rate by {abs(100 * w.difference):.{digits}f} points"
            if w.difference
            else " the win rate unchanged"
        )
        text = (
            f"{change} {direction}{amount} (95 % paired interval {_signed_points(w.low, digits)} to "
            f"{_signed_points(w.high, digits)} points; {w.n:,} games paired by seed)"
        )
        kind, excludes = "win", w.excludes_zero
    else:
        sc = c.score
        direction = "raises" if sc.estimate > 0 else "lowers" if sc.estimate < 0 else "leaves"
        text = (
            f"{change} {direction} the mean score by {abs(sc.estimate):,.2f} (95 % paired interval "
            f"{page_text.signed(sc.low)} to {page_text.signed(sc.high)}; {sc.n:,} games paired by seed)"
        )
        kind, excludes = "score", not _missing(sc.low) and (sc.low > 0 or sc.high < 0)
    if picked_from > 1:
        text += f", the largest of the {picked_from} comparisons that change {row['key']}"
    family = (
        f"{stats.METHOD_TEXT[row[f'{kind}_method']]} over all {row[f'{kind}_family']:,} paired comparisons"
    )
    adjusted = row[f"{kind}_p_adjusted"]
    if row[f"{kind}_resolved"]:
        return text + f": resolved after {family} (adjusted {_p_text(adjusted)})."
    if _missing(adjusted):
        return text + ": not resolved; more games are needed to tell."
    chance = " (its interval alone excludes zero, as one of many often does by chance)" if excludes else ""
    return (
        text + f": not resolved after {family} (adjusted {_p_text(adjusted)}){chance}; "
        "more games are needed to tell."
    )


def summary_findings(
    rows: Sequence[dict[str, Any]],
    comparisons: Sequence[dict[str, Any]],
    max_findings: int = 3,
    extremes: dict[str, Any] | None = None,
) -> list[str]:
    """Two or three sentences a designer would act on, written from the numbers: the easiest and
    hardest cell (compared as pairs: `extremes`, from `extremes_comparison`), then for the
    settings the grid varies the largest paired difference each (the largest first), each with
    its interval, game count, what it was picked from and whether it is resolved after the
    family's adjustment (the rows come from `paired_comparisons`; `adjust_comparisons` must have
    run on them and on `extremes`)."""
    findings = []
    first = _extremes_finding(rows, extremes)
    if first:
        findings.append(first)
    rate = any(r["n_win_loss"] > 0 for r in rows)

    def size(row: dict[str, Any]) -> float:
        if rate:
            return abs(row["c"].wins.difference) if row["c"].wins is not None else -1.0
        e = row["c"].score.estimate
        return -1.0 if _missing(e) else abs(e)

    largest: dict[str, dict[str, Any]] = {}
    members: dict[str, int] = {}
    for row in comparisons:
        if size(row) < 0:
            continue
        members[row["key"]] = members.get(row["key"], 0) + 1
        if row["key"] not in largest or size(row) > size(largest[row["key"]]):
            largest[row["key"]] = row
    for row in sorted(largest.values(), key=size, reverse=True)[: max_findings - len(findings)]:
        findings.append(_comparison_finding(row, rate, members[row["key"]]))
    return findings


def _family_text(comparisons: Sequence[dict[str, Any]], extremes: dict[str, Any] | None) -> str:
    """The paired table's note on its family: its size and what is in it."""
    if not comparisons:
        return ""
    rated = any(r["c"].wins is not None for r in comparisons)
    kind = "win" if rated else "score"
    size = comparisons[0][f"{kind}_family"]
    what = "win-rate" if rated else "score"
    extra = (
        " and the summary's easiest-against-hardest pair"
        if extremes is not None and extremes.get("kind") == kind and "resolved" in extremes
        else ""
    )
    return (
        f"{stats.METHOD_TEXT[stats.HOLM]} over a family of {size:,} {what} comparisons: every paired "
        f"comparison of this dataset ({len(comparisons):,}, all in the CSV){extra}"
    )


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
        else [r for r in rows if r["score_n"] > 0 and not _missing(r["score_mean"])]
    )
    use_wins = rated and c.wins is not None
    return {
        "c": c,
        "kind": "win" if use_wins else "score",
        "p": c.wins.p_value if use_wins else c.score_p,
        "cells": k,
        "pairs": k * (k - 1) // 2,
    }


def _write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(["" if _missing(v) else v for v in row] for row in rows)
    return path.name


def _write_end_reasons_csv(path: Path, reason_rows: Sequence[dict[str, Any]], reasons: Sequence[str]) -> str:
    """One row per cell: cell, label, n, then the games of each end reason."""
    rows = [[r["cell"], r["label"], r["n"], *(k for k, _ in r["cells"])] for r in reason_rows]
    return _write_csv(path, ["cell", "label", "n", *reasons], rows)


def _write_paired_csv(path: Path, comparisons: Sequence[dict[str, Any]]) -> str:
    """Every paired comparison: win rate and score differences B - A with paired and unpaired
    95 % intervals (win rates as proportions), each test's p-value, its Holm-adjusted p-value over
    the family (every comparison of the dataset; `family` is its size) and whether it is resolved."""
    header = [
        "setting", "a", "b", "a_value", "b_value", "pairs",
        "win_diff", "win_low", "win_high", "win_unpaired_low", "win_unpaired_high",
        "a_only_won", "b_only_won",
        "score_diff", "score_low", "score_high", "score_unpaired_low", "score_unpaired_high",
        "win_p", "win_p_holm", "win_resolved", "score_p", "score_p_holm", "score_resolved", "family",
    ]  # fmt: skip
    rows = []
    for row in comparisons:
        c, w = row["c"], row["c"].wins
        wins = (
            [w.difference, w.low, w.high, w.unpaired_low, w.unpaired_high, w.a_only, w.b_only]
            if w
            else [None] * 7
        )
        rows.append(
            [row["key"], row["a"], row["b"], row["va"], row["vb"], c.pairs, *wins,
             c.score.estimate, c.score.low, c.score.high, c.score_unpaired.low, c.score_unpaired.high,
             row["win_p"], row["win_p_adjusted"], row["win_resolved"] if w else None,
             row["score_p"], row["score_p_adjusted"], row["score_resolved"],
             row["win_family"] if w else row["score_family"]]
        )  # fmt: skip
    return _write_csv(path, header, rows)


def _write_table_csv(path: Path, table: sections.Table) -> str:
    return _write_csv(path, table.columns, table.rows)


def build_section(d: ds_io.Dataset, name: str, out: Path) -> tuple[Section, pl.DataFrame]:
    _check_columns(d)
    m = d.manifest
    infos = cell_infos(m, d.games)
    summary = cell_summary(d, infos)
    csv_file = f"{name}-summary.csv"
    summary.fill_nan(None).write_csv(out / csv_file)  # an undefined rate is an empty field, not "NaN"
    scenario = m.get("scenario") or {}
    subject = str(scenario.get("name") or name)
    title = str(m.get("title") or m.get("game") or "")
    length_unit = str(m.get("length_unit") or DEFAULT_LENGTH_UNIT)
    score_unit = str(m.get("score_unit") or DEFAULT_SCORE_UNIT)
    rows = summary.to_dicts()
    by_cell = {i.cell: i for i in infos}

    # headline table: one column per setting; settings equal in every cell are listed once above
    setting_names = [str(s) for s in (m.get("setting_names") or [])]
    setting_columns = [(f"setting_{s}" if s in SUMMARY_COLUMNS else s, s) for s in setting_names]
    fixed = {}
    for col, shown in setting_columns:
        values = set(summary[col].to_list()) if col in summary.columns else set()
        if len(values) == 1 and summary.height > 1:
            fixed[shown] = str(next(iter(values)))
    setting_columns = [(c, s) for c, s in setting_columns if s not in fixed]

    # charts
    built: dict[str, charts.Chart] = {}
    points = [
        charts.WinPoint(
            by_cell[r["cell"]].x,
            by_cell[r["cell"]].group,
            r["label"],
            r["wins"],
            r["n_win_loss"],
            r["win_rate"],
            r["win_low"],
            r["win_high"],
        )
        for r in rows
        if r["n_win_loss"] > 0
    ]
    if points:
        built["win_rate"] = charts.win_rate_chart(points, out, f"{name}-win-rate", subject)

    reasons_long = end_reason_counts(d.games)
    totals = (
        reasons_long.group_by("end_reason")
        .agg(pl.col("count").sum())
        .sort(["count", "end_reason"], descending=[True, False])
    )
    reasons = totals["end_reason"].to_list()
    count_of = {(c, r): int(k) for c, r, k in reasons_long.iter_rows()}
    labelled = {(by_cell[c].label, r): k for (c, r), k in count_of.items()}
    cells_n = [(r["label"], r["n"]) for r in rows if r["n"] > 0]
    if cells_n:
        built["end_reasons"] = charts.end_reason_chart(
            cells_n, reasons, labelled, out, f"{name}-end-reasons", subject
        )
    reason_rows = []
    for r in rows:
        counts = [count_of.get((r["cell"], reason), 0) for reason in reasons]
        shares = [k / r["n"] if r["n"] else math.nan for k in counts]
        reason_rows.append(
            {
                "cell": r["cell"],
                "label": r["label"],
                "n": r["n"],
                "cells": list(zip(counts, shares, strict=True)),
            }
        )

    series = distribution_series(length_table(d.games), infos)
    if series:
        built["length"] = charts.length_chart(series, length_unit, out, f"{name}-length", subject)

    score_series = distribution_series(score_table(d.games), infos)
    if score_series:
        built["score"] = charts.score_chart(score_series, score_unit, out, f"{name}-score", subject)

    rate = bool(points)
    running = running_series(d.games, infos, rate)
    if running:
        built["convergence"] = charts.convergence_chart(
            running, rate, score_unit, out, f"{name}-convergence", subject
        )

    comparisons = paired_comparisons(d, infos)
    extreme_pair = extremes_comparison(d.games, rows)
    adjust_comparisons(comparisons, extreme_pair)
    game_secs = sections.game_sections(sections.AnalysisContext(d, out, name, subject))
    files = {
        "end_reasons": _write_end_reasons_csv(out / f"{name}-end-reasons.csv", reason_rows, reasons),
    }
    if comparisons:
        files["paired"] = _write_paired_csv(out / f"{name}-paired.csv", comparisons)
    table_files = {
        g.key: [
            _write_table_csv(out / f"{name}-{charts.slug(g.key)}-{i + 1}.csv", t)
            for i, t in enumerate(g.tables)
        ]
        for g in game_secs
    }

    section = Section(
        id=f"ds-{name}",
        name=name,
        path=str(d.path),
        manifest=m,
        heading=f"{subject} ({title})" if title else subject,
        rows=rows,
        setting_columns=setting_columns,
        fixed_settings=fixed,
        show_win_loss_n=bool((summary["n_win_loss"] < summary["n"]).any()),
        show_failed=bool((summary["failed"] > 0).any()),
        csv_file=csv_file,
        charts=built,
        reasons=reasons,
        reason_rows=reason_rows,
        length_unit=length_unit,
        invented=_invented(m),
        provenance=_provenance(m),
        notes=_notes(d, summary),
        repro=_repro(d),
        replays=replay.cell_pages(m, d.path, out, name),
        comparisons=shown_comparisons(comparisons),
        game_sections=game_secs,
        comparisons_total=len(comparisons),
        family_text=_family_text(comparisons, extreme_pair),
        findings=summary_findings(rows, comparisons, extremes=extreme_pair),
        game_findings=[
            {"anchor": f"ds-{name}-{g.key}", "title": g.title, "findings": list(g.findings)}
            for g in game_secs
            if g.findings
        ],
        score_unit=score_unit,
        files=files,
        table_files=table_files,
    )
    return section, summary


# --- the report -----------------------------------------------------------------------------------


def _names(paths: Sequence[Path]) -> list[str]:
    """File-safe, unique names for the datasets, from their folder names."""
    names, seen = [], set()
    for p in paths:
        base = charts.slug(p.resolve().name)
        name, k = base, 1
        while name in seen:
            k += 1
            name = f"{base}-{k}"
        seen.add(name)
        names.append(name)
    return names


@functools.cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(pct=fmt_pct, num=fmt_num, int=fmt_int, interval=fmt_interval)
    return env


def _make_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: cannot create the report folder (a file of that name exists)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{out}: cannot create the report folder ({exc.strerror or exc})") from None


def render(sections: Sequence[Section]) -> str:
    """The HTML page for already built sections."""
    template = _environment().get_template(TEMPLATE)
    return template.render(
        sections=sections,
        simkit_version=VERSION,
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        inline=Markup,  # only ever applied to SVG written by matplotlib
    )


def write_report(datasets: Sequence[str | Path], out: str | Path) -> Path:
    """Write `out/index.html` (self-contained) and the charts and CSVs beside it; return its path."""
    paths = [Path(p) for p in datasets]
    if not paths:
        raise UserError("report: give at least one dataset folder")
    loaded = [ds_io.load(p) for p in paths]  # every dataset is checked before anything is written
    for d in loaded:
        _check_columns(d)
    out = Path(out)
    _make_folder(out)
    index = out / "index.html"
    try:
        sections = [build_section(d, name, out)[0] for d, name in zip(loaded, _names(paths), strict=True)]
        html = render(sections)
        tmp = out / f".index.html.{os.getpid()}.tmp"
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, index)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the report ({exc.strerror or exc})") from None
    return index
