"""8-Bit Invaders' own report sections: the difficulty grid and the loss reasons.

Difficulty grid: for each strategy, the win rate of every difficulty (countdown cards x attack
dice) as a heat-table with its 95 % Wilson interval, and the paired effect of each difficulty step
(one setting made harder with the other held; both at once; and the countdown step against the
dice step): cells share seeds, so game i of two cells saw the same deal and dice and their
difference is estimated from the pairs.

Loss reasons: for each strategy and difficulty, the share of games cleared, shot down and landed
with Wilson intervals, and how the lost games went (turn of the fatal counterattack, aliens still
standing when they landed, shields lost to bombers), from the record columns of RULES.md.

Everything is read from the games table (`countdown`, `dice`, `strategy`, `won`, `score`, `length`,
`end_reason`, `aliens_left`, `shields_bombed`); settings missing from it are taken from the
manifest's cells. A dataset with one difficulty gets only the loss reasons; one with no lost game
gets no loss section. Nothing here plays a game. The standing words (how to read each section, the
captions) are in report_words.toml.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import matplotlib
import numpy as np
import polars as pl
from matplotlib.colors import LinearSegmentedColormap

from simkit.core import stats
from simkit.reporting import charts, kit
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import ci, ci_text, count_range, estimate_cell, pct, plural, points

WORDS = kit.words(__package__)

REASONS = ("cleared", "shot_down", "landed")
REASON_TEXT = {"cleared": "cleared", "shot_down": "shot down", "landed": "landed"}
LOSSES = ("shot_down", "landed")
HEAT = LinearSegmentedColormap.from_list("ebi-heat", ["#ffffff", charts.PALETTE[4], charts.PALETTE[0]])
DEFAULTS = {"countdown": 7, "dice": 6}  # the rulebook's game, where the scenario fixed a setting
NEEDED = {"cell", "game_index", "won", "score", "end_reason"}

Diff = tuple[int, int]  # (countdown cards, attack dice)
Key = tuple[str, int, int]  # (strategy, countdown cards, attack dice): one cell


# --- reading the dataset ----------------------------------------------------------------------------


def _games(ctx: AnalysisContext) -> pl.DataFrame:
    """The games with `countdown`, `dice` and `strategy` as columns (from the manifest if absent)."""
    return kit.games_with_settings(ctx, DEFAULTS).with_columns(
        pl.col("countdown", "dice").cast(pl.Int64),
        pl.col("strategy").cast(pl.String).fill_null(""),
        pl.col("won").cast(pl.Boolean),
        pl.col("score").cast(pl.Float64),
        pl.col("end_reason").cast(pl.String),
    )


def _strategies(ctx: AnalysisContext, games: pl.DataFrame) -> list[str]:
    """Strategies in manifest order, then any found only in the games."""
    order = [kit.strategy_text(c.get("strategy")) for c in ctx.dataset.manifest.get("cells") or []]
    present = set(games["strategy"].unique().to_list())
    return [s for s in dict.fromkeys(order) if s in present] + sorted(present - set(order))


def _difficulties(games: pl.DataFrame) -> list[Diff]:
    """Difficulties from the easiest: most countdown cards first, then most dice."""
    return sorted(games.select("countdown", "dice").unique().rows(), key=lambda p: (-p[0], -p[1]))


def _cells(games: pl.DataFrame) -> dict[Key, pl.DataFrame]:
    return games.partition_by("strategy", "countdown", "dice", as_dict=True)


def diff_label(d: Diff) -> str:
    return f"countdown={d[0]} dice={d[1]}"


# --- paired steps between difficulties ------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One strategy's paired comparison between two difficulties, harder minus easier."""

    strategy: str
    kind: str  # "countdown", "dice", "both", "dice vs countdown"; "shot down" for a loss shift
    what: str  # plain words for the step
    short: str  # the chart's row label
    a: Diff  # the easier (reference) cell
    b: Diff  # the harder cell
    change: stats.PairedDifference  # in the share of games won (or shot down)
    resolved: bool = False  # after the adjustment over the section's every step


def _resolve(steps: list[Step]) -> tuple[list[Step], stats.Family]:
    """The steps marked resolved or not after the Holm adjustment over all of them, and the family."""
    family = stats.family([st.change.p_value for st in steps])
    return [replace(st, resolved=bool(r)) for st, r in zip(steps, family.resolved, strict=True)], family


