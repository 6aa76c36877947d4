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
from itertools import combinations
from typing import Any, NamedTuple

import matplotlib
import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.games.alien_attack import board_plot, components
from simkit.games.alien_attack.game import SEMI_COOP_BASES
from simkit.reporting import charts, kit, verdicts
from simkit.reporting import text as page_text
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import bounds, bracketed, ci_text, count_range, number, pct, points, rate_text

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
CELL_LEGEND = {"title": "cell", "loc": "upper left", "bbox_to_anchor": (1.0, 1.0), "fontsize": 8}
signed1 = partial(page_text.signed, digits=1)  # points: one decimal


def _verdict(resolved: bool, x: float, above: str, below: str, neither: str) -> str:
    """`above` or `below` for a resolved difference `x` by its sign, else `neither`."""
    return above if resolved and x > 0 else below if resolved and x < 0 else neither


# --- the cells and the seat rows ------------------------------------------------------------------


@dataclass(frozen=True)
class CellInfo:
    cell: str
    players: int
    variant: str
    strategies: tuple[str, ...]
    games: int

    @property
    def mirror(self) -> bool:
        return len(set(self.strategies)) == 1

    @property
    def label(self) -> str:
        who = f"{self.strategies[0]} mirror" if self.mirror else " vs ".join(self.strategies) or "?"
        return f"{self.players} players, {who}" + (", semi-coop" if self.variant == "semi-coop" else "")

    def __str__(self) -> str:  # a chart's legend names the cell by its label
        return self.label


def _read(ctx: AnalysisContext) -> tuple[pl.DataFrame | None, list[CellInfo]]:
    """The seat rows with `rel`, the seat's points above the average seat of its game (None: the
    dataset has none), and the cells in the games' order with their player count, variant and each
    seat's strategy (from the manifest where the games table lacks them)."""
    seats, needed = ctx.dataset.seats, {"cell", "game_index", "seat", "score", "won"}
    if seats is not None and seats.height and needed <= set(seats.columns):
        seats = seats.with_columns(pl.col("score").cast(pl.Float64), pl.col("won").cast(pl.Boolean))
        seats = seats.with_columns(rel=pl.col("score") - pl.col("score").mean().over("cell", "game_index"))
    else:
        seats = None
    games = kit.games_with_settings(ctx, {"players": 0, "variant": "standard"})
    cells = []
    for part in games.partition_by("cell", maintain_order=True):
        cell = part.row(0, named=True)
        strategies = tuple(cell["strategy"].split(",")) if cell["strategy"] else ()
        players, variant = int(cell["players"] or len(strategies)), cell["variant"] or "standard"
        cells.append(CellInfo(cell["cell"], players, variant, strategies, part.height))
    return seats, cells


def _mean(values: pl.Series) -> stats.Interval:
    return stats.mean_interval(values.to_numpy())


def _wilson(won: pl.Series) -> stats.Interval:
    won = won.drop_nulls()
    return stats.wilson(int(won.sum()), won.len())


def _by_game(part: pl.DataFrame, values: pl.Expr) -> stats.Interval:
    """The mean of a per-seat quantity over seat-games, each game (cell and game index) one unit:
    the seats of one game share its deal and its outcome, so they are not independent. `n` is the
    number of games."""
    frame = part.select("cell", "game_index", values.cast(pl.Float64).alias("v")).drop_nulls()
    frame = frame.filter(pl.col("v").is_not_nan())
    clusters = frame.select(pl.struct("cell", "game_index").rank("dense")).to_series().to_numpy()
    return stats.clustered_mean(frame["v"].to_numpy(), clusters)


def _average_seat(seats: pl.DataFrame) -> stats.Interval:
    """The average seat's win rate, each game one unit (its seats are not independent)."""
    decided = seats.select("game_index", pl.col("won").cast(pl.Float64)).drop_nulls()
    return stats.clustered_mean(decided["won"].to_numpy(), decided["game_index"].to_numpy())


def _groups(seats: pl.DataFrame, cells: list[CellInfo]) -> list[tuple[str, str, pl.DataFrame]]:
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


def _dots_by_cell(ax: Any, xs: list, dots: dict[tuple[Any, CellInfo], stats.Interval], cells: list) -> None:
    """Points above the table average, `dots[(x, cell)]` at x's place in `xs`, a colour a cell."""
    charts.grouped_interval_dots(ax, xs, cells, dots, scale=1)
    ax.axhline(0, color="#555555", linewidth=0.8)
    ax.grid(axis="x", visible=False)


