"""8-Bit Invaders: placing attack dice ([A3]), kill matching ([A4]) and the kill-plan search.

Layouts are drawn as pictures: five strings, TOP row first, seven characters each (column 1 on the
left). '.' is an empty space; any other character is an alien, and a letter names its position so
that a placement can be written as a string of letters: "g h h i" = die 0 on g, dice 1 and 2 on h,
die 3 on i. Shields are given as 1-based columns, as a player would say them.
"""

from __future__ import annotations

import itertools
import random

import pytest

from simkit.games.eight_bit_invaders import components, rules
from simkit.games.eight_bit_invaders.components import PAIR
from simkit.games.eight_bit_invaders.state import EMPTY

COMP = components.load()
ALIENS = COMP.aliens
ROWS, COLUMNS = COMP.rows, COMP.columns


def alien(label: str) -> int:
    """Index of the first alien printed with this requirement label ("2 5", "=12")."""
    return next(i for i, a in enumerate(ALIENS) if a.label == label)


FILLER = alien("5 6")  # placement legality does not depend on which alien is where


def parse(picture: tuple[str, ...]) -> tuple[list[list[int]], dict[str, tuple[int, int]]]:
    """Picture (top row first) -> (cols[c][r] with r = 0 the bottom row, {letter: (c, r)})."""
    assert len(picture) == ROWS and all(len(line) == COLUMNS for line in picture), picture
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    where: dict[str, tuple[int, int]] = {}
    for top_index, line in enumerate(picture):
        r = ROWS - 1 - top_index
        for c, ch in enumerate(line):
            if ch != ".":
                cols[c][r] = FILLER
                assert ch not in where, f"label {ch!r} used twice"
                where[ch] = (c, r)
    return cols, where


def placement_of(spec: str, where: dict[str, tuple[int, int]]) -> tuple[tuple[int, int, int], ...]:
    """ "g h h" -> ((0, *g), (1, *h), (2, *h)): die i goes on the i-th letter."""
    return tuple((i, *where[label]) for i, label in enumerate(spec.split()))


def shields_of(one_based: tuple[int, ...]) -> list[int]:
    return sorted(c - 1 for c in one_based)


# Layout A (columns 1-7 left to right, rows top to bottom):
#
#   col:  1234567
#   row5  .......
#   row4  ..fil..      column 4 (g h . i) has an empty space between h and i
#   row3  ..e.k..      column 5 (j . k l) has an empty space between j and k
#   row2  .bdh.n.      column 6 has its bottom alien n over an empty space
#   row1  .acgj..      the circled initial placement of the diagrams is g (column 4, bottom)
LAYOUT_A = (
    ".......",
    "..fil..",
    "..e.k..",
    ".bdh.n.",
    ".acgj..",
)

# Layout B: column 4 is entirely empty between two two-alien columns.
#   row2  ..q.y..
#   row1  ..p.x..
LAYOUT_B = (
    ".......",
    ".......",
    ".......",
    "..q.y..",
    "..p.x..",
)

LAYOUTS = {"A": LAYOUT_A, "B": LAYOUT_B}

# (layout, shields (1-based), placement)
LEGAL = {
    "no-dice-at-all": ("A", (), ""),
    "first-die-on-bottom-alien-of-unblocked-column": ("A", (2, 6), "g"),
    "first-die-on-bottom-alien-standing-over-an-empty-space": ("A", (), "n"),
    "first-die-on-another-unblocked-column": ("A", (), "a"),
    "vertical-step-up": ("A", (), "g h"),
    "vertical-skips-an-empty-space": ("A", (), "g h i"),
    "horizontal-left-on-bottom-row": ("A", (), "g c"),
    "horizontal-right-on-bottom-row": ("A", (), "g j"),
    "horizontal-both-sides-of-initial-column": ("A", (), "g c j"),
    "horizontal-from-upper-die-over-dieless-alien": ("A", (), "g h d"),
    "horizontal-on-top-row-after-vertical-skip": ("A", (), "g h i l"),
    "side-column-vertical-chain": ("A", (), "g c d e f"),
    "side-column-vertical-skips-empty-space": ("A", (), "g j k l"),
    "several-dice-on-one-alien": ("A", (), "g g g"),
    "several-dice-on-a-middle-alien": ("A", (), "g h h h i"),
    "shielded-column-reachable-horizontally": ("A", (4,), "c g h"),
    "start-in-unshielded-column-next-to-shields": ("A", (3, 4), "j g"),
    "diagram-legal-1-2-3-from-circled-g": ("A", (), "g h i f"),
    "diagram-legal-A-B-C-D-from-circled-g": ("A", (), "g j k l c"),
    "two-alien-column-beside-empty-column": ("B", (), "p q"),
}

