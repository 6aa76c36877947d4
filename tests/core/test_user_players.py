"""Users' own players: loaded from `file.py:Class` under every backend, confined to what a player
at the table sees, and their mistakes reported with file, line and decision."""

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, players, runner, scenario
from simkit.core.registry import all_games

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "scenarios" / "strategies" / "eight_bit_kill_bombers.py"


def simkit(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "simkit.cli", *map(str, args)], capture_output=True, text=True, **kwargs
    )


def one_cell(strategy, games=40, chunk=10):
    return scenario.single_cell("eight-bit-invaders", games, 2, {}, [strategy], chunk)


def test_the_example_player_gives_the_same_rows_on_every_backend(tmp_path):
    spec = f"{EXAMPLE}:KillBombersFirst"
    frames = {}
    for name, backend, jobs in [("seq", "sequential", 1), ("loky", "loky", 2), ("dask", "dask", 2)]:
        runner.run(one_cell(spec), tmp_path / name, jobs=jobs, backend=backend, progress=False)
        ds = dataset.load(tmp_path / name)
        assert ds.failures is None
        frames[name] = ds.games
    assert frames["seq"]["strategy"].unique().to_list() == [spec]
    assert_frame_equal(frames["seq"], frames["loky"])
    assert_frame_equal(frames["seq"], frames["dask"])
    # it plays its own game: not the default player's rows
    runner.run(one_cell("greedy"), tmp_path / "greedy", backend="sequential", progress=False)
    greedy = dataset.load(tmp_path / "greedy").games
    assert frames["seq"].drop("strategy").rows() != greedy.drop("strategy").rows()


def test_a_player_travels_by_value_to_workers_that_lack_its_file(tmp_path):
    """Workers compile the text shipped with each task: deleting the file after the run starts
    (as on a remote machine that never had it) changes nothing."""
    path = tmp_path / "mine.py"
    path.write_text(EXAMPLE.read_text())
    spec = f"{path}:KillBombersFirst"
    cell = one_cell(spec).cells[0]
    sources = players.sources_for([spec])
    path.unlink()
    players._sources.clear()  # this process forgets it too, as a fresh worker would
    players._modules.clear()
    chunk = runner.play_chunk("eight-bit-invaders", cell, 2, 0, 5, sources)
    games, failures = chunk.games.to_dicts(), chunk.failures
    assert len(games) == 5 and not failures


CHEATS = {
    "reads_the_bonus_pile": (
        "def allocate(self, view, dice):\n        return view.bonus_pile[0]",
        "AttributeError",
    ),
    "reads_the_streams": (
        "def allocate(self, view, dice):\n        return view.game.streams",
        "AttributeError",
    ),
    "illegal_die": (
        "def allocate(self, view, dice):\n        return ((99, 0, 0),)",
        "RuleViolation: allocate:",
    ),
    "malformed": (
        "def allocate(self, view, dice):\n        return 'kill them all'",
        "RuleViolation: allocate:",
    ),
    "raises": ("def allocate(self, view, dice):\n        return 1 / 0", "ZeroDivisionError"),
}


@pytest.mark.parametrize("case", sorted(CHEATS))
def test_a_player_that_cheats_or_errs_fails_its_game_with_file_line_and_decision(tmp_path, case):
    body, error = CHEATS[case]
    path = tmp_path / "cheat.py"
    path.write_text(
        f"from simkit.games.eight_bit_invaders.players import Player\n\n\nclass Cheat(Player):\n    {body}\n"
    )
    out = tmp_path / "d"
    result = simkit("simulate", "eight-bit-invaders", "-n", 6, "--strategy", f"{path}:Cheat", "--out", out)
    assert result.returncode == 1 and "6 games failed" in result.stderr
    errors = pl.read_parquet(out / "failures" / "*.parquet")["error"].to_list()  # no game finished
    assert len(errors) == 6
    for text in errors:
        assert error in text, text
        if error.startswith("RuleViolation"):
            assert f"(user player: {path}:Cheat)" in text
        else:
            assert f"(in decision allocate, at {path}, line 6)" in text


