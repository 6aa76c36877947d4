# ruff: noqa: E501  (table rows: one card per line reads best)
"""Every base-game threat's X/Y/Z and special rule, one table row (or more) per card.

Each row: threat id, which action to run (x, y, z or destroyed), a set-up on a fresh ship and
the threat, and the check. The ship starts as set up: shields 1/1/1, reactors 2/3/2, 3 fuel,
3 rockets; damage tiles draw structural first (no effect), then gravolift, reactor, shield...
Targeting rules (stealth, cryoshield, rocket immunity...) are in test_damage.py.
"""

from __future__ import annotations

import pytest

from simkit.games.space_alert.components import STATIONS
from simkit.games.space_alert.rules import ShipLost
from simkit.games.space_alert.state import DESTROYED, EMPTY, card_code
from tests.games.space_alert.helpers import COMP, make, plan, put, run_effects

UR, UW, UB, LR, LW, LB = range(6)


def tiles(st):
    return [len(t) for t in st.tiles]


def nothing(st, th):
    pass


def damaged(n):
    def setup(st, th):
        th.damage = n

    return setup


def figures_at(*stations):
    def setup(st, th):
        for f, s in enumerate(stations):
            st.pos[f] = s

    return setup


ROWS = [
    # --- external, common white ---
    ("E1-01", "x", nothing, lambda st, th: st.shield == [0, 0, 0] and tiles(st) == [0, 0, 0]),
    ("E1-01", "y", nothing, lambda st, th: st.shield == [0, 0, 0] and tiles(st) == [0, 0, 0]),  # 1 (not 2: RULES.md)
    ("E1-01", "z", nothing, lambda st, th: tiles(st) == [1, 1, 1]),
    ("E1-02", "z", nothing, lambda st, th: tiles(st) == [2, 0, 0]),  # 2 - 1 shield, doubled
    ("E1-02", "y", lambda st, th: setattr(th, "zone", 2), lambda st, th: tiles(st) == [0, 0, 2]),
    ("E1-03", "x", nothing, lambda st, th: th.revealed),
    ("E1-03", "z", nothing, lambda st, th: tiles(st) == [1, 0, 0]),
    ("E1-04", "x", nothing, lambda st, th: st.shield == [0, 0, 0]),
    ("E1-04", "z", nothing, lambda st, th: tiles(st) == [0, 1, 1]),  # the other zones, 2 - 1
    ("E1-05", "z", nothing, lambda st, th: tiles(st) == [2, 0, 0]),
    ("E1-06", "z", nothing, lambda st, th: tiles(st) == [1, 0, 0] and th.cryo),
    ("E1-07", "z", nothing, lambda st, th: tiles(st) == [2, 0, 0]),
    ("E1-08", "y", damaged(3), lambda st, th: th.damage == 2),
    ("E1-08", "z", nothing, lambda st, th: tiles(st) == [3, 0, 0]),
    ("E1-09", "x", damaged(3), lambda st, th: th.damage == 1),
    ("E1-09", "y", damaged(1), lambda st, th: th.damage == 0),
    ("E1-10", "z", damaged(2), lambda st, th: tiles(st) == [2, 0, 0]),  # 3 remaining - 1
    ("E1-10", "x", nothing, lambda st, th: tiles(st) == [0, 0, 0]),
    # --- external, common yellow ---
    ("E2-01", "x", nothing, lambda st, th: (th.speed, th.shield) == (5, 1)),
    ("E2-01", "y", nothing, lambda st, th: (th.speed, th.shield) == (5, 0)),
    ("E2-01", "z", nothing, lambda st, th: tiles(st) == [5, 0, 0]),
    ("E2-02", "x", nothing, lambda st, th: st.boost == 1),
    ("E2-02", "z", nothing, lambda st, th: tiles(st) == [3, 0, 0] and st.shield[0] == 1),
    ("E2-03", "x", nothing, lambda st, th: th.revealed),
    ("E2-03", "z", nothing, lambda st, th: tiles(st) == [2, 0, 0]),
    ("E2-04", "y", nothing, lambda st, th: tiles(st) == [1, 0, 0] and st.shield == [0, 0, 0]),
    ("E2-04", "z", nothing, lambda st, th: tiles(st) == [2, 1, 1]),
    ("E2-05", "x", damaged(5), lambda st, th: th.damage == 3 and st.shield == [0, 0, 0]),
    ("E2-05", "z", nothing, lambda st, th: tiles(st) == [1, 1, 1]),
    ("E2-06", "y", nothing, lambda st, th: st.shield == [0, 0, 0]),
    ("E2-06", "z", nothing, lambda st, th: tiles(st) == [3, 0, 0]),
    ("E2-07", "x", nothing, lambda st, th: th.counted == 1),
    ("E2-07", "z", damaged(2), lambda st, th: tiles(st) == [4, 0, 0]),
    ("E2-07", "destroyed", lambda st, th: setattr(th, "counted", 2), lambda st, th: tiles(st) == [1, 0, 0]),
    # --- external, serious white ---
    ("SE1-01", "z", nothing, lambda st, th: tiles(st) == [3, 0, 0]),
    ("SE1-01", "x", nothing, lambda st, th: tiles(st) == [1, 0, 0]),
    ("SE1-02", "x", nothing, lambda st, th: th.speed == 2 and tiles(st) == [1, 0, 0]),
    ("SE1-02", "y", nothing, lambda st, th: th.shield == 3 and tiles(st) == [2, 0, 0]),
    ("SE1-02", "z", nothing, lambda st, th: tiles(st) == [4, 0, 0]),
    ("SE1-03", "y", damaged(3), lambda st, th: th.damage == 1 and tiles(st) == [1, 0, 0]),
    ("SE1-04", "y", nothing, lambda st, th: tiles(st) == [1, 1, 1]),
    ("SE1-04", "z", nothing, lambda st, th: tiles(st) == [2, 2, 2]),
    ("SE1-05", "z", nothing, lambda st, th: tiles(st) == [3, 0, 0] and th.cryo),
    ("SE1-06", "x", nothing, lambda st, th: st.shield == [1, 1, 1]),  # undamaged: no attack
    ("SE1-06", "x", damaged(1), lambda st, th: st.shield == [0, 0, 0]),
    ("SE1-06", "z", damaged(6), lambda st, th: tiles(st) == [3, 0, 0]),  # 2 x 2 remaining - 1
    ("SE1-07", "x", nothing, lambda st, th: st.shield == [0, 0, 0]),
    ("SE1-07", "y", nothing, lambda st, th: tiles(st) == [0, 1, 1]),
    ("SE1-08", "z", damaged(5), lambda st, th: tiles(st) == [3, 0, 0]),
    ("SE1-08", "destroyed", lambda st, th: setattr(th, "counted", 1), lambda st, th: tiles(st) == [1, 0, 0]),
    # --- external, serious yellow ---
    ("SE2-01", "x", nothing, lambda st, th: tiles(st) == [1, 0, 0]),
    ("SE2-01", "x", damaged(2), lambda st, th: tiles(st) == [0, 0, 0] and st.shield[0] == 1),
    ("SE2-01", "z", damaged(5), lambda st, th: tiles(st) == [5, 0, 0]),
    ("SE2-02", "x", nothing, lambda st, th: th.speed == 3 and tiles(st) == [1, 0, 0]),
    ("SE2-02", "z", nothing, lambda st, th: tiles(st) == [6, 0, 0]),
    ("SE2-03", "x", figures_at(UR, LR, UW), lambda st, th: [st.plans[f][2] for f in range(3)] == [EMPTY, EMPTY, card_code("A")]),
    ("SE2-03", "y", figures_at(UR, LR, 6), lambda st, th: [st.plans[f][2] for f in range(3)] == [EMPTY, EMPTY, card_code("A")]),
    ("SE2-03", "z", figures_at(UR, LB, 6), lambda st, th: st.knocked[:3] == [True, True, False]),
    ("SE2-04", "x", nothing, lambda st, th: th.shield == 4),
    ("SE2-04", "y", nothing, lambda st, th: (th.shield, th.speed) == (2, 4)),
    ("SE2-04", "z", nothing, lambda st, th: tiles(st) == [4, 0, 4]),
    ("SE2-05", "x", nothing, lambda st, th: th.damage == 1 and st.shield[0] == 0 and tiles(st) == [0, 0, 0]),
    ("SE2-05", "y", damaged(7), lambda st, th: th.status == DESTROYED and tiles(st) == [1, 0, 0]),
    ("SE2-06", "z", damaged(8), lambda st, th: tiles(st) == [2, 0, 0]),
    ("SE2-06", "destroyed", lambda st, th: setattr(th, "counted", 2), lambda st, th: tiles(st) == [5, 0, 0]),
    # --- internal, common white ---
    ("I1-01", "x", nothing, lambda st, th: th.stations == [UW]),
    ("I1-01", "y", nothing, lambda st, th: th.stations == [LR]),
    ("I1-01", "z", nothing, lambda st, th: tiles(st) == [3, 0, 0] and st.shield[0] == 1),
    ("I1-02", "x", nothing, lambda st, th: th.stations == [UW]),
    ("I1-02", "z", nothing, lambda st, th: tiles(st) == [0, 0, 3]),
    ("I1-03", "x", nothing, lambda st, th: th.stations == [LB]),
    ("I1-03", "y", nothing, lambda st, th: st.reactor[1] == 2 and tiles(st) == [0, 0, 0]),
    ("I1-03", "y", lambda st, th: st.reactor.__setitem__(1, 0), lambda st, th: tiles(st) == [0, 1, 0]),
    ("I1-04", "x", nothing, lambda st, th: th.stations == [LR]),
    ("I1-04", "z", nothing, lambda st, th: tiles(st) == [0, 2, 0]),
    ("I1-05", "x", nothing, lambda st, th: st.shield == [1, 1, 0]),
    ("I1-05", "y", nothing, lambda st, th: st.reactor == [2, 3, 0]),
    ("I1-05", "z", nothing, lambda st, th: tiles(st) == [0, 0, 2]),
    ("I1-06", "x", nothing, lambda st, th: st.shield == [0, 1, 1]),
    ("I1-06", "y", nothing, lambda st, th: st.reactor == [0, 3, 2]),
    ("I1-07", "z", damaged(1), lambda st, th: tiles(st) == [0, 0, 6]),  # 3 x (3 rockets - 1)
    ("I1-07", "z", lambda st, th: setattr(th, "counted", 1), lambda st, th: tiles(st) == [0, 0, 3]),
    # --- internal, common yellow ---
    ("I2-01", "x", nothing, lambda st, th: st.rockets == 2),
    ("I2-01", "y", nothing, lambda st, th: sorted(s for s, _ in th.tokens) == [LW, LB]),
    ("I2-01", "z", lambda st, th: th.tokens.append([LW, 1]), lambda st, th: tiles(st) == [0, 2, 2]),
    ("I2-02", "x", nothing, lambda st, th: st.bots_disabled == [True, False]),
    ("I2-02", "x", lambda st, th: (st.bots_at.__setitem__(0, -1), st.carry.__setitem__(0, 0)), lambda st, th: st.bots_disabled == [False, False]),
    ("I2-02", "y", nothing, lambda st, th: sorted(s for s, _ in th.tokens) == [LR, LW]),
    ("I2-03", "x", nothing, lambda st, th: th.stations == [LR]),
    ("I2-03", "y", nothing, lambda st, th: th.stations == [UW]),
    ("I2-03", "z", nothing, lambda st, th: tiles(st) == [4, 0, 0]),
    ("I2-04", "x", nothing, lambda st, th: th.stations == [UB]),
    ("I2-04", "y", nothing, lambda st, th: th.stations == [LW]),
    ("I2-05", "x", nothing, lambda st, th: st.reactor == [1, 2, 1]),
    ("I2-05", "y", figures_at(UR, 6), lambda st, th: (st.plans[0][2], st.plans[1][2]) == (EMPTY, card_code("A"))),
    ("I2-05", "z", nothing, lambda st, th: tiles(st) == [1, 1, 1] and st.shield == [1, 1, 1]),
    ("I2-06", "x", nothing, lambda st, th: tiles(st) == [0, 3, 0]),
    ("I2-06", "y", nothing, lambda st, th: st.fuel == 2),
    ("I2-06", "z", nothing, lambda st, th: tiles(st) == [0, 3, 0]),
    # --- internal, serious white ---
    ("SI1-01", "x", nothing, lambda st, th: th.stations == [UR]),
    ("SI1-01", "y", nothing, lambda st, th: th.stations == [LR] and tiles(st) == [2, 0, 0]),
    ("SI1-01", "y", damaged(1), lambda st, th: th.stations == [LW] and tiles(st) == [0, 0, 0]),
    ("SI1-01", "z", figures_at(LR, UR), lambda st, th: st.knocked[:2] == [True, False] and tiles(st) == [4, 0, 0]),
    ("SI1-02", "y", damaged(1), lambda st, th: th.stations == [UW]),
    ("SI1-02", "z", nothing, lambda st, th: tiles(st) == [0, 0, 4]),
    ("SI1-03", "x", nothing, lambda st, th: th.grown),
    ("SI1-03", "y", figures_at(UW, UW, LW, LR), lambda st, th: th.stations == [UW] and tiles(st) == [0, 2, 0]),
    ("SI1-04", "x", nothing, lambda st, th: st.damage_mult == [2, 1, 1]),
    ("SI1-04", "y", nothing, lambda st, th: st.damage_mult == [2, 2, 2]),
    ("SI1-05", "x", nothing, lambda st, th: st.shield == [1, 3, 1] and st.reactor == [2, 0, 2] and tiles(st) == [0, 1, 0]),  # 3 into 1/3: 1 leaks
    ("SI1-05", "x", lambda st, th: st.shield.__setitem__(1, 4), lambda st, th: st.shield[1] == 4 and tiles(st) == [0, 3, 0]),  # above capacity (B+1): all 3 leak
    ("SI1-05", "y", lambda st, th: st.shield.__setitem__(1, 3), lambda st, th: st.shield == [1, 0, 1] and tiles(st) == [0, 3, 0]),
    ("SI1-05", "z", nothing, lambda st, th: tiles(st) == [2, 3, 2] and st.reactor == [0, 0, 0]),
    ("SI1-06", "x", lambda st, th: st.carry.__setitem__(1, 0), lambda st, th: st.knocked[:2] == [False, True] and st.bots_disabled[0]),
    ("SI1-06", "y", figures_at(UB, LR, LB), lambda st, th: st.knocked[:3] == [True, True, False]),
    ("SI1-06", "z", figures_at(UB, UW, LR, 6), lambda st, th: st.knocked[:4] == [True, False, True, False]),
    # --- internal, serious yellow ---
    ("SI2-01", "x", figures_at(UW, UW), lambda st, th: th.stations == [UW] and st.knocked[:2] == [True, True]),
    ("SI2-01", "x", lambda st, th: (figures_at(UW)(st, th), st.carry.__setitem__(0, 0)), lambda st, th: not st.knocked[0]),
    ("SI2-01", "y", figures_at(LB), lambda st, th: th.stations == [LB] and st.knocked[0]),
    ("SI2-01", "z", nothing, lambda st, th: tiles(st) == [0, 0, 3]),
    ("SI2-02", "x", figures_at(UR, UR, UB), lambda st, th: th.stations == [UR]),
    ("SI2-02", "x", figures_at(UR, UB), lambda st, th: th.stations == [UW]),  # tie: stays
    ("SI2-02", "x", figures_at(UW, UW, UR), lambda st, th: th.stations == [UW]),  # more at home: stays
    ("SI2-02", "z", figures_at(UW, UR), lambda st, th: st.knocked[:2] == [True, False] and tiles(st) == [0, 5, 0]),
    ("SI2-03", "x", nothing, lambda st, th: st.reactor == [2, 1, 2]),
    ("SI2-03", "y", nothing, lambda st, th: st.reactor == [1, 2, 1]),
    ("SI2-03", "z", nothing, lambda st, th: tiles(st) == [3, 3, 3]),
    ("SI2-04", "x", figures_at(UR, LB, UW), lambda st, th: [st.plans[f][2] for f in range(3)] == [EMPTY, EMPTY, card_code("A")]),
    ("SI2-04", "y", nothing, lambda st, th: tiles(st) == [2, 0, 2]),
    ("SI2-04", "z", figures_at(UR, LW), lambda st, th: st.knocked[:2] == [True, False] and sorted(st.contaminated) == [UR, UB, LR, LB]),
    ("SI2-05", "x", nothing, lambda st, th: th.speed == 5),
    ("SI2-05", "y", nothing, lambda st, th: th.speed == 5),
]  # fmt: skip

