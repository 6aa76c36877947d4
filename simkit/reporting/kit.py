"""The analysis kit: the pieces every game's `analysis.py` builds its report sections from, so a
game's analysis says only what is its own (which settings, which verdicts, which words).

- `Section`: a section as a spec, compute -> findings, charts, tables; `build` turns a list of
  them into the `GameSection`s the report renders. A section whose `compute` finds nothing to
  say (None) is left out.
- Cells: `games_with_settings` (the games table with the settings as columns, from the manifest
  where the table has none), `parameter_columns` (strategy parameters as columns of their own,
  read from the specs, so a parameter sweep reads like a setting's), `Cell` and `cells` (each
  cell's settings as text and its games, in manifest order; a cell's win rate, wins, mean score
  and columns' means), `varied`, `values`, `grouped`.
- Comparisons along one setting: `paired_along` pools every cell at one value of a setting with
  the cell equal to it but for that setting, paired by game index (game i of both saw the same
  seed), into one win-rate difference (Tango interval, McNemar p) and one score difference
  (paired t). `win_grid` gives the Wilson interval of each combination of settings. `resolve`
  marks a family of comparisons resolved or not. `picked_extremes` adjusts the test of a gap
  between a top and a bottom picked from several values; `column_extremes` picks them among
  columns of the same games.
- Lists in a games column: `listed` (how often each board space or card a column lists a game,
  as a share of the games).
- Tables: `table(caption, columns, items)`, a row an item, each column its header and how an
  item reads in it: a function, or a template of the item's attributes ("{wins:[pct]}").

- Words: `words(package)` is a game's report prose (how to read a section, its findings, chart
  captions and alt texts, notes), kept in `report_words.toml` beside its analysis, so the analysis
  module holds the reckoning and the page's words can be read and edited as text. A text's
  placeholders take numbers and estimates (`stats.Interval`) with their format: "{wins:pct}
  ({wins:ci pct}; {wins.n:,} games)" (`simkit.reporting.text.Shown`).

Formatting is `simkit.reporting.text`; chart pieces are `simkit.reporting.charts`; the pieces for
games with seat rows (a competitive game's seats) are `simkit.reporting.seats`, and their report
sections `simkit.reporting.seat_sections`.
"""

from __future__ import annotations

import importlib.resources
import itertools
import math
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core import strategies as strategy_specs
from simkit.core.compare import paired_scores
from simkit.core.players import is_user_spec
from simkit.core.strategies import Strategy
from simkit.reporting.charts import Chart, one_panel, panel_chart, percent_top, ranked_rates, save_chart
from simkit.reporting.sections import AnalysisContext, GameSection, Table, point_decimals
from simkit.reporting.text import ci, estimate_cell, fill, fill_from, pct, points, points_interval

Model = TypeVar("Model")
Item = TypeVar("Item", bound=tuple)
CellT = TypeVar("CellT", bound="Cell")


WORDS_FILE = "report_words.toml"


@dataclass(frozen=True)
class Words:
    """A game's report prose by key (a TOML table's key path, dotted: "cards.how"). A text's
    line breaks and runs of spaces are folded to one space, so a paragraph may be wrapped freely
    in the file. `fill(key, **values)` puts values in a text's {placeholders}, an estimate (a
    `stats.Interval` or `stats.PairedDifference`) as its placeholder's format spec asks
    (`text.fill`: "{wins:pct}", "{wins:ci pct}", "{wins:rate}", "{wins.n:,}")."""

    source: str
    texts: Mapping[str, str]

    def __getitem__(self, key: str) -> str:
        try:
            return self.texts[key]
        except KeyError:
            raise KeyError(f"{self.source} has no text {key!r}") from None

    def fill(self, key: str, /, **values: Any) -> str:
        try:
            return fill(self[key], **values)
        except (KeyError, IndexError) as exc:
            raise KeyError(f"{self.source}: text {key!r} wants a value for {exc}") from None

    def fill_from(self, key: str, item: Any, /, **more: Any) -> str:
        """`fill` with the attributes of `item` (a model's part, say) as the values, after `more`."""
        try:
            return fill_from(self[key], item, **more)
        except (AttributeError, KeyError, IndexError) as exc:
            raise KeyError(f"{self.source}: text {key!r} wants a value for {exc}") from None


@cache
def words(package: str) -> Words:
    """The words of the game package `package` (its `report_words.toml`)."""
    source = f"{package.replace('.', '/')}/{WORDS_FILE}"
    texts: dict[str, str] = {}

    def flatten(table: Mapping[str, Any], prefix: str) -> None:
        for key, value in table.items():
            if isinstance(value, Mapping):
                flatten(value, f"{prefix}{key}.")
            elif isinstance(value, str):
                texts[prefix + key] = " ".join(value.split())
            else:
                raise ValueError(f"{source}: {prefix}{key} must be text, not {type(value).__name__}")

    flatten(tomllib.loads((importlib.resources.files(package) / WORDS_FILE).read_text("utf-8")), "")
    return Words(source, texts)


