"""Helpers for rule tests: hand-built positions on the default board and players that answer
from a script."""

from __future__ import annotations

from simkit.games.alien_attack import components
from simkit.games.alien_attack.game import Game
from simkit.games.alien_attack.state import ATTACK, BASE, State

BOARD = components.load()


def S(q: int, r: int) -> int:
    """The space at axial (q, r) on the default board (fails the test if off the board)."""
    s = BOARD.space_at(q, r)
    assert s, f"({q}, {r}) is off the board"
    return s


def state(players: int = 2, discs=None, bases=(), attacks=(), cities=None, borders=None) -> State:
    """A state with `discs` = {space: seat}, the given bases and this round's open markers."""
    st = State(
        BOARD,
        players,
        list(cities or [2, 3, 4, 5][:players]),
        list(borders or ["pacific", "atlantic", "gulf", "mexico"][:players]),
    )
    st.round = 1
    for s, p in (discs or {}).items():
        st.cell[s] = p
        st.discs[p] -= 1
        for ci in BOARD.space_cities[s]:
            st.city_cnt[p][ci] += 1
    for s in bases:
        st.cell[s] = BASE
    for s in attacks:
        st.cell[s] = ATTACK
    st.open = sorted(attacks)
    taken = set(discs or {}) | set(bases) | set(attacks)
    st.bag = [s for s in range(1, BOARD.n + 1) if s not in taken]
    return st


class Scripted:
    """Answers `place` and `power` from lists (None = decline), `protect` from a bool; records the
    options it was offered."""

    def __init__(self, places=(), powers=(), protect=False):
        self.places = list(places)
        self.powers = list(powers)
        self.protect_answer = protect
        self.offered = []

    def place(self, view, options):
        self.offered.append(("place", options))
        return self.places.pop(0)

    def power(self, view, options):
        self.offered.append(("power", options))
        return self.powers.pop(0) if self.powers else None

    def protect(self, view, space):
        self.offered.append(("protect", space))
        return self.protect_answer


def game(st: State, *players, log: bool = True) -> Game:
    return Game(st, list(players), [] if log else None)
