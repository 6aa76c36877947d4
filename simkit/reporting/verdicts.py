"""The report's "Does the verdict hold?" section: where a dataset plays several strategies (rungs
of a strength ladder) over a grid of settings, each verdict along a setting (this value against
the setting's first) is measured at every rung on its own, and the section says whether it holds at
every rung, flips between rungs, holds where resolved (unresolved at the rungs it names), or is
unresolved at every rung.

Each verdict at each rung is a paired comparison (`kit.paired_along`: game i of both cells saw the
same seed), pooled over the rung's cells at every other setting: a win-rate difference (Tango's
interval, McNemar's p) where the games have a win or loss, else a mean-score difference (paired t).
All of them form one family, adjusted by Holm, so "resolved" survives the number of verdicts and
rungs it was picked from.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import polars as pl

from simkit.core import stats
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext, GameSection, Table
from simkit.reporting.text import ci_text, pct, points

STRATEGY = "strategy"


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


def section(ctx: AnalysisContext) -> GameSection | None:
    """The section, where the dataset varies the strategy and at least one setting (else None)."""
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
    if not measures:
        return None
    resolved = stats.resolved([m.p for m in measures])
    measures = [replace(m, resolved=bool(r)) for m, r in zip(measures, resolved, strict=True)]
    unit = "points of win rate" if by_wins else "points of score"
    fmt = points if by_wins else (lambda x: f"{x:+.2f}")
    verdicts: dict[tuple[str, str, str], list[Measure]] = {}
    for m in measures:
        verdicts.setdefault((m.key, m.base, m.other), []).append(m)
    findings, rows = [], []
    for (key, base, other), ms in verdicts.items():
        outcome = _verdict(ms)
        where = "; ".join(
            f"{m.rung} {fmt(m.difference)} ({fmt(m.low)} to {fmt(m.high)}"
            + (", resolved)" if m.resolved else ", not resolved)")
            for m in ms
        )
        findings.append(f"{key}={other} against {key}={base}: {outcome} ({unit}, 95 % CI, paired: {where}).")
        for m in ms:
            rows.append(
                [
                    f"{key}={other} vs {base}",
                    m.rung,
                    fmt(m.difference),
                    f"{fmt(m.low)} to {fmt(m.high)}",
                    f"{m.n:,}",
                    "resolved" if m.resolved else "not resolved",
                    outcome,
                ]
            )
    family = stats.family_text(len(measures))
    tables = [
        Table(
            "Each rung over all its cells: " + ("win rate" if by_wins else "mean score"),
            ["rung (strategy)", "win rate" if by_wins else "mean score", "games"],
            _rung_rates(cells, rungs, by_wins),
        ),
        Table(
            f"Each verdict at each rung: the difference ({unit}), its paired 95 % interval, and whether it "
            f"is resolved after {family}",
            ["verdict", "rung", "difference", "95 % CI", "pairs", "after adjustment", "over the rungs"],
            rows,
        ),
    ]
    paragraphs = [
        "A verdict is about the players that played it. Each verdict along a setting (its value against "
        "the setting's first) is measured at every rung of the strategy ladder on its own, pooled over "
        "the rung's cells at the other settings and paired by seed. It holds when it is resolved the "
        "same way at every rung, flips when it is resolved one way at one rung and the other way at "
        "another, holds where resolved when it goes one way where resolved and is unresolved at the "
        f"rungs named (a weak rung rarely resolves anything). Resolved means after {family}."
    ]
    return GameSection("verdicts", "Does the verdict hold?", findings, paragraphs, [], tables)