# (layout, shields (1-based), placement, placement minus its last die is legal)
ILLEGAL = {
    "first-die-not-at-bottom": ("A", (), "h", False),
    "first-die-above-empty-space-not-at-bottom": ("A", (), "k", False),
    "first-die-in-shielded-column": ("A", (4,), "g", False),
    "only-bottom-aliens-of-shielded-columns": ("A", (3, 4), "c g", False),
    "vertical-skip-over-dieless-alien": ("A", (), "g i", True),
    "side-column-vertical-skip-over-dieless-alien": ("A", (), "g j l", True),
    "horizontal-from-a-side-column": ("A", (), "g h d b", True),
    "horizontal-two-columns-away-over-an-alien": ("A", (), "g h b", True),
    "horizontal-next-to-skipped-empty-space-left": ("A", (), "g h i e", True),
    "horizontal-next-to-skipped-empty-space-right": ("A", (), "g h i k", True),
    "horizontal-next-to-empty-space-in-initial-column": ("A", (), "j n", True),
    "horizontal-back-into-initial-column": ("A", (4,), "j g h i l", True),
    "skipping-an-empty-column-bottom-row": ("B", (), "p x", True),
    "skipping-an-empty-column-upper-row": ("B", (), "p q y", True),
    # The rulebook's four illegal diagrams, re-created on layout A with g as the circled start.
    "diagram-illegal-A-B: g, A=c, B=a two horizontal steps (column 3 shielded)": ("A", (3,), "g c a", True),
    "diagram-illegal-A-2-3-4: A=h not at the bottom, 2-3-4 hang off it": ("A", (), "h d e f", False),
    "diagram-illegal-A-b-c: A=i skips dieless h, b=f and c=l hang off it": ("A", (), "g i f l", False),
    "diagram-illegal-alpha-beta: alpha=k next to skipped space, beta=e": ("A", (), "g h i k e", False),
}


@pytest.mark.parametrize(("layout", "shields", "spec"), LEGAL.values(), ids=LEGAL.keys())
def test_legal_placement(layout, shields, spec):
    cols, where = parse(LAYOUTS[layout])
    placement = placement_of(spec, where)
    dice = [1] * max(1, len(placement))
    assert rules.placement_error(cols, shields_of(shields), dice, placement) is None


@pytest.mark.parametrize(("layout", "shields", "spec", "prefix_ok"), ILLEGAL.values(), ids=ILLEGAL.keys())
def test_illegal_placement(layout, shields, spec, prefix_ok):
    cols, where = parse(LAYOUTS[layout])
    placement = placement_of(spec, where)
    dice = [1] * len(placement)
    error = rules.placement_error(cols, shields_of(shields), dice, placement)
    assert isinstance(error, str) and error
    if prefix_ok:  # the last die is the one that breaks the rules
        assert rules.placement_error(cols, shields_of(shields), dice, placement[:-1]) is None


BAD_ENTRIES = {
    "same-die-twice": ((0, 3, 0), (0, 3, 1)),
    "die-on-an-empty-space": ((0, 3, 0), (1, 3, 2)),
    "only-die-on-an-empty-space": ((0, 0, 0),),
    "die-off-the-board": ((0, 3, 0), (1, 7, 0)),
    "die-index-out-of-range": ((0, 3, 0), (6, 3, 1)),
}


@pytest.mark.parametrize("placement", BAD_ENTRIES.values(), ids=BAD_ENTRIES.keys())
def test_malformed_placement_is_illegal(placement):
    cols, where = parse(LAYOUT_A)
    assert where["g"] == (3, 0) and where["h"] == (3, 1)  # (column 4, bottom two rows)
    dice = [1, 2, 3, 4, 5, 6]
    assert rules.placement_error(cols, [], dice, placement) is not None


