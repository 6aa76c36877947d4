"""Invariants over many seeded whole games, checked from the event log at every step."""

import random

import pytest

from simkit.core.registry import get_game
from simkit.games.eight_bit_invaders import components, rules
from simkit.games.eight_bit_invaders.state import new_game

ENGINE = get_game("eight-bit-invaders")
COMP = components.load()
BY_LABEL = {}
for alien in COMP.aliens:
    BY_LABEL.setdefault(alien.label, alien)


def check_log(events, countdown):
    turns = [e for e in events if e["event"] == "turn"]
    assert events[-1]["event"] == "end" and events[-1]["reason"] in ("cleared", "shot_down", "landed")
    assert len(turns) <= 200, "a game ends within 200 turns"
    previous_aliens, previous_countdown = 35, countdown
    for snap in turns:
        alive = sum(1 for row in snap["formation"] for a in row if a is not None)
        assert alive == snap["aliens_left"] <= previous_aliens
        assert 1 <= snap["countdown"] <= previous_countdown
        assert 0 <= snap["track"] < max(snap["aliens_left"], 1) or snap["track"] == 0
        shields = snap["shields"]
        assert len(shields) <= 3 and shields == sorted(set(shields)) and all(1 <= s <= 7 for s in shields)
        previous_aliens, previous_countdown = snap["aliens_left"], snap["countdown"]
    for e in events:
        if e["event"] == "kill":
            assert rules.matches(BY_LABEL[e["alien"]], e["dice"]), e
        elif e["event"] == "counterattack":
            assert e["lethal"] == (max(e["unshielded_by_type"].values(), default=0) >= 3)
            assert e["depth"] == rules.firing_depth(e["columns"])
        elif e["event"] == "roll":
            assert all(1 <= d <= 6 for d in e["dice"])
        elif e["event"] == "movement":
            expected = e["track_before"] + e["sum"]
            if e["countdown_removed"]:
                assert expected >= e["aliens_left"] and e["track_after"] == 0
            else:
                assert expected < e["aliens_left"] and e["track_after"] == expected


@pytest.mark.parametrize("strategy, games", [("random", 600), ("greedy", 250), ("lookahead", 40)])
def test_invariants_hold_at_every_step(strategy, games):
    for i in range(games):
        countdown, dice = (7, 6) if i % 2 else (6, 5)
        check_log(
            ENGINE.replay({"countdown": countdown, "dice": dice, "data": None}, [strategy], 100, i), countdown
        )


def test_state_copy_is_equal_and_independent():
    state = new_game(COMP, 7, random.Random(3))
    copy = state.copy()
    assert copy.key() == state.key()
    copy.cols[0][0] = -1
    copy.shields.pop()
    copy.hand.append("extra_life")
    assert state.cols[0][0] != -1 and len(state.shields) == 3 and state.hand == []


def test_same_deal_and_dice_under_every_difficulty():
    """Common random numbers: game i shows the same formation and first roll in every cell."""
    logs = [
        ENGINE.replay({"countdown": c, "dice": d, "data": None}, ["greedy"], 8, 2)
        for c in (7, 6)
        for d in (6, 5)
    ]
    firsts = [next(e for e in log if e["event"] == "turn")["formation"] for log in logs]
    rolls = [next(e for e in log if e["event"] == "roll")["dice"] for log in logs]
    assert all(f == firsts[0] for f in firsts)
    assert rolls[0] == rolls[2] and rolls[1] == rolls[3] == rolls[0][:5]


BY_FACE = {(COMP.types[a.type], a.label): i for i, a in enumerate(COMP.aliens)}


def formation_from_log(snapshot):
    """cols[c][r] (r = 0 bottom) from a logged formation (rows top first, "type label" or null)."""
    rows = snapshot["formation"]
    cols = [[-1] * len(rows) for _ in range(len(rows[0]))]
    for top, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is not None:
                kind, label = cell.split(" ", 1)
                cols[c][len(rows) - 1 - top] = BY_FACE[(kind, label)]
    return cols


@pytest.mark.parametrize("strategy, games", [("greedy", 60), ("lookahead", 12), ("random", 60)])
def test_every_attack_can_be_rechecked_from_the_log_alone(strategy, games):
    """From each turn's logged formation, shields and final dice, the logged placement is legal,
    the logged kills are exactly the aliens whose dice match, and the logged counterattack and
    bombers follow from the formation after the kills."""
    placed = attacks = 0
    for i in range(games):
        events = ENGINE.replay({"countdown": 7, "dice": 6, "data": None}, [strategy], 55, i)
        turns: dict[int, list] = {}
        for e in events:
            turns.setdefault(e["turn"], []).append(e)
        for turn in turns.values():
            snap = next((e for e in turn if e["event"] == "turn"), None)
            if snap is None:
                continue
            cols = formation_from_log(snap)
            shields = [s - 1 for s in snap["shields"]]
            traded = [e["column"] - 1 for e in turn if e["event"] == "trade_shield"]
            shields = [s for s in shields if s not in traded]
            dice = [e for e in turn if e["event"] in ("roll", "time_slip", "smart_bomb")][-1]["dice"]
            rows = len(cols[0])
            placement = tuple(
                (e["die"], e["column"] - 1, rows - e["row"]) for e in turn if e["event"] == "place"
            )
            assert rules.placement_error(cols, shields, dice, placement) is None
            placed += len(placement)
            killed = [(e["column"] - 1, rows - e["row"]) for e in turn if e["event"] == "kill"]
            assert killed == rules.kills(cols, COMP.aliens, dice, placement)
            for c, r in killed:
                cols[c][r] = -1
            attack = next((e for e in turn if e["event"] == "counterattack"), None)
            if attack is not None:
                attacks += 1
                counts = rules.unshielded_type_counts(cols, shields, COMP.aliens, len(COMP.types))
                expected = {COMP.types[t]: n for t, n in enumerate(counts) if n}
                assert attack["unshielded_by_type"] == expected
                bombed = sorted(e["shield_destroyed"] - 1 for e in turn if e["event"] == "bomber")
                if not attack["lethal"] or any(e["event"] == "extra_life" for e in turn):
                    assert bombed == rules.bombed_shields(cols, shields, COMP.aliens)
    assert placed > 2 * games and attacks > games  # the check ran on real turns
