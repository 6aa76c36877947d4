"""The 8-Bit Invaders table for the replay page (`simkit replay --html`): `look(game)` takes a
picture of the table (plain tuples, ints and strings copied from the state, so later moves never
change it); `draw(picture)` turns one picture into one SVG.

The drawing shows the formation (each card's requirement as printed, its picture type, heavy
bombers marked, the dice placed on it this turn; aliens killed this turn greyed in their space,
older spaces empty; this turn's firing aliens outlined), the shields under their columns, the
ship and its Extra Life, this turn's attack dice (the latest values after Time Slip and Smart
Bomb, each with the alien it went on) and movement dice, and at the side the countdown cards
left, the track against the aliens left, and the bonus cards: hand, pile size and discards.

The state keeps neither the dice nor where they went (they live within a turn), so `look` reads
them from this turn's events in the game's log; the pile's order is hidden, as at the table.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from simkit.core import svg
from simkit.games.eight_bit_invaders.narrate import CARD_NAMES, END_REASONS
from simkit.games.eight_bit_invaders.state import EMPTY

WIDTH, HEIGHT = 900, 600
TYPE_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#7a4e9e", "#2e4057", "#8d6e63")
SHIELD_COLOUR = "#3d7dca"

# The formation's geometry: card pitch and size, and its top-left corner
FX, FY = 60, 78
PITCH_X, PITCH_Y = 84, 64
CARD_W, CARD_H = 76, 56
PANEL_X = 670  # the side panel: countdown, track and bonus cards


class Card(NamedTuple):
    """A printed alien card: its requirement label ("2 5", "=11"), picture type, type's index
    (its colour) and whether it is a heavy bomber."""

    label: str
    type: str
    type_index: int
    bomber: bool


class Picture(NamedTuple):
    turn: int
    formation: tuple[tuple[Card | None, ...], ...]  # rows top to bottom, columns left to right
    shields: tuple[int, ...]  # 0-based columns
    countdown: int
    track: int
    aliens_left: int
    hand: tuple[str, ...]
    bonus_pile: int  # only its size: the order is hidden
    bonus_discard: tuple[str, ...]
    # This turn (from its events): the attack dice as they now show, where each went as (die,
    # column, row) 0-based with rows from the top, the aliens killed (column, row, card), the
    # firing aliens of the counterattack (column, row, shielded), its verdict (None before it)
    # and the movement dice
    dice: tuple[int, ...]
    placed: tuple[tuple[int, int, int], ...]
    killed: tuple[tuple[int, int, Card], ...]
    firing: tuple[tuple[int, int, bool], ...]
    lethal: bool | None
    extra_life_used: bool
    movement: tuple[int, ...]
    countdown_removed: bool  # this turn's movement reached the aliens left
    last: str  # the latest event's kind ("setup" before any)
    end_reason: str | None  # once the game is over


def look(game: Any) -> Picture:
    """The table now (`game` is a `game.Game`), as plain data copied from its state and this
    turn's events."""
    s, comp = game.state, game.comp
    rows = comp.rows
    formation = []
    for t in range(rows):
        row = []
        for c in range(comp.columns):
            a = s.cols[c][rows - 1 - t]
            if a == EMPTY:
                row.append(None)
                continue
            alien = comp.aliens[a]
            card = Card(alien.label, comp.types[alien.type], alien.type, alien.bomber)
            row.append(card)
        formation.append(tuple(row))

    # This turn's events, newest first, back to its `turn` event (a few dozen at most)
    dice: tuple[int, ...] = ()
    placed, killed, firing = [], [], []
    lethal = None
    extra_life_used = False
    movement: tuple[int, ...] = ()
    removed = False
    log = game.log or []
    last = log[-1].get("event", "?") if log else "setup"
    for e in reversed(log):
        kind = e.get("event")
        if kind == "turn":
            break
        if kind in ("roll", "time_slip", "smart_bomb") and not dice:
            dice = tuple(e["dice"])
        elif kind == "place":
            placed.append((e["die"], e["column"] - 1, e["row"] - 1))
        elif kind == "kill":
            killed.append((e["column"] - 1, e["row"] - 1, _killed(e, comp)))
        elif kind == "counterattack":
            firing = [(f["column"] - 1, f["row"] - 1, bool(f["shielded"])) for f in e["firing"]]
            lethal = bool(e["lethal"])
        elif kind == "extra_life":
            extra_life_used = True
        elif kind == "movement":
            movement = tuple(e["dice"])
            removed = bool(e["countdown_removed"])
    return Picture(
        turn=s.turn,
        formation=tuple(formation),
        shields=tuple(s.shields),
        countdown=s.countdown,
        track=s.track,
        aliens_left=s.aliens_left,
        hand=tuple(s.hand),
        bonus_pile=len(s.bonus_pile),
        bonus_discard=tuple(s.bonus_discard),
        dice=dice,
        placed=tuple(sorted(placed)),
        killed=tuple(reversed(killed)),
        firing=tuple(firing),
        lethal=lethal,
        extra_life_used=extra_life_used,
        movement=movement,
        countdown_removed=removed,
        last=last,
        end_reason=s.end_reason,
    )


