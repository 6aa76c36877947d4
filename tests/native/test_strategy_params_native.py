"""Strategy parameters reach both engines alike: specs with every number changed give identical
rows on the native and the Python engine (Oh no's crews: test_oh_no_native.py)."""

import pytest

from simkit.core import dataset, runner, scenario, verify


def _both(tmp_path, game: str, games: int, grid: dict) -> list[str]:
    spec = {"scenario": {"name": "params", "game": game, "games": games, "seed": 23}, "grid": grid}
    sc = scenario.parse(spec, "params")
    for kind in ("native", "python"):
        runner.run(sc, tmp_path / kind, jobs=1, progress=False, engine=kind)
    native_rows = dataset.load(tmp_path / "native")
    assert native_rows.games.height == games * len(sc.cells)  # every game played, none failed
    return verify.differences(native_rows, dataset.load(tmp_path / "python"))


@pytest.mark.parametrize(
    "spec",
    ["lookahead:kill=25,danger=12,card=40,shield=1.5,extra_life=5", "lookahead:danger=0,shield=20"],
)
def test_eight_bit_lookahead_weights(core, tmp_path, spec):
    grid = {"countdown": [7, 6], "strategy": [spec]}
    assert _both(tmp_path, "eight-bit-invaders", 60, grid) == []


def test_alien_attack_rollout_budgets_per_seat(core, tmp_path):
    grid = {
        "strategy": [
            ["rollout:rollouts=1", "rollout:rollouts=2,win=0,loss=2"],
            ["rollout:rollouts=3", "missions"],
        ]
    }
    assert _both(tmp_path, "alien-attack", 2, grid) == []


def test_alien_attack_heuristic_numbers(core, tmp_path):
    missions = "missions:loss=2,opener=1.5,protection_step=0.5,capture_risk=0.9,extra_at=3,hood_at=9"
    grid = {"strategy": [[missions, "greedy:extra_at=1,hood_at=8"], ["greedy:extra_at=9", "missions"]]}
    assert _both(tmp_path, "alien-attack", 150, grid) == []


def test_space_alert_planner_budgets(core, tmp_path):
    grid = {"strategy": ["planner:steps=5,samples=1", "planner:steps=12,samples=3"], "mission": ["test"]}
    assert _both(tmp_path, "space-alert", 3, grid) == []


@pytest.mark.parametrize(
    "spec",
    [
        "scripted:lookahead=1,refill_below=3,shield_keep=2,draw_horizon=6,pulse_reserve=0,rocket_reach=3",
        "scripted:lookahead=6,refill_below=1,shield_keep=0,draw_horizon=1,pulse_reserve=2,rocket_reach=1",
    ],
)
def test_space_alert_scripted_numbers(core, tmp_path, spec):
    grid = {"strategy": [spec], "players": [4, 5]}  # 5: the security officer plays too
    assert _both(tmp_path, "space-alert", 150, grid) == []


def test_space_alert_planner_starts_from_the_scripted_numbers(core, tmp_path):
    grid = {"strategy": ["planner:steps=5,samples=1,lookahead=1,pulse_reserve=0,rocket_reach=3"]}
    assert _both(tmp_path, "space-alert", 3, grid) == []
