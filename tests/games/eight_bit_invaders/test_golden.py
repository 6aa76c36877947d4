"""Golden replays: a few seeded games' event logs are stored; any change of behaviour shows up
here and is reviewed. After an intended change, regenerate with
`SIMKIT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/eight_bit_invaders/test_golden.py` and
read the diff before committing it."""

import json
import os
from pathlib import Path

import pytest

from simkit.core.registry import get_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("random", 7, 6, 11),
    ("greedy", 7, 6, 12),
    ("greedy", 6, 5, 13),
    ("lookahead", 7, 6, 21),
]


@pytest.mark.parametrize("strategy, countdown, dice, seed", CASES, ids=lambda v: str(v))
def test_replay_matches_the_stored_log(strategy, countdown, dice, seed):
    events = get_game("eight-bit-invaders").replay(
        {"countdown": countdown, "dice": dice, "data": None}, [strategy], seed, 0
    )
    path = GOLDEN / f"{strategy}-c{countdown}-d{dice}-s{seed}.json"
    text = json.dumps(events, indent=1, sort_keys=True) + "\n"
    if os.environ.get("SIMKIT_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing golden file {path.name}; run with SIMKIT_UPDATE_GOLDEN=1"
    assert json.loads(path.read_text()) == events
