"""The dataset folder: manifest.json, games/*.parquet, seats/*.parquet, failures/*.parquet and
chunks/*.json.

Each finished chunk of a cell is its own Parquet file, written under a temporary name and then
renamed, so a file that exists is complete. A chunk is finished when its games file exists: the
seats and failures files of a chunk are renamed into place before its games file.

Every chunk has a record, chunks/<cell>-<start>.json: the SHA-256 and row count of each of its
files. It is a sidecar rather than Parquet metadata because a file cannot carry its own hash, and
it is renamed into place before the chunk's files, so a finished chunk always has one. Resume and
`load` check each chunk against it: a truncated, changed or zero-byte file, or a stray copy of a
chunk, is named in one line (resume plays such a chunk again; `load` and `report` refuse).
"""

from __future__ import annotations

import fcntl
import hashlib
import io
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
GAMES, SEATS, FAILURES, CHUNKS = "games", "seats", "failures", "chunks"
# 2: every chunk has a checksum record in chunks/ (datasets of format 1 have none and are read unchecked)
FORMAT = 2
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


def _parquet_bytes(frame: pl.DataFrame) -> bytes:
    """The frame as Parquet, in memory: it is hashed as written, and written by Python's own file
    calls, whose errors say what happened (polars reports a full disk as "Invalid thrift")."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    return buffer.getvalue()


def _stage(data: bytes, path: Path) -> Path:
    """Write `data` under a temporary name beside `path` (removed again if the write fails)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _cannot_write(out: Path, exc: OSError) -> UserError:
    return UserError(f"{out}: cannot write the dataset ({exc.strerror or exc})")


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


def record_file(name: str) -> str:
    """The checksum record of the chunk whose files are named `name`."""
    return name.removesuffix(".parquet") + ".json"


def write_chunk(
    out: Path, name: str, games: pl.DataFrame, seats: pl.DataFrame | None, failures: list[dict]
) -> None:
    """Write one finished chunk (typed frames, core/records.py) and its checksum record.

    Every file is staged under a temporary name first, then the record is renamed into place,
    then the files, the games file last: it marks the chunk done. If anything fails (a full
    disk), the staged files are removed and nothing of the chunk is left half-written.
    """
    frames = {}
    if seats is not None and seats.height:
        frames[SEATS] = seats
    if failures:
        frames[FAILURES] = pl.DataFrame(failures, infer_schema_length=None)
    frames[GAMES] = games  # last: its rename finishes the chunk
    files: dict[str, dict[str, Any] | None] = dict.fromkeys((GAMES, SEATS, FAILURES))
    staged: list[tuple[Path, Path]] = []
    try:
        for sub, frame in frames.items():
            data = _parquet_bytes(frame)
            final = out / sub / name
            staged.append((_stage(data, final), final))
            files[sub] = {"sha256": hashlib.sha256(data).hexdigest(), "rows": frame.height}
        record = {"chunk": name.removesuffix(".parquet"), "files": files}
        record_path = out / CHUNKS / record_file(name)
        staged_record = _stage(json.dumps(record, indent=1).encode("utf-8"), record_path)
        staged.append((staged_record, record_path))
        os.replace(staged_record, record_path)
        for sub in (SEATS, FAILURES):
            if files[sub] is None:  # a file left by an earlier attempt at this chunk
                (out / sub / name).unlink(missing_ok=True)
        for tmp, final in staged[:-1]:
            os.replace(tmp, final)
    except OSError as exc:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise _cannot_write(out, exc) from None


def remove_partial_files(out: Path) -> None:
    """Temporary files left by a run that was killed mid-write; their chunks are played again."""
    for sub in (GAMES, SEATS, FAILURES, CHUNKS):
        for tmp in (out / sub).glob(".*.tmp"):
            tmp.unlink(missing_ok=True)


class DamagedChunk(UserError):
    """A chunk whose files do not match its checksum record (or that has none); the message is one
    line naming the file."""


@dataclass
class ChunkRows:
    games: pl.DataFrame
    seats: pl.DataFrame | None
    failures: pl.DataFrame | None

    @property
    def accounted(self) -> int:
        """Games the chunk accounts for: written, or recorded as failed."""
        return self.games.height + (self.failures.height if self.failures is not None else 0)


