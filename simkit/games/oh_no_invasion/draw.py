"""The Oh no... INVASION!!! table as a picture, for the step-through replay page.

`look(game)` copies what lies on the table into plain data (named tuples of strings, ints and
bools), cheap enough to run after every event; `draw(picture)` turns it into one SVG. What it
shows: the level, the turn and whose it is, the Final Conflict and the result; the Spawnmonster
with its Shield aliens; the Resistance and Spawn decks (backs with their counts), their discards
(the top card face up), the box and the alien in flight; per station its modules (symbols,
Sabotalien, sabotaged), its alien figures by colour and the hand. Hands are drawn face up at
levels 0-2 (open cards at level 0, table talk at 1-2: RULINGS §2) and as card backs with their
count at level 3, where only hand sizes are public.
"""

from __future__ import annotations

from typing import NamedTuple

from simkit.core import svg
from simkit.games.oh_no_invasion.components import (
    CATALYST,
    EVAPORALIEN,
    HUB,
    INVALIEN,
    LEFT,
    MORPH_BOX,
    SABOTALIEN,
    TELEPORTER,
)

# How each colour of the default component file looks; a colour a data file adds is drawn grey
FILL = {
    "red": "#d62828",
    "yellow": "#f4d35e",
    "green": "#2a9d4a",
    "pink": "#f28ab2",
    "silver": "#b8bec6",
    "blue": "#2f6fd6",
    "purple": "#7b2cbf",
    "orange": "#f08c00",
    "black": "#111111",
}
LIGHT = frozenset({"yellow", "pink", "silver", "orange"})  # fills that need dark lettering
KIND_NAMES = {INVALIEN: "Invalien", EVAPORALIEN: "Evaporalien", SABOTALIEN: "Sabotalien"}
MODULE_NAMES = {HUB: "Hub", CATALYST: "Catalyst", MORPH_BOX: "Morph-box", TELEPORTER: "Teleporter"}
MODULE_MARKS = {CATALYST: "Ca", MORPH_BOX: "Mo", TELEPORTER: "Te"}  # a module card in a hand
CARD_BACK = "#2e4057"
SHORT = {"Catalyst": "Catal.", "Morph-box": "Morph", "Teleporter": "Telep."}  # on a narrow module
RESULTS = {
    "spawnmonster_destroyed": "Won: the Spawnmonster is destroyed",
    "crew_eliminated": "Lost: the whole crew is eliminated",
    "shields_complete": "Lost: the last Shield alien joined the Spawnmonster",
}
CAUSES = {"invaliens": "by Invaliens", "sabotage": "by sabotage", "kamikaze": "by a kamikaze"}


class Card(NamedTuple):
    """A Resistance card face up: its name, colour ("" for hubs) and mark on a small card."""

    name: str
    colour: str
    mark: str


class Module(NamedTuple):
    name: str
    symbols: tuple[str, ...]  # the colours it shows
    sabotalien: str  # the colour of the Sabotalien next to it, "" for none
    sabotaged: bool


class Alien(NamedTuple):
    """An Invalien or Evaporalien card on a station, or a Spawn card in flight or discarded."""

    name: str
    colour: str
    kind: str  # "Invalien", "Evaporalien", "Sabotalien" or "Shield alien"
    figures: int
    flight: str  # "flies left" / "flies right" ("" for a Shield alien)
    orders: str  # "orders red at 6+", "orders pink" ("" for a Shield alien)


class Station(NamedTuple):
    seat: int
    alive: bool
    hand: tuple[Card, ...] | None  # None when hidden (level 3)
    hand_size: int
    modules: tuple[Module, ...]
    aliens: tuple[Alien, ...]


class Picture(NamedTuple):
    level: int
    level_name: str
    turn: int
    active: int
    final_conflict: bool
    end_reason: str  # "" while the game goes on
    stations: tuple[Station, ...]
    shields: tuple[str, ...]  # colours of the Shield aliens next to the Spawnmonster
    shields_total: int
    deck: int
    discard: int
    discard_top: Card | None
    spawn_deck: int
    spawn_discard: int
    spawn_top: Alien | None
    box: int
    flying: Alien | None  # the Spawn card drawn and not yet resolved
    falling: tuple[int, str, bool] | None  # (seat, cause, keeps the Hub) as an elimination is told


