"""Charts for the HTML report: matplotlib figures saved as PNG, SVG and an inline SVG string.

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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

# Okabe & Ito (2008), ordered so that the first colours contrast well on white; yellow last.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))
# Above this many cells the length chart shows quantile boxes instead of one ECDF line per cell.
MAX_ECDF_LINES = 16
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


def _wrap_label(label: str) -> str:
    """'countdown=7 dice=6' -> one setting per line, so tick labels stay narrow."""
    return "\n".join(label.split(" "))


def _n_text(ns: Sequence[int]) -> str:
    ns = [int(n) for n in ns]
    if not ns:
        return "no games"
    lo, hi = min(ns), max(ns)
    return f"n = {lo:,} games per cell" if lo == hi else f"n = {lo:,} to {hi:,} games per cell"


def _alt_list(items: list[str]) -> str:
    if len(items) > ALT_ITEMS:
        return "; ".join(items[:ALT_ITEMS]) + f"; and {len(items) - ALT_ITEMS} more cells (see the table)"
    return "; ".join(items)


def _pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.{digits}f} %"


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
    dodge = 0.7 / len(groups) if len(groups) > 1 else 0.0
    # room for the tick labels (one setting per line); past the widest figure they turn vertical
    chars = max(len(part) for x in xs for part in x.split(" "))
    per_x = max(0.6 * len(groups) ** 0.5, 0.085 * chars + 0.2)
    vertical = len(xs) * per_x > 11.5
    width = min(14.0, max(5.5, len(xs) * (max(0.3, 0.2 * len(groups)) if vertical else per_x) + 2.5))
    top = max((p.high for p in points if not math.isnan(p.high)), default=1.0)
    y_max = min(100.0, max(5.0, math.ceil(top * 100 * 1.15 / 5) * 5))
    with matplotlib.rc_context(STYLE):
        fig = new_figure(width, 4.2)
        ax = fig.add_subplot()
        for gi, group in enumerate(groups):
            mine = [p for p in points if p.group == group and not math.isnan(p.rate)]
            if not mine:
                continue
            offset = (gi - (len(groups) - 1) / 2) * dodge
            pos = [xs.index(p.x) + offset for p in mine]
            rate = [100 * p.rate for p in mine]
            # clamp: at p = 0 or 1 rounding can put a bound a hair on the wrong side of the estimate
            err = [
                [max(0.0, 100 * (p.rate - p.low)) for p in mine],
                [max(0.0, 100 * (p.high - p.rate)) for p in mine],
            ]
            ax.errorbar(
                pos,
                rate,
                yerr=err,
                fmt=MARKERS[gi % len(MARKERS)],
                color=colour(gi),
                ecolor=colour(gi),
                elinewidth=1.4,
                capsize=3,
                markersize=6,
                label=group if group is not None else None,
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
        f"{p.label}: {_pct(p.rate)} (95 % CI {_pct(p.low)} to {_pct(p.high)}, {p.wins} of {p.n} games)"
        for p in points
    ]
    alt = f"{title} for {subject}, with 95 % Wilson intervals. " + _alt_list(items)
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
    height = min(16.0, max(2.6, 0.34 * len(cells) + 1.6))
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
        ax.set_yticks(list(ys), [f"{label} (n={n:,})" for label, n in cells])
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
            f"{reason} {_pct(counts.get((label, reason), 0) / n if n else float('nan'), 0)}"
            for reason in reasons
        ]
        items.append(f"{label} (n={n}): " + ", ".join(parts))
    alt = f"{title} for {subject}: share of each end reason per cell. " + _alt_list(items)
    caption = f"Share of games per end reason, one bar per cell; {_n_text(n for _, n in cells)}."
    return save_chart(fig, out, name, title, alt, caption)


# --- game length ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LengthSeries:
    label: str
    group: str | None  # strategy when the grid varies it
    x: str  # difficulty label
    lengths: Sequence[float]  # distinct lengths, ascending
    counts: Sequence[int]  # games of each length
    quantiles: dict[str, float]  # q05 q25 q50 q75 q95 mean

    @property
    def n(self) -> int:
        return int(sum(self.counts))


def length_chart(series: Sequence[LengthSeries], unit: str, out: Path, name: str, subject: str) -> Chart:
    """Game length per cell: ECDF lines (colour = strategy, line style = settings) for up to
    MAX_ECDF_LINES cells, quantile boxes beyond that."""
    series = [s for s in series if s.n > 0]
    if len(series) <= MAX_ECDF_LINES:
        fig, how = _length_ecdf(series, unit, subject), "ecdf"
    else:
        fig, how = _length_boxes(series, unit, subject), "boxes"
    title = "Game length"
    items = [
        f"{s.label}: median {s.quantiles['q50']:g}, middle half {s.quantiles['q25']:g} to "
        f"{s.quantiles['q75']:g} {unit} (n={s.n})"
        for s in series
    ]
    alt = f"{title} for {subject}, in {unit}, per cell. " + _alt_list(items)
    if how == "ecdf":
        caption = (
            f"Cumulative distribution of game length: the share of games over by each number of {unit}, "
            f"one line per cell; {_n_text(s.n for s in series)}."
        )
    else:
        caption = (
            f"Game length in {unit} per cell: box from the 25th to the 75th percentile, line at the "
            f"median, whiskers from the 5th to the 95th percentile; {_n_text(s.n for s in series)}."
        )
    return save_chart(fig, out, name, title, alt, caption)


def _styles(series: Sequence[LengthSeries]) -> list[tuple[str, object]]:
    groups = list(dict.fromkeys(s.group for s in series))
    if len(groups) > 1:
        xs = list(dict.fromkeys(s.x for s in series))
        return [(colour(groups.index(s.group)), LINESTYLES[xs.index(s.x) % len(LINESTYLES)]) for s in series]
    return [(colour(i), LINESTYLES[(i // len(PALETTE)) % len(LINESTYLES)]) for i in range(len(series))]


def _length_ecdf(series: Sequence[LengthSeries], unit: str, subject: str) -> Figure:
    with matplotlib.rc_context(STYLE):
        fig = new_figure(9.0, 4.4)
        ax = fig.add_subplot()
        for s, (col, ls) in zip(series, _styles(series), strict=True):
            total = s.n
            cum, ys = 0, []
            for c in s.counts:
                cum += c
                ys.append(100 * cum / total)
            # start the step at zero just left of the shortest game
            xs = [s.lengths[0] - 1, *s.lengths]
            ax.step(
                xs,
                [0.0, *ys],
                where="post",
                color=col,
                linestyle=ls,
                linewidth=1.6,
                label=f"{s.label} (n={total:,})",
            )
        ax.set_ylim(0, 100.5)
        ax.set_xlabel(f"game length ({unit})")
        ax.set_ylabel(f"games over within this many {unit} (%)")
        ax.set_title(f"Game length: {subject}", loc="left")
        ax.legend(title="cell", loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    return fig


def _length_boxes(series: Sequence[LengthSeries], unit: str, subject: str) -> Figure:
    height = min(30.0, max(3.0, 0.28 * len(series) + 1.6))
    stats = [
        {
            "label": f"{s.label} (n={s.n:,})",
            "med": s.quantiles["q50"],
            "q1": s.quantiles["q25"],
            "q3": s.quantiles["q75"],
            "whislo": s.quantiles["q05"],
            "whishi": s.quantiles["q95"],
            "mean": s.quantiles["mean"],
            "fliers": [],
        }
        for s in series
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
        ax.set_xlabel(f"game length ({unit})")
        ax.grid(axis="y", visible=False)
        ax.set_title(f"Game length: {subject} (diamond: mean)", loc="left")
    return fig


SLUG = re.compile(r"[^A-Za-z0-9._-]+")


def slug(text: str) -> str:
    """A file- and id-safe name: letters, digits, '.', '_' and '-'."""
    return SLUG.sub("-", text).strip("-.") or "dataset"
