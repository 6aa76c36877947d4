"""[The Final Conflict] and [2. Strike!!!]: kamikaze, counter, Morph-box and Teleporter help,
strike, the Spawnmonster, reshuffles; and calling it."""

from __future__ import annotations

import random

import pytest

from simkit.games.oh_no_invasion.game import MONSTER, Game, RuleViolation, Streams
from tests.games.oh_no_invasion.helpers import (
    COLOUR,
    COMP,
    Scripted,
    build,
    give,
    invaders,
    make_game,
    names,
    on_top,
    place_shields,
    res,
    shield,
    table,
)
from tests.games.oh_no_invasion.test_properties import check_state

G, R = COLOUR["green"], COLOUR["red"]


def fc_table(level=1, shields=("red",), kamikaze=None):
    state = table(3, level=level)
    state.final_conflict = True
    place_shields(state, *shields)
    on_top(state, kamikaze if kamikaze is not None else invaders("green")[0])
    return state


def test_counter_with_a_weapon_of_its_colour_then_strike_a_shield():
    state = fc_table(shields=("red", "blue"))
    give(state, 0, "green rocket", "red cannon")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=("weapon", res("red cannon"), R))
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert state.alive[0] and state.hands[0] == []
    assert [COMP.spawn_colour[c] for c in state.shields] == [COLOUR["blue"]]
    assert shield("red") in state.spawn_discard and invaders("green")[0] in state.spawn_discard
    assert g.stats["kamikazes_countered"] == 1 and g.stats["shields_destroyed"] == 1
    check_state(state)


def test_black_does_not_counter_a_kamikaze_but_strikes_a_shield():
    state = fc_table()
    give(state, 0, "black rocket", "green rocket", "black bomb")
    g = make_game(state, [Scripted(counter=("weapon", res("black rocket"))), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"counter \(P1\): black rocket cannot hit green"):
        g.final_conflict_turn(0)
    state = fc_table()
    give(state, 0, "black rocket", "green rocket")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=("weapon", res("black rocket"), R))
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert state.shields == []


def test_a_shield_alien_goes_kamikaze_too():
    state = fc_table(shields=("red",), kamikaze=shield("green"))
    give(state, 0, "green bomb")
    g = make_game(state, [Scripted(counter=("weapon", res("green bomb"))), Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert state.alive[0] and shield("green") in state.spawn_discard and len(state.shields) == 1


def test_uncountered_kamikaze_eliminates_and_ends_the_turn():
    state = fc_table()
    give(state, 0, "red cannon")
    build(state, 0, "Catalyst (red)")
    p1 = Scripted(strike=("weapon", res("red cannon"), R))
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert not state.alive[0] and "red cannon" in names(state.discard)
    assert res("Hub 1") in state.box and [c[0] for c in p1.calls] == ["counter"]
    assert len(state.shields) == 1 and g.stats["eliminated_kamikaze"] == 1
    check_state(state)


def test_morph_box_counters_any_colour():
    state = fc_table()
    build(state, 0, "Morph-box (yellow)")
    give(state, 0, "red cannon", "blue cannon", "red bomb")
    p1 = Scripted(
        counter=("morph", (res("red cannon"), res("blue cannon"))), strike=("weapon", res("red bomb"), R)
    )
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert state.alive[0] and state.hands[0] == [] and state.shields == []


def test_morph_box_needs_a_working_box():
    state = fc_table()
    give(state, 0, "red cannon", "blue cannon")
    g = make_game(
        state, [Scripted(counter=("morph", (res("red cannon"), res("blue cannon")))), Scripted(), Scripted()]
    )
    with pytest.raises(RuleViolation, match="no working Morph-box"):
        g.final_conflict_turn(0)


def test_teleporter_partner_counters_with_their_own_weapon():
    state = fc_table()
    build(state, 0, "Teleporter (yellow)")
    build(state, 2, "Teleporter (green)")
    give(state, 2, "green cannon")
    give(state, 0, "red rocket")
    p3 = Scripted(help_counter=("weapon", res("green cannon")))
    p1 = Scripted(counter=("help", 2), strike=("weapon", res("red rocket"), R))
    log: list = []
    g = make_game(state, [p1, Scripted(), p3], log)
    g.final_conflict_turn(0)
    assert state.alive[0] and state.hands[2] == [] and state.shields == []
    counter = next(e for e in log if e["event"] == "counter")
    assert counter["player"] == "P3" and counter["helping"] == "P1"
    assert g.stats["teleport_helps"] == 1


def test_teleporter_help_needs_working_teleporters_and_a_declining_partner_means_elimination():
    state = fc_table()
    build(state, 0, "Teleporter (yellow)")
    give(state, 2, "green cannon")
    g = make_game(state, [Scripted(counter=("help", 2)), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match="not a Teleporter partner"):
        g.final_conflict_turn(0)
    state = fc_table()
    build(state, 0, "Teleporter (yellow)")
    build(state, 2, "Teleporter (green)")
    g = make_game(state, [Scripted(counter=("help", 2)), Scripted(), Scripted(help_counter=None)])
    g.final_conflict_turn(0)
    assert not state.alive[0]


def test_strike_the_spawnmonster_only_when_no_shield_is_left_and_win():
    state = fc_table(shields=())
    give(state, 0, "green rocket", "blue bomb")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=("weapon", res("blue bomb"), MONSTER))
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert state.end_reason == "spawnmonster_destroyed"
    state = fc_table(shields=("red",))
    give(state, 0, "green rocket", "blue bomb")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=("weapon", res("blue bomb"), MONSTER))
    g = make_game(state, [p1, Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match="no Shield alien of colour -1"):
        g.final_conflict_turn(0)


def test_one_strike_per_turn_the_last_shield_then_the_spawnmonster_next_turn():
    state = fc_table(shields=("red",))
    give(state, 0, "green rocket", "red cannon", "blue bomb")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=("weapon", res("red cannon"), R))
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert state.shields == [] and state.end_reason is None
    assert [c[0] for c in p1.calls] == ["counter", "strike"]


def test_no_strike_possible_ends_the_turn():
    state = fc_table(shields=("red",))
    give(state, 0, "green rocket")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=None)
    log: list = []
    g = make_game(state, [p1, Scripted(), Scripted()], log)
    g.final_conflict_turn(0)
    assert log[-1]["event"] == "no_strike" and len(state.shields) == 1 and state.alive[0]


