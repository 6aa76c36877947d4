"""Chart pieces for panels of categories: `charts.panel_axis`, `charts.stacked_bars` standing up,
`charts.share_bars` (dodged bars of shares with Wilson whiskers), and the alt text of a group's
shares (`text.shares_item`)."""

from __future__ import annotations

import pytest

from simkit.core import stats
from simkit.reporting import charts, text


def _axes():
    return charts.new_figure(3, 3).add_subplot()


def test_panel_axis_labels_the_categories_names_the_axis_and_titles_the_panel() -> None:
    ax = _axes()
    charts.panel_axis(ax, ["0", "1", "-"], "level", "bold crew")
    assert list(ax.get_xticks()) == [0, 1, 2]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "-"]
    assert (ax.get_xlabel(), ax.get_title(loc="left")) == ("level", "bold crew")
    every_other = _axes()
    charts.panel_axis(every_other, ["0", "10"], "score", "", ticks=[0, 2])
    assert list(every_other.get_xticks()) == [0, 2]


def test_stacked_bars_stand_up_one_a_label_each_part_on_the_last() -> None:
    ax = _axes()
    charts.stacked_bars(ax, ["0", "1"], {"won": [60.0, 20.0], "lost": [40.0, 80.0]}, upright=True)
    bars = [(p.get_x() + p.get_width() / 2, p.get_y(), p.get_height()) for p in ax.patches]
    assert bars == [(0, 0, 60), (1, 0, 20), (0, 60, 40), (1, 20, 80)]
    assert [c.get_label() for c in ax.containers] == ["won", "lost"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1"]
    unnamed = _axes()
    charts.stacked_bars(unnamed, ["0"], {"won": [50.0]}, upright=True, named=False)
    assert unnamed.get_legend_handles_labels() == ([], [])


def test_stacked_bars_lie_down_from_the_top_by_default() -> None:
    ax = _axes()
    charts.stacked_bars(ax, ["a", "b"], {"x": [1.0, 2.0], "y": [3.0, 1.0]})
    bars = [(p.get_y() + p.get_height() / 2, p.get_x(), p.get_width()) for p in ax.patches]
    assert bars == [(0, 0, 1), (1, 0, 2), (0, 1, 3), (1, 2, 1)]
    assert ax.yaxis_inverted()


def test_share_bars_dodge_a_group_and_whisker_each_share_by_wilson() -> None:
    ax = _axes()
    charts.share_bars(ax, [1, 3], 4, group=1, groups=2, label="bold")
    [bars] = [c for c in ax.containers if hasattr(c, "patches")]
    assert ax.get_legend_handles_labels()[1] == ["bold"]
    assert [p.get_height() for p in bars.patches] == [25.0, 75.0]
    assert [p.get_x() + p.get_width() / 2 for p in bars.patches] == pytest.approx([0.2, 1.2])
    assert [p.get_width() for p in bars.patches] == pytest.approx([0.4, 0.4])
    whisker = bars.errorbar.lines[2][0].get_segments()[0]  # the first bar's interval
    wilson = stats.wilson(1, 4)
    assert [y for _, y in whisker] == pytest.approx([100 * wilson.low, 100 * wilson.high])


def test_shares_item_lists_each_parts_share_of_the_groups_games() -> None:
    item = text.shares_item("level 0, bold", 250, [("won", 25), ("lost", 8)])
    assert item == "level 0, bold (n=250): won 10.0 %, lost 3.2 %"
    assert text.shares_item("level 1, x", 3, [("0", 1)], ": ") == "level 1, x (n=3): 0: 33.3 %"


def test_grouped_interval_bars_put_each_groups_bars_side_by_side_leaving_out_empty_ones() -> None:
    ax = _axes()
    points = {
        ("0", "a"): stats.Interval(1.0, 0.5, 1.5, 10),
        ("1", "a"): stats.Interval(2.0, 1.0, 3.0, 10),
        ("1", "b"): stats.Interval(4.0, 3.0, 5.0, 10),
        ("0", "b"): stats.Interval(0.0, 0.0, 0.0, 0),  # no games: no bar
    }
    charts.grouped_interval_bars(ax, ["0", "1"], ["a", "b"], points, labels=["cause a", None])
    assert [p.get_x() + p.get_width() / 2 for p in ax.patches] == pytest.approx([-0.2, 0.8, 1.2])
    assert [p.get_height() for p in ax.patches] == [1.0, 2.0, 4.0]
    assert [p.get_width() for p in ax.patches] == pytest.approx([0.4, 0.4, 0.4])
    assert ax.get_legend_handles_labels()[1] == ["cause a"]


def test_grouped_interval_dots_join_a_groups_dots_and_take_their_labels() -> None:
    ax = _axes()
    points = {(0, 3): stats.Interval(0.5, 0.4, 0.6, 20), (1, 3): stats.Interval(0.25, 0.1, 0.4, 20)}
    charts.grouped_interval_dots(
        ax, [0, 1], [3, 4], points, 100, band=0.6, joined=True, labels=["3 p", "4 p"]
    )
    [line] = ax.get_lines()[:1]
    assert line.get_linestyle() == "-"  # joined, in the first group's line style
    assert list(line.get_xdata()) == pytest.approx([-0.15, 0.85])
    assert list(line.get_ydata()) == pytest.approx([50.0, 25.0])
    assert ax.get_legend_handles_labels()[1] == ["3 p"]  # group 4 has no points


def test_interval_band_stars_the_estimate_at_one_position() -> None:
    ax = _axes()
    bands = [stats.Interval(0.2, 0.1, 0.3, 10), stats.Interval(0.6, 0.5, 0.7, 10)]
    charts.interval_band(ax, [3.0, 6.0], bands, group=2, scale=100, star=6.0)
    line, star = ax.get_lines()
    assert list(line.get_ydata()) == [20.0, 60.0]
    assert (list(star.get_xdata()), list(star.get_ydata()), star.get_marker()) == ([6.0], [60.0], "*")
    assert star.get_color() == charts.colour(2) and star.get_linestyle() == "None"
    plain = _axes()
    charts.interval_band(plain, [3.0], bands[:1])
    assert len(plain.get_lines()) == 1
