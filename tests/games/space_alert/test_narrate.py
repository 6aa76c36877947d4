"""`simkit replay space-alert` told as at the table (narrate.py): every event of seeded games is
told in words, a few hand-picked events read exactly so, and the resolver's `format_log` (which
shares `by_turn` and `score_text`) prints as before. The CLI and the fields form of unknown
events: tests/contract."""

import re

import pytest

from simkit.core.registry import get_game
from simkit.games.space_alert import plan_file
from simkit.games.space_alert.narrate import HANDLERS, narrate
from simkit.testing import contract

ENGINE = get_game("space-alert")
RESULT = re.compile(r"(Won|Lost) mission \d+: .*score -?\d+ \(threats \d+, penalties -\d+, visual \d+\)")
FIVE = {"figures": 5, "players": 5}

# (strategy, settings, seed): both strategies, 5 figures, a campaign of 3, yellow threats, trips:
# together every event type the engine emits and both outcomes
CASES = [
    ("scripted", {}, 0),
    ("scripted", FIVE, 0),  # interceptors, cryoshield
    ("scripted", FIVE, 2),  # battlebots repaired
    ("scripted", FIVE, 4),  # the computer not maintained
    ("scripted", FIVE, 5),  # interceptors stay out
    ("scripted", {"campaign": 3, "mission": "test"}, 1),  # three missions, damage carried
    ("scripted", {"campaign": 3, "figures": 5, "players": 5}, 3),
    ("scripted", {"mission": "7", "common": "yellow", "serious": "yellow"}, 0),  # knocked out
    ("scripted", {"mission": "7", "common": "yellow", "serious": "yellow"}, 4),  # won
    ("scripted", {"common": "yellow", "serious": "yellow", **FIVE}, 3),  # slime, a rocket destroyed
    ("scripted", {"common": "yellow", "serious": "yellow", **FIVE}, 4),  # slime spreads
    ("scripted", {"error_rate": 0.2, "hands": "free"}, 0),  # trips
    ("scripted", {}, 3),  # repairs, visual confirmation
    ("random", {}, 1),
    ("random", {"campaign": 3, **FIVE}, 2),
]


@pytest.mark.parametrize("strategy, settings, seed", CASES, ids=lambda v: str(v))
def test_every_event_is_told_in_words(strategy, settings, seed):
    events, story = contract.told(ENGINE, settings, [strategy], seed)
    assert story[0].startswith("Mission 1 (")
    assert RESULT.match(story[-1]), story[-1]
    assert sum(line.startswith("Mission ") for line in story) == sum(e["event"] == "mission" for e in events)


def test_every_event_type_is_met_in_the_cases():
    seen = {
        e["event"] for strategy, settings, seed in CASES for e in ENGINE.replay(settings, [strategy], seed, 0)
    }
    assert seen == set(HANDLERS)


LINES = [
    (
        {"event": "delayed", "turn": 5, "figure": 2, "at": 6, "shifted": 6, "lost": "B"},
        ["  Figure 3 is delayed on turn 6: 6 cards shift one turn right, B falls off the end."],
    ),
    (
        {"event": "delayed", "turn": 9, "figure": 2, "at": 10, "shifted": 0},
        ["  Figure 3 is delayed on turn 10: that slot is empty, nothing shifts."],
    ),
    (
        {"event": "damage", "turn": 3, "threat": "E1-02", "strength": 4, "shield": 2, "damage": 2, "total": 4},
        ["  E1-02 takes 2 damage (strength 4 - shield 2): 4 in all."],
    ),
    (
        {"event": "attack", "turn": 2, "threat": "E1-02", "zone": "red", "strength": 1, "absorbed": 1, "through": 0},
        ["  E1-02 attacks the red zone with 1: 1 absorbed by the shield, 0 through."],
    ),
    (
        {"event": "fire", "turn": 2, "weapon": "pulse cannon", "targets": ["E1-04", "E1-07"]},
        ["  The pulse cannon fires: E1-04 and E1-07."],
    ),
    (
        {"event": "threat_action", "turn": 9, "threat": "E1-07", "action": "Z", "space": 0},
        ["  E1-07 reaches Z at space 0: it acts and survives."],
    ),
    (
        {"event": "action", "turn": 4, "figure": 0, "card": "teleport lower blue", "station": "upper red"},
        ["  Figure 1 at upper red teleports to lower blue."],
    ),
    (
        {"event": "damage_tile", "turn": 6, "zone": "blue", "tile": "heavy_laser", "count": 3},
        ["  Damage in blue: heavy laser (3 tiles there)."],
    ),
]  # fmt: skip


