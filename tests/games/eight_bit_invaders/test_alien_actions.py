"""8-Bit Invaders: the aliens' actions ([B1] counterattack, [B2] bombers, [B3] movement) and how
a game ends.

Formations are drawn as pictures: five strings, TOP row first, seven characters each (column 1 on
the left); an optional sixth string marks the shields with '^'. Letters are picture types:
s = squid, c = crab, o = octopus, u = saucer, k = skull (ordinary aliens, never bombers);
S, C, O, U = the heavy bomber of that type (=12 squid, =13 crab, =14 octopus, =15 saucer).
"""

from __future__ import annotations

import random

import pytest

from simkit.games.eight_bit_invaders import components, game, rules
from simkit.games.eight_bit_invaders.state import EMPTY, State
from tests.games.eight_bit_invaders.scripted import Scripted

COMP = components.load()
ALIENS = COMP.aliens
ROWS, COLUMNS = COMP.rows, COMP.columns
TYPE_LETTERS = {"s": "squid", "c": "crab", "o": "octopus", "u": "saucer", "k": "skull"}


def alien(label: str) -> int:
    return next(i for i, a in enumerate(ALIENS) if a.label == label)


def of_type(name: str, bomber: bool = False) -> list[int]:
    t = COMP.types.index(name)
    return [i for i, a in enumerate(ALIENS) if a.type == t and a.bomber == bomber]


def parse(*picture: str) -> tuple[list[list[int]], list[int]]:
    """Picture -> (cols, 0-based shield columns). Each letter takes the next unused alien of its
    type, so the formation holds distinct cards while there are enough of them."""
    assert len(picture) in (ROWS, ROWS + 1) and all(len(line) == COLUMNS for line in picture), picture
    pools = {letter: of_type(name) for letter, name in TYPE_LETTERS.items()}
    pools.update({letter.upper(): of_type(name, bomber=True) for letter, name in TYPE_LETTERS.items()})
    used = dict.fromkeys(pools, 0)
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    for top_index, line in enumerate(picture[:ROWS]):
        r = ROWS - 1 - top_index
        for c, ch in enumerate(line):
            if ch != ".":
                pool = pools[ch]
                cols[c][r] = pool[used[ch] % len(pool)]
                used[ch] += 1
    shields = [c for c, ch in enumerate(picture[ROWS]) if ch == "^"] if len(picture) > ROWS else []
    return cols, shields


