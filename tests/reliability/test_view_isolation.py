"""Issue 19, point 5: a player cannot change other cells, and a view holds only what the player
may see.

The poisoner tries to change everything it can reach from its view (`object.__setattr__` on every
object, item assignment and clearing on every mapping and list), then plays the game's default
strategy; the default strategy's games played after it in the same process must be unchanged,
and so must the process-wide cached components. The peeker walks every attribute a view offers,
private ones included, and fails its game if any of them leads to the game's state, its random
streams or its set-up (the deck order, the bag, the damage tiles, another hand at level 3).
"""

from __future__ import annotations

import random
import sys

import pytest

from simkit.core import players as user_players
from simkit.core.registry import get_game

GAMES = ("eight-bit-invaders", "alien-attack", "oh-no-invasion", "space-alert")
SETTINGS = {"oh-no-invasion": {"level": 3}}  # level 3: the other hands are hidden
GAMES_PER_CELL = 4

WALKER = '''
import random
import sys

from simkit.core.registry import get_game

engine = get_game("{game_id}")
Base = engine.strategies[engine.default_strategy].player
ATOMS = (int, float, str, bytes, bool, type(None), range)


def reachable(view, depth=4):
    """(path, object) for every object reached from the view through attributes (private ones
    too, not dunders), items of tuples, lists and mappings; the view itself is not included."""
    seen = {{id(view)}}
    todo = [("view", view, 0)]
    while todo:
        path, obj, level = todo.pop()
        if level >= depth:
            continue
        children = []
        if isinstance(obj, (tuple, list, frozenset, set)):
            children = [(f"{{path}}[{{i}}]", x) for i, x in enumerate(obj)]
        elif hasattr(obj, "items") and hasattr(obj, "keys"):
            children = [(f"{{path}}[{{k!r}}]", x) for k, x in list(obj.items())]
        if not isinstance(obj, ATOMS + (tuple, list, dict)):
            for name in dir(obj):
                if name.startswith("__"):
                    continue
                try:
                    value = getattr(obj, name)
                except Exception:  # an accessor that refuses (a hidden hand): nothing reached
                    continue
                if callable(value) and not isinstance(value, type):
                    continue
                children.append((f"{{path}}.{{name}}", value))
        for child_path, child in children:
            if isinstance(child, ATOMS) or id(child) in seen:
                continue
            seen.add(id(child))
            yield child_path, child
            todo.append((child_path, child, level + 1))


def junk_for(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return -value - 7
    if isinstance(value, str):
        return value + "?"
    if isinstance(value, tuple):
        return value[::-1] + value
    return None


def poison(view):
    """Try every change a player could make to what it reaches; return the ones that held."""
    held = []
    for path, obj in list(reachable(view)):
        if isinstance(obj, list):
            try:
                obj.reverse()
                held.append(path + ".reverse()")
            except Exception:
                pass
            continue
        if hasattr(obj, "items") and hasattr(obj, "keys"):
            for key, value in list(obj.items()):
                try:
                    obj[key] = junk_for(value)
                    held.append(f"{{path}}[{{key!r}}] =")
                except Exception:
                    pass
            continue
        if isinstance(obj, (tuple, frozenset)) and not hasattr(obj, "_fields"):
            continue
        for name in dir(obj):
            if name.startswith("__"):
                continue
            try:
                value = getattr(obj, name)
            except Exception:
                continue
            if callable(value):
                continue
            try:
                object.__setattr__(obj, name, junk_for(value))
                held.append(f"object.__setattr__({{path}}, {{name!r}})")
            except Exception:
                pass
    return held


HIDDEN_TYPES = ("State", "Game", "Streams", "Setup", "Random", "Generator", "SeedSequence")


def peek(view):
    """The first path from the view to something a player at the table cannot see."""
    for path, obj in reachable(view):
        kind = type(obj)
        if kind.__name__ in HIDDEN_TYPES or isinstance(obj, random.Random):
            return f"{{path}} is the {{kind.__module__}}.{{kind.__name__}}"
    return None


def wrap(method, act):
    def decide(self, *args, **kwargs):
        for arg in args:
            if type(arg).__name__ in ("View", "GameView"):
                act(arg)
        return method(self, *args, **kwargs)

    return decide


class Poisoner(Base):
    """The default strategy, after trying to poison everything its view reaches."""


class Peeker(Base):
    """The default strategy, failing its game when a view leads to hidden information."""


def _fail_on_peek(view):
    found = peek(view)
    if found:
        raise AssertionError("the view leads to hidden information: " + found)


HELD = []  # what the poisoner managed to change (its own view's copies only, if anything)

for _name in dir(Base):
    _method = getattr(Base, _name)
    if _name.startswith("_") or not callable(_method):
        continue
    setattr(Poisoner, _name, wrap(_method, lambda view: HELD.extend(poison(view))))
    setattr(Peeker, _name, wrap(_method, _fail_on_peek))
'''


