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
    """A `random.Random` for the child of `seq` at `path` (e.g. `stream(seq, CHANCE, 2)`).

    Children are addressed by spawn key rather than by calling `spawn()`, so the same path always
    gives the same stream whatever else was drawn first.
    """
    child = np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + tuple(path))
    state = child.generate_state(4, np.uint32)
    return random.Random(int(state[0]) | int(state[1]) << 32 | int(state[2]) << 64 | int(state[3]) << 96)
