"""A declared setting (or a strategy's parameter): its name, type, allowed values and default,
and how a raw value (a CLI string, a TOML value) becomes a typed one or is refused in one line."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simkit.core.errors import UserError

TRUE_WORDS, FALSE_WORDS = ("true", "yes", "1"), ("false", "no", "0")


@dataclass(frozen=True)
class Setting:
    """One declared setting: its name, type, allowed values and default.

    `choices` lists the allowed values; `minimum`/`maximum` bound numbers instead. A `path` setting
    names a file (component data); its default `None` means the game's built-in file.
    """

    name: str
    type: str  # "int" | "float" | "str" | "bool" | "path"
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    # A name for each value where the game has one (Oh no's levels): the one place it is stated.
    labels: dict[Any, str] | None = field(default=None, compare=False, hash=False)
    # Where the default follows other settings (Space Alert's figures follow its players): the
    # value from the other resolved settings when the user did not set this one; `default` is then
    # what it is with every other setting at its default.
    follows: Callable[[dict[str, Any]], Any] | None = field(default=None, compare=False, hash=False)
    follows_help: str = ""
    what: str = "setting"  # what messages call it: a game's "setting", a strategy's "parameter"

    def label(self, value: Any) -> str:
        """The value with its name, if it has one ("1 (Private McEasy)")."""
        name = (self.labels or {}).get(value)
        return f"{value} ({name})" if name else str(value)

    def parse(self, raw: Any, where: str) -> Any:
        """Turn a raw value (a CLI string or a TOML value) into the typed value, or refuse it."""
        value = raw
        try:
            if self.type == "int":
                if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                    raise ValueError
                value = int(raw)
            elif self.type == "float":
                if isinstance(raw, bool):
                    raise ValueError
                value = float(raw)
                if not math.isfinite(value):  # nan and inf are no setting, and no JSON either
                    raise UserError(
                        f"{where}: {self.what} '{self.name}' must be a finite number, got {raw!r}"
                    )
            elif self.type == "bool":
                if isinstance(raw, str) and raw.lower() in TRUE_WORDS + FALSE_WORDS:
                    value = raw.lower() in TRUE_WORDS
                elif not isinstance(raw, bool):
                    raise ValueError
            elif self.type == "str":
                if isinstance(raw, bool) or not isinstance(raw, str | int):
                    raise ValueError
                value = str(raw)  # `mission = 3` in a scenario means the choice "3"
            elif self.type == "path":
                if not isinstance(raw, str):
                    raise ValueError
                value = raw
        except (TypeError, ValueError):
            raise UserError(f"{where}: {self.what} '{self.name}' must be {self.type}, got {raw!r}") from None
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise UserError(
                f"{where}: {self.what} '{self.name}' = {value!r} is not allowed (allowed: {allowed})"
            )
        if self.minimum is not None and value < self.minimum:
            raise UserError(
                f"{where}: {self.what} '{self.name}' = {value!r} is below the minimum {self.minimum}"
            )
        if self.maximum is not None and value > self.maximum:
            raise UserError(
                f"{where}: {self.what} '{self.name}' = {value!r} is above the maximum {self.maximum}"
            )
        if self.type == "path" and not Path(value).is_file():
            raise UserError(f"{where}: {self.what} '{self.name}': file not found: {value}")
        return value

    def describe(self) -> str:
        if self.choices is not None:
            allowed = "|".join(str(c) for c in self.choices)
        elif self.minimum is not None or self.maximum is not None:
            low = "" if self.minimum is None else self.minimum
            high = "" if self.maximum is None else self.maximum
            allowed = f"{low}..{high}"
        else:
            allowed = self.type
        if self.type == "bool":
            allowed = "true|false"
        default = "built-in" if self.default is None else self.default
        if isinstance(default, bool):
            default = "true" if default else "false"
        if self.follows is not None:
            default = f"{default}; {self.follows_help}" if self.follows_help else default
        return f"{self.name}={allowed} (default {default})"
