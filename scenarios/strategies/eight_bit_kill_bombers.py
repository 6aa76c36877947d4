"""8-Bit Invaders, "kill bombers first": an example of a user's own player.

Run it from the project folder with
    simkit simulate eight-bit-invaders -n 2000 \
        --strategy scenarios/strategies/eight_bit_kill_bombers.py:KillBombersFirst

A player answers the five decisions of RULES.md ("Player interface"); subclassing `Player` gives
the do-nothing answer for the ones it leaves out (keep shields, play no bonus cards). It sees a
`View` of the table and the dice, and nothing else.
"""

from simkit.games.eight_bit_invaders import rules
from simkit.games.eight_bit_invaders.players import Player


class KillBombersFirst(Player):
    """Of every set of kills the dice can make, take the one that kills the most heavy bombers
    (they destroy the shield under them), then the most aliens."""

    def allocate(self, view, dice):
        rows = len(view.cols[0])

        def bombers_killed(mask):
            return sum(
                1
                for c, column in enumerate(view.cols)
                for r, alien in enumerate(column)
                if mask >> (c * rows + r) & 1 and view.aliens[alien].bomber
            )

        plans = rules.kill_plans(view.cols, view.shields, dice, view.aliens)
        best = max(plans, key=lambda mask: (bombers_killed(mask), mask.bit_count()))
        return rules.witness_placement(plans[best], dice)