def _nothing(*_: Any) -> list:
    return []


@dataclass(frozen=True)
class Section(Generic[Model]):
    """One report section of a game. `compute(ctx)` reads the dataset into the section's model
    (None: the dataset holds nothing for this section); the others turn the model into the
    page's findings (sentences with their intervals), charts (files under `ctx.out`) and tables.
    `paragraphs` say how to read the section; `notes(model)` add what depends on the model, and
    `retitle(model)`, where not empty, replaces the title."""

    key: str
    title: str
    compute: Callable[[AnalysisContext], Model | None]
    findings: Callable[[Model], list[str]] = _nothing
    charts: Callable[[AnalysisContext, Model], list[Chart]] = _nothing
    tables: Callable[[Model], list[Table]] = _nothing
    paragraphs: tuple[str, ...] = ()
    # what depends on the model: paragraphs after the fixed ones, and a title ("": `title`)
    notes: Callable[[Model], list[str]] = _nothing
    retitle: Callable[[Model], str] = lambda _: ""


def build(ctx: AnalysisContext, specs: Sequence[Section]) -> list[GameSection]:
    """The sections of `specs` that have something to say, in order."""
    out = []
    for spec in specs:
        model = spec.compute(ctx)
        if model is None:
            continue
        out.append(
            GameSection(
                spec.key,
                spec.retitle(model) or spec.title,
                findings=spec.findings(model),
                paragraphs=[*spec.paragraphs, *spec.notes(model)],
                charts=spec.charts(ctx, model),
                tables=spec.tables(model),
            )
        )
    return out


# --- cells ------------------------------------------------------------------------------------


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


# --- paired comparisons along one setting -----------------------------------------------------


@dataclass(frozen=True)
class Paired:
    """`other` against `base` along one setting, pooled over the matched cells."""

    wins: stats.PairedDifference
    score: stats.Interval
    cells: int  # matched pairs of cells pooled
    score_p: float = math.nan  # paired t test of the score difference


def _won(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Boolean).fill_null(False).to_numpy().astype(bool)


def _score(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Float64).fill_null(0.0).to_numpy()


def paired_along(
    cells: Sequence[Cell], key: str, base: str, other: str, keys: Sequence[str]
) -> Paired | None:
    """Every cell with `key` = `other` against the cell equal to it in every other of `keys` but
    with `key` = `base`, joined on game_index and pooled (None: no such pair of cells). A missing
    verdict counts as a loss and a missing score as 0."""

    def rest(c: Cell) -> tuple:
        return tuple(c.settings[k] for k in keys if k != key)

    bases = {rest(c): c for c in cells if c.settings[key] == base}
    a_won, b_won, a_score, b_score, matched = [], [], [], [], 0
    for c in cells:
        if c.settings[key] != other or rest(c) not in bases:
            continue
        j = (
            bases[rest(c)]
            .games.select("game_index", "won", "score")
            .join(c.games.select("game_index", "won", "score"), on="game_index", suffix="_b")
        )
        if j.height == 0:
            continue
        matched += 1
        a_won.append(_won(j, "won"))
        b_won.append(_won(j, "won_b"))
        a_score.append(_score(j, "score"))
        b_score.append(_score(j, "score_b"))
    if not matched:
        return None
    wins = stats.paired_difference(np.concatenate(a_won), np.concatenate(b_won))
    a_all, b_all = np.concatenate(a_score), np.concatenate(b_score)
    score, _, _ = paired_scores(a_all, b_all)
    return Paired(wins, score, matched, stats.mean_p_value(b_all - a_all))


def win_grid(games: pl.DataFrame, keys: Sequence[str]) -> dict[tuple, stats.Interval]:
    """The Wilson interval of the win rate for each combination of `keys` the games hold, over
    the games with a verdict (keyed by the values as the table holds them, in their sorted order:
    a chart's alt text that lists them reads the same from one build to the next)."""
    won = pl.col("won").cast(pl.Boolean)
    agg = games.group_by(*keys).agg(wins=won.sum(), n=won.count()).sort(*keys)
    return {
        tuple(row[:-2]): stats.wilson(int(row[-2] or 0), int(row[-1])) for row in agg.iter_rows() if row[-1]
    }


Reads = Callable[[Any], str] | str  # how an item reads in a table's column: a function, or a template


