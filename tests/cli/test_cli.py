"""The command line as a user meets it: real subprocesses, exit codes and one-line errors."""

import json
import subprocess
import sys

import pytest

from simkit.core import dataset


def simkit(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "simkit.cli", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def test_games_lists_settings_values_and_strategies():
    result = simkit("games")
    assert result.returncode == 0
    assert "eight-bit-invaders" in result.stdout
    assert "countdown=7|6" in result.stdout and "dice=6|5" in result.stdout
    assert "--strategy greedy (default)" in result.stdout and "lookahead" in result.stdout


BAD_SCENARIO_TOML = (
    '[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 10\nseed = 1\n[grid]\ncountdown = [7, 9]\n'
)


@pytest.mark.parametrize(
    "args, files, expected",
    [
        (["simulate", "no-such-game", "-n", "5"], {}, "unknown game 'no-such-game'"),
        (["simulate", "eight-bit-invaders", "-n", "5", "--set", "speed=3"], {}, "unknown setting 'speed'"),
        (
            ["simulate", "eight-bit-invaders", "-n", "5", "--set", "dice=4"],
            {},
            "'dice' = 4 is not allowed (allowed: 6, 5)",
        ),
        (["simulate", "eight-bit-invaders", "-n", "5", "--set", "dice=six"], {}, "'dice' must be int"),
        (
            ["simulate", "eight-bit-invaders", "-n", "5", "--strategy", "psychic"],
            {},
            "unknown strategy 'psychic'",
        ),
        (
            ["simulate", "eight-bit-invaders", "-n", "5", "--set", "data=missing.toml"],
            {},
            "file not found: missing.toml",
        ),
        (["simulate", "eight-bit-invaders", "-n", "0"], {}, "-n must be in 1.."),
        (["simulate", "eight-bit-invaders", "--jobs", "x"], {}, "Invalid value for '--jobs'"),
        (["run", "bad.toml"], {"bad.toml": "[scenario\nname=1"}, "bad.toml: malformed TOML"),
        (
            ["run", "bad.toml"],
            {"bad.toml": BAD_SCENARIO_TOML},
            "bad.toml: setting 'countdown' = 9 is not allowed",
        ),
        (
            ["run", "bad.toml"],
            {"bad.toml": BAD_SCENARIO_TOML.replace("[grid]", "[grids]")},
            "unknown section [grids]",
        ),
        (["run", "bad.toml"], {"bad.toml": ""}, "empty scenario"),
        (["run", "missing.toml"], {}, "missing.toml: cannot read scenario"),
        (["report", "not-a-dataset"], {}, "not a simkit dataset"),
        (["replay", "eight-bit-invaders", "--seed", "abc"], {}, "--seed expects an integer"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, files, expected):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    extra = ["--out", tmp_path / "out"] if args[0] in ("simulate", "run") else []
    result = simkit(*args, *extra, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert expected in lines[0]
    assert not (tmp_path / "out").exists(), "nothing half-written"


def test_broken_component_file_is_refused_with_file_and_key(tmp_path):
    from simkit.games.eight_bit_invaders.components import DEFAULT_FILE

    broken = tmp_path / "cards.toml"
    broken.write_text(DEFAULT_FILE.read_text().replace('requires = "2 5"', 'requires = "7 8"'))
    result = simkit(
        "simulate", "eight-bit-invaders", "-n", "5", "--set", f"data={broken}", "--out", tmp_path / "o"
    )
    assert result.returncode == 2
    assert f"{broken}: aliens.cards[" in result.stderr and "requires" in result.stderr


def test_simulate_with_jobs_1_and_2_gives_identical_rows_and_a_report(tmp_path):
    common = [
        "simulate",
        "eight-bit-invaders",
        "-n",
        "600",
        "--set",
        "countdown=6",
        "--set",
        "dice=5",
        "--seed",
        "1",
        "--quiet",
    ]
    one = simkit(*common, "--jobs", "1", "--out", tmp_path / "one")
    two = simkit(*common, "--jobs", "2", "--chunk-size", "150", "--out", tmp_path / "two")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert "600 games written" in one.stdout
    a, b = dataset.load(tmp_path / "one").games, dataset.load(tmp_path / "two").games
    assert a.equals(b) and a.height == 600
    report = simkit("report", tmp_path / "two", "--out", tmp_path / "report")
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "report" / "index.html").is_file()


def test_replay_json_reproduces_a_dataset_row(tmp_path):
    run = simkit(
        "simulate", "eight-bit-invaders", "-n", "5", "--seed", "9", "--quiet", "--out", tmp_path / "d"
    )
    assert run.returncode == 0
    row = dataset.load(tmp_path / "d").games.filter(game_index=3).row(0, named=True)
    replay = simkit("replay", "eight-bit-invaders", "--seed", "9:3", "--json")
    assert replay.returncode == 0, replay.stderr
    log = json.loads(replay.stdout)
    assert (log["seed"], log["game_index"], log["strategy"]) == (9, 3, ["greedy"])
    end = log["events"][-1]
    assert end["event"] == "end" and end["reason"] == row["end_reason"] and end["won"] == row["won"]
    assert max(e["turn"] for e in log["events"]) == row["length"]