@pytest.mark.parametrize("level", [0, 1])
def test_teleporter_strike_help_only_at_level_0(level):
    state = fc_table(level=level, shields=("red",))
    build(state, 0, "Teleporter (yellow)")
    build(state, 2, "Teleporter (green)")
    give(state, 0, "green rocket")
    give(state, 2, "red bomb")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=("help", 2))
    p3 = Scripted(help_strike=("weapon", res("red bomb"), R))
    g = make_game(state, [p1, Scripted(), p3])
    if level == 0:
        g.final_conflict_turn(0)
        assert state.shields == [] and state.hands[2] == []
    else:
        with pytest.raises(RuleViolation, match="level 0, Shield aliens only"):
            g.final_conflict_turn(0)


def test_empty_spawn_deck_is_remade_from_the_discarded_aliens():
    state = fc_table()
    state.spawn_discard.extend(state.spawn_deck)
    state.spawn_deck.clear()
    g = make_game(state)
    g.final_conflict_turn(0)
    assert g.stats["spawn_reshuffles"] == 1 and g.stats["kamikazes"] == 1
    check_state(state)


def test_the_spawn_deck_is_remade_the_moment_its_last_card_goes_kamikaze():
    # RULINGS §2: remade at once, before the kamikaze itself is discarded
    state = fc_table()
    kamikaze = state.spawn_deck[-1]
    state.spawn_discard.extend(state.spawn_deck[:-1])
    state.spawn_deck[:] = [kamikaze]
    discarded = len(state.spawn_discard)
    give(state, 0, "green rocket")
    g = make_game(state)
    g.final_conflict_turn(0)
    assert g.stats["spawn_reshuffles"] == 1 and len(state.spawn_deck) == discarded
    assert state.spawn_discard == [kamikaze] and state.alive[0]
    check_state(state)


# --- No declining (RULINGS §2): strategies choose how, never whether -----------------------------


