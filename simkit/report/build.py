"""The HTML report: one self-contained `index.html` plus each chart as PNG and SVG and each
dataset's per-cell summary as CSV.

    write_report([Path("runs/a"), Path("runs/b")], Path("reports/latest"))

Layout of the page: a table of contents, then one section per dataset with
  1. notes (invented component data, failed games, an unfinished run),
  2. results by cell (the headline table: n, win rate with its 95 % Wilson interval, mean score
     with its interval, game length), also written as `<dataset>-summary.csv`,
  3. win rate by cell (chart), 4. how games ended (chart and table), 5. game length (chart),
  6. component data and its provenance, 7. how to reproduce the dataset.

Decisions:
- All numbers are aggregated with polars `group_by`; Python loops only run over cells (and the
  end reasons of a cell), never over games.
- The win rate counts games whose `won` is true or false; games with a null `won` (competitive
  games, where nobody wins as a team) are left out and the table then says how many remain.
- Mean score and length rest on the games where they are not null; their n is in the table.
- Datasets are loaded (and so validated) before anything is written: bad input leaves nothing
  behind. `index.html` is written under a temporary name and renamed.
- Output names: a dataset is named after its folder (made file-safe; a repeated name gets
  `-2`, `-3`...); its files are `<name>-summary.csv`, `<name>-win-rate.{png,svg}`,
  `<name>-end-reasons.{png,svg}` and `<name>-length.{png,svg}`.
- The summary CSV has one row per cell: cell, label, one column per setting, strategy, n (games
  played), n_win_loss (games with a recorded win or loss), wins, win_rate, win_low, win_high
  (95 % Wilson), score_n, score_mean, score_low, score_high (95 % Student t interval),
  length_mean, length_median, failed (games that raised), planned (games per cell in the
  manifest). Undefined values (no games) are empty fields.
- The unit of `length` is "turns" unless the manifest names another (`length_unit`).
- Text from manifests, scenarios and data files reaches the page only through jinja2 with
  autoescape on; only the SVG that matplotlib wrote (which escapes its own text) is marked safe.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import polars as pl
from markupsafe import Markup

from simkit import __version__
from simkit.core import compare, stats
from simkit.core import dataset as ds_io
from simkit.core.errors import UserError
from simkit.report import charts, sections

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = "report.html.j2"
REQUIRED_COLUMNS = ("cell", "won", "score", "length", "end_reason")
DEFAULT_LENGTH_UNIT = "turns"
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


def _strategy_text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return str(value[0]) if len(value) == 1 else ",".join(str(v) for v in value)
    return "" if value is None else str(value)


def cell_infos(manifest: dict[str, Any], games: pl.DataFrame) -> list[CellInfo]:
    """The cells in manifest order (plus any cell found only in the games table)."""
    grid_keys = list(manifest.get("grid_keys") or [])
    varied = [k for k in grid_keys if k != "strategy"]
    by_strategy = "strategy" in grid_keys
    infos: list[CellInfo] = []
    for entry in manifest.get("cells") or []:
        settings = dict(entry.get("settings") or {})
        strategy = _strategy_text(entry.get("strategy"))
        label = str(entry.get("label") or entry.get("cell"))
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


def length_table(games: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(counts per cell and length, sorted; quantiles per cell) over games with a length."""
    lengths = games.select("cell", pl.col("length").cast(pl.Float64)).drop_nulls()
    counts = lengths.group_by("cell", "length").len("count").sort("cell", "length")
    quantiles = lengths.group_by("cell").agg(
        q05=pl.col("length").quantile(0.05, "linear"),
        q25=pl.col("length").quantile(0.25, "linear"),
        q50=pl.col("length").median(),
        q75=pl.col("length").quantile(0.75, "linear"),
        q95=pl.col("length").quantile(0.95, "linear"),
        mean=pl.col("length").mean(),
    )
    return counts, quantiles


# --- formatting helpers (jinja filters) -----------------------------------------------------------


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def fmt_pct(x: Any, digits: int = 1) -> str:
    return "–" if _missing(x) else f"{100 * x:.{digits}f} %"


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
    comparisons: list[dict[str, Any]] = field(default_factory=list)  # see paired_comparisons
    game_sections: list[sections.GameSection] = field(default_factory=list)  # the game's analysis.py


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
    }


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
    if isinstance(planned, int):
        short = summary.filter(pl.col("n") + pl.col("failed") < planned)
        if short.height:
            notes.append(
                f"The run is unfinished: {short.height} of {summary.height} cells hold fewer than the "
                f"{planned:,} games planned (see n). Running the same command again resumes it."
            )
    undecided = summary.filter(pl.col("n_win_loss") < pl.col("n"))
    if undecided.height:
        notes.append(
            "Some games record no team win or loss (won is empty); win rates count only the games "
            "that do (column 'n win/loss')."
        )
    return notes


MAX_COMPARISONS = 40


def _grid_value(info: CellInfo, key: str) -> str:
    return info.strategy if key == "strategy" else str(info.settings.get(key))


def paired_comparisons(d: ds_io.Dataset, infos: Sequence[CellInfo]) -> list[dict[str, Any]]:
    """For each setting the grid varies: every cell against the cell that differs from it only in
    that setting, at the setting's first value, compared as pairs (`simkit compare`'s function)."""
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
            rows.append({"key": key, "a": base.label, "b": info.label, "c": c})
    return rows[:MAX_COMPARISONS]


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

    counts, quantiles = length_table(d.games)
    q_of = {row["cell"]: row for row in quantiles.iter_rows(named=True)}
    by_len = {key[0]: part for key, part in counts.partition_by("cell", as_dict=True).items()}
    series = [
        charts.LengthSeries(
            info.label,
            info.group,
            info.x,
            by_len[info.cell]["length"].to_list(),
            by_len[info.cell]["count"].to_list(),
            q_of[info.cell],
        )
        for info in infos
        if info.cell in by_len
    ]
    if series:
        built["length"] = charts.length_chart(series, length_unit, out, f"{name}-length", subject)

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
        comparisons=paired_comparisons(d, infos),
        game_sections=sections.game_sections(sections.AnalysisContext(d, out, name, subject)),
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
        simkit_version=__version__,
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
