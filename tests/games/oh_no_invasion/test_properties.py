"""Invariants over many seeded whole games, checked on the state at every logged event."""

import random
from collections import Counter

import pytest

from simkit.core import seeds
from simkit.core.registry import get_game
from simkit.games.oh_no_invasion import components
from simkit.games.oh_no_invasion.components import HUB
from simkit.games.oh_no_invasion.game import Game, Streams
from simkit.games.oh_no_invasion.state import new_game

ENGINE = get_game("oh-no-invasion")
COMP = components.load()
ALL_RES = Counter(range(COMP.n_res))
ALL_SPAWN = Counter(range(COMP.n_spawn))


def check_state(state) -> None:
    """Every card is in exactly one place; counts and flags agree with the cards."""
    assert Counter(state.resistance_cards()) == ALL_RES
    assert Counter(state.spawn_cards()) == ALL_SPAWN
    assert len(state.shields) < COMP.shields_total or state.end_reason == "shields_complete"
    for s in range(state.n):
        figs = [0] * 8
        for a in state.aliens[s]:
            assert not COMP.spawn_shield[a] and COMP.spawn_kind[a] != 2
            figs[COMP.spawn_colour[a]] += COMP.spawn_aliens[a]
        assert figs == state.figs[s]
        assert len(state.mods[s]) == len(state.sabo[s]) == len(state.flipped[s])
        for m, a, f in zip(state.mods[s], state.sabo[s], state.flipped[s], strict=True):
            assert not f or a >= 0, "a sabotaged module has its Sabotalien next to it"
            if a >= 0:
                assert COMP.spawn_kind[a] == 2 and COMP.spawn_colour[a] in COMP.res_symbols[m]
        works = [0, 0, 0, 0]
        for m, f in zip(state.mods[s], state.flipped[s], strict=True):
            works[COMP.res_category[m]] += not f
        assert works == state.works[s]
        shown = [sum(c in COMP.res_symbols[m] for m in state.mods[s]) for c in range(8)]
        assert shown == state.shown[s]
        assert sum(COMP.res_category[m] == HUB for m in state.mods[s]) <= 1
        if not state.alive[s]:
            assert not state.hands[s] and not state.mods[s] and not state.aliens[s]
        for c in state.hands[s]:
            assert COMP.res_category[c] != HUB


class Checking(list):
    """An event log that checks the game's state at every event."""

    def __init__(self):
        super().__init__()
        self.game = None

    def append(self, event):
        if self.game is not None:
            check_state(self.game.state)
        super().append(event)


def checked_game(strategy, players, level, seed, index, threshold=6.0):
    seq = seeds.game_sequence(seed, index)
    resistance, spawn = seeds.streams(seq, 2, seeds.CHANCE)
    streams = Streams(seeds.stream(seq, seeds.SETUP), resistance, spawn)
    from simkit.games.oh_no_invasion import ENGINE

    spec = strategy if strategy == "random" else f"{strategy}:final_conflict={threshold}"
    crew = [ENGINE.player(spec, seeds.SeatStream(seq, k)) for k in range(players)]
    log = Checking()
    game = Game(COMP, players, level, crew, streams, log)
    log.game = game
    record = game.play()
    check_state(game.state)
    return record, log


@pytest.mark.parametrize("strategy, games", [("random", 120), ("cautious", 120), ("bold", 120)])
def test_cards_are_conserved_at_every_step_and_the_game_ends(strategy, games):
    reasons = Counter()
    for i in range(games):
        players, level = 2 + i % 4, (i // 4) % 4
        record, log = checked_game(strategy, players, level, 7, i, threshold=(2.0, 6.0, 12.0)[i % 3])
        assert log[-1]["event"] == "end" and record["end_reason"] == log[-1]["reason"]
        assert record["end_reason"] in ("spawnmonster_destroyed", "shields_complete", "crew_eliminated")
        assert record["won"] == (record["end_reason"] == "spawnmonster_destroyed")
        assert record["score"] == (COMP.points[level] * record["survivors"] if record["won"] else 0)
        assert 0 <= record["survivors"] <= players and record["length"] < 200
        assert record["won"] == (record["survivors"] > 0 and record["end_reason"] != "shields_complete")
        reasons[record["end_reason"]] += 1
    if strategy != "random":
        assert reasons["spawnmonster_destroyed"] > 0 and reasons["crew_eliminated"] > 0


def test_many_seeded_games_end_with_a_valid_record():
    """Thousands of games through the engine (no per-step check: that is above)."""
    settings = {"players": 4, "level": 1, "data": None}
    for i in range(1200):
        settings["players"] = 3 + i % 3
        settings["level"] = i % 4
        record = ENGINE.play(settings, ["cautious" if i % 2 else "bold"], 11, i).record
        assert record["end_reason"] in ("spawnmonster_destroyed", "shields_complete", "crew_eliminated")
        assert all(isinstance(v, bool | int | float | str) for v in record.values())


def test_state_copy_is_equal_and_independent():
    state = new_game(COMP, 4, 1, random.Random(3))
    copy = state.copy()
    assert copy.key() == state.key()
    copy.hands[0].append(copy.deck.pop())
    copy.add_module(1, 5)
    assert state.hands[0] == [] and len(state.mods[1]) == 1 and state.works[1] == [1, 0, 0, 0]