def _point_range(w: stats.PairedDifference) -> str:
    return f"{points(w.low)} to {points(w.high)}"


def _moves(st: Step, what: str) -> str | None:
    """'raises {what} by 5.2 points' or 'lowers ...' for a resolved step; None otherwise."""
    x = st.change.difference
    if not st.resolved or x == 0:
        return None
    return f"{'raises' if x > 0 else 'lowers'} {what} by {abs(100 * x):.1f} points"


# the step tables' shared columns
STRATEGY = ("strategy", lambda st: st.strategy)
POINTS = (
    "harder − easier, points (95 % CI)",
    lambda st: f"{points(st.change.difference)} ({_point_range(st.change)})",
)
PAIRS = ("pairs", lambda st: f"{st.change.n:,}")
RESOLVED = ("resolved", lambda st: "yes" if st.resolved else "no")


# --- difficulty grid ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """The difficulty grid section's numbers."""

    strategies: list[str]
    counts: list[int]  # countdown cards, most (easiest) first
    dice: list[int]  # attack dice, most first
    diffs: list[Diff]  # from the easiest
    wins: dict[Key, stats.Interval]  # each cell's win rate
    steps: list[Step]
    family: stats.Family  # every step of every strategy: the findings pick from it


def _step_kinds(counts: list[int], dice: list[int]) -> list[tuple[str, str, str, Diff, Diff]]:
    """The steps between the difficulties: (kind, words, chart label, easier, harder)."""
    steps = [
        ("countdown", f"countdown {hi} → {lo} (at {d} dice)", f"cards {hi}→{lo}, {d} dice", (hi, d), (lo, d))
        for d in dice
        for hi, lo in zip(counts, counts[1:], strict=False)
    ] + [
        ("dice", f"dice {hi} → {lo} (at countdown {c})", f"dice {hi}→{lo}, {c} cards", (c, hi), (c, lo))
        for c in counts
        for hi, lo in zip(dice, dice[1:], strict=False)
    ]
    if len(counts) > 1 and len(dice) > 1:
        easy, hard = (counts[0], dice[0]), (counts[-1], dice[-1])
        both = f"both: {easy[0]}/{easy[1]}→{hard[0]}/{hard[1]}"
        steps.append(("both", f"both: {diff_label(easy)} → {diff_label(hard)}", both, easy, hard))
    if len(counts) == 2 and len(dice) == 2:
        # the two single steps against each other: fewer dice minus fewer cards, so B - A < 0
        # means losing a die costs more than losing a countdown card
        fewer_dice, fewer_cards = (counts[0], dice[1]), (counts[1], dice[0])
        what = f"fewer dice ({diff_label(fewer_dice)}) vs fewer cards ({diff_label(fewer_cards)})"
        short = f"{counts[0]}/{dice[1]} vs {counts[1]}/{dice[0]}"
        steps.append(("dice vs countdown", what, short, fewer_cards, fewer_dice))
    return steps


def grid_model(ctx: AnalysisContext) -> Grid | None:
    """Each strategy's win rate at every difficulty, and each strategy's paired comparisons
    between difficulties that the dataset holds, resolved over all of them (None: one difficulty)."""
    games = _games(ctx)
    diffs = _difficulties(games)
    if len(diffs) < 2:
        return None
    wins = kit.win_grid(games, ("strategy", "countdown", "dice"))
    strategies = [s for s in _strategies(ctx, games) if any((s, *d) in wins for d in diffs)]
    if not strategies:
        return None
    counts = sorted({c for c, _ in diffs}, reverse=True)
    dice = sorted({d for _, d in diffs}, reverse=True)
    cells, steps = _cells(games), []
    for s in strategies:
        for kind, what, short, a, b in _step_kinds(counts, dice):
            won = kit.paired_outcome(cells.get((s, *a)), cells.get((s, *b)), pl.col("won"))
            if won is not None:
                steps.append(Step(s, kind, what, short, a, b, won))
    steps, family = _resolve(steps)
    return Grid(strategies, counts, dice, diffs, wins, steps, family)


def _step_sentence(st: Step, family: str) -> str:
    w = st.change
    verdict = _moves(st, f"{st.strategy}'s win rate")
    verdict = verdict or f"changes {st.strategy}'s win rate by {points(w.difference)} points, not resolved"
    return (
        f"{verdict} ({ci_text(w.low, w.high, points)} points; {w.n:,} games each, paired by seed: "
        f"{w.a_only:,} won only at the easier setting, {w.b_only:,} only at the harder; resolved or not "
        f"after {family})"
    )


