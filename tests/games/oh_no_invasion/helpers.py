"""Test doubles and table builders shared by the Oh no... INVASION!!! rule tests.

A table is a real `State` from `new_game` (so every card is somewhere), rearranged by moving named
cards from wherever they are: the conservation check of test_properties holds on every table.
"""

from __future__ import annotations

import random

from simkit.games.oh_no_invasion import components, game
from simkit.games.oh_no_invasion.components import LEFT, RIGHT
from simkit.games.oh_no_invasion.players import Player
from simkit.games.oh_no_invasion.state import State, new_game

COMP = components.load()
COLOUR = {name: i for i, name in enumerate(COMP.colours)}
KIND = {"invalien": 0, "evaporalien": 1, "sabotalien": 2}


def res(name: str) -> int:
    """A Resistance card by its face: 'Hub 1', 'Catalyst (red)', 'red rocket', 'black bomb'."""
    return COMP.res_name.index(name)


def shield(colour: str) -> int:
    return next(
        i for i in range(COMP.n_spawn) if COMP.spawn_shield[i] and COMP.spawn_colour[i] == COLOUR[colour]
    )


def invaders(colour: str, aliens=None, flies=None, orders=None, threshold=None) -> list[int]:
    """Every invader card of `colour` matching the given faces."""
    want_fly = {None: None, "left": LEFT, "right": RIGHT}[flies]
    out = []
    for i in range(COMP.n_spawn):
        if COMP.spawn_shield[i] or COMP.spawn_colour[i] != COLOUR[colour]:
            continue
        if aliens is not None and COMP.spawn_aliens[i] != aliens:
            continue
        if want_fly is not None and COMP.spawn_flies[i] != want_fly:
            continue
        if orders is not None and COMP.spawn_orders[i] != COLOUR[orders]:
            continue
        if threshold is not None and COMP.spawn_threshold[i] != threshold:
            continue
        out.append(i)
    assert out, (colour, aliens, flies, orders, threshold)
    return out


def _take_res(state: State, card: int) -> None:
    for pile in [state.deck, state.discard, state.box, *state.hands]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"{COMP.res_name[card]} is not in a pile or hand")


def _take_spawn(state: State, card: int) -> None:
    for pile in (state.spawn_deck, state.spawn_discard, state.shields):
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"{COMP.spawn_name[card]} is not in a pile")


def table(players: int = 3, level: int = 1) -> State:
    return new_game(COMP, players, level, random.Random(0))


def give(state: State, seat: int, *names: str) -> list[int]:
    cards = [res(n) for n in names]
    for c in cards:
        _take_res(state, c)
        state.hands[seat].append(c)
    return cards


def build(state: State, seat: int, *names: str) -> None:
    for n in names:
        c = res(n)
        _take_res(state, c)
        state.add_module(seat, c)


def land(state: State, seat: int, card: int) -> None:
    """Put an Invalien/Evaporalien card on a station (symbols not checked: a test table)."""
    assert COMP.spawn_kind[card] != 2
    _take_spawn(state, card)
    state.aliens[seat].append(card)
    state.figs[seat][COMP.spawn_colour[card]] += COMP.spawn_aliens[card]


def sabotalien(state: State, seat: int, module: int, card: int, sabotaged: bool = False) -> None:
    _take_spawn(state, card)
    state.sabo[seat][module] = card
    state.flipped[seat][module] = sabotaged
    state.recount(seat)


def on_top(state: State, *cards: int) -> None:
    """The Spawn cards to draw next, first listed drawn first."""
    for c in cards:
        _take_spawn(state, c)
    state.spawn_deck.extend(reversed(cards))


def res_on_top(state: State, *names: str) -> None:
    cards = [res(n) for n in names]
    for c in cards:
        _take_res(state, c)
    state.deck.extend(reversed(cards))


def place_shields(state: State, *colours: str) -> None:
    for c in colours:
        card = shield(c)
        _take_spawn(state, card)
        state.shields.append(card)


class Scripted(Player):
    """Answers each decision from `answers` (a value, or a list used in order); records every
    call as (method, seat, args). Unscripted decisions take the base Player's quiet answer (for a
    counter or a strike the first legal one: no declining), except `action`, which ends after the
    first Draw."""

    def __init__(self, **answers) -> None:
        super().__init__(random.Random(0))
        self.answers = answers
        self.calls: list[tuple] = []

    def _answer(self, name, view, args, default):
        self.calls.append((name, view.seat, args))
        if name not in self.answers:
            return default
        value = self.answers[name]
        if isinstance(value, list):
            return value.pop(0)
        if callable(value):
            return value(view, *args)
        return value

    def final_conflict(self, view, moment):
        return self._answer("final_conflict", view, (moment,), False)

    def action(self, view, number):
        return self._answer("action", view, (number,), ("draw",) if number == 0 else ("end",))

    def zap(self, view, alien, target):
        return self._answer("zap", view, (alien, target), None)

    def sabotalien_module(self, view, alien, options):
        return self._answer("sabotalien_module", view, (alien, options), options[0])

    def discard(self, view, count):
        return self._answer("discard", view, (count,), view.hand[:count])

    def build(self, view):
        return self._answer("build", view, (), ())

    def combat(self, view):
        return self._answer("combat", view, (), None)

    def attack(self, view, target):
        return self._answer("attack", view, (target,), ((), ()))

    def counter(self, view, alien):
        return self._answer("counter", view, (alien,), super().counter(view, alien))

    def help_counter(self, view, alien, seat):
        return self._answer("help_counter", view, (alien, seat), super().help_counter(view, alien, seat))

    def strike(self, view):
        return self._answer("strike", view, (), super().strike(view))

    def help_strike(self, view, seat):
        return self._answer("help_strike", view, (seat,), super().help_strike(view, seat))


def make_game(state: State, players=None, log=None) -> game.Game:
    players = players or [Scripted() for _ in range(state.n)]
    streams = game.Streams(random.Random(0), random.Random(1), random.Random(2))
    g = game.Game(COMP, state.n, state.level, players, streams, log)
    g.state = state
    return g


def names(cards) -> list[str]:
    return [COMP.res_name[c] for c in cards]
