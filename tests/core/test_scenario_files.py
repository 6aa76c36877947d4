"""Every scenario shipped in `scenarios/` parses: its game, settings, strategies with their
parameters and per-strategy game counts are valid (no game is played)."""

from pathlib import Path

import pytest

from simkit.core import scenario

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios").glob("*.toml"))


def test_the_scenarios_folder_is_found():
    assert len(SCENARIOS) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_shipped_scenario_parses_into_cells(path):
    sc = scenario.load(path)
    assert sc.cells and sc.games > 0
    assert all(sc.games_of(c.name) > 0 for c in sc.cells)