LOSSES = [("SE2-05", "z"), ("SI1-03", "z"), ("SI1-04", "z"), ("SI2-05", "z")]


@pytest.mark.parametrize(("tid", "which", "setup", "check"), ROWS, ids=[f"{r[0]}-{r[1]}" for r in ROWS])
def test_threat_effect(tid, which, setup, check):
    st, r = make(*[plan("-", "A") for _ in range(4)])
    st.turn = 1
    th = put(st, tid, zone=0)
    setup(st, th)
    run_effects(r, th, which)
    assert check(st, th), (tid, which, tiles(st), st.shield, st.reactor)


@pytest.mark.parametrize(("tid", "which"), LOSSES, ids=[f"{t}-{w}" for t, w in LOSSES])
def test_threats_that_destroy_the_ship(tid, which):
    st, r = make()
    th = put(st, tid)
    with pytest.raises(ShipLost):
        run_effects(r, th, which)
    assert st.lost and st.end_reason == "threat_destroyed_ship" and st.culprit == tid


def test_every_threat_has_a_row():
    covered = {row[0] for row in ROWS} | {t for t, _ in LOSSES}
    assert covered == {t.id for t in COMP.threats}


def test_internal_stations_as_printed():
    by = COMP.by_id
    assert STATIONS[by["I1-07"].stations[0]] == "lower blue" and by["I1-07"].button == "C"
    assert [STATIONS[s] for s in by["SI2-03"].stations] == ["lower red", "lower white", "lower blue"]