def _card(comp, card: int) -> Card:
    category = comp.res_category[card]
    colour = comp.colours[comp.res_colour[card]] if comp.res_colour[card] >= 0 else ""
    if category == HUB:
        mark = comp.res_name[card].replace("Hub ", "H")
    elif category in MODULE_MARKS:
        mark = MODULE_MARKS[category]
    else:
        mark = comp.weapon_types[comp.res_type[card]][:1].upper()
    return Card(comp.res_name[card], colour, mark)


def _alien(comp, card: int) -> Alien:
    colour = comp.colours[comp.spawn_colour[card]]
    if comp.spawn_shield[card]:
        return Alien(comp.spawn_name[card], colour, "Shield alien", 0, "", "")
    flight = "flies left" if comp.spawn_flies[card] == LEFT else "flies right"
    orders = f"orders {comp.colours[comp.spawn_orders[card]]}"
    if comp.spawn_threshold[card]:
        orders += f" at {comp.spawn_threshold[card]}+"
    kind = KIND_NAMES[comp.spawn_kind[card]]
    return Alien(comp.spawn_name[card], colour, kind, comp.spawn_aliens[card], flight, orders)


def look(game) -> Picture:
    """The table now, copied into plain data (an event told later never changes it)."""
    s, comp = game.state, game.comp
    colours = comp.colours
    open_hands = s.level < 3
    stations = []
    for p in range(s.n):
        modules = tuple(
            Module(
                comp.res_name[m],
                tuple(colours[c] for c in comp.res_symbols[m]),
                colours[comp.spawn_colour[a]] if a >= 0 else "",
                f,
            )
            for m, a, f in zip(s.mods[p], s.sabo[p], s.flipped[p], strict=True)
        )
        hand = tuple(_card(comp, c) for c in s.hands[p]) if open_hands else None
        aliens = tuple(_alien(comp, a) for a in s.aliens[p])
        stations.append(Station(p, s.alive[p], hand, len(s.hands[p]), modules, aliens))
    # an elimination is logged before its cards leave the station: say so on the picture
    falling = None
    last = game.log[-1] if game.log else None
    if last is not None and last.get("event") == "eliminated":
        seat = int(str(last["player"]).lstrip("P")) - 1
        falling = (seat, str(last.get("cause", "")), bool(last.get("stays_in_game")))
    from simkit.games.oh_no_invasion import LEVEL_NAMES  # the package imports this module

    return Picture(
        level=s.level,
        level_name=LEVEL_NAMES.get(s.level, ""),
        turn=s.turn,
        active=s.active,
        final_conflict=s.final_conflict,
        end_reason=s.end_reason or "",
        stations=tuple(stations),
        shields=tuple(colours[comp.spawn_colour[c]] for c in s.shields),
        shields_total=comp.shields_total,
        deck=len(s.deck),
        discard=len(s.discard),
        discard_top=_card(comp, s.discard[-1]) if s.discard else None,
        spawn_deck=len(s.spawn_deck),
        spawn_discard=len(s.spawn_discard),
        spawn_top=_alien(comp, s.spawn_discard[-1]) if s.spawn_discard else None,
        box=len(s.box),
        flying=_alien(comp, s.flying) if s.flying >= 0 else None,
        falling=falling,
    )


# --- drawing -------------------------------------------------------------------------------------

WIDTH = 900
TOP = 184  # the first station row
ROW = 120  # one station
MODULES_X, MODULES_W = 100, 330
ALIENS_X = 442
HAND_X, HAND_W = 654, 240
MINI_W, MINI_H = 24, 34  # a card in a hand
PLURAL = {True: "", False: "s"}


def _cards(n: int) -> str:
    return f"{n} card{PLURAL[n == 1]}"


def _fill(colour: str) -> str:
    return FILL.get(colour, svg.MUTED)


