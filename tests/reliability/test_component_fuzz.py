"""Issue 19, point 8: the component files under mutation. Each default data file is mutated a
few hundred ways (a key dropped, a value of another type, a negative, huge or non-finite number,
a wrong string, an empty list, a duplicated entry...) by a seeded generator; every mutation must
be either refused by the loader in one line that names the file (`UserError`, exit 2 on the
command line) or load into components with which a game plays to its end."""

from __future__ import annotations

import json
import math
import random
import tomllib
from pathlib import Path

import pytest

from simkit.core.errors import UserError
from simkit.core.registry import get_game
from simkit.games.alien_attack import components as alien_attack
from simkit.games.eight_bit_invaders import components as eight_bit
from simkit.games.oh_no_invasion import components as oh_no
from simkit.games.space_alert import components as space_alert

FILES = {
    "eight-bit-invaders": eight_bit,
    "alien-attack": alien_attack,
    "oh-no-invasion": oh_no,
    "space-alert": space_alert,
}
MUTATIONS_PER_FILE = 150


# --- a TOML writer: every table inline, which TOML reads as the same document --------------------


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # JSON string escapes are TOML basic-string escapes
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def toml_document(doc: dict) -> str:
    return "".join(f"{json.dumps(str(k))} = {toml_value(v)}\n" for k, v in doc.items())


# --- mutations -----------------------------------------------------------------------------------


