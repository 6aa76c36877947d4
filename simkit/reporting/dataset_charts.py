"""The charts that open every dataset's section of the report, for any game: the win rate of each
cell, how games ended, the distributions of game length and score, and the convergence of each
cell's estimate as games were played. They are drawn from the report model (`model.py`) with the
pieces and style of `charts.py`; the games' own sections draw theirs through the analysis kit.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib import ticker
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simkit.reporting import text as page_text
from simkit.reporting.charts import (
    LINESTYLES,
    PALETTE,
    STYLE,
    Chart,
    alt_list,
    colour,
    dodge,
    interval_dots,
    new_figure,
    percent_top,
    save_chart,
)

# Above this many cells the length chart shows quantile boxes instead of one ECDF line per cell.
MAX_ECDF_LINES = 16


def _wrap_label(label: str) -> str:
    """'countdown=7 dice=6' -> one setting per line, so tick labels stay narrow."""
    return "\n".join(label.split(" "))


CELL_LABEL_WIDTH = 40  # characters a line of a cell's label in a legend or on an axis


def _cell_label(label: str, n: int) -> str:
    """'mission=real common=white (n=120)', wrapped: a label naming every setting (a dataset of one
    cell) would otherwise squeeze the plot to nothing."""
    return textwrap.fill(f"{label} (n={n:,})", CELL_LABEL_WIDTH, break_on_hyphens=False)


def _label_rows(labels: Sequence[str]) -> float:
    """The rows of a chart with one row per label, a label of several lines taking more room."""
    return sum(max(1.0, 0.6 * (label.count("\n") + 1)) for label in labels)


def _n_text(ns: Sequence[int]) -> str:
    counts = list(ns)
    return "n = " + page_text.count_range(counts, "games per cell") if counts else "no games"


# --- win rate by cell -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WinPoint:
    x: str  # the difficulty label (settings that vary, strategy aside)
    group: str | None  # the strategy when the grid varies it, else None
    label: str  # the full cell label
    wins: int
    n: int
    rate: float
    low: float
    high: float


def win_rate_chart(points: Sequence[WinPoint], out: Path, name: str, subject: str) -> Chart:
    """Win rate per cell with 95 % Wilson intervals; one colour and marker per strategy.

    `points` come in display order; x positions follow the first appearance of each x label.
    """
    xs = list(dict.fromkeys(p.x for p in points))
    groups = list(dict.fromkeys(p.group for p in points))
    # room for the tick labels (one setting per line); past the widest figure they turn vertical
    chars = max(len(part) for x in xs for part in x.split(" "))
    per_x = max(0.6 * len(groups) ** 0.5, 0.085 * chars + 0.2)
    vertical = len(xs) * per_x > 11.5
    width = min(14.0, max(5.5, len(xs) * (max(0.3, 0.2 * len(groups)) if vertical else per_x) + 2.5))
    top = max((p.high for p in points if not math.isnan(p.high)), default=1.0)
    y_max = percent_top(top, 1.15)
    with matplotlib.rc_context(STYLE):
        fig = new_figure(width, 4.2)
        ax = fig.add_subplot()
        for gi, group in enumerate(groups):
            mine = [p for p in points if p.group == group and not math.isnan(p.rate)]
            if not mine:
                continue
            interval_dots(
                ax,
                [xs.index(p.x) + dodge(gi, len(groups), 0.7) for p in mine],
                [p.rate for p in mine],
                [p.low for p in mine],
                [p.high for p in mine],
                group=gi,
                label=group if group is not None else None,
                scale=100,
                markersize=6,
            )
        if vertical:
            ax.set_xticks(range(len(xs)), xs, rotation=90, fontsize=8)
        else:
            ax.set_xticks(range(len(xs)), [_wrap_label(x) for x in xs])
        ax.set_xlim(-0.6, len(xs) - 0.4)
        ax.set_ylim(-0.015 * y_max, y_max)  # a hair below zero so that a point at 0 % shows whole
        ax.set_ylabel("win rate (%)")
        ax.set_xlabel("cell settings")
        ax.grid(axis="x", visible=False)
        ax.set_title(f"Win rate by cell: {subject}", loc="left")
        if len(groups) > 1 or groups[0] is not None:
            ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = "Win rate by cell"
    items = [
        f"{p.label}: {page_text.pct(p.rate)} "
        f"(95 % CI {page_text.span(p.low, p.high, page_text.pct)}, {p.wins} of {p.n} games)"
        for p in points
    ]
    alt = f"{title} for {subject}, with 95 % Wilson intervals. " + alt_list(items)
    caption = (
        "Share of games won per cell; the bars are 95 % Wilson score intervals. "
        f"{_n_text(p.n for p in points)} with a recorded win or loss."
    )
    if len(groups) > 1:
        caption += " Colour and marker show the strategy."
    return save_chart(fig, out, name, title, alt, caption)


# --- end reasons ----------------------------------------------------------------------------------


def end_reason_chart(
    cells: Sequence[tuple[str, int]],
    reasons: Sequence[str],
    counts: dict[tuple[str, str], int],
    out: Path,
    name: str,
    subject: str,
) -> Chart:
    """Stacked horizontal bars: the share of each end reason per cell.

    `cells` is [(label, n)] in display order, `counts[(label, reason)]` the games that ended so.
    """
    ticks = [_cell_label(label, n) for label, n in cells]
    height = min(16.0, max(2.6, 0.34 * _label_rows(ticks) + 1.6))
    with matplotlib.rc_context(STYLE):
        fig = new_figure(8.5, height)
        ax = fig.add_subplot()
        ys = range(len(cells))
        left = [0.0] * len(cells)
        for ri, reason in enumerate(reasons):
            shares = [100 * counts.get((label, reason), 0) / n if n else 0.0 for label, n in cells]
            bars = ax.barh(
                ys, shares, left=left, color=colour(ri), label=reason, height=0.7, edgecolor="white"
            )
            dark = colour(ri) in ("#0072B2", "#009E73", "#D55E00", "#000000", "#CC79A7")
            labels = [f"{s:.0f} %" if s >= 8 else "" for s in shares]
            ax.bar_label(
                bars, labels=labels, label_type="center", fontsize=8, color="white" if dark else "black"
            )
            left = [a + b for a, b in zip(left, shares, strict=True)]
        ax.set_yticks(list(ys), ticks)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("share of games (%)")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"How games ended: {subject}", loc="left")
        ax.legend(title="end reason", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = "How games ended"
    items = []
    for label, n in cells:
        parts = [
            f"{reason} {page_text.pct(counts.get((label, reason), 0) / n if n else float('nan'), 0)}"
            for reason in reasons
        ]
        items.append(f"{label} (n={n}): " + ", ".join(parts))
    alt = f"{title} for {subject}: share of each end reason per cell. " + alt_list(items)
    caption = f"Share of games per end reason, one bar per cell; {_n_text(n for _, n in cells)}."
    return save_chart(fig, out, name, title, alt, caption)


# --- distributions: game length and score ---------------------------------------------------------


@dataclass(frozen=True)
class LengthSeries:
    """One cell's distribution of a quantity (game length, score) as distinct values and counts."""

    label: str
    group: str | None  # strategy when the grid varies it
    x: str  # difficulty label
    lengths: Sequence[float]  # distinct values, ascending
    counts: Sequence[int]  # games with each value
    quantiles: dict[str, float]  # q05 q25 q50 q75 q95 mean

    @property
    def n(self) -> int:
        return int(sum(self.counts))


