"""The determinism contract, for every registered game: the same scenario and root seed give the
same game and seat rows under `sequential`, `loky` with 1 and 2 jobs, two chunk sizes, and a Dask
cluster of 2 worker processes (a local one, and one started by hand as the README describes)."""

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, runner, scenario
from simkit.core.registry import all_games

GAMES = [engine.id for engine in all_games()]
BIN = Path(sys.executable).parent


def game_scenario(game_id, games=24, chunk=8, seed=11):
    return scenario.parse(
        {"scenario": {"name": "det", "game": game_id, "games": games, "seed": seed, "chunk_size": chunk}},
        "test",
    )


def frames(out):
    ds = dataset.load(out)
    assert ds.failures is None, ds.failures["error"].to_list()[:3]
    return ds.games.drop("game"), ds.seats


@pytest.fixture(scope="module")
def dask_cluster():
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    yield cluster.scheduler_address
    cluster.close()


@pytest.mark.parametrize("game_id", GAMES)
def test_rows_are_identical_on_every_backend_job_count_and_chunk_size(tmp_path, game_id, dask_cluster):
    runs = {}
    for name, backend, jobs, chunk, scheduler in [
        ("sequential", "sequential", 1, 8, None),
        ("loky-1", "loky", 1, 8, None),
        ("loky-2", "loky", 2, 8, None),
        ("loky-2-chunk-5", "loky", 2, 5, None),
        ("dask-2", "dask", None, 8, dask_cluster),
    ]:
        random.seed(len(name))  # global random state must not matter
        np.random.seed(len(name))
        runner.run(
            game_scenario(game_id, chunk=chunk),
            tmp_path / name,
            jobs=jobs,
            backend=backend,
            progress=False,
            scheduler=scheduler,
        )
        runs[name] = frames(tmp_path / name)
    games, seats = runs.pop("sequential")
    assert games.height == 24 and games["game_index"].to_list() == list(range(24))
    for other_games, other_seats in runs.values():
        assert_frame_equal(games, other_games)
        if seats is None:
            assert other_seats is None
        else:
            assert_frame_equal(seats, other_seats)


def test_backend_dask_without_scheduler_starts_a_local_cluster(tmp_path):
    sc = game_scenario("eight-bit-invaders", games=30, chunk=10)
    runner.run(sc, tmp_path / "dask", jobs=2, backend="dask", progress=False)
    runner.run(sc, tmp_path / "seq", backend="sequential", progress=False)
    assert_frame_equal(frames(tmp_path / "dask")[0], frames(tmp_path / "seq")[0])


def _wait_for(path: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path} did not appear")
        time.sleep(0.1)


def test_the_readme_recipe_a_scheduler_and_workers_started_by_hand(tmp_path):
    """`dask scheduler` + `dask worker` processes (as on several machines), then
    `simkit run --backend dask --scheduler ADDRESS`: the same rows as loky."""
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[scenario]\nname = "remote"\ngame = "eight-bit-invaders"\ngames = 60\nseed = 4\nchunk_size = 15\n'
        "[grid]\ncountdown = [7, 6]\n"
    )
    info = tmp_path / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [
        subprocess.Popen(
            [BIN / "dask", "scheduler", "--scheduler-file", info, "--port", "0", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    ]
    try:
        _wait_for(info)
        procs.append(
            subprocess.Popen(
                [BIN / "dask", "worker", "--scheduler-file", info, "--nworkers", "2", "--nthreads", "1"]
                + ["--no-dashboard"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        )
        import json

        address = json.loads(info.read_text())["address"]
        cmd = [sys.executable, "-m", "simkit.cli", "run", spec, "--quiet"]
        remote = subprocess.run(
            [*cmd, "--backend", "dask", "--scheduler", address, "--out", tmp_path / "remote"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert remote.returncode == 0, remote.stderr
        local = subprocess.run(
            [*cmd, "--jobs", "2", "--out", tmp_path / "local"], capture_output=True, text=True
        )
        assert local.returncode == 0, local.stderr
        assert_frame_equal(frames(tmp_path / "remote")[0], frames(tmp_path / "local")[0])
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "simkit.cli", "simulate", "eight-bit-invaders", "-n", "5", "--backend", "dask"]
        + ["--scheduler", "tcp://127.0.0.1:9", "--out", tmp_path / "o"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in lines[0], lines
    assert not (tmp_path / "o").exists()
