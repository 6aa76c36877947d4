"""Sections and charts as specs: `Section` (compute -> findings, charts, tables) and
`SectionModel` (a section's model that reads itself from the dataset and says its findings, charts
and tables), `build` (the specs into the `GameSection`s the report renders; a section whose model
finds nothing to say, None, is left out); `table` (a row an item, each column its header and how an
item reads in it: a function, or a template of the item's attributes, "{wins:[pct]}"),
`estimate_columns`, `rate_grid_table`, `win_at_columns`, `listed_table`, and as a model's methods
`one_table` (a section's one table) and `finding_each` (a finding an item); the chart specs
`Panels` (a chart of panels), `Ranked` (rates ranked down the page), `Stacked` (bars stacked from
parts), `RateDots` (a rate a category) and `ChartWords` (a chart's words), each holding the keys of
its words in a game's `report_words.toml`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

from simkit.core import stats
from simkit.reporting.charts import (
    Chart,
    one_panel,
    panel_chart,
    percent_top,
    ranked_rates,
    rate_dots,
    save_chart,
    side_legend,
    stacked_bars,
)
from simkit.reporting.kit.cell_data import Listed
from simkit.reporting.kit.wording import Words
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import estimate_cell, fill, fill_from

Model = TypeVar("Model")


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


DatasetNotes = Callable[[AnalysisContext], Mapping[str, Sequence[str]]]


def build(
    ctx: AnalysisContext,
    specs: Sequence[Section],
    needs: Collection[str] = (),
    notes: DatasetNotes | None = None,
) -> list[GameSection]:
    """The sections of `specs` that have something to say, in order; none where the dataset has no
    games, or its games table lacks a column of `needs` (what every section reads). `notes(ctx)`
    (asked only where a section was built) gives paragraphs that hold for this dataset, by section
    key, after a section's own."""
    games = ctx.dataset.games
    if needs and (games.height == 0 or not set(needs) <= set(games.columns)):
        return []
    out, said = [], {}
    for spec in specs:
        model = spec.compute(ctx)
        if model is None:
            continue
        if notes is not None and not out:
            said = notes(ctx)
        out.append(
            GameSection(
                spec.key,
                spec.retitle(model) or spec.title,
                findings=spec.findings(model),
                paragraphs=[*spec.paragraphs, *spec.notes(model), *said.get(spec.key, ())],
                charts=spec.charts(ctx, model),
                tables=spec.tables(model),
            )
        )
    return out


Reads = Callable[[Any], str] | str  # how an item reads in a table's column: a function, or a template


def cell_text(how: Reads, item: Any) -> str:
    """How `item` reads in a column: `how(item)`, or the template `how` filled from the item's
    attributes (`text.fill_from`: "{win:[pct]}", "{seat_games:,}")."""
    return how(item) if callable(how) else fill_from(how, item)


Label = Callable[[Any], str] | str  # how a value reads: a function, or a template ("level {}")


def label_text(how: Label, value: Any) -> str:
    """How `value` reads: `how(value)`, or the template `how` with the value ("level {}")."""
    return how(value) if callable(how) else how.format(value)


def table(caption: str, columns: Sequence[tuple[str, Reads]], items: Sequence[Any]) -> Table:
    """A table of a row an item, each column given as its header and how an item reads in it (a
    function of the item, or a template of its attributes)."""
    return Table(
        caption,
        [header for header, _ in columns],
        [[cell_text(how, item) for _, how in columns] for item in items],
    )


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


def save(ctx: AnalysisContext, fig: Any, stem: str, title: str, alt: str, caption: str) -> Chart:
    """A section's chart saved beside the page as `<dataset>-<stem>` (.svg and .png)."""
    return save_chart(fig, ctx.out, f"{ctx.name}-{stem}", title, alt, caption)


def estimate_columns(header: str, name: str, rate: bool = False) -> tuple[tuple[str, str], ...]:
    """The `table` columns of an estimate (a `stats.Interval` attribute `name` of the items, a
    dotted path allowed: "pool.surv"): its value under `header`, then its bounds under "95 % CI":
    "12.3 %", "10.1 to 14.5 %" for a rate, "1,234.50", "1,200.00 to 1,269.00" otherwise."""
    value = "pct" if rate else "number2"
    return (header, f"{{{name}:{value}}}"), ("95 % CI", f"{{{name}:interval{' pct' if rate else ''}}}")


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


