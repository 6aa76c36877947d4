"""Set-up, missions, hands and the planning protocol (game.py), and the registered engine."""

from __future__ import annotations

import random

import pytest

from simkit.core.errors import UserError
from simkit.core.registry import get_game, resolve_settings
from simkit.games.space_alert import ENGINE, game
from simkit.games.space_alert.state import BB, EMPTY, HA, LIFT, RED, A, B, C
from tests.games.space_alert.helpers import COMP


def settings(**kw):
    """The engine's typed parameters: these settings, the others at their defaults."""
    return ENGINE.params(kw)


@pytest.mark.parametrize(
    ("mission", "figures", "level"),
    [("test", 4, 3), ("simulation", 4, 5), ("simulation", 5, 6), ("real", 4, 7), ("real", 5, 8)],
)
def test_random_missions_have_the_threat_level(mission, figures, level):
    for seed in range(30):
        setup = game.deal(
            COMP, settings(mission=mission, figures=figures, players=figures), random.Random(seed)
        )
        total = sum(2 if COMP.by_id[k.id].deck == "serious" else 1 for k in setup.threats)
        assert total == level
        turns = [k.turn for k in setup.threats]
        assert len(set(turns)) == len(turns) and all(1 <= t <= 8 for t in turns)
        internal = [k for k in setup.threats if k.zone == 3]
        assert 1 <= len(internal) <= 2


def test_threat_windows():
    for seed in range(50):
        for k in game.deal(COMP, settings(), random.Random(seed)).threats:
            card = COMP.by_id[k.id]
            lo, hi = {
                (True, False): (1, 8), (True, True): (2, 7), (False, False): (2, 7), (False, True): (3, 6)
            }[(card.external, card.deck == "serious")]  # fmt: skip
            assert lo <= k.turn <= hi


@pytest.mark.parametrize("colour", ["white", "yellow"])
def test_decks_follow_the_colour(colour):
    for seed in range(20):
        setup = game.deal(COMP, settings(common=colour, serious=colour), random.Random(seed))
        assert {COMP.by_id[k.id].colour for k in setup.threats} == {colour}


def test_transcribed_mission_and_unconfirmed_reports():
    four = game.deal(COMP, settings(mission="7"), random.Random(1))
    five = game.deal(COMP, settings(mission="7", figures=5, players=5), random.Random(1))
    assert [k.turn for k in four.threats] == [3, 4, 5, 7, 8]
    assert [k.turn for k in five.threats] == [1, 3, 4, 5, 7, 8]  # the unconfirmed T1 blue
    assert [k.zone for k in five.threats] == [2, 0, 3, 1, 0, 1]


def test_trajectories_are_four_distinct_boards():
    setup = game.deal(COMP, settings(), random.Random(3))
    assert len(set(setup.trajectories.values())) == 4


@pytest.mark.parametrize(
    ("humans", "figures", "sizes"),
    [(4, 4, (5, 5, 5)), (3, 4, (6, 6, 6)), (2, 4, (9, 6, 6)), (5, 5, (6, 5, 5)), (2, 5, (10, 6, 6))],
)
def test_hand_sizes(humans, figures, sizes):
    assert game.hand_sizes(humans, figures) == sizes


def test_dealt_hands_and_androids():
    setup = game.deal(COMP, settings(mission="4", players=2), random.Random(5))  # 3 incoming data
    assert [len(h) for h in setup.hands[0]] == [9 - 1 + 2, 6 + 1, 6]
    assert setup.hands[2] == [[], [], []] and setup.hands[3] == [[], [], []]  # androids: heroic only
    assert len(setup.heroic) == 4


class Fixed:
    def __init__(self, answer):
        self.answer = answer

    def plan(self, view):
        return self.answer(view)


def test_plan_must_use_cards_in_hand():
    setup = game.deal(COMP, settings(), random.Random(2))
    setup.hands[0][0] = [(RED, A), (LIFT, B)]
    crew = [
        Fixed(lambda v: [C, EMPTY, EMPTY] if v.figure == 0 and v.phase == 0 else [EMPTY] * len(v.turns))
    ] + [Fixed(lambda v: [EMPTY] * len(v.turns)) for _ in range(3)]
    with pytest.raises(game.RuleViolation, match="figure 0"):
        game.plan_mission(COMP, settings(), setup, crew)


