"""One game of Alien Attack: USA: set-up, the rounds, the players' decisions and the event log.

A game is a pure function of (board, settings, players, seed): the deal comes from the set-up
stream, the Mothership's draws from the chance stream, each player's choices from its own seat
stream. Never global random state.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from simkit.core.errors import RuleViolation
from simkit.games.alien_attack import rules
from simkit.games.alien_attack.components import BORDER_CARDS, CITY_CARDS, Board
from simkit.games.alien_attack.state import (
    ATTACK,
    BASE,
    COVER,
    EMPTY,
    EXTRA,
    LOST,
    NEIGHBORHOOD,
    NONE,
    POWER_NAMES,
    PROTECTION,
    State,
)

EXTRA_TURN_LIMIT = 2  # rulebook: "only 2 players can use this Special Power in the same turn"
SEMI_COOP_BASES = 24  # rulebook: "if fewer than 24 alien bases have been destroyed ... all players lose"


class View:
    """What a seat sees at a decision: the whole table (everything in this game is public: the
    board, every player's discs, points, powers and mission cards), never the Mothership's order.
    Per-seat entries are tuples indexed by seat. Every field is an immutable copy, made the first
    time it is read (reading is cheap, and a player pays only for what it looks at); a view is
    meant for the one decision it was handed to. No attribute of a view leads to the game's state.

    Fields: seat (the deciding seat), players, round, rounds (30 / 24 / 20), first_player,
    bag_size, board (the `components.Board`), cell (see state.py: NONE, ATTACK, BASE, EMPTY, LOST
    or a seat's disc), open (this round's undefended markers), extra_users (players who used Extra
    Turn this round), discs, score (placement points so far), powers (bits of unused powers:
    state.PROTECTION | COVER | NEIGHBORHOOD | EXTRA), parks, park_markers, bases (destroyed and
    kept), city_cnt (city_cnt[seat][city]: that seat's discs touching the city), placed,
    captured, city_card, border_card.
    """

    __slots__ = ("seat", "players", "round", "rounds", "first_player", "board", "_copies", "_table")

    def __init__(self, st: State, seat: int) -> None:
        _set_state(self, st)
        self.seat = seat
        self.players = st.players
        self.round = st.round
        self.rounds = st.rounds
        self.first_player = (st.round - 1) % st.players
        self.board = st.board  # immutable (components.Board)
        self._copies: dict = {}  # the copies made so far: immutable tuples of public facts

    def _get(self, name: str, make):
        value = self._copies.get(name)
        if value is None:
            value = self._copies[name] = make()
        return value

    @property
    def cell(self) -> tuple[int, ...]:
        return self._get("cell", lambda: tuple(_state(self).cell))

    @property
    def open(self) -> tuple[int, ...]:
        return self._get("open", lambda: tuple(_state(self).open))

    @property
    def city_cnt(self) -> tuple[tuple[int, ...], ...]:
        return self._get("city_cnt", lambda: tuple(map(tuple, _state(self).city_cnt)))

    @property
    def own_city_cnt(self) -> tuple[int, ...]:
        """city_cnt[seat]: the deciding seat's discs touching each city."""
        return self._get("own_city_cnt", lambda: tuple(_state(self).city_cnt[self.seat]))

    @property
    def extra_users(self) -> int:
        return _state(self).extra_users

    @property
    def bag_size(self) -> int:
        return len(_state(self).bag)

    @property
    def park_markers(self) -> int:
        return _state(self).park_markers


# The live state sits in the slot `_table`, whose name the class then forgets: only these two
# functions reach it, so no attribute of a view leads to the Mothership's order or lets a player
# change the game (a class per game would cost more: every new class resets the interpreter's
# attribute caches at the players' call sites).
_set_state = View._table.__set__
_state = View._table.__get__
del View._table


def _seat_tuple(name: str):
    return property(lambda self: self._get(name, lambda: tuple(getattr(_state(self), name))))


for _name in ("discs", "score", "powers", "parks", "bases", "placed", "captured", "city_card", "border_card"):
    setattr(View, _name, _seat_tuple(_name))


class PowerOptions(NamedTuple):
    """What the deciding seat may do in a power window (after one of its placements)."""

    last: int  # the space of the placement that opened this window
    cover: tuple[int, ...]  # spaces the last placement emptied (Cover unused, a disc left)
    neighborhood: bool  # Neighborhood unused and a disc left: any base next to one of your discs
    extra_turn: tuple[int, ...]  # undefended markers of this round (Extra Turn allowed now)


def view_of(st: State, seat: int) -> View:
    return View(st, seat)


def state_from_view(view: View, rng: random.Random) -> State:
    """A full `State` consistent with what a seat sees; the Mothership's order (hidden) is a fresh
    shuffle of the markers not yet drawn. For players that search (rollouts)."""
    st = State(view.board, view.players, list(view.city_card), list(view.border_card))
    st.cell = list(view.cell)
    st.bag = [s for s in range(1, view.board.n + 1) if view.cell[s] == NONE]
    rng.shuffle(st.bag)
    st.round = view.round
    st.open = list(view.open)
    st.extra_users = view.extra_users
    st.discs = list(view.discs)
    st.score = list(view.score)
    st.powers = list(view.powers)
    st.parks = list(view.parks)
    st.park_markers = view.park_markers
    st.bases = list(view.bases)
    st.city_cnt = [list(c) for c in view.city_cnt]
    st.placed = list(view.placed)
    st.captured = list(view.captured)
    return st


def deal(board: Board, players: int, rng: random.Random) -> tuple[list[int], list[str]]:
    """Set-up step 5: the City and the Border cards are shuffled separately, one of each dealt to
    every player."""
    cities, borders = list(CITY_CARDS), list(BORDER_CARDS)
    rng.shuffle(cities)
    rng.shuffle(borders)
    return cities[:players], borders[:players]


def new_game(board: Board, players: int, setup: random.Random, chance: random.Random) -> State:
    city_card, border_card = deal(board, players, setup)
    st = State(board, players, city_card, border_card)
    st.bag = list(range(1, board.n + 1))
    chance.shuffle(st.bag)  # drawing from the end of a shuffled bag = uniform draws without replacement
    return st


class Game:
    """Runs one game (or the rest of one, for rollouts). `log`, when a list, receives the event
    log (schema in RULES.md)."""

    def __init__(self, st: State, players: list[Any], log: list | None = None) -> None:
        self.st = st
        self.players = players
        self.log = log
        self.flipped: list[int] = []  # every space that flipped into a base (for the records)

    # --- log helpers -------------------------------------------------------------------------

    def _emit(self, event: str, **data: Any) -> None:
        self.log.append({"event": event, "turn": self.st.round, **data})

    def snapshot(self) -> dict:
        st = self.st
        cell = st.cell
        return {
            "bases": [s for s in range(1, st.board.n + 1) if cell[s] == BASE],
            "discs": {
                str(p): [s for s in range(1, st.board.n + 1) if cell[s] == p] for p in range(st.players)
            },
            "emptied": [s for s in range(1, st.board.n + 1) if cell[s] == EMPTY],
            "lost": [s for s in range(1, st.board.n + 1) if cell[s] == LOST],
            "bag": len(st.bag),
            "score": list(st.score),
            "discs_left": list(st.discs),
            "powers_left": [
                [POWER_NAMES[b] for b in POWER_NAMES if st.powers[p] & b] for p in range(st.players)
            ],
        }

    # --- steps -------------------------------------------------------------------------------

    def _place(self, p: int, s: int, how: str) -> list[int]:
        pts, scored, park, destroyed = rules.place(self.st, p, s)
        if self.log is not None:
            board = self.st.board
            self._emit(
                "place",
                seat=p,
                space=s,
                how=how,
                points=pts,
                cities=[{"city": board.cities[ci].name, "value": board.city_value[ci]} for ci in scored],
                herd=2 * rules.herd_group(board, self.st.cell, p, s) if board.herd_region[s] >= 0 else 0,
                park=board.park_names.get(s) if park else None,
                destroyed=destroyed,
                score=self.st.score[p],
                discs_left=self.st.discs[p],
            )
        return destroyed

    def _choose_place(self, p: int, decision: str) -> int:
        st = self.st
        options = tuple(st.open)
        s = self.players[p].place(view_of(st, p), options)
        if type(s) is not int or s not in options:
            raise RuleViolation(
                f"{decision}: seat {p} chose {s!r}; "
                f"it must be one of this round's open markers {list(options)}"
            )
        st.open.remove(s)
        return s

    def turn(self, p: int) -> None:
        """[Round] step 2 for one seat: a mandatory placement, then the power windows."""
        st = self.st
        if st.discs[p] == 0 or not st.open:
            if self.log is not None:
                self._emit("skip", seat=p, reason="no discs left" if st.discs[p] == 0 else "no open marker")
            return
        s = self._choose_place(p, "place")
        destroyed = self._place(p, s, "turn")
        self._powers(p, s, destroyed)

    def _powers(self, p: int, last: int, destroyed: list[int]) -> None:
        """[Powers] After each placement the seat may use one power; a power that places a disc
        opens a new window (chaining). Cover only right after the placement that emptied the space."""
        st = self.st
        player = self.players[p]
        while st.discs[p] > 0:
            bits = st.powers[p]
            cover = tuple(b for b in destroyed if st.cell[b] == EMPTY) if bits & COVER else ()
            extra = tuple(st.open) if bits & EXTRA and st.extra_users < EXTRA_TURN_LIMIT else ()
            hood = bool(bits & NEIGHBORHOOD)
            if not cover and not extra and not hood:
                return
            choice = player.power(view_of(st, p), PowerOptions(last, cover, hood, extra))
            if choice is None:
                return
            kind, s = choice if isinstance(choice, tuple) and len(choice) == 2 else (None, None)
            if kind == "cover" and s in cover:
                st.powers[p] &= ~COVER
                if self.log is not None:
                    self._emit("power", seat=p, power="cover", space=s)
            elif kind == "extra_turn" and s in extra:
                st.powers[p] &= ~EXTRA
                st.extra_users += 1
                st.open.remove(s)
                if self.log is not None:
                    self._emit("power", seat=p, power="extra_turn", space=s)
            elif kind == "neighborhood" and hood and rules.is_neighborhood_target(st.board, st.cell, p, s):
                st.powers[p] &= ~NEIGHBORHOOD
                rules.destroy_for_neighborhood(st, p, s)
                if self.log is not None:
                    self._emit("power", seat=p, power="neighborhood", space=s, destroyed=[s])
            else:
                raise RuleViolation(
                    f"power: seat {p} chose {choice!r}, which is not allowed now "
                    f"({PowerOptions(last, cover, hood, extra)})"
                )
            destroyed = self._place(p, s, kind)
            last = s

    def flips(self) -> None:
        """[Round] step 3: undefended markers become bases, lowest number first; each flip captures
        at once every disc it traps against another base on one line [Capture]."""
        st = self.st
        cell = st.cell
        board = st.board
        for s in st.open:
            cell[s] = BASE
            self.flipped.append(s)
            trapped = rules.captures_on_flip(board, cell, s)
            captured, protected = [], []
            for t in sorted(trapped):  # owners are asked about Protection in space order
                owner = cell[t]
                if st.powers[owner] & PROTECTION:
                    answer = self.players[owner].protect(view_of(st, owner), t)
                    if type(answer) is not bool:
                        raise RuleViolation(
                            f"protect: seat {owner} answered {answer!r}; it must be True or False"
                        )
                    if answer:
                        st.powers[owner] &= ~PROTECTION
                        protected.append({"space": t, "seat": owner})
                        continue
                rules.remove_disc(st, t)
                captured.append({"space": t, "seat": owner})
            if self.log is not None:
                self._emit("flip", space=s, captured=captured, protected=protected)
        st.open = []

    def draw(self) -> None:
        """[Round] step 1: players + 2 markers from the Mothership onto their spaces."""
        st = self.st
        drawn = [st.bag.pop() for _ in range(min(st.players + 2, len(st.bag)))]
        for s in drawn:
            st.cell[s] = ATTACK
        st.open = sorted(drawn)
        st.extra_users = 0

    def play_round(self) -> None:
        st = self.st
        st.round += 1
        first = (st.round - 1) % st.players
        if self.log is not None:
            self._emit("round", first_player=first, **self.snapshot())
        self.draw()
        if self.log is not None:
            self._emit("draw", markers=list(st.open))
        for i in range(st.players):
            self.turn((first + i) % st.players)
        self.flips()

    def finish_round(self, from_index: int) -> None:
        """The rest of the current round from the `from_index`-th seat in turn order (rollouts)."""
        st = self.st
        first = (st.round - 1) % st.players
        for i in range(from_index, st.players):
            self.turn((first + i) % st.players)
        self.flips()

    def play_rest(self) -> None:
        st = self.st
        while st.round < st.rounds and st.bag:
            self.play_round()
