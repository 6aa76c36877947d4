"""The game registry: what each game declares (settings, strategies) and how to find it.

`core` knows no game by name: every package under `simkit.games` registers itself on import.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, make_dataclass
from pathlib import Path
from typing import Any

from simkit.core import replay_page, seeds
from simkit.core import strategies as strategy_specs
from simkit.core.errors import UserError
from simkit.core.players import is_user_spec, load_class
from simkit.core.settings import Setting
from simkit.core.strategies import Strategy


@dataclass
class GameResult:
    """One finished game: a flat record, plus one record per seat for multi-seat games."""

    record: dict[str, Any]
    seats: list[dict[str, Any]] | None = None


COLUMN_TYPES = ("bool", "int", "float", "str")


@dataclass(frozen=True)
class Column:
    """One declared record column: its name, type and whether it may be null. `labels` lists the
    values a text column takes where they are few and known (an end reason)."""

    name: str
    type: str  # one of COLUMN_TYPES
    nullable: bool = False
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.type not in COLUMN_TYPES:
            raise ValueError(f"column '{self.name}': unknown type {self.type!r}")


def record_head(end_reasons: tuple[str, ...], won_nullable: bool = False) -> tuple[Column, ...]:
    """The record's first columns (REQUIRED_RECORD) as a game declares them: `won` (nullable in a
    game where nobody may win or lose together), `score`, `length`, and `end_reason` with its
    labels."""
    return (
        Column("won", "bool", nullable=won_nullable),
        Column("score", "int"),
        Column("length", "int"),
        Column("end_reason", "str", labels=end_reasons),
    )


@dataclass(frozen=True)
class GoldenCase:
    """One golden playthrough a game declares: the game `replay` gives for these arguments is stored
    as `<name>.json` and checked by the contract kit (simkit/testing/contract.py)."""

    name: str  # the file's stem
    settings: dict[str, Any] = field(hash=False)
    strategies: tuple[str, ...] = ()
    seed: int = 0
    index: int = 0


# The columns every game's record has (DESIGN.md, "Runner and dataset"); a game declares their
# types and its own columns after them.
REQUIRED_RECORD = ("won", "score", "length", "end_reason")

RUNNER_GAME_COLUMNS = ("game", "cell", "game_index", "seed")  # then the settings, then `strategy`
RUNNER_SEAT_COLUMNS = ("game_index", "cell", "seat", "strategy")

# What a game may offer beyond playing and replaying; each is a method of the same name.
CAPABILITIES = {
    "narrate": "narrate(events) -> lines: a replay told as at the table",
    "check_settings": "check_settings(params): values allowed alone but not together",
    "resolve": "resolve(plan, data) and format_resolution(log, result): a fixed plan resolved",
    "draw": "draw_replay(settings, strategies, root_seed, game_index) -> steps: the table drawn at "
    "every step of a game (simkit replay --html; see core/replay_page.py)",
}
# The methods a capability stands for, where they are not named after it.
CAPABILITY_METHODS = {"resolve": ("resolve", "format_resolution"), "draw": ("draw_replay",)}


class Engine:
    """The contract each game registers (DESIGN.md, "Engine contract"): declarations the CLI, the
    runner and the report read, and `play` / `replay` of the Python engine.

    A subclass declares, once: `id`, `title`, player counts, `competitive`, its `settings` (the
    one place defaults and value labels are stated), `strategies` and `default_strategy`, its
    `record` columns (and `seat_record` for multi-seat games), its `capabilities`, and, where the
    native core plays it, `native_data` (what the Rust engine is handed). The runner checks every
    row against the declared record.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    competitive: bool = False
    settings: tuple[Setting, ...] = ()
    strategies: dict[str, Strategy] = {}  # name -> declaration (core/strategies.py `declare`)
    default_strategy: str
    record: tuple[Column, ...] = ()
    seat_record: tuple[Column, ...] | None = None
    capabilities: frozenset[str] = frozenset()
    # Raised whenever a rule change makes the same seeds play differently: a dataset made under
    # another version is refused on resume rather than silently mixing two rule sets.
    rules_version: int = 1
    # The settings whose every combination, with every native strategy, the equivalence check of
    # the two engines plays (tests/native/test_equivalence.py, `make verify-native`).
    verify_grid: dict[str, list[Any]] = {}
    # Strategies too slow on the Python engine for the check's count a cell: the most games a cell
    # each is checked on. Such a strategy leaves the main grid and plays cells of its own, over
    # `verify_grid` updated by `verify_settings[strategy]` (which may list the strategy's specs
    # under "strategy": a reduced search budget and the default), so `make verify-native` stays
    # about as long as the fast strategies make it.
    verify_games: dict[str, int] = {}
    verify_settings: dict[str, dict[str, list[Any]]] = {}
    # Mixed cells of the check: one strategy per seat (the seat count follows from it), each over
    # `verify_grid`'s other settings; capped by `verify_games` of any slow strategy among them.
    verify_mixed: tuple[tuple[str, ...], ...] = ()
    # Further settings the check covers one factor at a time, where the full product with
    # `verify_grid` would cost too much: {part name: grid}, each played over the strategies of the
    # main grid, the other settings at their defaults (or following theirs).
    verify_factors: dict[str, dict[str, list[Any]]] = {}
    # The component file's schema (core/schema.py): what its loader checks, and what `simkit data
    # template` and `simkit data check` write and check. None: the game reads no component file.
    component_spec: Any = None
    # The golden playthroughs the contract kit checks (simkit/testing/contract.py); a registered
    # game without any fails the kit.
    golden_cases: tuple[GoldenCase, ...] = ()
    # The game's own modules the default methods below use: `components` (with `load(path)`),
    # `narration` (`narrate(events)`, and `narrate_steps(events)` for the replay page) and
    # `drawing` (`look(game)` and `draw(picture)`), and `native`, the bridge to the native core
    # (`native_data(components)`): a game that declares it has a native engine (when it is built).
    components: Any = None
    narration: Any = None
    drawing: Any = None
    native: Any = None

    _params_type: type | None = None

    @classmethod
    def params_type(cls) -> type:
        """The typed parameters of this game: a frozen dataclass with one field per declared
        setting, its default the setting's (built once per game)."""
        if cls.__dict__.get("_params_type") is None:
            py = {"int": int, "float": float, "str": str, "bool": bool, "path": str | None}
            fields = [(s.name, py[s.type], field(default=s.default)) for s in cls.settings]
            name = "".join(part.title() for part in cls.id.split("-")) + "Params"
            cls._params_type = make_dataclass(name, fields, frozen=True)
        return cls._params_type

    def params(self, settings: Any = None) -> Any:
        """Typed parameters from resolved settings (missing ones take their defaults); a value that
        already is this game's parameters is returned as it is."""
        kind = self.params_type()
        if isinstance(settings, kind):
            return settings
        given = {k: v for k, v in (settings or {}).items() if v is not None}
        return kind(**fill_followers(self, given))

    def player(self, spec: str, rng: Any) -> Any:
        """One seat's player object for a strategy spec: a built-in one as `Class(rng, **params)`
        (its declared parameters, the spec's values over the defaults), or a user's
        `path/file.py:Class` as `Class(rng)`. The one place a strategy becomes an object."""
        if is_user_spec(spec):
            return load_class(spec)(rng)
        strategy, params = strategy_specs.resolved(spec, self.strategies)
        if strategy.native_only:
            raise UserError(f"{self.id}: strategy '{spec}' is played by the native engine only")
        if strategy.player is None:
            raise RuntimeError(f"{self.id}: strategy '{strategy.name}' declares no player class")
        return strategy.player(rng, **params)

    def play(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> GameResult:
        """Play one whole game; a pure function of its arguments."""
        raise NotImplementedError

    def replay(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> list[dict]:
        """The same game as a list of events (JSON-ready dicts)."""
        raise NotImplementedError

    def load_components(self, params: Any) -> Any:
        """The game's components under these parameters: an object with `path` (the file it was
        read from) and `sources` (part -> provenance), as each game's `components.load` gives."""
        if self.components is None:
            raise NotImplementedError
        return self.components.load(params.data)

    def new_game(
        self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int, log: list | None
    ) -> Any:
        """The game of this root seed and index, writing its events to `log` (None: no log): the
        typed parameters, the components and the game's seed sequence, handed to `start`."""
        params = self.params(settings)
        seq = seeds.game_sequence(root_seed, game_index)
        return self.start(params, self.load_components(params), strategies, seq, log)

    def start(self, params: Any, comp: Any, strategies: Sequence[str], seq: Any, log: list | None) -> Any:
        """The game object of a game that `new_game` builds: its streams drawn from `seq`
        (core/seeds.py), its players built by `self.player`."""
        raise NotImplementedError

    def narrate(self, events: list[dict]) -> list[str]:
        """The event log told as at the table, for `simkit replay` (the `narrate` capability)."""
        if self.narration is None:
            raise NotImplementedError
        return self.narration.narrate(events)

    def data_files(self, settings: Any) -> list[Path]:
        """Component files the game reads under these settings (hashed into the manifest)."""
        return [Path(self.load_components(self.params(settings)).path)]

    def data_sources(self, settings: Any) -> dict[str, dict[str, str]]:
        """For each component file, where each part of it comes from ("rulebook", "derived",
        "invented", "published"): the report names the invented ones. A plain dict: the manifest
        is JSON."""
        comp = self.load_components(self.params(settings))
        return {comp.path: dict(comp.sources)}

    @property
    def has_native(self) -> bool:
        """The native core has this game (when it is built)."""
        return self.native is not None

    def native_data(self, params: Any) -> dict[str, Any]:
        """What the native engine is handed for these parameters: the component data as plain
        values (games with `native` only)."""
        if self.native is None:
            raise NotImplementedError
        return self.native.native_data(self.load_components(params))

    def check_declarations(self) -> None:
        """A game's declarations are checked when it registers: a broken one fails at import."""
        names = [c.name for c in self.record]
        if tuple(names[: len(REQUIRED_RECORD)]) != REQUIRED_RECORD:
            raise RuntimeError(f"{self.id}: the record must start with {', '.join(REQUIRED_RECORD)}")
        if len(set(names)) != len(names):
            raise RuntimeError(f"{self.id}: a record column is declared twice")
        clash = set(names) & (set(RUNNER_GAME_COLUMNS) | {s.name for s in self.settings} | {"strategy"})
        if clash:
            raise RuntimeError(f"{self.id}: record columns {sorted(clash)} clash with the runner's columns")
        if self.competitive and self.seat_record is None:
            raise RuntimeError(f"{self.id}: a competitive game declares its seat record")
        for name in self.capabilities:
            if name not in CAPABILITIES:
                raise RuntimeError(
                    f"{self.id}: unknown capability '{name}' (known: {', '.join(CAPABILITIES)})"
                )
            for method in CAPABILITY_METHODS.get(name, (name,)):
                if not callable(getattr(self, method, None)):
                    raise RuntimeError(f"{self.id}: declares '{name}' and has no method '{method}'")
        for name, strategy in self.strategies.items():
            if not isinstance(strategy, Strategy) or strategy.name != name:
                raise RuntimeError(
                    f"{self.id}: strategy '{name}' must be declared as Strategy(name, class, help) "
                    "(simkit.core.strategies.declare)"
                )
        if self.default_strategy not in self.strategies:
            raise RuntimeError(f"{self.id}: default strategy '{self.default_strategy}' is not declared")


class SelfPlayingEngine(Engine):
    """An engine whose game is an object that plays itself: `new_game(...)` builds it writing its
    events to `log` (None: no log), and its `play()` returns the record. `play`, `replay` and the
    replay page's `draw_replay` follow from that, the same way for every such game."""

    def play(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> GameResult:
        return GameResult(self.new_game(settings, strategies, root_seed, game_index, None).play())

    def replay(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> list[dict]:
        log: list[dict] = []
        self.new_game(settings, strategies, root_seed, game_index, log).play()
        return log

    def draw_replay(
        self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int
    ) -> list[replay_page.Step]:
        """The game as the replay page's steps: the table pictured after every narrated step."""
        return replay_page.play_watched(
            lambda log: self.new_game(settings, strategies, root_seed, game_index, log),
            self.drawing.look,
            self.narration.narrate_steps,
            self.drawing.draw,
        )


_GAMES: dict[str, Engine] = {}
_discovered = False


def register(engine: Engine) -> Engine:
    engine.check_declarations()
    if engine.id in _GAMES and _GAMES[engine.id] is not engine:
        raise RuntimeError(f"game id registered twice: {engine.id}")
    _GAMES[engine.id] = engine
    return engine


ENTRY_POINT_GROUP = "simkit.games"


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    import simkit.games as games_pkg

    for module in pkgutil.iter_modules(games_pkg.__path__):
        importlib.import_module(f"{games_pkg.__name__}.{module.name}")
    _discovered = True
    _discover_entry_points()


def _discover_entry_points() -> None:
    """Games from outside: each entry point of the `simkit.games` group names a module whose
    import registers its engine (`register(MyGame())`, as the built-in games do). One that fails
    to load is skipped with one line on stderr; the other games still work."""
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception as exc:  # an outside game's bug must not break simkit
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
            print(
                f"simkit: warning: game entry point '{ep.name} = {ep.value}' failed to load, "
                f"skipped ({reason})",
                file=sys.stderr,
            )


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


def fill_followers(engine: Engine, given: dict[str, Any]) -> dict[str, Any]:
    """`given` with each unset setting whose default follows others filled in from them (the
    others at their defaults where unset too)."""
    missing = [s for s in engine.settings if s.follows is not None and given.get(s.name) is None]
    if not missing:
        return given
    full = {s.name: s.default for s in engine.settings if s.follows is None} | given
    return given | {s.name: s.follows(full) for s in missing}


def resolve_settings(engine: Engine, given: dict[str, Any], where: str) -> dict[str, Any]:
    """Check names and values against the game's declarations and fill in defaults."""
    declared = {s.name: s for s in engine.settings}
    for key in given:
        if key not in declared:
            allowed = ", ".join(declared) or "none"
            owners = [s.name for s in engine.strategies.values() if key in {p.name for p in s.params}]
            hint = (
                f"; '{key}' is a parameter of strategy {', '.join(owners)}: {owners[0]}:{key}=..."
                if owners
                else ""
            )
            raise UserError(f"{where}: unknown setting '{key}' for {engine.id} (settings: {allowed}){hint}")
    out: dict[str, Any] = {}
    for name, setting in declared.items():
        if name in given and given[name] is not None:
            out[name] = setting.parse(given[name], where)
        elif setting.follows is None:
            out[name] = setting.default
    out = fill_followers(engine, out)
    out = {name: out[name] for name in declared}  # the declared order
    if "check_settings" in engine.capabilities:  # values allowed alone, not together
        try:
            engine.check_settings(engine.params(out))
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
    # built-in specs checked and written one way (`bold:final_conflict=6` is `bold`)
    names = tuple(strategy_specs.normalise(n, engine.strategies, where, engine.id) for n in names)
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
