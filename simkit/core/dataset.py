"""The dataset folder: manifest.json, games/*.parquet, seats/*.parquet, failures/*.parquet.

Each finished chunk of a cell is its own Parquet file, written under a temporary name and then
renamed, so a file that exists is complete. A chunk is finished when its games file exists: the
seats and failures files of a chunk are renamed into place before its games file.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simkit.core.errors import UserError

MANIFEST = "manifest.json"
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
    out["data_sources"] = sorted(
        json.dumps(v, sort_keys=True) for v in manifest.get("data_sources", {}).values()
    )
    out["cells"] = [
        {**cell, "settings": {k: v for k, v in cell.get("settings", {}).items() if k != "data"}}
        for cell in manifest.get("cells", [])
    ]
    # compare as JSON text: what was written and read back against what is about to be written
    return {k: json.dumps(v, sort_keys=True, default=str) for k, v in out.items()}


def chunk_file(cell: str, start: int) -> str:
    return f"{cell}-{start:09d}.parquet"


def write_atomic(frame: pl.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    frame.write_parquet(tmp)
    os.replace(tmp, path)


def write_chunk(
    out: Path, name: str, games: list[dict], seats: list[dict] | None, failures: list[dict]
) -> None:
    """Write one finished chunk; the games file goes last and marks it done."""
    if seats:
        write_atomic(pl.DataFrame(seats, infer_schema_length=None), out / SEATS / name)
    if failures:
        write_atomic(pl.DataFrame(failures, infer_schema_length=None), out / FAILURES / name)
    write_atomic(pl.DataFrame(games, infer_schema_length=None), out / GAMES / name)


def remove_partial_files(out: Path) -> None:
    """Temporary files left by a run that was killed mid-write; their chunks are played again."""
    for sub in (GAMES, SEATS, FAILURES):
        for tmp in (out / sub).glob(".*.tmp"):
            tmp.unlink(missing_ok=True)


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
        old, new = _comparable(old), _comparable(manifest)
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                raise UserError(
                    f"{out}: holds a different run (manifest differs in '{key}'); "
                    "use another --out or delete it"
                )
        return
    if out.exists() and any(out.iterdir()):
        raise UserError(f"{out}: folder is not empty and holds no simkit manifest; use another --out")
    try:
        for sub in (GAMES, SEATS, FAILURES):
            (out / sub).mkdir(parents=True, exist_ok=True)
        tmp = out / f".{MANIFEST}.tmp"
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the dataset ({exc.strerror})") from None


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
