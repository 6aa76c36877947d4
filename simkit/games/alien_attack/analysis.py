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
from typing import Any, NamedTuple

import polars as pl

from simkit.core import stats
from simkit.games.alien_attack import board_plot, components
from simkit.games.alien_attack.game import SEMI_COOP_BASES
from simkit.reporting import charts, kit, seat_sections, seats
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import by_sign, count_range

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


class Seated:
    """A seat section (`simkit.reporting.seat_sections`) in this game's words, over its cells with
    their variant (from the manifest where the games table lacks it)."""

    WORDS = WORDS
    CELL = CellInfo
    SETTINGS = {"variant": "standard"}  # a cell's variant where the games table lacks it


# --- the seat sections (simkit.reporting.seats): mission cards, strategies at one table, first seat


class Cards(Seated, seat_sections.DealtSection):
    """The City and the Border card of each seat, compared in the mirror cells of either variant."""

    STEM, KEY, VALUE, COLUMNS = "aa-cards", "cards", "card", DECKS
    # each deck's own order (City 2-5; Atlantic, Pacific, Gulf, Mexico), unknown cards last
    ORDERS = {"city_card": components.CITY_CARDS, "border_card": components.BORDER_CARDS}

    @staticmethod
    def short(deck: str, card: Any) -> str:
        return str(card) if deck == "city_card" else str(card).capitalize()


class HeadToHead(Seated, seat_sections.HeadToHeadSection):
    """Strategies at one table, in the standard variant's cells."""

    ONLY = {"variant": "standard"}


class SeatEffects(Seated, seat_sections.SeatEffectsSection):
    """Each seat's win rate and points above the table, in every cell of two or more players."""

    STEM = "aa-seats"


# --- score components and Global Protection: the seats of each strategy at each player count ----


class Pool(NamedTuple):
    """The seats of one strategy at one player count, pooled over the cells (`seats.pooled`); their
    points per seat and share that earned Global Protection, each game one unit."""

    players: str  # "2 players"
    strategy: str
    seat_games: int
    total: stats.Interval  # final points
    parts: dict[str, stats.Interval]  # each score component's points, by name
    mission: stats.Interval | None  # both mission cards' points (None: not recorded)
    protected: stats.Interval | None  # None: not recorded
    protected_games: int  # the seat-games that record it


def _pools(ctx: AnalysisContext, *needed: str) -> list[Pool]:
    """The seats of each strategy at each player count (none: no seat rows with the columns `needed`)."""
    rows = seats.rows(ctx)
    if rows is None or not {"strategy", *needed} <= set(rows.columns):
        return []
    out, has = [], set(rows.columns)
    for players, strategy, part in seats.pooled(rows, SeatEffects.cells_of(ctx)):  # every cell
        mean = partial(seats.per_game, part)
        parts = {name: mean(pl.col(c)) for c, name in COMPONENTS.items() if c in has}
        both = {"city_mission", "border_mission"} <= has
        mission = mean(pl.col("city_mission") + pl.col("border_mission")) if both else None
        # Global Protection pays all of its points or none: any points mean it was earned, whatever
        # the board file pays; the page names the amount from that file when it can still be read
        earned = (None, 0)
        if "protection" in has:
            earned = mean(pl.col("protection") > 0), part["protection"].drop_nulls().len()
        out.append(Pool(players, strategy, part.height, mean(pl.col("score")), parts, mission, *earned))
    return out


POOL_COLUMNS = (("players", "{players}"), ("strategy", "{strategy}"))
PROTECTION_COLUMNS = (
    *POOL_COLUMNS,
    ("seat-games", "{protected_games:,}"),
    ("success rate", "{protected:[pct]}"),
)
COMPONENT_TEXTS = ("components.title", "components.axis", "components.alt", "components.caption")
COMPONENTS_CHART = kit.Stacked("aa-components", COMPONENT_TEXTS, 10.0, "component")


