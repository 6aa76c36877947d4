"""Games from outside: the example dice race (examples/dice_race) is installed into the venv
(`make test` does it), found through the `simkit.games` entry points, and works end to end; a
broken outside game costs one line on stderr, not simkit."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

from simkit.core.registry import ENTRY_POINT_GROUP, all_games


def simkit(*args, cwd=None, pythonpath=None):
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-m", "simkit.cli", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )


def test_the_example_is_installed_and_registered():
    names = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    assert names.get("dice-race") == "simkit_dice_race", (
        "the example game is not installed: pip install -e examples/dice_race (make test does it)"
    )
    assert "dice-race" in [g.id for g in all_games()]


def test_the_example_is_listed_simulated_and_reported(tmp_path):
    listed = simkit("games")
    assert listed.returncode == 0 and "dice-race  (Dice race (example); players 2-4)" in listed.stdout
    assert "--strategy safe (default)" in listed.stdout and listed.stderr == ""
    run = simkit("simulate", "dice-race", "-n", 200, "--jobs", 1, "--quiet", "--out", tmp_path / "data")
    assert run.returncode == 0, run.stderr
    assert "200 games written" in run.stdout
    report = simkit("report", tmp_path / "data", "--out", tmp_path / "report")
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "report" / "index.html").read_text()
    assert "dice-race" in page or "Dice race" in page


def test_a_broken_outside_game_costs_one_line(tmp_path):
    """An entry point whose module raises on import: one warning naming it, everything else works."""
    dist = tmp_path / "broken_game-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[simkit.games]\nbroken = broken_game\n")
    (tmp_path / "broken_game.py").write_text("raise ImportError('no such table')\n")
    result = simkit("games", pythonpath=tmp_path)
    assert result.returncode == 0
    assert "eight-bit-invaders" in result.stdout and "dice-race" in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "'broken = broken_game'" in lines[0] and "no such table" in lines[0], lines
    assert "Traceback" not in result.stderr
