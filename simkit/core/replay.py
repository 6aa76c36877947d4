"""One game of a run, replayed: what `simkit replay` and the report's Reproduce block share.

A game is named by its root seed and index, its settings and its strategies, given on the command
line or read from a dataset's manifest (`--dataset DIR --cell C --game-index I`). `page` draws it
as a self-contained step-through page (`replay_page`), for games with the `draw` capability.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.core import dataset, replay_page
from simkit.core.errors import UserError
from simkit.core.registry import Engine, get_game, resolve_settings, resolve_strategies

BUILT_IN = "built-in"  # how a manifest writes a component setting left at the game's own file


@dataclass(frozen=True)
class GameRef:
    """One game: enough to play it again. `strategies` are as the cell lists them; the seats of
    game `index` of a competitive game are rotated from them (runner.seat_order)."""

    game: str
    root_seed: int
    index: int
    settings: dict[str, Any]  # raw values, as a command line or a manifest gives them
    strategies: tuple[str, ...]
    cell: str | None = None


def command(ref: GameRef) -> str:
    """The `simkit replay` command that tells this game."""
    words = ["simkit", "replay", ref.game, "--seed", f"{ref.root_seed}:{ref.index}"]
    for key, value in ref.settings.items():
        if value is not None and not (key == "data" and value == BUILT_IN):
            words += ["--set", f"{key}={value}"]
    for name in ref.strategies:
        words += ["--strategy", str(name)]
    return shlex.join(words)


def from_manifest(manifest: dict[str, Any], cell: dict[str, Any], index: int) -> GameRef:
    """Game `index` of a manifest cell (a cell dict of `manifest["cells"]`)."""
    count, _ = dataset.cell_plan(manifest, cell)
    if isinstance(count, int) and not 0 <= index < count:
        raise UserError(f"--game-index {index}: cell {cell['cell']} has games 0..{count - 1}")
    settings = {k: v for k, v in (cell.get("settings") or {}).items() if not (k == "data" and v == BUILT_IN)}
    return GameRef(
        game=str(manifest["game"]),
        root_seed=int(manifest["root_seed"]),
        index=index,
        settings=settings,
        strategies=tuple(cell.get("strategy") or ()),
        cell=cell["cell"],
    )


def from_dataset(path: str | Path, cell_spec: str | None, index: int) -> GameRef:
    """Game `index` of a cell of a dataset (the only cell when `cell_spec` is None). The rules
    version and component files must be those the run used, or the game would differ silently."""
    from simkit.core import compare

    manifest = dataset.read_manifest(path)
    cells = manifest.get("cells") or []
    if cell_spec is None:
        if len(cells) != 1:
            names = ", ".join(c["cell"] for c in cells)
            raise UserError(f"{path}: {len(cells)} cells; name one with --cell ({names})")
        cell = cells[0]
    else:
        cell = compare.find_manifest_cell(manifest, Path(path), cell_spec)
    check_replayable(manifest, Path(path))
    return from_manifest(manifest, cell, index)


def check_replayable(manifest: dict[str, Any], path: Path) -> None:
    """Refuse a dataset whose games would not replay as they were played: made under another rules
    version, or with a component file that has changed since."""
    engine = get_game(str(manifest.get("game")))
    made, now = manifest.get("rules_version", 1), engine.rules_version
    if made != now:
        raise UserError(
            f"{path}: made under rules version {made} of {engine.id}, this simkit plays version {now}: "
            "its games would not replay as they were played"
        )
    for file, digest in (manifest.get("data_files") or {}).items():
        try:
            current = hashlib.sha256(Path(file).read_bytes()).hexdigest()
        except OSError:
            raise UserError(f"{path}: the run's component file {file} cannot be read") from None
        if current != digest:
            raise UserError(f"{path}: the component file {file} has changed since the run")


@dataclass(frozen=True)
class CellPage:
    """The replay page of one cell's first game, as the report links it: `file` relative to the
    report, or None with `note` saying why there is none."""

    cell: str
    label: str
    file: str | None
    note: str = ""


def cell_pages(manifest: dict[str, Any], dataset: Path, out: Path, prefix: str) -> list[CellPage]:
    """Write `out/replays/PREFIX-CELL.html` for game 0 of every cell of a dataset."""
    cells = manifest.get("cells") or []
    try:
        engine = get_game(str(manifest.get("game")))
        if "draw" not in engine.capabilities:
            raise UserError(f"{engine.id} cannot draw its table")
        check_replayable(manifest, dataset)
    except UserError as exc:
        return [CellPage(c["cell"], c.get("label", c["cell"]), None, str(exc)) for c in cells]
    pages = []
    for cell in cells:
        name = f"replays/{prefix}-{cell['cell']}.html"
        try:
            write_page(from_manifest(manifest, cell, 0), out / name)
            pages.append(CellPage(cell["cell"], cell.get("label", cell["cell"]), name))
        except UserError as exc:
            pages.append(CellPage(cell["cell"], cell.get("label", cell["cell"]), None, str(exc)))
        except Exception as exc:  # a user's player that fails: the report still stands
            from simkit.core.players import describe_failure

            why = describe_failure(exc, tuple(cell.get("strategy") or ()))
            pages.append(
                CellPage(cell["cell"], cell.get("label", cell["cell"]), None, f"the game failed: {why}")
            )
    return pages


def resolved(ref: GameRef, where: str = "replay") -> tuple[Engine, dict[str, Any], tuple[str, ...]]:
    """The engine, the checked settings and the strategies of each seat of this game."""
    from simkit.core.runner import seat_order

    engine = get_game(ref.game)
    settings = resolve_settings(engine, dict(ref.settings), where)
    strategies = resolve_strategies(engine, list(ref.strategies), settings.get("players"), where)
    if engine.competitive:
        strategies = seat_order(strategies, ref.index)
    return engine, settings, strategies


def page(ref: GameRef) -> str:
    """The step-through page of this game (the game must have the `draw` capability)."""
    engine, settings, strategies = resolved(ref)
    if "draw" not in engine.capabilities:
        raise UserError(f"{engine.id} cannot draw its table yet (no `draw` capability)")
    steps = engine.draw_replay(settings, strategies, ref.root_seed, ref.index)
    result = engine.play(settings, strategies, ref.root_seed, ref.index)
    facts = [
        ("game", f"{engine.title} ({engine.id})"),
        ("seed", f"{ref.root_seed}:{ref.index} (root seed : game index)"),
        (
            "settings",
            ", ".join(
                f"{s.name}={s.label(settings[s.name])}"
                for s in engine.settings
                if settings.get(s.name) is not None
            ),
        ),
        ("players", ", ".join(_seat_names(engine, strategies))),
        ("replay as text", command(ref)),
    ]
    if ref.cell:
        facts.insert(2, ("cell", ref.cell))
    return replay_page.render(
        title=f"{engine.title}: game {ref.root_seed}:{ref.index}",
        facts=facts,
        steps=steps,
        record=_plain(result.record),
        seats=[_plain(s) for s in result.seats] if result.seats else None,
    )


def write_page(ref: GameRef, path: str | Path) -> int:
    """Write this game's step-through page; its size in bytes."""
    return replay_page.write(path, page(ref))


def _seat_names(engine: Engine, strategies: Sequence[str]) -> list[str]:
    if engine.competitive:
        return [f"seat {i + 1}: {s}" for i, s in enumerate(strategies)]  # as the table names them
    return [f"the crew: {strategies[0]}"]


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A record row as JSON values (numpy scalars and the like as their Python values)."""
    return {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
