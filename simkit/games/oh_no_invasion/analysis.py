"""Oh no... INVASION!!!'s own report sections (issue 4 point 5), as section models on the analysis
kit: win rate by level, crew size and crew with paired comparisons; why games are lost (outcomes,
and players eliminated by cause); the Final Conflict threshold sweep (when the dataset varies the
crews' `final_conflict` parameter, read from the strategy spec as if it were a setting); the score
distribution. The standing words (how to read a section, notes, captions) are in
`report_words.toml`; the findings are written here.

Everything is read from the games table (RULES.md, "Records"); a setting column the dataset lacks
counts as one value. When the threshold varies, the sections other than the sweep use only the games
at the default threshold (or the middle swept value if the default was not played), so that they do
not average over thresholds. Two cells are compared on the games with the same game_index and the same
value of every other setting (game i deals the same decks in every cell: paired by seed).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from simkit.core import stats
from simkit.games.oh_no_invasion import ENGINE, LEVEL
from simkit.games.oh_no_invasion.players import CrewNumbers
from simkit.reporting import charts, kit, text
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import count_range, the_crew, with_interval

WORDS = kit.words(__package__)
DEFAULT_THRESHOLD = CrewNumbers().final_conflict  # both crews'
SETTINGS = ("level", "players", "strategy", "final_conflict", "data")
# each setting's type, its value where the dataset lacks the column, and where a game lacks one
TYPED = (
    ("level", pl.Int64, -1, -1),
    ("players", pl.Int64, -1, -1),
    ("strategy", pl.String, "crew", ""),
    ("final_conflict", pl.Float64, math.nan, math.nan),
    ("data", pl.String, "", ""),
)
WON = "won (Spawnmonster destroyed)"
SHIELDS = "lost: eight shields complete"
ELIM_BEFORE = "lost: crew eliminated before the Final Conflict"
ELIM_DURING = "lost: crew eliminated in the Final Conflict"
ELIM = "lost: crew eliminated"
OUTCOME_ORDER = (WON, SHIELDS, ELIM_BEFORE, ELIM_DURING, ELIM)
# the games column, its legend label, and what a finding calls it
CAUSES = (
    ("eliminated_kamikaze", "kamikaze (Final Conflict)", "players to kamikazes"),
    ("eliminated_invaliens", "Invaliens' attack order", "to the Invaliens' attack orders"),
    ("eliminated_sabotage", "sabotage (no module left)", "to sabotage"),
    ("setbacks_level0", "level 0 setback (stays in)", "setbacks (level 0: the player stays in)"),
)
POOLED = (("players", "{} to {} players"), ("level", "levels {} to {}"))
# the words of a paired difference (kit.difference_sentence): a win rate's, and a score's
RATE_WORDS = ("paired.rate", "paired.rate_head", "paired.rate_same")
SCORE_WORDS = ("paired.score", "paired.score_head", "paired.score_same")


# --- the games, and the words and charts for them ------------------------------------------------


@dataclass(frozen=True)
class Games:
    """The games with typed settings; `base` those at one threshold where the threshold varies
    (every section but the sweep uses these), and the paragraph that says so."""

    all: pl.DataFrame
    base: pl.DataFrame
    note: tuple[str, ...] = ()


def _games(ctx: AnalysisContext) -> Games:
    """The dataset's games, typed, and those at one threshold."""
    # the crews' threshold, a strategy parameter, read as a setting (`bold:final_conflict=8`)
    g = kit.parameter_columns(ctx.dataset.games, ENGINE.strategies, ("final_conflict",))
    g = kit.typed_columns(g, TYPED).with_columns(
        pl.col("won").cast(pl.Boolean), pl.col("score").cast(pl.Float64)
    )
    if g["final_conflict"].n_unique() < 2:
        return Games(g, g)
    base, chosen, default = kit.at_one_value(g, "final_conflict", DEFAULT_THRESHOLD)
    return Games(g, base, (WORDS.fill("notes.one_threshold", threshold=chosen, default=default),))


def _level(v: int) -> str:
    return f"level {v}" if v >= 0 else "the level played"


def _panel_title(v: int) -> str:
    return f"level {v}" if v >= 0 else ""


def _players(p: int) -> str:
    return f"{p} players" if p >= 0 else "the crew size played"


def _level_axis(ax, levels: Sequence[int], crew: str) -> None:
    """A crew's panel, levels along x ("-": the level the dataset does not record)."""
    charts.panel_axis(ax, [str(v) if v >= 0 else "-" for v in levels], "level", f"{crew} crew")


