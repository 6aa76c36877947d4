"""The equivalence check of the two engines (DESIGN.md, "Native engines"): the same scenario
played on the native and on the Python engine must give identical game and seat rows.

`tests/native/test_equivalence.py` runs it on 2,000 games a cell; `make verify-native` on
200,000 (`python -m simkit.core.verify --games N`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from simkit.core import dataset, native, runner, scenario
from simkit.core.registry import Engine, all_games


def spec_for(engine: Engine, games: int, seed: int, only: list[str] | None = None) -> dict[str, Any]:
    """Every combination of the game's verify grid with every strategy the native core plays
    (or those of them in `only`)."""
    strategies = [
        s for s in engine.strategies if s in native.native_strategies(engine.id) and (not only or s in only)
    ]
    grid: dict[str, Any] = {**engine.verify_grid, "strategy": strategies}
    return {
        "scenario": {"name": f"verify {engine.id}", "game": engine.id, "games": games, "seed": seed},
        "grid": grid,
    }


def differences(a: dataset.Dataset, b: dataset.Dataset) -> list[str]:
    """What differs between the rows of two datasets of the same scenario (empty: identical)."""
    out = []
    for what, x, y in (("games", a.games, b.games), ("seats", a.seats, b.seats)):
        if x is None or y is None:
            if (x is None) != (y is None):
                out.append(f"{what}: present in one dataset only")
            continue
        if x.schema != y.schema:
            out.append(f"{what}: schemas differ: {x.schema} vs {y.schema}")
            continue
        if x.height != y.height:
            out.append(f"{what}: {x.height} rows vs {y.height}")
            continue
        for name in x.columns:
            unequal = x[name].ne_missing(y[name])
            if unequal.any():
                cell, index = x.filter(unequal).select("cell", "game_index").row(0)
                count = unequal.sum()
                where = f"first: cell {cell}, game {index}"
                out.append(f"{what}: column '{name}' differs in {count} rows ({where})")
    return out


def verify(
    engine: Engine, games: int, seed: int, out: Path, jobs: int, only: list[str] | None = None
) -> list[str]:
    """Play the game's verify scenario on both engines into out/native and out/python; the
    differences between their rows (empty when identical)."""
    sc = scenario.parse(spec_for(engine, games, seed, only), f"verify {engine.id}")
    for kind in ("native", "python"):
        runner.run(sc, out / kind, jobs=jobs, progress=False, engine=kind)
    return differences(dataset.load(out / "native"), dataset.load(out / "python"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000, help="games per cell")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("runs/verify-native"))
    parser.add_argument("--game", action="append", help="only these games (default: every native game)")
    parser.add_argument(
        "--strategy", action="append", help="only these strategies (default: every native one)"
    )
    args = parser.parse_args(argv)
    if native.core() is None:
        print("verify-native: the native core is not built", file=sys.stderr)
        return 2
    failed = False
    for engine in all_games():
        if not native.native_strategies(engine.id) or (args.game and engine.id not in args.game):
            continue
        started = time.perf_counter()
        folder = args.out / "-".join([engine.id, str(args.games), *sorted(args.strategy or [])])
        found = verify(engine, args.games, args.seed, folder, args.jobs, args.strategy)
        cells = dataset.load(folder / "native").games.group_by("cell").len().height
        verdict = "identical" if not found else "DIFFERENT"
        print(
            f"{engine.id}: {cells} cells x {args.games} games, native and python rows {verdict} "
            f"({time.perf_counter() - started:.0f} s)"
        )
        for line in found:
            print(f"  {line}")
        failed |= bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
