"""The `simkit` command line: a thin typer app over core/ and report/.

Bad input ends with one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from simkit.core.errors import UserError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help=__doc__,
)


def _parse_sets(items: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--set expects key=value, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _command_line() -> str:
    return "simkit " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _seed_and_index(seed: str) -> tuple[int, int]:
    """`--seed R` or `--seed R:I` (root seed R, game index I, as in a dataset's seed and game_index)."""
    root, _, index = seed.partition(":")
    try:
        return int(root), int(index) if index else 0
    except ValueError:
        raise UserError(f"--seed expects an integer or ROOT:GAME_INDEX, got {seed!r}") from None


@app.command()
def games() -> None:
    """List the games, their settings with allowed values, and their strategies."""
    from simkit.core.registry import all_games

    for engine in all_games():
        players = (
            f"{engine.min_players}"
            if engine.min_players == engine.max_players
            else f"{engine.min_players}-{engine.max_players}"
        )
        typer.echo(f"{engine.id}  ({engine.title}; players {players})")
        for setting in engine.settings:
            typer.echo(f"  --set {setting.describe()}: {setting.help}")
        for name, desc in engine.strategies.items():
            mark = " (default)" if name == engine.default_strategy else ""
            typer.echo(f"  --strategy {name}{mark}: {desc}")


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game id (see `simkit games`)")],
    n: Annotated[int, typer.Option("-n", help="games to play")] = 1000,
    players: Annotated[int | None, typer.Option(help="player count, where the game has one")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="setting as key=value; repeatable")] = None,
    strategy: Annotated[
        list[str] | None, typer.Option(help="strategy; one per seat for competitive games")
    ] = None,
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    jobs: Annotated[int, typer.Option(help="parallel worker processes")] = 1,
    out: Annotated[Path | None, typer.Option(help="dataset folder (default runs/GAME-sSEED-nN)")] = None,
    backend: Annotated[str, typer.Option(help="loky or sequential")] = "loky",
    chunk_size: Annotated[
        int | None, typer.Option(help="games per Parquet file (default: about 32 chunks)")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
) -> None:
    """Play N games of one setting and write a dataset."""
    from simkit.core import runner, scenario

    settings = _parse_sets(set_)
    if players is not None:
        settings["players"] = str(players)
    if chunk_size is not None and chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1, got {chunk_size}")
    sc = scenario.single_cell(game, n, seed, settings, strategy or [], chunk_size)
    out = out or Path("runs") / f"{game}-s{seed}-n{n}"
    _finish(runner.run(sc, out, jobs, backend, progress=not quiet, command=_command_line()))


@app.command()
def run(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO.toml", help="scenario file")],
    out: Annotated[Path | None, typer.Option(help="dataset folder (default runs/<file stem>)")] = None,
    jobs: Annotated[int, typer.Option(help="parallel worker processes")] = 1,
    backend: Annotated[str, typer.Option(help="loky or sequential")] = "loky",
    quiet: Annotated[bool, typer.Option(help="no progress bar")] = False,
) -> None:
    """Play every cell of a scenario file and write a dataset (resumes an interrupted run)."""
    from simkit.core import runner, scenario

    sc = scenario.load(scenario_file)
    out = out or Path("runs") / scenario_file.stem
    _finish(runner.run(sc, out, jobs, backend, progress=not quiet, command=_command_line()))


def _finish(summary) -> None:
    resumed = f", {summary.skipped_chunks} chunks already on disk" if summary.skipped_chunks else ""
    typer.echo(f"{summary.games} games written to {summary.out}{resumed}")
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
    from simkit.report import build

    index = build.write_report(datasets, out)
    typer.echo(f"report: {index}")


@app.command()
def replay(
    game: Annotated[str, typer.Argument(help="game id")],
    seed: Annotated[str, typer.Option(help="root seed, or ROOT:GAME_INDEX")] = "0",
    game_index: Annotated[int | None, typer.Option(help="game index within the run (default 0)")] = None,
    players: Annotated[int | None, typer.Option(help="player count, where the game has one")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="setting as key=value; repeatable")] = None,
    strategy: Annotated[
        list[str] | None, typer.Option(help="strategy; one per seat for competitive games")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the event log as JSON")] = False,
) -> None:
    """Replay one game as its event log (game i of a run: --seed ROOT --game-index i)."""
    from simkit.core.registry import get_game, resolve_settings, resolve_strategies
    from simkit.core.runner import seat_order

    engine = get_game(game)
    settings_raw = _parse_sets(set_)
    if players is not None:
        settings_raw["players"] = str(players)
    settings = resolve_settings(engine, settings_raw, "replay")
    strategies = resolve_strategies(engine, strategy or [], settings.get("players"), "replay")
    root, index = _seed_and_index(seed)
    if game_index is not None:
        index = game_index
    if engine.competitive:
        strategies = seat_order(strategies, index)
    events = engine.replay(settings, strategies, root, index)
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
    for event in events:
        rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("event", "turn"))
        typer.echo(f"[{event.get('turn', '')}] {event['event']}: {rest}")


def main() -> None:
    try:
        app(standalone_mode=False)
    except UserError as exc:
        typer.echo(f"simkit: error: {exc}", err=True)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("simkit: interrupted; finished chunks are kept and the same command resumes", err=True)
        sys.exit(130)
    except typer.TyperException as exc:  # usage errors: unknown option, bad value type...
        typer.echo(f"simkit: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
