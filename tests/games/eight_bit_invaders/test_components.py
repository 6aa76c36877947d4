"""8-Bit Invaders component data: the default file (RULINGS §3) and how broken copies are refused.

Each broken copy is the built-in file with one change (a row of BROKEN), refused in one line that
names the file and the key (`contract.check_refused`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from simkit.core.errors import UserError
from simkit.games.eight_bit_invaders import ENGINE, components
from simkit.games.eight_bit_invaders.components import PAIR, SUM
from simkit.testing import contract
from tests.core.test_component_files import edited

DEFAULT_TEXT = components.DEFAULT_FILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def comp():
    return components.load()


def test_default_file_counts(comp):
    assert (comp.rows, comp.columns) == (5, 7)
    assert len(comp.aliens) == 35
    assert comp.shield_start == (1, 3, 5)  # under the 2nd, 4th and 6th columns
    assert comp.countdown_cards == 7 and comp.dice_supplied == 9


def test_default_file_types(comp):
    assert len(comp.types) == 5
    assert Counter(a.type for a in comp.aliens) == dict.fromkeys(range(5), 7)
    assert len({a.id for a in comp.aliens}) == 35


def test_default_file_requirements(comp):
    pairs = [a.label for a in comp.aliens if a.kind == PAIR]
    assert sorted(pairs) == sorted(f"{a} {b}" for a in range(1, 7) for b in range(a + 1, 7))
    assert len(pairs) == 15
    sums = Counter(a.a for a in comp.aliens if a.kind == SUM)
    assert sums == {8: 4, 9: 4, 10: 4, 11: 4, 12: 1, 13: 1, 14: 1, 15: 1}
    assert sorted(a.label for a in comp.aliens if a.bomber) == ["=12", "=13", "=14", "=15"]
    # each type carries at most one bomber (the invented mix spreads them)
    assert max(Counter(a.type for a in comp.aliens if a.bomber).values()) == 1


def test_default_file_bonus_cards(comp):
    assert Counter(comp.bonus_deck) == {
        "rapid_fire": 3,
        "time_slip": 2,
        "smart_bomb": 2,
        "extra_life": 1,
        "rocket_fuel": 1,
    }


def test_default_file_provenance(comp):
    assert comp.sources["alien types"] == "invented"
    assert comp.sources["alien requirements"] == "derived"
    assert set(comp.sources) >= {"formation", "shields", "countdown", "dice", "bonus"}
    assert set(comp.sources.values()) <= set(components.PROVENANCE)
    assert Path(comp.path) == components.DEFAULT_FILE and len(comp.sha256) == 64


@pytest.mark.parametrize(
    ("label", "need"), [("1 2", 2), ("5 6", 2), ("=8", 2), ("=12", 2), ("=13", 3), ("=15", 3)], ids=str
)
def test_fewest_dice_needed(comp, label, need):
    assert next(a for a in comp.aliens if a.label == label).need == need


COUNTDOWN_SECTION = next(
    block + "\n\n" for block in DEFAULT_TEXT.split("\n\n") if block.startswith("[countdown]")
)
LAST_CARD = '  { id = 35, type = "saucer", requires = "=15" },\n'

# (old text, new text, key the message must name; None = the fault is not at a key)
BROKEN = {
    "wrong-alien-count": (LAST_CARD, "", "aliens.cards"),
    "extra-alien": (LAST_CARD, LAST_CARD + LAST_CARD.replace("35", "36"), "aliens.cards"),
    "duplicate-id": ("{ id = 35,", "{ id = 34,", "aliens.cards[34].id"),
    "bad-requirement-7-8": ('requires = "1 2"', 'requires = "7 8"', "aliens.cards[0].requires"),
    "bad-requirement-pair-reversed": ('requires = "1 3"', 'requires = "3 1"', "aliens.cards[1].requires"),
    "bad-requirement-double": ('requires = "1 4"', 'requires = "4 4"', "aliens.cards[2].requires"),
    "bad-requirement-word": (
        'id = 16, type = "skull", requires = "=8"',
        'id = 16, type = "skull", requires = "eight"',
        "aliens.cards[15].requires",
    ),
    "unknown-type": (
        'type = "squid", requires = "1 2"',
        'type = "ghost", requires = "1 2"',
        "aliens.cards[0].type",
    ),
    "duplicate-type-name": ('"saucer", "skull"]', '"saucer", "saucer"]', "aliens.types"),
    "unknown-bonus-card": ('name = "rocket_fuel"', 'name = "warp_drive"', "bonus.cards[4].name"),
    "bonus-count-not-integer": (
        '{ name = "time_slip", count = 2 }',
        '{ name = "time_slip", count = "2" }',
        "bonus.cards[1].count",
    ),
    "unknown-section": ("[formation]", "[extras]\nx = 1\n\n[formation]", "extras"),
    "unknown-key": ("rows = 5", 'rows = 5\ncolour = "green"', "formation.colour"),
    "missing-section": (COUNTDOWN_SECTION, "", "countdown"),
    "rows-out-of-range": ("rows = 5", "rows = 0", "formation.rows"),
    "shield-start-out-of-range": (
        "start_columns = [2, 4, 6]",
        "start_columns = [2, 4, 8]",
        "shields.start_columns",
    ),
    "shield-start-wrong-count": (
        "start_columns = [2, 4, 6]",
        "start_columns = [2, 4]",
        "shields.start_columns",
    ),
    "bad-provenance": (
        'source = "rulebook"          # 7 countdown',
        'source = "guessed"  # 7 countdown',
        "countdown.source",
    ),
    "bad-type-provenance": ('type_source = "invented"', 'type_source = "made up"', "aliens.type_source"),
    "dice-not-six-sided": ("faces = 6", "faces = 8", "dice.faces"),
    "malformed-toml": ("[dice]", "[dice", None),
    "type-without-aliens": ('"saucer", "skull"]', '"saucer", "skull", "ghost"]', ": aliens.types: "),
    "unknown-meta-key": ("version = 1", "version = 1\nvresion = 2", ": meta.vresion: "),
}


@pytest.mark.parametrize(("old", "new", "key"), BROKEN.values(), ids=BROKEN.keys())
def test_broken_file_is_refused(tmp_path, old, new, key):
    contract.check_refused(ENGINE, tmp_path, old, new, key)


def test_malformed_toml_says_so(tmp_path):
    assert "malformed TOML" in contract.check_refused(ENGINE, tmp_path, "[dice]", "[dice", None)


# The box bounds the settings (check_settings): (change to the file, settings) -> what the line says.
BOX_LIMITS = {
    "six-countdown-cards-refuse-seven": (
        ("cards = 7", "cards = 6"),
        {"countdown": 7},
        "exceeds the 6 countdown",
    ),
    "eight-dice-refuse-six-plus-three-rapid-fire": (
        ("supplied = 9", "supplied = 8"),
        {"dice": 6},
        "rolls 9 dice, more than the 8",
    ),
}


@pytest.mark.parametrize(("change", "settings", "message"), BOX_LIMITS.values(), ids=BOX_LIMITS.keys())
def test_the_box_bounds_the_settings(tmp_path, change, settings, message):
    from simkit.core.registry import get_game, resolve_settings

    path = edited(tmp_path, DEFAULT_TEXT, change)
    with pytest.raises(UserError, match=message) as info:
        resolve_settings(get_game("eight-bit-invaders"), {**settings, "data": str(path)}, "s.toml")
    assert str(info.value).startswith("s.toml: ") and "\n" not in str(info.value)


def test_fewer_dice_fit_a_smaller_box(tmp_path):
    from simkit.core.registry import get_game, resolve_settings

    path = edited(tmp_path, DEFAULT_TEXT, ("supplied = 9", "supplied = 8"))
    assert resolve_settings(get_game("eight-bit-invaders"), {"dice": 5, "data": str(path)}, "x")["dice"] == 5
