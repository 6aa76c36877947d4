"""Alien Attack: USA report sections: mission-card balance, strategies head to head, first seat,
score components, Global Protection, the semi-cooperative verdict and board heatmaps.

Read from the dataset only (never the engine). How the card comparison is made: the City and the
Border decks are shuffled from each game's set-up stream, which depends on the root seed and the
game index only, so the deal is independent of the seats, the strategies and the markers drawn.
Two cards are compared *inside the games that dealt both*: the two holders played the same
Mothership order against the same table, so the per-game difference of their points (and of their
wins) removes everything the game itself brings; the seat each card lands in is a fair draw (the
report shows how often each card sat first). A card's own level is shown as its holder's points
above the average seat of the same game, a within-game measure comparable across player counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from itertools import combinations, pairwise
from typing import Any, NamedTuple

import matplotlib
import numpy as np
import polars as pl

from simkit.core import stats
from simkit.games.alien_attack import board_plot, components
from simkit.games.alien_attack.game import SEMI_COOP_BASES
from simkit.reporting import charts, kit, seats, verdicts
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import bracketed, count_range, fill_from, signed1

COMPONENTS = {  # the seat rows' score components: column, name
    "placement_points": "placements",
    "city_mission": "City card",
    "border_mission": "Border card",
    "parks": "parks",
    "bases": "bases",
    "territory": "territory",
    "protection": "Global Protection",
}
DECKS = {"city_card": "City card", "border_card": "Border card"}
TOP_SPACES = 8
WORDS = kit.words(__package__)


def _verdict(resolved: bool, x: float, above: str, below: str, neither: str, **values: Any) -> str:
    """The words `above` or `below` for a resolved difference `x` by its sign, else `neither`."""
    return WORDS.fill(above if resolved and x > 0 else below if resolved and x < 0 else neither, **values)


# --- the cells and the seat rows (simkit.reporting.seats) -----------------------------------------


class CellInfo(seats.SeatCell):
    """A cell with its variant, standard or semi-coop (which its label names)."""

    @property
    def variant(self) -> str:
        return self.settings["variant"]

    @property
    def label(self) -> str:
        return super().label + (", semi-coop" if self.variant == "semi-coop" else "")


def _read(ctx: AnalysisContext) -> tuple[pl.DataFrame | None, list[CellInfo]]:
    """The seat rows with `rel`, the seat's points above the average seat of its game (None: the
    dataset has none), and the cells in the games' order with their player count, variant and each
    seat's strategy (from the manifest where the games table lacks them)."""
    return seats.rows(ctx), CellInfo.all(ctx, variant="standard")


# --- mission cards --------------------------------------------------------------------------------


def _short_card(deck: str, card: Any) -> str:
    return str(card) if deck == "city_card" else str(card).capitalize()


def _card_name(deck: str, card: Any) -> str:
    return f"{DECKS[deck]} {_short_card(deck, card)}"


def _ordered(deck: str, cards: list[Any]) -> list[Any]:
    """Cards in the deck's own order (City 2-5; Atlantic, Pacific, Gulf, Mexico), unknown ones last."""
    order = [str(c) for c in (components.CITY_CARDS if deck == "city_card" else components.BORDER_CARDS)]
    return sorted(cards, key=lambda c: (order.index(str(c)) if str(c) in order else len(order), str(c)))


class CardStat(NamedTuple):
    """One card of one deck in one mirror cell: its holder's numbers."""

    info: CellInfo
    deck: str
    card: Any
    win: stats.Interval
    points: stats.Interval
    rel: stats.Interval  # points above the table average
    first_seat: stats.Interval  # share of its games in which the card sat in the first seat

    @property
    def name(self) -> str:  # "City card 3"
        return _card_name(self.deck, self.card)

    @property
    def short(self) -> str:  # "3"
        return _short_card(self.deck, self.card)


class PairStat(NamedTuple):
    """Card `b` against card `a` of one deck in one mirror cell, in the games that dealt both."""

    info: CellInfo
    deck: str
    a: Any
    b: Any
    points: stats.Interval  # b - a, paired within the game
    unpaired: stats.Interval  # Welch's, as if the games were not paired
    wins: stats.PairedDifference | None
    p: float  # paired t test of the difference in points
    resolved: bool = False  # in points, after the family of its deck and cell

    @property
    def names(self) -> str:  # "City card 5 − 2"
        return f"{_card_name(self.deck, self.b)} − {_short_card(self.deck, self.a)}"

    @property
    def ahead(self) -> str:  # "5 over 2"
        hi, lo = (self.b, self.a) if self.points.estimate > 0 else (self.a, self.b)
        return WORDS.fill("cards.over", higher=_short_card(self.deck, hi), lower=_short_card(self.deck, lo))


