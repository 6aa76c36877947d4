"""8-Bit Invaders' own report sections: the difficulty grid and the loss reasons.

Difficulty grid: for each strategy, the win rate of every difficulty (countdown cards x attack
dice) as a heat-table with its 95 % Wilson interval, and the paired effect of each difficulty step
(one setting made harder with the other held; both at once; and the countdown step against the
dice step), from `simkit.core.compare.compare_frames`: cells share seeds, so game i of two cells
saw the same deal and dice and their difference is estimated from the pairs.

Loss reasons: for each strategy and difficulty, the share of games cleared, shot down and landed
with Wilson intervals, and how the lost games went (turn of the fatal counterattack, aliens still
standing when they landed, shields lost to bombers), from the record columns of RULES.md.

Everything is read from the games table (`countdown`, `dice`, `strategy`, `won`, `score`, `length`,
`end_reason`, `aliens_left`, `shields_bombed`); settings missing from it are taken from the
manifest's cells. A dataset with one difficulty gets only the loss reasons; one with no lost game
gets no loss section. Nothing here plays a game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib
import numpy as np
import polars as pl
from matplotlib.colors import LinearSegmentedColormap

from simkit.core import compare, stats
from simkit.reporting import charts
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import count_range as _counts
from simkit.reporting.text import fmt_interval as _interval
from simkit.reporting.text import pct as _pct
from simkit.reporting.text import points as _pp

REASONS = ("cleared", "shot_down", "landed")
REASON_TEXT = {"cleared": "cleared", "shot_down": "shot down", "landed": "landed"}
LOSSES = ("shot_down", "landed")
HEAT = LinearSegmentedColormap.from_list("ebi-heat", ["#ffffff", charts.PALETTE[4], charts.PALETTE[0]])

Diff = tuple[int, int]  # (countdown cards, attack dice)


# --- reading the dataset ----------------------------------------------------------------------------


def _games(ctx: AnalysisContext) -> pl.DataFrame:
    """The games with `countdown`, `dice` and `strategy` as columns (from the manifest if absent)."""
    games = ctx.dataset.games
    cells = ctx.dataset.manifest.get("cells") or []
    for key, default in (("countdown", 7), ("dice", 6)):
        if key not in games.columns:
            mapping = {str(c["cell"]): (c.get("settings") or {}).get(key, default) for c in cells}
            games = games.with_columns(
                pl.col("cell").replace_strict(mapping, default=default, return_dtype=pl.Int64).alias(key)
            )
    if "strategy" not in games.columns:
        mapping = {str(c["cell"]): ",".join(str(s) for s in c.get("strategy") or []) for c in cells}
        games = games.with_columns(
            pl.col("cell").replace_strict(mapping, default="", return_dtype=pl.String).alias("strategy")
        )
    return games.with_columns(
        pl.col("countdown").cast(pl.Int64),
        pl.col("dice").cast(pl.Int64),
        pl.col("strategy").cast(pl.String).fill_null(""),
        pl.col("won").cast(pl.Boolean),
        pl.col("score").cast(pl.Float64),
        pl.col("end_reason").cast(pl.String),
    )


def _strategies(games: pl.DataFrame, ctx: AnalysisContext) -> list[str]:
    """Strategies in manifest order, then any found only in the games."""
    order = [
        ",".join(str(s) for s in c.get("strategy") or []) for c in ctx.dataset.manifest.get("cells") or []
    ]
    present = set(games["strategy"].unique().to_list())
    return [s for s in dict.fromkeys(order) if s in present] + sorted(present - set(order))


def _difficulties(games: pl.DataFrame) -> list[Diff]:
    """Difficulties from the easiest: most countdown cards first, then most dice."""
    pairs = games.select("countdown", "dice").unique().rows()
    return sorted(((int(c), int(d)) for c, d in pairs), key=lambda p: (-p[0], -p[1]))


def diff_label(d: Diff) -> str:
    return f"countdown={d[0]} dice={d[1]}"


# --- formatting -----------------------------------------------------------------------------------


def _games_text(n: int) -> str:
    return f"{n:,} game" + ("" if n == 1 else "s")


def _rate_cell(w: stats.Interval) -> str:
    return f"{_pct(w.estimate)} ({_interval(w.low, w.high, pct=True)}; n={w.n:,})" if w.n else "–"


def _mean_text(m: stats.Interval, digits: int = 1) -> str:
    if m.n == 0:
        return "–"
    if m.n == 1 or math.isnan(m.low):
        return f"{m.estimate:.{digits}f} (n=1)"
    return f"{m.estimate:.{digits}f} ({m.low:.{digits}f} to {m.high:.{digits}f}; n={m.n:,})"


# --- difficulty grid ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    strategy: str
    kind: str  # "countdown", "dice", "both", "dice vs countdown"
    what: str  # plain words for the step
    short: str  # the chart's row label
    a: Diff  # the easier (reference) cell
    b: Diff  # the harder cell
    c: compare.Comparison


def win_grid(games: pl.DataFrame) -> dict[tuple[str, Diff], stats.Interval]:
    """Wilson interval of the win rate per (strategy, difficulty), over games with a verdict."""
    agg = games.group_by("strategy", "countdown", "dice").agg(
        wins=pl.col("won").sum(), n=pl.col("won").count()
    )
    return {
        (s, (int(c), int(d))): stats.wilson(int(w or 0), int(n)) for s, c, d, w, n in agg.iter_rows() if n
    }


def difficulty_steps(games: pl.DataFrame, strategies: Sequence[str], diffs: Sequence[Diff]) -> list[Step]:
    """Each strategy's paired comparisons between difficulties that the dataset holds."""
    counts = sorted({c for c, _ in diffs}, reverse=True)
    dice = sorted({d for _, d in diffs}, reverse=True)
    parts = {
        (s, (int(c), int(d))): part
        for (s, c, d), part in games.partition_by("strategy", "countdown", "dice", as_dict=True).items()
    }
    steps: list[Step] = []
    for s in strategies:

        def add(kind: str, what: str, short: str, a: Diff, b: Diff, s: str = s) -> None:
            pa, pb = parts.get((s, a)), parts.get((s, b))
            if pa is None or pb is None:
                return
            if pa.join(pb, on="game_index").height == 0:
                return
            c = compare.compare_frames(pa, pb, diff_label(a), diff_label(b), (diff_label(a), diff_label(b)))
            steps.append(Step(s, kind, what, short, a, b, c))

        for d in dice:
            for hi, lo in zip(counts, counts[1:], strict=False):
                add(
                    "countdown",
                    f"countdown {hi} → {lo} (at {d} dice)",
                    f"cards {hi}→{lo}, {d} dice",
                    (hi, d),
                    (lo, d),
                )
        for c in counts:
            for hi, lo in zip(dice, dice[1:], strict=False):
                add(
                    "dice",
                    f"dice {hi} → {lo} (at countdown {c})",
                    f"dice {hi}→{lo}, {c} cards",
                    (c, hi),
                    (c, lo),
                )
        if len(counts) > 1 and len(dice) > 1:
            easy, hard = (counts[0], dice[0]), (counts[-1], dice[-1])
            add(
                "both",
                f"both: {diff_label(easy)} → {diff_label(hard)}",
                f"both: {easy[0]}/{easy[1]}→{hard[0]}/{hard[1]}",
                easy,
                hard,
            )
            if len(counts) == 2 and len(dice) == 2:
                # the two single steps against each other: fewer dice minus fewer cards, so B - A < 0
                # means losing a die costs more than losing a countdown card
                add(
                    "dice vs countdown",
                    f"fewer dice ({diff_label((counts[0], dice[1]))}) vs "
                    f"fewer cards ({diff_label((counts[1], dice[0]))})",
                    f"{counts[0]}/{dice[1]} vs {counts[1]}/{dice[0]}",
                    (counts[1], dice[0]),
                    (counts[0], dice[1]),
                )
    return steps


