"""Space Alert's own report sections (issue 5 point 7).

1. Survival and score by threat difficulty x mission type x crew size x crew: one row per cell
   (Wilson interval for survival, Student t for the mean score), a chart, and findings that
   compare each setting's values as pairs of games (game i of every cell shares its seed).
2. The threats behind losses: from `lost_to` (the threat whose attack or action destroyed the
   ship) and `threat_ids` / `destroyed_ids`: per threat, its share of all losses and the loss
   rate when it is in the mission, both with Wilson intervals.
3. Damage by zone: mean damage tiles per zone (red / white / blue) per cell with t intervals,
   and which zone is destroyed when a zone takes its 7th tile.
4. The transcribed missions (1-8) ranked by survival, when the dataset plays them.

Decisions:
- "Difficulty" settings are everything the grid varies except the crew; the crew is `strategy`,
  `players` and `figures` (crew size). A setting counts as varied when the dataset's cells hold
  more than one value of it, so a one-cell dataset (`simkit simulate`) still gets its sections.
- Comparisons of a setting pool every matched pair of cells (same other settings, the setting
  at its first value against another value), each joined on game_index: "averaged over" the
  other settings the grid varies, per crew when the crew varies.
- Section 1 compares mission types (test / simulation / real) only; transcribed missions are
  compared with one another in section 4, never with a random mission type.
- A lost game stops at the loss: its damage counts the tiles drawn until then. The zone a ship
  lost to a 7th tile is the zone holding all 6 tiles (a tie between full zones is counted apart).
- The report never plays a game: threat names come from the built-in component file (ids only
  if it cannot be read).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib
import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.games.space_alert.components import ZONES
from simkit.reporting import charts
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import count_range as _counts
from simkit.reporting.text import fmt_interval as _interval
from simkit.reporting.text import pct as _pct
from simkit.reporting.text import points as _pp
from simkit.reporting.text import signed as _signed

CREW_KEYS = ("strategy", "players", "figures")
ZONE_COLOURS = ("#D55E00", "#000000", "#0072B2")  # Okabe-Ito vermillion, black, blue
TILES_PER_ZONE = 6
TOP_THREATS = 15
TRANSCRIBED = {str(i) for i in range(1, 9)}


# --- formatting ---------------------------------------------------------------------------------


def _ci_pct(iv: stats.Interval) -> str:
    return _interval(iv.low, iv.high, pct=True, none="n/a") if iv.n else "n/a"


def _num(x: float, digits: int = 2) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:,.{digits}f}"


def _ci_num(iv: stats.Interval, digits: int = 2) -> str:
    return _interval(iv.low, iv.high, digits, none="n/a") if iv.n >= 2 else "n/a"


# --- cells --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    cell: str
    settings: dict[str, str]  # every setting (and strategy) as text
    difficulty: str  # label from the varied non-crew settings
    crew: str  # label from the varied crew settings (or the strategy)
    games: pl.DataFrame


def _setting_keys(ctx: AnalysisContext) -> list[str]:
    names = [str(s) for s in ctx.dataset.manifest.get("setting_names") or []]
    keys = [k for k in [*names, "strategy"] if k in ctx.dataset.games.columns]
    return list(dict.fromkeys(keys))


def _cells(ctx: AnalysisContext) -> tuple[list[Cell], list[str]]:
    """The cells in manifest order and the settings that vary between them."""
    games = ctx.dataset.games
    keys = _setting_keys(ctx)
    order = [str(c.get("cell")) for c in ctx.dataset.manifest.get("cells") or []]
    parts = {str(k[0]): p for k, p in games.partition_by("cell", as_dict=True).items()}
    ids = [c for c in order if c in parts] + sorted(set(parts) - set(order))
    settings = {}
    for cid in ids:
        first = parts[cid].row(0, named=True)
        settings[cid] = {k: str(first[k]) for k in keys}
    varied = [k for k in keys if len({settings[c][k] for c in ids}) > 1]
    crew_varied = [k for k in varied if k in CREW_KEYS]
    diff_varied = [k for k in varied if k not in CREW_KEYS]
    cells = []
    for cid in ids:
        s = settings[cid]
        difficulty = " ".join(f"{k}={s[k]}" for k in diff_varied) or _fixed_difficulty(s)
        size = [f"{k}={s[k]}" for k in crew_varied if k != "strategy"]
        crew = " ".join([s.get("strategy", "crew"), *size])
        cells.append(Cell(cid, s, difficulty, crew, parts[cid]))
    return cells, varied


def _fixed_difficulty(s: dict[str, str]) -> str:
    return " ".join(f"{k}={s[k]}" for k in ("mission", "common", "serious") if k in s) or "all games"


def _values(cells: Sequence[Cell], key: str) -> list[str]:
    return list(dict.fromkeys(c.settings[key] for c in cells))


def _won(frame: pl.DataFrame) -> np.ndarray:
    return frame["won"].cast(pl.Boolean).fill_null(False).to_numpy().astype(bool)


def _score(frame: pl.DataFrame) -> np.ndarray:
    return frame["score"].cast(pl.Float64).fill_null(0.0).to_numpy()


def _survival(frame: pl.DataFrame) -> stats.Interval:
    won = frame["won"].cast(pl.Boolean).drop_nulls()
    return stats.wilson(int(won.sum()), won.len())


def _mean(frame: pl.DataFrame, col: str) -> stats.Interval:
    return stats.mean_interval(frame[col].cast(pl.Float64).drop_nulls().to_numpy())


@dataclass(frozen=True)
class Paired:
    wins: stats.PairedDifference
    score: stats.Interval
    cells: int  # matched cell pairs pooled
    score_p: float = math.nan  # paired t test of the score difference


def _paired(cells: Sequence[Cell], key: str, base: str, other: str, keys: Sequence[str]) -> Paired | None:
    """Every cell at `other` against the cell equal to it but for `key` = `base`, joined on
    game_index and pooled."""

    def rest(c: Cell) -> tuple:
        return tuple(c.settings[k] for k in keys if k != key)

    bases = {rest(c): c for c in cells if c.settings[key] == base}
    a_won, b_won, a_score, b_score, matched = [], [], [], [], 0
    for c in cells:
        if c.settings[key] != other or rest(c) not in bases:
            continue
        b = bases[rest(c)]
        j = b.games.select("game_index", "won", "score").join(
            c.games.select("game_index", "won", "score"), on="game_index", suffix="_b"
        )
        if j.height == 0:
            continue
        matched += 1
        a_won.append(_won(j))
        b_won.append(_won(j.select(pl.col("won_b").alias("won"))))
        a_score.append(_score(j))
        b_score.append(_score(j.select(pl.col("score_b").alias("score"))))
    if not matched:
        return None
    wins = stats.paired_difference(np.concatenate(a_won), np.concatenate(b_won))
    a_all, b_all = np.concatenate(a_score), np.concatenate(b_score)
    score, _, _ = paired_scores(a_all, b_all)
    return Paired(wins, score, matched, stats.mean_p_value(b_all - a_all))


def _group_cells(cells: Sequence[Cell], key: str) -> list[tuple[str, list[Cell]]]:
    """Cells split by their strategy when the strategy varies and `key` is not the strategy."""
    strategies = _values(cells, "strategy") if cells and "strategy" in cells[0].settings else []
    if key != "strategy" and len(strategies) > 1:
        return [(f"the {s} crew", [c for c in cells if c.settings["strategy"] == s]) for s in strategies]
    only = f"the {strategies[0]} crew" if len(strategies) == 1 else ""
    return [(only, list(cells))]


def _comparison_finding(
    who: str,
    key: str,
    base: str,
    other: str,
    p: Paired,
    varied: Sequence[str],
    verdicts: tuple[bool, bool] = (False, False),
    family: str = "",
) -> str:
    """One paired comparison; `verdicts` (survival, score) say whether each is resolved after the
    adjustment over `family`."""
    w, s = p.wins, p.score
    lead = f"For {who}, s" if who else "S"
    if verdicts[0]:
        verb = "higher" if w.difference > 0 else "lower"
        head = (
            f"{lead}urvival is {abs(100 * w.difference):.1f} points {verb} with {key}={other} "
            f"than with {key}={base}"
        )
    else:
        head = (
            f"{lead}urvival with {key}={other} against {key}={base} differs by "
            f"{_pp(w.difference)} points, not resolved"
        )
    others = [k for k in varied if k != key and not (k == "strategy" and who.startswith("the "))]
    over = f", averaged over {', '.join(others)}" if others else ""
    score_text = (
        f"mean score {_signed(s.estimate)} (95 % CI {_signed(s.low)} to "
        f"{_signed(s.high)}" + ("" if verdicts[1] else ", not resolved") + ")"
    )
    return (
        f"{head} (95 % CI {_pp(w.low)} to {_pp(w.high)} points; {w.n:,} pairs of games over "
        f"{p.cells} matched cell{'s' if p.cells != 1 else ''}, paired by seed{over}); {score_text}; "
        f"resolved or not after {family}."
    )


# --- charts -------------------------------------------------------------------------------------


def _xticks(ax, xs: list[str]) -> None:
    vertical = len(xs) > 8
    if vertical:
        ax.set_xticks(range(len(xs)), xs, rotation=90, fontsize=7.5)
    else:
        ax.set_xticks(range(len(xs)), ["\n".join(x.split(" ")) for x in xs], fontsize=8)
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.grid(axis="x", visible=False)


def _n_text(ns: Sequence[int]) -> str:
    return _counts([n for n in ns if n], "games per cell")


def _survival_chart(ctx: AnalysisContext, cells: Sequence[Cell], surv: dict, score: dict) -> charts.Chart:
    xs = list(dict.fromkeys(c.difficulty for c in cells))
    groups = list(dict.fromkeys(c.crew for c in cells))
    width = min(14.0, max(6.5, len(xs) * (0.55 + 0.12 * len(groups)) + 3.0))
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(width, 7.2)
        top, bottom = fig.subplots(2, 1, sharex=True)
        charts.grouped_interval_dots(
            top, xs, groups, {(c.difficulty, c.crew): surv[c.cell] for c in cells}, 100.0
        )
        charts.grouped_interval_dots(
            bottom, xs, groups, {(c.difficulty, c.crew): score[c.cell] for c in cells}, 1.0
        )
        top.set_ylim(-1.5, 101.5)
        top.set_ylabel("survival (% of games)")
        bottom.set_ylabel("mean score (points; 0 when lost)")
        _xticks(bottom, xs)
        bottom.set_xlabel("threat difficulty and mission (settings)")
        top.set_title(f"Survival and score by difficulty and crew: {ctx.subject}", loc="left")
        top.legend(title="crew", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    items = [
        f"{c.difficulty}, {c.crew}: survival {_pct(surv[c.cell].estimate)} "
        f"(95 % CI {_ci_pct(surv[c.cell])}), mean score {_num(score[c.cell].estimate)} (n={surv[c.cell].n})"
        for c in cells
    ]
    alt = (
        f"Survival and mean score of each cell of {ctx.subject}, with 95 % intervals. "
        + "; ".join(items[:16])
        + (f"; and {len(items) - 16} more cells (see the table)" if len(items) > 16 else "")
    )
    caption = (
        "Top: share of games the ship survived (bars: 95 % Wilson intervals). Bottom: mean score "
        "(a lost ship scores 0; bars: 95 % Student t intervals). One colour and marker per crew; "
        f"{_n_text(surv[c.cell].n for c in cells)}."
    )
    return charts.save_chart(
        fig, ctx.out, f"{ctx.name}-sa-survival", "Survival and score by difficulty", alt, caption
    )


# --- 1. survival and score ----------------------------------------------------------------------


def _survival_section(ctx: AnalysisContext, cells: list[Cell], varied: list[str]) -> GameSection:
    surv = {c.cell: _survival(c.games) for c in cells}
    score = {c.cell: _mean(c.games, "score") for c in cells}
    rows = []
    for c in cells:
        s, m = surv[c.cell], score[c.cell]
        won = int(c.games["won"].cast(pl.Boolean).fill_null(False).sum())
        rows.append(
            [
                c.difficulty,
                c.crew,
                f"{s.n:,}",
                f"{won:,}",
                _pct(s.estimate),
                _ci_pct(s),
                _num(m.estimate),
                _ci_num(m),
            ]
        )
    table = Table(
        "Survival and mean score per cell (95 % Wilson and Student t intervals; a lost ship scores 0).",
        ["difficulty", "crew", "games", "survived", "survival", "95 % CI", "mean score", "95 % CI"],
        rows,
    )
    findings = []
    decided = [c for c in cells if surv[c.cell].n > 0]
    if len(decided) > 1:
        lo = min(decided, key=lambda c: surv[c.cell].estimate)
        hi = max(decided, key=lambda c: surv[c.cell].estimate)
        findings.append(
            f"Survival ranges from {_pct(surv[lo.cell].estimate)} (95 % CI {_ci_pct(surv[lo.cell])}; "
            f"{lo.difficulty}, {lo.crew}; {surv[lo.cell].n:,} games) to {_pct(surv[hi.cell].estimate)} "
            f"(95 % CI {_ci_pct(surv[hi.cell])}; {hi.difficulty}, {hi.crew}; {surv[hi.cell].n:,} games)."
        )
    elif decided:
        c = decided[0]
        findings.append(
            f"The ship survives {_pct(surv[c.cell].estimate)} of games (95 % CI {_ci_pct(surv[c.cell])}; "
            f"{surv[c.cell].n:,} games); mean score {_num(score[c.cell].estimate)} "
            f"(95 % CI {_ci_num(score[c.cell])})."
        )
    keys = list(cells[0].settings) if cells else []
    compared = []
    for key in varied:
        values = _values(cells, key)
        if key == "mission":  # the transcribed missions have their own ranking section
            values = [v for v in values if v not in TRANSCRIBED]
        for who, group in _group_cells(cells, key):
            for other in values[1:]:
                p = _paired(group, key, values[0], other, keys)
                if p is not None:
                    compared.append((who, key, values[0], other, p))
    # every comparison below is one family (survival and score each): Holm over all of them
    survival_family = stats.family([p.wins.p_value for *_, p in compared])
    score_family = stats.family([p.score_p for *_, p in compared])
    for i, (who, key, base, other, p) in enumerate(compared):
        verdicts = (bool(survival_family.resolved[i]), bool(score_family.resolved[i]))
        findings.append(_comparison_finding(who, key, base, other, p, varied, verdicts, survival_family.text))
    paragraphs = [
        "Each cell plays the same seeds, so game i of one cell meets the same mission draws, decks and "
        "damage-tile order as game i of another: the findings compare settings as pairs of games "
        "(Tango's paired interval for survival, a paired t interval for the score). Differences are "
        "in percentage points of survival. A difference is resolved only after the Holm adjustment over "
        "every comparison listed (survival and score each a family), so that the chance of any false "
        "resolved among them is at most 5 %."
    ]
    return GameSection(
        "sa-survival",
        "Space Alert: survival and score by difficulty, mission type, crew size and crew",
        findings=findings,
        paragraphs=paragraphs,
        charts=[_survival_chart(ctx, cells, surv, score)] if decided else [],
        tables=[table],
    )


# --- 2. threats behind losses -------------------------------------------------------------------


def _threat_names() -> dict[str, str]:
    try:
        from simkit.games.space_alert import components

        comp = components.load(None)
        return {t.id: t.name for t in comp.threats}
    except Exception:  # noqa: BLE001 (names are a nicety; ids stand alone)
        return {}


def _ids(frame: pl.DataFrame, col: str) -> pl.DataFrame:
    """(row, id) for a comma-separated id column."""
    return (
        frame.select(
            pl.int_range(pl.len()).alias("row"), pl.col(col).fill_null("").str.split(",").alias("id")
        )
        .explode("id")
        .filter(pl.col("id").str.len_chars() > 0)
        .unique()
    )


def _threat_counts(frame: pl.DataFrame) -> pl.DataFrame:
    """Per threat id: games it was in, games lost to it, games it was destroyed in."""
    present = _ids(frame, "threat_ids").group_by("id").agg(present=pl.len())
    destroyed = _ids(frame, "destroyed_ids").group_by("id").agg(destroyed=pl.len())
    lost = (
        frame.filter(~pl.col("won").cast(pl.Boolean).fill_null(True))
        .select(pl.col("lost_to").fill_null("").alias("id"))
        .group_by("id")
        .agg(losses=pl.len())
    )
    out = present.join(destroyed, on="id", how="full", coalesce=True).join(
        lost, on="id", how="full", coalesce=True
    )
    return out.fill_null(0)


def _threat_section(ctx: AnalysisContext, cells: list[Cell]) -> GameSection | None:
    games = ctx.dataset.games
    if not {"lost_to", "threat_ids", "destroyed_ids", "won"} <= set(games.columns) or games.height == 0:
        return None
    names = _threat_names()
    strategies = list(dict.fromkeys(c.settings.get("strategy", "") for c in cells))
    groups = (
        [(s, games.filter(pl.col("strategy").cast(pl.String) == s)) for s in strategies]
        if len(strategies) > 1 and "strategy" in games.columns
        else [(strategies[0] if strategies else "", games)]
    )

    def label(tid: str) -> str:
        return f"{tid} {names[tid]}" if tid in names else tid

    all_counts = _threat_counts(games)
    total_losses = int((~games["won"].cast(pl.Boolean).fill_null(True)).sum())
    known = all_counts.filter(pl.col("id") != "")
    unattributed = int(all_counts.filter(pl.col("id") == "")["losses"].sum())
    top = (
        known.filter(pl.col("losses") > 0).sort(["losses", "id"], descending=[True, False]).head(TOP_THREATS)
    )
    findings: list[str] = []
    paragraphs = [
        "A loss is put down to the threat whose attack or action destroyed the ship (record column "
        "lost_to). Share of losses: that threat's losses over all losses. Loss rate when present: games "
        "lost to it over the games whose mission held it (threat_ids), which corrects for how often it is "
        "drawn. Destroyed when present: games in which the crew destroyed it (destroyed_ids) over the same. "
        "All rates carry 95 % Wilson intervals."
    ]
    if total_losses == 0:
        findings.append(
            f"The ship was never lost in these {games.height:,} games, so no threat caused a loss."
        )
        return GameSection("sa-threats", "Space Alert: the threats behind losses", findings, paragraphs)
    per_group = {s: _threat_counts(f) for s, f in groups}
    group_losses = {s: int((~f["won"].cast(pl.Boolean).fill_null(True)).sum()) for s, f in groups}
    for s, f in groups:
        counts = per_group[s].filter(pl.col("id") != "")
        lost_n = group_losses[s]
        who = f"the {s} crew" if s else "the crew"
        if lost_n == 0:
            findings.append(f"{who.capitalize()} never lost in {f.height:,} games.")
            continue
        best = counts.filter(pl.col("losses") > 0).sort(["losses", "id"], descending=[True, False]).head(3)
        parts = []
        for r in best.iter_rows(named=True):
            share = stats.wilson(int(r["losses"]), lost_n)
            rate = stats.wilson(int(r["losses"]), int(r["present"]))
            parts.append(
                f"{label(r['id'])} ({int(r['losses']):,} of {lost_n:,} losses, {_pct(share.estimate)}, "
                f"95 % CI {_ci_pct(share)}; it ends {_pct(rate.estimate)} of the {int(r['present']):,} "
                f"games it is in, 95 % CI {_ci_pct(rate)})"
            )
        if parts:
            findings.append(
                f"For {who} ({f.height:,} games), the threats most often behind a loss are "
                + "; ".join(parts)
                + "."
            )
    deadly = known.filter(pl.col("present") >= 30).with_columns(rate=pl.col("losses") / pl.col("present"))
    if deadly.height:
        r = deadly.sort(["rate", "id"], descending=[True, False]).row(0, named=True)
        iv = stats.wilson(int(r["losses"]), int(r["present"]))
        findings.append(
            f"Per game it appears in (threats drawn in at least 30 games, every cell pooled), the deadliest "
            f"is {label(r['id'])}: it destroys the ship in {_pct(iv.estimate)} of them "
            f"(95 % CI {_ci_pct(iv)}; {iv.n:,} games)."
        )
    if unattributed:
        iv = stats.wilson(unattributed, total_losses)
        findings.append(
            f"{unattributed:,} of {total_losses:,} losses name no threat ({_pct(iv.estimate)}, "
            f"95 % CI {_ci_pct(iv)})."
        )
    rows = []
    for r in top.iter_rows(named=True):
        share = stats.wilson(int(r["losses"]), total_losses)
        rate = stats.wilson(int(r["losses"]), int(r["present"]))
        kill = stats.wilson(int(r["destroyed"]), int(r["present"]))
        rows.append(
            [
                label(r["id"]),
                f"{int(r['present']):,}",
                f"{int(r['losses']):,}",
                _pct(share.estimate),
                _ci_pct(share),
                _pct(rate.estimate),
                _ci_pct(rate),
                _pct(kill.estimate),
                _ci_pct(kill),
            ]
        )
    table = Table(
        f"The {top.height} threats behind the most losses, every cell pooled ({games.height:,} games, "
        f"{total_losses:,} losses; 95 % Wilson intervals).",
        [
            "threat",
            "games present",
            "losses to it",
            "share of losses",
            "95 % CI",
            "loss rate when present",
            "95 % CI",
            "destroyed when present",
            "95 % CI",
        ],
        rows,
    )
    chart = _threat_chart(ctx, top["id"].to_list(), groups, per_group, label) if top.height else None
    return GameSection(
        "sa-threats",
        "Space Alert: the threats behind losses",
        findings=findings,
        paragraphs=paragraphs,
        charts=[chart] if chart else [],
        tables=[table],
    )


def _threat_chart(ctx, ids: list[str], groups, per_group, label) -> charts.Chart:
    names = [s for s, _ in groups]
    points: dict = {}
    ns = []
    for s, _f in groups:
        by_id = {r["id"]: r for r in per_group[s].iter_rows(named=True)}
        for tid in ids:
            r = by_id.get(tid)
            if r and int(r["present"]) > 0:
                points[(tid, s)] = stats.wilson(int(r["losses"]), int(r["present"]))
                ns.append(int(r["present"]))
    height = min(12.0, max(3.2, 0.36 * len(ids) * max(1, len(names)) ** 0.5 + 1.4))
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(9.0, height)
        ax = fig.add_subplot()
        charts.grouped_interval_dots(ax, ids, names, points, 100.0, band=0.7, horizontal=True, suffix=" crew")
        ax.set_yticks(range(len(ids)), [label(t) for t in ids], fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(-1, 101)
        ax.set_xlabel("games lost to this threat (% of the games it is in)")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"Threats behind losses: {ctx.subject}", loc="left")
        if len(names) > 1:
            ax.legend(title="crew", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    items = [
        f"{label(tid)} ({s}): {_pct(iv.estimate)} (95 % CI {_ci_pct(iv)}, {iv.n} games)"
        for (tid, s), iv in points.items()
    ]
    alt = "Loss rate per threat when it is in the mission, with 95 % Wilson intervals. " + "; ".join(
        items[:20]
    )
    lo, hi = (min(ns), max(ns)) if ns else (0, 0)
    caption = (
        "The threats behind the most losses (ranked by losses, every cell pooled): the share of the games "
        "holding the threat that it lost, with 95 % Wilson intervals; each point rests on the "
        f"{lo:,} to {hi:,} games the threat was drawn in."
        + (" Colour and marker show the crew." if len(names) > 1 else "")
    )
    return charts.save_chart(fig, ctx.out, f"{ctx.name}-sa-threats", "Threats behind losses", alt, caption)


# --- 3. damage by zone --------------------------------------------------------------------------


def _damage_section(ctx: AnalysisContext, cells: list[Cell]) -> GameSection | None:
    cols = [f"damage_{z}" for z in ZONES]
    games = ctx.dataset.games
    if not set(cols) <= set(games.columns) or games.height == 0:
        return None
    means = {(c.cell, z): _mean(c.games, f"damage_{z}") for c in cells for z in ZONES}
    rows = []
    for c in cells:
        total = c.games.select(sum(pl.col(k).cast(pl.Float64) for k in cols).alias("t"))
        t_iv = _mean(total, "t")
        row = [c.difficulty, c.crew, f"{c.games.height:,}"]
        for z in ZONES:
            iv = means[(c.cell, z)]
            row += [_num(iv.estimate), _ci_num(iv)]
        rows.append([*row, _num(t_iv.estimate), _ci_num(t_iv)])
    columns = ["difficulty", "crew", "games"]
    for z in ZONES:
        columns += [f"{z} tiles", "95 % CI"]
    columns += ["all zones", "95 % CI"]
    table = Table(
        "Mean damage tiles per zone and game (95 % Student t intervals); a lost game counts the tiles drawn "
        "until the loss.",
        columns,
        rows,
    )
    findings = []
    crews = list(dict.fromkeys(c.crew for c in cells))
    zone_texts = []
    zone_pairs = len(ZONES) * (len(ZONES) - 1) // 2
    for crew in crews:
        frame = pl.concat([c.games.select(cols) for c in cells if c.crew == crew])
        arr = {z: frame[f"damage_{z}"].cast(pl.Float64).to_numpy() for z in ZONES}
        mz = {z: float(arr[z].mean()) for z in ZONES}
        most = max(ZONES, key=lambda z: mz[z])
        least = min(ZONES, key=lambda z: mz[z])
        iv = stats.mean_interval(arr[most])
        text = (
            f"For the {crew} crew ({frame.height:,} games, every difficulty pooled), the {most} zone "
            f"takes the most damage: {_num(iv.estimate)} tiles a game (95 % CI {_ci_num(iv)})"
        )
        p = math.nan
        if most != least:
            d = stats.mean_interval(arr[most] - arr[least])
            # the most and least damaged zones were picked from every pair of zones
            p = min(1.0, stats.mean_p_value(arr[most] - arr[least]) * zone_pairs)
            text += (
                f", {_num(d.estimate)} more than the {least} zone (95 % CI {_ci_num(d)}{{verdict}}; "
                "paired within games)"
            )
        zone_texts.append((text, p))
    zone_family = stats.family([p for _, p in zone_texts])
    for (text, p), resolved in zip(zone_texts, zone_family.resolved, strict=True):
        if math.isnan(p):
            findings.append(text + ".")
            continue
        verdict = "" if resolved else ", not resolved"
        findings.append(
            text.replace("{verdict}", verdict)
            + f"; picked as the most and least damaged of {len(ZONES)} zones, so Bonferroni-adjusted over "
            f"their {zone_pairs} pairs, then {zone_family.text} (one per crew)."
        )
    lost = (
        games.filter(pl.col("end_reason") == "zone_destroyed")
        if "end_reason" in games.columns
        else games.clear()
    )
    if lost.height:
        full = lost.select([(pl.col(k) >= TILES_PER_ZONE).alias(z) for k, z in zip(cols, ZONES, strict=True)])
        only = {z: int(full.filter(pl.col(z) & (pl.sum_horizontal(ZONES) == 1)).height) for z in ZONES}
        ties = lost.height - sum(only.values())
        parts = []
        for z in ZONES:
            iv = stats.wilson(only[z], lost.height)
            parts.append(f"{z} {_pct(iv.estimate)} (95 % CI {_ci_pct(iv)})")
        findings.append(
            f"Of the {lost.height:,} games lost to a 7th damage tile (every cell pooled), the destroyed "
            "zone is "
            + ", ".join(parts)
            + (f"; {ties:,} had more than one full zone and are counted apart." if ties else ".")
        )
    paragraphs = [
        "Damage tiles drawn per zone (red, white, blue: 6 tiles each; a 7th destroys the ship). Each game "
        "counts once in its cell; findings pool the cells of a crew over the difficulties."
    ]
    return GameSection(
        "sa-damage",
        "Space Alert: damage by zone",
        findings=findings,
        paragraphs=paragraphs,
        charts=[_damage_chart(ctx, cells, means)],
        tables=[table],
    )


def _damage_chart(ctx: AnalysisContext, cells: Sequence[Cell], means: dict) -> charts.Chart:
    crews = list(dict.fromkeys(c.crew for c in cells))
    xs = list(dict.fromkeys(c.difficulty for c in cells))
    width = min(14.0, max(6.5, len(xs) * 0.7 + 3.0))
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(width, min(16.0, 2.6 * len(crews) + 1.6))
        axes = fig.subplots(len(crews), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
        for ax, crew in zip(axes, crews, strict=True):
            mine = {c.difficulty: c for c in cells if c.crew == crew}
            for zi, z in enumerate(ZONES):
                bars = [
                    (xi + (zi - 1) * 0.26, means[(mine[x].cell, z)])
                    for xi, x in enumerate(xs)
                    if x in mine and means[(mine[x].cell, z)].n > 0
                ]
                charts.interval_bars(
                    ax,
                    [x for x, _ in bars],
                    [iv for _, iv in bars],
                    0.26,
                    ZONE_COLOURS[zi],
                    f"{z} zone",
                )
            ax.set_ylabel("tiles a game")
            ax.set_title(f"crew: {crew}", loc="left", fontsize=9.5)
        _xticks(axes[-1], xs)
        axes[-1].set_xlabel("threat difficulty and mission (settings)")
        axes[0].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.suptitle(f"Damage by zone: {ctx.subject}", x=0.01, ha="left", fontweight="bold", fontsize=11)
    items = [
        f"{c.difficulty}, {c.crew}: "
        + ", ".join(f"{z} {_num(means[(c.cell, z)].estimate)}" for z in ZONES)
        + f" (n={c.games.height})"
        for c in cells
    ]
    alt = "Mean damage tiles per zone for each cell, with 95 % intervals. " + "; ".join(items[:16])
    caption = (
        "Mean damage tiles a game in the red, white and blue zones (bars: 95 % Student t intervals), one "
        f"panel per crew; {_n_text(c.games.height for c in cells)}."
    )
    return charts.save_chart(fig, ctx.out, f"{ctx.name}-sa-damage", "Damage by zone", alt, caption)


# --- 4. the transcribed missions ----------------------------------------------------------------


def _missions_section(ctx: AnalysisContext, cells: list[Cell], varied: list[str]) -> GameSection | None:
    mine = [c for c in cells if c.settings.get("mission") in TRANSCRIBED]
    if not mine:
        return None
    strategies = list(dict.fromkeys(c.settings.get("strategy", "") for c in mine))
    others = [k for k in varied if k not in ("mission", "strategy")]
    keys = list(mine[0].settings)
    findings: list[str] = []
    rows = []
    points: dict = {}
    order: list[str] = []
    for s in strategies:
        group = [c for c in mine if c.settings.get("strategy", "") == s]
        missions = list(dict.fromkeys(c.settings["mission"] for c in group))
        frames = {m: pl.concat([c.games for c in group if c.settings["mission"] == m]) for m in missions}
        surv = {m: _survival(frames[m]) for m in missions}
        score = {m: _mean(frames[m], "score") for m in missions}
        ranked = sorted(missions, key=lambda m: (surv[m].estimate, int(m)))
        if not order:
            order = ranked
        margins = [(k, v) for k in others for v in _values(group, k)]
        for rank, m in enumerate(ranked, 1):
            iv, sc = surv[m], score[m]
            row = [
                f"mission {m}",
                s,
                str(rank),
                f"{iv.n:,}",
                _pct(iv.estimate),
                _ci_pct(iv),
                _num(sc.estimate),
                _ci_num(sc),
            ]
            for k, v in margins:
                sub = _survival(frames[m].filter(pl.col(k).cast(pl.String) == v))
                row.append(f"{_pct(sub.estimate)} ({_ci_pct(sub)}; n={sub.n:,})")
            rows.append(row)
            points[(m, s)] = iv
        who = f"the {s} crew" if s else "the crew"
        over = f", pooled over {', '.join(others)}" if others else ""
        if len(ranked) >= 2:
            hard, easy = ranked[0], ranked[-1]
            p = _paired(group, "mission", hard, easy, keys)
            text = (
                f"For {who}{over}, the hardest transcribed mission is mission {hard}: survival "
                f"{_pct(surv[hard].estimate)} (95 % CI {_ci_pct(surv[hard])}; {surv[hard].n:,} games); "
                f"the easiest is mission {easy}: {_pct(surv[easy].estimate)} (95 % CI {_ci_pct(surv[easy])}; "
                f"{surv[easy].n:,} games)"
            )
            if p is not None:
                w = p.wins
                # hardest and easiest were picked from every pair of the missions
                picked_from = len(ranked) * (len(ranked) - 1) // 2
                adjusted = min(1.0, w.p_value * picked_from)
                verdict = "" if adjusted < stats.ALPHA else "; not resolved"
                text += (
                    f"; the gap is {_pp(w.difference)} points "
                    f"(95 % CI {_pp(w.low)} to {_pp(w.high)}{verdict}; {w.n:,} pairs of games, "
                    f"paired by seed; picked as the extremes of {len(ranked)} missions, so "
                    f"Bonferroni-adjusted over their {picked_from} pairs)"
                )
            findings.append(text + ".")
            steps = [_paired(group, "mission", a, b, keys) for a, b in zip(ranked, ranked[1:], strict=False)]
            steps = [p for p in steps if p is not None]
            step_family = stats.family([p.wins.p_value for p in steps])
            resolved = int(step_family.resolved.sum())
            pairs = sorted({p.wins.n for p in steps})
            if steps:
                findings.append(
                    f"For {who}, {resolved} of the {len(steps)} steps between neighbouring ranks are "
                    f"resolved (the paired 95 % CI of their survival difference, judged after "
                    f"{step_family.text}; "
                    f"{pairs[0]:,}{'' if len(pairs) == 1 else f' to {pairs[-1]:,}'} pairs of games a step); "
                    "the others could swap with more games."
                )
        else:
            m = ranked[0]
            findings.append(
                f"For {who}, mission {m} is survived in {_pct(surv[m].estimate)} of games (95 % CI "
                f"{_ci_pct(surv[m])}; {surv[m].n:,} games)."
            )
    margin_cols = []
    if mine:
        margin_cols = [f"survival at {k}={v}" for k in others for v in _values(mine, k)]
    table = Table(
        "The transcribed missions ranked from hardest to easiest by survival (95 % Wilson interval; "
        "mean score with its 95 % Student t interval; survival at each value of the other settings).",
        ["mission", "crew", "rank", "games", "survival", "95 % CI", "mean score", "95 % CI", *margin_cols],
        rows,
    )
    chart = _missions_chart(ctx, order, strategies, points)
    return GameSection(
        "sa-missions",
        "Space Alert: the transcribed missions ranked by difficulty",
        findings=findings,
        paragraphs=[
            "Missions 1-8 as transcribed (threat cards drawn from the chosen decks on the mission's fixed "
            "turns and zones). Rank 1 is the hardest (lowest survival). Neighbouring missions are compared "
            "as pairs of games played on the same seeds."
        ],
        charts=[chart],
        tables=[table],
    )


def _missions_chart(
    ctx: AnalysisContext, order: list[str], strategies: list[str], points: dict
) -> charts.Chart:
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(8.0, max(3.2, 0.4 * len(order) + 1.6))
        ax = fig.add_subplot()
        charts.grouped_interval_dots(
            ax, order, strategies, points, 100.0, band=0.6, horizontal=True, suffix=" crew"
        )
        ax.set_yticks(range(len(order)), [f"mission {m}" for m in order])
        ax.invert_yaxis()
        top = max((100 * iv.high for iv in points.values() if not math.isnan(iv.high)), default=100.0)
        ax.set_xlim(-1, min(101, max(10.0, top * 1.1)))
        ax.set_xlabel("survival (% of games)")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"Transcribed missions, hardest first: {ctx.subject}", loc="left")
        if len(strategies) > 1:
            ax.legend(title="crew", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    items = [
        f"mission {m} ({s}): {_pct(iv.estimate)} (95 % CI {_ci_pct(iv)}, {iv.n} games)"
        for (m, s), iv in points.items()
    ]
    alt = "Survival of each transcribed mission, hardest first, with 95 % Wilson intervals. " + "; ".join(
        items
    )
    caption = (
        "Share of games survived per transcribed mission, hardest at the top (bars: 95 % Wilson intervals), "
        f"every other setting pooled; {_n_text(iv.n for iv in points.values())}".replace(
            "per cell", "per mission"
        )
        + "."
    )
    return charts.save_chart(
        fig, ctx.out, f"{ctx.name}-sa-missions", "Transcribed missions ranked", alt, caption
    )


# --- the hook -----------------------------------------------------------------------------------


def sections(ctx: AnalysisContext) -> list[GameSection]:
    games = ctx.dataset.games
    if games.height == 0 or not {"cell", "won", "score"} <= set(games.columns):
        return []
    cells, varied = _cells(ctx)
    if not cells:
        return []
    out = [_survival_section(ctx, cells, varied)]
    for build in (
        lambda: _threat_section(ctx, cells),
        lambda: _damage_section(ctx, cells),
        lambda: _missions_section(ctx, cells, varied),
    ):
        section = build()
        if section is not None:
            out.append(section)
    return out
