"""The mutable state of one Alien Attack: USA game: small ints and flat lists, cheap to copy.

`cell[s]` (s = 1..120) says what lies on space s:
  NONE    no marker yet (its attack marker is still in the Mothership)
  ATTACK  an attack marker of this round, number up, no disc on it
  BASE    a permanent alien base (a flipped marker)
  EMPTY   a destroyed base was removed: an empty space, coverable only by Cover or Neighborhood
  LOST    a marker whose disc was captured: inert for the rest of the game
  0..3    a defense disc of that seat
`cell[0]` is NEUTRAL: the pseudo-space `components.ICON` that stands for every Canada icon, so the
destruction test "a disc of any colour, or an icon, behind the base" is `cell[behind] >= 0`.
"""

from __future__ import annotations

from simkit.games.alien_attack.components import Board

NONE, ATTACK, BASE, EMPTY, LOST = -1, -2, -3, -4, -5
NEUTRAL = 4  # a Canada icon: a neutral disc for base destruction only

# Special power bits (each once per game per player).
PROTECTION, COVER, NEIGHBORHOOD, EXTRA = 1, 2, 4, 8
ALL_POWERS = PROTECTION | COVER | NEIGHBORHOOD | EXTRA
POWER_NAMES = {PROTECTION: "protection", COVER: "cover", NEIGHBORHOOD: "neighborhood", EXTRA: "extra_turn"}


class State:
    """Everything on the table. Per-seat values are lists indexed by seat (0 = first seat)."""

    __slots__ = (
        "board",
        "players",
        "cell",
        "bag",
        "round",
        "rounds",
        "open",
        "extra_users",
        "discs",
        "score",
        "powers",
        "parks",
        "park_markers",
        "bases",
        "city_cnt",
        "placed",
        "captured",
        "city_card",
        "border_card",
    )

    def __init__(self, board: Board, players: int, city_card: list[int], border_card: list[str]) -> None:
        self.board = board
        self.players = players
        self.cell = [NEUTRAL] + [NONE] * board.n
        self.bag: list[int] = []  # markers still in the Mothership; drawn from the end
        self.round = 0
        self.rounds = board.n // (players + 2)  # 30 / 24 / 20 rounds
        self.open: list[int] = []  # this round's markers still undefended, ascending
        self.extra_users = 0  # players who used Extra Turn this round
        self.discs = [board.discs] * players
        self.score = [0] * players  # points scored by placements
        self.powers = [ALL_POWERS] * players  # bits of the powers still unused
        self.parks = [0] * players  # National Park markers taken
        self.park_markers = board.park_markers  # left beside the board
        self.bases = [0] * players  # alien bases destroyed and kept
        self.city_cnt = [[0] * len(board.cities) for _ in range(players)]  # discs touching each city
        self.placed = [0] * players
        self.captured = [0] * players  # own discs lost to captures
        self.city_card = city_card
        self.border_card = border_card

    def copy(self) -> State:
        new = State.__new__(State)
        new.board = self.board
        new.players = self.players
        new.cell = self.cell[:]
        new.bag = self.bag[:]
        new.round = self.round
        new.rounds = self.rounds
        new.open = self.open[:]
        new.extra_users = self.extra_users
        new.discs = self.discs[:]
        new.score = self.score[:]
        new.powers = self.powers[:]
        new.parks = self.parks[:]
        new.park_markers = self.park_markers
        new.bases = self.bases[:]
        new.city_cnt = [c[:] for c in self.city_cnt]
        new.placed = self.placed[:]
        new.captured = self.captured[:]
        new.city_card = self.city_card
        new.border_card = self.border_card
        return new

    def key(self) -> tuple:
        """Everything that defines the state, for equality checks in tests."""
        return (
            tuple(self.cell),
            tuple(self.bag),
            self.round,
            self.rounds,
            tuple(self.open),
            self.extra_users,
            tuple(self.discs),
            tuple(self.score),
            tuple(self.powers),
            tuple(self.parks),
            self.park_markers,
            tuple(self.bases),
            tuple(map(tuple, self.city_cnt)),
            tuple(self.placed),
            tuple(self.captured),
            tuple(self.city_card),
            tuple(self.border_card),
        )

    def first_player(self, round_number: int | None = None) -> int:
        """Seat 0 starts round 1; the Mothership passes to the left (the next seat) each round."""
        r = self.round if round_number is None else round_number
        return (r - 1) % self.players