@dataclass(frozen=True)
class Components(kit.SectionModel):
    pools: list[Pool]

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Components | None:
        """Mean points per seat of each score component by player count and strategy."""
        pools = _pools(ctx)
        return cls(pools) if pools and pools[0].parts else None

    def findings(self) -> list[str]:
        """What the seats of each strategy score, and how much of it the mission cards (and the
        placements) bring."""
        out = []
        for p in (p for p in self.pools if p.mission is not None):
            place = p.parts.get("placements")
            more = "" if place is None else " " + WORDS.fill("components.placements", place=place)
            out.append(WORDS.fill_from("components.finding", p, placements=more))
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The components' mean points per seat, stacked, a bar per player count and strategy."""
        labels = [f"{p.players}, {p.strategy}" for p in self.pools]
        parts = {name: [p.parts[name].estimate for p in self.pools] for name in self.pools[0].parts}
        items = "; ".join(WORDS.fill_from("components.alt_item", p, parts=_parts(p)) for p in self.pools)
        seat_games = count_range((p.seat_games for p in self.pools), "seat-games")
        return [COMPONENTS_CHART.draw(ctx, WORDS, labels, parts, items=items, seat_games=seat_games)]

    def tables(self) -> list[Table]:
        """Each component's mean points per seat by player count and strategy."""
        parts = ((name, f"{{parts[{name}]:[number]}}") for name in self.pools[0].parts)
        columns = [*POOL_COLUMNS, ("seat-games", "{total.n:,}"), ("total", "{total:[number]}"), *parts]
        return [kit.table(WORDS["components.table"], columns, self.pools)]


def _parts(p: Pool) -> str:
    """A bar's components in the chart's alt text: "placements 40.1, City card 9.5, ..."."""
    return ", ".join(WORDS.fill("components.alt_part", name=name, points=iv) for name, iv in p.parts.items())


@dataclass(frozen=True)
class Protection(kit.SectionModel):
    pays: str
    needs: tuple[int, int, int]  # value-1 cities touched, herd spaces and border spaces covered
    pools: list[Pool]
    # the section's one table: the success rate by player count and strategy
    tables = kit.one_table(WORDS["protection.table"], PROTECTION_COLUMNS, "pools")
    # a finding a pool: the success rate of each strategy at each player count
    findings = kit.finding_each(WORDS, "protection.finding", "pools")

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Protection | None:
        """What Global Protection pays and needs by the dataset's board file, and the share of
        seat-games that earned it by player count and strategy, each game one unit."""
        if not (pools := _pools(ctx, "protection")):
            return None
        if (b := _board(ctx.dataset.games)[0]) is None:  # the board file moved: the rulebook's
            return cls("its points", (4, 4, 3), pools)
        needs = (b.protection_value1, b.protection_herds, b.protection_borders)
        return cls(f"{b.protection_points} points", needs, pools)

    def notes(self) -> list[str]:
        """What Global Protection pays and needs."""
        cities, herds, borders = self.needs
        return [WORDS.fill("protection.how", pays=self.pays, cities=cities, herds=herds, borders=borders)]


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


SEMICOOP_COLUMNS = (
    ("cell", "{info.label}"),
    ("games", "{held.n:,}"),
    ("Earth holds", "{held:[pct]}"),
    ("bases destroyed", "{destroyed:[number]}"),
)
STEP_WORDS = ("semicoop.more", "semicoop.less", "semicoop.as_often")  # a step resolved up, down, neither
SEMICOOP_TEXTS = ("semicoop.title", "semicoop.axis", "semicoop.alt", "semicoop.caption")
SEMICOOP_CHART = kit.RateDots("aa-semicoop", SEMICOOP_TEXTS, (7.0, 3.8), "cell")


