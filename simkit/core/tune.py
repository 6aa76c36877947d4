"""Tuning: which values of a strategy's parameters win most, found by racing on common random
numbers, and a gain over the defaults confirmed on fresh seeds.

Every combination of the searched values is a candidate, a cell of an ordinary dataset; all play
the same games (game i deals the same cards to every candidate: common random numbers). The search
is a race (Maron and Moore's Hoeffding races; F-race in irace): after each round a candidate stays
while its win rate could still be the best (its upper bound reaches the leader's lower bound, the
intervals Bonferroni-adjusted over every candidate in every round, so the true best is dropped with
chance at most 5 % over the whole search); contenders double their games, the rest stop. It ends
when one contender is left, when every contender is known to within the tolerance, or at the cap.
Why racing and not NTBEA (TAG's choice): the candidates here are a few dozen values of one or two
numbers, each game is cheap on the native engine and every candidate can share the seeds; a race
spends games only where the answer is still open and says, with an error rate, which candidates
it could not separate. NTBEA's bandit model pays off for large spaces of many parameters, each
evaluated on a handful of games.

Picking the best of several noisy rates flatters the pick (the winner's curse). So the pick and the
strategy's defaults play again, on fresh seeds (a root seed derived from the search's), as many
games as the pick played in the search, and the gain reported is their paired difference on
those games alone.

A competitive game tunes a seat against a field: each candidate's cell seats the candidate
(listed first) and the field's spec in every other seat, at the game's player count. The runner
rotates the seats over the games (`runner.seat_order`), so the candidate sits in every seat
equally often. The race reads the candidate's seat alone, found by its place in each game rather
than by its strategy's name (a candidate equal to the field is still one seat): `Racing.tally`,
the runner's per-chunk hook, counts it for chunks just played and chunks a resumed run finds on
disk alike (`runner.seat_tally`). A shared win (a tie every tied player wins, as in Alien Attack)
counts as a win, as the seat rows record it and the report counts it; a game the seat does not
win is a loss. The confirmation seats the pick and the defaults the same way against the same
field, and pairs them game by game on the candidate's seat. `tune.json` records the field and
the player count (both null for a crew or a solo player).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import polars as pl

from simkit.core import dataset, runner, scenario, stats
from simkit.core import strategies as strategy_specs
from simkit.core.calibrate import (
    check_tolerance,
    confirm_folder,
    confirm_seed,
    confirmation_games,
    doubled,
    search_rounds,
    search_z,
)
from simkit.core.errors import UserError
from simkit.core.players import is_user_spec
from simkit.core.registry import get_game, resolve_settings, resolve_strategies
from simkit.core.settings import Setting

GRID_POINTS = 11  # values a float range, or a long integer range, is searched at
MAX_CANDIDATES = 512
SUMMARY = "tune.json"  # the search's result, beside its dataset's manifest (the report reads it)


def parse_range(text: str, params: dict[str, Setting], where: str) -> tuple[str, list[Any]]:
    """`NAME=LO..HI` (an integer range whole, or 11 points; a float range at 11 points) or
    `NAME=a,b,c`: the parameter and its values to search, each checked as the parameter."""
    name, eq, spec = (part.strip() for part in text.partition("="))
    if not eq or not name or not spec:
        raise UserError(f"{where}: --param must be NAME=LO..HI or NAME=a,b,c, got {text!r}")
    if name not in params:
        known = ", ".join(params) or "none"
        raise UserError(f"{where}: the strategy has no parameter '{name}' (parameters: {known})")
    p = params[name]
    check = f"{where}: --param {name}"
    if ".." in spec:
        low_text, _, high_text = spec.partition("..")
        low, high = p.parse(low_text.strip(), check), p.parse(high_text.strip(), check)
        if p.type not in ("int", "float") or not low < high:
            raise UserError(f"{check}: LO..HI needs a number parameter and LO < HI, got {spec!r}")
        if p.type == "int" and high - low < 2 * GRID_POINTS:
            values: list[Any] = list(range(low, high + 1))
        else:
            step = (high - low) / (GRID_POINTS - 1)
            points = [low + k * step for k in range(GRID_POINTS)]
            values = [round(v) for v in points] if p.type == "int" else [float(f"{v:.6g}") for v in points]
    else:
        values = [p.parse(v.strip(), check) for v in spec.split(",")]
    return name, list(dict.fromkeys(values))


@dataclass(frozen=True)
class Racing:
    """The stopping rule of a tuning search (see the module's docstring)."""

    kind: ClassVar[str] = "tune"

    tolerance: float
    first_games: int
    candidates: int = 1
    rounds: int = 1
    players: int | None = None  # a seat against a field: the seats at the table (None: a crew, solo)

    @property
    def z(self) -> float:
        return search_z(self.candidates, self.rounds)

    def tally(self, games: pl.DataFrame, seats: pl.DataFrame | None) -> runner.Tally:
        """How a chunk counts (the runner's hook): the crew's or solo player's games by their
        `won`, or, against a field, the candidate's seat alone (listed first in every cell)."""
        if self.players is None:
            return runner.tally_of(games)
        return runner.seat_tally(games, seats, self.players)

    def first(self, cells: list[str]) -> dict[str, int]:
        return dict.fromkeys(cells, self.first_games)

    def contenders(self, tallies: dict[str, runner.Tally]) -> list[str]:
        intervals = {c: stats.wilson(w, d, self.z) for c, (w, d, _) in tallies.items()}
        best_low = max(w.low for w in intervals.values())
        return [c for c, w in intervals.items() if w.high >= best_low]

    def after_round(self, tallies: dict[str, runner.Tally], targets: dict[str, int]) -> dict[str, int]:
        return doubled(self.contenders(tallies), tallies, targets, self.tolerance)


@dataclass(frozen=True)
class Candidate:
    cell: str
    strategy: str  # the canonical spec
    values: dict[str, Any]  # the searched parameters' values
    games: int
    win_rate: stats.Interval  # from the search (flattered for the pick)
    contender: bool  # could still be the best when the search ended


@dataclass(frozen=True)
class Result:
    candidates: list[Candidate]  # best search rate first: the pick
    default: str  # the strategy at its defaults for the searched parameters
    pick_confirmed: stats.Interval  # on fresh seeds
    default_confirmed: stats.Interval  # the same fresh games
    gain: stats.PairedDifference | None  # pick minus default on them (None: the pick is the default)
    field: str | None = None  # a competitive game: the strategy of every other seat
    players: int | None = None  # a competitive game: the seats at the table


def tune(
    game: str,
    strategy: str,
    params: list[str],
    *,
    out: str | Path,
    settings: dict[str, Any] | None = None,
    field: str | None = None,
    seed: int = 0,
    jobs: int | None = 1,
    backend: str = "loky",
    tolerance: float = 0.01,
    first_games: int = 400,
    max_games: int = 25_600,
    progress: bool = False,
    command: str | None = None,
    engine_choice: str = "auto",
) -> Result:
    """Race the combinations of `params` (`NAME=LO..HI` or `NAME=a,b,c`) of `strategy` for the
    highest win rate; write the search to `out` and the confirmation to `confirm_folder(out)`.

    In a competitive game the candidate takes one seat against `field` (a spec; default the game's
    default strategy) in every other seat, at the player count of `settings` (default the game's),
    and its win rate is its own seat's."""
    where = "tune"
    check_tolerance(tolerance, where)
    if not 1 <= first_games <= max_games:
        raise UserError(f"{where}: --first-games must be in 1..--max-games ({max_games}), got {first_games}")
    engine = get_game(game)
    if field is not None and not engine.competitive:
        raise UserError(
            f"{where}: --field is for a competitive game (a seat against a field); {engine.id} is played "
            "by one crew or a solo player"
        )
    fixed = dict(settings or {})
    players = None
    if engine.competitive:
        players = int(resolve_settings(engine, fixed, where).get("players") or engine.min_players)
        field = field or engine.default_strategy
        field = resolve_strategies(engine, [field], players, f"{where}: --field")[0]
    base = resolve_strategies(engine, [strategy], players, where)[0]
    if is_user_spec(base):
        raise UserError(f"{where}: a user's player ({base}) takes no parameters to tune")
    name, given = strategy_specs.parse(base, engine.strategies, where, engine.id)
    declared = {p.name: p for p in engine.strategies[name].params}
    if not params:
        raise UserError(f"{where}: give at least one --param NAME=LO..HI (parameters: {', '.join(declared)})")
    searched = dict(parse_range(text, declared, where) for text in params)
    n = math.prod(len(v) for v in searched.values())
    if n > MAX_CANDIDATES:
        raise UserError(f"{where}: {n} candidates; at most {MAX_CANDIDATES} (narrow the ranges)")
    defaults = engine.strategies[name].defaults()
    default = strategy_specs.canonical(
        name, given | {k: defaults[k] for k in searched}, engine.strategies[name]
    )
    head = {"game": engine.id, "seed": seed, "chunk_size": max(1, first_games // 2)}
    label = ",".join(f"{k}={_range_text(v)}" for k, v in searched.items())
    title = f"tune {base} over {label}{_against(field, players)}"
    if field is None:
        grid: dict[str, Any] = {"strategy": [base]}
    else:  # the field's seats keep their spec: the candidates are written out, not [parameters]
        combos = itertools.product(*searched.values())
        specs = [
            strategy_specs.canonical(
                name, given | dict(zip(searched, c, strict=True)), engine.strategies[name]
            )
            for c in combos
        ]
        grid = {"strategy": [_table(s, field, players) for s in specs]}
    doc = {"scenario": {"name": title, "games": max_games, **head}, "grid": grid, "fixed": fixed}
    if field is None:
        doc["parameters"] = searched
    sc = scenario.parse(doc, where)
    rounds = search_rounds(first_games, max_games)
    rule = Racing(tolerance, first_games, len(sc.cells), rounds, players)
    runner.run(sc, out, jobs, backend, progress, command, stopping=rule, engine=engine_choice)
    search = dataset.load(out)
    tallies = {cell.name: rule.tally(*_cell_rows(search, cell.name)) for cell in sc.cells}
    alive = set(rule.contenders(tallies))
    ranked = []
    for cell in sc.cells:
        wins, decided, played = tallies[cell.name]
        _, values = strategy_specs.parse(cell.strategies[0], engine.strategies, where)
        picked = {k: values[k] for k in searched}
        ranked.append(
            Candidate(
                cell.name, cell.strategies[0], picked, played, stats.wilson(wins, decided), cell.name in alive
            )
        )
    ranked.sort(key=lambda c: (-c.win_rate.estimate, c.cell))
    pick = ranked[0]

    # the pick and the defaults again (in the same seat against the same field), on fresh seeds:
    # the gain is not the winner's curse
    compared = list(dict.fromkeys([pick.strategy, default]))
    confirm_doc = {
        "scenario": {
            "name": f"confirm {pick.strategy} against {default}{_against(field, players)}",
            "games": confirmation_games(pick.games, first_games),
            **head,
            "seed": confirm_seed(seed),
        },
        "grid": {"strategy": compared if field is None else [_table(s, field, players) for s in compared]},
        "fixed": fixed,
    }
    confirm = scenario.parse(confirm_doc, where)
    runner.run(confirm, confirm_folder(out), jobs, backend, progress, command, engine=engine_choice)
    fresh = dataset.load(confirm_folder(out))
    won = {c.strategies[0]: outcomes(fresh, c.name, rule.players) for c in confirm.cells}
    rates = {
        s: stats.wilson(int(w["won"].sum() or 0), int(w["won"].is_not_null().sum())) for s, w in won.items()
    }
    gain = None
    if pick.strategy != default:
        pairs = won[default].join(won[pick.strategy], on="game_index", suffix="_pick").drop_nulls()
        pairs = pairs.sort("game_index")
        gain = stats.paired_difference(pairs["won"].to_numpy(), pairs["won_pick"].to_numpy())
    result = Result(ranked, default, rates[pick.strategy], rates[default], gain, field, players)
    write_summary(out, result, searched, rule)
    return result


def _table(candidate: str, field: str, players: int | None) -> list[str]:
    """A cell's seats against a field: the candidate listed first, the field in every other seat
    (the runner rotates them over the games, so the candidate sits in every seat equally often)."""
    return [candidate] + [field] * ((players or 2) - 1)


def _against(field: str | None, players: int | None) -> str:
    return "" if field is None else f" against a field of {field} at {players} players"


def _cell_rows(data: dataset.Dataset, cell: str) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    games = data.games.filter(pl.col("cell") == cell)
    seats = None if data.seats is None else data.seats.filter(pl.col("cell") == cell)
    return games, seats


def outcomes(data: dataset.Dataset, cell: str, players: int | None) -> pl.DataFrame:
    """(game_index, won) of what a tune measures in one cell: the crew's or solo player's games,
    or, against a field (`players` set), the candidate's seat (listed first: runner.seat_rows);
    a win it shares with a tied seat counts as a win."""
    games, seats = _cell_rows(data, cell)
    if players is None:
        return games.select("game_index", "won")
    if seats is None:
        return pl.DataFrame(schema={"game_index": pl.Int64, "won": pl.Boolean})
    return runner.seat_rows(seats, players).select("game_index", "won")


def _range_text(values: list[Any]) -> str:
    return f"{values[0]}..{values[-1]}" if len(values) > 2 else "|".join(str(v) for v in values)


def write_summary(out: str | Path, result: Result, searched: dict[str, list[Any]], rule: Racing) -> None:
    """The search's outcome beside its dataset (`tune.json`): what the report's section reads."""

    def interval(w: stats.Interval) -> dict[str, float]:
        return {"estimate": w.estimate, "low": w.low, "high": w.high, "n": w.n}

    gain = result.gain
    doc = {
        "searched": searched,
        "tolerance": rule.tolerance,
        "first_games": rule.first_games,
        "z": rule.z,
        "field": result.field,  # a competitive game: every other seat's strategy (None: a crew, solo)
        "players": result.players,
        "default": result.default,
        "pick": result.candidates[0].strategy,
        "pick_confirmed": interval(result.pick_confirmed),
        "default_confirmed": interval(result.default_confirmed),
        "gain": None
        if gain is None
        else {
            "difference": gain.difference,
            "low": gain.low,
            "high": gain.high,
            "n": gain.n,
            "p": gain.p_value,
        },
        "candidates": [
            {
                "cell": c.cell,
                "strategy": c.strategy,
                "values": c.values,
                "games": c.games,
                "win_rate": interval(c.win_rate),
                "contender": c.contender,
            }
            for c in result.candidates
        ],
        "confirm_folder": str(confirm_folder(out)),
    }
    Path(out, SUMMARY).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def describe(result: Result) -> list[str]:
    """The result as lines of plain text (what `simkit tune` prints)."""
    pick, w, d = result.candidates[0], result.pick_confirmed, result.default_confirmed
    lines = [] if result.field is None else [field_line(result.field, result.players)]
    lines += [
        f"pick: {pick.strategy}: on {w.n:,} fresh games (new seeds) it wins {100 * w.estimate:.2f}% "
        f"[95 % CI {100 * w.low:.2f}, {100 * w.high:.2f}]",
    ]
    if result.gain is None:
        lines.append(f"  the pick is the strategy's default ({result.default}): nothing to gain over it")
    else:
        g = result.gain
        verdict = "resolved" if g.low > 0 or g.high < 0 else "not resolved"
        lines.append(
            f"  the default {result.default} wins {100 * d.estimate:.2f}% "
            f"[{100 * d.low:.2f}, {100 * d.high:.2f}] on the same games: gain "
            f"{100 * g.difference:+.2f} points [95 % CI {100 * g.low:+.2f}, {100 * g.high:+.2f}], "
            f"paired ({verdict})"
        )
    lines.append("  (the search's own figures, below, are flattered for the pick by having picked it)")
    lines.append(f"{'rank':>4}  {'strategy':<40} {'games':>7}  win rate [95 % CI]")
    for rank_, c in enumerate(result.candidates, 1):
        r = c.win_rate
        note = "" if c.contender else "  (ruled out)"
        lines.append(
            f"{rank_:>4}  {c.strategy:<40} {c.games:>7}  {100 * r.estimate:6.2f}% "
            f"[{100 * r.low:5.2f}, {100 * r.high:5.2f}]{note}"
        )
    contenders = sum(c.contender for c in result.candidates)
    if contenders > 1:
        lines.append(
            f"{contenders} candidates could still be the best (their adjusted intervals overlap the leader's)"
        )
    return lines


def field_line(field: str, players: int | None) -> str:
    """What a competitive tune measures, in one line (`describe` and the report say it alike)."""
    return (
        f"Tuned in one seat against a field of {field} at {players} players: every win rate is the "
        "tuned seat's own (it sits in every seat equally often; a win it shares in a tie counts as a win)"
    )