@pytest.mark.parametrize("event, expected", LINES, ids=lambda v: v["event"] if isinstance(v, dict) else "")
def test_a_hand_picked_event_reads(event, expected):
    assert narrate([event])[1:] == expected  # after the turn's header


def test_a_turn_header_shows_the_threats_and_the_damage():
    mission = {
        "event": "mission",
        "turn": 0,
        "mission": "real",
        "campaign_mission": 1,
        "threats": [{"turn": 1, "threat": "E1-02", "name": "Destroyer", "zone": "red", "trajectory": "T6"}],
        "trajectories": {"red": "T6", "white": "T2", "blue": "T5", "internal": "T4"},
        "plans": [["A"] + ["-"] * 11],
        "androids": [],
        "trips": [[0, 1]],
    }
    appears = {"event": "threat_appears", "turn": 1, "threat": "E1-02", "name": "Destroyer", "token": 1}
    appears |= {"zone": "red", "trajectory": "T6", "stations": None}
    events = [
        mission,
        appears,
        {"event": "threat_action", "turn": 1, "threat": "E1-02", "action": "X", "space": 10},
        {"event": "damage_tile", "turn": 1, "zone": "red", "tile": "reactor", "count": 1},
        {
            "event": "damage",
            "turn": 2,
            "threat": "E1-02",
            "strength": 4,
            "shield": 2,
            "damage": 2,
            "total": 2,
        },
        {
            "event": "damage",
            "turn": 3,
            "threat": "E1-02",
            "strength": 1,
            "shield": 2,
            "damage": 0,
            "total": 2,
        },
    ]
    assert narrate(events) == [
        "Mission 1 (real): 1 figure, 1 threat; trajectories red T6, white T2, blue T5, internal T4.",
        "  Turn 1: Destroyer (E1-02), red, trajectory T6.",
        "  Figure 1 (captain) plays: A - - - - - - - - - - -",
        "  Figure 1 will trip on turn 1.",
        "Turn 1: damage tiles red 0, white 0, blue 0; threats: none in play.",
        "  Threat appears: Destroyer (E1-02), token 1, red, trajectory T6.",
        "  Destroyer (E1-02) reaches X at space 10.",
        "  Damage in red: reactor (1 tile there).",
        "Turn 2: damage tiles red 1, white 0, blue 0; threats: Destroyer (E1-02) red, damage 0, past X at 10.",
        "  Destroyer (E1-02) takes 2 damage (strength 4 - shield 2): 2 in all.",
        "Turn 3: damage tiles red 1, white 0, blue 0; threats: Destroyer (E1-02) red, damage 2, past X at 10.",
        "  Destroyer (E1-02) takes no damage (strength 1 against shield 2): 2 in all.",
    ]


def test_the_resolver_prints_as_before():
    log, result = plan_file.resolve_file(plan_file.__file__.replace("plan_file.py", "data/example_plan.toml"))
    text = plan_file.format_log(log, result).splitlines()
    assert text[0] == "--- turn 1 ---" and text[1].startswith("  action: figure=0, ")
    assert text[-1] == (
        f"ship destroyed; score {result['score']} (threats {result['threat_points']}, penalties "
        f"-{result['penalties']}, visual {result['visual_points']}); damage {result['tiles']}"
    )
