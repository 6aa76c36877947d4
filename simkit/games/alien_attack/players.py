"""Scripted players for Alien Attack: USA. Every player sees only a `View` (game.py).

A player answers three decisions (see RULES.md, "Player interface"):
  place(view, options) -> space                 cover one of this round's open markers
  power(view, options) -> (power, space) | None  after each of its placements: "cover",
                                                 "neighborhood" or "extra_turn", or nothing
  protect(view, space) -> bool                  use Protection to save the disc on `space`
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from simkit.core.strategies import number
from simkit.games.alien_attack import rules
from simkit.games.alien_attack.components import points
from simkit.games.alien_attack.game import Game, PowerOptions, View, state_from_view
from simkit.games.alien_attack.state import ATTACK, BASE, NONE, PROTECTION


class Player:
    """Defaults: never use a power (subclasses decide otherwise). A player with `NUMBERS` (its
    strategy's parameters) is built as `Class(rng, **numbers)`, the rest over its defaults."""

    NUMBERS: Any = None

    def __init__(self, rng: random.Random, **numbers: Any) -> None:
        self.rng = rng
        self.numbers = replace(self.NUMBERS, **numbers) if self.NUMBERS is not None else None

    def place(self, view: View, options: tuple[int, ...]) -> int:
        return options[0]

    def power(self, view: View, options: PowerOptions):
        return None

    def protect(self, view: View, space: int) -> bool:
        return False


class RandomPlayer(Player):
    """Uniform over the open markers; in each power window a fair coin whether to act, then uniform
    over every legal power use; a fair coin for Protection."""

    def place(self, view: View, options: tuple[int, ...]) -> int:
        return options[int(self.rng.random() * len(options))]

    def power(self, view: View, options: PowerOptions):
        if self.rng.random() < 0.5:
            return None
        moves = [("cover", s) for s in options.cover] + [("extra_turn", s) for s in options.extra_turn]
        if options.neighborhood:
            moves += [
                ("neighborhood", s) for s in rules.neighborhood_targets(view.board, view.cell, view.seat)
            ]
        return self.rng.choice(moves) if moves else None

    def protect(self, view: View, space: int) -> bool:
        return self.rng.random() < 0.5


@dataclass(frozen=True)
class GreedyNumbers:
    """The greedy player's power thresholds: its strategy's parameters (`greedy:extra_at=6`)."""

    extra_at: int = number(
        4, "Extra Turn when an open marker scores at least this many points", minimum=0, maximum=100
    )
    hood_at: int = number(
        4, "Neighborhood when a target scores at least this many points", minimum=0, maximum=100
    )


@dataclass(frozen=True)
class MissionsNumbers:
    """The missions player's weights and thresholds: its strategy's parameters."""

    loss: float = number(
        5.0, "end-of-game value of one disc (a capture's cost, a defence's gain)", minimum=0.0, maximum=100.0
    )
    opener: float = number(
        0.3, "per point of a city this disc is the first of ours to touch", minimum=0.0, maximum=100.0
    )
    protection_step: float = number(
        2.0, "per unmet Global Protection requirement this disc advances", minimum=0.0, maximum=100.0
    )
    capture_risk: float = number(
        0.6, "chance an open marker opposite a base flips and captures this disc", minimum=0.0, maximum=1.0
    )
    extra_at: float = number(
        6.0, "Extra Turn when an open marker is worth at least this much", minimum=0.0, maximum=100.0
    )
    hood_at: float = number(
        6.0, "Neighborhood when a target is worth at least this much", minimum=0.0, maximum=100.0
    )


class GreedyPlayer(Player):
    """The most points from this placement (cities and herds), then the most bases destroyed, then
    a National Park; ties by a coin. Powers by simple rules: Cover whenever offered (on the best
    space); Extra Turn when an open marker scores at least `extra_at` points or destroys a base, or
    in the last round; Neighborhood when a target scores at least `hood_at` points, or in the last
    round; Protection on the first disc about to be captured."""

    NUMBERS = GreedyNumbers()

    def _best(self, view: View, spaces) -> tuple[int, tuple[int, int, bool]]:
        """The space with the best (points, bases destroyed, park) now; a coin among equals.
        `rules.gain` written out: this is the hot loop of every game."""
        board, cell, p = view.board, view.cell, view.seat
        cc = view.own_city_cnt
        space_cities, value, herd_region, lines, park = (
            board.space_cities,
            board.city_value,
            board.herd_region,
            board.lines,
            board.park,
        )
        best, best_key, ties = 0, -1, 0
        for s in spaces:
            pts = 0
            for ci in space_cities[s]:
                if cc[ci]:
                    pts += value[ci]
            if herd_region[s] >= 0:
                pts += 2 * rules.herd_group(board, cell, p, s)
            n_destroyed = 0
            for n1, n2 in lines[s]:
                if cell[n1] == BASE and cell[n2] >= 0:
                    n_destroyed += 1
            key = pts * 64 + n_destroyed * 2 + park[s]
            if key > best_key:
                best, best_key, ties = s, key, 1
            elif key == best_key:
                ties += 1
                if self.rng.random() * ties < 1:  # uniform among equals
                    best = s
        return best, (best_key >> 6, (best_key & 63) >> 1, bool(best_key & 1))

    def place(self, view: View, options: tuple[int, ...]) -> int:
        return self._best(view, options)[0]

    def power(self, view: View, options: PowerOptions):
        last = view.round >= view.rounds
        if options.cover:
            return ("cover", self._best(view, options.cover)[0])
        if options.extra_turn:
            s, (pts, n_destroyed, _) = self._best(view, options.extra_turn)
            if pts >= self.numbers.extra_at or n_destroyed or last:
                return ("extra_turn", s)
        if options.neighborhood:
            # only bases next to the disc just placed (new chances), or any in the last round
            cell, board = view.cell, view.board
            if last:
                targets = rules.neighborhood_targets(board, cell, view.seat)
            else:
                targets = [t for t in board.neighbors[options.last] if cell[t] == BASE]
            if targets:
                s, (pts, _, _) = self._best(view, targets)
                if pts >= self.numbers.hood_at or last:
                    return ("neighborhood", s)
        return None

    def protect(self, view: View, space: int) -> bool:
        return True


class MissionsPlayer(GreedyPlayer):
    """Greedy plus the end of the game: each open marker is valued by its points now, plus the
    marginal points it adds to its own City and Border cards, the National Parks, Alien Bases and
    Territorial Expansion tables, progress toward Global Protection, a little for cities it opens
    for a later disc, and the discs it saves by defending a marker whose flip would capture them;
    less the expected loss when the disc itself is likely to be captured (a base on one side and an
    undrawn or open marker on the other). Powers as `greedy`, judged by the same value."""

    NUMBERS = MissionsNumbers()

    def _context(self, view: View) -> dict:
        """Per-decision facts about the deciding seat: mission counts and its disc groups."""
        board, cell, p = view.board, view.cell, view.seat
        cc = view.own_city_cnt
        card, border = view.city_card[p], view.border_card[p]
        value = board.city_value
        touched_card = sum(1 for ci, n in enumerate(cc) if n and value[ci] == card)
        value1 = sum(1 for ci, n in enumerate(cc) if n and value[ci] == 1)
        own_border = board.borders[border]
        group_of: dict[int, int] = {}
        sizes: list[int] = []
        herds = other = on_border = 0
        for s in range(1, board.n + 1):
            if cell[s] != p:
                continue
            if s in own_border:
                on_border += 1
            elif board.border_mask[s]:
                other += 1
            if board.herd_region[s] >= 0:
                herds += 1
            if s in group_of:
                continue
            gid = len(sizes)
            group_of[s] = gid
            stack, size = [s], 1
            while stack:
                for t in board.neighbors[stack.pop()]:
                    if cell[t] == p and t not in group_of:
                        group_of[t] = gid
                        stack.append(t)
                        size += 1
            sizes.append(size)
        return {
            "card": card,
            "touched_card": touched_card,
            "own_border": own_border,
            "on_border": on_border,
            "group_of": group_of,
            "sizes": sizes,
            "largest": max(sizes, default=0),
            "needs": (
                board.protection_value1 - value1 > 0,
                board.protection_herds - herds > 0,
                board.protection_borders - other > 0,
            ),
            "undefended": 2.0 / (view.players + 2),  # share of each round's markers that flip
        }

    def value(self, view: View, s: int, ctx: dict) -> float:
        board, cell, p = view.board, view.cell, view.seat
        cc = view.own_city_cnt
        pts, n_destroyed, park = rules.gain(board, cell, cc, p, s)
        v = float(pts)
        value = board.city_value
        new_card = opened = 0
        for ci in board.space_cities[s]:
            if not cc[ci]:
                opened += value[ci]
                if value[ci] == ctx["card"]:
                    new_card += 1
        if new_card:
            table, k = board.city_tables[ctx["card"]], ctx["touched_card"]
            v += points(table, k + new_card) - points(table, k)
        v += self.numbers.opener * opened
        if s in ctx["own_border"]:
            table, k = board.border_tables[view.border_card[p]], ctx["on_border"]
            v += points(table, k + 1) - points(table, k)
        if park and view.park_markers:
            k = view.parks[p]
            v += points(board.parks_table, k + 1) - points(board.parks_table, k)
        if n_destroyed:
            k = view.bases[p]
            v += points(board.bases_table, k + n_destroyed) - points(board.bases_table, k)
        # territory: the groups this disc joins
        group_of, sizes = ctx["group_of"], ctx["sizes"]
        joined = {group_of[t] for t in board.neighbors[s] if t in group_of}
        size = 1 + sum(sizes[g] for g in joined)
        if size > ctx["largest"]:
            v += points(board.territory_table, size) - points(board.territory_table, ctx["largest"])
        # Global Protection progress
        need_v1, need_herd, need_border = ctx["needs"]
        if need_v1 and any(value[ci] == 1 and not cc[ci] for ci in board.space_cities[s]):
            v += self.numbers.protection_step
        if need_herd and board.herd_region[s] >= 0:
            v += self.numbers.protection_step
        if need_border and board.border_mask[s] and s not in ctx["own_border"]:
            v += self.numbers.protection_step
        # discs of ours this marker would capture if it flipped: defending it saves them
        saved = sum(1 for t in rules.captures_on_flip(board, _as_base(cell, s), s) if cell[t] == p)
        v += self.numbers.loss * saved
        # risk that this disc is captured later
        risk = 0.0
        for a, b in board.opposite[s]:
            ca, cb = cell[a], cell[b]
            if ca == BASE or cb == BASE:
                other = cb if ca == BASE else ca
                if other == NONE:
                    risk += ctx["undefended"]
                elif other == ATTACK:
                    risk += self.numbers.capture_risk
        if risk and view.powers[p] & PROTECTION:
            risk *= 0.5
        return v - self.numbers.loss * min(risk, 1.0)

    def _best_value(self, view: View, spaces) -> tuple[int, float]:
        ctx = self._context(view)
        best, best_v, ties = 0, float("-inf"), 0
        for s in spaces:
            v = self.value(view, s, ctx)
            if v > best_v + 1e-9:
                best, best_v, ties = s, v, 1
            elif abs(v - best_v) <= 1e-9:
                ties += 1
                if self.rng.random() * ties < 1:
                    best = s
        return best, best_v

    def place(self, view: View, options: tuple[int, ...]) -> int:
        return self._best_value(view, options)[0]

    def power(self, view: View, options: PowerOptions):
        last = view.round >= view.rounds
        if options.cover:
            return ("cover", self._best_value(view, options.cover)[0])
        if options.extra_turn:
            s, v = self._best_value(view, options.extra_turn)
            if v >= self.numbers.extra_at or last:
                return ("extra_turn", s)
        if options.neighborhood:
            cell, board = view.cell, view.board
            if last:
                targets = rules.neighborhood_targets(board, cell, view.seat)
            else:
                targets = [t for t in board.neighbors[options.last] if cell[t] == BASE]
            if targets:
                s, v = self._best_value(view, targets)
                if v >= self.numbers.hood_at or last:
                    return ("neighborhood", s)
        return None


class _AsBase:
    """`cell` as it would read with a base on one space (for 'what would this flip capture')."""

    __slots__ = ("cell", "s")

    def __init__(self, cell, s):
        self.cell, self.s = cell, s

    def __getitem__(self, i):
        return BASE if i == self.s else self.cell[i]


def _as_base(cell, s):
    return _AsBase(cell, s)


@dataclass(frozen=True)
class RolloutNumbers(MissionsNumbers):
    """The rollout player's numbers: its strategy's parameters (`rollout:rollouts=32`); its own
    powers and Protection use the missions numbers (its playouts' players play the defaults)."""

    rollouts: int = number(8, "playouts per open marker (K)", minimum=1, maximum=1000)
    win: int = number(10, "a win is worth this many points of margin", minimum=0, maximum=1000)


class RolloutPlayer(MissionsPlayer):
    """Flat Monte Carlo: every open marker of its mandatory placement is tried `rollouts` times;
    each playout copies the table as this seat sees it (the Mothership's hidden order is a fresh
    shuffle of the undrawn markers), places the disc, and plays the game out with `missions` in
    every seat, its own included (power windows too): the strongest cheap model of the others.
    Playout j of every candidate uses the same Mothership order and player seeds (common random
    numbers). A candidate's value is its mean final margin (own total less the best other total,
    +`win` for a win). Powers and Protection as `missions` (inherited)."""

    playout = MissionsPlayer  # plays every seat in the playouts, at its defaults
    NUMBERS = RolloutNumbers()

    @property
    def rollouts(self) -> int:
        return self.numbers.rollouts

    def place(self, view: View, options: tuple[int, ...]) -> int:
        if len(options) == 1:
            return options[0]
        rng = self.rng
        p = view.seat
        base = state_from_view(view, rng)
        order = (p - view.first_player) % view.players
        # common random numbers: playout j of every candidate sees the same Mothership order and
        # the same choices of the playout players, so candidates are compared as pairs
        plans = []
        for _ in range(self.rollouts):
            bag = base.bag[:]
            rng.shuffle(bag)
            plans.append((bag, rng.getrandbits(64)))
        best, best_v = options[0], float("-inf")
        for s in options:
            total = 0.0
            for bag, seed in plans:
                st = base.copy()
                st.bag = bag[:]
                prng = random.Random(seed)
                seats = [self.playout(prng) for _ in range(view.players)]
                g = Game(st, seats, None)
                st.open.remove(s)
                destroyed = g._place(p, s, "turn")
                g._powers(p, s, destroyed)
                g.finish_round(order + 1)
                g.play_rest()
                final = rules.final_scores(st)
                totals = [f["total"] for f in final]
                others = max(t for q, t in enumerate(totals) if q != p)
                won = p in rules.winners(totals, [f["best_city"] for f in final])
                total += totals[p] - others + (self.numbers.win if won else 0)
            if total > best_v:
                best, best_v = s, total
        return best
