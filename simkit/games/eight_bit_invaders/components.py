"""Load and validate the 8-Bit Invaders component file (data/components.toml by default).

Every fault names the file, the key and what is wrong, as a `UserError` (one line, exit code 2).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
    data_key,
    read_toml,
)
from simkit.core.files import data_error as _fail
from simkit.core.files import data_int as _int
from simkit.core.files import data_source as _source
from simkit.core.files import data_table as _table

DEFAULT_FILE = Path(__file__).parent / "data" / "components.toml"
BONUS_NAMES = ("rapid_fire", "time_slip", "smart_bomb", "extra_life", "rocket_fuel")
BOMBER_TOTALS = (12, 13, 14, 15)  # rulebook: the aliens "=12" "=13" "=14" and "=15" are heavy bombers

PAIR, SUM = 0, 1


class Alien(NamedTuple):
    """A printed alien card. A named tuple: players reach it through their view, and a tuple of
    plain values cannot be changed from there (a frozen dataclass can, with object.__setattr__)."""

    id: int
    type: int  # index into Components.types
    kind: int  # PAIR or SUM
    a: int  # PAIR: lower face; SUM: the total
    b: int  # PAIR: higher face; SUM: 0
    bomber: bool
    label: str  # as printed: "2 5" or "=11"
    need: int  # fewest dice that can kill it: 2 for a pair, ceil(N / 6) for "=N"
    memo: int  # index into OPTION_MEMOS: the memo of the ways to kill this requirement


# Memos of the ways to kill each requirement, keyed by dice counts (rules.kill_options fills
# them), one per distinct requirement (kind, a, b): a pure function of a few small ints, kept
# here rather than on the alien so that the alien itself stays an immutable value.
OPTION_MEMOS: list[dict] = []
_MEMO_OF: dict[tuple[int, int, int], int] = {}


def _memo_index(requirement: tuple[int, int, int]) -> int:
    index = _MEMO_OF.get(requirement)
    if index is None:
        index = _MEMO_OF[requirement] = len(OPTION_MEMOS)
        OPTION_MEMOS.append({})
    return index


@dataclass(frozen=True)
class Components:
    path: str
    sha256: str
    rows: int
    columns: int
    shield_count: int
    shield_start: tuple[int, ...]  # 0-based columns
    countdown_cards: int  # in the box: the `countdown` setting may start with fewer
    dice_supplied: int  # in the box: every turn draws this many attack dice (see game.py)
    types: tuple[str, ...]
    aliens: tuple[Alien, ...]
    bonus_deck: tuple[str, ...]  # one entry per card, in file order
    sources: Mapping[str, str]  # read-only


def parse_requirement(label: str) -> tuple[int, int, int]:
    """'2 5' -> (PAIR, 2, 5); '=11' -> (SUM, 11, 0). Raises ValueError on anything else."""
    text = label.strip()
    if text.startswith("="):
        total = int(text[1:])
        if not 2 <= total <= 54:
            raise ValueError
        return SUM, total, 0
    parts = text.split()
    if len(parts) != 2:
        raise ValueError
    a, b = int(parts[0]), int(parts[1])
    if not (1 <= a < b <= 6):
        raise ValueError
    return PAIR, a, b


def load(path: str | Path | None = None) -> Components:
    """Load and validate a component file; `None` means the built-in default."""
    return _load_cached(*data_key(path, DEFAULT_FILE))


@lru_cache(maxsize=8)
def _load_cached(path_text: str, shipped_digest: str) -> Components:
    """`shipped_digest` only keys the cache: other bytes shipped for the same path load afresh."""
    path = Path(path_text)
    doc, raw = read_toml(path, "component file")

    top = {"meta", "formation", "shields", "countdown", "dice", "bonus", "aliens"}
    unknown = set(doc) - top
    if unknown:
        raise _fail(path, sorted(unknown)[0], f"unknown section (allowed: {', '.join(sorted(top))})")
    if "meta" in doc:
        _table(doc, path, "meta", {"name", "version", "description"})
    sources: dict[str, str] = {}

    formation = _table(doc, path, "formation", {"source", "rows", "columns"})
    sources["formation"] = _source(formation, path, "formation")
    rows = _int(formation, path, "formation", "rows", 1, 9)
    columns = _int(formation, path, "formation", "columns", 1, 9)

    shields = _table(doc, path, "shields", {"source", "count", "start_columns"})
    sources["shields"] = _source(shields, path, "shields")
    shield_count = _int(shields, path, "shields", "count", 0, columns)
    start = shields.get("start_columns")
    if (
        not isinstance(start, list)
        or len(start) != shield_count
        or not all(isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= columns for c in start)
        or sorted(set(start)) != start
    ):
        raise _fail(
            path,
            "shields.start_columns",
            f"must list {shield_count} distinct increasing columns in 1..{columns}",
        )

    countdown = _table(doc, path, "countdown", {"source", "cards"})
    sources["countdown"] = _source(countdown, path, "countdown")
    countdown_cards = _int(countdown, path, "countdown", "cards", 1, 20)

    dice = _table(doc, path, "dice", {"source", "supplied", "faces"})
    sources["dice"] = _source(dice, path, "dice")
    supplied = _int(dice, path, "dice", "supplied", 1, 30)
    if _int(dice, path, "dice", "faces", 6, 6) != 6:
        raise _fail(path, "dice.faces", "only six-sided dice are supported")

    bonus = _table(doc, path, "bonus", {"source", "cards"})
    sources["bonus"] = _source(bonus, path, "bonus")
    deck: list[str] = []
    cards = bonus.get("cards")
    if not isinstance(cards, list):
        raise _fail(path, "bonus.cards", "must be a list of { name, count }")
    named: set[str] = set()
    for i, card in enumerate(cards):
        key = f"bonus.cards[{i}]"
        if not isinstance(card, dict) or set(card) != {"name", "count"}:
            raise _fail(path, key, "must be { name = ..., count = ... }")
        if card["name"] not in BONUS_NAMES:
            raise _fail(
                path, f"{key}.name", f"unknown bonus card {card['name']!r} (known: {', '.join(BONUS_NAMES)})"
            )
        if card["name"] in named:
            raise _fail(path, f"{key}.name", f"bonus card {card['name']!r} is listed twice (give one count)")
        named.add(card["name"])
        deck.extend([card["name"]] * _int(card, path, key, "count", 0, 20))

    aliens_t = _table(doc, path, "aliens", {"requirement_source", "type_source", "types", "cards"})
    sources["alien requirements"] = _source(aliens_t, path, "aliens", "requirement_source")
    sources["alien types"] = _source(aliens_t, path, "aliens", "type_source")
    types = aliens_t.get("types")
    if (
        not isinstance(types, list)
        or not types
        or not all(isinstance(t, str) and t for t in types)
        or len(set(types)) != len(types)
    ):
        raise _fail(path, "aliens.types", "must be a list of distinct type names")
    alien_list = aliens_t.get("cards")
    if not isinstance(alien_list, list) or len(alien_list) != rows * columns:
        n = len(alien_list) if isinstance(alien_list, list) else 0
        raise _fail(path, "aliens.cards", f"must hold {rows * columns} aliens (rows x columns), found {n}")
    aliens: list[Alien] = []
    seen: set[int] = set()
    for i, card in enumerate(alien_list):
        key = f"aliens.cards[{i}]"
        if not isinstance(card, dict) or set(card) != {"id", "type", "requires"}:
            raise _fail(path, key, "must be { id = ..., type = ..., requires = ... }")
        ident = _int(card, path, key, "id", 1, 10_000)
        if ident in seen:
            raise _fail(path, f"{key}.id", f"duplicate id {ident}")
        seen.add(ident)
        if card["type"] not in types:
            raise _fail(path, f"{key}.type", f"unknown type {card['type']!r} (types: {', '.join(types)})")
        try:
            kind, a, b = parse_requirement(str(card["requires"]))
        except ValueError:
            raise _fail(
                path, f"{key}.requires", f"must be 'a b' (1 <= a < b <= 6) or '=N', got {card['requires']!r}"
            ) from None
        label = f"={a}" if kind == SUM else f"{a} {b}"
        aliens.append(
            Alien(
                ident,
                types.index(card["type"]),
                kind,
                a,
                b,
                kind == SUM and a in BOMBER_TOTALS,
                label,
                2 if kind == PAIR else -(-a // 6),
                _memo_index((kind, a, b)),  # aliens with the same requirement share one memo
            )
        )
    per_type = Counter(a.type for a in aliens)
    unused = [name for t, name in enumerate(types) if per_type[t] == 0]
    if unused:
        raise _fail(path, "aliens.types", f"type {unused[0]!r} has no alien")
    return Components(
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        rows=rows,
        columns=columns,
        shield_count=shield_count,
        shield_start=tuple(c - 1 for c in start),
        countdown_cards=countdown_cards,
        dice_supplied=supplied,
        types=tuple(types),
        aliens=tuple(aliens),
        bonus_deck=tuple(deck),
        sources=MappingProxyType(sources),
    )