def _killed(e: dict, comp: Any) -> Card:
    """The card a `kill` event names (the state has already lost it)."""
    index = comp.types.index(e["type"]) if e["type"] in comp.types else 0
    return Card(e["alien"], e["type"], index, any(a.bomber for a in comp.aliens if a.label == e["alien"]))


# --- drawing ------------------------------------------------------------------------------------


def _card_xy(column: int, row: int) -> tuple[float, float]:
    return FX + column * PITCH_X, FY + row * PITCH_Y


def _die(x: float, y: float, size: float, value: object, **attrs: object) -> str:
    return svg.group(
        [
            svg.rect(x, y, size, size, rx=size / 6, fill="white", stroke=svg.INK, stroke_width=1.2),
            svg.text(
                x + size / 2,
                y + size * 0.72,
                value,
                anchor="middle",
                font_size=size * 0.6,
                font_weight="bold",
            ),
        ],
        **attrs,
    )


def _alien(column: int, row: int, card: Card, dice: list[tuple[int, int]], firing: bool | None) -> str:
    """One living alien: its colour, label, type, bomber mark, dice on it and, when it fired this
    turn, a red outline (blue when a shield covered it)."""
    x, y = _card_xy(column, row)
    colour = TYPE_COLOURS[card.type_index % len(TYPE_COLOURS)]
    classes = "alien bomber" if card.bomber else "alien"
    body = [
        svg.title(f"{card.type} [{card.label}], column {column + 1}, row {row + 1}"),
        svg.rect(x, y, CARD_W, CARD_H, rx=6, fill=colour, fill_opacity=0.18, stroke=colour, stroke_width=2),
        svg.text(
            x + CARD_W / 2 + (5 if card.bomber else 0),  # clear of the bomber's mark
            y + 22,
            card.label,
            anchor="middle",
            font_size=19,
            font_weight="bold",
            fill=svg.INK,
        ),
        svg.text(x + 5, y + 38, card.type, font_size=12, fill=colour, font_weight="bold"),
    ]
    if card.bomber:
        body.append(svg.rect(x + 3, y + 3, 13, 14, rx=2, fill=svg.BAD, class_="bomber-mark"))
        body.append(svg.text(x + 9.5, y + 14, "B", anchor="middle", font_size=11, fill="white"))
    for k, (die, value) in enumerate(dice):
        body.append(_die(x + 4 + k * 15, y + CARD_H - 16, 13, value, class_="placed", data_die=die + 1))
    if firing is not None:
        body.append(
            svg.rect(
                x - 3,
                y - 3,
                CARD_W + 6,
                CARD_H + 6,
                rx=8,
                fill="none",
                stroke=SHIELD_COLOUR if firing else svg.BAD,
                stroke_width=3,
                class_="firing shielded" if firing else "firing",
            )
        )
    return svg.group(body, class_=classes, data_column=column + 1, data_row=row + 1, data_label=card.label)


def _formation(p: Picture) -> list[str]:
    rows, columns = len(p.formation), len(p.formation[0]) if p.formation else 0
    out = []
    for c in range(columns):
        out.append(
            svg.text(
                FX + c * PITCH_X + CARD_W / 2, FY - 8, f"column {c + 1}", anchor="middle", fill=svg.MUTED
            )
        )
    for r in range(rows):
        out.append(
            svg.text(FX - 8, FY + r * PITCH_Y + CARD_H / 2 + 4, f"row {r + 1}", anchor="end", fill=svg.MUTED)
        )
    dice_on: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for die, c, r in p.placed:
        value = p.dice[die] if die < len(p.dice) else "?"
        dice_on.setdefault((c, r), []).append((die, value))
    fired = {(c, r): shielded for c, r, shielded in p.firing}
    killed = {(c, r): card for c, r, card in p.killed}
    for r, row in enumerate(p.formation):
        for c, card in enumerate(row):
            x, y = _card_xy(c, r)
            if card is not None:
                out.append(_alien(c, r, card, dice_on.get((c, r), []), fired.get((c, r))))
            elif (c, r) in killed:  # killed this turn: greyed where it stood, with the dice that did it
                gone = killed[(c, r)]
                body = [
                    svg.title(f"{gone.type} [{gone.label}] destroyed this turn"),
                    svg.rect(
                        x, y, CARD_W, CARD_H, rx=6, fill="#e4e4e4", stroke=svg.MUTED, stroke_dasharray="4 3"
                    ),
                    svg.text(
                        x + CARD_W / 2, y + 22, gone.label, anchor="middle", font_size=17, fill=svg.MUTED
                    ),
                    svg.text(x + 5, y + 38, "destroyed", font_size=11, fill=svg.MUTED),
                ]
                for k, (die, value) in enumerate(dice_on.get((c, r), [])):
                    body.append(
                        _die(x + 4 + k * 15, y + CARD_H - 16, 13, value, class_="placed", data_die=die + 1)
                    )
                out.append(svg.group(body, class_="destroyed", data_column=c + 1, data_row=r + 1))
            else:
                out.append(
                    svg.rect(
                        x,
                        y,
                        CARD_W,
                        CARD_H,
                        rx=6,
                        fill="none",
                        stroke=svg.LINE,
                        stroke_dasharray="2 4",
                        class_="empty",
                    )
                )
    return out


