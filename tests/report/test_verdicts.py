"""The "Does the verdict hold?" section (reporting/verdicts.py): the classification of a verdict
over the rungs, and its numbers against a direct paired computation on a real dataset."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core import stats
from simkit.core.dataset import load
from simkit.core.runner import run
from simkit.core.scenario import parse
from simkit.reporting import verdicts
from simkit.reporting.sections import AnalysisContext, game_sections
from simkit.reporting.text import points


def m(rung: str, difference: float, resolved: bool) -> verdicts.Measure:
    return verdicts.Measure(
        "level", "1", "3", rung, difference, difference - 0.1, difference + 0.1, 100, 0.01, resolved
    )


@pytest.mark.parametrize(
    ("measures", "outcome"),
    [
        ([m("a", -0.2, True), m("b", -0.1, True)], "holds at every rung"),
        ([m("a", 0.2, True), m("b", 0.3, True)], "holds at every rung"),
        ([m("a", -0.2, True), m("b", 0.1, True), m("c", 0.1, False)], "flips (up at b; down at a)"),
        ([m("a", -0.2, True), m("b", -0.01, False)], "holds where resolved; unresolved at b"),
        ([m("a", 0.0, False), m("b", 0.0, False)], "unresolved at every rung"),
    ],
)
def test_a_verdict_holds_flips_or_is_unresolved(measures, outcome):
    assert verdicts._verdict(measures) == outcome


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "d"
    doc = {
        "scenario": {"name": "ladder", "game": "oh-no-invasion", "games": 300, "seed": 4},
        "grid": {"level": [1, 3], "strategy": ["random", "cautious", "bold"]},
    }
    run(parse(doc, "test"), out, backend="sequential", progress=False)
    return load(out)


def test_each_rung_is_measured_paired_and_adjusted_over_the_family(ladder, tmp_path):
    sec = verdicts.section(AnalysisContext(ladder, tmp_path, "ladder", "ladder"))
    assert sec is not None and sec.title == "Does the verdict hold?"
    rows = sec.tables[1].rows
    assert [r[1] for r in rows] == ["random", "cautious", "bold"]
    g = ladder.games.sort("game_index")
    p_values = []
    for rung, row in zip(["random", "cautious", "bold"], rows, strict=True):
        a = g.filter((g["strategy"] == rung) & (g["level"] == 1))["won"].to_numpy().astype(bool)
        b = g.filter((g["strategy"] == rung) & (g["level"] == 3))["won"].to_numpy().astype(bool)
        d = stats.paired_difference(a, b)
        p_values.append(d.p_value)
        assert row[2] == points(d.difference) and row[4] == f"{d.n:,}"
    adjusted = stats.resolved(p_values)
    assert [r[5] == "resolved" for r in rows] == list(adjusted)
    rates = {r[0]: r for r in sec.tables[0].rows}
    won = g.filter(g["strategy"] == "bold")["won"]
    w = stats.wilson(int(won.sum()), won.len())
    assert rates["bold"][2] == f"{w.n:,}" and f"{100 * w.estimate:.1f} %" in rates["bold"][1]
    assert len(sec.findings) == 1 and sec.findings[0].startswith("level=3 against level=1: ")
    assert np.isfinite(p_values).all()


def test_the_section_needs_strategies_and_a_setting_to_vary(ladder, tmp_path):
    one = ladder.games.filter(ladder.games["strategy"] == "bold")
    from dataclasses import replace

    ctx = AnalysisContext(replace(ladder, games=one), tmp_path, "one", "one")
    assert verdicts.section(ctx) is None
    keys = [s.key for s in game_sections(AnalysisContext(ladder, tmp_path, "all", "all"))]
    assert keys[0] == "verdicts"
