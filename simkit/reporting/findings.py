"""The report's findings: the sentences of the plain-language summary and the notes, written
from the model's numbers (model.py), each with its interval, its game count and whether it is
resolved after the adjustment for the family it was picked from. The template holds no figure of
its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from simkit.core import dataset as ds_io
from simkit.core import stats
from simkit.reporting import sections
from simkit.reporting import text as page_text
from simkit.reporting.model import extremes
from simkit.reporting.text import fmt_interval, fmt_num, fmt_pct, missing

SEARCHES = ("tune", "calibrate")  # stopping rules whose cells stop early by design (manifest "stopping")


def dataset_notes(d: ds_io.Dataset, summary: pl.DataFrame) -> list[str]:
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
    if d.manifest.get("stopping") in SEARCHES:
        notes.append(
            f"This dataset is a search (`simkit {d.manifest['stopping']}`): each cell played until the "
            "search ruled it out or knew it well enough, so cells hold different game counts by design"
            + (f" (at most {planned:,} each)" if isinstance(planned, int) else "")
            + "; a cell's n is the search's choice, not a run left short."
        )
    elif isinstance(planned, int):
        short = summary.filter(pl.col("n") + pl.col("failed") < pl.col("planned"))
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
            each = set(summary["planned"].to_list())
            plan = f"the {planned:,} games planned" if each == {planned} else "the games planned for them"
            notes.append(
                f"The run is unfinished: {short.height} of {summary.height} cells hold fewer than "
                f"{plan} (see n). Running the same command again resumes it."
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
        pool = [r for r in rows if r["score_n"] > 0 and not missing(r["score_mean"])]
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
        if not missing(iv.low) and (iv.low > 0 or iv.high < 0)
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
        kind, excludes = "score", not missing(sc.low) and (sc.low > 0 or sc.high < 0)
    if picked_from > 1:
        text += f", the largest of the {picked_from} comparisons that change {row['key']}"
    family = (
        f"{stats.METHOD_TEXT[row[f'{kind}_method']]} over all {row[f'{kind}_family']:,} paired comparisons"
    )
    adjusted = row[f"{kind}_p_adjusted"]
    if row[f"{kind}_resolved"]:
        return text + f": resolved after {family} (adjusted {_p_text(adjusted)})."
    if missing(adjusted):
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
        return -1.0 if missing(e) else abs(e)

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


def family_note(comparisons: Sequence[dict[str, Any]], extremes: dict[str, Any] | None) -> str:
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