def occupied(columns: set[int], per_column: int = 1) -> list[list[int]]:
    """Aliens in the bottom `per_column` rows of the given 0-based columns; at most two of a
    type in any row, so one row never makes a lethal counterattack."""
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    names = list(TYPE_LETTERS.values())
    for n, c in enumerate(sorted(columns)):
        for r in range(per_column):
            cols[c][r] = of_type(names[(n // 2 + r) % len(names)])[n % 2]
    return cols


class Player:
    """A scripted player: allocates a fixed placement, plays no card unless told."""

    def __init__(self, allocation=(), fuel: bool = False) -> None:
        self.allocation = allocation
        self.fuel = fuel

    def trade_shield(self, view):
        return None

    def rapid_fire(self, view):
        return 0

    def adjust_roll(self, view, dice):
        return None

    def allocate(self, view, dice):
        return self.allocation

    def rocket_fuel(self, view):
        return self.fuel


ROLL = (1, 1, 1, 1, 1, 1, 1, 1, 1)  # one turn of attack dice (9 drawn; these kill nothing below)


def make_game(state: State, player=None, attack=(), movement=(), log=None) -> game.Game:
    streams = game.Streams(random.Random(0), Scripted(attack), Scripted(movement), Scripted((), fallback=0.5))
    g = game.Game(COMP, 7, 6, player or Player(), streams, log)
    g.state = state
    return g


def state_of(cols, shields=(), countdown=7, track=0, hand=()) -> State:
    return State(cols, list(shields), countdown, [], track=track, hand=list(hand))


# --- [B1] counterattack: how many aliens fire ------------------------------------------------------

# (picture, aliens firing, lethal). In every "safe" case the third squid sits exactly one step
# deeper than the firing depth, so a wrong depth turns it lethal (and the lethal case safe).
DEPTH = {
    "7-columns-bottom-alien-fires-third-squid-above-is-safe": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "ssockuo",
        ),
        7,
        False,
    ),
    "7-columns-three-squids-on-bottom-row": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "sssocku",
        ),
        7,
        True,
    ),
    "5-columns-gaps-count-only-non-empty-columns-safe": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "s.sc.ok",
        ),
        5,
        False,
    ),
    "5-columns-three-squids-on-bottom": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "s.ss.ok",
        ),
        5,
        True,
    ),
    "4-columns-bottom-2-fire-third-squid-3-deep-safe": (
        (
            ".......",
            ".......",
            "s......",
            "o......",
            "cs.s.u.",
        ),
        5,
        False,
    ),
    "4-columns-bottom-2-fire-squid-2-deep-lethal": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "cs.s.u.",
        ),
        5,
        True,
    ),
    "4-columns-firing-skips-empty-spaces": (
        (
            ".......",
            ".......",
            "s......",
            ".......",
            "cs.s.u.",
        ),
        5,
        True,
    ),
    "3-columns-bottom-2-fire-third-squid-3-deep-safe": (
        (
            ".......",
            ".......",
            "...s...",
            "..sus..",
            "..cok..",
        ),
        6,
        False,
    ),
    "3-columns-squids-2-deep-lethal": (
        (
            ".......",
            ".......",
            "...s...",
            "..sss..",
            "..cok..",
        ),
        6,
        True,
    ),
    "2-columns-bottom-3-fire-fourth-alien-safe": (
        (
            ".......",
            "...s...",
            "...u...",
            "...os..",
            "...cs..",
        ),
        5,
        False,
    ),
    "2-columns-squid-3-deep-lethal": (
        (
            ".......",
            ".......",
            "...s...",
            "...os..",
            "...cs..",
        ),
        5,
        True,
    ),
    "1-column-bottom-3-fire-fourth-alien-safe": (
        (
            ".......",
            "......s",
            "......c",
            "......s",
            "......s",
        ),
        3,
        False,
    ),
    "1-column-three-squids-across-empty-spaces-lethal": (
        (
            "......s",
            ".......",
            "......s",
            ".......",
            "......s",
        ),
        3,
        True,
    ),
}


@pytest.mark.parametrize(("picture", "firing", "lethal"), DEPTH.values(), ids=DEPTH.keys())
def test_counterattack_depth(picture, firing, lethal):
    cols, shields = parse(*picture)
    assert len(rules.firing_positions(cols)) == firing
    g = make_game(state_of(cols, shields))
    assert g._counterattack() is lethal


@pytest.mark.parametrize(
    ("columns", "depth"), [(7, 1), (6, 1), (5, 1), (4, 2), (3, 2), (2, 3), (1, 3)], ids=lambda v: str(v)
)
def test_firing_depth_by_column_count(columns, depth):
    cols = occupied(set(range(columns)), per_column=5)
    assert rules.column_count(cols) == columns
    assert rules.firing_depth(columns) == depth
    assert sorted(rules.firing_positions(cols)) == [(c, r) for c in range(columns) for r in range(depth)]


# --- [B1] counterattack: shields and type counts ---------------------------------------------------

# (picture with a shield row, lethal)
SHIELDS = {
    "two-unshielded-of-each-of-three-types-safe": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "ssccoou",
            ".......",
        ),
        False,
    ),
    "three-different-types-safe": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "scouk..",
            ".......",
        ),
        False,
    ),
    "three-unshielded-squids-lethal": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "sssocku",
            ".......",
        ),
        True,
    ),
    "four-unshielded-skulls-lethal": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "kkkkscu",
            ".......",
        ),
        True,
    ),
    "one-of-three-squids-shielded-safe": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "sssocku",
            ".^.....",
        ),
        False,
    ),
    "shields-under-other-types-lethal": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "sssocku",
            "...^.^.",
        ),
        True,
    ),
    "one-of-four-squids-shielded-still-three-lethal": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "sssscku",
            "^......",
        ),
        True,
    ),
    "shield-protects-both-firing-aliens-of-its-column": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "s.s.c.o",
            "^......",
        ),
        False,
    ),
    "same-formation-without-the-shield-lethal": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "s.s.c.o",
            ".......",
        ),
        True,
    ),
    "shield-under-an-empty-column-protects-nothing": (
        (
            ".......",
            ".......",
            ".......",
            "s......",
            "s.s.c.o",
            ".^.^.^.",
        ),
        True,
    ),
    "bombers-count-by-picture-type": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "sSscoku",
            ".......",
        ),
        True,
    ),
}


