"""One rule per test, on small hand-built positions of the default board (see scripted.py).

Lines run east along row r = 4: (2, 4), (3, 4), (4, 4)... are one line of three spaces."""

from __future__ import annotations

import pytest

from simkit.games.alien_attack import rules
from simkit.games.alien_attack.game import RuleViolation
from simkit.games.alien_attack.state import BASE, COVER, EMPTY, EXTRA, LOST, NEIGHBORHOOD, PROTECTION

from .scripted import BOARD, S, Scripted, game, state

A, B, C, D, E = S(2, 4), S(3, 4), S(4, 4), S(5, 4), S(6, 4)  # five spaces on one east-west line


def city(name):
    return next(i for i, c in enumerate(BOARD.cities) if c.name == name)


# --- cities, herds, parks -------------------------------------------------------------------


def test_city_scores_on_the_second_and_third_disc_of_the_same_player():
    la = BOARD.cities[city("Los Angeles")]
    assert la.value == 7 and len(la.spaces) == 3
    a, b, c = la.spaces
    assert all(BOARD.space_cities[s] == (city("Los Angeles"),) for s in la.spaces)
    st = state()
    assert rules.place(st, 0, a)[0] == 0  # first disc: nothing
    assert rules.place(st, 1, b)[0] == 0  # another colour does not count for seat 0
    st2 = state()
    rules.place(st2, 0, a)
    pts, scored, _, _ = rules.place(st2, 0, b)
    assert (pts, scored) == (7, [city("Los Angeles")])
    assert rules.place(st2, 0, c)[0] == 7  # the third disc scores again
    assert st2.score[0] == 14


def test_city_on_the_coast_touches_two_spaces():
    sf = BOARD.cities[city("San Francisco")]
    assert len(sf.spaces) == 2 and sf.value == 5
    st = state()
    rules.place(st, 0, sf.spaces[0])
    assert rules.place(st, 0, sf.spaces[1])[0] == 5


def herd_points(st, p, s):
    """The herd part of a placement's points, as the event log reports it."""
    g = game(st, Scripted(), Scripted(), Scripted(), Scripted())
    g._place(p, s, "turn")
    return g.log[-1]["herd"]


def test_herd_scores_two_per_connected_disc_of_the_region():
    region = BOARD.herd_regions[0]  # a triangle: every two of its spaces touch
    st = state()
    assert [herd_points(st, 0, s) for s in region] == [2, 4, 6]
    st = state(discs={region[1]: 1})  # an opponent's herd in the region: own discs still connect
    assert herd_points(st, 0, region[0]) == 2
    assert herd_points(st, 0, region[2]) == 4


def test_herd_points_add_to_the_score():
    herd = next(s for r in BOARD.herd_regions for s in r if not BOARD.space_cities[s])
    st = state()
    assert rules.place(st, 0, herd)[0] == 2 and st.score[0] == 2


def test_herd_group_counts_only_connected_discs():
    # a region whose three spaces form a line (the middle touches both ends)
    region = next(r for r in BOARD.herd_regions if sorted(len(BOARD.herd_nbrs[s]) for s in r) == [1, 1, 2])
    ends = [s for s in region if len(BOARD.herd_nbrs[s]) == 1]
    middle = next(s for s in region if s not in ends)
    st = state()
    assert herd_points(st, 0, ends[0]) == 2
    assert herd_points(st, 0, ends[1]) == 2  # not connected: 2
    assert herd_points(st, 0, middle) == 6


def test_park_gives_a_marker():
    park = next(s for s in range(1, 121) if BOARD.park[s])
    st = state()
    _, _, took, _ = rules.place(st, 1, park)
    assert took and st.parks == [0, 1] and st.park_markers == 21


# --- base destruction ---------------------------------------------------------------------------


@pytest.mark.parametrize("behind_seat", [0, 1])
def test_base_with_any_disc_behind_is_destroyed_and_kept(behind_seat):
    st = state(discs={C: behind_seat}, bases=[B])
    _, _, _, destroyed = rules.place(st, 0, A)
    assert destroyed == [B] and st.cell[B] == EMPTY and st.bases == [1, 0]


def test_base_without_a_disc_behind_stays():
    st = state(bases=[B, C])
    assert rules.place(st, 0, A)[3] == []
    assert st.cell[B] == BASE


def test_several_bases_destroyed_by_one_placement():
    st = state(discs={A: 1, E: 1}, bases=[B, D])
    _, _, _, destroyed = rules.place(st, 0, C)
    assert sorted(destroyed) == sorted([B, D]) and st.bases[0] == 2


def test_canada_icon_counts_as_a_disc_behind_the_base():
    # space 12 at (2, 1), base on space 3 at (2, 0), an icon at (2, -1) beyond it
    assert (2, -1) in BOARD.icons and BOARD.coords[12] == (2, 1) and BOARD.coords[3] == (2, 0)
    st = state(bases=[3])
    assert rules.place(st, 0, 12)[3] == [3]
    st = state(bases=[3])  # from the side, no icon behind: stays
    side = S(1, 1)
    assert rules.place(st, 0, side)[3] == []