class Deck(NamedTuple):
    """One deck in one mirror cell: its cards, every pair of them, and the pairs as one family."""

    info: CellInfo
    deck: str
    cards: list[CardStat]
    pairs: list[PairStat]
    family: stats.Family


def _deck(info: CellInfo, deck: str, mine: pl.DataFrame) -> Deck:
    """Each card's holder's win rate, points and points above the table average in one mirror
    cell, and every pair of cards compared inside the games that dealt both."""
    held = {
        c: mine.filter(pl.col(deck) == c) for c in _ordered(deck, mine[deck].drop_nulls().unique().to_list())
    }
    first = {c: stats.wilson(int((h["seat"] == 0).sum()), h.height) for c, h in held.items()}
    cards = [
        CardStat(info, deck, c, kit.win_rate(h), kit.mean_of(h, "score"), kit.mean_of(h, "rel"), first[c])
        for c, h in held.items()
    ]
    found = ((a, b, seats.within_games(held[a], held[b])) for a, b in combinations(held, 2))
    pairs = [PairStat(info, deck, a, b, *within) for a, b, within in found if within is not None]
    # a deck in a cell is one family; its many pairs are called resolved under
    # Benjamini-Hochberg (false discovery rate 5 %)
    return Deck(info, deck, cards, *kit.resolve(pairs, [p.p for p in pairs], stats.BH))


def _toward(iv: stats.Interval | stats.PairedDifference, sign: int) -> stats.Interval:
    """A difference b - a (`sign` 1), or read the other way round, a - b (`sign` -1)."""
    estimate = iv.estimate if isinstance(iv, stats.Interval) else iv.difference
    low, high = (iv.low, iv.high) if sign == 1 else (-iv.high, -iv.low)
    return stats.Interval(sign * estimate, low, high, iv.n)


def _deck_finding(d: Deck) -> str | None:
    """A deck's cards ranked by points above the table average, the highest against the lowest
    in points and in wins (paired), and the pairs resolved (None: fewer than two cards)."""
    ranked = sorted(d.cards, key=lambda c: c.rel.estimate, reverse=True)
    best, worst = (ranked[0].card, ranked[-1].card) if ranked else (None, None)
    picked = next((p for p in d.pairs if {p.a, p.b} == {best, worst}), None)
    if len(d.cards) < 2 or picked is None:
        return None
    sign = 1 if picked.b == best else -1  # picked.points is b - a; we want best - worst
    text = WORDS.fill(
        "cards.finding",
        cell=d.info.label,
        deck=DECKS[d.deck],
        ranking=" > ".join(c.short for c in ranked),
        cards=len(d.cards),
        best=_card_name(d.deck, best),
        worst=_card_name(d.deck, worst),
        diff=_toward(picked.points, sign),
    )
    if picked.wins is not None:
        text += WORDS.fill("cards.finding_wins", wins=_toward(picked.wins, sign))
    ahead = [p.ahead for p in d.pairs if p.resolved]
    family = {
        "family": d.family.text,
        "pairs": len(d.pairs),
        "resolved": len(ahead),
        "listed": ", ".join(ahead),
    }
    settled = WORDS["cards.settled" if picked.resolved else "cards.unsettled"]
    return text + settled + " " + WORDS.fill("cards.resolved" if ahead else "cards.none_resolved", **family)


CARD_COLUMNS = (
    ("cell", "{info.label}"),
    ("card", "{name}"),
    ("games", "{points.n:,}"),
    ("win rate", "{win:[pct]}"),
    ("mean points", "{points:[number]}"),
    ("points above table", "{rel:[signed1]}"),
    ("in first seat", "{first_seat:[pct]}"),
)
PAIR_COLUMNS = (
    ("cell", "{info.label}"),
    ("cards", "{names}"),
    ("games", "{points.n:,}"),
    ("points (95 % CI)", "{points:[signed1]}"),
    ("unpaired CI", "{unpaired:bounds signed1}"),
    ("win rate (pp, 95 % CI)", "{wins:[points]}"),
    ("resolved", "{resolved:yes|no}"),
)