# --- mission cards --------------------------------------------------------------------------------


class CardStat(NamedTuple):
    card: Any
    win: stats.Interval
    points: stats.Interval
    rel: stats.Interval  # points above the table average
    first_seat: stats.Interval  # share of its games in which the card sat in the first seat


class PairStat(NamedTuple):
    a: Any
    b: Any
    points: stats.Interval  # b - a, paired within the game
    unpaired: stats.Interval  # Welch's, as if the games were not paired
    wins: stats.PairedDifference | None
    p: float  # paired t test of the difference in points


class Deck(NamedTuple):
    """One deck in one mirror cell: its cards, every pair of them, and the pairs as one family."""

    info: CellInfo
    deck: str
    cards: list[CardStat]
    pairs: list[PairStat]
    family: stats.Family


def _short_card(deck: str, card: Any) -> str:
    return str(card) if deck == "city_card" else str(card).capitalize()


def _card_name(deck: str, card: Any) -> str:
    return f"{DECKS[deck]} {_short_card(deck, card)}"


def _ordered(deck: str, cards: list[Any]) -> list[Any]:
    """Cards in the deck's own order (City 2-5; Atlantic, Pacific, Gulf, Mexico), unknown ones last."""
    order = [str(c) for c in (components.CITY_CARDS if deck == "city_card" else components.BORDER_CARDS)]
    return sorted(cards, key=lambda c: (order.index(str(c)) if str(c) in order else len(order), str(c)))


def _pair(a: Any, b: Any, held_a: pl.DataFrame, held_b: pl.DataFrame) -> PairStat | None:
    """Card `b` against card `a` in the games that dealt both, paired by game, with the p-value of
    the difference in points (None: fewer than two such games)."""
    columns = ["game_index", "score", "won"]
    joined = held_a.select(columns).join(held_b.select(columns), on="game_index", suffix="_b")
    if joined.height < 2:
        return None
    score_a, score_b = joined["score"].to_numpy(), joined["score_b"].to_numpy()
    decided = joined.drop_nulls(["won", "won_b"])
    wins = (
        stats.paired_difference(decided["won"].to_numpy(), decided["won_b"].to_numpy())
        if decided.height
        else None
    )
    return PairStat(a, b, *paired_scores(score_a, score_b)[:2], wins, stats.mean_p_value(score_b - score_a))