# the single steps from the easiest cell that the findings name, in words
FIRST_STEPS = {"countdown": "grid.fewer_cards", "dice": "grid.fewer_dice"}


def grid_findings(g: Grid) -> list[str]:
    """The strongest strategy at the easiest difficulty and its win rate at the hardest; what one
    countdown card and one die fewer cost it; and which of the two costs it more."""
    easiest, hardest = g.diffs[0], g.diffs[-1]
    at_easy = [(g.wins[(s, *easiest)], s) for s in g.strategies if (s, *easiest) in g.wins]
    if not at_easy:
        return []
    best_w, best = max(at_easy, key=lambda t: (t[0].estimate, -g.strategies.index(t[1])))
    text = (
        f"At {diff_label(easiest)}, the strongest strategy is {best}: it wins {pct(best_w.estimate)} "
        f"of games (95 % CI {ci(best_w, pct=True)}; {plural(best_w.n)})"
    )
    if (hard := g.wins.get((best, *hardest))) is not None:
        text += (
            f"; at {diff_label(hardest)} it wins {pct(hard.estimate)} "
            f"(95 % CI {ci(hard, pct=True)}; {plural(hard.n)})"
        )
    findings = [text + "."]
    mine = [st for st in g.steps if st.strategy == best]
    for kind, words in FIRST_STEPS.items():
        first = next((st for st in mine if st.kind == kind and st.a == easiest), None)
        if first is not None:
            step = WORDS.fill(words, a=first.a, b=first.b)
            findings.append(f"{step} {_step_sentence(first, g.family.text)}.")
    versus = next((st for st in mine if st.kind == "dice vs countdown"), None)
    if versus is not None:
        w = versus.change
        if versus.resolved and w.difference < 0:
            lead = "losing a die costs more than losing a countdown card"
        elif versus.resolved and w.difference > 0:
            lead = "losing a countdown card costs more than losing a die"
        else:
            lead = "it is not resolved whether losing a die or a countdown card costs more"
        findings.append(
            f"For {best}, {lead}: {diff_label(versus.b)} minus {diff_label(versus.a)} is "
            f"{points(w.difference)} points ({ci_text(w.low, w.high, points)}; {w.n:,} games each, "
            f"paired by seed; {g.family.text})."
        )
    return findings


def grid_tables(g: Grid) -> list[Table]:
    """The heat-table in numbers (a row per strategy and countdown, a column per dice), then
    every step of every strategy."""
    grid_table = Table(
        WORDS["grid.table"],
        ["strategy, countdown cards", *[f"{d} attack dice" for d in g.dice]],
        [
            [f"{s}, countdown {c}", *[estimate_cell(g.wins.get((s, c, d)), as_pct=True) for d in g.dice]]
            for s in g.strategies
            for c in g.counts
        ],
    )
    if not g.steps:
        return [grid_table]
    columns = [
        STRATEGY,
        ("step (easier → harder)", lambda st: st.what),
        ("win rate, easier", lambda st: pct(g.wins[(st.strategy, *st.a)].estimate)),
        ("win rate, harder", lambda st: pct(g.wins[(st.strategy, *st.b)].estimate)),
        POINTS,
        PAIRS,
        ("won only easier / only harder", lambda st: f"{st.change.a_only:,} / {st.change.b_only:,}"),
        RESOLVED,
    ]
    caption = WORDS.fill("grid.steps_table", family=g.family.text)
    return [grid_table, kit.table(caption, columns, g.steps)]


def _square_text(w: stats.Interval | None) -> str:
    if w is None:
        return "not played"
    return f"{pct(w.estimate)}\n{100 * w.low:.1f}–{100 * w.high:.1f}\nn={w.n:,}"


