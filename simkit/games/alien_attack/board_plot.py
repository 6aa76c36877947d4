"""A matplotlib drawing of the Alien Attack: USA board, plain or as a heatmap of a value per space
(how often each space becomes a base, where discs are captured...). For the report and notebooks;
the rules never import it.

    from simkit.games.alien_attack import board_plot, components
    fig = board_plot.draw_board(components.load(), values={s: rate for s, rate in ...},
                                title="Share of games in which the space became a base")
    fig.savefig("bases.svg")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from simkit.games.alien_attack.components import Board

# the layout is the replay drawing's: one geometry for both pictures of the board
from simkit.games.alien_attack.draw import (  # noqa: F401 (EDGE, SQRT3: part of this module's names)
    BORDER_COLOURS,
    EDGE,
    HERD_COLOUR,
    PARK_COLOUR,
    PLAIN_COLOUR,
    SQRT3,
    border_edges,
    centre,
    corners,
)


def draw_board(
    board: Board,
    values: Mapping[int, float] | Sequence[float] | None = None,
    ax=None,
    title: str | None = None,
    label_spaces: bool = True,
    cmap: str = "Reds",
    value_label: str = "",
):
    """Draw the board on `ax` (a new figure when None) and return the figure. With `values`
    (space -> number, or a sequence indexed by space number) the spaces are shaded by value with a
    colour bar; without, by feature (parks green, herds brown). Borders are drawn as coloured
    edges, cities as numbered blue dots on their vertices, Canada icons as red diamonds."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib import cm, colors
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    if ax is None:
        fig = Figure(figsize=(11, 7.5))
        ax = fig.add_subplot(1, 1, 1)
    else:
        fig = ax.figure
    shade = None
    if values is not None:
        vals = (
            {s: float(values[s]) for s in range(1, board.n + 1)}
            if not isinstance(values, Mapping)
            else dict(values)
        )
        finite = [v for v in vals.values() if v == v]
        lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
        norm = colors.Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1)
        mapper = cm.ScalarMappable(norm=norm, cmap=cmap)
        shade = (vals, mapper)
    for s in range(1, board.n + 1):
        q, r = board.coords[s]
        if shade is not None:
            v = shade[0].get(s)
            face = shade[1].to_rgba(v) if v is not None and v == v else PLAIN_COLOUR
        else:
            face = (
                PARK_COLOUR if board.park[s] else HERD_COLOUR if board.herd_region[s] >= 0 else PLAIN_COLOUR
            )
        ax.add_patch(Polygon(corners(q, r), closed=True, facecolor=face, edgecolor="#999999", linewidth=0.5))
        if shade is not None and board.park[s]:
            x, y = centre(q, r)
            ax.plot([x], [y + 0.5], marker="^", color="#2e7d32", markersize=4)
        if label_spaces:
            x, y = centre(q, r)
            ax.text(x, y - 0.35, str(s), ha="center", va="center", fontsize=5.5, color="#333333")
    # borders: the edges of each border space that face off the board
    for name, (x1, y1), (x2, y2) in border_edges(board):
        ax.plot([x1, x2], [y1, y2], color=BORDER_COLOURS[name], linewidth=2.2, solid_capstyle="round")
    for q, r in board.icons:
        x, y = centre(q, r)
        ax.plot([x], [y], marker="D", color="#d62728", markersize=7)
    for city in board.cities:
        x, y = centre(*city.vertex)
        ax.plot([x], [y], marker="o", color="#1f3fbf", markersize=9, markeredgecolor="white")
        ax.text(x, y, str(city.value), ha="center", va="center", fontsize=6, color="white", fontweight="bold")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    handles = [
        Line2D([], [], color=c, linewidth=2.2, label=n.capitalize()) for n, c in BORDER_COLOURS.items()
    ]
    handles += [
        Line2D([], [], marker="o", color="#1f3fbf", linestyle="", label="city (value)"),
        Line2D([], [], marker="D", color="#d62728", linestyle="", label="Canada icon"),
    ]
    if shade is None:
        handles += [
            Line2D([], [], marker="h", color=PARK_COLOUR, linestyle="", markersize=10, label="National Park"),
            Line2D([], [], marker="h", color=HERD_COLOUR, linestyle="", markersize=10, label="herd"),
        ]
    else:
        bar = fig.colorbar(shade[1], ax=ax, shrink=0.6, label=value_label)
        if bar.solids is not None:
            bar.solids.set_rasterized(False)  # vector SVG: no embedded raster image
    ax.legend(handles=handles, loc="lower left", fontsize=7, frameon=False)
    if title:
        ax.set_title(title)
    return fig
