"""Trust, for every registered game: a run killed with SIGKILL resumes to the same rows, a failing
game is kept (with its seed and traceback) and `simkit replay` reproduces it, and bad input is
refused with one line and exit code 2, leaving nothing half-written."""

import os
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from simkit.core import dataset, runner, scenario
from simkit.core.errors import UserError
from simkit.core.registry import all_games, get_game

GAMES = [engine.id for engine in all_games()]


def simkit(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "simkit.cli", *map(str, args)], capture_output=True, text=True, **kwargs
    )


def one_line_error(result, expected):
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert expected in lines[0], lines[0]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_killed_run_resumes_to_exactly_the_rows_of_an_uninterrupted_one(tmp_path, game_id):
    spec = tmp_path / "s.toml"
    spec.write_text(
        f'[scenario]\nname = "kill"\ngame = "{game_id}"\ngames = 1200\nseed = 3\nchunk_size = 50\n'
        'engine = "python"\n'  # slow enough for the kill to land mid-run (a native run is over in a blink)
    )
    cmd = [sys.executable, "-m", "simkit.cli", "run", str(spec), "--backend", "sequential", "--quiet"]
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [*cmd, "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(dataset.finished_chunks(killed)) < 2:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(dataset.finished_chunks(killed))
    assert 2 <= done_before < 24, "the kill should land mid-run"
    resumed = simkit(*cmd[3:], "--out", killed)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{done_before} chunks already on disk" in resumed.stdout
    whole = tmp_path / "whole"
    runner.run(scenario.load(spec), whole, backend="sequential", progress=False)
    got, want = dataset.load(killed), dataset.load(whole)
    assert got.games.height == 1200 and got.games["game_index"].n_unique() == 1200
    assert_frame_equal(got.games, want.games)
    if want.seats is not None:
        assert_frame_equal(got.seats, want.seats)


FLAKY = '''
import sys
from simkit.core.registry import get_game

engine = get_game("{game_id}")
Base = engine.strategies[engine.default_strategy].player


def refuse(*args, **kwargs):
    raise RuntimeError("this player gives up")


class Flaky(Base):
    """The game's default player, except that in about a third of the games (decided by its own
    seeded stream, so the same games every time) it raises at its first decision."""

    def __init__(self, rng, *args, **kwargs):
        super().__init__(rng, *args, **kwargs)
        self._gives_up = rng.random() < 0.35

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if not name.startswith("_") and callable(value) and object.__getattribute__(self, "_gives_up"):
            return refuse
        return value
'''


@pytest.mark.parametrize("game_id", GAMES)
def test_a_failing_game_is_kept_the_run_goes_on_and_replay_reproduces_it(tmp_path, game_id):
    player = tmp_path / "flaky.py"
    player.write_text(FLAKY.format(game_id=game_id))
    line = 1 + FLAKY.splitlines().index('    raise RuntimeError("this player gives up")')
    out = tmp_path / "d"
    result = simkit(
        "simulate",
        game_id,
        "-n",
        30,
        "--seed",
        9,
        "--strategy",
        f"{player}:Flaky",
        "--jobs",
        2,
        "--quiet",
        "--out",
        out,
    )
    ds = dataset.load(out)
    failed = ds.failures
    assert failed is not None and 0 < failed.height < 30
    assert result.returncode == 1 and f"{failed.height} games failed" in result.stderr
    assert ds.games.height + failed.height == 30
    row = failed.row(0, named=True)
    assert row["cell"] == "c000" and row["seed"] == 9
    assert (
        f"at {player}, line {line}" in row["error"] and "RuntimeError: this player gives up" in row["error"]
    )
    assert "Traceback" in row["traceback"]
    again = simkit("replay", game_id, "--seed", f"9:{row['game_index']}", "--strategy", f"{player}:Flaky")
    assert again.returncode == 1
    assert row["error"] in again.stderr.strip().splitlines()[-1]
    fine = simkit(
        "replay", game_id, "--seed", f"9:{ds.games['game_index'][0]}", "--strategy", f"{player}:Flaky"
    )
    assert fine.returncode == 0, fine.stderr


HUGE_GRID = "[grid]\n" + "\n".join(f"x{k} = [{', '.join(str(v) for v in range(10))}]" for k in range(5))


@pytest.mark.parametrize(
    "content, expected",
    [
        (b'[scenario]\nname = "\xff\xfe"\n', "not UTF-8 text"),
        (b"", "empty scenario"),
        (b"   \n\n", "empty scenario"),
        (b"\x00\x01\x02", "malformed TOML"),
        (b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = "many"\nseed = 1\n', "games must be"),
        (b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = -5\nseed = 1\n', "games must be"),
        (b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1.5\n', "seed must be"),
        (
            b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1\ncolour = 1\n',
            "unknown key",
        ),
        (
            b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1\n[fixed]\ndice = 99\n',
            "'dice' = 99 is not allowed",
        ),
        (
            b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1\n[grid]\ndice = 6\n',
            "must be a non-empty list",
        ),
        (
            b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1\nprecision = 3\n',
            "precision must be",
        ),
        (
            b'[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1\n'
            + HUGE_GRID.encode(),
            "makes 100000 cells",
        ),
    ],
)
def test_hostile_scenario_files_are_refused_with_one_line(tmp_path, content, expected):
    spec = tmp_path / "bad.toml"
    spec.write_bytes(content)
    one_line_error(simkit("run", spec, "--out", tmp_path / "out"), expected)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "mangle, expected",
    [
        (lambda text: b"", "empty component file"),
        (lambda text: b"\xff" + text.encode(), "not UTF-8 text"),
        (lambda text: text.replace("[", "[[", 1).encode(), "malformed TOML"),
    ],
)
def test_hostile_component_files_are_refused_with_one_line(tmp_path, mangle, expected):
    from simkit.games.eight_bit_invaders.components import DEFAULT_FILE

    data = tmp_path / "cards.toml"
    data.write_bytes(mangle(DEFAULT_FILE.read_text()))
    result = simkit(
        "simulate", "eight-bit-invaders", "-n", 5, "--set", f"data={data}", "--out", tmp_path / "o"
    )
    one_line_error(result, expected)
    assert not (tmp_path / "o").exists()


def test_a_second_run_into_a_busy_folder_is_refused(tmp_path):
    out = tmp_path / "d"
    first = subprocess.Popen(
        [sys.executable, "-m", "simkit.cli", "simulate", "eight-bit-invaders", "-n", "20000"]
        + ["--backend", "sequential", "--engine", "python", "--quiet", "--out", str(out)],  # slow: a minute
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not dataset.finished_chunks(out) and time.monotonic() < deadline:
            time.sleep(0.05)
        second = simkit("simulate", "eight-bit-invaders", "-n", 20000, "--quiet", "--out", out)
        one_line_error(second, "another simkit run is writing to this folder")
        assert first.poll() is None, "the first run goes on"
    finally:
        first.kill()
        first.wait()
    # once the first is gone (killed: the kernel drops its lock) the same command resumes
    assert dataset.finished_chunks(out)
    with dataset.lock(out):
        pass


def _can_mount_read_only() -> bool:
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs user namespaces (unshare -rm)")
@pytest.mark.parametrize("existing", [False, True])
def test_a_read_only_output_folder_is_refused(tmp_path, existing):
    """The folder is bind-mounted read-only in a private mount namespace (a chmod would not stop
    root): a new dataset inside it, or resuming one already there, is one line and exit code 2."""
    base = tmp_path / "ro"
    base.mkdir()
    out = base / "d"
    if existing:
        runner.run(scenario.single_cell("eight-bit-invaders", 10, 1, {}, [], 5), out, progress=False)
    before = sorted(p.relative_to(base) for p in base.rglob("*"))
    run = f"{sys.executable} -m simkit.cli simulate eight-bit-invaders -n 10 --seed 1 --chunk-size 5 --out {out}"
    result = subprocess.run(
        [
            "unshare",
            "-rm",
            "sh",
            "-c",
            f"mount --bind {base} {base} && mount -o remount,bind,ro {base} && {run}",
        ],
        capture_output=True,
        text=True,
    )
    one_line_error(result, "cannot write the dataset (Read-only file system)")
    assert sorted(p.relative_to(base) for p in base.rglob("*")) == before, "nothing written"


toml_scalars = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=12),
)
toml_values = st.recursive(
    toml_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
scenario_keys = st.sampled_from(
    ["name", "game", "games", "seed", "chunk_size", "precision", "description", "x"]
)
setting_keys = st.sampled_from(["countdown", "dice", "data", "strategy", "players", "speed"])
documents = st.fixed_dictionaries(
    {},
    optional={
        "scenario": st.dictionaries(scenario_keys, toml_values | st.just("eight-bit-invaders"), max_size=7),
        "grid": st.dictionaries(setting_keys, toml_values, max_size=4),
        "fixed": st.dictionaries(setting_keys, toml_values, max_size=4),
        "other": toml_values,
    },
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_the_scenario_parser_accepts_or_refuses_cleanly_whatever_it_is_given(doc):
    try:
        sc = scenario.parse(doc, "fuzz.toml")
    except UserError as exc:
        message = str(exc)
        assert message.startswith("fuzz.toml") or message.startswith("unknown game"), message
        assert "\n" not in message
        return
    assert sc.games >= 1 and sc.cells and all(c.strategies for c in sc.cells)
    get_game(sc.game)
