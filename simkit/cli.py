"""The `simkit` command line: a thin typer app over core/ and report/.

Bad input ends with one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from simkit.core.errors import RunIncomplete, UserError

if TYPE_CHECKING:
    from simkit.core.replay import GameRef

JOBS_HELP = (
    "parallel workers (default 1): threads where every cell plays on the native engine, else "
    "processes; with --backend dask and no --scheduler, a local cluster of one per core"
)
BACKEND_HELP = "loky, sequential or dask"
SCHEDULER_HELP = "a running Dask scheduler, e.g. tcp://host:8786 (with --backend dask)"
PRECISION_HELP = "stop each cell once its win rate's 95 % interval is at most this wide on each side"
MAX_GAMES_HELP = "with --precision: the most games a cell may play (default 1,000,000)"
# What naming a user's file does, said wherever a strategy can be given (README, "Your own player").
STRATEGY_HELP = (
    "strategy; one per seat for competitive games. A user's player, path/file.py:Class, is that "
    "file run as Python code with your rights, in this process and in every worker (Dask workers "
    "included): name only files you trust. Views keep a player from seeing hidden cards or changing "
    "the game by accident; they cannot stop deliberate introspection of the interpreter"
)
FIELD_HELP = (
    "competitive games: the strategy of every other seat, a spec (e.g. missions:loss=5); default "
    "the game's default strategy. The player count is --players or --set players=N (default the game's)"
)
ENGINE_HELP = (
    "auto (native where the core is built and plays every strategy of a cell), native or python; "
    "default: the scenario's engine, else auto"
)

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help=__doc__,
)


def _parse_sets(items: list[str] | None, players: int | None = None) -> dict[str, str]:
    """The `--set key=value` settings, with `--players P` as the `players` setting where given."""
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--set expects key=value, got {item!r}")
        out[key.strip()] = value.strip()
    if players is not None:
        out["players"] = str(players)
    return out


def _command_line() -> str:
    return "simkit " + " ".join(shlex.quote(a) for a in sys.argv[1:])


MAX_SEED = 2**63 - 1  # root seeds and game indices are what a dataset's int64 columns hold


def _seed_and_index(seed: str, game_index: int | None = None) -> tuple[int, int]:
    """`--seed R` or `--seed R:I` (root seed R, game index I, as in a dataset's seed and game_index);
    `--game-index` overrides I. Each must be in 0..2^63-1."""
    root, _, index = seed.partition(":")
    try:
        root_seed, index_value = int(root), int(index) if index else 0
    except ValueError:
        raise UserError(f"--seed expects an integer or ROOT:GAME_INDEX, got {seed!r}") from None
    if not 0 <= root_seed <= MAX_SEED:
        raise UserError(f"--seed: the root seed must be in 0..{MAX_SEED}, got {root_seed}")
    if game_index is not None:
        index_value, what = game_index, "--game-index"
    else:
        what = "--seed: the game index"
    if not 0 <= index_value <= MAX_SEED:
        raise UserError(f"{what} must be in 0..{MAX_SEED}, got {index_value}")
    return root_seed, index_value


@app.command()
def games() -> None:
    """List the games, their settings with allowed values, and their strategies."""
    from simkit.core import native
    from simkit.core.registry import all_games

    for engine in all_games():
        players = (
            f"{engine.min_players}"
            if engine.min_players == engine.max_players
            else f"{engine.min_players}-{engine.max_players}"
        )
        typer.echo(f"{engine.id}  ({engine.title}; players {players})")
        typer.echo(f"  engines: {native.describe(engine)}")
        for setting in engine.settings:
            typer.echo(f"  --set {setting.describe()}: {setting.help}")
        for name, strategy in engine.strategies.items():
            mark = " (default)" if name == engine.default_strategy else ""
            typer.echo(f"  --strategy {name}{mark}: {strategy.help}")
            for p in strategy.params:
                typer.echo(f"      {name}:{p.describe()}: {p.help}")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game id (see `simkit games`)")],
    n: Annotated[int, typer.Option("-n", help="games to play")] = 1000,
    players: Annotated[int | None, typer.Option(help="player count, where the game has one")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="setting as key=value; repeatable")] = None,
    strategy: Annotated[list[str] | None, typer.Option(help=STRATEGY_HELP)] = None,
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    out: Annotated[Path | None, typer.Option(help="dataset folder (default runs/GAME-sSEED-nN)")] = None,
    backend: Annotated[str, typer.Option(help=BACKEND_HELP)] = "loky",
    scheduler: Annotated[str | None, typer.Option(help=SCHEDULER_HELP)] = None,
    chunk_size: Annotated[
        int | None, typer.Option(help="games per Parquet file (default: about 32 chunks)")
    ] = None,
    precision: Annotated[float | None, typer.Option(help=PRECISION_HELP)] = None,
    max_games: Annotated[int | None, typer.Option(help=MAX_GAMES_HELP)] = None,
    engine: Annotated[str | None, typer.Option(help=ENGINE_HELP)] = None,
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
) -> None:
    """Play N games of one setting (or until --precision is reached) and write a dataset."""
    from simkit.core import runner, scenario

    settings = _parse_sets(set_, players)
    if chunk_size is not None and chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1, got {chunk_size}")
    if max_games is not None and precision is None:
        raise UserError("--max-games is the cap of a --precision run; without --precision use -n")
    if max_games is not None:
        scenario.check_max_games(max_games, "simulate")  # 0 is refused, not taken for the default
    games = n if precision is None else (max_games or scenario.MAX_GAMES_DEFAULT)
    sc = scenario.single_cell(game, games, seed, settings, strategy or [], chunk_size, precision)
    default_out = f"{game}-s{seed}-n{n}" if precision is None else f"{game}-s{seed}-p{precision:g}"
    out = out or Path("runs") / default_out
    summary = runner.run(sc, out, jobs, backend, not quiet, _command_line(), scheduler, engine=engine)
    _finish(summary, sc.precision)


@app.command()
def run(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="scenario file")],
    out: Annotated[Path | None, typer.Option(help="dataset folder (default runs/<file stem>)")] = None,
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    backend: Annotated[str, typer.Option(help=BACKEND_HELP)] = "loky",
    scheduler: Annotated[str | None, typer.Option(help=SCHEDULER_HELP)] = None,
    precision: Annotated[float | None, typer.Option(help=PRECISION_HELP)] = None,
    max_games: Annotated[int | None, typer.Option(help=MAX_GAMES_HELP)] = None,
    engine: Annotated[str | None, typer.Option(help=ENGINE_HELP)] = None,
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
) -> None:
    """Play every cell of a scenario file and write a dataset (resumes an interrupted run). A
    strategy named path/file.py:Class in the scenario runs that file as Python code with your
    rights, here and in every worker (Dask workers included)."""
    from simkit.core import runner, scenario

    sc = scenario.load(scenario_file)
    if precision is not None or max_games is not None:
        sc = scenario.with_precision(sc, precision, max_games, "run")
    out = out or Path("runs") / scenario_file.stem
    summary = runner.run(sc, out, jobs, backend, not quiet, _command_line(), scheduler, engine=engine)
    _finish(summary, sc.precision)


def _finish(summary, precision: float | None = None) -> None:
    resumed = f", {summary.skipped_chunks} chunks already on disk" if summary.skipped_chunks else ""
    typer.echo(f"{summary.games} games written to {summary.out}{resumed}")
    if precision is not None:
        counts = ", ".join(f"{cell}: {n}" for cell, n in summary.games_per_cell.items())
        typer.echo(f"precision {precision:g} (each side of the 95 % interval): games per cell {counts}")
    if summary.failures:
        typer.echo(
            f"{summary.failures} games failed; see {summary.out}/failures/ (replay them with their seed)",
            err=True,
        )
        raise typer.Exit(1)


@app.command()
def report(
    datasets: Annotated[list[Path], typer.Argument(metavar="DATASET...", help="dataset folders")],
    out: Annotated[Path, typer.Option(help="report folder")] = Path("reports/latest"),
) -> None:
    """Write OUT/index.html (one self-contained file) and the charts from datasets."""
    from simkit.reporting import render

    index = render.write_report(datasets, out)
    typer.echo(f"report: {index}")


@app.command()
def compare(
    dataset_dir: Annotated[Path, typer.Argument(metavar="DATASET", help="dataset folder")],
    a: Annotated[str, typer.Option("--a", help="cell A: id (c001), label, or key=value[,key=value]")],
    b: Annotated[str, typer.Option("--b", help="cell B, named the same way")],
) -> None:
    """Compare two cells of a dataset as pairs (game i of each shares its seed): B minus A."""
    from simkit.core import compare as comparing
    from simkit.core import dataset

    result = comparing.compare(dataset.load(dataset_dir), a, b)
    for line in comparing.describe(result):
        typer.echo(line)


@app.command()
def calibrate(
    game: Annotated[str, typer.Argument(help="game id")],
    target: Annotated[float, typer.Option(help="the win rate to aim at")] = 0.5,
    over: Annotated[str, typer.Option(help="settings to search, comma-separated (e.g. countdown,dice)")] = "",
    players: Annotated[int | None, typer.Option(help="player count, where the game has one")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="fixed setting as key=value")] = None,
    strategy: Annotated[list[str] | None, typer.Option(help=STRATEGY_HELP)] = None,
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    tolerance: Annotated[
        float, typer.Option(help="stop refining rates once their 95 % half-width is below this")
    ] = 0.01,
    max_games: Annotated[int, typer.Option(help="the most games one combination may play")] = 51_200,
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    backend: Annotated[str, typer.Option(help=BACKEND_HELP)] = "loky",
    engine: Annotated[str, typer.Option(help=ENGINE_HELP)] = "auto",
    out: Annotated[Path | None, typer.Option(help="dataset folder (default runs/calibrate-GAME-sSEED)")] = (
        None
    ),
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
) -> None:
    """Find the settings whose win rate is nearest the target, playing more games only where
    they decide the answer; prints every combination ranked, with 95 % intervals."""
    from simkit.core.calibrate import calibrate as search
    from simkit.core.calibrate import confirm_folder, describe

    settings = _parse_sets(set_, players)
    names = [name.strip() for name in over.split(",") if name.strip()]
    out = out or Path("runs") / f"calibrate-{game}-s{seed}"
    ranked = search(
        game,
        target,
        names,
        out=out,
        strategies=strategy or None,
        settings=settings,
        seed=seed,
        jobs=jobs,
        backend=backend,
        tolerance=tolerance,
        max_games=max_games,
        progress=not quiet,
        command=_command_line(),
        engine_choice=engine,
    )
    typer.echo(f"target win rate {target:g}; dataset {out} (the pick's fresh games: {confirm_folder(out)})")
    for line in describe(ranked, target, tolerance):
        typer.echo(line)


@app.command()
def tune(
    game: Annotated[str, typer.Argument(help="game id")],
    strategy: Annotated[str, typer.Option(help="the strategy to tune (a spec: its other parameters stay)")],
    param: Annotated[
        list[str] | None, typer.Option(help="parameter to search: NAME=LO..HI or NAME=a,b,c; repeatable")
    ] = None,
    field: Annotated[str | None, typer.Option(help=FIELD_HELP)] = None,
    players: Annotated[int | None, typer.Option(help="player count, where the game has one")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="fixed setting as key=value")] = None,
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    tolerance: Annotated[
        float, typer.Option(help="stop refining rates once their 95 % half-width is below this")
    ] = 0.01,
    first_games: Annotated[int, typer.Option(help="games every candidate plays in the first round")] = 400,
    max_games: Annotated[int, typer.Option(help="the most games one candidate may play")] = 25_600,
    jobs: Annotated[int | None, typer.Option(help=JOBS_HELP)] = None,
    backend: Annotated[str, typer.Option(help=BACKEND_HELP)] = "loky",
    engine: Annotated[str, typer.Option(help=ENGINE_HELP)] = "auto",
    out: Annotated[Path | None, typer.Option(help="dataset folder (default runs/tune-GAME-sSEED)")] = None,
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
) -> None:
    """Find the values of a strategy's parameters that win most: a race on shared seeds that plays
    more games only where the answer is open, then the pick against the defaults on fresh seeds.
    In a competitive game the candidate takes one seat against --field in every other seat (seats
    rotate over the games) and wins count for its seat alone, a win shared in a tie as a win."""
    from simkit.core.calibrate import confirm_folder
    from simkit.core.tune import describe
    from simkit.core.tune import tune as search

    settings = _parse_sets(set_, players)
    out = out or Path("runs") / f"tune-{game}-s{seed}"
    result = search(
        game,
        strategy,
        param or [],
        out=out,
        settings=settings,
        field=field,
        seed=seed,
        jobs=jobs,
        backend=backend,
        tolerance=tolerance,
        first_games=first_games,
        max_games=max_games,
        progress=not quiet,
        command=_command_line(),
        engine_choice=engine,
    )
    typer.echo(f"dataset {out} (the pick and the default on fresh seeds: {confirm_folder(out)})")
    for line in describe(result):
        typer.echo(line)


@app.command()
def replay(
    game: Annotated[str, typer.Argument(help="game id")],
    seed: Annotated[str | None, typer.Option(help="root seed, or ROOT:GAME_INDEX (default 0)")] = None,
    game_index: Annotated[int | None, typer.Option(help="game index within the run (default 0)")] = None,
    players: Annotated[int | None, typer.Option(help="player count, where the game has one")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="setting as key=value; repeatable")] = None,
    strategy: Annotated[list[str] | None, typer.Option(help=STRATEGY_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the event log as JSON")] = False,
    html: Annotated[
        Path | None, typer.Option(help="write a step-through page of the game to this file")
    ] = None,
    dataset_dir: Annotated[
        Path | None,
        typer.Option("--dataset", help="replay a game of this dataset (its seed, settings, strategies)"),
    ] = None,
    cell: Annotated[
        str | None, typer.Option(help="with --dataset: the cell (id, label or key=value,...)")
    ] = None,
) -> None:
    """Replay one game, told move by move as at the table; --json gives the event log, --html a
    page that steps through it (game i of a run: --seed ROOT:i, or --dataset DIR --cell C
    --game-index i)."""
    from simkit.core import replay as replaying

    if dataset_dir is not None:
        given = [
            name
            for name, v in (
                ("--seed", seed),
                ("--set", set_),
                ("--strategy", strategy),
                ("--players", players),
            )
            if v
        ]
        if given:
            raise UserError(
                f"replay: --dataset gives the seed, settings and strategies; drop {', '.join(given)}"
            )
        ref = replaying.from_dataset(dataset_dir, cell, game_index or 0)
        if ref.game != game:
            raise UserError(f"replay: {dataset_dir} holds games of {ref.game}, not {game}")
    else:
        if cell is not None:
            raise UserError("replay: --cell names a cell of --dataset; give --dataset too")
        ref = _replay_ref(game, seed or "0", game_index, players, set_, strategy)
    engine, settings, strategies = replaying.resolved(ref)
    root, index = ref.root_seed, ref.index
    try:
        if html is not None:
            size = replaying.write_page(ref, html)
            typer.echo(f"replay page: {html} ({size / 1e6:.2f} MB)")
            return
        events = engine.replay(settings, strategies, root, index)
    except UserError:
        raise
    except Exception as exc:  # the game itself failed: show it as the run recorded it, traceback too
        import traceback

        from simkit.core.players import describe_failure

        traceback.print_exc()
        typer.echo(f"simkit: game {root}:{index} failed: {describe_failure(exc, strategies)}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": engine.id,
                    "seed": root,
                    "game_index": index,
                    "settings": settings,
                    "strategy": list(strategies),
                    "events": events,
                },
                indent=1,
            )
        )
        return
    from simkit.core.narration import event_fields

    lines = engine.narrate(events) if "narrate" in engine.capabilities else map(event_fields, events)
    for line in lines:
        typer.echo(line)


def _replay_ref(
    game: str,
    seed: str,
    game_index: int | None,
    players: int | None,
    set_: list[str] | None,
    strategy: list[str] | None,
) -> GameRef:
    """The game `simkit replay` names on its command line."""
    from simkit.core.registry import get_game
    from simkit.core.replay import GameRef

    engine = get_game(game)
    settings_raw: dict[str, Any] = dict(_parse_sets(set_))
    if players is not None:
        settings_raw["players"] = str(players)
    elif (
        engine.competitive
        and strategy
        and len(strategy) > 1
        and "players" in {s.name for s in engine.settings}
    ):
        settings_raw["players"] = str(len(strategy))  # one strategy per seat says how many seats
    root, index = _seed_and_index(seed, game_index)
    return GameRef(engine.id, root, index, settings_raw, tuple(strategy or ()))


data_app = typer.Typer(help="A game's component file: a template to fill in, and a check of yours.")
app.add_typer(data_app, name="data")


@data_app.command("template")
def data_template(
    game: Annotated[str, typer.Argument(help="game id")],
    out: Annotated[Path | None, typer.Option(help="write the template here (default: print it)")] = None,
) -> None:
    """The game's component file with every field explained (meaning, allowed values, which
    values are invented): fill in your cards, then `simkit data check`."""
    from simkit.core import component_files
    from simkit.core.registry import get_game

    text = component_files.template(get_game(game))
    if out is None:
        typer.echo(text, nl=False)
        return
    if out.exists():
        raise UserError(f"{out}: already exists; give another --out or remove it")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{out}: cannot write the template ({exc.strerror or exc})") from None
    typer.echo(f"template: {out}")


@data_app.command("check")
def data_check(
    game: Annotated[str, typer.Argument(help="game id")],
    file: Annotated[Path, typer.Argument(metavar="FILE", help="your component file (TOML)")],
) -> None:
    """Check a component file: one line per problem and exit code 2, or what it changes from the
    built-in data."""
    from simkit.core import component_files
    from simkit.core.registry import get_game

    faults, changes = component_files.check(get_game(game), file)
    if faults:
        for line in faults:
            typer.echo(line, err=True)
        raise typer.Exit(2)
    typer.echo(f"{file}: a valid component file for {game}")
    if not changes:
        typer.echo("  the same values as the built-in data")
    for line in changes:
        typer.echo(f"  {line}")


@app.command()
def resolve(
    game: Annotated[str, typer.Argument(help="game id (a game with a resolver; see `simkit games`)")],
    plan: Annotated[Path, typer.Argument(metavar="PLAN.toml", help="the mission and every figure's cards")],
    data: Annotated[Path | None, typer.Option(help="component file (default: the built-in one)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the event log and score as JSON")] = False,
) -> None:
    """Resolve a fixed plan turn by turn and print the outcome and score (a game's resolution
    round, as the community's resolvers do; the plan format is in the game's RULES.md)."""
    from simkit.core.registry import all_games, get_game

    engine = get_game(game)
    if "resolve" not in engine.capabilities:
        having = ", ".join(g.id for g in all_games() if "resolve" in g.capabilities) or "none"
        raise UserError(f"{engine.id} has no resolver (games with one: {having})")
    if data is not None and not data.is_file():
        raise UserError(f"--data: file not found: {data}")
    log, result = engine.resolve(plan, data)
    if as_json:
        typer.echo(
            json.dumps({"game": engine.id, "plan": str(plan), "events": log, "result": result}, indent=1)
        )
    else:
        typer.echo(engine.format_resolution(log, result))


INTERRUPTED = "simkit: interrupted; finished chunks are kept and the same command resumes"


def main() -> None:
    try:
        code = app(standalone_mode=False)  # click returns, rather than raises, a command's Exit code
    except UserError as exc:
        typer.echo(f"simkit: error: {exc}", err=True)
        sys.exit(2)
    except RunIncomplete as exc:
        typer.echo(f"simkit: error: {exc}", err=True)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo(INTERRUPTED, err=True)
        sys.exit(130)
    except typer.TyperException as exc:  # usage errors: unknown option, bad value type...
        typer.echo(f"simkit: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    if code == 130:  # typer turns Ctrl-C (KeyboardInterrupt) into this return code, silently
        typer.echo(INTERRUPTED, err=True)
    if isinstance(code, int) and code:
        sys.exit(code)


if __name__ == "__main__":
    main()
