"""Reading the user's TOML files (scenarios, component data) with one-line errors."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from simkit.core.errors import UserError


def read_toml(path: Path, what: str) -> tuple[dict[str, Any], bytes]:
    """The parsed document and the raw bytes (for hashing); every fault names the file."""
    try:
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


# --- validating component data files: one-line errors naming the file and the key ---------------

PROVENANCE = ("rulebook", "derived", "invented", "published")  # where a component's values come from


def data_error(path: Path, key: str, problem: str) -> UserError:
    return UserError(f"{path}: {key}: {problem}")


def data_table(doc: dict, path: Path, key: str, allowed: set[str]) -> dict:
    """The table `doc[key]`, refusing a missing table or a key it does not know."""
    value = doc.get(key)
    if not isinstance(value, dict):
        raise data_error(path, key, "missing table")
    unknown = set(value) - allowed
    if unknown:
        raise data_error(
            path, f"{key}.{sorted(unknown)[0]}", f"unknown key (allowed: {', '.join(sorted(allowed))})"
        )
    return value


def data_int(table: dict, path: Path, key: str, name: str, lo: int, hi: int) -> int:
    value = table.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise data_error(path, f"{key}.{name}", f"must be an integer in {lo}..{hi}, got {value!r}")
    return value


def data_source(table: dict, path: Path, key: str, name: str = "source") -> str:
    """A section's provenance: one of PROVENANCE."""
    value = table.get(name)
    if value not in PROVENANCE:
        raise data_error(path, f"{key}.{name}", f"must be one of {', '.join(PROVENANCE)}, got {value!r}")
    return value
