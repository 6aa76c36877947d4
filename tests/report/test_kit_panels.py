"""The analysis kit's panel-chart spec (`kit.Panels`), win-rate axis (`kit.rate_top`) and paired
comparison inside a games frame (`kit.paired_in`)."""

from __future__ import annotations

import polars as pl
import pytest

from simkit.core import stats
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext


def test_panels_draws_a_panel_an_item_with_the_games_words(tmp_path, monkeypatch) -> None:
    package = tmp_path / "panel_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / kit.WORDS_FILE).write_text(
        '[rate]\ntitle = "Win rate"\nalt = "{title} by level. {items}"\ncaption = "Bars by level; {games}."\n',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    words = kit.words("panel_game")
    spec = kit.Panels("pg-rate", ("rate.title", "rate.alt", "rate.caption"), (3.0, 3.0), "win rate (%)")
    ctx = AnalysisContext(dataset=None, out=tmp_path, name="data", subject="A scenario")
    drawn = []

    def draw(ax, item: str) -> None:
        drawn.append(item)
        ax.bar([0, 1], [20.0, 40.0], label=item)

    chart = spec.draw(
        ctx,
        words,
        ["bold", "cautious"],
        draw,
        "bold 20 %; cautious 40 %",
        {"ncols": 2},
        (0, 50),
        games="9 games",
    )
    assert drawn == ["bold", "cautious"]
    assert chart.name == "data-pg-rate" and chart.title == "Win rate"
    assert chart.alt == "Win rate by level. bold 20 %; cautious 40 %"
    assert chart.caption == "Bars by level; 9 games."
    assert (tmp_path / "data-pg-rate.png").is_file() and (tmp_path / "data-pg-rate.svg").is_file()


def test_rate_top_clears_the_highest_interval_on_a_multiple_of_five() -> None:
    assert kit.rate_top([stats.Interval(0.3, 0.25, 0.41, 100)]) == 50.0  # 41 % x 1.1 = 45.1 -> 50
    assert kit.rate_top([stats.Interval(0.0, 0.0, 0.01, 100)]) == 5.0  # never below 5 %
    assert kit.rate_top([stats.Interval(0.99, 0.97, 1.0, 100)]) == 100.0  # never above 100 %


def test_paired_in_pairs_by_game_index_and_the_other_settings() -> None:
    # two crews at two levels; game i deals alike everywhere; one game without a verdict is left out
    games = pl.DataFrame(
        {
            "level": [1] * 8 + [3] * 8,
            "strategy": (["bold"] * 4 + ["cautious"] * 4) * 2,
            "game_index": list(range(4)) * 4,
            "won": [True, True, False, True] + [True, False, False, False] + [False, True, False, None] * 2,
            "score": [3.0] * 16,
        }
    )
    paired = kit.paired_in(games, ("level", "strategy"), "level", 1, 3)
    assert paired is not None and paired.cells == 2  # bold with bold, cautious with cautious
    # games 0-2 of each crew (game 3 has no verdict at level 3): bold won 1 1 0 at level 1 and
    # 0 1 0 at level 3, cautious 1 0 0 and 0 1 0: 3 wins of 6 pairs against 2
    assert paired.wins.n == 6
    assert paired.wins.difference == pytest.approx((2 - 3) / 6)
    assert kit.paired_in(games, ("level", "strategy"), "level", 1, 2) is None  # no level 2
