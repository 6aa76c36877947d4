"""Oh no... INVASION!!! (cooperative, 3-5 players; 2 outside the box): the registered engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simkit.core import seeds
from simkit.core.registry import Column, GoldenCase, SelfPlayingEngine, Setting, record_head, register
from simkit.core.strategies import Strategy, declare, param, search_strategy, share_param
from simkit.games.oh_no_invasion import components, draw, narrate, native, players
from simkit.games.oh_no_invasion.game import STAT_KEYS, Game, Streams

# The levels' names (The Next Level), stated once: the `level` setting's labels. The narration and
# the report read them through LEVEL (`LEVEL.label(1)` is "1 (Private McEasy)").
LEVEL_NAMES = {0: "Mister Vanilla", 1: "Private McEasy", 2: "Commander Roughit", 3: "Captain Fabulous"}
LEVEL = Setting(
    "level",
    "int",
    1,
    ", ".join(
        f"{k} {name}" + (" (the rulebook's game)" if k == 1 else "") for k, name in LEVEL_NAMES.items()
    ),
    choices=tuple(LEVEL_NAMES),
    labels=LEVEL_NAMES,
)


class OhNoInvasion(SelfPlayingEngine):
    id = "oh-no-invasion"
    title = "Oh no... INVASION!!!"
    min_players = 2
    max_players = 5
    competitive = False
    settings = (
        Setting(
            "players",
            "int",
            4,
            "crew size: 3-5 as in the box; 2 is outside the box (an extension, not in the rulebook)",
            choices=(2, 3, 4, 5),
        ),
        LEVEL,
        Setting("data", "path", None, "component file (TOML); default: the built-in invented set"),
    )
    component_spec = components.FILE_SPEC
    strategies = declare(
        Strategy(
            "random",
            players.RandomPlayer,
            "legal choices at random (the Final Conflict: 1 in 10 at each chance)",
        ),
        Strategy(
            "cautious",
            players.CautiousCrew,
            "clears stations early, zaps freely, passes weapons; calls the Final Conflict at the threshold",
        ),
        Strategy(
            "bold",
            players.BoldCrew,
            "hoards weapons, zaps and clears only big threats; calls the Final Conflict at the threshold",
        ),
        search_strategy(
            "rollouts by the bold crew; levels 0-2 the crew searches as one, level 3 each player sees "
            "only its hand",
            400,
            0.7,
            share_param(
                "survivors",
                0.25,
                "a win's value is 1 less this share for the crew lost (the score counts survivors)",
            ),
            share_param(
                "progress",
                0.2,
                "a lost game's value: this times the share of the Shield aliens struck",
            ),
            param("bold_rollout", "bool", True, "rollouts by the bold crew (false: by the cautious one)"),
        ),
    )
    default_strategy = "cautious"
    record = (
        *record_head(("spawnmonster_destroyed", "shields_complete", "crew_eliminated")),
        Column("survivors", "int"),
        Column("final_conflict_called", "bool"),
        Column("final_conflict_turn", "int"),  # 0 when not called
        Column("final_conflict_moment", "str", labels=("", "start", "after_combat")),  # "" when not called
        Column("final_conflict_shields", "int"),  # -1 when not called
        Column("final_conflict_weapons", "int"),  # -1 when not called
        Column("shields_in_play", "int"),
        *(Column(name, "int") for name in STAT_KEYS),
    )
    capabilities = frozenset({"narrate", "draw"})
    components, narration, drawing, native = components, narrate, draw, native
    verify_grid = {"players": [3, 4, 5], "level": [0, 1, 2, 3]}
    # Golden playthroughs (simkit/testing/contract.py); files in tests/games/oh_no_invasion/golden.
    golden_cases = tuple(
        GoldenCase(
            f"{s}-p{p}-l{lv}-s{seed}",
            {"players": p, "level": lv, "data": None},
            (s,),
            seed,
        )
        for s, p, lv, seed in (
            ("random", 3, 1, 11),
            ("cautious", 4, 1, 12),
            ("cautious", 5, 0, 13),
            ("bold", 3, 2, 14),
            ("cautious", 4, 3, 15),
        )
    )

    def start(self, params: Any, comp: Any, strategies: Sequence[str], seq: Any, log: list | None) -> Game:
        resistance, spawn = seeds.streams(seq, 2, seeds.CHANCE)
        streams = Streams(setup=seeds.stream(seq, seeds.SETUP), resistance=resistance, spawn=spawn)
        crew = [self.player(strategies[0], seeds.SeatStream(seq, k)) for k in range(params.players)]
        return Game(comp, params.players, params.level, crew, streams, log)


ENGINE = register(OhNoInvasion())