@dataclass(frozen=True)
class Cards(kit.SectionModel):
    decks: list[Deck]  # by mirror cell, then deck; none: the dataset has no mirror cell
    left_out: list[CellInfo]  # the cells that mix strategies

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Cards | None:
        """Per mirror cell and deck, its cards and their pairs (`_deck`)."""
        rows, cells = _read(ctx)
        if rows is None or not set(DECKS) <= set(rows.columns):
            return None
        mirrors = seats.by_cell(rows, [c for c in cells if c.mirror])
        decks = [_deck(info, deck, mine) for info, mine in mirrors for deck in DECKS]
        if not decks and any(c.mirror for c in cells):
            return None
        return cls(decks, [c for c in cells if not c.mirror])

    def findings(self) -> list[str]:
        """Per deck and mirror cell, its cards ranked and compared (`_deck_finding`)."""
        return [text for d in self.decks if (text := _deck_finding(d)) is not None]

    def notes(self) -> list[str]:
        """How the cards are compared and why it is fair, counting the cards whose first-seat
        share's interval holds one in the number of players; the cells left out."""
        if not self.decks:
            return [WORDS["cards.no_mirror"]]
        fair = [
            c.first_seat.low <= 1 / d.info.players <= c.first_seat.high for d in self.decks for c in d.cards
        ]
        notes = [WORDS["cards.how"], WORDS.fill("cards.fair", fair=sum(fair), pairs=len(fair))]
        if self.left_out:
            notes.append(WORDS.fill("cards.left_out", cells="; ".join(c.label for c in self.left_out)))
        return notes

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Each card's points above the table average in each mirror cell, a panel a deck."""
        every = [c for d in self.decks for c in d.cards]
        if all(math.isnan(c.rel.low) for c in every):
            return []
        cells = list(dict.fromkeys(d.info for d in self.decks))
        with matplotlib.rc_context(charts.STYLE):
            fig, axes = charts.panels(2, 4.9, 4.4)
            for ax, (deck, title) in zip(axes, DECKS.items(), strict=True):
                mine = [c for c in every if c.deck == deck]
                cards = _ordered(deck, list({c.card for c in mine}))
                dots = {(c.card, c.info): c.rel for c in mine if not math.isnan(c.rel.low)}
                charts.dots_about_zero(ax, cards, cells, dots)
                ax.set_xticks(range(len(cards)), [_short_card(deck, c) for c in cards])
                ax.set_xlabel(title)
            axes[0].set_ylabel(WORDS["charts.points_above"])
            charts.side_legend(axes[1], "cell", fontsize=8)
            fig.suptitle(f"{WORDS['cards.title']}: {ctx.subject}", x=0.01, ha="left")
        items = "; ".join(WORDS.fill_from("cards.alt_item", c) for c in every)
        alt = WORDS.fill("cards.alt", items=items)
        caption = WORDS.fill("cards.caption", cells=count_range(c.games for c in cells))
        return [kit.save(ctx, fig, "aa-cards", WORDS["cards.title"], alt, caption)]

    def tables(self) -> list[Table]:
        """Every card of each deck and mirror cell, and every pair of them."""
        if not self.decks:
            return []
        return [
            kit.table(WORDS["cards.table"], CARD_COLUMNS, [c for d in self.decks for c in d.cards]),
            kit.table(WORDS["cards.pairs_table"], PAIR_COLUMNS, [p for d in self.decks for p in d.pairs]),
        ]


# --- head to head ---------------------------------------------------------------------------------


class Strategy(NamedTuple):
    """One strategy's seats in a cell, each game one unit."""

    cell: str  # the cell's label
    name: str
    seat_games: int
    wins: stats.Interval
    rel: stats.Interval  # points above the table average


class Duel(NamedTuple):
    """A cell of two strategies: the average seat's win rate, and `a`'s points less `b`'s a game
    (paired within the game) with the p-value of its t test."""

    cell: str
    a: Strategy
    b: Strategy
    fair: stats.Interval
    diff: stats.Interval
    p: float
    resolved: bool = False  # after the cells' family

    @property
    def verdict(self) -> str:
        """The stronger needs a win rate whose interval lies above the average seat's and more
        points a game, resolved."""
        a, b, fair, diff = self.a, self.b, self.fair.estimate, self.diff.estimate
        if a.wins.low > fair and self.resolved and diff > 0:
            return WORDS.fill("h2h.beats", winner=a.name, loser=b.name)
        if a.wins.high < fair and self.resolved and diff < 0:
            return WORDS.fill("h2h.beats", winner=b.name, loser=a.name)
        return WORDS.fill("h2h.neither", a=a.name, b=b.name)


H2H_COLUMNS = (
    ("cell", "{cell}"),
    ("strategy", "{name}"),
    ("seat-games", "{seat_games:,}"),
    ("win rate", "{wins:[pct]}"),
    ("points above table", "{rel:[signed1]}"),
)


