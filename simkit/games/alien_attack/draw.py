"""The Alien Attack: USA table as SVG, for the step-through replay page (`simkit replay --html`).

`look(game)` takes a picture of the table (plain tuples, ints and strings copied from the state,
so later moves never change it); `draw(picture)` turns one picture into SVG text: the hex board
with its parks, herds, borders, Canada icons and cities (value on each), what lies on every space
(an open attack marker, a base, a seat's disc, an emptied space, a captured disc's inert marker),
and a panel with the round, the Mothership and each seat's discs, score, parks, bases kept,
captures, unused powers and mission cards (face up from the set-up, rulebook [Setup] step 5), with
the final totals once the final scoring is told.

The board's layout (`centre`, `corners`, `border_edges`) lives here as pure functions; the
matplotlib chart (`board_plot.py`) draws with the same ones.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from simkit.core import svg
from simkit.games.alien_attack.components import BORDERS, DIRECTIONS, Board
from simkit.games.alien_attack.state import ATTACK, BASE, EMPTY, LOST, NONE, POWER_NAMES

SQRT3 = math.sqrt(3)
BORDER_COLOURS = {
    "atlantic": "#1f5fbf",
    "pacific": "#1a9a9a",
    "gulf": "#e08a00",
    "mexico": "#c0392b",
    "canada": "#7b3fa0",
}
PARK_COLOUR, HERD_COLOUR, PLAIN_COLOUR = "#a9d39e", "#d9b38c", "#eeeeee"
CITY_COLOUR, ICON_COLOUR, BASE_COLOUR = "#1f3fbf", "#d62728", "#3b1f4a"

# DIRECTIONS[k] crosses the hex edge between corners EDGE[k] (corners counted from 30 degrees,
# anticlockwise; the y axis points north).
EDGE = {(1, 0): (5, 0), (1, -1): (0, 1), (0, -1): (1, 2), (-1, 0): (2, 3), (-1, 1): (3, 4), (0, 1): (4, 5)}


def centre(q: float, r: float) -> tuple[float, float]:
    """Centre of axial (q, r) for pointy-top hexes of radius 1, north up (y grows northwards)."""
    return SQRT3 * (q + r / 2), -1.5 * r


def corners(q: float, r: float) -> list[tuple[float, float]]:
    x, y = centre(q, r)
    return [
        (x + math.cos(math.radians(30 + 60 * k)), y + math.sin(math.radians(30 + 60 * k))) for k in range(6)
    ]


def border_edges(board: Board) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """Each border's edges as (border, end, end): the edges of its spaces that face off the board,
    drawn a little inside the hex for each later border so a space on two borders shows both."""
    out = []
    for bit, name in enumerate(BORDERS):
        for s in board.borders[name]:
            q, r = board.coords[s]
            pts = corners(q, r)
            cx, cy = centre(q, r)
            shrink = 1 - 0.07 * bit
            for dq, dr in DIRECTIONS:
                if board.space_at(q + dq, r + dr):
                    continue
                a, b = EDGE[(dq, dr)]
                (x1, y1), (x2, y2) = pts[a], pts[b]
                out.append(
                    (
                        name,
                        (cx + (x1 - cx) * shrink, cy + (y1 - cy) * shrink),
                        (cx + (x2 - cx) * shrink, cy + (y2 - cy) * shrink),
                    )
                )
    return out


class Picture(NamedTuple):
    """The table at one moment, plain data. Per-seat entries are tuples indexed by seat (0-based);
    `cell[s - 1]` is what lies on space s (state.py's codes)."""

    board: Board  # immutable; the same object in every picture of a game
    round: int
    rounds: int
    cell: tuple[int, ...]
    open: tuple[int, ...]
    bag: int
    discs: tuple[int, ...]
    score: tuple[int, ...]
    parks: tuple[int, ...]
    bases: tuple[int, ...]
    captured: tuple[int, ...]
    powers: tuple[tuple[str, ...], ...]  # unused powers' names per seat
    city_card: tuple[int, ...]
    border_card: tuple[str, ...]
    totals: tuple[int, ...] | None  # final totals once the final scoring is told


def look(game: Any) -> Picture:
    """A picture of `game`'s table (a `game.Game`), copied from its state."""
    st = game.st
    log = game.log
    told_final = bool(log) and log[-1].get("event") in ("final", "end")
    totals = None
    if told_final:
        finals = {e["seat"]: e["total"] for e in log if e.get("event") == "final"}
        totals = tuple(finals.get(p, 0) for p in range(st.players))
    return Picture(
        board=st.board,
        round=st.round,
        rounds=st.rounds,
        cell=tuple(st.cell[1:]),
        open=tuple(st.open),
        bag=len(st.bag),
        discs=tuple(st.discs),
        score=tuple(st.score),
        parks=tuple(st.parks),
        bases=tuple(st.bases),
        captured=tuple(st.captured),
        powers=tuple(
            tuple(POWER_NAMES[b] for b in POWER_NAMES if st.powers[p] & b) for p in range(st.players)
        ),
        city_card=tuple(st.city_card),
        border_card=tuple(st.border_card),
        totals=totals,
    )


SCALE = 22.0  # pixels per hex radius
MARGIN = 16.0
PANEL_WIDTH = 300.0
POWER_SHORT = {"protection": "Protect", "cover": "Cover", "neighborhood": "Nbhd", "extra_turn": "Extra"}


def _frame(board: Board) -> tuple[float, float, float, float]:
    """(min x, max y, width, height) of the board in hex units, icons included."""
    pts = [p for s in range(1, board.n + 1) for p in corners(*board.coords[s])]
    pts += [p for q, r in board.icons for p in corners(q, r)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), max(ys), max(xs) - min(xs), max(ys) - min(ys)


def _r(v: float) -> float:
    """A coordinate to a tenth of a pixel: short SVG text, so a page's steps compress well."""
    return round(v, 1)


class _Layout(NamedTuple):
    centres: tuple[tuple[float, float], ...]  # centres[s]: pixel centre of space s (index 0 unused)
    board: str  # the board's SVG, the same at every step
    cities: str  # the cities, drawn over the pieces so a disc never hides a city's value
    width: float
    height: float


_LAYOUTS: dict[tuple[str, str], _Layout] = {}  # by (board file, digest): drawn once per board


def _layout(board: Board) -> _Layout:
    key = (board.path, board.sha256)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = _draw_board(board)
    return _LAYOUTS[key]


def _draw_board(board: Board) -> _Layout:
    """The printed board in pixels: spaces by feature, borders, Canada icons, cities and numbers."""
    x0, y0, w, h = _frame(board)

    def px(x: float, y: float) -> tuple[float, float]:
        return _r(MARGIN + (x - x0) * SCALE), _r(MARGIN + (y0 - y) * SCALE)

    centres = ((0.0, 0.0),) + tuple(px(*centre(*board.coords[s])) for s in range(1, board.n + 1))
    kinds = {"plain": PLAIN_COLOUR, "herd": HERD_COLOUR, "park": PARK_COLOUR}
    hexes: dict[str, list[str]] = {k: [] for k in kinds}
    for s in range(1, board.n + 1):
        kind = "park" if board.park[s] else "herd" if board.herd_region[s] >= 0 else "plain"
        hexes[kind].append(svg.polygon([px(*p) for p in corners(*board.coords[s])]))
    body = [
        svg.group(hexes[k], fill=colour, stroke="#999", stroke_width=0.6, class_=f"spaces {k}")
        for k, colour in kinds.items()
    ]
    for name, colour in BORDER_COLOURS.items():
        edges = [svg.line(*px(*a), *px(*b)) for border, a, b in border_edges(board) if border == name]
        body.append(
            svg.group(edges, stroke=colour, stroke_width=3, stroke_linecap="round", class_=f"border {name}")
        )
    icons = []
    for q, r in board.icons:
        x, y = px(*centre(q, r))
        icons.append(svg.polygon([(x, y - 8), (x + 8, y), (x, y + 8), (x - 8, y)]))
    body.append(svg.group(icons, fill=ICON_COLOUR, class_="icons"))
    numbers = [svg.text(x, _r(y - 8.5), s) for s, (x, y) in enumerate(centres) if s]
    body.append(svg.group(numbers, font_size=8.5, fill=svg.INK, text_anchor="middle", class_="numbers"))
    dots, values = [], []
    for city in board.cities:
        x, y = px(*centre(*city.vertex))
        dots.append(svg.circle(x, y, 6.5))
        values.append(svg.text(x, _r(y + 3), city.value))
    cities = svg.group(dots, fill=CITY_COLOUR, stroke="#fff", stroke_width=1, class_="cities") + svg.group(
        values, font_size=8.5, font_weight="bold", fill="#fff", text_anchor="middle"
    )
    return _Layout(centres, "".join(body), cities, w * SCALE + 2 * MARGIN, h * SCALE + 2 * MARGIN)


def draw(picture: Picture) -> str:
    """The table as one SVG drawing, about 900 px wide."""
    board = picture.board
    layout = _layout(board)
    body = [layout.board, *_pieces(picture.cell, layout.centres), layout.cities]
    body.append(_panel(picture, round(layout.width), MARGIN))
    body.append(_legend(MARGIN, layout.height + 4))
    height = max(layout.height, 82 + MARGIN + 112 * len(picture.discs))
    label = f"Alien Attack: USA, round {picture.round} of {picture.rounds}"
    return svg.svg(layout.width + PANEL_WIDTH, height + 40, body, label=label)


def _pieces(cell: tuple[int, ...], centres: tuple[tuple[float, float], ...]) -> list[str]:
    """What lies on the spaces, one group per kind (and per seat for discs): an open attack
    marker, a base, an emptied space (a destroyed base's), a captured disc's inert marker, or a
    seat's disc; nothing where the marker is still in the Mothership. Each piece names its space
    (`data-space`) and the group its kind (`class`), so tests can count them."""
    found: dict[int, list[str]] = {}
    for s, c in enumerate(cell, start=1):
        if c == NONE:
            continue
        x, y = centres[s]
        if c == ATTACK:
            piece = svg.rect(x - 8, y - 4, 16, 12, rx=2, data_space=s)
        elif c == BASE:
            points = [
                (x + 9 * math.cos(math.radians(30 + 60 * k)), y + 3 + 9 * math.sin(math.radians(30 + 60 * k)))
                for k in range(6)
            ]
            piece = svg.polygon(points, data_space=s)
        elif c == LOST:
            piece = svg.polygon(
                [(x - 5, y - 3), (x + 5, y + 7), (x, y + 2), (x - 5, y + 7), (x + 5, y - 3), (x, y + 2)],
                data_space=s,
            )
        else:  # a disc, or an emptied space (a dashed ring)
            piece = svg.circle(x, _r(y + 2), 8 if c >= 0 else 7, data_space=s)
        found.setdefault(c, []).append(piece)
    styles = {
        ATTACK: {"fill": svg.WARN, "stroke": svg.INK, "class_": "marker open"},
        BASE: {"fill": BASE_COLOUR, "class_": "base"},
        EMPTY: {
            "fill": "none",
            "stroke": svg.MUTED,
            "stroke_width": 1.2,
            "stroke_dasharray": "2 2",
            "class_": "emptied",
        },
        LOST: {"fill": "none", "stroke": svg.BAD, "stroke_width": 2, "class_": "lost"},
    }
    out = []
    for c, pieces in sorted(found.items()):
        style = styles.get(c) or {
            "fill": svg.SEAT_COLOURS[c],
            "stroke": svg.INK,
            "class_": f"disc seat-{c + 1}",
        }
        out.append(svg.group(pieces, **style))
    return out


def _panel(picture: Picture, x: float, y: float) -> str:
    """Round, Mothership and a card per seat."""
    out = [
        svg.text(
            x,
            y + 14,
            f"Round {picture.round} of {picture.rounds}"
            if picture.round
            else f"Set-up: {picture.rounds} rounds to play",
            font_size=16,
            font_weight="bold",
            class_="round",
            data_round=picture.round,
        ),
        svg.text(x, y + 34, f"Mothership: {picture.bag} markers left", class_="bag", data_bag=picture.bag),
        svg.text(
            x,
            y + 50,
            f"Open markers: {', '.join(map(str, picture.open)) or 'none'}",
            class_="open-list",
            data_open=len(picture.open),
        ),
        svg.text(
            x, y + 66, f"Bases on the board: {sum(1 for c in picture.cell if c == BASE)}", fill=svg.MUTED
        ),
    ]
    top = y + 82
    for p in range(len(picture.discs)):
        out.append(_seat_card(picture, p, x, top + p * 112))
    return svg.group(out, class_="panel")


def _seat_card(picture: Picture, p: int, x: float, y: float) -> str:
    colour = svg.SEAT_COLOURS[p]
    powers = ", ".join(POWER_SHORT[n] for n in picture.powers[p]) or "none"
    score = f"score {picture.score[p]}"
    if picture.totals is not None:
        score += f", final total {picture.totals[p]}"
    rows = [
        svg.rect(x, y, PANEL_WIDTH - 16, 104, rx=4, fill="#fff", stroke=colour, stroke_width=2),
        svg.circle(x + 14, y + 16, 8, fill=colour, stroke=svg.INK, stroke_width=1),
        svg.text(x + 28, y + 21, f"Seat {p + 1}: {score}", font_size=13, font_weight="bold"),
        svg.text(x + 10, y + 40, f"discs left {picture.discs[p]}, captured {picture.captured[p]}"),
        svg.text(x + 10, y + 56, f"parks {picture.parks[p]}, bases kept {picture.bases[p]}"),
        svg.text(x + 10, y + 72, f"powers unused: {powers}"),
        svg.text(
            x + 10,
            y + 90,
            f"City card {picture.city_card[p]}, Border card {str(picture.border_card[p]).title()}",
        ),
    ]
    return svg.group(
        rows,
        class_="seat",
        data_seat=p + 1,
        data_discs_left=picture.discs[p],
        data_score=picture.score[p],
        data_bases=picture.bases[p],
    )


def _legend(x: float, y: float) -> str:
    items = [
        svg.rect(x, y, 12, 12, fill=PARK_COLOUR),
        svg.text(x + 16, y + 10, "park"),
        svg.rect(x + 54, y, 12, 12, fill=HERD_COLOUR),
        svg.text(x + 70, y + 10, "herd"),
        svg.circle(x + 116, y + 6, 6, fill=CITY_COLOUR),
        svg.text(x + 126, y + 10, "city (value)"),
        svg.polygon([(x + 202, y), (x + 208, y + 6), (x + 202, y + 12), (x + 196, y + 6)], fill=ICON_COLOUR),
        svg.text(x + 212, y + 10, "Canada icon"),
        svg.rect(x + 290, y, 14, 11, rx=2, fill=svg.WARN, stroke=svg.INK),
        svg.text(x + 308, y + 10, "open marker"),
        svg.rect(x + 386, y, 12, 12, fill=BASE_COLOUR),
        svg.text(x + 402, y + 10, "base"),
        svg.circle(x + 446, y + 6, 6, fill="none", stroke=svg.MUTED, stroke_dasharray="2 2"),
        svg.text(x + 456, y + 10, "destroyed"),
        svg.text(x + 518, y + 10, "×", fill=svg.BAD, font_weight="bold"),
        svg.text(x + 528, y + 10, "captured"),
    ]
    borders = [
        item
        for k, (name, colour) in enumerate(BORDER_COLOURS.items())
        for item in (
            svg.line(x + k * 90, y + 26, x + k * 90 + 16, y + 26, stroke=colour, stroke_width=3),
            svg.text(x + k * 90 + 20, y + 30, name.title()),
        )
    ]
    return svg.group(items + borders, class_="legend", font_size=11)
