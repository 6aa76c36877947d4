"""The HTML report: built from real (small) runs and from hand-made datasets whose numbers are known.

Real runs go through `scenario.parse` + `runner.run` (sequential backend); the hand-made datasets
go through the real dataset writer (`dataset.prepare` + `dataset.write_chunk`), so `dataset.load`
reads them exactly as it reads a run.
"""

from __future__ import annotations

import csv
import html as html_lib
import math
import re
import shlex
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from simkit import __version__
from simkit.cli import app
from simkit.core import dataset, runner, scenario, stats
from simkit.core.errors import UserError
from simkit.reporting import model, write_report
from simkit.reporting import text as page_text

GAME = "eight-bit-invaders"
CHART_KINDS = ("win-rate", "end-reasons", "length", "score", "convergence")
NASTY = "<script>alert('x')</script>"


# --- building datasets ----------------------------------------------------------------------------


def run_scenario(out: Path, doc: dict, command: str | None = None) -> Path:
    sc = scenario.parse(doc, "test")
    runner.run(sc, out, jobs=1, backend="sequential", progress=False, command=command)
    return out


def synthetic(
    out: Path, cells: list[dict], *, data_sources: dict | None = None, name: str = "synthetic"
) -> Path:
    """A dataset written by hand. Each cell: {"label", "strategy", "countdown", "games": [record...],
    "failures": int}; a record holds won/score/length/end_reason."""
    manifest = {
        "format": 1,
        "simkit_version": __version__,
        "game": GAME,
        "title": "8-Bit Invaders",
        "scenario": {"name": name, "description": "", "source": None, "spec": {}},
        "games_per_cell": max(len(c["games"]) + c.get("failures", 0) for c in cells),
        "root_seed": 11,
        "chunk_size": 1000,
        "grid_keys": ["countdown", "strategy"],
        "setting_names": ["countdown", "dice", "data"],
        "cells": [
            {
                "cell": f"c{i:03d}",
                "settings": {"countdown": c["countdown"], "dice": 6, "data": "built-in"},
                "strategy": [c["strategy"]],
                "label": c["label"],
            }
            for i, c in enumerate(cells)
        ],
        "data_files": {"/data/components.toml": "ab" * 32},
        "data_sources": data_sources
        if data_sources is not None
        else {"/data/components.toml": {"dice": "rulebook"}},
        "command": "simkit run synthetic.toml",
        "created": "2024-01-01T00:00:00+00:00",
    }
    dataset.prepare(out, manifest)
    for i, c in enumerate(cells):
        cell = f"c{i:03d}"
        rows = [
            {
                "game": GAME,
                "cell": cell,
                "game_index": j,
                "seed": 11,
                "countdown": c["countdown"],
                "dice": 6,
                "data": "built-in",
                "strategy": c["strategy"],
                **record,
            }
            for j, record in enumerate(c["games"])
        ]
        failures = [
            {
                "game": GAME,
                "cell": cell,
                "game_index": len(rows) + j,
                "seed": 11,
                "error": "E",
                "traceback": "T",
            }
            for j in range(c.get("failures", 0))
        ]
        frame = pl.DataFrame(rows, infer_schema_length=None)
        dataset.write_chunk(out, dataset.chunk_file(cell, 0), frame, None, failures)
    return out


def record(won: bool | None, score: int = 10, length: int = 5, end_reason: str = "shot_down") -> dict:
    return {"won": won, "score": score, "length": length, "end_reason": end_reason}


# --- reading the report ---------------------------------------------------------------------------


def summary_rows(html: str) -> dict[str, str]:
    """cell -> the markup of its row in the headline table."""
    table = re.search(r'<table class="summary">(.*?)</table>', html, re.S)
    assert table, "no summary table"
    return dict(re.findall(r'<tr data-cell="(c\d+)">(.*?)</tr>', table.group(1), re.S))


def td(row: str, cls: str) -> str:
    found = re.search(rf'<td class="num {cls}">(.*?)</td>', row, re.S)
    assert found, f"no {cls} cell"
    return found.group(1).strip()


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return {row["cell"]: row for row in csv.DictReader(fh)}


def outside_svg(html: str) -> str:
    return re.sub(r"<svg\b.*?</svg>", "", html, flags=re.S)


# --- fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def grid(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("grid") / "grid-data"
    doc = {
        "scenario": {"name": "grid test", "game": GAME, "games": 40, "seed": 5, "chunk_size": 25},
        "grid": {"countdown": [7, 6], "strategy": ["random", "greedy"]},
    }
    return run_scenario(out, doc, command="simkit run grid.toml --out grid-data")


