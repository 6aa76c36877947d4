import copy
import pickle
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


def test_a_seat_stream_draws_the_seat_s_seed_stream_whatever_is_asked_first():
    seq = seeds.game_sequence(5, 6)
    first_asks = [
        lambda r: [r.random() for _ in range(3)],
        lambda r: r.randrange(10**6),
        lambda r: r.getrandbits(70),
        lambda r: r.shuffle(deck := list(range(20))) or deck,
        lambda r: r.gauss(0.0, 1.0),
        lambda r: r.getstate(),
    ]
    for seat in range(5):
        for ask in first_asks:
            lazy, plain = seeds.SeatStream(seq, seat), seeds.stream(seq, seeds.FIRST_SEAT + seat)
            assert isinstance(lazy, random.Random)
            assert ask(lazy) == ask(plain)
            assert lazy.random() == plain.random()  # and it goes on as the seat's stream


def test_a_seat_stream_seeded_or_set_first_is_that_seed_or_state_and_copies_are_plain():
    seq = seeds.game_sequence(5, 6)
    seeded = seeds.SeatStream(seq, 0)
    seeded.seed(99)
    assert seeded.random() == random.Random(99).random()
    other = random.Random(7)
    set_first = seeds.SeatStream(seq, 1)
    set_first.setstate(other.getstate())
    assert set_first.random() == other.random()
    untouched = seeds.SeatStream(seq, 2)
    copied = copy.deepcopy(untouched)
    assert type(copied) is random.Random
    assert copied.random() == untouched.random() == seeds.stream(seq, seeds.FIRST_SEAT + 2).random()
    assert pickle.loads(pickle.dumps(seeds.SeatStream(seq, 3))).random() == seeds.SeatStream(seq, 3).random()