def test_plan_uses_either_half_once():
    setup = game.deal(COMP, settings(), random.Random(2))
    setup.hands[0][0] = [(RED, A), (LIFT, B)]
    first = [Fixed(lambda v: [RED, B, EMPTY] if v.phase == 0 else [EMPTY] * len(v.turns))]
    crew = first + [Fixed(lambda v: [EMPTY] * len(v.turns)) for _ in range(3)]
    plans = game.plan_mission(COMP, settings(), setup, crew)
    assert plans[0][:3] == [RED, B, EMPTY]
    first = [Fixed(lambda v: [RED, A, EMPTY] if v.phase == 0 else [EMPTY] * len(v.turns))]
    with pytest.raises(game.RuleViolation):
        game.plan_mission(COMP, settings(), setup, first + crew[1:])


def test_plan_wrong_length_or_code():
    setup = game.deal(COMP, settings(hands="free"), random.Random(2))
    for bad in ([A], [A, A, 99], ["A", A, A]):
        crew = [Fixed(lambda v, bad=bad: bad) for _ in range(4)]
        with pytest.raises(game.RuleViolation, match="plan"):
            game.plan_mission(COMP, settings(hands="free"), setup, crew)


def test_heroic_card_once():
    setup = game.deal(COMP, settings(hands="free"), random.Random(2))
    code = setup.heroic[0][1]
    crew = [Fixed(lambda v: [code] * len(v.turns))] + [
        Fixed(lambda v: [EMPTY] * len(v.turns)) for _ in range(3)
    ]
    with pytest.raises(game.RuleViolation, match="heroic"):
        game.plan_mission(COMP, settings(hands="free"), setup, crew)
    wrong = [Fixed(lambda v: [HA if setup.heroic[0][1] != HA else BB + 6] + [EMPTY] * (len(v.turns) - 1))]
    with pytest.raises(game.RuleViolation, match="heroic"):
        game.plan_mission(COMP, settings(hands="free"), setup, wrong + crew[1:])


def test_views_see_only_announced_threats():
    seen = []

    class Spy:
        def plan(self, view):
            seen.append((view.phase, max((k.turn for k in view.threats), default=0)))
            assert not hasattr(view, "tiles")
            return [EMPTY] * len(view.turns)

    setup = game.deal(COMP, settings(), random.Random(4))
    game.plan_mission(COMP, settings(hands="free"), setup, [Spy() for _ in range(4)])
    assert all(turn <= (4, 8, 12)[p] for p, turn in seen)


def test_engine_settings_and_players_over_figures():
    engine = get_game("space-alert")
    with pytest.raises(UserError, match="test: space-alert: players = 5 exceeds figures = 4"):
        resolve_settings(engine, {"mission": "3", "players": 5, "figures": 4}, "test")  # refused up front
    s = resolve_settings(engine, {"mission": 3, "players": 4, "figures": 4}, "test")  # an int names a mission
    assert s["mission"] == "3"
    with pytest.raises(UserError, match="exceeds figures"):
        engine.play({**s, "players": 5}, ["scripted"], 1, 0)  # and in the engine itself
    with pytest.raises(UserError):
        resolve_settings(engine, {"mission": "9"}, "test")


@pytest.mark.parametrize(("players", "figures"), [(1, 4), (4, 4), (5, 5)])
def test_figures_follow_the_players_unless_set(players, figures):
    engine = get_game("space-alert")
    resolved = resolve_settings(engine, {"players": players}, "test")
    assert resolved["figures"] == figures
    assert list(resolved) == [s.name for s in engine.settings]  # declared order, for the manifest
    assert engine.params({"players": players}).figures == figures  # play() without resolving too
    assert resolve_settings(engine, {"players": 2, "figures": 5}, "test")["figures"] == 5
    result = engine.play({"players": 5}, ["scripted"], 1, 0).record
    assert result["length"] > 0


@pytest.mark.parametrize("strategy", ["random", "scripted"])
@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"mission": "test"},
        {"mission": "5"},
        {"players": 1},
        {"players": 2, "figures": 5},
        {"hands": "free"},
        {"common": "yellow", "serious": "mixed"},
        {"error_rate": 0.3},
        {"campaign": 3},
    ],
)
def test_engine_plays(strategy, extra):
    engine = get_game("space-alert")
    s = resolve_settings(engine, extra, "test")
    rec = engine.play(s, [strategy], 7, 3).record
    assert {"won", "score", "length", "end_reason"} <= set(rec)
    assert rec["end_reason"] in ("survived", "zone_destroyed", "threat_destroyed_ship")
    assert all(isinstance(v, (bool, int, float, str)) for v in rec.values())
    assert rec == engine.play(s, [strategy], 7, 3).record


def test_campaign_carries_damage():
    engine = get_game("space-alert")
    s = resolve_settings(engine, {"campaign": 3, "mission": "test", "hands": "free"}, "test")
    recs = [engine.play(s, ["scripted"], 11, i).record for i in range(20)]
    assert any(r["campaign_missions"] == 3 for r in recs)
    assert all(1 <= r["campaign_missions"] <= 3 for r in recs)


