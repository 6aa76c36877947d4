"""[Action: The Invasion], [Flying], [ZAPPING], [Attack orders], [Alien types]: one Spawn card at a time.

Default hubs (data file): Hub 1 red pink purple, Hub 2 yellow silver orange, Hub 3 green blue
purple, Hub 4 red silver orange, Hub 5 yellow blue orange. Seats P1..Pn sit clockwise; flying
left = clockwise = to the next seat.
"""

from __future__ import annotations

import pytest

from simkit.games.oh_no_invasion import rules
from simkit.games.oh_no_invasion.game import RuleViolation
from tests.games.oh_no_invasion.helpers import (
    COMP,
    Scripted,
    build,
    give,
    invaders,
    land,
    make_game,
    names,
    on_top,
    place_shields,
    res,
    sabotalien,
    shield,
    table,
)
from tests.games.oh_no_invasion.test_properties import check_state

# --- flying ---------------------------------------------------------------------------------------

# (players, active seat, colour, flies, path, target): 3 players show every colour on hubs 1-3.
FLIGHTS = {
    "green-left-visits-P2-then-lands-P3": (3, 0, "green", "left", [0, 1, 2], 2),
    "green-right-goes-straight-to-P3": (3, 0, "green", "right", [0, 2], 2),
    "red-lands-at-home-first": (3, 0, "red", "left", [0], 0),
    "yellow-from-P3-left-wraps-to-P1-then-P2": (3, 2, "yellow", "left", [2, 0, 1], 1),
    "red-from-P2-right-lands-P1": (4, 1, "red", "right", [1, 0], 0),
    "red-from-P2-left-skips-P3-lands-P4": (4, 1, "red", "left", [1, 2, 3], 3),
    "green-nowhere-with-two-players": (2, 0, "green", "left", [0, 1], -1),
}


@pytest.mark.parametrize(
    ("n", "active", "colour", "flies", "path", "target"), FLIGHTS.values(), ids=FLIGHTS.keys()
)
def test_flying_both_ways(n, active, colour, flies, path, target):
    state = table(n)
    card = invaders(colour, flies=flies)[0]
    assert rules.flight(COMP, state, active, card) == (path, target)


def test_flying_skips_eliminated_stations():
    state = table(4)
    g = make_game(state)
    g.eliminate(3, "invaliens")  # P4 (Hub 4: red) is gone
    card = invaders("red", flies="left")[0]
    assert rules.flight(COMP, state, 1, card) == ([1, 2, 0], 0)


def test_sabotaged_modules_still_show_their_symbols():
    state = table(3)
    sabotalien(state, 2, 0, invaders("purple")[0], sabotaged=True)
    assert rules.flight(COMP, state, 0, invaders("green", flies="left")[0]) == ([0, 1, 2], 2)


def test_no_matching_symbol_discards_the_alien():
    state = table(2)
    card = invaders("green")[0]
    on_top(state, card)
    log: list = []
    g = make_game(state, log=log)
    g.spawn(0)
    assert state.spawn_discard == [card] and not state.aliens[0] and not state.aliens[1]
    assert [e["event"] for e in log][-1] == "flies_off"
    check_state(state)


# --- placement and Invalien orders ------------------------------------------------------------------


def test_invaliens_land_and_their_order_eliminates_at_the_printed_threshold():
    state = table(3)
    yellow = invaders("yellow", aliens=4)[0], invaders("yellow", aliens=2)[0]
    for c in yellow:
        land(state, 1, c)  # P2: 6 yellow figures
    give(state, 1, "red cannon", "blue bomb")
    build(state, 1, "Catalyst (red)")
    red = invaders("red", orders="yellow", threshold=6)[0]
    on_top(state, red)
    g = make_game(state)
    g.spawn(0)
    assert red in state.aliens[0]  # Hub 1 shows red: the active player's own station first
    assert state.figs[0][0] == COMP.spawn_aliens[red]
    assert state.alive == [True, False, True]
    # P2 discarded everything: hand and Catalyst to the discard pile, aliens too, Hub 2 to the box
    assert set(names(state.discard)) == {"red cannon", "blue bomb", "Catalyst (red)"}
    assert set(yellow) <= set(state.spawn_discard) and res("Hub 2") in state.box
    assert state.mods[1] == [] and state.hands[1] == [] and state.figs[1] == [0] * 8
    assert g.stats["eliminated_invaliens"] == 1 and g.stats["players_eliminated"] == 1
    check_state(state)


