"""`simkit replay alien-attack` told as at the table (narrate.py): every event of seeded games is
told in words, a few hand-picked events read exactly so.
The CLI and the fields form of unknown events: tests/contract."""

import re

import pytest

from simkit.core.registry import get_game
from simkit.games.alien_attack.narrate import narrate
from simkit.testing import contract

ENGINE = get_game("alien-attack")
RESULT = re.compile(r"Game over after round \d+: .*\(scores [\d / ]+\)\.$")

# (strategies, variant, seed): every strategy, every power (Cover, Extra Turn, Neighborhood,
# Protection), captures, a shared win, and both semi-cooperative endings ("skip" never happens in
# a normal game: it is told in LINES below)
CASES = [
    (["missions", "missions"], "standard", 0),  # every power, a capture, a shared win
    (["missions", "missions"], "semi-coop", 0),  # the invasion succeeds
    (["missions", "missions"], "semi-coop", 3),  # Earth wins
    (["random", "random", "random"], "standard", 1),
    (["greedy", "missions", "random", "greedy"], "semi-coop", 2),
    (["rollout", "greedy"], "standard", 2),
]


@pytest.mark.parametrize("strategies, variant, seed", CASES, ids=lambda v: str(v))
def test_every_event_is_told_in_words(strategies, variant, seed):
    settings = {"players": len(strategies), "variant": variant, "data": None}
    events, story = contract.told(ENGINE, settings, strategies, seed)
    assert story[0] == f"Alien Attack: USA, {len(strategies)} players, {events[0]['rounds']} rounds."
    assert RESULT.match(story[-1]), story[-1]


PLACE = {
    "event": "place",
    "turn": 8,
    "seat": 0,
    "space": 83,
    "points": 0,
    "cities": [],
    "herd": 0,
    "park": None,
    "destroyed": [69],
    "score": 13,
    "discs_left": 24,
}
SETUP = {
    "event": "setup",
    "turn": 0,
    "players": 2,
    "seats": [
        {"seat": 0, "strategy": "greedy", "city_card": 3, "border_card": "pacific"},
        {"seat": 1, "strategy": "random", "city_card": 4, "border_card": "mexico"},
    ],
    "rounds": 30,
}
LINES = [
    (
        [SETUP],
        [
            "Alien Attack: USA, 2 players, 30 rounds.",
            "  Seat 1 (greedy) holds City card 3 and Border card Pacific.",
            "  Seat 2 (random) holds City card 4 and Border card Mexico.",
        ],
    ),
    (
        [SETUP, {"event": "power", "turn": 8, "seat": 0, "power": "extra_turn", "space": 83}, {**PLACE, "how": "extra_turn"}],
        ["  Seat 1 (greedy) takes the Extra Turn: disc on 83, no points, destroys the base on 69; score 13, 24 discs left."],
    ),
    (
        [{**PLACE, "how": "turn", "points": 5, "cities": [{"city": "Denver", "value": 3}], "herd": 2, "park": "Arches", "destroyed": []}],
        ["  Seat 1 defends 83: 5 points (Denver 3, herd 2), takes the Arches park marker; score 13, 24 discs left."],
    ),
    (
        [{"event": "power", "turn": 6, "seat": 1, "power": "neighborhood", "space": 1, "destroyed": [1]}],
        ["  Seat 2 uses Neighborhood on 1 (destroys and keeps the base on 1)."],
    ),
    (
        [{"event": "skip", "turn": 30, "seat": 2, "reason": "no discs left"}],
        ["  Seat 3 is skipped: no discs left."],
    ),
    (
        [
            {
                "event": "flip",
                "turn": 7,
                "space": 68,
                "captured": [{"space": 67, "seat": 1}],
                "protected": [{"space": 55, "seat": 0}],
            }
        ],
        ["  Undefended marker 68 flips into a base, capturing seat 2's disc on 67; seat 1 plays Protection to keep its disc on 55."],
    ),
    (
        [{"event": "draw", "turn": 1, "markers": [29, 67, 69, 95]}],
        ["  The Mothership drops attack markers on 29, 67, 69 and 95."],
    ),
    (
        [
            {
                "event": "round",
                "turn": 2,
                "first_player": 1,
                "bases": [29, 69],
                "discs": {"0": [67], "1": [95]},
                "emptied": [],
                "lost": [44],
                "bag": 116,
                "score": [0, 2],
                "discs_left": [32, 32],
                "powers_left": [["protection", "cover", "neighborhood", "extra_turn"], ["protection", "cover"]],
            }
        ],
        [
            "Round 2, seat 2 starts: scores 0 / 2, discs left 32 / 32; 116 markers in the Mothership, 2 bases "
            "on the board, 1 captured; powers used: seat 2 Neighborhood, Extra Turn."
        ],
    ),
    (
        [SETUP, {"event": "end", "turn": 30, "reason": "bag_empty", "winners": [1], "scores": [162, 165], "bases_destroyed": 21}],
        ["Game over after round 30: the Mothership is empty, 21 bases destroyed; Seat 2 (random) wins with 165 (scores 162 / 165)."],
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    "events, expected", LINES, ids=lambda v: v[-1]["event"] if isinstance(v[0], dict) else ""
)
def test_hand_picked_events_read(events, expected):
    assert narrate(events)[-len(expected) :] == expected
