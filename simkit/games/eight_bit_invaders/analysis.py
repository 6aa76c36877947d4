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
gets no loss section. Nothing here plays a game. The page's words (how to read each section, the
findings, the captions and alt texts) are the templates of report_words.toml.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import polars as pl

from simkit.core import stats
from simkit.reporting import charts, kit
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import estimate_cell, pct, per

WORDS = kit.words(__package__)

REASONS = {"cleared": "cleared", "shot_down": "shot down", "landed": "landed"}  # each end's words
LOSSES = ("shot_down", "landed")
DEFAULTS = {"countdown": 7, "dice": 6}  # the rulebook's game, where the scenario fixed a setting
NEEDED = {"cell", "game_index", "won", "score", "end_reason"}

Key = tuple[str, int, int]  # (strategy, countdown cards, attack dice): one cell


class Diff(NamedTuple):
    """A difficulty, as the page names it: "countdown=7 dice=6"."""

    countdown: int  # countdown cards
    dice: int  # attack dice

    def __str__(self) -> str:
        return f"countdown={self.countdown} dice={self.dice}"


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


def _difficulties(games: pl.DataFrame) -> list[Diff]:
    """Difficulties from the easiest: most countdown cards first, then most dice."""
    pairs = games.select("countdown", "dice").unique().rows()
    return sorted((Diff(*p) for p in pairs), key=lambda d: (-d.countdown, -d.dice))


def _cells(games: pl.DataFrame) -> dict[Key, pl.DataFrame]:
    return games.partition_by("strategy", "countdown", "dice", as_dict=True)


# --- paired steps between difficulties ------------------------------------------------------------


# each kind of step's words, and its row's label in the steps chart (a loss shift has no row)
KINDS = {
    "countdown": ("steps.countdown", "steps.countdown_short"),
    "dice": ("steps.dice", "steps.dice_short"),
    "both": ("steps.both", "steps.both_short"),
    "versus": ("steps.versus", "steps.versus_short"),
    "shot_down": ("steps.shot_down", "steps.shot_down"),
}


class Step(NamedTuple):
    """One strategy's paired comparison between two difficulties, harder minus easier."""

    strategy: str
    kind: str  # "countdown", "dice", "both", "versus"; "shot_down" for a loss shift
    a: Diff  # the easier (reference) cell
    b: Diff  # the harder cell
    change: stats.PairedDifference  # in the share of games won (or shot down)
    resolved: bool = False  # after the adjustment over the section's every step

    @property
    def what(self) -> str:
        """The step in words, its kind's text filled with its two difficulties."""
        return WORDS.fill(KINDS[self.kind][0], a=self.a, b=self.b)

    @property
    def short(self) -> str:
        """The step as the steps chart labels its row."""
        return WORDS.fill(KINDS[self.kind][1], a=self.a, b=self.b)

    def moves(self, what: str) -> str | None:
        """'raises {what} by 5.2 points' or 'lowers ...' for a resolved step; None otherwise."""
        if not self.resolved or self.change.difference == 0:
            return None
        return WORDS.fill("steps.moves", change=self.change, what=what)


# the step tables' shared columns
STRATEGY, PAIRS = ("strategy", "{strategy}"), ("pairs", "{change.n:,}")
RESOLVED = ("resolved", "{resolved:yes|no}")
POINTS = ("harder − easier, points (95 % CI)", "{change:points} ({change:interval points})")


# --- difficulty grid ------------------------------------------------------------------------------


def _step_kinds(counts: list[int], dice: list[int]) -> list[tuple[str, Diff, Diff]]:
    """The steps between the difficulties: (kind, easier, harder)."""
    along = ("countdown", "dice")  # the kind of a single step, by the setting it steps along
    steps = [(along[i], Diff(*a), Diff(*b)) for i, a, b in kit.neighbour_steps([counts, dice])]
    if len(counts) > 1 and len(dice) > 1:
        steps.append(("both", Diff(counts[0], dice[0]), Diff(counts[-1], dice[-1])))
    if len(counts) == 2 and len(dice) == 2:
        # the two single steps against each other: fewer dice minus fewer cards, so B - A < 0
        # means losing a die costs more than losing a countdown card
        steps.append(("versus", Diff(counts[1], dice[0]), Diff(counts[0], dice[1])))
    return steps


# the single steps from the easiest cell that the findings name, in words
FIRST_STEPS = {"countdown": "grid.fewer_cards", "dice": "grid.fewer_dice"}
HEAT_CHART = kit.ChartWords("difficulty-grid", ("grid.heat_title", "grid.heat_alt", "grid.heat_caption"))
STEPS_CHART = kit.ChartWords("difficulty-steps", ("grid.steps_title", "grid.steps_alt", "grid.steps_caption"))


