"""The scripted players: legal answers in whole games, and the rules each one states."""

from __future__ import annotations

import random

import pytest

from simkit.games.alien_attack import ENGINE, players
from simkit.games.alien_attack.game import View

from .scripted import S, state
from .test_properties import check_game

A, B, C, D, E = S(2, 4), S(3, 4), S(4, 4), S(5, 4), S(6, 4)
FAR = [13, 27, 29]  # plain spaces (no city, herd, park or border) away from row 4


def test_strategies_are_registered_with_descriptions():
    assert set(ENGINE.strategies) == {"random", "greedy", "missions", "rollout", "mcts"}
    assert all(s.help for s in ENGINE.strategies.values())
    assert ENGINE.default_strategy == "greedy"
    assert isinstance(ENGINE.player("rollout:rollouts=3", random.Random(1)), players.RolloutPlayer)
    assert ENGINE.player("rollout:rollouts=3", random.Random(1)).rollouts == 3
    assert ENGINE.player("rollout", random.Random(1)).rollouts == 8


@pytest.mark.parametrize("players_n", [2, 3, 4])
def test_missions_plays_legal_games(players_n):
    for i in range(3):
        check_game(players_n, ["missions", "greedy", "random", "missions"][:players_n], 21, i)


def test_rollout_plays_a_legal_game():
    log = []
    game = ENGINE.new_game(
        {"players": 2, "variant": "standard", "data": None}, ["rollout:rollouts=1", "greedy"], 22, 0, log
    )
    game.play_rest()
    assert game.st.round == 30 and sum(1 for e in log if e["event"] == "place" and e["how"] == "turn") == 60


def test_greedy_takes_the_most_points():
    la = [66, 79, 80]  # Los Angeles (7): seat 0 already touches it
    st = state(discs={66: 0}, attacks=[79, *FAR])
    assert players.GreedyPlayer(random.Random(1)).place(View(st, 0), tuple(st.open)) == 79
    assert la[0] == 66


def test_missions_defends_the_marker_whose_flip_would_capture_its_disc():
    # seat 0's disc on B sits between a base on A and this round's marker on C
    st = state(discs={B: 0}, bases=[A], attacks=[C, *FAR])
    choice = players.MissionsPlayer(random.Random(1)).place(View(st, 0), tuple(st.open))
    assert choice == C


def test_missions_avoids_a_space_a_flip_is_likely_to_capture():
    # C between a base on B and this round's open marker on D is worth less than C without the base
    mp = players.MissionsPlayer(random.Random(1))

    def value(st):
        view = View(st, 0)
        return mp.value(view, C, mp._context(view))

    risky = value(state(bases=[B], attacks=[C, D, *FAR]))
    safe = value(state(attacks=[C, D, *FAR]))
    st = state(bases=[B], attacks=[C, D, *FAR])
    st.powers[0] = 0  # without Protection the risk weighs double
    assert value(st) < risky < safe


def test_players_use_cover_when_offered():
    from simkit.games.alien_attack.game import PowerOptions

    st = state(attacks=FAR)
    for cls in (players.GreedyPlayer, players.MissionsPlayer):
        assert cls(random.Random(1)).power(View(st, 0), PowerOptions(A, (B,), False, ())) == ("cover", B)
