"""simkit: Monte Carlo balance and strategy analysis for four alien-invasion tabletop games.

Everything the command line does is one call away, for notebooks:

    import simkit
    out = simkit.simulate("eight-bit-invaders", 2000, seed=1, jobs=2, countdown=6)
    data = simkit.load(out)            # data.games, data.seats: polars frames; data.manifest: dict
    simkit.report([out], "reports/mine")
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simkit.core.dataset import Dataset

from simkit.core.version import VERSION as __version__

__all__ = ["simulate", "run", "load", "report", "__version__"]


def simulate(
    game: str,
    n: int,
    *,
    seed: int = 0,
    jobs: int | None = 1,
    strategies: str | Sequence[str] | None = None,
    out: str | Path | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    precision: float | None = None,
    progress: bool = False,
    engine: str | None = None,
    **settings: Any,
) -> Path:
    """Play `n` games of `game` under one set of settings and write a dataset; returns its folder.

    `strategies` is a strategy name, a user's `"path/file.py:ClassName"`, or one of those per
    seat for a competitive game. `settings` are the game's settings by name (`players=3`,
    `countdown=6`...; see `simkit games`). With `precision`, `n` is the most games to play and
    the run stops once the win rate's 95 % interval is at most that wide on each side. The
    folder defaults to `runs/GAME-sSEED-nN`; an existing folder of the same run resumes.
    `engine` is auto (the default: native where it can), native or python.
    """
    from simkit.core import runner, scenario

    names = [strategies] if isinstance(strategies, str) else list(strategies or [])
    sc = scenario.single_cell(game, n, seed, settings, names, None, precision)
    folder = Path(out) if out is not None else Path("runs") / f"{game}-s{seed}-n{n}"
    runner.run(
        sc, folder, jobs, backend, progress, f"simkit.simulate({game!r}, {n})", scheduler, engine=engine
    )
    return folder


def run(
    scenario_file: str | Path | dict[str, Any],
    *,
    out: str | Path | None = None,
    jobs: int | None = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = False,
    engine: str | None = None,
) -> Path:
    """Play every cell of a scenario (a TOML file's path, or the same content as a dict) and
    write a dataset; returns its folder (default `runs/<file stem>` or `runs/<scenario name>`).
    `engine` (auto, native or python) overrides the scenario's."""
    from simkit.core import runner, scenario

    if isinstance(scenario_file, dict):
        sc = scenario.parse(scenario_file, "scenario")
        default = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in sc.name)
    else:
        sc = scenario.load(scenario_file)
        default = Path(scenario_file).stem
    folder = Path(out) if out is not None else Path("runs") / default
    command = f"simkit.run({str(scenario_file)[:80]!r})"
    runner.run(sc, folder, jobs, backend, progress, command, scheduler, engine=engine)
    return folder


def load(path: str | Path) -> Dataset:
    """Read a dataset folder: `.games` and `.seats` (polars frames, sorted by cell and game),
    `.failures` and `.manifest` (the run's scenario, seeds, data files and versions)."""
    from simkit.core import dataset

    return dataset.load(path)


def report(datasets: str | Path | Sequence[str | Path], out: str | Path = "reports/latest") -> Path:
    """Write the HTML report of one or more datasets; returns the path of its `index.html`."""
    from simkit.reporting.render import write_report

    if isinstance(datasets, str | Path):
        datasets = [datasets]
    return write_report(list(datasets), out)
