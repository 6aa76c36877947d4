"""An Alien Attack: USA event log told as at the table: `simkit replay alien-attack`.

`narrate(events)` turns the JSON-ready event log (schema: RULES.md, "Event log") into lines: the
deal, a header per round with what the players glance at (who starts, scores, discs left, the
Mothership, bases on the board, powers used), one indented line per placement, power and flip, the
final scoring of each seat and a closing line with the result. Seats are numbered 1.. as at the
table (the log's seats are 0-based); spaces keep the board's printed numbers. Every number of an
event is kept; an event type this module does not know is printed as its fields.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.core.narration import and_list, count, tell
from simkit.games.alien_attack.game import SEMI_COOP_BASES
from simkit.games.alien_attack.state import POWER_NAMES

INDENT = "  "
POWERS = [POWER_NAMES[b] for b in sorted(POWER_NAMES)]
POWER_TITLES = {name: name.replace("_", " ").title() for name in POWERS}  # "extra_turn" -> "Extra Turn"
PLAYS = {"cover": "plays Cover", "extra_turn": "takes the Extra Turn", "neighborhood": "plays Neighborhood"}
END_REASONS = {
    "bag_empty": "the Mothership is empty",
    "earth_wins": "Earth wins",
    "invasion_succeeds": "the invasion succeeds",
}


class _Story:
    """What the narration remembers: each seat's strategy, the number of rounds."""

    def __init__(self) -> None:
        self.strategies: dict[int, str] = {}
        self.rounds: int | None = None

    def seat(self, p: int) -> str:
        """`Seat 1 (greedy)`: 1-based, with its strategy when the set-up named it."""
        strategy = self.strategies.get(p)
        return f"Seat {p + 1} ({strategy})" if strategy else f"Seat {p + 1}"


def _setup(e: dict, story: _Story) -> list[str]:
    story.rounds = e["rounds"]
    lines = [f"Alien Attack: USA, {e['players']} players, {e['rounds']} rounds."]
    for s in e["seats"]:
        story.strategies[s["seat"]] = s["strategy"]
    for s in e["seats"]:
        lines.append(
            f"{INDENT}{story.seat(s['seat'])} holds City card {s['city_card']} and Border card "
            f"{str(s['border_card']).title()}."
        )
    return lines


def _round(e: dict, story: _Story) -> list[str]:
    of = f" of {story.rounds}" if story.rounds else ""
    scores = " / ".join(str(v) for v in e["score"])
    discs = " / ".join(str(v) for v in e["discs_left"])
    board = f"{count(len(e['bases']), 'base')} on the board"
    if e["emptied"]:
        board += f", {len(e['emptied'])} emptied"
    if e["lost"]:
        board += f", {len(e['lost'])} captured"
    line = (
        f"Round {e['turn']}{of}, seat {e['first_player'] + 1} starts: scores {scores}, discs left {discs}; "
        f"{count(e['bag'], 'marker')} in the Mothership, {board}"
    )
    used = []
    for p, left in enumerate(e["powers_left"]):
        gone = [POWER_TITLES[name] for name in POWERS if name not in left]
        if gone:
            used.append(f"seat {p + 1} {', '.join(gone)}")
    if used:
        line += f"; powers used: {'; '.join(used)}"
    return [line + "."]


def _draw(e: dict, story: _Story) -> list[str]:
    return [f"{INDENT}The Mothership drops attack markers on {and_list(e['markers'])}."]


def _scored(e: dict) -> str:
    """What a placement earned: points (cities, herd), park, bases, the seat's score."""
    parts = [f"{c['city']} {c['value']}" for c in e["cities"]]
    if e["herd"]:
        parts.append(f"herd {e['herd']}")
    pts = f"{count(e['points'], 'point')} ({', '.join(parts)})" if parts else count(e["points"], "point")
    text = "no points" if not e["points"] and not parts else pts
    if e["park"]:
        text += f", takes the {e['park']} park marker"
    if e["destroyed"]:
        text += (
            f", destroys the {'base' if len(e['destroyed']) == 1 else 'bases'} on {and_list(e['destroyed'])}"
        )
    return f"{text}; score {e['score']}, {count(e['discs_left'], 'disc')} left."


def _place(e: dict, story: _Story) -> list[str]:
    if e["how"] == "turn":
        return [f"{INDENT}{story.seat(e['seat'])} defends {e['space']}: {_scored(e)}"]
    how = PLAYS.get(e["how"], f"uses {e['how']}")
    return [f"{INDENT}{story.seat(e['seat'])} {how}: disc on {e['space']}, {_scored(e)}"]


def _power(e: dict, story: _Story) -> list[str]:
    title = POWER_TITLES.get(e["power"], e["power"])
    what = f" (destroys and keeps the base on {and_list(e['destroyed'])})" if e.get("destroyed") else ""
    return [f"{INDENT}{story.seat(e['seat'])} uses {title} on {e['space']}{what}."]


def _power_and_place(power: dict, place: dict, story: _Story) -> list[str]:
    """A power and the placement it makes, told as one move."""
    how = PLAYS.get(power["power"], f"uses {power['power']}")
    if power.get("destroyed"):
        how += f", destroys and keeps the base on {and_list(power['destroyed'])}"
    return [f"{INDENT}{story.seat(place['seat'])} {how}: disc on {place['space']}, {_scored(place)}"]


