"""Families of comparisons and their words: `Comparisons` collects named comparisons (a
picked one's p-value weighted; `pairs_along` adds several pairs of values of one setting) and
resolves them at once into `Compared`, which says each in words (`difference_sentence`,
`pooled_over`) or as table cells; `sweep` finds each group's best value of a swept setting and sets
every other against it, and `sweep_sentence` says a group's sweep in words; `column_extremes`
picks a top and a bottom among columns of the same games and adjusts the test of the gap between
them for the picking (`picked_extremes`), in each group of games as one family (`extremes_by`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import polars as pl

from simkit.core import stats
from simkit.reporting.kit.cell_data import win_grid
from simkit.reporting.kit.pairing import paired_in, picked_extremes
from simkit.reporting.kit.wording import Words
from simkit.reporting.sections import point_decimals
from simkit.reporting.text import ci, pct, points, points_interval


def pooled_over(games: pl.DataFrame, forms: Sequence[tuple[str, str]], held: str = "") -> str:
    """The text ", pooled over 3 to 5 players and levels 0 to 3": each setting of `forms` (a column
    of the games and how its range reads, "{} to {} players") that varies in the games, but `held`;
    "" where none does."""
    parts = [
        form.format(games[key].min(), games[key].max())
        for key, form in forms
        if key != held and games[key].n_unique() > 1
    ]
    return f", pooled over {' and '.join(parts)}" if parts else ""


def difference_sentence(
    words: Words, keys: tuple[str, str, str], iv: Any, rate: bool = True, /, **values: Any
) -> str:
    """A paired difference B minus A (a `stats.Interval`, or a `stats.PairedDifference`) as a
    sentence: the text `keys[0]` filled with `values`, the interval's bounds `lo` and `hi` read
    in the direction of the difference (those of minus it where it is negative), its pairs `n`
    and its `head`: `keys[2]` where the difference is 0, else `keys[1]` filled with its `size`
    (the absolute value) and `up` (whether it is above 0). A rate reads in percentage points to
    the decimals `point_decimals` asks; otherwise to two decimals."""
    estimate = iv.difference if isinstance(iv, stats.PairedDifference) else iv.estimate
    scale, digits = (100, point_decimals(estimate, iv.low, iv.high)) if rate else (1, 2)
    low, high = (iv.low, iv.high) if estimate >= 0 else (-iv.high, -iv.low)
    size, low, high = (f"{scale * x:.{digits}f}" for x in (abs(estimate), low, high))
    sentence, head, same = keys
    head = words[same] if estimate == 0 else words.fill(head, size=size, up=bool(estimate > 0))
    return words.fill(sentence, head=head, lo=low, hi=high, n=iv.n, **values)


class Compared(NamedTuple):
    """A family of comparisons resolved (`Comparisons.resolve`): each name's difference and
    whether it is resolved, and how the page names the family ("Holm over 4 comparisons")."""

    verdicts: dict[Any, tuple[Any, bool]]
    family: str

    def said(
        self,
        words: Words,
        key: str,
        keys: tuple[str, str, str],
        name: Any,
        rate: bool = True,
        /,
        **values: Any,
    ) -> str:
        """Comparison `name` in words: the text `key` filled with its `sentence` (its difference as
        `difference_sentence` writes it with `keys`, `rate` and `values`), whether it is
        `resolved`, the `family`, and `values`."""
        difference, resolved = self.verdicts[name]
        sentence = difference_sentence(words, keys, difference, rate, **values)
        return words.fill(key, sentence=sentence, resolved=resolved, family=self.family, **values)

    def cells(self, name: Any) -> list[str]:
        """Comparison `name` (a win-rate difference) as table cells: its pairs of games, B minus A
        in percentage points, its 95 % interval, and whether it is resolved ("yes" or "no")."""
        d, resolved = self.verdicts[name]
        return [f"{d.n:,}", points(d.difference), points_interval(d), "yes" if resolved else "no"]


@dataclass
class Comparisons:
    """A family of comparisons collected one by one, each under a name (any hashable): its
    difference and its p-value, times a weight where it was picked (the best of several: the
    pairs it was picked from over the comparisons made), then resolved at once (`resolve`)."""

    found: dict[Any, tuple[Any, float]] = field(default_factory=dict)

    def __contains__(self, name: Any) -> bool:
        return name in self.found

    def add(self, name: Any, difference: Any, p_value: float, weight: float = 1.0) -> Any:
        """`difference` with its p-value times `weight` (at most 1) under `name`, unless the
        name is there already (the first stays); the name. A NaN p-value (no test) stays NaN, so
        that the family leaves it out of its count as `stats.family` does."""
        if name not in self.found:
            self.found[name] = (difference, p_value if math.isnan(p_value) else min(1.0, p_value * weight))
        return name

    def paired(
        self,
        name: Any,
        games: pl.DataFrame,
        keys: Sequence[str],
        key: str,
        a: Any,
        b: Any,
        weight: float = 1.0,
    ) -> Any:
        """`b` against `a` along `key` in the games, paired by seed (`paired_in` over `keys`), added
        under `name` as its win-rate difference and McNemar p-value times `weight` (`add`) unless
        the name is there already; the name, or None where no games pair."""
        if name not in self.found and (pairs := paired_in(games, keys, key, a, b)):
            self.add(name, pairs.wins, pairs.wins.p_value, weight)
        return name if name in self.found else None

    def resolve(self, method: str = stats.HOLM) -> Compared:
        """Every comparison's verdict after the family's adjustment (`stats.family`), in the
        order they were added."""
        family = stats.family([p for _, p in self.found.values()], method)
        verdicts = zip(self.found.items(), family.resolved, strict=True)
        return Compared({name: (d, bool(yes)) for (name, (d, _)), yes in verdicts}, family.text)


@dataclass(frozen=True)
class Sweep:
    """One group of cells over the values of a swept setting (`sweep`): the best value, and each
    other against it paired by seed."""

    group: tuple  # the group's values of the grouping settings
    best: Any
    rate: stats.Interval  # the win rate at the best value
    others: int  # the values played besides the best
    near: dict[str, Any]  # "lower" / "higher": the next value that way, where there is one
    against: dict[Any, tuple[stats.PairedDifference, bool]]  # value -> (best minus it, resolved)

    def tied(self) -> list:
        """The values not resolved from the best."""
        return [v for v, (_, resolved) in self.against.items() if not resolved]

    def neighbours(self) -> list[tuple[Any, stats.PairedDifference, bool]]:
        """The next values below and above the best that pair with it: each with the best minus
        it and whether that is resolved."""
        return [(v, *self.against[v]) for v in self.near.values() if v in self.against]

    @property
    def apart(self) -> bool:
        """Whether the best is resolved from each of its neighbours (a missing pair is not)."""
        return all(v in self.against and self.against[v][1] for v in self.near.values())

    def versus(self, side: str) -> str:
        """The best against the next value on `side` (a number), paired, as a table cell: "vs 6:
        +3.1 (-1.2 to +7.4)" in percentage points, or "none (end of the sweep)"."""
        if (value := self.near.get(side)) not in self.against:
            return "none (end of the sweep)"
        d = self.against[value][0]
        return f"vs {value:g}: {points(d.difference)} ({points_interval(d)})"

    def cells(self) -> list[str]:
        """The sweep as a table row: the best value, its win rate, the rate's 95 % interval and its
        games, the best against the next value lower and higher (`versus`), whether it is resolved
        from both ("yes" or "no") and the values not resolved from it ("none")."""
        tied, rate = ", ".join(f"{v:g}" for v in self.tied()) or "none", self.rate
        best = [f"{self.best:g}", pct(rate.estimate), ci(rate, pct=True), f"{rate.n:,}"]
        return [*best, self.versus("lower"), self.versus("higher"), "yes" if self.apart else "no", tied]