def _heat_chart(
    ctx: AnalysisContext, grid: dict[tuple[str, Diff], stats.Interval], strategies: Sequence[str], diffs
) -> charts.Chart:
    counts = sorted({c for c, _ in diffs}, reverse=True)
    dice = sorted({d for _, d in diffs}, reverse=True)
    top = max((w.high for w in grid.values()), default=1.0)
    vmax = min(100.0, max(5.0, math.ceil(100 * top / 5) * 5))
    n_s = len(strategies)
    width = min(14.0, max(5.0, n_s * (1.3 * len(dice) + 1.2) + 1.4))
    height = max(2.6, 0.95 * len(counts) + 1.7)
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(width, height)
        axes = fig.subplots(1, n_s, squeeze=False)[0]
        image = None
        for ax, s in zip(axes, strategies, strict=True):
            values = np.full((len(counts), len(dice)), np.nan)
            for i, c in enumerate(counts):
                for j, d in enumerate(dice):
                    w = grid.get((s, (c, d)))
                    if w is not None:
                        values[i, j] = 100 * w.estimate
            # vector cells (no embedded raster in the SVG), first countdown value on top
            image = ax.pcolormesh(
                np.arange(len(dice) + 1) - 0.5,
                np.arange(len(counts) + 1) - 0.5,
                np.ma.masked_invalid(values),
                cmap=HEAT,
                vmin=0,
                vmax=vmax,
                edgecolors="#bbbbbb",
                linewidth=0.8,
            )
            ax.set_ylim(len(counts) - 0.5, -0.5)
            for i, c in enumerate(counts):
                for j, d in enumerate(dice):
                    w = grid.get((s, (c, d)))
                    if w is None:
                        ax.text(j, i, "not played", ha="center", va="center", fontsize=8, color="#555555")
                        continue
                    text = f"{_pct(w.estimate)}\n{100 * w.low:.1f}–{100 * w.high:.1f}\nn={w.n:,}"
                    dark = 100 * w.estimate > 0.6 * vmax
                    ax.text(
                        j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black"
                    )
            ax.set_xticks(range(len(dice)), [str(d) for d in dice])
            ax.set_yticks(range(len(counts)), [str(c) for c in counts])
            ax.set_xlabel("attack dice per turn")
            ax.set_ylabel("countdown cards")
            ax.grid(False)
            ax.set_title(s, loc="center", fontsize=10)
        if image is not None:
            bar = fig.colorbar(image, ax=list(axes), shrink=0.9)
            bar.set_label("win rate (%)")
            if bar.solids is not None:
                bar.solids.set_rasterized(False)  # vector SVG: no embedded raster image
        fig.suptitle(f"Win rate by difficulty: {ctx.subject}", x=0.01, ha="left", fontweight="bold")
    title = "Win rate by difficulty and strategy"
    items = [
        f"{s}, {diff_label(d)}: {_pct(w.estimate)} "
        f"(95 % CI {_interval(w.low, w.high, pct=True)}, {w.n} games)"
        for (s, d), w in grid.items()
    ]
    alt = f"{title} for {ctx.subject}: one heat-table per strategy. " + "; ".join(items)
    n = [w.n for w in grid.values()]
    caption = (
        "One panel per strategy; rows are the countdown cards, columns the attack dice (top left is the "
        "easiest). Each square shows the win rate, its 95 % Wilson interval and the games it rests on; "
        f"darker is a higher win rate. {_counts(n, 'games per square')}."
    )
    return charts.save_chart(fig, ctx.out, f"{ctx.name}-difficulty-grid", title, alt, caption)


