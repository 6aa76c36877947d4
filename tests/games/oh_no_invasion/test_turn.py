"""[A player's turn]: actions, build, combat, the modules and their sabotaged state, elimination
and the levels' added rules, each on a small hand-built table."""

from __future__ import annotations

import pytest

from simkit.games.oh_no_invasion import rules
from simkit.games.oh_no_invasion.components import CATALYST, MORPH_BOX, TELEPORTER
from simkit.games.oh_no_invasion.game import HiddenInformation, RuleViolation
from tests.games.oh_no_invasion.helpers import (
    COLOUR,
    COMP,
    Scripted,
    build,
    give,
    invaders,
    land,
    make_game,
    names,
    on_top,
    res,
    res_on_top,
    sabotalien,
    table,
)
from tests.games.oh_no_invasion.test_properties import check_state

Y, P, PU, R = COLOUR["yellow"], COLOUR["pink"], COLOUR["purple"], COLOUR["red"]


def quiet_spawns(state, count: int) -> None:
    """The next `count` Spawn cards: red Invaliens ordering green, on a table with no green
    figures (they land and their order harms nobody)."""
    on_top(state, *invaders("red", orders="green")[:count])


# --- actions ------------------------------------------------------------------------------------


def test_each_action_is_followed_by_one_spawn_card_and_two_actions_at_most():
    state = table(3)
    res_on_top(state, "red cannon", "blue bomb")
    quiet_spawns(state, 2)
    p1 = Scripted(action=[("draw",), ("draw",)])
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.turn(0)
    assert names(state.hands[0]) == ["red cannon", "blue bomb"]
    assert g.stats["spawn_drawn"] == 2 and g.stats["actions"] == 2
    assert [c[2] for c in p1.calls if c[0] == "action"] == [(0,), (1,)]
    check_state(state)


