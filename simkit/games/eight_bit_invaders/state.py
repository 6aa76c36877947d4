"""The mutable state of one 8-Bit Invaders game: small ints and lists, cheap to copy.

The formation is stored by column: `cols[c][r]` is the index of the alien (into
`Components.aliens`) at column c (0 = leftmost) and row r (0 = bottom row, nearest the player),
or -1 for an empty space. Shields are the 0-based columns they stand under, kept sorted.
"""

from __future__ import annotations

import random

from simkit.games.eight_bit_invaders.components import Components

EMPTY = -1


class State:
    __slots__ = (
        "cols",
        "shields",
        "countdown",
        "track",
        "aliens_left",
        "hand",
        "bonus_pile",
        "bonus_discard",
        "turn",
        "end_reason",
    )

    def __init__(
        self,
        cols: list[list[int]],
        shields: list[int],
        countdown: int,
        bonus_pile: list[str],
        track: int = 0,
        hand: list[str] | None = None,
        bonus_discard: list[str] | None = None,
        turn: int = 0,
        end_reason: str | None = None,
    ) -> None:
        self.cols = cols
        self.shields = shields
        self.countdown = countdown
        self.track = track
        self.aliens_left = sum(1 for col in cols for a in col if a != EMPTY)
        self.hand = hand if hand is not None else []
        self.bonus_pile = bonus_pile  # top of the pile is the end of the list
        self.bonus_discard = bonus_discard if bonus_discard is not None else []
        self.turn = turn
        self.end_reason = end_reason

    def copy(self) -> State:
        return State(
            [col[:] for col in self.cols],
            self.shields[:],
            self.countdown,
            self.bonus_pile[:],
            self.track,
            self.hand[:],
            self.bonus_discard[:],
            self.turn,
            self.end_reason,
        )

    def key(self) -> tuple:
        """Everything that defines the state, for equality checks in tests."""
        return (
            tuple(tuple(c) for c in self.cols),
            tuple(self.shields),
            self.countdown,
            self.track,
            self.aliens_left,
            tuple(self.hand),
            tuple(self.bonus_pile),
            tuple(self.bonus_discard),
            self.turn,
            self.end_reason,
        )


def new_game(comp: Components, countdown: int, setup_rng: random.Random) -> State:
    """Shuffle the aliens into the formation (dealt row by row from the top, left to right),
    put the shields under their start columns and shuffle the bonus deck."""
    order = list(range(len(comp.aliens)))
    setup_rng.shuffle(order)
    cols = [[EMPTY] * comp.rows for _ in range(comp.columns)]
    for i, alien in enumerate(order):
        row_from_top, c = divmod(i, comp.columns)
        cols[c][comp.rows - 1 - row_from_top] = alien
    pile = list(comp.bonus_deck)
    setup_rng.shuffle(pile)
    return State(cols, list(comp.shield_start), countdown, pile)
