"""`simkit replay eight-bit-invaders` told as at the table (narrate.py): every event of seeded
games is told in words, a few hand-picked events read exactly so.
The CLI and the fields form of unknown events: tests/contract."""

import re

import pytest

from simkit.core.narration import event_fields
from simkit.core.registry import get_game
from simkit.games.eight_bit_invaders.narrate import narrate
from simkit.testing import contract

ENGINE = get_game("eight-bit-invaders")

# (strategy, countdown, dice, seed): together every event type the engine emits and every ending
# (reshuffle_bonus needs more trades than three shields allow: it is told in LINES below)
CASES = [
    ("lookahead", 7, 6, 0),  # trade_shield, rapid_fire, landed
    ("lookahead", 6, 5, 0),  # smart_bomb
    ("lookahead", 7, 6, 1),  # time_slip
    ("lookahead", 6, 5, 4),  # bomber
    ("lookahead", 7, 6, 11),  # rocket_fuel
    ("lookahead", 7, 6, 33),  # cleared
    ("random", 7, 6, 0),  # shot_down
    ("random", 7, 6, 2),  # extra_life
    ("greedy", 7, 6, 0),
]


@pytest.mark.parametrize("strategy, countdown, dice, seed", CASES, ids=lambda v: str(v))
def test_every_event_is_told_in_words(strategy, countdown, dice, seed):
    events, story = contract.told(
        ENGINE, {"countdown": countdown, "dice": dice, "data": None}, [strategy], seed
    )
    assert story[0].startswith("Turn 1: ")
    assert re.match(r"(Won|Lost) on turn \d+: .*Score \d+", story[-1]), story[-1]


LINES = [
    (
        {"event": "trade_shield", "turn": 3, "column": 4, "drew": "rapid_fire"},
        ["  Trades the shield under column 4 for a bonus card: draws Rapid Fire."],
    ),
    (
        {"event": "trade_shield", "turn": 3, "column": 2, "drew": None},
        ["  Trades the shield under column 2 for a bonus card: no bonus card is left to draw."],
    ),
    (
        {"event": "reshuffle_bonus", "turn": 9, "cards": 5},
        ["  The bonus pile is empty: 5 discarded cards are shuffled into a new pile."],
    ),
    (
        {"event": "smart_bomb", "turn": 5, "die": 1, "before": 3, "after": 4, "dice": [1, 4, 1, 6, 6, 3]},
        ["  Plays Smart Bomb on die 2: its 3 turns to 4; dice now 1 4 1 6 6 3."],
    ),
    (
        {"event": "time_slip", "turn": 5, "rerolled": [0, 4], "dice": [2, 4, 1, 6, 5, 3]},
        ["  Plays Time Slip, re-rolling dice 1, 5: now 2 4 1 6 5 3."],
    ),
    (
        {"event": "kill", "turn": 1, "dice": [3, 6], "column": 3, "row": 5, "alien": "=9", "type": "crab"},
        ["  3 + 6 kill the crab [=9] (column 3, row 5)."],
    ),
    (
        {
            "event": "bomber",
            "turn": 1,
            "shield_destroyed": 6,
            "column": 6,
            "row": 5,
            "alien": "=12",
            "type": "squid",
        },
        ["  Heavy bomber squid [=12] (column 6, row 5) destroys the shield under column 6."],
    ),
    (
        {
            "event": "movement",
            "turn": 17,
            "dice": [5, 4],
            "sum": 7,
            "track_before": 0,
            "track_after": 0,
            "aliens_left": 5,
            "countdown_removed": True,
            "countdown": 0,
        },
        [
            "  The aliens advance: dice 5 4, less one each: 4 + 3 = 7; track 0 -> 7, reaching the 5 "
            "aliens left: a countdown card is removed (0 left), track back to 0."
        ],
    ),
    (
        {"event": "shield_move", "turn": 4, "direction": "right", "moved": False, "shields": [3, 5, 7]},
        ["  The shields would move right but the edge stops them: still under 3 5 7."],
    ),
    ({"event": "extra_life", "turn": 8}, ["  The Extra Life saves the ship (the card is discarded)."]),
    (
        {"event": "end", "turn": 12, "reason": "shot_down", "won": False},
        ["Lost on turn 12: the counterattack shot the ship down."],
    ),
]


@pytest.mark.parametrize("event, expected", LINES, ids=lambda v: v["event"] if isinstance(v, dict) else "")
def test_a_hand_picked_event_reads(event, expected):
    assert narrate([event]) == expected


def test_place_events_are_told_alien_by_alien_and_unknown_events_keep_their_fields():
    place = {"event": "place", "turn": 1, "column": 4, "row": 4, "alien": "2 6", "type": "saucer"}
    events = [
        {**place, "die": 0, "value": 2},
        {**place, "die": 3, "value": 3, "column": 3, "row": 5, "alien": "=9", "type": "crab"},
        {**place, "die": 4, "value": 6},
        {"event": "teleport", "turn": 1, "column": 2},
    ]
    assert narrate(events) == [
        "  Puts die 1 (2) and die 5 (6) on the saucer [2 6] (column 4, row 4).",
        "  Puts die 4 (3) on the crab [=9] (column 3, row 5).",
        "[1] teleport: column=2",
    ]
    assert narrate([{"event": "roll", "turn": 2}]) == [event_fields({"event": "roll", "turn": 2})]