@dataclass(frozen=True)
class Cards(kit.SectionModel):
    decks: list[Deck]  # by mirror cell, then deck; none: the dataset has no mirror cell
    left_out: list[CellInfo]  # the cells that mix strategies

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Cards | None:
        """Per mirror cell and deck: each card's holder's win rate, points and points above the
        table average, and every pair of cards compared inside the games that dealt both."""
        seats, cells = _read(ctx)
        if seats is None or not set(DECKS) <= set(seats.columns):
            return None
        decks = []
        for info, deck in [(c, deck) for c in cells if c.mirror for deck in DECKS]:
            mine = seats.filter(pl.col("cell") == info.cell)
            if mine.height == 0:
                continue
            held = {
                c: mine.filter(pl.col(deck) == c)
                for c in _ordered(deck, mine[deck].drop_nulls().unique().to_list())
            }
            cards = [
                CardStat(
                    c,
                    _wilson(h["won"]),
                    _mean(h["score"]),
                    _mean(h["rel"]),
                    stats.wilson(int((h["seat"] == 0).sum()), h.height),
                )
                for c, h in held.items()
            ]
            pairs = [p for a, b in combinations(held, 2) if (p := _pair(a, b, held[a], held[b])) is not None]
            # a deck in a cell is one family; its many pairs are called resolved under
            # Benjamini-Hochberg (false discovery rate 5 %)
            family = stats.family([p.p for p in pairs], stats.BH)
            decks.append(Deck(info, deck, cards, pairs, family))
        if not decks and any(c.mirror for c in cells):
            return None
        return cls(decks, [c for c in cells if not c.mirror])

    def findings(self) -> list[str]:
        """Per deck and mirror cell: the cards ranked by points above the table average, the
        highest against the lowest in points and in wins (paired), and the pairs resolved."""
        out = []
        for d in self.decks:
            ranked = sorted(d.cards, key=lambda c: c.rel.estimate, reverse=True)
            best, worst = (ranked[0].card, ranked[-1].card) if ranked else (None, None)
            picked = next((i for i, p in enumerate(d.pairs) if {p.a, p.b} == {best, worst}), None)
            if len(d.cards) < 2 or picked is None:
                continue
            pair, short = d.pairs[picked], {c.card: _short_card(d.deck, c.card) for c in d.cards}
            sign = 1 if pair.b == best else -1  # pair.points is b - a; we want best - worst
            diff = sign * pair.points.estimate
            low, high = sorted((sign * pair.points.low, sign * pair.points.high))
            text = (
                f"{d.info.label}: {DECKS[d.deck]}s ranked by points above the table average: "
                f"{' > '.join(short[c.card] for c in ranked)}. Picked as the highest and lowest of "
                f"{len(d.cards)} cards, {_card_name(d.deck, best)} scores {number(abs(diff))} points "
                f"{'more' if diff >= 0 else 'less'} than {_card_name(d.deck, worst)} "
                f"({ci_text(low, high, signed1)}; {pair.points.n:,} games that dealt both, "
                "paired within the game)"
            )
            if (w := pair.wins) is not None:
                wd, wl, wh = (w.difference, w.low, w.high) if sign == 1 else (-w.difference, -w.high, -w.low)
                more = "higher" if wd >= 0 else "lower"
                text += f"; its win rate is {number(abs(100 * wd))} percentage points {more} "
                text += f"({ci_text(wl, wh, points)})"
            settled = d.family.resolved[picked]
            text += "; resolved in points." if settled else "; the difference in points is not resolved."
            resolved = [
                f"{short[p.b]} over {short[p.a]}"
                if p.points.estimate > 0
                else f"{short[p.a]} over {short[p.b]}"
                for p, yes in zip(d.pairs, d.family.resolved, strict=True)
                if yes
            ]
            n, family = len(d.pairs), d.family.text
            if resolved:
                text += f" Resolved in points after {family} ({len(resolved)} of {n} pairs): "
                text += f"{', '.join(resolved)}."
            else:
                text += f" None of the {n} pairwise differences in points is resolved after {family}."
            out.append(text)
        return out

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
        if all(math.isnan(c.rel.low) for d in self.decks for c in d.cards):
            return []
        cells = list(dict.fromkeys(d.info for d in self.decks))
        with matplotlib.rc_context(charts.STYLE):
            fig, axes = charts.panels(2, 4.9, 4.4)
            for ax, (deck, title) in zip(axes, DECKS.items(), strict=True):
                mine = [(d.info, c) for d in self.decks if d.deck == deck for c in d.cards]
                cards = _ordered(deck, list({c.card for _, c in mine}))
                dots = {(c.card, info): c.rel for info, c in mine if not math.isnan(c.rel.low)}
                _dots_by_cell(ax, cards, dots, cells)
                ax.set_xticks(range(len(cards)), [_short_card(deck, c) for c in cards])
                ax.set_xlabel(title)
            axes[0].set_ylabel("points above the table average (points)")
            axes[1].legend(**CELL_LEGEND)
            fig.suptitle(f"{WORDS['cards.title']}: {ctx.subject}", x=0.01, ha="left")
        alt = WORDS.fill(
            "cards.alt",
            items="; ".join(
                f"{d.info.label}, {_card_name(d.deck, c.card)}: {signed1(c.rel.estimate)} points "
                f"({ci_text(c.rel.low, c.rel.high, signed1)}, {c.rel.n} games)"
                for d in self.decks
                for c in d.cards
            ),
        )
        caption = WORDS.fill("cards.caption", cells=count_range(c.games for c in cells))
        title = WORDS["cards.title"]
        return [charts.save_chart(fig, ctx.out, f"{ctx.name}-aa-cards", title, alt, caption)]

    def tables(self) -> list[Table]:
        """Every card of each deck and mirror cell, and every pair of them."""
        if not self.decks:
            return []
        cards = [
            [d.info.label, _card_name(d.deck, c.card), f"{c.points.n:,}", bracketed(c.win, pct)]
            + [bracketed(c.points), bracketed(c.rel, signed1), bracketed(c.first_seat, pct)]
            for d in self.decks
            for c in d.cards
        ]
        pairs = [
            [d.info.label, f"{_card_name(d.deck, p.b)} − {_short_card(d.deck, p.a)}", f"{p.points.n:,}"]
            + [bracketed(p.points, signed1), bounds(p.unpaired.low, p.unpaired.high, signed1)]
            + [
                "n/a"
                if p.wins is None
                else f"{points(p.wins.difference)} {bounds(p.wins.low, p.wins.high, points)}"
            ]
            + ["yes" if resolved else "no"]
            for d in self.decks
            for p, resolved in zip(d.pairs, d.family.resolved, strict=True)
        ]
        cols = ["cell", "card", "games", "win rate", "mean points", "points above table", "in first seat"]
        pair_cols = ["cell", "cards", "games", "points (95 % CI)", "unpaired CI", "win rate (pp, 95 % CI)"]
        return [
            Table(WORDS["cards.table"], cols, cards),
            Table(WORDS["cards.pairs_table"], [*pair_cols, "resolved"], pairs),
        ]