def _ink(colour: str) -> str:
    """Lettering that reads on a card of this colour."""
    return svg.INK if colour in LIGHT or colour not in FILL else "#fff"


def _slot(x: float, y: float, w: float, h: float, cls: str | None = None) -> str:
    """An empty place for a card."""
    return svg.rect(x, y, w, h, rx=4, fill="none", stroke=svg.LINE, stroke_dasharray="4 3", class_=cls)


def _back(x: float, y: float, w: float, h: float, count: int, what: str, cls: str) -> str:
    """A face-down pile: a card back with its count."""
    return svg.group(
        [
            svg.title(f"{what}: {_cards(count)}"),
            svg.rect(x, y, w, h, rx=4, fill=CARD_BACK if count else "none", stroke=svg.LINE),
            svg.text(
                x + w / 2,
                y + h / 2 + 7,
                count,
                anchor="middle",
                font_size=20,
                fill="#fff" if count else svg.MUTED,
            ),
        ],
        class_=cls,
        data_count=count,
    )


def _face(
    x: float, y: float, w: float, h: float, words: list[str], colour: str, tip: str, size: int = 12
) -> list[str]:
    """A card face up, filled with its colour, a word a line."""
    body = [
        svg.title(tip),
        svg.rect(x, y, w, h, rx=4, fill=_fill(colour) if colour else "#eee", stroke=svg.INK),
    ]
    for i, word in enumerate(words):
        dy = h / 2 + 5 + (i - (len(words) - 1) / 2) * 15
        body.append(svg.text(x + w / 2, y + dy, word, anchor="middle", font_size=size, fill=_ink(colour)))
    return body


def _banner(text: str, fill: str, cls: str, **attrs: object) -> str:
    return svg.group(
        [
            svg.rect(520, 7, 372, 28, rx=5, fill=fill),
            svg.text(706, 27, text, anchor="middle", fill="#fff", font_size=15, font_weight="bold"),
        ],
        class_=cls,
        **attrs,
    )


def _header(p: Picture) -> list[str]:
    when = f"turn {p.turn}, P{p.active + 1} plays" if p.turn else "set up, P1 starts"
    out = [svg.text(12, 27, f"Level {p.level} ({p.level_name}): {when}", font_size=18, font_weight="bold")]
    if p.end_reason:
        won = p.end_reason == "spawnmonster_destroyed"
        result = RESULTS.get(p.end_reason, p.end_reason)
        out.append(_banner(result, svg.GOOD if won else svg.BAD, "result", data_won=str(won).lower()))
    elif p.final_conflict:
        out.append(_banner("FINAL CONFLICT: kamikaze, then strike", svg.BAD, "final-conflict"))
    return out


def _spawnmonster(p: Picture) -> list[str]:
    """The Spawnmonster and its Shield-alien slots (all filled: the crew loses)."""
    x, y, w = 12, 46, 272
    body = [
        svg.rect(x, y, w, 112, rx=8, fill="#f3e9f7", stroke=svg.LINE),
        svg.text(x + 10, y + 21, "Spawnmonster", font_size=15, font_weight="bold"),
        svg.text(
            x + w - 10, y + 21, f"{len(p.shields)} of {p.shields_total} Shields", anchor="end", font_size=13
        ),
    ]
    slot = min(32.0, (w - 16) / max(p.shields_total, 1))
    for i in range(p.shields_total):
        cx, cy = x + 8 + slot * i + slot / 2, y + 62
        if i < len(p.shields):
            colour = p.shields[i]
            hexagon = [(cx, cy - 15), (cx + 13, cy - 7), (cx + 13, cy + 7), (cx, cy + 15)]
            hexagon += [(cx - 13, cy + 7), (cx - 13, cy - 7)]
            body.append(
                svg.group(
                    [
                        svg.title(f"{colour} Shield alien"),
                        svg.polygon(hexagon, fill=_fill(colour), stroke=svg.INK),
                    ],
                    class_="shield",
                    data_colour=colour,
                )
            )
        else:
            body.append(svg.circle(cx, cy, 12, fill="none", stroke=svg.LINE, stroke_dasharray="3 3"))
    if p.end_reason == "spawnmonster_destroyed":
        body.append(
            svg.text(
                x + w / 2,
                y + 101,
                "destroyed!",
                anchor="middle",
                fill=svg.GOOD,
                font_size=14,
                font_weight="bold",
            )
        )
    elif p.final_conflict and not p.end_reason and not p.shields:
        body.append(
            svg.text(
                x + w / 2,
                y + 101,
                "no Shield left: any weapon kills it",
                anchor="middle",
                fill=svg.BAD,
                font_size=13,
            )
        )
    elif p.shields_total:
        body.append(
            svg.text(
                x + w / 2,
                y + 101,
                "the crew loses when all are filled",
                anchor="middle",
                fill=svg.MUTED,
                font_size=12,
            )
        )
    return [svg.group(body, class_="spawnmonster")]