@dataclass(frozen=True)
class Grid(kit.SectionModel):
    """The difficulty grid section's numbers."""

    strategies: list[str]
    counts: list[int]  # countdown cards, most (easiest) first
    dice: list[int]  # attack dice, most first
    diffs: list[Diff]  # from the easiest
    wins: dict[Key, stats.Interval]  # each cell's win rate
    steps: list[Step]
    family: stats.Family  # every step of every strategy: the findings pick from it

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Grid | None:
        """Each strategy's win rate at every difficulty, and each strategy's paired comparisons
        between difficulties that the dataset holds, resolved over all of them (None: one difficulty)."""
        games = _games(ctx)
        diffs = _difficulties(games)
        if len(diffs) < 2:
            return None
        wins = kit.win_grid(games, ("strategy", "countdown", "dice"))
        strategies = [s for s in kit.strategies_played(ctx, games) if any((s, *d) in wins for d in diffs)]
        if not strategies:
            return None
        counts = sorted({c for c, _ in diffs}, reverse=True)
        dice = sorted({d for _, d in diffs}, reverse=True)
        steps = kit.paired_steps(_cells(games), strategies, _step_kinds(counts, dice), pl.col("won"), Step)
        return cls(strategies, counts, dice, diffs, wins, *steps)

    def findings(self) -> list[str]:
        """The strongest strategy at the easiest difficulty and its win rate at the hardest; what one
        countdown card and one die fewer cost it; and which of the two costs it more."""
        easiest, hardest = self.diffs[0], self.diffs[-1]
        at_easy = [(self.wins[(s, *easiest)], s) for s in self.strategies if (s, *easiest) in self.wins]
        if not at_easy:
            return []
        best_w, best = max(at_easy, key=lambda t: (t[0].estimate, -self.strategies.index(t[1])))
        text = WORDS.fill("grid.best", easiest=easiest, best=best, rate=best_w)
        if (hard := self.wins.get((best, *hardest))) is not None:
            text += WORDS.fill("grid.at_hardest", hardest=hardest, rate=hard)
        findings, family = [text + "."], self.family.text
        mine = [st for st in self.steps if st.strategy == best]
        what = WORDS.fill("grid.win_rate", strategy=best)
        for kind, words in FIRST_STEPS.items():
            if (st := next((st for st in mine if st.kind == kind and st.a == easiest), None)) is not None:
                verdict = st.moves(what) or WORDS.fill_from("grid.unresolved", st, what=what)
                step = WORDS.fill_from(words, st)
                findings.append(WORDS.fill_from("grid.step", st, step=step, verdict=verdict, family=family))
        if (st := next((st for st in mine if st.kind == "versus"), None)) is not None:
            x = st.change.difference if st.resolved else 0  # fewer dice - fewer cards: < 0, a die costs more
            lead = "grid.die_costs_more" if x < 0 else "grid.card_costs_more" if x > 0 else "grid.unclear"
            findings.append(WORDS.fill_from("grid.versus", st, best=best, lead=WORDS[lead], family=family))
        return findings

    def tables(self) -> list[Table]:
        """The heat-table in numbers (a row per strategy and countdown, a column per dice), then
        every step of every strategy."""
        heads = ("strategy, countdown cards", "{group}, countdown {row}", "{column} attack dice")
        grid = (self.strategies, self.counts, self.dice, self.wins)
        grid_table = kit.rate_grid_table(WORDS["grid.table"], *grid, heads)
        if not self.steps:
            return [grid_table]
        columns = [
            STRATEGY,
            ("step (easier → harder)", "{what}"),
            ("win rate, easier", lambda st: pct(self.wins[(st.strategy, *st.a)].estimate)),
            ("win rate, harder", lambda st: pct(self.wins[(st.strategy, *st.b)].estimate)),
            POINTS,
            PAIRS,
            ("won only easier / only harder", "{change.a_only:,} / {change.b_only:,}"),
            RESOLVED,
        ]
        caption = WORDS.fill("grid.steps_table", family=self.family.text)
        return [grid_table, kit.table(caption, columns, self.steps)]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """A heat-table of the win rates per strategy; the paired effect of each step, if any."""
        labels = ("attack dice per turn", "countdown cards", "win rate (%)")
        title = f"Win rate by difficulty: {ctx.subject}"
        fig = charts.rate_heat_panels(self.strategies, self.counts, self.dice, self.wins, labels, title)
        items = "; ".join(
            WORDS.fill("grid.heat_item", strategy=s, difficulty=Diff(c, d), rate=w)
            for (s, c, d), w in self.wins.items()
        )
        heat = HEAT_CHART.save(ctx, WORDS, fig, items=items, games=per(self.wins.values(), "square"))
        return [heat, self._steps_chart(ctx)] if self.steps else [heat]

    def _steps_chart(self, ctx: AnalysisContext) -> charts.Chart:
        """Each step's paired change in the win rate, a row a step and a colour a strategy."""
        rows = list(dict.fromkeys(st.short for st in self.steps))
        groups = [s for s in self.strategies if any(st.strategy == s for st in self.steps)]
        dots = {(st.short, st.strategy): kit.as_interval(st.change) for st in self.steps}
        height = min(16.0, max(2.8, 0.22 * len(rows) * max(1, len(groups)) + 1.8))
        with charts.one_panel(8.5, height) as (fig, ax):
            charts.dots_about_zero(ax, rows, groups, dots, scale=100, horizontal=True)
            ax.set_ylabel("difficulty step (countdown cards / attack dice)")
            ax.set_xlabel("change in win rate, harder minus easier (percentage points)")
            ax.set_title(f"{WORDS['grid.steps_title']}\n{ctx.subject}", loc="left")
            charts.side_legend(ax, "strategy")
        items = "; ".join(WORDS.fill_from("grid.steps_item", st) for st in self.steps)
        pairs = per((st.change for st in self.steps), "point", "pairs")
        return STEPS_CHART.save(ctx, WORDS, fig, items=items, pairs=pairs)