def test_dice_that_kill_nothing_are_allowed():
    # Column 4: "1 2" at the bottom, "=8" above. Dice 3, 3 on the pair card and 6 on the sum card.
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    cols[3][0], cols[3][1] = alien("1 2"), alien("=8")
    dice = [3, 3, 6]
    placement = ((0, 3, 0), (1, 3, 0), (2, 3, 1))
    assert rules.placement_error(cols, [], dice, placement) is None
    assert rules.kills(cols, ALIENS, dice, placement) == []
    # ...whereas the right dice on the same spaces kill both.
    dice = [1, 2, 6, 2]
    placement = ((0, 3, 0), (1, 3, 0), (2, 3, 1), (3, 3, 1))
    assert rules.placement_error(cols, [], dice, placement) is None
    assert rules.kills(cols, ALIENS, dice, placement) == [(3, 0), (3, 1)]


# --- kill matching [A4] ------------------------------------------------------------------------

MATCHES = {
    "pair-exact": ("2 5", (2, 5), True),
    "pair-exact-either-order": ("2 5", (5, 2), True),
    "pair-one-die-only": ("2 5", (2,), False),
    "pair-with-a-third-die": ("2 5", (2, 5, 1), False),
    "pair-with-a-third-die-repeating-a-face": ("2 5", (2, 5, 5), False),
    "pair-wrong-face": ("2 5", (2, 6), False),
    "pair-low-double": ("2 5", (2, 2), False),
    "pair-high-double": ("2 5", (5, 5), False),
    "pair-1-6-exact": ("1 6", (6, 1), True),
    "pair-1-6-sum-seven-is-not-enough": ("1 6", (3, 4), False),
    "sum-2-dice": ("=8", (3, 5), True),
    "sum-2-dice-double": ("=8", (4, 4), True),
    "sum-3-dice": ("=8", (1, 3, 4), True),
    "sum-4-dice": ("=8", (2, 2, 2, 2), True),
    "sum-too-low": ("=8", (3, 4), False),
    "sum-with-a-spare-die": ("=8", (3, 5, 1), False),
    "sum-single-die": ("=8", (6,), False),
    "bomber-12-two-sixes": ("=12", (6, 6), True),
    "bomber-12-three-dice": ("=12", (3, 4, 5), True),
    "bomber-12-with-a-spare-die": ("=12", (6, 6, 1), False),
    "bomber-15-three-dice": ("=15", (5, 5, 5), True),
    "bomber-15-four-dice": ("=15", (6, 6, 2, 1), True),
    "bomber-15-two-sixes-too-low": ("=15", (6, 6), False),
}


@pytest.mark.parametrize(("label", "values", "expected"), MATCHES.values(), ids=MATCHES.keys())
def test_matches(label, values, expected):
    assert rules.matches(ALIENS[alien(label)], list(values)) is expected


@pytest.mark.parametrize("label", sorted({a.label for a in ALIENS if a.kind == PAIR}))
def test_doubles_never_kill_a_pair_card(label):
    card = ALIENS[alien(label)]
    for face in range(1, 7):
        assert not rules.matches(card, [face, face])
    assert rules.matches(card, [card.b, card.a])


# --- kill_plans cross-checked by brute force ------------------------------------------------------


def oracle_kills(label: str, values: list[int]) -> bool:
    """The kill rule written independently of the engine."""
    if label.startswith("="):
        return sum(values) == int(label[1:])
    return sorted(values) == sorted(int(x) for x in label.split())


