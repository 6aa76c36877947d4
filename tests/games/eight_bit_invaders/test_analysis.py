"""8-Bit Invaders' report sections (analysis.py): numbers against a direct polars computation from
the games table, chart files, findings with intervals and game counts, and datasets that hold only
part of the grid (one cell; countdown only)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from simkit.core import dataset, runner, scenario, stats
from simkit.games.eight_bit_invaders import analysis
from simkit.reporting import render
from simkit.reporting import text as page_text
from simkit.reporting.sections import AnalysisContext

GAME = "eight-bit-invaders"


def run(out: Path, grid: dict, games: int, name: str) -> Path:
    doc = {"scenario": {"name": name, "game": GAME, "games": games, "seed": 5}, "grid": grid}
    runner.run(scenario.parse(doc, "test"), out, backend="sequential", progress=False)
    return out


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("ebi-analysis")
    data = run(
        tmp / "d",
        {"countdown": [7, 6], "dice": [6, 5], "strategy": ["random", "greedy"]},
        30,
        "ebi grid",
    )
    report = tmp / "r"
    render.write_report([data], report)
    return data, report


@pytest.fixture(scope="module")
def full_sections(full: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> dict:
    return game_sections(full[0], tmp_path_factory.mktemp("ebi-sections"))


def game_sections(data: Path, out: Path) -> dict:
    out.mkdir(exist_ok=True)
    ctx = AnalysisContext(dataset.load(data), out, "t", "test")
    return {s.key: s for s in analysis.sections(ctx)}


def rate_text(k: int, n: int) -> str:
    w = stats.wilson(k, n)
    return f"{100 * w.estimate:.1f} % ({100 * w.low:.1f} to {100 * w.high:.1f} %; n={n:,})"


def test_report_holds_both_sections_and_charts(full: tuple[Path, Path]) -> None:
    data, report = full
    html = (report / "index.html").read_text(encoding="utf-8")
    for key in ("difficulty-grid", "loss-reasons"):
        assert f'id="ds-d-{key}"' in html
    for chart in ("difficulty-grid", "difficulty-steps", "loss-reasons"):
        for ext in ("png", "svg"):
            assert (report / f"d-{chart}.{ext}").stat().st_size > 1000


def test_difficulty_numbers_match_the_games_table(full: tuple[Path, Path], full_sections: dict) -> None:
    data, _ = full
    secs = full_sections
    grid_table, step_table = secs["difficulty-grid"].tables
    games = dataset.load(data).games
    rows = {r[0]: r[1:] for r in grid_table.rows}
    assert grid_table.columns[1:] == ["6 attack dice", "5 attack dice"]
    for s in ("random", "greedy"):
        for c in (7, 6):
            for j, d in enumerate((6, 5)):
                cell = games.filter(
                    (pl.col("strategy") == s) & (pl.col("countdown") == c) & (pl.col("dice") == d)
                )
                assert rows[f"{s}, countdown {c}"][j] == rate_text(int(cell["won"].sum()), cell.height)

    # every paired step, recomputed by joining the two cells on game_index
    def cell(s: str, c: int, d: int) -> pl.DataFrame:
        return games.filter((pl.col("strategy") == s) & (pl.col("countdown") == c) & (pl.col("dice") == d))

    expected = {
        "countdown 7 → 6 (at 6 dice)": ((7, 6), (6, 6)),
        "countdown 7 → 6 (at 5 dice)": ((7, 5), (6, 5)),
        "dice 6 → 5 (at countdown 7)": ((7, 6), (7, 5)),
        "dice 6 → 5 (at countdown 6)": ((6, 6), (6, 5)),
        "both: countdown=7 dice=6 → countdown=6 dice=5": ((7, 6), (6, 5)),
        "fewer dice (countdown=7 dice=5) vs fewer cards (countdown=6 dice=6)": ((6, 6), (7, 5)),
    }
    assert len(step_table.rows) == 2 * len(expected)
    for row in step_table.rows:
        a, b = expected[row[1]]
        joined = cell(row[0], *a).join(cell(row[0], *b), on="game_index", suffix="_b")
        w = stats.paired_difference(joined["won"].to_numpy(), joined["won_b"].to_numpy())
        pts = page_text.points  # signed points, an exact zero unsigned
        assert row[4] == f"{pts(w.difference)} ({pts(w.low)} to {pts(w.high)})"
        assert row[5] == f"{joined.height:,}"
        assert row[6] == f"{w.a_only:,} / {w.b_only:,}"

    # "resolved" is decided over the family of every step in the table (Holm), not one by one
    p_values = []
    for row in step_table.rows:
        a, b = expected[row[1]]
        joined = cell(row[0], *a).join(cell(row[0], *b), on="game_index", suffix="_b")
        p_values.append(stats.paired_difference(joined["won"].to_numpy(), joined["won_b"].to_numpy()).p_value)
    holm = stats.adjust(p_values)
    assert [row[7] for row in step_table.rows] == ["yes" if p < 0.05 else "no" for p in holm]
    assert (
        f"the Holm adjustment (family-wise error rate 5 %) over {len(p_values)} comparisons"
        in step_table.caption
    )

    findings = secs["difficulty-grid"].findings
    assert findings
    for f in findings:
        assert "95 % CI" in f and "games" in f


def test_loss_numbers_match_the_games_table(full: tuple[Path, Path], full_sections: dict) -> None:
    data, _ = full
    sec = full_sections["loss-reasons"]
    shares, detail, shift = sec.tables
    games = dataset.load(data).games
    counts = games.group_by("strategy", "countdown", "dice", "end_reason").len()
    by_row = {r[0]: r for r in shares.rows}
    assert len(by_row) == 8
    for (s, c, d), part in games.group_by("strategy", "countdown", "dice"):
        row = by_row[f"{s}, countdown={c} dice={d}"]
        assert row[1] == f"{part.height:,}"
        for j, reason in enumerate(("cleared", "shot_down", "landed")):
            k = counts.filter(
                (pl.col("strategy") == s)
                & (pl.col("countdown") == c)
                & (pl.col("dice") == d)
                & (pl.col("end_reason") == reason)
            )["len"].sum()
            assert row[2 + j] == rate_text(int(k), part.height)
    for row in detail.rows:
        s, rest = row[0].split(", ", 1)
        c, d = (int(x.split("=")[1]) for x in rest.split())
        lost = games.filter(
            (pl.col("strategy") == s)
            & (pl.col("countdown") == c)
            & (pl.col("dice") == d)
            & (pl.col("won").not_())
        )
        assert row[1] == f"{lost.height:,}"
        assert row[2] == rate_text(int((lost["end_reason"] == "shot_down").sum()), lost.height)
    assert len(shift.rows) == 2 * 3
    assert sec.findings
    for f in sec.findings:
        assert "95 % CI" in f and "games" in f


def test_partial_datasets(tmp_path: Path) -> None:
    # one cell: no grid to show, but the loss reasons still make sense
    one = run(tmp_path / "one", {"strategy": ["random"]}, 15, "one cell")
    secs = game_sections(one, tmp_path / "r1")
    assert list(secs) == ["loss-reasons"]
    assert len(secs["loss-reasons"].tables) == 2  # no harder difficulty to compare with

    # countdown only: single steps, no "both" and no dice-against-countdown row
    part = run(tmp_path / "cd", {"countdown": [7, 6], "strategy": ["random"]}, 15, "countdown only")
    secs = game_sections(part, tmp_path / "r2")
    steps = secs["difficulty-grid"].tables[1].rows
    assert [r[1] for r in steps] == ["countdown 7 → 6 (at 6 dice)"]
    assert (tmp_path / "r2" / "t-difficulty-steps.svg").exists()

    # no game at all in the frame (a filtered dataset): nothing, and no crash
    d = dataset.load(part)
    d.games = d.games.head(0)
    assert analysis.sections(AnalysisContext(d, tmp_path / "r2", "e", "empty")) == []
