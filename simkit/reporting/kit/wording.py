"""A game's report words: `words(package)` reads `report_words.toml` beside a game's analysis
(how to read a section, its findings, chart captions and alt texts, notes), so the analysis module
holds the reckoning and the page's words can be read and edited as text. A text's placeholders
take numbers and estimates (`stats.Interval`) with their format: "{wins:pct} ({wins:ci pct};
{wins.n:,} games)" (`simkit.reporting.text.Shown`).
"""

from __future__ import annotations

import importlib.resources
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from simkit.reporting.text import fill, fill_from

WORDS_FILE = "report_words.toml"


@dataclass(frozen=True)
class Words:
    """A game's report prose by key (a TOML table's key path, dotted: "cards.how"). A text's
    line breaks and runs of spaces are folded to one space, so a paragraph may be wrapped freely
    in the file. `fill(key, **values)` puts values in a text's {placeholders}, an estimate (a
    `stats.Interval` or `stats.PairedDifference`) as its placeholder's format spec asks
    (`text.fill`: "{wins:pct}", "{wins:ci pct}", "{wins:rate}", "{wins.n:,}")."""

    source: str
    texts: Mapping[str, str]

    def __getitem__(self, key: str) -> str:
        try:
            return self.texts[key]
        except KeyError:
            raise KeyError(f"{self.source} has no text {key!r}") from None

    def fill(self, key: str, /, **values: Any) -> str:
        try:
            return fill(self[key], **values)
        except (KeyError, IndexError) as exc:
            raise KeyError(f"{self.source}: text {key!r} wants a value for {exc}") from None

    def fill_from(self, key: str, item: Any, /, **more: Any) -> str:
        """`fill` with the attributes of `item` (a model's part, say) as the values, after `more`."""
        try:
            return fill_from(self[key], item, **more)
        except (AttributeError, KeyError, IndexError) as exc:
            raise KeyError(f"{self.source}: text {key!r} wants a value for {exc}") from None

    def joined(self, key: str, items: Iterable[Any], sep: str = "; ", /, **more: Any) -> str:
        """Each of `items` in the text `key` (`fill_from`, after `more`), joined by `sep`: the
        points a chart's alt text lists, "a 1.0; b 2.0"."""
        return sep.join(self.fill_from(key, item, **more) for item in items)


@cache
def words(package: str) -> Words:
    """The words of the game package `package` (its `report_words.toml`)."""
    source = f"{package.replace('.', '/')}/{WORDS_FILE}"
    texts: dict[str, str] = {}

    def flatten(table: Mapping[str, Any], prefix: str) -> None:
        for key, value in table.items():
            if isinstance(value, Mapping):
                flatten(value, f"{prefix}{key}.")
            elif isinstance(value, str):
                texts[prefix + key] = " ".join(value.split())
            else:
                raise ValueError(f"{source}: {prefix}{key} must be text, not {type(value).__name__}")

    flatten(tomllib.loads((importlib.resources.files(package) / WORDS_FILE).read_text("utf-8")), "")
    return Words(source, texts)
