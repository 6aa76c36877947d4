"""The analysis kit's seat-level pieces (`simkit.reporting.kit` holds the game-level ones), for a
game whose datasets hold seat rows (`seats/`: a row a seat a game, with `cell`, `game_index`,
`seat`, `strategy`, `score`, `won` and the game's own columns), as a competitive game's do.

- `rows(ctx)`: the seat rows with `rel`, a seat's points above the average seat of its game: a
  within-game measure, comparable across player counts and opponents.
- `SeatCell.all(ctx)`: the cells with their player count, each seat's strategy and their games,
  labelled for the page ("2 players, greedy mirror", "3 players, missions vs greedy vs greedy").
- Each game one unit: the seats of one game share its deal and its outcome, so they are not
  independent. `per_game(part, expr)` is the mean of a per-seat quantity over seat-games with a
  cluster-robust interval, `average_seat(part)` the average seat's win rate so.
- `by_cell(rows, cells)`: each cell's seat rows; `pooled(rows, cells)`: the seat rows of each
  strategy at each player count, over the cells.
- `within_games(a, b)`: the seats of `b` against those of `a` (the holders of two cards, say) in
  the games that hold both, paired by game.

Three analyses a competitive game's report makes from them, each a cell at a time:

- `seat_effects`: each seat's win rate and points above the table (does the first seat gain?).
- `head_to_head`: each strategy's seats where strategies mix, and with two, their gap a game.
- `dealt`: the values of a seat column dealt at random (a mission card, a faction) in one cell:
  each value's holders, every pair of values compared in the games that dealt both, and the
  highest value against the lowest (`Dealt.extremes`).

Each is also a report section, its words the game's (`kit.Words`, by the keys the class lists):
`SeatEffectsSection`, `HeadToHeadSection` and `DealtSection`. A game subclasses one, setting its
`WORDS` (and the chart's `STEM`, and for `DealtSection` the `COLUMNS`), and says which cells it
reads (`cells_of`) where not every cell. `first_seat_verdicts` and `dealt_verdicts` declare the
verdicts of a `SeatEffectsSection` and a `DealtSection` read at every rung of a strategy ladder
(`verdicts.Mirror`: the report's "Does the verdict hold?").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any, ClassVar, NamedTuple, Self

import matplotlib
import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.reporting import charts, kit
from simkit.reporting.sections import AnalysisContext, Table
from simkit.reporting.text import by_sign, count_range, signed1
from simkit.reporting.verdicts import Mirror, Reading

NEEDED = {"cell", "game_index", "seat", "score", "won"}


def rows(ctx: AnalysisContext) -> pl.DataFrame | None:
    """The seat rows, `score` as a float and `won` as a boolean, with `rel`, the seat's points
    above the average seat of its game (None: the dataset has no seat rows)."""
    seats = ctx.dataset.seats
    if seats is None or not seats.height or not NEEDED <= set(seats.columns):
        return None
    seats = seats.with_columns(pl.col("score").cast(pl.Float64), pl.col("won").cast(pl.Boolean))
    return seats.with_columns(rel=pl.col("score") - pl.col("score").mean().over("cell", "game_index"))


@dataclass(frozen=True)
class SeatCell:
    """One cell of a game with seats: its player count, each seat's strategy as the cell lists
    them, its games, and the further settings a game asked `all` for."""

    cell: str
    players: int
    strategies: tuple[str, ...]
    games: int
    settings: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def mirror(self) -> bool:
        """Every seat plays the same strategy."""
        return len(set(self.strategies)) == 1

    @property
    def label(self) -> str:
        who = f"{self.strategies[0]} mirror" if self.mirror else " vs ".join(self.strategies) or "?"
        return f"{self.players} players, {who}"

    def __str__(self) -> str:  # a chart's legend names the cell by its label
        return self.label

    @classmethod
    def all(cls, ctx: AnalysisContext, **defaults: Any) -> list[Self]:
        """The cells in the games' order, with the settings `defaults` names (each its default
        where neither the games nor the manifest hold it); a cell without a player count has one
        player a strategy listed."""
        games = kit.games_with_settings(ctx, {"players": 0, **defaults})
        cells = []
        for part in games.partition_by("cell", maintain_order=True):
            cell = part.row(0, named=True)
            strategies = tuple(cell["strategy"].split(",")) if cell["strategy"] else ()
            settings = {key: cell[key] or default for key, default in defaults.items()}
            players = int(cell["players"] or len(strategies))
            cells.append(cls(cell["cell"], players, strategies, part.height, settings))
        return cells


def by_cell(seats: pl.DataFrame, cells: list[SeatCell]) -> list[tuple[Any, pl.DataFrame]]:
    """Each cell of `cells` with its seat rows, for the cells that have any."""
    parts = ((cell, seats.filter(pl.col("cell") == cell.cell)) for cell in cells)
    return [(cell, part) for cell, part in parts if part.height]


def per_game(part: pl.DataFrame, values: pl.Expr) -> stats.Interval:
    """The mean of a per-seat quantity over seat-games, each game (cell and game index) one unit:
    the seats of one game share its deal and its outcome, so they are not independent. `n` is the
    number of games."""
    frame = part.select("cell", "game_index", values.cast(pl.Float64).alias("v")).drop_nulls()
    frame = frame.filter(pl.col("v").is_not_nan())
    clusters = frame.select(pl.struct("cell", "game_index").rank("dense")).to_series().to_numpy()
    return stats.clustered_mean(frame["v"].to_numpy(), clusters)


def win_rate(own: pl.DataFrame) -> stats.Interval:
    """One strategy's win rate over its seat rows in a cell, each game one unit: Wilson where it
    holds one seat a game; else the clustered mean, its interval kept within 0 and 1 (a t interval
    near 0 % or 100 % would reach past them)."""
    won = own.select("cell", "game_index", pl.col("won").cast(pl.Float64)).drop_nulls()
    if won.select(pl.struct("cell", "game_index").is_unique().all()).item():
        return stats.wilson(int(won["won"].sum()), won.height)
    iv = per_game(won, pl.col("won"))
    return stats.Interval(iv.estimate, max(0.0, iv.low), min(1.0, iv.high), iv.n)


def average_seat(part: pl.DataFrame) -> stats.Interval:
    """The average seat's win rate in the seat rows of one cell, each game one unit."""
    decided = part.select("game_index", pl.col("won").cast(pl.Float64)).drop_nulls()
    return stats.clustered_mean(decided["won"].to_numpy(), decided["game_index"].to_numpy())


