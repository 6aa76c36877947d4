"""The game's report sections (analysis.py): numbers against a direct computation from the games
table, chart files, findings with intervals and game counts, and datasets without a grid."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl
import pytest

from simkit.core import stats
from simkit.core.dataset import load
from simkit.core.runner import run
from simkit.core.scenario import parse
from simkit.games.oh_no_invasion import analysis
from simkit.reporting.render import write_report
from simkit.reporting.sections import AnalysisContext


def _scenario(name: str, games: int, grid: dict, fixed: dict, parameters: dict | None = None) -> dict:
    doc = {"scenario": {"name": name, "game": "oh-no-invasion", "games": games, "seed": 7}, "fixed": fixed}
    if grid:
        doc["grid"] = grid
    if parameters:
        doc["parameters"] = parameters
    return doc


def _run(tmp: Path, name: str, doc: dict) -> Path:
    out = tmp / name
    run(parse(doc, "test"), out, backend="sequential", progress=False)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("ohno-analysis")
    return {
        "grid": _run(
            tmp,
            "grid",
            _scenario(
                "levels",
                24,
                {"level": [1, 3], "players": [3, 4], "strategy": ["cautious", "bold"]},
                {},
                {"final_conflict": 6.0},
            ),
        ),
        "sweep": _run(
            tmp,
            "sweep",
            _scenario(
                "sweep",
                30,
                {"level": [1], "strategy": ["bold"]},
                {"players": 4},
                {"final_conflict": [3.0, 6.0, 9.0]},
            ),
        ),
        "one": _run(tmp, "one", _scenario("one cell", 20, {}, {"level": 2, "players": 3})),
    }


@pytest.fixture(scope="module")
def built(runs, tmp_path_factory) -> dict[str, tuple[dict, Path]]:
    """The report over the three datasets, and each dataset's sections as the report built them
    (recorded on the way, so that the charts are rendered once)."""
    out = tmp_path_factory.mktemp("ohno-report")
    seen: dict[str, tuple[dict, Path]] = {}
    original = analysis.sections

    def recording(ctx: AnalysisContext):
        result = original(ctx)
        seen[ctx.name] = ({s.key: s for s in result}, ctx.out)
        return result

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(analysis, "sections", recording)
        write_report([runs["grid"], runs["sweep"], runs["one"]], out)
    return {"report": ({}, out), **seen}


@pytest.fixture(scope="module")
def report(built) -> Path:
    return built["report"][1]


def _games(path: Path) -> pl.DataFrame:
    """The games, with the crews' threshold read from the strategy spec (6 where it is left out)."""
    threshold = pl.col("strategy").str.extract(r"final_conflict=([0-9.]+)").cast(pl.Float64).fill_null(6.0)
    return load(path).games.with_columns(threshold.alias("final_conflict"))


def test_report_holds_the_sections_and_their_charts(report):
    html = (report / "index.html").read_text(encoding="utf-8")
    for title in ("Win rate by level, crew size and crew", "Why games are lost", "Score distribution"):
        assert title in html
    assert "When to call the Final Conflict" in html  # the sweep dataset
    for stem in (
        "grid-ohno-win-grid",
        "grid-ohno-outcomes",
        "grid-ohno-eliminations",
        "grid-ohno-scores",
        "sweep-ohno-threshold",
        "one-ohno-win-grid",
    ):
        assert (report / f"{stem}.png").is_file(), stem
        assert (report / f"{stem}.svg").is_file(), stem
    assert not (report / "grid-ohno-threshold.png").exists()  # no sweep in the grid dataset


def test_win_grid_matches_the_games_table(runs, built):
    secs, out = built["grid"]
    sec = secs["ohno-win-grid"]
    assert "ohno-final-conflict" not in secs
    g = _games(runs["grid"])
    direct = g.group_by("level", "players", "strategy").agg(n=pl.len(), wins=pl.col("won").sum())
    table = sec.tables[0]
    assert len(table.rows) == direct.height == 8
    for r in direct.iter_rows(named=True):
        row = next(x for x in table.rows if x[:3] == [str(r["level"]), str(r["players"]), r["strategy"]])
        w = stats.wilson(r["wins"], r["n"])
        assert row[3:] == [
            f"{r['n']:,}",
            f"{r['wins']:,}",
            f"{100 * w.estimate:.1f} %",
            f"{100 * w.low:.1f} to {100 * w.high:.1f} %",
        ]
    # the level comparison for each crew is the paired difference of the same games
    comp = sec.tables[1]
    for crew in ("cautious", "bold"):
        mine = g.filter(pl.col("strategy") == crew).sort("players", "game_index")
        a = mine.filter(pl.col("level") == 1)["won"].to_numpy()
        b = mine.filter(pl.col("level") == 3)["won"].to_numpy()
        d = stats.paired_difference(a, b)
        row = next(x for x in comp.rows if x[0].startswith("level 3 vs level 1") and x[1] == crew)
        assert row[2] == f"{len(a):,}"
        assert row[3] == f"{100 * d.difference:+.1f}"
        assert row[4] == f"{100 * d.low:+.1f} to {100 * d.high:+.1f}"
    assert sec.findings
    for f in sec.findings:
        assert "95 % CI" in f and "games" in f
    assert any("paired by seed" in f for f in sec.findings)
    assert [c.png_file for c in sec.charts] == ["grid-ohno-win-grid.png"]
    assert (out / "grid-ohno-win-grid.png").is_file()


