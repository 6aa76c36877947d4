"""Oh no... INVASION!!!'s own report sections (issue 4 point 5).

1. Win rate by level x player count x crew, with 95 % Wilson intervals (chart and table), and
   paired comparisons by seed between levels, player counts and crews.
2. Why games are lost: the outcome of each game by level and crew (the Spawnmonster destroyed,
   eight shields complete, the crew eliminated before or during the Final Conflict) and the
   players eliminated per game by cause (Invaliens, sabotage, kamikaze; level 0's setbacks).
3. The Final Conflict threshold sweep (only when the dataset varies `final_conflict`): win rate
   against the threshold per level with interval bands, the best threshold per level and crew
   with its interval, and whether it is resolved against its neighbouring thresholds (paired by
   seed: game i deals the same decks at every threshold, level, player count and crew).
4. The score distribution (points per survivor x survivors; 0 when the crew loses).

Everything is read from the games table (RULES.md, "Records"); nothing calls the engine. The
settings come from the games columns `level`, `players`, `strategy`, `final_conflict` (a column
the dataset lacks counts as one value). When the threshold varies, sections 1, 2 and 4 use only
the games at the default threshold (or the middle swept value if the default was not played), so
that they do not average over thresholds; section 3 covers the sweep.

Pairs: two cells are compared on the games with the same game_index and the same value of every
other setting (so a level comparison pooled over player counts pairs game i at 3 players with
game i at 3 players, and so on).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib
import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.games.oh_no_invasion import DEFAULT_THRESHOLD, LEVEL
from simkit.reporting import charts
from simkit.reporting.sections import AnalysisContext, GameSection, Table, point_decimals
from simkit.reporting.text import count_range as _counts
from simkit.reporting.text import fmt_interval as _interval
from simkit.reporting.text import pct as _pct
from simkit.reporting.text import points as _pp

SETTINGS = ("level", "players", "strategy", "final_conflict", "data")
DIMENSIONS = ("level", "players", "strategy")  # the win-rate grid
WON = "won (Spawnmonster destroyed)"
SHIELDS = "lost: eight shields complete"
ELIM_BEFORE = "lost: crew eliminated before the Final Conflict"
ELIM_DURING = "lost: crew eliminated in the Final Conflict"
ELIM = "lost: crew eliminated"
OUTCOME_ORDER = (WON, SHIELDS, ELIM_BEFORE, ELIM_DURING, ELIM)
CAUSE_TEXT = {
    "eliminated_kamikaze": "players to kamikazes",
    "eliminated_invaliens": "to the Invaliens' attack orders",
    "eliminated_sabotage": "to sabotage",
    "setbacks_level0": "setbacks (level 0: the player stays in)",
}
CAUSES = (
    ("eliminated_kamikaze", "kamikaze (Final Conflict)"),
    ("eliminated_invaliens", "Invaliens' attack order"),
    ("eliminated_sabotage", "sabotage (no module left)"),
    ("setbacks_level0", "level 0 setback (stays in)"),
)


# --- preparing the games table --------------------------------------------------------------------


def _prepare(games: pl.DataFrame) -> pl.DataFrame:
    """The games with typed columns; a setting column the dataset lacks becomes one constant."""
    fill = {
        "level": pl.lit(-1, pl.Int64),
        "players": pl.lit(-1, pl.Int64),
        "strategy": pl.lit("crew"),
        "final_conflict": pl.lit(float("nan")),
        "data": pl.lit(""),
    }
    cols = [fill[c].alias(c) for c in SETTINGS if c not in games.columns]
    g = games.with_columns(cols) if cols else games
    return g.with_columns(
        pl.col("level").cast(pl.Int64).fill_null(-1),
        pl.col("players").cast(pl.Int64).fill_null(-1),
        pl.col("strategy").cast(pl.String).fill_null(""),
        pl.col("final_conflict").cast(pl.Float64).fill_null(float("nan")),
        pl.col("data").cast(pl.String).fill_null(""),
        pl.col("won").cast(pl.Boolean),
        pl.col("score").cast(pl.Float64),
    )


def _values(g: pl.DataFrame, col: str) -> list:
    return sorted(g[col].unique().to_list())


def _varies(g: pl.DataFrame, col: str) -> bool:
    return g[col].n_unique() > 1


def _base(g: pl.DataFrame) -> tuple[pl.DataFrame, str, float | None]:
    """The games at one threshold (the default if played) when the threshold varies."""
    if not _varies(g, "final_conflict"):
        return g, "", None
    values = [v for v in _values(g, "final_conflict") if not math.isnan(v)]
    chosen = DEFAULT_THRESHOLD if DEFAULT_THRESHOLD in values else values[len(values) // 2]
    note = (
        f"This dataset sweeps the Final Conflict threshold; this section uses only the games at "
        f"threshold {_num(chosen)} ({'the default' if chosen == DEFAULT_THRESHOLD else 'the middle value'}"
        "), so that it does not average over thresholds. The sweep has its own section."
    )
    return g.filter(pl.col("final_conflict") == chosen), note, chosen


# --- text -----------------------------------------------------------------------------------------


def _num(x: float) -> str:
    return f"{x:g}"


def _ci(iv: stats.Interval, pct: bool = True) -> str:
    return _interval(iv.low, iv.high, pct=pct, none="n/a")


def _level(v: int) -> str:
    return f"level {v}" if v >= 0 else "the level played"


def _crew(s: str) -> str:
    return f"the {s} crew"


def _players(p: int) -> str:
    return f"{p} players" if p >= 0 else "the crew size played"


def _resolved(low: float, high: float) -> bool:
    return low > 0 or high < 0


def _win_diff(
    b: str, a: str, d: stats.PairedDifference, extra: str = "", resolved: bool = False, family: str = ""
) -> str:
    """'Games at B are won 3.1 points more often than at A (95 % CI ...; n games each, paired by
    seed)': `b` names games ("games at level 3"), `a` the other cell ("at level 1")."""
    digits = point_decimals(d.difference, d.low, d.high)
    if d.difference == 0:
        head = f"{b} are won as often as {a}"
    else:
        word = "more" if d.difference > 0 else "less"
        head = f"{b} are won {100 * abs(d.difference):.{digits}f} percentage points {word} often than {a}"
    lo, hi = (d.low, d.high) if d.difference >= 0 else (-d.high, -d.low)
    tail = (
        f" (95 % CI {100 * lo:.{digits}f} to {100 * hi:.{digits}f} points; {d.n:,} games each, "
        f"paired by seed{extra})"
    )
    tail += f": {'resolved' if resolved else 'not resolved'} after {family}" if family else ""
    return head + tail + "."