# a distribution series under its general name (the values need not be lengths)
DistSeries = LengthSeries


def length_chart(series: Sequence[LengthSeries], unit: str, out: Path, name: str, subject: str) -> Chart:
    """Game length per cell: ECDF lines (colour = strategy, line style = settings) for up to
    MAX_ECDF_LINES cells, quantile boxes beyond that."""
    return distribution_chart(series, "game length", "Game length", unit, out, name, subject)


def score_chart(series: Sequence[DistSeries], unit: str, out: Path, name: str, subject: str) -> Chart:
    """Final score per cell, drawn as the length chart is: ECDF lines or quantile boxes."""
    return distribution_chart(series, "score", "Score distribution", unit, out, name, subject)


def distribution_chart(
    series: Sequence[DistSeries], quantity: str, title: str, unit: str, out: Path, name: str, subject: str
) -> Chart:
    """A per-cell distribution: one ECDF line per cell for up to MAX_ECDF_LINES cells, quantile
    boxes (5th, 25th, 50th, 75th, 95th percentile and the mean) beyond that."""
    series = [s for s in series if s.n > 0]
    if len(series) <= MAX_ECDF_LINES:
        fig, how = _ecdf(series, quantity, title, unit, subject), "ecdf"
    else:
        fig, how = _boxes(series, quantity, title, unit, subject), "boxes"
    items = [
        f"{s.label}: median {s.quantiles['q50']:g}, middle half {s.quantiles['q25']:g} to "
        f"{s.quantiles['q75']:g} {unit} (n={s.n})"
        for s in series
    ]
    alt = f"{title} for {subject}: {quantity} in {unit}, per cell. " + alt_list(items)
    if how == "ecdf":
        caption = (
            f"Cumulative distribution of {quantity}: the share of games with at most each {quantity} "
            f"(in {unit}), one line per cell; {_n_text(s.n for s in series)}."
        )
    else:
        caption = (
            f"{quantity[0].upper() + quantity[1:]} in {unit} per cell: box from the 25th to the 75th "
            f"percentile, line at the median, whiskers from the 5th to the 95th percentile, diamond at "
            f"the mean; {_n_text(s.n for s in series)}."
        )
    return save_chart(fig, out, name, title, alt, caption)


