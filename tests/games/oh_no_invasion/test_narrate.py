"""`simkit replay oh-no-invasion` told as at the table (narrate.py): every event of seeded games
is told in words, a few hand-picked events read exactly so.
The CLI and the fields form of unknown events: tests/contract."""

import re

import pytest

from simkit.core.registry import get_game
from simkit.games.oh_no_invasion.narrate import narrate
from simkit.testing import contract

ENGINE = get_game("oh-no-invasion")
RESULT = re.compile(r"(Won|Lost) on turn \d+: .*score \d+\.$")

# (strategy, level, players, seed): every strategy and level, the Final Conflict, every ending and
# every cause of elimination (reshuffle_spawn and a level-0 elimination that keeps the Hub are
# told in LINES below)
CASES = [
    ("cautious", 0, 2, 0),  # kamikaze, the crew eliminated
    ("cautious", 0, 2, 1),  # zap, evaporate, sabotage, help to counter, the Spawnmonster destroyed
    ("cautious", 0, 2, 2),  # Morph-box
    ("cautious", 0, 3, 1),  # Teleporter combat and strike
    ("cautious", 2, 5, 1),  # module destroyed, eliminated by sabotage
    ("bold", 0, 2, 1),  # every Shield alien in play
    ("bold", 3, 3, 2),  # level 3, eliminated by Invaliens
    ("random", 0, 2, 2),  # transport
    ("random", 3, 4, 0),
]


@pytest.mark.parametrize("strategy, level, players, seed", CASES, ids=lambda v: str(v))
def test_every_event_is_told_in_words(strategy, level, players, seed):
    settings = {"players": players, "level": level, "data": None}
    events, story = contract.told(ENGINE, settings, [strategy], seed)
    assert story[0].startswith(f"Oh no... INVASION!!!: {players} players, level {level}")
    assert RESULT.match(story[-1]), story[-1]


ALIEN = "yellow Invaliens x2 (flies left, orders green at 7+)"
LINES = [
    (
        {"event": "transport", "turn": 4, "player": "P2", "to": "P4", "cards": ["red bomb", "Teleporter (blue)"]},
        ["  P2 transports red bomb and Teleporter (blue) to P4."],
    ),
    (
        {"event": "draw", "turn": 40, "player": "P1", "cards": []},
        ["  P1 draws: both Resistance piles are empty, nothing to draw."],
    ),
    (
        {"event": "reshuffle_spawn", "turn": 30, "cards": 41},
        ["  The Spawn deck is remade: 41 discarded cards shuffled."],
    ),
    (
        {"event": "spawn", "turn": 3, "player": "P3", "alien": ALIEN, "path": ["P3", "P4", "P1"], "target": None},
        [f"  Spawn card for P3: {ALIEN}, path P3 -> P4 -> P1, with no station to land on."],
    ),
    (
        {"event": "order", "turn": 3, "ordered": "red", "threshold": 6, "figures": {"P1": 3, "P4": 6}},
        ["  Attack order: red Invaliens, 6 or more eliminate; red figures: P1 3, P4 6."],
    ),
    (
        {"event": "eliminated", "turn": 9, "player": "P4", "cause": "invaliens", "stays_in_game": True},
        ["  P4 is eliminated by Invaliens but keeps the Hub and stays in the game."],
    ),
    (
        {
            "event": "combat",
            "turn": 7,
            "attacker": "P2",
            "station": "P1",
            "played": ["red bomb as red", "black cannon as pink"],
            "morph_box": [],
            "cleared": ["pink", "red"],
            "removed": ["red Invalien x1 (flies right, orders red at 7+)"],
            "discarded": ["red bomb", "black cannon"],
        },
        [
            "  Combat: P2 attacks P1's station with red bomb as red and black cannon as pink: removes red "
            "Invalien x1 (flies right, orders red at 7+) (pink, red cleared); discards red bomb and black cannon."
        ],
    ),
    (
        {"event": "counter", "turn": 25, "player": "P1", "helping": None, "cards": ["purple rocket", "orange rocket"], "alien": ALIEN},
        [f"  P1 counters the {ALIEN} with the Morph-box (purple rocket + orange rocket)."],
    ),
    (
        {"event": "strike", "turn": 24, "player": "P3", "helping": "P4", "cards": ["black bomb"], "shield": "yellow", "shields_left": 1},
        ["  P3, for P4, strikes the yellow Shield alien with black bomb: 1 Shield alien left."],
    ),
    (
        {"event": "spawnmonster_destroyed", "turn": 26, "player": "P2", "weapon": ["green bomb"]},
        ["  No Shield alien left: P2 destroys the Spawnmonster with green bomb!"],
    ),
    (
        {"event": "end", "turn": 26, "reason": "spawnmonster_destroyed", "won": True, "survivors": 3, "score": 9},
        ["Won on turn 26: the Spawnmonster is destroyed; 3 survivors, 3 points each: score 9."],
    ),
]  # fmt: skip


@pytest.mark.parametrize("event, expected", LINES, ids=lambda v: v["event"] if isinstance(v, dict) else "")
def test_a_hand_picked_event_reads(event, expected):
    assert narrate([event]) == expected
