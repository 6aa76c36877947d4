"""A Space Alert event log told as at the table: `simkit replay space-alert`.

`narrate(events)` turns the JSON-ready event log (schema: RULES.md, "Event log (replay)") into
lines: each mission's threats and every figure's 12 cards, a header per turn of the resolution with
what the crew glances at (damage tiles per zone, each threat in play with its damage and the last
space it acted on), one indented line per action, shot, hit and threat action, and a closing line
per mission with the result and the score. Figures are numbered 1.. (the log's are 0-based; figure
1 is the captain), threats are named by their card name and id. Every number of an event is kept;
an event type this module does not know is printed as its fields, so nothing is lost.

`by_turn` and `score_text` are shared with the plan files' `format_log` (`simkit resolve`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from simkit.core.narration import INDENT, and_list, count, said, tell
from simkit.games.space_alert.components import ZONES

# what a card half does, as a player says it (state.CARD_NAMES; "teleport <station>" aside)
CARDS = {
    "red": "moves red",
    "blue": "moves blue",
    "lift": "takes the gravolift",
    "A": "presses A",
    "B": "presses B",
    "C": "presses C",
    "BB": "sends the battlebots",
    "A+1": "presses A, heroic",
    "B+1": "presses B, heroic",
    "BB+": "sends the battlebots, heroic",
}


def by_turn(log: list[dict]) -> Iterator[tuple[int, list[dict]]]:
    """The log cut into runs of consecutive events of one turn: (turn, events)."""
    run: list[dict] = []
    for e in log:
        if run and e["turn"] != run[0]["turn"]:
            yield run[0]["turn"], run
            run = []
        run.append(e)
    if run:
        yield run[0]["turn"], run


def score_text(result: dict) -> str:
    """`score 12 (threats 20, penalties -8, visual 0)`: a mission's score and its parts."""
    return (
        f"score {result['score']} (threats {result['threat_points']}, penalties -{result['penalties']}, "
        f"visual {result['visual_points']})"
    )


def figure(f: int) -> str:
    return f"Figure {f + 1}"


def _said(sentence: str, **more: Callable[[dict, Any], Any]) -> Callable[[dict, Any], list[str]]:
    """An event told in one line (`said`): `{figure}` and `{threat}` name the event's figure and
    threat as the crew knows them."""
    return said(
        sentence,
        figure=lambda e, _: figure(e["figure"]),
        threat=lambda e, story: story.threat(e["threat"]),
        **more,
    )


class _Story:
    """What the crew has seen so far in this mission: threat names, zones, damage and positions,
    and the damage tiles of each zone."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.mission = 0
        self.new_mission()

    def new_mission(self, carried: bool = False) -> None:
        """A mission starts; in a campaign's later missions the damage tiles kept after the repairs
        are not in the log: a zone's count is unknown ("?") until its next tile."""
        self.zone: dict[str, str] = {}
        self.damage: dict[str, int] = {}
        self.where: dict[str, str] = {}  # an intruder's station(s) aboard
        self.track: dict[str, str] = {}  # the last X/Y/Z a threat acted on
        self.active: list[str] = []
        self.tiles: dict[str, int | str] = dict.fromkeys(ZONES, "?" if carried else 0)

    def threat(self, tid: str) -> str:
        """`Destroyer (E1-02)`, or the bare id when the log never named it."""
        name = self.names.get(tid)
        return f"{name} ({tid})" if name else str(tid)

    def gone(self, tid: str) -> None:
        if tid in self.active:
            self.active.remove(tid)

    def header(self, turn: int) -> str:
        tiles = ", ".join(f"{z} {n}" for z, n in self.tiles.items())
        threats = []
        for tid in self.active:
            text = f"{self.threat(tid)} {self.zone.get(tid, '?')}, damage {self.damage.get(tid, 0)}"
            for known in (self.where, self.track):
                if tid in known:
                    text += f", {known[tid]}"
            threats.append(text)
        late = " (after the last action: the threats move on)" if turn > 12 else ""
        return f"Turn {turn}{late}: damage tiles {tiles}; threats: {'; '.join(threats) or 'none in play'}."