def _pile(
    x: float,
    y: float,
    w: float,
    h: float,
    title: str,
    kind: str,
    deck: int,
    discard: int,
    face: tuple[list[str], str, str] | None,
) -> list[str]:
    """A deck face down and its discard beside it: the top card face up (`face`: its words,
    colour and tooltip) or an empty slot."""
    dx = x + w + 6
    if face is not None:
        words, colour, tip = face
        shown = svg.group(
            _face(dx, y, w, h, words, colour, tip, 11), class_=f"pile {kind}-discard", data_count=discard
        )
    else:
        shown = _slot(dx, y, w, h, f"pile {kind}-discard")
    return [
        svg.text(x, y - 6, title, font_weight="bold", font_size=13),
        _back(x, y, w, h, deck, f"{title} deck", f"pile {kind}-deck"),
        svg.text(x + w / 2, y + h + 14, "deck", anchor="middle", fill=svg.MUTED, font_size=12),
        shown,
        svg.text(dx + w / 2, y + h + 14, f"discard {discard}", anchor="middle", fill=svg.MUTED, font_size=12),
    ]


def _piles(p: Picture) -> list[str]:
    y, w, h = 66, 70, 80
    out = []
    # Resistance: deck, discard (top card face up), the box of unused hubs
    x = 296
    top = p.discard_top
    face = None
    if top is not None:
        face = (
            top.name.split(" (")[0].split(" ", 1),
            top.colour,
            f"Resistance discard: {_cards(p.discard)}, top {top.name}",
        )
    out += _pile(x, y, w, h, "Resistance", "resistance", p.deck, p.discard, face)
    out.append(svg.text(x, y + h + 30, f"box: {p.box} Hub{PLURAL[p.box == 1]}", fill=svg.MUTED, font_size=12))
    # Spawn: deck and discard
    top = p.spawn_top
    face = None
    if top is not None:
        face = (
            [top.colour, top.kind.split(" ")[0]],
            top.colour,
            f"Spawn discard: {_cards(p.spawn_discard)}, top {top.name}",
        )
    out += _pile(452, y, w, h, "Spawn", "spawn", p.spawn_deck, p.spawn_discard, face)
    # the Spawn card drawn and not yet placed, zapped or flown off (or a kamikaze)
    x = 608
    label = "Kamikaze" if p.final_conflict else "In flight"
    out.append(svg.text(x, y - 6, label, font_weight="bold", font_size=13))
    if p.flying is not None:
        a = p.flying
        card = _face(x, y, 70, h, [a.colour, a.kind.split(" ")[0]], a.colour, a.name, 11)
        card.append(svg.rect(x - 3, y - 3, 76, h + 6, rx=6, fill="none", stroke=svg.BAD, stroke_width=2))
        notes = [f"{a.colour} {a.kind}", f"x{a.figures}, {a.flight}" if a.figures else "", a.orders]
        for k, note in enumerate(n for n in notes if n):
            card.append(svg.text(x + 80, y + 16 + 18 * k, note, font_size=14))
        out.append(svg.group(card, class_="flying", data_colour=a.colour))
    else:
        out.append(_slot(x, y, 70, h))
    return out