def _styles(series: Sequence[LengthSeries]) -> list[tuple[str, object]]:
    groups = list(dict.fromkeys(s.group for s in series))
    if len(groups) > 1:
        xs = list(dict.fromkeys(s.x for s in series))
        return [(colour(groups.index(s.group)), LINESTYLES[xs.index(s.x) % len(LINESTYLES)]) for s in series]
    return [(colour(i), LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]) for i in range(len(series))]


def _ecdf(series: Sequence[DistSeries], quantity: str, title: str, unit: str, subject: str) -> Figure:
    with matplotlib.rc_context(STYLE):
        fig = new_figure(9.0, 4.4)
        ax = fig.add_subplot()
        for s, (col, ls) in zip(series, _styles(series), strict=True):
            total = s.n
            cum, ys = 0, []
            for c in s.counts:
                cum += c
                ys.append(100 * cum / total)
            # start the step at zero just left of the smallest value
            step = (
                1.0 if len(s.lengths) < 2 else max(1e-9, min(1.0, float(s.lengths[-1] - s.lengths[0]) / 50))
            )
            xs = [s.lengths[0] - step, *s.lengths]
            ax.step(
                xs,
                [0.0, *ys],
                where="post",
                color=col,
                linestyle=ls,
                linewidth=1.6,
                label=_cell_label(s.label, total),
            )
        ax.set_ylim(0, 100.5)
        ax.set_xlabel(f"{quantity} ({unit})")
        ax.set_ylabel(f"games with at most this {quantity} (%)")
        ax.set_title(f"{title}: {subject}", loc="left")
        ax.legend(title="cell", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    return fig


def _boxes(series: Sequence[DistSeries], quantity: str, title: str, unit: str, subject: str) -> Figure:
    labels = [_cell_label(s.label, s.n) for s in series]
    height = min(30.0, max(3.0, 0.28 * _label_rows(labels) + 1.6))
    stats = [
        {
            "label": label,
            "med": s.quantiles["q50"],
            "q1": s.quantiles["q25"],
            "q3": s.quantiles["q75"],
            "whislo": s.quantiles["q05"],
            "whishi": s.quantiles["q95"],
            "mean": s.quantiles["mean"],
            "fliers": [],
        }
        for s, label in zip(series, labels, strict=True)
    ]
    with matplotlib.rc_context(STYLE):
        fig = new_figure(9.0, height)
        ax = fig.add_subplot()
        ax.bxp(
            stats,
            orientation="horizontal",
            showmeans=True,
            patch_artist=True,
            boxprops={"facecolor": "#56B4E9", "edgecolor": "#0072B2"},
            medianprops={"color": "#000000"},
            meanprops={
                "marker": "D",
                "markerfacecolor": "#E69F00",
                "markeredgecolor": "#000000",
                "markersize": 4,
            },
        )
        ax.invert_yaxis()
        ax.set_xlabel(f"{quantity} ({unit})")
        ax.set_ylabel("cell")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"{title}: {subject} (diamond: mean)", loc="left")
    return fig


# --- convergence ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunningSeries:
    """One cell's running estimate after each of a few game counts, with its running 95 % band."""

    label: str
    games: Sequence[int]  # games played so far, ascending
    estimate: Sequence[float]  # win rate (0-1) or mean score after that many games
    low: Sequence[float]
    high: Sequence[float]

    @property
    def n(self) -> int:
        return int(self.games[-1]) if len(self.games) else 0