def _read_parquet(path: Path, data: bytes | None = None) -> pl.DataFrame:
    try:
        return pl.read_parquet(io.BytesIO(data if data is not None else path.read_bytes()))
    except OSError as exc:
        raise DamagedChunk(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except Exception:  # polars reports a damaged file in several exception types
        raise DamagedChunk(f"{path}: not a readable Parquet file (truncated or damaged)") from None


def read_chunk(out: Path, name: str, checked: bool = True) -> ChunkRows:
    """One finished chunk, its files checked against its record (hash, row count, and that its
    rows are the games its name says); any fault is a DamagedChunk naming the file. `checked`
    False reads a chunk of a format-1 dataset, which has no records."""
    match = CHUNK_NAME.match(name)
    if match is None:
        raise DamagedChunk(f"{out / GAMES / name}: not a chunk file name (cNNN-NNNNNNNNN.parquet)")
    cell, start = match[1], int(match[2])
    if not checked:
        frames = {
            sub: _read_parquet(out / sub / name)
            for sub in (GAMES, SEATS, FAILURES)
            if sub == GAMES or (out / sub / name).is_file()
        }
        return ChunkRows(frames[GAMES], frames.get(SEATS), frames.get(FAILURES))
    record_path = out / CHUNKS / record_file(name)
    try:
        record = json.loads(record_path.read_bytes())
        files = record["files"]
        entries = {sub: files[sub] for sub in (GAMES, SEATS, FAILURES)}
        if not isinstance(entries[GAMES], dict):
            raise ValueError
    except FileNotFoundError:
        raise DamagedChunk(
            f"{out / GAMES / name}: has no checksum record ({CHUNKS}/{record_file(name)}): "
            "not a chunk this run wrote (a stray copy?)"
        ) from None
    except (OSError, ValueError, TypeError, KeyError):
        raise DamagedChunk(f"{record_path}: unreadable checksum record") from None
    frames: dict[str, pl.DataFrame] = {}
    for sub, entry in entries.items():
        path = out / sub / name
        if entry is None:
            if path.exists():
                raise DamagedChunk(f"{path}: not named in its chunk's checksum record (a stray copy?)")
            continue
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DamagedChunk(f"{path}: missing or unreadable ({exc.strerror or exc})") from None
        if not isinstance(entry, dict) or hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            raise DamagedChunk(
                f"{path}: does not match its checksum ({len(data)} bytes; truncated, changed or replaced)"
            )
        frame = _read_parquet(path, data)
        if frame.height != entry.get("rows"):
            raise DamagedChunk(f"{path}: holds {frame.height} rows, its record says {entry.get('rows')}")
        frames[sub] = frame
    rows = ChunkRows(frames[GAMES], frames.get(SEATS), frames.get(FAILURES))
    # the rows are this chunk's games: a file copied over another chunk's name cannot pass
    for sub, frame in frames.items():
        if frame.height and (
            "game_index" not in frame.columns
            or "cell" not in frame.columns
            or (frame["cell"] != cell).any()
            or frame["game_index"].min() < start
            or frame["game_index"].max() >= start + rows.accounted
        ):
            raise DamagedChunk(f"{out / sub / name}: holds games of another chunk than its name says")
    return rows


def finished_chunks(out: Path) -> set[str]:
    """The chunks whose games file is in place (finished, unless damaged: see read_chunk)."""
    folder = out / GAMES
    if not folder.is_dir():
        return set()
    return {p.name for p in folder.iterdir() if CHUNK_NAME.match(p.name)}


SUBFOLDERS = (GAMES, SEATS, FAILURES, CHUNKS)


def _only_a_skeleton(out: Path) -> bool:
    """Whether the folder holds nothing but what a run makes before its manifest (the lock, the
    empty subfolders, a half-written manifest): a run that died there can be run again into it."""
    for entry in out.iterdir():
        if entry.name in (LOCK, f".{MANIFEST}.tmp"):
            continue
        if entry.name in SUBFOLDERS and entry.is_dir() and not any(entry.iterdir()):
            continue
        return False
    return True


def _make_subfolders(out: Path) -> None:
    try:
        for sub in SUBFOLDERS:
            (out / sub).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot_write(out, exc) from None


def prepare(out: Path, manifest: dict[str, Any]) -> None:
    """Create the folder, or check that an existing one holds the same run (then it resumes)."""
    path = out / MANIFEST
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise UserError(f"{path}: unreadable manifest; use another --out") from None
        if old.get("format", 1) < FORMAT:
            raise UserError(
                f"{out}: was written by an older simkit (dataset format {old.get('format', 1)}, without "
                "chunk checksums) and cannot be resumed; use another --out"
            )
        before, now = old.get("rules_version", 1), manifest.get("rules_version", 1)
        if before != now:
            raise UserError(
                f"{out}: was played under {manifest.get('game')} rules version {before} and this simkit "
                f"plays version {now} (see the game's RULES.md): its games would not come out the same; "
                "use another --out"
            )
        a, b = _comparable(old), _comparable(manifest)
        if "stopping" not in old:  # written before manifests named their stopping rule: the resume names it
            b.pop("stopping", None)
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                raise UserError(
                    f"{out}: holds a different run (manifest differs in '{key}'); "
                    "use another --out or delete it"
                )
        _make_subfolders(out)  # a run killed right after its manifest may not have made them all
        now = {cell["cell"]: {cell.get("engine", "python")} for cell in manifest.get("cells", [])}
        merged = _merge_engines(old, now)
        if "stopping" in manifest:
            merged.setdefault("stopping", manifest["stopping"])
        if merged != old:
            _write_manifest(out, merged)
        return
    if out.exists() and not _only_a_skeleton(out):
        raise UserError(f"{out}: folder is not empty and holds no simkit manifest; use another --out")
    _make_subfolders(out)
    _write_manifest(out, manifest)


def _write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    tmp = out / f".{MANIFEST}.tmp"
    try:
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str), encoding="utf-8")
        os.replace(tmp, out / MANIFEST)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise _cannot_write(out, exc) from None


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


