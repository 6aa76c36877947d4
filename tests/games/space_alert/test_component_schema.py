"""The Space Alert component file as a schema: each rule across fields fires on a file that
breaks it and on no other.

The generic checks (template round trip, every field explained, invented sections marked, three
mistakes named in three lines, a good file's changes named) are in
tests/core/test_component_files.py; the loader's one-line refusals in test_components.py.
"""

from __future__ import annotations

import copy
import tomllib

import pytest

from simkit.core import component_files, schema
from simkit.core.errors import UserError
from simkit.core.registry import get_game
from simkit.games.space_alert import components
from simkit.games.space_alert.components import FILE_SPEC
from tests.core.test_component_files import edited

BUILTIN = tomllib.loads(components.DEFAULT_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def template_text() -> str:
    return component_files.template(get_game("space-alert"))


def card_index(doc: dict, ident: str) -> int:
    return next(i for i, card in enumerate(doc["threats"]["cards"]) if card["id"] == ident)


def card_key(ident: str, name: str) -> str:
    """The key of field `name` of the built-in card `ident`, as a fault names it."""
    return f"threats.cards[{card_index(BUILTIN, ident)}] ({ident}).{name}"


def keys(doc: dict) -> list[str]:
    return [key for key, _ in schema.problems(doc, FILE_SPEC)]


def test_the_builtin_file_has_no_faults():
    assert schema.problems(BUILTIN, FILE_SPEC) == []
    for check in FILE_SPEC.checks:
        assert list(check.rule(BUILTIN)) == [], check.doc


def _board_y_on_x(doc):
    doc["trajectories"]["boards"][2]["y"] = [8]  # T3's X space


def _boards_swapped(doc):
    boards = doc["trajectories"]["boards"]
    boards[0], boards[1] = boards[1], boards[0]


def _y_beyond_entry(doc):
    doc["trajectories"]["boards"][0]["y"] = [12]  # T1 has 10 spaces


def _card(doc, ident):
    return doc["threats"]["cards"][card_index(doc, ident)]


# (what, change, the keys the rule names, a word of its message)
CHECK_CASES = [
    ("a Y space on the X space", _board_y_on_x, ["trajectories.boards[2].y"], "already holds"),
    (
        "boards out of order",
        _boards_swapped,
        ["trajectories.boards[0].id", "trajectories.boards[1].id"],
        "T1",
    ),
    ("a Y space beyond the entry", _y_beyond_entry, ["trajectories.boards[0].y"], "entry space"),
    (
        "shield above capacity",
        lambda doc: doc["ship"].update(shield_start=[1, 4, 1]),
        ["ship.shield_start"],
        "above capacity",
    ),
    (
        "phases short of the last turn",
        lambda doc: doc["ship"].update(phase_ends=[3, 7, 11]),
        ["ship.phase_ends"],
        "turn 12",
    ),
    (
        "a threat id twice",
        lambda doc: _card(doc, "E1-02").update(id="E1-01"),
        ["threats.cards[1].id"],
        "duplicate threat id E1-01",
    ),
    (
        "a threat missing",
        lambda doc: doc["threats"]["cards"].pop(),
        ["threats.cards"],
        "5 SI2 threats, found 4",
    ),
    (
        "a kind the id denies",
        lambda doc: _card(doc, "E1-05").update(kind="intruder"),
        [card_key("E1-05", name) for name in ("kind", "shield", "stations", "button")],
        "does not match the id E1-05",
    ),
    (
        "a colour the id denies",
        lambda doc: _card(doc, "E2-01").update(colour="white"),
        [card_key("E2-01", "deck")],
        "deck/colour common/white",
    ),
    (
        "an intruder fought with A",
        lambda doc: _card(doc, "I1-01").update(button="A"),
        [card_key("I1-01", "button")],
        "intruders are fought with BB",
    ),
    (
        "an external threat with a station",
        lambda doc: _card(doc, "E1-05").update(stations=["upper red"]),
        [card_key("E1-05", "stations")],
        "no station",
    ),
    (
        "an internal threat without its station",
        lambda doc: _card(doc, "I1-05").pop("stations"),
        [card_key("I1-05", "stations")],
        "missing",
    ),
    (
        "an attack without an amount",
        lambda doc: _card(doc, "E1-05")["z"][0].pop("n"),
        [card_key("E1-05", "z[0].n")],
        "takes an amount",
    ),
    (
        "an amount on an effect that takes none",
        lambda doc: _card(doc, "E1-03")["x"][0].update(n=1),
        [card_key("E1-03", "x[0].n")],
        "takes no amount",
    ),
    (
        "missions out of order",
        lambda doc: doc["missions"]["list"][1].update(id=3),
        ["missions.list[1].id"],
        "must be 2",
    ),
    (
        "two threats in one turn",
        lambda doc: doc["missions"]["list"][0]["threats"].append("T2SR"),
        ["missions.list[0].threats"],
        "one threat per turn",
    ),
    (
        "a range upside down",
        lambda doc: doc["recipe"].update(common_external_turns=[8, 1]),
        ["recipe.common_external_turns"],
        "[low, high]",
    ),
]


@pytest.mark.parametrize(("what", "change", "expected", "word"), CHECK_CASES, ids=[c[0] for c in CHECK_CASES])
def test_each_rule_across_fields_fires(what, change, expected, word):
    doc = copy.deepcopy(BUILTIN)
    change(doc)
    found = schema.problems(doc, FILE_SPEC)
    assert [key for key, _ in found] == expected
    assert word in found[0][1]


def test_every_rule_across_fields_is_exercised():
    rules_hit = set()
    for _, change, _, _ in CHECK_CASES:
        doc = copy.deepcopy(BUILTIN)
        change(doc)
        rules_hit |= {check.rule for check in FILE_SPEC.checks if list(check.rule(doc))}
    assert rules_hit == {check.rule for check in FILE_SPEC.checks}


def test_a_rule_waits_for_its_section_to_pass():
    """Energy above capacity is not judged while the ship's own fields are wrong."""
    doc = copy.deepcopy(BUILTIN)
    doc["ship"].update(shield_start=[1, 4, 1], fuel="three")
    assert keys(doc) == ["ship.fuel"]
    doc["ship"]["fuel"] = 3
    assert keys(doc) == ["ship.shield_start"]


def test_a_section_left_out_is_one_fault():
    doc = copy.deepcopy(BUILTIN)
    del doc["recipe"]
    assert [(k, m) for k, m in schema.problems(doc, FILE_SPEC)] == [("recipe", "missing table")]


# --- what is special to this file ----------------------------------------------------------------


def test_a_card_fault_names_the_card_by_its_id():
    doc = copy.deepcopy(BUILTIN)
    _card(doc, "SE2-04")["rules"] = ["rocket_immune", "rocket_proof"]
    _card(doc, "I2-01")["x"] = [{"op": "dissolve"}]
    assert schema.problems(doc, FILE_SPEC) == [
        (card_key("SE2-04", "rules[1]"), "unknown rule key 'rocket_proof' (known: "
         + ", ".join(components.RULE_KEYS) + ")"),
        (card_key("I2-01", "x[0].op"), "unknown effect 'dissolve'"),
    ]  # fmt: skip


def test_a_name_listed_twice():
    doc = copy.deepcopy(BUILTIN)
    _card(doc, "SI1-06")["stations"] = ["upper blue", "upper blue"]
    doc["damage"]["tiles"] = ["reactor", "reactor", "heavy_laser", "lower_cannon", "gravolift", "structural"]
    assert schema.problems(doc, FILE_SPEC) == [
        ("damage.tiles", "lists a damage tile twice"),
        (card_key("SI1-06", "stations"), "lists a station twice"),
    ]


def test_the_engine_names_are_fixed():
    doc = copy.deepcopy(BUILTIN)
    doc["ship"]["zones"] = ["blue", "white", "red"]
    doc["actions"]["moves"] = ["red", "blue"]
    assert keys(doc) == ["ship.zones", "actions.moves"]


def test_optional_keys_may_be_left_out(tmp_path):
    """meta, notes, a card's name, text, rules, points, x/y/destroyed effects and a mission's
    phase ends are optional; the loader fills in what the engine reads."""
    doc = copy.deepcopy(BUILTIN)
    del doc["meta"]
    for section in ("trajectories", "damage", "actions", "threats", "missions", "recipe"):
        doc[section].pop("note")
    for name in ("name", "text", "note", "rules", "x", "y", "destroyed"):
        _card(doc, "E1-02").pop(name, None)
    _card(doc, "SI2-02").pop("points")  # the Seeker's own points: its deck and colour's then
    for mission in doc["missions"]["list"]:
        mission.pop("phase_ends_s")
    assert schema.problems(doc, FILE_SPEC) == []
    mine = tmp_path / "mine.toml"
    mine.write_text(schema.template(FILE_SPEC, doc, ""), encoding="utf-8")
    loaded = components.load(mine)
    destroyer, seeker = loaded.by_id["E1-02"], loaded.by_id["SI2-02"]
    assert destroyer.name == "E1-02" and destroyer.rules == frozenset() and destroyer.effects[:2] == ((), ())
    assert seeker.points == (12, 6)  # serious yellow


def test_the_loader_refuses_in_one_line_and_counts_the_rest(tmp_path, template_text):
    mine = edited(tmp_path, template_text, ("copies = 8", "copies = 0"), ("fuel = 3", "fuel = -1"))
    with pytest.raises(UserError) as err:
        components.load(mine)
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{mine}: ship.fuel: ")
    assert f"and 1 more: simkit data check space-alert {mine}" in message
