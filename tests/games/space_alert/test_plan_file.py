"""The resolver (plan file -> turn-by-turn resolution and score), checked on the rulebook
transcript's worked examples (data/example_plan.toml) and on malformed plan files."""

from __future__ import annotations

from pathlib import Path

import pytest

from simkit.core.errors import UserError
from simkit.games.space_alert import plan_file
from tests.games.space_alert.helpers import find

EXAMPLE = Path(plan_file.__file__).parent / "data" / "example_plan.toml"


@pytest.fixture(scope="module")
def resolved():
    return plan_file.resolve_file(EXAMPLE)


def test_b_moves_one_block_to_a_total_of_two(resolved):
    # "If I press B here, then I will move one block from the bottom to the shields here for a
    # total of two shield, since there was already one energy in the shield."
    log, _ = resolved
    assert find(log, "energy", 2, figure=2, to="shield blue", moved=1)


def test_serious_threat_t2_moves_two_and_attacks_two_on_x(resolved):
    # "a serious external threat in zone blue at time T-2 ... moves 2 spaces at the end of each
    # turn, and whenever it reaches the X space on the track it will attack the ship for 2 damage"
    log, _ = resolved
    assert find(log, "threat_appears", 2, threat="SE1-01", zone="blue")
    assert find(log, "threat_action", 3, threat="SE1-01", action="X", space=8)  # 12 -> 10 -> 8
    assert find(log, "attack", 3, threat="SE1-01", zone="blue", strength=2, absorbed=2, through=0)


def test_move_left_then_press_a(resolved):
    # "if I want to move left on turn 1, then press A on turn 2"
    log, _ = resolved
    assert find(log, "action", 1, figure=0, card="red", station="upper white")
    assert find(log, "fire", 2, weapon="heavy laser red")


def test_weapon_without_energy_does_not_fire(resolved):
    log, _ = resolved
    assert find(log, "no_effect", 4, figure=2, why="no energy in the reactor")


def test_seventh_tile_ends_it(resolved):
    log, result = resolved
    assert find(log, "ship_destroyed", 7, zone="blue")
    assert not result["won"] and result["tiles"] == [5, 0, 6]


def test_format_log_reads_turn_by_turn(resolved):
    text = plan_file.format_log(*resolved)
    assert "--- turn 1 ---" in text and "ship destroyed" in text.splitlines()[-1]


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('threat = "SE1-01"', 'threat = "SE9-01"', "mission.threats[0].threat"),
        (
            'zone = "blue", trajectory = "T3"',
            'zone = "internal", trajectory = "T3"',
            "mission.threats[0].zone",
        ),
        ('trajectory = "T3"', 'trajectory = "T9"', "mission.threats[0].trajectory"),
        ('["red", "A", "-"', '["left", "A", "-"', "plans.figures[0]"),
        ('"A", "A", "-", "-", "-", "-", "-"]', '"A", "A", "-", "-", "-", "-"]', "plans.figures[3]"),
        ('red = ["structural"', 'red = ["reactor"', "tiles.red"),
        ("turn = 3,", "turn = 2,", "mission.threats"),
    ],
)
def test_bad_plan_files(tmp_path, old, new, key):
    text = EXAMPLE.read_text()
    assert old in text
    path = tmp_path / "plan.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(UserError) as err:
        plan_file.resolve_file(path)
    assert key in str(err.value) and "\n" not in str(err.value)


def test_tile_seed_when_no_order_given(tmp_path):
    text = EXAMPLE.read_text().split("[tiles]")[0] + "[tiles]\nseed = 3\n"
    path = tmp_path / "plan.toml"
    path.write_text(text)
    a = plan_file.resolve_file(path)
    b = plan_file.resolve_file(path)
    assert a == b


def test_engine_resolve_hooks():
    from simkit.core.registry import get_game

    engine = get_game("space-alert")
    log, result = engine.resolve(EXAMPLE)
    assert "--- turn 13 ---" not in engine.format_resolution(log, result)  # the ship is lost on turn 7
    assert result["tiles"] == [5, 0, 6]
