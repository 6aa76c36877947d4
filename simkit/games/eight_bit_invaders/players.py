"""Scripted players for 8-Bit Invaders. Every player sees only a `View` (game.py) and its dice.

A player answers five decisions (see RULES.md, "Player interface"):
  trade_shield(view) -> column | None      [A1] discard a shield to draw a bonus card
  rapid_fire(view) -> int                  Rapid Fire cards to play before rolling
  adjust_roll(view, dice) -> action | None  ("time_slip", (die indices...)) or ("smart_bomb", i)
  allocate(view, dice) -> placement        ((die index, column, row), ...) as in rules.Placement
  rocket_fuel(view) -> bool                roll one movement die this turn
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from typing import Any

from simkit.core.strategies import number
from simkit.games.eight_bit_invaders import rules
from simkit.games.eight_bit_invaders.game import View
from simkit.games.eight_bit_invaders.state import EMPTY


def _movement_outcomes(dice: int) -> tuple[tuple[int, float, bool], ...]:
    """Each (track advance, probability, shields move right) of a movement roll of `dice` dice,
    by advance: with two dice an advance fixes the direction, with one die it does too."""
    counts: dict[tuple[int, bool], int] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        key = (rules.movement_sum(faces), rules.shields_move_right(faces))
        counts[key] = counts.get(key, 0) + 1
    return tuple((step, n / 6**dice, right) for (step, right), n in sorted(counts.items()))


MOVE_TWO = _movement_outcomes(2)  # advances 0..10
MOVE_ONE = _movement_outcomes(1)  # Rocket Fuel: advances 0..5


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
    """The most kills this turn; among plans with as many kills, one that does not leave a lethal
    counterattack if there is one, else the first found (rules.kill_plans order: near the most
    targets, lowest aliens first). Plays no bonus cards and keeps its shields: the baseline a
    newcomer plays."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.columns = rules.ColumnCache()  # a player plays one game: its formation's columns

    def allocate(self, view: View, dice: tuple[int, ...]) -> rules.Placement:
        formation = None  # built on first use: many turns never need it

        def survives(mask: int) -> bool:
            nonlocal formation
            if formation is None:
                formation = rules.Formation(view.cols, view.aliens, self.columns)
            return not formation.is_lethal(mask, view.shields, view.n_types)

        plans = rules.kill_plans(
            view.cols,
            view.shields,
            dice,
            view.aliens,
            best_only=True,
            acceptable=survives,
            cache=self.columns,
        )
        return rules.witness_placement(plans[max(plans, key=int.bit_count)], dice)


@dataclass(frozen=True)
class LookaheadNumbers:
    """The lookahead player's weights: its strategy's parameters (`lookahead:danger=40`)."""

    kill: float = number(10.0, "value per alien destroyed now", minimum=0.0, maximum=1000.0)
    danger: float = number(
        30.0, "cost per alien beyond two of a type in the next counterattack", minimum=0.0, maximum=1000.0
    )
    card: float = number(12.0, "cost per expected countdown card removed", minimum=0.0, maximum=1000.0)
    shield: float = number(6.0, "value per shield kept", minimum=0.0, maximum=1000.0)
    extra_life: float = number(40.0, "cost of spending the Extra Life", minimum=0.0, maximum=1000.0)