def grid_charts(ctx: AnalysisContext, g: Grid) -> list[charts.Chart]:
    """A heat-table of the win rates per strategy; the paired effect of each step, if any."""
    top = max((w.high for w in g.wins.values()), default=1.0)
    vmax = min(100.0, max(5.0, math.ceil(100 * top / 5) * 5))
    width = min(14.0, max(5.0, len(g.strategies) * (1.3 * len(g.dice) + 1.2) + 1.4))
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(width, max(2.6, 0.95 * len(g.counts) + 1.7))
        axes = fig.subplots(1, len(g.strategies), squeeze=False)[0]
        for ax, s in zip(axes, g.strategies, strict=True):
            cells = [[g.wins.get((s, c, d)) for d in g.dice] for c in g.counts]
            values = [[math.nan if w is None else 100 * w.estimate for w in row] for row in cells]
            texts = [[_square_text(w) for w in row] for row in cells]
            rows, columns = [str(c) for c in g.counts], [str(d) for d in g.dice]
            mesh = charts.heat_grid(ax, values, texts, rows, columns, HEAT, vmax)
            ax.set(xlabel="attack dice per turn", ylabel="countdown cards")
            ax.set_title(s, loc="center", fontsize=10)
        charts.heat_bar(fig, mesh, axes, "win rate (%)")
        fig.suptitle(f"Win rate by difficulty: {ctx.subject}", x=0.01, ha="left", fontweight="bold")
    items = [
        f"{s}, {diff_label((c, d))}: {pct(w.estimate)} (95 % CI {ci(w, pct=True)}, {w.n} games)"
        for (s, c, d), w in g.wins.items()
    ]
    title = WORDS["grid.heat_title"]
    alt = WORDS.fill("grid.heat_alt", title=title, subject=ctx.subject, items="; ".join(items))
    games = count_range([w.n for w in g.wins.values()], "games per square")
    caption = WORDS.fill("grid.heat_caption", games=games)
    heat = charts.save_chart(fig, ctx.out, f"{ctx.name}-difficulty-grid", title, alt, caption)
    return [heat, _steps_chart(ctx, g)] if g.steps else [heat]


def _steps_chart(ctx: AnalysisContext, g: Grid) -> charts.Chart:
    """Each step's paired change in the win rate, a row a step and a colour a strategy."""
    rows = list(dict.fromkeys(st.short for st in g.steps))
    groups = [s for s in g.strategies if any(st.strategy == s for st in g.steps)]
    dots = {}
    for st in g.steps:
        w = st.change
        dots[(st.short, st.strategy)] = stats.Interval(w.difference, w.low, w.high, w.n)
    title = WORDS["grid.steps_title"]
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(8.5, min(16.0, max(2.8, 0.22 * len(rows) * max(1, len(groups)) + 1.8)))
        ax = fig.add_subplot()
        charts.grouped_interval_dots(ax, rows, groups, dots, scale=100, horizontal=True)
        ax.axvline(0, color="#555555", linewidth=0.8)
        ax.set_yticks(range(len(rows)), rows)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_ylabel("difficulty step (countdown cards / attack dice)")
        ax.set_xlabel("change in win rate, harder minus easier (percentage points)")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"{title}\n{ctx.subject}", loc="left")
        ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    items = [
        f"{st.strategy}, {st.what}: {points(st.change.difference)} points "
        f"({ci_text(st.change.low, st.change.high, points)}, {st.change.n} pairs)"
        for st in g.steps
    ]
    alt = WORDS.fill("grid.steps_alt", title=title, subject=ctx.subject, items="; ".join(items))
    pairs = count_range([st.change.n for st in g.steps], "pairs per point")
    caption = WORDS.fill("grid.steps_caption", pairs=pairs)
    return charts.save_chart(fig, ctx.out, f"{ctx.name}-difficulty-steps", title, alt, caption)


# --- loss reasons ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Losses:
    """The loss reasons section's numbers."""

    strategies: list[str]
    diffs: list[Diff]  # from the easiest
    shares: dict[Key, dict[str, stats.Interval]]  # each end reason's share of the cell's games
    lost: dict[Key, dict[str, stats.Interval]]  # how the cell's lost games went (`_lost_games`)
    shifts: list[Step]  # in the share shot down, each harder difficulty against the easiest
    family: stats.Family  # every shift


def _mean_of(frame: pl.DataFrame, column: str) -> stats.Interval:
    values = frame[column].drop_nulls().to_numpy() if column in frame.columns else np.empty(0)
    return stats.mean_interval(values)


def _lost_games(cell: pl.DataFrame) -> dict[str, stats.Interval]:
    """How the lost games of one cell went: the share shot down, the turn of the fatal
    counterattack, the aliens left on landing, the shields bombed."""
    lost = cell.filter(pl.col("end_reason").is_in(LOSSES))
    shot = lost.filter(pl.col("end_reason") == "shot_down")
    return {
        "shot_of_losses": stats.wilson(shot.height, lost.height),
        "shot_turn": _mean_of(shot, "length"),
        "landed_aliens": _mean_of(lost.filter(pl.col("end_reason") == "landed"), "aliens_left"),
        "bombed": _mean_of(lost, "shields_bombed"),
    }


