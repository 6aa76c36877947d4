"""The pieces of the report's charts: their style, figures saved as PNG, SVG and an inline SVG
string, and the parts they are drawn with (interval dots, bars and bands, panels, heat grids,
ranked rates). The charts every dataset gets are in dataset_charts.py; the games' own are drawn
through the analysis kit (`simkit.reporting.kit`).

Decisions (see shared/DESIGN.md, "Statistics" and the report requirements):

- Rendering uses the Agg canvas through matplotlib's object API (`Figure` + `FigureCanvasAgg`)
  instead of pyplot: nothing is registered in pyplot's global figure list, so nothing can leak
  or needs closing, and importing the report never switches the backend of a user's notebook.
  This is the Agg backend the brief asks for, without calling `matplotlib.use` globally.
- Every style choice is applied inside `matplotlib.rc_context`, so user rcParams are left alone.
- Text is drawn as paths (`svg.fonttype = "path"`): the inline SVG needs no font. Mathtext is
  off (`text.parse_math = False`): a `$` in a cell label (a data file path) is printed as is.
- Each chart gets its own `svg.hashsalt` (its name), so the ids inside several inline SVGs in one
  HTML page never collide and the output is the same from one build to the next.
- Colours: the Okabe-Ito palette (colour-blind safe), with markers and line styles as a second
  cue, so that the charts also read in grey.

The helpers (`new_figure`, `save_chart`, `PALETTE`) are meant for the games' own report
sections as well.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from simkit.core import stats
from simkit.reporting.text import pct

# Okabe & Ito (2008), ordered so that the first colours contrast well on white; yellow last.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))
# How many cells the generated alt text lists before pointing at the table.
ALT_ITEMS = 16

STYLE = {
    "svg.fonttype": "path",
    "text.parse_math": False,
    "font.size": 9.5,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.frameon": False,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
}
PNG_DPI = 150
# The SVG metadata block names external vocabularies by URL; the report needs none of it.
NO_METADATA = {"Format": None, "Type": None, "Creator": None, "Date": None}


@dataclass(frozen=True)
class Chart:
    """One rendered chart: what the template shows and the files written beside index.html."""

    name: str  # file stem, unique within a report
    title: str
    alt: str  # aria-label: what the chart shows, in words
    caption: str  # figcaption: how to read it and the number of games it rests on
    svg: str  # inline SVG markup (no XML prolog or doctype)
    png_file: str
    svg_file: str


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def new_figure(width: float, height: float) -> Figure:
    """A figure on the Agg canvas, laid out by matplotlib's constrained layout."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def inline_svg(svg_text: str) -> str:
    """The SVG document without its XML prolog and doctype, ready to paste into HTML."""
    start = svg_text.find("<svg")
    if start < 0:
        raise ValueError("not an SVG document")
    return svg_text[start:].strip()


def save_chart(fig: Figure, out: Path, name: str, title: str, alt: str, caption: str) -> Chart:
    """Write `out/name.svg` and `out/name.png` and return the chart with its inline SVG."""
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": name}):
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata=NO_METADATA)
        svg_text = buf.getvalue()
        fig.savefig(out / f"{name}.png", format="png", dpi=PNG_DPI)
    (out / f"{name}.svg").write_text(svg_text, encoding="utf-8")
    return Chart(name, title, alt, caption, inline_svg(svg_text), f"{name}.png", f"{name}.svg")


def percent_top(top: float, headroom: float = 1.0) -> float:
    """The top of a percent axis for the highest value `top` (a share): `headroom` times it, up to
    a multiple of 5 %, within 5 and 100."""
    return min(100.0, max(5.0, math.ceil(top * 100 * headroom / 5) * 5))