# Up to this many cells share one panel; up to MAX_PANELS get one small panel each; beyond that,
# one panel shows every cell's distance from its final estimate (a grid of dozens of panels is
# unreadable and costs matplotlib seconds a panel).
MAX_OVERLAID = 6
MAX_PANELS = 20
MAX_PANEL_COLUMNS = 5


def convergence_chart(
    series: Sequence[RunningSeries], rate: bool, unit: str, out: Path, name: str, subject: str
) -> Chart:
    """The running estimate of each cell against games played (log scale), with its running 95 %
    band: win rate with the Wilson interval (`rate`), else mean score with the t interval."""
    series = [s for s in series if s.n > 0]
    scale = 100.0 if rate else 1.0
    what = "win rate" if rate else "mean score"
    y_label = "running win rate (%)" if rate else f"running mean score ({unit})"
    band = "Wilson" if rate else "Student t"
    with matplotlib.rc_context(STYLE):
        if len(series) <= MAX_OVERLAID:
            fig = new_figure(9.0, 4.2)
            ax = fig.add_subplot()
            for i, s in enumerate(series):
                _running(ax, s, colour(i), LINESTYLES[i % len(LINESTYLES)], scale, _cell_label(s.label, s.n))
            ax.set_xlabel("games played (log scale)")
            ax.set_ylabel(y_label)
            ax.legend(title="cell", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
            ax.set_title(f"Convergence of the {what}: {subject}", loc="left")
            _limits(ax, series, rate, scale)
        elif len(series) > MAX_PANELS:
            fig = new_figure(9.0, 4.6)
            ax = fig.add_subplot()
            _funnel(ax, series, scale)
            ax.set_xlabel("games played (log scale)")
            ax.set_ylabel(f"running {what} − final ({'points' if rate else unit})")
            ax.set_title(f"Convergence of the {what} in {len(series)} cells: {subject}", loc="left")
        else:
            cols = min(MAX_PANEL_COLUMNS, len(series))
            rows = math.ceil(len(series) / cols)
            titles = [textwrap.fill(f"{s.label} (n={s.n:,})", 30) for s in series]
            lines = max(t.count("\n") + 1 for t in titles)
            width, height = min(14.0, 2.6 * cols + 0.6), min(40.0, (1.5 + 0.14 * lines) * rows + 0.9)
            # a fixed grid: constrained layout over dozens of panels costs seconds per chart
            fig = Figure(figsize=(width, height))
            FigureCanvasAgg(fig)
            axes = fig.subplots(
                rows,
                cols,
                sharex=True,
                sharey=True,
                squeeze=False,
                gridspec_kw={
                    "left": 0.75 / width,
                    "right": 1 - 0.15 / width,
                    "bottom": 0.65 / height,
                    "top": 1 - 0.8 / height,
                    "wspace": 0.12,
                    "hspace": (0.3 + 0.14 * lines) / (height / rows),
                },
            )
            for i, ax in enumerate(axes.flat):
                if i >= len(series):
                    ax.set_visible(False)
                    continue
                s = series[i]
                _running(ax, s, colour(0), "-", scale, None)
                ax.set_title(titles[i], fontsize=7, fontweight="normal", loc="left")
                ax.tick_params(labelsize=7)
            _limits(axes.flat[0], series, rate, scale)
            fig.supxlabel("games played (log scale)", fontsize=10, y=0.15 / height, va="bottom")
            fig.supylabel(y_label, fontsize=10, x=0.1 / width, ha="left")
            fig.suptitle(
                f"Convergence of the {what}: {subject}",
                x=0.01,
                y=1 - 0.12 / height,
                ha="left",
                va="top",
                fontsize=11,
                fontweight="bold",
            )
    title = f"Convergence of the {what}"

    def fmt(x: float) -> str:
        return page_text.pct(x) if rate else ("n/a" if math.isnan(x) else f"{x:,.2f}")

    items = []
    for s in series:
        first = next((j for j, g in enumerate(s.games) if g >= 10), 0)
        items.append(
            f"{s.label} (n={s.n:,}): {fmt(s.estimate[first])} after {s.games[first]:,} games, "
            f"{fmt(s.estimate[-1])} (95 % CI {fmt(s.low[-1])} to {fmt(s.high[-1])}) after all {s.n:,}"
        )
    alt = (
        f"{title} for {subject}: the running {what} of each cell against the number of games played, "
        f"with its 95 % {band} band. " + alt_list(items)
    )
    if len(series) > MAX_PANELS:
        caption = (
            f"Each line is one cell's running {what} (games in seed order, log scale) minus its final "
            f"value; the shaded funnel is, at each game count, the widest running 95 % {band} "
            f"half-width among the cells. Lines that stay inside the funnel and close in on zero have "
            f"settled: more games would not move them much; {_n_text(s.n for s in series)}."
        )
    else:
        caption = (
            f"The {what} of each cell after each number of games (in seed order, log scale), with its "
            f"running 95 % {band} interval as the shaded band: where the line runs flat inside a narrow "
            f"band, more games would not move the estimate much; {_n_text(s.n for s in series)}."
        )
    return save_chart(fig, out, name, title, alt, caption)


def _log_games_axis(ax, last: int) -> None:
    ax.set_xscale("log")
    # plain numbers on the log axis (mathtext is off, so the default 10^k labels would print raw)
    subs = (1.0,) if last > 2000 else (1.0, 2.0, 5.0)
    ax.xaxis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())


