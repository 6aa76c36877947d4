"""Golden replays: a few seeded games' event logs are stored; any change of behaviour shows up
here and is reviewed. After an intended change, regenerate with
`SIMKIT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/space_alert/test_golden.py` and
read the diff before committing it."""

import json
import os
from pathlib import Path

import pytest

from simkit.core.registry import get_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    ("scripted", {"mission": "real"}, 11),
    ("scripted", {"mission": "3", "figures": 5, "players": 3}, 12),
    ("random", {"mission": "test", "hands": "free"}, 13),
    ("scripted", {"mission": "simulation", "common": "yellow", "serious": "yellow", "error_rate": 0.2}, 14),
]


@pytest.mark.parametrize(("strategy", "settings", "seed"), CASES, ids=lambda v: str(v))
def test_replay_matches_the_stored_log(strategy, settings, seed):
    events = get_game("space-alert").replay(settings, [strategy], seed, 0)
    name = "-".join(f"{k}{v}" for k, v in sorted(settings.items()))
    path = GOLDEN / f"{strategy}-{name}-s{seed}.json"
    text = json.dumps(events, indent=1, sort_keys=True) + "\n"
    if os.environ.get("SIMKIT_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing golden file {path.name}; run with SIMKIT_UPDATE_GOLDEN=1"
    assert json.loads(path.read_text()) == events
