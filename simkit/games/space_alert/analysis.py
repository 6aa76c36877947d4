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

import math
from dataclasses import dataclass
from functools import cached_property, reduce
from itertools import pairwise
from typing import NamedTuple

import matplotlib
import polars as pl

from simkit.core import stats
from simkit.games.space_alert import components
from simkit.games.space_alert.components import ZONES
from simkit.reporting import charts, kit
from simkit.reporting.kit import estimate_columns
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import count_range, plural

WORDS = kit.words(__package__)

CREW_KEYS = ("strategy", "players", "figures")
ZONE_COLOURS = ("#D55E00", "#000000", "#0072B2")  # Okabe-Ito vermillion, black, blue
DAMAGE = [f"damage_{z}" for z in ZONES]
TILES_PER_ZONE = 6
TOP_THREATS = 15
MIN_DRAWN = 30  # the deadliest threat per game it is in is picked from those drawn this often
TRANSCRIBED = {str(i) for i in range(1, 9)}


def _games_per(ns, what: str = "cell") -> str:
    return count_range([n for n in ns if n], f"games per {what}")


def _losses(frame: pl.DataFrame) -> int:
    return int((~frame["won"].cast(pl.Boolean).fill_null(True)).sum())


def _transcribed(key: str, value: str) -> bool:
    return key == "mission" and value in TRANSCRIBED


def _crew(strategy: str) -> str:
    return f"the {strategy} crew" if strategy else "the crew"


# --- cells --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrewCell(kit.Cell):
    """A cell (or cells pooled) with its difficulty label (the varied settings but the crew's), its
    crew label, and over its games: survival (Wilson), mean score and damage tiles (t)."""

    difficulty: str = ""
    crew: str = ""

    @cached_property
    def surv(self) -> stats.Interval:
        return kit.win_rate(self.games)

    @cached_property
    def survived(self) -> int:
        return int(self.games["won"].cast(pl.Boolean).sum())

    @cached_property
    def score(self) -> stats.Interval:
        return kit.mean_of(self.games, "score")

    def at(self, key: str, value: str) -> stats.Interval:
        """Survival over the games with setting `key` at `value`."""
        return kit.win_rate(self.games.filter(pl.col(key).cast(pl.String) == value))

    @cached_property
    def zones(self) -> dict[str, stats.Interval]:
        """The damage tiles a game in each zone."""
        return {z: kit.mean_of(self.games, f"damage_{z}") for z in ZONES}

    @cached_property
    def damage(self) -> stats.Interval:
        """The damage tiles a game in all zones."""
        total = sum(pl.col(k).cast(pl.Float64) for k in DAMAGE).alias("t")
        return kit.mean_of(self.games.select(total), "t")


def _strategies(cells: list[CrewCell]) -> list[str]:
    return list(dict.fromkeys(c.settings.get("strategy", "") for c in cells))


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

        def named(s: dict[str, str], keys) -> list[str]:
            return [f"{k}={s[k]}" for k in keys if k in s]

        def labelled(c: kit.Cell) -> CrewCell:
            s = c.settings
            # with nothing varied, the fixed mission and decks still say which difficulty this is
            fixed = named(s, ("mission", "common", "serious"))
            difficulty = " ".join(named(s, difficulty_keys) or fixed) or "all games"
            crew = " ".join([s.get("strategy", "crew"), *named(s, size_keys)])
            return CrewCell(c.cell, s, c.games, difficulty, crew)

        return cls(ctx.dataset.games, [labelled(c) for c in cells], varied)


# --- 1. survival and score ----------------------------------------------------------------------


SURVIVAL_COLUMNS = (
    ("difficulty", "{difficulty}"),
    ("crew", "{crew}"),
    ("games", "{surv.n:,}"),
    ("survived", "{survived:,}"),
    *estimate_columns("survival", "surv", rate=True),
    *estimate_columns("mean score", "score"),
)


