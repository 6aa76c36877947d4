"""Compute damage (rulebook): each weapon's targeting and range, summed strength with the shield
applied once, and the threat cards' special rules about being targeted or damaged."""

from __future__ import annotations

import pytest

from simkit.games.space_alert.state import ACTIVE, DESTROYED
from tests.games.space_alert.helpers import events, make, put

# T3: 12 spaces; spaces 1-5 distance 1, 6-10 distance 2, 11-12 distance 3


def fire_heavy(r, z: int, heroic: bool = False) -> None:
    r.fired_heavy[z] = 2 if heroic else 1


def test_heavy_laser_hits_the_closest_threat_in_its_zone():
    st, r = make()
    far = put(st, "E1-07", zone=0, pos=9, token=1)  # Fighter, shield 2
    near = put(st, "E1-07", zone=0, pos=4, token=2)
    other = put(st, "E1-07", zone=1, pos=2, token=3)
    fire_heavy(r, 0)
    r.compute_damage()
    assert (far.damage, near.damage, other.damage) == (0, 2, 0)  # 4 - shield 2


def test_ties_go_to_the_lowest_token():
    st, r = make()
    a = put(st, "E1-07", zone=0, pos=6, token=7)
    b = put(st, "E1-07", zone=0, pos=6, token=3)
    fire_heavy(r, 0)
    r.compute_damage()
    assert (a.damage, b.damage) == (0, 2)


def test_lasers_reach_distance_three():
    st, r = make()
    th = put(st, "E1-07", zone=1, pos=12)
    fire_heavy(r, 1, heroic=True)  # white 5 + 1
    r.compute_damage()
    assert th.damage == 4


def test_heavy_laser_strength_drops_with_its_tile():
    st, r = make()
    st.heavy[2] = 3
    th = put(st, "E1-09", zone=2, pos=5)  # Amoeba, shield 0
    fire_heavy(r, 2)
    r.compute_damage()
    assert th.damage == 3


def test_light_laser():
    st, r = make()
    th = put(st, "E1-09", zone=2, pos=5)
    r.fired_light[2] = 1
    r.compute_damage()
    assert th.damage == 2


def test_summed_strength_shield_once():
    st, r = make()
    th = put(st, "E1-07", zone=0, pos=4)  # shield 2
    fire_heavy(r, 0)  # 4
    r.fired_light[0] = 1  # 2
    r.fired_pulse = 1  # 1
    r.compute_damage()
    assert th.damage == 4 + 2 + 1 - 2


def test_pulse_cannon_hits_every_threat_within_distance_two():
    st, r = make()
    near = put(st, "E1-09", zone=0, pos=3, token=1)
    mid = put(st, "E1-09", zone=1, pos=10, token=2)
    far = put(st, "E1-09", zone=2, pos=11, token=3)
    r.fired_pulse = 1
    r.compute_damage()
    assert (near.damage, mid.damage, far.damage) == (1, 1, 0)


def test_damaged_pulse_cannon_reaches_distance_one_only():
    st, r = make()
    st.pulse_range = 1
    near = put(st, "E1-09", zone=0, pos=3, token=1)
    mid = put(st, "E1-09", zone=1, pos=6, token=2)
    r.fired_pulse = 1
    r.compute_damage()
    assert (near.damage, mid.damage) == (1, 0)


def test_rocket_hits_the_turn_after_launch_the_closest_within_two():
    st, r = make()
    a = put(st, "E1-07", zone=0, pos=8, token=1)
    b = put(st, "E1-07", zone=2, pos=7, token=2)
    st.rocket_track = [1, 0]
    r.compute_damage()  # the launch turn: no hit
    assert (a.damage, b.damage) == (0, 0)
    st.rocket_track = [0, 1]  # moved on after the threat actions
    r.compute_damage()
    assert (a.damage, b.damage) == (0, 1) and st.rocket_track == [0, 0]


def test_rocket_out_of_range_is_spent_without_a_hit():
    st, r = make()
    a = put(st, "E1-07", zone=0, pos=11)
    st.rocket_track = [0, 1]
    r.compute_damage()
    assert a.damage == 0 and st.rocket_track == [0, 0]


@pytest.mark.parametrize(
    "tid", ["E1-09", "E1-10", "E2-04", "E2-05", "E2-07", "SE1-06", "SE1-08", "SE2-04", "SE2-06"]
)
def test_rocket_immune_threats_are_skipped(tid):
    st, r = make()
    immune = put(st, tid, zone=0, pos=2, token=1)
    other = put(st, "E1-07", zone=2, pos=9, token=2)
    st.rocket_track = [0, 1]
    r.compute_damage()
    assert immune.damage == 0 and other.damage > 0


def test_phantom_fighter_wastes_a_rocket():
    st, r = make()
    ph = put(st, "E2-03", zone=0, pos=2, token=1)
    ph.revealed = True
    other = put(st, "E1-09", zone=1, pos=9, token=2)
    st.rocket_track = [0, 1]
    r.compute_damage()
    assert ph.damage == 0 and other.damage == 0


def test_interceptors_three_on_a_lone_target():
    st, r = make()
    th = put(st, "E1-09", zone=0, pos=4)
    put(st, "E1-09", zone=1, pos=7, token=2)  # distance 2: not a target
    r.in_space = 0
    r.compute_damage()
    assert th.damage == 3


