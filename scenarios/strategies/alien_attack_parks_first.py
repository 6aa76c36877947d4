"""Alien Attack: USA, "parks first": an example of a user's own player.

Run it from the project folder with
    simkit simulate alien-attack -n 2000 \
        --strategy scenarios/strategies/alien_attack_parks_first.py:ParksFirst

(every seat plays it; add `--strategy greedy` to seat it against the greedy player, one strategy
per seat, and compare the seats' scores in the report).

A player answers the three decisions of RULES.md ("Player interface"): `place`, `power` and
`protect`. This one subclasses the built-in `GreedyPlayer` and changes only `place`; powers and
Protection stay greedy's. It sees a `View` of the table (all public in this game) and never the
Mothership's order.
"""

from simkit.games.alien_attack.players import GreedyPlayer


class ParksFirst(GreedyPlayer):
    """Cover a National Park whenever this round's open markers offer one (the best of them by
    greedy's points); otherwise play as greedy does."""

    def place(self, view, options):
        parks = tuple(space for space in options if view.board.park[space])
        return super().place(view, parks or options)