def test_scout_boosts_the_others_until_destroyed():
    st, r = make()
    scout = put(st, "E2-02", zone=1, token=1)
    other = put(st, "E1-07", zone=0, token=2)
    run_effects(r, scout, "x")
    run_effects(r, other, "x")  # attack 1 + 1
    assert tiles(st) == [1, 0, 0]
    r.destroy(scout, "test")
    assert st.boost == 0


def test_scout_y_moves_the_others_on_and_they_act():
    st, r = make()
    scout = put(st, "E2-02", zone=1, token=1)
    other = put(st, "E1-07", zone=0, traj="T3", pos=9, token=2)  # X at 8
    run_effects(r, scout, "y")
    assert other.pos == 8 and tiles(st) == [0, 0, 0] and st.shield[0] == 0


def test_marauder_raises_every_external_shield():
    st, r = make()
    m = put(st, "E2-06", zone=1, token=1)
    o = put(st, "E1-07", zone=0, token=2)
    i = put(st, "I1-01", token=3)
    run_effects(r, m, "x")
    assert (m.shield, o.shield, i.shield) == (2, 3, 0)


def test_unstable_warheads_without_rockets_is_destroyed_on_appearing():
    st, r = make()
    st.rockets = 0
    th = put(st, "I1-07")
    th.status = 0
    r.appear(th)
    assert th.status == DESTROYED