# --- head to head ---------------------------------------------------------------------------------


class Strategy(NamedTuple):
    """One strategy's seats in a cell, each game one unit."""

    name: str
    seat_games: int
    wins: stats.Interval
    rel: stats.Interval  # points above the table average


@dataclass(frozen=True)
class HeadToHead(kit.SectionModel):
    cells: list[tuple[CellInfo, list[Strategy]]]  # the cells that mix strategies
    duels: list[tuple[CellInfo, stats.Interval, stats.Interval]]  # the cells of two strategies: the
    # average seat's win rate and the first strategy's points less the second's a game (paired)
    family: stats.Family  # the duels' tests

    @classmethod
    def read(cls, ctx: AnalysisContext) -> HeadToHead | None:
        """Per cell of the standard variant where different strategies share the table: each
        strategy's win rate and points; with two strategies, their difference in points."""
        seats, cells = _read(ctx)
        if seats is None or "strategy" not in seats.columns:
            return None
        mixed, duels, p_values = [], [], []
        for info in cells:
            names = list(dict.fromkeys(info.strategies))
            mine = seats.filter(pl.col("cell") == info.cell)
            if len(names) < 2 or info.variant != "standard" or mine.height == 0:
                continue
            rows = []
            for name in names:
                part = mine.filter(pl.col("strategy") == name)
                wins, rel = _by_game(part, pl.col("won")), _by_game(part, pl.col("rel"))
                rows.append(Strategy(name, part["won"].drop_nulls().len(), wins, rel))
            mixed.append((info, rows))
            if len(names) == 2:
                per_game = mine.group_by("game_index", "strategy").agg(pl.col("score").mean())
                wide = per_game.pivot(on="strategy", index="game_index", values="score").drop_nulls()
                diff = (wide[names[0]] - wide[names[1]]).to_numpy()
                duels.append((info, _average_seat(mine), stats.mean_interval(diff)))
                p_values.append(stats.mean_p_value(diff))
        # one verdict per cell: the cells are the family
        return cls(mixed, duels, stats.family(p_values)) if mixed else None

    def findings(self) -> list[str]:
        """A verdict per cell of two strategies: the stronger needs a win rate whose interval
        lies above the average seat's and more points a game, resolved."""
        out, strategies = [], dict(self.cells)
        for (info, fair, diff), resolved in zip(self.duels, self.family.resolved, strict=True):
            a, b = strategies[info]
            if a.wins.low > fair.estimate and resolved and diff.estimate > 0:
                verdict = f"{a.name} beats {b.name}"
            elif a.wins.high < fair.estimate and resolved and diff.estimate < 0:
                verdict = f"{b.name} beats {a.name}"
            else:
                verdict = f"neither {a.name} nor {b.name} is resolved stronger"
            out.append(
                f"{info.label}: {verdict}. In its seat-games {a.name} wins {rate_text(a.wins)}, against "
                f"{pct(b.wins.estimate)} for {b.name} and {pct(fair.estimate)} for an average seat, and "
                f"scores {signed1(diff.estimate)} points a game more than {b.name} "
                f"({ci_text(diff.low, diff.high, signed1)}; {diff.n:,} games, paired within the game; "
                "resolved or "
                f"not after {self.family.text})."
            )
        return out

    def tables(self) -> list[Table]:
        """Each strategy of each mixed cell: its seat-games, win rate and points above the table."""
        rows = [
            [
                info.label,
                s.name,
                f"{s.seat_games:,}",
                bracketed(s.wins, pct),
                bracketed(s.rel, signed1),
            ]
            for info, strategies in self.cells
            for s in strategies
        ]
        columns = ["cell", "strategy", "seat-games", "win rate", "points above table"]
        return [Table(WORDS["h2h.table"], columns, rows)]