def _score_diff(b: str, a: str, iv: stats.Interval, extra: str = "", resolved: bool | None = None) -> str:
    if iv.estimate == 0:
        head = f"{b} scores as much as {a}"
    else:
        word = "more" if iv.estimate > 0 else "fewer"
        head = f"{b} scores {abs(iv.estimate):.2f} points a game {word} than {a}"
    lo, hi = (iv.low, iv.high) if iv.estimate >= 0 else (-iv.high, -iv.low)
    tail = f" (95 % CI {lo:.2f} to {hi:.2f}; {iv.n:,} games each, paired by seed{extra})"
    if resolved is None:
        resolved = not math.isnan(iv.low) and _resolved(iv.low, iv.high)
    if not resolved:
        tail += ": not resolved"
    return head + tail + "."


# --- pairs ----------------------------------------------------------------------------------------


def _pairs(g: pl.DataFrame, key: str, a: object, b: object) -> pl.DataFrame:
    """Games of setting `key` = a joined with those at b on game_index and every other setting."""
    on = [c for c in SETTINGS if c != key] + ["game_index"]
    cols = [*on, "won", "score"]
    left = g.filter(pl.col(key) == a).select(cols)
    right = g.filter(pl.col(key) == b).select(cols)
    # NaN never equals NaN in a join key: the threshold is compared as text
    if key != "final_conflict":
        left = left.with_columns(pl.col("final_conflict").cast(pl.String))
        right = right.with_columns(pl.col("final_conflict").cast(pl.String))
    return left.join(right, on=on, suffix="_b").drop_nulls(["won", "won_b"])


def _paired_win(g: pl.DataFrame, key: str, a: object, b: object) -> stats.PairedDifference | None:
    j = _pairs(g, key, a, b)
    if j.height == 0:
        return None
    return stats.paired_difference(j["won"].to_numpy(), j["won_b"].to_numpy())


def _paired_score(g: pl.DataFrame, key: str, a: object, b: object) -> tuple[stats.Interval, float] | None:
    """B's score minus A's, paired by seed: the paired t interval and its test's p-value."""
    j = _pairs(g, key, a, b).drop_nulls(["score", "score_b"])
    if j.height < 2:
        return None
    a_score, b_score = j["score"].to_numpy(), j["score_b"].to_numpy()
    return paired_scores(a_score, b_score)[0], stats.mean_p_value(b_score - a_score)


def _pooled_over(g: pl.DataFrame, fixed: Sequence[str]) -> str:
    """', pooled over 3 to 5 players' when a setting not held fixed varies."""
    parts = []
    if "players" not in fixed and _varies(g, "players"):
        ps = _values(g, "players")
        parts.append(f"{ps[0]} to {ps[-1]} players")
    if "level" not in fixed and _varies(g, "level"):
        ls = _values(g, "level")
        parts.append(f"levels {ls[0]} to {ls[-1]}")
    return f", pooled over {' and '.join(parts)}" if parts else ""


# --- chart helpers --------------------------------------------------------------------------------


def _n_range(ns: Sequence[int]) -> str:
    return _counts(ns, "games per point")


def _panels(n: int, width_each: float, height: float, sharey: bool = True):
    cols = min(n, 4)
    rows = math.ceil(n / cols)
    fig = charts.new_figure(min(14.0, 1.2 + width_each * cols), height * rows)
    axes = fig.subplots(rows, cols, sharey=sharey, squeeze=False).ravel().tolist()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes[:n]


# --- 1. win rate by level x players x crew ---------------------------------------------------------


def _cells(g: pl.DataFrame, keys: Sequence[str]) -> list[dict]:
    agg = (
        g.filter(pl.col("won").is_not_null())
        .group_by(*keys)
        .agg(n=pl.len(), wins=pl.col("won").sum())
        .sort(*keys)
    )
    rows = agg.to_dicts()
    for r in rows:
        r["w"] = stats.wilson(int(r["wins"]), int(r["n"]))
    return rows