def test_losses_match_the_games_table(runs, built):
    sec = built["grid"][0]["ohno-losses"]
    g = _games(runs["grid"])
    table = sec.tables[0]
    cols = table.columns
    for (lv, crew), part in g.group_by("level", "strategy"):
        row = next(x for x in table.rows if x[:2] == [str(lv), crew])
        n = part.height
        lost = int((~part["won"]).sum())
        w = stats.wilson(lost, n)
        assert row[2] == f"{n:,}"
        assert row[3] == f"{100 * w.estimate:.1f} % ({100 * w.low:.1f} to {100 * w.high:.1f} %)"
        if "eight shields complete" in cols:
            k = int((part["end_reason"] == "shields_complete").sum())
            assert row[cols.index("eight shields complete")].startswith(f"{100 * k / n:.1f} %")
        kam = stats.mean_interval(part["eliminated_kamikaze"].to_numpy())
        assert row[cols.index("eliminated per game: kamikaze (Final Conflict)")] == (
            f"{kam.estimate:.2f} ({kam.low:.2f} to {kam.high:.2f})"
        )
    for f in sec.findings:
        assert "95 % CI" in f and "games" in f
    assert len(sec.charts) == 2


def test_scores_match_the_games_table(runs, built):
    sec = built["grid"][0]["ohno-scores"]
    g = _games(runs["grid"])
    for (lv, p, crew), part in g.group_by("level", "players", "strategy"):
        row = next(x for x in sec.tables[0].rows if x[:3] == [str(lv), str(p), crew])
        m = stats.mean_interval(part["score"].cast(pl.Float64).to_numpy())
        assert row[4] == f"{m.estimate:.2f} ({m.low:.2f} to {m.high:.2f})"
        assert row[6] == f"{int(part['won'].sum()):,}"
        zero = stats.wilson(int((part["score"] == 0).sum()), part.height)
        assert row[5] == f"{100 * zero.estimate:.1f} % ({100 * zero.low:.1f} to {100 * zero.high:.1f} %)"
        won = part.filter(pl.col("won"))["score"].cast(pl.Float64).to_numpy()
        if len(won) > 1:
            mw = stats.mean_interval(won)
            assert row[7] == f"{mw.estimate:.2f} ({mw.low:.2f} to {mw.high:.2f})"
    for f in sec.findings:
        assert "95 % CI" in f and "games" in f


def test_threshold_sweep_names_the_best_threshold(runs, built):
    secs = built["sweep"][0]
    sec = secs["ohno-final-conflict"]
    g = _games(runs["sweep"])
    rates = g.group_by("final_conflict").agg(n=pl.len(), wins=pl.col("won").sum()).sort("final_conflict")
    best = max(rates.iter_rows(named=True), key=lambda r: (r["wins"] / r["n"], -r["final_conflict"]))
    w = stats.wilson(best["wins"], best["n"])
    row = sec.tables[0].rows[0]
    assert row[:6] == [
        "1",
        "bold",
        f"{best['final_conflict']:g}",
        f"{100 * w.estimate:.1f} %",
        f"{100 * w.low:.1f} to {100 * w.high:.1f} %",
        f"{best['n']:,}",
    ]
    # neighbours compared as pairs of the same seeds
    ts = rates["final_conflict"].to_list()
    i = ts.index(best["final_conflict"])
    bw = g.filter(pl.col("final_conflict") == best["final_conflict"]).sort("game_index")["won"].to_numpy()
    for j, col in ((i - 1, 6), (i + 1, 7)):
        if 0 <= j < len(ts):
            nw = g.filter(pl.col("final_conflict") == ts[j]).sort("game_index")["won"].to_numpy()
            d = stats.paired_difference(nw, bw)
            assert (
                row[col]
                == f"vs {ts[j]:g}: {100 * d.difference:+.1f} ({100 * d.low:+.1f} to {100 * d.high:+.1f})"
            )
        else:
            assert row[col].startswith("none")
    assert len(sec.tables[1].rows) == 3
    assert len(sec.findings) == 1
    assert "best threshold" in sec.findings[0] and "95 % CI" in sec.findings[0] and "games" in sec.findings[0]
    # the other sections use only the default threshold's games
    grid = secs["ohno-win-grid"].tables[0].rows
    assert len(grid) == 1 and grid[0][3] == f"{g.filter(pl.col('final_conflict') == 6.0).height:,}"


def test_one_cell_and_missing_columns_do_not_crash(runs, built, tmp_path, monkeypatch):
    secs = built["one"][0]
    assert set(secs) == {"ohno-win-grid", "ohno-losses", "ohno-scores"}
    assert len(secs["ohno-win-grid"].tables) == 1  # nothing to compare
    # the variants below check the logic only: charts are not rendered again
    monkeypatch.setattr(analysis.charts, "save_chart", lambda fig, out, name, *a: name)
    d = load(runs["one"])
    bare = dataclasses.replace(d, games=d.games.drop("level", "players", "strategy"))
    secs = {s.key: s for s in analysis.sections(AnalysisContext(bare, tmp_path, "bare", "bare"))}
    assert "ohno-win-grid" in secs and "ohno-final-conflict" not in secs
    few = dataclasses.replace(
        d, games=d.games.select("cell", "game_index", "won", "score", "length", "end_reason")
    )
    assert {s.key for s in analysis.sections(AnalysisContext(few, tmp_path, "few", "few"))} >= {"ohno-scores"}
    empty = dataclasses.replace(d, games=d.games.head(0))
    assert analysis.sections(AnalysisContext(empty, tmp_path, "empty", "empty")) == []