def _funnel(ax, series: Sequence[RunningSeries], scale: float) -> None:
    """Every cell's running estimate minus its final one, inside a funnel: at each game count,
    the widest running 95 % half-width among the cells that reached it."""
    top = max(s.n for s in series)
    grid = np.unique(np.geomspace(1, top, 200).round())
    envelope = np.full(len(grid), np.nan)
    for s in series:
        games = np.asarray(s.games, dtype=float)
        width = scale * (np.asarray(s.high) - np.asarray(s.low)) / 2
        ok = ~np.isnan(width)
        if ok.sum() < 2:
            continue
        inside = (grid >= games[ok][0]) & (grid <= games[ok][-1])
        here = np.interp(np.log(grid[inside]), np.log(games[ok]), width[ok])
        envelope[inside] = np.fmax(envelope[inside], here)
    drawn = ~np.isnan(envelope)
    if drawn.any():
        band = envelope[drawn]
        ax.fill_between(grid[drawn], -band, band, color=colour(0), alpha=0.15, linewidth=0)
    spread = []
    for s in series:
        dev = [scale * (v - s.estimate[-1]) for v in s.estimate]
        ax.plot(s.games, dev, color=colour(1), linewidth=0.7, alpha=0.45)
        spread += dev[len(dev) // 4 :]
    ax.axhline(0.0, color="#444444", linewidth=0.8)
    later = envelope[len(envelope) // 4 :]
    values = [abs(v) for v in spread if not math.isnan(v)] + [v for v in later if not math.isnan(v)]
    limit = max(values + [0.5])
    ax.set_ylim(-1.1 * limit, 1.1 * limit)
    _log_games_axis(ax, top)


def _running(ax, s: RunningSeries, col: str, ls: object, scale: float, label: str | None) -> None:
    g = list(s.games)
    lo = [scale * v for v in s.low]
    hi = [scale * v for v in s.high]
    ok = [not (math.isnan(a) or math.isnan(b)) for a, b in zip(lo, hi, strict=True)]
    if any(ok):
        gx = [x for x, k in zip(g, ok, strict=True) if k]
        ax.fill_between(
            gx,
            [v for v, k in zip(lo, ok, strict=True) if k],
            [v for v, k in zip(hi, ok, strict=True) if k],
            color=col,
            alpha=0.18,
            linewidth=0,
        )
    ax.plot(g, [scale * v for v in s.estimate], color=col, linestyle=ls, linewidth=1.5, label=label)
    _log_games_axis(ax, g[-1] if g else 0)


def _limits(ax, series: Sequence[RunningSeries], rate: bool, scale: float) -> None:
    # the band of the first few games can be huge: frame the estimates and the later bands
    values = []
    for s in series:
        start = len(s.games) // 4
        values += [scale * v for v in (*s.estimate, *s.low[start:], *s.high[start:]) if not math.isnan(v)]
    if values:
        lo, hi = min(values), max(values)
        pad = 0.05 * (hi - lo) or 1.0
        lo, hi = lo - pad, hi + pad
        if rate:
            lo, hi = max(-1.0, lo), min(101.0, hi)
        ax.set_ylim(lo, hi)