def pooled(seats: pl.DataFrame, cells: list[SeatCell]) -> list[tuple[str, str, pl.DataFrame]]:
    """The seat rows of each strategy at each player count ("2 players"), pooled over the cells."""
    players = pl.DataFrame(
        {"cell": [c.cell for c in cells], "players": [c.players for c in cells]},
        schema={"cell": pl.String, "players": pl.Int64},
    )
    joined = seats.join(players, on="cell", how="inner")
    out = []
    for p in sorted(joined["players"].unique().to_list()):
        for strategy in sorted(joined.filter(pl.col("players") == p)["strategy"].unique().to_list()):
            part = joined.filter((pl.col("players") == p) & (pl.col("strategy") == strategy))
            out.append((f"{p} players", str(strategy), part))
    return out


class WithinGames(NamedTuple):
    """The seats of `b` against those of `a` in the games that hold both, paired by game."""

    points: stats.Interval  # b's points less a's, paired t interval
    unpaired: stats.Interval  # Welch's, as if the games were not paired
    wins: stats.PairedDifference | None  # b's win rate less a's (None: no game decided both)
    p: float  # paired t test of the difference in points


def within_games(a: pl.DataFrame, b: pl.DataFrame) -> WithinGames | None:
    """Seat rows `b` against seat rows `a` (one seat a game each, as a card's holder) in the games
    that hold both (None: fewer than two such games)."""
    columns = ["game_index", "score", "won"]
    joined = a.select(columns).join(b.select(columns), on="game_index", suffix="_b")
    if joined.height < 2:
        return None
    score_a, score_b = joined["score"].to_numpy(), joined["score_b"].to_numpy()
    decided = joined.drop_nulls(["won", "won_b"])
    wins = (
        stats.paired_difference(decided["won"].to_numpy(), decided["won_b"].to_numpy())
        if decided.height
        else None
    )
    return WithinGames(*paired_scores(score_a, score_b)[:2], wins, stats.mean_p_value(score_b - score_a))


