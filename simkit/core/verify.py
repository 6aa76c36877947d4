"""The equivalence check of the two engines (DESIGN.md, "Native engines"): the same scenario
played on the native and on the Python engine must give identical game and seat rows.

`tests/native/test_equivalence.py` runs it on 2,000 games a cell; `make verify-native` on each
game's count in the Makefile's VERIFY_COUNTS (`python -m simkit.core.verify --games N`). A game's
check is its main scenario (the verify grid, every fast native strategy) and, where the game
declares them, parts of their own: further settings one factor at a time
(`Engine.verify_factors`), each slow strategy on fewer games (`Engine.verify_games`,
`verify_settings`) and the mixed cells (`Engine.verify_mixed`). Each part is played into its own
folder. `--set KEY=VALUE` plays only the cells with that value of a grid setting: a long check can
be run in slices (countdown=7, then countdown=6), which together cover the whole.
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
    """The strategies both engines play (those of them in `only`), in declaration order: a
    native-only one (the search players) has nothing to compare with."""
    return [
        name
        for name, s in engine.strategies.items()
        if name in native.native_strategies(engine.id) and not s.native_only and (not only or name in only)
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
    engine: Engine,
    games: int,
    seed: int,
    only: list[str] | None = None,
    where: dict[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Every part of the check: {folder: scenario spec}; "" is the main part (`spec_for`), then
    the further factors (`Engine.verify_factors`) over the same strategies, each slow strategy on
    at most its `verify_games` a cell, then the mixed cells. `where` ({setting: value as text})
    keeps only the cells with those values, and the parts left with any."""
    checked = _checked(engine, only)
    parts = {}
    if any(s not in engine.verify_games for s in checked):
        parts[""] = spec_for(engine, games, seed, only)
        fast = parts[""]["grid"]["strategy"]
        for name, grid in engine.verify_factors.items():
            parts[name] = _spec(engine, f"verify {engine.id} {name}", games, seed, {**grid, "strategy": fast})
    for name in checked:
        if name in engine.verify_games:
            grid = {**engine.verify_grid, "strategy": [name], **engine.verify_settings.get(name, {})}
            n = min(games, engine.verify_games[name])
            parts[name] = _spec(engine, f"verify {engine.id} {name}", n, seed, grid)
    mixed = [list(m) for m in engine.verify_mixed if all(s in checked for s in m)]
    if mixed:
        grid = {k: v for k, v in engine.verify_grid.items() if k != "players"}
        n = min([games] + [engine.verify_games[s] for m in mixed for s in m if s in engine.verify_games])
        parts["mixed"] = _spec(engine, f"verify {engine.id} mixed", n, seed, {**grid, "strategy": mixed})
    return _slice(parts, where) if where else parts


def _slice(parts: dict[str, dict[str, Any]], where: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The parts cut down to the cells with the values of `where` in their grids (a part whose grid
    does not vary a setting of `where` plays its default there, so it is left out)."""
    out = {}
    for name, spec in parts.items():
        grid = dict(spec["grid"])
        if not all(key in grid for key in where):
            continue
        for key, value in where.items():
            grid[key] = [v for v in grid[key] if str(v) == value]
        if all(grid[key] for key in where):
            out[name] = {**spec, "grid": grid}
    return out


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
    engine: Engine,
    games: int,
    seed: int,
    out: Path,
    jobs: int,
    only: list[str] | None = None,
    where: dict[str, str] | None = None,
) -> list[str]:
    """Play every part of the game's check on both engines, the main part into out/native and
    out/python, another part into out/<part>/native and out/<part>/python; the differences between
    their rows (empty when identical), each named by its part."""
    found = []
    for part, spec in parts_for(engine, games, seed, only, where).items():
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
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="only the cells with this value of a grid setting (a slice of the check)",
    )
    args = parser.parse_args(argv)
    if native.core() is None:
        print("verify-native: the native core is not built", file=sys.stderr)
        return 2
    if any("=" not in item for item in args.set):
        print(f"verify-native: --set takes KEY=VALUE, not {args.set}", file=sys.stderr)
        return 2
    where = dict(item.split("=", 1) for item in args.set)
    failed = False
    for engine in all_games():
        if not native.native_strategies(engine.id) or (args.game and engine.id not in args.game):
            continue
        parts = parts_for(engine, args.games, args.seed, args.strategy, where)
        if not parts:
            print(f"verify-native: {engine.id} has no cell with {' '.join(args.set)}", file=sys.stderr)
            return 2
        started = time.perf_counter()
        slice_ = sorted(args.strategy or []) + sorted(args.set)
        folder = args.out / "-".join([engine.id, str(args.games), *slice_])
        found = verify(engine, args.games, args.seed, folder, args.jobs, args.strategy, where)
        counts = []
        for part, spec in parts.items():
            games = dataset.load((folder / part if part else folder) / "native").games
            counts.append(f"{games['cell'].n_unique()} cells x {spec['scenario']['games']} games")
        verdict = "identical" if not found else "DIFFERENT"
        where_text = f" ({', '.join(args.set)})" if args.set else ""
        print(
            f"{engine.id}{where_text}: {' + '.join(counts)}, native and python rows {verdict} "
            f"({time.perf_counter() - started:.0f} s)"
        )
        for line in found:
            print(f"  {line}")
        failed |= bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