@pytest.fixture(scope="module")
def single(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("single") / "single-data"
    return run_scenario(
        out, {"scenario": {"name": "one cell", "game": GAME, "games": 30, "seed": 2}, "fixed": {"dice": 5}}
    )


@pytest.fixture(scope="module")
def report(grid, tmp_path_factory) -> tuple[Path, str, list, list]:
    """The report of the grid run, with pyplot's open figures before and after writing it."""
    import matplotlib.pyplot as plt

    out = tmp_path_factory.mktemp("report") / "rep"
    before = plt.get_fignums()
    index = write_report([grid], out)
    return index, index.read_text(encoding="utf-8"), before, plt.get_fignums()


# --- the page -------------------------------------------------------------------------------------


def test_index_is_written_and_returned(report):
    index, html = report[:2]
    assert index.name == "index.html" and index.is_file()
    assert html.startswith("<!DOCTYPE html>")
    assert html.rstrip().endswith("</html>")


def test_index_loads_nothing_from_outside(report):
    index, html = report[:2]
    lower = html.lower()
    for tag in ("<script", "<link", "<img", "<iframe", "<object", "<embed", "@import"):
        assert tag not in lower, tag
    assert not re.search(r"url\(\s*['\"]?\s*(https?:)?//", lower)
    refs = re.findall(r"\s(?:src|href|xlink:href|poster|action)\s*=\s*[\"']([^\"']*)[\"']", html)
    assert refs, "expected in-page links at least"
    for ref in refs:
        assert not re.match(r"\s*(https?:|//|javascript:)", ref, re.I), ref
        # an image matplotlib embeds in an SVG (a game's heatmap) is inline data, never a file
        assert not re.match(r"\s*data:", ref, re.I) or ref.startswith("data:image/png;base64,"), ref[:40]
        if not ref.startswith("#"):
            assert (index.parent / ref).is_file(), f"link to a missing file: {ref}"
    # every link of the page itself (the SVGs aside) points at an element that exists
    ids = set(re.findall(r'\sid="([^"]+)"', html))
    page_refs = re.findall(r'\shref="(#[^"]*)"', outside_svg(html))
    assert len(page_refs) >= 6
    for ref in page_refs:
        assert ref[1:] in ids, ref


def test_each_chart_is_an_inline_svg_in_a_labelled_figure(report, grid):
    index, html = report[:2]
    assert "<?xml" not in html and "<!DOCTYPE svg" not in html
    figures = re.findall(
        r'<figure role="img" aria-label="([^"]+)">\s*(<svg\b.*?</svg>)\s*<figcaption>(.*?)</figcaption>',
        html,
        re.S,
    )
    # every SVG sits in a labelled figure with a caption: the generic charts and the game's own
    assert len(figures) == html.count("<svg") >= len(CHART_KINDS)
    for alt, svg, caption in figures:
        assert len(alt) > 40 and caption.strip()
        ET.fromstring(svg)
    generic = [
        f
        for f in figures
        if re.match(r"(Win rate by cell|How games ended|Game length|Score distribution|Convergence)", f[0])
    ]
    assert len(generic) == len(CHART_KINDS)
    labels = [c["label"] for c in dataset.load(grid).manifest["cells"]]
    for alt, svg, caption in generic:
        assert all(label in alt for label in labels), alt  # the alt text reads the chart out
        assert "n=40" in alt or "of 40 games" in alt
        assert "n = 40 games per cell" in caption
        ET.fromstring(svg)  # well-formed on its own


def test_chart_and_csv_files_exist(report, grid):
    out = report[0].parent
    name = grid.name
    for kind in CHART_KINDS:
        png, svg = out / f"{name}-{kind}.png", out / f"{name}-{kind}.svg"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert ET.parse(svg).getroot().tag.endswith("svg")
    rows = read_csv(out / f"{name}-summary.csv")
    assert sorted(rows) == ["c000", "c001", "c002", "c003"]


def test_every_cell_label_is_shown(report, grid):
    manifest = dataset.load(grid).manifest
    labels = [c["label"] for c in manifest["cells"]]
    assert labels == [
        "countdown=7 strategy=random",
        "countdown=7 strategy=greedy",
        "countdown=6 strategy=random",
        "countdown=6 strategy=greedy",
    ]
    rows = summary_rows(report[1])
    for c in manifest["cells"]:
        assert c["label"] in rows[c["cell"]]


def test_numbers_match_the_games_table(report, grid):
    """n, wins, win rate, Wilson interval, mean score and length, recomputed game by game."""
    games = dataset.load(grid).games.to_dicts()
    by_cell = defaultdict(list)
    for g in games:
        by_cell[g["cell"]].append(g)
    out = report[0].parent
    csv_rows = read_csv(out / f"{grid.name}-summary.csv")
    html_rows = summary_rows(report[1])
    assert set(by_cell) == set(csv_rows) == set(html_rows)
    for cell, gs in by_cell.items():
        n, k = len(gs), sum(1 for g in gs if g["won"])
        assert n == 40
        row = csv_rows[cell]
        assert int(row["n"]) == n and int(row["wins"]) == k
        assert float(row["win_rate"]) == pytest.approx(k / n)
        w = stats.wilson(k, n)
        assert (float(row["win_low"]), float(row["win_high"])) == pytest.approx((w.low, w.high))
        scores = np.array([g["score"] for g in gs], dtype=float)
        s = stats.mean_interval(scores)
        assert float(row["score_mean"]) == pytest.approx(scores.mean())
        assert (float(row["score_low"]), float(row["score_high"])) == pytest.approx((s.low, s.high))
        assert float(row["length_mean"]) == pytest.approx(sum(g["length"] for g in gs) / n)
        h = html_rows[cell]
        assert td(h, "n") == str(n) and td(h, "wins") == str(k)
        assert td(h, "win-rate") == f"{100 * k / n:.1f} %"
        assert td(h, "win-ci") == f"{100 * w.low:.1f} to {100 * w.high:.1f} %"
        assert td(h, "score") == f"{scores.mean():,.2f}"


def test_end_reasons_are_counted_per_cell(report, grid):
    games = dataset.load(grid).games.to_dicts()
    counts = Counter((g["cell"], g["end_reason"]) for g in games)
    html = report[1]
    table = re.search(r'<table class="end-reasons">(.*?)</table>', html, re.S).group(1)
    reasons = re.findall(r'<th scope="col" class="num">([^<]+)</th>', table)[1:]  # after "n"
    assert set(reasons) == {r for _, r in counts}
    for cell, row in re.findall(r'<tr data-cell="(c\d+)">(.*?)</tr>', table, re.S):
        cells = re.findall(r'<td class="num">([^<]+)</td>', row)[1:]
        n = sum(k for (c, _), k in counts.items() if c == cell)
        for reason, text in zip(reasons, cells, strict=True):
            k = counts[(cell, reason)]
            assert text == f"{k} ({100 * k / n:.1f} %)"


def test_invented_data_note_names_the_file_and_components(report, grid):
    manifest = dataset.load(grid).manifest
    invented = {
        p: sorted(k for k, v in comp.items() if v == "invented")
        for p, comp in manifest["data_sources"].items()
    }
    invented = {p: names for p, names in invented.items() if names}
    assert invented, "the default 8-Bit Invaders data is expected to hold invented components"
    note = re.search(r'<div class="note warn invented-data" role="note">(.*?)</div>', report[1], re.S)
    assert note and "invented component data" in note.group(1)
    for path, names in invented.items():
        assert path in note.group(1)
        for name in names:
            assert name in note.group(1)


def test_no_invented_note_when_no_data_is_invented(known):
    """The hand-made dataset's data file is all rulebook: no note, but the file is still named."""
    html = known.read_text(encoding="utf-8")
    assert "invented-data" not in html and "invented component data" not in html
    assert "/data/components.toml" in html
    assert "ab" * 32 in html  # its sha256


def test_reproducibility_block(report, grid):
    m = dataset.load(grid).manifest
    repro = re.search(r'<dl class="repro">(.*?)</dl>', report[1], re.S).group(1)
    assert f"<dd>{m['simkit_version']}</dd>" in repro
    assert "<dd>grid test</dd>" in repro
    assert "<dt>root seed</dt><dd>5</dd>" in repro
    assert "<dt>games per cell</dt><dd>40</dd>" in repro
    assert "<dt>chunk size</dt><dd>25</dd>" in repro
    assert "<code>simkit run grid.toml --out grid-data</code>" in repro
    assert m["data_files"]
    for path, sha in m["data_files"].items():
        assert path in repro and sha in repro
    # the replay command of the block runs, and tells game 0 of the first cell
    command = html_lib.unescape(re.search(r"<code>(simkit replay [^<]*)</code>", repro).group(1))
    args = shlex.split(command)[1:]
    told = CliRunner().invoke(app, args)
    assert told.exit_code == 0, told.output
    cell = m["cells"][0]
    assert f"--strategy {cell['strategy'][0]}" in command and "--seed 5:0" in command
    assert told.output.splitlines()[-1].startswith(("Won", "Lost"))


def test_scenario_text_is_escaped(tmp_path):
    doc = {
        "scenario": {
            "name": f"evil {NASTY}",
            "description": f'say "hi" & {NASTY}',
            "game": GAME,
            "games": 5,
            "seed": 1,
        }
    }
    ds = run_scenario(tmp_path / "evil", doc)
    html = write_report([ds], tmp_path / "out").read_text(encoding="utf-8")
    assert "<script" not in html.lower()
    assert "evil &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in html
    assert "say &#34;hi&#34; &amp; &lt;script&gt;" in html


def test_data_text_is_escaped(tmp_path):
    """Labels, end reasons and component names come from files too."""
    evil_label = 'countdown=7 <img src=x onerror="alert(1)">'
    cells = [
        {
            "label": evil_label,
            "strategy": "greedy",
            "countdown": 7,
            "games": [record(True, end_reason="<b>boom</b>"), record(False)],
        },
        {"label": "plain $x$ label", "strategy": "random", "countdown": 6, "games": [record(False)] * 2},
    ]
    ds = synthetic(tmp_path / "evil", cells, data_sources={"/d/<x>.toml": {"<script>": "invented"}})
    html = write_report([ds], tmp_path / "out").read_text(encoding="utf-8")
    text = outside_svg(html)
    assert "<img" not in html and "<b>boom" not in html and "<script" not in html.lower()
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in text
    assert "&lt;b&gt;boom&lt;/b&gt;" in text
    assert "/d/&lt;x&gt;.toml" in text and "&lt;script&gt;" in text
    assert "plain $x$ label" in text  # no mathtext, no crash


# --- known numbers --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def known(tmp_path_factory) -> Path:
    """The report of a hand-made cell of 40 games, 7 of them won; its data file is all rulebook."""
    games = [record(i < 7, score=i % 5, length=3 + i % 4) for i in range(40)]
    root = tmp_path_factory.mktemp("known")
    ds = synthetic(root / "known", [{"label": "k7", "strategy": "greedy", "countdown": 7, "games": games}])
    return write_report([ds], root / "out")


def test_wilson_interval_for_known_counts(known):
    index = known
    row = read_csv(index.parent / "known-summary.csv")["c000"]
    w = stats.wilson(7, 40)
    ref = binomtest(7, 40).proportion_ci(confidence_level=0.95, method="wilson")
    assert (w.low, w.high) == pytest.approx((ref.low, ref.high), abs=1e-12)
    assert (int(row["wins"]), int(row["n"])) == (7, 40)
    assert (float(row["win_low"]), float(row["win_high"])) == pytest.approx((ref.low, ref.high), abs=1e-12)
    h = summary_rows(index.read_text(encoding="utf-8"))["c000"]
    assert td(h, "win-rate") == "17.5 %"
    assert td(h, "win-ci") == f"{100 * ref.low:.1f} to {100 * ref.high:.1f} %" == "8.7 to 31.9 %"
    assert float(row["length_median"]) == pytest.approx(float(np.median([3 + i % 4 for i in range(40)])))


def test_games_without_a_team_result(tmp_path):
    """A null `won` (nobody wins as a team) is left out of the win rate, and the table says so."""
    cells = [
        {
            "label": "half",
            "strategy": "greedy",
            "countdown": 7,
            "games": [record(True)] * 3 + [record(False)] + [record(None)] * 4,
        },
        {"label": "none", "strategy": "random", "countdown": 6, "games": [record(None)] * 5},
    ]
    ds = synthetic(tmp_path / "nulls", cells)
    html = write_report([ds], tmp_path / "out").read_text(encoding="utf-8")
    rows = read_csv(tmp_path / "out" / "nulls-summary.csv")
    assert (rows["c000"]["n"], rows["c000"]["n_win_loss"], rows["c000"]["wins"]) == ("8", "4", "3")
    assert float(rows["c000"]["win_rate"]) == 0.75
    assert rows["c001"]["n_win_loss"] == "0"
    h = summary_rows(html)
    assert td(h["c000"], "n-win-loss") == "4" and td(h["c000"], "win-rate") == "75.0 %"
    assert td(h["c001"], "win-rate") == "–"
    assert "win rates count only the games" in html
    # the chart shows the one cell with a result
    alt = re.search(r'<figure role="img" aria-label="(Win rate[^"]*)"', html).group(1)
    assert "half" in alt and "none" not in alt


def test_failed_and_missing_games_are_reported(tmp_path):
    cells = [
        {"label": "ok", "strategy": "greedy", "countdown": 7, "games": [record(True)] * 6},
        {
            "label": "broken",
            "strategy": "random",
            "countdown": 6,
            "games": [record(False)] * 2,
            "failures": 3,
        },
    ]
    ds = synthetic(tmp_path / "fails", cells)
    html = write_report([ds], tmp_path / "out").read_text(encoding="utf-8")
    h = summary_rows(html)
    assert td(h["c001"], "failed") == "3" and td(h["c001"], "n") == "2"
    assert "3 games failed" in html
    assert "The run is unfinished: 1 of 2 cells" in html  # 2 + 3 < 6 planned


def test_many_cells_get_a_length_summary_instead_of_lines(tmp_path):
    cells = [
        {
            "label": f"cell {i}",
            "strategy": s,
            "countdown": i,
            "games": [record(j % 3 == 0, length=1 + (i + j) % 9) for j in range(6)],
        }
        for i in range(17)
        for s in ("greedy",)
    ]
    ds = synthetic(tmp_path / "many", cells)
    html = write_report([ds], tmp_path / "out").read_text(encoding="utf-8")
    assert len(summary_rows(html)) == 17
    caption = re.search(r'id="ds-many-length".*?<figcaption>(.*?)</figcaption>', html, re.S).group(1)
    assert "25th to the 75th percentile" in caption and "n = 6 games per cell" in caption


# --- several datasets -----------------------------------------------------------------------------


def test_two_datasets_make_two_sections_and_a_table_of_contents(grid, single, tmp_path):
    index = write_report([grid, single], tmp_path / "two")
    html = index.read_text(encoding="utf-8")
    sections = re.findall(r'<section class="dataset" id="([^"]+)"', html)
    assert sections == [f"ds-{grid.name}", f"ds-{single.name}"]
    toc = re.search(r'<nav class="toc"[^>]*>(.*?)</nav>', html, re.S).group(1)
    for sid in sections:
        assert f'href="#{sid}"' in toc
    assert "grid test" in toc and "one cell" in toc
    for name in (grid.name, single.name):
        for kind in CHART_KINDS:
            assert html.count(f'href="{name}-{kind}.svg"') == 1, (name, kind)
    for name in (grid.name, single.name):
        assert (tmp_path / "two" / f"{name}-summary.csv").is_file()
    # the single cell shows its settings, dice=5 included
    one = summary_rows(html.split(f'id="ds-{single.name}"', 1)[1])
    assert list(one) == ["c000"] and "<td>5</td>" in one["c000"]


def test_the_same_folder_name_twice_gets_distinct_files(single, tmp_path):
    html = write_report([single, single], tmp_path / "dup").read_text(encoding="utf-8")
    assert re.findall(r'<section class="dataset" id="([^"]+)"', html) == [
        f"ds-{single.name}",
        f"ds-{single.name}-2",
    ]
    assert (tmp_path / "dup" / f"{single.name}-2-summary.csv").is_file()
    assert (tmp_path / "dup" / f"{single.name}-2-win-rate.svg").is_file()


def test_no_pyplot_figures_are_left_open(report):
    _, _, before, after = report
    assert after == before


def test_cli_report_command(single, tmp_path):
    from typer.testing import CliRunner

    from simkit.cli import app

    result = CliRunner().invoke(app, ["report", str(single), "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cli" / "index.html").is_file()
    assert "index.html" in result.output


# --- bad input ------------------------------------------------------------------------------------


def test_a_folder_that_is_not_a_dataset(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError) as err:
        write_report([tmp_path / "empty"], tmp_path / "out")
    message = str(err.value)
    assert "\n" not in message and "empty" in message and "not a simkit dataset" in message
    assert not (tmp_path / "out").exists()


def test_a_bad_dataset_after_a_good_one_writes_nothing(single, tmp_path):
    with pytest.raises(UserError):
        write_report([single, tmp_path / "missing"], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_out_that_cannot_be_created(single, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for out in (blocker, blocker / "sub"):
        with pytest.raises(UserError) as err:
            write_report([single], out)
        assert str(out) in str(err.value) and "\n" not in str(err.value)


def test_no_datasets():
    with pytest.raises(UserError):
        write_report([], Path("unused"))


def test_games_table_without_a_required_column(tmp_path):
    ds = synthetic(
        tmp_path / "cols", [{"label": "a", "strategy": "greedy", "countdown": 7, "games": [record(True)]}]
    )
    chunk = next((ds / "games").glob("*.parquet"))
    frame = pl.read_parquet(chunk).drop("end_reason")
    dataset.write_chunk(ds, chunk.name, frame, None, [])  # rewritten with its checksum record
    with pytest.raises(UserError, match="end_reason"):
        write_report([ds], tmp_path / "out")
    assert not (tmp_path / "out").exists()


# --- formatting -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0.175, "17.5 %"), (0.0, "0.0 %"), (1.0, "100.0 %"), (math.nan, "–"), (None, "–")],
)
def test_percent_format(value, expected):
    assert page_text.fmt_pct(value) == expected


# --- the plain-language summary, score and convergence charts, CSVs -------------------------------


def findings_of(html: str, section_id: str) -> list[str]:
    """The generic findings of one dataset section, as plain text."""
    part = html.split(f'id="{section_id}"', 1)[1]
    box = re.search(r'<ul class="findings generic">(.*?)</ul>', part, re.S)
    assert box, "no findings"
    import html as html_lib

    return [
        html_lib.unescape(re.sub(r"<[^>]+>", "", li)).strip()
        for li in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)
    ]


def test_summary_names_the_easiest_and_hardest_cell_from_the_games_table(report, grid):
    """Recomputed with polars and scipy's Wilson interval, not with the report's own code."""
    d = dataset.load(grid)
    labels = {c["cell"]: c["label"] for c in d.manifest["cells"]}
    per_cell = (
        d.games.group_by("cell")
        .agg(n=pl.col("won").count(), wins=pl.col("won").cast(pl.Int64).sum())
        .with_columns(rate=pl.col("wins") / pl.col("n"))
        .sort("rate")
    )
    findings = findings_of(report[1], f"ds-{grid.name}")
    assert 2 <= len(findings) <= 3
    first = findings[0]
    lo_rate, hi_rate = per_cell["rate"].min(), per_cell["rate"].max()
    if lo_rate == hi_rate:
        assert first.startswith("All 4 cells have the same win rate")
        return
    for which, rate in (("Easiest cell: ", hi_rate), ("Hardest: ", lo_rate)):
        rows = per_cell.filter(pl.col("rate") == rate).to_dicts()
        named = [r for r in rows if f"{which}{labels[r['cell']]}, won" in first]
        assert len(named) == 1, (which, first)
        r = named[0]
        ci = binomtest(r["wins"], r["n"]).proportion_ci(confidence_level=0.95, method="wilson")
        assert (
            f"won {100 * r['wins'] / r['n']:.1f} % of {r['n']} games "
            f"(95 % interval {100 * ci.low:.1f} to {100 * ci.high:.1f} %)"
        ) in first


def test_summary_states_the_largest_paired_difference_per_setting(report, grid):
    d = dataset.load(grid)
    cells = {c["cell"]: c for c in d.manifest["cells"]}
    games = d.games.with_columns(pl.col("won").cast(pl.Int64))
    wins = {
        (row["cell"], row["game_index"]): row["won"]
        for row in games.select("cell", "game_index", "won").to_dicts()
    }
    findings = findings_of(report[1], f"ds-{grid.name}")[1:]
    assert findings, "a grid that varies settings gets at least one paired finding"
    # every pair of cells that differ in exactly one setting, with the first value as A
    diffs: dict[str, list[float]] = defaultdict(list)
    keys = {"countdown": [7, 6], "strategy": ["random", "greedy"]}

    def value(c, key):
        return c["strategy"][0] if key == "strategy" else c["settings"][key]

    for key, values in keys.items():
        for a in cells.values():
            for b in cells.values():
                others = [k for k in keys if k != key]
                if (
                    value(a, key) == values[0]
                    and value(b, key) == values[1]
                    and all(value(a, k) == value(b, k) for k in others)
                ):
                    idx = [i for (c, i) in wins if c == a["cell"]]
                    diff = sum(wins[(b["cell"], i)] - wins[(a["cell"], i)] for i in idx) / len(idx)
                    diffs[key].append(diff)
    for text in findings:
        m = re.match(r"Changing (\w+) from (\S+) to (\S+) .*?(raises|lowers|leaves)", text)
        assert m, text
        key = m.group(1)
        largest = max(diffs[key], key=abs)
        if largest:
            word = "raises" if largest > 0 else "lowers"
            amount = re.search(rf"{word} the win rate by ([\d.]+) points", text)
            assert amount and abs(float(amount.group(1)) - abs(100 * largest)) <= 0.05, text
        else:
            assert "leaves the win rate unchanged" in text
        assert "40 games paired by seed" in text
        interval = re.search(r"95 % paired interval ([-+][\d.]+) to ([-+][\d.]+) points", text)
        low, high = float(interval.group(1)), float(interval.group(2))
        assert low <= 100 * largest <= high
        # resolved only after the family's adjustment, which is stricter than the interval alone
        assert "the largest of the 2 comparisons that change" in text
        if ": resolved after the Holm adjustment" in text:
            assert low > 0 or high < 0 or low == 0 or high == 0
        else:
            assert ": not resolved after the Holm adjustment (family-wise error rate 5 %) over all" in text


def test_summary_without_team_results_uses_the_mean_score(tmp_path):
    cells = [
        {
            "label": "low",
            "strategy": "greedy",
            "countdown": 7,
            "games": [record(None, score=s) for s in (1, 2, 3, 2)],
        },
        {
            "label": "high",
            "strategy": "random",
            "countdown": 6,
            "games": [record(None, score=s) for s in (9, 8, 9, 10)],
        },
    ]
    ds = synthetic(tmp_path / "scores", cells)
    html = write_report([ds], tmp_path / "out").read_text(encoding="utf-8")
    first = findings_of(html, "ds-scores")[0]
    hi = stats.mean_interval(np.array([9, 8, 9, 10.0]))
    lo = stats.mean_interval(np.array([1, 2, 3, 2.0]))
    assert (
        f"Highest-scoring cell: high, with a mean score of 9.00 over 4 games (95 % interval {hi.low:,.2f} to {hi.high:,.2f})"
        in first
    )
    assert (
        f"Lowest: low, with a mean score of 2.00 over 4 games (95 % interval {lo.low:,.2f} to {lo.high:,.2f})"
        in first
    )
    # decided by the paired comparison (the only pair of cells: no adjustment), never by overlap
    assert "overlap" not in first
    assert "Compared game by game, the highest scores 7.00 more" in first and ": resolved (" in first
    # no win rate to converge: the convergence chart follows the mean score
    assert 'aria-label="Convergence of the mean score' in html


def test_game_findings_follow_the_generic_ones_and_are_in_the_contents(report, grid):
    html = report[1]
    toc = re.search(r'<nav class="toc"[^>]*>(.*?)</nav>', html, re.S).group(1)
    for sid, title in re.findall(
        r'<section class="game-section" id="([^"]+)"[^>]*>\s*<h3[^>]*>([^<]+)</h3>', html
    ):
        assert f'href="#{sid}"' in toc and title in toc
    game = re.search(r'<ul class="findings game">(.*?)</ul>\s*\n\s*(?:<p|</div|\{)', html, re.S)
    if "game-section" in html and game:
        assert html.index('class="findings generic"') < html.index('class="findings game"')


def test_convergence_points_are_wilson_intervals_of_the_first_games(grid):
    games = dataset.load(grid).games.sort("cell", "game_index")
    won = games.filter(pl.col("cell") == "c001")["won"].cast(pl.Int64).to_numpy()
    ns, rate, low, high = model.running_wilson(won)
    assert ns[0] == 1 and ns[-1] == len(won) and list(ns) == sorted(set(ns))
    for i, n in enumerate(ns):
        k = int(won[:n].sum())
        ref = binomtest(k, int(n)).proportion_ci(confidence_level=0.95, method="wilson")
        assert rate[i] == pytest.approx(k / n)
        assert (low[i], high[i]) == pytest.approx((ref.low, ref.high), abs=1e-9)
    scores = games.filter(pl.col("cell") == "c001")["score"].cast(pl.Float64).to_numpy()
    ns, mean, low, high = model.running_mean(scores)
    for i, n in enumerate(ns):
        if n < 2:
            assert math.isnan(low[i])
            continue
        ref = stats.mean_interval(scores[:n])
        assert (mean[i], low[i], high[i]) == pytest.approx((ref.estimate, ref.low, ref.high))


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("/tmp/x/first_fit.py:FirstFit", "first_fit.py:FirstFit"),
        ("players=2 strategy=./p.py:P,/q/r.py:R", "players=2 strategy=p.py:P,r.py:R"),
        ("greedy,random", "greedy,random"),
        ("mine.py:Mine", "mine.py:Mine"),
    ],
)
def test_user_player_paths_show_as_file_and_class(text, shown):
    assert model.short_players(text) == shown


