"""The event log is complete enough to re-check the rules: a fresh table driven only by the logged
draws, placements, powers and flips reproduces every logged score, destruction, capture, round
snapshot and final breakdown."""

from __future__ import annotations

import pytest

from simkit.games.alien_attack import ENGINE, rules
from simkit.games.alien_attack.state import ATTACK, BASE, EMPTY, State

from .scripted import BOARD


def recheck(log):
    setup = log[0]
    players = setup["players"]
    st = State(
        BOARD, players, [s["city_card"] for s in setup["seats"]], [s["border_card"] for s in setup["seats"]]
    )
    last_destroyed: list[int] = []
    checked = 0
    for e in log[1:]:
        kind = e["event"]
        if kind == "round":
            st.round = e["turn"]
            assert e["first_player"] == (st.round - 1) % players
            assert e["bases"] == [s for s in range(1, 121) if st.cell[s] == BASE]
            assert e["discs"] == {
                str(p): [s for s in range(1, 121) if st.cell[s] == p] for p in range(players)
            }
            assert e["score"] == st.score
        elif kind == "draw":
            assert len(e["markers"]) == players + 2
            for m in e["markers"]:
                assert st.cell[m] == -1
                st.cell[m] = ATTACK
            st.open = sorted(e["markers"])
        elif kind == "power":
            s, p = e["space"], e["seat"]
            if e["power"] == "neighborhood":
                assert rules.is_neighborhood_target(BOARD, st.cell, p, s)
                rules.destroy_for_neighborhood(st, p, s)
            elif e["power"] == "cover":
                assert s in last_destroyed and st.cell[s] == EMPTY
            else:
                assert s in st.open
        elif kind == "place":
            s, p = e["space"], e["seat"]
            if e["how"] in ("turn", "extra_turn"):
                assert st.cell[s] == ATTACK and s in st.open
                st.open.remove(s)
            else:
                assert st.cell[s] == EMPTY
            pts, _, park, destroyed = rules.place(st, p, s)
            assert (pts, sorted(destroyed), st.score[p]) == (e["points"], sorted(e["destroyed"]), e["score"])
            assert park == (e["park"] is not None)
            last_destroyed = destroyed
            checked += 1
        elif kind == "flip":
            s = e["space"]
            assert st.cell[s] == ATTACK and s == min(st.open)
            st.open.remove(s)
            st.cell[s] = BASE
            trapped = sorted(rules.captures_on_flip(BOARD, st.cell, s))
            assert trapped == sorted(c["space"] for c in e["captured"] + e["protected"])
            for c in e["captured"]:
                assert rules.remove_disc(st, c["space"]) == c["seat"]
        elif kind == "final":
            expected = rules.final_scores(st)[e["seat"]]
            assert {k: v for k, v in e.items() if k not in ("event", "turn", "seat")} == expected
    return checked


@pytest.mark.parametrize("players, strategy", [(2, "greedy"), (3, "random"), (4, "missions"), (2, "random")])
def test_every_placement_and_flip_can_be_rechecked_from_the_log(players, strategy):
    placed = 0
    for i in range(6):
        log = ENGINE.replay(
            {"players": players, "variant": "standard", "data": None}, [strategy] * players, 31, i
        )
        placed += recheck(log)
    assert placed >= 6 * players * (120 // (players + 2))