def places(value, path=()):
    """Every path to a value inside the document (tables, keys and list items)."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, (*path, i))


def get(doc, path):
    for step in path:
        doc = doc[step]
    return doc


def replacements(value, rng: random.Random) -> list:
    """Values of the wrong type or out of any sensible range, for a value like `value`."""
    common = ["", "???", -1, 0, 10**12, -(10**12), 2.5, math.nan, math.inf, True, [], {}]
    if isinstance(value, bool):
        return [not value, 1, "yes", *common]
    if isinstance(value, int):
        return [-value, value + 1, value - 1, value * 1000, -value - 1, str(value), float(value), *common]
    if isinstance(value, float):
        return [-value, math.nan, -math.inf, int(value), str(value), *common]
    if isinstance(value, str):
        return [value.upper(), value + "x", value[:-1], " " + value, 7, [value], *common]
    if isinstance(value, list):
        out = [[], value[:1], value[:-1], value[::-1], value + value[-1:] if value else [0], [None]]
        return [v for v in out if v != [None]] + [{"x": 1}, "???", 3]
    return [[], "???", 0, {}]


def kind_of(value) -> str:
    return "number" if type(value) in (int, float) and type(value) is not bool else type(value).__name__


FREE_FORM = ("meta", "note", "text", "description")  # text for people: any value is as good


def mutate(doc: dict, rng: random.Random) -> tuple[dict, str, bool]:
    """A deep copy of the document with one change, a description of it, and whether the change
    put a value of another kind (text for a number, a table for a list...) where the schema has
    no free-form text."""
    doc = json.loads(json.dumps(doc))  # TOML values here are JSON values (no dates in these files)
    path = rng.choice([p for p in places(doc) if p])
    parent, key = get(doc, path[:-1]), path[-1]
    old = parent[key]
    kind = rng.random()
    if kind < 0.15 and isinstance(parent, dict):
        del parent[key]
        return doc, f"drop {'.'.join(map(str, path))}", False
    if kind < 0.25 and isinstance(parent, list):
        parent.insert(key, json.loads(json.dumps(old)))  # a duplicate entry (duplicate ids...)
        return doc, f"duplicate {'.'.join(map(str, path))}", False
    if kind < 0.3 and isinstance(parent, dict):
        parent["unexpected_key"] = 1
        return doc, f"add a key next to {'.'.join(map(str, path))}", False
    new = rng.choice(replacements(old, rng))
    parent[key] = new
    retyped = kind_of(new) != kind_of(old) and not any(step in FREE_FORM for step in path)
    return doc, f"{'.'.join(map(str, path))}: {old!r} -> {new!r}"[:200], retyped


def outcome(game_id: str, path: Path, retyped: bool = False) -> str | None:
    """None when the file is refused in one line naming it, or loads and a game plays to its
    end with it; otherwise what went wrong. A value of another kind must be refused."""
    module = FILES[game_id]
    try:
        module.load(path)
    except UserError as exc:
        text = str(exc)
        if "\n" in text or str(path) not in text:
            return f"refused, but not in one line naming the file: {text!r}"
        return None
    except Exception as exc:  # a traceback on the command line
        return f"load raised {type(exc).__name__}: {exc}"
    if retyped:
        return "accepted a value of another kind"
    engine = get_game(game_id)
    try:
        params = engine.params({"data": str(path)})
        if "check_settings" in engine.capabilities:
            engine.check_settings(params)
    except UserError:
        return None  # refused in one line before playing (the settings do not fit this box)
    strategies = [engine.default_strategy] * (engine.min_players if engine.competitive else 1)
    try:
        engine.play(params, strategies, 11, 0)
    except Exception as exc:
        return f"accepted, then a game raised {type(exc).__name__}: {exc}"
    return None


@pytest.mark.parametrize("game_id", sorted(FILES))
def test_every_mutation_of_a_default_file_is_refused_in_one_line_or_plays(tmp_path, game_id):
    default = Path(FILES[game_id].DEFAULT_FILE)
    doc = tomllib.loads(default.read_text())
    assert tomllib.loads(toml_document(doc)) == doc  # the writer round-trips the default file
    rng = random.Random(f"fuzz {game_id}")
    problems = []
    for i in range(MUTATIONS_PER_FILE):
        mutated, change, retyped = mutate(doc, rng)
        path = tmp_path / f"m{i:03d}.toml"
        path.write_text(toml_document(mutated))
        problem = outcome(game_id, path, retyped)
        if problem:
            problems.append(f"{change}: {problem}")
    assert not problems, "\n".join(problems[:20])


# The holes the fuzz found (tracebacks, and changes accepted without a word), each refused now.
def _first(items, test):
    return next(x for x in items if test(x))


def _ops_list(doc):
    return _first(doc["threats"]["cards"], lambda c: c.get("x"))["x"][0]


HOLES = {
    "space-alert: an effect named by a list": (
        "space-alert",
        lambda doc: _ops_list(doc).update(op=[_ops_list(doc)["op"]]),
        "unknown effect",
    ),
    "space-alert: a rule key that is a table": (
        "space-alert",
        lambda doc: _first(doc["threats"]["cards"], lambda c: c.get("rules")).update(rules=[{}]),
        "unknown rule key",
    ),
    "space-alert: a rule key twice": (
        "space-alert",
        lambda doc: _first(doc["threats"]["cards"], lambda c: c.get("rules")).update(
            rules=[_first(doc["threats"]["cards"], lambda c: c.get("rules"))["rules"][0]] * 2
        ),
        "lists a rule key twice",
    ),
    "space-alert: a station twice": (
        "space-alert",
        lambda doc: _first(doc["threats"]["cards"], lambda c: c.get("stations")).update(
            stations=[_first(doc["threats"]["cards"], lambda c: c.get("stations"))["stations"][0]] * 2
        ),
        "lists a station twice",
    ),
    "space-alert: phase ends as a table": (
        "space-alert",
        lambda doc: doc["missions"]["list"][4].update(phase_ends_s={"x": 1}),
        "phase_ends_s",
    ),
    "space-alert: phase ends out of order": (
        "space-alert",
        lambda doc: doc["missions"]["list"][1].update(phase_ends_s=[240, -241, 620]),
        "phase_ends_s",
    ),
    "space-alert: a damage tile that is a number": (
        "space-alert",
        lambda doc: doc["damage"].update(tiles=[1, *doc["damage"]["tiles"][1:]]),
        "damage.tiles",
    ),
    "eight-bit-invaders: a bonus card listed twice": (
        "eight-bit-invaders",
        lambda doc: doc["bonus"]["cards"].append(dict(doc["bonus"]["cards"][0])),
        "listed twice",
    ),
    "oh-no-invasion: a colour ordered twice": (
        "oh-no-invasion",
        lambda doc: doc["orders"].update(orange=["purple", "purple"]),
        "lists a colour twice",
    ),
    "alien-attack: a mission table entry beyond any sense": (
        "alien-attack",
        lambda doc: doc["missions"]["border"].update(
            pacific=[*doc["missions"]["border"]["pacific"][:-1], 10**12]
        ),
        "missions.border.pacific",
    ),
    "alien-attack: a city named by a table": (
        "alien-attack",
        lambda doc: doc["cities"]["list"][0].update(name={}),
        "name",
    ),
    "alien-attack: a park named by a number": (
        "alien-attack",
        lambda doc: doc["parks"]["spaces"][0].update(name=float("nan")),
        "parks.spaces",
    ),
}


@pytest.mark.parametrize("case", sorted(HOLES))
def test_each_hole_the_fuzz_found_is_refused_in_one_line(tmp_path, case):
    game_id, change, expected = HOLES[case]
    doc = tomllib.loads(Path(FILES[game_id].DEFAULT_FILE).read_text())
    change(doc)
    path = tmp_path / "changed.toml"
    path.write_text(toml_document(doc))
    with pytest.raises(UserError) as refused:
        FILES[game_id].load(path)
    text = str(refused.value)
    assert "\n" not in text and str(path) in text and expected in text, text