@pytest.mark.parametrize(("picture", "lethal"), SHIELDS.values(), ids=SHIELDS.keys())
def test_counterattack_shields_and_types(picture, lethal):
    cols, shields = parse(*picture)
    g = make_game(state_of(cols, shields))
    assert g._counterattack() is lethal
    assert g.state.end_reason is None  # _counterattack only reports; play() ends the game


# --- Extra Life ------------------------------------------------------------------------------------

LETHAL = (
    ".......",
    ".......",
    ".......",
    ".......",
    "sssocku",
)
SAFE = (
    ".......",
    ".......",
    ".......",
    ".......",
    "ssccoou",
)


def test_extra_life_cancels_one_lethal_counterattack():
    cols, _ = parse(*LETHAL)
    g = make_game(state_of(cols, hand=["extra_life", "time_slip"]))
    assert g._counterattack() is False
    assert g.state.hand == ["time_slip"]
    assert g.state.bonus_discard == ["extra_life"]
    assert g._counterattack() is True  # the card is gone: the next lethal counterattack kills


def test_extra_life_is_kept_when_the_counterattack_is_not_lethal():
    cols, _ = parse(*SAFE)
    g = make_game(state_of(cols, hand=["extra_life"]))
    assert g._counterattack() is False
    assert g.state.hand == ["extra_life"]


def test_extra_life_game_goes_on_until_the_next_lethal_counterattack():
    cols, _ = parse(*LETHAL)
    g = make_game(state_of(cols, hand=["extra_life"]), attack=ROLL * 2, movement=(1, 1, 1, 1))
    result = g.play()
    assert result["end_reason"] == "shot_down"
    assert result["length"] == 2
    assert result["extra_life"] == 1
    assert g.state.bonus_discard == ["extra_life"]


def test_extra_life_does_not_prevent_landing():
    cols, _ = parse(*SAFE)
    g = make_game(state_of(cols, countdown=1, hand=["extra_life"]), attack=ROLL, movement=(6, 6))
    result = g.play()
    assert result["end_reason"] == "landed"
    assert g.state.hand == ["extra_life"]
    assert result["extra_life"] == 0


# --- [B2] bombers ----------------------------------------------------------------------------------

BOMBERS = {
    "bomber-at-bottom-over-shield-destroys-it": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            ".S.s.c.",
        ),
        [1],
        [],
    ),
    "bomber-over-empty-spaces-is-the-bottom-alien": (
        (
            ".......",
            ".......",
            ".C.....",
            ".......",
            "...s.c.",
        ),
        [1, 3, 5],
        [3, 5],
    ),
    "bomber-above-an-ordinary-alien-does-nothing": (
        (
            ".......",
            ".......",
            ".......",
            ".S.....",
            ".s.c...",
        ),
        [1],
        [1],
    ),
    "bomber-over-no-shield-does-nothing": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            ".sS.c..",
        ),
        [1, 3],
        [1, 3],
    ),
    "bomber-next-to-a-shield-does-nothing": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "S.O.U..",
        ),
        [1, 3, 5],
        [1, 3, 5],
    ),
    "two-bombers-destroy-two-shields": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            ".S.O.k.",
        ),
        [1, 3, 5],
        [5],
    ),
    "four-bombers-three-shields": (
        (
            ".......",
            ".......",
            ".......",
            ".......",
            "SCOU...",
        ),
        [0, 2, 3],
        [],
    ),
}


@pytest.mark.parametrize(("picture", "shields", "after"), BOMBERS.values(), ids=BOMBERS.keys())
def test_bombers(picture, shields, after):
    cols, _ = parse(*picture)
    g = make_game(state_of(cols, shields))
    g._bombers()
    assert g.state.shields == after
    assert g.stats["shields_bombed"] == len(shields) - len(after)


@pytest.mark.parametrize("label", ["=12", "=13", "=14", "=15"])
def test_each_heavy_bomber_destroys_a_shield(label):
    cols = occupied({0, 4})
    cols[2][0] = alien(label)
    g = make_game(state_of(cols, [2, 4]))
    g._bombers()
    assert g.state.shields == [4]


