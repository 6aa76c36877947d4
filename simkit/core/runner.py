"""The runner: cells split into chunks of games, played in parallel, each chunk written as its own
Parquet file. Memory stays flat however many games run, and a run that is interrupted resumes by
skipping the chunks already on disk. Results do not depend on the backend, the number of jobs or
the chunk size: game i of a cell is a pure function of (settings, strategies, root seed, i).
"""

from __future__ import annotations

import hashlib
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from simkit import __version__
from simkit.core import dataset
from simkit.core.errors import UserError
from simkit.core.registry import Cell, get_game
from simkit.core.scenario import Scenario

BACKENDS = ("loky", "sequential")


def seat_order(strategies: Sequence[str], game_index: int) -> tuple[str, ...]:
    """Seats rotate over the games (game i starts from seat i mod P), so every strategy sits in
    every seat equally often and seat effects can be told apart from strategy effects."""
    k = game_index % len(strategies)
    return tuple(strategies[k:]) + tuple(strategies[:k])


def settings_columns(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings as dataset columns; the built-in data file is named, not null."""
    return {k: ("built-in" if k == "data" and v is None else v) for k, v in settings.items()}


def strategy_label(strategies: Sequence[str]) -> str:
    return ",".join(strategies)


def play_chunk(game_id: str, cell: Cell, root_seed: int, start: int, stop: int, out: str) -> tuple[int, int]:
    """Play games [start, stop) of a cell and write them; returns (games written, failures).

    Runs in a worker: it receives seeds and settings only, and returns two numbers.
    """
    engine = get_game(game_id)
    base = {"game": game_id, "cell": cell.name}
    fixed = settings_columns(cell.settings)
    label = strategy_label(cell.strategies)
    games, seats, failures = [], [], []
    for i in range(start, stop):
        strategies = seat_order(cell.strategies, i) if engine.competitive else cell.strategies
        try:
            result = engine.play(cell.settings, strategies, root_seed, i)
        except Exception as exc:  # a failing game is recorded, the batch goes on
            failures.append(
                {
                    **base,
                    "game_index": i,
                    "seed": root_seed,
                    "error": f"{type(exc).__name__}: {exc}",
                    "traceback": traceback.format_exc(),
                }
            )
            continue
        games.append(
            {**base, "game_index": i, "seed": root_seed, **fixed, "strategy": label, **result.record}
        )
        if result.seats:
            for seat, row in enumerate(result.seats):
                seats.append(
                    {"game_index": i, "cell": cell.name, "seat": seat, "strategy": strategies[seat], **row}
                )
    dataset.write_chunk(Path(out), dataset.chunk_file(cell.name, start), games, seats or None, failures)
    return len(games), len(failures)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_for(scenario: Scenario, command: str | None = None) -> dict[str, Any]:
    engine = get_game(scenario.game)
    data_files: dict[str, str] = {}
    sources: dict[str, dict[str, str]] = {}
    for cell in scenario.cells:
        for path in engine.data_files(cell.settings):
            data_files[str(path)] = _sha256(path)
        sources.update(engine.data_sources(cell.settings))
    return {
        "format": 1,
        "simkit_version": __version__,
        "game": engine.id,
        "title": engine.title,
        "scenario": {
            "name": scenario.name,
            "description": scenario.description,
            "source": scenario.source,
            "spec": scenario.spec,
        },
        "games_per_cell": scenario.games,
        "root_seed": scenario.seed,
        "chunk_size": scenario.chunk_size,
        "grid_keys": scenario.grid_keys,
        "setting_names": [s.name for s in engine.settings],
        "cells": [
            {
                "cell": c.name,
                "settings": settings_columns(c.settings),
                "strategy": list(c.strategies),
                "label": cell_label(c, scenario.grid_keys),
            }
            for c in scenario.cells
        ],
        "data_files": data_files,
        "data_sources": sources,
        "command": command,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def cell_label(cell: Cell, keys: Sequence[str]) -> str:
    """A short name for a cell from the settings that vary (all of them if none vary)."""
    parts = []
    for key in keys or []:
        if key == "strategy":
            parts.append(f"strategy={strategy_label(cell.strategies)}")
        else:
            parts.append(f"{key}={cell.settings[key]}")
    if not parts:
        parts = [
            f"{k}={v}" for k, v in settings_columns(cell.settings).items() if k != "data" or v != "built-in"
        ]
        parts.append(f"strategy={strategy_label(cell.strategies)}")
    return " ".join(parts)


@dataclass
class RunSummary:
    out: Path
    games: int  # games played now
    skipped_chunks: int  # chunks found on disk (resumed)
    failures: int


def run(
    scenario: Scenario,
    out: str | Path,
    jobs: int = 1,
    backend: str = "loky",
    progress: bool = True,
    command: str | None = None,
) -> RunSummary:
    """Play every cell of the scenario into the dataset folder `out` (resuming if it exists)."""
    if backend not in BACKENDS:
        raise UserError(f"unknown backend '{backend}' (allowed: {', '.join(BACKENDS)})")
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    out = Path(out)
    dataset.prepare(out, manifest_for(scenario, command))
    dataset.remove_partial_files(out)
    done = dataset.finished_chunks(out)
    tasks = []
    skipped = 0
    for cell in scenario.cells:
        for start in range(0, scenario.games, scenario.chunk_size):
            if dataset.chunk_file(cell.name, start) in done:
                skipped += 1
                continue
            tasks.append((cell, start, min(start + scenario.chunk_size, scenario.games)))
    total = sum(stop - start for _, start, stop in tasks)
    played = failed = 0
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, disable=not progress, transient=False) as bar:
        task = bar.add_task(f"{scenario.game}", total=total)
        if tasks:
            parallel = Parallel(
                n_jobs=1 if backend == "sequential" else jobs,
                backend=backend,
                return_as="generator_unordered",
            )
            results = parallel(
                delayed(play_chunk)(scenario.game, cell, scenario.seed, start, stop, str(out))
                for cell, start, stop in tasks
            )
            for n_games, n_failed in results:
                played += n_games
                failed += n_failed
                bar.advance(task, n_games + n_failed)
    return RunSummary(out, played, skipped, failed)
