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
    grid = {"strategy": [["rollout:rollouts=1", "rollout:rollouts=2"], ["rollout:rollouts=3", "missions"]]}
    assert _both(tmp_path, "alien-attack", 2, grid) == []