def win_at_columns(values: Mapping[str, Sequence[str]], header: str, reads: str) -> list[tuple[str, Reads]]:
    """The `table` columns of an item's win rate (`Cell.win_at`) at each value of each setting of
    `values` (a setting and its values, as text): headed by `header` filled with the `key` and the
    `value` ("survival at {key}={value}"), the rate reading as the template `reads` filled with it
    as `rate` ("{rate:pct} (n={rate.n:,})")."""
    return [
        (
            header.format(key=key, value=value),
            lambda item, key=key, value=value: fill(reads, rate=item.win_at(key, value)),
        )
        for key, settings in values.items()
        for value in settings
    ]


class Stacked(NamedTuple):
    """A chart of bars stacked from parts, a bar a label down the page (`charts.stacked_bars`), as
    a spec: its file stem (saved as `<dataset>-<stem>`), the keys of its words in a game's `Words`
    (title, x axis, alt text, caption), its width in inches and what a part is (the legend's
    title)."""

    stem: str
    texts: tuple[str, str, str, str]
    width: float
    legend: str

    def draw(
        self,
        ctx: AnalysisContext,
        words: Words,
        labels: Sequence[str],
        parts: dict[str, Sequence[float]],
        /,
        **values: Any,
    ) -> Chart:
        """The chart of a bar a label from the top, each stacked from `parts` (a part's name and its
        value for each label), 0.45 inch a bar and 2.8 inches tall at least: headed at its left by
        the first text and the subject, its x axis named by the second; saved as `ChartWords.save`
        does with the first, the third and the fourth texts, filled with `values`."""
        title, axis, alt, caption = self.texts
        chart = ChartWords(self.stem, (title, alt, caption))
        with one_panel(self.width, max(2.8, 0.45 * len(labels) + 1.6)) as (fig, ax):
            stacked_bars(ax, labels, parts)
            ax.set_xlabel(words[axis])
            ax.set_title(chart.heading(words, ctx), loc="left")
            side_legend(ax, self.legend)
        return chart.save(ctx, words, fig, **values)


class RateDots(NamedTuple):
    """A chart of rates as dots with their 95 % whiskers, a category along x (`charts.rate_dots`),
    as a spec: its file stem (saved as `<dataset>-<stem>`), the keys of its words in a game's
    `Words` (title, y axis, alt text, caption), its size in inches and the x axis's label."""

    stem: str
    texts: tuple[str, str, str, str]
    size: tuple[float, float]
    x_label: str

    def draw(
        self,
        ctx: AnalysisContext,
        words: Words,
        labels: Sequence[str],
        rates: Sequence[stats.Interval],
        /,
        **values: Any,
    ) -> Chart:
        """The chart of `rates` (`stats.Interval`s), each labelled by its label of `labels`: headed
        at its left by the first text and the subject, its y axis named by the second; saved as
        `ChartWords.save` does with the first, the third and the fourth texts, filled with
        `values`."""
        title, axis, alt, caption = self.texts
        chart = ChartWords(self.stem, (title, alt, caption))
        with one_panel(*self.size) as (fig, ax):
            rate_dots(ax, labels, rates)
            ax.set(ylabel=words[axis], xlabel=self.x_label)
            ax.set_title(chart.heading(words, ctx), loc="left")
        return chart.save(ctx, words, fig, **values)


def listed_table(caption: str, listed: Listed, item: str, top: int) -> Table:
    """The `top` items a `Listed` lists most often, most first: a row an item, its number (headed
    `item`: "space"), its share of the games with its interval, and the games that list it."""
    columns = ((item, "{item}"), ("share of games", "{share:[pct]}"), ("games", "{games:,}"))
    return table(caption, columns, [listed.item(number) for number in listed.order[:top]])


def one_table(caption: str, columns: Sequence[tuple[str, Reads]], items: str) -> Callable[[Any], list[Table]]:
    """A section model's `tables` for a section of one table, as a spec: a row an item of the
    model's attribute `items` ("cells"), the columns as `table` takes them. Set it as the class's
    `tables`: `tables = kit.one_table(caption, COLUMNS, "cells")`."""

    def tables(model: Any) -> list[Table]:
        return [table(caption, columns, getattr(model, items))]

    return tables


def finding_each(words: Words, key: str, items: str) -> Callable[[Any], list[str]]:
    """A section model's `findings` as a spec, a finding an item of the model's attribute `items`
    ("pools"): the text `key` of `words` filled from the item (`Words.fill_from`). Set it as the
    class's `findings`: `findings = kit.finding_each(WORDS, "pools.finding", "pools")`."""

    def findings(model: Any) -> list[str]:
        return [words.fill_from(key, item) for item in getattr(model, items)]

    return findings
