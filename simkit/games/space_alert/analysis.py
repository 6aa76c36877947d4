"""Space Alert's own report sections (issue 5 point 7), as section models for `simkit.reporting.kit`;
their standing words (how to read each section, captions) are in `report_words.toml`.

1. Survival and score by threat difficulty x mission type x crew size x crew, each setting's
   values compared as pairs of games (game i of every cell shares its seed).
2. The threats behind losses (`lost_to`, `threat_ids`, `destroyed_ids`): share of all losses and
   loss rate when in the mission.
3. Damage by zone (red / white / blue) per cell, and which zone a 7th tile destroyed.
4. The transcribed missions (1-8) ranked by survival, when the dataset plays them.

Decisions:
- "Difficulty" settings are everything the grid varies except the crew; the crew is `strategy`,
  `players` and `figures` (crew size). A setting counts as varied when the dataset's cells hold
  more than one value of it, so a one-cell dataset (`simkit simulate`) still gets its sections.
- Comparisons of a setting pool every matched pair of cells (same other settings, the setting
  at its first value against another value), each joined on game_index: "averaged over" the
  other settings the grid varies, per crew when the crew varies.
- Section 1 compares mission types (test / simulation / real) only; transcribed missions are
  compared with one another in section 4, never with a random mission type.
- A lost game stops at the loss: its damage counts the tiles drawn until then. The zone a ship
  lost to a 7th tile is the zone holding all 6 tiles (a tie between full zones is counted apart).
- The report never plays a game: threat names come from the built-in component file (ids only
  if it cannot be read).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import polars as pl

from simkit.core import stats
from simkit.games.space_alert import components
from simkit.games.space_alert.components import ZONES
from simkit.reporting import charts, kit
from simkit.reporting.kit import estimate_columns
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import count_range, per, plural, settings_text, the_crew

WORDS = kit.words(__package__)

CREW_KEYS = ("strategy", "players", "figures")
FIXED = ("mission", "common", "serious")  # the settings that name a difficulty when none varies
ZONE_COLOURS = ("#D55E00", "#000000", "#0072B2")  # Okabe-Ito vermillion, black, blue
DAMAGE = [f"damage_{z}" for z in ZONES]
TILES_PER_ZONE = 6
TOP_THREATS = 15
MIN_DRAWN = 30  # the deadliest threat per game it is in is picked from those drawn this often
TRANSCRIBED = {str(i) for i in range(1, 9)}


# --- cells --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrewCell(kit.Cell):
    """A cell (or cells pooled) with its difficulty label (the varied settings but the crew's), its
    crew label, its rank where it pools a transcribed mission's games (1: the hardest), and over
    its games, besides a `kit.Cell`'s survival (`win`) and mean score, the damage tiles (t)."""

    difficulty: str = ""
    crew: str = ""
    rank: int = 0  # a transcribed mission's, among its crew's missions (0: a cell of the grid)

    @cached_property
    def zones(self) -> dict[str, stats.Interval]:
        """The damage tiles a game in each zone, and in all of them ("all")."""
        return {**{z: self.mean(f"damage_{z}") for z in ZONES}, "all": self.mean(*DAMAGE)}


@dataclass(frozen=True)
class Grid(kit.SectionModel):
    """The dataset's games and its cells, labelled (the model of sections 1 and 3)."""

    games: pl.DataFrame
    cells: list[CrewCell]  # in manifest order
    varied: list[str]  # the settings whose value differs between cells

    def labels(self, what: str) -> list[str]:
        return list(dict.fromkeys(getattr(c, what) for c in self.cells))

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Grid:
        """The cells in manifest order with their labels, and the settings that vary between them."""
        keys = kit.setting_keys(ctx)
        cells = kit.cells(ctx, keys)
        varied = kit.varied(cells, keys)
        difficulty_keys = [k for k in varied if k not in CREW_KEYS]
        size_keys = [k for k in varied if k in CREW_KEYS and k != "strategy"]

        def labelled(c: kit.Cell) -> CrewCell:
            s = c.settings
            # with nothing varied, the fixed mission and decks still say which difficulty this is
            difficulty = settings_text(s, difficulty_keys) or settings_text(s, FIXED) or "all games"
            crew = f"{s.get('strategy', 'crew')} {settings_text(s, size_keys)}".rstrip()
            return CrewCell(c.cell, s, c.games, difficulty, crew)

        return cls(ctx.dataset.games, [labelled(c) for c in cells], varied)


# --- 1. survival and score ----------------------------------------------------------------------


# the tables' shared columns: a cell's labels, and its survival and mean score with their intervals
DIFFICULTY, CREW, GAMES = ("difficulty", "{difficulty}"), ("crew", "{crew}"), ("games", "{win.n:,}")
SURVIVAL_SCORE = (*estimate_columns("survival", "win", rate=True), *estimate_columns("mean score", "score"))
SURVIVAL_COLUMNS = (DIFFICULTY, CREW, GAMES, ("survived", "{wins:,}"), *SURVIVAL_SCORE)
SURVIVAL_CHART = kit.ChartWords("sa-survival", ("survival.chart", "survival.alt", "survival.caption"))


class Survival(Grid):
    """Section 1: survival and mean score per cell, and each varied setting's effect on them."""

    # per cell: games, games survived, survival and mean score with their intervals
    tables = kit.one_table(WORDS["survival.table"], SURVIVAL_COLUMNS, "cells")

    def findings(self) -> list[str]:
        """The range of survival over the cells (or the one cell's survival and score), then every
        other value of each varied setting against its first, as pairs of games, per strategy when
        it varies and is not the setting compared, resolved or not after Holm over all of them
        (survival and score each a family). Random mission types only: the transcribed missions
        are section 4's."""
        decided = [c for c in self.cells if c.win.n > 0]
        if len(decided) > 1:
            lo, hi = (pick(decided, key=lambda c: c.win.estimate) for pick in (min, max))
            findings = [WORDS.fill("survival.range", lo=lo, hi=hi)]
        else:  # the one cell decided, if any
            findings = [WORDS.fill_from("survival.one_cell", c) for c in decided]
        keys = list(self.cells[0].settings)
        # the transcribed missions are section 4's
        compared, wins = kit.judged_along(self.cells, keys, self.varied, leave_out={"mission": TRANSCRIBED})
        for c in compared:
            head = WORDS.fill_from("survival.resolved" if c.resolved else "survival.unresolved", c)
            subject = WORDS.fill_from("survival.for_crew", c) if c.group else WORDS["survival.all"]
            over = WORDS.fill("survival.over", settings=", ".join(c.over)) if c.over else ""
            more = {"subject": subject, "head": head, "over": over, "family": wins.text}
            cells = plural(c.paired.cells, "matched cell")
            findings.append(WORDS.fill_from("survival.compared", c, cells=cells, **more))
        return findings

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Survival and mean score of each cell: difficulties along x, one colour and marker a crew."""
        if not any(c.win.n for c in self.cells):
            return []
        xs, crews = self.labels("difficulty"), self.labels("crew")
        per_x = 0.55 + 0.12 * len(crews)
        with charts.stacked_panels(xs, 2, WORDS["charts.x_axis"], per_x, 7.2) as (fig, (top, bottom)):
            for ax, what, scale in ((top, "win", 100.0), (bottom, "score", 1.0)):
                by_x_crew = {(c.difficulty, c.crew): getattr(c, what) for c in self.cells}
                charts.grouped_interval_dots(ax, xs, crews, by_x_crew, scale)
            top.set(ylim=(-1.5, 101.5), ylabel=WORDS["survival.axis"])
            bottom.set_ylabel(WORDS["survival.score_axis"])
            top.set_title(WORDS.fill("survival.heading", subject=ctx.subject), loc="left")
            charts.side_legend(top, "crew", fontsize=8)
        items = charts.alt_list([WORDS.fill_from("survival.alt_item", c) for c in self.cells])
        games = per([c.win for c in self.cells if c.win.n], "cell")
        return [SURVIVAL_CHART.save(ctx, WORDS, fig, items=items, games=games)]


# --- 2. threats behind losses -------------------------------------------------------------------


class Threat(NamedTuple):
    """A threat over some games (id "": the losses that name none): its label, the games it was
    in and lost to, of the `lost` losses of those games, and its rates (Wilson)."""

    id: str
    label: str
    present: int
    losses: int
    lost: int
    share: stats.Interval  # of the losses
    rate: stats.Interval  # games lost to it when present
    killed: stats.Interval  # games the crew destroyed it in when present


class Crew(NamedTuple):
    """A crew's games (or every game): how many, how many were lost, and each threat over them."""

    strategy: str
    games: int
    lost: int
    threats: dict[str, Threat]  # by id

    @classmethod
    def read(cls, strategy: str, frame: pl.DataFrame, names: dict[str, str]) -> Crew:
        """Per threat id the games it was in (threat_ids), destroyed in (destroyed_ids) and lost to
        (lost_to), each threat labelled by its name where `names` has it."""
        lost_to = frame.filter(~pl.col("won").cast(pl.Boolean).fill_null(True))["lost_to"]
        present, destroyed = kit.id_counts(frame["threat_ids"]), kit.id_counts(frame["destroyed_ids"])
        losses, lost = Counter(lost_to.fill_null("").to_list()), lost_to.len()

        def threat(t: str) -> Threat:
            n, label = present[t], f"{t} {names[t]}" if t in names else t
            rates = stats.wilson(losses[t], lost), stats.wilson(losses[t], n), stats.wilson(destroyed[t], n)
            return Threat(t, label, n, losses[t], lost, *rates)

        return cls(strategy, frame.height, lost, {t: threat(t) for t in {*present, *destroyed, *losses}})

    def most(self, n: int) -> list[Threat]:
        """The `n` named threats behind the most losses, most first (ties by id)."""
        behind = (t for t in self.threats.values() if t.id and t.losses)
        return sorted(behind, key=lambda t: (-t.losses, t.id))[:n]


THREAT_COLUMNS = (
    ("threat", "{label}"),
    ("games present", "{present:,}"),
    ("losses to it", "{losses:,}"),
    *estimate_columns("share of losses", "share", rate=True),
    *estimate_columns("loss rate when present", "rate", rate=True),
    *estimate_columns("destroyed when present", "killed", rate=True),
)
RANKED_TEXTS = ("threats.chart", "threats.heading", "threats.axis", "threats.alt", "charts.ranked_item")
THREATS_CHART = kit.Ranked("sa-threats", (*RANKED_TEXTS, "threats.caption"), 9.0, 0.7, "crew", 8)


@dataclass(frozen=True)
class Threats(kit.SectionModel):
    """The threats over every game, and per crew."""

    every: Crew  # every cell pooled
    crews: list[Crew]  # per strategy (one crew of every game where the strategy does not vary)

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Threats | None:
        """The threats over every game, and per strategy when the strategy varies."""
        games = ctx.dataset.games
        if not {"lost_to", "threat_ids", "destroyed_ids", "won"} <= set(games.columns):
            return None
        crews = kit.pooled_games(Grid.read(ctx).cells, lambda c: c.settings.get("strategy", ""))
        try:
            names = {t.id: t.name for t in components.load(None).threats}
        except Exception:  # noqa: BLE001 (names are a nicety; ids stand alone)
            names = {}
        return cls(Crew.read("", games, names), [Crew.read(s, f, names) for s, f in crews.items()])

    def findings(self) -> list[str]:
        """Per crew the three threats behind the most losses (share of losses and loss rate when
        present), the deadliest threat per game it is in, and the losses that name no threat."""
        if self.every.lost == 0:
            return [WORDS.fill("threats.never_lost", games=self.every.games)]
        findings = []
        for crew in self.crews:
            who, parts = the_crew(crew.strategy), WORDS.joined("threats.part", crew.most(3))
            if crew.lost == 0:
                findings.append(WORDS.fill("threats.crew_never_lost", who=who.capitalize(), games=crew.games))
            elif parts:
                findings.append(WORDS.fill_from("threats.most", crew, who=who, parts=parts))
        drawn = [t for t in self.every.threats.values() if t.id and t.present >= MIN_DRAWN]
        if drawn:
            deadliest = min(drawn, key=lambda t: (-t.losses / t.present, t.id))
            findings.append(WORDS.fill_from("threats.deadliest", deadliest, least=MIN_DRAWN))
        if (unnamed := self.every.threats.get("")) is not None and unnamed.losses:
            findings.append(WORDS.fill_from("threats.unnamed", unnamed))
        return findings

    def tables(self) -> list[Table]:
        """The threats behind the most losses: share of losses, loss rate and destroyed rate when
        present."""
        top = self.every.most(TOP_THREATS)
        caption = WORDS.fill_from("threats.table", self.every, threats=len(top))
        return [kit.table(caption, THREAT_COLUMNS, top)] if self.every.lost else []

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The loss rate when present of the threats behind the most losses, per crew."""
        top = {t.id: t.label for t in self.every.most(TOP_THREATS)}
        if not top:
            return []
        crews = [c.strategy for c in self.crews]
        rates = {(t, c.strategy): c.threats[t].rate for c in self.crews for t in top if t in c.threats}
        rates = {at: rate for at, rate in rates.items() if rate.n}  # each crew's threats drawn
        ns = [iv.n for iv in rates.values()] or [0]
        height = min(12.0, max(3.2, 0.36 * len(top) * len(crews) ** 0.5 + 1.4))
        drawn = {"least": min(ns), "most": max(ns), "crews": len(crews) > 1}
        return [THREATS_CHART.draw(ctx, WORDS, top, crews, rates, height, 101, 20, **drawn)]


# --- 3. damage by zone --------------------------------------------------------------------------


DAMAGE_COLUMNS = (
    DIFFICULTY,
    CREW,
    ("games", "{games.height:,}"),
    *(column for z in ZONES for column in estimate_columns(f"{z} tiles", f"zones[{z}]")),
    *estimate_columns("all zones", "zones[all]"),
)
DAMAGE_CHART = kit.ChartWords("sa-damage", ("damage.chart", "damage.alt", "damage.caption"))


class Damage(Grid):
    """Section 3: the damage tiles of each zone per cell, and the zone a 7th tile destroyed."""

    # per cell the mean damage tiles in each zone and in all of them, with t intervals
    tables = kit.one_table(WORDS["damage.table"], DAMAGE_COLUMNS, "cells")

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Grid | None:
        """The cells, when the games record the damage tiles of each zone."""
        return super().read(ctx) if set(DAMAGE) <= set(ctx.dataset.games.columns) else None

    def findings(self) -> list[str]:
        """Per crew the most damaged zone and its paired excess over the least damaged one
        (Bonferroni over the zone pairs, then Holm over the crews), and which zone a 7th tile
        destroyed."""
        # per crew the most and least damaged zones, picked from every pair of zones
        crews = kit.pooled_games(self.cells, lambda c: c.crew)
        compared, findings = kit.extremes_by(crews, dict(zip(ZONES, DAMAGE, strict=True))), []
        for crew, (ends, resolved) in compared.verdicts.items():
            verdict = {"resolved": resolved, "zones": len(ZONES), "family": compared.family}
            more = "" if ends.most == ends.least else WORDS.fill_from("damage.more", ends, **verdict)
            findings.append(WORDS.fill_from("damage.most", ends, crew=crew, more=more))
        ended = "end_reason" in self.games.columns
        lost = self.games.filter(pl.col("end_reason") == "zone_destroyed") if ended else self.games.clear()
        if n := lost.height:  # one full zone: the zone destroyed; more than one: a tie
            share, ties = kit.sole_shares(lost, {z: pl.col(f"damage_{z}") >= TILES_PER_ZONE for z in ZONES})
            ties = WORDS.fill("damage.ties", ties=ties) if ties else "."
            findings.append(WORDS.fill("damage.destroyed", games=n, share=share, ties=ties))
        return findings

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Mean damage tiles per zone of each cell, one panel a crew, difficulties along x."""
        crews, xs = self.labels("crew"), self.labels("difficulty")
        with charts.stacked_panels(xs, len(crews), WORDS["charts.x_axis"], 0.7, sharey=True) as (fig, axes):
            for ax, crew in zip(axes, crews, strict=True):
                tiles = {(c.difficulty, z): c.zones[z] for c in self.cells if c.crew == crew for z in ZONES}
                charts.grouped_interval_bars(ax, xs, ZONES, tiles, 0.78, colours=ZONE_COLOURS, suffix=" zone")
                ax.set_ylabel(WORDS["damage.axis"])
                ax.set_title(WORDS.fill("damage.panel", crew=crew), loc="left", fontsize=9.5)
            charts.side_legend(axes[0])
            fig.suptitle(DAMAGE_CHART.heading(WORDS, ctx), x=0.01, ha="left", fontweight="bold", fontsize=11)
        items = WORDS.joined("damage.alt_item", self.cells[:16])
        games = count_range([c.games.height for c in self.cells], "games per cell")
        return [DAMAGE_CHART.save(ctx, WORDS, fig, items=items, games=games)]


# --- 4. the transcribed missions ----------------------------------------------------------------


MISSION_COLUMNS = (("mission", "{difficulty}"), CREW, ("rank", "{rank}"), GAMES, *SURVIVAL_SCORE)
MISSION_TEXTS = ("missions.chart", "missions.heading", "survival.axis", "missions.alt", "charts.ranked_item")
MISSIONS_CHART = kit.Ranked("sa-missions", (*MISSION_TEXTS, "missions.caption"), 8.0, 0.6, "crew")


@dataclass(frozen=True)
class Missions(kit.SectionModel):
    """The transcribed missions of each strategy, pooled over the other settings and ranked."""

    crews: list[tuple[str, list[CrewCell], kit.Ranking]]  # strategy, its missions ranked, compared
    others: dict[str, list[str]]  # each other setting the grid varies, and its values

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Missions | None:
        """Per strategy each transcribed mission's games pooled over the other settings, ranked
        hardest (lowest survival) first."""
        grid = Grid.read(ctx)
        mine = [c for c in grid.cells if c.settings.get("mission") in TRANSCRIBED]
        if not mine:
            return None
        keys, crews = list(mine[0].settings), []
        for s, part in kit.grouped(mine, "strategy").items():
            # hardest first: lowest survival, ties by mission number
            ranking = kit.ranked_along(part, "mission", keys, lambda m, g: (kit.win_rate(g).estimate, int(m)))
            pools = [CrewCell(m, {}, g, f"mission {m}", s, i) for i, (m, g) in enumerate(ranking.pools, 1)]
            crews.append((s, pools, ranking))
        return cls(crews, {k: kit.values(mine, k) for k in grid.varied if k not in ("mission", "strategy")})

    def findings(self) -> list[str]:
        """Per strategy the hardest and easiest mission and their paired gap (Bonferroni over the
        missions' pairs), and how many steps between neighbouring ranks are resolved (Holm)."""
        findings = []
        over = WORDS.fill("missions.over", settings=", ".join(self.others)) if self.others else ""
        for s, ranked, ranking in self.crews:
            hard, easy = ranked[0], ranked[-1]
            # the crew's words in each sentence: who, pooled over what, and the steps between ranks
            crew = {"who": the_crew(s), "over": over, "steps": len(ranking.steps)}
            if len(ranked) < 2:
                findings.append(WORDS.fill("missions.only_one", mission=hard.cell, rate=hard.win, **crew))
                continue
            # the gap between hardest and easiest, picked from every pair of the missions
            gap = WORDS.fill_from("missions.gap", ranking, missions=len(ranked)) if ranking.picked else ""
            findings.append(WORDS.fill("missions.extremes", hard=hard, easy=easy, gap=gap, **crew))
            if ranking.steps:
                pairs = count_range([p.wins.n for p in ranking.steps], "pairs of games a step")
                findings.append(WORDS.fill_from("missions.steps", ranking, pairs=pairs, **crew))
        return findings

    def tables(self) -> list[Table]:
        """Per strategy and mission, hardest first: games, survival and mean score with their
        intervals, and survival at each value of the other varied settings."""
        margins = kit.win_at_columns(self.others, "survival at {key}={value}", WORDS["missions.at"])
        ranked = [p for _, pools, _ in self.crews for p in pools]
        return [kit.table(WORDS["missions.table"], [*MISSION_COLUMNS, *margins], ranked)]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Survival of each transcribed mission per strategy, in the first strategy's ranking."""
        order = {p.cell: p.difficulty for p in self.crews[0][1]}  # "mission 3"
        survival = {(p.cell, s): p.win for s, ranked, _ in self.crews for p in ranked}
        right = min(101, max(10.0, 100 * max(iv.high for iv in survival.values()) * 1.1))
        height, strategies = max(3.2, 0.4 * len(order) + 1.6), [s for s, *_ in self.crews]
        games = per([iv for iv in survival.values() if iv.n], "mission")
        return [MISSIONS_CHART.draw(ctx, WORDS, order, strategies, survival, height, right, games=games)]


# --- the hook -----------------------------------------------------------------------------------

SECTIONS = [
    Survival.section("sa-survival", WORDS["survival.title"], WORDS["survival.how"]),
    Threats.section("sa-threats", WORDS["threats.title"], WORDS["threats.how"]),
    Damage.section("sa-damage", WORDS["damage.title"], WORDS["damage.how"]),
    Missions.section("sa-missions", WORDS["missions.title"], WORDS["missions.how"]),
]


def sections(ctx: AnalysisContext) -> list[GameSection]:
    """Space Alert's sections: none without games that carry a cell, a verdict and a score."""
    return kit.build(ctx, SECTIONS, ("cell", "won", "score"))
