"""The turn sequence (rulebook, Resolution Round): threat movement and X/Y/Z on landing or
passing, lowest token first, delays cascading off the board, computer checks, rockets, turn 13,
damage tiles and the 7th tile, scoring."""

from __future__ import annotations

import pytest

from simkit.games.space_alert.rules import ShipLost, score
from simkit.games.space_alert.state import ACTIVE, DESTROYED, EMPTY, SURVIVED, card_code
from tests.games.space_alert.helpers import COMP, TILES, events, make, plan, put

UR, UW, UB, LR, LW, LB = range(6)


def test_threat_moves_its_speed_and_acts_when_passing():
    st, r = make()
    th = put(st, "E1-07", zone=0, traj="T3", pos=10)  # speed 3, X at 8
    r.threat_actions()
    assert th.pos == 7 and [e["action"] for e in events(r, "threat_action")] == ["X"]


def test_threat_landing_on_x_acts():
    st, r = make()
    th = put(st, "E1-05", zone=0, traj="T3", pos=10)  # speed 2 lands on 8
    r.threat_actions()
    assert th.pos == 8 and len(events(r, "threat_action")) == 1


def test_two_actions_in_one_move():
    st, r = make()
    th = put(st, "E2-01", zone=0, traj="T7", pos=12)  # Kamikaze speed 4: X 12? no: passes 8 (Y)
    th.pos = 13
    r.threat_actions()  # 12 (X), 11, 10, 9
    assert [e["action"] for e in events(r, "threat_action")] == ["X"] and th.speed == 5
    r.threat_actions()  # 8 (Y), 7, 6, 5 (Y), 4
    assert [e["action"] for e in events(r, "threat_action")] == ["X", "Y", "Y"] and th.pos == 4


def test_z_ends_the_threat_as_survived():
    st, r = make()
    th = put(st, "E1-07", zone=0, traj="T1", pos=2)
    r.threat_actions()
    assert th.status == SURVIVED and th.pos == 1 and len(st.tiles[0]) == 2


def test_lowest_token_acts_first():
    st, r = make()
    late = put(st, "E1-05", zone=0, traj="T1", pos=2, token=4)
    early = put(st, "E1-01", zone=1, traj="T1", pos=2, token=2)
    r.threat_actions()
    order = [e["threat"] for e in events(r, "attack")]
    assert order[0] == early.card.id and order[-1] == late.card.id
    assert st.shield[0] == 0 and len(st.tiles[0]) == 1 + 3  # pulse ball took the red shield first


def test_threats_appear_on_their_turn():
    st, r = make()
    th = put(st, "E1-07", zone=0, traj="T5")
    th.status = 0
    th.token = 3
    r.play_turn(1)
    r.play_turn(2)
    assert th.status == 0
    r.play_turn(3)
    assert th.status == ACTIVE and th.pos == 14 - 3


@pytest.mark.parametrize(
    ("cards", "turn", "after"),
    [
        (["A", "B", "-", "C"], 1, ["-", "A", "B", "C"]),  # the push stops at the empty slot
        (["-", "B"], 1, ["-", "B"]),  # nothing planned that turn: nothing moves
        (["-"] * 9 + ["A", "B", "C"], 10, ["-"] * 10 + ["A", "B"]),  # C falls off the board
        (["A"] * 12, 12, ["A"] * 11 + ["-"]),
    ],
)
def test_delay_cascades(cards, turn, after):
    st, r = make(plan(*cards))
    r.delay(0, turn)
    assert st.plans[0][1:] == plan(*after)


def test_one_delay_per_figure_per_turn():
    st, r = make(plan("A", "B", "C"))
    r.delay(0, 1)
    r.delay(0, 1)
    assert st.plans[0][1:4] == plan("-", "A", "B")[:3]


def test_unmaintained_computer_delays_everyone():
    st, r = make(plan("-", "-", "A"), plan("-", "-", "B"))
    r.play_turn(1)
    r.play_turn(2)
    assert st.plans[0][3] == EMPTY and st.plans[0][4] == card_code("A")
    assert events(r, "computer_not_maintained")