@pytest.mark.parametrize(
    "source, expected",
    [
        ("class Mine:\n    def allocate(self, view, dice)\n        return ()\n", "line 2: syntax error"),
        ("class Other:\n    pass\n", "defines no class named 'Mine'"),
        ("raise ImportError('no numpy here')\n", "importing it raised ImportError: no numpy here"),
    ],
)
def test_a_broken_player_file_is_refused_before_the_run(tmp_path, source, expected):
    path = tmp_path / "mine.py"
    path.write_text(source)
    result = simkit(
        "simulate", "eight-bit-invaders", "-n", 5, "--strategy", f"{path}:Mine", "--out", tmp_path / "o"
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and str(path) in lines[0], lines
    assert not (tmp_path / "o").exists()


def test_a_missing_player_file_is_refused(tmp_path):
    result = simkit("replay", "eight-bit-invaders", "--strategy", "nowhere.py:Mine", cwd=tmp_path)
    assert result.returncode == 2
    assert "strategy file not found: nowhere.py" in result.stderr


def test_a_scenario_names_a_user_player_and_the_manifest_hashes_it(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[scenario]\nname = "mine"\ngame = "eight-bit-invaders"\ngames = 20\nseed = 1\n'
        f'[grid]\nstrategy = ["greedy", "{EXAMPLE}:KillBombersFirst"]\n'
    )
    result = simkit("run", spec, "--out", tmp_path / "d", "--quiet")
    assert result.returncode == 0, result.stderr
    ds = dataset.load(tmp_path / "d")
    assert set(ds.games["strategy"].unique()) == {"greedy", f"{EXAMPLE}:KillBombersFirst"}
    assert list(ds.manifest["strategy_files"]) == [str(EXAMPLE)]
    assert len(ds.manifest["strategy_files"][str(EXAMPLE)]) == 64


def test_replay_with_a_user_player_reads_like_the_game(tmp_path):
    result = simkit(
        "replay", "eight-bit-invaders", "--seed", "2:3", "--strategy", f"{EXAMPLE}:KillBombersFirst"
    )
    assert result.returncode == 0, result.stderr
    assert "allocate" in result.stdout or "kill" in result.stdout


PEEKER = '''
import sys
from simkit.core.registry import get_game

engine = get_game("{game_id}")
Base = engine.strategies[engine.default_strategy].player
HIDDEN = ("deck", "decks", "bag", "spawn_deck", "bonus_pile", "draw_pile", "order", "state", "game",
          "streams", "rng", "dice", "future", "setup", "chance", "tiles")


class Peeker(Base):
    """The game's default player, except that before every decision it tries to read what a
    player at the table cannot see; if any of it is there, the game fails."""

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if name.startswith("_") or not callable(value):
            return value

        def decide(*args, **kwargs):
            for arg in args:
                for hidden in HIDDEN:
                    if hasattr(type(arg), "__module__") and type(arg).__module__.startswith("simkit.games"):
                        if hasattr(arg, hidden):
                            raise AssertionError(f"{{name}}: the view shows {{hidden!r}}")
            return value(*args, **kwargs)

        return decide
'''


def test_the_peeker_catches_a_view_that_shows_the_deck():
    import random

    namespace: dict = {}
    exec(PEEKER.format(game_id="eight-bit-invaders"), namespace)

    class LeakyView:
        __module__ = "simkit.games.leaky"
        deck = (3, 1, 2)

    with pytest.raises(AssertionError, match="allocate: the view shows 'deck'"):
        namespace["Peeker"](random.Random(1)).allocate(LeakyView(), (1, 2, 3))


@pytest.mark.parametrize("game_id", [e.id for e in all_games()])
def test_the_view_holds_no_deck_order_state_or_random_stream(tmp_path, game_id):
    path = tmp_path / "peek.py"
    path.write_text(PEEKER.format(game_id=game_id))
    sc = scenario.single_cell(game_id, 6, 1, {}, [f"{path}:Peeker"], 3)
    runner.run(sc, tmp_path / "d", backend="sequential", progress=False)
    ds = dataset.load(tmp_path / "d")
    assert ds.failures is None, ds.failures["error"].to_list()
    assert ds.games.height == 6


def test_oh_no_level_3_hides_the_other_hands():
    from simkit.games.oh_no_invasion.game import HiddenInformation, View

    class FakeState:
        level, hands = 3, [[1, 2], [3]]

    view = View(FakeState(), None, 0)
    assert view.hand == (1, 2) and view.hand_size(1) == 1
    with pytest.raises(HiddenInformation):
        view.hand_of(1)
