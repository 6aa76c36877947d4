"""The chart pieces for panels one above another over shared categories (`charts.stacked_panels`)
and interval bars side by side (`charts.grouped_interval_bars`)."""

from __future__ import annotations

import pytest
from matplotlib.colors import to_hex

from simkit.core import stats
from simkit.reporting import charts


def test_stacked_panels_share_the_categories_and_size_the_figure() -> None:
    xs = ["easy deck", "hard deck"]
    with charts.stacked_panels(xs, 3, "deck", 0.7, sharey=True) as (fig, axes):
        assert len(axes) == 3
        for i, ax in enumerate(axes):
            ax.plot([0, 1], [i, i + 1])
    assert tuple(fig.get_size_inches()) == pytest.approx((6.5, 9.4))  # at least 6.5 wide; 2.6 a panel + 1.6
    assert [t.get_text() for t in axes[-1].get_xticklabels()] == ["easy\ndeck", "hard\ndeck"]
    assert axes[-1].get_xlabel() == "deck" and axes[0].get_xlabel() == ""
    assert axes[0].get_ylim() == axes[2].get_ylim()  # shared y
    assert axes[0].get_xlim() == pytest.approx((-0.6, 1.6))  # shared x, set on the bottom panel
    many = [f"x{i}" for i in range(20)]
    with charts.stacked_panels(many, 8, "x", 0.55, height=7.2) as (wide, _):
        pass
    assert tuple(wide.get_size_inches()) == pytest.approx((14.0, 7.2))  # at most 14 wide; the height given


def test_grouped_interval_bars_put_the_groups_side_by_side() -> None:
    points = {
        ("a", "red"): stats.mean_interval([1.0, 3.0]),
        ("b", "red"): stats.mean_interval([4.0, 4.0]),
        ("a", "blue"): stats.mean_interval([2.0, 2.0]),
        ("b", "blue"): stats.mean_interval([]),  # no games: no bar
    }
    with charts.one_panel(4.0, 3.0) as (_, ax):
        charts.grouped_interval_bars(
            ax, ["a", "b"], ["red", "blue"], points, 0.8, colours=["#D55E00", "#0072B2"], suffix=" zone"
        )
    bars = [(round(p.get_x() + p.get_width() / 2, 6), p.get_width(), p.get_height()) for p in ax.patches]
    assert bars == [
        (-0.2, pytest.approx(0.4), 2.0),
        (0.8, pytest.approx(0.4), 4.0),
        (0.2, pytest.approx(0.4), 2.0),
    ]
    colours = [to_hex(p.get_facecolor()) for p in ax.patches]
    assert colours == ["#d55e00", "#d55e00", "#0072b2"]
    assert ax.get_legend_handles_labels()[1] == ["red zone", "blue zone"]
