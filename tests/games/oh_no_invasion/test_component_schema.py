"""Oh no... INVASION!!! component file as a schema: every rule across fields fires on its fault
and is quiet on the built-in file. That `simkit data check` names every fault in one line each and
a valid change in the differences is tested for every game in tests/core/test_component_files.py."""

from __future__ import annotations

import copy
import tomllib

import pytest

from simkit.core import component_files, schema
from simkit.core.registry import get_game
from simkit.games.oh_no_invasion import components
from simkit.games.oh_no_invasion.components import FILE_SPEC

GAME = "oh-no-invasion"
BUILTIN = tomllib.loads(components.DEFAULT_FILE.read_text(encoding="utf-8"))


def template() -> str:
    return component_files.template(get_game(GAME))


def keys(doc: dict) -> list[str]:
    return [key for key, _ in schema.problems(doc, FILE_SPEC)]


# --- (a) every rule across fields fires on its fault, and is quiet on the built-in file ---------


def _set(path: str, value):
    """A change to the document: the value at `path` ("a.b.0.c") set, or removed for `None`."""

    def change(doc: dict) -> None:
        *parents, last = path.split(".")
        for step in parents:
            doc = doc[int(step)] if isinstance(doc, list) else doc[step]
        if value is None:
            del doc[int(last) if isinstance(doc, list) else last]
        elif isinstance(doc, list):
            doc[int(last)] = value
        else:
            doc[last] = value

    return change


def _drop_colour_invaders(colour: str):
    def change(doc: dict) -> None:
        doc["invaders"]["cards"] = [c for c in doc["invaders"]["cards"] if c["colour"] != colour]

    return change


# rule -> (what is broken, the change, the key the rule names)
FAULTS = [
    ("colours_distinct", "colour twice", _set("colours.sabotalien", ["purple", "red"]), "colours.sabotalien"),
    ("colours_distinct", "black", _set("colours.sabotalien", ["purple", "black"]), "colours.sabotalien"),
    ("colours_distinct", "seven colours", _set("colours.sabotalien", ["purple"]), "colours"),
    ("hubs_numbered_once", "hub twice", _set("hubs.cards.1.number", 1), "hubs.cards[1].number"),
    (
        "hubs_numbered_once",
        "unknown symbol",
        _set("hubs.cards.0.symbols", ["red", "pink", "teal"]),
        "hubs.cards[0].symbols",
    ),
    ("module_symbols", "black symbol", _set("modules.cards.0.symbol", "black"), "modules.cards[0].symbol"),
    ("weapon_faces", "unknown type", _set("weapons.cards.26.type", "laser"), "weapons.cards[26].type"),
    ("weapon_faces", "unknown colour", _set("weapons.cards.0.colour", "teal"), "weapons.cards[0].colour"),
    ("resistance_faces_differ", "same face", _set("modules.cards.1.symbol", "red"), "modules"),
    ("resistance_total", "total off", _set("totals.resistance", 45), "totals.resistance"),
    ("order_table", "twice", _set("orders.orange", ["purple", "purple"]), "orders.orange"),
    ("order_table", "itself", _set("orders.pink", ["pink"]), "orders.pink"),
    ("order_table", "missing colour", _set("orders.red", None), "orders.red"),
    ("order_table", "unknown colour key", _set("orders.teal", ["red"]), "orders.teal"),
    ("shield_colours", "unknown colour", _set("shields.colours.0", "teal"), "shields.colours"),
    ("invader_cards", "unknown colour", _set("invaders.cards.0.colour", "teal"), "invaders.cards[0].colour"),
    (
        "invader_cards",
        "order not in the table",
        _set("invaders.cards.0.orders", "pink"),
        "invaders.cards[0].orders",
    ),
    (
        "invader_cards",
        "Invalien without threshold",
        _set("invaders.cards.0.threshold", None),
        "invaders.cards[0].threshold",
    ),
    (
        "invader_cards",
        "Evaporalien with threshold",
        _set("invaders.cards.24.threshold", 6),
        "invaders.cards[24].threshold",
    ),
    (
        "invader_cards",
        "Sabotalien with two aliens",
        _set("invaders.cards.42.aliens", 2),
        "invaders.cards[42].aliens",
    ),
    ("spawn_total", "total off", _set("totals.spawn", 61), "totals.spawn"),
    ("every_colour_invades", "no orange invader", _drop_colour_invaders("orange"), "invaders.cards"),
]
RULES = {check.rule.__name__.lstrip("_"): check for check in FILE_SPEC.checks}


def test_every_rule_has_a_fault_and_a_doc():
    assert {rule for rule, *_ in FAULTS} == set(RULES)
    assert all(check.doc for check in FILE_SPEC.checks)


@pytest.mark.parametrize(("rule", "what", "change", "key"), FAULTS, ids=[f"{r}: {w}" for r, w, *_ in FAULTS])
def test_each_rule_fires_on_its_fault(rule, what, change, key):
    doc = copy.deepcopy(BUILTIN)
    change(doc)
    assert key in [k for k, _ in RULES[rule].rule(doc)]
    assert key in keys(doc)  # and the whole check reports it


@pytest.mark.parametrize("rule", sorted(RULES))
def test_each_rule_is_quiet_on_the_builtin_file(rule):
    assert list(RULES[rule].rule(copy.deepcopy(BUILTIN))) == []


def test_the_builtin_file_has_no_fault():
    assert schema.problems(copy.deepcopy(BUILTIN), FILE_SPEC) == []


def test_a_broken_colour_list_silences_the_rules_that_read_the_colours():
    """Eight rules read [colours]: with it broken they wait, and the one fault is named once."""
    doc = copy.deepcopy(BUILTIN)
    doc["colours"]["invalien"] = "red"
    assert keys(doc) == ["colours.invalien"]


# --- (b) what is special to this file ----------------------------------------------------------


def test_colours_renamed_everywhere_load(tmp_path):
    """Colour names are data: a user whose box says teal for green renames it in every section."""
    text = template().replace('"green"', '"teal"').replace("\ngreen = [", "\nteal = [")
    mine = tmp_path / "mine.toml"
    mine.write_text(text, encoding="utf-8")
    comp = components.load(mine)
    assert comp.colours[2] == "teal" and "teal cannon" in comp.res_name
    assert comp.orders == components.load().orders


def test_the_order_table_keeps_its_source_beside_colour_keys():
    doc = copy.deepcopy(BUILTIN)
    del doc["orders"]["source"]
    doc["orders"]["red"] = "yellow"
    assert keys(doc) == ["orders.source", "orders.red"]
    doc = copy.deepcopy(BUILTIN)
    doc["orders"]["source"] = ["invented"]
    assert keys(doc) == ["orders.source"]


def test_meta_is_optional_and_threshold_only_where_printed():
    doc = copy.deepcopy(BUILTIN)
    del doc["meta"]
    assert keys(doc) == []
    assert FILE_SPEC.root.fields["invaders"].fields["cards"].item.fields["threshold"].optional


def test_template_explains_the_order_table_and_colours():
    text = template()
    assert "# Keys: each alien colour of [colours], once." in text
    assert "text balloon" in text and "an alien colour named in [colours]" in text
    assert "INVENTED in the built-in file" in text