def _win_section(ctx: AnalysisContext, g: pl.DataFrame, note: str) -> GameSection | None:
    cells = _cells(g, DIMENSIONS)
    if not cells:
        return None
    crews = _values(g, "strategy")
    levels = _values(g, "level")
    counts = _values(g, "players")
    with matplotlib.rc_context(charts.STYLE):
        fig, axes = _panels(len(crews), 3.4, 3.8)
        for ax, crew in zip(axes, crews, strict=True):
            for pi, p in enumerate(counts):
                mine = [c for c in cells if c["strategy"] == crew and c["players"] == p]
                if not mine:
                    continue
                off = charts.dodge(pi, len(counts), 0.6)
                charts.interval_dots(
                    ax,
                    [levels.index(c["level"]) + off for c in mine],
                    [c["w"].estimate for c in mine],
                    [c["w"].low for c in mine],
                    [c["w"].high for c in mine],
                    group=pi,
                    label=_players(p),
                    scale=100,
                    joined=True,
                )
            ax.set_xticks(range(len(levels)), [str(v) if v >= 0 else "-" for v in levels])
            ax.set_xlim(-0.5, len(levels) - 0.5)
            ax.set_xlabel("level")
            ax.set_title(f"{crew} crew", loc="left", fontsize=10)
            ax.grid(axis="x", visible=False)
        axes[0].set_ylabel("win rate (%)")
        top = max(c["w"].high for c in cells)
        axes[0].set_ylim(-1, min(100.0, max(5.0, math.ceil(top * 100 * 1.1 / 5) * 5)))
        axes[-1].legend(title="crew size", loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.suptitle(
            f"Win rate by level, crew size and crew: {ctx.subject}", x=0.01, ha="left", weight="bold"
        )
    items = [
        f"level {c['level']}, {c['players']} players, {c['strategy']}: {_pct(c['w'].estimate)} "
        f"(95 % CI {_ci(c['w'])}, {c['wins']} of {c['n']} games)"
        for c in cells
    ]
    chart = charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-ohno-win-grid",
        "Win rate by level, crew size and crew",
        "Win rate by level, crew size and crew, with 95 % Wilson intervals. " + "; ".join(items[:24]),
        "Share of games won, one panel per crew, level on the x axis, one marker per crew size; bars are "
        f"95 % Wilson intervals; {_n_range([c['n'] for c in cells])}.",
    )
    table = Table(
        "Win rate per level, crew size and crew (95 % Wilson intervals)",
        ["level", "players", "crew", "games", "wins", "win rate", "95 % CI"],
        [
            [
                str(c["level"]),
                str(c["players"]),
                c["strategy"],
                f"{c['n']:,}",
                f"{c['wins']:,}",
                _pct(c["w"].estimate),
                _ci(c["w"]),
            ]
            for c in cells
        ],
    )
    findings, comp_rows = _win_findings(g, cells, crews, levels, counts)
    tables = [table]
    if comp_rows:
        tables.append(
            Table(
                "Paired comparisons (B minus A, percentage points; game i of A and B share the deal)",
                ["comparison", "crew", "games paired", "B - A", "95 % CI", "resolved"],
                comp_rows,
            )
        )
    paragraphs = [
        "Each point is one cell of the grid: a level, a crew size and a crew. Cells share seeds, so "
        "game i deals the same decks in every cell and two cells are compared game by game (paired "
        "by seed). A difference is resolved only after the Holm adjustment over every comparison of this "
        "section (table and findings together; the findings name the family's size), so that the "
        "chance of any false resolved among them is at most 5 %."
    ]
    if 0 in levels and 1 in levels:
        paragraphs.append(
            f"Level {LEVEL.label(0)} differs from level 1 in three rules (RULES.md, Levels): open "
            "hands, a Teleporter partner may strike for the active player, and an Invalien "
            "elimination is a setback (the player discards hand, extra modules and aliens, keeps the "
            "Hub and stays in). The scripted crews already share hand knowledge at levels 0 to 2, so "
            "open hands give them nothing; a player set back stays in without cards or modules, takes "
            "Spawn cards and faces kamikazes, where at level 1 that player and their station are gone. "
            "So level 0 need not be won more often than level 1: the paired comparison says whether it is."
        )
    if note:
        paragraphs.append(note)
    return GameSection(
        "ohno-win-grid",
        "Win rate by level, crew size and crew",
        findings=findings,
        paragraphs=paragraphs,
        charts=[chart],
        tables=tables,
    )


def _comp_row(what: str, crew: str, d: stats.PairedDifference, resolved: bool) -> list[str]:
    return [
        what,
        crew,
        f"{d.n:,}",
        _pp(d.difference),
        f"{_pp(d.low)} to {_pp(d.high)}",
        "yes" if resolved else "no",
    ]


def _win_findings(
    g: pl.DataFrame, cells: list[dict], crews: list, levels: list, counts: list
) -> tuple[list[str], list[list[str]]]:
    """The section's findings and its table of paired comparisons. Every comparison made here (table
    rows and findings alike) is one family: resolved means after Holm over all of them. The crews
    are compared with the one that won most, picked from every pair of crews, so those p-values
    enter Bonferroni-multiplied by (pairs of crews) / (comparisons made)."""
    findings: list[str] = []
    if len(cells) > 1:
        best = max(cells, key=lambda c: (c["w"].estimate, -c["level"]))
        worst = min(cells, key=lambda c: (c["w"].estimate, c["level"]))
        for word, c in (("highest", best), ("lowest", worst)):
            findings.append(
                f"The {word} win rate is {_pct(c['w'].estimate)} ({_level(c['level'])}, "
                f"{_players(c['players'])}, {c['strategy']} crew; 95 % CI {_ci(c['w'])}, "
                f"{c['n']:,} games)."
            )
    # (key, d, p for the family, how to write it: ("row", what, crew) or ("finding", text parts))
    members: dict[tuple, tuple[stats.PairedDifference, float]] = {}
    plan: list[tuple] = []  # in page order: ("finding", index into `findings`, ...) or ("row", ...)

    def member(key: tuple, d: stats.PairedDifference, weight: float = 1.0) -> tuple:
        members.setdefault(key, (d, min(1.0, d.p_value * weight)))
        return key

    for crew in crews:
        mine = g.filter(pl.col("strategy") == crew)
        total = [c for c in cells if c["strategy"] == crew]
        n, wins = sum(c["n"] for c in total), sum(c["wins"] for c in total)
        if n and wins == 0:
            w = stats.wilson(0, n)
            findings.append(
                f"{_crew(crew).capitalize()} won none of its {n:,} games (95 % CI 0.0 to "
                f"{100 * w.high:.1f} %)."
            )
            continue
        pooled = _pooled_over(mine, ("level",))
        # level steps: each adjacent pair in the table, the headline 1 -> 3 in the findings
        for a, b in zip(levels, levels[1:], strict=False):
            d = _paired_win(mine, "level", a, b)
            if d is not None:
                plan.append(
                    ("row", member(("level", crew, a, b), d), f"level {b} vs level {a}{pooled}", crew)
                )
        if 1 in levels and 3 in levels:
            pairs = [(1, 3)] + ([(0, 1)] if 0 in levels else [])
        elif len(levels) > 1:
            pairs = [(levels[0], levels[-1])]
        else:
            pairs = []
        for a, b in pairs:
            d = _paired_win(mine, "level", a, b)
            if d is not None:
                key = member(("level", crew, a, b), d)
                findings.append("")
                plan.append(
                    ("finding", key, len(findings) - 1, f"For {_crew(crew)}, ",
                     (f"games at {_level(b)}", f"at {_level(a)}", pooled))
                )  # fmt: skip
        if len(counts) > 1:
            a, b = counts[0], counts[-1]
            d = _paired_win(mine, "players", a, b)
            if d is not None:
                extra = _pooled_over(mine, ("players",))
                key = member(("players", crew, a, b), d)
                plan.append(("row", key, f"{b} players vs {a} players{extra}", crew))
                findings.append("")
                plan.append(
                    ("finding", key, len(findings) - 1, f"For {_crew(crew)}, ",
                     (f"games with {_players(b)}", f"with {_players(a)}", extra))
                )  # fmt: skip
    if len(crews) > 1:
        rate = {
            crew: sum(c["wins"] for c in cells if c["strategy"] == crew)
            / max(1, sum(c["n"] for c in cells if c["strategy"] == crew))
            for crew in crews
        }
        top = max(crews, key=lambda c: rate[c])
        extra = _pooled_over(g, ("strategy",)) + f"; {_crew(top)} picked as the crew that won most"
        for crew in crews:
            if crew == top:
                continue
            d = _paired_win(g, "strategy", crew, top)
            if d is not None:
                key = member(("strategy", crew, top), d, len(crews) / 2)  # pairs / comparisons
                plan.append(("row", key, f"{top} crew vs {crew} crew{extra}", "-"))
                findings.append("")
                plan.append(
                    ("finding", key, len(findings) - 1, "",
                     (f"Games played by {_crew(top)}", f"by {_crew(crew)}", extra))
                )  # fmt: skip
    keys = list(members)
    family = stats.family([members[k][1] for k in keys])
    resolved = dict(zip(keys, family.resolved, strict=True))
    rows: list[list[str]] = []
    for item in plan:
        d = members[item[1]][0]
        if item[0] == "row":
            rows.append(_comp_row(item[2], item[3], d, bool(resolved[item[1]])))
        else:
            _, key, index, lead, (b, a, extra) = item
            findings[index] = lead + _win_diff(b, a, d, extra, bool(resolved[key]), family.text)
    return findings, rows