def _skip(e: dict, story: _Story) -> list[str]:
    return [f"{INDENT}{story.seat(e['seat'])} is skipped: {e['reason']}."]


def _flip(e: dict, story: _Story) -> list[str]:
    text = f"{INDENT}Undefended marker {e['space']} flips into a base"
    captured = [f"seat {c['seat'] + 1}'s disc on {c['space']}" for c in e["captured"]]
    if captured:
        text += f", capturing {and_list(captured)}"
    saved = [
        f"seat {c['seat'] + 1} plays Protection to keep its disc on {c['space']}" for c in e["protected"]
    ]
    if saved:
        text += f"; {and_list(saved)}"
    return [text + "."]


def _final(e: dict, story: _Story) -> list[str]:
    cities = "city" if e["city_cards"] == 1 else "cities"
    value1 = "city" if e["value1_cities"] == 1 else "cities"
    protection = (
        f"{e['value1_cities']} value-1 {value1}, {count(e['herd_spaces'], 'herd space')}, "
        f"{count(e['other_border_spaces'], 'other border space')}"
    )
    return [
        f"{INDENT}{story.seat(e['seat'])}: placements {e['placement_points']}"
        f" + City card {e['city_mission']} ({e['city_cards']} {cities})"
        f" + Border card {e['border_mission']} ({count(e['border_discs'], 'disc')})"
        f" + parks {e['parks']} + bases {e['bases']}"
        f" + territory {e['territory']} (group of {e['largest_group']})"
        f" + Global Protection {e['protection']} ({protection}) = {e['total']};"
        f" best city touched {e['best_city']}."
    ]


def _end(e: dict, story: _Story) -> list[str]:
    reason = END_REASONS.get(e["reason"], str(e["reason"]))
    if e["reason"] in ("earth_wins", "invasion_succeeds"):
        reason += f" ({SEMI_COOP_BASES} bases needed)"
    scores = " / ".join(str(v) for v in e["scores"])
    winners = e["winners"]
    if not winners:
        verdict = "everybody loses"
    elif len(winners) == 1:
        verdict = f"{story.seat(winners[0])} wins with {e['scores'][winners[0]]}"
    else:
        verdict = f"seats {and_list([p + 1 for p in winners])} share the win with {e['scores'][winners[0]]}"
    return [
        f"Game over after round {e['turn']}: {reason}, {e['bases_destroyed']} bases destroyed; {verdict} "
        f"(scores {scores})."
    ]


def _final_header(story: _Story) -> str:
    return "Final scoring:"


HANDLERS: dict[str, Callable[[dict, _Story], list[str]]] = {
    "setup": _setup,
    "round": _round,
    "draw": _draw,
    "place": _place,
    "power": _power,
    "skip": _skip,
    "flip": _flip,
    "final": _final,
    "end": _end,
}


def _told(events: list[dict]) -> list[tuple[int, str, list[str]]]:
    """Each move as (index of its last event, its event type, its lines): one event, or a power and
    the placement it makes told together."""
    story = _Story()
    moves: list[tuple[int, str, list[str]]] = []
    i = 0
    while i < len(events):
        e = events[i]
        kind = e.get("event")
        lines: list[str] = []
        if kind == "final" and (i == 0 or events[i - 1].get("event") != "final"):
            lines.append(_final_header(story))
        nxt = events[i + 1] if i + 1 < len(events) else None
        if (
            kind == "power"
            and nxt is not None
            and nxt.get("event") == "place"
            and nxt.get("how") == e.get("power")
            and nxt.get("space") == e.get("space")
        ):
            try:
                moves.append((i + 1, "place", lines + _power_and_place(e, nxt, story)))
                i += 2
                continue
            except (KeyError, TypeError, IndexError, ValueError, AttributeError):
                pass
        moves.append((i, str(kind), lines + tell(e, story, HANDLERS)))
        i += 1
    return moves


# A round's header is read with the markers the Mothership then drops (one step: the table shows
# them), and the seats' final scorings as one table-wide step.
_JOINS = {("round", "draw"), ("final", "final")}


def narrate_steps(events: list[dict]) -> list[tuple[int, list[str]]]:
    """The narration in the steps a person reads one at a time, in order: (index of the step's
    last event, its lines). A step without lines is merged into the next (the last, into the one
    before), so the lines of all steps are `narrate(events)`."""
    steps: list[tuple[int, str, list[str]]] = []
    pending: list[str] = []  # lines of a step still open to the next move
    for last, kind, lines in _told(events):
        if steps and (steps[-1][1], kind) in _JOINS and not pending:
            before = steps.pop()[2]
            steps.append((last, kind, before + lines))
            continue
        pending += lines
        if pending:
            steps.append((last, kind, pending))
            pending = []
    if steps and events and steps[-1][0] != len(events) - 1:
        last, kind, lines = steps.pop()
        steps.append((len(events) - 1, kind, lines))
    return [(last, lines) for last, _, lines in steps]


def narrate(events: list[dict]) -> list[str]:
    """The event log as lines a player at the table would read (see the module docstring)."""
    return [line for _, lines in narrate_steps(events) for line in lines]