# --- first seat -----------------------------------------------------------------------------------


class Seats(NamedTuple):
    """One cell's seats."""

    info: CellInfo
    games: int
    wins: list[stats.Interval]  # by seat
    rel: list[stats.Interval]  # by seat: points above the table average
    fair: stats.Interval  # the average seat's win rate, each game one unit
    p: float  # the first seat's points above the table: t test, a game one unit


@dataclass(frozen=True)
class SeatEffects(kit.SectionModel):
    cells: list[Seats]
    family: stats.Family  # the cells' tests of the first seat's points

    @classmethod
    def read(cls, ctx: AnalysisContext) -> SeatEffects | None:
        """Per cell of two or more players: each seat's win rate and points above the table."""
        seats, cells = _read(ctx)
        found = []
        for info in cells if seats is not None else ():
            mine = seats.filter(pl.col("cell") == info.cell)
            if mine.height == 0 or info.players < 2:
                continue
            by_seat = [mine.filter(pl.col("seat") == seat) for seat in range(info.players)]
            wins, rel = [_wilson(s["won"]) for s in by_seat], [_mean(s["rel"]) for s in by_seat]
            p = stats.mean_p_value(by_seat[0]["rel"].to_numpy())
            found.append(Seats(info, mine["game_index"].n_unique(), wins, rel, _average_seat(mine), p))
        return cls(found, stats.family([c.p for c in found])) if found else None

    def findings(self) -> list[str]:
        """Per cell, the first seat's win rate and points against the average seat's."""
        out = []
        for c, resolved in zip(self.cells, self.family.resolved, strict=True):
            first, fair = c.rel[0], c.fair
            verdict = _verdict(
                resolved,
                first.estimate,
                "an advantage",
                "a disadvantage",
                "no resolved advantage or disadvantage",
            )
            out.append(
                f"{c.info.label}: the first seat wins {rate_text(c.wins[0])} against {pct(fair.estimate)} "
                f"({ci_text(fair.low, fair.high, pct)}; each game one unit) for an average seat, and scores "
                f"{signed1(first.estimate)} points above the table average "
                f"({ci_text(first.low, first.high, signed1)}; {first.n:,} games): {verdict} "
                f"(after {self.family.text})."
            )
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Each seat's points above the table average in each cell."""
        if all(math.isnan(r.low) for c in self.cells for r in c.rel):
            return []  # too few games for any interval
        top = max(c.info.players for c in self.cells)
        with matplotlib.rc_context(charts.STYLE):
            fig = charts.new_figure(9.0, 4.2)
            ax = fig.add_subplot()
            dots = {
                (seat, c.info): r for c in self.cells for seat, r in enumerate(c.rel) if not math.isnan(r.low)
            }
            _dots_by_cell(ax, [None, *range(top)], dots, [c.info for c in self.cells])  # seat s at x = s + 1
            ax.set_xticks(range(1, top + 1), [f"seat {k}" for k in range(1, top + 1)])
            ax.set_xlabel("seat (seat 1 starts round 1)")
            ax.set_ylabel("points above the table average (points)")
            ax.set_title(f"Seat effect: {ctx.subject}", loc="left")
            ax.legend(**CELL_LEGEND)
        alt = WORDS.fill(
            "seats.alt",
            items="; ".join(
                f"{c.info.label}, seat {s + 1}: {signed1(r.estimate)} points "
                f"({ci_text(r.low, r.high, signed1)})"
                for c in self.cells
                for s, r in enumerate(c.rel)
            ),
        )
        caption = WORDS.fill("seats.caption", cells=count_range(c.info.games for c in self.cells))
        return [charts.save_chart(fig, ctx.out, f"{ctx.name}-aa-seats", "Seat effect", alt, caption)]

    def tables(self) -> list[Table]:
        """Each seat of each cell: its win rate and points above the table average."""
        rows = [
            [c.info.label, str(s + 1), f"{c.games:,}", bracketed(w, pct), bracketed(r, signed1)]
            for c in self.cells
            for s, (w, r) in enumerate(zip(c.wins, c.rel, strict=True))
        ]
        return [
            Table(WORDS["seats.table"], ["cell", "seat", "games", "win rate", "points above table"], rows)
        ]


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
        seats, cells = _read(ctx)
        if seats is None or "strategy" not in seats.columns or not set(COMPONENTS) & set(seats.columns):
            return None
        found = []
        for players, strategy, part in _groups(seats, cells):
            parts = {name: _by_game(part, pl.col(c)) for c, name in COMPONENTS.items() if c in part.columns}
            both = {"city_mission", "border_mission"} <= set(part.columns)
            mission = _by_game(part, pl.col("city_mission") + pl.col("border_mission")) if both else None
            found.append(
                Group(players, strategy, part.height, _by_game(part, pl.col("score")), parts, mission)
            )
        return cls(found) if found else None

    def findings(self) -> list[str]:
        """What the seats of each strategy score, and how much of it the mission cards (and the
        placements) bring."""
        out = []
        for g in (g for g in self.groups if g.mission is not None):
            text = (
                f"With {g.players}, {g.strategy} seats score {number(g.total.estimate)} points "
                f"({ci_text(g.total.low, g.total.high)}; {g.seat_games:,} seat-games in {g.total.n:,} "
                "games, each "
                f"game one unit), of which their two mission cards bring {number(g.mission.estimate)} "
                f"({ci_text(g.mission.low, g.mission.high)})"
            )
            if (place := g.parts.get("placements")) is not None:
                text += f" and placements {number(place.estimate)} ({ci_text(place.low, place.high)})"
            out.append(text + ".")
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The components' mean points per seat, stacked, a bar per player count and strategy."""
        labels = [f"{g.players}, {g.strategy}" for g in self.groups]
        with matplotlib.rc_context(charts.STYLE):
            fig = charts.new_figure(10.0, max(2.8, 0.45 * len(labels) + 1.6))
            ax = fig.add_subplot()
            left, ys = np.zeros(len(labels)), np.arange(len(labels))
            for k, name in enumerate(self.groups[0].parts):
                vals = np.array([g.parts[name].estimate for g in self.groups])
                ax.barh(
                    ys, vals, left=left, color=charts.colour(k), label=name, height=0.7, edgecolor="white"
                )
                left += vals
            ax.set_yticks(ys, labels)
            ax.invert_yaxis()
            ax.set_xlabel("mean final points per seat (points)")
            ax.grid(axis="y", visible=False)
            ax.set_title(f"Score components by strategy: {ctx.subject}", loc="left")
            ax.legend(title="component", loc="upper left", bbox_to_anchor=(1.0, 1.0))
        alt = WORDS.fill(
            "components.alt",
            items="; ".join(
                f"{label}: " + ", ".join(f"{name} {number(iv.estimate)}" for name, iv in g.parts.items())
                for label, g in zip(labels, self.groups, strict=True)
            ),
        )
        seat_games = count_range((g.seat_games for g in self.groups), "seat-games")
        caption = WORDS.fill("components.caption", seat_games=seat_games)
        title = "Score components by strategy"
        return [charts.save_chart(fig, ctx.out, f"{ctx.name}-aa-components", title, alt, caption)]

    def tables(self) -> list[Table]:
        """Each component's mean points per seat by player count and strategy."""
        rows = [
            [
                g.players,
                g.strategy,
                f"{g.total.n:,}",
                bracketed(g.total),
                *map(bracketed, g.parts.values()),
            ]
            for g in self.groups
        ]
        columns = ["players", "strategy", "seat-games", "total", *self.groups[0].parts]
        return [Table(WORDS["components.table"], columns, rows)]


