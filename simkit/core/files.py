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
