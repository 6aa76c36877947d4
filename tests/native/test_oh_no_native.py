"""Oh no... INVASION!!! on both engines beyond the default verify grid (test_equivalence.py plays
players 3-5 x levels 0-3 with the crews' default numbers): the 2-player extension, other Final
Conflict thresholds and other crew numbers (strategy parameters), a few hundred games a cell,
identical rows."""

import subprocess
import sys
from dataclasses import asdict

import pytest

from simkit.core import dataset, native, runner, scenario, verify
from simkit.core.registry import get_game

ENGINE = get_game("oh-no-invasion")


def _verify(tmp_path, grid: dict, games: int, strategies=("random", "cautious", "bold")) -> list[str]:
    spec = {
        "scenario": {"name": "verify oh no", "game": ENGINE.id, "games": games, "seed": 11},
        "grid": {**grid, "strategy": list(strategies)},
    }
    sc = scenario.parse(spec, "verify oh no")
    for kind in ("native", "python"):
        runner.run(sc, tmp_path / kind, jobs=1, progress=False, engine=kind)
    return verify.differences(dataset.load(tmp_path / "native"), dataset.load(tmp_path / "python"))


def test_two_players_give_identical_rows(core, tmp_path):
    assert _verify(tmp_path, {"players": [2], "level": [0, 1, 2, 3]}, 300) == []


@pytest.mark.parametrize("threshold", [0.0, 3.5, 20.0])
def test_other_final_conflict_thresholds_give_identical_rows(core, tmp_path, threshold):
    crews = [f"cautious:final_conflict={threshold}", f"bold:final_conflict={threshold}"]
    assert _verify(tmp_path, {"players": [3, 5], "level": [1, 3]}, 200, crews) == []


@pytest.mark.parametrize(
    "crew",
    [
        "bold:panic=3,transport=true,weapon_share=0.4,morph_in_combat=true",
        "cautious:invalien_clear=2,evaporalien_clear=3,clear_sabotaliens=false,attack_min=1",
        "cautious:zap_landing=0,zap_evaporate=1,zap_sabotage=false,weapon_share=1",
    ],
)
def test_other_crew_numbers_give_identical_rows(core, tmp_path, crew):
    assert _verify(tmp_path, {"players": [3, 5], "level": [0, 3]}, 200, [crew]) == []


def test_every_seat_plays_the_cells_first_strategy(core):
    """As `OhNoInvasion.new_game`: a cell's further strategies are not played."""
    settings = {"players": 4, "level": 1, "data": None}
    params = ENGINE.params(settings)
    data, plain = ENGINE.native_data(params), native.plain(asdict(params))
    bold, rand = native._strategy(ENGINE, "bold"), native._strategy(ENGINE, "random")
    one = core.play_batch(ENGINE.id, data, plain, [bold], 5, 0, 40)
    two = core.play_batch(ENGINE.id, data, plain, [bold, rand], 5, 0, 40)
    assert one == two


@pytest.mark.parametrize("level", [1, 3])
def test_mcts_plays_on_the_native_engine(core, tmp_path, level):
    """The search player (native only): a few games with a small budget, a function of the seed."""
    spec = {
        "scenario": {"name": "oh no mcts", "game": ENGINE.id, "games": 4, "seed": 3},
        "grid": {"players": [3], "level": [level], "strategy": ["mcts:iterations=8"]},
    }
    sc = scenario.parse(spec, "oh no mcts")
    for out in ("a", "b"):
        runner.run(sc, tmp_path / out, jobs=1, progress=False, engine="native")
    a, b = dataset.load(tmp_path / "a"), dataset.load(tmp_path / "b")
    assert a.games.height == 4
    assert verify.differences(a, b) == []


def test_mcts_is_refused_on_the_python_engine(tmp_path):
    """The search has no Python player: the Python engine refuses it in one line, exit code 2."""
    told = subprocess.run(
        [sys.executable, "-m", "simkit.cli", "simulate", ENGINE.id, "-n", "2", "--strategy", "mcts"]
        + ["--engine", "python", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert told.returncode == 2, told.stderr
    assert told.stderr.strip().splitlines() == [
        "simkit: error: simulate: strategy 'mcts' of oh-no-invasion is played by the native engine only"
    ]