# --- 1. win rate by level x players x crew -------------------------------------------------------

WIN_CHART = kit.Panels("ohno-win-grid", ("win.title", "win.alt", "win.caption"), (3.4, 3.8), "win rate (%)")


@dataclass(frozen=True)
class WinGrid(kit.SectionModel):
    """The win-rate grid and its comparisons, each with its verdict in the section's family."""

    grid: dict[tuple, stats.Interval]  # (level, players, crew) -> win rate
    levels: list[int]
    counts: list[int]  # player counts
    crews: list[str]
    said: list  # the findings in order: a text, or a comparison's name and words (lead, B, A, pooled)
    rows: list[tuple]  # the comparison table: (name, what, crew)
    compared: kit.Compared  # name -> (B minus A, resolved), and the family

    @classmethod
    def read(cls, ctx: AnalysisContext) -> WinGrid | None:
        """The win rate of each level, crew size and crew, and comparisons paired by seed: each crew's
        adjacent levels (table), level 1 against 3 and 0 against 1 (findings), the fewest against the
        most players, and each crew against the one that won most. All are one Holm family; the crews'
        p-values enter times (pairs of crews) / (comparisons made), as the top crew was picked from
        every pair."""
        g = _games(ctx).base
        grid = kit.win_grid(g, ("level", "players", "strategy"))
        if not grid:
            return None
        levels, counts, crews = (kit.sorted_values(g, k) for k in ("level", "players", "strategy"))
        said, rows, found = [], [], kit.Comparisons()  # found: name -> B - A and its p-value
        for word, (lv, p, crew) in kit.grid_extremes(grid).items():  # ties: the lower level
            where = {"level": _level(lv), "players": _players(p), "crew": crew}
            said.append(WORDS.fill("win.extreme", word=word, w=grid[(lv, p, crew)], **where))
        rates = {crew: kit.win_rate(g.filter(pl.col("strategy") == crew)) for crew in crews}  # pooled
        for crew in crews:
            rate, whom, mine = rates[crew], the_crew(crew), g.filter(pl.col("strategy") == crew)
            if rate.n and rate.estimate == 0:
                said.append(WORDS.fill("win.none", whom=whom.capitalize(), n=rate.n, high=100 * rate.high))
                continue
            pooled, lead = kit.pooled_over(mine, POOLED, "level"), f"For {whom}, "
            pair = functools.partial(kit.pairs_along, found, mine, SETTINGS, tag=crew)
            for name, a, b in pair("level", itertools.pairwise(levels)):
                rows.append((name, f"level {b} vs level {a}{pooled}", crew))
            if 1 in levels and 3 in levels:
                headline = [(1, 3)] + ([(0, 1)] if 0 in levels else [])
            else:
                headline = [(levels[0], levels[-1])] if len(levels) > 1 else []
            for name, a, b in pair("level", headline):
                said.append((name, lead, f"games at {_level(b)}", f"at {_level(a)}", pooled))
            extra = kit.pooled_over(mine, POOLED, "players")
            for name, a, b in pair("players", [(counts[0], counts[-1])] if len(counts) > 1 else []):
                rows.append((name, f"{b} players vs {a} players{extra}", crew))
                said.append((name, lead, f"games with {_players(b)}", f"with {_players(a)}", extra))
        if len(crews) > 1:  # each crew against the top crew, picked from every pair of crews
            top = max(crews, key=lambda c: rates[c].estimate if rates[c].n else 0.0)
            picked = f"; {the_crew(top)} picked as the crew that won most"
            extra = kit.pooled_over(g, POOLED, "strategy") + picked
            pair = functools.partial(kit.pairs_along, found, g, SETTINGS, weight=len(crews) / 2)
            for name, crew, _ in pair("strategy", [(c, top) for c in crews if c != top]):
                rows.append((name, f"{top} crew vs {crew} crew{extra}", "-"))
                said.append((name, "", f"Games played by {the_crew(top)}", f"by {the_crew(crew)}", extra))
        return cls(grid, levels, counts, crews, said, rows, found.resolve())

    def findings(self) -> list[str]:
        """The extremes, and each comparison as a sentence with its verdict after the family."""

        def said(name: object, lead: str, b: str, a: str, pooled: str) -> str:
            return self.compared.said(
                WORDS, "win.compared", RATE_WORDS, name, lead=lead, b=b, a=a, pooled=pooled
            )

        return [item if isinstance(item, str) else said(*item) for item in self.said]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """One panel per crew: the win rate by level, one line per crew size, with Wilson intervals."""

        def draw(ax, crew: str) -> None:
            points = {(lv, p): w for (lv, p, c), w in self.grid.items() if c == crew}
            labels = [_players(p) for p in self.counts]
            dots = {"band": 0.6, "joined": True, "labels": labels}
            charts.grouped_interval_dots(ax, self.levels, self.counts, points, 100, **dots)
            _level_axis(ax, self.levels, crew)
            ax.set_xlim(-0.5, len(self.levels) - 0.5)
            if crew == self.crews[-1]:
                charts.side_legend(ax, "crew size")

        items = [
            WORDS.fill("win.alt_item", level=lv, players=p, crew=crew, w=w, wins=text.successes(w))
            for (lv, p, crew), w in self.grid.items()
        ]
        ylim, games = (-1, kit.rate_top(self.grid.values())), text.per(self.grid.values(), "point")
        return [
            WIN_CHART.draw(ctx, WORDS, self.crews, draw, text.joined_upto(items, 24), None, ylim, games=games)
        ]

    def tables(self) -> list[Table]:
        """The win rate of every cell, and the paired comparisons (B minus A) with their verdicts."""
        cells = [[str(lv), str(p), crew, *text.rate_cells(w)] for (lv, p, crew), w in self.grid.items()]
        columns = ["level", "players", "crew", "games", "wins", "win rate", "95 % CI"]
        tables = [Table(WORDS["win.table"], columns, cells)]
        rows = [[what, crew, *self.compared.cells(name)] for name, what, crew in self.rows]
        if rows:
            columns = ["comparison", "crew", "games paired", "B - A", "95 % CI", "resolved"]
            tables.append(Table(WORDS["win.pairs_table"], columns, rows))
        return tables


