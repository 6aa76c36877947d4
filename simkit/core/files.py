"""Reading the user's TOML files (scenarios, component data) with one-line errors."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simkit.core.errors import UserError


def read_toml(path: Path, what: str) -> tuple[dict[str, Any], bytes]:
    """The parsed document and the raw bytes (for hashing); every fault names the file. A
    component file shipped with the task (`ship_data`) is read from the task, not the disk."""
    shipped = _task_data.get()
    raw = shipped.files.get(str(path)) if shipped is not None else None
    try:
        if raw is None:
            raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read {what} ({exc.strerror})") from None
    if not raw.strip():
        raise UserError(f"{path}: empty {what}")
    try:
        return tomllib.loads(raw.decode("utf-8")), raw
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: malformed TOML ({exc})") from None


PROVENANCE = ("rulebook", "derived", "invented", "published")  # where a component's values come from


# --- component files travel by value ------------------------------------------------------------
# A run reads each component file once and ships its bytes with every task; a worker installs them
# and reads those bytes, not its own disk, so a Dask worker on another machine needs no copy of
# `--set data=FILE` (and cannot play a different file that happens to sit at the same path).


@dataclass(frozen=True)
class ShippedData:
    """Component files as a task carries them: bytes by resolved path, and the paths as the
    settings wrote them (a relative path means the client's working folder, not the worker's)."""

    files: dict[str, bytes]
    aliases: dict[str, str]
    digests: dict[str, str] = field(default_factory=dict)  # SHA-256 of each file's bytes

    def __post_init__(self) -> None:
        for path, raw in self.files.items():
            self.digests.setdefault(path, hashlib.sha256(raw).hexdigest())


def ship_data(paths: Iterable[str | Path]) -> ShippedData:
    """Read these component files once, for every task of a run."""
    files: dict[str, bytes] = {}
    aliases: dict[str, str] = {}
    for path in paths:
        resolved = str(Path(path).resolve())
        if resolved not in files:
            try:
                files[resolved] = Path(resolved).read_bytes()
            except OSError as exc:
                raise UserError(f"{path}: cannot read component file ({exc.strerror})") from None
        if str(path) != resolved:
            aliases[str(path)] = resolved
    return ShippedData(files, aliases)


# The component files the running task carries (None: read the disk). A context variable, so that
# threads of one worker, each playing its own task, never see one another's.
_task_data: ContextVar[ShippedData | None] = ContextVar("simkit_task_data", default=None)


@contextmanager
def shipped_data(shipped: ShippedData | None) -> Iterator[None]:
    """Within: the games' loaders read these shipped component files, not the disk (a task in a
    worker, or in this process under the sequential backend); afterwards, the disk again."""
    token = _task_data.set(shipped)
    try:
        yield
    finally:
        _task_data.reset(token)


def data_key(path: str | Path | None, default: Path) -> tuple[str, str]:
    """(resolved path, SHA-256 of its shipped bytes or "") of a component file (`None`: the
    game's `default`): the key a game's loader caches under, so that shipped bytes never meet a
    copy parsed from another version of the file."""
    shipped = _task_data.get()
    if path is None:
        path = default
        if shipped is None:
            return str(default), ""  # the common case, kept free of file system calls
    text = str(path)
    if shipped is None:
        return str(Path(text).resolve()), ""
    resolved = shipped.aliases.get(text) or (text if text in shipped.files else str(Path(text).resolve()))
    return resolved, shipped.digests.get(resolved, "")