def _steps_chart(ctx: AnalysisContext, steps: Sequence[Step], strategies: Sequence[str]) -> charts.Chart:
    shown = [st for st in steps if st.c.wins is not None]
    rows = list(dict.fromkeys(st.short for st in shown))
    groups = [s for s in strategies if any(st.strategy == s for st in shown)]
    height = min(16.0, max(2.8, 0.22 * len(rows) * max(1, len(groups)) + 1.8))
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(8.5, height)
        ax = fig.add_subplot()
        for gi, s in enumerate(groups):
            mine = [st for st in shown if st.strategy == s]
            charts.interval_dots(
                ax,
                [rows.index(st.short) + charts.dodge(gi, len(groups), 0.7) for st in mine],
                [st.c.wins.difference for st in mine],
                [st.c.wins.low for st in mine],
                [st.c.wins.high for st in mine],
                group=gi,
                label=s,
                scale=100,
                horizontal=True,
            )
        ax.axvline(0, color="#555555", linewidth=0.8)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_ylabel("difficulty step (countdown cards / attack dice)")
        ax.set_xlabel("change in win rate, harder minus easier (percentage points)")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"Paired effect of each difficulty step\n{ctx.subject}", loc="left")
        ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = "Paired effect of each difficulty step"
    items = [
        f"{st.strategy}, {st.what}: {_pp(st.c.wins.difference)} points (95 % CI {_pp(st.c.wins.low)} to "
        f"{_pp(st.c.wins.high)}, {st.c.wins.n} pairs)"
        for st in shown
    ]
    alt = f"{title} for {ctx.subject}. " + "; ".join(items)
    n = [st.c.wins.n for st in shown]
    caption = (
        "Each point is the win rate of the harder difficulty minus the easier one for one strategy, from "
        "games paired by seed (same deal and dice); bars are 95 % Tango paired intervals, each on its "
        "own: which steps are resolved, after the adjustment for all of them, is in the table. "
        "Row labels read countdown cards then dice: "
        "'cards 7→6, 6 dice' removes a countdown card at 6 dice; the 'vs' row compares the two single "
        "steps (fewer dice minus fewer cards: left of 0 means losing a die costs more than losing a "
        "countdown card). "
        f"{_counts(n, 'pairs per point')}."
    )
    return charts.save_chart(fig, ctx.out, f"{ctx.name}-difficulty-steps", title, alt, caption)