class LookaheadPlayer(Player):
    """Chooses the whole allocation by what follows it this turn: every achievable kill set is
    played forward through the counterattack (lethal -> ruled out, or it costs the Extra Life),
    the bombers (shields lost), and every movement roll with its probability (a countdown card
    lost, landing, and where the shields move), and scored by the danger it leaves for the next
    counterattack (the unshielded firing aliens of one type beyond two, which must be killed
    next turn), the shields kept and the kills made.

    Bonus cards, each by a rule it can justify:
    - trade a shield that protects nothing now: under an empty column, or under a bomber that
      will destroy it at this turn's bomber step anyway (a card for a shield already lost);
    - Rapid Fire when the counterattack as the formation stands would be lethal, or on the last
      countdown card (every die counts then);
    - Smart Bomb on the die whose flip most improves the best plan's score; Time Slip re-rolls
      the dice the best plan leaves unused when that plan still leaves the ship dead;
    - Rocket Fuel when two movement dice could remove a countdown card and one die could not,
      or on the last countdown card;
    - Extra Life is spent by the rules, the moment it saves the ship.
    """

    DEAD = 1e6  # a won (or lost) game: beyond any weighing
    NUMBERS = LookaheadNumbers()

    def __init__(self, rng: random.Random, **numbers: Any) -> None:
        super().__init__(rng)
        self.numbers = replace(self.NUMBERS, **numbers)

    def trade_shield(self, view: View) -> int | None:
        for s in view.shields:
            col = view.cols[s]
            bottom = next((a for a in col if a != EMPTY), None)
            if bottom is None or view.aliens[bottom].bomber:
                return s
        return None

    def rapid_fire(self, view: View) -> int:
        if view.countdown == 1 or rules.is_lethal(view.cols, view.shields, view.aliens, view.n_types):
            return view.hand.count("rapid_fire")
        return 0

    def adjust_roll(self, view: View, dice: tuple[int, ...]):
        score, mask, plans = self._best(view, dice)
        if "smart_bomb" in view.hand:
            best_gain, best_die = 1.0, None
            for i in sorted({dice.index(v) for v in dice}):
                flipped = dice[:i] + (7 - dice[i],) + dice[i + 1 :]
                gain = self._best(view, flipped)[0] - score
                if gain > best_gain:
                    best_gain, best_die = gain, i
            if best_die is not None:
                return ("smart_bomb", best_die)
        if "time_slip" in view.hand and score <= -self.DEAD / 2:
            used = {i for i, _, _ in rules.witness_placement(plans[mask], dice)}
            return ("time_slip", tuple(i for i in range(len(dice)) if i not in used))
        return None

    def allocate(self, view: View, dice: tuple[int, ...]) -> rules.Placement:
        _, mask, plans = self._best(view, dice)
        return rules.witness_placement(plans[mask], dice)

    def rocket_fuel(self, view: View) -> bool:
        gap = view.aliens_left - view.track
        return view.countdown == 1 or 5 < gap <= 10

    # --- evaluation ----------------------------------------------------------------------------

    def _best(self, view: View, dice: tuple[int, ...]) -> tuple[float, int, dict]:
        plans = rules.kill_plans(view.cols, view.shields, dice, view.aliens)
        formation = rules.Formation(view.cols, view.aliens)
        table = MOVE_ONE if ("rocket_fuel" in view.hand and self.rocket_fuel(view)) else MOVE_TWO
        best_score, best_mask = None, 0
        for mask in sorted(plans):
            score = self.score(view, formation, table, mask)
            if best_score is None or score > best_score:
                best_score, best_mask = score, mask
        return best_score, best_mask, plans

    def score(
        self, view: View, formation: rules.Formation, table: tuple[tuple[int, float, bool], ...], mask: int
    ) -> float:
        """The value of making the kills in `mask` this turn (higher is better); `table` gives each
        movement outcome: (advance, probability, shields move right)."""
        kills = mask.bit_count()
        left = view.aliens_left - kills
        if left == 0:
            return self.DEAD  # cleared: the game is won
        living = formation.living(mask)
        aliens, n_types = view.aliens, view.n_types
        value = self.numbers.kill * kills
        if max(rules.type_counts(living, view.shields, aliens, n_types)) >= 3:
            if "extra_life" not in view.hand:
                return -self.DEAD + kills
            value -= self.numbers.extra_life
        bombed = rules.bombers_over(living, view.shields, aliens)
        shields = [s for s in view.shields if s not in bombed]
        value += self.numbers.shield * len(shields)
        # Movement: the chance of losing a countdown card (and of landing on the last one), and
        # the danger left after the shields move left (even total) or right (odd total).
        # Probabilities are added in a loop, left to right: `sum()` of floats rounds differently
        # from Python 3.12 on, and the native engine adds them in this order too.
        p_card = 0.0
        for s, p, _ in table:
            if view.track + s >= left:
                p_card += p
        value -= (self.DEAD if view.countdown == 1 else self.numbers.card) * p_card
        first, last = living[0][0], living[-1][0]
        for odd in (False, True):
            p = 0.0
            for _, pr, right in table:
                if right == odd:
                    p += pr
            moved = rules.shift_shields(shields, first, last, odd)
            excess = sum(n - 2 for n in rules.type_counts(living, moved, aliens, n_types) if n > 2)
            value -= self.numbers.danger * p * excess
        return value