def test_slime_progeny_has_one_health_and_the_threat_ends_with_its_last_token():
    st, r = make(plan("BB"), plan("BB"))
    st.pos = [LB, LW]
    st.carry = [0, 1]
    th = put(st, "I2-01")
    th.tokens.append([LW, 1])
    st.turn = 1
    r.player_action(1)
    assert th.tokens == [[LB, 2]]
    r.player_action(0)
    assert th.tokens == [[LB, 1]] and th.status != DESTROYED


def test_fissure_doubles_later_damage_in_its_zone():
    st, r = make()
    fissure = put(st, "SI1-04", token=1)
    run_effects(r, fissure, "x")
    gunship = put(st, "E1-05", zone=0, token=2)
    run_effects(r, gunship, "x")  # 2 - 1 shield = 1, doubled
    assert tiles(st) == [2, 0, 0]


def test_hacked_shields_z_wrecks_its_system():
    st, r = make()
    th = put(st, "I1-05", traj="T1", pos=2)
    r.advance(th, 2)
    assert (UB, card_code("B")) in st.broken


def test_alien_fights_back_once_grown():
    st, r = make(plan("BB"))
    st.pos[0] = LW
    st.carry[0] = 0
    th = put(st, "SI1-03")
    st.turn = 1
    r.player_action(0)
    assert not st.bots_disabled[0]
    th.grown = True
    st.delayed_at[0] = 0
    st.plans[0][1] = card_code("BB")
    r.player_action(0)
    assert th.status == DESTROYED and st.bots_disabled[0]


@pytest.mark.parametrize("tid", ["I1-05", "I2-05", "I2-06", "SI1-05", "SI1-06", "SI2-03", "SI2-05", "I1-07"])
def test_malfunctions_are_repaired_with_their_button(tid):
    card = COMP.by_id[tid]
    st, r = make(plan(card.button))
    st.pos[0] = card.stations[-1]
    th = put(st, tid)
    st.turn = 1
    r.player_action(0)
    assert th.damage == 1 or th.status == DESTROYED
