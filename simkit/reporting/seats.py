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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
