"""Dice race (2-4 players), a game that plugs into simkit from outside.

Rules: the seats take turns from seat 0. On its turn a seat says whether it moves by one die or by
two, then rolls two dice; it moves by the first die, or by both. Whoever lands exactly on the
target (20) wins at once; a move past it is lost (the seat stays where it was: an overshoot).
After `max_rounds` rounds with no winner the game ends undecided.

Chance: seat k's dice come from its own stream (`seeds.stream(seq, CHANCE, k)`), two dice every
turn whatever it chose, so game i rolls the same dice under every strategy (common random numbers).
A seat's own choices (the `random` strategy) draw from `seeds.stream(seq, FIRST_SEAT + k)`.

Importing this module registers the engine: simkit imports it through the `simkit.games` entry
point in pyproject.toml.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from simkit.core import seeds
from simkit.core.narration import tell
from simkit.core.registry import Column, Engine, GameResult, GoldenCase, Setting, record_head, register
from simkit.core.strategies import Strategy, declare, number


class Player:
    """A seat's strategy: how many dice (1 or 2) to move by, `distance` squares from the target."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def dice(self, distance: int) -> int:
        raise NotImplementedError


@dataclass(frozen=True)
class ThresholdNumbers:
    """A threshold player's one number: its strategy's parameter (`safe:two_dice_above=9`)."""

    two_dice_above: int = number(12, "squares left above which two dice are rolled", minimum=0, maximum=100)


class Safe(Player):
    """Two dice while more than `two_dice_above` squares are left (12), then one."""

    NUMBERS = ThresholdNumbers()

    def __init__(self, rng: random.Random, **numbers: Any) -> None:
        super().__init__(rng)
        self.two_dice_above = replace(self.NUMBERS, **numbers).two_dice_above

    def dice(self, distance: int) -> int:
        return 2 if distance > self.two_dice_above else 1


class Risky(Safe):
    NUMBERS = ThresholdNumbers(two_dice_above=6)


class Coin(Player):
    def dice(self, distance: int) -> int:
        return self.rng.choice((1, 2)) if distance > 1 else 1


STRATEGIES = declare(
    Strategy("risky", Risky, "two dice until 6 or fewer squares are left, then one"),
    Strategy("safe", Safe, "two dice until 12 or fewer squares are left, then one"),
    Strategy("random", Coin, "a coin flip between one die and two"),
)


def play_game(params: Any, strategies: Sequence[str], root_seed: int, game_index: int, log: list | None):
    """One whole game: (record, seats); `log` (a list, or None) receives the events."""
    n = params.players
    seq = seeds.game_sequence(root_seed, game_index)
    dice = [seeds.stream(seq, seeds.CHANCE, k) for k in range(n)]
    crew = [ENGINE.player(s, seeds.stream(seq, seeds.FIRST_SEAT + k)) for k, s in enumerate(strategies)]
    position, overshoots, doubles = [0] * n, [0] * n, [0] * n
    if log is not None:
        log.append({"event": "start", "players": n, "target": params.target, "strategies": list(strategies)})
    winner, rounds = None, 0
    while winner is None and rounds < params.max_rounds:
        rounds += 1
        for seat in range(n):
            used = crew[seat].dice(params.target - position[seat])
            if used not in (1, 2):
                raise ValueError(f"seat {seat}: a player moves by 1 or 2 dice, not {used!r}")
            roll = [dice[seat].randint(1, 6), dice[seat].randint(1, 6)]
            move = sum(roll[:used])
            before, after = position[seat], position[seat] + move
            over = after > params.target
            doubles[seat] += used == 2
            if over:
                overshoots[seat] += 1
            else:
                position[seat] = after
            if log is not None:
                log.append(
                    {
                        "event": "turn",
                        "round": rounds,
                        "seat": seat,
                        "dice": roll,
                        "used": used,
                        "from": before,
                        "to": position[seat],
                        "overshoot": over,
                    }
                )
            if position[seat] == params.target:
                winner = seat
                break
    reason = "reached" if winner is not None else "round_limit"
    if log is not None:
        log.append(
            {"event": "end", "round": rounds, "reason": reason, "winner": winner, "positions": position}
        )
    record = {
        "won": None,  # a race: the seats win or lose alone (the seat rows say who)
        "score": max(position),
        "length": rounds,
        "end_reason": reason,
        "winning_seat": winner,
        "overshoots": sum(overshoots),
    }
    seats = [
        {"won": k == winner, "score": position[k], "overshoots": overshoots[k], "two_dice_turns": doubles[k]}
        for k in range(n)
    ]
    return record, seats


class DiceRace(Engine):
    id = "dice-race"
    title = "Dice race (example)"
    min_players = 2
    max_players = 4
    competitive = True
    settings = (
        Setting("players", "int", 2, "seats at the table", minimum=2, maximum=4),
        Setting("target", "int", 20, "the square to land on exactly", minimum=2, maximum=100),
        Setting("max_rounds", "int", 100, "rounds before the game ends undecided", minimum=1, maximum=10000),
    )
    strategies = STRATEGIES
    default_strategy = "safe"
    record = (
        *record_head(("reached", "round_limit"), won_nullable=True),
        Column("winning_seat", "int", nullable=True),
        Column("overshoots", "int"),
    )
    seat_record = (
        Column("won", "bool"),
        Column("score", "int"),
        Column("overshoots", "int"),
        Column("two_dice_turns", "int"),
    )
    capabilities = frozenset({"narrate"})
    # The goldens sit in golden/ beside this file (simkit.testing.contract.golden_folder).
    golden_cases = (
        GoldenCase("safe-risky-s11", {"players": 2}, ("safe", "risky"), 11),
        GoldenCase("risky-safe-random-s12", {"players": 3}, ("risky", "safe", "random"), 12),
        GoldenCase("risky-x4-target12-s13", {"players": 4, "target": 12}, ("risky",) * 4, 13),
    )

    def data_files(self, settings: Any) -> list:
        return []  # no component file

    def data_sources(self, settings: Any) -> dict:
        return {}

    def _args(self, settings: Any, strategies: Sequence[str]) -> Any:
        params = self.params(settings)
        if len(strategies) != params.players:
            raise ValueError(f"{len(strategies)} strategies for {params.players} seats")
        return params

    def play(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> GameResult:
        record, seats = play_game(self._args(settings, strategies), strategies, root_seed, game_index, None)
        return GameResult(record, seats)

    def replay(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> list[dict]:
        log: list[dict] = []
        play_game(self._args(settings, strategies), strategies, root_seed, game_index, log)
        return log

    def narrate(self, events: list[dict]) -> list[str]:
        """The event log told as at the table; an event it has no words for keeps its fields
        (`simkit.core.narration.tell`), so a replay never loses one."""
        return [line for e in events for line in tell(e, None, HANDLERS)]


def _start(e: dict, story: None) -> list[str]:
    return [f"{e['players']} seats race to square {e['target']}: {', '.join(e['strategies'])}"]


def _turn(e: dict, story: None) -> list[str]:
    dice = " and ".join(str(d) for d in e["dice"][: e["used"]])
    what = f"overshoots, stays on {e['to']}" if e["overshoot"] else f"moves {e['from']} -> {e['to']}"
    return [f"round {e['round']}: seat {e['seat']} takes {dice}: {what}"]


def _end(e: dict, story: None) -> list[str]:
    who = f"seat {e['winner']} wins" if e["winner"] is not None else "nobody reached it"
    return [f"after {e['round']} rounds {who} (squares {e['positions']})"]


HANDLERS = {"start": _start, "turn": _turn, "end": _end}
ENGINE = register(DiceRace())
