"""Golden replays: a few seeded games' event logs are stored; any change of behaviour shows up
here and is reviewed. After an intended change, regenerate with
`SIMKIT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/oh_no_invasion/test_golden.py` and
read the diff before committing it."""

import json
import os
from pathlib import Path

import pytest

from simkit.core.registry import get_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("random", 3, 1, 11),
    ("cautious", 4, 1, 12),
    ("cautious", 5, 0, 13),
    ("bold", 3, 2, 14),
    ("cautious", 4, 3, 15),
]


@pytest.mark.parametrize("strategy, players, level, seed", CASES, ids=lambda v: str(v))
def test_replay_matches_the_stored_log(strategy, players, level, seed):
    settings = {"players": players, "level": level, "final_conflict": 6.0, "data": None}
    events = get_game("oh-no-invasion").replay(settings, [strategy], seed, 0)
    path = GOLDEN / f"{strategy}-p{players}-l{level}-s{seed}.json"
    text = json.dumps(events, indent=1, sort_keys=True) + "\n"
    if os.environ.get("SIMKIT_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing golden file {path.name}; run with SIMKIT_UPDATE_GOLDEN=1"
    assert json.loads(path.read_text()) == events