@dataclass(frozen=True)
class HeadToHead(kit.SectionModel):
    strategies: list[Strategy]  # in each cell that mixes strategies
    duels: list[Duel]  # the cells of two strategies
    family: stats.Family  # the duels' tests: one verdict per cell, the cells are the family

    @classmethod
    def read(cls, ctx: AnalysisContext) -> HeadToHead | None:
        """Per cell of the standard variant where different strategies share the table: each
        strategy's win rate and points; with two strategies, their difference in points."""
        rows, cells = _read(ctx)
        if rows is None or "strategy" not in rows.columns:
            return None
        mixed = [c for c in cells if len(set(c.strategies)) >= 2 and c.variant == "standard"]
        found, duels = [], []
        for info, mine in seats.by_cell(rows, mixed):
            names = list(dict.fromkeys(info.strategies))
            parts = [mine.filter(pl.col("strategy") == name) for name in names]
            strategies = [
                Strategy(info.label, name, part["won"].drop_nulls().len(), *_per_game(part, "won", "rel"))
                for name, part in zip(names, parts, strict=True)
            ]
            found += strategies
            if len(names) == 2:
                diff = seats.per_game_difference(mine, *names)
                fair, p = seats.average_seat(mine), stats.mean_p_value(diff)
                duels.append(Duel(info.label, *strategies, fair, stats.mean_interval(diff), p))
        return cls(found, *kit.resolve(duels, [d.p for d in duels])) if found else None

    def findings(self) -> list[str]:
        """A verdict per cell of two strategies (`Duel.verdict`), with its numbers."""
        return [WORDS.fill_from("h2h.finding", d, family=self.family.text) for d in self.duels]

    def tables(self) -> list[Table]:
        """Each strategy of each mixed cell: its seat-games, win rate and points above the table."""
        return [kit.table(WORDS["h2h.table"], H2H_COLUMNS, self.strategies)]


def _per_game(part: pl.DataFrame, *columns: str) -> list[stats.Interval]:
    """The mean of each column of seat rows, each game one unit (`seats.per_game`)."""
    return [seats.per_game(part, pl.col(c)) for c in columns]


# --- first seat -----------------------------------------------------------------------------------


class SeatRow(NamedTuple):
    """One seat of one cell."""

    cell: str
    seat: int  # 1: the first
    games: int
    wins: stats.Interval
    rel: stats.Interval  # points above the table average


class Seats(NamedTuple):
    """One cell's seats."""

    info: CellInfo
    games: int
    wins: list[stats.Interval]  # by seat
    rel: list[stats.Interval]  # by seat: points above the table average
    fair: stats.Interval  # the average seat's win rate, each game one unit
    p: float  # the first seat's points above the table: t test, a game one unit
    resolved: bool = False  # after the cells' family

    @property
    def verdict(self) -> str:
        first = self.rel[0].estimate
        return _verdict(self.resolved, first, "seats.advantage", "seats.disadvantage", "seats.no_advantage")

    @property
    def rows(self) -> list[SeatRow]:
        by_seat = enumerate(zip(self.wins, self.rel, strict=True))
        return [SeatRow(self.info.label, s + 1, self.games, wins, rel) for s, (wins, rel) in by_seat]


SEAT_COLUMNS = (
    ("cell", "{cell}"),
    ("seat", "{seat}"),
    ("games", "{games:,}"),
    ("win rate", "{wins:[pct]}"),
    ("points above table", "{rel:[signed1]}"),
)


@dataclass(frozen=True)
class SeatEffects(kit.SectionModel):
    cells: list[Seats]
    family: stats.Family  # the cells' tests of the first seat's points

    @classmethod
    def read(cls, ctx: AnalysisContext) -> SeatEffects | None:
        """Per cell of two or more players: each seat's win rate and points above the table."""
        rows, cells = _read(ctx)
        found = []
        for info, mine in (
            seats.by_cell(rows, [c for c in cells if c.players >= 2]) if rows is not None else ()
        ):
            by_seat = [mine.filter(pl.col("seat") == seat) for seat in range(info.players)]
            wins, rel = [kit.win_rate(s) for s in by_seat], [kit.mean_of(s, "rel") for s in by_seat]
            p = stats.mean_p_value(by_seat[0]["rel"].to_numpy())
            found.append(Seats(info, mine["game_index"].n_unique(), wins, rel, seats.average_seat(mine), p))
        return cls(*kit.resolve(found, [c.p for c in found])) if found else None

    def findings(self) -> list[str]:
        """Per cell, the first seat's win rate and points against the average seat's."""
        return [WORDS.fill_from("seats.finding", c, family=self.family.text) for c in self.cells]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Each seat's points above the table average in each cell."""
        if all(math.isnan(r.low) for c in self.cells for r in c.rel):
            return []  # too few games for any interval
        top = max(c.info.players for c in self.cells)
        with charts.one_panel(9.0, 4.2) as (fig, ax):
            dots = {
                (seat, c.info): r for c in self.cells for seat, r in enumerate(c.rel) if not math.isnan(r.low)
            }
            # seat s at x = s + 1
            charts.dots_about_zero(ax, [None, *range(top)], [c.info for c in self.cells], dots)
            ax.set_xticks(range(1, top + 1), [f"seat {k}" for k in range(1, top + 1)])
            ax.set_xlabel(WORDS["seats.axis"])
            ax.set_ylabel(WORDS["charts.points_above"])
            ax.set_title(f"{WORDS['seats.title']}: {ctx.subject}", loc="left")
            charts.side_legend(ax, "cell", fontsize=8)
        items = "; ".join(WORDS.fill_from("seats.alt_item", row) for c in self.cells for row in c.rows)
        alt = WORDS.fill("seats.alt", items=items)
        caption = WORDS.fill("seats.caption", cells=count_range(c.info.games for c in self.cells))
        return [kit.save(ctx, fig, "aa-seats", WORDS["seats.title"], alt, caption)]

    def tables(self) -> list[Table]:
        """Each seat of each cell: its win rate and points above the table average."""
        return [kit.table(WORDS["seats.table"], SEAT_COLUMNS, [row for c in self.cells for row in c.rows])]