class Survival(Grid):
    """Section 1: survival and mean score per cell, and each varied setting's effect on them."""

    def findings(self) -> list[str]:
        """The range of survival over the cells (or the one cell's survival and score), then every
        other value of each varied setting against its first, as pairs of games, per strategy when
        it varies and is not the setting compared, resolved or not after Holm over all of them
        (survival and score each a family). Random mission types only: the transcribed missions
        are section 4's."""
        decided = [c for c in self.cells if c.surv.n > 0]
        findings = []
        if len(decided) > 1:
            lo, hi = (pick(decided, key=lambda c: c.surv.estimate) for pick in (min, max))
            findings.append(WORDS.fill("survival.range", lo=lo, hi=hi))
        elif decided:
            findings.append(WORDS.fill_from("survival.one_cell", decided[0]))
        keys = list(self.cells[0].settings)
        compared = kit.along_settings(self.cells, keys, self.varied, skip=_transcribed)
        wins = stats.family([c.paired.wins.p_value for c in compared])
        scores = stats.family([c.paired.score_p for c in compared])
        for c, won, scored in zip(compared, wins.resolved, scores.resolved, strict=True):
            who = _crew(c.group) if c.group else ""
            others = [k for k in self.varied if k != c.key and not (k == "strategy" and c.group)]
            values = {"setting": f"{c.key}={c.other}", "against": f"{c.key}={c.base}", "wins": c.paired.wins}
            head = WORDS.fill("survival.resolved" if won else "survival.unresolved", **values)
            subject = WORDS.fill("survival.for_crew", who=who) if who else WORDS["survival.all"]
            over = WORDS.fill("survival.over", settings=", ".join(others)) if others else ""
            more = {
                "cells": plural(c.paired.cells, "matched cell"),
                "scored": bool(scored),
                "family": wins.text,
            }
            findings.append(
                WORDS.fill_from("survival.compared", c.paired, subject=subject, head=head, over=over, **more)
            )
        return findings

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Survival and mean score of each cell: difficulties along x, one colour and marker a crew."""
        if not any(c.surv.n for c in self.cells):
            return []
        xs, crews = self.labels("difficulty"), self.labels("crew")
        with matplotlib.rc_context(charts.STYLE):
            fig = charts.new_figure(min(14.0, max(6.5, len(xs) * (0.55 + 0.12 * len(crews)) + 3.0)), 7.2)
            top, bottom = fig.subplots(2, 1, sharex=True)
            for ax, what, scale in ((top, "surv", 100.0), (bottom, "score", 1.0)):
                by_x_crew = {(c.difficulty, c.crew): getattr(c, what) for c in self.cells}
                charts.grouped_interval_dots(ax, xs, crews, by_x_crew, scale)
            top.set_ylim(-1.5, 101.5)
            top.set_ylabel(WORDS["survival.axis"])
            bottom.set_ylabel(WORDS["survival.score_axis"])
            charts.category_ticks(bottom, xs)
            bottom.set_xlabel(WORDS["charts.x_axis"])
            top.set_title(WORDS.fill("survival.heading", subject=ctx.subject), loc="left")
            top.legend(title="crew", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
        items = [WORDS.fill_from("survival.alt_item", c) for c in self.cells]
        alt = WORDS.fill("survival.alt", subject=ctx.subject, items=charts.alt_list(items))
        caption = WORDS.fill("survival.caption", games=_games_per(c.surv.n for c in self.cells))
        return [kit.save(ctx, fig, "sa-survival", WORDS["survival.chart"], alt, caption)]

    def tables(self) -> list[Table]:
        """Per cell: games, games survived, survival and mean score with their intervals."""
        return [kit.table(WORDS["survival.table"], SURVIVAL_COLUMNS, self.cells)]


# --- 2. threats behind losses -------------------------------------------------------------------


def _ids(frame: pl.DataFrame, col: str) -> pl.DataFrame:
    """(row, id) for a comma-separated id column."""
    split = pl.col(col).fill_null("").str.split(",").alias("id")
    pairs = frame.select(pl.int_range(pl.len()).alias("row"), split).explode("id")
    return pairs.filter(pl.col("id").str.len_chars() > 0).unique()


def _threat_counts(frame: pl.DataFrame) -> pl.DataFrame:
    """Per threat id: games it was in (present), games it was destroyed in, games lost to it."""
    lost = frame.filter(~pl.col("won").cast(pl.Boolean).fill_null(True))
    counts = [
        _ids(frame, "threat_ids").group_by("id").agg(present=pl.len()),
        _ids(frame, "destroyed_ids").group_by("id").agg(destroyed=pl.len()),
        lost.select(pl.col("lost_to").fill_null("").alias("id")).group_by("id").agg(losses=pl.len()),
    ]
    return reduce(lambda a, b: a.join(b, on="id", how="full", coalesce=True), counts).fill_null(0)


def _most_losses(counts: pl.DataFrame, n: int) -> pl.DataFrame:
    """The `n` named threats behind the most losses, most first (ties by id)."""
    named = counts.filter((pl.col("id") != "") & (pl.col("losses") > 0))
    return named.sort(["losses", "id"], descending=[True, False]).head(n)


class Threat(NamedTuple):
    """A threat behind losses, over some games: the games it was in, lost to it and destroyed it
    in, its share of the `lost` losses of those games, and its loss and destroyed rates when
    present (Wilson)."""

    label: str
    present: int
    losses: int
    lost: int
    share: stats.Interval
    rate: stats.Interval
    killed: stats.Interval


THREAT_COLUMNS = (
    ("threat", "{label}"),
    ("games present", "{present:,}"),
    ("losses to it", "{losses:,}"),
    *estimate_columns("share of losses", "share", rate=True),
    *estimate_columns("loss rate when present", "rate", rate=True),
    *estimate_columns("destroyed when present", "killed", rate=True),
)


@dataclass(frozen=True)
class Threats(kit.SectionModel):
    """The threats' counts over every game and per crew, and their names."""

    games: pl.DataFrame
    counts: pl.DataFrame  # per threat, every cell pooled (see _threat_counts)
    crews: list[tuple[str, pl.DataFrame, pl.DataFrame]]  # strategy, its games, its counts
    names: dict[str, str]  # threat names by id

    def label(self, tid: str) -> str:
        return f"{tid} {self.names[tid]}" if tid in self.names else tid

    def most(self, counts: pl.DataFrame, n: int, lost: int) -> list[Threat]:
        """The `n` threats behind the most losses of `counts`, of `lost` losses in all."""
        out = []
        for r in _most_losses(counts, n).iter_rows(named=True):
            losses, present = r["losses"], r["present"]
            rates = (
                stats.wilson(losses, lost),
                stats.wilson(losses, present),
                stats.wilson(r["destroyed"], present),
            )
            out.append(Threat(self.label(r["id"]), present, losses, lost, *rates))
        return out

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Threats | None:
        """Per threat the games it was in, destroyed in and lost to: every cell pooled, and per
        strategy when the strategy varies."""
        games = ctx.dataset.games
        if not {"lost_to", "threat_ids", "destroyed_ids", "won"} <= set(games.columns):
            return None
        strategies = _strategies(Grid.read(ctx).cells)
        crews = [(strategies[0], games)]
        if len(strategies) > 1:
            crews = [(s, games.filter(pl.col("strategy").cast(pl.String) == s)) for s in strategies]
        try:
            names = {t.id: t.name for t in components.load(None).threats}
        except Exception:  # noqa: BLE001 (names are a nicety; ids stand alone)
            names = {}
        return cls(games, _threat_counts(games), [(s, f, _threat_counts(f)) for s, f in crews], names)

    def findings(self) -> list[str]:
        """Per crew the three threats behind the most losses (share of losses and loss rate when
        present), the deadliest threat per game it is in, and the losses that name no threat."""
        losses = _losses(self.games)
        if losses == 0:
            return [WORDS.fill("threats.never_lost", games=self.games.height)]
        findings = []
        for s, f, counts in self.crews:
            lost, who = _losses(f), _crew(s)
            parts = [WORDS.fill_from("threats.part", t) for t in self.most(counts, 3, lost)]
            if lost == 0:
                findings.append(WORDS.fill("threats.crew_never_lost", who=who.capitalize(), games=f.height))
            elif parts:
                findings.append(WORDS.fill("threats.most", who=who, games=f.height, parts="; ".join(parts)))
        drawn = self.counts.filter((pl.col("id") != "") & (pl.col("present") >= MIN_DRAWN))
        if drawn.height:
            rates = drawn.with_columns(rate=pl.col("losses") / pl.col("present"))
            r = rates.sort(["rate", "id"], descending=[True, False]).row(0, named=True)
            rate = stats.wilson(r["losses"], r["present"])
            findings.append(
                WORDS.fill("threats.deadliest", least=MIN_DRAWN, threat=self.label(r["id"]), rate=rate)
            )
        unnamed = int(self.counts.filter(pl.col("id") == "")["losses"].sum())
        if unnamed:
            share = stats.wilson(unnamed, losses)
            findings.append(WORDS.fill("threats.unnamed", count=unnamed, losses=losses, share=share))
        return findings

    def tables(self) -> list[Table]:
        """The threats behind the most losses: share of losses, loss rate and destroyed rate when
        present."""
        losses = _losses(self.games)
        if not losses:
            return []
        top = self.most(self.counts, TOP_THREATS, losses)
        caption = WORDS.fill("threats.table", threats=len(top), games=self.games.height, losses=losses)
        return [kit.table(caption, THREAT_COLUMNS, top)]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """The loss rate when present of the threats behind the most losses, per crew."""
        ids = _most_losses(self.counts, TOP_THREATS)["id"].to_list()
        if not ids:
            return []
        crews, rates = [s for s, *_ in self.crews], {}
        for s, _, counts in self.crews:
            by_id = {r["id"]: r for r in counts.iter_rows(named=True) if r["present"] > 0}
            rates |= {
                (t, s): stats.wilson(by_id[t]["losses"], by_id[t]["present"]) for t in ids if t in by_id
            }
        height = min(12.0, max(3.2, 0.36 * len(ids) * max(1, len(crews)) ** 0.5 + 1.4))
        with charts.one_panel(9.0, height) as (fig, ax):
            charts.ranked_rates(ax, ids, [self.label(t) for t in ids], crews, rates, 0.7, "crew", fontsize=8)
            ax.set_xlim(-1, 101)
            ax.set_xlabel(WORDS["threats.axis"])
            ax.set_title(WORDS.fill("threats.heading", subject=ctx.subject), loc="left")
        items = [
            WORDS.fill("threats.alt_item", threat=self.label(t), crew=s, rate=iv)
            for (t, s), iv in rates.items()
        ]
        alt = WORDS.fill("threats.alt", items="; ".join(items[:20]))
        ns = [iv.n for iv in rates.values()] or [0]
        caption = WORDS.fill("threats.caption", least=min(ns), most=max(ns))
        if len(crews) > 1:
            caption += " " + WORDS["threats.crews"]
        return [kit.save(ctx, fig, "sa-threats", WORDS["threats.chart"], alt, caption)]