def per_game_difference(seats: pl.DataFrame, a: str, b: str) -> np.ndarray:
    """Strategy `a`'s mean points a game less strategy `b`'s, in each game both play (one cell's
    seat rows)."""
    per_game = seats.group_by("game_index", "strategy").agg(pl.col("score").mean())
    wide = per_game.pivot(on="strategy", index="game_index", values="score").drop_nulls()
    return (wide[a] - wide[b]).to_numpy()


# --- seat effects ---------------------------------------------------------------------------------


class Seat(NamedTuple):
    """One seat of one cell (seat 1 starts), as `SeatEffect.seats` lists them."""

    cell: SeatCell
    seat: int
    games: int
    wins: stats.Interval
    rel: stats.Interval


class SeatEffect(NamedTuple):
    """One cell's seats, the first first: each seat's win rate (Wilson) and points above the table
    average (t) over the cell's games, the average seat's win rate (each game one unit), and the
    t test of the first seat's points above the table, resolved or not after the cells' family."""

    cell: SeatCell
    games: int
    wins: list[stats.Interval]  # by seat
    rel: list[stats.Interval]  # by seat
    fair: stats.Interval
    p: float
    resolved: bool = False

    @property
    def seats(self) -> list[Seat]:
        """Seat by seat, the first first."""
        by_seat = enumerate(zip(self.wins, self.rel, strict=True))
        return [Seat(self.cell, s + 1, self.games, wins, rel) for s, (wins, rel) in by_seat]


def seat_effects(seats: pl.DataFrame, cells: list[SeatCell]) -> tuple[list[SeatEffect], stats.Family]:
    """Each cell of two or more players with seat rows, and the first seats' tests as one family
    (Holm: one verdict a cell)."""
    found = []
    for cell, part in by_cell(seats, [c for c in cells if c.players >= 2]):
        by_seat = [part.filter(pl.col("seat") == seat) for seat in range(cell.players)]
        wins, rel = [kit.win_rate(s) for s in by_seat], [kit.mean_of(s, "rel") for s in by_seat]
        p = stats.mean_p_value(by_seat[0]["rel"].to_numpy())
        found.append(SeatEffect(cell, part["game_index"].n_unique(), wins, rel, average_seat(part), p))
    return kit.resolve(found, [c.p for c in found])


# --- strategies at one table ----------------------------------------------------------------------


class Standing(NamedTuple):
    """One strategy's seats in one cell, each game one unit: its seat-games (with a verdict), win
    rate and points above the table average."""

    cell: SeatCell
    strategy: str
    seat_games: int
    wins: stats.Interval
    rel: stats.Interval


class Duel(NamedTuple):
    """A cell of two strategies, `a` and `b`: the average seat's win rate, and `a`'s mean points
    less `b`'s a game (paired within the game, t), resolved or not after the duels' family."""

    cell: SeatCell
    a: Standing
    b: Standing
    fair: stats.Interval
    diff: stats.Interval
    p: float
    resolved: bool = False


def head_to_head(
    seats: pl.DataFrame, cells: list[SeatCell]
) -> tuple[list[Standing], list[Duel], stats.Family]:
    """The standing of each strategy of each of `cells` (with seat rows) where more than one
    strategy plays, the duels of the cells of exactly two, and the duels as one family (Holm)."""
    standings, duels = [], []
    for cell, part in by_cell(seats, [c for c in cells if len(set(c.strategies)) >= 2]):
        names = list(dict.fromkeys(cell.strategies))
        mine = []
        for name in names:
            own = part.filter(pl.col("strategy") == name)
            wins, rel = win_rate(own), per_game(own, pl.col("rel"))
            mine.append(Standing(cell, name, own["won"].drop_nulls().len(), wins, rel))
        standings += mine
        if len(names) == 2:
            diff = per_game_difference(part, *names)
            duels.append(
                Duel(cell, *mine, average_seat(part), stats.mean_interval(diff), stats.mean_p_value(diff))
            )
    return standings, *kit.resolve(duels, [d.p for d in duels])


# --- a seat column dealt at random ----------------------------------------------------------------


