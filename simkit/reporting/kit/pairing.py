"""Comparisons along one setting, paired by seed (game i of every cell saw the same seed):
`paired_along` pools every cell at one value of a setting with the cell equal to it but for that
setting into one win-rate difference (Tango interval, McNemar p) and one score difference (paired
t); `paired_in` does it within one games table, `paired_outcome` for any outcome of two frames;
`along_settings` pairs every setting along its values (`judged_along` with their verdicts),
`ranked_along` ranks a setting's values (the gap between its ends adjusted for their picking,
`picked_extremes`); `neighbour_steps`, `paired_steps` and `paired_ladder` step between
neighbouring values; `resolve` marks a family of them resolved or not (Holm).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import numpy as np
import polars as pl

from simkit.core import stats
from simkit.core.compare import paired_scores
from simkit.reporting.kit.cell_data import Cell, cells_by, values

Item = TypeVar("Item", bound=tuple)


@dataclass(frozen=True)
class Paired:
    """`other` against `base` along one setting, pooled over the matched cells."""

    wins: stats.PairedDifference
    score: stats.Interval
    cells: int  # matched pairs of cells pooled
    score_p: float = math.nan  # paired t test of the score difference


def _won(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Boolean).fill_null(False).to_numpy().astype(bool)


def _score(frame: pl.DataFrame, column: str) -> np.ndarray:
    return frame[column].cast(pl.Float64).fill_null(0.0).to_numpy()


def paired_along(
    cells: Sequence[Cell], key: str, base: str, other: str, keys: Sequence[str]
) -> Paired | None:
    """Every cell with `key` = `other` against the cell equal to it in every other of `keys` but
    with `key` = `base`, joined on game_index and pooled (None: no such pair of cells). A missing
    verdict counts as a loss and a missing score as 0."""

    def rest(c: Cell) -> tuple:
        return tuple(c.settings[k] for k in keys if k != key)

    bases = {rest(c): c for c in cells if c.settings[key] == base}
    a_won, b_won, a_score, b_score, matched = [], [], [], [], 0
    for c in cells:
        if c.settings[key] != other or rest(c) not in bases:
            continue
        j = (
            bases[rest(c)]
            .games.select("game_index", "won", "score")
            .join(c.games.select("game_index", "won", "score"), on="game_index", suffix="_b")
        )
        if j.height == 0:
            continue
        matched += 1
        a_won.append(_won(j, "won"))
        b_won.append(_won(j, "won_b"))
        a_score.append(_score(j, "score"))
        b_score.append(_score(j, "score_b"))
    if not matched:
        return None
    wins = stats.paired_difference(np.concatenate(a_won), np.concatenate(b_won))
    a_all, b_all = np.concatenate(a_score), np.concatenate(b_score)
    score, _, _ = paired_scores(a_all, b_all)
    return Paired(wins, score, matched, stats.mean_p_value(b_all - a_all))


def paired_outcome(
    a: pl.DataFrame | None, b: pl.DataFrame | None, outcome: pl.Expr
) -> stats.PairedDifference | None:
    """How often `outcome` (a boolean expression on the games, `pl.col("won")` say) holds in the
    games of `b` against those of `a`, from the games of both paired by game index that have a
    value in both (None: either side has no games, or no pair)."""
    if a is None or b is None:
        return None
    columns = [pl.col("game_index"), outcome.alias("x")]
    pairs = a.select(columns).join(b.select(columns), on="game_index", suffix="_b").drop_nulls()
    return stats.paired_difference(pairs["x"].to_numpy(), pairs["x_b"].to_numpy()) if pairs.height else None


def resolve(
    items: Sequence[Item], p_values: Sequence[float], method: str = stats.HOLM
) -> tuple[list[Item], stats.Family]:
    """The family of the items' tests (`p_values`, one an item; `stats.family`) and the items,
    named tuples with a field `resolved`, each marked resolved or not after it."""
    family = stats.family(p_values, method)
    return [
        item._replace(resolved=bool(yes)) for item, yes in zip(items, family.resolved, strict=True)
    ], family


class Along(NamedTuple):
    """One setting's `other` value against its `base` value, as pairs of games (`paired_along`),
    within the cells whose `group_key` setting is `group` ("": every cell), pooled over the other
    varied settings `over`; where judged (`judged_along`), whether its win-rate difference and its
    score difference are resolved, each in its own family."""

    group: str
    key: str
    base: str
    other: str
    paired: Paired
    over: tuple[str, ...] = ()
    resolved: bool = False
    score_resolved: bool = False


def along_settings(
    cells: Sequence[Cell],
    keys: Sequence[str],
    varied: Sequence[str],
    group_key: str = "strategy",
    skip: Callable[[str, str], bool] = lambda key, value: False,
) -> list[Along]:
    """Every other value of each setting of `varied` against its first, as pairs of games pooled
    over the other settings (`paired_along` over `keys`): within each group of cells sharing a
    value of `group_key` where that varies and is not the setting compared, else over every cell
    (the group then the one value of `group_key`, or "" where it varies or is not in `keys`).
    `skip(key, value)` leaves a value out; a pair of values no cells match is left out."""
    groups = values(cells, group_key) if group_key in keys else []
    out = []
    for key in varied:
        kept = [v for v in values(cells, key) if not skip(key, v)]
        grouped = key != group_key and len(groups) > 1
        if grouped:
            parts = [(g, [c for c in cells if c.settings[group_key] == g]) for g in groups]
        else:
            parts = [(groups[0] if len(groups) == 1 else "", list(cells))]
        # pooled over the other varied settings: not the one compared, nor the group's
        over = tuple(k for k in varied if k != key and not (grouped and k == group_key))
        for group, mine in parts:
            for other in kept[1:]:
                paired = paired_along(mine, key, kept[0], other, keys)
                out += [Along(group, key, kept[0], other, paired, over)] if paired is not None else []
    return out


def judged_along(
    cells: Sequence[Cell],
    keys: Sequence[str],
    varied: Sequence[str],
    group_key: str = "strategy",
    leave_out: Mapping[str, Collection[str]] | None = None,
) -> tuple[list[Along], stats.Family]:
    """`along_settings` but for the values `leave_out` names for a setting, each comparison marked
    resolved or not after the Holm adjustment over all of them, its win-rate difference in one
    family (`resolved`) and its score difference in another (`score_resolved`); with the win
    rates' family."""
    out = leave_out or {}
    compared = along_settings(cells, keys, varied, group_key, lambda key, value: value in out.get(key, ()))
    scores = stats.family([c.paired.score_p for c in compared])
    compared, wins = resolve(compared, [c.paired.wins.p_value for c in compared])
    return [
        c._replace(score_resolved=bool(yes)) for c, yes in zip(compared, scores.resolved, strict=True)
    ], wins