def test_campaign_record_lists_every_missions_threats():
    engine = get_game("space-alert")
    one = resolve_settings(engine, {"mission": "test", "hands": "free"}, "test")
    three = resolve_settings(engine, {"campaign": 3, "mission": "test", "hands": "free"}, "test")
    for i in range(20):
        rec = engine.play(three, ["scripted"], 11, i).record
        ids = rec["threat_ids"].split(",")
        assert len(ids) == rec["threats"]
        assert rec["threats_destroyed"] == len(list(filter(None, rec["destroyed_ids"].split(","))))
        assert rec["threats_survived"] == len(list(filter(None, rec["survived_ids"].split(","))))
        assert rec["threats_destroyed"] + rec["threats_survived"] <= rec["threats"]
        if rec["campaign_missions"] == 3:
            # the first mission's threats lead the list: the same deal as a single mission
            first = engine.play(one, ["scripted"], 11, i).record["threat_ids"].split(",")
            assert ids[: len(first)] == first
            assert len(ids) > len(first)


def test_data_transfer_moves_one_card_between_humans():
    setup = game.deal(COMP, settings(mission="1"), random.Random(6))  # 3 transfers: phases 1, 2, 1
    assert setup.transfers == [2, 1, 0]
    setup.hands[0][0] = [(RED, A), (LIFT, B), (RED, C), (LIFT, C)]
    setup.hands[1][0] = [(RED, BB)]

    class Giver:
        def __init__(self, f):
            self.f = f

        def transfer(self, view):
            return (0, 1) if view.figure == 0 and view.hand else None

        def plan(self, view):
            if view.figure == 1 and view.phase == 0:
                assert len(view.hand) == 1 + 2 + 1  # its card, two gifts, its heroic card
            return [EMPTY] * len(view.turns)

    game.plan_mission(COMP, settings(mission="1"), setup, [Giver(f) for f in range(4)])


def test_bad_transfer_is_refused():
    setup = game.deal(COMP, settings(mission="1"), random.Random(6))

    class Bad:
        def transfer(self, view):
            return (0, view.figure)  # to itself

        def plan(self, view):
            return [EMPTY] * len(view.turns)

    with pytest.raises(game.RuleViolation, match="transfer"):
        game.plan_mission(COMP, settings(mission="1"), setup, [Bad() for _ in range(4)])


@pytest.mark.parametrize("extra", [{}, {"players": 2, "figures": 5, "mission": "2"}, {"hands": "free"}])
def test_planner_plays_legal_deterministic_games(extra):
    engine = get_game("space-alert")
    s = resolve_settings(engine, extra, "test")
    a = engine.play(s, ["planner"], 5, 1).record
    assert a == engine.play(s, ["planner"], 5, 1).record
    assert engine.play(s, ["scripted"], 5, 1).record["threat_ids"] == a["threat_ids"]


def test_planner_never_sees_the_real_tiles():
    from simkit.games.space_alert import players

    p = players.PlannerPlayer(random.Random(1), steps=5, samples=1)
    setup = game.deal(COMP, settings(hands="free"), random.Random(9))
    plans = game.plan_mission(
        COMP,
        settings(hands="free"),
        setup,
        [p] + [players.ScriptedPlayer(random.Random(k)) for k in range(3)],
    )
    assert setup.tiles == [[], [], []] and len(plans[0]) == 12


def test_an_unrepaired_squad_stays_off_the_board_until_repaired():
    """[RB 9:34] "Any unrepaired battlebots squad isn't placed on the board in the next mission":
    a squad disabled in mission 1 and not repaired (every figure knocked out) misses mission 2,
    and, still unrepaired, mission 3 too; a figure standing at the end of a mission repairs it."""
    from tests.games.space_alert.helpers import TILES, make

    fresh = [list(TILES) for _ in range(3)]
    st, _ = make(figures=4)
    st.bots_disabled[0] = True
    st.knocked = [True] * 4
    carry = game._repair(COMP, st, 4, fresh)
    assert carry["disabled"] == [True, False]

    second, _ = make(figures=4)
    game._apply_carry(COMP, second, carry)
    assert second.bots_at[0] == -2 and not second.bots_disabled[0]  # off the board, not "disabled" there
    second.knocked = [True] * 4
    assert game._repair(COMP, second, 4, fresh)["disabled"] == [True, False]  # still off in mission 3

    second.knocked = [False, True, True, True]
    assert game._repair(COMP, second, 4, fresh)["disabled"] == [False, False]  # repaired: back