# --- score components and Global Protection -------------------------------------------------------


class Group(NamedTuple):
    """The seats of one strategy at one player count; points per seat, each game one unit."""

    players: str  # "2 players"
    strategy: str
    seat_games: int
    total: stats.Interval  # final points
    parts: dict[str, stats.Interval]  # each score component's points, by name
    mission: stats.Interval | None  # both mission cards' points


@dataclass(frozen=True)
class Components(kit.SectionModel):
    groups: list[Group]

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Components | None:
        """Mean points per seat of each score component by player count and strategy."""
        rows, cells = _read(ctx)
        if rows is None or "strategy" not in rows.columns or not set(COMPONENTS) & set(rows.columns):
            return None
        found = []
        for players, strategy, part in seats.pooled(rows, cells):
            parts = {
                name: seats.per_game(part, pl.col(c)) for c, name in COMPONENTS.items() if c in part.columns
            }
            both = {"city_mission", "border_mission"} <= set(part.columns)
            mission = (
                seats.per_game(part, pl.col("city_mission") + pl.col("border_mission")) if both else None
            )
            total = seats.per_game(part, pl.col("score"))
            found.append(Group(players, strategy, part.height, total, parts, mission))
        return cls(found) if found else None

    def findings(self) -> list[str]:
        """What the seats of each strategy score, and how much of it the mission cards (and the
        placements) bring."""
        out = []
        for g in (g for g in self.groups if g.mission is not None):
            text = WORDS.fill_from("components.finding", g)
            if (place := g.parts.get("placements")) is not None:
                text += " " + WORDS.fill("components.placements", place=place)
            out.append(text + ".")
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The components' mean points per seat, stacked, a bar per player count and strategy."""
        labels = [f"{g.players}, {g.strategy}" for g in self.groups]
        with charts.one_panel(10.0, max(2.8, 0.45 * len(labels) + 1.6)) as (fig, ax):
            parts = {name: [g.parts[name].estimate for g in self.groups] for name in self.groups[0].parts}
            charts.stacked_bars(ax, labels, parts)
            ax.set_xlabel(WORDS["components.axis"])
            ax.set_title(f"{WORDS['components.title']}: {ctx.subject}", loc="left")
            charts.side_legend(ax, "component")
        bars = [
            (
                label,
                ", ".join(
                    WORDS.fill("components.alt_part", name=name, points=iv) for name, iv in g.parts.items()
                ),
            )
            for label, g in zip(labels, self.groups, strict=True)
        ]
        items = "; ".join(WORDS.fill("components.alt_item", bar=bar, parts=parts) for bar, parts in bars)
        alt = WORDS.fill("components.alt", items=items)
        seat_games = count_range((g.seat_games for g in self.groups), "seat-games")
        caption = WORDS.fill("components.caption", seat_games=seat_games)
        return [kit.save(ctx, fig, "aa-components", WORDS["components.title"], alt, caption)]

    def tables(self) -> list[Table]:
        """Each component's mean points per seat by player count and strategy."""
        columns = [
            ("players", "{players}"),
            ("strategy", "{strategy}"),
            ("seat-games", "{total.n:,}"),
            ("total", "{total:[number]}"),
            *((name, lambda g, name=name: bracketed(g.parts[name])) for name in self.groups[0].parts),
        ]
        return [kit.table(WORDS["components.table"], columns, self.groups)]


class Rate(NamedTuple):
    """The share of one strategy's seat-games at one player count that earned Global Protection."""

    players: str  # "2 players"
    strategy: str
    seat_games: int
    rate: stats.Interval  # each game one unit


PROTECTION_COLUMNS = (
    ("players", "{players}"),
    ("strategy", "{strategy}"),
    ("seat-games", "{seat_games:,}"),
    ("success rate", "{rate:[pct]}"),
)


