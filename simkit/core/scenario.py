"""Scenario files: a grid of cells over a game's settings and strategies (see DESIGN.md).

```toml
[scenario]
name = "8-bit difficulty"
game = "eight-bit-invaders"
games = 20000          # per cell
seed = 42
chunk_size = 1000      # optional: games per Parquet file (default: about 32 chunks a cell)

[grid]                 # every combination is a cell
countdown = [7, 6]
strategy = ["greedy", "lookahead"]

[fixed]                # settings shared by every cell (optional)
dice = 6

[parameters]           # strategy parameters (optional): a value, or a list swept like the grid,
                       # set for every seat whose strategy declares it (`simkit games` lists them)

[games_by_strategy]    # optional: fewer (or more) games for the cells where a seat plays this
"lookahead" = 2000     # strategy, as written in the grid; a cell named by several takes the least
```
Every fault is a `UserError` naming the file, the key and what is allowed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from simkit.core import native
from simkit.core import strategies as strategy_specs
from simkit.core.errors import UserError
from simkit.core.files import read_toml
from simkit.core.registry import Cell, Engine, get_game, resolve_settings, resolve_strategies

MAX_CELLS = 10_000
MAX_GAMES = 1_000_000_000


def default_chunk(games: int) -> int:
    """Games per Parquet file when the scenario does not say: about 32 chunks a cell (enough to
    share among workers), between 25 and 10,000 games each (a native engine plays 10,000 in under
    a second; fewer, larger chunks keep the writing process from holding the workers back). It
    depends on the game count only, so a resumed run finds the same chunks whatever --jobs or
    engine it is given."""
    return min(10_000, max(25, -(-games // 32)))


SECTIONS = {"scenario", "grid", "fixed", "parameters", "games_by_strategy"}
SCENARIO_KEYS = {"name", "game", "games", "seed", "chunk_size", "description", "precision", "engine"}
MAX_GAMES_DEFAULT = 1_000_000  # the per-cell cap of a precision run when none is given


def precision_chunk(precision: float, cap: int) -> int:
    """Games per chunk in a precision run: rounds end on whole chunks, so a cell overshoots the
    games it needs by less than one chunk; 1/128 of the worst case (rate 0.5), 25 to 1000 games."""
    z = 1.959963984540054
    worst = min(cap, int((z * 0.5 / precision) ** 2) + 1)
    return min(1000, max(25, -(-worst // 128)))


def check_precision(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0005 <= value <= 0.25:
        raise UserError(f"{where}: precision must be a number in 0.0005..0.25 (a half-width), got {value!r}")
    return float(value)


@dataclass
class Scenario:
    name: str
    game: str
    games: int
    seed: int
    cells: list[Cell]
    grid_keys: list[str]
    chunk_size: int = 1000
    description: str = ""
    source: str | None = None  # the file it came from
    spec: dict[str, Any] = field(default_factory=dict)  # the parsed file, for the manifest
    precision: float | None = None  # stop each cell at this 95 % half-width; `games` is then the cap
    engine: str = "auto"  # auto | native | python (core/native.py)
    cell_games: dict[str, int] = field(default_factory=dict)  # [games_by_strategy]: cell -> games

    def games_of(self, cell: str) -> int:
        """The games cell `cell` plays (the cap when precision is set)."""
        return self.cell_games.get(cell, self.games)

    def chunk_of(self, cell: str) -> int:
        """Games per Parquet file of cell `cell`: the scenario's chunk size, or for a cell with a
        game count of its own the default for that count where smaller (so a cell of few slow
        games still spreads over the workers)."""
        if cell not in self.cell_games:
            return self.chunk_size
        games = self.cell_games[cell]
        own = default_chunk(games) if self.precision is None else precision_chunk(self.precision, games)
        return min(own, self.chunk_size)


def _int_key(table: dict, key: str, where: str, lo: int, hi: int) -> int:
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UserError(f"{where}: [scenario] {key} must be an integer in {lo}..{hi}, got {value!r}")
    return value


def _strategy_value(engine: Engine, value: Any, players: int | None, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        names = [value]
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        names = value
    else:
        raise UserError(f"{where}: strategy must be a name or a list of names, got {value!r}")
    return resolve_strategies(engine, names, players, where)


def _with_parameters(
    engine: Engine, strategies: tuple[str, ...], values: dict[str, Any], where: str
) -> tuple[tuple[str, ...], set[str]]:
    """Each seat's strategy with the [parameters] values its strategy declares, and the names
    any seat took."""
    out, taken = [], set()
    for spec in strategies:
        spec, took = strategy_specs.with_values(spec, engine.strategies, values, f"{where}: [parameters]")
        out.append(spec)
        taken |= took
    return tuple(out), taken


def build_cells(
    engine: Engine,
    grid: dict[str, list],
    fixed: dict[str, Any],
    where: str,
    parameters: dict[str, Any] | None = None,
) -> list[Cell]:
    """Every combination of the grid's values (in file order), then of the swept strategy
    parameters, over the fixed settings; `parameters` (name -> a value, or a list to sweep) set
    the strategies' parameters wherever a seat's strategy declares them."""
    parameters = parameters or {}
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise UserError(f"{where}: [grid] {key} must be a non-empty list of values")
    for key, values in parameters.items():
        if isinstance(values, list | dict) and not (isinstance(values, list) and values):
            raise UserError(f"{where}: [parameters] {key} must be a value or a non-empty list of values")
    swept = {k: v for k, v in parameters.items() if isinstance(v, list)}
    n = 1
    for values in (*grid.values(), *swept.values()):
        n *= len(values)
    if n > MAX_CELLS:
        raise UserError(f"{where}: [grid] makes {n} cells; at most {MAX_CELLS} are allowed")
    cells, taken = [], set()
    keys = [*grid, *swept]
    for index, combo in enumerate(itertools.product(*(grid.get(k) or swept[k] for k in keys))):
        given = dict(fixed)
        given.update(zip(keys, combo, strict=True))
        values = {k: given.pop(k) for k in swept} | {k: v for k, v in parameters.items() if k not in swept}
        strategy = given.pop("strategy", None)
        declared = {s.name for s in engine.settings}
        if engine.competitive and "players" in declared and "players" not in given:
            if isinstance(strategy, list) and len(strategy) > 1:
                given["players"] = len(strategy)  # one strategy per seat says how many seats
        settings = resolve_settings(engine, given, where)
        players = settings.get("players")
        strategies = (
            _strategy_value(engine, strategy, players, where)
            if strategy is not None
            else resolve_strategies(engine, (), players, where)
        )
        if values:
            strategies, took = _with_parameters(engine, strategies, values, where)
            taken |= took
            for key in swept.keys() - took:  # the sweep would repeat this cell once a value
                names = ", ".join(dict.fromkeys(strategy_specs.base_name(s) for s in strategies))
                raise UserError(
                    f"{where}: [parameters] {key} is swept, and strategy {names} has no such parameter"
                )
        cells.append(Cell(index, settings, strategies))
    for key in parameters.keys() - taken:
        raise UserError(f"{where}: [parameters] {key}: no strategy of {engine.id} in this scenario has it")
    return cells


def parse(doc: dict[str, Any], where: str) -> Scenario:
    """Validate a parsed scenario document (a TOML file's contents or a dict from Python)."""
    if not isinstance(doc, dict):
        raise UserError(f"{where}: a scenario must be a table")
    unknown = set(doc) - SECTIONS
    if unknown:
        raise UserError(
            f"{where}: unknown section [{sorted(unknown)[0]}] (allowed: {', '.join(sorted(SECTIONS))})"
        )
    head = doc.get("scenario")
    if not isinstance(head, dict):
        raise UserError(f"{where}: missing [scenario] table")
    bad = set(head) - SCENARIO_KEYS
    if bad:
        raise UserError(
            f"{where}: [scenario] unknown key '{sorted(bad)[0]}' "
            f"(allowed: {', '.join(sorted(SCENARIO_KEYS))})"
        )
    for key in ("name", "game", "games", "seed"):
        if key not in head:
            raise UserError(f"{where}: [scenario] missing key '{key}'")
    if not isinstance(head["name"], str) or not isinstance(head["game"], str):
        raise UserError(f"{where}: [scenario] name and game must be strings")
    try:
        engine = get_game(head["game"])
    except UserError as exc:
        raise UserError(f"{where}: [scenario] game: {exc}") from None
    games = _int_key(head, "games", where, 1, MAX_GAMES)
    seed = _int_key(head, "seed", where, 0, 2**63 - 1)
    precision = check_precision(head["precision"], f"{where}: [scenario]") if "precision" in head else None
    if "chunk_size" in head:
        chunk = _int_key(head, "chunk_size", where, 1, 10_000_000)
    else:
        chunk = default_chunk(games) if precision is None else precision_chunk(precision, games)
    engine_choice = native.check_choice(head.get("engine", "auto"), f"{where}: [scenario] engine")
    description = head.get("description", "")
    if not isinstance(description, str):
        raise UserError(f"{where}: [scenario] description must be a string")
    grid = doc.get("grid", {})
    fixed = doc.get("fixed", {})
    parameters = doc.get("parameters", {})
    if not all(isinstance(t, dict) for t in (grid, fixed, parameters)):
        raise UserError(f"{where}: [grid], [fixed] and [parameters] must be tables")
    both = (set(grid) & set(fixed)) | ((set(grid) | set(fixed)) & set(parameters))
    if both:
        raise UserError(f"{where}: '{sorted(both)[0]}' is given twice ([grid], [fixed], [parameters])")
    cells = build_cells(engine, grid, fixed, where, parameters)
    cell_games = games_by_strategy(engine, cells, doc.get("games_by_strategy", {}), where)
    grid_keys = list(grid)
    if any(isinstance(v, list) for v in parameters.values()) and "strategy" not in grid_keys:
        grid_keys.append("strategy")  # a swept parameter makes the strategies vary
    return Scenario(
        head["name"],
        engine.id,
        games,
        seed,
        cells,
        grid_keys,
        chunk,
        description,
        None,
        doc,
        precision,
        engine_choice,
        cell_games,
    )


def games_by_strategy(engine: Engine, cells: list[Cell], table: Any, where: str) -> dict[str, int]:
    """The cells whose game count [games_by_strategy] sets: a slow player (a search at a large
    budget) can sit in the same grid as fast ones on fewer games. A cell where several entries
    name a seat's strategy takes the least."""
    if not isinstance(table, dict):
        raise UserError(f"{where}: [games_by_strategy] must be a table of strategy = games")
    out: dict[str, int] = {}
    for spec, games in table.items():
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise UserError(
                f"{where}: [games_by_strategy] {spec!r} must be an integer in 1..{MAX_GAMES}, got {games!r}"
            )
        name = strategy_specs.normalise(spec, engine.strategies, f"{where}: [games_by_strategy]", engine.id)
        named = [cell.name for cell in cells if name in cell.strategies]
        if not named:
            raise UserError(f"{where}: [games_by_strategy] {spec!r}: no cell of the grid plays it")
        for cell in named:
            out[cell] = min(out.get(cell, games), games)
    return out


def load(path: str | Path) -> Scenario:
    path = Path(path)
    doc, _ = read_toml(path, "scenario")
    scenario = parse(doc, str(path))
    scenario.source = str(path)
    return scenario


def single_cell(
    game: str,
    games: int,
    seed: int,
    settings: dict[str, Any],
    strategies: list[str],
    chunk_size: int | None = None,
    precision: float | None = None,
) -> Scenario:
    """The one-cell scenario behind `simkit simulate`."""
    where = "simulate"
    engine = get_game(game)
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"{where}: -n must be in 1..{MAX_GAMES}, got {games}")
    if not 0 <= seed < 2**63:
        raise UserError(f"{where}: --seed must be in 0..{2**63 - 1}, got {seed}")
    fixed = dict(settings)
    if strategies:
        fixed["strategy"] = strategies if len(strategies) > 1 else strategies[0]
    cells = build_cells(engine, {}, fixed, where)
    typed = {k: v for k, v in cells[0].settings.items() if k in settings}  # as parsed, not as typed
    if strategies:
        typed["strategy"] = fixed["strategy"]
    head: dict[str, Any] = {"name": f"simulate {game}", "game": game, "games": games, "seed": seed}
    if precision is not None:
        head["precision"] = check_precision(precision, where)
    spec = {"scenario": head, "fixed": typed}
    chunk = chunk_size or (default_chunk(games) if precision is None else precision_chunk(precision, games))
    return Scenario(
        f"simulate {game}", engine.id, games, seed, cells, [], chunk, "", None, spec, head.get("precision")
    )


def check_max_games(max_games: int, where: str) -> int:
    """The cap of a precision run from the command line, or one line naming --max-games."""
    if not 1 <= max_games <= MAX_GAMES:
        raise UserError(f"{where}: --max-games must be in 1..{MAX_GAMES}, got {max_games}")
    return max_games


def with_precision(
    scenario: Scenario, precision: float | None, max_games: int | None, where: str
) -> Scenario:
    """The scenario with a precision target (and cap) from the command line."""
    precision = check_precision(precision, where) if precision is not None else scenario.precision
    if precision is None:
        raise UserError(f"{where}: --max-games is the cap of a --precision run; without it set games")
    cap = scenario.games if max_games is None else check_max_games(max_games, where)
    chunk = scenario.chunk_size
    if "chunk_size" not in scenario.spec.get("scenario", {}):
        chunk = precision_chunk(precision, cap)
    head = {**scenario.spec.get("scenario", {}), "precision": precision, "games": cap}
    return replace(
        scenario, precision=precision, games=cap, chunk_size=chunk, spec={**scenario.spec, "scenario": head}
    )
