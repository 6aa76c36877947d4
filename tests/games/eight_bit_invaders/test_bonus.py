"""8-Bit Invaders: trading shields for bonus cards ([A1]), the bonus cards, and what happens when
the player answers something the rules do not allow (`game.RuleViolation`).

Dice are scripted: a `Scripted` stream yields chosen faces (the engine draws a die as
`int(random() * 6) + 1`; each turn it draws 9 attack dice and 2 movement dice).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from simkit.games.eight_bit_invaders import components, game
from simkit.games.eight_bit_invaders.state import EMPTY, State
from tests.games.eight_bit_invaders.scripted import Scripted

COMP = components.load()
ALIENS = COMP.aliens
ROWS, COLUMNS = COMP.rows, COMP.columns
ROLL = (1, 2, 3, 4, 5, 6, 6, 5, 4)  # one turn of attack dice: the first 6 are used without Rapid Fire


def alien(label: str) -> int:
    return next(i for i, a in enumerate(ALIENS) if a.label == label)


def of_type(name: str) -> list[int]:
    t = COMP.types.index(name)
    return [i for i, a in enumerate(ALIENS) if a.type == t and not a.bomber]


def safe_formation() -> list[list[int]]:
    """Seven columns with one alien each on the bottom row, two of a type at most, so no
    counterattack is lethal: squid, squid, crab, skull "5 6" (column 4), crab, octopus, octopus."""
    bottom = (
        of_type("squid")[1:3]
        + of_type("crab")[:1]
        + [alien("5 6")]
        + of_type("crab")[1:2]
        + of_type("octopus")[:2]
    )
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    for c, a in enumerate(bottom):
        cols[c][0] = a
    return cols


def lethal_formation() -> list[list[int]]:
    cols = safe_formation()
    cols[2][0] = of_type("squid")[3]  # a third squid on the bottom row, in place of a crab
    return cols


class Player:
    """A scripted player. Decisions named in `forbid` must not be asked at all."""

    def __init__(self, trade=None, rapid=0, adjust=(), allocation=(), fuel=False, forbid=()) -> None:
        self.trade = trade
        self.rapid = rapid
        self.adjust = list(adjust)
        self.allocation = allocation
        self.fuel = fuel
        self.forbid = set(forbid)
        self.asked: dict[str, list] = {}

    def _ask(self, name: str, *args) -> None:
        assert name not in self.forbid, f"the engine asked {name} when it should not"
        self.asked.setdefault(name, []).append(args)

    def trade_shield(self, view):
        self._ask("trade_shield")
        return self.trade.pop(0) if isinstance(self.trade, list) else self.trade

    def rapid_fire(self, view):
        self._ask("rapid_fire")
        return self.rapid

    def adjust_roll(self, view, dice):
        self._ask("adjust_roll", dice)
        return self.adjust.pop(0) if self.adjust else None

    def allocate(self, view, dice):
        self._ask("allocate", dice)
        return self.allocation

    def rocket_fuel(self, view):
        self._ask("rocket_fuel")
        return self.fuel


def make_game(
    state: State, player: Player, attack=(), movement=(), misc=(), attack_dice=6, misc_fallback=None
) -> game.Game:
    streams = game.Streams(
        random.Random(0), Scripted(attack), Scripted(movement), Scripted(misc, misc_fallback)
    )
    g = game.Game(COMP, 7, attack_dice, player, streams)
    g.state = state
    return g


def state_of(cols=None, shields=(1, 3, 5), pile=(), discard=(), hand=(), countdown=7, track=0) -> State:
    return State(
        cols if cols is not None else safe_formation(),
        list(shields),
        countdown,
        list(pile),
        track=track,
        hand=list(hand),
        bonus_discard=list(discard),
    )


# --- [A1] trading a shield for a bonus card --------------------------------------------------------


def test_trading_a_shield_draws_the_top_bonus_card():
    g = make_game(state_of(pile=["time_slip", "rocket_fuel"], hand=["smart_bomb"]), Player(trade=3))
    g._trade_shield()
    s = g.state
    assert s.shields == [1, 5]  # the traded shield is gone
    assert s.hand == ["smart_bomb", "rocket_fuel"]  # top of the pile = end of the list
    assert s.bonus_pile == ["time_slip"] and s.bonus_discard == []
    assert (g.stats["shields_traded"], g.stats["bonus_drawn"]) == (1, 1)


def test_declining_to_trade_changes_nothing():
    g = make_game(state_of(pile=["time_slip"]), Player(trade=None))
    before = g.state.key()
    g._trade_shield()
    assert g.state.key() == before
    assert len(g.player.asked["trade_shield"]) == 1


def test_no_shield_no_trade_question():
    g = make_game(state_of(shields=(), pile=["time_slip"]), Player(forbid={"trade_shield"}))
    g._trade_shield()
    assert g.state.hand == [] and g.state.bonus_pile == ["time_slip"]


def test_empty_pile_reshuffles_the_discards():
    discards = ["smart_bomb", "time_slip", "extra_life"]
    g = make_game(state_of(discard=discards), Player(trade=1), misc_fallback=0.3)
    g._trade_shield()
    s = g.state
    assert s.shields == [3, 5]
    assert len(s.hand) == 1 and s.bonus_discard == []
    assert Counter(s.hand + s.bonus_pile) == Counter(discards)


def test_empty_pile_and_discards_give_no_card():
    g = make_game(state_of(pile=(), discard=()), Player(trade=5))
    g._trade_shield()
    assert g.state.shields == [1, 3]
    assert g.state.hand == [] and g.stats["bonus_drawn"] == 0


def test_trading_a_shield_that_does_not_exist_is_a_violation():
    g = make_game(state_of(pile=["time_slip"]), Player(trade=2))
    with pytest.raises(game.RuleViolation):
        g._trade_shield()
    assert g.state.shields == [1, 3, 5] and g.state.hand == []


def test_cards_are_kept_until_used():
    # Turn 1: trade a shield for a Smart Bomb and keep it; turn 2: the player still holds it.
    # 7 aliens, track 6, countdown 2: movement 0+1 removes a card on turn 1, 5+5 lands on turn 2.
    player = Player(trade=[1, None])
    g = make_game(
        state_of(pile=["smart_bomb"], countdown=2, track=6), player, attack=ROLL * 2, movement=(1, 2, 6, 6)
    )
    g.play()
    assert g.state.end_reason == "landed" and g.state.turn == 2
    assert g.state.hand == ["smart_bomb"]
    assert len(player.asked["adjust_roll"]) == 2  # asked after each roll while the card is held


# --- Rapid Fire ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack_dice", "played"),
    [(6, 0), (6, 1), (6, 2), (6, 3), (5, 3)],
    ids=[
        "6-dice-none-played",
        "6-dice-one-card",
        "6-dice-two-cards",
        "6-dice-three-cards-9-dice",
        "5-dice-three-cards",
    ],
)
def test_rapid_fire_adds_one_die_per_card(attack_dice, played):
    g = make_game(
        state_of(hand=["rapid_fire"] * 3), Player(rapid=played), attack=ROLL, attack_dice=attack_dice
    )
    dice = g._roll_attack()
    assert dice == list(ROLL[: attack_dice + played])
    assert g.state.hand.count("rapid_fire") == 3 - played
    assert g.state.bonus_discard == ["rapid_fire"] * played


def test_rapid_fire_not_asked_without_the_card():
    g = make_game(state_of(hand=["time_slip"]), Player(forbid={"rapid_fire"}), attack=ROLL)
    assert len(g._roll_attack()) == 6


@pytest.mark.parametrize(("held", "played"), [(1, 2), (3, 4), (2, -1)], ids=["2-of-1", "4-of-3", "negative"])
def test_rapid_fire_more_than_held_is_a_violation(held, played):
    g = make_game(state_of(hand=["rapid_fire"] * held), Player(rapid=played), attack=ROLL)
    with pytest.raises(game.RuleViolation):
        g._roll_attack()


def test_rapid_fire_dice_take_part_in_the_attack():
    # The only alien is "4 5" in column 4; dice 7 and 8 (faces 5 and 4) exist only with two cards.
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    cols[3][0] = alien("4 5")
    player = Player(rapid=2, allocation=((6, 3, 0), (7, 3, 0)))
    g = make_game(
        state_of(cols, shields=(), hand=["rapid_fire"] * 2), player, attack=(1, 1, 1, 1, 1, 1, 5, 4, 6)
    )
    result = g.play()
    assert result["end_reason"] == "cleared"
    assert player.asked["allocate"] == [((1, 1, 1, 1, 1, 1, 5, 4),)]


# --- Time Slip and Smart Bomb ----------------------------------------------------------------------

ADJUST = {
    "time-slip-rerolls-chosen-dice": (["time_slip"], [("time_slip", (0, 2))], (6, 6), [6, 2, 6, 4, 5, 6], []),
    "time-slip-rerolls-every-die": (
        ["time_slip"],
        [("time_slip", (0, 1, 2, 3, 4, 5))],
        (3,) * 6,
        [3] * 6,
        [],
    ),
    "time-slip-rerolls-no-die": (["time_slip"], [("time_slip", ())], (), [1, 2, 3, 4, 5, 6], []),
    "time-slip-declined-keeps-card": (["time_slip"], [None], (), [1, 2, 3, 4, 5, 6], ["time_slip"]),
    "two-time-slips-one-after-the-other": (
        ["time_slip", "time_slip"],
        [("time_slip", (5,)), ("time_slip", (5,))],
        (2, 3),
        [1, 2, 3, 4, 5, 3],
        [],
    ),
    "smart-bomb-then-time-slip": (
        ["smart_bomb", "time_slip"],
        [("smart_bomb", 0), ("time_slip", (1,))],
        (4,),
        [6, 4, 3, 4, 5, 6],
        [],
    ),
    "time-slip-then-keep-smart-bomb": (
        ["smart_bomb", "time_slip"],
        [("time_slip", (1,)), None],
        (4,),
        [1, 4, 3, 4, 5, 6],
        ["smart_bomb"],
    ),
}


@pytest.mark.parametrize(
    ("hand", "actions", "rerolls", "dice", "hand_after"), ADJUST.values(), ids=ADJUST.keys()
)
def test_adjusting_the_roll(hand, actions, rerolls, dice, hand_after):
    g = make_game(state_of(hand=hand), Player(adjust=actions), attack=ROLL, misc=rerolls)
    assert g._roll_attack() == dice
    assert g.state.hand == hand_after
    assert Counter(g.state.bonus_discard) == Counter(hand) - Counter(hand_after)
    assert g.streams.misc.used == len(rerolls)  # every scripted re-roll was drawn, no more


@pytest.mark.parametrize("face", range(1, 7), ids=[f"face-{f}" for f in range(1, 7)])
def test_smart_bomb_flips_one_die_to_its_opposite_face(face):
    attack = (2, 2, 2, face, 2, 2, 2, 2, 2)
    g = make_game(state_of(hand=["smart_bomb"]), Player(adjust=[("smart_bomb", 3)]), attack=attack)
    assert g._roll_attack() == [2, 2, 2, 7 - face, 2, 2]
    assert g.state.hand == [] and g.state.bonus_discard == ["smart_bomb"]


def test_adjust_not_asked_without_time_slip_or_smart_bomb():
    g = make_game(state_of(hand=["extra_life", "rocket_fuel"]), Player(forbid={"adjust_roll"}), attack=ROLL)
    assert g._roll_attack() == list(ROLL[:6])


ILLEGAL_ADJUST = {
    "smart-bomb-not-held": (["time_slip"], ("smart_bomb", 0)),
    "time-slip-not-held": (["smart_bomb"], ("time_slip", (0,))),
    "extra-life-is-not-a-roll-card": (["time_slip", "extra_life"], ("extra_life", 0)),
    "smart-bomb-die-out-of-range": (["smart_bomb"], ("smart_bomb", 6)),
    "time-slip-die-out-of-range": (["time_slip"], ("time_slip", (6,))),
    "time-slip-same-die-twice": (["time_slip"], ("time_slip", (1, 1))),
}


@pytest.mark.parametrize(("hand", "action"), ILLEGAL_ADJUST.values(), ids=ILLEGAL_ADJUST.keys())
def test_illegal_roll_adjustment_is_a_violation(hand, action):
    g = make_game(state_of(hand=hand), Player(adjust=[action]), attack=ROLL)
    with pytest.raises(game.RuleViolation):
        g._roll_attack()


MALFORMED_ADJUST = {
    "time-slip-with-a-bare-index": (["time_slip"], ("time_slip", 3)),
    "smart-bomb-without-a-die": (["smart_bomb"], ("smart_bomb",)),
}


@pytest.mark.parametrize(("hand", "action"), MALFORMED_ADJUST.values(), ids=MALFORMED_ADJUST.keys())
def test_malformed_roll_adjustment_is_a_violation(hand, action):
    g = make_game(state_of(hand=hand), Player(adjust=[action]), attack=ROLL)
    with pytest.raises(game.RuleViolation):
        g._roll_attack()


# --- Extra Life ------------------------------------------------------------------------------------


def test_extra_life_saves_the_ship_once():
    g = make_game(
        state_of(lethal_formation(), shields=(), hand=["extra_life"]),
        Player(),
        attack=ROLL * 2,
        movement=(1, 1),
    )
    result = g.play()
    assert result["end_reason"] == "shot_down" and result["length"] == 2  # saved on turn 1 only
    assert result["extra_life"] == 1 and g.state.hand == [] and g.state.bonus_discard == ["extra_life"]


def test_extra_life_cannot_prevent_landing():
    g = make_game(
        state_of(shields=(), countdown=1, hand=["extra_life"]), Player(), attack=ROLL, movement=(6, 6)
    )
    result = g.play()
    assert result["end_reason"] == "landed" and g.state.hand == ["extra_life"]


# --- Rocket Fuel -----------------------------------------------------------------------------------

# (player uses it, movement dice drawn) -> (track advance, shields after, card still held).
# The shields follow the parity of the face rolled, not of the advance (RULINGS §3): a 4 advances
# the track 3 and moves them left, a 1 advances 0 and moves them right.
ROCKET = {
    "fuel-four-advances-three-moves-left": (True, (4, 6), 3, [0, 2, 4], False),
    "fuel-one-advances-zero-moves-right": (True, (1, 6), 0, [2, 4, 6], False),
    "fuel-six-advances-five-moves-left": (True, (6, 1), 5, [0, 2, 4], False),
    "fuel-three-advances-two-moves-right": (True, (3, 2), 2, [2, 4, 6], False),
    "fuel-kept-rolls-two-dice": (False, (4, 6), 8, [0, 2, 4], True),
    "two-dice-odd-faces-move-right": (False, (4, 5), 7, [2, 4, 6], True),
}


@pytest.mark.parametrize(("use", "dice", "advance", "shields", "kept"), ROCKET.values(), ids=ROCKET.keys())
def test_rocket_fuel(use, dice, advance, shields, kept):
    cols = safe_formation()
    for col in cols:  # 21 aliens: the track never reaches them here
        col[1] = col[2] = col[0]
    g = make_game(state_of(cols, hand=["rocket_fuel"]), Player(fuel=use), movement=dice)
    assert g._movement() is False
    assert g.state.track == advance
    assert g.state.shields == shields
    assert ("rocket_fuel" in g.state.hand) is kept
    assert g.state.bonus_discard == ([] if kept else ["rocket_fuel"])


def test_rocket_fuel_not_asked_without_the_card():
    g = make_game(state_of(hand=["time_slip"]), Player(forbid={"rocket_fuel"}), movement=(2, 3))
    g._movement()
    assert g.state.track == 3


# --- illegal placements ------------------------------------------------------------------------------

ILLEGAL_ALLOCATIONS = {
    "not-the-bottom-alien": ((0, 3, 1),),
    "empty-space": ((0, 3, 4),),
    "same-die-twice": ((0, 0, 0), (0, 0, 0)),
    "die-not-rolled": ((6, 0, 0),),
    "shielded-column": ((0, 1, 0),),
    "entry-without-a-row": ((0, 3),),
}


@pytest.mark.parametrize("allocation", ILLEGAL_ALLOCATIONS.values(), ids=ILLEGAL_ALLOCATIONS.keys())
def test_illegal_placement_is_a_violation(allocation):
    cols = safe_formation()
    cols[3][1] = alien("1 2")
    g = make_game(state_of(cols, shields=(1,)), Player(allocation=allocation))
    before = g.state.key()
    with pytest.raises(game.RuleViolation):
        g._attack([1, 2, 3, 4, 5, 6])
    assert g.state.key() == before  # nothing was killed


def test_legal_placement_kills_through_the_game():
    cols = safe_formation()
    cols[3][1] = alien("1 2")  # above "5 6" in column 4
    g = make_game(state_of(cols, shields=(1,)), Player(allocation=((4, 3, 0), (0, 3, 1), (1, 3, 1))))
    g._attack([1, 2, 3, 4, 5, 6])
    assert g.state.cols[3] == [alien("5 6"), EMPTY, EMPTY, EMPTY, EMPTY]
    assert g.state.aliens_left == 7
