"""The report's layout: one dataset's section of the page (`build_section`), the pieces the
template shows (tables, charts, findings, the game's own sections, provenance, how to reproduce)
and the CSV files beside them (`<name>-summary.csv`, `<name>-end-reasons.csv`,
`<name>-paired.csv`, and `<name>-<key>-<i>.csv` for each table of a game section).

The summary CSV has one row per cell: cell, label, one column per setting, strategy, n (games
played), n_win_loss (games with a recorded win or loss), wins, win_rate, win_low, win_high (95 %
Wilson), score_n, score_mean, score_low, score_high (95 % Student t interval), length_mean,
length_median, failed (games that raised), planned (games per cell in the manifest). Undefined
values (no games) are empty fields. The unit of `length` is "turns" unless the manifest names
another (`length_unit`); of `score`, "points" (`score_unit`).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simkit.core import dataset as ds_io
from simkit.core import replay
from simkit.reporting import charts, dataset_charts, sections
from simkit.reporting.findings import dataset_notes, family_note, summary_findings
from simkit.reporting.model import (
    SUMMARY_COLUMNS,
    adjust_comparisons,
    cell_infos,
    cell_summary,
    check_columns,
    distribution_series,
    end_reason_counts,
    extremes_comparison,
    length_table,
    paired_comparisons,
    running_series,
    score_table,
    shown_comparisons,
)
from simkit.reporting.text import missing

DEFAULT_LENGTH_UNIT = "turns"
DEFAULT_SCORE_UNIT = "points"


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
        "games_per_cell": _games_per_cell(m),
        "chunk_size": m.get("chunk_size"),
        "created": m.get("created"),
        "command": m.get("command"),
        "data_files": sorted((m.get("data_files") or {}).items()),
        "spec": json.dumps(spec, indent=2, sort_keys=True, default=str) if spec else None,
        "dataset_path": str(d.path),
        "replay": _replay_command(m),
    }


def _games_per_cell(m: dict[str, Any]) -> str:
    """The run's games per cell, and the cells [games_by_strategy] gave their own."""
    own = [f"{c['cell']} {c['games']:,}" for c in m.get("cells") or [] if "games" in c]
    default = m.get("games_per_cell")
    text = f"{default:,}" if isinstance(default, int) else str(default)
    return f"{text}; {', '.join(own)} (their own, set by [games_by_strategy])" if own else text


def _replay_command(m: dict[str, Any]) -> str | None:
    """`simkit replay` for game 0 of the first cell: any game of any cell is told the same way."""
    cells = m.get("cells") or []
    if not cells or m.get("game") is None or m.get("root_seed") is None:
        return None
    return replay.command(replay.from_manifest(m, cells[0], 0))


def _write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(["" if missing(v) else v for v in row] for row in rows)
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
    check_columns(d)
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
        dataset_charts.WinPoint(
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
        built["win_rate"] = dataset_charts.win_rate_chart(points, out, f"{name}-win-rate", subject)

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
        built["end_reasons"] = dataset_charts.end_reason_chart(
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
        built["length"] = dataset_charts.length_chart(series, length_unit, out, f"{name}-length", subject)

    score_series = distribution_series(score_table(d.games), infos)
    if score_series:
        built["score"] = dataset_charts.score_chart(score_series, score_unit, out, f"{name}-score", subject)

    rate = bool(points)
    running = running_series(d.games, infos, rate)
    if running:
        built["convergence"] = dataset_charts.convergence_chart(
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
        notes=dataset_notes(d, summary),
        repro=_repro(d),
        replays=replay.cell_pages(m, d.path, out, name),
        comparisons=shown_comparisons(comparisons),
        game_sections=game_secs,
        comparisons_total=len(comparisons),
        family_text=family_note(comparisons, extreme_pair),
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