def paired_in(games: pl.DataFrame, keys: Sequence[str], key: str, base: Any, other: Any) -> Paired | None:
    """`other` against `base` along `key` in the games (any part of the table) that have a verdict,
    each cell by the values of `keys` (`cells_by`) paired with the one equal to it but for `key`
    (`paired_along`; None: no such pair)."""
    cells = cells_by(games.filter(pl.col("won").is_not_null()), keys)
    return paired_along(cells, key, str(base), str(other), keys)


class Picked(NamedTuple):
    """The test of a gap between the highest and the lowest of several values, picked after seeing
    them (`picked_extremes`): its p value adjusted for the picking, the pairs it was picked from,
    and whether the adjusted p value is below `stats.ALPHA`."""

    p: float
    pairs: int
    resolved: bool


def picked_extremes(p_value: float, k: int) -> Picked:
    """The gap between the highest and the lowest of `k` values (the most and the least damaged
    zone, the hardest and the easiest mission), whose test gave `p_value` as if the two had been
    chosen beforehand: picked from every pair of the values, so Bonferroni-adjusted over their
    C(k, 2) pairs (the p value times that, at most 1; no p value, NaN, reads 1)."""
    pairs = math.comb(k, 2)
    p = min(1.0, p_value * pairs)
    return Picked(p, pairs, bool(p < stats.ALPHA))


class Ranking(NamedTuple):
    """The values of one setting ranked (`ranked_along`): each value's games pooled over the other
    settings, in rank order, and as pairs of games (`paired_along`) the last value against the
    first (None: one value, or no cells pair) and each value against the one ranked before it
    (where cells pair); the last against the first's win-rate test adjusted for their picking from
    every pair of the values (`picked_extremes`; None without that pair), and how many of the
    steps' win-rate differences are resolved after the Holm adjustment over them, and that family
    as the page names it."""

    pools: list[tuple[str, pl.DataFrame]]
    extremes: Paired | None
    steps: list[Paired]
    picked: Picked | None = None
    resolved: int = 0
    family: str = ""


