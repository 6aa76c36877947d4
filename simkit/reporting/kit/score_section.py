"""The score's distribution as a report section (`ScoreSection`): for each series (a value of one
setting, say a strategy) where it scores most along another setting (say a level) against the
second, paired by seed; a chart of the share of games at each score, a panel per value of that
setting and a bar per series; and a table of the mean score, the share scoring 0 and the mean score
of the games won per group. A game's subclass declares its columns and words as class attributes,
as the seat sections do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import polars as pl

from simkit.core import stats
from simkit.reporting import charts, text
from simkit.reporting.kit.cell_data import mean_of, shares, sorted_values
from simkit.reporting.kit.families import Compared, Comparisons, pooled_over
from simkit.reporting.kit.pairing import paired_in, picked_extremes
from simkit.reporting.kit.section_specs import Label, Panels, SectionModel, label_text
from simkit.reporting.kit.wording import Words
from simkit.reporting.sections import AnalysisContext, Table


@dataclass(frozen=True)
class ScoreSection(SectionModel):
    """The score's section. A game's subclass declares:

    - `ALONG`: the setting each series' top is picked along, which also panels the chart: its
      column, how a value reads in a finding, and how in a panel's title.
    - `SERIES`: the setting whose values are the series (its column, its name in the legend and
      the tables, and how a value reads in a finding: "the bold crew").
    - `ROWS`: the table's grouping columns, each with its header; `KEYS`: the settings that pair
      two games (with `game_index`); `POOLED`: the settings a finding says it pools over, as
      `pooled_over` takes them.
    - `WORDS` and the keys of its texts: `SAID` (a series' top, filled with `who`, `at`, its mean
      `m` and `pooled`; the top against the second, filled with its `sentence`, `resolved`,
      `family`, the number of `values` and their `pairs`; and `difference_sentence`'s three),
      `TABLE` (the table's caption); `CHART` (its caption filled with the `games`), and `AXIS`
      (the x axis's label).

    and overrides `games(ctx)` (the games, with `score`, `won` and `game_index` columns; those
    with a score are used)."""

    ALONG: ClassVar[tuple[str, Label, Label]]
    SERIES: ClassVar[tuple[str, str, Label]]
    ROWS: ClassVar[tuple[tuple[str, str], ...]]
    KEYS: ClassVar[tuple[str, ...]]
    POOLED: ClassVar[tuple[tuple[str, str], ...]] = ()
    WORDS: ClassVar[Words]
    SAID: ClassVar[tuple[str, str, tuple[str, str, str]]]
    TABLE: ClassVar[str]
    CHART: ClassVar[Panels]
    AXIS: ClassVar[str]

    scored: pl.DataFrame  # the games with a score
    tops: list[tuple]  # per series that scored: the series, its finding, and its top value and the second
    compared: Compared  # series -> (top minus second, resolved), and the family

    @classmethod
    def games(cls, ctx: AnalysisContext) -> pl.DataFrame:
        raise NotImplementedError

    @classmethod
    def read(cls, ctx: AnalysisContext) -> ScoreSection | None:
        """The scored games, and for each series that scored the value of `ALONG` it scores most at
        against the second, paired by seed: Bonferroni over the pairs of values they were picked
        from, then Holm over the series."""
        g = cls.games(ctx).filter(pl.col("score").is_not_null() & pl.col("score").is_not_nan())
        if g.height == 0:
            return None
        (along, says, _), column = cls.ALONG, cls.SERIES[0]
        values, tops, found = sorted_values(g, along), [], Comparisons()
        for series in sorted_values(g, column):
            mine = g.filter(pl.col(column) == series)
            if mine["score"].max() == 0:
                continue
            means = {v: mean_of(mine.filter(pl.col(along) == v), "score") for v in values}
            ranked = sorted(values, key=lambda v, means=means: -means[v].estimate)
            who, at = label_text(cls.SERIES[2], series).capitalize(), label_text(says, ranked[0])
            pooled = pooled_over(mine, cls.POOLED, along)
            most = cls.WORDS.fill(cls.SAID[0], who=who, at=at, m=means[ranked[0]], pooled=pooled)
            paired = paired_in(mine, cls.KEYS, along, ranked[1], ranked[0]) if len(ranked) > 1 else None
            if paired and paired.score.n >= 2:  # the top two were picked from every pair of values
                found.add(series, paired.score, picked_extremes(paired.score_p, len(values)).p)
            tops.append((series, most, ranked[:2]))
        return cls(g, tops, found.resolve())

    def findings(self) -> list[str]:
        """Where each series scores most, and whether that is resolved from the second."""
        out, says = [], self.ALONG[1]
        values = self.scored[self.ALONG[0]].n_unique()
        for series, said, (top, *second) in self.tops:
            if series in self.compared.verdicts:
                b, a = label_text(says, top).capitalize(), label_text(says, second[0])
                more = {"b": b, "a": a, "pooled": "", "values": values, "pairs": math.comb(values, 2)}
                said += " " + self.compared.said(
                    self.WORDS, self.SAID[1], self.SAID[2], series, False, **more
                )
            out.append(said)
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """One panel per value of `ALONG`: the share of games at each score, one bar per series with
        its Wilson interval."""
        along, column = self.ALONG[0], self.SERIES[0]
        panels, series = sorted_values(self.scored, along), sorted_values(self.scored, column)
        scored = shares(self.scored, (along, column), "score")
        seen, played = scored.counts, scored.games

        def draw(ax, value: Any) -> None:
            scores = sorted({s for (v, _, s) in seen if v == value})  # the scores seen in this panel
            for k, one in enumerate(series):
                if n := played.get((value, one), 0):
                    counts = [scored.count((value, one), s) for s in scores]
                    charts.share_bars(ax, counts, n, k, len(series), one if value == panels[0] else None)
            ticks, labels = charts.thinned_ticks(scores)
            charts.panel_axis(ax, labels, self.AXIS, label_text(self.ALONG[2], value), ticks)

        items = []
        for (value, one), n in played.items():
            present = [(f"{s:g}", k) for (*at, s), k in seen.items() if at == [value, one]]
            items.append(text.shares_item(f"{along} {value}, {one}", n, present, ": "))
        games = text.count_range(played.values(), f"games per {self.SERIES[1]} and {along}")
        legend, listed = {"title": self.SERIES[1], "ncols": max(1, len(series))}, text.joined_upto(items, 24)
        return [self.CHART.draw(ctx, self.WORDS, panels, draw, listed, legend, games=games)]

    def tables(self) -> list[Table]:
        """Each group of `ROWS`: the mean score (t interval), the share of games scoring 0 (Wilson
        interval), and the mean score of the games won."""
        rows = []
        groups = self.scored.partition_by(*(column for column, _ in self.ROWS), as_dict=True)
        for group, part in sorted(groups.items()):
            won, zero = part.filter(pl.col("won").fill_null(False)), (part["score"] == 0).sum()
            mean, when_won = (
                text.with_interval(mean_of(games, "score"), rate=False) for games in (part, won)
            )
            cells = [mean, text.with_interval(stats.wilson(zero, part.height)), f"{won.height:,}"]
            rows.append([*map(str, group), f"{part.height:,}", *cells, when_won if won.height else "-"])
        columns = [*(head for _, head in self.ROWS), "games", "mean score", "scored 0", "games won"]
        return [Table(self.WORDS[self.TABLE], [*columns, "mean score when won"], rows)]
