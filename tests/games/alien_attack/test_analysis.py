"""The Alien Attack: USA report sections (analysis.py): numbers against a direct computation from the
dataset, chart files, findings with intervals and game counts, and datasets that lack a setting."""

import html
import re
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simkit.core import dataset as ds_io
from simkit.core.runner import run
from simkit.core.scenario import parse
from simkit.games.alien_attack import analysis
from simkit.reporting.kit import build
from simkit.reporting.render import write_report
from simkit.reporting.sections import AnalysisContext

GAMES = 40
NUM = re.compile(r"[-+]?\d+(?:\.\d+)?")


def numbers(text: str) -> list[float]:
    return [float(x) for x in NUM.findall(text.replace(",", ""))]


def close(text: str, *expected: float, tol: float = 0.051) -> bool:
    got = numbers(text)
    return len(got) >= len(expected) and all(abs(g - e) <= tol for g, e in zip(got, expected, strict=False))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A mirror grid (greedy at 2 and 4 players, standard and semi-coop) and its report; the game's
    sections are captured as the report builds them."""
    tmp = tmp_path_factory.mktemp("aa")
    spec = {
        "scenario": {"name": "aa analysis test", "game": "alien-attack", "games": GAMES, "seed": 3},
        "grid": {"players": [2, 4], "variant": ["standard", "semi-coop"]},
        "fixed": {"strategy": "greedy"},
    }
    run(parse(spec, "test"), tmp / "d", backend="sequential", progress=False)
    captured = []
    real = analysis.sections

    def spy(ctx):
        out = real(ctx)
        captured.extend(out)
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(analysis, "sections", spy)
        index = write_report([tmp / "d"], tmp / "r")
    return ds_io.load(tmp / "d"), {s.key: s for s in captured}, index


def _cells(d):
    g = d.games.select("cell", "players", "variant").unique(maintain_order=True)
    return {row["cell"]: (row["players"], row["variant"]) for row in g.iter_rows(named=True)}


def _label(players, variant):
    return f"{players} players, greedy mirror" + (", semi-coop" if variant == "semi-coop" else "")


def test_every_section_chart_and_finding(built):
    d, secs, index = built
    assert set(secs) == {"aa-cards", "aa-seats", "aa-components", "aa-protection", "aa-semicoop", "aa-board"}
    page = index.read_text(encoding="utf-8")
    for s in secs.values():
        assert html.escape(s.title) in page
        for chart in s.charts:
            assert (index.parent / chart.png_file).stat().st_size > 0
            assert (index.parent / chart.svg_file).stat().st_size > 0
        for f in s.findings:
            assert "95 % CI" in f and "games" in f, f
            assert html.escape(f, quote=False) in page or html.escape(f) in page
    assert len(secs["aa-board"].charts) == 2 and len(secs["aa-cards"].charts) == 1
    assert any("paired within the game" in f for f in secs["aa-cards"].findings)
    # every cell is a mirror cell: the verdict covers both decks in each of the 4 cells
    assert sum("ranked by points" in f for f in secs["aa-cards"].findings) == 2 * 4


def test_card_numbers_match_the_seats_table(built):
    d, secs, _ = built
    seats = d.seats.with_columns(pl.col("score").cast(pl.Float64))
    cells = _cells(d)
    by_label = {_label(*v): c for c, v in cells.items()}
    per_card, pairs = secs["aa-cards"].tables
    checked = 0
    for row in per_card.rows:
        cell = by_label[row[0]]
        deck = "city_card" if row[1].startswith("City") else "border_card"
        card = row[1].split()[-1]
        mine = seats.filter(
            (pl.col("cell") == cell) & (pl.col(deck).cast(pl.String).str.to_lowercase() == card.lower())
        )
        mean_all = (
            seats.filter(pl.col("cell") == cell).group_by("game_index").agg(pl.col("score").mean().alias("m"))
        )
        rel = mine.join(mean_all, on="game_index").select(pl.col("score") - pl.col("m"))
        assert int(row[2].replace(",", "")) == mine.height
        assert close(row[3], 100 * mine["won"].mean())
        assert close(row[4], mine["score"].mean())
        assert close(row[5], rel.to_series().mean())
        assert close(row[6], 100 * (mine["seat"] == 0).mean())
        checked += 1
    assert checked == 4 * 2 * 4  # 4 cells x 2 decks x 4 cards
    for row in pairs.rows:
        cell = by_label[row[0]]
        deck = "city_card" if row[1].startswith("City") else "border_card"
        b, a = re.match(r"\w+ card (\w+) − (\w+)", row[1]).groups()
        sc = seats.filter(pl.col("cell") == cell).with_columns(
            pl.col(deck).cast(pl.String).str.to_lowercase()
        )
        ja = sc.filter(pl.col(deck) == a.lower()).select("game_index", "score")
        jb = sc.filter(pl.col(deck) == b.lower()).select("game_index", "score")
        joined = ja.join(jb, on="game_index", suffix="_b")
        assert int(row[2].replace(",", "")) == joined.height
        assert close(row[3], (joined["score_b"] - joined["score"]).mean())
    # at 4 players every game deals every card: each pair rests on all the games
    four = [r for r in pairs.rows if r[0].startswith("4 players")]
    assert len(four) == 2 * 2 * len(list(combinations(range(4), 2)))
    assert all(int(r[2]) == GAMES for r in four)


def test_seat_protection_semicoop_and_components(built):
    d, secs, _ = built
    seats = d.seats.with_columns(pl.col("score").cast(pl.Float64))
    cells = _cells(d)
    by_label = {_label(*v): c for c, v in cells.items()}
    for row in secs["aa-seats"].tables[0].rows:
        mine = seats.filter((pl.col("cell") == by_label[row[0]]) & (pl.col("seat") == int(row[1]) - 1))
        assert close(row[3], 100 * mine["won"].mean())
    players = pl.DataFrame({"cell": list(cells), "players": [v[0] for v in cells.values()]})
    joined = seats.join(players, on="cell")
    for row in secs["aa-protection"].tables[0].rows:
        p = int(row[0].split()[0])
        mine = joined.filter((pl.col("players") == p) & (pl.col("strategy") == row[1]))
        assert int(row[2].replace(",", "")) == mine.height
        assert close(row[3], 100 * (mine["protection"] >= 20).mean())
    comp = secs["aa-components"].tables[0]
    assert comp.columns[4] == "placements"
    for row in comp.rows:
        mine = joined.filter(pl.col("players") == int(row[0].split()[0]))
        assert close(row[3], mine["score"].mean())
        assert close(row[4], mine["placement_points"].mean())
    semi = secs["aa-semicoop"].tables[0].rows
    assert len(semi) == 2
    for row in semi:
        g = d.games.filter(pl.col("cell") == by_label[row[0]])
        assert close(row[2], 100 * g["won"].cast(pl.Boolean).mean())
        assert close(row[3], g["bases_destroyed"].mean())
    assert any("paired by game index" in f for f in secs["aa-semicoop"].findings)


def test_board_columns_and_heatmap_numbers(built):
    d, secs, index = built
    heatmaps = secs["aa-board"].charts
    assert len(heatmaps) == 2
    for chart in heatmaps:  # vector through and through: no raster colour bar inside the SVG
        svg = (index.parent / chart.svg_file).read_text()
        assert "<path" in svg and "<image" not in svg
    g = d.games
    n_bases = g["base_spaces"].map_elements(lambda t: len(t.split()), return_dtype=pl.Int64)
    n_caps = g["capture_spaces"].map_elements(lambda t: len(t.split()), return_dtype=pl.Int64)
    # every flipped space is still a base or was destroyed (once); every capture leaves its space inert
    assert (n_bases == g["bases_left"] + g["bases_destroyed"]).all()
    assert (n_caps == g["discs_captured"]).all()
    counts = np.zeros(121)
    for text in g["base_spaces"]:
        for s in text.split():
            counts[int(s)] += 1
    bases_table = secs["aa-board"].tables[0]
    for row in bases_table.rows:
        assert int(row[2].replace(",", "")) == counts[int(row[0])]
        assert close(row[1], 100 * counts[int(row[0])] / g.height)
    assert int(bases_table.rows[0][2].replace(",", "")) == counts.max()


def test_datasets_without_mirror_semicoop_board_or_seats(tmp_path):
    spec = {
        "scenario": {"name": "aa mixed", "game": "alien-attack", "games": 6, "seed": 5},
        "fixed": {"players": 2, "strategy": ["greedy", "random"]},
    }
    run(parse(spec, "test"), tmp_path / "d", backend="sequential", progress=False)
    d = ds_io.load(tmp_path / "d")
    d.games = d.games.drop("base_spaces", "capture_spaces")  # a dataset from before these columns
    out = tmp_path / "r"
    out.mkdir()
    secs = {s.key: s for s in analysis.sections(AnalysisContext(d, out, "mixed", "mixed"))}
    assert set(secs) == {"aa-cards", "aa-h2h", "aa-seats", "aa-components", "aa-protection"}
    # head to head: greedy's win rate and its points over random, from the seat rows directly
    s = d.seats
    greedy = s.filter(pl.col("strategy") == "greedy")
    h2h = secs["aa-h2h"]
    assert h2h.tables[0].rows[0][:3] == ["2 players, greedy vs random", "greedy", "6"]
    assert close(h2h.tables[0].rows[0][3], 100 * greedy["won"].cast(pl.Float64).mean())
    per_game = s.pivot(on="strategy", index="game_index", values="score")
    diff = (per_game["greedy"] - per_game["random"]).mean()
    assert "greedy beats random" in h2h.findings[0]  # 6 wins of 6, by some 80 points a game
    assert f"{diff:+.1f} points a game more than random" in h2h.findings[0]
    assert not secs["aa-cards"].findings and not secs["aa-cards"].tables
    assert "no mirror cell" in secs["aa-cards"].paragraphs[0]
    assert all((out / c.png_file).exists() for s in secs.values() for c in s.charts)
    # one game only: intervals are undefined, nothing crashes
    one = ds_io.Dataset(d.path, d.manifest, d.games.head(1), d.seats.head(2), None)
    assert {s.key for s in analysis.sections(AnalysisContext(one, out, "one", "one"))} >= {"aa-seats"}
    none = ds_io.Dataset(d.path, d.manifest, d.games, None, None)
    assert analysis.sections(AnalysisContext(none, out, "none", "none")) == []


def test_global_protection_is_described_from_the_board_file(tmp_path):
    # the section reads the points and requirements from the dataset's board file, not a copy of 20
    text = (Path(analysis.__file__).parent / "data" / "board.toml").read_text()
    text = text.replace("points = 20", "points = 25").replace("value1_cities = 4", "value1_cities = 3")
    board = tmp_path / "board.toml"
    board.write_text(text)
    spec = {
        "scenario": {"name": "aa protection", "game": "alien-attack", "games": 6, "seed": 5},
        "fixed": {"strategy": "missions", "data": str(board)},
    }
    run(parse(spec, "test"), tmp_path / "d", backend="sequential", progress=False)
    d = ds_io.load(tmp_path / "d")
    ctx = AnalysisContext(dataset=d, out=tmp_path, name="d", subject="test")
    (section,) = build(ctx, [s for s in analysis.SECTIONS if s.key == "aa-protection"])
    assert "pays 25 points" in section.paragraphs[0] and "touch 3 value-1 cities" in section.paragraphs[0]
    (row,) = section.tables[0].rows
    assert close(row[3], 100 * (d.seats["protection"] > 0).mean())