def ranked_along(
    cells: Sequence[Cell], key: str, keys: Sequence[str], rank: Callable[[str, pl.DataFrame], Any]
) -> Ranking:
    """The values of setting `key` over `cells`, each with the games of its cells pooled, sorted by
    `rank(value, games)`, and their paired comparisons along `key` over `keys`, judged."""
    pools = {v: pl.concat([c.games for c in cells if c.settings[key] == v]) for v in values(cells, key)}
    order = sorted(pools, key=lambda v: rank(v, pools[v]))
    extremes = paired_along(cells, key, order[0], order[-1], keys) if len(order) > 1 else None
    picked = None if extremes is None else picked_extremes(extremes.wins.p_value, len(order))
    paired = [paired_along(cells, key, a, b, keys) for a, b in zip(order, order[1:], strict=False)]
    steps = [p for p in paired if p is not None]
    family = stats.family([p.wins.p_value for p in steps])
    judged = (picked, int(family.resolved.sum()), family.text)
    return Ranking([(v, pools[v]) for v in order], extremes, steps, *judged)


def as_interval(difference: stats.PairedDifference) -> stats.Interval:
    """A paired difference as an interval, its difference the estimate: what the charts of
    intervals (`charts.dots_about_zero`) draw."""
    return stats.Interval(difference.difference, difference.low, difference.high, difference.n)


def neighbour_steps(axes: Sequence[Sequence[Any]]) -> list[tuple[int, tuple, tuple]]:
    """Every step between neighbouring values of one setting with the others held, in a grid of
    settings (`axes`: each setting's values in the order to step along): (the setting's index, the
    point stepped from, the point stepped to), a setting at a time; within one, the held values in
    the grid's order (the first setting's slowest), and for each the steps in order."""
    steps = []
    for i, along in enumerate(axes):
        for held in itertools.product(*(v for j, v in enumerate(axes) if j != i)):
            for a, b in itertools.pairwise(along):
                steps.append((i, (*held[:i], a, *held[i:]), (*held[:i], b, *held[i:])))
    return steps


def paired_steps(
    cells: Mapping[tuple, pl.DataFrame],
    groups: Sequence[Any],
    steps: Sequence[tuple],
    outcome: pl.Expr,
    make: Callable[..., Item],
) -> tuple[list[Item], stats.Family]:
    """For each group and each step (a tuple ending in the settings stepped from and to, each a
    tuple), how often `outcome` holds in the cell `(group, *to)` of `cells` against `(group, *from)`,
    paired by game index (`paired_outcome`; a step without games at either end is left out), as
    the item `make(group, *step, difference)` (a named tuple with a field `resolved`): the items
    marked resolved or not after the Holm adjustment over every one of them, and the family."""
    pairs = (
        ((group, *step), cells.get((group, *step[-2])), cells.get((group, *step[-1])))
        for group in groups
        for step in steps
    )
    return _paired(pairs, outcome, make)


def paired_ladder(
    frames: Mapping[Any, pl.DataFrame],
    group: Callable[[Any], Any],
    rank: Callable[[Any], Any],
    outcome: pl.Expr,
    make: Callable[..., Item],
    least: int = 1,
) -> tuple[list[Item], stats.Family]:
    """A ladder of paired steps along one setting: the keys of `frames` (cells, say, each with its
    games) grouped by `group(key)` (the groups in order of first appearance), each group's keys
    sorted by `rank(key)`, and each key against the one before it: how often `outcome` holds in
    its games against the one before's, paired by game index (`paired_outcome`; a step of fewer
    than `least` pairs is left out), as the item `make(group, before, key, difference)` (a named
    tuple with a field `resolved`): the items marked resolved or not after the Holm adjustment
    over every one of them, and the family."""
    pairs = []
    for name in dict.fromkeys(group(key) for key in frames):
        mine = sorted((key for key in frames if group(key) == name), key=rank)
        pairs += [((name, a, b), frames[a], frames[b]) for a, b in itertools.pairwise(mine)]
    return _paired(pairs, outcome, make, least)


def _paired(
    pairs: Iterable[tuple[tuple, pl.DataFrame | None, pl.DataFrame | None]],
    outcome: pl.Expr,
    make: Callable[..., Item],
    least: int = 1,
) -> tuple[list[Item], stats.Family]:
    """Each pair of frames (its item's fields, then the two) as `make(*fields, difference)` where
    `paired_outcome` finds at least `least` pairs, all resolved in one Holm family."""
    items, p_values = [], []
    for fields, a, b in pairs:
        difference = paired_outcome(a, b, outcome)
        if difference is not None and difference.n >= least:
            items.append(make(*fields, difference))
            p_values.append(difference.p_value)
    return resolve(items, p_values)