def _step_sentence(st: Step, resolved: bool, family: str) -> str:
    w = st.c.wins
    assert w is not None
    size = f"{abs(100 * w.difference):.1f} points"
    if resolved and w.difference > 0:
        verdict = f"raises {st.strategy}'s win rate by {size}"
    elif resolved and w.difference < 0:
        verdict = f"lowers {st.strategy}'s win rate by {size}"
    else:
        verdict = f"changes {st.strategy}'s win rate by {_pp(w.difference)} points, not resolved"
    return (
        f"{verdict} (95 % CI {_pp(w.low)} to {_pp(w.high)} points; {w.n:,} games each, paired by seed: "
        f"{w.a_only:,} won only at the easier setting, {w.b_only:,} only at the harder; resolved or not "
        f"after {family})"
    )


def difficulty_section(ctx: AnalysisContext, games: pl.DataFrame) -> GameSection | None:
    strategies = _strategies(games, ctx)
    diffs = _difficulties(games)
    if len(diffs) < 2:
        return None
    grid = win_grid(games)
    strategies = [s for s in strategies if any((s, d) in grid for d in diffs)]
    if not strategies:
        return None
    steps = difficulty_steps(games, strategies, diffs)
    # every step of every strategy is one family: the findings below pick from it
    step_family = stats.family([st.c.wins.p_value if st.c.wins is not None else math.nan for st in steps])
    step_resolved = {id(st): bool(r) for st, r in zip(steps, step_family.resolved, strict=True)}

    # table: the heat-table in numbers, one row per strategy and countdown, one column per dice
    counts = sorted({c for c, _ in diffs}, reverse=True)
    dice = sorted({d for _, d in diffs}, reverse=True)
    grid_rows = [
        [f"{s}, countdown {c}", *[_rate_cell(grid.get((s, (c, d)), stats.wilson(0, 0))) for d in dice]]
        for s in strategies
        for c in counts
    ]
    grid_table = Table(
        "Win rate by strategy and difficulty: estimate (95 % Wilson interval; games)",
        ["strategy, countdown cards", *[f"{d} attack dice" for d in dice]],
        grid_rows,
    )
    step_rows = []
    for st in steps:
        w = st.c.wins
        if w is None:
            continue
        wa, wb = grid[(st.strategy, st.a)], grid[(st.strategy, st.b)]
        step_rows.append(
            [
                st.strategy,
                st.what,
                _pct(wa.estimate),
                _pct(wb.estimate),
                f"{_pp(w.difference)} ({_pp(w.low)} to {_pp(w.high)})",
                f"{w.n:,}",
                f"{w.a_only:,} / {w.b_only:,}",
                "yes" if step_resolved[id(st)] else "no",
            ]
        )
    step_table = Table(
        "Paired effect of each difficulty step (game i of both cells shares its seed; 95 % Tango "
        f"intervals; resolved after {step_family.text})",
        [
            "strategy",
            "step (easier → harder)",
            "win rate, easier",
            "win rate, harder",
            "harder − easier, points (95 % CI)",
            "pairs",
            "won only easier / only harder",
            "resolved",
        ],
        step_rows,
    )

    findings = []
    easiest, hardest = diffs[0], diffs[-1]
    # the strongest strategy at the easiest difficulty, and where it ends at the hardest
    at_easy = [(grid[(s, easiest)], s) for s in strategies if (s, easiest) in grid]
    if at_easy:
        best_w, best = max(at_easy, key=lambda t: (t[0].estimate, -strategies.index(t[1])))
        text = (
            f"At {diff_label(easiest)}, the strongest strategy is {best}: it wins {_pct(best_w.estimate)} "
            f"of games (95 % CI {_interval(best_w.low, best_w.high, pct=True)}; {_games_text(best_w.n)})"
        )
        hard_w = grid.get((best, hardest))
        if hard_w is not None and hardest != easiest:
            text += (
                f"; at {diff_label(hardest)} it wins {_pct(hard_w.estimate)} "
                f"(95 % CI {_interval(hard_w.low, hard_w.high, pct=True)}; {_games_text(hard_w.n)})"
            )
        findings.append(text + ".")
        mine = [st for st in steps if st.strategy == best and st.c.wins is not None]
        # the single steps from the easiest cell, then the two steps against each other
        for kind in ("countdown", "dice"):
            first = next((st for st in mine if st.kind == kind and st.a == easiest), None)
            if first is not None:
                words = (
                    f"One countdown card fewer ({first.a[0]} → {first.b[0]}, at {first.a[1]} dice)"
                    if kind == "countdown"
                    else f"One attack die fewer ({first.a[1]} → {first.b[1]}, at countdown {first.a[0]})"
                )
                findings.append(
                    f"{words} {_step_sentence(first, step_resolved[id(first)], step_family.text)}."
                )
        versus = next((st for st in mine if st.kind == "dice vs countdown"), None)
        if versus is not None and versus.c.wins is not None:
            w = versus.c.wins
            if step_resolved[id(versus)] and w.difference < 0:
                lead = "For {s}, losing a die costs more than losing a countdown card"
            elif step_resolved[id(versus)] and w.difference > 0:
                lead = "For {s}, losing a countdown card costs more than losing a die"
            else:
                lead = "For {s}, it is not resolved whether losing a die or a countdown card costs more"
            findings.append(
                lead.format(s=best)
                + f": {diff_label(versus.b)} minus {diff_label(versus.a)} is {_pp(w.difference)} points "
                f"(95 % CI {_pp(w.low)} to {_pp(w.high)}; {w.n:,} games each, paired by seed; "
                f"{step_family.text})."
            )

    chart_list = [_heat_chart(ctx, grid, strategies, diffs)]
    if step_rows:
        chart_list.append(_steps_chart(ctx, steps, strategies))
    paragraphs = [
        "Each strategy's win rate at every difficulty the dataset holds, then the change each "
        "difficulty step makes. The cells were played on the same seeds, so game i of two cells saw "
        "the same deal and the same dice (the fifth-die game sees the six-die game's dice less the "
        "sixth): the steps are estimated from these pairs, which is narrower than comparing the cells "
        "as independent samples. Only the games that won in one cell and lost in the other carry the "
        "difference.",
    ]
    return GameSection(
        "difficulty-grid",
        "Difficulty grid",
        findings=findings,
        paragraphs=paragraphs,
        charts=chart_list,
        tables=[grid_table, step_table] if step_rows else [grid_table],
    )


