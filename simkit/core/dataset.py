"""The dataset folder: manifest.json, games/*.parquet, seats/*.parquet, failures/*.parquet.

Each finished chunk of a cell is its own Parquet file, written under a temporary name and then
renamed, so a file that exists is complete. A chunk is finished when its games file exists: the
seats and failures files of a chunk are renamed into place before its games file.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simkit.core.errors import UserError

MANIFEST = "manifest.json"
LOCK = ".simkit.lock"
GAMES, SEATS, FAILURES = "games", "seats", "failures"
CHUNK_NAME = re.compile(r"^(c\d{3,})-(\d{9,})\.parquet$")
# Manifest fields that may differ between a run and its resumption: how it was invoked, when,
# and where the scenario and data files were found (a run resumes from another folder or
# checkout; the data files still have to hash the same).
VOLATILE = {"command", "created"}


def _comparable(manifest: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in manifest.items() if k not in VOLATILE}
    out["scenario"] = {k: v for k, v in manifest.get("scenario", {}).items() if k != "source"}
    out["data_files"] = sorted(manifest.get("data_files", {}).values())
    out["strategy_files"] = sorted(manifest.get("strategy_files", {}).values())
    out["data_sources"] = sorted(
        json.dumps(v, sort_keys=True) for v in manifest.get("data_sources", {}).values()
    )
    # a cell's engine may change on resume: both engines give identical rows (see _merge_engines)
    out["cells"] = [
        {
            **{k: v for k, v in cell.items() if k != "engine"},
            "settings": {k: v for k, v in cell.get("settings", {}).items() if k != "data"},
        }
        for cell in manifest.get("cells", [])
    ]
    out["rules_version"] = manifest.get("rules_version", 1)  # datasets before versions were 1
    # compare as JSON text: what was written and read back against what is about to be written
    return {k: json.dumps(v, sort_keys=True, default=str) for k, v in out.items()}


def chunk_file(cell: str, start: int) -> str:
    return f"{cell}-{start:09d}.parquet"


def write_atomic(frame: pl.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        frame.write_parquet(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UserError(f"{path.parent.parent}: cannot write the dataset ({exc.strerror or exc})") from None


@contextmanager
def lock(out: Path) -> Iterator[None]:
    """Hold the dataset folder for one run: a second run into it at the same time is refused.

    An advisory lock on a file in the folder, released by the kernel when the process ends, so a
    killed run leaves no stale lock. If the run is refused before it wrote a manifest, what this
    call made is removed again: the folder if it had to create it, else its lock file.
    """
    created = not out.exists()
    lock_created = created or not (out / LOCK).exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        handle = open(out / LOCK, "a")  # noqa: SIM115 (held open for the run)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the dataset ({exc.strerror})") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise UserError(
            f"{out}: another simkit run is writing to this folder; wait for it or use another --out"
        ) from None
    try:
        yield
    except BaseException:
        if not (out / MANIFEST).exists():
            if created:
                shutil.rmtree(out, ignore_errors=True)
            elif lock_created:
                (out / LOCK).unlink(missing_ok=True)
        raise
    finally:
        handle.close()


def write_chunk(
    out: Path, name: str, games: pl.DataFrame, seats: pl.DataFrame | None, failures: list[dict]
) -> None:
    """Write one finished chunk (typed frames, core/records.py); the games file goes last and
    marks it done."""
    if seats is not None and seats.height:
        write_atomic(seats, out / SEATS / name)
    if failures:
        write_atomic(pl.DataFrame(failures, infer_schema_length=None), out / FAILURES / name)
    write_atomic(games, out / GAMES / name)


def remove_partial_files(out: Path) -> None:
    """Temporary files left by a run that was killed mid-write; their chunks are played again."""
    for sub in (GAMES, SEATS, FAILURES):
        for tmp in (out / sub).glob(".*.tmp"):
            tmp.unlink(missing_ok=True)


def chunk_tally(out: Path, cell: str, start: int) -> tuple[int, int, int]:
    """(wins, games with a verdict, games) of one finished chunk on disk."""
    won = pl.read_parquet(out / GAMES / chunk_file(cell, start), columns=["won"])["won"]
    return int(won.sum() or 0), int(won.is_not_null().sum()), won.len()


def finished_chunks(out: Path) -> set[str]:
    folder = out / GAMES
    if not folder.is_dir():
        return set()
    return {p.name for p in folder.iterdir() if CHUNK_NAME.match(p.name)}


def prepare(out: Path, manifest: dict[str, Any]) -> None:
    """Create the folder, or check that an existing one holds the same run (then it resumes)."""
    path = out / MANIFEST
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise UserError(f"{path}: unreadable manifest; use another --out") from None
        before, now = old.get("rules_version", 1), manifest.get("rules_version", 1)
        if before != now:
            raise UserError(
                f"{out}: was played under {manifest.get('game')} rules version {before} and this simkit "
                f"plays version {now} (see the game's RULES.md): its games would not come out the same; "
                "use another --out"
            )
        a, b = _comparable(old), _comparable(manifest)
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                raise UserError(
                    f"{out}: holds a different run (manifest differs in '{key}'); "
                    "use another --out or delete it"
                )
        now = {cell["cell"]: {cell.get("engine", "python")} for cell in manifest.get("cells", [])}
        merged = _merge_engines(old, now)
        if merged != old:
            _write_manifest(out, merged)
        return
    if out.exists() and any(p.name != LOCK for p in out.iterdir()):
        raise UserError(f"{out}: folder is not empty and holds no simkit manifest; use another --out")
    try:
        for sub in (GAMES, SEATS, FAILURES):
            (out / sub).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the dataset ({exc.strerror})") from None
    _write_manifest(out, manifest)


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    try:
        tmp = out / f".{MANIFEST}.tmp"
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str), encoding="utf-8")
        os.replace(tmp, out / MANIFEST)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the dataset ({exc.strerror})") from None


def _merge_engines(old: dict[str, Any], used: dict[str, set[str]]) -> dict[str, Any]:
    """The manifest `old` with each cell's engine naming every engine that played part of it
    ("native+python" when a resume switched, or a native chunk had to be played on python)."""
    cells = []
    for cell in old.get("cells", []):
        engines = set(cell.get("engine", "python").split("+")) | used.get(cell["cell"], set())
        cells.append({**cell, "engine": "+".join(sorted(engines))})
    return {**old, "cells": cells}


def record_engines(out: Path, used: dict[str, set[str]]) -> None:
    """Add the engines that played each cell to the manifest on disk."""
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    merged = _merge_engines(manifest, used)
    if merged != manifest:
        _write_manifest(out, merged)


@dataclass
class Dataset:
    path: Path
    manifest: dict[str, Any]
    games: pl.DataFrame
    seats: pl.DataFrame | None
    failures: pl.DataFrame | None


def _read_folder(folder: Path) -> pl.DataFrame | None:
    files = sorted(p for p in folder.glob("*.parquet") if CHUNK_NAME.match(p.name)) if folder.is_dir() else []
    if not files:
        return None
    return pl.concat([pl.read_parquet(p) for p in files], how="diagonal_relaxed")


def load(path: str | Path) -> Dataset:
    """Read a dataset folder: the manifest and every finished chunk, sorted by cell and game."""
    path = Path(path)
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise UserError(f"{path}: not a simkit dataset (no {MANIFEST})")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{manifest_path}: unreadable manifest ({exc})") from None
    games = _read_folder(path / GAMES)
    if games is None or "game_index" not in games.columns:
        raise UserError(f"{path}: no finished games (see {FAILURES}/ for games that failed)")
    games = games.sort("cell", "game_index")
    seats = _read_folder(path / SEATS)
    if seats is not None:
        seats = seats.sort("cell", "game_index", "seat")
    failures = _read_folder(path / FAILURES)
    return Dataset(path, manifest, games, seats, failures)