def cell_text(how: Reads, item: Any) -> str:
    """How `item` reads in a column: `how(item)`, or the template `how` filled from the item's
    attributes (`text.fill_from`: "{win:[pct]}", "{seat_games:,}")."""
    return how(item) if callable(how) else fill_from(how, item)


def table(caption: str, columns: Sequence[tuple[str, Reads]], items: Sequence[Any]) -> Table:
    """A table of a row an item, each column given as its header and how an item reads in it (a
    function of the item, or a template of its attributes)."""
    return Table(
        caption,
        [header for header, _ in columns],
        [[cell_text(how, item) for _, how in columns] for item in items],
    )


def paired_outcome(
    a: pl.DataFrame | None, b: pl.DataFrame | None, outcome: pl.Expr
) -> stats.PairedDifference | None:
    """How often `outcome` (a boolean expression on the games, `pl.col("won")` say) holds in the
    games of `b` against those of `a`, from the games of both paired by game index that have a
    value in both (None: either side has no games, or no pair)."""
    if a is None or b is None:
        return None
    columns = [pl.col("game_index"), outcome.alias("x")]
    pairs = a.select(columns).join(b.select(columns), on="game_index", suffix="_b").drop_nulls()
    return stats.paired_difference(pairs["x"].to_numpy(), pairs["x_b"].to_numpy()) if pairs.height else None


def cells_by(games: pl.DataFrame, keys: Sequence[str]) -> list[Cell]:
    """The games (any part of the table) as cells by the values of `keys` rather than by cell id:
    one for each combination played, its values as text, ready for `paired_along`."""
    parts = games.partition_by(*keys, as_dict=True).items()
    return [Cell(" ".join(map(str, k)), dict(zip(keys, map(str, k), strict=True)), p) for k, p in parts]


class SectionModel:
    """A section's model as a class: the classmethod `read(ctx)` computes it from the dataset
    (None: the section has nothing to say) and the methods write the page's parts, none unless
    the class says otherwise. `section(key, title, *paragraphs)` is the section's spec."""

    @classmethod
    def read(cls, ctx: AnalysisContext) -> SectionModel | None:
        raise NotImplementedError

    def findings(self) -> list[str]:
        return []

    def notes(self) -> list[str]:
        """Paragraphs that depend on what was found, after the fixed ones."""
        return []

    def charts(self, ctx: AnalysisContext) -> list[Chart]:
        return []

    def tables(self) -> list[Table]:
        return []

    def retitle(self) -> str:
        """The title where it depends on what was found ("": the spec's)."""
        return ""

    @classmethod
    def section(cls, key: str, title: str, *paragraphs: str) -> Section:
        """The spec of the section this class models; `paragraphs` come before its notes."""
        return Section(
            key, title, cls.read, cls.findings, _charts_of, cls.tables, paragraphs, cls.notes, cls.retitle
        )


def _charts_of(ctx: AnalysisContext, model: SectionModel) -> list[Chart]:
    return model.charts(ctx)


def resolve(
    items: Sequence[Item], p_values: Sequence[float], method: str = stats.HOLM
) -> tuple[list[Item], stats.Family]:
    """The family of the items' tests (`p_values`, one an item; `stats.family`) and the items,
    named tuples with a field `resolved`, each marked resolved or not after it."""
    family = stats.family(p_values, method)
    return [
        item._replace(resolved=bool(yes)) for item, yes in zip(items, family.resolved, strict=True)
    ], family


def save(ctx: AnalysisContext, fig: Any, stem: str, title: str, alt: str, caption: str) -> Chart:
    """A section's chart saved beside the page as `<dataset>-<stem>` (.svg and .png)."""
    return save_chart(fig, ctx.out, f"{ctx.name}-{stem}", title, alt, caption)


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


# --- an estimate as two table columns, and every setting paired along its values ---


def estimate_columns(header: str, name: str, rate: bool = False) -> tuple[tuple[str, str], ...]:
    """The `table` columns of an estimate (a `stats.Interval` attribute `name` of the items, a
    dotted path allowed: "pool.surv"): its value under `header`, then its bounds under "95 % CI":
    "12.3 %", "10.1 to 14.5 %" for a rate, "1,234.50", "1,200.00 to 1,269.00" otherwise."""
    value = "pct" if rate else "number2"
    return (header, f"{{{name}:{value}}}"), ("95 % CI", f"{{{name}:interval{' pct' if rate else ''}}}")


class Along(NamedTuple):
    """One setting's `other` value against its `base` value, as pairs of games (`paired_along`),
    within the cells whose `group_key` setting is `group` ("": every cell)."""

    group: str
    key: str
    base: str
    other: str
    paired: Paired