@contextmanager
def one_panel(width: float, height: float) -> Iterator[tuple[Figure, Any]]:
    """A figure of one panel, `width` by `height` inches, drawn in the chart style: (figure, axes)."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(width, height)
        yield fig, fig.add_subplot()


def panels(n: int, width_each: float, height: float, sharey: bool = True) -> tuple[Figure, list]:
    """A figure of `n` panels side by side, at most four a row, each `width_each` by `height`
    inches (the figure at most 14 wide); the axes in reading order."""
    cols = min(n, 4)
    rows = math.ceil(n / cols)
    fig = new_figure(min(14.0, 1.2 + width_each * cols), height * rows)
    axes = fig.subplots(rows, cols, sharey=sharey, squeeze=False).ravel().tolist()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes[:n]


def category_ticks(ax, labels: Sequence[str]) -> None:
    """Category labels along x at 0, 1, ...: a label's words on lines of their own, or, above
    eight categories, each label turned upright."""
    if len(labels) > 8:
        ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7.5)
    else:
        ax.set_xticks(range(len(labels)), ["\n".join(x.split(" ")) for x in labels], fontsize=8)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.grid(axis="x", visible=False)


def dodge(group: int, groups: int, band: float) -> float:
    """Where group `group` of `groups` sits around a position: the groups share `band` of it."""
    return (group - (groups - 1) / 2) * (band / groups if groups > 1 else 0.0)


def interval_arms(
    est: Sequence[float], low: Sequence[float], high: Sequence[float], scale: float = 1.0
) -> list[list[float]]:
    """Matplotlib's [below, above] error lengths of intervals, times `scale` (100 for percent). A
    bound that is NaN (too few games) gets no arm, and one a hair past its estimate from rounding
    (a rate of 0 or 1) is clamped to zero."""
    below = [0.0 if math.isnan(lo) else max(0.0, scale * (e - lo)) for e, lo in zip(est, low, strict=True)]
    above = [0.0 if math.isnan(hi) else max(0.0, scale * (hi - e)) for e, hi in zip(est, high, strict=True)]
    return [below, above]


def interval_dots(
    ax: Any,
    where: Sequence[float],
    est: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    group: int = 0,
    label: str | None = None,
    scale: float = 1.0,
    horizontal: bool = False,
    joined: bool = False,
    markersize: float = 5,
) -> None:
    """Estimates as dots at positions `where` with their 95 % intervals as whiskers (along y, or
    along x when `horizontal`), in group `group`'s marker and colour; `joined` draws a line
    through the dots in the group's line style."""
    values = [scale * e for e in est]
    arms = interval_arms(est, low, high, scale)
    ax.errorbar(
        values if horizontal else where,
        where if horizontal else values,
        xerr=arms if horizontal else None,
        yerr=None if horizontal else arms,
        fmt=MARKERS[group % len(MARKERS)],
        linestyle=LINESTYLES[group % len(LINESTYLES)] if joined else "none",
        linewidth=1.0,
        color=colour(group),
        ecolor=colour(group),
        elinewidth=1.4,
        capsize=3,
        markersize=markersize,
        label=label,
    )


def interval_bars(
    ax: Any, where: Sequence[float], intervals: Sequence[Any], width: float, color: str, label: str | None
) -> None:
    """Bars of the intervals' estimates (`stats.Interval`) with their 95 % intervals as whiskers."""
    est = [iv.estimate for iv in intervals]
    ax.bar(
        where,
        est,
        width=width,
        color=color,
        yerr=interval_arms(est, [iv.low for iv in intervals], [iv.high for iv in intervals]),
        capsize=2,
        error_kw={"elinewidth": 1.0, "ecolor": "#555555"},
        label=label,
    )


def grouped_interval_dots(
    ax: Any,
    xs: Sequence[Any],
    groups: Sequence[Any],
    points: dict[tuple[Any, Any], Any],
    scale: float,
    band: float = 0.7,
    horizontal: bool = False,
    suffix: str = "",
    joined: bool = False,
    labels: Sequence[str | None] | None = None,
) -> None:
    """`points[(x, group)]` (a `stats.Interval`) as `interval_dots` at the position of x in `xs`,
    the groups of one position spread over `band` of it (`joined`: a line through a group's
    dots); each group's legend label is the group plus `suffix`, or its label of `labels`.
    Intervals of no games are left out."""
    for gi, (g, mine) in enumerate(_by_group(xs, groups, points)):
        if mine:
            interval_dots(
                ax,
                [xi + dodge(gi, len(groups), band) for xi, _ in mine],
                [iv.estimate for _, iv in mine],
                [iv.low for _, iv in mine],
                [iv.high for _, iv in mine],
                group=gi,
                label=(f"{g}{suffix}" if g else None) if labels is None else labels[gi],
                scale=scale,
                horizontal=horizontal,
                joined=joined,
            )


