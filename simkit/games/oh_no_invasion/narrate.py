"""An Oh no... INVASION!!! event log told as at the table: `simkit replay oh-no-invasion`.

`narrate(events)` turns the JSON-ready event log (schema: RULES.md, "Event log") into lines: the
set-up, a header per turn with whose turn it is, the Shield aliens in play and the piles, one line
per station (hand, modules, alien figures), one indented line per action, draw, flight, order,
combat and Final Conflict step, and a closing line with the result. Players are P1..Pn as in the
log (clockwise), cards and aliens by their faces. Every number of an event is kept; an event type
this module does not know is printed as its fields, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.core.narration import INDENT, and_list, count, said, tell

END_REASONS = {
    "spawnmonster_destroyed": "the Spawnmonster is destroyed",
    "crew_eliminated": "the whole crew is eliminated",
    "shields_complete": "the last Shield alien joined the Spawnmonster",
}
CAUSES = {
    "invaliens": "by Invaliens",
    "sabotage": "by sabotage: no module left",
    "kamikaze": "by an uncountered kamikaze",
}
MOMENTS = {"start": "at the start of the turn", "after_combat": "after combat"}


def _and(items: list) -> str:
    return and_list(items, empty="nothing")


def _with(cards: list) -> str:
    """One weapon, or two cards: a Morph-box pair (the only way to play two)."""
    if len(cards) == 2:
        return f"the Morph-box ({cards[0]} + {cards[1]})"
    return _and(cards)


def _by(who: str, helping: str | None) -> str:
    """`P2` or `P2, for P4,` (a Teleporter partner acting for the active player)."""
    return f"{who}, for {helping}," if helping else who


def _cards(e: dict, story: object) -> str:
    """An event's `cards` as a one-line sentence (`said`) names them."""
    return _and(e["cards"])


def _remade(deck: str) -> Callable[[dict, object], list[str]]:
    """A deck remade from its discards, told in one line."""
    return said(
        f"The {deck} deck is remade: {{cards}} shuffled.",
        cards=lambda e, _: count(e["cards"], "discarded card"),
    )


class _Story:
    """What the narration remembers: the level (for the points per survivor)."""

    def __init__(self) -> None:
        self.level: int | None = None


def _setup(e: dict, story: _Story) -> list[str]:
    # the level's name comes from the `level` setting (imported here: the package imports this module)
    from simkit.games.oh_no_invasion import LEVEL

    story.level = e["level"]
    return [
        f"Oh no... INVASION!!!: {e['players']} players, level {LEVEL.label(e['level'])}; "
        f"Resistance deck {e['deck']}, Spawn deck {e['spawn_deck']}.",
        f"{INDENT}Hubs: {', '.join(f'{p} {hub}' for p, hub in e['hubs'].items())}.",
    ]


def _turn(e: dict, story: _Story) -> list[str]:
    piles = e["piles"]
    shields = e["shields"]
    in_play = f"Shield aliens in play: {len(shields)}" + (f" ({', '.join(shields)})" if shields else "")
    phase = ", Final Conflict" if e["final_conflict"] else ""
    lines = [
        f"Turn {e['turn']}, {e['player']}{phase}: {in_play}; Resistance deck {piles['deck']}, "
        f"discards {piles['discard']}; Spawn deck {piles['spawn_deck']}, discards {piles['spawn_discard']}."
    ]
    for p, station in e["stations"].items():
        lines.append(f"{INDENT}| {p} {station}")
    return lines


def _draw(e: dict, story: _Story) -> list[str]:
    if not e["cards"]:
        return [f"{INDENT}{e['player']} draws: both Resistance piles are empty, nothing to draw."]
    return [f"{INDENT}{e['player']} draws {_and(e['cards'])}."]


def _spawn(e: dict, story: _Story) -> list[str]:
    path = " -> ".join(e["path"])
    where = f"heading for {e['target']}" if e["target"] else "with no station to land on"
    return [f"{INDENT}Spawn card for {e['player']}: {e['alien']}, path {path}, {where}."]


def _invade(e: dict, story: _Story) -> list[str]:
    if e.get("module"):
        return [f"{INDENT}The {e['alien']} lands on {e['player']}'s {e['module']}."]
    return [f"{INDENT}The {e['alien']} lands on {e['player']}'s station."]


def _order(e: dict, story: _Story) -> list[str]:
    colour = e["ordered"]
    if "figures" not in e:  # Sabotaliens
        return [f"{INDENT}Attack order: the {colour} Sabotaliens attack their modules."]
    figures = ", ".join(f"{p} {k}" for p, k in e["figures"].items()) or "none anywhere"
    if "threshold" in e:
        return [
            f"{INDENT}Attack order: {colour} Invaliens, {e['threshold']} or more eliminate; "
            f"{colour} figures: {figures}."
        ]
    return [
        f"{INDENT}Attack order: {colour} Evaporaliens, a hand card per figure; {colour} figures: {figures}."
    ]


