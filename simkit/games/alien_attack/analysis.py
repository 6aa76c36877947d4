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

The seat-level reckoning is the kit's (`simkit.reporting.seats`: seat effects, strategies at one
table, a dealt seat column's values); this module says which columns, cells and charts, and the
page's words (findings, captions, alt texts) are the templates of `report_words.toml`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from typing import Any, NamedTuple

import polars as pl

from simkit.core import stats
from simkit.games.alien_attack import board_plot, components
from simkit.games.alien_attack.game import SEMI_COOP_BASES
from simkit.reporting import charts, kit, seats, verdicts
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import bracketed, by_sign, count_range, signed1

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


def _ordered(deck: str, cards: list[Any]) -> list[Any]:
    """Cards in the deck's own order (City 2-5; Atlantic, Pacific, Gulf, Mexico), unknown ones last."""
    order = [str(c) for c in (components.CITY_CARDS if deck == "city_card" else components.BORDER_CARDS)]
    return sorted(cards, key=lambda c: (order.index(str(c)) if str(c) in order else len(order), str(c)))


class Cards(seats.DealtSection):
    """The City and the Border card of each seat, compared in the mirror cells of either variant."""

    WORDS, STEM, KEY, VALUE, COLUMNS = WORDS, "aa-cards", "cards", "card", DECKS
    short, order = staticmethod(_short_card), staticmethod(_ordered)

    @classmethod
    def cells_of(cls, ctx: AnalysisContext) -> list[CellInfo]:
        return _read(ctx)[1]


# --- strategies at one table and the first seat (simkit.reporting.seats) -------------------------


class HeadToHead(seats.HeadToHeadSection):
    """Strategies at one table, in the standard variant's cells."""

    WORDS = WORDS

    @classmethod
    def cells_of(cls, ctx: AnalysisContext) -> list[CellInfo]:
        return [c for c in _read(ctx)[1] if c.variant == "standard"]


class SeatEffects(seats.SeatEffectsSection):
    """Each seat's win rate and points above the table, in every cell of two or more players."""

    WORDS, STEM = WORDS, "aa-seats"

    @classmethod
    def cells_of(cls, ctx: AnalysisContext) -> list[CellInfo]:
        return _read(ctx)[1]


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
        bars = zip(labels, self.groups, strict=True)
        items = "; ".join(WORDS.fill("components.alt_item", bar=bar, parts=_parts(g)) for bar, g in bars)
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


def _parts(g: Group) -> str:
    """A bar's components in the chart's alt text: "placements 40.1, City card 9.5, ..."."""
    return ", ".join(WORDS.fill("components.alt_part", name=name, points=iv) for name, iv in g.parts.items())


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
        words = ("semicoop.more", "semicoop.less", "semicoop.as_often")
        return WORDS.fill(by_sign(self.resolved, self.diff.difference, *words), players=self.a.players)


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


class SpaceMap(NamedTuple):
    heat: Heat
    spaces: kit.Listed  # how often each space is listed


SPACE_COLUMNS = (("space", "{item}"), ("share of games", "{share:[pct]}"), ("games", "{games:,}"))


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
        if board is None:
            return cls(board, why, n, [])
        if not n:
            return None
        # each space's share of the games, the games with a list of bases the whole
        return cls(board, why, n, [SpaceMap(h, kit.listed(games, h.column, board.n, n)) for h in HEATS])

    def retitle(self) -> str:
        return "Board heatmaps" if self.board is None else ""

    def findings(self) -> list[str]:
        """The most and the least frequent space of each map, and such spaces a game."""
        return [WORDS.fill_from("board.finding", m.spaces, does=m.heat.does) for m in self.maps]

    def notes(self) -> list[str]:
        """How a space becomes a base or sees a capture, or why there is no map."""
        return [WORDS.fill("board.none", why=self.why) if self.board is None else WORDS["board.how"]]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The board shaded by each map's share of games."""
        out = []
        for heat, (counts, shares, order, _) in self.maps:
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
                [m.spaces.item(s) for s in m.spaces.order[:TOP_SPACES]],
            )
            for m in self.maps
        ]


# --- does the verdict hold? (reporting/verdicts.py): the seat and card verdicts at every rung ------


def _decks(model: Cards) -> dict[str, list[seats.Dealt]]:
    """The model's decks by cell."""
    out: dict[str, list[seats.Dealt]] = {}
    for d in model.deals:
        out.setdefault(d.cell.cell, []).append(d)
    return out


def _ranking(deck: str, decks: list[seats.Dealt]) -> str:
    """A deck's cards in one cell by points above the table average, highest first."""
    ranked = sorted((h for d in decks if d.column == deck for h in d.values), key=lambda h: -h.rel.estimate)
    return " > ".join(f"{_short_card(deck, h.value)} ({signed1(h.rel.estimate)})" for h in ranked)


def _card_pairs(decks: list[seats.Dealt]) -> list[verdicts.Reading]:
    """Every pair of cards of a cell's decks: the second card's holder's points less the first's."""
    return [
        verdicts.Reading(Cards.name(p.column, p.a), Cards.name(p.column, p.b), p.points, p.p)
        for d in decks
        for p in d.pairs
    ]


_in_points = partial(verdicts.Mirror, unit="points", fmt=signed1)
VERDICTS = (  # the first seat's edge and every pair of cards, read in each mirror cell
    _in_points(
        read=SeatEffects.read,
        items=lambda model: {c.cell.cell: c for c in model.cells},
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
