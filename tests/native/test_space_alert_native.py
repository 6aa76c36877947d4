"""Space Alert's native engine beyond the verify grid: campaigns, misplays, free hands, two
players and every deck colour give the Python engine's game rows (DESIGN.md, "Native engines")."""

import pytest

from simkit.core import runner, scenario


def _chunks(settings, strategy, games):
    cell = scenario.single_cell("space-alert", games, 11, settings, [strategy]).cells[0]
    return [runner.play_chunk("space-alert", cell, 11, 0, games, {}, kind) for kind in ("native", "python")]


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
