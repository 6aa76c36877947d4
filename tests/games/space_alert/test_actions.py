"""Player actions (rulebook: moves, gravolift, A/B/C, battlebots, interceptors, heroic cards,
delays), each on a small exact state."""

from __future__ import annotations

import pytest

from simkit.games.space_alert.state import DESTROYED, EMPTY, SPACE, card_code
from tests.games.space_alert.helpers import events, make, plan, put

UR, UW, UB, LR, LW, LB = range(6)


def act(r, turn: int = 1) -> None:
    """Run the player-action step of `turn` for every figure."""
    r.st.turn = turn
    for f in range(len(r.st.pos)):
        r.player_action(f)


@pytest.mark.parametrize(
    ("start", "card", "end"),
    [
        (UW, "red", UR),
        (UW, "blue", UB),
        (UR, "red", UR),  # already in red: no move
        (UB, "blue", UB),
        (LW, "red", LR),
        (UW, "lift", LW),
        (LB, "lift", UB),
        (UW, "teleport lower blue", LB),
    ],
)
def test_moves(start, card, end):
    st, r = make(plan(card))
    st.pos[0] = start
    act(r)
    assert st.pos[0] == end


def test_everyone_starts_in_the_upper_white_station():
    st, _r = make(figures=5)
    assert st.pos == [UW] * 5


def test_gravolift_second_user_moves_but_is_delayed():
    st, r = make(plan("lift", "A"), plan("lift", "A"))
    act(r)
    assert st.pos == [LW, LW]
    assert st.plans[0][2] == card_code("A")  # the first user is on time
    assert st.plans[1][2] == EMPTY and st.plans[1][3] == card_code("A")  # the second is delayed


def test_damaged_gravolift_delays_its_user():
    st, r = make(plan("lift", "A"))
    st.lift_damaged[1] = True
    act(r)
    assert st.pos[0] == LW and st.plans[0][3] == card_code("A")


def test_gravolift_in_another_zone_is_free():
    st, r = make(plan("lift"), plan("red", "lift"))
    act(r, 1)
    act(r, 2)
    assert st.plans[1][3] == EMPTY and not events(r, "gravolift_delay")


def test_heavy_laser_takes_one_energy_even_if_pressed_twice():
    st, r = make(plan("A"), plan("A"))
    act(r)
    assert st.reactor[1] == 2 and r.fired_heavy[1] == 1


def test_heavy_laser_without_energy_does_not_fire():
    st, r = make(plan("red", "A"))
    st.reactor[0] = 0
    act(r, 1)
    act(r, 2)
    assert r.fired_heavy[0] == 0 and events(r, "no_effect")


def test_light_laser_needs_no_reactor_energy():
    st, r = make(plan("A"))
    st.pos[0] = LR
    st.reactor[0] = 0
    act(r)
    assert r.fired_light[0] == 1


def test_pulse_cannon_takes_main_reactor_energy():
    st, r = make(plan("A"))
    st.pos[0] = LW
    act(r)
    assert r.fired_pulse == 1 and st.reactor[1] == 2


@pytest.mark.parametrize(
    ("card", "reactor", "shield", "after_reactor", "after_shield"),
    [
        ("B", 2, 1, 1, 2),  # red shield to its maximum (2)
        ("B", 0, 1, 0, 1),  # nothing to move
        ("B+1", 2, 1, 1, 3),  # heroic: one more block from the bank, above capacity
        ("B+1", 0, 1, 0, 1),  # heroic adds only if at least one block moved
    ],
)
def test_shield_transfer(card, reactor, shield, after_reactor, after_shield):
    st, r = make(plan(card))
    st.pos[0] = UR
    st.reactor[0], st.shield[0] = reactor, shield
    act(r)
    assert (st.reactor[0], st.shield[0]) == (after_reactor, after_shield)


def test_side_reactor_draws_from_the_main_reactor():
    st, r = make(plan("B"))
    st.pos[0] = LB
    st.reactor = [2, 3, 0]
    act(r)
    assert st.reactor == [2, 0, 3]


def test_side_reactor_takes_all_there_is():
    st, r = make(plan("B"))
    st.pos[0] = LR
    st.reactor = [0, 1, 2]
    act(r)
    assert st.reactor == [1, 0, 2]


def test_refuel_fills_the_main_reactor_and_spends_a_capsule():
    st, r = make(plan("B", "B"))
    st.pos[0] = LW
    st.reactor[1] = 1
    act(r, 1)
    assert st.reactor[1] == 5 and st.fuel == 2
    act(r, 2)  # already full: the capsule is spent anyway
    assert st.reactor[1] == 5 and st.fuel == 1


def test_refuel_without_capsules_does_nothing():
    st, r = make(plan("B"))
    st.pos[0] = LW
    st.fuel = 0
    st.reactor[1] = 1
    act(r)
    assert st.reactor[1] == 1


def test_computer_maintenance_marks_the_phase():
    st, r = make(plan("-", "-", "-", "C"))
    act(r, 4)
    assert st.computer == [False, True, False]


def test_rockets_one_per_turn_and_three_in_all():
    st, r = make(plan("C"), plan("C"))
    st.pos = [LB, LB]
    act(r)
    assert st.rockets == 2 and st.rocket_track == [1, 0]
    st.rockets = 0
    st.rocket_track = [0, 0]
    act(r, 2)
    assert st.rocket_track == [0, 0]