@dataclass(frozen=True)
class Semicoop(kit.SectionModel):
    teams: list[Team]
    steps: list[Step]
    family: stats.Family  # every step of every strategy
    # the section's one table: per cell, the share of games Earth holds and the bases destroyed a game
    tables = kit.one_table(WORDS["semicoop.table"], SEMICOOP_COLUMNS, "teams")

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Semicoop | None:
        """Per semi-cooperative cell, the share of games Earth holds and the bases destroyed a
        game; per mirror strategy, the share at one player count against the next, paired by
        game index (game i draws the same Mothership order at every player count)."""
        games = ctx.dataset.games
        semi = [c for c in SeatEffects.cells_of(ctx) if c.variant == "semi-coop"]
        if not semi or "won" not in games.columns:
            return None
        played = {c: games.filter(pl.col("cell") == c.cell) for c in semi}
        counted = "bases_destroyed" in games.columns
        teams = [
            Team(c, kit.win_rate(g), kit.mean_of(g, "bases_destroyed") if counted else None)
            for c, g in played.items()
        ]
        mirrors = {c: part for c, part in played.items() if c.mirror and c.strategies}
        won = pl.col("won").cast(pl.Boolean)
        steps = kit.paired_ladder(mirrors, lambda c: c.strategies[0], lambda c: c.players, won, Step, least=2)
        return cls(teams, *steps)

    def findings(self) -> list[str]:
        """How often Earth holds in each cell, and at each step up in players."""
        out = []
        for t in self.teams:
            more = "" if t.destroyed is None else WORDS.fill_from("semicoop.destroyed", t)
            out.append(WORDS.fill_from("semicoop.finding", t, bases=SEMI_COOP_BASES, destroyed_text=more))
        for s in self.steps:
            verdict = WORDS.fill(by_sign(s.resolved, s.diff.difference, *STEP_WORDS), players=s.a.players)
            out.append(WORDS.fill_from("semicoop.step", s, verdict=verdict, family=self.family.text))
        return out

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The share of games Earth holds in each semi-cooperative cell."""
        rates, labels = [t.held for t in self.teams], [t.info.label.replace(", ", "\n") for t in self.teams]
        items = WORDS.joined("semicoop.alt_item", self.teams)
        cells = count_range(iv.n for iv in rates)
        return [
            SEMICOOP_CHART.draw(ctx, WORDS, labels, rates, bases=SEMI_COOP_BASES, items=items, cells=cells)
        ]


# --- board heatmaps -------------------------------------------------------------------------------


class Heat(NamedTuple):
    column: str  # the games' column that lists the spaces
    title: str  # the chart's title's words
    cmap: str
    does: str  # what a space does, did, and (they) do
    did: str
    do: str


HEATS = (
    Heat("base_spaces", "board.bases", "Reds", "becomes a base", "became a base", "become a base"),
    Heat(
        "capture_spaces",
        "board.captures",
        "Purples",
        *(f"{v} a disc captured" for v in ("sees", "saw", "see")),
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


@dataclass(frozen=True)
class BoardMaps(kit.SectionModel):
    board: Any  # None: no map, for the reason `why`
    why: str
    games: int
    maps: list[tuple[Heat, kit.Listed]]  # how often each map's spaces are listed

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
        return cls(board, why, n, [(h, kit.listed(games, h.column, board.n, n)) for h in HEATS])

    def retitle(self) -> str:
        return "Board heatmaps" if self.board is None else ""

    def findings(self) -> list[str]:
        """The most and the least frequent space of each map, and such spaces a game."""
        return [WORDS.fill_from("board.finding", spaces, does=heat.does) for heat, spaces in self.maps]

    def notes(self) -> list[str]:
        """How a space becomes a base or sees a capture, or why there is no map."""
        return [WORDS.fill("board.none", why=self.why) if self.board is None else WORDS["board.how"]]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The board shaded by each map's share of games."""
        out = []
        for heat, (_, shares, order, _) in self.maps:
            percent = {s: 100 * iv.estimate for s, iv in shares.items()}  # each space's shade
            title = WORDS.fill("board.heading", does=heat.does, subject=ctx.subject)
            with charts.one_panel(11.0, 7.5) as (fig, ax):
                look = {"title": title, "cmap": heat.cmap, "value_label": WORDS["board.axis"]}
                board_plot.draw_board(self.board, percent, ax, **look)
            spaces = [WORDS.fill("board.alt_space", space=s, share=shares[s]) for s in order]
            widest = max(iv.half_width for iv in shares.values())
            more = {"most": ", ".join(spaces[:TOP_SPACES]), "least": spaces[-1], "widest": widest}
            stem = f"aa-heat-{heat.column.split('_')[0]}s"  # -bases, -captures
            chart = kit.ChartWords(stem, (heat.title, "board.alt", "board.caption"))
            out.append(chart.save(ctx, WORDS, fig, does=heat.does, did=heat.did, games=self.games, **more))
        return out

    def tables(self) -> list[Table]:
        """The most frequent spaces of each map."""
        caption = partial(WORDS.fill, "board.table", top=TOP_SPACES, games=self.games)
        return [
            kit.listed_table(caption(do=heat.do), spaces, "space", TOP_SPACES) for heat, spaces in self.maps
        ]


# --- does the verdict hold? (reporting/verdicts.py): the seat and card verdicts at every rung ------

VERDICTS = (  # the first seat's edge and every pair of cards, read in each mirror cell
    seat_sections.first_seat_verdicts(
        SeatEffects, WORDS["verdicts.seat_how"], WORDS["verdicts.seat_table"], WORDS["verdicts.seat_rungs"]
    ),
    seat_sections.dealt_verdicts(
        Cards, WORDS["verdicts.cards_how"], WORDS["verdicts.cards_table"], WORDS["verdicts.cards_rungs"]
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