def brute_force_masks(cols, shields, dice) -> set[int]:
    """Every kill mask over every assignment of each die to an alien or to nothing."""
    spots = [(c, r) for c in range(COLUMNS) for r in range(ROWS) if cols[c][r] != EMPTY]
    legal_cache: dict[frozenset, bool] = {}
    masks = set()
    for assign in itertools.product(range(len(spots) + 1), repeat=len(dice)):
        placement = tuple((i, *spots[k]) for i, k in enumerate(assign) if k < len(spots))
        key = frozenset(p[1:] for p in placement)  # legality depends only on which spaces are diced
        if key not in legal_cache:
            legal_cache[key] = rules.placement_error(cols, shields, dice, placement) is None
        if not legal_cache[key]:
            continue
        on: dict[tuple[int, int], list[int]] = {}
        for i, c, r in placement:
            on.setdefault((c, r), []).append(dice[i])
        mask = 0
        for (c, r), values in on.items():
            if oracle_kills(ALIENS[cols[c][r]].label, values):
                mask |= 1 << (c * ROWS + r)
        masks.add(mask)
    return masks


def random_case(seed: int):
    """4-7 aliens in the bottom three rows of columns 3-5 (0-based 2-4; the rest of the spaces are
    empty, gaps included), 4 or 5 dice, sometimes shields."""
    rng = random.Random(seed)
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    spaces = [(c, r) for c in (2, 3, 4) for r in range(3)]
    killable = [i for i, a in enumerate(ALIENS) if a.kind == PAIR or a.a <= 11]
    for c, r in rng.sample(spaces, rng.randint(4, 7)):
        cols[c][r] = rng.choice(killable) if rng.random() < 0.85 else rng.randrange(len(ALIENS))
    shields = sorted(rng.sample([1, 2, 3, 4, 5], rng.choice([0, 0, 1, 2])))
    dice = [rng.randint(1, 6) for _ in range(rng.choice([4, 5, 5]))]
    return cols, shields, dice


def mask_of(positions) -> int:
    return sum(1 << (c * ROWS + r) for c, r in positions)


@pytest.mark.parametrize("seed", range(20), ids=[f"seed{s}" for s in range(20)])
def test_kill_plans_match_brute_force(seed):
    cols, shields, dice = random_case(seed)
    expected = brute_force_masks(cols, shields, dice)
    plans = rules.kill_plans(cols, shields, dice, ALIENS)
    assert set(plans) == expected
    for mask, witness in plans.items():
        placement = rules.witness_placement(witness, dice)
        assert rules.placement_error(cols, shields, dice, placement) is None, (mask, witness)
        assert mask_of(rules.kills(cols, ALIENS, dice, placement)) == mask
    best = rules.kill_plans(cols, shields, dice, ALIENS, best_only=True)
    top = max(best, key=int.bit_count)
    assert top.bit_count() == max(m.bit_count() for m in expected)
    placement = rules.witness_placement(best[top], dice)
    assert rules.placement_error(cols, shields, dice, placement) is None
    assert mask_of(rules.kills(cols, ALIENS, dice, placement)) == top


def test_brute_force_cases_are_not_trivial():
    """The random cases must exercise kills, several-kill plans and shields, or the cross-check
    above would pass vacuously."""
    most = []
    shielded = 0
    for seed in range(20):
        cols, shields, dice = random_case(seed)
        most.append(max(m.bit_count() for m in rules.kill_plans(cols, shields, dice, ALIENS)))
        shielded += bool(shields)
    assert sum(1 for n in most if n >= 1) >= 10
    assert sum(1 for n in most if n >= 2) >= 5
    assert shielded >= 5


def test_kill_plans_needs_stepping_stone():
    # Column 4: "5 6" at the bottom (cannot be killed by these dice), "1 2" above it.
    # Killing "1 2" needs a spare die on "5 6" first: with dice 1, 2, 3 it is possible...
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    cols[3][0], cols[3][1] = alien("5 6"), alien("1 2")
    plans = rules.kill_plans(cols, [], [1, 2, 3], ALIENS)
    assert set(plans) == {0, mask_of([(3, 1)])}
    placement = rules.witness_placement(plans[mask_of([(3, 1)])], [1, 2, 3])
    assert (2, 3, 0) in placement  # the 3 is the stepping stone on the bottom alien
    # ...but with only the 1 and the 2 there is no die left to open the column.
    assert set(rules.kill_plans(cols, [], [1, 2], ALIENS)) == {0}
    # And a shield under column 4 blocks it entirely.
    assert set(rules.kill_plans(cols, [3], [1, 2, 3], ALIENS)) == {0}
