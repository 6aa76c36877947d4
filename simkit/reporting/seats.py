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

Each is also a report section in a game's words: seat_sections.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, NamedTuple, Self

import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext

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