# --- 2. why games are lost -----------------------------------------------------------------------

OUTCOMES = ("loss.outcomes.title", "loss.outcomes.alt", "loss.outcomes.caption")
OUTCOMES_CHART = kit.Panels("ohno-outcomes", OUTCOMES, (3.0, 3.6), "share of games (%)")
ELIMINATIONS = ("loss.eliminations.title", "loss.eliminations.alt", "loss.eliminations.caption")
ELIMINATIONS_CHART = kit.Panels("ohno-eliminations", ELIMINATIONS, (3.0, 3.6), "players eliminated per game")


def _outcomes(g: pl.DataFrame) -> pl.DataFrame:
    """The games with a verdict, each with its outcome: one of `OUTCOME_ORDER`, or its end reason."""
    reason, won = pl.col("end_reason").cast(pl.String).fill_null("(none)"), pl.col("won")
    eliminated = reason == "crew_eliminated"
    lost = [(eliminated, pl.lit(ELIM))]
    if "final_conflict_called" in g.columns:  # the crew-eliminated losses split by the call
        called = pl.col("final_conflict_called").cast(pl.Boolean).fill_null(False)
        lost = [(eliminated & called, pl.lit(ELIM_DURING)), (eliminated, pl.lit(ELIM_BEFORE))]
    rules = [  # the first that holds decides
        (won & (reason == "spawnmonster_destroyed"), pl.lit(WON)),
        (won, pl.lit("won: ") + reason),
        (reason == "shields_complete", pl.lit(SHIELDS)),
        *lost,
    ]
    outcome = pl.coalesce(*(pl.when(when).then(then) for when, then in rules), pl.lit("lost: ") + reason)
    return g.filter(won.is_not_null()).with_columns(outcome.alias("outcome"))


