import random

import numpy as np

from simkit.core import seeds


def test_same_path_same_stream_and_children_differ():
    seq = seeds.game_sequence(42, 7)
    a = [seeds.stream(seq, seeds.CHANCE, 0).random() for _ in range(3)]
    b = [seeds.stream(seeds.game_sequence(42, 7), seeds.CHANCE, 0).random() for _ in range(3)]
    assert a == b
    others = {
        seeds.stream(seq, seeds.SETUP).random(),
        seeds.stream(seq, seeds.CHANCE, 1).random(),
        seeds.stream(seq, seeds.FIRST_SEAT).random(),
        seeds.stream(seeds.game_sequence(42, 8), seeds.CHANCE, 0).random(),
        seeds.stream(seeds.game_sequence(43, 7), seeds.CHANCE, 0).random(),
    }
    assert a[0] not in others and len(others) == 5


def test_streams_ignore_global_random_state():
    seq = seeds.game_sequence(1, 2)
    first = seeds.stream(seq, seeds.SETUP).random()
    random.seed(999)
    np.random.seed(999)
    random.random()
    np.random.random()
    assert seeds.stream(seeds.game_sequence(1, 2), seeds.SETUP).random() == first


def test_game_sequence_is_the_documented_seedsequence():
    seq = seeds.game_sequence(5, 9)
    assert tuple(seq.entropy) == (5, 9) or seq.entropy == np.random.SeedSequence([5, 9]).entropy