# --- loss reasons ---------------------------------------------------------------------------------


def reason_shares(games: pl.DataFrame) -> dict[tuple[str, Diff], dict[str, stats.Interval]]:
    """Per (strategy, difficulty): the Wilson interval of each end reason's share of the games."""
    agg = games.group_by("strategy", "countdown", "dice").agg(
        n=pl.len(), **{r: (pl.col("end_reason") == r).sum() for r in REASONS}
    )
    out = {}
    for row in agg.iter_rows(named=True):
        key = (row["strategy"], (int(row["countdown"]), int(row["dice"])))
        out[key] = {r: stats.wilson(int(row[r] or 0), int(row["n"])) for r in REASONS}
    return out


def _loss_detail(part: pl.DataFrame) -> dict[str, stats.Interval]:
    """How the lost games of one cell went."""
    lost = part.filter(pl.col("end_reason").is_in(LOSSES))
    shot = lost.filter(pl.col("end_reason") == "shot_down")
    landed = lost.filter(pl.col("end_reason") == "landed")
    detail = {
        "shot_of_losses": stats.wilson(shot.height, lost.height),
        "shot_turn": stats.mean_interval(shot["length"].drop_nulls().to_numpy()),
        "landed_aliens": stats.mean_interval(landed["aliens_left"].drop_nulls().to_numpy())
        if "aliens_left" in landed.columns
        else stats.mean_interval(np.empty(0)),
    }
    if "shields_bombed" in lost.columns:
        detail["bombed"] = stats.mean_interval(lost["shields_bombed"].drop_nulls().to_numpy())
    return detail