# --- loss reasons ---------------------------------------------------------------------------------


def _lost_games(cell: pl.DataFrame) -> dict[str, stats.Interval]:
    """How the lost games of one cell went: the share shot down, the turn of the fatal
    counterattack, the aliens left on landing, the shields bombed."""
    lost = cell.filter(pl.col("end_reason").is_in(LOSSES))
    shot = lost.filter(pl.col("end_reason") == "shot_down")
    return {
        "shot_of_losses": stats.wilson(shot.height, lost.height),
        "shot_turn": kit.mean_of(shot, "length"),
        "landed_aliens": kit.mean_of(lost.filter(pl.col("end_reason") == "landed"), "aliens_left"),
        "bombed": kit.mean_of(lost, "shields_bombed"),
    }


# how a strategy that mostly loses so reads, how close its lost games came, and the entry of
# `_lost_games` that says so
KILLERS = {
    "shot_down": ("loss.mostly_shot_down", "loss.shot_down_close", "shot_turn"),
    "landed": ("loss.mostly_landed", "loss.landed_close", "landed_aliens"),
}


LOSS_CHART = kit.ChartWords("loss-reasons", ("loss.title", "loss.alt", "loss.caption"))


@dataclass(frozen=True)
class Losses(kit.SectionModel):
    """The loss reasons section's numbers."""

    strategies: list[str]
    diffs: list[Diff]  # from the easiest
    shares: dict[Key, dict[str, stats.Interval]]  # each end reason's share of the cell's games
    lost: dict[Key, dict[str, stats.Interval]]  # how the cell's lost games went (`_lost_games`)
    shifts: list[Step]  # in the share shot down, each harder difficulty against the easiest
    family: stats.Family  # every shift

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Losses | None:
        """Per strategy and difficulty, over the games with an end reason: each end's share and how
        the lost games went; and how each harder difficulty shifts the share of games shot down
        against the easiest, paired by seed (None: no game lost)."""
        games = _games(ctx).filter(pl.col("end_reason").is_not_null())
        if games.filter(pl.col("end_reason").is_in(LOSSES)).height == 0:
            return None
        strategies, diffs, cells = kit.strategies_played(ctx, games), _difficulties(games), _cells(games)
        steps = [("shot_down", diffs[0], hard) for hard in diffs[1:]]
        shifts = kit.paired_steps(cells, strategies, steps, pl.col("end_reason") == "shot_down", Step)
        ends = kit.shares(games, ("strategy", "countdown", "dice"), "end_reason")
        shares = {key: ends.of(key, REASONS) for key in ends.games}
        lost = {key: _lost_games(cell) for key, cell in cells.items()}
        return cls(strategies, diffs, shares, lost, *shifts)

    def findings(self) -> list[str]:
        """At the easiest difficulty, how each strategy mostly loses and how close it comes; then the
        largest shift in the share shot down (the largest resolved one, if any is)."""
        base, findings = self.diffs[0], []
        for s in self.strategies:
            share, lost = self.shares.get((s, *base)), self.lost.get((s, *base))
            if share is None or lost is None or lost["shot_of_losses"].n == 0:
                continue
            mostly_shot = lost["shot_of_losses"].estimate >= 0.5
            killer, other = ("shot_down", "landed") if mostly_shot else ("landed", "shot_down")
            how, close, entry = KILLERS[killer]
            values = {"base": base, "strategy": s, "how": WORDS[how], "other_end": REASONS[other]}
            text = WORDS.fill("loss.mostly", **values, rate=share[killer], other=share[other])
            w = lost[entry]  # how close the lost games came
            findings.append(text + (WORDS.fill(close, mean=w) if w.n > 1 else "") + ".")
        if self.shifts:
            resolved = [st for st in self.shifts if st.resolved]
            st = max(resolved or self.shifts, key=lambda st: abs(st.change.difference))
            moves = st.moves(WORDS.fill("loss.shot_share", strategy=st.strategy))
            key = "loss.shift_moves" if moves else "loss.shift_unresolved"
            verdict = WORDS.fill_from(key, st, shifts=len(self.shifts), moves=moves)
            findings.append(WORDS.fill_from("loss.shift", st, verdict=verdict, family=self.family.text))
        return findings

    def tables(self) -> list[Table]:
        """Each end's share of the games; how the lost games went; the shifts in the share shot down."""
        keys = [(s, *d) for s in self.strategies for d in self.diffs if (s, *d) in self.shares]
        label = ("strategy, difficulty", lambda k: f"{k[0]}, {Diff(*k[1:])}")
        share_columns = [label, ("games", lambda k: f"{self.shares[k]['cleared'].n:,}")] + [
            (words, lambda k, r=r: estimate_cell(self.shares[k][r], as_pct=True))
            for r, words in REASONS.items()
        ]
        lost_columns = [
            label,
            ("games lost", lambda k: f"{self.lost[k]['shot_of_losses'].n:,}"),
            (
                "shot down, share of losses",
                lambda k: estimate_cell(self.lost[k]["shot_of_losses"], as_pct=True),
            ),
            ("turn of the fatal counterattack", lambda k: estimate_cell(self.lost[k]["shot_turn"])),
            ("aliens left on landing", lambda k: estimate_cell(self.lost[k]["landed_aliens"])),
            ("shields lost to bombers", lambda k: estimate_cell(self.lost[k]["bombed"], 2)),
        ]
        tables = [
            kit.table(WORDS["loss.shares_table"], share_columns, keys),
            kit.table(WORDS["loss.lost_table"], lost_columns, keys),
        ]
        if self.shifts:
            caption = WORDS.fill("loss.shifts_table", base=self.diffs[0], family=self.family.text)
            columns = [STRATEGY, ("difficulty step", "{what}"), POINTS, PAIRS, RESOLVED]
            tables.append(kit.table(caption, columns, self.shifts))
        return tables

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """A panel per strategy: each end's share of the games at each difficulty."""
        diffs, reasons = self.diffs, list(REASONS.values())
        width = min(14.0, max(6.0, len(self.strategies) * (0.9 * len(diffs) + 1.6) + 1.8))
        title = f"How games end, by difficulty: {ctx.subject}"
        with charts.panel_row(len(self.strategies), width, 4.2, title, sharey=True) as (fig, axes):
            for ax, s in zip(axes, self.strategies, strict=True):
                by_diff = {d: self.shares[(s, *d)] for d in diffs if (s, *d) in self.shares}
                dots = {(d, REASONS[r]): w for d, by_reason in by_diff.items() for r, w in by_reason.items()}
                # the three reasons of a difficulty 0.22 apart
                charts.grouped_interval_dots(ax, diffs, reasons, dots, scale=100, band=0.66)
                ax.set_xticks(range(len(diffs)), [f"{c} cards\n{d} dice" for c, d in diffs], fontsize=8)
                ax.set(xlim=(-0.6, len(diffs) - 0.4), ylim=(-1.5, 101.5), xlabel="difficulty")
                ax.grid(axis="x", visible=False)
                ax.set_title(s, loc="center", fontsize=10)
            axes[0].set_ylabel("share of games (%)")
            charts.side_legend(axes[-1], "end reason")
        items = []
        for s, d in [(s, d) for s in self.strategies for d in diffs if (s, *d) in self.shares]:
            ends = self.shares[(s, *d)]
            values = {"strategy": s, "difficulty": d, "games": ends["cleared"].n}
            ends = ", ".join(WORDS.fill("loss.alt_end", end=REASONS[r], rate=w) for r, w in ends.items())
            items.append(WORDS.fill("loss.alt_item", ends=ends, **values))
        games = per((v["cleared"] for v in self.shares.values()), "difficulty")
        return [LOSS_CHART.save(ctx, WORDS, fig, items="; ".join(items), games=games)]


SECTIONS = (
    Grid.section("difficulty-grid", "Difficulty grid", WORDS["grid.how"]),
    Losses.section("loss-reasons", "Loss reasons", WORDS["loss.how"]),
)


def sections(ctx: AnalysisContext) -> list[GameSection]:
    return kit.build(ctx, SECTIONS, NEEDED)