def test_a_player_holding_a_weapon_of_the_colour_must_counter():
    state = fc_table()
    give(state, 0, "green rocket")
    g = make_game(state, [Scripted(counter=None), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"counter \(P1\): can counter this kamikaze but does not"):
        g.final_conflict_turn(0)


def test_a_player_with_a_working_morph_box_and_a_pair_must_counter():
    state = fc_table()
    build(state, 0, "Morph-box (yellow)")
    give(state, 0, "red cannon", "blue cannon")
    g = make_game(state, [Scripted(counter=None), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match="can counter this kamikaze but does not"):
        g.final_conflict_turn(0)


def test_the_morph_box_counters_only_a_colour_without_a_weapon_in_hand():
    state = fc_table()
    build(state, 0, "Morph-box (yellow)")
    give(state, 0, "green rocket", "red cannon", "blue cannon")
    p1 = Scripted(counter=("morph", (res("red cannon"), res("blue cannon"))))
    g = make_game(state, [p1, Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match="Morph-box counters only a colour with no weapon in hand"):
        g.final_conflict_turn(0)


def test_a_partner_holding_the_weapon_makes_the_counter_possible_and_must_help():
    state = fc_table()
    build(state, 0, "Teleporter (yellow)")
    build(state, 2, "Teleporter (green)")
    give(state, 2, "green cannon")
    g = make_game(state, [Scripted(counter=None), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"counter \(P1\): can counter"):
        g.final_conflict_turn(0)  # P1 cannot decline: P3's weapon is a counter it can make
    state = fc_table()
    build(state, 0, "Teleporter (yellow)")
    build(state, 2, "Teleporter (green)")
    give(state, 2, "green cannon")
    g = make_game(state, [Scripted(counter=("help", 2)), Scripted(), Scripted(help_counter=None)])
    with pytest.raises(RuleViolation, match=r"help_counter \(P3\): declines to counter with a weapon"):
        g.final_conflict_turn(0)


@pytest.mark.parametrize("level", [1, 3])
def test_the_default_answers_counter_through_a_partner_who_says_it_holds_the_weapon(level):
    # level 3: hands are hidden, but a partner holding the weapon says so (view.counter_helpers)
    state = fc_table(level=level)
    build(state, 0, "Teleporter (yellow)")
    build(state, 1, "Teleporter (pink)")
    build(state, 2, "Teleporter (green)")
    give(state, 2, "green cannon")
    g = make_game(state)
    g.final_conflict_turn(0)
    assert state.alive[0] and state.hands[2] == [] and g.stats["teleport_helps"] == 1


@pytest.mark.parametrize(
    ("shields", "card"), [(("red",), "red cannon"), (("red",), "black bomb"), ((), "blue bomb")]
)
def test_a_player_holding_a_weapon_that_can_strike_must_strike(shields, card):
    state = fc_table(shields=shields)
    give(state, 0, "green rocket", card)
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=None)
    g = make_game(state, [p1, Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"strike \(P1\): holds a weapon that can strike"):
        g.final_conflict_turn(0)


def test_a_weapon_of_another_colour_need_not_strike_a_shield():
    state = fc_table(shields=("red",))
    give(state, 0, "green rocket", "blue bomb")
    p1 = Scripted(counter=("weapon", res("green rocket")), strike=None)
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.final_conflict_turn(0)
    assert len(state.shields) == 1 and state.hands[0] == [res("blue bomb")]


def test_calling_at_the_start_of_the_turn_faces_the_first_kamikaze_at_once():
    state = table(3)
    on_top(state, invaders("green")[0])
    give(state, 0, "green rocket", "blue bomb")
    p1 = Scripted(
        final_conflict=True,
        counter=("weapon", res("green rocket")),
        strike=("weapon", res("blue bomb"), MONSTER),
    )
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.turn(0)
    assert state.final_conflict and state.end_reason == "spawnmonster_destroyed"
    assert g.stats["actions"] == 0 and g.fc_moment == "start"


def test_calling_after_combat_follows_the_actions_in_the_same_turn():
    state = table(3)
    on_top(state, *invaders("red", orders="green")[:2], invaders("green")[0])
    give(state, 0, "green rocket")
    p1 = Scripted(
        final_conflict=[False, True], action=[("draw",), ("draw",)], counter=("weapon", res("green rocket"))
    )
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.turn(0)
    assert state.final_conflict and g.fc_moment == "after_combat" and g.stats["kamikazes"] == 1
    assert [c[0] for c in p1.calls] == [
        "final_conflict",
        "action",
        "action",
        "combat",
        "final_conflict",
        "counter",
        "strike",
    ]


def test_a_whole_game_scores_points_per_survivor_by_level():
    for level, points in enumerate((2, 3, 5, 7)):
        crew = [Scripted(final_conflict=True, counter=None) for _ in range(3)]
        # P1 counters the first kamikaze and strikes the Spawnmonster: 3 survivors
        crew[0] = Scripted(
            final_conflict=True,
            counter=lambda view, alien: (
                "weapon",
                next(c for c in view.hand if COMP.res_colour[c] == COMP.spawn_colour[alien]),
            ),
            strike=lambda view: ("weapon", view.hand[0], MONSTER),
        )
        streams = Streams(random.Random(0), random.Random(1), random.Random(2))
        g = Game(COMP, 3, level, crew, streams)
        state = g.state
        card = state.spawn_deck[-1]
        colour = COMP.colours[COMP.spawn_colour[card]]
        if COMP.spawn_shield[card]:
            state.spawn_deck.pop()
            state.spawn_deck.insert(0, card)
            card = state.spawn_deck[-1]
            colour = COMP.colours[COMP.spawn_colour[card]]
        give(state, 0, f"{colour} cannon", "black bomb")
        record = g.play()
        assert record["won"] and record["survivors"] == 3 and record["score"] == 3 * points
        assert record["length"] == 1 and record["final_conflict_turn"] == 1