@dataclass(frozen=True)
class Protection(kit.SectionModel):
    pays: str
    needs: tuple[int, int, int]  # value-1 cities touched, herd spaces and border spaces covered
    rates: list[Rate]

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Protection | None:
        """What Global Protection pays and needs by the dataset's board file, and the share of
        seat-games that earned it by player count and strategy, each game one unit."""
        rows, cells = _read(ctx)
        if rows is None or not {"protection", "strategy"} <= set(rows.columns):
            return None
        # Global Protection pays all of its points or none: any points mean it was earned, whatever
        # the board file pays; the page names the amount from that file when it can still be read
        rates = [
            Rate(
                players,
                strategy,
                part["protection"].drop_nulls().len(),
                seats.per_game(part, pl.col("protection") > 0),
            )
            for players, strategy, part in seats.pooled(rows, cells)
        ]
        board = _board(ctx.dataset.games)[0]
        if not rates:
            return None
        if board is None:  # the board file moved: the rulebook's requirements
            return cls("its points", (4, 4, 3), rates)
        needs = (board.protection_value1, board.protection_herds, board.protection_borders)
        return cls(f"{board.protection_points} points", needs, rates)

    def findings(self) -> list[str]:
        """The success rate of each strategy at each player count."""
        return [WORDS.fill_from("protection.finding", r) for r in self.rates]

    def notes(self) -> list[str]:
        """What Global Protection pays and needs."""
        cities, herds, borders = self.needs
        return [WORDS.fill("protection.how", pays=self.pays, cities=cities, herds=herds, borders=borders)]

    def tables(self) -> list[Table]:
        """The success rate by player count and strategy."""
        return [kit.table(WORDS["protection.table"], PROTECTION_COLUMNS, self.rates)]


# --- semi-cooperative -----------------------------------------------------------------------------


class Team(NamedTuple):
    """One semi-cooperative cell: the share of games Earth holds, and the bases destroyed a game."""

    info: CellInfo
    held: stats.Interval
    destroyed: stats.Interval | None  # None: the games do not count them


class Step(NamedTuple):
    """A mirror strategy's share of games Earth holds at one player count against the next."""

    strategy: str
    a: CellInfo
    b: CellInfo
    diff: stats.PairedDifference  # b - a, paired by game index
    resolved: bool = False  # after the family of every step of every strategy

    @property
    def verdict(self) -> str:
        more, less, same = "semicoop.more", "semicoop.less", "semicoop.as_often"
        return _verdict(self.resolved, self.diff.difference, more, less, same, players=self.a.players)


SEMICOOP_COLUMNS = (
    ("cell", "{info.label}"),
    ("games", "{held.n:,}"),
    ("Earth holds", "{held:[pct]}"),
    ("bases destroyed", "{destroyed:[number]}"),
)