@dataclass(frozen=True)
class Losses(kit.SectionModel):
    """How the games of each level and crew end, and their players eliminated per game by cause."""

    ended: kit.Shares  # (level, crew) -> games, and its games of each outcome
    outcomes: list[str]  # in page order
    losses: list[str]  # the outcomes that are losses
    causes: list[tuple[str, str, str]]  # the rows of CAUSES the dataset records
    eliminated: dict[tuple, dict[str, stats.Interval]]  # (level, crew) -> cause -> players per game
    levels: list[int]
    crews: list[str]

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Losses | None:
        """How the games of each level and crew end, and the players eliminated per game by cause
        (level 0's setbacks only where there were any)."""
        g, keys = _outcomes(_games(ctx).base), ("level", "strategy")
        if g.height == 0:
            return None
        causes = [c for c in CAUSES if c[0] in g.columns and (c[0] != "setbacks_level0" or g[c[0]].sum())]
        ended, per_game = kit.shares(g, keys, "outcome"), kit.means(g, keys, [c for c, *_ in causes])
        levels, crews = (kit.sorted_values(g, k) for k in keys)
        outcomes = ended.seen(OUTCOME_ORDER)
        losses = [o for o in outcomes if o != WON and not o.startswith("won:")]
        return cls(ended, outcomes, losses, causes, per_game, levels, crews)

    def findings(self) -> list[str]:
        """For each crew, the most frequent loss at each level, and the players lost per game by cause
        at the highest level."""
        out = []
        for crew in self.crews:
            tops, whom = [], the_crew(crew)  # tops: (level, loss, its share) where the crew lost any
            for lv in self.levels:
                if found := self.ended.top((lv, crew), self.losses):
                    share = WORDS.fill("loss.share", w=found[1], level=_level(lv))
                    tops.append((lv, found[0].removeprefix("lost: "), share))
            if tops:  # one way at every level it lost (one_way), or each level's (ways)
                one = len({top for _, top, _ in tops}) == 1
                where = "at every level" if len(tops) > 1 else f"at {_level(tops[0][0])}"
                said = "; ".join(share if one else f"the {top}, {share}" for _, top, share in tops)
                key, top = ("loss.one_way" if one else "loss.ways"), tops[0][1]
                out.append(WORDS.fill(key, whom=whom.capitalize(), top=top, where=where, said=said))
            per_game = self.eliminated.get((self.levels[-1], crew)) or {}  # none: no games at that level
            causes = [
                (per_game[c], what) for c, _, what in self.causes if per_game and per_game[c].estimate > 0
            ]
            if causes:
                lost = ", ".join(WORDS.fill("loss.cause", iv=iv, what=what) for iv, what in causes)
                n, level = per_game[self.causes[0][0]].n, _level(self.levels[-1])
                out.append(WORDS.fill("loss.eliminated", level=level, whom=whom, text=lost, n=n))
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Per crew: the share of each outcome by level (stacked bars), and the players eliminated per
        game by cause (bars with Student t intervals)."""
        levels, first, played = self.levels, self.crews[0], self.ended.games.values()

        def outcomes(ax, crew: str) -> None:
            shares = self.ended.percents([(lv, crew) for lv in levels], self.outcomes)
            charts.stacked_bars(ax, [str(lv) for lv in levels], shares, upright=True, named=crew == first)
            _level_axis(ax, levels, crew)
            ax.set_ylim(0, 100)

        def eliminations(ax, crew: str) -> None:
            points = {(lv, c): iv for lv in levels for c, iv in self.eliminated.get((lv, crew), {}).items()}
            labels = [label if crew == first else None for _, label, _ in self.causes]
            charts.grouped_interval_bars(ax, levels, [c for c, *_ in self.causes], points, labels=labels)
            _level_axis(ax, levels, crew)

        items = text.joined_upto(self.ended.alt_items(self.outcomes, "level {}, {}"), 24)
        legend, games = {"title": "outcome", "ncols": 2, "fontsize": 8}, count_range(played, "games per bar")
        out = [OUTCOMES_CHART.draw(ctx, WORDS, self.crews, outcomes, items, legend, games=games)]
        if not self.causes:
            return out
        items = []
        for (lv, crew), iv in self.eliminated.items():
            per_game = ", ".join(f"{label} {iv[c].estimate:.2f}" for c, label, _ in self.causes)
            items.append(f"level {lv}, {crew}: {per_game}")
        games, legend = count_range(played, "games per bar group"), legend | {"title": "cause"}
        items = text.joined_upto(items, 24)
        out.append(ELIMINATIONS_CHART.draw(ctx, WORDS, self.crews, eliminations, items, legend, games=games))
        return out

    def tables(self) -> list[Table]:
        """Each level and crew: the share of games lost in all and in each way (Wilson intervals), and
        the players eliminated per game by cause (t intervals)."""
        rows = []
        for group, n in self.ended.games.items():  # group: (level, crew)
            lost = [self.ended.share(group, *self.losses), *self.ended.of(group, self.losses).values()]
            per_game = [with_interval(self.eliminated[group][c], rate=False) for c, _, _ in self.causes]
            rows.append([*map(str, group), f"{n:,}", *(with_interval(w) for w in lost), *per_game])
        columns = ["level", "crew", "games", "lost", *(o.removeprefix("lost: ") for o in self.losses)]
        columns += [f"eliminated per game: {label}" for _, label, _ in self.causes]
        return [Table(WORDS["loss.table"], columns, rows)]


# --- 3. the Final Conflict threshold sweep -------------------------------------------------------

SWEEP_CHART = kit.Panels(
    "ohno-threshold", ("sweep.title", "sweep.alt", "sweep.caption"), (3.3, 3.6), "win rate (%)"
)


class Thresholds(kit.SweepSection):
    """The win rate at every threshold of each level, crew and crew size, its best threshold, and
    every other against that, paired by seed; at every threshold, the share of games lost in the
    Final Conflict or to the eighth shield."""

    SWEPT, ENDING, KEYS = "final_conflict", "outcome", SETTINGS
    GROUPS = (
        ("level", "level", _panel_title),
        ("strategy", "crew", "{}"),
        ("players", "players", "{} players"),
    )
    VARYING = ("players",)
    ENDS = ((ELIM_DURING, "crew eliminated in the Final Conflict"), (SHIELDS, "eight shields complete"))
    WORDS, CHART, VALUE = WORDS, SWEEP_CHART, "threshold"
    # a group's sweep in words: its best threshold, against its neighbours, the thresholds not
    # resolved from it (or none), and the family
    SAID = ("sweep.best", "sweep.against", "sweep.near", "sweep.tied", "sweep.resolved", "sweep.family")
    ALT_ITEM, TABLES = "sweep.alt_item", ("sweep.best_table", "sweep.every_table")
    AXIS, LEGEND = "threshold (crew weapons per strike needed)", "crew (star: best threshold)"

    @classmethod
    def games(cls, ctx: AnalysisContext) -> pl.DataFrame:
        """All games with a verdict and a threshold (not only those at one threshold), with their outcome."""
        g = _games(ctx).all.filter(pl.col("won").is_not_null() & pl.col("final_conflict").is_not_nan())
        return _outcomes(g)

    def who(self, group: tuple) -> str:
        lv, crew, p = group
        return f"{_level(lv).capitalize()}, {crew} crew" + (f", {p} players" if self.shown[2] else "")


# --- 4. the score distribution -------------------------------------------------------------------

SCORES_CHART = kit.Panels(
    "ohno-scores", ("score.title", "score.alt", "score.caption"), (3.4, 3.4), "share of games (%)"
)


class Scores(kit.ScoreSection):
    """The scored games, and for each crew that scored the level it scores most at against the
    second; the share of games at each score; the mean score per level, crew size and crew."""

    ALONG, SERIES = ("level", _level, _panel_title), ("strategy", "crew", the_crew)
    ROWS, KEYS, POOLED = (("level", "level"), ("players", "players"), ("strategy", "crew")), SETTINGS, POOLED
    WORDS, CHART, TABLE, AXIS = WORDS, SCORES_CHART, "score.table", "score (points)"
    SAID = ("score.most", "score.top", SCORE_WORDS)

    @classmethod
    def games(cls, ctx: AnalysisContext) -> pl.DataFrame:
        return _games(ctx).base


# --- the sections --------------------------------------------------------------------------------

SECTIONS = [
    WinGrid.section("ohno-win-grid", "Win rate by level, crew size and crew", WORDS["win.how"]),
    Losses.section("ohno-losses", "Why games are lost", WORDS["loss.how"]),
    Thresholds.section(
        "ohno-final-conflict",
        "When to call the Final Conflict: the threshold sweep",
        WORDS["sweep.how"],
        WORDS["sweep.optimistic"],
    ),
    Scores.section("ohno-scores", "Score distribution", WORDS["score.how"]),
]


def _notes(ctx: AnalysisContext) -> dict[str, tuple[str, ...]]:
    """What holds only for this dataset, after a section's own paragraphs: level 0's rules where levels
    0 and 1 were both played, and which games a section uses where the threshold varies."""
    games = _games(ctx)
    both = {0, 1} <= set(games.base["level"].to_list())
    level0 = (WORDS.fill("notes.level0", label=LEVEL.label(0)),) if both else ()
    return {"ohno-win-grid": level0 + games.note, "ohno-losses": games.note, "ohno-scores": games.note}


def sections(ctx: AnalysisContext) -> list[GameSection]:
    return kit.build(ctx, SECTIONS, ("won", "score", "end_reason", "game_index"), _notes)
