"""Calibration: which settings give a win rate nearest a target, spending games where they decide it,
and an answer that is not fooled by its own choice.

Every combination of the chosen settings is a cell. All cells play a first round; after each
round a cell stays in contention while its win rate could still be the nearest to the target
(the nearest its interval comes to the target is no farther than the farthest the current best
could be). Contenders double their games; the rest stop. The search ends when one contender is
left, when every contender's interval is narrower than the tolerance (they are then equally near,
within it), or at the cap.

Picking the nearest of several noisy estimates flatters the pick: with six cells all at 0.45 the
chosen cell's own interval covered its true rate only 85 % of the time and its distance to the
target read short. So:
- the rounds drop a cell only on intervals Bonferroni-adjusted for every candidate in every round
  (`Calibration.z`), so the true nearest is dropped with chance at most 5 % over the whole search;
- the pick is played again on fresh seeds (a root seed derived from the search's, `confirm_seed`)
  for as many games as it played in the search, and the rate, interval and distance reported for
  it come from those games alone: the choice cannot bias them;
- every candidate carries the probability that it is the nearest (`nearest_probability`) and its
  paired difference to the pick on the games they share (Tango's interval, Bonferroni-adjusted
  over the other candidates).
The rounds see only tallies (the runner's stopping-rule interface), so they use marginal intervals;
the pairing, which only sharpens, is used after the search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from simkit.core import dataset, runner, scenario, stats
from simkit.core.errors import UserError
from simkit.core.registry import Setting, get_game

MAX_VALUES = 64  # values one setting may contribute to the search
CONFIRM_TAG = 0xC0F1  # mixed with the search's root seed into the confirmation's (fresh seeds)
NEAREST_DRAWS = 20_000  # posterior draws behind each "probability it is the nearest"


def search_rounds(first_games: int, max_games: int) -> int:
    """The most rounds a search can take: the first, then doublings up to the cap."""
    return 1 + max(0, math.ceil(math.log2(max(1, max_games) / max(1, first_games))))


def confirm_seed(seed: int) -> int:
    """The root seed of the confirmation games: derived from the search's, so a rerun repeats it,
    and unrelated to it, so no confirmation game replays a search game."""
    words = np.random.SeedSequence([seed, CONFIRM_TAG]).generate_state(2, np.uint32)
    return (int(words[0]) | int(words[1]) << 32) >> 1  # 63 bits: a valid root seed


def distance_bounds(interval: stats.Interval, target: float) -> tuple[float, float]:
    """The nearest and farthest the true rate can be from the target, given its interval."""
    if interval.low <= target <= interval.high:
        near = 0.0
    else:
        near = min(abs(interval.low - target), abs(interval.high - target))
    return near, max(abs(interval.low - target), abs(interval.high - target))


@dataclass(frozen=True)
class Calibration:
    """The stopping rule of a calibration (see the module's docstring)."""

    kind: ClassVar[str] = "calibrate"

    target: float
    tolerance: float
    first_games: int
    candidates: int = 1  # cells searched: the adjustment of the intervals that drop cells
    rounds: int = 1  # the most rounds the search may take

    @property
    def z(self) -> float:
        return search_z(self.candidates, self.rounds)

    def first(self, cells: list[str]) -> dict[str, int]:
        return dict.fromkeys(cells, self.first_games)

    def contenders(self, tallies: dict[str, runner.Tally]) -> list[str]:
        z = self.z
        bounds = {c: distance_bounds(stats.wilson(w, d, z), self.target) for c, (w, d, _) in tallies.items()}
        best_far = min(far for _, far in bounds.values())
        return [c for c, (near, _) in bounds.items() if near <= best_far]

    def after_round(self, tallies: dict[str, runner.Tally], targets: dict[str, int]) -> dict[str, int]:
        return doubled(self.contenders(tallies), tallies, targets, self.tolerance)


def check_tolerance(tolerance: float, where: str) -> None:
    """A search's --tolerance (a 95 % half-width), or one line saying what is allowed."""
    if not 0.0005 <= tolerance <= 0.25:
        raise UserError(f"{where}: --tolerance must be in 0.0005..0.25, got {tolerance}")


def search_z(candidates: int, rounds: int) -> float:
    """The normal quantile of the intervals that drop a search's cells: two-sided 5 %
    Bonferroni-split over every candidate in every round."""
    from scipy.stats import norm

    return float(norm.isf(stats.ALPHA / (2 * max(1, candidates * rounds))))


def doubled(
    alive: list[str], tallies: dict[str, runner.Tally], targets: dict[str, int], tolerance: float
) -> dict[str, int]:
    """A search's next round: the cells still in contention double their games, unless one is
    left or a cell's 95 % interval is already narrower than the tolerance; the rest stop."""
    out = dict(targets)
    if len(alive) == 1:
        return out
    for cell in alive:
        wins, decided, _ = tallies[cell]
        if stats.wilson(wins, decided).half_width > tolerance:
            out[cell] = 2 * targets[cell]
    return out


def nearest_probability(
    tallies: dict[str, runner.Tally], target: float, draws: int = NEAREST_DRAWS, seed: int = 0
) -> dict[str, float]:
    """For each cell, the probability that its true rate is the nearest to the target: the share
    of joint draws from the cells' posteriors (Jeffreys prior, Beta(wins + 1/2, losses + 1/2))
    in which it is nearest. The cells are drawn independently; they share seeds, which makes
    their differences surer than this, so the probabilities lean towards even."""
    cells = list(tallies)
    rng = np.random.default_rng(seed)
    rates = np.stack([rng.beta(w + 0.5, d - w + 0.5, draws) for w, d, _ in tallies.values()])
    nearest = np.argmin(np.abs(rates - target), axis=0)
    counts = np.bincount(nearest, minlength=len(cells))
    return {c: float(k) / draws for c, k in zip(cells, counts, strict=True)}


def confirmation_games(search_games: int, first_games: int) -> int:
    """Games the pick plays again on fresh seeds: as many as it played in the search."""
    return max(search_games, first_games)


def setting_values(setting: Setting) -> list[Any]:
    """The ordered values of a setting the search may try."""
    if setting.choices is not None:
        return list(setting.choices)
    if setting.type == "int" and setting.minimum is not None and setting.maximum is not None:
        values = list(range(int(setting.minimum), int(setting.maximum) + 1))
        if len(values) <= MAX_VALUES:
            return values
    raise UserError(
        f"calibrate: setting '{setting.name}' has no short list of values to search "
        "(it needs declared choices or an integer range)"
    )


@dataclass(frozen=True)
class Candidate:
    cell: str
    settings: dict[str, Any]
    games: int
    win_rate: stats.Interval  # from the search's games (flattered for the pick: see `confirmed`)
    distance: float  # |win rate - target|, from the search's games
    contender: bool  # could still be the nearest
    p_nearest: float = math.nan  # probability that its true rate is the nearest to the target
    vs_pick: stats.PairedDifference | None = None  # its rate minus the pick's, on shared games
    confirmed: stats.Interval | None = None  # the pick only: its rate on fresh seeds
    confirmed_distance: tuple[float, float, float] = field(default=(math.nan,) * 3)  # est, low, high


def calibrate(
    game: str,
    target: float,
    over: list[str],
    *,
    out: str | Path,
    strategies: list[str] | None = None,
    settings: dict[str, Any] | None = None,
    seed: int = 0,
    jobs: int | None = 1,
    backend: str = "loky",
    tolerance: float = 0.01,
    first_games: int = 200,
    max_games: int = 51_200,
    progress: bool = False,
    command: str | None = None,
    engine_choice: str = "auto",
) -> list[Candidate]:
    """Search the combinations of the settings in `over` for the win rate nearest `target`.

    Writes an ordinary dataset to `out` (so it resumes, and `simkit report` reads it), then plays
    the pick again on fresh seeds into `confirm_folder(out)`, and returns every combination
    ranked by distance to the target, nearest (the pick, carrying `confirmed`) first.
    """
    if not 0.0 < target < 1.0:
        raise UserError(f"calibrate: --target must be a win rate strictly between 0 and 1, got {target}")
    check_tolerance(tolerance, "calibrate")
    engine = get_game(game)
    declared = {s.name: s for s in engine.settings}
    if not over:
        raise UserError("calibrate: --over needs at least one setting")
    for name in over:
        if name not in declared:
            known = ", ".join(declared)
            raise UserError(f"calibrate: unknown setting '{name}' for {engine.id} (settings: {known})")
    fixed = dict(settings or {})
    clash = sorted(set(fixed) & set(over))
    if clash:
        raise UserError(f"calibrate: '{clash[0]}' is both searched (--over) and fixed (--set)")
    if strategies:
        fixed["strategy"] = strategies if len(strategies) > 1 else strategies[0]
    chunk = max(1, first_games // 2)
    grid = {name: setting_values(declared[name]) for name in over}
    doc = {
        "scenario": {
            "name": f"calibrate {engine.id} to {target:g} over {','.join(over)}",
            "game": engine.id,
            "games": max_games,
            "seed": seed,
            "chunk_size": chunk,
        },
        "grid": grid,
        "fixed": fixed,
    }
    sc = scenario.parse(doc, "calibrate")
    rule = Calibration(target, tolerance, first_games, len(sc.cells), search_rounds(first_games, max_games))
    runner.run(sc, out, jobs, backend, progress, command, stopping=rule, engine=engine_choice)
    games = dataset.load(out).games
    tallies: dict[str, runner.Tally] = {}
    won_by_cell: dict[str, Any] = {}
    for cell in sc.cells:
        part = games.filter(games["cell"] == cell.name).sort("game_index")
        won_by_cell[cell.name] = part.select("game_index", "won").drop_nulls()
        tallies[cell.name] = runner.tally_of(part)
    ranked = rank(sc, over, tallies, rule, won_by_cell)

    # the pick again, on fresh seeds: its reported rate cannot be flattered by the choice
    pick = ranked[0]
    confirm_doc = {
        "scenario": {
            "name": f"confirm {pick.cell} of {doc['scenario']['name']}",
            "game": engine.id,
            "games": confirmation_games(pick.games, first_games),
            "seed": confirm_seed(seed),
            "chunk_size": chunk,
        },
        "grid": {k: [v] for k, v in pick.settings.items()},
        "fixed": fixed,
    }
    confirm = scenario.parse(confirm_doc, "calibrate")
    runner.run(confirm, confirm_folder(out), jobs, backend, progress, command, engine=engine_choice)
    won = dataset.load(confirm_folder(out)).games["won"]
    w = stats.wilson(int(won.sum() or 0), int(won.is_not_null().sum()))
    near, far = distance_bounds(w, target)
    ranked[0] = replace(pick, confirmed=w, confirmed_distance=(abs(w.estimate - target), near, far))
    return ranked


def confirm_folder(out: str | Path) -> Path:
    """Where the pick's confirmation games go: beside the search's dataset, a dataset of its own."""
    out = Path(out)
    return out.with_name(out.name + "-confirm")


def rank(
    sc: scenario.Scenario,
    over: list[str],
    tallies: dict[str, runner.Tally],
    rule: Calibration,
    won_by_cell: dict[str, Any],
) -> list[Candidate]:
    """Every cell ranked by its search distance to the target (nearest first: the pick), with
    the probability that each is the nearest and its paired difference to the pick."""
    alive = set(rule.contenders(tallies))
    p_nearest = nearest_probability(tallies, rule.target)
    ranked = []
    for cell in sc.cells:
        wins, decided, played = tallies[cell.name]
        w = stats.wilson(wins, decided)
        ranked.append(
            Candidate(
                cell.name,
                {k: cell.settings[k] for k in over},
                played,
                w,
                abs(w.estimate - rule.target),
                cell.name in alive,
                p_nearest[cell.name],
            )
        )
    ranked.sort(key=lambda c: (c.distance, c.cell))
    pick = won_by_cell.get(ranked[0].cell)
    if pick is None or len(ranked) < 2:
        return ranked
    from scipy.stats import norm

    z = float(norm.isf(stats.ALPHA / (2 * (len(ranked) - 1))))  # Bonferroni over the others
    for i, c in enumerate(ranked[1:], 1):
        joined = won_by_cell[c.cell].join(pick, on="game_index", suffix="_pick")
        if joined.height:
            d = stats.paired_difference(joined["won_pick"].to_numpy(), joined["won"].to_numpy(), z)
            ranked[i] = replace(c, vs_pick=d)
    return ranked


def describe(ranked: list[Candidate], target: float, tolerance: float) -> list[str]:
    """The result as lines of plain text (what `simkit calibrate` prints)."""
    pick = ranked[0]
    lines = []
    if pick.confirmed is not None:
        w = pick.confirmed
        est, near, far = pick.confirmed_distance
        label = " ".join(f"{k}={v}" for k, v in pick.settings.items())
        lines += [
            f"pick: {label}: on {w.n:,} fresh games (new seeds) it wins {100 * w.estimate:.2f}% "
            f"[95 % CI {100 * w.low:.2f}, {100 * w.high:.2f}], {100 * est:.2f} points from the target "
            f"[{100 * near:.2f}, {100 * far:.2f}]",
            "  (the search's own figures for the pick, below, are flattered by having picked it)",
        ]
    header = ("rank", "settings", "games", "win rate [95 % CI]", "|rate - target|", "P(nearest)", "vs pick")
    lines.append(
        f"{header[0]:>4}  {header[1]:<28} {header[2]:>7}  {header[3]:<26} {header[4]:>15} "
        f"{header[5]:>10}  {header[6]}"
    )
    for rank_, c in enumerate(ranked, 1):
        label = " ".join(f"{k}={v}" for k, v in c.settings.items())
        w = c.win_rate
        ci = f"{100 * w.estimate:6.2f}% [{100 * w.low:5.2f}, {100 * w.high:5.2f}]"
        vs = ""
        if c.vs_pick is not None:
            d = c.vs_pick
            vs = f"{100 * d.difference:+.2f} [{100 * d.low:+.2f}, {100 * d.high:+.2f}] on {d.n:,}"
        note = "" if c.contender else "  (ruled out)"
        lines.append(
            f"{rank_:>4}  {label:<28} {c.games:>7}  {ci:<26} {100 * c.distance:14.2f}% "
            f"{100 * c.p_nearest:9.1f}%  {vs}{note}"
        )
    lines.append(
        "P(nearest): the chance each is truly the nearest (Jeffreys posteriors); vs pick: its rate "
        "minus the pick's, in points, on the games both played (paired, Tango's interval, "
        f"Bonferroni over {len(ranked) - 1} comparisons)"
    )
    if all(c.win_rate.high < target for c in ranked):
        lines.append(f"no combination reaches {target:g}: every interval lies below it")
    elif all(c.win_rate.low > target for c in ranked):
        lines.append(f"no combination comes down to {target:g}: every interval lies above it")
    contenders = [c for c in ranked if c.contender]
    if len(contenders) > 1:
        lines.append(
            f"{len(contenders)} combinations could still be the nearest (their adjusted intervals overlap "
            f"in distance to the target) and each is known to within +-{tolerance:g}"
        )
    return lines
