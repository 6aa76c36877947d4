"""Golden replays: a few seeded games' event logs are stored; any change of behaviour shows up
here and is reviewed. After an intended change, regenerate with
`SIMKIT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/games/alien_attack/test_golden.py` and read the
diff before committing it."""

import json
import os
from pathlib import Path

import pytest

from simkit.core.registry import get_game

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    (("greedy", "greedy"), "standard", 11),
    (("random", "greedy", "random"), "standard", 12),
    (("greedy", "greedy", "greedy", "greedy"), "semi-coop", 13),
    (("missions", "greedy", "random"), "standard", 14),
]


@pytest.mark.parametrize("strategies, variant, seed", CASES, ids=lambda v: str(v))
def test_replay_matches_the_stored_log(strategies, variant, seed):
    events = get_game("alien-attack").replay(
        {"players": len(strategies), "variant": variant, "data": None}, list(strategies), seed, 0
    )
    path = GOLDEN / f"{'-'.join(strategies)}-{variant}-s{seed}.json"
    text = json.dumps(events, indent=1, sort_keys=True) + "\n"
    if os.environ.get("SIMKIT_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing golden file {path.name}; run with SIMKIT_UPDATE_GOLDEN=1"
    assert json.loads(path.read_text()) == events