class Holding(NamedTuple):
    """The seats that held one value of a seat column (a dealt card) in one cell, one such seat a
    game: their win rate (Wilson), mean points and points above the table average (t), and how
    often the value sat in the first seat (a fair deal: one in the number of players)."""

    cell: SeatCell
    column: str
    value: Any
    wins: stats.Interval
    points: stats.Interval
    rel: stats.Interval
    first_seat: stats.Interval


class HoldingPair(NamedTuple):
    """Value `b` of a seat column against value `a` in one cell, in the games that dealt both
    (`within_games`: b's holder less a's), resolved or not (in points) after its column's family
    in that cell."""

    cell: SeatCell
    column: str
    a: Any
    b: Any
    points: stats.Interval
    unpaired: stats.Interval
    wins: stats.PairedDifference | None
    p: float
    resolved: bool = False


class Extremes(NamedTuple):
    """The highest and the lowest value of a column by points above the table average, the
    highest's holder less the lowest's in the games that dealt both."""

    best: Holding
    worst: Holding
    points: stats.Interval
    wins: stats.Interval | None  # the difference of their win rates (None: no game decided both)
    resolved: bool


def _flipped(iv: stats.Interval | stats.PairedDifference, flip: bool) -> stats.Interval:
    """A difference b - a as an interval, read the other way round (a - b) when `flip`."""
    estimate = iv.estimate if isinstance(iv, stats.Interval) else iv.difference
    if not flip:
        return stats.Interval(estimate, iv.low, iv.high, iv.n)
    return stats.Interval(-estimate, -iv.high, -iv.low, iv.n)


class Dealt(NamedTuple):
    """One seat column in one cell: each value's holders in the column's order, every pair of
    values, and the pairs as one family."""

    cell: SeatCell
    column: str
    values: list[Holding]
    pairs: list[HoldingPair]
    family: stats.Family

    @property
    def ranked(self) -> list[Holding]:
        """The values by points above the table average, highest first."""
        return sorted(self.values, key=lambda h: h.rel.estimate, reverse=True)

    @property
    def extremes(self) -> Extremes | None:
        """The highest value against the lowest (None: fewer than two values, or never dealt
        together)."""
        ranked = self.ranked
        best, worst = (ranked[0], ranked[-1]) if ranked else (None, None)
        ends = {best.value, worst.value} if ranked else {None}
        pair = next((p for p in self.pairs if {p.a, p.b} == ends), None)
        if len(self.values) < 2 or pair is None:
            return None
        flip = pair.b != best.value  # the pair reads b - a; the extremes, best - worst
        wins = None if pair.wins is None else _flipped(pair.wins, flip)
        return Extremes(best, worst, _flipped(pair.points, flip), wins, pair.resolved)


def dealt(cell: SeatCell, part: pl.DataFrame, column: str, order: Callable[[list], list]) -> Dealt:
    """The values of `column` in one cell's seat rows (in the order `order` puts them), each
    value's holders, and every pair compared in the games that dealt both. A column has many
    pairs, so they are one family under Benjamini-Hochberg (false discovery rate 5 %)."""
    held = {v: part.filter(pl.col(column) == v) for v in order(part[column].drop_nulls().unique().to_list())}
    values = [
        Holding(cell, column, v, kit.win_rate(h), kit.mean_of(h, "score"), kit.mean_of(h, "rel"), _first(h))
        for v, h in held.items()
    ]
    found = ((a, b, within_games(held[a], held[b])) for a, b in combinations(held, 2))
    pairs = [HoldingPair(cell, column, a, b, *within) for a, b, within in found if within is not None]
    return Dealt(cell, column, values, *kit.resolve(pairs, [p.p for p in pairs], stats.BH))


def _first(held: pl.DataFrame) -> stats.Interval:
    """The share of seat rows in the first seat."""
    return stats.wilson(int((held["seat"] == 0).sum()), held.height)


# --- the seat analyses as report sections, in a game's words ---