# --- 3. damage by zone --------------------------------------------------------------------------


DAMAGE_COLUMNS = (
    ("difficulty", "{difficulty}"),
    ("crew", "{crew}"),
    ("games", "{games.height:,}"),
    *(column for z in ZONES for column in estimate_columns(f"{z} tiles", f"zones[{z}]")),
    *estimate_columns("all zones", "damage"),
)


class Damage(Grid):
    """Section 3: the damage tiles of each zone per cell, and the zone a 7th tile destroyed."""

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Grid | None:
        """The cells, when the games record the damage tiles of each zone."""
        return super().read(ctx) if set(DAMAGE) <= set(ctx.dataset.games.columns) else None

    def findings(self) -> list[str]:
        """Per crew the most damaged zone and its paired excess over the least damaged one
        (Bonferroni over the zone pairs, then Holm over the crews), and which zone a 7th tile
        destroyed."""
        pairs, zones, findings = len(ZONES) * (len(ZONES) - 1) // 2, [], []
        for crew in self.labels("crew"):
            frame = pl.concat([c.games.select(DAMAGE) for c in self.cells if c.crew == crew])
            tiles = {z: frame[f"damage_{z}"].cast(pl.Float64).to_numpy() for z in ZONES}
            most, least = (pick(ZONES, key=lambda z: float(tiles[z].mean())) for pick in (max, min))
            gap = tiles[most] - tiles[least]
            # the most and least damaged zones were picked from every pair of zones
            p = min(1.0, stats.mean_p_value(gap) * pairs) if most != least else math.nan
            found = {"crew": crew, "games": frame.height, "most": most, "least": least, "p": p}
            zones.append(found | {"tiles": stats.mean_interval(tiles[most]), "gap": stats.mean_interval(gap)})
        family = stats.family([z["p"] for z in zones])
        for z, resolved in zip(zones, family.resolved, strict=True):
            more = {"resolved": bool(resolved), "zones": len(ZONES), "pairs": pairs, "family": family.text}
            more = WORDS.fill("damage.more", **more, **z)
            findings.append(WORDS.fill("damage.most", more="" if math.isnan(z["p"]) else more, **z))
        ended = "end_reason" in self.games.columns
        lost = self.games.filter(pl.col("end_reason") == "zone_destroyed") if ended else self.games.clear()
        full = lost.select(
            [(pl.col(k) >= TILES_PER_ZONE).alias(z) for k, z in zip(DAMAGE, ZONES, strict=True)]
        )
        only = {z: full.filter(pl.col(z) & (pl.sum_horizontal(ZONES) == 1)).height for z in ZONES}
        if lost.height:
            ties = lost.height - sum(only.values())
            shares = ", ".join(
                WORDS.fill("damage.zone_share", zone=z, share=stats.wilson(only[z], lost.height))
                for z in ZONES
            )
            ties = WORDS.fill("damage.ties", ties=ties) if ties else "."
            findings.append(WORDS.fill("damage.destroyed", games=lost.height, zones=shares, ties=ties))
        return findings

    def tables(self) -> list[Table]:
        """Per cell the mean damage tiles in each zone and in all of them, with t intervals."""
        return [kit.table(WORDS["damage.table"], DAMAGE_COLUMNS, self.cells)]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Mean damage tiles per zone of each cell, one panel a crew, difficulties along x."""
        crews, xs = self.labels("crew"), self.labels("difficulty")
        with matplotlib.rc_context(charts.STYLE):
            fig = charts.new_figure(
                min(14.0, max(6.5, len(xs) * 0.7 + 3.0)), min(16.0, 2.6 * len(crews) + 1.6)
            )
            axes = fig.subplots(len(crews), 1, sharex=True, sharey=True, squeeze=False)[:, 0]
            for ax, crew in zip(axes, crews, strict=True):
                mine = {c.difficulty: c for c in self.cells if c.crew == crew}
                for zi, z in enumerate(ZONES):
                    bars = [(i + (zi - 1) * 0.26, mine[x].zones[z]) for i, x in enumerate(xs) if x in mine]
                    bars = [(x, iv) for x, iv in bars if iv.n > 0]
                    where, intervals = [x for x, _ in bars], [iv for _, iv in bars]
                    charts.interval_bars(ax, where, intervals, 0.26, ZONE_COLOURS[zi], f"{z} zone")
                ax.set_ylabel(WORDS["damage.axis"])
                ax.set_title(WORDS.fill("damage.panel", crew=crew), loc="left", fontsize=9.5)
            charts.category_ticks(axes[-1], xs)
            axes[-1].set_xlabel(WORDS["charts.x_axis"])
            axes[0].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
            heading = WORDS.fill("damage.heading", subject=ctx.subject)
            fig.suptitle(heading, x=0.01, ha="left", fontweight="bold", fontsize=11)
        zones = [
            ", ".join(WORDS.fill("damage.alt_zone", zone=z, tiles=c.zones[z]) for z in ZONES)
            for c in self.cells
        ]
        items = [
            WORDS.fill_from("damage.alt_item", c, zones=z) for c, z in zip(self.cells, zones, strict=True)
        ]
        alt = WORDS.fill("damage.alt", items="; ".join(items[:16]))
        caption = WORDS.fill("damage.caption", games=_games_per(c.games.height for c in self.cells))
        return [kit.save(ctx, fig, "sa-damage", WORDS["damage.chart"], alt, caption)]


# --- 4. the transcribed missions ----------------------------------------------------------------


class Ranked(NamedTuple):
    """A transcribed mission's games for one strategy (its crew), pooled over the other settings,
    and its rank."""

    rank: int  # 1: the hardest (lowest survival)
    pool: CrewCell


MISSION_COLUMNS = (
    ("mission", "{pool.difficulty}"),
    ("crew", "{pool.crew}"),
    ("rank", "{rank}"),
    ("games", "{pool.surv.n:,}"),
    *estimate_columns("survival", "pool.surv", rate=True),
    *estimate_columns("mean score", "pool.score"),
)


@dataclass(frozen=True)
class Missions(kit.SectionModel):
    """The transcribed missions of each strategy, pooled over the other settings and ranked."""

    cells: list[CrewCell]  # the cells playing a transcribed mission
    crews: list[tuple[str, list[CrewCell], list[CrewCell]]]  # strategy, its cells, its missions ranked
    others: list[str]  # the other settings the grid varies (not the mission, not the strategy)

    @classmethod
    def read(cls, ctx: AnalysisContext) -> Missions | None:
        """Per strategy each transcribed mission's games pooled over the other settings, ranked
        hardest (lowest survival) first."""
        grid = Grid.read(ctx)
        mine = [c for c in grid.cells if c.settings.get("mission") in TRANSCRIBED]
        if not mine:
            return None
        crews = []
        for s in _strategies(mine):
            cells = [c for c in mine if c.settings.get("strategy", "") == s]
            games = {
                mission: pl.concat([c.games for c in cells if c.settings["mission"] == mission])
                for mission in kit.values(cells, "mission")
            }
            pools = [
                CrewCell(mission, {}, frame, f"mission {mission}", s) for mission, frame in games.items()
            ]
            crews.append((s, cells, sorted(pools, key=lambda p: (p.surv.estimate, int(p.cell)))))
        return cls(mine, crews, [k for k in grid.varied if k not in ("mission", "strategy")])

    def findings(self) -> list[str]:
        """Per strategy the hardest and easiest mission and their paired gap (Bonferroni over the
        missions' pairs), and how many steps between neighbouring ranks are resolved (Holm)."""
        findings, keys = [], list(self.cells[0].settings)
        over = WORDS.fill("missions.over", settings=", ".join(self.others)) if self.others else ""
        for s, cells, ranked in self.crews:
            who, hard, easy = _crew(s), ranked[0], ranked[-1]
            if len(ranked) < 2:
                findings.append(WORDS.fill("missions.only_one", who=who, mission=hard.cell, rate=hard.surv))
                continue
            paired, gap = kit.paired_along(cells, "mission", hard.cell, easy.cell, keys), ""
            if paired is not None:
                # hardest and easiest were picked from every pair of the missions
                picked_from = len(ranked) * (len(ranked) - 1) // 2
                resolved = bool(min(1.0, paired.wins.p_value * picked_from) < stats.ALPHA)
                values = {"resolved": resolved, "missions": len(ranked), "pairs": picked_from}
                gap = WORDS.fill("missions.gap", wins=paired.wins, **values)
            findings.append(
                WORDS.fill("missions.extremes", who=who, over=over, hard=hard, easy=easy, gap=gap)
            )
            steps = [kit.paired_along(cells, "mission", a.cell, b.cell, keys) for a, b in pairwise(ranked)]
            steps = [p for p in steps if p is not None]
            if steps:
                family = stats.family([p.wins.p_value for p in steps])
                resolved = f"{int(family.resolved.sum())} of the {len(steps)}"
                pairs = count_range([p.wins.n for p in steps], "pairs of games a step")
                findings.append(
                    WORDS.fill("missions.steps", who=who, resolved=resolved, family=family.text, pairs=pairs)
                )
        return findings

    def tables(self) -> list[Table]:
        """Per strategy and mission, hardest first: games, survival and mean score with their
        intervals, and survival at each value of the other varied settings."""
        margins = [
            (f"survival at {k}={v}", lambda r, k=k, v=v: WORDS.fill("missions.at", rate=r.pool.at(k, v)))
            for k in self.others
            for v in kit.values(self.cells, k)
        ]
        ranks = [Ranked(rank, p) for _, _, ranked in self.crews for rank, p in enumerate(ranked, 1)]
        return [kit.table(WORDS["missions.table"], [*MISSION_COLUMNS, *margins], ranks)]

    def charts(self, ctx: AnalysisContext) -> list[charts.Chart]:
        """Survival of each transcribed mission per strategy, in the first strategy's ranking."""
        order, strategies = [p.cell for p in self.crews[0][2]], [s for s, *_ in self.crews]
        survival = {(p.cell, s): p.surv for s, _, ranked in self.crews for p in ranked}
        with charts.one_panel(8.0, max(3.2, 0.4 * len(order) + 1.6)) as (fig, ax):
            charts.ranked_rates(ax, order, [f"mission {x}" for x in order], strategies, survival, 0.6, "crew")
            top = max((100 * iv.high for iv in survival.values() if not math.isnan(iv.high)), default=100.0)
            ax.set_xlim(-1, min(101, max(10.0, top * 1.1)))
            ax.set_xlabel(WORDS["survival.axis"])
            ax.set_title(WORDS.fill("missions.heading", subject=ctx.subject), loc="left")
        items = [
            WORDS.fill("missions.alt_item", mission=x, crew=s, rate=iv) for (x, s), iv in survival.items()
        ]
        alt = WORDS.fill("missions.alt", items="; ".join(items))
        caption = WORDS.fill(
            "missions.caption", games=_games_per((iv.n for iv in survival.values()), "mission")
        )
        return [kit.save(ctx, fig, "sa-missions", WORDS["missions.chart"], alt, caption)]


# --- the hook -----------------------------------------------------------------------------------

SECTIONS = [
    Survival.section("sa-survival", WORDS["survival.title"], WORDS["survival.how"]),
    Threats.section("sa-threats", WORDS["threats.title"], WORDS["threats.how"]),
    Damage.section("sa-damage", WORDS["damage.title"], WORDS["damage.how"]),
    Missions.section("sa-missions", WORDS["missions.title"], WORDS["missions.how"]),
]


def sections(ctx: AnalysisContext) -> list[GameSection]:
    """Space Alert's sections: none without games that carry a cell, a verdict and a score."""
    games = ctx.dataset.games
    if games.height == 0 or not {"cell", "won", "score"} <= set(games.columns):
        return []
    return kit.build(ctx, SECTIONS)