def _mission(e: dict, story: _Story) -> list[str]:
    carried = e["campaign_mission"] > 1
    story.new_mission(carried)
    for t in e["threats"]:
        story.names[t["threat"]] = t["name"]
    androids = set(e["androids"])
    trajectories = ", ".join(f"{z} {t}" for z, t in e["trajectories"].items())
    lines = [
        f"Mission {e['campaign_mission']} ({e['mission']}): {count(len(e['plans']), 'figure')}, "
        f"{count(len(e['threats']), 'threat')}; trajectories {trajectories}."
    ]
    if carried:
        lines.append(
            f"{INDENT}The ship keeps the damage of mission {e['campaign_mission'] - 1} after the "
            "repairs (which tiles is not in the log: shown as ? until a zone's next tile)."
        )
    for t in e["threats"]:
        lines.append(
            f"{INDENT}Turn {t['turn']}: {t['name']} ({t['threat']}), {t['zone']}, "
            f"trajectory {t['trajectory']}."
        )
    for f, row in enumerate(e["plans"]):
        who = " (captain)" if f == 0 else ""
        who += " (android)" if f in androids else ""
        lines.append(f"{INDENT}{figure(f)}{who} plays: {' '.join(row)}")
    for f, t in e["trips"]:
        lines.append(f"{INDENT}{figure(f)} will trip on turn {t}.")
    return lines


def _threat_appears(e: dict, story: _Story) -> list[str]:
    tid = e["threat"]
    story.names[tid] = e["name"]
    story.zone[tid] = e["zone"]
    story.damage[tid] = 0
    if tid not in story.active:
        story.active.append(tid)
    where = f", at {and_list(e['stations'])}" if e["stations"] else ""
    if e["stations"]:
        story.where[tid] = f"at {and_list(e['stations'])}"
    return [
        f"{INDENT}Threat appears: {story.threat(tid)}, token {e['token']}, {e['zone']}, "
        f"trajectory {e['trajectory']}{where}."
    ]


def _action(e: dict, story: _Story) -> list[str]:
    card = e["card"]
    does = CARDS.get(card) or (
        f"teleports to {card[9:]}" if card.startswith("teleport ") else f"plays {card}"
    )
    return [f"{INDENT}{figure(e['figure'])} at {e['station']} {does}."]


def _battlebots_taken(e: dict, story: _Story) -> list[str]:
    state = " (disabled ones)" if e["disabled"] else ""
    return [f"{INDENT}{figure(e['figure'])} takes the battlebots{state}."]


def _battlebots_attack(e: dict, story: _Story) -> list[str]:
    story.damage[e["threat"]] = e["damage"]
    return [
        f"{INDENT}{figure(e['figure'])}'s battlebots attack {story.threat(e['threat'])}: "
        f"damage {e['damage']}."
    ]


def _battlebots_disabled(e: dict, story: _Story) -> list[str]:
    if "figure" in e:
        return [f"{INDENT}{figure(e['figure'])}'s battlebots are disabled by {story.threat(e['threat'])}."]
    return [f"{INDENT}{story.threat(e['threat'])} disables the battlebots at {e['station']}."]


def _interceptors_stay(e: dict, story: _Story) -> list[str]:
    heroic = ", heroic" if e["heroic"] else ""
    return [f"{INDENT}{figure(e['figure'])} stays out in the interceptors{heroic}."]


def _fire(e: dict, story: _Story) -> list[str]:
    if "targets" in e:
        hits = and_list([story.threat(t) for t in e["targets"]]) if e["targets"] else "nothing in range"
        return [f"{INDENT}The {e['weapon']} fires: {hits}."]
    if not e["target"]:
        return [f"{INDENT}The {e['weapon']} fires: no target in range."]
    return [f"{INDENT}The {e['weapon']} fires at {story.threat(e['target'])}."]


def _damage(e: dict, story: _Story) -> list[str]:
    tid = e["threat"]
    story.damage[tid] = e["total"]
    if e["damage"]:
        shield = f" - shield {e['shield']}" if e["shield"] else ""
        return [
            f"{INDENT}{story.threat(tid)} takes {e['damage']} damage (strength {e['strength']}{shield}): "
            f"{e['total']} in all."
        ]
    return [
        f"{INDENT}{story.threat(tid)} takes no damage (strength {e['strength']} against shield "
        f"{e['shield']}): {e['total']} in all."
    ]