def along_settings(
    cells: Sequence[Cell],
    keys: Sequence[str],
    varied: Sequence[str],
    group_key: str = "strategy",
    skip: Callable[[str, str], bool] = lambda key, value: False,
) -> list[Along]:
    """Every other value of each setting of `varied` against its first, as pairs of games pooled
    over the other settings (`paired_along` over `keys`): within each group of cells sharing a
    value of `group_key` where that varies and is not the setting compared, else over every cell
    (the group then the one value of `group_key`, or "" where it varies or is not in `keys`).
    `skip(key, value)` leaves a value out; a pair of values no cells match is left out."""
    groups = values(cells, group_key) if group_key in keys else []
    out = []
    for key in varied:
        kept = [v for v in values(cells, key) if not skip(key, v)]
        if key != group_key and len(groups) > 1:
            parts = [(g, [c for c in cells if c.settings[group_key] == g]) for g in groups]
        else:
            parts = [(groups[0] if len(groups) == 1 else "", list(cells))]
        for group, mine in parts:
            for other in kept[1:]:
                paired = paired_along(mine, key, kept[0], other, keys)
                out += [Along(group, key, kept[0], other, paired)] if paired is not None else []
    return out


# --- panel charts as specs with a game's words, a win-rate axis, paired in a frame ---


class Panels(NamedTuple):
    """A chart of one panel per item (`charts.panel_chart`) as a spec: its file stem (saved as
    `<dataset>-<stem>`), the keys of its words in a game's `Words` (title, alt text, caption),
    each panel's size in inches and the y axis's label."""

    stem: str
    texts: tuple[str, str, str]
    size: tuple[float, float]
    ylabel: str

    def draw(
        self,
        ctx: AnalysisContext,
        words: Words,
        items: Sequence[Any],
        draw: Any,
        listed: str,
        *more: Any,
        **values: Any,
    ) -> Chart:
        """The chart of `items`, each panel drawn by `draw(ax, item)` (`more`: the figure legend's
        keyword arguments and the y limits, as `panel_chart` takes them); titled by the first text,
        its alt text the second filled with the title and `listed` (as `items`), its caption the
        third filled with `values`."""
        title, (_, alt, caption) = words[self.texts[0]], self.texts
        alt, caption = words.fill(alt, title=title, items=listed), words.fill(caption, **values)
        how = (items, self.size, draw, self.ylabel, alt, caption, *more)
        return panel_chart(ctx.out, f"{ctx.name}-{self.stem}", title, ctx.subject, *how)


def rate_top(rates: Sequence[stats.Interval]) -> float:
    """The top of a win-rate axis in percent: a tenth above the highest interval, on a multiple of
    5 %, within 5 and 100."""
    return percent_top(max(w.high for w in rates), 1.1)


def paired_in(games: pl.DataFrame, keys: Sequence[str], key: str, base: Any, other: Any) -> Paired | None:
    """`other` against `base` along `key` in the games (any part of the table) that have a verdict,
    each cell by the values of `keys` (`cells_by`) paired with the one equal to it but for `key`
    (`paired_along`; None: no such pair)."""
    cells = cells_by(games.filter(pl.col("won").is_not_null()), keys)
    return paired_along(cells, key, str(base), str(other), keys)


# --- wt-an-sa: rates ranked down the page as a chart spec, and a setting's values ranked ---


class Ranked(NamedTuple):
    """A chart of rates ranked down the page (`charts.ranked_rates`) as a spec: its file stem
    (saved as `<dataset>-<stem>`), the keys of its words in a game's `Words` (title, heading, x
    axis, alt text, one point in it, caption), its width in inches, the share of a row its groups
    spread over, what a group is (the legend's title), and the size of the rows' labels (None:
    the style's)."""

    stem: str
    texts: tuple[str, str, str, str, str, str]
    width: float
    band: float
    legend: str
    label_size: float | None = None

    def draw(
        self,
        ctx: AnalysisContext,
        words: Words,
        rows: Mapping[Any, str],
        groups: Sequence[Any],
        points: Mapping[tuple[Any, Any], stats.Interval],
        height: float,
        right: float,
        listed: int | None = None,
        **values: Any,
    ) -> Chart:
        """The chart of `points[(row, group)]`, the rows of `rows` from the top, each labelled by
        its value, `height` inches tall, the x axis from -1 to `right` %: titled by the first text,
        headed by the second (filled with the subject), the x axis named by the third; its alt text
        the fourth filled with `items`, the first `listed` points (None: all) each as the fifth
        filled with its row's `label`, its `group` and its `rate`; its caption the sixth filled
        with `values`."""
        title, heading, axis, alt, item, caption = self.texts
        style = {} if self.label_size is None else {"fontsize": self.label_size}
        with one_panel(self.width, height) as (fig, ax):
            ranked_rates(ax, list(rows), list(rows.values()), groups, points, self.band, self.legend, **style)
            ax.set_xlim(-1, right)
            ax.set_xlabel(words[axis])
            ax.set_title(words.fill(heading, subject=ctx.subject), loc="left")
        items = [words.fill(item, label=rows[row], group=g, rate=iv) for (row, g), iv in points.items()]
        alt = words.fill(alt, items="; ".join(items[:listed]))
        return save(ctx, fig, self.stem, words[title], alt, words.fill(caption, **values))


