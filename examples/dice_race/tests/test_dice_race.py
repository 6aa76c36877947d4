"""The dice race's own tests: simkit's contract kit, then the race's own rules."""

from __future__ import annotations

from simkit_dice_race import ENGINE

from simkit.core.registry import all_games
from simkit.testing import contract


def round_one_dice(events):
    """The deal: every seat's round-1 dice (rolled whatever the seat chose)."""
    return [e["dice"] for e in events if e["event"] == "turn" and e["round"] == 1]


def outcome(events):
    end = events[-1]
    return {
        "end_reason": end["reason"],
        "winning_seat": end["winner"],
        "length": end["round"],
        "seats": [{"score": p} for p in end["positions"]],
    }


def test_registered_through_the_entry_point():
    assert ENGINE in all_games()


def test_keeps_the_contract():
    contract.check_all(
        ENGINE,
        deal=round_one_dice,
        deal_variants=[
            ({"players": 3}, s) for s in (("safe",) * 3, ("risky",) * 3, ("random", "safe", "risky"))
        ],
        outcome=outcome,
    )


def test_lands_exactly_or_stays():
    for i in range(200):
        events = ENGINE.replay({"players": 2 + i % 3}, ["random"] * (2 + i % 3), 5, i)
        for e in events:
            if e["event"] == "turn":
                move = sum(e["dice"][: e["used"]])
                assert e["to"] == (e["from"] if e["overshoot"] else e["from"] + move) <= 20
                assert e["overshoot"] == (e["from"] + move > 20)
        end = events[-1]
        assert (end["winner"] is not None) == (20 in end["positions"])


def test_the_winner_is_the_only_seat_that_won():
    for i in range(50):
        result = ENGINE.play({"players": 4}, ["risky", "safe", "random", "safe"], 6, i)
        winners = [k for k, s in enumerate(result.seats) if s["won"]]
        assert winners == ([] if result.record["winning_seat"] is None else [result.record["winning_seat"]])