def _modules(st: Station, y: float) -> list[str]:
    n = max(len(st.modules), 1)
    w = min(72.0, MODULES_W / n - 4)
    h = 76
    out = []
    for i, m in enumerate(st.modules):
        x = MODULES_X + i * (w + 4)
        name = m.name.split(" (")[0]
        tip = f"{m.name}, shows {', '.join(m.symbols)}"
        tip += (f"; {m.sabotalien} Sabotalien" if m.sabotalien else "") + (
            "; sabotaged: does nothing" if m.sabotaged else ""
        )
        body = [
            svg.title(tip),
            svg.rect(
                x,
                y,
                w,
                h,
                rx=4,
                fill="#e4e4e4" if m.sabotaged else "#fff",
                stroke=svg.BAD if m.sabotaged else svg.INK,
                stroke_width=2 if m.sabotaged else 1,
                stroke_dasharray="5 3" if m.sabotaged else None,
            ),
            svg.text(
                x + w / 2,
                y + 16,
                name if len(name) * 6.5 < w else SHORT.get(name, name[:5]),
                anchor="middle",
                font_size=12,
            ),
        ]
        for k, colour in enumerate(m.symbols):
            sx = x + w / 2 + (k - (len(m.symbols) - 1) / 2) * 16
            body.append(
                svg.circle(
                    sx, y + 33, 6.5, fill=_fill(colour), stroke=svg.INK, class_="symbol", data_colour=colour
                )
            )
        if m.sabotalien:
            tx, ty = x + w / 2, y + 44
            triangle = [(tx, ty), (tx + 9, ty + 15), (tx - 9, ty + 15)]
            body.append(
                svg.group(
                    [
                        svg.title(f"{m.sabotalien} Sabotalien"),
                        svg.polygon(triangle, fill=_fill(m.sabotalien), stroke=svg.INK),
                    ],
                    class_="sabotalien",
                    data_colour=m.sabotalien,
                )
            )
        if m.sabotaged:
            body.append(
                svg.text(x + w / 2, y + h - 4, "sabotaged", anchor="middle", font_size=11, fill=svg.BAD)
            )
        out.append(svg.group(body, class_="module", data_sabotaged=str(m.sabotaged).lower()))
    return out