# --- flips and captures ---------------------------------------------------------------------


def test_flip_captures_a_disc_between_the_new_base_and_an_old_one():
    st = state(discs={B: 1}, bases=[A], attacks=[C])
    st.score[1] = 9
    g = game(st, Scripted(), Scripted())
    g.flips()
    assert st.cell[B] == LOST and st.captured == [0, 1] and st.score[1] == 9  # points kept
    assert g.log[-1] == {
        "event": "flip",
        "turn": 1,
        "space": C,
        "captured": [{"space": B, "seat": 1}],
        "protected": [],
    }


def test_old_bases_do_not_capture():
    st = state(discs={B: 0}, bases=[A, C], attacks=[E])
    game(st, Scripted(), Scripted()).flips()
    assert st.cell[B] == 0 and st.captured == [0, 0]


def test_defended_marker_does_not_capture():
    st = state(discs={B: 0, C: 1}, bases=[A])
    game(st, Scripted(), Scripted()).flips()
    assert st.cell[B] == 0


def test_flips_lowest_first_so_the_second_flip_captures():
    st = state(discs={B: 0}, attacks=[A, C])
    assert A < C
    g = game(st, Scripted(), Scripted())
    g.flips()
    flips = [e for e in g.log if e["event"] == "flip"]
    assert [f["space"] for f in flips] == [A, C]
    assert flips[0]["captured"] == [] and flips[1]["captured"] == [{"space": B, "seat": 0}]


def test_protection_keeps_the_disc_once():
    st = state(discs={B: 0, D: 0}, bases=[A, E], attacks=[C])
    owner = Scripted(protect=True)
    g = game(st, owner, Scripted())
    g.flips()
    # C traps B (against A) and D (against E): Protection saves the first asked, then it is spent
    assert st.cell[B] == 0 and st.cell[D] == LOST
    assert not st.powers[0] & PROTECTION
    assert g.log[-1]["protected"] == [{"space": B, "seat": 0}]
    assert owner.offered == [("protect", B)]


def test_declined_protection_stays_unused():
    st = state(discs={B: 0}, bases=[A], attacks=[C])
    game(st, Scripted(protect=False), Scripted()).flips()
    assert st.cell[B] == LOST and st.powers[0] & PROTECTION


# --- turns and special powers ---------------------------------------------------------------


def test_placement_is_mandatory_and_limited_to_open_markers():
    st = state(attacks=[A, C, E, 100])
    with pytest.raises(RuleViolation, match="place"):
        game(st, Scripted(places=[B]), Scripted()).turn(0)


def test_cover_places_on_the_emptied_space_and_scores():
    # seat 0 at C destroys the base on B (seat 1 behind it on A); Cover puts a disc on B
    st = state(discs={A: 1}, bases=[B], attacks=[C, 100])
    seat0 = Scripted(places=[C], powers=[("cover", B)])
    g = game(st, seat0, Scripted())
    g.turn(0)
    assert st.cell[B] == 0 and st.cell[C] == 0 and st.bases[0] == 1 and not st.powers[0] & COVER
    assert seat0.offered[1][1].cover == (B,)
    assert [e["how"] for e in g.log if e["event"] == "place"] == ["turn", "cover"]


def test_cover_is_offered_only_right_after_a_destruction():
    st = state(attacks=[C, 100])
    seat0 = Scripted(places=[C])
    game(st, seat0, Scripted()).turn(0)
    assert seat0.offered[1][1].cover == ()


def test_neighborhood_destroys_a_base_next_to_your_disc_and_scores_it():
    la = BOARD.cities[city("Los Angeles")]
    a, b, c = la.spaces
    st = state(discs={a: 0}, bases=[b], attacks=[c, 100])
    seat0 = Scripted(places=[c], powers=[("neighborhood", b)])
    g = game(st, seat0, Scripted())
    g.turn(0)
    assert st.cell[b] == 0 and st.bases[0] == 1 and not st.powers[0] & NEIGHBORHOOD
    # c scored Los Angeles (2nd disc), b scores it again (3rd disc)
    assert [e["points"] for e in g.log if e["event"] == "place"] == [7, 7]


def test_neighborhood_needs_a_base_next_to_your_disc():
    st = state(bases=[E], attacks=[A, 100])
    with pytest.raises(RuleViolation, match="power"):
        game(st, Scripted(places=[A], powers=[("neighborhood", E)]), Scripted()).turn(0)


def test_extra_turn_then_cover_chain():
    # the extra placement on C destroys the base on B (disc of seat 1 on A); Cover follows
    st = state(discs={A: 1}, bases=[B], attacks=[100, C, 110])
    seat0 = Scripted(places=[100], powers=[("extra_turn", C), ("cover", B)])
    g = game(st, seat0, Scripted())
    g.turn(0)
    assert [e["how"] for e in g.log if e["event"] == "place"] == ["turn", "extra_turn", "cover"]
    assert not st.powers[0] & (EXTRA | COVER) and st.extra_users == 1 and st.open == [110]


