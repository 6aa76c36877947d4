"""`make bench`: speed, parallel speed-up and memory of simkit, written to bench.json.

Not a test: nothing here asserts a time. Figures:
- games per second on one core for each game and strategy, on the Python engine (CPU time of a
  plain loop over `engine.play` with the default settings, best of three rounds) and, where the
  native core plays it, on the native engine (a bare loop of batch calls, 1,000 games each);
- the runner's overhead: a whole `simkit simulate --jobs 1` against a bare loop over the same games,
  on the Python engine (20,000 greedy games) and on the native engine (1,000,000);
- the `--jobs 2` speed-up: wall time of `simkit simulate` with 1 and with 2 jobs on the same games
  (1,000,000 native greedy games);
- peak memory (resident set of the simkit process and its workers, sampled) of a 40,000-game and a
  1,000,000-game native run on 2 jobs: flat memory means the larger run stays within 1.2x;
- the search players (`mcts`, native only): decisions per second on one core at each budget, for
  each game, over whole games at the default settings (the core counts the decisions searched).

SIMKIT_BENCH_SCALE (default 1) scales every game count, e.g. 0.1 for a quick look;
SIMKIT_BENCH_ONLY=speed measures games per second only (a minute instead of half an hour).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simkit import __version__
from simkit.core import native
from simkit.core.registry import Cell, all_games, get_game, resolve_settings, resolve_strategies

SCALE = float(os.environ.get("SIMKIT_BENCH_SCALE", "1"))
ONLY_SPEED = os.environ.get("SIMKIT_BENCH_ONLY") == "speed"
ROUND_SECONDS = 2.0  # CPU time per timing round of one game and strategy (best of three rounds)
SPEEDUP_GAMES = 1_000_000
OVERHEAD_GAMES = 20_000
NATIVE_OVERHEAD_GAMES = 1_000_000
MEMORY_GAMES = (40_000, 1_000_000)
BATCH = 10_000  # games per native batch call in the bare loops (the runner's largest chunk)
PROBE = 10  # games of the first batch, which times a game to size the others
SEARCH_BUDGETS = (50, 200, 800)  # mcts iterations a decision: the ladders' three rungs


def scaled(n: int) -> int:
    return max(10, int(n * SCALE))


# Settings the issues set speed floors for, beside each game's defaults
EXTRA_SPEED = [
    ("alien-attack", "greedy", {"players": 4}),
    ("space-alert", "scripted", {"mission": "real", "figures": 4}),
]


def games_per_second(engine, strategy: str, overrides: dict | None = None) -> dict:
    """Games per CPU second of a plain loop over `engine.play` with the game's default settings
    (and `overrides`), the strategy in every seat; best of three rounds of about ROUND_SECONDS."""
    settings = {s.name: s.default for s in engine.settings} | (overrides or {})
    strategies = resolve_strategies(engine, [strategy], settings.get("players"), "bench")
    start, i = time.process_time(), 0
    while time.process_time() - start < ROUND_SECONDS * min(SCALE, 1) or i < 3:  # warm memo tables
        engine.play(settings, strategies, 999, i)
        i += 1
    best, turns, played = 0.0, 0, 0
    for round_ in range(3):
        start = time.process_time()
        played = turns = 0
        while time.process_time() - start < ROUND_SECONDS * min(SCALE, 1) or played < 5:
            turns += engine.play(settings, strategies, 1 + round_, played).record["length"]
            played += 1
        best = max(best, played / (time.process_time() - start))
    return {
        "game": engine.id,
        "strategy": strategy,
        "seats": len(strategies),
        "settings": {k: v for k, v in settings.items() if v is not None},
        "games": played,
        "games_per_s": round(best, 1),
        "mean_length": round(turns / played, 2),
    }


def native_games_per_second(engine, strategy: str, overrides: dict | None = None) -> float:
    """Games per CPU second of a bare loop of native batch calls (BATCH games each, fewer for a
    player slower than 5,000 games a second), default settings and `overrides`; best of three
    rounds after an untimed one."""
    settings = resolve_settings(engine, overrides or {}, "bench")
    strategies = resolve_strategies(engine, [strategy], settings.get("players"), "bench")
    cell = Cell(0, settings, strategies)
    native.play_batch(engine, cell, 999, 0, PROBE)  # the first call loads what the core then keeps
    start = time.process_time()
    native.play_batch(engine, cell, 999, PROBE, 2 * PROBE)  # how long a game takes, warm
    per_game = (time.process_time() - start) / PROBE
    # a slow player (a search) gets batches of about a fifth of a second instead of BATCH games
    batch = max(PROBE, min(BATCH, int(0.2 / per_game) if per_game else BATCH))
    # warm up for one round, untimed, as the Python loop does: the core keeps its memo of kill
    # options from batch to batch in a process (8-Bit), as a worker does over a long run's chunks
    start, played = time.process_time(), 0
    while time.process_time() - start < ROUND_SECONDS * min(SCALE, 1):
        native.play_batch(engine, cell, 998, played, played + batch)
        played += batch
    best = 0.0
    for round_ in range(3):
        start, played = time.process_time(), 0
        while time.process_time() - start < ROUND_SECONDS * min(SCALE, 1) or played < batch:
            native.play_batch(engine, cell, 1 + round_, played, played + batch)
            played += batch
        best = max(best, played / (time.process_time() - start))
    return round(best, 1)


def native_overhead(work: Path) -> dict:
    """Wall time of a whole native `simkit simulate --jobs 1` against a bare loop of batch calls
    over the same games (same chunks, nothing written), both in fresh processes."""
    n = scaled(NATIVE_OVERHEAD_GAMES)
    bare_code = (
        "import time; from simkit.core import native, scenario; "
        f"sc = scenario.single_cell('eight-bit-invaders', {n}, 1, {{}}, ['greedy']); "
        "from simkit.core.registry import get_game; e = get_game('eight-bit-invaders'); "
        "c = sc.cells[0]; k = sc.chunk_size; t = time.perf_counter(); "
        f"[native.play_batch(e, c, 1, a, min(a + k, {n})) for a in range(0, {n}, k)]; "
        "print(time.perf_counter() - t)"
    )
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", bare_code], check=True, capture_output=True)
    bare = time.perf_counter() - start
    args = ["eight-bit-invaders", "-n", str(n), "--seed", "1", "--jobs", "1", "--engine", "native"]
    full, _ = timed_simulate([*args, "--out", str(work / "native-overhead")])
    return {
        "games": n,
        "bare_loop_s": round(bare, 2),
        "simkit_simulate_s": round(full, 2),
        "ratio": round(full / bare, 3),
    }


def runner_overhead(work: Path) -> dict:
    """Wall time of a whole `simkit simulate` (start-up, workers, Parquet, manifest) against a bare
    loop over `engine.play` for the same games, both in fresh processes on one core."""
    n = scaled(OVERHEAD_GAMES)
    bare_code = (
        "import time; from simkit.core.registry import get_game; e = get_game('eight-bit-invaders'); "
        "s = {x.name: x.default for x in e.settings}; t = time.perf_counter(); "
        f"[e.play(s, ['greedy'], 1, i) for i in range({n})]; print(time.perf_counter() - t)"
    )
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", bare_code], check=True, capture_output=True)
    bare = time.perf_counter() - start
    args = ["eight-bit-invaders", "-n", str(n), "--seed", "1", "--jobs", "1", "--engine", "python"]
    full, _ = timed_simulate([*args, "--out", str(work / "overhead")])
    return {
        "games": n,
        "bare_loop_s": round(bare, 2),
        "simkit_simulate_s": round(full, 2),
        "overhead": round(full / bare - 1, 4),
    }


def _tree_rss_kb(root: int) -> int:
    """Resident memory of a process and all its descendants (Linux /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/statm") as f:
                pages = int(f.read().split()[1])
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = pages * os.sysconf("SC_PAGE_SIZE") // 1024
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def timed_simulate(args: list[str]) -> tuple[float, int]:
    """Wall time and peak resident memory (kB, process tree) of one `simkit simulate`."""
    cmd = [sys.executable, "-m", "simkit.cli", "simulate", *args, "--quiet"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss_kb(proc.pid))
        time.sleep(0.1)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"benchmark run failed: {' '.join(cmd)}")
    return elapsed, peak


