"""The game registry: what each game declares (settings, strategies) and how to find it.

`core` knows no game by name: every package under `simkit.games` registers itself on import.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from simkit.core.errors import UserError
from simkit.core.players import is_user_spec, load_class


@dataclass(frozen=True)
class Setting:
    """One declared setting: its name, type, allowed values and default.

    `choices` lists the allowed values; `minimum`/`maximum` bound numbers instead. A `path` setting
    names a file (component data); its default `None` means the game's built-in file.
    """

    name: str
    type: str  # "int" | "float" | "str" | "path"
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, raw: Any, where: str) -> Any:
        """Turn a raw value (a CLI string or a TOML value) into the typed value, or refuse it."""
        value = raw
        try:
            if self.type == "int":
                if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                    raise ValueError
                value = int(raw)
            elif self.type == "float":
                if isinstance(raw, bool):
                    raise ValueError
                value = float(raw)
            elif self.type == "str":
                if isinstance(raw, bool) or not isinstance(raw, str | int):
                    raise ValueError
                value = str(raw)  # `mission = 3` in a scenario means the choice "3"
            elif self.type == "path":
                if not isinstance(raw, str):
                    raise ValueError
                value = raw
        except (TypeError, ValueError):
            raise UserError(f"{where}: setting '{self.name}' must be {self.type}, got {raw!r}") from None
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise UserError(f"{where}: setting '{self.name}' = {value!r} is not allowed (allowed: {allowed})")
        if self.minimum is not None and value < self.minimum:
            raise UserError(f"{where}: setting '{self.name}' = {value!r} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise UserError(f"{where}: setting '{self.name}' = {value!r} is above the maximum {self.maximum}")
        if self.type == "path" and not Path(value).is_file():
            raise UserError(f"{where}: setting '{self.name}': file not found: {value}")
        return value

    def describe(self) -> str:
        if self.choices is not None:
            allowed = "|".join(str(c) for c in self.choices)
        elif self.minimum is not None or self.maximum is not None:
            low = "" if self.minimum is None else self.minimum
            high = "" if self.maximum is None else self.maximum
            allowed = f"{low}..{high}"
        else:
            allowed = self.type
        default = "built-in" if self.default is None else self.default
        return f"{self.name}={allowed} (default {default})"


@dataclass
class GameResult:
    """One finished game: a flat record, plus one record per seat for multi-seat games."""

    record: dict[str, Any]
    seats: list[dict[str, Any]] | None = None


class Engine(Protocol):
    """The contract each game registers (see shared/DESIGN.md, "Engine contract")."""

    id: str
    title: str
    min_players: int
    max_players: int
    settings: tuple[Setting, ...]
    strategies: dict[str, str]  # name -> one-line description
    default_strategy: str
    competitive: bool

    def play(
        self, settings: dict[str, Any], strategies: Sequence[str], root_seed: int, game_index: int
    ) -> GameResult:
        """Play one whole game; a pure function of its arguments."""
        ...

    def replay(
        self, settings: dict[str, Any], strategies: Sequence[str], root_seed: int, game_index: int
    ) -> list[dict]:
        """The same game as a list of events (JSON-ready dicts)."""
        ...

    def data_files(self, settings: dict[str, Any]) -> list[Path]:
        """Component files the game reads under these settings (hashed into the manifest)."""
        ...

    def data_sources(self, settings: dict[str, Any]) -> dict[str, dict[str, str]]:
        """For each component file, where each part of it comes from ("rulebook", "derived",
        "invented", "published"): the report names the invented ones."""
        ...

    # Optional: `check_settings(settings)` raises UserError for values that are allowed one by
    # one but not together (Space Alert: more players than figures); called by resolve_settings.
    # Optional: `narrate(events) -> list[str]` tells a replay's events as lines a player at the
    # table would read; `simkit replay` prints them (without it, each event's fields).


_GAMES: dict[str, Engine] = {}
_discovered = False


def register(engine: Engine) -> Engine:
    if engine.id in _GAMES and _GAMES[engine.id] is not engine:
        raise RuntimeError(f"game id registered twice: {engine.id}")
    _GAMES[engine.id] = engine
    return engine


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    import simkit.games as games_pkg

    for module in pkgutil.iter_modules(games_pkg.__path__):
        importlib.import_module(f"{games_pkg.__name__}.{module.name}")
    _discovered = True


def all_games() -> list[Engine]:
    _discover()
    return [_GAMES[k] for k in sorted(_GAMES)]


def get_game(game_id: str) -> Engine:
    _discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise UserError(f"unknown game '{game_id}' (known: {known})") from None


@dataclass(frozen=True)
class Cell:
    """One combination of settings and strategies; `index` names it in the dataset (`c000`...)."""

    index: int
    settings: dict[str, Any] = field(hash=False)
    strategies: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"c{self.index:03d}"


def resolve_settings(engine: Engine, given: dict[str, Any], where: str) -> dict[str, Any]:
    """Check names and values against the game's declarations and fill in defaults."""
    declared = {s.name: s for s in engine.settings}
    for key in given:
        if key not in declared:
            allowed = ", ".join(declared) or "none"
            raise UserError(f"{where}: unknown setting '{key}' for {engine.id} (settings: {allowed})")
    out: dict[str, Any] = {}
    for name, setting in declared.items():
        out[name] = (
            setting.parse(given[name], where)
            if name in given and given[name] is not None
            else setting.default
        )
    check = getattr(engine, "check_settings", None)  # optional: values allowed alone, not together
    if check is not None:
        try:
            check(out)
        except UserError as exc:
            raise UserError(f"{where}: {exc}") from None
    return out


def resolve_strategies(
    engine: Engine, given: Sequence[str], players: int | None, where: str
) -> tuple[str, ...]:
    """Validate strategy names; a competitive game gets one per seat, a crew or solo game one name."""
    names = tuple(given) if given else (engine.default_strategy,)
    for name in names:
        if is_user_spec(name):
            try:
                load_class(name)  # refuse a missing file, a syntax error or a missing class now
            except UserError as exc:
                raise UserError(f"{where}: {exc}") from None
        elif name not in engine.strategies:
            allowed = ", ".join(engine.strategies)
            raise UserError(f"{where}: unknown strategy '{name}' for {engine.id} (strategies: {allowed})")
    if engine.competitive:
        seats = players if players is not None else len(names) if len(names) > 1 else engine.min_players
        if len(names) == 1:
            names = names * seats
        if len(names) != seats:
            raise UserError(
                f"{where}: {len(names)} strategies given for {seats} seats; give one per seat or one for all"
            )
    elif len(names) != 1:
        raise UserError(f"{where}: {engine.id} is played by one crew: give one strategy, not {len(names)}")
    return names