@pytest.mark.parametrize(
    ("fractions", "digits"),
    [
        ((0.031, 0.012, 0.05), 1),
        ((0.0, -0.02, 0.02), 1),  # an exact zero needs no extra digit
        ((0.0003, 0.0001, 0.0005), 2),  # 0.03 points would print as 0.0
        ((0.00004, 0.00001, 0.00008), 3),
        ((float("nan"), 0.2), 1),
    ],
)
def test_differences_in_points_get_the_decimals_they_need(fractions, digits):
    from simkit.reporting.sections import point_decimals

    assert point_decimals(*fractions) == digits
    assert all(f"{100 * abs(f):.{digits}f}" != f"{0:.{digits}f}" for f in fractions if f and f == f)


@pytest.mark.parametrize(
    ("sizes", "limit", "shown"),
    [
        ({"a": 3, "b": 2}, 10, {"a": 3, "b": 2}),  # everything fits
        ({"a": 50, "b": 12}, 40, {"a": 28, "b": 12}),  # the small setting keeps every row
        ({"a": 30, "b": 30, "c": 30}, 60, {"a": 20, "b": 20, "c": 20}),
        ({"a": 100, "b": 5, "c": 40}, 21, {"a": 8, "b": 5, "c": 8}),
    ],
)
def test_the_page_shows_a_fair_share_of_comparisons_per_setting(sizes, limit, shown):
    rows = [{"key": k, "i": i} for k, n in sizes.items() for i in range(n)]
    kept = model.shown_comparisons(rows, limit)
    assert len(kept) == min(limit, len(rows))
    assert Counter(r["key"] for r in kept) == Counter(shown)
    assert kept == sorted(kept, key=rows.index)  # in their order, the first of each setting


