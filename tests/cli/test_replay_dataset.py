"""`simkit replay` of a game from a dataset (`--dataset DIR --cell C --game-index I`), as text and as
a page: the same game the run played, and one clear line for every way of naming it wrongly."""

from __future__ import annotations

import base64
import gzip
import json
import re

import pytest

from simkit.core import dataset, runner, scenario
from tests.cli.test_cli import simkit


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay-dataset") / "data"
    doc = {
        "scenario": {"name": "replays", "game": "oh-no-invasion", "games": 5, "seed": 13},
        "grid": {"level": [0, 3]},
        "fixed": {"players": 3, "strategy": "cautious"},
    }
    runner.run(scenario.parse(doc, "test"), out, jobs=1, backend="sequential", progress=False)
    return out


def test_text_replay_of_a_dataset_game_is_the_seeded_one(data):
    from_data = simkit("replay", "oh-no-invasion", "--dataset", data, "--cell", "level=3", "--game-index", 4)
    assert from_data.returncode == 0, from_data.stderr
    by_seed = simkit(
        "replay",
        "oh-no-invasion",
        "--seed",
        "13:4",
        "--set",
        "level=3",
        "--players",
        3,
        "--strategy",
        "cautious",
    )
    assert by_seed.returncode == 0 and from_data.stdout == by_seed.stdout


def test_page_of_a_dataset_game_holds_its_record(data, tmp_path):
    page = tmp_path / "game.html"
    result = simkit(
        "replay", "oh-no-invasion", "--dataset", data, "--cell", "c001", "--game-index", 2, "--html", page
    )
    assert result.returncode == 0, result.stderr
    assert "replay page:" in result.stdout and page.stat().st_size < 2_000_000
    payload = re.search(r'id="replay-data" type="application/octet-stream">([^<]+)<', page.read_text())
    record = json.loads(gzip.decompress(base64.b64decode(payload.group(1))))["record"]
    games = dataset.load(data).games
    row = games.filter((games["cell"] == "c001") & (games["game_index"] == 2)).to_dicts()[0]
    for column in ("won", "score", "length", "end_reason"):
        assert record[column] == row[column]


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--cell", "c000"], "--cell names a cell of --dataset"),
        (["--dataset", "{data}", "--cell", "c000", "--set", "level=1"], "drop --set"),
        (["--dataset", "{data}"], "2 cells; name one with --cell"),
        (["--dataset", "{data}", "--cell", "level=9"], "no cell"),
        (["--dataset", "{data}", "--cell", "c000", "--game-index", "5"], "has games 0..4"),
        (["--dataset", "{tmp}", "--cell", "c000"], "not a simkit dataset"),
    ],
)
def test_a_wrongly_named_game_is_one_line(data, tmp_path, args, expected):
    result = simkit("replay", "oh-no-invasion", *(a.format(data=data, tmp=tmp_path) for a in args))
    assert result.returncode == 2, result.stdout
    assert expected in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_another_games_dataset_is_refused(data):
    result = simkit("replay", "space-alert", "--dataset", data, "--cell", "c000")
    assert result.returncode == 2 and "holds games of oh-no-invasion" in result.stderr