class SeatSection(kit.SectionModel):
    """A seat analysis as a report section, in a game's words: the game's subclass sets `WORDS`
    (its `kit.Words`, holding the texts the section lists) and `STEM` (its chart file's name after
    the dataset's), and may say which cells it reads (`cells_of`; every cell by default)."""

    WORDS: ClassVar[kit.Words]
    STEM: ClassVar[str] = "seats"
    TEXTS: ClassVar[tuple[str, ...]] = ()  # the keys of the words it reads

    @classmethod
    def cells_of(cls, ctx: AnalysisContext) -> list[SeatCell]:
        return SeatCell.all(ctx)

    @classmethod
    def texts(cls) -> list[str]:
        """The keys of the texts of `WORDS` the section reads (a game's words name no dead text)."""
        return list(cls.TEXTS)


SEAT_COLUMNS = (
    ("cell", "{cell.label}"),
    ("seat", "{seat}"),
    ("games", "{games:,}"),
    ("win rate", "{wins:[pct]}"),
    ("points above table", "{rel:[signed1]}"),
)


@dataclass(frozen=True)
class SeatEffectsSection(SeatSection):
    """Per cell of two or more players, each seat's win rate and points above the table average
    (`seat_effects`). Its words: `seats.finding` (filled from a `SeatEffect`, with `family` and
    `verdict`: `seats.advantage`, `seats.disadvantage` or `seats.no_advantage`); the chart's
    `seats.title`, `seats.axis`, `charts.points_above`, `seats.alt` ({items}: `seats.alt_item`
    filled from each `Seat`) and `seats.caption` ({cells}: the games a cell); `seats.table`."""

    TEXTS = (
        *(f"seats.{key}" for key in "finding advantage disadvantage no_advantage title axis".split()),
        *(f"seats.{key}" for key in "alt alt_item caption table".split()),
        "charts.points_above",
    )

    cells: list[SeatEffect]
    family: stats.Family  # the cells' tests of the first seat's points

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Self | None:
        """Per cell of two or more players: each seat's win rate and points above the table."""
        seats = rows(ctx)
        found, family = seat_effects(seats, cls.cells_of(ctx)) if seats is not None else ([], None)
        return cls(found, family) if found else None

    def findings(self) -> list[str]:
        """Per cell, the first seat's win rate and points against the average seat's."""
        out = []
        for c in self.cells:
            words = ("seats.advantage", "seats.disadvantage", "seats.no_advantage")
            verdict = self.WORDS.fill(by_sign(c.resolved, c.rel[0].estimate, *words))
            out.append(self.WORDS.fill_from("seats.finding", c, verdict=verdict, family=self.family.text))
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Each seat's points above the table average in each cell."""
        if all(math.isnan(r.low) for c in self.cells for r in c.rel):
            return []  # too few games for any interval
        words, top = self.WORDS, max(c.cell.players for c in self.cells)
        with charts.one_panel(9.0, 4.2) as (fig, ax):
            dots = {(s.seat, c.cell): s.rel for c in self.cells for s in c.seats if not math.isnan(s.rel.low)}
            charts.dots_about_zero(ax, range(top + 1), [c.cell for c in self.cells], dots)  # seat s at x = s
            ax.set_xticks(range(1, top + 1), [f"seat {k}" for k in range(1, top + 1)])
            ax.set_xlabel(words["seats.axis"])
            ax.set_ylabel(words["charts.points_above"])
            ax.set_title(f"{words['seats.title']}: {ctx.subject}", loc="left")
            charts.side_legend(ax, "cell", fontsize=8)
        items = "; ".join(words.fill_from("seats.alt_item", s) for c in self.cells for s in c.seats)
        alt = words.fill("seats.alt", items=items)
        caption = words.fill("seats.caption", cells=count_range(c.cell.games for c in self.cells))
        return [kit.save(ctx, fig, self.STEM, words["seats.title"], alt, caption)]

    def tables(self) -> list[Table]:
        """Each seat of each cell: its win rate and points above the table average."""
        return [kit.table(self.WORDS["seats.table"], SEAT_COLUMNS, [s for c in self.cells for s in c.seats])]


STANDING_COLUMNS = (
    ("cell", "{cell.label}"),
    ("strategy", "{strategy}"),
    ("seat-games", "{seat_games:,}"),
    ("win rate", "{wins:[pct]}"),
    ("points above table", "{rel:[signed1]}"),
)


