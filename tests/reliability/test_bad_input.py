"""Issue 19, point 8: bad input ends with one line and exit code 2, never a traceback, a
half-written folder or invalid JSON in a manifest."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

import simkit
from simkit import cli
from simkit.core.errors import UserError

SPACE_ALERT_DATA = Path(cli.__file__).parent / "games" / "space_alert" / "data" / "space_alert.toml"


def simkit_cli(capsys, monkeypatch, *args) -> tuple[int, str]:
    """Run the command line in this process: (exit code, stderr)."""
    monkeypatch.setattr(sys, "argv", ["simkit", *map(str, args)])
    try:
        cli.main()
        code = 0
    except SystemExit as ended:
        code = ended.code
    return code, capsys.readouterr().err


def refused(capsys, monkeypatch, *args) -> str:
    code, err = simkit_cli(capsys, monkeypatch, *args)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("simkit: error: "), err
    return lines[0]


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "infinity"])
def test_a_non_finite_setting_is_refused_and_nothing_is_written(tmp_path, capsys, monkeypatch, value):
    out = tmp_path / "d"
    line = refused(
        capsys,
        monkeypatch,
        "simulate",
        "space-alert",
        "-n",
        4,
        "--set",
        f"error_rate={value}",
        "--out",
        out,
    )
    assert "error_rate" in line and "finite" in line
    assert not out.exists()


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_a_non_finite_strategy_parameter_is_refused_and_nothing_is_written(
    tmp_path, capsys, monkeypatch, value
):
    out = tmp_path / "d"
    spec = f"bold:final_conflict={value}"
    line = refused(
        capsys, monkeypatch, "simulate", "oh-no-invasion", "-n", 4, "--strategy", spec, "--out", out
    )
    assert "parameter 'final_conflict'" in line and "finite" in line
    assert not out.exists()


def test_a_non_finite_setting_in_a_scenario_names_the_file(tmp_path, capsys, monkeypatch):
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[scenario]\nname = "x"\ngame = "space-alert"\ngames = 4\nseed = 1\n[grid]\nerror_rate = [0.2, nan]\n'
    )
    line = refused(capsys, monkeypatch, "run", spec, "--out", tmp_path / "d")
    assert str(spec) in line and "error_rate" in line and "finite" in line
    assert not (tmp_path / "d").exists()


def test_the_python_api_refuses_a_non_finite_setting_too(tmp_path):
    with pytest.raises(UserError, match="finite"):
        simkit.simulate("space-alert", 4, out=tmp_path / "d", error_rate=math.nan)


def test_a_finite_float_setting_still_writes_valid_json(tmp_path, capsys, monkeypatch):
    out = tmp_path / "d"
    code, err = simkit_cli(
        capsys, monkeypatch, "simulate", "space-alert", "-n", 4, "--set", "error_rate=0.25", "--out", out,
        "--quiet", "--backend", "sequential",
    )  # fmt: skip
    assert code == 0, err
    manifest = json.loads((out / "manifest.json").read_text(), parse_constant=lambda c: pytest.fail(c))
    assert "0.25" in json.dumps(manifest)


@pytest.mark.parametrize(
    "args, names",
    [
        (["--seed", "1:-5"], "game index"),
        (["--seed", "-1:0"], "root seed"),
        (["--seed", "-1"], "root seed"),
        (["--game-index", "-1"], "--game-index"),
        (["--seed", str(2**63)], "root seed"),
        (["--seed", f"1:{2**63}"], "game index"),
        (["--seed", "3", "--game-index", str(2**63)], "--game-index"),
        (["--seed", "1:x"], "--seed"),
    ],
)
def test_replay_refuses_seeds_and_game_indices_out_of_range(capsys, monkeypatch, args, names):
    line = refused(capsys, monkeypatch, "replay", "eight-bit-invaders", *args)
    assert names in line
    if "x" not in args[-1]:
        assert f"0..{2**63 - 1}" in line


def test_replay_takes_the_largest_seed_and_index(capsys, monkeypatch):
    code, err = simkit_cli(
        capsys, monkeypatch, "replay", "eight-bit-invaders", "--seed", f"{2**63 - 1}:{2**63 - 1}"
    )
    assert code == 0, err


@pytest.mark.parametrize("command", ["simulate", "run"])
@pytest.mark.parametrize("cap", [0, -5])
def test_max_games_zero_or_negative_is_refused_naming_it(tmp_path, capsys, monkeypatch, command, cap):
    out = tmp_path / "d"
    if command == "simulate":
        target = ["simulate", "eight-bit-invaders", "-n", 5, "--precision", 0.1]
    else:
        spec = tmp_path / "s.toml"
        spec.write_text('[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 5\nseed = 1\n')
        target = ["run", spec, "--precision", 0.1]
    line = refused(capsys, monkeypatch, *target, "--max-games", cap, "--out", out)
    assert f"--max-games must be in 1..1000000000, got {cap}" in line
    assert not out.exists()


@pytest.mark.parametrize("tile", ["1", "1.5", "true", "[]", "{}"])
def test_a_space_alert_damage_tile_that_is_not_text_gets_one_line(tmp_path, capsys, monkeypatch, tile):
    text = SPACE_ALERT_DATA.read_text()
    old = 'tiles = ["reactor",'
    assert old in text
    data = tmp_path / "data.toml"
    data.write_text(text.replace(old, f"tiles = [{tile},", 1))
    line = refused(
        capsys,
        monkeypatch,
        "simulate",
        "space-alert",
        "-n",
        2,
        "--set",
        f"data={data}",
        "--out",
        tmp_path / "d",
    )
    assert str(data) in line and "damage.tiles" in line


def test_an_unknown_game_in_a_scenario_names_the_file(tmp_path, capsys, monkeypatch):
    spec = tmp_path / "s.toml"
    spec.write_text('[scenario]\nname = "x"\ngame = "nope"\ngames = 5\nseed = 1\n')
    line = refused(capsys, monkeypatch, "run", spec, "--out", tmp_path / "d")
    assert str(spec) in line and "unknown game 'nope'" in line and "eight-bit-invaders" in line


def test_a_games_by_strategy_entry_naming_no_cell_is_one_line(tmp_path, capsys, monkeypatch):
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[scenario]\nname = "x"\ngame = "eight-bit-invaders"\ngames = 5\nseed = 1\n'
        '[grid]\nstrategy = ["greedy"]\n[games_by_strategy]\nlookahead = 2\n'
    )
    line = refused(capsys, monkeypatch, "run", spec, "--out", tmp_path / "d")
    assert str(spec) in line and "[games_by_strategy] 'lookahead': no cell of the grid plays it" in line
    assert not (tmp_path / "d").exists()