def test_battlebots_taken_then_reactivated():
    st, r = make(plan("C", "C"))
    st.pos[0] = LR
    act(r, 1)
    assert st.carry[0] == 0 and st.bots_at[0] == -1
    st.bots_disabled[0] = True
    act(r, 2)
    assert st.bots_disabled[0] is False


def test_battlebots_attack_the_lowest_token_intruder_in_the_station():
    st, r = make(plan("BB"))
    st.pos[0] = UR
    st.carry[0] = 0
    st.bots_at[0] = -1
    put(st, "I2-03", token=5)  # Troopers B, upper red, 2 health, fights back
    low = put(st, "I1-01", token=2)  # Skirmishers A, upper red, 1 health
    act(r)
    assert low.status == DESTROYED


def test_intruder_that_fights_back_disables_the_squad():
    st, r = make(plan("BB"))
    st.pos[0] = UR
    st.carry[0] = 0
    st.bots_at[0] = -1
    th = put(st, "I2-03")
    act(r)
    assert th.damage == 1 and st.bots_disabled[0]


def test_heroic_battlebots_are_not_disabled():
    st, r = make(plan("BB+"))
    st.pos[0] = UR
    st.carry[0] = 0
    st.bots_at[0] = -1
    th = put(st, "I2-03")
    act(r)
    assert th.damage == 1 and not st.bots_disabled[0]


def test_disabled_battlebots_do_not_attack():
    st, r = make(plan("BB"))
    st.pos[0] = UR
    st.carry[0] = 0
    st.bots_at[0] = -1
    st.bots_disabled[0] = True
    th = put(st, "I1-01")
    act(r)
    assert th.damage == 0


def test_interceptors_launch_stay_and_return():
    st, r = make(plan("C", "BB", "-", "C", "A"))
    st.pos[0] = UR
    st.carry[0] = 0
    act(r, 1)
    assert st.pos[0] == SPACE and r.in_space == 0
    act(r, 2)
    assert st.pos[0] == SPACE and r.in_space == 0
    r.in_space = -1
    act(r, 3)  # no card: returns to the upper red station
    assert st.pos[0] == UR and r.in_space == -1


def test_interceptors_need_active_battlebots():
    st, r = make(plan("C"))
    st.pos[0] = UR
    act(r)
    assert st.pos[0] == UR


def test_other_card_in_space_returns_and_delays():
    st, r = make(plan("C", "A", "B"))
    st.pos[0] = UR
    st.carry[0] = 0
    act(r, 1)
    r.in_space = -1
    act(r, 2)
    assert st.pos[0] == UR
    assert st.plans[0][2] == EMPTY and st.plans[0][3:5] == [card_code("A"), card_code("B")]


def test_window_observers_score_per_phase():
    st, r = make(plan("C"), plan("C"), plan("C"))
    st.pos = [LW, LW, LW]
    r.play_turn(1)
    assert st.visual[0] == 3


def test_knocked_out_figures_do_nothing():
    st, r = make(plan("red"))
    st.knocked[0] = True
    act(r)
    assert st.pos[0] == UW


def test_malfunction_takes_the_button_lowest_token_first():
    st, r = make(plan("B"))
    st.pos[0] = UB
    high = put(st, "I1-05", token=6)  # Hacked Shields A: B in upper blue
    low = put(st, "I1-05", token=2)
    act(r)
    assert (low.damage, high.damage) == (1, 0)
    assert st.shield[2] == 1  # the shield action did not happen


def test_heroic_repair_counts_two():
    st, r = make(plan("B+1"))
    st.pos[0] = UB
    th = put(st, "I1-05")
    act(r)
    assert th.damage == 2


def test_several_figures_repair_together():
    st, r = make(plan("B"), plan("B"), plan("B"))
    st.pos = [UB, UB, UB]
    th = put(st, "I1-05")
    act(r)
    assert th.status == DESTROYED


def test_wrecked_system_after_a_malfunction_z():
    st, r = make(plan("B"))
    st.pos[0] = UB
    st.broken.add((UB, card_code("B")))
    act(r)
    assert st.shield[2] == 1 and events(r, "no_effect")


def test_trip_does_the_action_then_delays_next_turn():
    st, r = make(plan("A", "B"))
    r.trips = {(0, 1)}
    act(r, 1)
    assert r.fired_heavy[1] == 1
    assert st.plans[0][2] == EMPTY and st.plans[0][3] == card_code("B")


def test_androids_cannot_trip():
    st, r = make(plan("A", "B"), humans=0)
    r.trips = {(0, 1)}
    act(r, 1)
    assert st.plans[0][2] == card_code("B")


def test_entering_a_slimed_station_delays():
    st, r = make(plan("lift", "B"))
    st.pos[0] = UB
    put(st, "I2-01")  # Slime A in lower blue
    act(r)
    assert st.pos[0] == LB and st.plans[0][3] == card_code("B")


def test_one_interceptor_craft():
    st, r = make(plan("C"), plan("BB"))
    st.pos = [UR, SPACE]
    st.carry = [0, 1]
    act(r)
    assert st.pos == [UR, SPACE] and r.in_space == 1
