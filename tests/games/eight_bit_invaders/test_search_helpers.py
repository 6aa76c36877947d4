"""The helpers that only speed the kill search up must not change an answer: the column cache,
the per-roll killable mask and the shortcut lethality test are checked against the plain rules."""

import random

import pytest

from simkit.games.eight_bit_invaders import components, rules
from simkit.games.eight_bit_invaders.state import EMPTY

COMP = components.load()
ALIENS = COMP.aliens
ROWS, COLUMNS = COMP.rows, COMP.columns


def random_formation(rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A dealt formation with some aliens gone (gaps anywhere, some columns empty)."""
    order = list(range(len(ALIENS)))
    rng.shuffle(order)
    gone = rng.choice([0.0, 0.3, 0.6, 0.9])
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    for i, a in enumerate(order):
        c, r = divmod(i, ROWS)
        if rng.random() >= gone:
            cols[c][r] = a
    return tuple(tuple(col) for col in cols)


@pytest.mark.parametrize("seed", range(5))
def test_killable_mask_matches_kill_options(seed):
    rng = random.Random(seed)
    for _ in range(50):
        dice = [rng.randint(1, 6) for _ in range(rng.randint(1, 9))]
        counts = tuple(dice.count(face) for face in range(7))
        mask = rules.killable_mask(counts, ALIENS)
        for a, alien in enumerate(ALIENS):
            assert bool(mask >> a & 1) == bool(rules.kill_options(counts, alien))


@pytest.mark.parametrize("seed", range(5))
def test_is_lethal_matches_type_counts(seed):
    rng = random.Random(seed)
    cache = rules.ColumnCache()
    for _ in range(40):
        cols = random_formation(rng)
        shields = sorted(rng.sample(range(COLUMNS), rng.randint(0, 3)))
        formation = rules.Formation(cols, ALIENS, cache if rng.random() < 0.5 else None)
        spots = [(c, r) for c in range(COLUMNS) for r in range(ROWS) if cols[c][r] != EMPTY]
        for _ in range(10):
            removed = sum(
                1 << (c * ROWS + r) for c, r in rng.sample(spots, min(len(spots), rng.randint(0, 4)))
            )
            expected = (
                max(rules.type_counts(formation.living(removed), shields, ALIENS, len(COMP.types))) >= 3
            )
            assert formation.is_lethal(removed, shields, len(COMP.types)) is expected


@pytest.mark.parametrize("seed", range(5))
def test_column_cache_changes_no_plan(seed):
    """One cache kept across many formations (as a player keeps it across a game's turns) gives
    the same plans, witnesses included, as no cache."""
    rng = random.Random(seed)
    cache = rules.ColumnCache()
    for _ in range(60):
        cols = random_formation(rng)
        shields = sorted(rng.sample(range(COLUMNS), rng.randint(0, 3)))
        dice = [rng.randint(1, 6) for _ in range(rng.choice([5, 6, 6, 7]))]
        plain = rules.kill_plans(cols, shields, dice, ALIENS, best_only=True)
        assert rules.kill_plans(cols, shields, dice, ALIENS, best_only=True, cache=cache) == plain
        assert rules.kill_plans(cols, shields, dice, ALIENS, cache=cache) == rules.kill_plans(
            cols, shields, dice, ALIENS
        )