class Ranking(NamedTuple):
    """The values of one setting ranked (`ranked_along`): each value's games pooled over the other
    settings, in rank order, and as pairs of games (`paired_along`) the last value against the
    first (None: one value, or no cells pair) and each value against the one ranked before it
    (where cells pair)."""

    pools: list[tuple[str, pl.DataFrame]]
    extremes: Paired | None
    steps: list[Paired]


def ranked_along(
    cells: Sequence[Cell], key: str, keys: Sequence[str], rank: Callable[[str, pl.DataFrame], Any]
) -> Ranking:
    """The values of setting `key` over `cells`, each with the games of its cells pooled, sorted by
    `rank(value, games)`, and their paired comparisons along `key` over `keys`."""
    pools = {v: pl.concat([c.games for c in cells if c.settings[key] == v]) for v in values(cells, key)}
    order = sorted(pools, key=lambda v: rank(v, pools[v]))
    extremes = paired_along(cells, key, order[0], order[-1], keys) if len(order) > 1 else None
    steps = [paired_along(cells, key, a, b, keys) for a, b in zip(order, order[1:], strict=False)]
    return Ranking([(v, pools[v]) for v in order], extremes, [p for p in steps if p is not None])


# --- wt-an-aa: a chart's words as a spec, as `Panels` holds them for a chart of panels ---


class ChartWords(NamedTuple):
    """A chart's file stem (saved as `<dataset>-<stem>`) and the keys of its words in a game's
    `Words`: its title, alt text and caption."""

    stem: str
    texts: tuple[str, str, str]

    def heading(self, words: Words, ctx: AnalysisContext) -> str:
        """The title drawn on the chart: "title: subject"."""
        return f"{words[self.texts[0]]}: {ctx.subject}"

    def save(self, ctx: AnalysisContext, words: Words, fig: Any, /, **values: Any) -> Chart:
        """The figure saved, titled by the first text, its alt text and caption the second and the
        third filled with `values` (each takes those it names; `title` and `subject` are given)."""
        title = words[self.texts[0]]
        values = {"title": title, "subject": ctx.subject, **values}
        alt, caption = (words.fill(key, **values) for key in self.texts[1:])
        return save(ctx, fig, self.stem, title, alt, caption)


# --- an4-ohno: pooled settings and paired differences in words, a family of named comparisons ---


def pooled_over(games: pl.DataFrame, forms: Sequence[tuple[str, str]], held: str = "") -> str:
    """The text ", pooled over 3 to 5 players and levels 0 to 3": each setting of `forms` (a column
    of the games and how its range reads, "{} to {} players") that varies in the games, but `held`;
    "" where none does."""
    parts = [
        form.format(games[key].min(), games[key].max())
        for key, form in forms
        if key != held and games[key].n_unique() > 1
    ]
    return f", pooled over {' and '.join(parts)}" if parts else ""


def difference_sentence(
    words: Words, keys: tuple[str, str, str], iv: Any, rate: bool = True, /, **values: Any
) -> str:
    """A paired difference B minus A (a `stats.Interval`, or a `stats.PairedDifference`) as a
    sentence: the text `keys[0]` filled with `values`, the interval's bounds `lo` and `hi` read
    in the direction of the difference (those of minus it where it is negative), its pairs `n`
    and its `head`: `keys[2]` where the difference is 0, else `keys[1]` filled with its `size`
    (the absolute value) and `up` (whether it is above 0). A rate reads in percentage points to
    the decimals `point_decimals` asks; otherwise to two decimals."""
    estimate = iv.difference if isinstance(iv, stats.PairedDifference) else iv.estimate
    scale, digits = (100, point_decimals(estimate, iv.low, iv.high)) if rate else (1, 2)
    low, high = (iv.low, iv.high) if estimate >= 0 else (-iv.high, -iv.low)
    size, low, high = (f"{scale * x:.{digits}f}" for x in (abs(estimate), low, high))
    sentence, head, same = keys
    head = words[same] if estimate == 0 else words.fill(head, size=size, up=bool(estimate > 0))
    return words.fill(sentence, head=head, lo=low, hi=high, n=iv.n, **values)


