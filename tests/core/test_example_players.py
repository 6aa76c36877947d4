"""Every example player in scenarios/strategies/ runs: each class of each file plays a small
batch of its game through the runner (sequential backend) with no failed game, and the dataset
names it in its strategy column. Its docstring says how to run it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from simkit.core import dataset, runner, scenario
from simkit.core.registry import all_games

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "scenarios" / "strategies"
GAMES = 20  # per example: every decision comes up, and it stays quick on 2 cores


def built_in() -> list:
    """The games of simkit itself (an installed outside game brings its own examples)."""
    return [e for e in all_games() if type(e).__module__.startswith("simkit.games.")]


def game_of(tree: ast.Module) -> str:
    """The game whose package the file imports from (`simkit.games.<package>`)."""
    packages = {type(e).__module__.split(".")[2]: e.id for e in built_in()}
    found = {
        packages[node.module.split(".")[2]]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and node.module.startswith("simkit.games.")
        and node.module.split(".")[2] in packages
    }
    assert len(found) == 1, f"imports from {len(found)} games' packages: {sorted(found)}"
    return found.pop()


def examples() -> list:
    out = []
    for path in sorted(FOLDER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        assert classes, f"{path.name} defines no player class"
        for name in classes:
            out.append(pytest.param(path, name, tree, id=f"{path.stem}:{name}"))
    return out


def test_there_is_an_example_for_every_game() -> None:
    covered = {game_of(ast.parse(p.read_text(encoding="utf-8"))) for p in FOLDER.glob("*.py")}
    assert covered == {e.id for e in built_in()}


@pytest.mark.parametrize(("path", "name", "tree"), examples())
def test_example_player_plays_its_game(path: Path, name: str, tree: ast.Module, tmp_path: Path) -> None:
    game = game_of(tree)
    doc = ast.get_docstring(tree) or ""
    rel = path.relative_to(ROOT).as_posix()
    assert f"simkit simulate {game}" in doc and f"{rel}:{name}" in doc, "the docstring says how to run it"

    spec = f"{path}:{name}"
    runner.run(
        scenario.single_cell(game, GAMES, 3, {}, [spec]),
        tmp_path / "d",
        backend="sequential",
        progress=False,
    )
    d = dataset.load(tmp_path / "d")
    failed = 0 if d.failures is None else d.failures.height
    assert failed == 0, d.failures.to_dicts() if d.failures is not None else None
    assert d.games.height == GAMES
    # the games table names the strategy (competitive games: one name per seat, comma-joined)
    for value in d.games["strategy"].to_list():
        assert set(value.split(",")) == {spec}
    if d.seats is not None and "strategy" in d.seats.columns:
        assert set(d.seats["strategy"].to_list()) == {spec}
