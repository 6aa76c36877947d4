"""The cargo tests read each game's built-in component file as a text fixture beside the Rust
sources (`include_str!`): the fixture must be what the game's `native.rust_fixture` writes from
the built-in file, so a change to the data cannot leave the Rust tests on the old one. After such
a change, SIMKIT_UPDATE_GOLDEN=1 rewrites the fixture."""

import importlib
import os
from pathlib import Path

import pytest

from simkit.testing.contract import UPDATE_ENV

NATIVE_SRC = Path(__file__).resolve().parents[2] / "native" / "src"


@pytest.mark.parametrize(
    "game, fixture",
    [("alien_attack", "alien_attack/test_board.txt"), ("space_alert", "space_alert/test_components.txt")],
)
def test_the_rust_tests_fixture_is_the_built_in_file(game, fixture):
    components = importlib.import_module(f"simkit.games.{game}.components")
    native = importlib.import_module(f"simkit.games.{game}.native")
    text = native.rust_fixture(components.load())
    path = NATIVE_SRC / fixture
    if os.environ.get(UPDATE_ENV):
        path.write_text(text)
    assert path.read_text() == text, f"{path} is stale: rerun with {UPDATE_ENV}=1"


def test_a_changed_file_gives_another_fixture():
    """The check can fail: one changed number in the data changes the fixture."""
    from simkit.games.space_alert import components, native

    comp = components.load()
    ship = dict(comp.ship)
    ship["fuel"] = ship["fuel"] + 1
    assert native.rust_fixture(comp._replace(ship=ship)) != native.rust_fixture(comp)
