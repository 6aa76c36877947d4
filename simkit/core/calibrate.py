"""Calibration: which settings give a win rate nearest a target, spending games where they decide it.

Every combination of the chosen settings is a cell. All cells play a first round; after each
round a cell stays in contention while its win rate could still be the nearest to the target
(the nearest its 95 % Wilson interval comes to the target is no farther than the farthest the
current best could be). Contenders double their games; the rest stop. The search ends when one
contender is left, when every contender's interval is narrower than the tolerance (they are then
equally near, within it), or at the cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.core import dataset, runner, scenario, stats
from simkit.core.errors import UserError
from simkit.core.registry import Setting, get_game

MAX_VALUES = 64  # values one setting may contribute to the search


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

    target: float
    tolerance: float
    first_games: int

    def first(self, cells: list[str]) -> dict[str, int]:
        return dict.fromkeys(cells, self.first_games)

    def contenders(self, tallies: dict[str, runner.Tally]) -> list[str]:
        bounds = {c: distance_bounds(stats.wilson(w, d), self.target) for c, (w, d, _) in tallies.items()}
        best_far = min(far for _, far in bounds.values())
        return [c for c, (near, _) in bounds.items() if near <= best_far]

    def after_round(self, tallies: dict[str, runner.Tally], targets: dict[str, int]) -> dict[str, int]:
        out = dict(targets)
        alive = self.contenders(tallies)
        if len(alive) == 1:
            return out
        for cell in alive:
            wins, decided, _ = tallies[cell]
            if stats.wilson(wins, decided).half_width > self.tolerance:
                out[cell] = 2 * targets[cell]
        return out


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
    win_rate: stats.Interval
    distance: float  # |win rate - target|
    contender: bool  # could still be the nearest


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

    Writes an ordinary dataset to `out` (so it resumes, and `simkit report` reads it) and returns
    every combination ranked by distance to the target, nearest first.
    """
    if not 0.0 < target < 1.0:
        raise UserError(f"calibrate: --target must be a win rate strictly between 0 and 1, got {target}")
    if not 0.0005 <= tolerance <= 0.25:
        raise UserError(f"calibrate: --tolerance must be in 0.0005..0.25, got {tolerance}")
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
    doc = {
        "scenario": {
            "name": f"calibrate {engine.id} to {target:g} over {','.join(over)}",
            "game": engine.id,
            "games": max_games,
            "seed": seed,
            "chunk_size": chunk,
        },
        "grid": {name: setting_values(declared[name]) for name in over},
        "fixed": fixed,
    }
    sc = scenario.parse(doc, "calibrate")
    rule = Calibration(target, tolerance, first_games)
    runner.run(sc, out, jobs, backend, progress, command, stopping=rule, engine=engine_choice)
    games = dataset.load(out).games
    tallies: dict[str, runner.Tally] = {}
    for cell in sc.cells:
        won = games.filter(games["cell"] == cell.name)["won"]
        tallies[cell.name] = (int(won.sum() or 0), int(won.is_not_null().sum()), won.len())
    alive = set(rule.contenders(tallies))
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
                abs(w.estimate - target),
                cell.name in alive,
            )
        )
    return sorted(ranked, key=lambda c: (c.distance, c.cell))