def _figures(st: Station, y: float) -> list[str]:
    """One mark per alien figure, a row per colour: circles for Invaliens, diamonds for
    Evaporaliens (Sabotaliens sit on their modules)."""
    rows: dict[str, tuple[str, int]] = {}
    for a in st.aliens:
        kind, count = rows.get(a.colour, (a.kind, 0))
        rows[a.colour] = (kind, count + a.figures)
    out = []
    per_row = 13
    line = 0
    for colour, (kind, count) in rows.items():
        ry = y + 8 + line * 17
        out.append(svg.text(ALIENS_X, ry + 5, f"{colour} {count}", font_size=13))
        for i in range(count):
            cx = ALIENS_X + 74 + (i % per_row) * 10
            cy = ry + (i // per_row) * 10
            if kind == "Evaporalien":
                mark = svg.polygon(
                    [(cx, cy - 5.5), (cx + 5.5, cy), (cx, cy + 5.5), (cx - 5.5, cy)],
                    fill=_fill(colour),
                    stroke=svg.INK,
                )
            else:
                mark = svg.circle(cx, cy, 4.6, fill=_fill(colour), stroke=svg.INK)
            out.append(svg.group([mark], class_=f"figure {kind.lower()}", data_colour=colour))
        line += 1 + (count - 1) // per_row
    if not rows:
        out.append(svg.text(ALIENS_X, y + 13, "no aliens", fill=svg.MUTED, font_size=13))
    return out


def _hand(st: Station, y: float) -> list[str]:
    """Face-up mini cards, or card backs when hidden; two rows, narrower cards for a big hand."""
    hidden = st.hand is None
    label = f"hand: {_cards(st.hand_size)}" + (" (hidden)" if hidden else "")
    out = [svg.text(HAND_X, y + 9, label, font_size=13, fill=svg.MUTED)]
    per_row = max(9, -(-st.hand_size // 2))
    step = HAND_W / per_row
    w = min(MINI_W, step - 3)
    for i in range(st.hand_size):
        x = HAND_X + (i % per_row) * step
        cy = y + 18 + (i // per_row) * (MINI_H + 5)
        if hidden:
            out.append(svg.rect(x, cy, w, MINI_H, rx=3, fill=CARD_BACK, stroke=svg.INK, class_="card-back"))
            continue
        card = st.hand[i]
        fill = _fill(card.colour) if card.colour else "#eee"
        out.append(
            svg.group(
                [
                    svg.title(card.name),
                    svg.rect(x, cy, w, MINI_H, rx=3, fill=fill, stroke=svg.INK),
                    svg.text(
                        x + w / 2,
                        cy + 22,
                        card.mark,
                        anchor="middle",
                        font_size=12,
                        fill=_ink(card.colour),
                        font_weight="bold",
                    ),
                ],
                class_="hand-card",
                data_colour=card.colour,
            )
        )
    return out


def _station(p: Picture, st: Station) -> str:
    y = TOP + st.seat * ROW
    active = st.alive and st.seat == p.active and p.turn > 0 and not p.end_reason
    body = [
        svg.rect(
            4,
            y,
            WIDTH - 8,
            ROW - 6,
            rx=8,
            fill="#fff8e1" if active else "#fff",
            stroke=svg.WARN if active else svg.LINE,
            stroke_width=3 if active else 1,
        ),
        svg.rect(4, y, 10, ROW - 6, fill=svg.SEAT_COLOURS[st.seat % len(svg.SEAT_COLOURS)]),
        svg.text(24, y + 28, f"P{st.seat + 1}", font_size=22, font_weight="bold"),
    ]
    if active:
        body.append(svg.text(24, y + 48, "its turn", font_size=13, font_weight="bold"))
    if not st.alive:
        body += [
            svg.text(24, y + 48, "out", font_size=13, fill=svg.BAD),
            svg.text(
                WIDTH / 2,
                y + ROW / 2,
                "eliminated: the station is gone",
                anchor="middle",
                font_size=18,
                fill=svg.MUTED,
            ),
        ]
    else:
        body += _modules(st, y + 8) + _figures(st, y + 8) + _hand(st, y + 8)
    if p.falling is not None and p.falling[0] == st.seat:
        _, cause, stays = p.falling
        stamp = f"ELIMINATED {CAUSES.get(cause, cause)}" + (": keeps the Hub" if stays else "")
        body.append(
            svg.group(
                [
                    svg.rect(200, y + ROW / 2 - 22, 420, 36, rx=6, fill=svg.BAD, fill_opacity=0.9),
                    svg.text(
                        410,
                        y + ROW / 2 + 3,
                        stamp,
                        anchor="middle",
                        font_size=18,
                        font_weight="bold",
                        fill="#fff",
                    ),
                ],
                class_="falling",
            )
        )
    cls = f"station seat-{st.seat + 1}" + (" active" if active else "") + ("" if st.alive else " eliminated")
    return svg.group(body, class_=cls, data_seat=st.seat + 1, data_alive=str(st.alive).lower())


LEGEND = (
    "Aliens: circle = Invalien figure, diamond = Evaporalien figure, triangle on a module = Sabotalien.",
    "Hand cards: C cannon, R rocket, B bomb (in their colour), Ca Catalyst, Mo Morph-box, Te Teleporter.",
)


def draw(picture: Picture) -> str:
    """The table as one SVG, 900 units wide."""
    p = picture
    height = TOP + len(p.stations) * ROW + 34
    body = _header(p) + _spawnmonster(p) + _piles(p)
    body += [_station(p, st) for st in p.stations]
    body += [
        svg.text(12, height - 22 + 16 * k, words, font_size=12, fill=svg.MUTED)
        for k, words in enumerate(LEGEND)
    ]
    when = f"turn {p.turn}" if p.turn else "set up"
    return svg.svg(WIDTH, height, body, label=f"Oh no... INVASION!!! table, {when}")
