"""An 8-Bit Invaders event log told as at the table: `simkit replay eight-bit-invaders`.

`narrate(events)` turns the JSON-ready event log (schema: RULES.md, "Event log") into lines: a
header per turn with what the player glances at (countdown, track, shields, aliens left, hand),
one indented line per action, and a closing line with the result. Columns and rows are 1-based as
the cards lie (rows from the top); dice are numbered 1.. in the order rolled. Every number of an
event is kept; an event type this module does not know is printed as its fields, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.core.narration import INDENT, and_list, event_fields, said, tell
from simkit.games.eight_bit_invaders.components import BONUS_NAMES

CARD_NAMES = {name: name.replace("_", " ").title() for name in BONUS_NAMES}  # "rapid_fire" -> "Rapid Fire"
END_REASONS = {
    "cleared": "every alien is destroyed",
    "shot_down": "the counterattack shot the ship down",
    "landed": "the aliens landed (the last countdown card is gone)",
}


def card(name: str | None) -> str:
    return CARD_NAMES.get(name, str(name)) if name is not None else "nothing"


def cards(names: list) -> str:
    return ", ".join(card(n) for n in names) if names else "none"


def columns(cols: list) -> str:
    return " ".join(str(c) for c in cols) if cols else "none"


def shields(cols: list) -> str:
    return f"shields under {columns(cols)}" if cols else "no shields left"


def dice_text(dice: list) -> str:
    return " ".join(str(d) for d in dice)


def alien(e: dict) -> str:
    """`crab [2 4] (column 3, row 4)`: the picture type and the printed label, where it stands."""
    return f"{e['type']} [{e['alien']}] (column {e['column']}, row {e['row']})"


class _Story:
    """What the narration remembers between events: the aliens at the start and now."""

    def __init__(self) -> None:
        self.start: int | None = None
        self.left: int | None = None


def _turn(e: dict, story: _Story) -> list[str]:
    if story.start is None:
        story.start = e["aliens_left"]
    story.left = e["aliens_left"]
    lines = [
        f"Turn {e['turn']}: countdown {e['countdown']}, track {e['track']} of {e['aliens_left']}, "
        f"{e['aliens_left']} aliens left in {e['columns']} columns, {shields(e['shields'])}; "
        f"hand: {cards(e['hand'])} (bonus pile {e['bonus_pile_size']}, discards: {cards(e['bonus_discard'])})"
    ]
    if e["turn"] == 1:  # the formation as dealt; later ones follow from the kills
        lines.append(f"{INDENT}The formation (rows from the top, columns 1-{len(e['formation'][0])}):")
        for r, row in enumerate(e["formation"], 1):
            cells = " | ".join("--" if c is None else c for c in row)
            lines.append(f"{INDENT}{INDENT}row {r}: {cells}")
    return lines


def _trade_shield(e: dict, story: _Story) -> list[str]:
    drew = f"draws {card(e['drew'])}" if e["drew"] else "no bonus card is left to draw"
    return [f"{INDENT}Trades the shield under column {e['column']} for a bonus card: {drew}."]


def _rapid_fire(e: dict, story: _Story) -> list[str]:
    n = e["count"]
    return [f"{INDENT}Plays {n} Rapid Fire: {n} extra {'die' if n == 1 else 'dice'}."]


def _roll(e: dict, story: _Story) -> list[str]:
    return [f"{INDENT}Rolls {len(e['dice'])} dice: {dice_text(e['dice'])}."]


def _time_slip(e: dict, story: _Story) -> list[str]:
    which = ", ".join(str(i + 1) for i in e["rerolled"])
    return [f"{INDENT}Plays Time Slip, re-rolling dice {which}: now {dice_text(e['dice'])}."]


def _smart_bomb(e: dict, story: _Story) -> list[str]:
    return [
        f"{INDENT}Plays Smart Bomb on die {e['die'] + 1}: its {e['before']} turns to {e['after']}; "
        f"dice now {dice_text(e['dice'])}."
    ]


def _places(run: list[dict]) -> list[str]:
    """A run of `place` events: one line per alien, its dice in the order placed."""
    targets: dict[tuple, list[dict]] = {}
    for e in run:
        targets.setdefault((e["column"], e["row"]), []).append(e)
    lines = []
    for group in targets.values():
        dice = and_list([f"die {e['die'] + 1} ({e['value']})" for e in group])
        lines.append(f"{INDENT}Puts {dice} on the {alien(group[0])}.")
    return lines


def _place(e: dict, story: _Story) -> list[str]:
    return _places([e])


def _kill(e: dict, story: _Story) -> list[str]:
    if story.left is not None:
        story.left -= 1
    return [f"{INDENT}{' + '.join(str(d) for d in e['dice'])} kill the {alien(e)}."]


def _counterattack(e: dict, story: _Story) -> list[str]:
    depth = e["depth"]
    who = "the bottom alien of each column fires" if depth == 1 else f"the bottom {depth} of each column fire"
    firing = ", ".join(
        f"{f['type']} [{f['alien']}] c{f['column']}r{f['row']}{' (shielded)' if f['shielded'] else ''}"
        for f in e["firing"]
    )
    counts = ", ".join(f"{n} {t}" for t, n in e["unshielded_by_type"].items()) or "none"
    verdict = "three of one type: a lethal hit!" if e["lethal"] else "no three of one type: the ship holds."
    return [
        f"{INDENT}Counterattack ({e['columns']} columns, {who}): {firing}.",
        f"{INDENT}{INDENT}Unshielded: {counts}; {verdict}",
    ]


def _movement(e: dict, story: _Story) -> list[str]:
    dice = e["dice"]
    parts = " + ".join(str(d - 1) for d in dice)
    reached = e["track_before"] + e["sum"]
    head = (
        f"{INDENT}The aliens advance: {'die' if len(dice) == 1 else 'dice'} {dice_text(dice)}, "
        f"less one each: {parts} = {e['sum']}; track {e['track_before']} -> {reached}"
    )
    if e["countdown_removed"]:
        return [
            f"{head}, reaching the {e['aliens_left']} aliens left: a countdown card is removed "
            f"({e['countdown']} left), track back to {e['track_after']}."
        ]
    return [f"{head} (below the {e['aliens_left']} aliens left; countdown {e['countdown']})."]


def _shield_move(e: dict, story: _Story) -> list[str]:
    if not e["shields"]:
        return [f"{INDENT}No shields left to move (the roll says {e['direction']})."]
    if e["moved"]:
        return [f"{INDENT}The shields move {e['direction']}: now under {columns(e['shields'])}."]
    return [
        f"{INDENT}The shields would move {e['direction']} but the edge stops them: "
        f"still under {columns(e['shields'])}."
    ]


def _end(e: dict, story: _Story) -> list[str]:
    reason = END_REASONS.get(e["reason"], str(e["reason"]))
    verdict = "Won" if e["won"] else "Lost"
    if story.start is None or story.left is None:
        return [f"{verdict} on turn {e['turn']}: {reason}."]
    return [
        f"{verdict} on turn {e['turn']}: {reason}. Score {story.start - story.left}: "
        f"{story.start - story.left} of {story.start} aliens destroyed, {story.left} left."
    ]


HANDLERS: dict[str, Callable[[dict, _Story], list[str]]] = {
    "turn": _turn,
    "trade_shield": _trade_shield,
    "reshuffle_bonus": said("The bonus pile is empty: {cards} discarded cards are shuffled into a new pile."),
    "rapid_fire": _rapid_fire,
    "roll": _roll,
    "time_slip": _time_slip,
    "smart_bomb": _smart_bomb,
    "place": _place,
    "kill": _kill,
    "counterattack": _counterattack,
    "extra_life": said("The Extra Life saves the ship (the card is discarded)."),
    "bomber": said(
        "Heavy bomber {alien} destroys the shield under column {shield_destroyed}.",
        alien=lambda e, _: alien(e),
    ),
    "rocket_fuel": said("Plays Rocket Fuel: the aliens move on one die."),
    "movement": _movement,
    "shield_move": _shield_move,
    "end": _end,
}


# Events told together as one step of the replay page: the dice of one allocation (told alien by
# alien), and the kills they make.
RUNS = ("place", "kill")


def narrate_steps(events: list[dict]) -> list[tuple[int, list[str]]]:
    """The narration in the steps a person reads one at a time, in order: (index of the step's
    last event, its lines). A run of `place` events is one step, a run of `kill` events another;
    every other event is a step of its own. A step without lines is merged into the next (the
    last, into the one before), so the lines of all steps are `narrate(events)`."""
    story = _Story()
    out: list[tuple[int, list[str]]] = []
    pending: list[str] = []  # lines of steps told so far but not yet closed (none: merged on)
    i = 0
    while i < len(events):
        e = events[i]
        kind = e.get("event")
        j = i + 1
        if kind in RUNS:
            while j < len(events) and events[j].get("event") == kind:
                j += 1
        if kind == "place":
            try:
                lines = _places(events[i:j])
            except (KeyError, TypeError, IndexError, ValueError):
                lines = [event_fields(p) for p in events[i:j]]
        else:
            lines = [line for k in range(i, j) for line in tell(events[k], story, HANDLERS)]
        pending += lines
        if pending:
            out.append((j - 1, pending))
            pending = []
        i = j
    if out and out[-1][0] != len(events) - 1:  # trailing events without lines join the last step
        out[-1] = (len(events) - 1, out[-1][1])
    return out


def narrate(events: list[dict]) -> list[str]:
    """The event log as lines a player at the table would read (see the module docstring)."""
    return [line for _, lines in narrate_steps(events) for line in lines]