@dataclass(frozen=True)
class Semicoop(kit.SectionModel):
    teams: list[Team]
    steps: list[Step]
    family: stats.Family  # every step of every strategy

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Semicoop | None:
        """Per semi-cooperative cell, the share of games Earth holds and the bases destroyed a
        game; per mirror strategy, the share at one player count against the next, paired by
        game index (game i draws the same Mothership order at every player count)."""
        games = ctx.dataset.games
        semi = [c for c in _read(ctx)[1] if c.variant == "semi-coop"]
        if not semi or "won" not in games.columns:
            return None
        played = {c: games.filter(pl.col("cell") == c.cell) for c in semi}
        counted = "bases_destroyed" in games.columns
        teams = [
            Team(c, kit.win_rate(g), kit.mean_of(g, "bases_destroyed") if counted else None)
            for c, g in played.items()
        ]
        steps = []
        for strategy in dict.fromkeys(c.strategies[0] for c in semi if c.mirror and c.strategies):
            mine = sorted(
                (c for c in semi if c.mirror and c.strategies[0] == strategy), key=lambda c: c.players
            )
            for a, b in pairwise(mine):
                diff = kit.paired_outcome(played[a], played[b], pl.col("won").cast(pl.Boolean))
                steps += [Step(strategy, a, b, diff)] if diff is not None and diff.n >= 2 else []
        return cls(teams, *kit.resolve(steps, [s.diff.p_value for s in steps]))

    def findings(self) -> list[str]:
        """How often Earth holds in each cell, and at each step up in players."""
        held = [
            WORDS.fill_from("semicoop.finding", t, bases=SEMI_COOP_BASES)
            + ("" if t.destroyed is None else WORDS.fill_from("semicoop.destroyed", t))
            + "."
            for t in self.teams
        ]
        return held + [WORDS.fill_from("semicoop.step", s, family=self.family.text) for s in self.steps]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The share of games Earth holds in each semi-cooperative cell."""
        rates = [t.held for t in self.teams]
        with charts.one_panel(7.0, 3.8) as (fig, ax):
            xs = list(range(len(rates)))
            est, low, high = ([getattr(iv, k) for iv in rates] for k in ("estimate", "low", "high"))
            charts.interval_dots(ax, xs, est, low, high, scale=100)
            ax.set_xticks(xs, [t.info.label.replace(", ", "\n") for t in self.teams])
            ax.set_ylim(-1.5, 101)
            ax.set_ylabel(WORDS["semicoop.axis"])
            ax.set_xlabel("cell")
            ax.grid(axis="x", visible=False)
            ax.set_title(f"{WORDS['semicoop.title']}: {ctx.subject}", loc="left")
        items = "; ".join(WORDS.fill_from("semicoop.alt_item", t) for t in self.teams)
        alt = WORDS.fill("semicoop.alt", bases=SEMI_COOP_BASES, items=items)
        caption = WORDS.fill(
            "semicoop.caption", bases=SEMI_COOP_BASES, cells=count_range(iv.n for iv in rates)
        )
        return [kit.save(ctx, fig, "aa-semicoop", WORDS["semicoop.title"], alt, caption)]

    def tables(self) -> list[Table]:
        """Per cell, the share of games Earth holds and the bases destroyed a game."""
        return [kit.table(WORDS["semicoop.table"], SEMICOOP_COLUMNS, self.teams)]


# --- board heatmaps -------------------------------------------------------------------------------


class Heat(NamedTuple):
    column: str  # the games' column that lists the spaces
    title: str  # the chart's
    cmap: str
    does: str  # what a space does, did, and (they) do
    did: str
    do: str


HEATS = (
    Heat("base_spaces", "Where bases appear", "Reds", "becomes a base", "became a base", "become a base"),
    Heat(
        "capture_spaces",
        "Where discs are captured",
        "Purples",
        "sees a disc captured",
        "saw a disc captured",
        "see a disc captured",
    ),
)


def _board(games: pl.DataFrame) -> tuple[Any, str]:
    """The board of the dataset's board file, or None and why not."""
    datas = games["data"].drop_nulls().unique().to_list() if "data" in games.columns else ["built-in"]
    if len(datas) > 1:
        return None, "the cells use different board files, so one map cannot show them all"
    data = datas[0] if datas else "built-in"
    try:
        return components.load(None if data in (None, "built-in") else data), ""
    except Exception as exc:  # the board file moved or changed since the run
        return None, f"the board file could not be read ({exc})"


class Space(NamedTuple):
    """One space of one map."""

    space: int
    share: stats.Interval  # of the games that list it
    games: int


class SpaceMap(NamedTuple):
    heat: Heat
    counts: np.ndarray  # games that list each space (index = space number)
    shares: dict[int, stats.Interval]  # each space's share of games
    order: list[int]  # the spaces, most often first
    per_game: stats.Interval  # such spaces a game

    def space(self, s: int) -> Space:
        return Space(s, self.shares[s], int(self.counts[s]))

    @property
    def most(self) -> Space:
        return self.space(self.order[0])

    @property
    def least(self) -> Space:
        return self.space(self.order[-1])


SPACE_COLUMNS = (("space", "{space}"), ("share of games", "{share:[pct]}"), ("games", "{games:,}"))


@dataclass(frozen=True)
class BoardMaps(kit.SectionModel):
    board: Any  # None: no map, for the reason `why`
    why: str
    games: int
    maps: list[SpaceMap]

    @classmethod
    def read(cls, ctx: AnalysisContext) -> BoardMaps | None:
        """How often each space becomes a base and sees a disc captured, over every game."""
        games = ctx.dataset.games
        if not {"base_spaces", "capture_spaces"} <= set(games.columns):
            return None
        board, why = _board(games)
        n = games["base_spaces"].drop_nulls().len()
        maps = []
        for heat in HEATS if board is not None and n else ():
            listed = [
                [int(s) for s in str(text).split()] for text in games[heat.column].drop_nulls().to_list()
            ]
            counts = np.zeros(board.n + 1, dtype=np.int64)
            for s in (s for spaces in listed for s in spaces if 1 <= s <= board.n):
                counts[s] += 1
            shares = {s: stats.wilson(int(counts[s]), n) for s in range(1, board.n + 1)}
            order = sorted(shares, key=lambda s: (-counts[s] / n, s))
            per_game = stats.mean_interval(np.array([len(x) for x in listed], dtype=float))
            maps.append(SpaceMap(heat, counts, shares, order, per_game))
        return cls(board, why, n, maps) if board is None or n else None

    def retitle(self) -> str:
        return "Board heatmaps" if self.board is None else ""

    def findings(self) -> list[str]:
        """The most and the least frequent space of each map, and such spaces a game."""
        return [WORDS.fill_from("board.finding", m) for m in self.maps]

    def notes(self) -> list[str]:
        """How a space becomes a base or sees a capture, or why there is no map."""
        return [WORDS.fill("board.none", why=self.why) if self.board is None else WORDS["board.how"]]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The board shaded by each map's share of games."""
        out = []
        for heat, counts, shares, order, _ in self.maps:
            rates = {s: counts[s] / self.games for s in shares}
            with charts.one_panel(11.0, 7.5) as (fig, ax):
                title = WORDS.fill("board.heading", does=heat.does, subject=ctx.subject)
                values = {s: 100 * r for s, r in rates.items()}
                board_plot.draw_board(
                    self.board,
                    values=values,
                    ax=ax,
                    title=title,
                    cmap=heat.cmap,
                    value_label=WORDS["board.axis"],
                )
            spaces = [WORDS.fill("board.alt_space", space=s, share=rates[s]) for s in order]
            alt = WORDS.fill(
                "board.alt", does=heat.does, most=", ".join(spaces[:TOP_SPACES]), least=spaces[-1]
            )
            widest = max(iv.half_width for iv in shares.values())
            caption = WORDS.fill("board.caption", did=heat.did, games=self.games, widest=widest)
            stem = f"aa-heat-{heat.column.split('_')[0]}s"  # -bases, -captures
            out.append(kit.save(ctx, fig, stem, heat.title, alt, caption))
        return out

    def tables(self) -> list[Table]:
        """The most frequent spaces of each map."""
        return [
            kit.table(
                WORDS.fill("board.table", top=TOP_SPACES, do=m.heat.do, games=self.games),
                SPACE_COLUMNS,
                [m.space(s) for s in m.order[:TOP_SPACES]],
            )
            for m in self.maps
        ]