@dataclass(frozen=True)
class Protection(kit.SectionModel):
    pays: str
    needs: tuple[int, int, int]  # value-1 cities touched, herd spaces and border spaces covered
    rates: list[tuple[str, str, int, stats.Interval]]  # players, strategy, seat-games, success rate

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Protection | None:
        """What Global Protection pays and needs by the dataset's board file, and the share of
        seat-games that earned it by player count and strategy, each game one unit."""
        seats, cells = _read(ctx)
        if seats is None or not {"protection", "strategy"} <= set(seats.columns):
            return None
        # Global Protection pays all of its points or none: any points mean it was earned, whatever
        # the board file pays; the page names the amount from that file when it can still be read
        rates = [
            (
                players,
                strategy,
                part["protection"].drop_nulls().len(),
                _by_game(part, pl.col("protection") > 0),
            )
            for players, strategy, part in _groups(seats, cells)
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
        return [
            f"With {players}, {strategy} seats earn Global Protection in {pct(iv.estimate)} of their "
            f"games ({ci_text(iv.low, iv.high, pct)}; {n:,} seat-games in {iv.n:,} games, "
            "each game one unit)."
            for players, strategy, n, iv in self.rates
        ]

    def notes(self) -> list[str]:
        """What Global Protection pays and needs."""
        cities, herds, borders = self.needs
        return [WORDS.fill("protection.how", pays=self.pays, cities=cities, herds=herds, borders=borders)]

    def tables(self) -> list[Table]:
        """The success rate by player count and strategy."""
        rows = [[players, strategy, f"{n:,}", bracketed(iv, pct)] for players, strategy, n, iv in self.rates]
        return [Table(WORDS["protection.table"], ["players", "strategy", "seat-games", "success rate"], rows)]


# --- semi-cooperative -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Semicoop(kit.SectionModel):
    cells: list[tuple[CellInfo, stats.Interval, stats.Interval | None]]  # Earth holds, bases destroyed
    steps: list[tuple[str, CellInfo, CellInfo, stats.PairedDifference]]  # mirror strategy, a, b: b - a
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
        found = []
        for info in semi:
            part = games.filter(pl.col("cell") == info.cell)
            destroyed = (
                _mean(part["bases_destroyed"].cast(pl.Float64)) if "bases_destroyed" in part.columns else None
            )
            found.append((info, _wilson(part["won"].cast(pl.Boolean)), destroyed))
        steps = []
        for strategy in dict.fromkeys(c.strategies[0] for c in semi if c.mirror and c.strategies):
            mine = sorted(
                (c for c in semi if c.mirror and c.strategies[0] == strategy), key=lambda c: c.players
            )
            for a, b in zip(mine, mine[1:], strict=False):
                ga, gb = (games.filter(pl.col("cell") == c.cell).select("game_index", "won") for c in (a, b))
                joined = ga.join(gb, on="game_index", suffix="_b").drop_nulls(["won", "won_b"])
                if joined.height >= 2:
                    won_a, won_b = (joined[k].cast(pl.Boolean).to_numpy() for k in ("won", "won_b"))
                    steps.append((strategy, a, b, stats.paired_difference(won_a, won_b)))
        return cls(found, steps, stats.family([w.p_value for *_, w in steps]))

    def findings(self) -> list[str]:
        """How often Earth holds in each cell, and at each step up in players."""
        out = []
        for info, iv, destroyed in self.cells:
            text = (
                f"{info.label}: Earth holds (at least {SEMI_COOP_BASES} bases destroyed) in {rate_text(iv)}"
            )
            if destroyed is not None:
                text += f"; the players destroy {number(destroyed.estimate)} bases a game "
                text += f"({ci_text(destroyed.low, destroyed.high)})"
            out.append(text + ".")
        for (strategy, a, b, w), resolved in zip(self.steps, self.family.resolved, strict=True):
            than = f"often than {a.players}"
            verdict = _verdict(
                resolved, w.difference, f"more {than}", f"less {than}", f"about as often as {a.players}"
            )
            out.append(
                f"{strategy} mirror, semi-coop: {b.players} players hold Earth {verdict}: "
                f"{points(w.difference)} percentage points ({ci_text(w.low, w.high, points)}; {w.n:,} games "
                "paired by game index, which draws the same Mothership order at every player count)"
                + ("; resolved" if resolved else "; not resolved")
                + f" after {self.family.text}."
            )
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The share of games Earth holds in each semi-cooperative cell."""
        rates = [iv for _, iv, _ in self.cells]
        with matplotlib.rc_context(charts.STYLE):
            fig = charts.new_figure(7.0, 3.8)
            ax = fig.add_subplot()
            xs = list(range(len(rates)))
            est, low, high = ([getattr(iv, k) for iv in rates] for k in ("estimate", "low", "high"))
            charts.interval_dots(ax, xs, est, low, high, scale=100)
            ax.set_xticks(xs, [info.label.replace(", ", "\n") for info, _, _ in self.cells])
            ax.set_ylim(-1.5, 101)
            ax.set_ylabel("games the players win together (%)")
            ax.set_xlabel("cell")
            ax.grid(axis="x", visible=False)
            ax.set_title(f"Semi-cooperative success: {ctx.subject}", loc="left")
        items = "; ".join(f"{info.label}: {rate_text(iv)}" for info, iv, _ in self.cells)
        alt = WORDS.fill("semicoop.alt", bases=SEMI_COOP_BASES, items=items)
        caption = WORDS.fill(
            "semicoop.caption", bases=SEMI_COOP_BASES, cells=count_range(iv.n for iv in rates)
        )
        title = "Semi-cooperative success"
        return [charts.save_chart(fig, ctx.out, f"{ctx.name}-aa-semicoop", title, alt, caption)]

    def tables(self) -> list[Table]:
        """Per cell, the share of games Earth holds and the bases destroyed a game."""
        rows = [
            [info.label, f"{iv.n:,}", bracketed(iv, pct), "n/a" if d is None else bracketed(d)]
            for info, iv, d in self.cells
        ]
        return [Table(WORDS["semicoop.table"], ["cell", "games", "Earth holds", "bases destroyed"], rows)]


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


class SpaceMap(NamedTuple):
    heat: Heat
    counts: np.ndarray  # games that list each space (index = space number)
    shares: dict[int, stats.Interval]  # each space's share of games
    order: list[int]  # the spaces, most often first
    per_game: stats.Interval  # such spaces a game


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
        out = []
        for m in self.maps:
            most, least = m.order[0], m.order[-1]
            lo, per_game = m.shares[least], m.per_game
            out.append(
                f"Space {most} {m.heat.does} most often: in {rate_text(m.shares[most])}; space {least} least "
                f"often: {pct(lo.estimate)} ({ci_text(lo.low, lo.high, pct)}). A game has "
                f"{number(per_game.estimate)} such spaces on average "
                f"({ci_text(per_game.low, per_game.high)})."
            )
        return out

    def notes(self) -> list[str]:
        """How a space becomes a base or sees a capture, or why there is no map."""
        if self.board is None:
            return [f"No heatmaps: {self.why}."]
        return [WORDS["board.how"]]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The board shaded by each map's share of games."""
        out = []
        for heat, counts, shares, order, _ in self.maps:
            rates = {s: counts[s] / self.games for s in shares}
            with matplotlib.rc_context(charts.STYLE):
                fig = charts.new_figure(11.0, 7.5)
                title = f"Share of games in which each space {heat.does}: {ctx.subject}"
                values = {s: 100 * r for s, r in rates.items()}
                board_plot.draw_board(
                    self.board,
                    values=values,
                    ax=fig.add_subplot(),
                    title=title,
                    cmap=heat.cmap,
                    value_label="share of games (%)",
                )
            alt = WORDS.fill(
                "board.alt",
                does=heat.does,
                most=", ".join(f"space {s} {pct(rates[s])}" for s in order[:TOP_SPACES]),
                least=f"space {order[-1]} {pct(rates[order[-1]])}",
            )
            widest = pct(max(iv.half_width for iv in shares.values()))
            caption = WORDS.fill("board.caption", did=heat.did, games=self.games, widest=widest)
            name = f"{ctx.name}-aa-heat-{heat.column.split('_')[0]}s"  # -bases, -captures
            out.append(charts.save_chart(fig, ctx.out, name, heat.title, alt, caption))
        return out

    def tables(self) -> list[Table]:
        """The most frequent spaces of each map."""
        return [
            Table(
                WORDS.fill("board.table", top=TOP_SPACES, do=m.heat.do, games=self.games),
                ["space", "share of games", "games"],
                [
                    [str(s), bracketed(m.shares[s], pct), f"{int(m.counts[s]):,}"]
                    for s in m.order[:TOP_SPACES]
                ],
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
    return " > ".join(f"{_short_card(deck, c.card)} ({signed1(c.rel.estimate)})" for c in ranked)


def _card_pairs(decks: list[Deck]) -> list[verdicts.Reading]:
    """Every pair of cards of a cell's decks: the second card's holder's points less the first's."""
    return [
        verdicts.Reading(_card_name(d.deck, p.a), _card_name(d.deck, p.b), p.points, p.p)
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
            ("first seat's win rate", lambda c: bracketed(c.wins[0], pct)),
            ("average seat's", lambda c: bracketed(c.fair, pct)),
            ("first seat's points above table", lambda c: bracketed(c.rel[0], signed1)),
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
