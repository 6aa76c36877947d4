"""8-Bit Invaders (solo): the registered engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simkit.core import seeds
from simkit.core.errors import UserError
from simkit.core.registry import Column, GoldenCase, SelfPlayingEngine, Setting, record_head, register
from simkit.core.strategies import Strategy, declare, param, search_strategy, share_param
from simkit.games.eight_bit_invaders import components, draw, narrate, native, players
from simkit.games.eight_bit_invaders.game import STATS, Game, Streams


class EightBitInvaders(SelfPlayingEngine):
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
    component_spec = components.FILE_SPEC
    strategies = declare(
        Strategy(
            "random", players.RandomPlayer, "uniform over achievable kill sets; coin flips for every card"
        ),
        Strategy(
            "greedy",
            players.GreedyPlayer,
            "most kills this turn, avoiding a lethal counterattack on ties; no bonus cards",
        ),
        Strategy(
            "lookahead",
            players.LookaheadPlayer,
            "scores every kill set by the counterattack, bombers, movement and next danger; "
            "plays bonus cards",
        ),
        search_strategy(
            "weighs lookahead's best plans, rollouts by lookahead",
            200,
            0.5,
            param(
                "width",
                "int",
                6,
                "plans weighed at an allocation: lookahead's best this many (0: every one)",
                minimum=0,
                maximum=10_000,
            ),
            share_param(
                "progress",
                0.5,
                "a lost game's value: this times the share of the aliens killed (a win is 1)",
            ),
            param("lookahead_rollout", "bool", True, "rollouts by lookahead (false: by greedy, faster)"),
        ),
    )
    default_strategy = "greedy"
    record = (
        *record_head(("cleared", "shot_down", "landed")),
        Column("aliens_left", "int"),
        Column("countdown_left", "int"),
        Column("shields_left", "int"),
        *(Column(name, "int") for name in STATS),
    )
    capabilities = frozenset({"narrate", "check_settings", "draw"})
    # Golden playthroughs (simkit/testing/contract.py); files in tests/games/eight_bit_invaders/golden.
    golden_cases = tuple(
        GoldenCase(f"{s}-c{c}-d{d}-s{seed}", {"countdown": c, "dice": d, "data": None}, (s,), seed)
        for s, c, d, seed in (
            ("random", 7, 6, 11),
            ("greedy", 7, 6, 12),
            ("greedy", 6, 5, 13),
            ("lookahead", 7, 6, 21),
        )
    )
    components, narration, drawing, native = components, narrate, draw, native
    verify_grid = {"countdown": [7, 6], "dice": [6, 5]}  # the four difficulties
    rules_version = 2  # 2: the shields follow the faces' parity under Rocket Fuel (RULINGS §3)

    def check_settings(self, params: Any) -> None:
        """The box bounds the settings: no more countdown cards than it holds, and no more dice
        than it supplies for a turn that rolls every attack die and every Rapid Fire card."""
        comp = components.load(params.data)
        if params.countdown > comp.countdown_cards:
            raise UserError(
                f"countdown = {params.countdown} exceeds the {comp.countdown_cards} countdown cards "
                f"of {comp.path}"
            )
        most = params.dice + comp.bonus_deck.count("rapid_fire")
        if most > comp.dice_supplied:
            raise UserError(
                f"dice = {params.dice} with every Rapid Fire card rolls {most} dice, more than the "
                f"{comp.dice_supplied} that {comp.path} supplies"
            )

    def start(self, params: Any, comp: Any, strategies: Sequence[str], seq: Any, log: list | None) -> Game:
        attack, movement, misc = seeds.streams(seq, 3, seeds.CHANCE)
        streams = Streams(setup=seeds.stream(seq, seeds.SETUP), attack=attack, movement=movement, misc=misc)
        player = self.player(strategies[0], seeds.stream(seq, seeds.FIRST_SEAT))
        return Game(comp, params.countdown, params.dice, player, streams, log)


ENGINE = register(EightBitInvaders())