def _shields_and_ship(p: Picture) -> list[str]:
    columns = len(p.formation[0]) if p.formation else 0
    rows = len(p.formation)
    y = FY + rows * PITCH_Y + 6
    out = [svg.text(FX - 8, y + 17, "shields", anchor="end", fill=svg.MUTED)]
    for c in p.shields:
        x, _ = _card_xy(c, 0)
        out.append(
            svg.group(
                [
                    svg.rect(x + 4, y, CARD_W - 8, 24, rx=4, fill=SHIELD_COLOUR, fill_opacity=0.85),
                    svg.text(
                        x + CARD_W / 2, y + 16, "shield", anchor="middle", fill="white", font_weight="bold"
                    ),
                ],
                class_="shield",
                data_column=c + 1,
            )
        )
    if not p.shields:
        out.append(svg.text(FX, y + 17, "no shields left", fill=svg.MUTED))
    # The ship, under the middle of the formation
    cx, sy = FX + columns * PITCH_X / 2 - 4, y + 40
    down = p.end_reason in ("shot_down", "landed")
    out.append(
        svg.polygon(
            [(cx - 26, sy + 24), (cx, sy), (cx + 26, sy + 24)],
            fill=svg.BAD if down else svg.GOOD,
            class_="ship",
        )
    )
    if "extra_life" in p.hand:
        life = "ship: 1 life + Extra Life held"
    elif p.extra_life_used:
        life = "ship: saved by the Extra Life this turn"
    else:
        life = "ship: 1 life, no Extra Life"
    out.append(svg.text(cx + 36, sy + 19, life, font_size=13, class_="lives"))
    return out


def _dice(p: Picture) -> list[str]:
    """This turn's attack dice (each with the alien it went on) and movement dice."""
    y = 508
    out = [svg.text(20, y - 8, f"Turn {p.turn}: attack dice", font_weight="bold")]
    where = {die: (c, r) for die, c, r in p.placed}
    if not p.dice:
        out.append(svg.text(20, y + 22, "not rolled yet", fill=svg.MUTED))
    for i, value in enumerate(p.dice):
        x = 20 + i * 50
        target = where.get(i)
        out.append(
            _die(
                x,
                y,
                34,
                value,
                class_="die placed-die" if target else "die",
                data_value=value,
                data_die=i + 1,
            )
        )
        out.append(svg.text(x + 17, y + 48, f"die {i + 1}", anchor="middle", font_size=11, fill=svg.MUTED))
        if target:
            out.append(
                svg.text(x + 17, y + 61, f"c{target[0] + 1} r{target[1] + 1}", anchor="middle", font_size=12)
            )
    mx = 490
    out.append(svg.text(mx, y - 8, "movement dice", font_weight="bold"))
    if not p.movement:
        out.append(svg.text(mx, y + 22, "not rolled yet", fill=svg.MUTED))
    for i, value in enumerate(p.movement):
        out.append(_die(mx + i * 44, y, 34, value, class_="movement-die", data_value=value))
    if p.movement:
        step = sum(v - 1 for v in p.movement)
        said = f"track +{step}: a countdown card goes" if p.countdown_removed else f"track +{step}"
        out.append(svg.text(mx, y + 52, said, font_size=13, class_="advance"))
    return out