def test_invalien_order_below_the_threshold_eliminates_nobody():
    state = table(3)
    for c in (invaders("yellow", aliens=4)[0], invaders("yellow", aliens=2)[0]):
        land(state, 1, c)  # 6 figures, threshold 7
    on_top(state, invaders("red", orders="yellow", threshold=7)[0])
    g = make_game(state)
    g.spawn(0)
    assert all(state.alive)


def test_one_order_can_eliminate_several_players_and_end_the_game():
    state = table(2)
    land(state, 0, invaders("yellow", aliens=4)[0])
    land(state, 0, invaders("yellow", aliens=3)[0])
    land(state, 1, invaders("yellow", aliens=4)[1])
    land(state, 1, invaders("yellow", aliens=3)[1])
    on_top(state, invaders("red", orders="yellow", threshold=7)[0])
    g = make_game(state)
    g.spawn(0)
    assert state.alive == [False, False] and state.end_reason == "crew_eliminated"
    check_state(state)


# --- Evaporaliens ---------------------------------------------------------------------------------


def test_evaporalien_order_discards_one_card_per_figure_chosen_by_the_player():
    state = table(3)
    land(state, 2, invaders("blue", aliens=2)[0])  # P3: 2 blue figures
    land(state, 1, invaders("blue", aliens=1)[0])  # P2: 1 blue figure, 1 card
    give(state, 2, "red cannon", "red rocket", "black bomb")
    give(state, 1, "green bomb")
    pink = invaders("pink", orders="blue")[0]
    on_top(state, pink)
    p3 = Scripted(discard=lambda view, count: (res("red cannon"), res("red rocket")))
    p2 = Scripted()
    g = make_game(state, [Scripted(), p2, p3])
    g.spawn(0)
    assert pink in state.aliens[0]  # Hub 1 shows pink
    assert names(state.hands[2]) == ["black bomb"]
    assert state.hands[1] == [] and res("green bomb") in state.discard
    assert [c[0] for c in p2.calls] == []  # whole hand lost: no choice to make
    assert ("discard", 2, (2,)) in p3.calls
    check_state(state)


def test_evaporalien_discard_must_be_the_right_number_of_hand_cards():
    state = table(3)
    land(state, 2, invaders("blue", aliens=2)[0])
    give(state, 2, "red cannon", "red rocket", "black bomb")
    on_top(state, invaders("pink", orders="blue")[0])
    g = make_game(state, [Scripted(), Scripted(), Scripted(discard=(res("red cannon"),))])
    with pytest.raises(RuleViolation, match=r"discard \(P3\)"):
        g.spawn(0)


# --- Sabotaliens ----------------------------------------------------------------------------------


def test_sabotalien_lands_next_to_a_module_with_its_symbol_and_orders_sabotage():
    state = table(3)
    orange = invaders("orange")[0]
    sabotalien(state, 1, 0, orange)  # an orange Sabotalien waits next to Hub 2 (P2)
    purple = invaders("purple", orders="orange")[0]
    on_top(state, purple)
    log: list = []
    g = make_game(state, log=log)
    g.spawn(0)
    assert state.sabo[0][0] == purple  # next to Hub 1 (purple symbol)
    assert state.flipped[1][0] and not rules.hub_works(COMP, state, 1)
    assert not state.flipped[0][0]  # the purple one itself does not sabotage
    assert [e for e in log if e["event"] == "sabotage"][0]["module"] == "Hub 2"
    check_state(state)


def test_sabotalien_flies_on_when_every_module_with_its_symbol_is_taken():
    state = table(3)
    sabotalien(state, 0, 0, invaders("purple")[0])  # Hub 1's only spot is taken
    card = invaders("purple", flies="left")[1]
    assert rules.flight(COMP, state, 0, card) == ([0, 1, 2], 2)  # on to Hub 3


def test_the_station_owner_chooses_among_free_modules():
    state = table(3)
    build(state, 1, "Catalyst (purple)", "Morph-box (orange)", "Teleporter (orange)")
    card = invaders("orange", flies="left")[0]
    on_top(state, card)
    owner = Scripted(sabotalien_module=3)
    g = make_game(state, [Scripted(), owner, Scripted()])
    g.spawn(0)
    assert ("sabotalien_module", 1, (card, (0, 2, 3))) in owner.calls  # Hub 2, Morph-box, Teleporter
    assert state.sabo[1] == [-1, -1, -1, card]


def test_sabotaging_a_sabotaged_module_does_nothing_at_level_1():
    state = table(3, level=1)
    sabotalien(state, 1, 0, invaders("orange")[0], sabotaged=True)
    on_top(state, invaders("purple", orders="orange")[0])
    g = make_game(state)
    g.spawn(0)
    assert state.mods[1] == [res("Hub 2")] and state.flipped[1] == [True] and state.alive[1]


