"""Space Alert's report sections (analysis.py): numbers against a direct computation from the games
table, chart files, interval wording, and datasets that lack part of the grid or columns."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simkit.core import dataset, runner, scenario, stats
from simkit.games.space_alert import analysis
from simkit.reporting import write_report
from simkit.reporting.sections import AnalysisContext

GAMES = 20


def run(out: Path, grid: dict, fixed: dict, games: int = GAMES) -> Path:
    doc = {
        "scenario": {
            "name": "sa test",
            "game": "space-alert",
            "games": games,
            "seed": 7,
            "chunk_size": games,
        },
        "grid": grid,
        "fixed": {"players": 4, "figures": 4, "hands": "dealt", **fixed},
    }
    runner.run(scenario.parse(doc, "test"), out, backend="sequential", progress=False)
    return out


@pytest.fixture(scope="module")
def grid(tmp_path_factory) -> tuple[Path, Path, dict]:
    """Random and transcribed missions, two deck colours (scripted crew only), two crews; the report
    built on it and the sections analysis.py gave the report."""
    base = tmp_path_factory.mktemp("sa")
    d = run(
        base / "d",
        {"mission": ["test", "real", "3", "7"], "strategy": ["scripted", "random"]},
        {"serious": "white", "common": "white"},
    )
    given: list = []
    real = analysis.sections

    def spy(ctx):
        given.extend(real(ctx))
        return given

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(analysis, "sections", spy)
        index = write_report([d], base / "r")
    return d, index, {s.key: s for s in given}


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def ci(iv: stats.Interval) -> str:
    return f"{100 * iv.low:.1f} to {100 * iv.high:.1f} %"


def test_report_holds_every_section_and_chart(grid):
    d, index, _ = grid
    html = index.read_text(encoding="utf-8")
    for title in ("survival and score by difficulty", "threats behind losses", "damage by zone", "ranked by"):
        assert title in html
    for what in ("survival", "threats", "damage", "missions"):
        assert (index.parent / f"d-sa-{what}.png").is_file()
        assert (index.parent / f"d-sa-{what}.svg").is_file()


def test_findings_carry_intervals_and_game_counts(grid):
    _, _, secs = grid
    for s in secs.values():
        assert s.findings
        for f in s.findings:
            assert "95 % CI" in f, f
            assert "games" in f, f
    # the crews and the deck colours are compared as pairs
    text = " ".join(secs["sa-survival"].findings)
    assert "strategy=random" in text and "paired by seed" in text
    assert "mission=real" in text  # random missions compared; transcribed ones go to the ranking
    assert "mission=3 " not in text and "mission=7 " not in text


def test_survival_table_matches_the_games_table(grid):
    d, _, secs = grid
    games = dataset.load(d).games
    table = secs["sa-survival"].tables[0]
    assert len(table.rows) == games["cell"].n_unique() == 8
    per_cell = games.group_by("mission", "strategy").agg(
        n=pl.len(), wins=pl.col("won").sum(), scores=pl.col("score")
    )
    for r in per_cell.iter_rows(named=True):
        diff = f"mission={r['mission']}"
        row = next(x for x in table.rows if x[0] == diff and x[1] == r["strategy"])
        iv = stats.wilson(r["wins"], r["n"])
        m = stats.mean_interval(np.array(r["scores"], dtype=float))
        assert row[2:6] == [str(r["n"]), str(r["wins"]), pct(iv.estimate), ci(iv)]
        assert row[6] == f"{m.estimate:,.2f}"


def test_strategy_comparison_is_the_paired_difference(grid):
    d, _, secs = grid
    g = dataset.load(d).games.sort("cell", "game_index")
    a = g.filter(pl.col("strategy") == "scripted").sort("mission", "game_index")
    b = g.filter(pl.col("strategy") == "random").sort("mission", "game_index")
    p = stats.paired_difference(a["won"].to_numpy(), b["won"].to_numpy())
    text = next(f for f in secs["sa-survival"].findings if "strategy=random" in f)
    assert f"{100 * p.low:+.1f} to {100 * p.high:+.1f} points" in text
    assert f"{p.n:,} pairs of games" in text


def test_threat_table_matches_the_games_table(grid):
    d, _, secs = grid
    g = dataset.load(d).games
    losses = g.filter(~pl.col("won"))
    table = secs["sa-threats"].tables[0]
    assert table.rows
    counts = losses.filter(pl.col("lost_to") != "")["lost_to"].value_counts()
    top = counts["count"].max()
    first = table.rows[0]
    tid = first[0].split(" ")[0]
    assert int(first[2]) == top == counts.filter(pl.col("lost_to") == tid)["count"][0]
    present = int(g["threat_ids"].str.split(",").list.contains(tid).sum())
    destroyed = int(g["destroyed_ids"].str.split(",").list.contains(tid).sum())
    assert int(first[1].replace(",", "")) == present
    share, rate = stats.wilson(top, losses.height), stats.wilson(top, present)
    kill = stats.wilson(destroyed, present)
    assert first[3:9] == [
        pct(share.estimate),
        ci(share),
        pct(rate.estimate),
        ci(rate),
        pct(kill.estimate),
        ci(kill),
    ]


def test_damage_table_matches_the_games_table(grid):
    d, _, secs = grid
    g = dataset.load(d).games
    table = secs["sa-damage"].tables[0]
    for row in table.rows:
        cell = g.filter((pl.col("mission") == row[0].split("=")[1]) & (pl.col("strategy") == row[1]))
        for k, zone in enumerate(analysis.ZONES):
            iv = stats.mean_interval(cell[f"damage_{zone}"].to_numpy().astype(float))
            assert row[3 + 2 * k] == f"{iv.estimate:,.2f}"
            assert row[4 + 2 * k] == f"{iv.low:,.2f} to {iv.high:,.2f}"
    destroyed = g.filter(pl.col("end_reason") == "zone_destroyed").height
    if destroyed:
        assert any(
            f"Of the {destroyed:,} games lost to a 7th damage tile" in f for f in secs["sa-damage"].findings
        )


def test_transcribed_missions_are_ranked_by_survival(grid):
    d, _, secs = grid
    g = dataset.load(d).games
    rows = secs["sa-missions"].tables[0].rows
    for strategy in ("scripted", "random"):
        mine = [r for r in rows if r[1] == strategy]
        assert [r[0] for r in mine] != [] and {r[0] for r in mine} == {"mission 3", "mission 7"}
        rates = []
        for r in mine:
            part = g.filter((pl.col("mission") == r[0].split()[1]) & (pl.col("strategy") == strategy))
            iv = stats.wilson(int(part["won"].sum()), part.height)
            assert r[3:6] == [str(part.height), pct(iv.estimate), ci(iv)]
            rates.append(iv.estimate)
        assert rates == sorted(rates)  # hardest first
    # random missions stay out of the ranking and transcribed ones are ranked, not compared in section 1
    assert not any("mission 3" in r[0] and r[0] != "mission 3" for r in rows)


def test_one_cell_dataset_and_missing_columns(tmp_path):
    d = run(tmp_path / "one", {"mission": ["test"]}, {"common": "white", "serious": "white"}, games=15)
    ds = dataset.load(d)
    out = tmp_path / "out"
    out.mkdir()
    secs = {s.key: s for s in analysis.sections(AnalysisContext(ds, out, "one", "one"))}
    assert set(secs) == {"sa-survival", "sa-threats", "sa-damage"}  # no transcribed mission
    assert len(secs["sa-survival"].findings) == 1  # nothing to compare
    assert re.search(r"survives .* of games \(95 % CI", secs["sa-survival"].findings[0])

    # an older record without the threat and damage columns: those sections are left out
    bare = dataclasses.replace(
        ds, games=ds.games.drop("lost_to", "threat_ids", "damage_red", "damage_white", "damage_blue")
    )
    keys = [s.key for s in analysis.sections(AnalysisContext(bare, out, "bare", "bare"))]
    assert keys == ["sa-survival"]

    # no losses at all: the threat section says so
    won = dataclasses.replace(
        ds, games=ds.games.with_columns(pl.lit(True).alias("won"), pl.lit("").alias("lost_to"))
    )
    secs = {s.key: s for s in analysis.sections(AnalysisContext(won, out, "won", "won"))}
    assert "never lost" in secs["sa-threats"].findings[0]
    assert not secs["sa-threats"].charts

    # losses that name no threat are counted apart
    lost = ds.games.with_columns(pl.lit(False).alias("won"), pl.lit(None, pl.String).alias("lost_to"))
    secs = {
        s.key: s
        for s in analysis.sections(AnalysisContext(dataclasses.replace(ds, games=lost), out, "x", "x"))
    }
    n = ds.games.height
    assert secs["sa-threats"].findings == [
        f"{n} of {n} losses name no threat (100.0 %, 95 % CI {ci(stats.wilson(n, n))})."
    ]

    # an empty games table gives no sections
    empty = dataclasses.replace(ds, games=ds.games.clear())
    assert analysis.sections(AnalysisContext(empty, out, "empty", "empty")) == []
