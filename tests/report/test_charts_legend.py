"""A legend beside the plot (`charts.side_legend`), titled or not."""

from simkit.reporting import charts


def test_side_legend_sits_right_of_the_plot_titled_or_not() -> None:
    with charts.one_panel(4.0, 3.0) as (_, ax):
        ax.plot([0, 1], [0, 1], label="red zone")
        charts.side_legend(ax)
        untitled = ax.get_legend()
        assert untitled.get_title().get_text() == ""
        assert [t.get_text() for t in untitled.get_texts()] == ["red zone"]
        charts.side_legend(ax, "crew", fontsize=8)
        titled = ax.get_legend()
    assert titled.get_title().get_text() == "crew" and titled.get_texts()[0].get_fontsize() == 8
    # anchored at the right edge of the axes, at its top
    assert tuple(titled.get_bbox_to_anchor().transformed(ax.transAxes.inverted()).bounds[:2]) == (1.0, 1.0)