@pytest.mark.parametrize("label", ["=11", "=10", "5 6"])
def test_other_aliens_are_not_bombers(label):
    cols = occupied({0, 4})
    cols[2][0] = alien(label)
    g = make_game(state_of(cols, [2, 4]))
    g._bombers()
    assert g.state.shields == [2, 4]


# --- [B3] movement ---------------------------------------------------------------------------------

# (movement dice, track before, aliens in formation, countdown before)
#   -> (track after, countdown after, landed)
MOVES = {
    "advance-is-sum-of-dice-minus-one-each": ((3, 5), 2, 20, 7, 8, 7, False),
    "double-one-advances-nothing": ((1, 1), 4, 20, 7, 4, 7, False),
    "double-six-advances-ten": ((6, 6), 0, 20, 7, 10, 7, False),
    "one-short-of-aliens-left-keeps-countdown": ((3, 4), 5, 11, 7, 10, 7, False),
    "equals-aliens-left-removes-countdown-card": ((3, 4), 5, 10, 7, 0, 6, False),
    "exceeds-aliens-left-resets-track-to-zero": ((6, 6), 3, 4, 7, 0, 6, False),
    "already-at-aliens-left-after-kills-removes-card": ((1, 1), 5, 5, 4, 0, 3, False),
    "last-countdown-card-removed-lands": ((6, 6), 0, 3, 1, 0, 0, True),
    "second-to-last-card-does-not-land": ((6, 6), 0, 3, 2, 0, 1, False),
    "last-card-kept-when-track-stays-below": ((2, 2), 0, 3, 1, 2, 1, False),
}


@pytest.mark.parametrize(
    ("dice", "track", "n_aliens", "countdown", "track_after", "countdown_after", "landed"),
    MOVES.values(),
    ids=MOVES.keys(),
)
def test_movement_track_and_countdown(dice, track, n_aliens, countdown, track_after, countdown_after, landed):
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    for n in range(n_aliens):
        c, r = divmod(n, ROWS)
        cols[c][r] = n
    g = make_game(state_of(cols, countdown=countdown, track=track), movement=dice)
    assert g.state.aliens_left == n_aliens
    assert g._movement() is landed
    assert (g.state.track, g.state.countdown) == (track_after, countdown_after)
    assert g.streams.movement.used == 2


# (non-empty columns 1-based, shields 1-based, movement dice, shields after)
SHIELD_MOVES = {
    "even-moves-all-left": ("1234567", (2, 4, 6), (2, 4), (1, 3, 5)),
    "odd-moves-all-right": ("1234567", (2, 4, 6), (3, 4), (3, 5, 7)),
    "zero-is-even": ("1234567", (2, 4, 6), (1, 1), (1, 3, 5)),
    "odd-sum-of-two-dice-minus-one": ("1234567", (2, 4, 6), (1, 2), (3, 5, 7)),
    "blocked-at-leftmost-column": ("1234567", (1, 3, 5), (2, 4), (1, 3, 5)),
    "blocked-at-rightmost-column": ("1234567", (3, 5, 7), (3, 4), (3, 5, 7)),
    "right-still-possible-from-leftmost": ("1234567", (1, 3, 5), (3, 4), (2, 4, 6)),
    "blocked-left-when-column-1-is-empty": ("234567", (2, 4, 6), (2, 4), (2, 4, 6)),
    "blocked-right-when-column-7-is-empty": ("123456", (2, 4, 6), (3, 4), (2, 4, 6)),
    "blocked-right-when-columns-6-7-are-empty": ("12345", (1, 3, 5), (3, 4), (1, 3, 5)),
    "empty-inner-column-does-not-block": ("124567", (2, 4, 6), (3, 4), (3, 5, 7)),
    "irregular-shields-move-together": ("1234567", (2, 5), (3, 4), (3, 6)),
    "single-shield-left": ("1234567", (4,), (1, 1), (3,)),
    "shields-beyond-both-ends-stay-left": ("345", (2, 4, 6), (1, 1), (2, 4, 6)),
    "shields-beyond-both-ends-stay-right": ("345", (2, 4, 6), (1, 2), (2, 4, 6)),
    "shield-left-of-the-aliens-moves-right-toward-them": ("345", (2,), (1, 2), (3,)),
    "shield-left-of-the-aliens-does-not-move-further-left": ("345", (2,), (1, 1), (2,)),
    "no-shields": ("1234567", (), (1, 2), ()),
}