def test_interceptors_one_each_on_several():
    st, r = make()
    a = put(st, "E1-09", zone=0, pos=4, token=1)
    b = put(st, "E1-09", zone=2, pos=1 + 1, token=2)
    r.in_space = 0
    r.space_heroic = True
    r.compute_damage()
    assert (a.damage, b.damage) == (2, 2)


def test_destroyed_when_damage_reaches_health():
    st, r = make()
    th = put(st, "E1-07", zone=0, pos=4)
    th.damage = 2
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.status == DESTROYED and events(r, "threat_destroyed")


def test_cryoshield_absorbs_the_first_targeted_step():
    st, r = make()
    th = put(st, "E1-06", zone=0, pos=4)
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 0 and not th.cryo
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 3  # 4 - shield 1


def test_cryoshield_goes_even_when_the_shot_would_not_pierce():
    st, r = make()
    th = put(st, "SE1-05", zone=0, pos=4)
    r.fired_pulse = 1  # 1 vs shield 1
    r.compute_damage()
    assert not th.cryo


@pytest.mark.parametrize("tid", ["E1-04", "SE1-07"])
def test_pulse_cannon_ignores_the_shield_of_clouds(tid):
    st, r = make()
    th = put(st, tid, zone=0, pos=4)  # shield 3
    th.damage = th.card.health - 6
    fire_heavy(r, 0)
    r.fired_pulse = 1
    r.compute_damage()
    assert th.damage == th.card.health - 1  # 4 + 1, shield 0 this turn
    th.damage = 0
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 1  # 4 - 3


@pytest.mark.parametrize("tid", ["E1-03", "E2-03"])
def test_stealth_untargetable_until_x(tid):
    st, r = make()
    th = put(st, tid, zone=0, pos=9)
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 0
    th.revealed = True
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 4 - th.card.shield


@pytest.mark.parametrize("tid", ["SE1-04", "SE2-03"])
def test_satellites_untargetable_at_distance_three(tid):
    st, r = make()
    th = put(st, tid, zone=0, pos=11)
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 0
    th.pos = 10
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 2


def test_heavy_lasers_skip_the_scout():
    st, r = make()
    scout = put(st, "E2-02", zone=0, pos=3, token=1)
    other = put(st, "E1-09", zone=0, pos=8, token=2)
    fire_heavy(r, 0)
    r.fired_light[0] = 1
    r.compute_damage()
    assert other.damage == 4 and scout.damage == 1  # light laser 2 - shield 1


def test_swarm_takes_at_most_one_a_turn():
    st, r = make()
    th = put(st, "E2-04", zone=0, pos=3)
    fire_heavy(r, 0)
    r.fired_light[0] = 1
    r.compute_damage()
    assert th.damage == 1


def test_jellyfish_negative_shield_adds_damage():
    st, r = make()
    th = put(st, "E2-05", zone=0, pos=3)
    r.fired_pulse = 1
    r.compute_damage()
    assert th.damage == 3


def test_behemoth_and_lone_interceptors():
    st, r = make()
    st.pos[0] = 6
    th = put(st, "SE2-01", zone=0, pos=3)
    r.in_space = 0
    r.compute_damage()
    assert th.damage == 3 + 6 - 4 and st.knocked[0]


def test_juggernaut_draws_rockets_at_any_distance_and_hardens():
    st, r = make()
    near = put(st, "E1-07", zone=0, pos=2, token=1)
    jug = put(st, "SE2-02", zone=1, pos=12, token=2)
    st.rocket_track = [0, 1]
    r.compute_damage()
    assert near.damage == 0 and jug.damage == 0 and jug.shield == 4  # 3 vs shield 3, then +1


def test_nemesis_strikes_back_when_damaged():
    st, r = make()
    th = put(st, "SE2-05", zone=0, pos=3)
    st.shield = [0, 0, 0]
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.damage == 3 and [len(t) for t in st.tiles] == [1, 1, 1]


def test_leviathan_tanker_wreck_damages_the_others_through_shields():
    st, r = make()
    lev = put(st, "SE1-03", zone=0, pos=3, token=1)
    lev.damage = 7
    other = put(st, "E1-08", zone=2, pos=9, token=2)  # Armored Grappler, shield 3
    fire_heavy(r, 0)
    r.compute_damage()
    assert lev.status == DESTROYED and other.damage == 1 and other.status == ACTIVE


@pytest.mark.parametrize(("tid", "per"), [("E2-07", 1), ("SE1-08", 2), ("SE2-06", 3)])
def test_asteroids_burst_when_destroyed(tid, per):
    st, r = make()
    st.shield = [0, 0, 0]
    th = put(st, tid, zone=0, pos=3)
    th.counted = 2
    th.damage = th.card.health - 1
    fire_heavy(r, 0)
    r.compute_damage()
    assert th.status == DESTROYED and len(st.tiles[0]) == 2 * per


def test_internal_threats_are_not_targets():
    st, r = make()
    th = put(st, "I1-01")
    fire_heavy(r, 0)
    r.fired_pulse = 1
    r.compute_damage()
    assert th.damage == 0


def test_weapons_are_cleared_after_the_step():
    st, r = make()
    fire_heavy(r, 0)
    r.fired_light[2] = 1
    r.fired_pulse = 1
    r.compute_damage()
    assert r.fired_heavy == [0, 0, 0] and r.fired_light == [0, 0, 0] and r.fired_pulse == 0