# --- 2. why games are lost ------------------------------------------------------------------------


def _outcomes(g: pl.DataFrame) -> pl.DataFrame:
    reason = pl.col("end_reason").cast(pl.String).fill_null("(none)")
    split = "final_conflict_called" in g.columns
    called = pl.col("final_conflict_called").cast(pl.Boolean).fill_null(False) if split else pl.lit(False)
    outcome = (
        pl.when(pl.col("won") & (reason == "spawnmonster_destroyed"))
        .then(pl.lit(WON))
        .when(pl.col("won"))
        .then(pl.lit("won: ") + reason)
        .when(reason == "shields_complete")
        .then(pl.lit(SHIELDS))
        .when((reason == "crew_eliminated") & pl.lit(split) & called)
        .then(pl.lit(ELIM_DURING))
        .when((reason == "crew_eliminated") & pl.lit(split))
        .then(pl.lit(ELIM_BEFORE))
        .when(reason == "crew_eliminated")
        .then(pl.lit(ELIM))
        .otherwise(pl.lit("lost: ") + reason)
    )
    return g.filter(pl.col("won").is_not_null()).with_columns(outcome.alias("outcome"))


def _loss_section(ctx: AnalysisContext, g: pl.DataFrame, note: str) -> GameSection | None:
    g = _outcomes(g)
    if g.height == 0:
        return None
    keys = ("level", "strategy")
    present = g["outcome"].unique().to_list()
    outcomes = [o for o in OUTCOME_ORDER if o in present] + sorted(set(present) - set(OUTCOME_ORDER))
    counts = g.group_by(*keys, "outcome").len("k")
    k_of = {(r["level"], r["strategy"], r["outcome"]): int(r["k"]) for r in counts.iter_rows(named=True)}
    totals = g.group_by(*keys).len("n").sort(*keys).to_dicts()
    crews, levels = _values(g, "strategy"), _values(g, "level")
    causes = [(c, label) for c, label in CAUSES if c in g.columns]
    if "setbacks_level0" in g.columns and g["setbacks_level0"].sum() == 0:
        causes = [(c, label) for c, label in causes if c != "setbacks_level0"]
    elim: dict[tuple, dict[str, stats.Interval]] = {}
    if causes:
        parts = g.partition_by(*keys, as_dict=True)
        for key, part in parts.items():
            elim[key] = {
                c: stats.mean_interval(part[c].cast(pl.Float64).drop_nulls().to_numpy()) for c, _ in causes
            }

    charts_out = []
    with matplotlib.rc_context(charts.STYLE):
        fig, axes = _panels(len(crews), 3.0, 3.6)
        for ax, crew in zip(axes, crews, strict=True):
            bottom = [0.0] * len(levels)
            for oi, o in enumerate(outcomes):
                shares = []
                for lv in levels:
                    n = next((t["n"] for t in totals if t["level"] == lv and t["strategy"] == crew), 0)
                    shares.append(100 * k_of.get((lv, crew, o), 0) / n if n else 0.0)
                ax.bar(
                    range(len(levels)),
                    shares,
                    bottom=bottom,
                    color=charts.colour(oi),
                    edgecolor="white",
                    width=0.7,
                    label=o if crew == crews[0] else None,
                )
                bottom = [a + b for a, b in zip(bottom, shares, strict=True)]
            ax.set_xticks(range(len(levels)), [str(v) if v >= 0 else "-" for v in levels])
            ax.set_xlabel("level")
            ax.set_ylim(0, 100)
            ax.set_title(f"{crew} crew", loc="left", fontsize=10)
            ax.grid(axis="x", visible=False)
        axes[0].set_ylabel("share of games (%)")
        fig.legend(title="outcome", loc="outside lower center", ncols=2, fontsize=8)
        fig.suptitle(f"How games end, by level and crew: {ctx.subject}", x=0.01, ha="left", weight="bold")
    items = []
    for t in totals:
        shares = ", ".join(
            f"{o} {_pct(k_of.get((t['level'], t['strategy'], o), 0) / t['n'])}" for o in outcomes
        )
        items.append(f"level {t['level']}, {t['strategy']} (n={t['n']}): {shares}")
    charts_out.append(
        charts.save_chart(
            fig,
            ctx.out,
            f"{ctx.name}-ohno-outcomes",
            "How games end, by level and crew",
            "Share of games per outcome, by level and crew. " + "; ".join(items[:24]),
            "Share of games per outcome, one panel per crew, one stacked bar per level (pooled over the "
            "crew sizes played); the table below gives each share with its 95 % Wilson interval; "
            f"{_n_range([t['n'] for t in totals]).replace('point', 'bar')}.",
        )
    )
    if causes:
        with matplotlib.rc_context(charts.STYLE):
            fig, axes = _panels(len(crews), 3.0, 3.6)
            width = 0.8 / len(causes)
            for ax, crew in zip(axes, crews, strict=True):
                for ci, (c, label) in enumerate(causes):
                    bars = [
                        (li + charts.dodge(ci, len(causes), 0.8), elim[(lv, crew)][c])
                        for li, lv in enumerate(levels)
                        if elim.get((lv, crew), {}).get(c) is not None and elim[(lv, crew)][c].n > 0
                    ]
                    charts.interval_bars(
                        ax,
                        [x for x, _ in bars],
                        [iv for _, iv in bars],
                        width,
                        charts.colour(ci),
                        label if crew == crews[0] else None,
                    )
                ax.set_xticks(range(len(levels)), [str(v) if v >= 0 else "-" for v in levels])
                ax.set_xlabel("level")
                ax.set_title(f"{crew} crew", loc="left", fontsize=10)
                ax.grid(axis="x", visible=False)
            axes[0].set_ylabel("players eliminated per game")
            fig.legend(title="cause", loc="outside lower center", ncols=2, fontsize=8)
            fig.suptitle(
                f"Players eliminated per game, by cause: {ctx.subject}", x=0.01, ha="left", weight="bold"
            )
        items = [
            f"level {lv}, {crew}: " + ", ".join(f"{label} {iv[c].estimate:.2f}" for c, label in causes)
            for (lv, crew), iv in sorted(elim.items())
        ]
        charts_out.append(
            charts.save_chart(
                fig,
                ctx.out,
                f"{ctx.name}-ohno-eliminations",
                "Players eliminated per game, by cause",
                "Mean players eliminated per game by cause, by level and crew. " + "; ".join(items[:24]),
                "Mean number of players eliminated per game by each cause, one panel per crew, bars by "
                "level; whiskers are 95 % Student t intervals of the mean; a level 0 setback is the "
                "Invalien order that would eliminate at other levels (the player stays in); "
                f"{_n_range([t['n'] for t in totals]).replace('point', 'bar group')}.",
            )
        )

    rows = []
    for t in totals:
        lv, crew, n = t["level"], t["strategy"], t["n"]
        lost = (
            n
            - k_of.get((lv, crew, WON), 0)
            - sum(k_of.get((lv, crew, o), 0) for o in outcomes if o.startswith("won:"))
        )
        row = [str(lv), crew, f"{n:,}", f"{_pct(lost / n)} ({_ci(stats.wilson(lost, n))})"]
        for o in outcomes:
            if o == WON or o.startswith("won:"):
                continue
            k = k_of.get((lv, crew, o), 0)
            row.append(f"{_pct(k / n)} ({_ci(stats.wilson(k, n))})")
        for c, _ in causes:
            iv = elim[(lv, crew)][c]
            row.append(f"{iv.estimate:.2f} ({_ci(iv, pct=False)})")
        rows.append(row)
    loss_names = [o for o in outcomes if o != WON and not o.startswith("won:")]
    table = Table(
        "Losses by level and crew: share of games (95 % Wilson interval) and players eliminated per "
        "game by cause (95 % t interval)",
        ["level", "crew", "games", "lost"]
        + [o.removeprefix("lost: ") for o in loss_names]
        + [f"eliminated per game: {label}" for _, label in causes],
        rows,
    )
    findings = _loss_findings(g, totals, k_of, loss_names, elim, causes, crews, levels)
    paragraphs = [
        "A game is lost when the eighth Shield alien reaches the Spawnmonster or when every player "
        "is eliminated; the crew-eliminated losses are split by whether the Final Conflict had been "
        "called. Eliminations count players: by the Invaliens' attack order (threshold reached), by "
        "sabotage (level 2 and up: the last module destroyed) and by an uncountered kamikaze in the "
        "Final Conflict. At level 0 an Invalien elimination is a setback and the player stays in."
    ]
    if note:
        paragraphs.append(note)
    return GameSection(
        "ohno-losses",
        "Why games are lost",
        findings=findings,
        paragraphs=paragraphs,
        charts=charts_out,
        tables=[table],
    )


