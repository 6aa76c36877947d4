"""The runner: cells split into chunks of games, played in parallel, each chunk written as its own
Parquet file. Memory stays flat however many games run, and a run that is interrupted resumes by
skipping the chunks already on disk. Results do not depend on the backend, the number of jobs or
the chunk size: game i of a cell is a pure function of (settings, strategies, root seed, i).
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Protocol

import polars as pl
from joblib import Parallel, delayed
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from simkit.core import dataset, files, native, players, records, stats
from simkit.core.errors import RunIncomplete, UserError
from simkit.core.registry import Cell, get_game
from simkit.core.scenario import Scenario
from simkit.core.version import VERSION

BACKENDS = ("loky", "sequential", "dask")


def seat_order(strategies: Sequence[str], game_index: int) -> tuple[str, ...]:
    """Seats rotate over the games (game i starts from seat i mod P), so every strategy sits in
    every seat equally often and seat effects can be told apart from strategy effects."""
    k = game_index % len(strategies)
    return tuple(strategies[k:]) + tuple(strategies[:k])


@dataclass
class Chunk:
    """A played chunk: its rows, and the engine that played it."""

    cell: str
    start: int
    games: pl.DataFrame
    seats: pl.DataFrame | None
    failures: list[dict]
    engine: str


def play_chunk(
    game_id: str,
    cell: Cell,
    root_seed: int,
    start: int,
    stop: int,
    user_sources: dict[str, str],
    engine_kind: str = "python",
    data: files.ShippedData | None = None,
) -> Chunk:
    """Play games [start, stop) of a cell (see `_play_chunk`) with the component files the task
    carries (`data`: their bytes), so a worker on another machine needs no shared disk."""
    with files.shipped_data(data):
        return _play_chunk(game_id, cell, root_seed, start, stop, user_sources, engine_kind)


def _play_chunk(
    game_id: str,
    cell: Cell,
    root_seed: int,
    start: int,
    stop: int,
    user_sources: dict[str, str],
    engine_kind: str = "python",
) -> Chunk:
    """Play games [start, stop) of a cell on `engine_kind` ("native" or "python").

    Runs in a worker: it receives seeds, settings and the text of any user player files, and
    returns the rows that the parent writes, so a worker on another machine needs no shared disk.
    A chunk the native engine cannot finish is played again on the Python engine, which records
    the failing game like any other.
    """
    players.install(user_sources)
    engine = get_game(game_id)
    if engine_kind == "native":
        core = native.core()
        try:
            games, seats = native.play_batch(engine, cell, root_seed, start, stop)
            return Chunk(cell.name, start, games, seats, [], "native")
        except core.NativeGameError:
            pass  # the manifest will say this cell was (partly) played on python
    label = records.strategy_label(cell.strategies)
    indices, results, seats, failures = [], [], [], []
    for i in range(start, stop):
        strategies = seat_order(cell.strategies, i) if engine.competitive else cell.strategies
        try:
            result = engine.play(cell.settings, strategies, root_seed, i)
        except BaseException as exc:  # a failing game, even a player's sys.exit, is recorded; go on
            if isinstance(exc, KeyboardInterrupt) and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
                raise  # the user's Ctrl-C ends the run (a worker ignores it: there a player raised it)
            failures.append(
                {
                    "game": game_id,
                    "cell": cell.name,
                    "game_index": i,
                    "seed": root_seed,
                    "strategy": label,
                    "error": players.describe_failure(exc, strategies),
                    "traceback": traceback.format_exc(),
                }
            )
            continue
        records.check_record(engine, engine.record, result.record, "the game record")
        indices.append(i)
        results.append(result.record)
        for seat, row in enumerate(result.seats or ()):
            records.check_record(engine, engine.seat_record or (), row, "a seat record")
            seats.append(
                {"game_index": i, "cell": cell.name, "seat": seat, "strategy": strategies[seat], **row}
            )
    games = records.games_frame(engine, cell, root_seed, indices, results)
    return Chunk(cell.name, start, games, records.seats_frame(engine, cell, seats), failures, "python")


def _component_files(game: Any, scenario: Scenario) -> set[str | Path]:
    """Every component file the cells read, as their settings name it (maybe relative to this
    folder) and as the game loads it: what the tasks carry (files.ship_data)."""
    paths: set[str | Path] = set()
    for cell in scenario.cells:
        paths.update(game.data_files(cell.settings))
        named = (cell.settings.get(s.name) for s in game.settings if s.type == "path")
        paths.update(p for p in named if p)
    return paths


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_for(
    scenario: Scenario,
    command: str | None = None,
    engines: dict[str, str] | None = None,
    stopping: str = "fixed",
) -> dict[str, Any]:
    """The run's manifest; `engines` names the engine of each cell (default: the Python one) and
    `stopping` the kind of its stopping rule (`StoppingRule.kind`)."""
    engine = get_game(scenario.game)
    engines = engines or {c.name: "python" for c in scenario.cells}
    data_files: dict[str, str] = {}
    sources: dict[str, dict[str, str]] = {}
    for cell in scenario.cells:
        for path in engine.data_files(cell.settings):
            data_files[str(path)] = _sha256(path)
        sources.update(engine.data_sources(cell.settings))
    return {
        "format": dataset.FORMAT,
        "simkit_version": VERSION,
        "game": engine.id,
        "title": engine.title,
        "rules_version": engine.rules_version,
        "scenario": {
            "name": scenario.name,
            "description": scenario.description,
            "source": scenario.source,
            "spec": scenario.spec,
        },
        "games_per_cell": scenario.games,  # the cap when precision is set; a cell's "games" overrides
        "precision": scenario.precision,
        # how the cells' game counts were decided: "fixed" and "precision" runs are unfinished while a
        # cell is short of its plan; a "tune" or "calibrate" race stops cells early by design
        "stopping": stopping,
        "root_seed": scenario.seed,
        "chunk_size": scenario.chunk_size,
        "grid_keys": scenario.grid_keys,
        "setting_names": [s.name for s in engine.settings],
        "cells": [
            {
                "cell": c.name,
                "settings": records.settings_columns(c.settings),
                "strategy": list(c.strategies),
                "label": cell_label(c, scenario.grid_keys),
                "engine": engines[c.name],
            }
            | (
                {"games": scenario.games_of(c.name), "chunk_size": scenario.chunk_of(c.name)}
                if c.name in scenario.cell_games  # set by [games_by_strategy]
                else {}
            )
            for c in scenario.cells
        ],
        "data_files": data_files,
        "strategy_files": {
            path: players.source_hash(path)
            for path in sorted(players.sources_for({s for c in scenario.cells for s in c.strategies}))
        },
        "data_sources": sources,
        "command": command,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def cell_label(cell: Cell, keys: Sequence[str]) -> str:
    """A short name for a cell from the settings that vary (all of them if none vary)."""
    parts = []
    for key in keys or []:
        if key == "strategy":
            parts.append(f"strategy={records.strategy_label(cell.strategies)}")
        else:
            parts.append(f"{key}={cell.settings[key]}")
    if not parts:
        parts = [
            f"{k}={v}"
            for k, v in records.settings_columns(cell.settings).items()
            if k != "data" or v != "built-in"
        ]
        parts.append(f"strategy={records.strategy_label(cell.strategies)}")
    return " ".join(parts)


@dataclass
class RunSummary:
    out: Path
    games: int  # games played now
    skipped_chunks: int  # chunks found on disk (resumed)
    failures: int
    games_per_cell: dict[str, int] = field(default_factory=dict)  # games on disk per cell at the end


def games_for_precision(p: float, half_width: float, cap: int) -> int:
    """The smallest game count whose 95 % Wilson interval at rate `p` is at most `half_width`
    on each side (its longer side: near 0 or 1 the interval is lopsided), or `cap` if none below
    it is. The longer side shrinks as games grow, so a bisection finds it."""
    lo, hi = 1, cap
    if stats.wilson_longer_side(p, hi) > half_width:
        return cap
    while lo < hi:
        mid = (lo + hi) // 2
        if stats.wilson_longer_side(p, mid) <= half_width:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _round_up(n: int, step: int, cap: int) -> int:
    return min(cap, -(-n // step) * step)


Tally = tuple[int, int, int]  # (wins, games with a verdict, games)


class StoppingRule(Protocol):
    """Decides how many games each cell plays, round by round, from the results so far.

    A round ends when every planned chunk is on disk; the rule then sees each cell's tally over
    its planned games and returns the new per-cell game counts (a count never shrinks; no change
    ends the run). The rule sees only whole rounds, so its decisions, and the rows, are the same
    on every backend and job count.

    A rule may also say how one chunk counts, with a method `tally(games, seats) -> Tally` over
    the chunk's game rows and seat rows (None for a crew or solo game); without one a chunk counts
    by `tally_of(games)`, the games' `won` column (see `chunk_tally`). The runner counts every
    chunk that one way, whether just played or found on disk by a resumed run.
    """

    kind: ClassVar[str]  # the manifest's "stopping": fixed, precision, tune or calibrate

    def first(self, cells: Sequence[str]) -> dict[str, int]: ...

    def after_round(self, tallies: dict[str, Tally], targets: dict[str, int]) -> dict[str, int]: ...


@dataclass(frozen=True)
class FixedCount:
    """Each cell its planned games (`Scenario.games_of`) in one round."""

    kind: ClassVar[str] = "fixed"
    games: dict[str, int]

    def first(self, cells: Sequence[str]) -> dict[str, int]:
        return {cell: self.games[cell] for cell in cells}

    def after_round(self, tallies: dict[str, Tally], targets: dict[str, int]) -> dict[str, int]:
        return targets


@dataclass(frozen=True)
class Precision:
    """Each cell on its own: play until both sides of its win rate's 95 % interval are at most
    `half_width` (the name is the scenario's; see `next_target`)."""

    kind: ClassVar[str] = "precision"
    half_width: float
    plans: dict[str, tuple[int, int]]  # cell -> (games per chunk, cap)

    def first(self, cells: Sequence[str]) -> dict[str, int]:
        return {cell: first_target(self.half_width, *self.plans[cell]) for cell in cells}

    def after_round(self, tallies: dict[str, Tally], targets: dict[str, int]) -> dict[str, int]:
        out = dict(targets)
        for cell, (wins, decided, _) in tallies.items():
            after = next_target(wins, decided, targets[cell], self.half_width, *self.plans[cell])
            if after is not None:
                out[cell] = after
        return out


def first_target(precision: float, chunk: int, cap: int) -> int:
    """Games in a precision run's first round: 1/32 of the worst case (rate 0.5), whole chunks."""
    return _round_up(max(games_for_precision(0.5, precision, cap) // 32, chunk), chunk, cap)


def next_target(wins: int, decided: int, played: int, precision: float, chunk: int, cap: int) -> int | None:
    """The stopping rule of a precision run, applied after each round: None once the 95 % Wilson
    interval of `wins`/`decided` is at most `precision` on each side, its longer side included
    (or the cap is reached), else the game count the observed rate predicts is enough, in whole
    chunks and at least one more.

    It reads the interval's width only. Stopping when a result looks significant would bias the
    estimate and shrink the coverage below 95 %; the width barely depends on the estimate, so
    stopping on it leaves the intervals honest (tests/core/test_precision.py measures coverage).
    Barely is not never: at rare rates a run that happens to see few wins has a shorter upper
    side and stops sooner, so stopped estimates lean low there (the test measures how much and the
    README states it).
    """
    if played >= cap or (decided and stats.wilson(wins, decided).longer_side <= precision):
        return None
    need = games_for_precision(wins / decided if decided else 0.5, precision, cap)
    return _round_up(max(need, played + chunk), chunk, cap)


def _sum_tally(
    tally: dict[tuple[str, int], tuple[int, int, int]], cell: str, stop: int, chunk: int
) -> tuple[int, int, int]:
    """Wins, games with a verdict and games over the cell's chunks below `stop` (a chunk found on
    disk beyond the current round, left by a killed run, waits for its round)."""
    parts = [tally[cell, start] for start in range(0, stop, chunk)]
    return sum(p[0] for p in parts), sum(p[1] for p in parts), sum(p[2] for p in parts)


def _start_worker(parent: int) -> None:
    """Run in each loky worker as it starts: leave Ctrl-C to the parent, and end once it is gone.

    Ctrl-C reaches every process of the terminal's group; the parent stops the run, ends the
    workers and prints one line, where a worker interrupted mid-task would print a traceback.
    A worker whose parent was killed (SIGKILL, SIGTERM) would live on, blocked on a pipe and
    holding the terminal: it polls its parent id from a daemon thread. (Not PR_SET_PDEATHSIG: the
    kernel sends that when the *thread* that started the worker ends, and loky starts workers
    from threads that come and go.)
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="simkit-parent-watch", daemon=True).start()


def tally_of(games: pl.DataFrame) -> Tally:
    """(wins, games with a verdict, games) of some game rows: what a stopping rule reads."""
    won = games["won"]
    return int(won.sum() or 0), int(won.is_not_null().sum()), games.height


def seat_rows(seats: pl.DataFrame, players: int, position: int = 0) -> pl.DataFrame:
    """The rows of one seat of a competitive game: the seat that plays the strategy listed at
    `position` of a cell's `players` strategies. `seat_order` rotates it: in game i it sits at
    seat (position - i) mod players. It is found by its place, not by its strategy's name, so it
    stands alone even where other seats play the same spec."""
    index = pl.col("game_index")
    return seats.filter(pl.col("seat") == (position + players - index % players) % players)


def seat_tally(games: pl.DataFrame, seats: pl.DataFrame | None, players: int, position: int = 0) -> Tally:
    """(wins, games with a verdict, games) of one seat of some games' rows (`seat_rows`). A win
    the seat shares (a tie that every tied player wins) counts as a win."""
    if seats is None or seats.height == 0:
        return 0, 0, games.height
    won = seat_rows(seats, players, position)["won"]
    return int(won.sum() or 0), int(won.is_not_null().sum()), games.height


ChunkTally = Callable[[pl.DataFrame, pl.DataFrame | None], Tally]


def chunk_tally(rule: StoppingRule) -> ChunkTally:
    """How `rule` counts one chunk from its rows: its own `tally(games, seats)` where it has one
    (a seat against a field counts that seat's wins: `seat_tally`), else `tally_of(games)`."""
    own = getattr(rule, "tally", None)
    if callable(own):
        return own
    return lambda games, seats: tally_of(games)


def _finished_chunk(out: Path, cell: str, start: int, stop: int, done: set[str]) -> dataset.ChunkRows | None:
    """The chunk's rows if it is finished on disk and sound (its files match their checksum
    record and account for every game of it); a damaged one is named and played again."""
    name = dataset.chunk_file(cell, start)
    if name not in done:
        return None
    try:
        rows = dataset.read_chunk(out, name)
        if rows.accounted != stop - start:
            raise dataset.DamagedChunk(
                f"{out / dataset.GAMES / name}: accounts for {rows.accounted} of its {stop - start} games"
            )
    except dataset.DamagedChunk as exc:
        print(f"simkit: {exc}; playing the chunk again", file=sys.stderr)
        return None
    return rows


def _missing(
    out: Path,
    planned: set[tuple[str, int]],
    accounted: dict[tuple[str, int], int],
    plans: dict[str, tuple[int, int]],
) -> str | None:
    """What a run leaves unaccounted for, in one line (None if nothing): the planned games that
    are neither written nor recorded as failed."""
    size = {(cell, start): min(start + plans[cell][0], plans[cell][1]) - start for cell, start in planned}
    gaps = sorted(key for key in planned if accounted.get(key) != size[key])
    if not gaps:
        return None
    have = sum(accounted.get(key, 0) for key in planned)
    shown = ", ".join(f"{cell} games {start}-{start + size[cell, start] - 1}" for cell, start in gaps[:3])
    more = f" and {len(gaps) - 3} more chunks" if len(gaps) > 3 else ""
    return (
        f"{out}: {have} of {sum(size.values())} planned games are written or recorded as failed; "
        f"missing: {shown}{more}; the same command plays them"
    )


def _worker_died(exc: BaseException) -> bool:
    """A worker process died under a task: loky's broken pool, or Dask's KilledWorker (the
    scheduler gave up on a task after its workers kept dying)."""
    return isinstance(exc, BrokenExecutor) or type(exc).__name__ == "KilledWorker"


@contextmanager
def _workers(backend: str, jobs: int | None, scheduler: str | None, threads: bool) -> Iterator[Parallel]:
    """`_backend_workers`, quiet about the tasks it drops when the run is interrupted: joblib warns
    of them, and the only line a Ctrl-C prints is simkit's own (finished chunks are kept)."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore",
            message=r".*tasks (which were still being processed|have been successfully executed)",
            category=UserWarning,
        )
        with _backend_workers(backend, jobs, scheduler, threads) as parallel:
            yield parallel


class _NativeThreads:
    """Threads with the call shape of joblib's `Parallel(return_as="generator_unordered")`.

    Not joblib's threading backend: its threads are daemons, and a daemon thread still inside a
    native batch when an interrupted run exits is torn down mid-call and aborts the process. Here
    leaving (normally or by Ctrl-C) drops the queued chunks and waits for the running ones, at
    most one chunk each.
    """

    def __init__(self, n_jobs: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=n_jobs, thread_name_prefix="simkit-native")

    def __enter__(self) -> _NativeThreads:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def __call__(self, tasks: Iterable[tuple[Any, tuple, dict]]) -> Iterator[Any]:
        futures = [self.pool.submit(function, *args, **kwargs) for function, args, kwargs in tasks]
        return (future.result() for future in as_completed(futures))


@contextmanager
def _backend_workers(
    backend: str, jobs: int | None, scheduler: str | None, threads: bool
) -> Iterator[Parallel]:
    """A joblib Parallel for the backend, kept alive over every round of the run.

    `loky` with `threads` (every cell on the native engine) runs the chunks on threads of this
    process: a native batch releases the GIL, and threads cost no worker start-up (about a second
    for a process that imports simkit) and no copy of the rows between processes.

    `dask` uses an existing cluster when given a scheduler address, else starts a local one with
    one single-threaded worker process per job (per core when --jobs is not given).
    """
    if backend != "dask":
        if scheduler:
            raise UserError("--scheduler is only for --backend dask")
        n_jobs = 1 if backend == "sequential" else (jobs or 1)
        if backend == "loky" and n_jobs > 1 and threads:
            with _NativeThreads(n_jobs) as pool:
                yield pool
            return
        worker_setup = {"initializer": _start_worker, "initargs": (os.getpid(),)}
        with Parallel(
            n_jobs=n_jobs,
            backend=backend,
            return_as="generator_unordered",
            batch_size=1,
            **(worker_setup if backend == "loky" and n_jobs > 1 else {}),
        ) as parallel:
            yield parallel
        return
    import logging

    from distributed import Client, LocalCluster
    from joblib import parallel_config

    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="10s")
        else:
            cluster = LocalCluster(
                n_workers=jobs or os.cpu_count() or 1,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
            client = Client(cluster)
    except (OSError, TimeoutError, ValueError) as exc:
        where = f"at {scheduler}" if scheduler else "(local cluster)"
        raise UserError(f"cannot reach the Dask scheduler {where}: {exc}") from None
    try:
        with (
            parallel_config(backend="dask"),
            Parallel(n_jobs=-1, return_as="generator_unordered") as parallel,
        ):
            yield parallel
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(
    scenario: Scenario,
    out: str | Path,
    jobs: int | None = 1,
    backend: str = "loky",
    progress: bool = True,
    command: str | None = None,
    scheduler: str | None = None,
    stopping: StoppingRule | None = None,
    engine: str | None = None,
) -> RunSummary:
    """Play every cell of the scenario into the dataset folder `out` (resuming if it exists).

    Each cell plays its games (`scenario.games_of`), unless a stopping rule says otherwise: with
    `scenario.precision` set, each cell plays in rounds of whole chunks until the 95 % Wilson
    interval of its win rate is at most that wide on each side, or its games (the cap) are
    played (see `next_target`). `simkit calibrate` passes its own rule.

    `engine` (auto, native or python; default the scenario's) picks each cell's engine
    (core/native.py); the manifest records it.
    """
    if backend not in BACKENDS:
        raise UserError(f"unknown backend '{backend}' (allowed: {', '.join(BACKENDS)})")
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    out = Path(out)
    # each cell's (games per chunk, cap): a [games_by_strategy] cell has its own
    plans = {c.name: (scenario.chunk_of(c.name), scenario.games_of(c.name)) for c in scenario.cells}
    if stopping is None:
        precision = scenario.precision
        stopping = (
            FixedCount({name: cap for name, (_, cap) in plans.items()})
            if precision is None
            else Precision(precision, plans)
        )
    requested = engine or scenario.engine
    game = get_game(scenario.game)
    where = scenario.source or "simulate"
    engines = {cell.name: native.choose(game, cell, requested, where) for cell in scenario.cells}
    manifest = manifest_for(scenario, command, engines, stopping.kind)
    user_sources = players.sources_for({s for cell in scenario.cells for s in cell.strategies})
    data = files.ship_data(_component_files(game, scenario))
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    names = [cell.name for cell in scenario.cells]
    threads = all(kind == "native" for kind in engines.values())
    with _workers(backend, jobs, scheduler, threads) as parallel, dataset.lock(out):
        dataset.prepare(out, manifest)
        dataset.remove_partial_files(out)
        done = dataset.finished_chunks(out)
        # (wins, games with a verdict, games) per finished chunk, counted as the rule says: what
        # it reads
        count = chunk_tally(stopping)
        tally: dict[tuple[str, int], Tally] = {}
        accounted: dict[tuple[str, int], int] = {}  # games written or recorded as failed, per chunk
        target = {name: min(plans[name][1], n) for name, n in stopping.first(names).items()}
        played = failed = skipped = 0
        planned: set[tuple[str, int]] = set()
        used: dict[str, set[str]] = {}  # the engines that actually played each cell's chunks
        with Progress(*columns, disable=not progress, transient=False) as bar:
            task = bar.add_task(f"{scenario.game}", total=0)
            while True:
                tasks = []
                for cell in scenario.cells:
                    chunk, cap = plans[cell.name]
                    for start in range(0, target[cell.name], chunk):
                        if (cell.name, start) in planned:
                            continue
                        planned.add((cell.name, start))
                        stop = min(start + chunk, cap)
                        on_disk = _finished_chunk(out, cell.name, start, stop, done)
                        if on_disk is None:
                            tasks.append((cell, start, stop))
                            continue
                        skipped += 1
                        tally[cell.name, start] = count(on_disk.games, on_disk.seats)
                        accounted[cell.name, start] = on_disk.accounted
                bar.update(task, total=bar.tasks[0].total + sum(b - a for _, a, b in tasks))
                results = parallel(
                    delayed(partial(play_chunk, data=data))(
                        scenario.game, cell, scenario.seed, start, stop, user_sources, engines[cell.name]
                    )
                    for cell, start, stop in tasks
                )
                try:
                    for piece in results:
                        name, start, games = piece.cell, piece.start, piece.games
                        dataset.write_chunk(
                            out, dataset.chunk_file(name, start), games, piece.seats, piece.failures
                        )
                        tally[name, start] = count(games, piece.seats)
                        accounted[name, start] = games.height + len(piece.failures)
                        played += games.height
                        failed += len(piece.failures)
                        used.setdefault(name, set()).add(piece.engine)
                        bar.advance(task, games.height + len(piece.failures))
                except Exception as exc:  # a worker process died (a player's os._exit, a crash, OOM)
                    if not _worker_died(exc):
                        raise
                    codes = re.search(r"exit codes of the workers are (\{[^}]*\})", str(exc))
                    how = f"exit codes {codes[1]}" if codes else type(exc).__name__
                    missing = _missing(out, planned, accounted, plans)
                    raise RunIncomplete(f"a worker process died ({how}); {missing}") from None
                tallies = {name: _sum_tally(tally, name, target[name], plans[name][0]) for name in names}
                after = stopping.after_round(tallies, dict(target))
                after = {name: max(target[name], _round_up(after[name], *plans[name])) for name in names}
                if after == target:
                    break
                target = after
        if any(engines_ != {engines[name]} for name, engines_ in used.items()):
            dataset.record_engines(out, used)
    missing = _missing(out, planned, accounted, plans)
    if missing:
        raise RunIncomplete(missing)
    per_cell = {name: _sum_tally(tally, name, target[name], plans[name][0])[2] for name in names}
    return RunSummary(out, played, skipped, failed, per_cell)
