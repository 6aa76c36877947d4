"""Space Alert's native engine beyond the verify grid: campaigns, misplays, free hands, two
players and every deck colour give the Python engine's game rows (DESIGN.md, "Native engines");
the search crew, `mcts`, plays on the native engine only."""

import subprocess
import sys

import pytest

from simkit.core import runner, scenario


def _chunks(settings, strategy, games):
    cell = scenario.single_cell("space-alert", games, 11, settings, [strategy]).cells[0]
    return [runner.play_chunk("space-alert", cell, 11, 0, games, {}, kind) for kind in ("native", "python")]


def _native_chunk(strategy, games):
    cell = scenario.single_cell("space-alert", games, 11, {"mission": "real"}, [strategy]).cells[0]
    return runner.play_chunk("space-alert", cell, 11, 0, games, {}, "native")


@pytest.mark.parametrize("strategy", ["random", "scripted"])
@pytest.mark.parametrize(
    "settings",
    [
        {"campaign": 3},
        {"error_rate": 0.25, "mission": "simulation", "serious": "yellow"},
        {"hands": "free", "mission": "test", "common": "mixed", "serious": "mixed"},
        {"players": 2, "mission": "6", "campaign": 3, "error_rate": 0.1},
        {"players": 5, "figures": 5, "mission": "real"},
    ],
    ids=["campaign", "errors", "free-hands", "two-players-campaign", "five-players"],
)
def test_native_rows_are_the_python_rows(core, settings, strategy):
    native, python = _chunks(settings, strategy, 300)
    assert native.engine == "native" and python.engine == "python"
    assert native.games.equals(python.games)


def test_planner_campaign_rows_are_the_python_rows(core):
    native, python = _chunks({"campaign": 3, "error_rate": 0.1, "figures": 5, "players": 3}, "planner", 4)
    assert native.games.equals(python.games)


def test_mcts_plays_on_the_native_engine(core):
    """The search crew (native only) plays whole games, a pure function of the seed."""
    first, again = (_native_chunk("mcts:iterations=4", 3) for _ in range(2))
    assert first.engine == "native" and first.games.height == 3
    assert first.games.equals(again.games)


def test_mcts_is_refused_on_the_python_engine(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "simkit.cli", "simulate", "space-alert", "-n", "2"]
        + ["--strategy", "mcts:iterations=4", "--engine", "python", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "native engine only" in lines[0], result.stderr
    assert not (tmp_path / "out").exists()