def test_level_2_second_sabotage_discards_the_module_and_no_module_left_eliminates():
    state = table(3, level=2)
    orange = invaders("orange")
    build(state, 2, "Catalyst (purple)")
    sabotalien(state, 1, 0, orange[0], sabotaged=True)  # P2: only Hub 2, already sabotaged
    build(state, 0, "Morph-box (orange)")
    sabotalien(state, 0, 1, orange[1], sabotaged=True)  # P1: Hub 1 and a sabotaged Morph-box
    purple = invaders("purple", orders="orange", flies="left")[0]
    on_top(state, purple)
    g = make_game(state)
    g.spawn(2)  # P3 draws it; it lands next to Hub 3 (purple)
    assert state.mods[0] == [res("Hub 1")]  # the Morph-box went with its Sabotalien
    assert res("Morph-box (orange)") in state.discard and orange[1] in state.spawn_discard
    assert not state.alive[1] and g.stats["eliminated_sabotage"] == 1  # no module left
    assert res("Hub 2") in state.box
    assert g.stats["modules_destroyed"] == 2
    check_state(state)


def test_level_2_a_first_sabotage_only_flips():
    state = table(3, level=2)
    sabotalien(state, 1, 0, invaders("orange")[0])
    on_top(state, invaders("purple", orders="orange")[0])
    g = make_game(state)
    g.spawn(0)
    assert state.flipped[1] == [True] and state.alive[1]


# --- zapping --------------------------------------------------------------------------------------


def test_another_player_on_the_path_zaps_after_the_active_player_declines():
    state = table(3)
    give(state, 0, "black cannon")
    give(state, 1, "green rocket")
    give(state, 2, "green bomb")
    card = invaders("green", flies="left")[0]
    on_top(state, card)
    p1, p2, p3 = Scripted(zap=None), Scripted(zap=res("green rocket")), Scripted()
    g = make_game(state, [p1, p2, p3])
    g.spawn(0)
    assert [c[:2] for c in p1.calls] == [("zap", 0)] and [c[:2] for c in p2.calls] == [("zap", 1)]
    assert p3.calls == []  # already zapped before it reached P3
    assert card in state.spawn_discard and res("green rocket") in state.discard
    assert not any(state.aliens) and g.stats["aliens_zapped"] == 1
    check_state(state)


def test_players_off_the_path_cannot_zap_and_the_target_can():
    state = table(3)
    give(state, 1, "green rocket")  # P2 is not on the right-flying path
    give(state, 2, "black bomb")  # P3 is about to be invaded: black zaps any colour
    card = invaders("green", flies="right")[0]
    on_top(state, card)
    p2, p3 = Scripted(zap=res("green rocket")), Scripted(zap=res("black bomb"))
    g = make_game(state, [Scripted(), p2, p3])
    g.spawn(0)
    assert p2.calls == [] and [c[0] for c in p3.calls] == ["zap"]
    assert card in state.spawn_discard and res("black bomb") in state.discard


def test_zap_with_a_wrong_colour_is_refused():
    state = table(3)
    give(state, 0, "green rocket", "red rocket")
    on_top(state, invaders("green", flies="left")[0])
    g = make_game(state, [Scripted(zap=res("red rocket")), Scripted(), Scripted()])
    with pytest.raises(RuleViolation, match=r"zap \(P1\)"):
        g.spawn(0)


def test_shield_aliens_go_to_the_spawnmonster_unzapped_and_the_eighth_loses():
    state = table(3)
    give(state, 0, "black cannon", "red cannon")
    place_shields(state, "red", "yellow", "green", "pink", "silver", "blue")
    on_top(state, shield("purple"), shield("orange"))
    p1 = Scripted(zap=res("black cannon"))
    g = make_game(state, [p1, Scripted(), Scripted()])
    g.spawn(0)
    assert len(state.shields) == 7 and state.end_reason is None and p1.calls == []
    g.spawn(0)
    assert len(state.shields) == 8 and state.end_reason == "shields_complete"
    check_state(state)


def test_no_zap_is_offered_for_an_alien_that_will_fly_off():
    state = table(2)
    give(state, 0, "green rocket")
    on_top(state, invaders("green")[0])
    p1 = Scripted(zap=res("green rocket"))
    g = make_game(state, [p1, Scripted()])
    g.spawn(0)
    assert p1.calls == [] and names(state.hands[0]) == ["green rocket"]
