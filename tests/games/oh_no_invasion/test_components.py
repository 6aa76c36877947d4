"""Oh no... INVASION!!! component data: the default file (RULINGS §2) and how broken copies are refused.

Each broken copy is the built-in file with one change (a row of BROKEN), refused in one line that
names the file and the key (`contract.check_refused`).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from simkit.core.errors import UserError
from simkit.core.registry import get_game, resolve_settings, resolve_strategies
from simkit.games.oh_no_invasion import ENGINE, components
from simkit.games.oh_no_invasion.components import (
    BLACK,
    CATALYST,
    EVAPORALIEN,
    HUB,
    INVALIEN,
    MORPH_BOX,
    SABOTALIEN,
    TELEPORTER,
    WEAPON,
)
from simkit.testing import contract

DEFAULT_TEXT = components.DEFAULT_FILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def comp():
    return components.load()


def test_resistance_deck(comp):
    assert comp.n_res == 44
    assert Counter(comp.res_category) == {HUB: 5, CATALYST: 4, MORPH_BOX: 4, TELEPORTER: 4, WEAPON: 27}
    weapons = [(comp.res_type[c], comp.res_colour[c]) for c in range(44) if comp.res_category[c] == WEAPON]
    assert sorted(weapons) == sorted((t, c) for t in range(3) for c in [*range(8), BLACK])
    assert [len(comp.res_symbols[h]) for h in comp.hubs] == [3] * 5
    assert [comp.res_name[h] for h in comp.hubs] == [f"Hub {k}" for k in range(1, 6)]
    # hubs 1-3 (the smallest box game) show all eight colours
    assert {s for h in comp.hubs[:3] for s in comp.res_symbols[h]} == set(range(8))


def test_spawn_deck(comp):
    assert comp.n_spawn == 62 and comp.shields_total == 8
    shields = [comp.spawn_colour[c] for c in range(62) if comp.spawn_shield[c]]
    assert sorted(shields) == list(range(8))
    per_colour = Counter(comp.spawn_colour[c] for c in range(62) if not comp.spawn_shield[c])
    kinds = comp.colour_kind
    assert all(per_colour[c] == {INVALIEN: 8, EVAPORALIEN: 6, SABOTALIEN: 6}[kinds[c]] for c in range(8))
    for c in range(62):
        if comp.spawn_shield[c]:
            continue
        assert comp.spawn_orders[c] in comp.orders[comp.spawn_colour[c]]
        if comp.spawn_kind[c] == INVALIEN:
            assert 1 <= comp.spawn_aliens[c] <= 4 and comp.spawn_threshold[c] in (6, 7)
        else:
            assert comp.spawn_threshold[c] == 0
    flies = Counter(comp.spawn_flies[c] for c in range(62) if not comp.spawn_shield[c])
    assert flies[1] == flies[-1] == 27


def test_order_table_keeps_the_rulebook_examples(comp):
    col = {name: i for i, name in enumerate(comp.colours)}
    assert col["yellow"] in comp.orders[col["red"]]
    assert comp.orders[col["pink"]] == (col["blue"],) and comp.orders[col["silver"]] == (col["pink"],)
    for c, allowed in enumerate(comp.orders):
        assert all(o != c and comp.colour_kind[o] == comp.colour_kind[c] for o in allowed)


def test_provenance_and_points(comp):
    assert comp.points == (2, 3, 5, 7)
    assert comp.sources["levels"] == "rulebook" and comp.sources["card counts"] == "published"
    assert comp.sources["invaders"] == "invented" and comp.sources["orders"] == "invented"
    assert set(comp.sources.values()) <= set(components.PROVENANCE)
    assert Path(comp.path) == components.DEFAULT_FILE and len(comp.sha256) == 64


FIRST_RED = '  { colour = "red", aliens = 1, flies = "left", orders = "yellow", threshold = 6 },\n'
LEVELS = '[levels]\nsource = "rulebook"'

# (old text, new text, key the message must name; None = the fault is not at a key)
BROKEN = {
    "missing-invader": (FIRST_RED, "", "totals.spawn"),
    "extra-invader": (FIRST_RED, FIRST_RED + FIRST_RED, "totals.spawn"),
    "unknown-colour": (
        '{ colour = "red", aliens = 1, flies = "left"',
        '{ colour = "teal", aliens = 1, flies = "left"',
        "invaders.cards[0].colour",
    ),
    "order-not-in-table": (
        'orders = "yellow", threshold = 6 },\n  { colour = "red", aliens = 1, flies = "right"',
        'orders = "pink", threshold = 6 },\n  { colour = "red", aliens = 1, flies = "right"',
        "invaders.cards[0].orders",
    ),
    "bad-direction": (
        '{ colour = "red", aliens = 1, flies = "left"',
        '{ colour = "red", aliens = 1, flies = "up"',
        "invaders.cards[0].flies",
    ),
    "invalien-without-threshold": (
        ', orders = "yellow", threshold = 6 },\n  { colour = "red", aliens = 1, flies = "right"',
        ', orders = "yellow" },\n  { colour = "red", aliens = 1, flies = "right"',
        "invaders.cards[0].threshold",
    ),
    "too-many-aliens": (
        '{ colour = "red", aliens = 1, flies = "left"',
        '{ colour = "red", aliens = 12, flies = "left"',
        "invaders.cards[0].aliens",
    ),
    "order-table-across-kinds": ('pink = ["blue"]', 'pink = ["red"]', "orders.pink"),
    "order-table-self": ('pink = ["blue"]', 'pink = ["pink"]', "orders.pink"),
    "hub-two-symbols": (
        'symbols = ["red", "pink", "purple"]',
        'symbols = ["red", "pink"]',
        "hubs.cards[0].symbols",
    ),
    "hub-repeated-symbol": (
        'symbols = ["red", "pink", "purple"]',
        'symbols = ["red", "red", "purple"]',
        "hubs.cards[0].symbols",
    ),
    "hub-number-twice": ("{ number = 2,", "{ number = 1,", "hubs.cards[1].number"),
    "unknown-module": (
        '{ module = "catalyst", symbol = "red" }',
        '{ module = "warp_drive", symbol = "red" }',
        "modules.cards[0].module",
    ),
    "duplicate-module": (
        '{ module = "catalyst", symbol = "pink" }',
        '{ module = "catalyst", symbol = "red" }',
        "modules",
    ),
    "unknown-weapon-type": (
        '{ type = "bomb", colour = "black" }',
        '{ type = "laser", colour = "black" }',
        "weapons.cards[26].type",
    ),
    "wrong-resistance-total": ("resistance = 44", "resistance = 45", "totals.resistance"),
    "bad-points": ("points = [2, 3, 5, 7]", "points = [2, 3, 5]", "levels.points"),
    "bad-provenance": (LEVELS, '[levels]\nsource = "guessed"', "levels.source"),
    "unknown-section": (LEVELS, "[extras]\nx = 1\n\n" + LEVELS, "extras"),
    "unknown-key": ("points = [2, 3, 5, 7]", "points = [2, 3, 5, 7]\nbonus = 1", "levels.bonus"),
    "colour-twice": (
        'sabotalien = ["purple", "orange"]',
        'sabotalien = ["purple", "red"]',
        "colours.sabotalien",
    ),
    "malformed-toml": ("[levels]", "[levels", None),
}


@pytest.mark.parametrize(("old", "new", "key"), BROKEN.values(), ids=BROKEN.keys())
def test_broken_file_is_refused(tmp_path, old, new, key):
    contract.check_refused(ENGINE, tmp_path, old, new, key)


@pytest.mark.parametrize(
    ("key", "value", "ok"),
    [
        ("players", "2", True),
        ("players", "6", False),
        ("players", "1", False),
        ("level", "3", True),
        ("level", "4", False),
    ],
)
def test_settings_are_validated(key, value, ok):
    engine = get_game("oh-no-invasion")
    if ok:
        assert resolve_settings(engine, {key: value}, "test")[key] is not None
    else:
        with pytest.raises(UserError, match=key):
            resolve_settings(engine, {key: value}, "test")


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [
        ("bold:final_conflict=4.5", "bold:final_conflict=4.5"),
        ("cautious:final_conflict=6", "cautious"),
        ("bold:transport=yes,panic=3", "bold:panic=3,transport=true"),
        ("bold:final_conflict=-1", None),
        ("cautious:zap_sabotage=maybe", None),
        ("random:final_conflict=4", None),
    ],
)
def test_the_crews_numbers_are_validated_parameters(spec, canonical):
    engine = get_game("oh-no-invasion")
    if canonical:
        assert resolve_strategies(engine, [spec], None, "test") == (canonical,)
    else:
        with pytest.raises(UserError, match="parameter"):
            resolve_strategies(engine, [spec], None, "test")


def test_the_threshold_setting_of_old_says_where_it_went():
    with pytest.raises(UserError, match="parameter of strategy cautious, bold: cautious:final_conflict="):
        resolve_settings(get_game("oh-no-invasion"), {"final_conflict": "4.5"}, "test")


def test_two_players_is_marked_outside_the_box():
    engine = get_game("oh-no-invasion")
    players = next(s for s in engine.settings if s.name == "players")
    assert players.default == 4 and "outside the box" in players.help
    level = next(s for s in engine.settings if s.name == "level")
    assert level.default == 1