def _threat_destroyed(e: dict, story: _Story) -> list[str]:
    story.gone(e["threat"])
    return [f"{INDENT}{story.threat(e['threat'])} is destroyed (by {e['by']})."]


def _threat_action(e: dict, story: _Story) -> list[str]:
    tid = e["threat"]
    story.track[tid] = f"past {e['action']} at {e['space']}"
    if e["action"] == "Z":
        story.gone(tid)
        return [f"{INDENT}{story.threat(tid)} reaches Z at space {e['space']}: it acts and survives."]
    return [f"{INDENT}{story.threat(tid)} reaches {e['action']} at space {e['space']}."]


def _damage_tile(e: dict, story: _Story) -> list[str]:
    story.tiles[e["zone"]] = e["count"]
    tile = str(e["tile"]).replace("_", " ")
    return [f"{INDENT}Damage in {e['zone']}: {tile} ({count(e['count'], 'tile')} there)."]


def _ship_destroyed(e: dict, story: _Story) -> list[str]:
    if "threat" in e:
        return [f"{INDENT}{story.threat(e['threat'])} destroys the ship!"]
    return [f"{INDENT}The ship is destroyed: {e['reason']} in {e['zone']}!"]


def _delayed(e: dict, story: _Story) -> list[str]:
    who = f"{INDENT}{figure(e['figure'])} is delayed on turn {e['at']}"
    if not e["shifted"]:
        return [f"{who}: that slot is empty, nothing shifts."]
    lost = f", {e['lost']} falls off the end" if e.get("lost") else ""
    return [f"{who}: {count(e['shifted'], 'card')} shift one turn right{lost}."]


def _knocked_out(e: dict, story: _Story) -> list[str]:
    by = story.threat(e["by"]) if e["by"] in story.names else e["by"]
    return [f"{INDENT}{figure(e['figure'])} is knocked out by {by}."]


def _intruder_moves(e: dict, story: _Story) -> list[str]:
    story.where[e["threat"]] = f"at {e['to']}"
    return [f"{INDENT}{story.threat(e['threat'])} moves to {e['to']}."]


def _shields_drained(e: dict, story: _Story) -> list[str]:
    if "each" in e:
        return [f"{INDENT}{story.threat(e['threat'])} drains {e['each']} from each shield."]
    return [f"{INDENT}{story.threat(e['threat'])} drains every shield."]


def _threat_repairs(e: dict, story: _Story) -> list[str]:
    story.damage[e["threat"]] = e["damage"]
    return [f"{INDENT}{story.threat(e['threat'])} repairs itself: damage {e['damage']}."]


def _score(e: dict, story: _Story) -> list[str]:
    mission = f"mission {story.mission}" if story.mission else "the mission"
    verdict = f"Won {mission}: the ship survived" if e["won"] else f"Lost {mission}: the ship is destroyed"
    tiles = ", ".join(f"{z} {n}" for z, n in zip(ZONES, e["tiles"], strict=False))
    return [
        f"{verdict} (turn {e['turn']}); {score_text(e)}. Destroyed: "
        f"{and_list([story.threat(t) for t in e['destroyed']])}; survived: "
        f"{and_list([story.threat(t) for t in e['survived']])}; damage tiles {tiles}; "
        f"{count(e['disabled_bots'], 'battlebot squad')} disabled, "
        f"{count(e['knocked_out'], 'figure')} knocked out."
    ]


