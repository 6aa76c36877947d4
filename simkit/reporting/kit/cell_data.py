"""The games and their cells: `games_with_settings` (the games table with the settings as
columns, from the manifest where the table has none), `parameter_columns` (strategy parameters as
columns of their own, read from the specs, so a parameter sweep reads like a setting's), `Cell` and
`cells` (each cell's settings as text and its games, in manifest order; a cell's win rate, wins,
mean score and columns' means), `varied`, `values`, `grouped`; `win_grid` (the Wilson interval of
each combination of settings), `win_rate`, `mean_of`, `means` (of several columns in each group),
`counts`; `shares` (each category of a column's share of each group's games, `Shares`); `listed`
(how often each board space or card a games column lists, as a share of the games); `id_counts`
(in how many games a column of ids apart by commas names each id); `typed_columns` (settings
columns cast to their types, a column the table lacks filled in); `grid_extremes` (the highest and
the lowest of a grid of estimates); `pooled_games` (the games of cells pooled by a label);
`sole_shares` (which one of several conditions holds alone in a game).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeVar

import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core import strategies as strategy_specs
from simkit.core.players import is_user_spec
from simkit.core.strategies import Strategy
from simkit.reporting.sections import AnalysisContext
from simkit.reporting.text import shares_item

CellT = TypeVar("CellT", bound="Cell")


def strategy_text(value: Any) -> str:
    """A cell's strategies as one text: "greedy", or "rollout,missions" one a seat."""
    if isinstance(value, list | tuple):
        return ",".join(str(s) for s in value)
    return "" if value is None else str(value)


def games_with_settings(ctx: AnalysisContext, defaults: dict[str, Any]) -> pl.DataFrame:
    """The games table with each setting of `defaults` and `strategy` as a column: a setting the
    table lacks (the scenario fixed it) is read from the manifest's cells, else its default."""
    games = ctx.dataset.games
    cells = ctx.dataset.manifest.get("cells") or []
    for key, default in defaults.items():
        if key not in games.columns:
            mapping = {str(c["cell"]): (c.get("settings") or {}).get(key, default) for c in cells}
            dtype = pl.Int64 if isinstance(default, int) else pl.String
            games = games.with_columns(
                pl.col("cell").replace_strict(mapping, default=default, return_dtype=dtype).alias(key)
            )
    if "strategy" not in games.columns:
        mapping = {str(c["cell"]): strategy_text(c.get("strategy")) for c in cells}
        games = games.with_columns(
            pl.col("cell").replace_strict(mapping, default="", return_dtype=pl.String).alias("strategy")
        )
    return games


def parameter_columns(
    games: pl.DataFrame, declared: Mapping[str, Strategy], names: Sequence[str]
) -> pl.DataFrame:
    """Strategy parameters `names` as columns of their own: each the full value the player played
    by (its default where the spec leaves it out; null for a strategy without it), and `strategy`
    the spec without them, so a sweep of `bold:final_conflict=...` reads as the strategy `bold`
    along `final_conflict`, as if it were a setting. A column the table already has is kept."""
    names = [n for n in names if n not in games.columns]
    if not names or "strategy" not in games.columns:
        return games
    specs = games["strategy"].unique().to_list()
    rest, values = {}, {n: {} for n in names}
    for spec in specs:
        if spec is None or is_user_spec(spec) or spec.partition(":")[0] not in declared:
            rest[spec] = spec
            continue
        name, full = strategy_specs.parse(spec, declared, "dataset")
        defaults = declared[name].defaults()
        stripped = full | {n: defaults[n] for n in names if n in full}  # at the default: not written
        rest[spec] = strategy_specs.canonical(name, stripped, declared[name])
        for n in names:
            values[n][spec] = full.get(n)
    return games.with_columns(
        *(pl.col("strategy").replace_strict(values[n], default=None).alias(n) for n in names),
        pl.col("strategy").replace_strict(rest, default=None, return_dtype=pl.String),
    )


