"""Seeds: one root seed per run; game i draws everything from SeedSequence([root_seed, i]).

The game's SeedSequence has fixed children: 0 for the setup/deal, 1 for chance during play, and
2 + k for seat k's own choices. The children do not depend on the cell, so game i sees the same
deal and dice under every setting (common random numbers), and a change of strategy does not move
the deck or the dice.
"""

from __future__ import annotations

import random

import numpy as np

SETUP, CHANCE, FIRST_SEAT = 0, 1, 2


def game_sequence(root_seed: int, game_index: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([root_seed, game_index])


def stream(seq: np.random.SeedSequence, *path: int) -> random.Random:
    """A `random.Random` for the child of `seq` at `path` (e.g. `stream(seq, SETUP)`).

    Children are addressed by spawn key rather than by calling `spawn()`, so the same path always
    gives the same stream whatever else was drawn first.
    """
    return streams(seq, 1, *path)[0]


def streams(seq: np.random.SeedSequence, count: int, *path: int) -> list[random.Random]:
    """`count` independent `random.Random`s from the child at `path`, each seeded with its own
    128 bits of that child's output (one SeedSequence for several streams of one kind, e.g. the
    attack dice, movement dice and re-rolls that together make a game's chance)."""
    child = np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + tuple(path))
    words = child.generate_state(4 * count, np.uint32).tolist()
    return [
        random.Random(words[k] | words[k + 1] << 32 | words[k + 2] << 64 | words[k + 3] << 96)
        for k in range(0, 4 * count, 4)
    ]


class SeatStream(random.Random):
    """Seat k's own stream, `stream(seq, FIRST_SEAT + k)`, derived on its first use: the same
    numbers, but a scripted player that never draws does not pay for deriving a seed stream per
    seat per game (that costs more than a turn of some games). A `random.Random` in every way a
    player can see: seeding or setting its state first replaces the seat's numbers, as on a plain
    one, and a copy or a pickle is a plain `random.Random` in the same state."""

    def __init__(self, seq: np.random.SeedSequence, seat: int) -> None:
        # random.Random.__init__ would seed a state that the first use replaces: skip it
        self._pending: tuple[np.random.SeedSequence, int] | None = (seq, seat)
        self.gauss_next = None

    def _begin(self) -> None:
        seq, seat = self._pending
        self._pending = None
        super().setstate(stream(seq, FIRST_SEAT + seat).getstate())

    def random(self) -> float:
        if self._pending is not None:
            self._begin()
        return super().random()

    def getrandbits(self, k: int) -> int:
        if self._pending is not None:
            self._begin()
        return super().getrandbits(k)

    def getstate(self):
        if self._pending is not None:
            self._begin()
        return super().getstate()

    def seed(self, *args, **kwargs) -> None:
        self._pending = None
        super().seed(*args, **kwargs)

    def setstate(self, state) -> None:
        self._pending = None
        super().setstate(state)

    def __reduce__(self):
        return random.Random, (), self.getstate()
