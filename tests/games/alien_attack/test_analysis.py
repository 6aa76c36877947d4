"""The Alien Attack: USA report sections (analysis.py): numbers against a direct computation from the
dataset, chart files, findings with intervals and game counts, and datasets that lack a setting."""

import html
import re
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simkit.core import dataset as ds_io
from simkit.core import stats
from simkit.core.runner import run
from simkit.core.scenario import parse
from simkit.games.alien_attack import analysis
from simkit.reporting import verdicts
from simkit.reporting.kit import build
from simkit.reporting.render import write_report
from simkit.reporting.sections import AnalysisContext, game_sections

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


# --- "Does the verdict hold?": the seat and card verdicts at every rung (reporting/verdicts.py) ---


@pytest.fixture(scope="module")
def two_rungs(tmp_path_factory):
    """Mirror cells of random and greedy at 2 players: a ladder of two rungs."""
    out = tmp_path_factory.mktemp("aa-rungs") / "d"
    spec = {
        "scenario": {"name": "aa rungs", "game": "alien-attack", "games": 300, "seed": 11},
        "grid": {"strategy": ["random", "greedy"]},
        "fixed": {"players": 2, "variant": "standard"},
    }
    run(parse(spec, "test"), out, backend="sequential", progress=False)
    return ds_io.load(out)


def _shifted(d, shift):
    """Dataset `d` with the first seat's points moved by `shift[rung]` (a rung not named: 0)."""
    rungs = d.games.select("cell", pl.col("strategy").str.split(",").list.first().alias("rung")).unique()
    move = pl.when(pl.col("seat") == 0).then(pl.col("rung").replace_strict(shift, default=0)).otherwise(0)
    seats = d.seats.join(rungs, on="cell").with_columns(score=pl.col("score") + move)
    return replace(d, seats=seats.drop("rung"))


def _ladder(d, tmp_path, shift=None):
    """The section of dataset `d`, the first seat's points moved by `shift[rung]` where given."""
    d = _shifted(d, shift) if shift else d
    return verdicts.section(AnalysisContext(d, tmp_path, "rungs", "rungs"), analysis.VERDICTS)


def test_the_verdict_section_needs_two_mirror_rungs(two_rungs, tmp_path):
    sec = _ladder(two_rungs, tmp_path)
    assert sec is not None and sec.title == "Does the verdict hold?"
    seat_rungs, seat_table, card_rungs, card_table = sec.tables
    assert [r[1] for r in seat_rungs.rows] == ["random", "greedy"] and card_rungs.rows[0][2] == "300"
    # one verdict on the first seat and 6 + 6 on card pairs, each at both rungs
    assert len(seat_table.rows) == 2 and len(card_table.rows) == 2 * 12 and len(sec.findings) == 13
    # wired into the report through the game's VERDICTS, first among the game's sections
    with pytest.MonkeyPatch.context() as mp:  # the game's own sections (and charts) left out
        mp.setattr(analysis, "sections", lambda ctx: [])
        wired = game_sections(AnalysisContext(two_rungs, tmp_path, "g", "g"))
    assert [s.key for s in wired] == ["verdicts"] and wired[0].findings == sec.findings
    one = replace(two_rungs, games=two_rungs.games.filter(pl.col("strategy") == "greedy,greedy"))
    assert _ladder(one, tmp_path) is None


def test_each_seat_and_card_verdict_is_read_at_each_rung_in_one_holm_family(two_rungs, tmp_path):
    d = _shifted(two_rungs, {"random": 20})  # the first seat resolved at one rung, not at the other
    sec = _ladder(d, tmp_path)
    seats = d.seats.with_columns(pl.col("score").cast(pl.Float64))
    rung_of = {c: s.split(",")[0] for c, s in two_rungs.games.select("cell", "strategy").unique().iter_rows()}
    p_values, resolved = [], []
    for row in sec.tables[1].rows:  # the first seat: points less the table average, one a game
        cell = next(c for c, r in rung_of.items() if r == row[1])
        mine = seats.filter(pl.col("cell") == cell)
        wide = mine.pivot(on="seat", index="game_index", values="score")
        rel = ((wide["0"] - wide["1"]) / 2).to_numpy()
        assert close(row[2], rel.mean()) and row[4] == "300"
        p_values.append(stats.mean_p_value(rel))
        resolved.append(row[5] == "resolved")
    for row in sec.tables[3].rows:  # "players=2: City card 3 vs City card 2" at a rung
        deck, b, a = re.match(r"(\w+) card (\w+) vs \w+ card (\w+)", row[0]).groups()
        column = "city_card" if deck == "City" else "border_card"
        cell = next(c for c, r in rung_of.items() if r == row[1])
        held = seats.filter(pl.col("cell") == cell).with_columns(
            pl.col(column).cast(pl.String).str.to_lowercase()
        )
        ja, jb = (held.filter(pl.col(column) == x.lower()).select("game_index", "score") for x in (a, b))
        diff = (
            ja.join(jb, on="game_index", suffix="_b").select(pl.col("score_b") - pl.col("score")).to_series()
        )
        assert row[4] == f"{diff.len():,}" and close(row[2], diff.mean())
        p_values.append(stats.mean_p_value(diff.to_numpy()))
        resolved.append(row[5] == "resolved")
    assert len(p_values) == 26 and "over 26 comparisons" in sec.tables[1].caption
    assert "over 26 comparisons" in sec.tables[3].caption and "over 26 comparisons" in sec.paragraphs[0]
    assert resolved == list(stats.resolved(p_values)) and resolved[:2] == [True, False]


@pytest.mark.parametrize(
    ("shift", "outcome", "signs"),
    [
        ({"random": 40, "greedy": -40}, "flips (up at random; down at greedy)", "+-"),
        ({"random": 40, "greedy": 40}, "holds at every rung", "++"),
    ],
)
def test_a_first_seat_edge_that_turns_flips_and_one_that_does_not_holds(
    two_rungs, tmp_path, shift, outcome, signs
):
    plain = _ladder(two_rungs, tmp_path).tables[1].rows
    sec = _ladder(two_rungs, tmp_path, shift)
    rows = sec.tables[1].rows
    for row, before in zip(rows, plain, strict=True):
        # 40 points to the first seat move it 20 above the average of a 2-player table
        assert close(row[2], numbers(before[2])[0] + shift[row[1]] / 2)
        assert row[5] == "resolved" and row[6] == outcome
    assert "".join(r[2][0] for r in rows) == signs
    assert sec.findings[0].startswith(
        f"the first seat against the table's average: {outcome} (points, 95 % CI"
    )


def test_a_rung_is_a_mirror_cell_as_the_manifest_lists_its_seats(tmp_path):
    # a player with two parameters is written "greedy:extra_at=3,hood_at=3": commas inside one seat
    spec = {
        "scenario": {"name": "aa params", "game": "alien-attack", "games": 30, "seed": 2},
        "grid": {"strategy": ["greedy", "greedy:extra_at=3,hood_at=3", ["greedy", "random"]]},
        "fixed": {"players": 2},
    }
    run(parse(spec, "test"), tmp_path / "d", backend="sequential", progress=False)
    sec = _ladder(ds_io.load(tmp_path / "d"), tmp_path)
    assert [r[1] for r in sec.tables[0].rows] == ["greedy", "greedy:extra_at=3,hood_at=3"]