def _by_group(
    xs: Sequence[Any], groups: Sequence[Any], points: dict[tuple[Any, Any], Any]
) -> list[tuple[Any, list[tuple[int, Any]]]]:
    """Each group and its intervals of `points[(x, group)]` with games, by the position of x in `xs`."""
    out = []
    for g in groups:
        mine = [(xi, points[(x, g)]) for xi, x in enumerate(xs) if (x, g) in points]
        out.append((g, [(xi, iv) for xi, iv in mine if iv.n > 0 and not math.isnan(iv.estimate)]))
    return out


def grouped_interval_bars(
    ax: Any,
    xs: Sequence[Any],
    groups: Sequence[Any],
    points: dict[tuple[Any, Any], Any],
    band: float = 0.8,
    labels: Sequence[str | None] | None = None,
    colours: Sequence[str] | None = None,
    suffix: str = "",
) -> None:
    """`points[(x, group)]` (a `stats.Interval`) as `interval_bars` at the position of x in `xs`,
    the groups of one position side by side over `band` of it, each in its colour of `colours`
    (None: the palette's), labelled by its label of `labels` (None: the group plus `suffix`).
    Intervals of no games are left out (their group keeps its legend label)."""
    for gi, (g, mine) in enumerate(_by_group(xs, groups, points)):
        where = [xi + dodge(gi, len(groups), band) for xi, _ in mine]
        colour_of = colour(gi) if colours is None else colours[gi]
        label = f"{g}{suffix}" if labels is None else labels[gi]
        interval_bars(ax, where, [iv for _, iv in mine], band / len(groups), colour_of, label)


def dots_about_zero(
    ax: Any,
    xs: Sequence[Any],
    groups: Sequence[Any],
    points: dict[tuple[Any, Any], Any],
    scale: float = 1.0,
    horizontal: bool = False,
) -> None:
    """Differences (`points[(x, group)]`, `stats.Interval`s, times `scale`) as
    `grouped_interval_dots`, with a line at zero and no grid across the positions; `horizontal`:
    the differences along x, a row a position of `xs` from the top, labelled by it."""
    grouped_interval_dots(ax, xs, groups, points, scale=scale, horizontal=horizontal)
    if not horizontal:
        ax.axhline(0, color="#555555", linewidth=0.8)
        ax.grid(axis="x", visible=False)
        return
    ax.axvline(0, color="#555555", linewidth=0.8)
    ax.set_yticks(range(len(xs)), list(xs))
    ax.set_ylim(len(xs) - 0.5, -0.5)
    ax.grid(axis="y", visible=False)


def side_legend(ax: Any, title: str | None = None, **style: Any) -> None:
    """The legend of `ax`, titled `title` (None: untitled), beside the plot on its right."""
    ax.legend(title=title, loc="upper left", bbox_to_anchor=(1.0, 1.0), **style)


def stacked_bars(
    ax: Any,
    labels: Sequence[str],
    parts: dict[str, Sequence[float]],
    upright: bool = False,
    named: bool = True,
) -> None:
    """Horizontal bars, one a label from the top down (`upright`: standing bars, one a label from
    the left), each stacked from `parts` (a name and its value for each label, in the order of
    `labels`), a colour a part, named in the legend (unless not `named`: a panel after the first
    that the figure's legend already names)."""
    start, at = np.zeros(len(labels)), np.arange(len(labels))
    for k, (name, values) in enumerate(parts.items()):
        vals, look = np.array(values), {"color": colour(k), "label": name if named else None}
        if upright:
            ax.bar(at, vals, bottom=start, width=0.7, edgecolor="white", **look)
        else:
            ax.barh(at, vals, left=start, height=0.7, edgecolor="white", **look)
        start += vals
    if upright:
        ax.set_xticks(at, labels)
        ax.grid(axis="x", visible=False)
        return
    ax.set_yticks(at, labels)
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)


