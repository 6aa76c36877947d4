"""Invariants over many seeded whole games, checked from the final state and the event log."""

from __future__ import annotations

import pytest

from simkit.core.registry import get_game
from simkit.games.alien_attack import rules
from simkit.games.alien_attack.state import ATTACK, BASE, EMPTY, LOST, NONE

ENGINE = get_game("alien-attack")
ROUNDS = {2: 30, 3: 24, 4: 20}


def settings(players, variant="standard"):
    return {"players": players, "variant": variant, "data": None}


def check_game(players, strategies, seed, index):
    log = []
    game = ENGINE.new_game(settings(players), strategies, seed, index, log)
    game.play_rest()
    st = game.st
    cell = st.cell[1:]
    places = [e for e in log if e["event"] == "place"]
    # the game lasts 30 / 24 / 20 rounds and empties the Mothership
    assert st.round == ROUNDS[players] and not st.bag
    assert NONE not in cell and ATTACK not in cell
    # every marker accounted for: a base on the board, a base kept by a player, or a marker that
    # was defended (under a disc, or left when its disc was captured)
    defended = sum(1 for e in places if e["how"] in ("turn", "extra_turn"))
    assert cell.count(BASE) + sum(st.bases) + defended == 120
    assert cell.count(EMPTY) + sum(1 for e in places if e["how"] in ("cover", "neighborhood")) == sum(
        st.bases
    )
    assert cell.count(LOST) == sum(st.captured)
    # discs: at most 33 a player, conserved
    for p in range(players):
        assert 0 <= st.discs[p] and st.placed[p] <= 33 and st.discs[p] + st.placed[p] == 33
        assert cell.count(p) == st.placed[p] - st.captured[p]
    # scores never decrease, and each placement's points add up
    last = [0] * players
    for e in places:
        assert e["score"] == last[e["seat"]] + e["points"] >= last[e["seat"]]
        last[e["seat"]] = e["score"]
    assert last == st.score
    # each seat used each power at most once; at most two Extra Turns a round
    powers = [(e["turn"], e["seat"], e["power"]) for e in log if e["event"] == "power"]
    assert len({(s, k) for _, s, k in powers}) == len(powers)
    for r in range(1, st.round + 1):
        assert sum(1 for t, _, k in powers if t == r and k == "extra_turn") <= 2
    # one mandatory placement per seat per round (nobody runs out of discs in these games)
    turns = [(e["turn"], e["seat"]) for e in places if e["how"] == "turn"]
    assert len(turns) == len(set(turns)) == players * st.round
    # protected discs stay; captured ones were sandwiched by this flip and an older base
    for e in log:
        if e["event"] == "flip":
            for c in e["captured"]:
                assert st.cell[c["space"]] == LOST
    final = rules.final_scores(st)
    assert all(f["total"] >= f["placement_points"] for f in final)
    return st


@pytest.mark.parametrize(
    "players, strategy, games",
    [
        (2, "random", 40),
        (3, "random", 40),
        (4, "random", 40),
        (2, "greedy", 40),
        (3, "greedy", 30),
        (4, "greedy", 40),
    ],
)
def test_invariants_hold_over_seeded_games(players, strategy, games):
    for i in range(games):
        check_game(players, [strategy] * players, 100 + players, i)


def test_mixed_seats():
    for i in range(20):
        strategies = ["random", "greedy", "random", "greedy"][: 2 + i % 3]
        check_game(len(strategies), strategies, 7, i)


def test_record_and_seats_agree_with_the_log():
    for i in range(10):
        result = ENGINE.play(settings(2), ["greedy", "random"], 5, i)
        log = ENGINE.replay(settings(2), ["greedy", "random"], 5, i)
        end = log[-1]
        assert end["event"] == "end" and end["scores"] == [s["score"] for s in result.seats]
        assert end["winners"] == [p for p, s in enumerate(result.seats) if s["won"]]
        assert result.record["length"] == 30 and result.record["end_reason"] == "bag_empty"
        for seat in result.seats:
            parts = (
                "placement_points",
                "city_mission",
                "border_mission",
                "parks",
                "bases",
                "territory",
                "protection",
            )
            assert seat["score"] == sum(seat[k] for k in parts)
            assert all(isinstance(v, int | float | str | bool) for v in seat.values())
        assert all(v is None or isinstance(v, int | float | str | bool) for v in result.record.values())


def test_semi_coop_records_the_team_verdict():
    for i in range(10):
        result = ENGINE.play(settings(4, "semi-coop"), ["greedy"] * 4, 9, i)
        earth = result.record["bases_destroyed"] >= 24
        assert result.record["won"] is earth
        assert any(s["won"] for s in result.seats) == earth


def test_state_copy_is_equal_and_independent():
    game = ENGINE.new_game(settings(2), ["greedy", "greedy"], 1, 0, None)
    for _ in range(5):
        game.play_round()
    st = game.st
    copy = st.copy()
    assert copy.key() == st.key()
    copy.cell[1] = 0
    copy.city_cnt[0][0] += 5
    copy.bag.pop()
    assert copy.key() != st.key() and st.city_cnt[0][0] != copy.city_cnt[0][0]
