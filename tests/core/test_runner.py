"""The runner's contract: identical rows whatever the jobs, chunk size or global random state,
and a resumed run equal to an uninterrupted one."""

import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, runner, scenario
from simkit.core.errors import UserError


def small_scenario(games=120, chunk=40, strategies=("greedy", "random")):
    return scenario.parse(
        {
            "scenario": {
                "name": "t",
                "game": "eight-bit-invaders",
                "games": games,
                "seed": 5,
                "chunk_size": chunk,
            },
            "grid": {"countdown": [7, 6], "strategy": list(strategies)},
            "fixed": {"dice": 6},
        },
        "test",
    )


def rows(out):
    return dataset.load(out).games


def test_rows_do_not_depend_on_jobs_chunks_or_global_random(tmp_path):
    runs = []
    for name, jobs, backend, chunk in [
        ("seq", 1, "sequential", 40),
        ("loky1", 1, "loky", 40),
        ("loky2", 2, "loky", 25),
    ]:
        random.seed(len(name))
        np.random.seed(len(name))
        sc = small_scenario(chunk=chunk)
        runner.run(sc, tmp_path / name, jobs=jobs, backend=backend, progress=False)
        runs.append(rows(tmp_path / name))
    assert runs[0].height == 4 * 120
    for other in runs[1:]:
        assert_frame_equal(runs[0], other)


def test_cells_share_seeds_so_game_i_sees_the_same_deal(tmp_path):
    runner.run(small_scenario(), tmp_path / "d", backend="sequential", progress=False)
    games = rows(tmp_path / "d")
    # the same root seed and game index in every cell
    by_cell = games.group_by("cell").agg(
        pl.col("seed").unique().len().alias("seeds"), pl.col("game_index").max()
    )
    assert by_cell["seeds"].to_list() == [1] * 4
    assert set(by_cell["game_index"].to_list()) == {119}


def test_dataset_layout_and_manifest(tmp_path):
    out = tmp_path / "d"
    runner.run(
        small_scenario(games=50, chunk=20), out, backend="sequential", progress=False, command="simkit run x"
    )
    ds = dataset.load(out)
    names = sorted(p.name for p in (out / "games").iterdir())
    assert names[:3] == ["c000-000000000.parquet", "c000-000000020.parquet", "c000-000000040.parquet"]
    assert ds.manifest["root_seed"] == 5 and ds.manifest["games_per_cell"] == 50
    assert [c["label"] for c in ds.manifest["cells"]] == [
        "countdown=7 strategy=greedy",
        "countdown=7 strategy=random",
        "countdown=6 strategy=greedy",
        "countdown=6 strategy=random",
    ]
    assert all(len(h) == 64 for h in ds.manifest["data_files"].values())
    for column in (
        "game",
        "cell",
        "game_index",
        "seed",
        "countdown",
        "dice",
        "data",
        "strategy",
        "won",
        "score",
        "length",
        "end_reason",
    ):
        assert column in ds.games.columns
    assert ds.games["data"].unique().to_list() == ["built-in"]


def test_resume_plays_only_missing_chunks_and_matches_a_full_run(tmp_path):
    full, partial = tmp_path / "full", tmp_path / "partial"
    runner.run(small_scenario(), full, backend="sequential", progress=False)
    runner.run(small_scenario(), partial, backend="sequential", progress=False)
    # lose some finished chunks, and leave a temporary file as a killed write would
    victims = sorted((partial / "games").iterdir())[::3]
    for path in victims:
        path.unlink()
    (partial / "games" / ".c000-000000000.parquet.123.tmp").write_bytes(b"partial")
    summary = runner.run(small_scenario(), partial, backend="sequential", progress=False)
    assert summary.games == 40 * len(victims)
    assert not list((partial / "games").glob(".*.tmp"))
    assert_frame_equal(rows(full), rows(partial))


def test_a_folder_from_another_run_is_refused(tmp_path):
    out = tmp_path / "d"
    runner.run(small_scenario(games=20, chunk=20), out, backend="sequential", progress=False)
    with pytest.raises(UserError, match="different run .*games_per_cell"):
        runner.run(small_scenario(games=40, chunk=20), out, backend="sequential", progress=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not empty"):
        runner.run(
            small_scenario(games=20, chunk=20), tmp_path / "other", backend="sequential", progress=False
        )


def test_seats_rotate_in_balanced_order():
    assert [runner.seat_order(("a", "b", "c"), i) for i in range(4)] == [
        ("a", "b", "c"),
        ("b", "c", "a"),
        ("c", "a", "b"),
        ("a", "b", "c"),
    ]


SCENARIO = """
[scenario]
name = "kill test"
game = "eight-bit-invaders"
games = 1200
seed = 3
chunk_size = 50

[grid]
strategy = ["greedy"]
"""


def test_a_killed_run_resumes_to_the_same_rows(tmp_path):
    """A real subprocess, killed with SIGKILL once some chunks are on disk, then run again."""
    spec = tmp_path / "s.toml"
    spec.write_text(SCENARIO)
    cmd = [sys.executable, "-m", "simkit.cli", "run", str(spec), "--backend", "sequential", "--quiet"]
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [*cmd, "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(dataset.finished_chunks(killed)) < 3:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(dataset.finished_chunks(killed))
    assert 3 <= done_before < 24, "the kill should land mid-run"
    resumed = subprocess.run([*cmd, "--out", str(killed)], capture_output=True, text=True, check=True)
    assert f"{done_before} chunks already on disk" in resumed.stdout
    whole = tmp_path / "whole"
    runner.run(scenario.load(spec), whole, backend="sequential", progress=False)
    got = rows(killed)
    assert got.height == 1200 and got["game_index"].n_unique() == 1200
    assert_frame_equal(got, rows(whole))


def test_a_failing_game_is_recorded_and_the_rest_are_played(tmp_path, monkeypatch):
    from simkit.core.registry import get_game

    engine = get_game("eight-bit-invaders")
    real_play = type(engine).play

    def flaky(self, settings, strategies, root_seed, game_index):
        if game_index == 7:
            raise RuntimeError("boom in game 7")
        return real_play(self, settings, strategies, root_seed, game_index)

    monkeypatch.setattr(type(engine), "play", flaky)
    sc = scenario.parse(
        {"scenario": {"name": "f", "game": "eight-bit-invaders", "games": 20, "seed": 1}}, "test"
    )
    summary = runner.run(sc, tmp_path / "d", backend="sequential", progress=False)
    assert (summary.games, summary.failures) == (19, 1)
    ds = dataset.load(tmp_path / "d")
    assert 7 not in ds.games["game_index"].to_list() and ds.games.height == 19
    failure = ds.failures.row(0, named=True)
    assert (failure["game_index"], failure["seed"], failure["cell"]) == (7, 1, "c000")
    assert "boom in game 7" in failure["error"] and "Traceback" in failure["traceback"]