def test_convergence_of_many_cells_is_one_panel_of_distances_from_the_final_estimate(tmp_path):
    from simkit.reporting import dataset_charts

    rng = np.random.default_rng(3)
    series = []
    for k in range(dataset_charts.MAX_PANELS + 5):  # more cells than small panels are drawn for
        won = rng.random(400 + 10 * k) < 0.3 + 0.01 * k
        ns, rate, low, high = model.running_wilson(won)
        series.append(
            dataset_charts.RunningSeries(f"cell {k}", ns.tolist(), rate.tolist(), low.tolist(), high.tolist())
        )
    chart = dataset_charts.convergence_chart(series, True, "", tmp_path, "many-convergence", "many cells")
    svg = (tmp_path / "many-convergence.svg").read_text(encoding="utf-8")
    assert len(re.findall(r'<g id="axes_\d+"', svg)) == 1
    assert "minus its final value" in chart.caption and "n = 400 to 640 games per cell" in chart.caption
    assert f"in {len(series)} cells" in chart.title or f"in {len(series)} cells" in svg
    # every cell appears in the alt text with its final interval
    assert "cell 0 (n=400)" in chart.alt and "after all 400" in chart.alt


def test_charts_state_their_game_counts_and_the_score_medians(report, grid):
    html = report[1]
    d = dataset.load(grid)
    medians = d.games.group_by("cell").agg(pl.col("score").cast(pl.Float64).median()).to_dicts()
    labels = {c["cell"]: c["label"] for c in d.manifest["cells"]}
    alt = re.search(r'aria-label="(Score distribution[^"]*)"', html).group(1)
    for row in medians:
        assert f"{labels[row['cell']]}: median {row['score']:g}" in alt
    conv = re.search(r'aria-label="(Convergence of the win rate[^"]*)"', html).group(1)
    assert "(n=40)" in conv and "after all 40" in conv and "Wilson band" in conv
    caption = re.search(r'id="ds-grid-data-convergence".*?<figcaption>(.*?)</figcaption>', html, re.S).group(
        1
    )
    assert "n = 40 games per cell" in caption


