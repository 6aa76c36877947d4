"""Alien Attack's search player, `mcts`: played by the native engine only (its forward model,
native/src/alien_attack/forward.rs); the Python engine refuses it in one line."""

import subprocess
import sys

from simkit.core import dataset


def simkit(*args):
    return subprocess.run(
        [sys.executable, "-m", "simkit.cli", *map(str, args)], capture_output=True, text=True
    )


def test_mcts_plays_on_the_native_engine(core, tmp_path):
    out = tmp_path / "out"
    result = simkit(
        "simulate", "alien-attack", "-n", "4", "--seed", "3", "--out", out,
        "--strategy", "mcts:iterations=4,width=2", "--strategy", "missions", "--engine", "native",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = dataset.load(out)
    assert rows.games.height == 4
    # the seats rotate: each strategy sits in each seat; every game has a winner
    assert rows.seats.height == 8
    assert (rows.games["winners"] >= 1).all()


def test_mcts_is_refused_by_the_python_engine(tmp_path):
    result = simkit(
        "simulate", "alien-attack", "-n", "2", "--out", tmp_path / "out",
        "--strategy", "mcts", "--strategy", "missions", "--engine", "python",
    )  # fmt: skip
    assert result.returncode == 2
    assert "native" in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
