"""Built-in strategies and their parameters: `NAME` or `NAME:key=value,key=value`.

A game declares each built-in player once, as a `Strategy`: its name, its Python class, a line on
how it plays, and the numbers it plays by (thresholds, weights, budgets) as parameters, each a
`Setting` with its default. A strategy spec names one with some of those numbers changed
(`bold:final_conflict=8`, `rollout:rollouts=32`); the CLI, scenario files, the manifest, the
dataset's `strategy` column and the report's labels all carry the spec in one canonical form:
parameters in declared order, values in their typed form, those at their default left out, so one
player always has one name (`bold:final_conflict=6` is `bold`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from simkit.core.errors import UserError
from simkit.core.players import is_user_spec
from simkit.core.settings import Setting


@dataclass(frozen=True)
class Strategy:
    """One built-in player a game declares. `player` is the Python engine's class, built as
    `player(rng, **params)` for each seat (None for an engine that plays without player objects);
    the native core, where it plays the strategy, reads the same parameters. A class with
    `NUMBERS` (a frozen dataclass of `number` fields: its thresholds and weights) has those as its
    parameters, their defaults the class's, unless `params` says otherwise."""

    name: str
    player: type | None
    help: str
    params: tuple[Setting, ...] = ()
    # Played by the native core alone (the search players): the Python engine refuses it.
    native_only: bool = False

    def __post_init__(self) -> None:
        numbers = getattr(self.player, "NUMBERS", None)
        if numbers is not None and not self.params:  # a player's numbers are its parameters
            object.__setattr__(self, "params", params_of(numbers))
        for p in self.params:
            if p.what != "parameter":
                raise RuntimeError(f"strategy '{self.name}': '{p.name}' must be declared with param(...)")

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}


def param(name: str, type: str, default: Any, help: str, **bounds: Any) -> Setting:
    """A strategy parameter: a `Setting` whose messages call it a parameter."""
    return Setting(name, type, default, help, what="parameter", **bounds)


def share_param(name: str, default: float, help: str) -> Setting:
    """A strategy parameter that is a share or weight, 0 to 1."""
    return param(name, "float", default, help, minimum=0, maximum=1)


def search_strategy(help: str, iterations: int, exploration: float, *more: Setting) -> Strategy:
    """A game's search player `mcts` (native/src/mcts.rs over the game's forward model): played
    by the native core only, so it has no Python player. Its budget and exploration constant,
    then the game's own numbers (`more`)."""
    return Strategy(
        "mcts",
        None,
        f"information-set Monte Carlo tree search over the native forward model: {help} (native engine only)",
        native_only=True,
        params=(
            param(
                "iterations", "int", iterations, "search evaluations a decision", minimum=1, maximum=1_000_000
            ),
            param(
                "exploration",
                "float",
                exploration,
                "UCB1 exploration constant below the root",
                minimum=0,
                maximum=10,
            ),
            *more,
        ),
    )


def number(default: Any, help: str, **bounds: Any) -> Any:
    """A field of a player's numbers (a frozen dataclass, the one place a heuristic's thresholds
    and weights are written): its default, what it does, and its bounds (`minimum`, `maximum`)."""
    return field(default=default, metadata={"help": help, **bounds})


def params_of(numbers: Any) -> tuple[Setting, ...]:
    """A player's numbers as its strategy's parameters, defaults taken from this instance (two
    strategies of one class differ in their defaults: Oh no's `cautious` and `bold`)."""
    return tuple(
        param(
            f.name,
            str(f.type),
            getattr(numbers, f.name),
            f.metadata["help"],
            **{k: v for k, v in f.metadata.items() if k != "help"},
        )
        for f in fields(numbers)
    )


def declare(*strategies: Strategy) -> dict[str, Strategy]:
    """A game's strategies by name, in the order declared."""
    out: dict[str, Strategy] = {}
    for s in strategies:
        if s.name in out or ":" in s.name or not s.name:
            raise RuntimeError(f"strategy name '{s.name}' is empty, has ':' or is declared twice")
        out[s.name] = s
    return out


def format_value(value: Any) -> str:
    """A parameter's value as a spec writes it: 8.0 as `8`, 0.25 as `0.25`, True as `true`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _split(spec: str, where: str) -> tuple[str, dict[str, str]]:
    name, _, rest = spec.partition(":")
    raw: dict[str, str] = {}
    if not rest:
        if spec.endswith(":"):
            raise UserError(f"{where}: strategy '{spec}': nothing after ':' (expected {name}:key=value,...)")
        return name, raw
    for item in rest.split(","):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key or not value:
            raise UserError(f"{where}: strategy '{spec}': expected key=value, got '{item}'")
        if key in raw:
            raise UserError(f"{where}: strategy '{spec}': parameter '{key}' given twice")
        raw[key] = value
    return name.strip(), raw


def parse(
    spec: str, declared: Mapping[str, Strategy], where: str, game: str = ""
) -> tuple[str, dict[str, Any]]:
    """The strategy a built-in spec names and its full parameters (defaults filled in), or one
    line saying what is wrong (`game`: the game's id, for that line)."""
    name, raw = _split(spec, where)
    strategy = declared.get(name)
    if strategy is None:
        of = f" for {game}" if game else ""
        raise UserError(f"{where}: unknown strategy '{name}'{of} (strategies: {', '.join(declared)})")
    params = {p.name: p for p in strategy.params}
    values = strategy.defaults()
    for key, text in raw.items():
        if key not in params:
            known = ", ".join(params) if params else "none"
            raise UserError(f"{where}: strategy '{name}' has no parameter '{key}' (parameters: {known})")
        values[key] = params[key].parse(text, f"{where}: strategy '{name}'")
    return name, values


def canonical(name: str, values: Mapping[str, Any], strategy: Strategy) -> str:
    """The one spec for this player: the parameters that differ from their defaults, in order."""
    changed = [
        f"{p.name}={format_value(values[p.name])}" for p in strategy.params if values[p.name] != p.default
    ]
    return f"{name}:{','.join(changed)}" if changed else name


def normalise(spec: str, declared: Mapping[str, Strategy], where: str, game: str = "") -> str:
    """A spec checked and written canonically; a user's `path/file.py:Class` as it is."""
    if is_user_spec(spec):
        return spec
    name, values = parse(spec, declared, where, game)
    return canonical(name, values, declared[name])


def with_values(
    spec: str, declared: Mapping[str, Strategy], values: Mapping[str, Any], where: str
) -> tuple[str, set[str]]:
    """The spec with `values` (raw) set for those parameters its strategy declares, and the names
    it took (a scenario's [parameters] apply to every seat whose strategy has them)."""
    if is_user_spec(spec):
        return spec, set()
    name, full = parse(spec, declared, where)
    params = {p.name: p for p in declared[name].params}
    taken = set(values) & set(params)
    for key in taken:
        full[key] = params[key].parse(values[key], f"{where}: strategy '{name}'")
    return canonical(name, full, declared[name]), taken


def base_name(spec: str) -> str:
    """The strategy a spec names, without its parameters (a user's spec as it is)."""
    return spec if is_user_spec(spec) else spec.partition(":")[0]


def resolved(spec: str, declared: Mapping[str, Strategy]) -> tuple[Strategy, dict[str, Any]]:
    """The declaration and full parameters of a built-in spec."""
    name, values = parse(spec, declared, "strategy")
    return declared[name], values