def _stray_files(path: Path) -> None:
    """Refuse a Parquet file in the chunk folders that no chunk can be: it would be ignored, and a
    user who put it there expects it counted (or does not know it is there)."""
    for sub in (GAMES, SEATS, FAILURES):
        folder = path / sub
        for file in sorted(folder.glob("*.parquet")) if folder.is_dir() else ():
            if not CHUNK_NAME.match(file.name):
                raise DamagedChunk(
                    f"{file}: not a chunk of this dataset (chunks are named like c000-000000000.parquet); "
                    "move it out of the folder"
                )


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame | None:
    return pl.concat(frames, how="diagonal_relaxed") if frames else None


def read_manifest(path: str | Path) -> dict[str, Any]:
    """A dataset folder's manifest alone (no chunk is read)."""
    path = Path(path)
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise UserError(f"{path}: not a simkit dataset (no {MANIFEST})")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{manifest_path}: unreadable manifest ({exc})") from None
    if not isinstance(manifest, dict):
        raise UserError(f"{manifest_path}: unreadable manifest (not a JSON object)")
    return manifest


def cell_plan(manifest: dict[str, Any], cell: dict[str, Any]) -> tuple[Any, Any]:
    """(games planned, games per chunk) of a manifest cell: its own where [games_by_strategy]
    set them, else the run's."""
    return cell.get("games", manifest.get("games_per_cell")), cell.get(
        "chunk_size", manifest.get("chunk_size")
    )


def load(path: str | Path) -> Dataset:
    """Read a dataset folder: the manifest and every finished chunk, sorted by cell and game.

    Every chunk is checked against its checksum record first (see read_chunk); a damaged chunk,
    a stray file or a game held twice is a UserError naming the file. Datasets of format 1,
    written before chunks had records, are read unchecked.
    """
    path = Path(path)
    manifest = read_manifest(path)
    checked = manifest.get("format", 1) >= FORMAT or (path / CHUNKS).is_dir()
    _stray_files(path)
    chunk_sizes = {cell.get("cell"): cell_plan(manifest, cell)[1] for cell in manifest.get("cells", [])}
    parts: dict[str, list[pl.DataFrame]] = {GAMES: [], SEATS: [], FAILURES: []}
    for name in sorted(finished_chunks(path)):
        match = CHUNK_NAME.match(name)
        chunk_size = chunk_sizes.get(match[1])
        if match[1] not in chunk_sizes or (isinstance(chunk_size, int) and int(match[2]) % chunk_size):
            raise DamagedChunk(
                f"{path / GAMES / name}: not a chunk of this dataset (no such cell or chunk start); "
                "move it out of the folder"
            )
        rows = read_chunk(path, name, checked)
        for sub, frame in ((GAMES, rows.games), (SEATS, rows.seats), (FAILURES, rows.failures)):
            if frame is not None:
                parts[sub].append(frame)
    games = _concat(parts[GAMES])
    if games is None or "game_index" not in games.columns:
        raise UserError(f"{path}: no finished games (see {FAILURES}/ for games that failed)")
    games = games.sort("cell", "game_index")
    twice = games.filter(pl.struct("cell", "game_index").is_duplicated())
    if twice.height:
        cell, index = twice["cell"][0], twice["game_index"][0]
        raise DamagedChunk(f"{path / GAMES}: game {index} of cell {cell} is held by two chunk files")
    seats = _concat(parts[SEATS])
    if seats is not None:
        seats = seats.sort("cell", "game_index", "seat")
    return Dataset(path, manifest, games, seats, _concat(parts[FAILURES]))