class Compared(NamedTuple):
    """A family of comparisons resolved (`Comparisons.resolve`): each name's difference and
    whether it is resolved, and how the page names the family ("Holm over 4 comparisons")."""

    verdicts: dict[Any, tuple[Any, bool]]
    family: str

    def said(
        self,
        words: Words,
        key: str,
        keys: tuple[str, str, str],
        name: Any,
        rate: bool = True,
        /,
        **values: Any,
    ) -> str:
        """Comparison `name` in words: the text `key` filled with its `sentence` (its difference as
        `difference_sentence` writes it with `keys`, `rate` and `values`), whether it is
        `resolved`, the `family`, and `values`."""
        difference, resolved = self.verdicts[name]
        sentence = difference_sentence(words, keys, difference, rate, **values)
        return words.fill(key, sentence=sentence, resolved=resolved, family=self.family, **values)


@dataclass
class Comparisons:
    """A family of comparisons collected one by one, each under a name (any hashable): its
    difference and its p-value, times a weight where it was picked (the best of several: the
    pairs it was picked from over the comparisons made), then resolved at once (`resolve`)."""

    found: dict[Any, tuple[Any, float]] = field(default_factory=dict)

    def __contains__(self, name: Any) -> bool:
        return name in self.found

    def add(self, name: Any, difference: Any, p_value: float, weight: float = 1.0) -> Any:
        """`difference` with its p-value times `weight` (at most 1) under `name`, unless the
        name is there already (the first stays); the name."""
        if name not in self.found:
            self.found[name] = (difference, min(1.0, p_value * weight))
        return name

    def paired(
        self,
        name: Any,
        games: pl.DataFrame,
        keys: Sequence[str],
        key: str,
        a: Any,
        b: Any,
        weight: float = 1.0,
    ) -> Any:
        """`b` against `a` along `key` in the games, paired by seed (`paired_in` over `keys`), added
        under `name` as its win-rate difference and McNemar p-value times `weight` (`add`) unless
        the name is there already; the name, or None where no games pair."""
        if name not in self.found and (pairs := paired_in(games, keys, key, a, b)):
            self.add(name, pairs.wins, pairs.wins.p_value, weight)
        return name if name in self.found else None

    def resolve(self, method: str = stats.HOLM) -> Compared:
        """Every comparison's verdict after the family's adjustment (`stats.family`), in the
        order they were added."""
        family = stats.family([p for _, p in self.found.values()], method)
        verdicts = zip(self.found.items(), family.resolved, strict=True)
        return Compared({name: (d, bool(yes)) for (name, (d, _)), yes in verdicts}, family.text)


# --- an4-ohno: a sweep of one setting, its best value against every other ---


@dataclass(frozen=True)
class Sweep:
    """One group of cells over the values of a swept setting (`sweep`): the best value, and each
    other against it paired by seed."""

    group: tuple  # the group's values of the grouping settings
    best: Any
    rate: stats.Interval  # the win rate at the best value
    others: int  # the values played besides the best
    near: dict[str, Any]  # "lower" / "higher": the next value that way, where there is one
    against: dict[Any, tuple[stats.PairedDifference, bool]]  # value -> (best minus it, resolved)

    def tied(self) -> list:
        """The values not resolved from the best."""
        return [v for v, (_, resolved) in self.against.items() if not resolved]

    def neighbours(self) -> list[tuple[Any, stats.PairedDifference, bool]]:
        """The next values below and above the best that pair with it: each with the best minus
        it and whether that is resolved."""
        return [(v, *self.against[v]) for v in self.near.values() if v in self.against]

    @property
    def apart(self) -> bool:
        """Whether the best is resolved from each of its neighbours (a missing pair is not)."""
        return all(v in self.against and self.against[v][1] for v in self.near.values())

    def versus(self, side: str) -> str:
        """The best against the next value on `side` (a number), paired, as a table cell: "vs 6:
        +3.1 (-1.2 to +7.4)" in percentage points, or "none (end of the sweep)"."""
        if (value := self.near.get(side)) not in self.against:
            return "none (end of the sweep)"
        d = self.against[value][0]
        return f"vs {value:g}: {points(d.difference)} ({points_interval(d)})"

    def cells(self) -> list[str]:
        """The sweep as a table row: the best value, its win rate, the rate's 95 % interval and its
        games, the best against the next value lower and higher (`versus`), whether it is resolved
        from both ("yes" or "no") and the values not resolved from it ("none")."""
        tied, rate = ", ".join(f"{v:g}" for v in self.tied()) or "none", self.rate
        best = [f"{self.best:g}", pct(rate.estimate), ci(rate, pct=True), f"{rate.n:,}"]
        return [*best, self.versus("lower"), self.versus("higher"), "yes" if self.apart else "no", tied]


