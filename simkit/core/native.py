"""Which engine plays a cell: the native core (`simkit._native`, the Rust crate in native/) or the
Python engine (DESIGN.md, "Native engines").

`auto` takes the native engine when the core is built and plays the game and every strategy of
the cell; `native` insists (and refuses with one line when it cannot); `python` never uses it.
Users' own players (`file.py:Class`) and rule variants run on the Python engine only.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from functools import cache
from types import ModuleType
from typing import Any

import polars as pl

from simkit.core import records
from simkit.core import strategies as strategy_specs
from simkit.core.errors import UserError
from simkit.core.players import is_user_spec
from simkit.core.registry import Cell, Engine

ENGINES = ("auto", "native", "python")


@cache
def core() -> ModuleType | None:
    """The native core, or None where it was not built (no Rust toolchain at install time)."""
    try:
        from simkit import _native
    except ImportError:
        return None
    return _native


@cache
def native_strategies(game_id: str) -> frozenset[str]:
    """The strategies the native core plays for a game (none where it lacks the game)."""
    module = core()
    if module is None:
        return frozenset()
    return frozenset(module.engines().get(game_id, ()))


def describe(engine: Engine) -> str:
    """What `simkit games` says of a game's engines."""
    native = native_strategies(engine.id)
    if native:
        python = [s for s in engine.strategies if not native_only(engine, s)]
        both = "python" if len(python) == len(engine.strategies) else f"python ({', '.join(python)})"
        return f"native ({', '.join(s for s in engine.strategies if s in native)}) and {both}"
    if engine.has_native and core() is None:
        return "python (the native core is not built: install with a Rust toolchain for the fast path)"
    return "python"


def why_not_native(engine: Engine, cell: Cell) -> str | None:
    """Why the native engine cannot play this cell, or None when it can."""
    if core() is None:
        return "the native core is not built (install simkit where a Rust toolchain is found)"
    native = native_strategies(engine.id)
    if not native:
        return f"the native core has no {engine.id} engine yet"
    for spec in cell.strategies:
        if strategy_specs.base_name(spec) not in native:
            return f"strategy '{spec}' is played by the Python engine only"
    return None


def native_only(engine: Engine, spec: str) -> bool:
    """A built-in strategy only the native core plays (the search players)."""
    if is_user_spec(spec):
        return False
    strategy = engine.strategies.get(strategy_specs.base_name(spec))
    return strategy is not None and strategy.native_only


def check_choice(requested: str, where: str) -> str:
    if requested not in ENGINES:
        raise UserError(f"{where}: engine must be one of {', '.join(ENGINES)}, got {requested!r}")
    return requested


_told_unbuilt = False


def choose(engine: Engine, cell: Cell, requested: str, where: str) -> str:
    """'native' or 'python' for this cell under the requested engine (auto, native or python).

    Where the core was not built, `auto` says so once per process (on stderr) for a game that
    would have had a native engine, then plays on python."""
    global _told_unbuilt
    check_choice(requested, where)
    reason = None if requested == "python" else why_not_native(engine, cell)
    if requested != "python" and reason is None:
        return "native"
    for spec in cell.strategies:
        if native_only(engine, spec):
            because = f" ({reason})" if reason else ""
            raise UserError(
                f"{where}: strategy '{spec}' of {engine.id} is played by the native engine only{because}"
            )
    if requested == "python":
        return "python"
    if requested == "native":
        raise UserError(f"{where}: the native engine cannot play {engine.id} cell {cell.name}: {reason}")
    if engine.has_native and core() is None and not _told_unbuilt:
        _told_unbuilt = True
        print(f"simkit: {reason}; playing {engine.id} on the Python engine (slower)", file=sys.stderr)
    return "python"


def play_batch(
    engine: Engine, cell: Cell, root_seed: int, start: int, stop: int
) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Games [start, stop) of a cell on the native core, as typed game rows and seat rows (None
    for a game without seat rows, as on the Python engine).

    Raises the core's NativeGameError (args: game index, message) when a game broke an invariant.
    """
    params = engine.params(cell.settings)
    games, seats = core().play_batch(
        engine.id,
        engine.native_data(params),
        plain(asdict(params)),
        [_strategy(engine, spec) for spec in cell.strategies],
        root_seed,
        start,
        stop,
    )
    return (
        records.native_frame(engine, cell, root_seed, start, stop, games),
        None if seats is None else records.native_seats_frame(engine, cell, seats),
    )


def _strategy(engine: Engine, spec: str) -> tuple[str, dict[str, Any]]:
    """A seat's strategy as the core reads it: its name and every parameter's value."""
    strategy, params = strategy_specs.resolved(spec, engine.strategies)
    return strategy.name, params


def plain(values: dict[str, Any]) -> dict[str, Any]:
    """Settings as the core reads them: a path as text, None left out."""
    return {
        k: (str(v) if not isinstance(v, bool | int | float | str) else v)
        for k, v in values.items()
        if v is not None
    }
