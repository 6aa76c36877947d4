"""The analysis kit's one-panel chart specs: bars stacked from parts (`kit.Stacked`) and a rate a
category as a dot (`kit.RateDots`), each titled, described and saved in a game's words."""

from __future__ import annotations

from simkit.core import stats
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext

WORDS = kit.Words(
    "test",
    {
        "parts.title": "Points by part",
        "parts.axis": "points",
        "parts.alt": "{title} ({subject}): {items}",
        "parts.caption": "Points of {seats} seats.",
        "held.title": "Held",
        "held.axis": "held (%)",
        "held.alt": "{title}: {items}",
        "held.caption": "Of {cells}.",
    },
)


def _ctx(tmp_path) -> AnalysisContext:
    return AnalysisContext(dataset=None, out=tmp_path, name="data", subject="A test")


def test_stacked_draws_the_bars_in_the_games_words(tmp_path) -> None:
    texts = ("parts.title", "parts.axis", "parts.alt", "parts.caption")
    spec = kit.Stacked("t-parts", texts, 6.0, "part")
    parts = {"cards": [3.0, 1.0], "bases": [2.0, 4.0]}
    chart = spec.draw(_ctx(tmp_path), WORDS, ["bold", "shy"], parts, items="bold 5, shy 5", seats=8)
    assert chart.name == "data-t-parts" and chart.title == "Points by part"
    assert chart.alt == "Points by part (A test): bold 5, shy 5" and chart.caption == "Points of 8 seats."
    assert (tmp_path / "data-t-parts.png").is_file() and (tmp_path / "data-t-parts.svg").is_file()
    svg = (tmp_path / "data-t-parts.svg").read_text()
    assert "Points by part: A test" in svg and "points" in svg and "part" in svg  # heading, axis, legend


def test_rate_dots_draws_a_rate_a_category_in_the_games_words(tmp_path) -> None:
    spec = kit.RateDots("t-held", ("held.title", "held.axis", "held.alt", "held.caption"), (5.0, 3.0), "cell")
    rates = [stats.wilson(1, 4), stats.wilson(3, 4)]
    chart = spec.draw(_ctx(tmp_path), WORDS, ["one", "two"], rates, items="one 25 %", cells="4 games")
    assert chart.name == "data-t-held" and chart.title == "Held"
    assert chart.alt == "Held: one 25 %" and chart.caption == "Of 4 games."
    svg = (tmp_path / "data-t-held.svg").read_text()
    assert "Held: A test" in svg and "held (%)" in svg and "two" in svg  # heading, y axis, a category