@dataclass(frozen=True)
class Cell:
    """One cell of the dataset: its id, every setting (and the strategy) as text, its games; and,
    worked out when first asked, its win rate, games won and mean score."""

    cell: str
    settings: dict[str, str]
    games: pl.DataFrame = field(repr=False)

    @cached_property
    def win(self) -> stats.Interval:
        """The Wilson interval of the win rate over the games with a verdict (`win_rate`)."""
        return win_rate(self.games)

    @cached_property
    def wins(self) -> int:
        """How many games were won."""
        return int(self.games["won"].cast(pl.Boolean).sum())

    @cached_property
    def score(self) -> stats.Interval:
        """The mean score over the games that have one, with its t interval (`mean_of`)."""
        return mean_of(self.games, "score")

    def mean(self, *columns: str) -> stats.Interval:
        """The mean over the games of `columns` added up (of the one column, given one), with its
        t interval; a game without a value in any of them is left out (`mean_of`)."""
        total = sum(pl.col(column).cast(pl.Float64) for column in columns).alias("total")
        return mean_of(self.games.select(total), "total")

    def win_at(self, key: str, value: str) -> stats.Interval:
        """The win rate (`win_rate`) over the games with setting `key` at `value` (as text)."""
        return win_rate(self.games.filter(pl.col(key).cast(pl.String) == value))


def strategies_played(ctx: AnalysisContext, games: pl.DataFrame) -> list[str]:
    """The strategies the games (any part of the table, with `strategy` as text) play: in the
    manifest's order, then any found only in the games, sorted."""
    order = [strategy_text(c.get("strategy")) for c in ctx.dataset.manifest.get("cells") or []]
    present = set(games["strategy"].unique().to_list())
    return [s for s in dict.fromkeys(order) if s in present] + sorted(present - set(order))


def setting_keys(ctx: AnalysisContext) -> list[str]:
    """The settings the games table holds as columns, then `strategy`, in the manifest's order."""
    names = [str(s) for s in ctx.dataset.manifest.get("setting_names") or []]
    return list(dict.fromkeys(k for k in [*names, "strategy"] if k in ctx.dataset.games.columns))


def cells(ctx: AnalysisContext, keys: Sequence[str]) -> list[Cell]:
    """The cells in manifest order (then any found only in the games), each with `keys` as text
    from its first game."""
    parts = {str(k[0]): p for k, p in ctx.dataset.games.partition_by("cell", as_dict=True).items()}
    order = [str(c.get("cell")) for c in ctx.dataset.manifest.get("cells") or []]
    ids = [c for c in order if c in parts] + sorted(set(parts) - set(order))
    out = []
    for cid in ids:
        first = parts[cid].row(0, named=True)
        out.append(Cell(cid, {k: str(first[k]) for k in keys}, parts[cid]))
    return out


def values(cells: Sequence[Cell], key: str) -> list[str]:
    """The values `key` takes over `cells`, in order of first appearance."""
    return list(dict.fromkeys(c.settings[key] for c in cells))


def grouped(cells: Sequence[CellT], key: str) -> dict[str, list[CellT]]:
    """The cells by their value of setting `key` ("" for a cell without it), the values in order of
    first appearance."""
    groups: dict[str, list[CellT]] = {}
    for c in cells:
        groups.setdefault(c.settings.get(key, ""), []).append(c)
    return groups


def varied(cells: Sequence[Cell], keys: Sequence[str]) -> list[str]:
    """The keys whose value differs between cells."""
    return [k for k in keys if len({c.settings[k] for c in cells}) > 1]


def win_grid(games: pl.DataFrame, keys: Sequence[str]) -> dict[tuple, stats.Interval]:
    """The Wilson interval of the win rate for each combination of `keys` the games hold, over
    the games with a verdict (keyed by the values as the table holds them, in their sorted order:
    a chart's alt text that lists them reads the same from one build to the next)."""
    won = pl.col("won").cast(pl.Boolean)
    agg = games.group_by(*keys).agg(wins=won.sum(), n=won.count()).sort(*keys)
    return {
        tuple(row[:-2]): stats.wilson(int(row[-2] or 0), int(row[-1])) for row in agg.iter_rows() if row[-1]
    }


def cells_by(games: pl.DataFrame, keys: Sequence[str]) -> list[Cell]:
    """The games (any part of the table) as cells by the values of `keys` rather than by cell id:
    one for each combination played, its values as text, ready for `paired_along`."""
    parts = games.partition_by(*keys, as_dict=True).items()
    return [Cell(" ".join(map(str, k)), dict(zip(keys, map(str, k), strict=True)), p) for k, p in parts]


def win_rate(games: pl.DataFrame) -> stats.Interval:
    """The Wilson interval of the win rate over the games (any part of the table) with a verdict."""
    won = games["won"].cast(pl.Boolean).drop_nulls()
    return stats.wilson(int(won.sum()), won.len())


