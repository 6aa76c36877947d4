# ruff: noqa: E501  (table rows: one card per line reads best)
"""Space Alert component data: the 55 threats, trajectories, ship, missions and action deck of
the built-in file, and the rows of BROKEN (one change each to the built-in file) that
`contract.check_refused` must see refused in one line naming the file and the key."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from simkit.core.errors import UserError
from simkit.games.space_alert import ENGINE, components
from simkit.games.space_alert.components import EFFECT_OPS, RULE_KEYS
from simkit.testing import contract

DEFAULT_TEXT = components.DEFAULT_FILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def comp():
    return components.load()


def test_fifty_five_threats_with_unique_ids(comp):
    assert len(comp.threats) == 55
    assert len({t.id for t in comp.threats}) == 55
    assert Counter(t.id.split("-")[0] for t in comp.threats) == components.THREAT_COUNTS


def test_every_rule_key_and_effect_is_known_to_the_engine(comp):
    for t in comp.threats:
        assert t.rules <= set(RULE_KEYS), t.id
        for effects in t.effects:
            for op, _n in effects:
                assert op in EFFECT_OPS, (t.id, op)


def test_every_effect_op_is_handled_by_the_rules():
    source = (Path(components.__file__).parent / "rules.py").read_text()
    for op in EFFECT_OPS:
        assert f'"{op}"' in source, op


def test_every_rule_key_is_used_by_the_rules():
    here = Path(components.__file__).parent
    source = (here / "rules.py").read_text() + (here / "state.py").read_text()
    for key in RULE_KEYS:
        assert f'"{key}"' in source, key


def test_trajectories_well_formed(comp):
    assert [t.id for t in comp.trajectories] == [f"T{i}" for i in range(1, 8)]
    assert [t.length for t in comp.trajectories] == [10, 11, 12, 13, 14, 15, 16]
    for t in comp.trajectories:
        assert t.action[1] == 3 and t.action.count(3) == 1  # Z on the last space
        assert t.action.count(1) == 1  # one X
        x = t.action.index(1)
        assert all(t.action[s] != 2 for s in range(x, t.length + 1))  # Y spaces after X
    assert [s for s, a in enumerate(comp.trajectories[6].action) if a == 2] == [5, 8]
    assert comp.distance_bounds == (5, 10)


def test_ship(comp):
    s = comp.ship
    assert s["reactor_capacity"] == (3, 5, 3) and s["reactor_start"] == (2, 3, 2)
    assert s["shield_capacity"] == (2, 3, 2) and s["shield_start"] == (1, 1, 1)
    assert s["heavy_laser"] == (4, 5, 4) and s["light_laser"] == (2, 0, 2)
    assert (s["fuel"], s["rockets"], s["pulse_range"], s["rocket_range"]) == (3, 3, 2, 2)
    assert s["computer_checks"] == (2, 5, 9) and s["phase_ends"] == (3, 7, 12)
    assert s["battlebots"] == (3, 2)  # lower red, upper blue
    assert s["visual_points"] == (0, 1, 2, 3, 5, 7)
    assert sorted(comp.tiles) == sorted(components.TILES)


def test_points(comp):
    by = comp.by_id
    assert by["E1-01"].points == (4, 2) and by["E2-01"].points == (6, 3)
    assert by["SE1-01"].points == (8, 4) and by["SE2-01"].points == (12, 6)
    assert by["SI2-02"].points == (15, 6)  # the Seeker
    assert all(t.points[0] == 2 * t.points[1] for t in comp.threats if t.id != "SI2-02")


def test_missions(comp):
    assert len(comp.missions) == 8
    m7 = comp.missions[6]
    assert [(t.turn, t.zone, t.serious, t.unconfirmed) for t in m7.threats] == [
        (1, 2, False, True),
        (3, 0, True, False),
        (4, 3, True, False),
        (5, 1, False, False),
        (7, 0, False, False),
        (8, 1, False, False),
    ]
    for m in comp.missions:
        assert all(1 <= t.turn <= 8 for t in m.threats)  # no threats in phase 3
        level = sum(2 if t.serious else 1 for t in m.threats)
        assert level in (7, 8, 9)


def test_consensus_values_and_disagreements_noted(comp):
    by = comp.by_id
    assert by["E1-01"].effects[1] == (("attack_all", 1),) and "ecm85" in by["E1-01"].note
    assert by["SE1-07"].shield == 3 and by["SE1-07"].health == 8 and by["SE1-07"].speed == 2
    assert by["E1-03"].speed == 3
    assert by["E1-09"].effects[2] == (("attack", 5),)


def test_provenance(comp):
    assert comp.sources["actions"] == "invented"
    assert comp.sources["threats"] == "published"
    assert set(comp.sources.values()) <= set(components.PROVENANCE)
    assert Path(comp.path) == components.DEFAULT_FILE and len(comp.sha256) == 64


E1_01 = '{ id = "E1-01", name = "Pulse Ball"'
BROKEN = [
    ('{ id = "E1-02"', '{ id = "E1-01"', "threats.cards[1].id"),
    ('shield = 1, health = 5, speed = 2, x = [{ op = "attack_all"', 'shield = 1, health = 5, speed = 2, x = [{ op = "zap"', "(E1-01).x[0].op"),
    ('rules = ["double_damage"]', 'rules = ["double_trouble"]', "(E1-02).rules"),
    ('{ id = "T1", length = 10, x = [5]', '{ id = "T1", length = 10, x = [50]', "trajectories.boards[0].x"),
    ("reactor_start = [2, 3, 2]", "reactor_start = [2, 9, 2]", "ship.reactor_start"),
    ('kind = "external", deck = "common", colour = "white", shield = 2, health = 5, speed = 2, x = [{ op = "attack", n = 1 }]',
     'kind = "intruder", deck = "common", colour = "white", shield = 2, health = 5, speed = 2, x = [{ op = "attack", n = 1 }]',
     "(E1-02).kind"),
    ('"T2W", "T3I?"', '"T2W", "T3Q?"', "missions.list[0].threats"),
    ('health = 13, speed = 2, x = [{ op = "attack_all", n = 1 }, { op = "heal_half" }',
     'health = 13, speed = 2, x = [{ op = "attack_all" }, { op = "heal_half" }', "(E2-05).x[0].n"),
    ('stations = ["upper red"], button = "BB", x = [{ op = "move_blue" }]',
     'stations = ["upper left"], button = "BB", x = [{ op = "move_blue" }]', "stations"),
    ("[recipe]", "[recipes]", "recipes"),
    ("copies = 8", "copies = 0", "actions.copies"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "key"), BROKEN, ids=[b[2] for b in BROKEN])
def test_broken_file_is_refused_with_one_line(tmp_path, old, new, key):
    contract.check_refused(ENGINE, tmp_path, old, new, key)


def test_missing_threat_is_refused(tmp_path):
    lines = DEFAULT_TEXT.split("\n")
    kept = [ln for ln in lines if 'id = "SE2-06"' not in ln]
    path = tmp_path / "short.toml"
    path.write_text("\n".join(kept), encoding="utf-8")
    with pytest.raises(UserError, match="6 SE2 threats, found 5"):
        components.load(path)


def test_unreadable_and_malformed(tmp_path):
    with pytest.raises(UserError, match="cannot read"):
        components.load(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[ship\n", encoding="utf-8")
    with pytest.raises(UserError, match="malformed TOML"):
        components.load(bad)