def test_maintained_computer_no_delay():
    st, r = make(plan("-", "C", "A"))
    r.play_turn(1)
    r.play_turn(2)
    assert st.plans[0][3] == card_code("A")


@pytest.mark.parametrize("check", [2, 5, 9])
def test_computer_checked_after_turns_2_5_9(check):
    st, r = make()
    for t in range(1, check + 1):
        r.play_turn(t)
    assert [e["turn"] for e in events(r, "computer_not_maintained")][-1] == check


def test_rocket_moves_on_after_the_threat_step_and_hits_next_turn():
    st, r = make(plan("C"))
    st.pos[0] = LB
    th = put(st, "E1-09", zone=0, traj="T3", pos=6)  # Amoeba: rocket-immune
    other = put(st, "E1-07", zone=2, traj="T3", pos=7, token=2)
    r.play_turn(1)
    assert st.rocket_track == [0, 1]
    r.play_turn(2)
    assert other.damage == 1 and th.damage == 0 and st.rocket_track == [0, 0]


def test_turn_13_rocket_interceptors_and_last_move():
    st, r = make(plan(*["-"] * 11 + ["C"]), plan(*["-"] * 11 + ["C"]))
    st.pos = [LB, UR]
    st.carry[1] = 0
    th = put(st, "E1-07", zone=2, traj="T7", pos=8, token=1)
    for t in range(12, 14):
        r.play_turn(t)
    assert st.pos[1] == UR  # came back on turn 13
    assert events(r, "interceptors_launch") and th.damage == 1  # only the turn-13 rocket: 3 - 2
    assert th.pos == 8 - 3 - 3


def test_game_runs_13_turns():
    st, r = make()
    r.run()
    assert st.turn == 13 and not st.lost


def test_damage_tiles_effects():
    st, r = make(tiles=["reactor", "shield", "heavy_laser", "lower_cannon", "gravolift", "structural"])
    st.reactor = [3, 5, 3]
    st.shield = [2, 3, 2]
    for _ in range(6):
        r.draw_tile(0)
        r.draw_tile(1)
    assert st.reactor_cap == [2, 4, 3] and st.reactor == [2, 4, 3]  # surplus returned
    assert st.shield_cap == [1, 2, 2] and st.shield == [1, 2, 2]
    assert st.heavy == [3, 4, 4] and st.light == [1, 0, 2] and st.pulse_range == 1
    assert st.lift_damaged == [True, True, False]


def test_seventh_tile_destroys_the_ship():
    st, r = make()
    for _ in range(6):
        r.draw_tile(2)
    with pytest.raises(ShipLost):
        r.draw_tile(2)
    assert st.lost and st.end_reason == "zone_destroyed" and len(st.tiles[2]) == 6


def test_shields_absorb_and_are_spent():
    st, r = make()
    th = put(st, "E1-05", zone=1)
    st.shield[1] = 3
    r.external_attack(th, 1, 2)
    assert st.shield[1] == 1 and st.tiles[1] == []


def test_internal_damage_bypasses_shields():
    st, r = make()
    th = put(st, "I1-01")
    r.internal_attack(th, 0, 2)
    assert st.shield[0] == 1 and len(st.tiles[0]) == 2


def test_score_threats_penalties_and_visual():
    st, r = make()
    a = put(st, "SE1-01", token=1)  # 8 destroyed
    b = put(st, "E1-07", token=2)  # 2 survived
    c = put(st, "E2-01", token=3)  # on board: nothing
    a.status, b.status, c.status = DESTROYED, SURVIVED, ACTIVE
    st.tiles = [["structural"] * 2, ["structural"], []]
    st.bots_disabled = [True, False]
    st.knocked = [True, False, False, False]
    st.visual = [3, 4, 0]  # 3 + 5
    res = score(COMP, st)
    assert res["threat_points"] == 10
    assert res["penalties"] == (3 + 2) + 1 + 2
    assert res["visual_points"] == 8
    assert res["score"] == 10 - 8 + 8


def test_lost_game_scores_nothing():
    st, _r = make()
    st.lost = True
    assert score(COMP, st)["score"] == 0


def test_tile_order_is_the_given_stack():
    st, r = make(tiles=TILES)
    r.draw_tile(0)
    assert st.tiles[0] == ["structural"]