def mean_of(games: pl.DataFrame, column: str) -> stats.Interval:
    """The mean of `column` over the games that have a value, with its Student t interval (of no
    games where the table has no such column)."""
    if column not in games.columns:
        return stats.mean_interval(np.empty(0))
    return stats.mean_interval(games[column].cast(pl.Float64).drop_nulls().to_numpy())


def sorted_values(games: pl.DataFrame, column: str) -> list:
    """The values a column of the games (any part of the table) takes, each once, sorted."""
    return sorted(games[column].unique().to_list())


def at_one_value(games: pl.DataFrame, column: str, default: Any) -> tuple[pl.DataFrame, Any, bool]:
    """The games at one value of a swept setting `column`: `default` where it was played, else the
    middle of the values played (a NaN, a game without one, is not a value); with that value and
    whether it is the default."""
    played = [v for v in sorted_values(games, column) if not (isinstance(v, float) and math.isnan(v))]
    chosen = default if default in played else played[len(played) // 2]
    return games.filter(pl.col(column) == chosen), chosen, chosen == default


def counts(games: pl.DataFrame, keys: Sequence[str]) -> dict[tuple, int]:
    """How many games (any part of the table) hold each combination of `keys` played, keyed by the
    values as the table holds them, in their sorted order."""
    return {row[:-1]: row[-1] for row in games.group_by(*keys).len("games").sort(*keys).iter_rows()}


def means(
    games: pl.DataFrame, keys: Sequence[str], columns: Sequence[str]
) -> dict[tuple, dict[str, stats.Interval]]:
    """The mean of each of `columns` (`mean_of`: over the games with a value) in each combination
    of `keys` the games (any part of the table) hold, keyed by the values as the table holds them,
    in their sorted order."""
    parts = games.sort(*keys, maintain_order=True).partition_by(*keys, as_dict=True)
    return {group: {c: mean_of(part, c) for c in columns} for group, part in parts.items()}


@dataclass(frozen=True)
class Shares:
    """How often each category of a games column comes up in each group of games, and its share
    of the group's games with its Wilson interval (see `shares`). A group is the tuple of its keys'
    values as the table holds them."""

    games: dict[tuple, int]  # group -> its games, the groups in their sorted order
    counts: dict[tuple, int]  # (*group, category) -> the group's games of that category

    def count(self, group: tuple, category: Any) -> int:
        """The group's games of `category` (0: none, or no such group)."""
        return self.counts.get((*group, category), 0)

    def share(self, group: tuple, *categories: Any) -> stats.Interval:
        """The Wilson interval of the share of the group's games that are of any of `categories`."""
        return stats.wilson(sum(self.count(group, c) for c in categories), self.games.get(group, 0))

    def of(self, group: tuple, categories: Iterable) -> dict[Any, stats.Interval]:
        """Each of `categories`' share of the group's games (`share`), in their order."""
        return {c: self.share(group, c) for c in categories}

    def top(self, group: tuple, categories: Sequence) -> tuple[Any, stats.Interval] | None:
        """The most frequent of `categories` in the group (ties: the first in their order) with its
        share; None where none of them comes up."""
        counted = [self.count(group, c) for c in categories]
        if not any(counted):
            return None
        top = categories[counted.index(max(counted))]
        return top, self.share(group, top)

    def percents(self, groups: Iterable[tuple], categories: Iterable) -> dict[Any, list[float]]:
        """Each of `categories`' share of each of `groups`' games in percent (0 for a group of no
        games), as a chart of stacked shares takes them (`charts.stacked_bars`)."""
        played = [(group, self.games.get(group, 0)) for group in groups]
        return {c: [100 * self.count(group, c) / n if n else 0.0 for group, n in played] for c in categories}

    def alt_items(self, categories: Sequence, head: str, sep: str = " ") -> list[str]:
        """Each group's shares of `categories` as a chart's alt text lists them (`text.shares_item`):
        `head` filled with the group's values ("level {}, {}"), its games, and each category and its
        share in percent."""
        return [
            shares_item(head.format(*group), n, [(c, self.count(group, c)) for c in categories], sep)
            for group, n in self.games.items()
        ]

    def seen(self, order: Sequence = ()) -> list:
        """The categories that come up in any group: those of `order` in its order, then the
        others sorted."""
        present = {key[-1] for key in self.counts}
        return [c for c in order if c in present] + sorted(present - set(order))


def shares(games: pl.DataFrame, keys: Sequence[str], column: str) -> Shares:
    """How often each value of `column` comes up in each combination of `keys` the games (any part
    of the table) hold, and its share of that group's games (`Shares`)."""
    return Shares(counts(games, keys), counts(games, (*keys, column)))


class ListedItem(NamedTuple):
    """One item of a `Listed`: its number, its share of the games (Wilson) and the games that list it."""

    item: int
    share: stats.Interval
    games: int


class Listed(NamedTuple):
    """How often each item (a board space, a card: numbers 1 to a size) is listed by a games
    column that lists some of them a game ("3 17 40"; see `listed`)."""

    counts: np.ndarray  # games that list each item (index = item number; 0 unused)
    shares: dict[int, stats.Interval]  # each item's share of the games (Wilson)
    order: list[int]  # the items, most often first (ties by number)
    per_game: stats.Interval  # items listed a game (t)

    def item(self, number: int) -> ListedItem:
        return ListedItem(number, self.shares[number], int(self.counts[number]))

    @property
    def most(self) -> ListedItem:
        return self.item(self.order[0])

    @property
    def least(self) -> ListedItem:
        return self.item(self.order[-1])


def listed(games: pl.DataFrame, column: str, size: int, of: int) -> Listed:
    """How often the games' `column` (numbers apart by spaces; a game without a value is left
    out) lists each item 1 to `size`, as a share of `of` games (numbers out of range are not
    counted)."""
    lists = [[int(s) for s in str(text).split()] for text in games[column].drop_nulls().to_list()]
    counts = np.zeros(size + 1, dtype=np.int64)
    for s in (s for items in lists for s in items if 1 <= s <= size):
        counts[s] += 1
    shares = {s: stats.wilson(int(counts[s]), of) for s in range(1, size + 1)}
    order = sorted(shares, key=lambda s: (-counts[s] / of, s))
    per_game = stats.mean_interval(np.array([len(x) for x in lists], dtype=float))
    return Listed(counts, shares, order, per_game)


def typed_columns(games: pl.DataFrame, typed: Sequence[tuple[str, Any, Any, Any]]) -> pl.DataFrame:
    """The games with each column of `typed` (its name, its polars type, its value for every game
    where the table lacks the column, and its value for a game without one) cast to its type: a
    settings column the scenario fixed (left out of the table) reads as one value, and a game's
    missing value as another."""
    lacking = [pl.lit(absent).alias(k) for k, _, absent, _ in typed if k not in games.columns]
    return games.with_columns(lacking).with_columns(
        pl.col(k).cast(t).fill_null(none) for k, t, _, none in typed
    )


def grid_extremes(grid: Mapping[tuple, stats.Interval]) -> dict[str, tuple]:
    """The keys of the highest and of the lowest estimate in a grid of estimates, as {"highest":
    key, "lowest": key}; between keys of equal estimates, the first in the grid's order (`win_grid`
    sorts its keys: the lowest). Empty where the grid has fewer than two keys."""
    if len(grid) < 2:
        return {}
    return {
        "highest": max(grid, key=lambda k: grid[k].estimate),
        "lowest": min(grid, key=lambda k: grid[k].estimate),
    }


def id_counts(ids: pl.Series, sep: str = ",") -> Counter[str]:
    """In how many rows (games) a column of ids apart by `sep` ("t1,e3,t1") names each id: once a
    row however often it names it; a row without a value names none."""
    return Counter(i for text in ids.fill_null("").to_list() for i in set(text.split(sep)) if i)


def pooled_games(cells: Iterable[Cell], by: Callable[[Any], Any]) -> dict[Any, pl.DataFrame]:
    """The games of the cells pooled by `by(cell)` (a setting's value, a label), the groups in
    order of first appearance."""
    groups: dict[Any, list[pl.DataFrame]] = {}
    for c in cells:
        groups.setdefault(by(c), []).append(c.games)
    return {key: pl.concat(parts) for key, parts in groups.items()}


def sole_shares(
    games: pl.DataFrame, conditions: Mapping[str, pl.Expr]
) -> tuple[dict[str, stats.Interval], int]:
    """Which one of several conditions on a game (boolean expressions, by name) holds alone: each
    condition's share of the games (Wilson) in which it holds and no other does, and how many
    games are left apart (none or more than one holds)."""
    held = games.select([expr.alias(name) for name, expr in conditions.items()])
    alone = held.filter(pl.sum_horizontal(list(conditions)) == 1)
    shares = {name: stats.wilson(int(alone[name].sum()), games.height) for name in conditions}
    return shares, games.height - alone.height