def write_players(tmp_path, game_id: str) -> str:
    path = tmp_path / f"{game_id.replace('-', '_')}_walkers.py"
    path.write_text(WALKER.format(game_id=game_id))
    return str(path)


def strategies_for(engine, player: str) -> list[str]:
    """The cell's strategies: the player alone, or first seat against the default strategy."""
    if engine.competitive:
        return [player, engine.default_strategy]
    return [player]


def play(engine, strategies: list[str], seed: int) -> list:
    settings = SETTINGS.get(engine.id)
    return [engine.play(settings, strategies, seed, i) for i in range(GAMES_PER_CELL)]


def components_of(engine) -> object:
    """The process-wide cached components the engine plays with."""
    module = sys.modules[type(engine).__module__]
    return module.components.load(None)


def frozen_copy(value):
    """A comparable deep copy of the components (mappings as sorted items, objects as fields)."""
    if isinstance(value, (int, float, str, bool, type(None))):
        return value
    if hasattr(value, "items") and hasattr(value, "keys"):
        return ("map", tuple(sorted((repr(k), frozen_copy(v)) for k, v in value.items())))
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [frozen_copy(v) for v in value]
        return (
            "seq",
            tuple(sorted(items, key=repr)) if isinstance(value, (set, frozenset)) else tuple(items),
        )
    fields = getattr(value, "_fields", None) or getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return (type(value).__name__, tuple((f, frozen_copy(getattr(value, f))) for f in fields))
    return repr(value)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_poisoning_player_changes_no_other_game(tmp_path, game_id):
    engine = get_game(game_id)
    spec = f"{write_players(tmp_path, game_id)}:Poisoner"
    before = frozen_copy(components_of(engine))
    clean = play(engine, strategies_for(engine, engine.default_strategy), seed=3)

    poisoned_games = []
    for i in range(GAMES_PER_CELL):
        try:
            poisoned_games.append(engine.play(SETTINGS.get(game_id), strategies_for(engine, spec), 3, i))
        except Exception as exc:  # its own game may break on its own junk; no other game may
            poisoned_games.append(exc)
    module = user_players._module(spec.rsplit(":", 1)[0])
    assert poisoned_games and module.Poisoner is not None

    after = play(engine, strategies_for(engine, engine.default_strategy), seed=3)
    assert [r.record for r in after] == [r.record for r in clean]
    assert [r.seats for r in after] == [r.seats for r in clean]
    assert frozen_copy(components_of(engine)) == before
    # Nothing shared was changed: at most the poisoner's own per-decision copies.
    shared = [h for h in module.HELD if "_copies" not in h]
    assert shared == [], shared[:5]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_view_leads_to_hidden_information(tmp_path, game_id):
    engine = get_game(game_id)
    spec = f"{write_players(tmp_path, game_id)}:Peeker"
    games = play(engine, strategies_for(engine, spec), seed=5)  # a peek raises in the game
    assert len(games) == GAMES_PER_CELL


def test_the_peeker_finds_a_state_behind_a_private_attribute(tmp_path):
    """The walk reaches private attributes: a view like the old ones (`view._s`) is caught."""
    namespace: dict = {}
    exec(WALKER.format(game_id="oh-no-invasion"), namespace)

    class State:
        hands = [[1, 2], [3]]

    class View:
        __slots__ = ("_s", "seat")

        def __init__(self) -> None:
            self._s, self.seat = State(), 0

    assert namespace["peek"](View()) == "view._s is the tests.reliability.test_view_isolation.State"
    assert namespace["peek"](type("View", (), {"rng": random.Random(1)})()).startswith("view.rng is")


def test_the_poisoner_reports_a_change_that_holds():
    """The poisoning walk does change an unprotected object: a frozen dataclass reached from the
    view yields to object.__setattr__, as the aliens of 8-Bit Invaders did."""
    from dataclasses import dataclass

    namespace: dict = {}
    exec(WALKER.format(game_id="eight-bit-invaders"), namespace)

    @dataclass(frozen=True)
    class Alien:
        a: int

    class View:
        def __init__(self) -> None:
            self.aliens = (Alien(3),)

    view = View()
    held = namespace["poison"](view)
    assert "object.__setattr__(view.aliens[0], 'a')" in held and view.aliens[0].a == -10
