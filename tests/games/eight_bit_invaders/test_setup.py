"""[Set-Up] and [Difficulty Adjustments]: the starting position and what each setting changes."""

import random
from collections import Counter

import pytest

from simkit.core.registry import get_game
from simkit.games.eight_bit_invaders import components
from simkit.games.eight_bit_invaders.state import EMPTY, new_game

COMP = components.load()


@pytest.mark.parametrize("countdown", [7, 6])
def test_starting_position(countdown):
    state = new_game(COMP, countdown, random.Random(1))
    # five rows of seven, every alien once
    assert len(state.cols) == 7 and all(len(col) == 5 for col in state.cols)
    assert sorted(a for col in state.cols for a in col) == list(range(35))
    assert EMPTY not in (a for col in state.cols for a in col)
    assert state.shields == [1, 3, 5]  # under the second, fourth and sixth columns
    assert (state.countdown, state.track, state.aliens_left, state.turn) == (countdown, 0, 35, 0)
    assert Counter(state.bonus_pile) == Counter(COMP.bonus_deck) and state.hand == [] == state.bonus_discard


def test_the_deal_is_shuffled_and_seeded():
    a, b, c = (new_game(COMP, 7, random.Random(s)) for s in (1, 1, 2))
    assert a.key() == b.key()
    assert a.cols != c.cols and a.bonus_pile != c.bonus_pile


@pytest.mark.parametrize("dice", [6, 5])
def test_attack_dice_setting_sets_the_roll(dice):
    log = get_game("eight-bit-invaders").replay(
        {"countdown": 7, "dice": dice, "data": None}, ["greedy"], 3, 0
    )
    rolls = [e["dice"] for e in log if e["event"] == "roll"]
    assert rolls and all(len(r) == dice for r in rolls)  # greedy plays no Rapid Fire


@pytest.mark.parametrize("countdown", [7, 6])
def test_countdown_setting_sets_the_cards(countdown):
    log = get_game("eight-bit-invaders").replay(
        {"countdown": countdown, "dice": 6, "data": None}, ["greedy"], 3, 1
    )
    assert next(e for e in log if e["event"] == "turn")["countdown"] == countdown
