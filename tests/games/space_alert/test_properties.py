"""Properties over many seeded games: invariants hold after every step of the resolution round.

Energy never negative nor above capacity (a heroic B may add 1 beyond it), at most 6 damage
tiles in a zone (the 7th ends the game), every threat ends destroyed, survived or still on its
trajectory (or never appeared if the ship was lost first), figures stay on the board."""

from __future__ import annotations

import random

import pytest

from simkit.core import seeds
from simkit.games.space_alert import ENGINE, game, rules
from simkit.games.space_alert.state import ACTIVE, DESTROYED, SURVIVED, WAITING
from tests.games.space_alert.helpers import COMP

SETTINGS = [
    ENGINE.params(s)
    for s in (
        {
            "mission": "real",
            "common": "white",
            "serious": "white",
            "players": 4,
            "figures": 4,
            "hands": "dealt",
        },
        {
            "mission": "test",
            "common": "yellow",
            "serious": "yellow",
            "players": 2,
            "figures": 5,
            "hands": "dealt",
        },
        {
            "mission": "simulation",
            "common": "mixed",
            "serious": "mixed",
            "players": 5,
            "figures": 5,
            "hands": "free",
        },
        {"mission": "8", "common": "yellow", "serious": "white", "players": 1, "figures": 4, "hands": "free"},
    )
]


class Checked(rules.Resolution):
    heroic = 0

    def play_turn(self, t):
        super().play_turn(t)
        check(self.st, self.extra)


def check(st, extra):
    for z in range(3):
        assert 0 <= st.reactor[z] <= st.reactor_cap[z] + extra
        assert 0 <= st.shield[z] <= st.shield_cap[z] + extra
        assert len(st.tiles[z]) <= 6
    assert 0 <= st.fuel <= 3 and 0 <= st.rockets <= 3
    assert all(0 <= p <= 6 for p in st.pos)
    for th in st.threats:
        assert th.status in (WAITING, ACTIVE, DESTROYED, SURVIVED)
        if th.status == ACTIVE:
            assert 1 <= th.pos <= th.traj.length
            assert th.tokens or th.damage < max(1, rules.Resolution.health(None, th)), th.card.id
        if th.status == WAITING:
            assert th.token > st.turn or st.lost


def play(settings, strategy, i):
    from simkit.games.space_alert import players

    cls = {"random": players.RandomPlayer, "scripted": players.ScriptedPlayer}[strategy]
    seq = seeds.game_sequence(99, i)
    setup = game.deal(COMP, settings, seeds.stream(seq, seeds.SETUP))
    crew = [cls(seeds.stream(seq, seeds.FIRST_SEAT + k)) for k in range(settings.figures)]
    plans = game.plan_mission(COMP, settings, setup, crew)
    rng = random.Random(i)
    stacks = [rng.sample(COMP.tiles, 6) for _ in range(3)]
    from simkit.games.space_alert.state import new_state

    st = new_state(COMP, settings.figures, plans, stacks, settings.players)
    st.threats = rules.live_threats(COMP, setup.threats)
    r = Checked(COMP, st, None)
    r.extra = settings.figures  # each figure's one heroic B may overfill by 1
    r.run()
    return st


@pytest.mark.parametrize("strategy", ["random", "scripted"])
@pytest.mark.parametrize("s", range(len(SETTINGS)))
def test_invariants_over_seeded_games(strategy, s):
    for i in range(150):
        st = play(SETTINGS[s], strategy, i)
        assert st.turn == 13 or st.lost
        if not st.lost:
            assert all(th.status != WAITING for th in st.threats)
        assert max(len(t) for t in st.tiles) <= 6


def test_log_replays_the_tiles_and_the_outcome():
    """The event log is complete enough to re-check damage: tiles per zone and the outcome."""
    from simkit.core.registry import get_game

    engine = get_game("space-alert")
    for i in range(15):
        log = engine.replay({}, ["scripted"], 5, i)
        rec = engine.play({}, ["scripted"], 5, i).record
        tiles = {"red": 0, "white": 0, "blue": 0}
        for e in log:
            if e["event"] == "damage_tile":
                tiles[e["zone"]] += 1
        assert (tiles["red"], tiles["white"], tiles["blue"]) == (
            rec["damage_red"],
            rec["damage_white"],
            rec["damage_blue"],
        )
        assert log[-1]["event"] == "score" and log[-1]["won"] == rec["won"]
        assert any(e["event"] == "ship_destroyed" for e in log) == (not rec["won"])