def alt_list(items: list[str]) -> str:
    """The items of a chart's alt text: the first ALT_ITEMS, then how many more (in the table)."""
    if len(items) > ALT_ITEMS:
        return "; ".join(items[:ALT_ITEMS]) + f"; and {len(items) - ALT_ITEMS} more cells (see the table)"
    return "; ".join(items)


SLUG = re.compile(r"[^A-Za-z0-9._-]+")


def slug(text: str) -> str:
    """A file- and id-safe name: letters, digits, '.', '_' and '-'."""
    return SLUG.sub("-", text).strip("-.") or "dataset"


def heat_grid(
    ax: Any,
    values: Sequence[Sequence[float]],
    texts: Sequence[Sequence[str]],
    rows: Sequence[str],
    columns: Sequence[str],
    cmap: Any,
    vmax: float,
) -> Any:
    """A heat-table on `ax`: one square a row and column of `values` (NaN: not coloured), from 0
    to `vmax` in `cmap`, the first row on top, each square with its text of `texts` (white on the
    darker squares, grey on an empty one); `rows` and `columns` label the ticks. Returns the
    squares, for `heat_bar`."""
    grid = np.array(values, dtype=float)
    # vector squares (pcolormesh, not imshow): the SVG embeds no raster image
    mesh = ax.pcolormesh(
        np.arange(len(columns) + 1) - 0.5,
        np.arange(len(rows) + 1) - 0.5,
        np.ma.masked_invalid(grid),
        cmap=cmap,
        vmin=0,
        vmax=vmax,
        edgecolors="#bbbbbb",
        linewidth=0.8,
    )
    ax.set_ylim(len(rows) - 0.5, -0.5)
    for (i, j), value in np.ndenumerate(grid):
        ink = "#555555" if math.isnan(value) else "white" if value > 0.6 * vmax else "black"
        ax.text(j, i, texts[i][j], ha="center", va="center", fontsize=8, color=ink)
    ax.set_xticks(range(len(columns)), list(columns))
    ax.set_yticks(range(len(rows)), list(rows))
    ax.grid(False)
    return mesh


def heat_bar(fig: Figure, mesh: Any, axes: Sequence[Any], label: str) -> None:
    """The colour scale of `heat_grid` squares beside `axes`."""
    bar = fig.colorbar(mesh, ax=list(axes), shrink=0.9)
    bar.set_label(label)
    if bar.solids is not None:
        bar.solids.set_rasterized(False)  # vector SVG: no embedded raster image