def loss_model(ctx: AnalysisContext) -> Losses | None:
    """Per strategy and difficulty, over the games with an end reason: each end's share and how
    the lost games went; and how each harder difficulty shifts the share of games shot down
    against the easiest, paired by seed (None: no game lost)."""
    games = _games(ctx).filter(pl.col("end_reason").is_not_null())
    if games.filter(pl.col("end_reason").is_in(LOSSES)).height == 0:
        return None
    strategies, diffs, cells = _strategies(ctx, games), _difficulties(games), _cells(games)
    base, shot, shifts = diffs[0], pl.col("end_reason") == "shot_down", []
    for s in strategies:
        for hard in diffs[1:]:
            change = kit.paired_outcome(cells.get((s, *base)), cells.get((s, *hard)), shot)
            if change is not None:
                what = f"{diff_label(base)} → {diff_label(hard)}"
                shifts.append(Step(s, "shot down", what, "", base, hard, change))
    shifts, family = _resolve(shifts)
    shares = {
        key: {r: stats.wilson(int((cell["end_reason"] == r).sum()), cell.height) for r in REASONS}
        for key, cell in cells.items()
    }
    lost = {key: _lost_games(cell) for key, cell in cells.items()}
    return Losses(strategies, diffs, shares, lost, shifts, family)


# how a strategy that mostly loses so reads, and how close its lost games came
KILLERS = {
    "shot_down": ("loss.mostly_shot_down", "loss.shot_down_close"),
    "landed": ("loss.mostly_landed", "loss.landed_close"),
}


def loss_findings(m: Losses) -> list[str]:
    """At the easiest difficulty, how each strategy mostly loses and how close it comes; then the
    largest shift in the share shot down (the largest resolved one, if any is)."""
    base, findings = m.diffs[0], []
    for s in m.strategies:
        share, lost = m.shares.get((s, *base)), m.lost.get((s, *base))
        if share is None or lost is None or lost["shot_of_losses"].n == 0:
            continue
        mostly_shot = lost["shot_of_losses"].estimate >= 0.5
        killer, other = ("shot_down", "landed") if mostly_shot else ("landed", "shot_down")
        (k, o), (how, close) = (share[killer], share[other]), KILLERS[killer]
        text = (
            f"At {diff_label(base)}, {s} {WORDS[how]}: {pct(k.estimate)} of games (95 % CI "
            f"{ci(k, pct=True)}) against {pct(o.estimate)} {REASON_TEXT[other]} (95 % CI {ci(o, pct=True)}; "
            f"{plural(k.n)})"
        )
        w = lost["shot_turn" if killer == "shot_down" else "landed_aliens"]
        if w.n > 1:
            text += f"; {WORDS.fill(close, mean=w.estimate)} ({ci_text(w.low, w.high)}; {w.n:,} games)"
        findings.append(text + ".")
    if m.shifts:
        st = max([st for st in m.shifts if st.resolved] or m.shifts, key=lambda st: abs(st.change.difference))
        w, picked = st.change, f"the largest of the {len(m.shifts)} shifts"
        moves = _moves(st, f"the share of {st.strategy}'s games shot down")
        unresolved = f"no shift in the share shot down is resolved; {picked} is {st.strategy}'s"
        verdict = f"{picked}: it {moves}" if moves else f"{unresolved}, {points(w.difference)} points"
        findings.append(
            f"Going from {diff_label(base)} to {diff_label(st.b)} makes {verdict} "
            f"({ci_text(w.low, w.high, points)} points; {w.n:,} games each, paired by seed; resolved after "
            f"{m.family.text}; every strategy and step in the last table)."
        )
    return findings


