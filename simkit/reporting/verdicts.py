"""The report's "Does the verdict hold?" section: where a dataset plays several strategies (rungs
of a strength ladder), each verdict the report makes is measured at every rung on its own, and the
section says whether it holds at every rung, flips between rungs, holds where resolved (unresolved
at the rungs it names), or is unresolved at every rung.

The verdicts come in parts, each a list of `Measure`s (one verdict at one rung) with how they read:
- the settings' verdicts, generic: where the strategy and a setting vary, each verdict along the
  setting (this value against the setting's first) at each rung is a paired comparison
  (`kit.paired_along`: game i of both cells saw the same seed), pooled over the rung's cells at
  every other setting: a win-rate difference (Tango's interval, McNemar's p) where the games have a
  win or loss, else a mean-score difference (paired t);
- a game's own verdicts, declared as `Mirror`s in its `analysis.py` (`VERDICTS`): verdicts about
  seats or cards read inside each mirror cell (every seat the same strategy, so a cell is one rung)
  by one of the game's section models, over the mirror cells of at least two strategies that agree
  in every other setting (a "table": "players=2").
All measures of all parts form one family, adjusted by Holm, so "resolved" survives the number of
verdicts and rungs it was picked from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

import polars as pl

from simkit.core import stats
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import ci_text, pct, points, settings_text

STRATEGY = "strategy"
Model = TypeVar("Model")
Item = TypeVar("Item")


@dataclass(frozen=True)
class Measure:
    """One verdict at one rung."""

    key: str
    base: str
    other: str
    rung: str
    difference: float  # other minus base: win-rate points (0-1) or score
    low: float
    high: float
    n: int
    p: float
    resolved: bool = False


@dataclass(frozen=True)
class Part:
    """One kind of verdict in the section: its measures (each verdict at each rung, in order), how
    they read (`subject`: the verdict in a finding; `row`: in the table), the tables of each rung's
    own numbers, and a paragraph on how they are measured ("{family}": the adjustment's text)."""

    measures: list[Measure]
    tables: list[Table]
    unit: str  # what a difference is counted in: "points of win rate"
    fmt: Callable[[float], str]
    subject: Callable[[Measure], str]
    row: Callable[[Measure], str]
    how: str
    test: str = "paired"  # the finding's name for the test: "(unit, 95 % CI, paired: ...)"
    caption: str = (
        "Each verdict at each rung: the difference ({unit}), its paired 95 % interval, and whether it "
        "is resolved after {family}"
    )


def _measure(cells: list[kit.Cell], key: str, base: str, other: str, rung: str, keys, by_wins: bool):
    paired = kit.paired_along([c for c in cells if c.settings[STRATEGY] == rung], key, base, other, keys)
    if paired is None:
        return None
    if by_wins:
        w = paired.wins
        return Measure(key, base, other, rung, w.difference, w.low, w.high, w.n, w.p_value)
    s = paired.score
    return Measure(key, base, other, rung, s.estimate, s.low, s.high, s.n, paired.score_p)


def _rung_rates(cells: list[kit.Cell], rungs: list[str], by_wins: bool) -> list[list[str]]:
    rows = []
    for rung in rungs:
        games = pl.concat([c.games.select("won", "score") for c in cells if c.settings[STRATEGY] == rung])
        if by_wins:
            won = games["won"].cast(pl.Boolean).drop_nulls()
            w = stats.wilson(int(won.sum()), won.len())
            rows.append([rung, f"{pct(w.estimate)} ({ci_text(w.low, w.high, pct)})", f"{w.n:,}"])
        else:
            m = stats.mean_interval(games["score"].cast(pl.Float64).drop_nulls().to_numpy())
            rows.append([rung, f"{m.estimate:.2f} (95 % CI {m.low:.2f} to {m.high:.2f})", f"{m.n:,}"])
    return rows


def _verdict(ms: list[Measure]) -> str:
    """Holds (resolved the same way at every rung), flips (resolved both ways), holds where
    resolved (one way, unresolved at the rungs named), or unresolved at every rung."""
    up = [m.rung for m in ms if m.resolved and m.difference > 0]
    down = [m.rung for m in ms if m.resolved and m.difference < 0]
    if up and down:
        return f"flips (up at {', '.join(up)}; down at {', '.join(down)})"
    if len(up) == len(ms) or len(down) == len(ms):
        return "holds at every rung"
    if up or down:
        return f"holds where resolved; unresolved at {', '.join(m.rung for m in ms if not m.resolved)}"
    return "unresolved at every rung"


SETTINGS_HOW = (
    "A verdict is about the players that played it. Each verdict along a setting (its value against "
    "the setting's first) is measured at every rung of the strategy ladder on its own, pooled over "
    "the rung's cells at the other settings and paired by seed. It holds when it is resolved the "
    "same way at every rung, flips when it is resolved one way at one rung and the other way at "
    "another, holds where resolved when it goes one way where resolved and is unresolved at the "
    "rungs named (a weak rung rarely resolves anything). Resolved means after {family}."
)


def _settings_part(ctx: AnalysisContext) -> Part | None:
    """The settings' verdicts, where the dataset varies the strategy and at least one setting."""
    keys = kit.setting_keys(ctx)
    cells = kit.cells(ctx, keys)
    varied = kit.varied(cells, keys)
    if STRATEGY not in varied or len(varied) < 2:
        return None
    rungs = kit.values(cells, STRATEGY)
    by_wins = bool(ctx.dataset.games["won"].is_not_null().any())
    measures = []
    for key in (k for k in varied if k != STRATEGY):
        values = kit.values(cells, key)
        for other in values[1:]:
            for rung in rungs:
                m = _measure(cells, key, values[0], other, rung, keys, by_wins)
                if m is not None:
                    measures.append(m)
    rates = Table(
        "Each rung over all its cells: " + ("win rate" if by_wins else "mean score"),
        ["rung (strategy)", "win rate" if by_wins else "mean score", "games"],
        _rung_rates(cells, rungs, by_wins),
    )
    return Part(
        measures,
        [rates],
        "points of win rate" if by_wins else "points of score",
        points if by_wins else (lambda x: f"{x:+.2f}"),
        lambda m: f"{m.key}={m.other} against {m.key}={m.base}",
        lambda m: f"{m.key}={m.other} vs {m.base}",
        SETTINGS_HOW,
    )


# --- a game's own verdicts, read in mirror cells ---------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One verdict read in one cell: `other` against `base` (the interval's estimate is other less
    base) and the p-value of the test behind it."""

    base: str
    other: str
    interval: stats.Interval
    p: float


@dataclass(frozen=True)
class Ladder:
    """Mirror cells of at least two strategies that agree in every other setting: the settings
    that tell this table from the dataset's others (empty: it is the only one), and the cell of
    each rung (strategy), in the manifest's order."""

    settings: dict[str, str]
    rungs: dict[str, kit.Cell]