def test_one_action_is_allowed_but_not_none():
    state = table(3)
    quiet_spawns(state, 1)
    g = make_game(state, [Scripted(action=[("draw",), ("end",)]), Scripted(), Scripted()])
    g.turn(0)
    assert g.stats["spawn_drawn"] == 1 and len(state.hands[0]) == 1
    g2 = make_game(table(3), [Scripted(action=("end",)), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"action \(P1\)"):
        g2.turn(0)


def test_transport_gives_cards_to_one_player_then_a_spawn_card():
    state = table(3)
    give(state, 0, "red cannon", "blue bomb", "green rocket")
    quiet_spawns(state, 1)
    cards = (res("red cannon"), res("green rocket"))
    g = make_game(state, [Scripted(action=[("transport", 2, cards), ("end",)]), Scripted(), Scripted()])
    g.turn(0)
    assert names(state.hands[0]) == ["blue bomb"] and names(state.hands[2]) == ["red cannon", "green rocket"]
    assert g.stats["spawn_drawn"] == 1 and g.stats["transports"] == 1


def test_a_sabotaged_hub_cannot_transport_but_can_receive():
    state = table(3)
    give(state, 0, "red cannon")
    give(state, 1, "blue bomb")
    sabotalien(state, 0, 0, invaders("purple")[0], sabotaged=True)
    quiet_spawns(state, 1)
    g = make_game(state, [Scripted(action=("transport", 1, (res("red cannon"),))), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match="working Transport Hub"):
        g.action(0, 0)
    state2 = table(3)
    give(state2, 1, "blue bomb")
    sabotalien(state2, 0, 0, invaders("purple")[0], sabotaged=True)
    quiet_spawns(state2, 1)
    g2 = make_game(state2, [Scripted(), Scripted(action=("transport", 0, (res("blue bomb"),))), Scripted()])
    state2.active = 1
    g2.action(1, 0)
    assert names(state2.hands[0]) == ["blue bomb"]


@pytest.mark.parametrize(
    "answer",
    [("transport", 1, ()), ("transport", 0, (0,)), ("transport", 1, (999,)), ("fly",), "draw"],
    ids=["no-cards", "to-self", "card-not-held", "unknown", "not-a-tuple"],
)
def test_bad_actions_are_refused(answer):
    state = table(3)
    give(state, 0, "red cannon")
    g = make_game(state, [Scripted(action=answer), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"action \(P1\)"):
        g.action(0, 0)


def test_empty_resistance_deck_is_remade_from_the_discards():
    state = table(3)
    state.discard.extend(state.deck[:-1])
    state.deck[:] = state.deck[-1:]
    quiet_spawns(state, 2)
    g = make_game(state, [Scripted(action=[("draw",), ("draw",)]), Scripted(), Scripted()])
    g.turn(0)
    assert len(state.hands[0]) == 2 and g.stats["resistance_reshuffles"] == 1 and state.discard == []
    check_state(state)


def test_the_resistance_deck_is_remade_the_moment_it_runs_out_not_at_the_next_draw():
    # RULINGS §2: draw the last card -> the discards are shuffled into a new deck at once, so a
    # card discarded afterwards waits in the discard pile
    state = table(3)
    state.discard.extend(state.deck[:-1])
    state.deck[:] = state.deck[-1:]
    last = state.deck[0]
    before = len(state.discard)
    g = make_game(state)
    assert g._draw_resistance(0, 1) == [last]
    assert len(state.deck) == before and state.discard == [] and g.stats["resistance_reshuffles"] == 1
    rules.discard_from_hand(state, 0, [last])
    assert state.discard == [last] and last not in state.deck
    check_state(state)


def test_a_deck_that_ran_out_with_no_discards_is_remade_at_the_next_draw():
    state = table(3)
    state.discard.extend(state.deck[:-1])
    state.deck[:] = state.deck[-1:]
    state.hands[1].extend(state.discard)  # nothing in the discards when the deck runs out
    state.discard.clear()
    g = make_game(state)
    g._draw_resistance(0, 1)
    assert state.deck == [] and g.stats["resistance_reshuffles"] == 0
    rules.discard_from_hand(state, 1, state.hands[1][:3])
    assert len(g._draw_resistance(0, 1)) == 1 and g.stats["resistance_reshuffles"] == 1
    check_state(state)


# --- Catalyst ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "sabotaged", "cards"),
    [(1, False, 4), (0, False, 4), (2, False, 3), (3, False, 3), (1, True, 2), (2, True, 2)],
    ids=[
        "lvl1-both-draws",
        "lvl0-both-draws",
        "lvl2-once-per-turn",
        "lvl3-once-per-turn",
        "sabotaged",
        "lvl2-sab",
    ],
)
def test_catalyst_draws_two_with_one_alien(level, sabotaged, cards):
    state = table(3, level=level)
    build(state, 0, "Catalyst (purple)", "Catalyst (red)")  # two Catalysts: still two cards
    if sabotaged:
        sabotalien(state, 0, 1, invaders("purple")[0], sabotaged=True)
        sabotalien(state, 0, 2, invaders("purple")[1], sabotaged=True)
    quiet_spawns(state, 2)
    g = make_game(state, [Scripted(action=[("draw",), ("draw",)]), Scripted(), Scripted()])
    g.turn(0)
    assert len(state.hands[0]) == cards and g.stats["spawn_drawn"] == 2


def test_level_2_catalyst_limit_resets_each_turn():
    state = table(3, level=2)
    build(state, 0, "Catalyst (red)")
    quiet_spawns(state, 3)
    g = make_game(
        state, [Scripted(action=[("draw",), ("end",), ("draw",), ("end",)]), Scripted(), Scripted()]
    )
    state.catalyst_used = False
    g.turn(0)
    state.catalyst_used = False  # what play() does at the start of every turn
    g.turn(0)
    assert len(state.hands[0]) == 4


# --- build -------------------------------------------------------------------------------------------


def test_build_places_modules_that_work_at_once():
    state = table(3)
    cards = give(state, 0, "Morph-box (yellow)", "Teleporter (green)", "red cannon")
    g = make_game(state, [Scripted(build=tuple(cards[:2])), Scripted(), Scripted()])
    g.build(0)
    assert names(state.mods[0]) == ["Hub 1", "Morph-box (yellow)", "Teleporter (green)"]
    assert rules.working(COMP, state, 0, MORPH_BOX) == 1 and rules.working(COMP, state, 0, TELEPORTER) == 1
    assert names(state.hands[0]) == ["red cannon"]
    g2 = make_game(state, [Scripted(build=(res("red cannon"),)), Scripted(), Scripted()])
    give(state, 0, "Catalyst (red)")
    with pytest.raises(RuleViolation, match=r"build \(P1\)"):
        g2.build(0)


# --- combat ------------------------------------------------------------------------------------------


def combat_table():
    """The rulebook's example: Beau (P2) holds a yellow bomb, a pink rocket, a purple rocket and
    a red cannon; yellow Invaliens, a pink Evaporalien and a purple Sabotalien sabotaging her Hub."""
    state = table(3)
    land(state, 1, invaders("yellow", aliens=3)[0])
    land(state, 1, invaders("pink", aliens=1)[0])
    land(state, 1, invaders("red", aliens=2)[0])
    sabotalien(state, 1, 0, invaders("purple")[0], sabotaged=True)
    give(state, 1, "yellow bomb", "pink rocket", "purple rocket", "red cannon")
    state.active = 1
    return state


def test_combat_discards_one_card_per_weapon_type_used():
    state = combat_table()
    plays = ((res("yellow bomb"), Y), (res("pink rocket"), P), (res("purple rocket"), PU))
    log: list = []
    g = make_game(state, [Scripted(), Scripted(combat=(1, 1), attack=(plays, ())), Scripted()], log)
    g.combat(1)
    # a bomb and a rocket used: the bomb and the first rocket listed are discarded
    assert names(state.hands[1]) == ["purple rocket", "red cannon"]
    assert set(names(state.discard)) == {"yellow bomb", "pink rocket"}
    # every alien of the three colours is gone; the red ones stay; the Hub is turned back
    assert state.figs[1][Y] == state.figs[1][P] == 0 and state.figs[1][R] == 2
    assert state.sabo[1] == [-1] and state.flipped[1] == [False] and rules.hub_works(COMP, state, 1)
    assert log[-1]["event"] == "combat" and log[-1]["discarded"] == ["yellow bomb", "pink rocket"]
    check_state(state)


def test_black_weapons_are_any_colour_but_coloured_ones_are_not():
    state = combat_table()
    give(state, 1, "black rocket")
    plays = ((res("pink rocket"), P), (res("black rocket"), R))
    g = make_game(state, [Scripted(), Scripted(combat=(1, 1), attack=(plays, ())), Scripted()])
    g.combat(1)
    assert state.figs[1][R] == 0 and state.figs[1][P] == 0
    assert names(state.hands[1]) == ["yellow bomb", "purple rocket", "red cannon", "black rocket"]
    state = combat_table()
    bad = ((res("red cannon"), Y),)
    g = make_game(state, [Scripted(), Scripted(combat=(1, 1), attack=(bad, ())), Scripted()])
    with pytest.raises(RuleViolation, match=r"attack \(P2\): red cannon cannot be played as yellow"):
        g.combat(1)


def test_morph_box_discards_two_of_a_colour_or_type_to_clear_a_chosen_colour():
    state = combat_table()
    build(state, 1, "Morph-box (silver)")
    morph = ((res("pink rocket"), res("purple rocket")), Y)  # two rockets: the same type
    g = make_game(state, [Scripted(), Scripted(combat=(1, 1), attack=((), (morph,))), Scripted()])
    g.combat(1)
    assert state.figs[1][Y] == 0 and state.figs[1][P] == 1
    assert names(state.hands[1]) == ["yellow bomb", "red cannon"]
    assert g.stats["morph_box_uses"] == 1


@pytest.mark.parametrize(
    ("pair", "ok"),
    [
        (("red cannon", "red bomb"), True),  # same colour
        (("red cannon", "blue cannon"), True),  # same type
        (("black cannon", "black bomb"), True),  # black is a colour
        (("Catalyst (red)", "Teleporter (green)"), True),  # "2 Modules"
        (("red cannon", "blue bomb"), False),
        (("Catalyst (red)", "red cannon"), False),
    ],
    ids=str,
)
def test_morph_box_pairs(pair, ok):
    assert rules.morph_pair_ok(COMP, res(pair[0]), res(pair[1])) is ok


def test_sabotaged_morph_box_does_nothing_and_each_box_is_one_use():
    state = combat_table()
    build(state, 1, "Morph-box (silver)")
    give(state, 1, "red bomb", "blue bomb")
    morph = ((res("pink rocket"), res("purple rocket")), Y)
    morph2 = ((res("red bomb"), res("blue bomb")), R)
    g = make_game(state, [Scripted(), Scripted(combat=(1, 1), attack=((), (morph, morph2))), Scripted()])
    with pytest.raises(RuleViolation, match="2 Morph-box uses, 1 working"):
        g.combat(1)
    state = combat_table()
    build(state, 1, "Morph-box (orange)")
    sabotalien(state, 1, 1, invaders("orange")[0], sabotaged=True)
    g = make_game(state, [Scripted(), Scripted(combat=(1, 1), attack=((), (morph,))), Scripted()])
    with pytest.raises(RuleViolation, match="0 working"):
        g.combat(1)


def teleporter_table(sabotage_seat=None):
    """Beau (P2, active) and P3 both with a Teleporter; optionally one of them sabotaged (a
    test table: no Teleporter shows purple, so P3's is flipped under a purple Sabotalien)."""
    state = combat_table()
    build(state, 1, "Teleporter (orange)")
    build(state, 2, "Teleporter (green)")
    give(state, 2, "yellow cannon")
    if sabotage_seat is not None:
        card = invaders("orange")[0] if sabotage_seat == 1 else invaders("purple")[1]
        sabotalien(state, sabotage_seat, 1, card, sabotaged=True)
    return state


def test_teleporter_partner_attacks_the_active_players_station():
    state = teleporter_table()
    partner = Scripted(attack=(((res("yellow cannon"), Y),), ()))
    g = make_game(state, [Scripted(), Scripted(combat=(2, 1)), partner])
    g.combat(1)
    assert state.figs[1][Y] == 0 and state.hands[2] == [] and g.stats["teleport_attacks"] == 1
    assert [c[:3] for c in partner.calls] == [("attack", 2, (1,))]


def test_teleporter_lets_the_active_player_attack_another_station():
    state = teleporter_table()
    land(state, 2, invaders("green", aliens=4)[0])
    give(state, 1, "green cannon")
    plays = ((res("green cannon"), COLOUR["green"]),)
    g = make_game(state, [Scripted(), Scripted(combat=(1, 2), attack=(plays, ())), Scripted()])
    g.combat(1)
    assert state.figs[2][COLOUR["green"]] == 0


@pytest.mark.parametrize("seat", [1, 2])
def test_a_sabotaged_teleporter_at_either_end_blocks_it(seat):
    state = teleporter_table(sabotage_seat=seat)
    g = make_game(state, [Scripted(), Scripted(combat=(2, 1)), Scripted()])
    with pytest.raises(RuleViolation, match=r"combat \(P2\)"):
        g.combat(1)


def test_a_player_without_teleporter_cannot_attack_another_station():
    state = combat_table()
    g = make_game(state, [Scripted(), Scripted(combat=(1, 0)), Scripted()])
    with pytest.raises(RuleViolation, match=r"combat \(P2\)"):
        g.combat(1)


# --- elimination and levels ---------------------------------------------------------------------------


def test_level_0_invalien_elimination_keeps_the_player_and_hub_in_the_game():
    state = table(3, level=0)
    land(state, 1, invaders("yellow", aliens=4)[0])
    land(state, 1, invaders("yellow", aliens=3)[0])
    land(state, 1, invaders("pink", aliens=1)[0])
    build(state, 1, "Catalyst (red)")
    sabotalien(state, 1, 0, invaders("orange")[0], sabotaged=True)
    give(state, 1, "red cannon")
    on_top(state, invaders("red", orders="yellow", threshold=7)[0])
    g = make_game(state)
    g.spawn(0)
    assert state.alive[1] and state.mods[1] == [res("Hub 2")] and state.flipped[1] == [False]
    assert state.hands[1] == [] and state.aliens[1] == [] and state.sabo[1] == [-1]
    assert rules.working(COMP, state, 1, CATALYST) == 0 and rules.hub_works(COMP, state, 1)
    assert g.stats["setbacks_level0"] == 1 and g.stats["players_eliminated"] == 0
    check_state(state)


def test_level_0_does_not_save_from_sabotage_or_kamikaze():
    state = table(3, level=0)
    g = make_game(state)
    g.eliminate(2, "kamikaze")
    assert not state.alive[2] and res("Hub 3") in state.box


def test_an_active_player_eliminated_in_their_action_ends_the_turn():
    state = table(3)
    land(state, 0, invaders("yellow", aliens=4)[0])
    land(state, 0, invaders("yellow", aliens=3)[0])
    on_top(state, invaders("red", orders="yellow", threshold=7)[0])
    p1 = Scripted(action=[("draw",), ("draw",)])
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.turn(0)
    assert not state.alive[0] and [c[0] for c in p1.calls] == ["final_conflict", "action"]


def test_level_3_hides_the_other_hands():
    for level in (0, 1, 2, 3):
        state = table(3, level=level)
        give(state, 1, "red cannon")
        view = make_game(state)._view(0)
        assert view.hand_size(1) == 1
        if level < 3:
            assert view.hand_of(1) == (res("red cannon"),)
        else:
            with pytest.raises(HiddenInformation):
                view.hand_of(1)