def _panel(p: Picture) -> list[str]:
    x = PANEL_X
    out = [svg.line(x - 14, 40, x - 14, HEIGHT - 20, stroke=svg.LINE)]
    # Countdown
    out.append(
        svg.text(
            x, 62, f"Countdown: {p.countdown} card{'s' if p.countdown != 1 else ''} left", font_weight="bold"
        )
    )
    for k in range(p.countdown):
        out.append(svg.rect(x + k * 28, 72, 22, 32, rx=3, fill=svg.WARN, stroke=svg.INK, class_="countdown"))
    # Track: it fills towards the aliens left, and a countdown card goes when it gets there
    ty = 134
    out.append(svg.text(x, ty, f"Track: {p.track} of {p.aliens_left} (aliens left)", font_weight="bold"))
    bar_w = 210
    if p.aliens_left:
        cell = bar_w / p.aliens_left
        for k in range(p.aliens_left):
            filled = k < p.track
            out.append(
                svg.rect(
                    x + k * cell,
                    ty + 8,
                    max(cell - 1, 1),
                    16,
                    fill=svg.BAD if filled else "white",
                    stroke=svg.LINE,
                    stroke_width=0.5,
                    class_="track-cell filled" if filled else "track-cell",
                )
            )
    out.append(svg.text(x, ty + 40, f"{p.aliens_left} aliens left", fill=svg.MUTED))
    # Bonus cards
    y = out_y = 196
    out.append(
        svg.text(x, y, f"Hand: {len(p.hand)} bonus card{'s' if len(p.hand) != 1 else ''}", font_weight="bold")
    )
    out_y = _card_list(out, p.hand, x, y + 8, "bonus hand", "#fff6d5")
    out.append(
        svg.text(
            x,
            out_y + 18,
            f"Bonus pile: {p.bonus_pile} face down",
            font_weight="bold",
            class_="pile",
            data_cards=p.bonus_pile,
        )
    )
    y = out_y + 46
    out.append(svg.text(x, y, f"Discards: {len(p.bonus_discard)}", font_weight="bold"))
    _card_list(out, p.bonus_discard, x, y + 8, "bonus discard", "#eeeeee")
    return out


def _card_list(out: list[str], names: tuple[str, ...], x: float, y: float, cls: str, fill: str) -> float:
    """Bonus cards in two columns from (x, y); the y below them."""
    for k, name in enumerate(names):
        cx, cy = x + (k % 2) * 108, y + (k // 2) * 26
        out.append(
            svg.group(
                [
                    svg.rect(cx, cy, 102, 22, rx=3, fill=fill, stroke=svg.INK, stroke_width=0.8),
                    svg.text(cx + 51, cy + 15, CARD_NAMES.get(name, name), anchor="middle"),
                ],
                class_=cls,
                data_card=name,
            )
        )
    return y + ((len(names) + 1) // 2) * 26


def _heading(p: Picture) -> list[str]:
    if p.end_reason is not None and p.last == "end":
        won = p.end_reason == "cleared"
        verdict = (
            f"{'Won' if won else 'Lost'} on turn {p.turn}: {END_REASONS.get(p.end_reason, p.end_reason)}"
        )
        return [
            svg.text(
                20,
                30,
                verdict,
                font_size=18,
                font_weight="bold",
                fill=svg.GOOD if won else svg.BAD,
                class_="verdict",
            )
        ]
    head = "The table as set up" if p.turn == 0 else f"Turn {p.turn}"
    out = [svg.text(20, 30, head, font_size=18, font_weight="bold")]
    if p.lethal is not None:
        said = "lethal: 3 of one type fired" if p.lethal else "the ship holds"
        out.append(
            svg.text(200, 30, f"counterattack: {said}", font_size=14, fill=svg.BAD if p.lethal else svg.INK)
        )
    return out


def draw(p: Picture) -> str:
    """The table as one SVG, 900 wide."""
    body = _heading(p) + _formation(p) + _shields_and_ship(p) + _dice(p) + _panel(p) + _legend()
    # 14 rather than the page's 12: the drawing is shown narrower than its 900 units
    return svg.svg(WIDTH, HEIGHT, svg.group(body, font_size=14), label=f"8-Bit Invaders, turn {p.turn}")


def _legend() -> list[str]:
    x, y = PANEL_X, 478
    out = [svg.text(x, y, "Key", font_weight="bold")]
    out.append(svg.rect(x, y + 8, 16, 12, fill="none", stroke=svg.BAD, stroke_width=3))
    out.append(svg.text(x + 24, y + 19, "fired this turn, unshielded", font_size=12))
    out.append(svg.rect(x, y + 28, 16, 12, fill="none", stroke=SHIELD_COLOUR, stroke_width=3))
    out.append(svg.text(x + 24, y + 39, "fired this turn, shielded", font_size=12))
    out.append(svg.rect(x, y + 48, 16, 12, rx=2, fill=svg.BAD))
    out.append(svg.text(x + 24, y + 59, "heavy bomber", font_size=12))
    out.append(svg.rect(x, y + 68, 16, 12, fill="#e4e4e4", stroke=svg.MUTED, stroke_dasharray="3 2"))
    out.append(svg.text(x + 24, y + 79, "destroyed this turn", font_size=12))
    out.append(svg.text(x, y + 100, "rows count from the top", font_size=11, fill=svg.MUTED))
    return out