@pytest.mark.parametrize(
    ("columns", "shields", "dice", "after"), SHIELD_MOVES.values(), ids=SHIELD_MOVES.keys()
)
def test_shield_moves(columns, shields, dice, after):
    cols = occupied({int(ch) - 1 for ch in columns}, per_column=5)
    g = make_game(state_of(cols, [c - 1 for c in shields]), movement=dice)
    assert g._movement() is False
    assert g.state.shields == [c - 1 for c in after]


def test_no_shield_move_once_landed():
    cols = occupied({0, 1, 2, 3, 4, 5, 6})
    g = make_game(state_of(cols, [1, 3, 5], countdown=1), movement=(6, 6))
    assert g._movement() is True
    assert g.state.shields == [1, 3, 5]


# --- end of the game and the order of the steps ----------------------------------------------------


def test_cleared_wins_right_after_the_kill_step():
    # Only alien: squid "1 2" in column 4. Dice 1 and 2 kill it; nothing fires, nothing moves.
    cols = [[EMPTY] * ROWS for _ in range(COLUMNS)]
    cols[3][0] = alien("1 2")
    log: list = []
    g = make_game(
        state_of(cols, track=3),
        Player(allocation=((0, 3, 0), (1, 3, 0))),
        attack=(1, 2, 6, 6, 6, 6, 6, 6, 6),
        movement=(),  # drawing a movement die would fail the test
        log=log,
    )
    result = g.play()
    assert result["end_reason"] == "cleared" and result["won"] is True
    assert result["length"] == 1 and result["aliens_left"] == 0
    events = [e["event"] for e in log]
    assert "counterattack" not in events and "movement" not in events
    assert (g.state.track, g.state.countdown) == (3, 7)


def test_shot_down_ends_before_bombers_and_movement():
    # Three unshielded squids on the bottom row; the shield under the crab bomber (column 5)
    # would be bombed if the bomber step came before the end of the game.
    cols, shields = parse(
        ".......",
        ".......",
        ".......",
        ".......",
        "sssoCk.",
        "....^..",
    )
    g = make_game(state_of(cols, shields), attack=ROLL, movement=())
    result = g.play()
    assert result["end_reason"] == "shot_down" and result["won"] is False
    assert result["length"] == 1
    assert g.streams.movement.used == 0
    assert g.state.shields == [4] and result["shields_bombed"] == 0


def test_landed_ends_the_game():
    cols, shields = parse(*SAFE, "...^...")
    g = make_game(state_of(cols, shields, countdown=1, track=4), attack=ROLL, movement=(2, 3))
    result = g.play()
    assert result["end_reason"] == "landed" and result["won"] is False
    assert result["countdown_left"] == 0 and result["length"] == 1


def test_kills_come_before_the_counterattack():
    # Three squids on the bottom row; the one in column 1 is "1 2". Killing it leaves two squids,
    # so the counterattack is survived and the game ends by landing instead.
    cols, _ = parse(*LETHAL)
    cols[0][0] = alien("1 2")
    assert ALIENS[cols[0][0]].type == COMP.types.index("squid")
    g = make_game(
        state_of(cols, countdown=1),
        Player(allocation=((0, 0, 0), (1, 0, 0))),
        attack=(1, 2, 6, 6, 6, 6, 6, 6, 6),
        movement=(6, 6),
    )
    result = g.play()
    assert result["end_reason"] == "landed"
    assert g.state.cols[0][0] == EMPTY


def test_bomber_destroys_its_shield_after_the_shield_blocked_the_counterattack():
    # Turn 1: the squid bomber (column 2) is shielded, so only two squids fire; then the bomber
    # destroys the shield. Turn 2: three unshielded squids fire.
    cols, shields = parse(
        ".......",
        ".......",
        ".......",
        ".......",
        "oSssck.",
        ".^.....",
    )
    log: list = []
    g = make_game(state_of(cols, shields), attack=ROLL * 2, movement=(1, 1), log=log)
    result = g.play()
    assert result["end_reason"] == "shot_down" and result["length"] == 2
    assert result["shields_bombed"] == 1
    turn1 = [e["event"] for e in log if e["turn"] == 1]
    assert turn1 == ["turn", "roll", "counterattack", "bomber", "movement", "shield_move"]
    first = next(e for e in log if e["event"] == "counterattack")
    assert first["lethal"] is False and first["unshielded_by_type"]["squid"] == 2
