"""A setting swept in groups of cells as a report section (`SweepSection`): the win rate at every
value of the swept setting in each group, the group's best value against every other, paired by
seed (`families.sweep`), a chart of a panel per value of the first grouping setting, and two tables
(each group's best value, and every value with the share of games ending in the ways a game names).
A game's subclass declares what is its own (its columns, headers and words) as class attributes,
as the seat sections do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import polars as pl

from simkit.core import stats
from simkit.reporting import charts, text
from simkit.reporting.kit.cell_data import Shares, shares, sorted_values
from simkit.reporting.kit.families import Sweep, sweep, sweep_sentence
from simkit.reporting.kit.section_specs import Label, Panels, SectionModel, label_text, rate_top
from simkit.reporting.kit.wording import Words
from simkit.reporting.sections import AnalysisContext, Table


@dataclass(frozen=True)
class SweepSection(SectionModel):
    """A swept setting's section. A game's subclass declares:

    - `SWEPT`: the swept column; `ENDING`: the column of how a game ended; `KEYS`: the settings
      that pair two games (with `game_index`).
    - `GROUPS`: the grouping settings, each as (column, table header, how a value is labelled: a
      template "{} players" or a function); the first gives the chart's panels (its label is
      the panel's title), the others its lines (their labels joined by ", ").
    - `VARYING`: the grouping columns shown (in tables and lines) only where they vary.
    - `ENDS`: the ways of ending (values of `ENDING`) whose share of the games the every-value
      table shows, each with its header.
    - `WORDS` and the keys of its texts: `SAID` (`sweep_sentence`'s six, filled with `who`),
      `ALT_ITEM` (one point of the alt text, filled with the group's columns by name, the value
      `t` and the win rate `w`), `TABLES` (the captions of the best-value and the every-value
      tables); `CHART` (its caption filled with the values `swept` and the `games`); the swept
      value's name in the tables (`VALUE`), the x axis's label (`AXIS`) and the legend's title.

    and overrides `games(ctx)` (the games with a verdict, a swept value and `ENDING`) and
    `who(group)` (a group as its finding names it)."""

    SWEPT: ClassVar[str]
    ENDING: ClassVar[str]
    KEYS: ClassVar[tuple[str, ...]]
    GROUPS: ClassVar[tuple[tuple[str, str, Label], ...]]
    VARYING: ClassVar[tuple[str, ...]] = ()
    ENDS: ClassVar[tuple[tuple[str, str], ...]] = ()
    WORDS: ClassVar[Words]
    SAID: ClassVar[tuple[str, str, str, str, str, str]]
    ALT_ITEM: ClassVar[str]
    TABLES: ClassVar[tuple[str, str]]
    CHART: ClassVar[Panels]
    VALUE: ClassVar[str]
    AXIS: ClassVar[str]
    LEGEND: ClassVar[str]

    grid: dict[tuple, stats.Interval]  # (*group, value) -> win rate
    sweeps: list[Sweep]
    family: str
    panels: list  # the first grouping setting's values
    shown: tuple[bool, ...]  # per grouping setting: whether its column is shown
    ended: Shares  # (*group, value) -> games, and its games of each way of ending

    @classmethod
    def games(cls, ctx: AnalysisContext) -> pl.DataFrame:
        raise NotImplementedError

    def who(self, group: tuple) -> str:
        raise NotImplementedError

    @classmethod
    def read(cls, ctx: AnalysisContext) -> SweepSection | None:
        """The win rate at every value of each group, its best value and every other against that,
        paired by seed: one Holm family over all groups, each p-value times (pairs) /
        (comparisons) = T / 2, as the best was picked from every pair of the T values (`sweep`).
        None where the games hold fewer than two values."""
        g = cls.games(ctx)
        if g.height == 0 or g[cls.SWEPT].n_unique() < 2:
            return None
        columns = [column for column, *_ in cls.GROUPS]
        ended = shares(g, (*columns, cls.SWEPT), cls.ENDING)
        shown = tuple(column not in cls.VARYING or g[column].n_unique() > 1 for column in columns)
        return cls(*sweep(g, columns, cls.SWEPT, cls.KEYS), sorted_values(g, columns[0]), shown, ended)

    def findings(self) -> list[str]:
        """Each group's best value with its win rate, against its neighbours, and the values not
        resolved from it."""
        return [
            sweep_sentence(self.WORDS, self.SAID, s, self.family, who=self.who(s.group)) for s in self.sweeps
        ]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """One panel per value of the first grouping setting: the win rate against the swept value,
        one line per group of the others with its Wilson band, a star at the group's best value."""
        lines = list(dict.fromkeys(group[1:-1] for group in self.grid))
        best = {s.group: s.best for s in self.sweeps}

        def draw(ax, panel: Any) -> None:
            for k, line in enumerate(lines):
                mine = {key[-1]: w for key, w in self.grid.items() if key[:-1] == (panel, *line)}
                if not mine:
                    continue
                named = [label_text(self.GROUPS[i][2], v) for i, v in enumerate(line, 1) if self.shown[i]]
                label = ", ".join(named) if panel == self.panels[0] else None  # the figure legend gathers all
                star = best.get((panel, *line))
                charts.interval_band(
                    ax, list(mine), list(mine.values()), group=k, label=label, scale=100, star=star
                )
            ax.set_title(label_text(self.GROUPS[0][2], panel), loc="left", fontsize=10)
            ax.set_xlabel(self.AXIS)

        columns = [column for column, *_ in self.GROUPS]
        items = [
            self.WORDS.fill(self.ALT_ITEM, **dict(zip(columns, key, strict=False)), t=key[-1], w=w)
            for key, w in self.grid.items()
        ]
        listed = text.joined_upto(items, 30, "; and more (see the table)")
        rates, values = list(self.grid.values()), sorted({key[-1] for key in self.grid})
        legend = {"title": self.LEGEND, "ncols": max(1, len(lines))}
        more = {"swept": ", ".join(f"{t:g}" for t in values), "games": text.per(rates, "point")}
        return [
            self.CHART.draw(ctx, self.WORDS, self.panels, draw, listed, legend, (0, rate_top(rates)), **more)
        ]

    def tables(self) -> list[Table]:
        """Each group's best value against its neighbours (`Sweep.cells`), and at every value the
        win rate and the share of games ending each way of `ENDS` (Wilson intervals)."""
        shown = [i for i, yes in enumerate(self.shown) if yes]
        heads = [self.GROUPS[i][1] for i in shown]
        best = [[str(s.group[i]) for i in shown] + s.cells() for s in self.sweeps]
        every = []
        for key, w in self.grid.items():
            ends = self.ended.of(key, [end for end, _ in self.ENDS]).values()
            rates = [f"{key[-1]:g}", *text.rate_cells(w), *(text.with_interval(iv) for iv in ends)]
            every.append([str(key[i]) for i in shown] + rates)
        columns = [
            *heads,
            f"best {self.VALUE}",
            "win rate",
            "95 % CI",
            "games",
            "vs next lower",
            "vs next higher",
        ]
        columns += ["resolved from both", f"{self.VALUE}s not resolved from it"]
        tables = [Table(self.WORDS[self.TABLES[0]], columns, best)]
        columns = [
            *heads,
            self.VALUE,
            "games",
            "wins",
            "win rate",
            "95 % CI",
            *(head for _, head in self.ENDS),
        ]
        return [*tables, Table(self.WORDS[self.TABLES[1]], columns, every)]
