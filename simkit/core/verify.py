"""The equivalence check of the two engines (DESIGN.md, "Native engines"): the same scenario
played on the native and on the Python engine must give identical game and seat rows.

`tests/native/test_equivalence.py` runs it on 2,000 games a cell; `make verify-native` on each
game's count in the Makefile's VERIFY_COUNTS (`python -m simkit.core.verify --games N`). A game's
check is its main scenario (the verify grid, every fast native strategy) and, where the game
declares them, parts of their own: further settings one factor at a time
(`Engine.verify_factors`), each slow strategy on fewer games (`Engine.verify_games`,
`verify_settings`) and the mixed cells (`Engine.verify_mixed`). Each part is played into its own
folder.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from simkit.core import dataset, native, runner, scenario
from simkit.core.registry import Engine, all_games


def _checked(engine: Engine, only: list[str] | None) -> list[str]:
    """The strategies the native core plays (those of them in `only`), in declaration order."""
    return [
        s for s in engine.strategies if s in native.native_strategies(engine.id) and (not only or s in only)
    ]


def _spec(engine: Engine, name: str, games: int, seed: int, grid: dict[str, Any]) -> dict[str, Any]:
    return {
        "scenario": {"name": name, "game": engine.id, "games": games, "seed": seed},
        "grid": grid,
    }


def spec_for(engine: Engine, games: int, seed: int, only: list[str] | None = None) -> dict[str, Any]:
    """The main part: every combination of the game's verify grid with every strategy the
    native core plays (or those of them in `only`) but the slow ones (`Engine.verify_games`)."""
    strategies = [s for s in _checked(engine, only) if s not in engine.verify_games]
    grid: dict[str, Any] = {**engine.verify_grid, "strategy": strategies}
    return _spec(engine, f"verify {engine.id}", games, seed, grid)


def parts_for(
    engine: Engine, games: int, seed: int, only: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Every part of the check: {folder: scenario spec}; "" is the main part (`spec_for`), then
    the further factors (`Engine.verify_factors`) over the same strategies, each slow strategy on
    at most its `verify_games` a cell, then the mixed cells."""
    checked = _checked(engine, only)
    parts = {}
    if any(s not in engine.verify_games for s in checked):
        parts[""] = spec_for(engine, games, seed, only)
        fast = parts[""]["grid"]["strategy"]
        for name, grid in engine.verify_factors.items():
            parts[name] = _spec(engine, f"verify {engine.id} {name}", games, seed, {**grid, "strategy": fast})
    for name in checked:
        if name in engine.verify_games:
            grid = {**engine.verify_grid, **engine.verify_settings.get(name, {}), "strategy": [name]}
            n = min(games, engine.verify_games[name])
            parts[name] = _spec(engine, f"verify {engine.id} {name}", n, seed, grid)
    mixed = [list(m) for m in engine.verify_mixed if all(s in checked for s in m)]
    if mixed:
        grid = {k: v for k, v in engine.verify_grid.items() if k != "players"}
        n = min([games] + [engine.verify_games[s] for m in mixed for s in m if s in engine.verify_games])
        parts["mixed"] = _spec(engine, f"verify {engine.id} mixed", n, seed, {**grid, "strategy": mixed})
    return parts


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
    """Play every part of the game's check on both engines, the main part into out/native and
    out/python, another part into out/<part>/native and out/<part>/python; the differences between
    their rows (empty when identical), each named by its part."""
    found = []
    for part, spec in parts_for(engine, games, seed, only).items():
        folder = out / part if part else out
        sc = scenario.parse(spec, spec["scenario"]["name"])
        for kind in ("native", "python"):
            runner.run(sc, folder / kind, jobs=jobs, progress=False, engine=kind)
        diffs = differences(dataset.load(folder / "native"), dataset.load(folder / "python"))
        found += [f"{part}: {line}" if part else line for line in diffs]
    return found


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
        counts = []
        for part, spec in parts_for(engine, args.games, args.seed, args.strategy).items():
            games = dataset.load((folder / part if part else folder) / "native").games
            counts.append(f"{games['cell'].n_unique()} cells x {spec['scenario']['games']} games")
        verdict = "identical" if not found else "DIFFERENT"
        print(
            f"{engine.id}: {' + '.join(counts)}, native and python rows {verdict} "
            f"({time.perf_counter() - started:.0f} s)"
        )
        for line in found:
            print(f"  {line}")
        failed |= bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
