"""The mutable state of one Oh no... INVASION!!! game: small ints and lists, cheap to copy.

Cards are ints (components.py): Resistance 0..43, Spawn 0..61. Seats 0..n-1 sit clockwise; turns
go clockwise (seat + 1). Each station is four parallel pieces of the state, indexed by seat:
- `mods[s]`: the Resistance cards of its modules (the Hub first, then in build order);
- `sabo[s]`: per module, the Sabotalien card sitting next to it, or -1;
- `flipped[s]`: per module, whether it is sabotaged (turned 180 degrees);
- `aliens[s]`: the Invalien and Evaporalien cards placed there; `figs[s][colour]` counts the alien
  figures of each colour among them (a card shows 1-4).
Piles are lists whose top is the end of the list.
"""

from __future__ import annotations

import random

from simkit.games.oh_no_invasion.components import Components


class State:
    __slots__ = (
        "n",
        "level",
        "deck",
        "discard",
        "box",
        "spawn_deck",
        "spawn_discard",
        "shields",
        "hands",
        "mods",
        "sabo",
        "flipped",
        "aliens",
        "figs",
        "alive",
        "active",
        "turn",
        "final_conflict",
        "catalyst_used",
        "end_reason",
        "category",
        "works",
        "flying",
        "symbols",
        "shown",
    )

    def __init__(
        self, n: int, level: int, category: tuple[int, ...], symbols: tuple[tuple[int, ...], ...]
    ) -> None:
        self.n = n
        self.level = level
        self.category = category  # Components.res_category: what each Resistance card is
        self.symbols = symbols  # Components.res_symbols: the colours each module shows
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.box: list[int] = []
        self.spawn_deck: list[int] = []
        self.spawn_discard: list[int] = []
        self.shields: list[int] = []  # Shield alien cards placed next to the Spawnmonster
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.mods: list[list[int]] = [[] for _ in range(n)]
        self.sabo: list[list[int]] = [[] for _ in range(n)]
        self.flipped: list[list[bool]] = [[] for _ in range(n)]
        self.aliens: list[list[int]] = [[] for _ in range(n)]
        self.figs: list[list[int]] = [[0] * 8 for _ in range(n)]
        self.alive: list[bool] = [True] * n
        self.active = 0
        self.turn = 0
        self.final_conflict = False
        self.catalyst_used = False  # level 2+: a Catalyst has drawn its extra card this turn
        self.end_reason: str | None = None
        # works[s][category]: unsabotaged modules of each category (HUB..TELEPORTER) at station s,
        # kept by `recount` whenever a station changes (the hot loop asks this often)
        self.works: list[list[int]] = [[0, 0, 0, 0] for _ in range(n)]
        # shown[s][colour]: modules of station s showing that colour (sabotaged ones too)
        self.shown: list[list[int]] = [[0] * 8 for _ in range(n)]
        self.flying = -1  # the Spawn card drawn and not yet resolved (an invader or a kamikaze)

    def recount(self, seat: int) -> None:
        """Recompute `works` and `shown` for a station after any change to its modules."""
        counts = [0, 0, 0, 0]
        shown = [0] * 8
        cat, symbols = self.category, self.symbols
        for m, f in zip(self.mods[seat], self.flipped[seat], strict=True):
            if not f:
                counts[cat[m]] += 1
            for colour in symbols[m]:
                shown[colour] += 1
        self.works[seat] = counts
        self.shown[seat] = shown

    def copy(self) -> State:
        s = State.__new__(State)
        s.n, s.level = self.n, self.level
        s.deck, s.discard, s.box = self.deck[:], self.discard[:], self.box[:]
        s.spawn_deck, s.spawn_discard, s.shields = self.spawn_deck[:], self.spawn_discard[:], self.shields[:]
        s.hands = [h[:] for h in self.hands]
        s.mods = [m[:] for m in self.mods]
        s.sabo = [m[:] for m in self.sabo]
        s.flipped = [m[:] for m in self.flipped]
        s.aliens = [m[:] for m in self.aliens]
        s.figs = [m[:] for m in self.figs]
        s.alive = self.alive[:]
        s.active, s.turn, s.final_conflict = self.active, self.turn, self.final_conflict
        s.catalyst_used, s.end_reason = self.catalyst_used, self.end_reason
        s.category, s.symbols = self.category, self.symbols
        s.works = [w[:] for w in self.works]
        s.shown = [w[:] for w in self.shown]
        s.flying = self.flying
        return s

    def key(self) -> tuple:
        """Everything that defines the state, for equality checks in tests."""
        return tuple(
            tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v
            for v in (getattr(self, name) for name in State.__slots__ if name not in ("category", "symbols"))
        )

    def add_module(self, seat: int, card: int) -> None:
        self.mods[seat].append(card)
        self.sabo[seat].append(-1)
        self.flipped[seat].append(False)
        self.recount(seat)

    def resistance_cards(self) -> list[int]:
        """Every Resistance card wherever it is (deck, discards, box, hands, stations)."""
        out = self.deck + self.discard + self.box
        for s in range(self.n):
            out += self.hands[s] + self.mods[s]
        return out

    def spawn_cards(self) -> list[int]:
        """Every Spawn card wherever it is (deck, discards, Spawnmonster, stations)."""
        out = self.spawn_deck + self.spawn_discard + self.shields
        if self.flying >= 0:
            out.append(self.flying)
        for s in range(self.n):
            out += self.aliens[s] + [a for a in self.sabo[s] if a >= 0]
        return out


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Fisher-Yates with one `rng.random()` per card (faster than `Random.shuffle`)."""
    rand = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = int(rand() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def new_game(comp: Components, n: int, level: int, setup_rng: random.Random) -> State:
    """Setup (rulebook, Set up; RULINGS §2): hubs 1..n to seats 0..n-1, the other hubs to the box;
    the rest of the Resistance deck shuffled; the Spawn deck shuffled uniformly. Hands start empty."""
    s = State(n, level, comp.res_category, comp.res_symbols)
    for seat in range(n):
        s.add_module(seat, comp.hubs[seat])
    s.box = list(comp.hubs[n:])
    hubs = set(comp.hubs)
    s.deck = [c for c in range(comp.n_res) if c not in hubs]
    shuffle(setup_rng, s.deck)
    s.spawn_deck = list(range(comp.n_spawn))
    shuffle(setup_rng, s.spawn_deck)
    return s
