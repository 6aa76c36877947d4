"""Load and validate the 8-Bit Invaders component file (data/components.toml by default).

Every fault names the file, the key and what is wrong, as a `UserError` (one line, exit code 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from simkit.core import schema
from simkit.core.files import (
    PROVENANCE,  # noqa: F401 (the allowed sources, part of this interface)
)
from simkit.core.schema import Check, FileSpec, Int, List, Section, Source, Str, Table, Tables

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


def _is_requirement(label: str) -> bool:
    try:
        parse_requirement(label)
    except ValueError:
        return False
    return True


# --- the file, declared once: the loader checks it, `simkit data template/check` explain it ----


def _shield_columns(doc: dict) -> schema.Iterator[schema.Problem]:
    columns, shields = doc["formation"]["columns"], doc["shields"]
    count, start = shields["count"], shields["start_columns"]
    if count > columns:
        yield "shields.count", f"must be at most the {columns} columns, got {count}"
    elif len(start) != count or any(c > columns for c in start):
        yield "shields.start_columns", f"must list {count} distinct increasing columns in 1..{columns}"


def _formation_filled(doc: dict) -> schema.Iterator[schema.Problem]:
    rows, columns = doc["formation"]["rows"], doc["formation"]["columns"]
    found = len(doc["aliens"]["cards"])
    if found != rows * columns:
        yield "aliens.cards", f"must hold {rows * columns} aliens (rows x columns), found {found}"


def _alien_ids_and_types(doc: dict) -> schema.Iterator[schema.Problem]:
    types, cards = doc["aliens"]["types"], doc["aliens"]["cards"]
    seen: set[int] = set()
    for i, card in enumerate(cards):
        if card["id"] in seen:
            yield f"aliens.cards[{i}].id", f"duplicate id {card['id']}"
        seen.add(card["id"])
        if card["type"] not in types:
            yield f"aliens.cards[{i}].type", f"unknown type {card['type']!r} (types: {', '.join(types)})"
    used = {card["type"] for card in cards}
    for name in types:
        if name not in used:
            yield "aliens.types", f"type {name!r} has no alien"


def _bonus_once(doc: dict) -> schema.Iterator[schema.Problem]:
    named: set[str] = set()
    for i, card in enumerate(doc["bonus"]["cards"]):
        if card["name"] in named:
            yield f"bonus.cards[{i}].name", f"bonus card {card['name']!r} is listed twice (give one count)"
        named.add(card["name"])


FILE_SPEC = FileSpec(
    title="8-Bit Invaders component file.",
    intro="The formation, shields, countdown, dice, bonus cards and alien cards of the box. The "
    "requirement labels are read off the printed cards; which picture type each is printed with is "
    "invented (RULINGS section 3).",
    root=Table(
        fields={
            "meta": schema.META,
            "formation": Section(
                doc="The grid of alien cards dealt at the start",
                rows=Int(doc="rows of alien cards", lo=1, hi=9),
                columns=Int(doc="columns of alien cards", lo=1, hi=9),
            ),
            "shields": Section(
                doc="The shield cards under the formation",
                count=Int(doc="shield cards", lo=0, hi=9),
                start_columns=List(
                    doc="the columns the shields start under, 1-based, left to right",
                    item=Int(lo=1, hi=9),
                    distinct=True,
                    increasing=True,
                ),
            ),
            "countdown": Section(
                doc="The countdown cards",
                cards=Int(
                    doc="countdown cards in the box; the `countdown` setting may start with fewer",
                    lo=1,
                    hi=20,
                ),
            ),
            "dice": Section(
                doc="The attack dice",
                supplied=Int(
                    doc="dice in the box; a turn rolls the `dice` setting plus one per Rapid Fire played "
                    "and may not need more",
                    lo=1,
                    hi=30,
                ),
                faces=Int(doc="faces per die (only six-sided dice are supported)", lo=6, hi=6),
            ),
            "bonus": Section(
                doc="The bonus cards, by name and count",
                cards=Tables(
                    doc="the bonus deck",
                    item=Table(
                        inline=True,
                        fields={
                            "name": Str(doc="the card", choices=BONUS_NAMES),
                            "count": Int(doc="copies in the deck", lo=0, hi=20),
                        },
                    ),
                ),
            ),
            "aliens": Table(
                doc='The alien cards. A requirement "a b" is one die showing a and one showing b; "=N" '
                "is dice totalling N (=12 to =15 are the heavy bombers)",
                fields={
                    "requirement_source": Source("where the requirement labels come from"),
                    "type_source": Source("where the picture type of each label comes from"),
                    "types": List(
                        doc="the picture types, each on at least one alien",
                        item=Str(),
                        min_len=1,
                        distinct=True,
                    ),
                    "cards": Tables(
                        doc="the alien cards, rows x columns of them",
                        item=Table(
                            inline=True,
                            fields={
                                "id": Int(doc="a number naming the card", lo=1, hi=10_000),
                                "type": Str(doc="its picture type, one of `types`"),
                                "requires": Str(
                                    doc="its requirement as printed",
                                    valid=_is_requirement,
                                    pattern_help="'a b' (1 <= a < b <= 6) or '=N' (2 <= N <= 54)",
                                ),
                            },
                        ),
                    ),
                },
            ),
        }
    ),
    checks=(
        Check(
            ("formation", "shields"),
            _shield_columns,
            "shields.count is at most formation.columns, and "
            "shields.start_columns lists that many columns of the formation.",
        ),
        Check(("formation", "aliens.cards"), _formation_filled, "aliens.cards holds rows x columns aliens."),
        Check(
            ("aliens",),
            _alien_ids_and_types,
            "alien ids are distinct; every card's type is one of "
            "aliens.types, and every type is on at least one card.",
        ),
        Check(("bonus",), _bonus_once, "each bonus card is named once."),
    ),
)


def _build(path: Path, doc: dict[str, Any], sha256: str) -> Components:
    """The checked document of the component file at `path` as the engine's components."""
    formation, shields, aliens_t = doc["formation"], doc["shields"], doc["aliens"]
    sources = {
        "formation": formation["source"],
        "shields": shields["source"],
        "countdown": doc["countdown"]["source"],
        "dice": doc["dice"]["source"],
        "bonus": doc["bonus"]["source"],
        "alien requirements": aliens_t["requirement_source"],
        "alien types": aliens_t["type_source"],
    }
    types = aliens_t["types"]
    aliens = []
    for card in aliens_t["cards"]:
        kind, a, b = parse_requirement(card["requires"])
        aliens.append(
            Alien(
                card["id"],
                types.index(card["type"]),
                kind,
                a,
                b,
                kind == SUM and a in BOMBER_TOTALS,
                f"={a}" if kind == SUM else f"{a} {b}",
                2 if kind == PAIR else -(-a // 6),
                _memo_index((kind, a, b)),  # aliens with the same requirement share one memo
            )
        )
    return Components(
        path=str(path),
        sha256=sha256,
        rows=formation["rows"],
        columns=formation["columns"],
        shield_count=shields["count"],
        shield_start=tuple(c - 1 for c in shields["start_columns"]),
        countdown_cards=doc["countdown"]["cards"],
        dice_supplied=doc["dice"]["supplied"],
        types=tuple(types),
        aliens=tuple(aliens),
        bonus_deck=tuple(card["name"] for card in doc["bonus"]["cards"] for _ in range(card["count"])),
        sources=MappingProxyType(sources),
    )


load = schema.loader(FILE_SPEC, "eight-bit-invaders", DEFAULT_FILE, _build, "component file")