def _eliminated(e: dict, story: _Story) -> list[str]:
    cause = CAUSES.get(e["cause"], f"by {e['cause']}")
    stays = " but keeps the Hub and stays in the game" if e["stays_in_game"] else ""
    return [f"{INDENT}{e['player']} is eliminated {cause}{stays}."]


def _combat(e: dict, story: _Story) -> list[str]:
    where = "its own station" if e["attacker"] == e["station"] else f"{e['station']}'s station"
    plays = list(e["played"]) + [f"the Morph-box ({m})" for m in e["morph_box"]]
    removed = f"removes {_and(e['removed'])}" if e["removed"] else "removes no alien"
    cleared = f" ({', '.join(e['cleared'])} cleared)" if e["cleared"] else ""
    return [
        f"{INDENT}Combat: {e['attacker']} attacks {where} with {_and(plays)}: {removed}{cleared}; "
        f"discards {_and(e['discarded'])}."
    ]


def _final_conflict(e: dict, story: _Story) -> list[str]:
    hands = "; ".join(f"{p} {', '.join(cards) or '-'}" for p, cards in e["hands"].items())
    moment = MOMENTS.get(e["moment"], e["moment"])
    return [
        f"{INDENT}{e['player']} calls the Final Conflict {moment}: {count(e['shields'], 'Shield alien')} "
        f"in play, {count(e['crew_weapons'], 'weapon')} in the crew's hands ({hands})."
    ]


def _strike(e: dict, story: _Story) -> list[str]:
    return [
        f"{INDENT}{_by(e['player'], e['helping'])} strikes the {e['shield']} Shield alien with "
        f"{_with(e['cards'])}: {count(e['shields_left'], 'Shield alien')} left."
    ]


def _end(e: dict, story: _Story) -> list[str]:
    reason = END_REASONS.get(e["reason"], str(e["reason"]))
    survivors = count(e["survivors"], "survivor")
    if e["won"]:
        each = f", {e['score'] // e['survivors']} points each" if e["survivors"] else ""
        return [f"Won on turn {e['turn']}: {reason}; {survivors}{each}: score {e['score']}."]
    return [f"Lost on turn {e['turn']}: {reason}; {survivors}, score {e['score']}."]


HANDLERS: dict[str, Callable[[dict, _Story], list[str]]] = {
    "setup": _setup,
    "turn": _turn,
    "draw": _draw,
    "transport": said("{player} transports {cards} to {to}.", cards=_cards),
    "reshuffle_resistance": _remade("Resistance"),
    "reshuffle_spawn": _remade("Spawn"),
    "shield": said(
        "Spawn card for {player}: the {alien} joins the Spawnmonster ({shields} in play).",
        shields=lambda e, _: count(e["shields"], "Shield alien"),
    ),
    "spawn": _spawn,
    "zap": said("{player} zaps the {alien} with the {weapon}."),
    "flies_off": said("The {alien} flies off: discarded."),
    "invade": _invade,
    "order": _order,
    "evaporate": said("{player} loses {cards} to the Evaporaliens.", cards=_cards),
    "sabotage": said("{player}'s {module} is sabotaged."),
    "module_destroyed": said("{player}'s {module}, sabotaged again, is destroyed with its Sabotalien."),
    "eliminated": _eliminated,
    "build": said("{player} builds {modules}.", modules=lambda e, _: _and(e["modules"])),
    "combat": _combat,
    "final_conflict": _final_conflict,
    "kamikaze": said("Kamikaze at {player}: {alien} (counter with {colour})."),
    "counter": said(
        "{player} counters the {alien} with {cards}.",
        player=lambda e, _: _by(e["player"], e["helping"]),
        cards=lambda e, _: _with(e["cards"]),
    ),
    "strike": _strike,
    "no_strike": said("{player} makes no strike."),
    "spawnmonster_destroyed": said(
        "No Shield alien left: {player} destroys the Spawnmonster with {weapon}!",
        weapon=lambda e, _: _and(e["weapon"]),
    ),
    "end": _end,
}


# Events told together with the event after them: a deck is remade inside a draw or a kamikaze,
# before that event is logged, so the two read (and are drawn) as one step
LEADS_IN = frozenset({"reshuffle_resistance", "reshuffle_spawn"})


def narrate_steps(events: list[dict]) -> list[tuple[int, list[str]]]:
    """The narration in steps for the replay page: (index of the step's last event, its lines),
    one step per event, a deck remade joining the event it happened in; an event told in no
    line joins the next step."""
    story = _Story()
    out: list[tuple[int, list[str]]] = []
    pending: list[str] = []
    for i, e in enumerate(events):
        pending.extend(tell(e, story, HANDLERS))
        last = i == len(events) - 1
        if pending and (last or e.get("event") not in LEADS_IN):
            out.append((i, pending))
            pending = []
    return out


def narrate(events: list[dict]) -> list[str]:
    """The event log as lines a player at the table would read (see the module docstring)."""
    return [line for _, lines in narrate_steps(events) for line in lines]
