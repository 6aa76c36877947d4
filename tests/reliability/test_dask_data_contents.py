"""Issue 19, point 7: Dask without shared disk, truly. Tasks carry the `--set data=` file's
bytes, not its path: a data file only the client has plays on a real local Dask cluster even
though it is gone from disk before the tasks run (and before the workers start)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, files, runner, scenario

DEFAULT = (
    Path(files.__file__).resolve().parents[1] / "games" / "eight_bit_invaders" / "data" / "components.toml"
)


def mine(folder: Path) -> str:
    """A component file that plays differently from the default (shields start elsewhere)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = DEFAULT.read_text().replace("start_columns = [2, 4, 6]", "start_columns = [1, 4, 7]", 1)
    assert text != DEFAULT.read_text()
    (folder / "mine.toml").write_text(text)
    return "mine.toml"  # relative: the client's folder, not the worker's


def games_of(out: Path) -> pl.DataFrame:
    ds = dataset.load(out)
    assert ds.failures is None, ds.failures["error"].to_list()[:3]
    return ds.games.sort("game_index")


def cell(settings: dict, strategy: str) -> scenario.Scenario:
    return scenario.single_cell("eight-bit-invaders", 24, 7, settings, [strategy], 6)


@pytest.mark.parametrize("engine", ["python", "auto"])
def test_a_data_file_only_the_client_has_plays_on_dask_workers(tmp_path, monkeypatch, engine):
    client = tmp_path / "client"
    data = mine(client)
    monkeypatch.chdir(client)
    strategy = "greedy"
    reference = tmp_path / "seq"
    runner.run(cell({"data": data}, strategy), reference, backend="sequential", progress=False, engine=engine)
    runner.run(cell({}, strategy), tmp_path / "default", backend="sequential", progress=False, engine=engine)
    # the file matters: other shields, other games
    assert games_of(reference)["score"].to_list() != games_of(tmp_path / "default")["score"].to_list()

    real_workers = runner._workers
    removed = []

    def remove_then_start_workers(*args, **kwargs):
        """The client has read everything it needs; the file leaves every disk before the
        cluster starts and the tasks run."""
        (client / data).rename(tmp_path / "elsewhere.toml")
        removed.append(True)
        return real_workers(*args, **kwargs)

    monkeypatch.setattr(runner, "_workers", remove_then_start_workers)
    out = tmp_path / "dask"
    runner.run(cell({"data": data}, strategy), out, jobs=2, backend="dask", progress=False, engine=engine)
    assert removed and not (client / data).exists()
    assert_frame_equal(games_of(out), games_of(reference))


def test_a_worker_reads_shipped_bytes_not_its_own_file_at_that_path(tmp_path, monkeypatch):
    """A worker whose disk holds another file at the same path plays the client's bytes."""
    from simkit.games.eight_bit_invaders import components

    monkeypatch.chdir(tmp_path)
    data = mine(tmp_path)
    client_bytes = (tmp_path / data).read_bytes()
    (tmp_path / data).write_bytes(DEFAULT.read_bytes())  # "the worker's" copy: the default file
    on_disk = components.load(data)
    assert on_disk.shield_start == (1, 3, 5)
    resolved = str((tmp_path / data).resolve())
    with files.shipped_data(files.ShippedData({resolved: client_bytes}, {data: resolved})):
        shipped = components.load(data)
    assert shipped.shield_start == (0, 3, 6)
    assert shipped.sha256 != on_disk.sha256
    assert components.load(data) is on_disk  # after the task, the disk again
