"""Rates over a grid of two settings as heat-tables (`charts.rate_heat_panels`, `charts.rate_square`),
a row of panels (`charts.panel_row`), differences about zero along x (`charts.dots_about_zero`) and
rates at categories (`charts.rate_dots`)."""

from __future__ import annotations

import numpy as np

from simkit.core import stats
from simkit.reporting import charts


def test_rate_square_reads_the_estimate_the_interval_and_the_games() -> None:
    assert charts.rate_square(stats.Interval(0.123, 0.101, 0.145, 1400)) == "12.3 %\n10.1–14.5\nn=1,400"
    assert charts.rate_square(None) == "not played"


def test_panel_row_lays_the_panels_side_by_side_and_titles_the_figure() -> None:
    with charts.panel_row(3, 9.0, 3.0, "Win rate: A scenario", sharey=True) as (fig, axes):
        assert len(axes) == 3
        axes[0].set_ylim(0, 50)
    assert axes[2].get_ylim() == (0.0, 50.0)  # shared
    assert tuple(fig.get_size_inches()) == (9.0, 3.0)
    assert fig.get_suptitle() == "Win rate: A scenario"


def test_rate_heat_panels_draw_a_heat_table_a_group_on_one_scale() -> None:
    rates = {
        ("bold", 7, 6): stats.Interval(0.5, 0.4, 0.6, 100),
        ("bold", 6, 6): stats.Interval(0.25, 0.2, 0.31, 100),
        ("calm", 7, 6): stats.Interval(0.1, 0.05, 0.18, 80),
    }
    labels = ("dice", "cards", "win rate (%)")
    fig = charts.rate_heat_panels(["bold", "calm"], [7, 6], [6], rates, labels, "Win rate: test")
    bold, calm, bar = fig.axes
    assert [bold.get_title(), calm.get_title()] == ["bold", "calm"]
    assert (bold.get_xlabel(), bold.get_ylabel(), bar.get_ylabel()) == labels
    assert [t.get_text() for t in bold.get_yticklabels()] == ["7", "6"]
    assert [t.get_text() for t in calm.texts] == ["10.0 %\n5.0–18.0\nn=80", "not played"]
    mesh = bold.collections[0]
    assert (mesh.norm.vmin, mesh.norm.vmax) == (0, 60.0)  # the highest bound, 60 %, on a multiple of 5
    assert np.allclose(mesh.get_array().ravel(), [50.0, 25.0])
    assert calm.collections[0].get_array().mask.tolist() == [[False], [True]]
    assert fig.get_suptitle() == "Win rate: test"
    # two panels of one column (1.3 + 1.2 inches each, 1.4 more) by two rows (0.95 each, 1.7 more)
    assert np.allclose(fig.get_size_inches(), (6.4, 3.6))


def test_dots_about_zero_along_x_label_the_rows_from_the_top() -> None:
    points = {
        ("a", "x"): stats.Interval(0.02, -0.01, 0.05, 10),
        ("b", "x"): stats.Interval(-0.1, -0.2, 0.0, 10),
    }
    with charts.one_panel(4.0, 3.0) as (_, ax):
        charts.dots_about_zero(ax, ["a", "b"], ["x"], points, scale=100, horizontal=True)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert ax.get_ylim() == (1.5, -0.5)  # the first row on top
    zero = ax.lines[-1]
    assert list(zero.get_xdata()) == [0, 0]
    dots = ax.lines[0]
    assert np.allclose(dots.get_xdata(), [2.0, -10.0]) and np.allclose(dots.get_ydata(), [0, 1])


def test_rate_dots_put_a_rate_a_category_in_percent_from_0_to_100() -> None:
    rates = [stats.Interval(0.5, 0.4, 0.6, 100), stats.Interval(0.2, 0.1, 0.35, 50)]
    with charts.one_panel(4.0, 3.0) as (_, ax):
        charts.rate_dots(ax, ["2 players", "4 players"], rates)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2 players", "4 players"]
    assert ax.get_ylim() == (-1.5, 101.0)
    dots = ax.lines[0]
    assert np.allclose(dots.get_xdata(), [0, 1]) and np.allclose(dots.get_ydata(), [50.0, 20.0])
    whiskers = ax.collections[0].get_segments()  # the 95 % intervals, in percent
    assert np.allclose([w[:, 1] for w in whiskers], [[40.0, 60.0], [10.0, 35.0]])
