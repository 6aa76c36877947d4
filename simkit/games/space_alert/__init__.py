"""Space Alert (cooperative, a crew of 4-5 figures): the registered engine.

The action round (real-time planning) is played by scripted crews; the resolution round is
simulated exactly (rules.py). See RULES.md for every rule decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simkit.core import replay_page, seeds
from simkit.core.errors import UserError
from simkit.core.registry import Column, Engine, GameResult, GoldenCase, Setting, record_head, register
from simkit.core.strategies import Strategy, declare, search_strategy, share_param
from simkit.games.space_alert import components, draw, game, narrate, native, plan_file, players

MISSIONS = ("test", "simulation", "real") + tuple(str(i) for i in range(1, 9))


class SpaceAlert(Engine):
    id = "space-alert"
    title = "Space Alert"
    min_players = 1
    max_players = 5
    competitive = False
    settings = (
        Setting(
            "mission",
            "str",
            "real",
            "test | simulation | real (random from the recipe) or a transcribed mission 1-8",
            choices=MISSIONS,
        ),
        Setting("common", "str", "white", "common threat decks", choices=("white", "yellow", "mixed")),
        Setting("serious", "str", "white", "serious threat decks", choices=("white", "yellow", "mixed")),
        Setting("players", "int", 4, "human players (androids complete the crew)", minimum=1, maximum=5),
        Setting(
            "figures",
            "int",
            4,
            "figures aboard (humans + androids)",
            choices=(4, 5),
            # five players need five figures: unless the user says otherwise, one per player, at least 4
            follows=lambda s: max(4, min(5, s["players"])),
            follows_help="5 with 5 players",
        ),
        Setting(
            "hands",
            "str",
            "dealt",
            "dealt action cards, or free (any action any turn; RULINGS §4)",
            choices=("dealt", "free"),
        ),
        Setting(
            "error_rate",
            "float",
            0.0,
            "chance a human misplays a planned card (trips: delayed next turn)",
            minimum=0.0,
            maximum=1.0,
        ),
        Setting(
            "campaign", "int", 1, "missions in a row (3: exploration campaign with repairs)", choices=(1, 3)
        ),
        Setting("data", "path", None, "component file (TOML); default: the built-in data"),
    )
    component_spec = components.FILE_SPEC
    strategies = declare(
        Strategy(
            "random",
            players.RandomPlayer,
            "each turn a coin for playing, then a uniform half of an unused card",
        ),
        Strategy(
            "scripted",
            players.ScriptedPlayer,
            "a gunner per zone, an energy officer, a security officer (5 figures); reacts to known threats",
        ),
        Strategy(
            "planner",
            players.PlannerPlayer,
            "scripted rows improved by local search through the engine on the announced threats (slow)",
        ),
        search_strategy(
            "the crew's cards, one figure's turn a decision; unannounced threats, later "
            "hands and tile orders sampled; rollouts by scripted",
            400,
            0.5,
            share_param(
                "kills",
                0.2,
                "a surviving crew's value: 1 - kills + kills x share of the threats destroyed "
                "(a lost ship is 0)",
            ),
        ),
    )
    default_strategy = "scripted"
    record = (
        *record_head(("survived", "zone_destroyed", "threat_destroyed_ship")),
        *(
            Column(name, "int")
            for name in (
                "threat_points",
                "penalties",
                "visual_points",
                "damage_red",
                "damage_white",
                "damage_blue",
                "damage_total",
                "threats",
                "threats_destroyed",
                "threats_survived",
            )
        ),
        # threat card ids, comma-separated in the order of play ("" when none)
        Column("destroyed_ids", "str"),
        Column("survived_ids", "str"),
        Column("on_board_ids", "str"),
        Column("threat_ids", "str"),
        Column("lost_to", "str"),  # the threat that destroyed the ship ("" when it survived)
        Column("knocked_out", "int"),
        Column("disabled_bots", "int"),
        Column("fuel_left", "int"),
        Column("rockets_left", "int"),
        Column("campaign_missions", "int"),
    )
    components, narration, native = components, narrate, native
    capabilities = frozenset({"narrate", "check_settings", "resolve", "draw"})
    rules_version = 2  # 2: an unrepaired battlebot squad stays off the board until repaired
    # Generated and transcribed missions, deck colours, 4 and 5 figures with 4 players; then every
    # other mission kind, every deck colour of both kinds, and crews of 1-5 players (figures
    # following: 4, or 5 for five), one factor at a time.
    verify_grid = {
        "mission": ["real", "3"],
        "common": ["white", "yellow"],
        "figures": [4, 5],
    }
    verify_factors = {
        "missions": {"mission": [m for m in MISSIONS if m not in ("real", "3")]},
        "decks": {"common": ["white", "yellow", "mixed"], "serious": ["yellow", "mixed"]},
        "crews": {"players": [1, 2, 3, 5]},
    }
    # the planner plays about 6-12 games/s on the Python engine
    verify_games = {"planner": 16}
    # Golden playthroughs (simkit/testing/contract.py); files in tests/games/space_alert/golden.
    golden_cases = tuple(
        GoldenCase(f"{s}-{'-'.join(f'{k}{v}' for k, v in sorted(st.items()))}-s{seed}", st, (s,), seed)
        for s, st, seed in (
            ("scripted", {"mission": "real"}, 11),
            ("scripted", {"mission": "3", "figures": 5, "players": 3}, 12),
            ("random", {"mission": "test", "hands": "free"}, 13),
            (
                "scripted",
                {"mission": "simulation", "common": "yellow", "serious": "yellow", "error_rate": 0.2},
                14,
            ),
        )
    )

    def check_settings(self, params: Any) -> None:
        """Settings that are each allowed but not together (the registry calls this up front)."""
        if params.players > params.figures:
            raise UserError(f"space-alert: players = {params.players} exceeds figures = {params.figures}")

    def _play(
        self,
        settings: Any,
        strategies: Sequence[str],
        root_seed: int,
        game_index: int,
        log: list | None,
        watch: Any = None,
    ) -> dict:
        params = self.params(settings)
        self.check_settings(params)  # and here too: play() may be handed settings never resolved
        comp = components.load(params.data)
        seq = seeds.game_sequence(root_seed, game_index)
        return game.play_game(
            comp,
            params,
            lambda k: self.player(strategies[0], seeds.SeatStream(seq, k)),
            seeds.stream(seq, seeds.SETUP),
            seeds.streams(seq, 2, seeds.CHANCE),
            log,
            watch,
        )

    def play(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> GameResult:
        return GameResult(self._play(settings, strategies, root_seed, game_index, None))

    def replay(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> list[dict]:
        log: list[dict] = []
        self._play(settings, strategies, root_seed, game_index, log)
        return log

    def draw_replay(
        self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int
    ) -> list[replay_page.Step]:
        """The game as the replay page's steps: the table pictured after every event (draw.py)."""
        log = replay_page.WatchedLog()
        params = self.params(settings)
        table = draw.Table(str(params.mission), components.load(params.data))

        def watch(st: Any) -> None:  # each mission of a campaign plays on a new state
            table.new_mission(st)
            if log.look is None:
                log.watch(lambda: draw.look(table))

        self._play(settings, strategies, root_seed, game_index, log, watch)
        return replay_page.steps(log, narrate.narrate_steps(log), draw.draw)

    def resolve(self, plan: str | Path, data: str | Path | None = None) -> tuple[list[dict], dict]:
        """A plan file (see plan_file.py) -> (event log, score): for `simkit resolve`."""
        return plan_file.resolve_file(plan, data)

    def format_resolution(self, log: list[dict], result: dict) -> str:
        """The resolution as text, turn by turn, then the outcome and the score."""
        return plan_file.format_log(log, result)


ENGINE = register(SpaceAlert())
