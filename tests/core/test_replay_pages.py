"""`simkit replay GAME --html FILE`, for every game that draws its table: the CLI writes the
step-through page (the games' own tests check what the drawings show)."""

from __future__ import annotations

import pytest

from simkit.core import replay_page
from simkit.core.registry import all_games
from tests.cli.test_cli import simkit

DRAWN = [g for g in all_games() if "draw" in g.capabilities]


def test_every_game_draws_its_table():
    assert {g.id for g in DRAWN} >= {"alien-attack", "eight-bit-invaders", "oh-no-invasion", "space-alert"}


@pytest.mark.parametrize("engine", DRAWN, ids=[g.id for g in DRAWN])
def test_the_cli_writes_the_page(tmp_path, engine):
    out = tmp_path / "page.html"
    result = simkit("replay", engine.id, "--seed", "1:3", "--html", out)
    assert result.returncode == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert f"{engine.title}: game 1:3" in text
    assert len(text.encode("utf-8")) < replay_page.MAX_PAGE_BYTES