def ranked_rates(
    ax: Any,
    rows: Sequence[Any],
    labels: Sequence[str],
    groups: Sequence[Any],
    points: dict[tuple[Any, Any], Any],
    band: float,
    legend: str,
    **tick_style: Any,
) -> None:
    """Rates ranked down the page: `points[(row, group)]` (a `stats.Interval`) as dots in percent
    along x with their 95 % whiskers, one line a row of `rows` (the first at the top, labelled
    `labels`), the groups of a row spread over `band` of it; with several groups a legend titled
    `legend` names each as "<group> <legend>"."""
    grouped_interval_dots(ax, rows, groups, points, 100.0, band=band, horizontal=True, suffix=f" {legend}")
    ax.set_yticks(range(len(rows)), labels, **tick_style)
    ax.invert_yaxis()
    ax.grid(axis="y", visible=False)
    if len(groups) > 1:
        ax.legend(title=legend, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def panel_chart(
    out: Path,
    name: str,
    title: str,
    subject: str,
    items: Sequence[Any],
    size: tuple[float, float],
    draw: Any,
    ylabel: str,
    alt: str,
    caption: str,
    legend: dict[str, Any] | None = None,
    ylim: tuple[float, float] | None = None,
) -> Chart:
    """A chart of one panel per item of `items`, each `size` inches (`panels` lays them out),
    filled by `draw(ax, item)`; the y label (and limits, shared) on the first; `legend` (the
    figure legend's keyword arguments) below them all; titled "title: subject" and saved as
    `out/name`."""
    with matplotlib.rc_context(STYLE):
        fig, axes = panels(len(items), *size)
        for ax, item in zip(axes, items, strict=True):
            draw(ax, item)
        axes[0].set_ylabel(ylabel)
        if ylim:
            axes[0].set_ylim(*ylim)
        if legend:
            fig.legend(loc="outside lower center", **legend)
        fig.suptitle(f"{title}: {subject}", x=0.01, ha="left", weight="bold")
    return save_chart(fig, out, name, title, alt, caption)


def interval_band(
    ax: Any,
    where: Sequence[float],
    intervals: Sequence[Any],
    *,
    group: int = 0,
    label: str | None = None,
    scale: float = 1.0,
    star: float | None = None,
) -> None:
    """Estimates (`stats.Interval`s) as a line through markers at positions `where`, over a shaded
    band of their 95 % intervals, in group `group`'s colour, marker and line style; a large star
    (edged black) marks the estimate at position `star` (one of `where`; None: none)."""
    color = colour(group)
    low, high = [scale * iv.low for iv in intervals], [scale * iv.high for iv in intervals]
    ax.fill_between(list(where), low, high, color=color, alpha=0.2, linewidth=0)
    ax.plot(
        list(where),
        [scale * iv.estimate for iv in intervals],
        color=color,
        linestyle=LINESTYLES[group % len(LINESTYLES)],
        marker=MARKERS[group % len(MARKERS)],
        markersize=4,
        linewidth=1.4,
        label=label,
    )
    if star is not None:
        at = list(where).index(star)
        look = {"marker": "*", "markersize": 13, "markeredgecolor": "black", "linestyle": "none"}
        ax.plot([star], [scale * intervals[at].estimate], color=color, **look)


# --- intervals as `interval_dots` takes them ---


def bounds(intervals: Sequence[Any]) -> tuple[list[float], list[float], list[float]]:
    """The estimates, the lower and the upper bounds of `intervals` (`stats.Interval`s), the
    arguments `interval_dots` takes after the positions."""
    return tuple([getattr(iv, k) for iv in intervals] for k in ("estimate", "low", "high"))


# --- a panel's axis of categories, and dodged bars of shares ---


def panel_axis(
    ax: Any, labels: Sequence[str], xlabel: str, title: str, ticks: Sequence[float] | None = None
) -> None:
    """A panel's x axis of categories: `labels` at `ticks` (None: 0, 1, ..., one a label), named
    `xlabel`; the panel titled `title`, small on the left; no vertical grid."""
    ax.set_xticks(range(len(labels)) if ticks is None else ticks, labels)
    ax.set_xlabel(xlabel)
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(axis="x", visible=False)


def share_bars(
    ax: Any, counts: Sequence[int], n: int, group: int = 0, groups: int = 1, label: str | None = None
) -> None:
    """The shares `counts` / `n` in percent as bars at 0, 1, ... with their 95 % Wilson intervals
    as thin whiskers, in group `group`'s colour, the `groups` of a position side by side over 0.8
    of it."""
    shares = [stats.wilson(k, n) for k in counts]
    where = [i + dodge(group, groups, 0.8) for i in range(len(shares))]
    look = {"width": 0.8 / groups, "color": colour(group), "label": label}
    errors = {"yerr": interval_arms(*bounds(shares), 100), "error_kw": {"elinewidth": 0.8, "capsize": 1.5}}
    ax.bar(where, [100 * w.estimate for w in shares], **look, **errors)


# --- panels one above another over shared categories, and interval bars side by side ---


@contextmanager
def stacked_panels(
    xs: Sequence[str],
    rows: int,
    xlabel: str,
    per_category: float,
    height: float | None = None,
    sharey: bool = False,
) -> Iterator[tuple[Figure, list]]:
    """A figure of `rows` panels one above another, drawn in the chart style, sharing the
    categories `xs` along x (their ticks, `category_ticks`, and `xlabel` go on the bottom panel
    once the panels are drawn): `per_category` inches a category and 3 more wide (6.5 to 14),
    `height` inches tall (None: 2.6 a panel and 1.6 more, at most 16). Yields (figure, the axes
    from the top)."""
    with matplotlib.rc_context(STYLE):
        width = min(14.0, max(6.5, len(xs) * per_category + 3.0))
        fig = new_figure(width, min(16.0, 2.6 * rows + 1.6) if height is None else height)
        axes = list(fig.subplots(rows, 1, sharex=True, sharey=sharey, squeeze=False)[:, 0])
        yield fig, axes
        category_ticks(axes[-1], xs)
        axes[-1].set_xlabel(xlabel)


# --- a row of panels, rates at categories, and rates over a grid of two settings as heat-tables ---


@contextmanager
def panel_row(
    n: int, width: float, height: float, title: str, sharey: bool = False
) -> Iterator[tuple[Figure, Any]]:
    """A figure of `n` panels side by side, `width` by `height` inches, drawn in the chart style
    (the y axis shared where `sharey`): (figure, axes); once they are drawn, the figure is titled
    `title` at the top left."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(width, height)
        axes = fig.subplots(1, n, squeeze=False, sharey=sharey)[0]
        yield fig, axes
        fig.suptitle(title, x=0.01, ha="left", fontweight="bold")


def rate_dots(ax: Any, labels: Sequence[str], rates: Sequence[Any]) -> None:
    """Rates (`stats.Interval`s) in percent as dots with their 95 % whiskers, one a category along
    x labelled by `labels`, on an axis from 0 to 100 % (a little room below 0), with no grid
    across the categories."""
    where = list(range(len(rates)))
    interval_dots(ax, where, *bounds(rates), scale=100)
    ax.set_xticks(where, list(labels))
    ax.set_ylim(-1.5, 101)
    ax.grid(axis="x", visible=False)


# rates from white through sky blue to blue: the darker a square, the higher its rate
RATE_HEAT = LinearSegmentedColormap.from_list("rate-heat", ["#ffffff", PALETTE[4], PALETTE[0]])


def rate_square(rate: Any) -> str:
    """A rate's square in a heat-table (a `stats.Interval`), a line each for its estimate, its
    95 % interval and its games ("12.3 %\n10.1–14.5\nn=400"); "not played" for None."""
    if rate is None:
        return "not played"
    return f"{pct(rate.estimate)}\n{100 * rate.low:.1f}–{100 * rate.high:.1f}\nn={rate.n:,}"


def rate_heat_panels(
    groups: Sequence[Any],
    rows: Sequence[Any],
    columns: Sequence[Any],
    rates: dict[tuple[Any, Any, Any], Any],
    labels: tuple[str, str, str],
    title: str,
) -> Figure:
    """Rates over a grid of two settings, a heat-table (`heat_grid`) a group side by side:
    `rates[(group, row, column)]` (a `stats.Interval`) in percent, a row a value of `rows` from
    the top and a column a value of `columns`, each square with its `rate_square` (a combination
    not played left blank), all on one `RATE_HEAT` scale from 0 to the multiple of 5 % at or above
    the highest bound. `labels` name the x axis, the y axis and the colour scale; each panel is
    titled by its group, the figure by `title`."""
    vmax = percent_top(max((w.high for w in rates.values()), default=1.0))
    width = min(14.0, max(5.0, len(groups) * (1.3 * len(columns) + 1.2) + 1.4))
    xlabel, ylabel, scale = labels
    with panel_row(len(groups), width, max(2.6, 0.95 * len(rows) + 1.7), title) as (fig, axes):
        for ax, group in zip(axes, groups, strict=True):
            cells = [[rates.get((group, r, c)) for c in columns] for r in rows]
            values = [[math.nan if w is None else 100 * w.estimate for w in row] for row in cells]
            texts = [[rate_square(w) for w in row] for row in cells]
            ticks = [str(r) for r in rows], [str(c) for c in columns]
            mesh = heat_grid(ax, values, texts, *ticks, RATE_HEAT, vmax)
            ax.set(xlabel=xlabel, ylabel=ylabel)
            ax.set_title(group, loc="center", fontsize=10)
        heat_bar(fig, mesh, axes, scale)
    return fig


def thinned_ticks(values: Sequence[float], most: int = 12) -> tuple[range, list[str]]:
    """An axis of many numbers, one at each of 0, 1, ...: ticks at every k-th position, k the
    least that leaves at most `most` of them, and their labels ("2", "2.5")."""
    step = max(1, math.ceil(len(values) / most))
    return range(0, len(values), step), [f"{v:g}" for v in values[::step]]