class Swept(NamedTuple):
    """A setting swept in each group of cells (`sweep`): the win rate of each group at each value
    (keyed by the group's values, then the value), the group's sweeps, and their family's name."""

    grid: dict[tuple, stats.Interval]
    sweeps: list[Sweep]
    family: str


def sweep(games: pl.DataFrame, groups: Sequence[str], swept: str, keys: Sequence[str]) -> Swept:
    """For each combination of the settings `groups` in the games (those with a verdict), the win
    rate at each value of `swept` (`win_grid`), the best (ties: the lowest value) and every other
    value against it, paired by seed along `swept` (`paired_in` over `keys`). One Holm family over
    every group, each p-value times T / 2 for its group's T values: the best was picked from
    their T (T - 1) / 2 pairs by T - 1 comparisons. A group of one value has no sweep."""
    grid, comparisons, found = win_grid(games, (*groups, swept)), Comparisons(), []
    for group in dict.fromkeys(k[:-1] for k in grid):
        rates = {k[-1]: w for k, w in grid.items() if k[:-1] == group}
        values = list(rates)  # in their sorted order
        if len(values) < 2:
            continue
        best = max(values, key=lambda v, rates=rates, values=values: (rates[v].estimate, -values.index(v)))
        mine = games.filter(*(pl.col(k) == v for k, v in zip(groups, group, strict=True)))
        paired = {v: paired_in(mine, keys, swept, v, best) for v in values if v != best}
        against = [(v, p.wins) for v, p in paired.items() if p]
        for v, d in against:
            comparisons.add((group, v), d, d.p_value, len(values) / 2)
        i = values.index(best)
        near = {side: values[j] for side, j in (("lower", i - 1), ("higher", i + 1)) if 0 <= j < len(values)}
        found.append((group, best, len(values) - 1, near, [v for v, _ in against]))
    compared = comparisons.resolve()
    sweeps = [
        Sweep(group, best, grid[(*group, best)], others, near, {v: compared.verdicts[(group, v)] for v in vs})
        for group, best, others, near, vs in found
    ]
    return Swept(grid, sweeps, compared.family)


# --- an4-sa: the gap between a top and a bottom picked from several values, and of columns ---


class Picked(NamedTuple):
    """The test of a gap between the highest and the lowest of several values, picked after seeing
    them (`picked_extremes`): its p value adjusted for the picking, the pairs it was picked from,
    and whether the adjusted p value is below `stats.ALPHA`."""

    p: float
    pairs: int
    resolved: bool


def picked_extremes(p_value: float, k: int) -> Picked:
    """The gap between the highest and the lowest of `k` values (the most and the least damaged
    zone, the hardest and the easiest mission), whose test gave `p_value` as if the two had been
    chosen beforehand: picked from every pair of the values, so Bonferroni-adjusted over their
    C(k, 2) pairs (the p value times that, at most 1; no p value, NaN, reads 1)."""
    pairs = math.comb(k, 2)
    p = min(1.0, p_value * pairs)
    return Picked(p, pairs, bool(p < stats.ALPHA))


class Extremes(NamedTuple):
    """Of several measures of the same games (`column_extremes`): the one with the highest mean and
    the one with the lowest, the highest's mean and its paired excess over the lowest (Student t
    intervals), and the excess's test adjusted for the picking over the `pairs` pairs of measures
    (`picked_extremes`; NaN where every mean ties, so that the two are the same measure)."""

    most: str
    least: str
    top: stats.Interval
    gap: stats.Interval
    p: float
    pairs: int


def column_extremes(games: pl.DataFrame, columns: Mapping[str, str]) -> Extremes:
    """Which of the measures `columns` (a name and its column of `games`) has the highest mean over
    the games and which the lowest (the first named where means tie), and the highest's excess
    over the lowest, paired within games (a paired t test)."""
    values = {name: games[column].cast(pl.Float64).to_numpy() for name, column in columns.items()}
    most, least = (pick(values, key=lambda name: float(values[name].mean())) for pick in (max, min))
    gap = values[most] - values[least]
    picked = picked_extremes(stats.mean_p_value(gap), len(values))
    p = picked.p if most != least else math.nan
    return Extremes(most, least, stats.mean_interval(values[most]), stats.mean_interval(gap), p, picked.pairs)


# --- an4-eb: paired steps between neighbouring settings in one family, a grid of rates as a table ---


