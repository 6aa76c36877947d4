"""8-Bit Invaders (solo): the registered engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simkit.core import seeds
from simkit.core.players import player_class
from simkit.core.registry import GameResult, Setting, register
from simkit.games.eight_bit_invaders import components, narrate, players
from simkit.games.eight_bit_invaders.game import Game, Streams

STRATEGIES = {
    "random": (players.RandomPlayer, "uniform over achievable kill sets; coin flips for every card"),
    "greedy": (
        players.GreedyPlayer,
        "most kills this turn, avoiding a lethal counterattack on ties; no bonus cards",
    ),
    "lookahead": (
        players.LookaheadPlayer,
        "scores every kill set by the counterattack, bombers, movement and next danger; plays bonus cards",
    ),
}


PLAYER_CLASSES = {name: cls for name, (cls, _) in STRATEGIES.items()}


def _player(name: str, rng: random.Random) -> players.Player:
    """A built-in strategy by name, or a user's `path/file.py:Class` (see RULES.md, "Players")."""
    return player_class(name, PLAYER_CLASSES)(rng)


class EightBitInvaders:
    id = "eight-bit-invaders"
    title = "8-Bit Invaders"
    min_players = 1
    max_players = 1
    competitive = False
    settings = (
        Setting(
            "countdown", "int", 7, "countdown cards at the start (7 = first game, 6 = harder)", choices=(7, 6)
        ),
        Setting("dice", "int", 6, "attack dice rolled each turn (5 = harder)", choices=(6, 5)),
        Setting("data", "path", None, "component file (TOML); default: the built-in invented set"),
    )
    strategies = {name: desc for name, (_, desc) in STRATEGIES.items()}
    default_strategy = "greedy"

    def data_files(self, settings: dict[str, Any]) -> list[Path]:
        return [Path(components.load(settings.get("data")).path)]

    def data_sources(self, settings: dict[str, Any]) -> dict[str, dict[str, str]]:
        comp = components.load(settings.get("data"))
        return {comp.path: comp.sources}

    def _game(
        self,
        settings: dict[str, Any],
        strategies: Sequence[str],
        root_seed: int,
        game_index: int,
        log: list | None,
    ) -> Game:
        comp = components.load(settings.get("data"))
        seq = seeds.game_sequence(root_seed, game_index)
        attack, movement, misc = seeds.streams(seq, 3, seeds.CHANCE)
        streams = Streams(setup=seeds.stream(seq, seeds.SETUP), attack=attack, movement=movement, misc=misc)
        player = _player(strategies[0], seeds.stream(seq, seeds.FIRST_SEAT))
        return Game(comp, settings.get("countdown", 7), settings.get("dice", 6), player, streams, log)

    def play(
        self, settings: dict[str, Any], strategies: Sequence[str], root_seed: int, game_index: int
    ) -> GameResult:
        return GameResult(self._game(settings, strategies, root_seed, game_index, None).play())

    def replay(
        self, settings: dict[str, Any], strategies: Sequence[str], root_seed: int, game_index: int
    ) -> list[dict]:
        log: list[dict] = []
        self._game(settings, strategies, root_seed, game_index, log).play()
        return log

    def narrate(self, events: list[dict]) -> list[str]:
        """The event log told as at the table, for `simkit replay` (narrate.py)."""
        return narrate.narrate(events)


ENGINE = register(EightBitInvaders())