class Swept(NamedTuple):
    """A setting swept in each group of cells (`sweep`): the win rate of each group at each value
    (keyed by the group's values, then the value), the group's sweeps, and their family's name."""

    grid: dict[tuple, stats.Interval]
    sweeps: list[Sweep]
    family: str


def sweep(games: pl.DataFrame, groups: Sequence[str], swept: str, keys: Sequence[str]) -> Swept:
    """For each combination of the settings `groups` in the games (those with a verdict), the win
    rate at each value of `swept` (`win_grid`), the best (ties: the lowest value) and every other
    value against it, paired by seed along `swept` (`paired_in` over `keys`). One Holm family over
    every group, each p-value times T / 2 for its group's T values: the best was picked from
    their T (T - 1) / 2 pairs by T - 1 comparisons. A group of one value has no sweep."""
    grid, comparisons, found = win_grid(games, (*groups, swept)), Comparisons(), []
    for group in dict.fromkeys(k[:-1] for k in grid):
        rates = {k[-1]: w for k, w in grid.items() if k[:-1] == group}
        values = list(rates)  # in their sorted order
        if len(values) < 2:
            continue
        best = max(values, key=lambda v, rates=rates, values=values: (rates[v].estimate, -values.index(v)))
        mine = games.filter(*(pl.col(k) == v for k, v in zip(groups, group, strict=True)))
        paired = {v: paired_in(mine, keys, swept, v, best) for v in values if v != best}
        against = [(v, p.wins) for v, p in paired.items() if p]
        for v, d in against:
            comparisons.add((group, v), d, d.p_value, len(values) / 2)
        i = values.index(best)
        near = {side: values[j] for side, j in (("lower", i - 1), ("higher", i + 1)) if 0 <= j < len(values)}
        found.append((group, best, len(values) - 1, near, [v for v, _ in against]))
    compared = comparisons.resolve()
    sweeps = [
        Sweep(group, best, grid[(*group, best)], others, near, {v: compared.verdicts[(group, v)] for v in vs})
        for group, best, others, near, vs in found
    ]
    return Swept(grid, sweeps, compared.family)


