"""The seat analyses of seats.py as report sections, their words the game's (`kit.Words`, by the
keys the class lists): `SeatEffectsSection`, `HeadToHeadSection` and `DealtSection`. A game
subclasses one, setting its `WORDS` (and the chart's `STEM`, and for `DealtSection` the `COLUMNS`),
and says which cells it reads (`cells_of`) where not every cell. `first_seat_verdicts` and
`dealt_verdicts` declare the verdicts of a `SeatEffectsSection` and a `DealtSection` read at every
rung of a strategy ladder (`verdicts.Mirror`: the report's "Does the verdict hold?").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Self

import matplotlib

from simkit.core import stats
from simkit.reporting import charts, kit
from simkit.reporting.seats import (
    Dealt,
    Duel,
    HoldingPair,
    SeatCell,
    SeatEffect,
    Standing,
    by_cell,
    dealt,
    head_to_head,
    rows,
    seat_effects,
)
from simkit.reporting.sections import AnalysisContext, Table
from simkit.reporting.text import by_sign, count_range, signed1
from simkit.reporting.verdicts import Mirror, Reading


class SeatSection(kit.SectionModel):
    """A seat analysis as a report section, in a game's words: the game's subclass sets `WORDS`
    (its `kit.Words`, holding the texts the section lists) and `STEM` (its chart file's name after
    the dataset's), and may say which cells it reads (`cells_of`: every cell by default, or those
    whose settings hold the values of `ONLY`), as which class (`CELL`, a `SeatCell`'s) and with
    which further settings (`SETTINGS`, each with its default, as `SeatCell.all` takes them)."""

    WORDS: ClassVar[kit.Words]
    STEM: ClassVar[str] = "seats"
    TEXTS: ClassVar[tuple[str, ...]] = ()  # the keys of the words it reads
    CELL: ClassVar[type[SeatCell]] = SeatCell
    SETTINGS: ClassVar[Mapping[str, Any]] = {}
    ONLY: ClassVar[Mapping[str, Any]] = {}

    @classmethod
    def cells_of(cls, ctx: AnalysisContext) -> list[SeatCell]:
        cells = cls.CELL.all(ctx, **cls.SETTINGS)
        return [c for c in cells if all(c.settings.get(key) == v for key, v in cls.ONLY.items())]

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
    (`short`) and a column's own order (`ORDERS`, or `order`), and names a value `VALUE` in the
    tables' headers. Its words, under `KEY`: `finding` ({cell}, {column}, {ranking}, {values}, {best},
    {worst}, filled from the `Extremes`), `finding_wins`, `settled`, `unsettled`, `over` ({higher},
    {lower}), `resolved` and `none_resolved` ({family}, {pairs}, {resolved}, {listed}); the notes
    `no_mirror`, `how`, `fair` ({fair}, {pairs}) and `left_out` ({cells}); the chart's `title`,
    `alt` ({items}: `alt_item` filled from each `Holding`, with {card}), `caption` ({cells}) and
    `charts.points_above`; the tables' `table` and `pairs_table`."""

    COLUMNS: ClassVar[Mapping[str, str]]
    ORDERS: ClassVar[Mapping[str, Sequence[Any]]] = {}  # a column's values in its own order
    KEY: ClassVar[str] = "dealt"
    VALUE: ClassVar[str] = "value"

    deals: list[Dealt]  # by mirror cell, then column; none: the dataset has no mirror cell
    left_out: list[SeatCell]  # the cells that mix strategies

    @staticmethod
    def short(column: str, value: Any) -> str:
        """A value as its column's chart axis names it; with the column's name, `name`."""
        return str(value)

    @classmethod
    def order(cls, column: str, values: list[Any]) -> list[Any]:
        """A column's values in its own order (`ORDERS`, as text), then the others by their text."""
        own = [str(v) for v in cls.ORDERS.get(column, ())]
        return sorted(values, key=lambda v: (own.index(str(v)) if str(v) in own else len(own), str(v)))

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


# --- the seat sections' verdicts at every rung of a strategy ladder (`verdicts.Mirror`) ---


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
