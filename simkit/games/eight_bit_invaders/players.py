"""Scripted players for 8-Bit Invaders. Every player sees only a `View` (game.py) and its dice.

A player answers five decisions (see RULES.md, "Player interface"):
  trade_shield(view) -> column | None      [A1] discard a shield to draw a bonus card
  rapid_fire(view) -> int                  Rapid Fire cards to play before rolling
  adjust_roll(view, dice) -> action | None  ("time_slip", (die indices...)) or ("smart_bomb", i)
  allocate(view, dice) -> placement        ((die index, column, row), ...) as in rules.Placement
  rocket_fuel(view) -> bool                roll one movement die this turn
"""

from __future__ import annotations

import random

from simkit.games.eight_bit_invaders import rules
from simkit.games.eight_bit_invaders.game import View
from simkit.games.eight_bit_invaders.state import EMPTY

# Probability of each movement total (two dice, one subtracted from each): 0..10.
MOVE_TWO = tuple(sum(1 for a in range(6) for b in range(6) if a + b == s) / 36 for s in range(11))
MOVE_ONE = tuple(1 / 6 for _ in range(6))


def after_kills(cols: tuple[tuple[int, ...], ...], mask: int) -> list[list[int]]:
    """The formation once the aliens in `mask` are removed."""
    nrows = len(cols[0])
    out = [list(col) for col in cols]
    for c, r in rules.mask_positions(mask, nrows):
        out[c][r] = EMPTY
    return out


class Player:
    """Defaults: never trade a shield, play bonus cards never (subclasses decide otherwise)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def trade_shield(self, view: View) -> int | None:
        return None

    def rapid_fire(self, view: View) -> int:
        return 0

    def adjust_roll(self, view: View, dice: tuple[int, ...]):
        return None

    def allocate(self, view: View, dice: tuple[int, ...]) -> rules.Placement:
        return ()

    def rocket_fuel(self, view: View) -> bool:
        return False


class RandomPlayer(Player):
    """Uniform over the distinct outcomes of the attack (every achievable set of kills, the
    empty one included); every yes/no decision a fair coin."""

    def trade_shield(self, view: View) -> int | None:
        if self.rng.random() < 0.5:
            return None
        return self.rng.choice(view.shields)

    def rapid_fire(self, view: View) -> int:
        return self.rng.randint(0, view.hand.count("rapid_fire"))

    def adjust_roll(self, view: View, dice: tuple[int, ...]):
        if self.rng.random() < 0.5:
            return None
        options = [c for c in ("time_slip", "smart_bomb") if c in view.hand]
        card = self.rng.choice(options)
        if card == "smart_bomb":
            return ("smart_bomb", self.rng.randrange(len(dice)))
        return ("time_slip", tuple(i for i in range(len(dice)) if self.rng.random() < 0.5))

    def allocate(self, view: View, dice: tuple[int, ...]) -> rules.Placement:
        plans = rules.kill_plans(view.cols, view.shields, dice, view.aliens)
        masks = sorted(plans)
        return rules.witness_placement(plans[self.rng.choice(masks)], dice)

    def rocket_fuel(self, view: View) -> bool:
        return self.rng.random() < 0.5


class GreedyPlayer(Player):
    """The most kills this turn; among equal plans the first found in a fixed order (columns
    left to right, lowest aliens first: the ones that fire soonest). Plays no bonus cards and
    keeps its shields: the baseline a newcomer plays."""

    def allocate(self, view: View, dice: tuple[int, ...]) -> rules.Placement:
        plans = rules.kill_plans(view.cols, view.shields, dice, view.aliens, best_only=True)
        return rules.witness_placement(plans[max(plans, key=int.bit_count)], dice)