def loss_tables(m: Losses) -> list[Table]:
    """Each end's share of the games; how the lost games went; the shifts in the share shot down."""
    keys = [(s, *d) for s in m.strategies for d in m.diffs if (s, *d) in m.shares]
    label = ("strategy, difficulty", lambda k: f"{k[0]}, {diff_label(k[1:])}")
    share_columns = [label, ("games", lambda k: f"{m.shares[k]['cleared'].n:,}")] + [
        (REASON_TEXT[r], lambda k, r=r: estimate_cell(m.shares[k][r], as_pct=True)) for r in REASONS
    ]
    lost_columns = [
        label,
        ("games lost", lambda k: f"{m.lost[k]['shot_of_losses'].n:,}"),
        ("shot down, share of losses", lambda k: estimate_cell(m.lost[k]["shot_of_losses"], as_pct=True)),
        ("turn of the fatal counterattack", lambda k: estimate_cell(m.lost[k]["shot_turn"])),
        ("aliens left on landing", lambda k: estimate_cell(m.lost[k]["landed_aliens"])),
        ("shields lost to bombers", lambda k: estimate_cell(m.lost[k]["bombed"], 2)),
    ]
    tables = [
        kit.table(WORDS["loss.shares_table"], share_columns, keys),
        kit.table(WORDS["loss.lost_table"], lost_columns, keys),
    ]
    if m.shifts:
        caption = WORDS.fill("loss.shifts_table", base=diff_label(m.diffs[0]), family=m.family.text)
        columns = [STRATEGY, ("difficulty step", lambda st: st.what), POINTS, PAIRS, RESOLVED]
        tables.append(kit.table(caption, columns, m.shifts))
    return tables


def loss_charts(ctx: AnalysisContext, m: Losses) -> list[charts.Chart]:
    """A panel per strategy: each end's share of the games at each difficulty."""
    diffs, reasons = m.diffs, list(REASON_TEXT.values())
    with matplotlib.rc_context(charts.STYLE):
        fig = charts.new_figure(min(14.0, max(6.0, len(m.strategies) * (0.9 * len(diffs) + 1.6) + 1.8)), 4.2)
        axes = fig.subplots(1, len(m.strategies), squeeze=False, sharey=True)[0]
        for ax, s in zip(axes, m.strategies, strict=True):
            by_diff = {d: m.shares[(s, *d)] for d in diffs if (s, *d) in m.shares}
            dots = {(d, REASON_TEXT[r]): w for d, by_reason in by_diff.items() for r, w in by_reason.items()}
            # the three reasons of a difficulty 0.22 apart
            charts.grouped_interval_dots(ax, diffs, reasons, dots, scale=100, band=0.66)
            ax.set_xticks(range(len(diffs)), [f"{c} cards\n{d} dice" for c, d in diffs], fontsize=8)
            ax.set(xlim=(-0.6, len(diffs) - 0.4), ylim=(-1.5, 101.5), xlabel="difficulty")
            ax.grid(axis="x", visible=False)
            ax.set_title(s, loc="center", fontsize=10)
        axes[0].set_ylabel("share of games (%)")
        axes[-1].legend(title="end reason", loc="upper left", bbox_to_anchor=(1.0, 1.0))
        fig.suptitle(f"How games end, by difficulty: {ctx.subject}", x=0.01, ha="left", fontweight="bold")
    items = []
    for s, d in [(s, d) for s in m.strategies for d in diffs if (s, *d) in m.shares]:
        shares = m.shares[(s, *d)]
        ends = ", ".join(f"{REASON_TEXT[r]} {pct(w.estimate)} ({ci(w, pct=True)})" for r, w in shares.items())
        items.append(f"{s}, {diff_label(d)}: {ends} of {shares['cleared'].n} games")
    title = WORDS["loss.title"]
    alt = WORDS.fill("loss.alt", title=title, subject=ctx.subject, items="; ".join(items))
    games = count_range([v["cleared"].n for v in m.shares.values()], "games per difficulty")
    caption = WORDS.fill("loss.caption", games=games)
    return [charts.save_chart(fig, ctx.out, f"{ctx.name}-loss-reasons", title, alt, caption)]


# how to read each section
GRID_TEXT, LOSS_TEXT = (WORDS["grid.how"],), (WORDS["loss.how"],)
SECTIONS = (
    kit.Section(
        "difficulty-grid", "Difficulty grid", grid_model, grid_findings, grid_charts, grid_tables, GRID_TEXT
    ),
    kit.Section(
        "loss-reasons", "Loss reasons", loss_model, loss_findings, loss_charts, loss_tables, LOSS_TEXT
    ),
)


def sections(ctx: AnalysisContext) -> list[GameSection]:
    games = ctx.dataset.games
    if games.height == 0 or not NEEDED <= set(games.columns):
        return []
    return kit.build(ctx, SECTIONS)