# --- does the verdict hold? (reporting/verdicts.py): the seat and card verdicts at every rung ------


def _decks(model: Cards) -> dict[str, list[Deck]]:
    """The model's decks by cell."""
    out: dict[str, list[Deck]] = {}
    for d in model.decks:
        out.setdefault(d.info.cell, []).append(d)
    return out


def _ranking(deck: str, decks: list[Deck]) -> str:
    """A deck's cards in one cell by points above the table average, highest first."""
    ranked = sorted((c for d in decks if d.deck == deck for c in d.cards), key=lambda c: -c.rel.estimate)
    return " > ".join(fill_from("{short} ({rel:signed1})", c) for c in ranked)


def _card_pairs(decks: list[Deck]) -> list[verdicts.Reading]:
    """Every pair of cards of a cell's decks: the second card's holder's points less the first's."""
    return [
        verdicts.Reading(_card_name(p.deck, p.a), _card_name(p.deck, p.b), p.points, p.p)
        for d in decks
        for p in d.pairs
    ]


_in_points = partial(verdicts.Mirror, unit="points", fmt=signed1)
VERDICTS = (  # the first seat's edge and every pair of cards, read in each mirror cell
    _in_points(
        read=SeatEffects.read,
        items=lambda model: {c.info.cell: c for c in model.cells},
        readings=lambda c: [verdicts.Reading("the table's average", "the first seat", c.rel[0], c.p)],
        columns=(
            ("first seat's win rate", "{wins[0]:[pct]}"),
            ("average seat's", "{fair:[pct]}"),
            ("first seat's points above table", "{rel[0]:[signed1]}"),
        ),
        test="paired within the game",
        how=WORDS["verdicts.seat_how"],
        caption=WORDS["verdicts.seat_table"],
        rungs=WORDS["verdicts.seat_rungs"],
    ),
    _in_points(
        read=Cards.read,
        items=_decks,
        readings=_card_pairs,
        columns=(
            ("City cards by points above table", partial(_ranking, "city_card")),
            ("Border cards by points above table", partial(_ranking, "border_card")),
        ),
        test="in the games that dealt both, paired",
        how=WORDS["verdicts.cards_how"],
        caption=WORDS["verdicts.cards_table"],
        rungs=WORDS["verdicts.cards_rungs"],
    ),
)

# --- the sections ---------------------------------------------------------------------------------

SECTIONS = (
    Cards.section("aa-cards", "Mission cards: City and Border"),
    HeadToHead.section("aa-h2h", "Head to head", WORDS["h2h.how"]),
    SeatEffects.section("aa-seats", "First-seat advantage", WORDS["seats.how"]),
    Components.section("aa-components", "Score components by strategy", WORDS["components.how"]),
    Protection.section("aa-protection", "Global Protection"),
    Semicoop.section(
        "aa-semicoop",
        "Semi-cooperative success by player count",
        WORDS.fill("semicoop.how", bases=SEMI_COOP_BASES),
    ),
    BoardMaps.section("aa-board", "Board heatmaps: bases and captures"),
)


def sections(ctx: AnalysisContext) -> list[GameSection]:
    return kit.build(ctx, SECTIONS)
