"""`simkit data template` and `simkit data check`, for every game with a component file.

The template is the built-in file with every field explained: it must load exactly as the
built-in file, check clean, and explain every field it declares. The check names every fault of a
file, one line each, and for a good file says what it changes from the built-in data.
"""

from __future__ import annotations

import tomllib

import pytest

from simkit.core import component_files, schema
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


def test_a_changed_value_is_named(tmp_path):
    text = component_files.template(get_game("eight-bit-invaders"))
    mine = tmp_path / "mine.toml"
    mine.write_text(
        text.replace(
            '{ id = 1, type = "squid", requires = "1 2" }', '{ id = 1, type = "crab", requires = "1 2" }'
        )
    )
    result = simkit("data", "check", "eight-bit-invaders", mine)
    assert result.returncode == 0, result.stderr
    assert "aliens.cards[0].type: 'crab' (built-in: 'squid')" in result.stdout


def test_three_mistakes_give_three_lines(tmp_path):
    text = component_files.template(get_game("eight-bit-invaders"))
    for old, new in (
        ("rows = 5", "rows = 0"),
        ('requires = "=15"', 'requires = "=99"'),
        ("faces = 6", "faces = 8"),
    ):
        assert text.count(old) == 1
        text = text.replace(old, new)
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    result = simkit("data", "check", "eight-bit-invaders", mine)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 3, lines
    for line, key in zip(lines, ("formation.rows", "dice.faces", "aliens.cards[34].requires"), strict=True):
        assert line.startswith(f"{mine}: {key}: ")
    # a run refuses the same file in one line, naming the first fault and how many more there are
    run = simkit(
        "simulate", "eight-bit-invaders", "-n", "2", "--set", f"data={mine}", "--out", tmp_path / "run"
    )
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "formation.rows" in run.stderr and "and 2 more" in run.stderr


def test_a_rule_across_fields_runs_only_on_checked_fields(tmp_path):
    """A rule reading a broken field would crash or mislead: it waits for the field to pass."""
    spec = get_game("eight-bit-invaders").component_spec
    doc = tomllib.loads(component_files.template(get_game("eight-bit-invaders")))
    doc["formation"]["rows"] = "five"
    found = schema.problems(doc, spec)
    assert [key for key, _ in found] == ["formation.rows"]
    doc["formation"]["rows"] = 4  # now the rule counts the cards: 35 for a 4 x 7 formation
    assert [key for key, _ in schema.problems(doc, spec)] == ["aliens.cards"]


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