def _loss_findings(g, totals, k_of, loss_names, elim, causes, crews, levels) -> list[str]:
    findings = []
    for crew in crews:
        tops = []  # (level, outcome, k, n) per level
        for t in (t for t in totals if t["strategy"] == crew):
            lv, n = t["level"], t["n"]
            if not loss_names:
                continue
            top = max(loss_names, key=lambda o: k_of.get((lv, crew, o), 0))
            if k_of.get((lv, crew, top), 0):
                tops.append((lv, top, k_of[(lv, crew, top)], n))
        if tops:

            def share(lv, k, n):
                w = stats.wilson(k, n)
                return f"{_pct(w.estimate)} of games at {_level(lv)} (95 % CI {_ci(w)}, {n:,} games)"

            names = {o for _, o, _, _ in tops}
            if len(names) == 1:
                what = next(iter(names)).removeprefix("lost: ")
                where = "at every level" if len(tops) > 1 else f"at {_level(tops[0][0])}"
                findings.append(
                    f"{_crew(crew).capitalize()} most often loses with the {what} {where}: "
                    + "; ".join(share(lv, k, n) for lv, _, k, n in tops)
                    + "."
                )
            else:
                findings.append(
                    f"{_crew(crew).capitalize()} most often loses with: "
                    + "; ".join(f"the {o.removeprefix('lost: ')}, {share(lv, k, n)}" for lv, o, k, n in tops)
                    + "."
                )
        if causes:
            lv = levels[-1]
            iv = elim.get((lv, crew))
            if iv:
                n = next(iter(iv.values())).n
                text = ", ".join(
                    f"{iv[c].estimate:.2f} {CAUSE_TEXT[c]} (95 % CI {_ci(iv[c], pct=False)})"
                    for c, _ in causes
                    if iv[c].estimate > 0
                )
                if text:
                    findings.append(f"At {_level(lv)}, {_crew(crew)} loses per game {text}; {n:,} games.")
    return findings