def search_decisions_per_second(engine, strategy: str, iterations: int) -> dict:
    """Decisions per CPU second of a native search player at one budget: whole games at the
    default settings (every seat that strategy), for about 2 x ROUND_SECONDS; the core counts
    the decisions it searched."""
    spec = f"{strategy}:iterations={iterations}"
    settings = resolve_settings(engine, {}, "bench")
    cell = Cell(0, settings, resolve_strategies(engine, [spec], settings.get("players"), "bench"))
    core = native.core()
    core.take_decision_count()
    start, games = time.process_time(), 0
    while time.process_time() - start < 2 * ROUND_SECONDS * min(SCALE, 1) or games < 2:
        native.play_batch(engine, cell, 7, games, games + 1)
        games += 1
    seconds = time.process_time() - start
    decisions = core.take_decision_count()
    return {
        "game": engine.id,
        "strategy": spec,
        "games": games,
        "decisions": decisions,
        "decisions_per_s": round(decisions / seconds, 1),
        "seconds_per_game": round(seconds / games, 3),
    }


def main() -> None:
    results: dict = {
        "simkit_version": __version__,
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "scale": SCALE,
    }
    print(f"simkit {__version__} benchmarks (scale {SCALE})\n")
    speed = []
    runs = [(engine, strategy, None) for engine in all_games() for strategy in engine.strategies]
    runs += [(get_game(game), strategy, overrides) for game, strategy, overrides in EXTRA_SPEED]
    for engine, strategy, overrides in runs:
        if native.native_only(engine, strategy):
            continue  # the search players: decisions per second, below
        row = games_per_second(engine, strategy, overrides)
        if strategy in native.native_strategies(engine.id):
            row["native_games_per_s"] = native_games_per_second(engine, strategy, overrides)
            row["native_speedup"] = round(row["native_games_per_s"] / row["games_per_s"], 1)
        speed.append(row)
        where = " ".join(f"{k}={v}" for k, v in (overrides or {}).items())
        fast = (
            f", native {row['native_games_per_s']:>9.1f} ({row['native_speedup']:.0f}x)"
            if "native_games_per_s" in row
            else ""
        )
        print(
            f"  {row['game']:<20} {strategy:<10} python {row['games_per_s']:>8.1f}{fast} games/s on one core"
            f"  ({row['mean_length']} turns a game){'  ' + where if where else ''}"
        )
    results["games_per_second_one_core"] = speed
    search = []
    print()
    for engine in all_games():
        searchers = [s for s in engine.strategies if native.native_only(engine, s)]
        for strategy in (s for s in searchers if s in native.native_strategies(engine.id)):
            for iterations in SEARCH_BUDGETS:
                row = search_decisions_per_second(engine, strategy, iterations)
                search.append(row)
                print(
                    f"  {engine.id:<20} {row['strategy']:<20} {row['decisions_per_s']:>8.1f} decisions/s "
                    f"on one core, {row['seconds_per_game']:.2f} s a game"
                )
    results["search_decisions_per_second_one_core"] = search
    if ONLY_SPEED:
        Path("bench.json").write_text(json.dumps(results, indent=2) + "\n")
        print("\nwritten to bench.json (speed only)")
        return

    work = Path(tempfile.mkdtemp(prefix="simkit-bench-"))
    try:
        overhead = runner_overhead(work)
        results["runner_overhead"] = overhead
        print(
            f"\n  runner overhead on {overhead['games']} greedy games, one core: bare loop "
            f"{overhead['bare_loop_s']:.1f} s, simkit simulate {overhead['simkit_simulate_s']:.1f} s "
            f"= {100 * overhead['overhead']:+.1f} %"
        )
        if native.native_strategies("eight-bit-invaders"):
            fast = native_overhead(work)
            results["native_runner_overhead"] = fast
            print(
                f"  native: {fast['games']} greedy games, one core: bare batch loop "
                f"{fast['bare_loop_s']:.1f} s, simkit simulate {fast['simkit_simulate_s']:.1f} s "
                f"= {fast['ratio']:.2f}x"
            )
        n = scaled(SPEEDUP_GAMES)
        common = ["eight-bit-invaders", "-n", str(n), "--seed", "1", "--strategy", "greedy"]
        t1, _ = timed_simulate([*common, "--jobs", "1", "--out", str(work / "j1")])
        t2, _ = timed_simulate([*common, "--jobs", "2", "--out", str(work / "j2")])
        results["jobs_speedup"] = {
            "games": n,
            "jobs1_s": round(t1, 2),
            "jobs2_s": round(t2, 2),
            "speedup": round(t1 / t2, 3),
        }
        print(
            f"\n  --jobs 2 speed-up on {n} greedy games (auto engine): "
            f"{t1:.1f} s -> {t2:.1f} s = {t1 / t2:.2f}x"
        )

        memory = []
        for m in MEMORY_GAMES:
            games = scaled(m)
            args = [
                "eight-bit-invaders",
                "-n",
                str(games),
                "--seed",
                "2",
                "--strategy",
                "greedy",
                "--jobs",
                "2",
            ]
            elapsed, peak = timed_simulate([*args, "--out", str(work / f"m{games}")])
            memory.append(
                {"games": games, "peak_rss_mb": round(peak / 1024, 1), "seconds": round(elapsed, 1)}
            )
            print(f"  peak memory, {games} games on 2 jobs: {peak / 1024:.0f} MB ({elapsed:.0f} s)")
        ratio = memory[1]["peak_rss_mb"] / memory[0]["peak_rss_mb"]
        results["memory"] = {"runs": memory, "ratio": round(ratio, 3)}
        print(f"  memory ratio {memory[1]['games']} / {memory[0]['games']} games: {ratio:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    Path("bench.json").write_text(json.dumps(results, indent=2) + "\n")
    print("\nwritten to bench.json")


if __name__ == "__main__":
    main()