@dataclass(frozen=True)
class HeadToHeadSection(SeatSection):
    """Per cell where different strategies share the table, each strategy's win rate and points
    above the table average, and with two strategies a verdict (`head_to_head`). Its words:
    `h2h.finding` (filled from a `Duel`, with `family` and `verdict`: `h2h.beats`, {winner} and
    {loser}, or `h2h.neither`, {a} and {b}); `h2h.table`."""

    TEXTS = ("h2h.finding", "h2h.beats", "h2h.neither", "h2h.table")

    standings: list[Standing]  # each strategy of each cell that mixes strategies
    duels: list[Duel]  # the cells of two strategies
    family: stats.Family  # the duels' tests: one verdict per cell, the cells are the family

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Self | None:
        """Per cell where different strategies share the table: each strategy's win rate and
        points; with two strategies, their difference in points."""
        seats = rows(ctx)
        if seats is None or "strategy" not in seats.columns:
            return None
        standings, duels, family = head_to_head(seats, cls.cells_of(ctx))
        return cls(standings, duels, family) if standings else None

    def verdict(self, d: Duel) -> str:
        """The stronger of a duel needs a win rate whose interval lies above the average seat's
        and more points a game, resolved."""
        a, b, fair, diff = d.a, d.b, d.fair.estimate, d.diff.estimate
        if a.wins.low > fair and d.resolved and diff > 0:
            return self.WORDS.fill("h2h.beats", winner=a.strategy, loser=b.strategy)
        if a.wins.high < fair and d.resolved and diff < 0:
            return self.WORDS.fill("h2h.beats", winner=b.strategy, loser=a.strategy)
        return self.WORDS.fill("h2h.neither", a=a.strategy, b=b.strategy)

    def findings(self) -> list[str]:
        """A verdict per cell of two strategies, with its numbers."""
        family = self.family.text
        return [
            self.WORDS.fill_from("h2h.finding", d, verdict=self.verdict(d), family=family) for d in self.duels
        ]

    def tables(self) -> list[Table]:
        """Each strategy of each mixed cell: its seat-games, win rate and points above the table."""
        return [kit.table(self.WORDS["h2h.table"], STANDING_COLUMNS, self.standings)]


