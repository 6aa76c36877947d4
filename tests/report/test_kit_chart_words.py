"""A chart's words as a spec (`kit.ChartWords`) and intervals as `charts.interval_dots` takes them
(`charts.bounds`)."""

from __future__ import annotations

from simkit.core import stats
from simkit.reporting import charts, kit
from simkit.reporting.sections import AnalysisContext

WORDS = kit.Words(
    "test",
    {
        "rate.title": "Win rate",
        "rate.alt": "{title} of {subject} by cell: {items}",
        "rate.caption": "Dots with 95 % intervals; {games}.",
    },
)


def test_chart_words_title_the_chart_and_fill_its_alt_text_and_caption(tmp_path) -> None:
    spec = kit.ChartWords("t-rate", ("rate.title", "rate.alt", "rate.caption"))
    ctx = AnalysisContext(dataset=None, out=tmp_path, name="data", subject="A scenario")
    assert spec.heading(WORDS, ctx) == "Win rate: A scenario"
    with charts.one_panel(4.0, 3.0) as (fig, ax):
        ax.plot([0, 1], [20.0, 40.0])
    chart = spec.save(ctx, WORDS, fig, items="a 20 %; b 40 %", games="9 games", unused="left alone")
    assert chart.name == "data-t-rate" and chart.title == "Win rate"
    assert chart.alt == "Win rate of A scenario by cell: a 20 %; b 40 %"
    assert chart.caption == "Dots with 95 % intervals; 9 games."
    assert (tmp_path / "data-t-rate.png").is_file() and (tmp_path / "data-t-rate.svg").is_file()


def test_bounds_are_the_estimates_and_the_bounds_in_order() -> None:
    rates = [stats.Interval(0.5, 0.4, 0.6, 100), stats.Interval(0.2, 0.1, 0.35, 50)]
    assert charts.bounds(rates) == ([0.5, 0.2], [0.4, 0.1], [0.6, 0.35])
    assert charts.bounds([]) == ([], [], [])
