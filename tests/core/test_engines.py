"""Which engine plays a cell (`--engine auto|native|python`), what the manifest says of it, and the
runner's check of every record against the game's declared columns."""

import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import simkit
from simkit.core import dataset, native, records, runner, scenario
from simkit.core.errors import UserError
from simkit.core.registry import Column, all_games, get_game

EXAMPLE_PLAYER = str(Path(__file__).parents[2] / "scenarios/strategies/eight_bit_kill_bombers.py")


def simkit_cli(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "simkit.cli", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def one_cell(strategy="greedy", **settings):
    return scenario.single_cell("eight-bit-invaders", 10, 1, settings, [strategy]).cells[0]


# --- choosing -------------------------------------------------------------------------------------


def test_auto_is_native_for_built_in_strategies_and_python_for_a_users_player(core):
    engine = get_game("eight-bit-invaders")
    assert native.choose(engine, one_cell("greedy"), "auto", "x") == "native"
    user = one_cell(f"{EXAMPLE_PLAYER}:KillBombersFirst")
    assert native.choose(engine, user, "auto", "x") == "python"
    with pytest.raises(UserError, match="strategy '.*KillBombersFirst' is played by the Python engine only"):
        native.choose(engine, user, "native", "--engine")


def test_python_is_always_allowed_and_a_bad_engine_name_is_refused():
    engine = get_game("eight-bit-invaders")
    assert native.choose(engine, one_cell(), "python", "x") == "python"
    with pytest.raises(UserError, match="engine must be one of auto, native, python, got 'fast'"):
        native.choose(engine, one_cell(), "fast", "x")


def test_without_the_core_auto_falls_back_saying_so_once_and_native_refuses(monkeypatch, capsys):
    monkeypatch.setattr(native, "core", lambda: None)
    monkeypatch.setattr(native, "_told_unbuilt", False)
    engine = get_game("eight-bit-invaders")
    assert native.choose(engine, one_cell(), "auto", "x") == "python"
    assert native.choose(engine, one_cell(), "auto", "x") == "python"
    told = capsys.readouterr().err.strip().splitlines()
    assert told == [
        "simkit: the native core is not built (install simkit where a Rust toolchain is found); "
        "playing eight-bit-invaders on the Python engine (slower)"
    ]
    with pytest.raises(UserError, match="the native core is not built"):
        native.choose(engine, one_cell(), "native", "--engine")


def test_games_without_a_native_engine_play_on_python():
    for engine in all_games():
        if not native.native_strategies(engine.id):
            cell = scenario.single_cell(engine.id, 1, 1, {}, []).cells[0]
            assert native.choose(engine, cell, "auto", "x") == "python"


def test_the_cli_refuses_native_for_a_users_player_in_one_line(tmp_path):
    result = simkit_cli(
        "simulate", "eight-bit-invaders", "-n", "5", "--engine", "native",
        "--strategy", f"{EXAMPLE_PLAYER}:KillBombersFirst", "--out", tmp_path / "x", "--quiet",
    )  # fmt: skip
    if native.core() is None:
        assert "the native core is not built" in result.stderr
    else:
        assert "is played by the Python engine only" in result.stderr
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_a_scenario_names_its_engine(tmp_path):
    spec = {
        "scenario": {"name": "x", "game": "eight-bit-invaders", "games": 5, "seed": 1, "engine": "python"}
    }
    assert scenario.parse(spec, "s.toml").engine == "python"
    spec["scenario"]["engine"] = "turbo"
    with pytest.raises(
        UserError, match=r"s.toml: \[scenario\] engine: engine must be one of auto, native, python"
    ):
        scenario.parse(spec, "s.toml")


def test_games_lists_each_games_engines():
    out = simkit_cli("games").stdout
    assert out.count("engines: ") == len(all_games())


# --- running ----------------------------------------------------------------------------------------


def test_manifest_records_each_cells_engine_and_a_resume_on_the_other_engine_merges(core, tmp_path):
    out = tmp_path / "run"
    sc = scenario.single_cell("eight-bit-invaders", 200, 3, {}, ["random"], chunk_size=50)
    runner.run(sc, out, progress=False, engine="python")
    before = dataset.load(out)
    assert [c["engine"] for c in before.manifest["cells"]] == ["python"]
    (out / "games" / dataset.chunk_file("c000", 100)).unlink()  # as if killed before that chunk
    runner.run(sc, out, progress=False, engine="native")
    after = dataset.load(out)
    assert [c["engine"] for c in after.manifest["cells"]] == ["native+python"]
    assert after.games.equals(before.games)  # the native chunk is the Python one, to the bit


def test_a_chunk_the_native_engine_cannot_finish_is_played_on_python(core, monkeypatch):
    def broken(*args):
        raise core.NativeGameError(4, "invariant broken")

    monkeypatch.setattr(native, "play_batch", broken)
    cell = one_cell()
    chunk = runner.play_chunk("eight-bit-invaders", cell, 1, 0, 8, {}, "native")
    assert chunk.engine == "python" and chunk.games.height == 8 and chunk.failures == []
    assert chunk.games.equals(runner.play_chunk("eight-bit-invaders", cell, 1, 0, 8, {}, "python").games)


def test_a_dataset_of_an_older_rules_version_is_refused_on_resume(tmp_path):
    out = tmp_path / "old"
    simkit.simulate("eight-bit-invaders", 20, seed=1, out=out, engine="python")
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["rules_version"]  # made before versions: version 1
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = simkit_cli(
        "simulate",
        "eight-bit-invaders",
        "-n",
        "20",
        "--seed",
        "1",
        "--engine",
        "python",
        "--out",
        out,
        "--quiet",
    )
    assert result.returncode == 2
    assert (
        "was played under eight-bit-invaders rules version 1 and this simkit plays version 2" in result.stderr
    )
    assert len(result.stderr.strip().splitlines()) == 1


# --- records against their declaration -------------------------------------------------------------

ENGINE = get_game("eight-bit-invaders")
GOOD = ENGINE.play({}, ["greedy"], 1, 0).record
COLUMNS = (Column("won", "bool"), Column("score", "int"), Column("ratio", "float", nullable=True))

RECORD_CASES = {
    "missing": ({"won": True, "score": 1}, "missing ['ratio']"),
    "undeclared": ({"won": True, "score": 1, "ratio": 0.5, "x": 1}, "undeclared ['x']"),
    "order": ({"score": 1, "won": True, "ratio": 0.5}, "columns out of order"),
    "bool-for-int": ({"won": True, "score": True, "ratio": 0.5}, "'score' holds bool True, declared int"),
    "int-for-bool": ({"won": 1, "score": 1, "ratio": 0.5}, "'won' holds int 1, declared bool"),
    "null-not-nullable": ({"won": None, "score": 1, "ratio": 0.5}, "'won' is null, declared not nullable"),
    "str-for-float": ({"won": True, "score": 1, "ratio": "x"}, "'ratio' holds str 'x', declared float"),
}


@pytest.mark.parametrize(("record", "message"), RECORD_CASES.values(), ids=RECORD_CASES.keys())
def test_a_record_that_strays_from_its_declaration_is_refused(record, message):
    with pytest.raises(
        records.RecordError, match="eight-bit-invaders: the game record.*" + re.escape(message)
    ):
        records.check_record(ENGINE, COLUMNS, record, "the game record")


def test_declared_records_accept_what_the_games_return():
    records.check_record(ENGINE, COLUMNS, {"won": False, "score": 2, "ratio": None}, "the game record")
    records.check_record(ENGINE, COLUMNS, {"won": False, "score": 2, "ratio": 3}, "the game record")
    records.check_record(ENGINE, ENGINE.record, GOOD, "the game record")


def test_a_label_outside_the_declared_ones_is_refused():
    bad = {**GOOD, "end_reason": "abducted"}
    with pytest.raises(records.RecordError, match="'end_reason' = 'abducted' is not one of"):
        records.check_record(ENGINE, ENGINE.record, bad, "the game record")


def test_game_rows_carry_the_declared_types():
    frame = runner.play_chunk("eight-bit-invaders", one_cell(), 1, 0, 3, {}, "python").games
    assert frame.schema == pl.Schema(records.game_schema(ENGINE))
    assert frame["game_index"].to_list() == [0, 1, 2]
