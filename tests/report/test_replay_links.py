"""The report's Reproduce block links a step-through page of one game of each cell.

The page of a cell is game 0 of that cell, replayed from the manifest (settings, strategies, seed):
its facts name the cell and the seed, and its record is the dataset's row for that game. A dataset
whose component file changed since the run gets a note instead of a page that would tell another
game.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

from simkit.core import dataset, runner, scenario
from simkit.games.eight_bit_invaders import components
from simkit.reporting import write_report


def run(out: Path, doc: dict) -> Path:
    runner.run(scenario.parse(doc, "test"), out, jobs=1, backend="sequential", progress=False)
    return out


def page_data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    payload = re.search(r'<script id="replay-data" type="application/octet-stream">([^<]+)</script>', text)
    return json.loads(gzip.decompress(base64.b64decode(payload.group(1))))


@pytest.fixture(scope="module")
def two_cells(tmp_path_factory):
    base = tmp_path_factory.mktemp("replay-links")
    data = run(
        base / "data",
        {
            "scenario": {"name": "links", "game": "eight-bit-invaders", "games": 6, "seed": 21},
            "grid": {"countdown": [7, 6]},
            "fixed": {"strategy": "greedy"},
        },
    )
    index = write_report([data], base / "report")
    return data, index


def test_each_cell_links_the_page_of_its_first_game(two_cells):
    data, index = two_cells
    html = index.read_text(encoding="utf-8")
    games = dataset.load(data).games
    for cell in ("c000", "c001"):
        link = f"replays/data-{cell}.html"
        assert f'href="{link}"' in html
        page = index.parent / link
        body = page.read_text(encoding="utf-8")
        assert "21:0 (root seed : game index)" in body and cell in body
        record = page_data(page)["record"]
        row = games.filter((games["cell"] == cell) & (games["game_index"] == 0)).to_dicts()[0]
        for column in ("won", "score", "length", "end_reason", "aliens_left"):
            assert record[column] == row[column], column


def test_a_changed_component_file_gets_a_note_not_a_page(tmp_path):
    mine = tmp_path / "mine.toml"
    shutil.copy(components.DEFAULT_FILE, mine)
    data = run(
        tmp_path / "data",
        {
            "scenario": {"name": "changed", "game": "eight-bit-invaders", "games": 3, "seed": 5},
            "fixed": {"strategy": "greedy", "data": str(mine)},
        },
    )
    mine.write_text(mine.read_text(encoding="utf-8").replace("version = 1", "version = 2"), encoding="utf-8")
    index = write_report([data], tmp_path / "report")
    html = index.read_text(encoding="utf-8")
    assert "has changed since the run" in html
    assert not (tmp_path / "report" / "replays").exists()
