"""The board file's schema (`components.FILE_SPEC`) as `simkit data check` and the loader read it.

Every broken file is the built-in one with a few changes: each rule across fields fires on the
fault it is for and stays quiet on the built-in board. That `simkit data check` names each fault
in one line and sums up a good file by what it changes is tested for every game in
tests/core/test_component_files.py.
"""

from __future__ import annotations

import copy
import tomllib

import pytest

from simkit.core import schema
from simkit.games.alien_attack import components
from tests.core.test_component_files import edited

BUILTIN_TEXT = components.DEFAULT_FILE.read_text(encoding="utf-8")
BUILTIN = tomllib.loads(BUILTIN_TEXT)
SPEC = components.FILE_SPEC


def _ids(doc):
    return {e["n"]: i for i, e in enumerate(doc["board"]["spaces"])}


def _move_space_120(doc):
    doc["board"]["spaces"][_ids(doc)[120]].update(q=30)


def _value1_cities_to_3(doc):
    for city in doc["cities"]["list"]:
        if city["value"] == 1:
            city["value"] = 3


# One crafted fault per rule across fields: (what it breaks, the change, the key, a fragment).
RULE_FAULTS = [
    (
        "space number twice",
        lambda d: d["board"]["spaces"][1].update(n=1),
        "board.spaces[1]",
        "space 1: duplicate",
    ),
    ("board in two pieces", _move_space_120, "board.spaces", "space 120: not connected to space 1"),
    (
        "park twice",
        lambda d: d["parks"]["spaces"][1].update(space=2),
        "parks.spaces",
        "space 2 is listed twice",
    ),
    (
        "space in two herd regions",
        lambda d: d["herds"]["regions"][1].__setitem__(0, 14),
        "herds.regions[1]",
        "space 14 is already in herd region 0",
    ),
    (
        "border space inland",
        lambda d: d["borders"]["pacific"].__setitem__(0, 60),
        "borders.pacific",
        "space 60 is not on the board's edge",
    ),
    (
        "icon on the board",
        lambda d: d["canada_icons"]["positions"][0].update(q=2, r=0),
        "canada_icons.positions[0]",
        "is on space 3",
    ),
    (
        "city spaces apart",
        lambda d: d["cities"]["list"][0].update(spaces=[66, 79, 100]),
        "cities.list[0] (Los Angeles)",
        "spaces 66 and 100 are not adjacent",
    ),
    ("too few value-1 cities", _value1_cities_to_3, "cities.list", "0 cities of value 1; at least 4"),
    (
        "city table too short",
        lambda d: d["missions"]["city"].update({"5": [0, 5, 10, 15, 21, 28]}),
        "missions.city.5",
        "the board has 6 value-5 cities: give the points for every count 0-6",
    ),
    (
        "border table too short",
        lambda d: d["missions"]["border"].update(mexico=[0, 2, 4, 7]),
        "missions.border.mexico",
        "7 spaces on the mexico border",
    ),
]


def test_no_rule_fires_on_the_builtin_board():
    assert schema.problems(copy.deepcopy(BUILTIN), SPEC) == []
    for check in SPEC.checks:
        assert list(check.rule(copy.deepcopy(BUILTIN))) == [], check.doc
        assert check.doc  # the template states every rule in words


@pytest.mark.parametrize("what, change, key, fragment", RULE_FAULTS, ids=[f[0] for f in RULE_FAULTS])
def test_each_rule_fires_on_its_fault(what, change, key, fragment):
    doc = copy.deepcopy(BUILTIN)
    change(doc)
    assert any(k == key and fragment in m for k, m in schema.problems(doc, SPEC)), schema.problems(doc, SPEC)


def test_every_rule_has_a_crafted_fault():
    """Each rule, run as `simkit data check` runs it (after the rules before it, and only when the
    keys it needs passed), yields the fault of one of RULE_FAULTS."""
    fired = set()
    for _, change, key, fragment in RULE_FAULTS:
        doc = copy.deepcopy(BUILTIN)
        change(doc)
        for i in range(len(SPEC.checks)):
            before = schema.problems(doc, schema.FileSpec(root=SPEC.root, checks=SPEC.checks[:i]))
            upto = schema.problems(doc, schema.FileSpec(root=SPEC.root, checks=SPEC.checks[: i + 1]))
            if any(k == key and fragment in m for k, m in upto[len(before) :]):
                fired.add(i)
    assert fired == set(range(len(SPEC.checks)))


# --- what is special to this file ------------------------------------------------------------------


def test_optional_parts_may_be_left_out(tmp_path):
    """[meta] and a park's name are optional: a nameless park is called by its space."""
    doc = copy.deepcopy(BUILTIN)
    del doc["meta"]
    del doc["parks"]["spaces"][0]["name"]
    assert schema.problems(doc, SPEC) == []
    mine = edited(tmp_path, BUILTIN_TEXT, ('{ space = 2, name = "Olympic" }', "{ space = 2 }"))
    assert components.load(mine).park_names[2] == "park 2"


def test_a_missing_section_is_named_and_no_rule_reads_it():
    """The rules needing board.spaces wait when the whole [board] table is missing (a rule reading
    it would raise KeyError)."""
    doc = copy.deepcopy(BUILTIN)
    del doc["board"]
    assert schema.problems(doc, SPEC) == [("board", "missing table")]
    doc = copy.deepcopy(BUILTIN)
    doc["missions"] = 5
    assert [key for key, _ in schema.problems(doc, SPEC)] == ["missions"]


def test_mission_tables_may_pay_the_same_twice_but_never_less():
    doc = copy.deepcopy(BUILTIN)
    doc["missions"]["global"]["parks"] = [0, 2, 2, 5]
    assert schema.problems(doc, SPEC) == []
    doc["missions"]["global"]["parks"] = [1, 2, 3]
    assert schema.problems(doc, SPEC) == [
        (
            "missions.global.parks",
            "must be a list of points in 0..10000 that starts at 0 and never decreases: the first entry is 1",
        )
    ]
    doc["missions"]["global"]["parks"] = [0, 3, 2]
    assert schema.problems(doc, SPEC) == [
        (
            "missions.global.parks",
            "must be a list of points in 0..10000 that starts at 0 and never decreases: entry 2 is 2, after 3",
        )
    ]


def test_city_tables_are_named_by_card_value():
    """missions.city holds one table per City card (2-5), named by its value: no other."""
    doc = copy.deepcopy(BUILTIN)
    doc["missions"]["city"]["6"] = [0, 1]
    del doc["missions"]["city"]["2"]
    assert [key for key, _ in schema.problems(doc, SPEC)] == ["missions.city.6", "missions.city.2"]


def test_a_broken_field_keeps_the_rules_reading_it_quiet():
    """A city whose spaces are not numbers is one fault: the rules placing cities on corners and
    counting them wait for it."""
    doc = copy.deepcopy(BUILTIN)
    doc["cities"]["list"][0]["spaces"] = ["66", 79, 80]
    assert [key for key, _ in schema.problems(doc, SPEC)] == ["cities.list[0].spaces[0]"]


def test_the_template_explains_the_board():
    from simkit.core import component_files
    from simkit.core.registry import get_game

    text = component_files.template(get_game("alien-attack"))
    assert tomllib.loads(text) == BUILTIN
    for words in ("axial coordinates", "the 22 parks", "Rules across fields", "worked example"):
        assert words in text, words