def _reasons_chart(
    ctx: AnalysisContext,
    shares: dict[tuple[str, Diff], dict[str, stats.Interval]],
    strategies: Sequence[str],
    diffs: Sequence[Diff],
) -> charts.Chart:
    n_s = len(strategies)
    width = min(14.0, max(6.0, n_s * (0.9 * len(diffs) + 1.6) + 1.8))
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(width, 4.2)
        axes = fig.subplots(1, n_s, squeeze=False, sharey=True)[0]
        dodge = 0.22
        for ax, s in zip(axes, strategies, strict=True):
            for ri, r in enumerate(REASONS):
                pts = [(i, shares[(s, d)][r]) for i, d in enumerate(diffs) if (s, d) in shares]
                if not pts:
                    continue
                charts.interval_dots(
                    ax,
                    [i + (ri - 1) * dodge for i, _ in pts],
                    [w.estimate for _, w in pts],
                    [w.low for _, w in pts],
                    [w.high for _, w in pts],
                    group=ri,
                    label=REASON_TEXT[r],
                    scale=100,
                )
            ax.set_xticks(range(len(diffs)), [f"{c} cards\n{d} dice" for c, d in diffs], fontsize=8)
            ax.set_xlim(-0.6, len(diffs) - 0.4)
            ax.set_ylim(-1.5, 101.5)
            ax.grid(axis="x", visible=False)
            ax.set_title(s, loc="center", fontsize=10)
            ax.set_xlabel("difficulty")
        axes[0].set_ylabel("share of games (%)")
        axes[-1].legend(title="end reason", loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.suptitle(f"How games end, by difficulty: {ctx.subject}", x=0.01, ha="left", fontweight="bold")
    title = "End reasons by difficulty and strategy"
    items = [
        f"{s}, {diff_label(d)}: "
        + ", ".join(
            f"{REASON_TEXT[r]} {_pct(w.estimate)} ({_interval(w.low, w.high, pct=True)})"
            for r, w in shares[(s, d)].items()
        )
        + f" of {shares[(s, d)]['cleared'].n} games"
        for s in strategies
        for d in diffs
        if (s, d) in shares
    ]
    alt = f"{title} for {ctx.subject}, with 95 % Wilson intervals. " + "; ".join(items)
    n = [v["cleared"].n for v in shares.values()]
    caption = (
        "One panel per strategy, difficulties from the easiest on the left. Each point is the share of "
        "games that ended so (cleared = won; shot down by a counterattack; landed when the countdown ran "
        f"out), with its 95 % Wilson interval. {_counts(n, 'games per difficulty')}."
    )
    return charts.save_chart(fig, ctx.out, f"{ctx.name}-loss-reasons", title, alt, caption)


def loss_section(ctx: AnalysisContext, games: pl.DataFrame) -> GameSection | None:
    games = games.filter(pl.col("end_reason").is_not_null())
    if games.filter(pl.col("end_reason").is_in(LOSSES)).height == 0:
        return None
    strategies = _strategies(games, ctx)
    diffs = _difficulties(games)
    shares = reason_shares(games)
    parts = {
        (s, (int(c), int(d))): part
        for (s, c, d), part in games.partition_by("strategy", "countdown", "dice", as_dict=True).items()
    }
    details = {key: _loss_detail(part) for key, part in parts.items()}

    share_rows = []
    detail_rows = []
    for s in strategies:
        for d in diffs:
            if (s, d) not in shares:
                continue
            sh = shares[(s, d)]
            share_rows.append(
                [f"{s}, {diff_label(d)}", f"{sh['cleared'].n:,}", *[_rate_cell(sh[r]) for r in REASONS]]
            )
            det = details[(s, d)]
            detail_rows.append(
                [
                    f"{s}, {diff_label(d)}",
                    f"{det['shot_of_losses'].n:,}",
                    _rate_cell(det["shot_of_losses"]),
                    _mean_text(det["shot_turn"]),
                    _mean_text(det["landed_aliens"]),
                    _mean_text(det["bombed"], 2) if "bombed" in det else "–",
                ]
            )
    share_table = Table(
        "End reasons by strategy and difficulty: share of games (95 % Wilson interval; games)",
        ["strategy, difficulty", "games", *[REASON_TEXT[r] for r in REASONS]],
        share_rows,
    )
    detail_table = Table(
        "What kills the player: the lost games only (means with 95 % t intervals; games)",
        [
            "strategy, difficulty",
            "games lost",
            "shot down, share of losses",
            "turn of the fatal counterattack",
            "aliens left on landing",
            "shields lost to bombers",
        ],
        detail_rows,
    )

    findings = []
    base = diffs[0]
    for s in strategies:
        sh, det = shares.get((s, base)), details.get((s, base))
        if sh is None or det is None or det["shot_of_losses"].n == 0:
            continue
        killer, other = (
            ("shot_down", "landed") if det["shot_of_losses"].estimate >= 0.5 else ("landed", "shot_down")
        )
        k, o = sh[killer], sh[other]
        how = "is mostly shot down" if killer == "shot_down" else "mostly loses when the aliens land"
        text = (
            f"At {diff_label(base)}, {s} {how}: {_pct(k.estimate)} of games "
            f"(95 % CI {_interval(k.low, k.high, pct=True)}) against {_pct(o.estimate)} {REASON_TEXT[other]} "
            f"(95 % CI {_interval(o.low, o.high, pct=True)}; {_games_text(k.n)})"
        )
        m = det["shot_turn"] if killer == "shot_down" else det["landed_aliens"]
        if m.n > 1:
            what = (
                f"the fatal counterattack comes on turn {m.estimate:.1f} on average"
                if killer == "shot_down"
                else f"when they land, {m.estimate:.1f} aliens are still standing on average"
            )
            text += f"; {what} (95 % CI {m.low:.1f} to {m.high:.1f}; {m.n:,} games)"
        findings.append(text + ".")

    # how each harder difficulty shifts the share shot down, paired by seed, for each strategy
    shifts: list[tuple[str, Diff, stats.PairedDifference]] = []
    for s in strategies:
        for hard in diffs[1:]:
            pa, pb = parts.get((s, base)), parts.get((s, hard))
            if pa is None or pb is None:
                continue
            joined = pa.select("game_index", "end_reason").join(
                pb.select("game_index", "end_reason"), on="game_index", suffix="_b"
            )
            if joined.height:
                shot = stats.paired_difference(
                    (joined["end_reason"] == "shot_down").to_numpy(),
                    (joined["end_reason_b"] == "shot_down").to_numpy(),
                )
                shifts.append((s, hard, shot))
    shift_family = stats.family([w.p_value for _, _, w in shifts])
    shift_rows = [
        [
            s,
            f"{diff_label(base)} → {diff_label(hard)}",
            f"{_pp(w.difference)} ({_pp(w.low)} to {_pp(w.high)})",
            f"{w.n:,}",
            "yes" if resolved else "no",
        ]
        for (s, hard, w), resolved in zip(shifts, shift_family.resolved, strict=True)
    ]
    if shifts:
        idx = range(len(shifts))
        chosen = [i for i in idx if shift_family.resolved[i]] or list(idx)
        i = max(chosen, key=lambda i: abs(shifts[i][2].difference))
        s, hard, w = shifts[i]
        size = f"{abs(100 * w.difference):.1f} points"
        picked = f"the largest of the {len(shifts)} shifts"
        if shift_family.resolved[i] and w.difference > 0:
            verdict = f"{picked}: it raises the share of {s}'s games shot down by {size}"
        elif shift_family.resolved[i] and w.difference < 0:
            verdict = f"{picked}: it lowers the share of {s}'s games shot down by {size}"
        else:
            verdict = (
                f"no shift in the share shot down is resolved; {picked} is {s}'s, {_pp(w.difference)} points"
            )
        findings.append(
            f"Going from {diff_label(base)} to {diff_label(hard)} makes {verdict} (95 % CI {_pp(w.low)} "
            f"to {_pp(w.high)} points; {w.n:,} games each, paired by seed; resolved after "
            f"{shift_family.text}; every strategy and step in the last table)."
        )
    shift_table = Table(
        f"Change in the share of games shot down against {diff_label(base)}, paired by seed "
        f"(resolved after {shift_family.text})",
        ["strategy", "difficulty step", "harder − easier, points (95 % CI)", "pairs", "resolved"],
        shift_rows,
    )

    paragraphs = [
        "A game ends cleared (every alien destroyed: the only win), shot down (three unshielded firing "
        "aliens of one picture type in a counterattack) or landed (the countdown ran out). The first "
        "table gives each end's share of the games; the second looks at the lost games only: how many "
        "of them a counterattack ended, on which turn, how many aliens were still standing when the "
        "formation landed (how close the player came), and how many shields the bombers destroyed. "
        "The third shows how each harder difficulty moves games from landing to being shot down, "
        "from the same games played at both difficulties.",
    ]
    return GameSection(
        "loss-reasons",
        "Loss reasons",
        findings=findings,
        paragraphs=paragraphs,
        charts=[_reasons_chart(ctx, shares, strategies, diffs)],
        tables=[share_table, detail_table, shift_table] if shift_rows else [share_table, detail_table],
    )


# --- the hook -------------------------------------------------------------------------------------


def sections(ctx: AnalysisContext) -> list[GameSection]:
    games = ctx.dataset.games
    needed = {"cell", "game_index", "won", "score", "end_reason"}
    if games.height == 0 or not needed <= set(games.columns):
        return []
    games = _games(ctx)
    out = [difficulty_section(ctx, games), loss_section(ctx, games)]
    return [s for s in out if s is not None]
