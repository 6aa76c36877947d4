"""Chunk integrity: every chunk's files are checked against its checksum record (SHA-256 and row
count). A truncated, zero-byte or changed file, a stray copy of a chunk or a file copied over
another chunk is named in one line: `load` and `simkit report` refuse (exit 2), a resumed run plays
that chunk again and ends with exactly the rows of an untouched run."""

import json
import shutil
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, runner, scenario
from simkit.core.errors import UserError
from tests.core.test_trust import one_line_error, simkit

SCENARIO = scenario.single_cell("alien-attack", 200, 5, {}, [], 50)  # 4 chunks, with seat rows
CHUNK = "c000-000000050.parquet"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pristine") / "d"
    runner.run(SCENARIO, out, backend="sequential", progress=False)
    return out


@pytest.fixture
def copy(pristine, tmp_path) -> Path:
    out = tmp_path / "d"
    shutil.copytree(pristine, out)
    return out


def flip_byte(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


# each: what is done to a copy of the dataset, and the file the refusal must name
DAMAGE = {
    "truncated games": (lambda d: truncate(d / "games" / CHUNK), "games/" + CHUNK),
    "zero-byte games": (lambda d: (d / "games" / CHUNK).write_bytes(b""), "games/" + CHUNK),
    "a flipped byte in games": (lambda d: flip_byte(d / "games" / CHUNK, 4000), "games/" + CHUNK),
    "a flipped byte in seats": (lambda d: flip_byte(d / "seats" / CHUNK, 3000), "seats/" + CHUNK),
    "seats file missing": (lambda d: (d / "seats" / CHUNK).unlink(), "seats/" + CHUNK),
    "record missing": (lambda d: (d / "chunks" / "c000-000000050.json").unlink(), "games/" + CHUNK),
    "another chunk copied over it": (
        lambda d: (
            [shutil.copy(d / s / "c000-000000000.parquet", d / s / CHUNK) for s in ("games", "seats")]
            + [shutil.copy(d / "chunks" / "c000-000000000.json", d / "chunks" / "c000-000000050.json")]
        ),
        "games/" + CHUNK,
    ),
}
# stray copies next to an untouched dataset: refused by load and report (never counted twice)
STRAY = {
    "a copy under a chunk name": (
        lambda d: shutil.copy(d / "games" / CHUNK, d / "games" / "c000-000000200.parquet"),
        "games/c000-000000200.parquet",
    ),
    "a copy with its record": (
        lambda d: [
            shutil.copy(d / sub / f"c000-000000050.{ext}", d / sub / f"c000-000000200.{ext}")
            for sub, ext in (("games", "parquet"), ("seats", "parquet"), ("chunks", "json"))
        ],
        "games/c000-000000200.parquet",
    ),
    "a copy under another name": (
        lambda d: shutil.copy(d / "games" / CHUNK, d / "games" / "c000-000000050 (copy).parquet"),
        "games/c000-000000050 (copy).parquet",
    ),
    "a copy in a cell the run does not have": (
        lambda d: shutil.copy(d / "games" / CHUNK, d / "games" / "c007-000000050.parquet"),
        "games/c007-000000050.parquet",
    ),
}


@pytest.mark.parametrize("case", [*DAMAGE, *STRAY])
def test_load_refuses_a_damaged_or_stray_chunk_in_one_line_naming_the_file(copy, case):
    damage, named = {**DAMAGE, **STRAY}[case]
    damage(copy)
    with pytest.raises(UserError) as refused:
        dataset.load(copy)
    message = str(refused.value)
    assert str(copy / named) in message and "\n" not in message, message


@pytest.mark.parametrize("case", ["truncated games", "a copy under a chunk name"])
def test_report_refuses_a_damaged_chunk_with_exit_2_naming_the_file(copy, tmp_path, case):
    damage, named = {**DAMAGE, **STRAY}[case]
    damage(copy)
    result = simkit("report", copy, "--out", tmp_path / "report")
    one_line_error(result, str(copy / named))
    assert not (tmp_path / "report").exists()


@pytest.mark.parametrize("case", DAMAGE)
def test_resume_plays_a_damaged_chunk_again_and_says_so(copy, pristine, capsys, case):
    damage, named = DAMAGE[case]
    damage(copy)
    summary = runner.run(SCENARIO, copy, backend="sequential", progress=False)
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and str(copy / named) in said[0] and said[0].endswith("playing the chunk again")
    assert summary.games == 50 and summary.skipped_chunks == 3
    got, want = dataset.load(copy), dataset.load(pristine)
    assert_frame_equal(got.games, want.games)
    assert_frame_equal(got.seats, want.seats)


def test_every_single_byte_flip_of_a_chunk_is_caught(copy):
    """The attack that found 40 of 600 flips silently changing a win rate: here every flip, at
    positions spread over a whole games file, is refused."""
    path = copy / "games" / CHUNK
    original = path.read_bytes()
    positions = range(0, len(original), max(1, len(original) // 60))
    for at in positions:
        flip_byte(path, at)
        with pytest.raises(UserError, match="does not match its checksum"):
            dataset.load(copy)
        path.write_bytes(original)
    assert dataset.load(copy).games.height == 200


def test_a_chunk_that_does_not_account_for_all_its_games_is_played_again(copy, pristine, capsys):
    """A chunk written whole (its record matches) but holding 40 of its 50 games is not finished."""
    short = dataset.load(pristine).games.filter(dataset.pl.col("game_index").is_between(50, 89))
    dataset.write_chunk(copy, CHUNK, short, None, [])
    (copy / "seats" / CHUNK).unlink(missing_ok=True)
    runner.run(SCENARIO, copy, backend="sequential", progress=False)
    said = capsys.readouterr().err
    assert f"{copy / 'games' / CHUNK}: accounts for 40 of its 50 games; playing the chunk again" in said
    assert_frame_equal(dataset.load(copy).games, dataset.load(pristine).games)


def test_a_dataset_written_before_checksums_is_read_but_not_resumed(copy, pristine):
    manifest = json.loads((copy / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps({**manifest, "format": 1}))
    shutil.rmtree(copy / "chunks")
    assert_frame_equal(dataset.load(copy).games, dataset.load(pristine).games)
    with pytest.raises(UserError, match="written by an older simkit .* cannot be resumed; use another --out"):
        runner.run(SCENARIO, copy, backend="sequential", progress=False)