def test_at_most_two_players_use_extra_turn_in_a_round():
    st = state(players=3, attacks=[13, 27, 29, 34, 54])
    seats = [
        Scripted(places=[13], powers=[("extra_turn", 27)]),
        Scripted(places=[29], powers=[("extra_turn", 34)]),
        Scripted(places=[54]),
    ]
    g = game(st, *seats)
    for p in range(3):
        g.turn(p)
    assert st.extra_users == 2
    assert seats[2].offered[1][1].extra_turn == ()  # the third player is not offered it


def test_a_player_without_discs_cannot_place():
    st = state(attacks=[A, C, 100, 110])
    st.discs[0] = 0
    g = game(st, Scripted(), Scripted(places=[A]))
    g.turn(0)
    g.turn(1)
    g.flips()
    assert g.log[0] == {"event": "skip", "turn": 1, "seat": 0, "reason": "no discs left"}
    assert st.cell[A] == 1 and st.cell[C] == BASE


def test_power_window_closes_without_discs():
    st = state(discs={A: 1}, bases=[B], attacks=[C, 100])
    st.discs[0] = 1
    seat0 = Scripted(places=[C])
    game(st, seat0, Scripted()).turn(0)
    assert [kind for kind, _ in seat0.offered] == ["place"]


# --- final scoring ------------------------------------------------------------------------------


def test_rulebook_final_scoring_example_39_to_106():
    """Blue: 39 points, City card 2 with 7 value-2 cities, Pacific with 4 discs, 5 parks, 5 bases,
    a group of 19, Global Protection missed (2 value-1 cities, 4 herds, 7 borders) -> 106."""
    counts = {
        "city_cards": 7,
        "border_discs": 4,
        "largest_group": 19,
        "value1_cities": 2,
        "herd_spaces": 4,
        "other_border_spaces": 7,
    }
    pts = rules.mission_points(BOARD, counts, parks=5, bases=5, city_card=2, border_card="pacific")
    assert pts == {
        "city_mission": 22,
        "border_mission": 6,
        "parks": 10,
        "bases": 5,
        "territory": 24,
        "protection": 0,
    }
    assert 39 + sum(pts.values()) == 106


def test_global_protection_needs_all_three():
    base = {
        "city_cards": 0,
        "border_discs": 0,
        "largest_group": 0,
        "value1_cities": 4,
        "herd_spaces": 4,
        "other_border_spaces": 3,
    }
    assert rules.mission_points(BOARD, base, 0, 0, 2, "gulf")["protection"] == 20
    for key in ("value1_cities", "herd_spaces", "other_border_spaces"):
        assert rules.mission_points(BOARD, {**base, key: base[key] - 1}, 0, 0, 2, "gulf")["protection"] == 0


def test_mission_counts_from_a_position():
    la, sf = BOARD.cities[city("Los Angeles")], BOARD.cities[city("San Francisco")]
    pac = sorted(BOARD.borders["pacific"])
    discs = {la.spaces[0]: 0, sf.spaces[0]: 0, pac[0]: 0}
    st = state(discs=discs, borders=["pacific", "gulf"])
    counts = rules.mission_counts(BOARD, st.cell, st.city_cnt[0], 0, 5, "pacific")
    on_pac = sum(1 for s in discs if s in BOARD.borders["pacific"])
    assert counts["city_cards"] == 1 and counts["border_discs"] == on_pac and counts["best_city"] == 7
    assert counts["other_border_spaces"] == sum(
        1 for s in discs if BOARD.border_mask[s] and s not in BOARD.borders["pacific"]
    )


def test_territory_is_the_largest_connected_group():
    st = state(discs={A: 0, B: 0, C: 0, E: 0, 13: 1})
    assert rules.largest_group(BOARD, st.cell, 0) == 3
    assert rules.largest_group(BOARD, st.cell, 1) == 1


@pytest.mark.parametrize(
    "totals, best, expected",
    [
        ([100, 90], [3, 7], [0]),
        ([100, 100, 90], [5, 7, 7], [1]),
        ([100, 100], [5, 5], [0, 1]),
        ([80, 100, 100, 100], [7, 2, 6, 6], [2, 3]),
    ],
)
def test_tie_breaks(totals, best, expected):
    assert rules.winners(totals, best) == expected


@pytest.mark.parametrize("destroyed, earth", [(23, False), (24, True), (30, True)])
def test_semi_coop_verdict(destroyed, earth):
    from simkit.games.alien_attack import ENGINE

    st = state()
    st.bases = [destroyed - destroyed // 2, destroyed // 2]
    st.score = [50, 40]
    record, seats = ENGINE._result(game(st, Scripted(), Scripted()), "semi-coop")
    assert record["won"] is earth and record["end_reason"] == ("earth_wins" if earth else "invasion_succeeds")
    assert [s["won"] for s in seats] == ([True, False] if earth else [False, False])
    record, seats = ENGINE._result(game(st, Scripted(), Scripted()), "standard")
    assert record["won"] is None and [s["won"] for s in seats] == [True, False]