HANDLERS: dict[str, Callable[[dict, _Story], list[str]]] = {
    "mission": _mission,
    "threat_appears": _threat_appears,
    "action": _action,
    "no_effect": _said("{figure}: no effect, {why}."),
    "energy": _said("{figure} moves {moved} energy into the {to}."),
    "refuel": _said(
        "{figure} refuels the central reactor: {moved} energy, {fuel} left.",
        fuel=lambda e, _: count(e["fuel"], "fuel capsule"),
    ),
    "repair": _said("{figure} repairs {threat}: {damage} repaired so far."),
    "computer_maintained": _said("{figure} maintains the computer (phase {phase})."),
    "computer_not_maintained": _said(
        "Nobody maintained the computer in phase {phase}: everybody aboard is delayed."
    ),
    "rocket_launched": _said("{figure} launches a rocket ({left} left)."),
    "battlebots_taken": _battlebots_taken,
    "battlebots_repaired": _said("{figure} repairs the disabled battlebots."),
    "battlebots_attack": _battlebots_attack,
    "battlebots_disabled": _battlebots_disabled,
    "interceptors_launch": _said("{figure} flies out in the interceptors."),
    "interceptors_stay": _interceptors_stay,
    "interceptors_return": _said("{figure} flies the interceptors back to upper red."),
    "visual_confirmation": _said(
        "Visual confirmation, phase {phase}: {observers}.",
        observers=lambda e, _: count(e["observers"], "observer"),
    ),
    "fire": _fire,
    "damage": _damage,
    "cryoshield": _said("{threat}'s cryoshield takes the hit and is gone."),
    "threat_destroyed": _threat_destroyed,
    "threat_action": _threat_action,
    "attack": _said(
        "{threat} attacks the {zone} zone with {strength}: {absorbed} absorbed by the shield, "
        "{through} through."
    ),
    "internal_attack": _said("{threat} attacks the {zone} zone from inside with {strength}."),
    "damage_tile": _damage_tile,
    "ship_destroyed": _ship_destroyed,
    "delayed": _delayed,
    "gravolift_delay": _said("{figure} finds the {zone} gravolift taken or damaged: delayed."),
    "tripped": _said("{figure} trips: delayed next turn."),
    "knocked_out": _knocked_out,
    "slimed": _said("{figure} steps into slime at {station}: delayed next turn."),
    "slime_spreads": _said("{threat} spreads to {to}."),
    "intruder_moves": _intruder_moves,
    "shields_drained": _shields_drained,
    "threat_repairs": _threat_repairs,
    "rocket_destroyed": _said("{threat} destroys a rocket ({left} left)."),
    "score": _score,
}
UNTURNED = ("mission", "score")  # events outside the turns: no turn header for them


# What a person reads as one step of the replay page: a group starts at each of these events (and
# at each turn's header); the events after it (a maintained computer, a launched rocket, damage,
# attacks, tiles...) are its consequences and join it. A turn's weapons fire together (damage is
# computed once for all of them), so a run of shots is one group.
LEADS = frozenset(
    {"mission", "score", "threat_appears", "action", "visual_confirmation", "threat_action",
     "computer_not_maintained", "interceptors_return"}
)  # fmt: skip


def narrate_steps(events: list[dict]) -> list[tuple[int, list[str]]]:
    """The narration in groups: (index of the group's last event, its lines), in order. A group
    that tells nothing joins the next one; `narrate` is these lines end to end."""
    story = _Story()
    groups: list[tuple[int, list[str]]] = []
    lines: list[str] = []  # the open group's lines
    lead = ""  # the event that opened the group
    index = 0
    for turn, run in by_turn(events):
        header = True
        for e in run:
            kind = e.get("event")
            starts = index == 0 or kind in LEADS or (kind == "fire" and lead != "fire")
            if kind == "mission":
                story.mission = e.get("campaign_mission", story.mission + 1)
            told: list[str] = []
            if kind in UNTURNED:
                header = True
            elif header:
                told.append(story.header(turn))
                header = False
                starts = True
            told.extend(tell(e, story, HANDLERS))
            if starts and lines:
                groups.append((index - 1, lines))
                lines = []
            if starts:
                lead = kind
            lines.extend(told)
            index += 1
    if lines:
        groups.append((index - 1, lines))
    elif groups and index:  # events that tell nothing at the end: the last group covers them
        groups[-1] = (index - 1, groups[-1][1])
    return groups


def narrate(events: list[dict]) -> list[str]:
    """The event log as lines a player at the table would read (see the module docstring)."""
    return [line for _, lines in narrate_steps(events) for line in lines]