@dataclass(frozen=True)
class DealtSection(SeatSection):
    """Seat columns dealt at random (`COLUMNS`, each with its name: "City card"), each compared
    value against value in every mirror cell (`dealt`), where a value's holder differs from the
    other seats by its values and its seat only. A game's subclass may say how a value reads
    (`short`) and the column's own order (`order`), and names a value `VALUE` in the tables'
    headers. Its words, under `KEY`: `finding` ({cell}, {column}, {ranking}, {values}, {best},
    {worst}, filled from the `Extremes`), `finding_wins`, `settled`, `unsettled`, `over` ({higher},
    {lower}), `resolved` and `none_resolved` ({family}, {pairs}, {resolved}, {listed}); the notes
    `no_mirror`, `how`, `fair` ({fair}, {pairs}) and `left_out` ({cells}); the chart's `title`,
    `alt` ({items}: `alt_item` filled from each `Holding`, with {card}), `caption` ({cells}) and
    `charts.points_above`; the tables' `table` and `pairs_table`."""

    COLUMNS: ClassVar[Mapping[str, str]]
    KEY: ClassVar[str] = "dealt"
    VALUE: ClassVar[str] = "value"

    deals: list[Dealt]  # by mirror cell, then column; none: the dataset has no mirror cell
    left_out: list[SeatCell]  # the cells that mix strategies

    @staticmethod
    def short(column: str, value: Any) -> str:
        """A value as its column's chart axis names it; with the column's name, `name`."""
        return str(value)

    @staticmethod
    def order(column: str, values: list[Any]) -> list[Any]:
        """A column's values in its own order."""
        return sorted(values, key=str)

    @classmethod
    def texts(cls) -> list[str]:
        keys = (
            "finding finding_wins settled unsettled over resolved none_resolved no_mirror how fair left_out"
        )
        keys += " title alt alt_item caption table pairs_table"
        return [f"{cls.KEY}.{key}" for key in keys.split()] + ["charts.points_above"]

    @classmethod
    def name(cls, column: str, value: Any) -> str:
        return f"{cls.COLUMNS[column]} {cls.short(column, value)}"

    def _text(self, key: str, /, **values: Any) -> str:
        return self.WORDS.fill(f"{self.KEY}.{key}", **values)

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Self | None:
        """Per mirror cell and column: each value's holder's win rate, points and points above the
        table average, and every pair of values compared inside the games that dealt both."""
        seats, cells = rows(ctx), cls.cells_of(ctx)
        if seats is None or not set(cls.COLUMNS) <= set(seats.columns):
            return None
        mirrors = by_cell(seats, [c for c in cells if c.mirror])
        deals = [dealt(c, mine, col, partial(cls.order, col)) for c, mine in mirrors for col in cls.COLUMNS]
        if not deals and any(c.mirror for c in cells):
            return None
        return cls(deals, [c for c in cells if not c.mirror])

    def _ahead(self, p: HoldingPair) -> str:  # "5 over 2": the pair's value with more points first
        hi, lo = (p.b, p.a) if p.points.estimate > 0 else (p.a, p.b)
        return self._text("over", higher=self.short(p.column, hi), lower=self.short(p.column, lo))

    def _finding(self, d: Dealt) -> str | None:
        """A column's values ranked by points above the table average, the highest against the
        lowest in points and in wins (paired), and the pairs resolved (None: no such pair)."""
        if (x := d.extremes) is None:
            return None
        key, ranking = self.KEY, " > ".join(self.short(d.column, h.value) for h in d.ranked)
        named = {
            "cell": d.cell.label,
            "column": self.COLUMNS[d.column],
            "ranking": ranking,
            "values": len(d.values),
        }
        best, worst = self.name(d.column, x.best.value), self.name(d.column, x.worst.value)
        text = self.WORDS.fill_from(f"{key}.finding", x, best=best, worst=worst, **named)
        text += "" if x.wins is None else self.WORDS.fill_from(f"{key}.finding_wins", x)
        text += self._text("settled" if x.resolved else "unsettled")
        ahead = [self._ahead(p) for p in d.pairs if p.resolved]
        family = {
            "family": d.family.text,
            "pairs": len(d.pairs),
            "resolved": len(ahead),
            "listed": ", ".join(ahead),
        }
        return text + " " + self._text("resolved" if ahead else "none_resolved", **family)

    def findings(self) -> list[str]:
        """Per column and mirror cell, its values ranked and compared."""
        return [text for d in self.deals if (text := self._finding(d)) is not None]

    def notes(self) -> list[str]:
        """How the values are compared and why it is fair, counting the values whose first-seat
        share's interval holds one in the number of players; the cells left out."""
        if not self.deals:
            return [self._text("no_mirror")]
        fair = [
            h.first_seat.low <= 1 / d.cell.players <= h.first_seat.high for d in self.deals for h in d.values
        ]
        notes = [self._text("how"), self._text("fair", fair=sum(fair), pairs=len(fair))]
        if self.left_out:
            notes.append(self._text("left_out", cells="; ".join(c.label for c in self.left_out)))
        return notes

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Each value's points above the table average in each mirror cell, a panel a column."""
        every = [h for d in self.deals for h in d.values]
        if all(math.isnan(h.rel.low) for h in every):
            return []
        cells, title = list(dict.fromkeys(d.cell for d in self.deals)), self._text("title")
        with matplotlib.rc_context(charts.STYLE):
            fig, axes = charts.panels(len(self.COLUMNS), 4.9, 4.4)
            for ax, (column, name) in zip(axes, self.COLUMNS.items(), strict=True):
                mine = [h for h in every if h.column == column]
                values = self.order(column, list({h.value for h in mine}))
                dots = {(h.value, h.cell): h.rel for h in mine if not math.isnan(h.rel.low)}
                charts.dots_about_zero(ax, values, cells, dots)
                ax.set_xticks(range(len(values)), [self.short(column, v) for v in values])
                ax.set_xlabel(name)
            axes[0].set_ylabel(self.WORDS["charts.points_above"])
            charts.side_legend(axes[-1], "cell", fontsize=8)
            fig.suptitle(f"{title}: {ctx.subject}", x=0.01, ha="left")
        item = f"{self.KEY}.alt_item"
        items = "; ".join(self.WORDS.fill_from(item, h, card=self.name(h.column, h.value)) for h in every)
        caption = self._text("caption", cells=count_range(c.games for c in cells))
        return [kit.save(ctx, fig, self.STEM, title, self._text("alt", items=items), caption)]

    def tables(self) -> list[Table]:
        """Every value of each column and mirror cell, and every pair of them."""
        if not self.deals:
            return []
        values = (
            ("cell", "{cell.label}"),
            (self.VALUE, lambda h: self.name(h.column, h.value)),
            ("games", "{points.n:,}"),
            ("win rate", "{wins:[pct]}"),
            ("mean points", "{points:[number]}"),
            ("points above table", "{rel:[signed1]}"),
            ("in first seat", "{first_seat:[pct]}"),
        )
        pairs = (
            ("cell", "{cell.label}"),
            (f"{self.VALUE}s", lambda p: f"{self.name(p.column, p.b)} − {self.short(p.column, p.a)}"),
            ("games", "{points.n:,}"),
            ("points (95 % CI)", "{points:[signed1]}"),
            ("unpaired CI", "{unpaired:bounds signed1}"),
            ("win rate (pp, 95 % CI)", "{wins:[points]}"),
            ("resolved", "{resolved:yes|no}"),
        )
        return [
            kit.table(self._text("table"), values, [h for d in self.deals for h in d.values]),
            kit.table(self._text("pairs_table"), pairs, [p for d in self.deals for p in d.pairs]),
        ]


