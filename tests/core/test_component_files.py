"""`simkit data template` and `simkit data check`, for every game with a component file.

The template is the built-in file with every field explained: it must load exactly as the
built-in file, check clean, and explain every field it declares. The check names every fault of a
file, one line each, and for a good file says what it changes from the built-in data.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from simkit.core import component_files, schema
from simkit.core.errors import UserError
from simkit.core.registry import all_games, get_game
from tests.cli.test_cli import simkit

GAMES = [g.id for g in all_games() if g.component_spec is not None]


def test_every_game_with_a_data_setting_declares_its_file():
    with_data = {g.id for g in all_games() if any(s.name == "data" for s in g.settings)}
    assert with_data and with_data == set(GAMES)


def fields_of(spec: schema.Field, key: str = ""):
    """(key, field) for every field under `spec`, entries of arrays of tables included."""
    if isinstance(spec, schema.Table):
        for name, sub in spec.fields.items():
            yield f"{key}.{name}" if key else name, sub
            yield from fields_of(sub, f"{key}.{name}" if key else name)
        if spec.values is not None:
            yield f"{key}.*", spec.values
            yield from fields_of(spec.values, f"{key}.*")
    elif isinstance(spec, schema.Tables):
        yield from fields_of(spec.item, f"{key}[]")
    elif isinstance(spec, schema.List):
        yield from fields_of(spec.item, f"{key}[]")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_field_is_explained(game_id):
    spec = get_game(game_id).component_spec
    named = [(key, f) for key, f in fields_of(spec.root) if not key.endswith("[]")]
    assert named
    unexplained = [key for key, f in named if not f.doc]
    assert not unexplained, f"fields without a meaning for the template: {unexplained}"


@pytest.mark.parametrize("game_id", GAMES)
def test_template_round_trips(tmp_path, game_id):
    engine = get_game(game_id)
    out = tmp_path / "mine.toml"
    made = simkit("data", "template", game_id, "--out", out)
    assert made.returncode == 0, made.stderr
    builtin = tomllib.loads(component_files.builtin_path(engine).read_text(encoding="utf-8"))
    assert tomllib.loads(out.read_text(encoding="utf-8")) == builtin
    text = out.read_text(encoding="utf-8")
    assert text.count("\n#") > 10  # explained, not just dumped
    checked = simkit("data", "check", game_id, out)
    assert checked.returncode == 0, checked.stderr
    assert (
        "a valid component file" in checked.stdout
        and "the same values as the built-in data" in checked.stdout
    )
    # and the engine plays with it
    engine.play(engine.params({"data": str(out)}), [engine.default_strategy] * engine.min_players, 5, 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_template_marks_what_is_invented(game_id):
    engine = get_game(game_id)
    sources = engine.data_sources(engine.params())
    invented = [part for parts in sources.values() for part, src in parts.items() if src == "invented"]
    text = component_files.template(engine)
    assert ("INVENTED in the built-in file" in text) == bool(invented)


def edited(tmp_path: Path, text: str, *edits: tuple[str, str]) -> Path:
    """`text` (a component file) with each `old` (found there exactly once) made `new`, written
    to tmp_path/mine.toml. The game tests build their changed files with it too."""
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} is not in the file exactly once"
        text = text.replace(old, new)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def checked(tmp_path: Path, game_id: str, edits: list[tuple[str, str]]):
    """The game's template with `edits` made, as a file, and what `simkit data check` says of it."""
    mine = edited(tmp_path, component_files.template(get_game(game_id)), *edits)
    return mine, simkit("data", "check", game_id, mine)


# game -> (changes to its template, what `simkit data check` says of each, a test of the loaded components)
VALID_CHANGES = {
    "eight-bit-invaders": (
        [('{ id = 1, type = "squid", requires = "1 2" }', '{ id = 1, type = "crab", requires = "1 2" }')],
        ["aliens.cards[0].type: 'crab' (built-in: 'squid')"],
        lambda comp: comp.types[comp.aliens[0].type] == "crab",
    ),
    "alien-attack": (
        [
            ("discs = 33", "discs = 30"),
            ('{ space = 2, name = "Olympic" }', '{ space = 2, name = "Olympic NP" }'),
        ],
        ["supply.discs: 30 (built-in: 33)", "parks.spaces[0].name: 'Olympic NP' (built-in: 'Olympic')"],
        lambda board: board.discs == 30,
    ),
    "oh-no-invasion": (
        [
            (
                '{ colour = "red", aliens = 1, flies = "left", orders = "yellow", threshold = 6 }',
                '{ colour = "red", aliens = 1, flies = "left", orders = "yellow", threshold = 8 }',
            ),
            ("points = [2, 3, 5, 7]", "points = [2, 3, 5, 9]"),
        ],
        [
            "invaders.cards[0].threshold: 8 (built-in: 6)",
            "levels.points: [2, 3, 5, 9] (built-in: [2, 3, 5, 7])",
        ],
        lambda comp: comp.spawn_threshold[8] == 8,  # the first invader: after the 8 Shield aliens
    ),
    "space-alert": (
        [("copies = 8", "copies = 6"), ("level_real = 7", "level_real = 8")],
        ["actions.copies: 6 (built-in: 8)", "recipe.level_real: 8 (built-in: 7)"],
        lambda comp: comp.copies == 6 and comp.recipe["level_real"] == 8,
    ),
}