def ladders(ctx: AnalysisContext) -> list[Ladder]:
    """The dataset's mirror ladders: its mirror cells (every seat the same strategy, as the
    manifest lists a cell's seats; else the games' strategy column, a seat's name or one a seat
    joined by commas) by their other settings, where at least two strategies play them."""
    keys = kit.setting_keys(ctx)
    if STRATEGY not in keys:
        return []
    listed = {str(c.get("cell")): c.get("strategy") for c in ctx.dataset.manifest.get("cells") or []}
    tables: dict[tuple, dict[str, kit.Cell]] = {}
    for cell in kit.cells(ctx, keys):
        seats = listed.get(cell.cell) or cell.settings[STRATEGY].split(",")
        names = set(seats) if isinstance(seats, list) else {str(seats)}
        if len(names) == 1:
            rest = tuple(cell.settings[k] for k in keys if k != STRATEGY)
            tables.setdefault(rest, {}).setdefault(names.pop(), cell)
    found = [(rest, rungs) for rest, rungs in tables.items() if len(rungs) >= 2]
    others = [k for k in keys if k != STRATEGY]
    varied = [i for i, _ in enumerate(others) if len({rest[i] for rest, _ in found}) > 1]
    return [Ladder({others[i]: rest[i] for i in varied}, rungs) for rest, rungs in found]


