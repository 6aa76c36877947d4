"""Every planned game is accounted for: written, or recorded as failed. A user's player that
raises SystemExit (or any BaseException short of Ctrl-C) fails that game like any other error; a
worker process that dies mid-run ends the run non-zero, saying which games are missing."""

import pytest

from simkit.core import dataset
from tests.core.test_trust import one_line_error, simkit

QUITTER = '''
import os
import sys
from simkit.core.registry import get_game

engine = get_game("eight-bit-invaders")
Base = engine.strategies[engine.default_strategy].player


class Stop(BaseException):
    """Not an Exception: what a careless `except Exception` in a runner lets through."""


def leave(*args, **kwargs):
    {action}


class Quitter(Base):
    """The default player, except that in about a third of the games (its own seeded stream
    decides which) it {action_text} at its first decision."""

    def __init__(self, rng, *args, **kwargs):
        super().__init__(rng, *args, **kwargs)
        self._quits = rng.random() < 0.35

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if not name.startswith("_") and callable(value) and object.__getattribute__(self, "_quits"):
            return leave
        return value
'''


def quitter(tmp_path, action: str):
    path = tmp_path / "quitter.py"
    path.write_text(QUITTER.format(action=action, action_text=action))
    return f"{path}:Quitter"


@pytest.mark.parametrize(
    ("action", "jobs", "error"),
    [  # in a worker process (two jobs), or in simkit's own process (one job)
        ("sys.exit(0)", 2, "SystemExit: 0"),
        ("raise Stop('no more')", 1, "Stop: no more"),
        (
            "raise KeyboardInterrupt('not Ctrl-C')",
            2,
            "KeyboardInterrupt: not Ctrl-C",
        ),  # workers ignore Ctrl-C
    ],
)
def test_a_player_that_exits_fails_its_games_and_every_game_is_accounted_for(tmp_path, action, jobs, error):
    out = tmp_path / "d"
    result = simkit(
        "simulate", "eight-bit-invaders", "-n", 30, "--seed", 4, "--chunk-size", 10,
        "--strategy", quitter(tmp_path, action), "--jobs", jobs, "--quiet", "--out", out,
    )  # fmt: skip
    ds = dataset.load(out)
    failed = ds.failures
    assert failed is not None and 0 < failed.height < 30, result.stderr
    assert ds.games.height + failed.height == 30
    assert sorted(ds.games["game_index"].to_list() + failed["game_index"].to_list()) == list(range(30))
    assert result.returncode == 1 and f"{failed.height} games failed" in result.stderr
    assert f"{ds.games.height} games written" in result.stdout
    assert all(line.startswith(error) for line in failed["error"]), failed["error"][0]


def test_a_player_file_that_exits_on_import_is_refused_in_one_line(tmp_path):
    player = tmp_path / "exits.py"
    player.write_text("import sys\nsys.exit(0)\n\nclass Player:\n    pass\n")
    out = tmp_path / "d"
    result = simkit(
        "simulate", "eight-bit-invaders", "-n", 10, "--strategy", f"{player}:Player", "--out", out
    )
    one_line_error(result, f"{player}: importing it raised SystemExit")
    assert not out.exists()


def test_a_worker_that_dies_ends_the_run_non_zero_naming_the_missing_games(tmp_path):
    """os._exit in a player cannot be caught: the worker process is gone. The run says so, and
    how many of the planned games it accounts for, instead of ending as if it were complete."""
    out = tmp_path / "d"
    result = simkit(
        "simulate", "eight-bit-invaders", "-n", 30, "--seed", 4, "--chunk-size", 10,
        "--strategy", quitter(tmp_path, "os._exit(0)"), "--jobs", 2, "--quiet", "--out", out,
    )  # fmt: skip
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert (
        "a worker process died" in lines[0]
        and "of 30 planned games are written or recorded as failed" in lines[0]
    )
    assert "missing: c000 games" in lines[0] and "the same command plays them" in lines[0]
    assert "games written" not in result.stdout