def as_interval(difference: stats.PairedDifference) -> stats.Interval:
    """A paired difference as an interval, its difference the estimate: what the charts of
    intervals (`charts.dots_about_zero`) draw."""
    return stats.Interval(difference.difference, difference.low, difference.high, difference.n)


def neighbour_steps(axes: Sequence[Sequence[Any]]) -> list[tuple[int, tuple, tuple]]:
    """Every step between neighbouring values of one setting with the others held, in a grid of
    settings (`axes`: each setting's values in the order to step along): (the setting's index, the
    point stepped from, the point stepped to), a setting at a time; within one, the held values in
    the grid's order (the first setting's slowest), and for each the steps in order."""
    steps = []
    for i, values in enumerate(axes):
        for held in itertools.product(*(v for j, v in enumerate(axes) if j != i)):
            for a, b in itertools.pairwise(values):
                steps.append((i, (*held[:i], a, *held[i:]), (*held[:i], b, *held[i:])))
    return steps


def paired_steps(
    cells: Mapping[tuple, pl.DataFrame],
    groups: Sequence[Any],
    steps: Sequence[tuple],
    outcome: pl.Expr,
    make: Callable[..., Item],
) -> tuple[list[Item], stats.Family]:
    """For each group and each step (a tuple ending in the settings stepped from and to, each a
    tuple), how often `outcome` holds in the cell `(group, *to)` of `cells` against `(group, *from)`,
    paired by game index (`paired_outcome`; a step without games at either end is left out), as
    the item `make(group, *step, difference)` (a named tuple with a field `resolved`): the items
    marked resolved or not after the Holm adjustment over every one of them, and the family."""
    pairs = (
        ((group, *step), cells.get((group, *step[-2])), cells.get((group, *step[-1])))
        for group in groups
        for step in steps
    )
    return _paired(pairs, outcome, make)


def paired_ladder(
    frames: Mapping[Any, pl.DataFrame],
    group: Callable[[Any], Any],
    rank: Callable[[Any], Any],
    outcome: pl.Expr,
    make: Callable[..., Item],
    least: int = 1,
) -> tuple[list[Item], stats.Family]:
    """A ladder of paired steps along one setting: the keys of `frames` (cells, say, each with its
    games) grouped by `group(key)` (the groups in order of first appearance), each group's keys
    sorted by `rank(key)`, and each key against the one before it: how often `outcome` holds in
    its games against the one before's, paired by game index (`paired_outcome`; a step of fewer
    than `least` pairs is left out), as the item `make(group, before, key, difference)` (a named
    tuple with a field `resolved`): the items marked resolved or not after the Holm adjustment
    over every one of them, and the family."""
    pairs = []
    for name in dict.fromkeys(group(key) for key in frames):
        mine = sorted((key for key in frames if group(key) == name), key=rank)
        pairs += [((name, a, b), frames[a], frames[b]) for a, b in itertools.pairwise(mine)]
    return _paired(pairs, outcome, make, least)


def _paired(
    pairs: Iterable[tuple[tuple, pl.DataFrame | None, pl.DataFrame | None]],
    outcome: pl.Expr,
    make: Callable[..., Item],
    least: int = 1,
) -> tuple[list[Item], stats.Family]:
    """Each pair of frames (its item's fields, then the two) as `make(*fields, difference)` where
    `paired_outcome` finds at least `least` pairs, all resolved in one Holm family."""
    items, p_values = [], []
    for fields, a, b in pairs:
        difference = paired_outcome(a, b, outcome)
        if difference is not None and difference.n >= least:
            items.append(make(*fields, difference))
            p_values.append(difference.p_value)
    return resolve(items, p_values)


def rate_grid_table(
    caption: str,
    groups: Sequence[Any],
    rows: Sequence[Any],
    columns: Sequence[Any],
    rates: Mapping[tuple[Any, Any, Any], stats.Interval],
    heads: tuple[str, str, str],
) -> Table:
    """Rates over a grid of two settings (`charts.rate_heat_panels`) in numbers: a row a group and
    value of `rows`, a column a value of `columns`, each `rates[(group, row, column)]` as
    `text.estimate_cell` writes a rate ("–": not played). `heads` are the first column's header,
    the template of a row's label ("{group}, countdown {row}") and that of a column's header
    ("{column} attack dice")."""
    head, label, column_head = heads
    cells = [
        (column_head.format(column=c), lambda r, c=c: estimate_cell(rates.get((*r, c)), as_pct=True))
        for c in columns
    ]
    items = [(g, r) for g in groups for r in rows]
    return table(caption, [(head, lambda r: label.format(group=r[0], row=r[1])), *cells], items)