def test_summary_tables_are_written_as_csv(report, grid):
    out = report[0].parent
    games = dataset.load(grid).games
    counts = Counter(zip(games["cell"].to_list(), games["end_reason"].to_list(), strict=True))
    rows = read_csv(out / f"{grid.name}-end-reasons.csv")
    assert sorted(rows) == ["c000", "c001", "c002", "c003"]
    for cell, row in rows.items():
        for reason in {r for _, r in counts}:
            assert int(row[reason]) == counts[(cell, reason)]
    with (out / f"{grid.name}-paired.csv").open(encoding="utf-8") as fh:
        paired = list(csv.DictReader(fh))
    assert len(paired) == 4  # 2 cells change countdown, 2 change strategy
    assert {p["setting"] for p in paired} == {"countdown", "strategy"}
    for p in paired:
        assert int(p["pairs"]) == 40
        assert float(p["win_low"]) <= float(p["win_diff"]) <= float(p["win_high"])
    assert (
        f'href="{grid.name}-end-reasons.csv"' in report[1] and f'href="{grid.name}-paired.csv"' in report[1]
    )


def test_a_cell_named_by_every_setting_keeps_its_chart_readable(tmp_path):
    """A dataset of one cell labels it with every setting: the label is wrapped, not cut off, and
    the plot keeps its room (matplotlib warns when its layout collapses; here that is an error)."""
    import warnings

    from simkit.reporting import dataset_charts

    label = "mission=real common=white serious=white players=4 figures=4 hands=dealt strategy=scripted"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dataset_charts.end_reason_chart(
            [(label, 120)], ["survived", "zone_destroyed"], {}, tmp_path, "one", "one"
        )
    svg = (tmp_path / "one.svg").read_text(encoding="utf-8")
    shown = re.findall(r"<!-- (.*?) -->", svg)  # each text line of the chart, in drawing order
    first = next(i for i, text in enumerate(shown) if text.startswith("mission=real"))
    last = next(i for i, text in enumerate(shown) if text.endswith("(n=120)"))
    wrapped = shown[first : last + 1]
    assert " ".join(wrapped) == f"{label} (n=120)"
    assert len(wrapped) > 1 and all(len(line) <= dataset_charts.CELL_LABEL_WIDTH for line in wrapped)