# --- 3. the Final Conflict threshold sweep --------------------------------------------------------


def _threshold_section(ctx: AnalysisContext, g: pl.DataFrame) -> GameSection | None:
    g = g.filter(pl.col("won").is_not_null() & pl.col("final_conflict").is_not_nan())
    if g.height == 0 or g["final_conflict"].n_unique() < 2:
        return None
    keys = ["level", "strategy", "players"]
    cells = _cells(g, [*keys, "final_conflict"])
    groups = list(dict.fromkeys((c["level"], c["strategy"], c["players"]) for c in cells))
    levels = _values(g, "level")
    series = list(dict.fromkeys((c["strategy"], c["players"]) for c in cells))
    show_players = _varies(g, "players")

    def series_label(crew: str, p: int) -> str:
        return f"{crew}, {p} players" if show_players else crew

    best_rows, findings, sweeps = [], [], []
    best_of: dict[tuple, dict] = {}
    for grp in groups:
        lv, crew, p = grp
        mine = [c for c in cells if (c["level"], c["strategy"], c["players"]) == grp]
        ts = [c["final_conflict"] for c in mine]
        if len(ts) < 2:
            continue
        best = max(mine, key=lambda c: (c["w"].estimate, -c["final_conflict"]))
        best_of[grp] = best
        sub = g.filter((pl.col("level") == lv) & (pl.col("strategy") == crew) & (pl.col("players") == p))
        against = {
            t: _paired_win(sub, "final_conflict", t, best["final_conflict"])
            for t in ts
            if t != best["final_conflict"]
        }
        sweeps.append((grp, ts, best, against))
    # every threshold against its group's best is one family (Holm); the best was picked from every
    # pair of thresholds, so each p-value enters multiplied by (pairs) / (comparisons) = T / 2
    compared = [
        (i, t) for i, (_, ts, _, against) in enumerate(sweeps) for t in against if against[t] is not None
    ]
    family = stats.family([min(1.0, sweeps[i][3][t].p_value * len(sweeps[i][1]) / 2) for i, t in compared])
    apart = {key: bool(r) for key, r in zip(compared, family.resolved, strict=True)}
    for i, (grp, ts, best, against) in enumerate(sweeps):
        lv, crew, p = grp
        bi = ts.index(best["final_conflict"])
        neighbours = {}
        for side, j in (("lower", bi - 1), ("higher", bi + 1)):
            if 0 <= j < len(ts):
                neighbours[side] = (ts[j], against[ts[j]])
        tied = [t for t, d in against.items() if d is not None and not apart[(i, t)]]
        resolved = all(d is not None and apart[(i, t)] for t, d in neighbours.values())
        w = best["w"]
        row = [
            str(lv),
            crew,
            *([str(p)] if show_players else []),
            _num(best["final_conflict"]),
            _pct(w.estimate),
            _ci(w),
            f"{w.n:,}",
        ]
        for side in ("lower", "higher"):
            if side in neighbours and neighbours[side][1] is not None:
                t, d = neighbours[side]
                row.append(f"vs {_num(t)}: {_pp(d.difference)} ({_pp(d.low)} to {_pp(d.high)})")
            else:
                row.append("none (end of the sweep)")
        row.append("yes" if resolved else "no")
        row.append(", ".join(_num(t) for t in tied) or "none")
        best_rows.append(row)

        who = f"{_level(lv).capitalize()}, {crew} crew" + (f", {p} players" if show_players else "")
        text = (
            f"{who}: the best threshold is {_num(best['final_conflict'])} with a win rate of "
            f"{_pct(w.estimate)} (95 % CI {_ci(w)}; {w.n:,} games)."
        )
        comps = []
        for _side, (t, d) in neighbours.items():
            if d is None:
                continue
            state = "resolved" if apart[(i, t)] else "not resolved"
            comps.append(
                f"{_pp(d.difference)} points against threshold {_num(t)} "
                f"(95 % CI {_pp(d.low)} to {_pp(d.high)}, {state})"
            )
        if comps:
            text += " Paired by seed, its win rate is " + " and ".join(comps) + "."
        if tied:
            text += (
                f" Thresholds not resolved from it: {', '.join(_num(t) for t in tied)}"
                f" ({len(tied)} of {len(ts) - 1})."
            )
        else:
            text += " Every other threshold is resolved below it."
        findings.append(text + f" (Resolved: after {family.text}, each against the best of its group.)")

    # chart: one panel per level, win rate against the threshold, one line per crew with its band
    ts_all = _values(g, "final_conflict")
    with matplotlib.rc_context(charts.STYLE):
        fig, axes = _panels(len(levels), 3.3, 3.6)
        for ax, lv in zip(axes, levels, strict=True):
            for si, (crew, p) in enumerate(series):
                mine = [c for c in cells if c["level"] == lv and c["strategy"] == crew and c["players"] == p]
                if not mine:
                    continue
                xs = [c["final_conflict"] for c in mine]
                col = charts.colour(si)
                ax.fill_between(
                    xs,
                    [100 * c["w"].low for c in mine],
                    [100 * c["w"].high for c in mine],
                    color=col,
                    alpha=0.2,
                    linewidth=0,
                )
                ax.plot(
                    xs,
                    [100 * c["w"].estimate for c in mine],
                    color=col,
                    marker=charts.MARKERS[si % len(charts.MARKERS)],
                    linestyle=charts.LINESTYLES[si % len(charts.LINESTYLES)],
                    markersize=4,
                    linewidth=1.4,
                    label=series_label(crew, p) if lv == levels[0] else None,
                )
                best = best_of.get((lv, crew, p))
                if best is not None:
                    ax.plot(
                        [best["final_conflict"]],
                        [100 * best["w"].estimate],
                        marker="*",
                        markersize=13,
                        color=col,
                        markeredgecolor="black",
                        linestyle="none",
                    )
            ax.set_title(f"level {lv}" if lv >= 0 else "", loc="left", fontsize=10)
            ax.set_xlabel("threshold (crew weapons per strike needed)")
        axes[0].set_ylabel("win rate (%)")
        top = max(c["w"].high for c in cells)
        axes[0].set_ylim(0, min(100.0, max(5.0, math.ceil(top * 100 * 1.1 / 5) * 5)))
        fig.legend(title="crew (star: best threshold)", loc="outside lower center", ncols=max(1, len(series)))
        fig.suptitle(
            f"Win rate against the Final Conflict threshold: {ctx.subject}", x=0.01, ha="left", weight="bold"
        )
    items = [
        f"level {c['level']}, {c['strategy']}, threshold {_num(c['final_conflict'])}: "
        f"{_pct(c['w'].estimate)} (95 % CI {_ci(c['w'])}, n={c['n']})"
        for c in cells
    ]
    chart = charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-ohno-threshold",
        "Win rate against the Final Conflict threshold",
        "Win rate against the Final Conflict threshold, one panel per level, one line per crew, with 95 % "
        "Wilson bands. " + "; ".join(items[:30]) + ("; and more (see the table)" if len(items) > 30 else ""),
        "Share of games won at each threshold (the crews call the Final Conflict when their weapons reach "
        "threshold x strikes still needed), one panel per level; the shaded bands are 95 % Wilson "
        f"intervals and a star marks the best threshold; thresholds swept: "
        f"{', '.join(_num(t) for t in ts_all)}; {_n_range([c['n'] for c in cells])}.",
    )
    head = ["level", "crew", *(["players"] if show_players else [])]
    best_table = Table(
        "Best threshold per level and crew, and the paired difference (percentage points, 95 % CI) "
        "against its neighbouring thresholds",
        [
            *head,
            "best threshold",
            "win rate",
            "95 % CI",
            "games",
            "vs next lower",
            "vs next higher",
            "resolved from both",
            "thresholds not resolved from it",
        ],
        best_rows,
    )
    # how the games at each threshold end: too early a call loses to kamikazes, too late to shields
    ends = _outcomes(g).group_by(*keys, "final_conflict", "outcome").len("k")
    end_of = {
        (r["level"], r["strategy"], r["players"], r["final_conflict"], r["outcome"]): int(r["k"])
        for r in ends.iter_rows(named=True)
    }

    def end_share(c: dict, outcome: str) -> str:
        k = end_of.get((c["level"], c["strategy"], c["players"], c["final_conflict"], outcome), 0)
        w = stats.wilson(k, c["n"])
        return f"{_pct(w.estimate)} ({_ci(w)})"

    sweep_table = Table(
        "Win rate at every threshold (95 % Wilson intervals), and the share of games lost in the Final "
        "Conflict or to the eighth shield",
        [
            *head,
            "threshold",
            "games",
            "wins",
            "win rate",
            "95 % CI",
            "crew eliminated in the Final Conflict",
            "eight shields complete",
        ],
        [
            [
                str(c["level"]),
                c["strategy"],
                *([str(c["players"])] if show_players else []),
                _num(c["final_conflict"]),
                f"{c['n']:,}",
                f"{c['wins']:,}",
                _pct(c["w"].estimate),
                _ci(c["w"]),
                end_share(c, ELIM_DURING),
                end_share(c, SHIELDS),
            ]
            for c in cells
        ],
    )
    paragraphs = [
        "The scripted crews call the Final Conflict when the weapons they hold reach the threshold "
        "times the strikes still needed (Shield aliens in play + 1), or in a panic when the shields "
        "are nearly complete. Every threshold plays the same decks (game i is paired with game i), so "
        "the best threshold is compared with every other by seed: 'resolved' means the difference "
        "stays below 5 % after the Holm adjustment over all these comparisons (every group), each "
        "p-value first multiplied by half the number of thresholds because the best was picked from "
        "every pair of them; the table's column asks it of both neighbours.",
        "The best threshold is picked from the same games it is measured on, so its win rate is a "
        "little optimistic; thresholds not resolved from it are as good on this evidence.",
    ]
    return GameSection(
        "ohno-final-conflict",
        "When to call the Final Conflict: the threshold sweep",
        findings=findings,
        paragraphs=paragraphs,
        charts=[chart],
        tables=[best_table, sweep_table],
    )