class Extremes(NamedTuple):
    """Of several measures of the same games (`column_extremes`): the one with the highest mean and
    the one with the lowest, the highest's mean and its paired excess over the lowest (Student t
    intervals), and the excess's test adjusted for the picking over the `pairs` pairs of measures
    (`picked_extremes`; NaN where every mean ties, so that the two are the same measure)."""

    most: str
    least: str
    top: stats.Interval
    gap: stats.Interval
    p: float
    pairs: int


def column_extremes(games: pl.DataFrame, columns: Mapping[str, str]) -> Extremes:
    """Which of the measures `columns` (a name and its column of `games`) has the highest mean over
    the games and which the lowest (the first named where means tie), and the highest's excess
    over the lowest, paired within games (a paired t test)."""
    values = {name: games[column].cast(pl.Float64).to_numpy() for name, column in columns.items()}
    most, least = (pick(values, key=lambda name: float(values[name].mean())) for pick in (max, min))
    gap = values[most] - values[least]
    picked = picked_extremes(stats.mean_p_value(gap), len(values))
    p = picked.p if most != least else math.nan
    return Extremes(most, least, stats.mean_interval(values[most]), stats.mean_interval(gap), p, picked.pairs)


def pairs_along(
    found: Comparisons,
    games: pl.DataFrame,
    keys: Sequence[str],
    key: str,
    pairs: Iterable[tuple[Any, Any]],
    tag: Any = None,
    weight: float = 1.0,
) -> list[tuple[Any, Any, Any]]:
    """Each pair (a, b) of `pairs`: b against a along `key` in the games, paired by seed, added to
    `found` under the name (key, a, b, `tag`) with its p-value times `weight` (`Comparisons.paired`;
    a name there already is not added again, so one comparison asked for twice counts once). The
    pairs whose games pair, each as (name, a, b), in order."""
    named = (((key, a, b, tag), a, b) for a, b in pairs)
    return [(name, a, b) for name, a, b in named if found.paired(name, games, keys, key, a, b, weight)]


def sweep_sentence(
    words: Words, keys: tuple[str, str, str, str, str, str], swept: Sweep, family: str, /, **values: Any
) -> str:
    """A group's sweep (`Sweep`) in words, from the texts of `keys`: the first filled with the
    `best` value, its win rate `w` and `values`; the best against its neighbours (`Sweep.neighbours`),
    each the second filled with the value `t`, the difference `d` and whether it is `resolved`,
    joined by " and " into the third (`comps`; none where no neighbour pairs); the values not
    resolved from the best, the fourth filled with them `listed`, their number `tied` and the
    `others` played, or the fifth where there are none; and the family, the sixth (`family`)."""
    best, against, neighbours, tied, none_tied, family_text = keys
    said = [words.fill(best, best=swept.best, w=swept.rate, **values)]
    comps = [words.fill(against, t=t, d=d, resolved=r) for t, d, r in swept.neighbours()]
    said += [words.fill(neighbours, comps=" and ".join(comps))] if comps else []
    if not_resolved := swept.tied():
        listed = ", ".join(f"{t:g}" for t in not_resolved)
        said.append(words.fill(tied, listed=listed, tied=len(not_resolved), others=swept.others))
    else:
        said.append(words[none_tied])
    return " ".join([*said, words.fill(family_text, family=family)])


def extremes_by(groups: Mapping[Any, pl.DataFrame], columns: Mapping[str, str]) -> Compared:
    """In each group of games (a name and its games: a crew's, say), the measure of `columns` with
    the highest mean and the one with the lowest and the gap between them (`column_extremes`, its
    test adjusted for the picking), the groups' gaps resolved as one Holm family: each group's
    `Extremes` and whether its gap is resolved, in the groups' order."""
    found = Comparisons()
    for name, games in groups.items():
        ends = column_extremes(games, columns)
        found.add(name, ends, ends.p)
    return found.resolve()
