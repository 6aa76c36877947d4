"""The native core's randomness against the real thing: numpy's SeedSequence and CPython's
random.Random, draw for draw (DESIGN.md, "Randomness": both engines draw the same)."""

import random

import numpy as np
import pytest

from simkit.core import seeds

ENTROPY = [
    ([0, 0], []),
    ([1, 17], []),
    ([1, 17], [0]),
    ([1, 17], [1]),
    ([1, 17], [2]),
    ([42, 199_999], [1]),
    ([2**32 - 1, 2**32], [3]),
    ([2**40 + 5, 7], [2]),
    ([2**63 - 1, 2**63 - 1], [1, 2]),
    ([5, 0, 9, 11, 13], [4]),  # more words than the pool holds
]


@pytest.mark.parametrize(("entropy", "spawn_key"), ENTROPY, ids=str)
def test_seed_sequence_state_is_numpys(core, entropy, spawn_key):
    expected = np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key)).generate_state(12, np.uint32)
    assert core.seed_sequence_state(entropy, spawn_key, 12) == expected.tolist()


OPS = [("random", 0)] * 5 + [
    ("randbelow", n) for n in (1, 2, 3, 5, 6, 7, 8, 35, 100, 1000, 2**31 - 1, 2**31, 2**32 - 1)
]
OPS += [("randint", n) for n in (0, 1, 3, 9)] + [("shuffle", n) for n in (0, 1, 2, 9, 35, 200)]
OPS += [("getrandbits64", 0)] * 3
# sample(range(n), k): the pool branch (n <= 21, or k > 5 with n small) and the set branch (n > 21)
OPS += [(f"sample{k}", n) for k, n in ((0, 3), (1, 1), (2, 5), (3, 21), (5, 22), (4, 44), (6, 30), (9, 90))]


def _python_ops(rng: random.Random, ops):
    out = []
    for op, n in ops:
        if op == "random":
            out.append(rng.random())
        elif op == "randbelow":
            out.append(rng._randbelow(n))
        elif op == "randint":
            out.append(rng.randint(0, n))
        elif op == "getrandbits64":
            out.append(rng.getrandbits(64))
        elif op.startswith("sample"):
            out.append(rng.sample(range(n), int(op[6:])))
        else:
            items = list(range(n))
            rng.shuffle(items)
            out.append(items)
    return out


@pytest.mark.parametrize(
    "seed", [0, 1, 2**32 - 1, 2**32, 2**64 + 3, 2**96, 2**127 + 2**31, 2**128 - 1, 12345678901234567890]
)
def test_random_methods_are_cpythons(core, seed):
    words = [(seed >> (32 * k)) & 0xFFFFFFFF for k in range(4)]
    assert core.py_random_ops(words, OPS * 3) == _python_ops(random.Random(seed), OPS * 3)


def test_a_random_seeded_with_64_bits_is_cpythons(core):
    """The rollout player seeds each playout's stream with getrandbits(64): random.Random(seed)."""
    seed = random.Random(3).getrandbits(64)
    expected = random.Random(seed)
    ops = [("random", 0)] * 5
    assert core.py_random_ops([seed & 0xFFFFFFFF, seed >> 32], ops) == [expected.random() for _ in ops]


def test_a_game_stream_is_the_python_engines(core):
    """seeds.stream's generator for game 17 of root 1 at the chance path draws as the core's."""
    seq = seeds.game_sequence(1, 17)
    expected = seeds.stream(seq, seeds.CHANCE)
    words = np.random.SeedSequence([1, 17], spawn_key=(seeds.CHANCE,)).generate_state(4, np.uint32).tolist()
    assert core.py_random_ops(words, [("random", 0)] * 700) == [expected.random() for _ in range(700)]
