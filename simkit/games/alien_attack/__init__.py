"""Alien Attack: USA (competitive, 2-4 players; semi-cooperative variant): the registered engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simkit.core import replay_page, seeds
from simkit.core.registry import Column, Engine, GameResult, GoldenCase, Setting, record_head, register
from simkit.core.strategies import Strategy, declare, param, search_strategy, share_param
from simkit.games.alien_attack import components, draw, narrate, native, players, rules
from simkit.games.alien_attack.game import SEMI_COOP_BASES, Game, new_game
from simkit.games.alien_attack.state import BASE, EMPTY, LOST, POWER_NAMES


def _spaces(spaces) -> str:
    return " ".join(str(s) for s in sorted(spaces))


class AlienAttack(Engine):
    id = "alien-attack"
    title = "Alien Attack: USA"
    min_players = 2
    max_players = 4
    competitive = True
    settings = (
        Setting("players", "int", 2, "number of players (30 / 24 / 20 rounds)", choices=(2, 3, 4)),
        Setting(
            "variant",
            "str",
            "standard",
            "standard, or semi-coop: fewer than 24 bases destroyed and everybody loses",
            choices=("standard", "semi-coop"),
        ),
        Setting("data", "path", None, "board file (TOML); default: the built-in invented board"),
    )
    component_spec = components.FILE_SPEC
    strategies = declare(
        Strategy("random", players.RandomPlayer, "uniform over the open markers; a coin for every power"),
        Strategy(
            "greedy",
            players.GreedyPlayer,
            "most points from this placement, then bases destroyed, then a park; powers by simple rules",
        ),
        Strategy(
            "missions",
            players.MissionsPlayer,
            "greedy plus marginal mission, Global card and Global Protection value; avoids likely captures",
        ),
        Strategy(
            "rollout",
            players.RolloutPlayer,
            "flat Monte Carlo: each open marker scored by `rollouts` playouts (missions players) to the end",
        ),
        search_strategy(
            "every seat's decisions, missions' best power uses, rollouts by missions",
            200,
            0.5,
            param(
                "width",
                "int",
                4,
                "power uses weighed in a window: missions' best this many (0: every one)",
                minimum=0,
                maximum=1_000,
            ),
            share_param(
                "margin",
                0.5,
                "weight of the margin share in a seat's value (the rest: winning)",
            ),
            param(
                "spread",
                "float",
                30.0,
                "lead in points that earns the whole margin share",
                minimum=1,
                maximum=1_000,
            ),
        ),
    )
    default_strategy = "greedy"
    record = (
        # won: None in the standard variant (nobody wins or loses together)
        *record_head(("bag_empty", "earth_wins", "invasion_succeeds"), won_nullable=True),
        Column("winners", "int"),
        Column("winning_seat", "int"),
        Column("margin", "int"),
        Column("bases_destroyed", "int"),
        Column("bases_left", "int"),
        Column("discs_captured", "int"),
        Column("mean_score", "float"),
        Column("base_spaces", "str"),
        Column("capture_spaces", "str"),
    )
    seat_record = (
        Column("city_card", "int"),
        Column("border_card", "str"),
        Column("score", "int"),
        Column("won", "bool"),
        *(
            Column(name, "int")
            for name in (
                "placement_points",
                "city_mission",
                "border_mission",
                "parks",
                "bases",
                "territory",
                "protection",
                "discs_placed",
                "discs_captured",
                "bases_destroyed",
                "parks_taken",
                "largest_group",
                "city_card_cities",
                "border_discs",
                "powers_used",
            )
        ),
        *(Column(f"used_{name}", "bool") for name in POWER_NAMES.values()),
    )
    components, narration, native = components, narrate, native
    capabilities = frozenset({"narrate", "draw"})
    verify_grid = {"players": [2, 3, 4], "variant": ["standard", "semi-coop"]}
    # rollout plays about 0.1-1.3 games/s on the Python engine: 3 games a cell, at a reduced
    # budget and the default, take about a minute of Python there (the variant only changes the
    # record, which the other strategies check)
    verify_games = {"rollout": 3}
    verify_settings = {
        "rollout": {"players": [2, 4], "variant": ["standard"], "strategy": ["rollout:rollouts=1", "rollout"]}
    }
    verify_mixed = (
        ("greedy", "missions"),
        ("random", "greedy", "missions"),
        ("missions", "random", "greedy", "greedy"),
    )
    # Golden playthroughs (simkit/testing/contract.py); files in tests/games/alien_attack/golden.
    golden_cases = tuple(
        GoldenCase(f"{'-'.join(s)}-{v}-s{seed}", {"players": len(s), "variant": v, "data": None}, s, seed)
        for s, v, seed in (
            (("greedy", "greedy"), "standard", 11),
            (("random", "greedy", "random"), "standard", 12),
            (("greedy", "greedy", "greedy", "greedy"), "semi-coop", 13),
            (("missions", "greedy", "random"), "standard", 14),
        )
    )

    def start(self, params: Any, comp: Any, strategies: Sequence[str], seq: Any, log: list | None) -> Game:
        """The game `new_game` builds: the board dealt, a player object per seat."""
        n = params.players
        if len(strategies) != n:
            raise ValueError(f"{len(strategies)} strategies for {n} players")
        st = new_game(comp, n, seeds.stream(seq, seeds.SETUP), seeds.stream(seq, seeds.CHANCE))
        seats = [
            self.player(name, seeds.stream(seq, seeds.FIRST_SEAT + k)) for k, name in enumerate(strategies)
        ]
        return Game(st, seats, log)

    def _result(self, game: Game, variant: str) -> tuple[dict, list[dict]]:
        st = game.st
        final = rules.final_scores(st)
        totals = [f["total"] for f in final]
        win = rules.winners(totals, [f["best_city"] for f in final])
        destroyed = sum(st.bases)
        earth = destroyed >= SEMI_COOP_BASES
        if variant == "semi-coop" and not earth:
            win = []
        ranked = sorted(totals, reverse=True)
        record = {
            "won": earth if variant == "semi-coop" else None,
            "score": ranked[0],
            "length": st.round,
            "end_reason": ("earth_wins" if earth else "invasion_succeeds")
            if variant == "semi-coop"
            else "bag_empty",
            "winners": len(win),
            "winning_seat": win[0] if len(win) == 1 else -1,
            "margin": ranked[0] - ranked[1],
            "bases_destroyed": destroyed,
            "bases_left": sum(1 for s in range(1, st.board.n + 1) if st.cell[s] == BASE),
            "discs_captured": sum(st.captured),
            "mean_score": sum(totals) / len(totals),
            # where things happened, for the report's board heatmaps: space numbers, ascending,
            # space-separated ("" when none)
            "base_spaces": _spaces(
                set(game.flipped) | {s for s, c in enumerate(st.cell) if s and c in (BASE, EMPTY)}
            ),
            "capture_spaces": _spaces({s for s, c in enumerate(st.cell) if c == LOST}),
        }
        seats = []
        for p, f in enumerate(final):
            used = {POWER_NAMES[b]: not st.powers[p] & b for b in POWER_NAMES}
            seats.append(
                {
                    "city_card": st.city_card[p],
                    "border_card": st.border_card[p],
                    "score": f["total"],
                    "won": p in win,
                    "placement_points": f["placement_points"],
                    "city_mission": f["city_mission"],
                    "border_mission": f["border_mission"],
                    "parks": f["parks"],
                    "bases": f["bases"],
                    "territory": f["territory"],
                    "protection": f["protection"],
                    "discs_placed": st.placed[p],
                    "discs_captured": st.captured[p],
                    "bases_destroyed": st.bases[p],
                    "parks_taken": st.parks[p],
                    "largest_group": f["largest_group"],
                    "city_card_cities": f["city_cards"],
                    "border_discs": f["border_discs"],
                    "powers_used": sum(used.values()),
                    **{f"used_{k}": v for k, v in used.items()},
                }
            )
        return record, seats

    def play(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> GameResult:
        params = self.params(settings)
        game = self.new_game(params, strategies, root_seed, game_index, None)
        game.play_rest()
        record, seats = self._result(game, params.variant)
        return GameResult(record, seats)

    def replay(self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int) -> list[dict]:
        return self._logged(settings, strategies, root_seed, game_index, [])

    def draw_replay(
        self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int
    ) -> list[replay_page.Step]:
        """The game as the replay page's steps: the table drawn after each narrated step."""
        log = replay_page.WatchedLog()
        self._logged(settings, strategies, root_seed, game_index, log)
        return replay_page.steps(log, narrate.narrate_steps(log), draw.draw)

    def _logged(
        self, settings: Any, strategies: Sequence[str], root_seed: int, game_index: int, log: list
    ) -> list[dict]:
        """Play the game into `log` (the event log); a `WatchedLog` watches the table from the set-up."""
        params = self.params(settings)
        game = self.new_game(params, strategies, root_seed, game_index, log)
        if isinstance(log, replay_page.WatchedLog):
            log.watch(lambda: draw.look(game))
        st = game.st
        log.append(
            {
                "event": "setup",
                "turn": 0,
                "players": st.players,
                "seats": [
                    {
                        "seat": p,
                        "strategy": strategies[p],
                        "city_card": st.city_card[p],
                        "border_card": st.border_card[p],
                    }
                    for p in range(st.players)
                ],
                "rounds": st.rounds,
            }
        )
        game.play_rest()
        record, seats = self._result(game, params.variant)
        final = rules.final_scores(st)
        for p, f in enumerate(final):
            log.append({"event": "final", "turn": st.round, "seat": p, **f})
        log.append(
            {
                "event": "end",
                "turn": st.round,
                "reason": record["end_reason"],
                "winners": [p for p, row in enumerate(seats) if row["won"]],
                "scores": [row["score"] for row in seats],
                "bases_destroyed": record["bases_destroyed"],
            }
        )
        return log


ENGINE = register(AlienAttack())