# --- wt-an-aa: the seat sections' verdicts at every rung of a strategy ladder (`verdicts.Mirror`) ---


def first_seat_verdicts(section: type[SeatEffectsSection], how: str, caption: str, rungs: str) -> Mirror:
    """The first seat's points above the average seat of the same game (`seat_effects`), read by
    `section` in each mirror cell, as the verdict of the report's "Does the verdict hold?" (`how`,
    `caption` and `rungs` are `verdicts.Mirror`'s words); each rung's first seat in its table."""
    columns = (
        ("first seat's win rate", "{wins[0]:[pct]}"),
        ("average seat's", "{fair:[pct]}"),
        ("first seat's points above table", "{rel[0]:[signed1]}"),
    )

    def readings(c: SeatEffect) -> list[Reading]:
        return [Reading("the table's average", "the first seat", c.rel[0], c.p)]

    def items(model: SeatEffectsSection) -> dict[str, SeatEffect]:
        return {c.cell.cell: c for c in model.cells}

    return _in_points(section, items, readings, columns, "paired within the game", (how, caption, rungs))


def dealt_verdicts(section: type[DealtSection], how: str, caption: str, rungs: str) -> Mirror:
    """Every pair of values of each column `section` deals (the second's holder's points less the
    first's, in the games that dealt both), read in each mirror cell, as the verdicts of the report's
    "Does the verdict hold?" (`how`, `caption` and `rungs` are `verdicts.Mirror`'s words); each
    rung's values in its table, ranked by points above the table average."""

    def by_cell(model: DealtSection) -> dict[str, list[Dealt]]:
        out: dict[str, list[Dealt]] = {}
        for d in model.deals:
            out.setdefault(d.cell.cell, []).append(d)
        return out

    def pairs(deals: list[Dealt]) -> list[Reading]:
        return [
            Reading(section.name(p.column, p.a), section.name(p.column, p.b), p.points, p.p)
            for d in deals
            for p in d.pairs
        ]

    def ranking(column: str, deals: list[Dealt]) -> str:
        ranked = sorted(
            (h for d in deals if d.column == column for h in d.values), key=lambda h: -h.rel.estimate
        )
        return " > ".join(f"{section.short(column, h.value)} ({signed1(h.rel.estimate)})" for h in ranked)

    columns = tuple(
        (f"{name}s by points above table", partial(ranking, c)) for c, name in section.COLUMNS.items()
    )
    test = "in the games that dealt both, paired"
    return _in_points(section, by_cell, pairs, columns, test, (how, caption, rungs))


def _in_points(section: Any, items: Any, readings: Any, columns: Any, test: str, words: tuple) -> Mirror:
    """The verdicts `section` reads, differences of a seat's points (`verdicts.Mirror`)."""
    return Mirror(section.read, items, readings, columns, "points", signed1, test, *words)