@dataclass(frozen=True)
class Mirror(Generic[Model, Item]):
    """A game's verdicts read in its mirror cells, declared in its `analysis.py` as one of
    `VERDICTS`: `read(ctx)` is the section model that holds them (None: nothing to read),
    `items(model)` the model's part for each cell (by cell id), `readings(item)` the verdicts read
    there, and `columns` each rung's own numbers (a table column's header, how an item reads in it:
    a function or a template, as `kit.table`'s).
    `unit`, `fmt`, `test`, `how` and `caption` are `Part`'s, `rungs` the caption of the table of
    each rung's numbers. A ladder's verdicts are named by the settings that tell it from the
    others ("players=2")."""

    read: Callable[[AnalysisContext], Model | None]
    items: Callable[[Model], Mapping[str, Item]]
    readings: Callable[[Item], list[Reading]]
    columns: Sequence[tuple[str, kit.Reads]]
    unit: str
    fmt: Callable[[float], str]
    test: str
    how: str
    caption: str
    rungs: str

    def part(self, ctx: AnalysisContext) -> Part | None:
        """Every reading at every rung of every mirror ladder (None: no ladder, or no model)."""
        found = ladders(ctx)
        model = self.read(ctx) if found else None
        if model is None:
            return None
        items, measures, rows = self.items(model), [], []
        for ladder in found:
            name = settings_text(ladder.settings, sep=", ")
            for rung, cell in ladder.rungs.items():
                if (item := items.get(cell.cell)) is None:
                    continue
                rows.append(
                    [
                        name,
                        rung,
                        f"{cell.games.height:,}",
                        *(kit.cell_text(how, item) for _, how in self.columns),
                    ]
                )
                for r in self.readings(item):
                    iv = r.interval
                    measures.append(
                        Measure(name, r.base, r.other, rung, iv.estimate, iv.low, iv.high, iv.n, r.p)
                    )
        headers = ["table", "rung (strategy)", "games", *(header for header, _ in self.columns)]
        return Part(
            measures,
            [Table(self.rungs, headers, rows)],
            self.unit,
            self.fmt,
            lambda m: f"{m.key + ', ' if m.key else ''}{m.other} against {m.base}",
            lambda m: f"{m.key + ': ' if m.key else ''}{m.other} vs {m.base}",
            self.how,
            self.test,
            self.caption,
        )


# --- the section ---------------------------------------------------------------------------------


def _write(part: Part, measures: list[Measure], family: str) -> tuple[list[str], Table]:
    """A part's findings (one a verdict) and its table (each verdict at each rung)."""
    verdicts: dict[tuple[str, str, str], list[Measure]] = {}
    for m in measures:
        verdicts.setdefault((m.key, m.base, m.other), []).append(m)
    fmt, findings, rows = part.fmt, [], []
    for ms in verdicts.values():
        outcome = _verdict(ms)
        where = "; ".join(
            f"{m.rung} {fmt(m.difference)} ({fmt(m.low)} to {fmt(m.high)}"
            + (", resolved)" if m.resolved else ", not resolved)")
            for m in ms
        )
        findings.append(f"{part.subject(ms[0])}: {outcome} ({part.unit}, 95 % CI, {part.test}: {where}).")
        for m in ms:
            rows.append(
                [
                    part.row(m),
                    m.rung,
                    fmt(m.difference),
                    f"{fmt(m.low)} to {fmt(m.high)}",
                    f"{m.n:,}",
                    "resolved" if m.resolved else "not resolved",
                    outcome,
                ]
            )
    columns = ["verdict", "rung", "difference", "95 % CI", "pairs", "after adjustment", "over the rungs"]
    return findings, Table(part.caption.format(unit=part.unit, family=family), columns, rows)


def section(ctx: AnalysisContext, mirrors: Sequence[Mirror] = ()) -> GameSection | None:
    """The section, where the dataset varies the strategy and at least one setting, or holds
    mirror cells of two strategies that a game's `mirrors` read verdicts in (else None)."""
    parts = [
        p for p in (_settings_part(ctx), *(m.part(ctx) for m in mirrors)) if p is not None and p.measures
    ]
    if not parts:
        return None
    everything = [m for part in parts for m in part.measures]
    resolved = iter(stats.resolved([m.p for m in everything]))
    family = stats.family_text(len(everything))
    findings, paragraphs, tables = [], [], []
    for part in parts:
        said, table = _write(part, [replace(m, resolved=bool(next(resolved))) for m in part.measures], family)
        findings += said
        paragraphs.append(part.how.format(family=family))
        tables += [*part.tables, table]
    return GameSection("verdicts", "Does the verdict hold?", findings, paragraphs, [], tables)