# --- 4. the score distribution --------------------------------------------------------------------


def _score_section(ctx: AnalysisContext, g: pl.DataFrame, note: str) -> GameSection | None:
    g = g.filter(pl.col("score").is_not_null() & pl.col("score").is_not_nan())
    if g.height == 0:
        return None
    crews, levels = _values(g, "strategy"), _values(g, "level")
    dist = g.group_by("level", "strategy", "score").len("k")
    k_of = {(r["level"], r["strategy"], r["score"]): int(r["k"]) for r in dist.iter_rows(named=True)}
    n_of = {
        (r["level"], r["strategy"]): int(r["n"])
        for r in g.group_by("level", "strategy").len("n").iter_rows(named=True)
    }
    with matplotlib.rc_context(charts.STYLE):
        fig, axes = _panels(len(levels), 3.4, 3.4)
        width = 0.8 / len(crews)
        for ax, lv in zip(axes, levels, strict=True):
            scores = sorted({s for (lv_, _, s) in k_of if lv_ == lv})  # the scores seen at this level
            for ci, crew in enumerate(crews):
                n = n_of.get((lv, crew), 0)
                if not n:
                    continue
                ws = [stats.wilson(k_of.get((lv, crew, s), 0), n) for s in scores]
                xs = [i + (ci - (len(crews) - 1) / 2) * width for i in range(len(scores))]
                ax.bar(
                    xs,
                    [100 * w.estimate for w in ws],
                    width=width,
                    color=charts.colour(ci),
                    yerr=[
                        [max(0.0, 100 * (w.estimate - w.low)) for w in ws],
                        [max(0.0, 100 * (w.high - w.estimate)) for w in ws],
                    ],
                    error_kw={"elinewidth": 0.8, "capsize": 1.5},
                    label=crew if lv == levels[0] else None,
                )
            step = max(1, math.ceil(len(scores) / 12))
            ax.set_xticks(range(0, len(scores), step), [_num(s) for s in scores[::step]])
            ax.set_xlabel("score (points)")
            ax.set_title(f"level {lv}" if lv >= 0 else "", loc="left", fontsize=10)
            ax.grid(axis="x", visible=False)
        axes[0].set_ylabel("share of games (%)")
        fig.legend(title="crew", loc="outside lower center", ncols=max(1, len(crews)))
        fig.suptitle(f"Score distribution by level and crew: {ctx.subject}", x=0.01, ha="left", weight="bold")
    alt_items = []
    for (lv, crew), n in sorted(n_of.items()):
        parts = ", ".join(
            f"{_num(sc)}: {_pct(k / n)}"
            for (lv_, crew_, sc), k in sorted(k_of.items())
            if (lv_, crew_) == (lv, crew)
        )
        alt_items.append(f"level {lv}, {crew} (n={n}): {parts}")
    chart = charts.save_chart(
        fig,
        ctx.out,
        f"{ctx.name}-ohno-scores",
        "Score distribution by level and crew",
        "Share of games at each score, by level and crew. " + "; ".join(alt_items[:24]),
        "Share of games at each score (points per survivor x survivors; 0 = lost), one panel per level, "
        "one bar per crew (pooled over the crew sizes played; more players can score more); whiskers "
        f"are 95 % Wilson intervals; {_n_range(list(n_of.values())).replace('point', 'crew and level')}.",
    )
    keys = ["level", "players", "strategy"]
    rows = []
    for key, part in sorted(g.partition_by(*keys, as_dict=True).items()):
        lv, p, crew = key
        s = part["score"].to_numpy()
        won = part.filter(pl.col("won").fill_null(False))["score"].to_numpy()
        m = stats.mean_interval(s)
        mw = stats.mean_interval(won)
        zero = stats.wilson(int(np.sum(s == 0)), len(s))
        rows.append(
            [
                str(lv),
                str(p),
                crew,
                f"{len(s):,}",
                f"{m.estimate:.2f} ({_ci(m, pct=False)})",
                f"{_pct(zero.estimate)} ({_ci(zero)})",
                f"{len(won):,}",
                f"{mw.estimate:.2f} ({_ci(mw, pct=False)})" if len(won) else "-",
            ]
        )
    table = Table(
        "Score per level, crew size and crew: mean with its 95 % t interval, share of games scoring 0 "
        "(lost) with its Wilson interval, and the mean score of the games won",
        ["level", "players", "crew", "games", "mean score", "scored 0", "games won", "mean score when won"],
        rows,
    )
    findings, tops = [], []
    for crew in crews:
        mine = g.filter(pl.col("strategy") == crew)
        if mine["score"].max() == 0:
            continue
        means = {
            lv: stats.mean_interval(mine.filter(pl.col("level") == lv)["score"].to_numpy()) for lv in levels
        }
        ranked = sorted(levels, key=lambda lv: -means[lv].estimate)
        top = ranked[0]
        m = means[top]
        text = (
            f"{_crew(crew).capitalize()} scores most at {_level(top)}: {m.estimate:.2f} points a game "
            f"(95 % CI {_ci(m, pct=False)}; {m.n:,} games{_pooled_over(mine, ('level',))})."
        )
        found = _paired_score(mine, "level", ranked[1], top) if len(ranked) > 1 else None
        if found is None:
            findings.append(text)
            continue
        # the top two levels were picked from every pair of levels: Bonferroni over them
        picked_from = len(ranked) * (len(ranked) - 1) // 2
        findings.append("")  # written below, once the family is known
        tops.append(
            (len(findings) - 1, text, top, ranked[1], found[0], min(1.0, found[1] * picked_from), picked_from)
        )
    family = stats.family([t[5] for t in tops])  # one per crew: Holm over the crews
    for (i, text, top, second, d, _, picked_from), resolved in zip(tops, family.resolved, strict=True):
        findings[i] = (
            text
            + " "
            + _score_diff(_level(top).capitalize(), _level(second), d, "", bool(resolved))[:-1]
            + f" (the top two of {len(levels)} levels, Bonferroni-adjusted over their {picked_from} pairs, "
            f"then {family.text})."
        )
    paragraphs = [
        "The score of a won game is the level's points per survivor (2, 3, 5 and 7 at levels 0 to 3) "
        "times the survivors; a lost game scores 0. A harder level can score more per game even when "
        "it is won less often."
    ]
    if note:
        paragraphs.append(note)
    return GameSection(
        "ohno-scores",
        "Score distribution",
        findings=findings,
        paragraphs=paragraphs,
        charts=[chart],
        tables=[table],
    )


# --- the hook -------------------------------------------------------------------------------------


def sections(ctx: AnalysisContext) -> list[GameSection]:
    games = ctx.dataset.games
    if games.height == 0 or not {"won", "score", "end_reason", "game_index"} <= set(games.columns):
        return []
    g = _prepare(games)
    base, note, _ = _base(g)
    built = [
        _win_section(ctx, base, note),
        _loss_section(ctx, base, note),
        _threshold_section(ctx, g),
        _score_section(ctx, base, note),
    ]
    return [s for s in built if s is not None]