@pytest.mark.parametrize("game_id", VALID_CHANGES)
def test_a_valid_change_is_named(tmp_path, game_id):
    changes, named, loaded = VALID_CHANGES[game_id]
    mine, result = checked(tmp_path, game_id, changes)
    assert result.returncode == 0, result.stderr
    assert "a valid component file" in result.stdout
    for line in named:
        assert line in result.stdout, result.stdout
    engine = get_game(game_id)
    assert loaded(engine.load_components(engine.params({"data": str(mine)})))


# game -> (three mistakes in its template, the keys `simkit data check` names, in its order: the
# fields' faults first, then the rules'; words of the last line)
THREE_MISTAKES = {
    "eight-bit-invaders": (
        [("rows = 5", "rows = 0"), ('requires = "=15"', 'requires = "=99"'), ("faces = 6", "faces = 8")],
        ["formation.rows", "dice.faces", "aliens.cards[34].requires"],
        "must be",
    ),
    "alien-attack": (
        [
            ("discs = 33", "discs = 0"),  # a field: out of range
            ("2 = [0, 2, 4, 7,", "2 = [0, 2, 1, 7,"),  # a field: a mission table that decreases
            ("[14, 15, 26]", "[14, 15, 100]"),  # a rule across fields: a herd region not connected
        ],
        ["supply.discs", "missions.city.2", "herds.regions[0]"],
        "space 100 touches no other herd of its region",
    ),
    "oh-no-invasion": (
        [
            ("points = [2, 3, 5, 7]", "points = [2, 3, 5, 101]"),  # a field: out of range
            ('{ module = "catalyst", symbol = "red" }', '{ module = "warp_drive", symbol = "red" }'),
            ('pink = ["blue"]', 'pink = ["red"]'),  # a rule across fields: red is an Invalien colour
        ],
        ["levels.points[3]", "modules.cards[0].module", "orders.pink"],
        "own kind",
    ),
    "space-alert": (
        [
            ("copies = 8", "copies = 0"),  # a value out of range
            ("shield = 0, health = 5, speed = 5", 'shield = 0, health = 5, speed = "fast"'),  # E1-10
            ("internal_level = [1, 3]", "internal_level = [3, 1]"),  # a rule across the range's ends
        ],
        ["actions.copies", "threats.cards[9] (E1-10).speed", "recipe.internal_level"],
        "must be [low, high]",
    ),
}


@pytest.mark.parametrize("game_id", THREE_MISTAKES)
def test_three_mistakes_give_three_lines(tmp_path, game_id):
    mistakes, keys, words = THREE_MISTAKES[game_id]
    mine, result = checked(tmp_path, game_id, mistakes)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 3, lines
    for line, key in zip(lines, keys, strict=True):
        assert line.startswith(f"{mine}: {key}: "), line
    assert words in lines[2]
    # the loader refuses the same file in one line: the first fault, and how many more there are
    engine = get_game(game_id)
    with pytest.raises(UserError) as refused:
        engine.load_components(engine.params({"data": str(mine)}))
    message = str(refused.value)
    assert "\n" not in message and f": {keys[0]}: " in message
    assert f"(and 2 more: simkit data check {game_id} " in message
    # and so does a run
    run = simkit("simulate", game_id, "-n", "2", "--set", f"data={mine}", "--out", tmp_path / "run")
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert keys[0] in run.stderr and "and 2 more" in run.stderr


def test_a_rule_across_fields_runs_only_on_checked_fields(tmp_path):
    """A rule reading a broken field would crash or mislead: it waits for the field to pass."""
    spec = get_game("eight-bit-invaders").component_spec
    doc = tomllib.loads(component_files.template(get_game("eight-bit-invaders")))
    doc["formation"]["rows"] = "five"
    found = schema.problems(doc, spec)
    assert [key for key, _ in found] == ["formation.rows"]
    doc["formation"]["rows"] = 4  # now the rule counts the cards: 35 for a 4 x 7 formation
    assert [key for key, _ in schema.problems(doc, spec)] == ["aliens.cards"]


def test_a_section_must_say_where_its_values_come_from():
    """`Section` puts its `source` before its fields: a section without one, or with a source that
    is not a provenance, is named."""
    spec = schema.FileSpec(root=schema.Table(fields={"box": schema.Section("a box", cards=schema.Int(lo=1))}))
    assert list(spec.root.fields["box"].fields) == ["source", "cards"]
    assert schema.problems({"box": {"source": "rulebook", "cards": 3}}, spec) == []
    assert [key for key, _ in schema.problems({"box": {"cards": 3}}, spec)] == ["box.source"]
    assert [key for key, _ in schema.problems({"box": {"source": "guessed", "cards": 3}}, spec)] == [
        "box.source"
    ]


@pytest.mark.parametrize(
    "args, expected",
    [
        (["data", "template", "no-such-game"], "unknown game 'no-such-game'"),
        (["data", "check", "eight-bit-invaders", "no-such-file.toml"], "cannot read component file"),
    ],
)
def test_bad_input_is_one_line(args, expected):
    result = simkit(*args)
    assert result.returncode == 2
    assert expected in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_template_does_not_overwrite(tmp_path):
    out = tmp_path / "mine.toml"
    out.write_text("mine")
    result = simkit("data", "template", "eight-bit-invaders", "--out", out)
    assert result.returncode == 2 and "already exists" in result.stderr
    assert out.read_text() == "mine"


def test_malformed_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[formation\n")
    result = simkit("data", "check", "eight-bit-invaders", bad)
    assert result.returncode == 2 and "malformed TOML" in result.stderr
