"""The board file: the default (RULINGS §1) and how a board with each kind of fault is refused.

Every broken board is the default file with one change, written to tmp_path; loading it must raise
`UserError` with one line naming the file, the key and the space (or city) at fault.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from simkit.core.errors import UserError
from simkit.games.alien_attack import components

DEFAULT_TEXT = components.DEFAULT_FILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def board():
    return components.load()


def test_default_board_counts(board):
    assert board.n == 120 and len(board.coords) == 121
    assert sum(board.park) == 22
    assert all(len(r) == 3 for r in board.herd_regions) and len(board.herd_regions) >= 4
    assert {k: len(v) for k, v in board.borders.items() if k != "canada"} == {
        "atlantic": 11,
        "pacific": 10,
        "gulf": 10,
        "mexico": 7,
    }
    values = Counter(c.value for c in board.cities)
    assert values[1] >= 4 and values[2] >= 7 and set(values) <= set(range(1, 8))
    assert all(values[v] >= 5 for v in (2, 3, 4, 5))  # every City card has cities to score
    assert board.icons and board.discs == 33


def test_default_board_geometry(board):
    for s in range(1, 121):
        for t in board.neighbors[s]:
            assert s in board.neighbors[t]
        for n1, n2 in board.lines[s]:
            assert n1 in board.neighbors[s]
            if n2:
                q, r = board.coords[s]
                q1, r1 = board.coords[n1]
                assert board.coords[n2] == (2 * q1 - q, 2 * r1 - r)
    for city in board.cities:
        assert all(b in board.neighbors[a] for a in city.spaces for b in city.spaces if a != b)


def test_default_board_provenance(board):
    assert board.sources["board layout"] == "invented"
    assert board.sources["global protection"] == "rulebook"
    assert set(board.sources.values()) <= {"rulebook", "invented"}


def broken(tmp_path, old, new, count=1):
    assert old in DEFAULT_TEXT, old
    path = tmp_path / "board.toml"
    path.write_text(DEFAULT_TEXT.replace(old, new, count), encoding="utf-8")
    return path


def refused(path, *fragments):
    with pytest.raises(UserError) as err:
        components.load(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message
    for fragment in fragments:
        assert fragment in message, message
    return message


PACIFIC = re.search(r"pacific = (\[.*\])", DEFAULT_TEXT).group(1)
ATLANTIC = re.search(r"atlantic = (\[.*\])", DEFAULT_TEXT).group(1)

FAULTS = [
    ("{ n = 2, q = 1, r = 0 }", "{ n = 1, q = 1, r = 0 }", ["board.spaces[1]", "space 1: duplicate number"]),
    ("  { n = 120, q = 1, r = 11 },\n", "", ["board.spaces", "space 120: missing"]),
    ("{ n = 2, q = 1, r = 0 }", "{ n = 2, q = 0, r = 0 }", ["space 2: same coordinates (0, 0) as space 1"]),
    ("{ n = 120, q = 1, r = 11 }", "{ n = 120, q = 30, r = 11 }", ["space 120: not connected"]),
    (
        "{ n = 7, q = 6, r = 0 }",
        "{ n = 7, q = 6, r = 0, x = 1 }",
        ["board.spaces[6].x", "unknown key (allowed: n, q, r)"],
    ),
    ('  { space = 2, name = "Olympic" },\n', "", ["parks.spaces", "must hold 22 entries, found 21"]),
    (
        '{ space = 2, name = "Olympic" }',
        '{ space = 130, name = "Olympic" }',
        ["parks.spaces[0].space", "must be an integer in 1..120, got 130"],
    ),
    (
        '{ space = 2, name = "Olympic" }',
        '{ space = 11, name = "Olympic" }',
        ["parks.spaces", "space 11 is listed twice"],
    ),
    ("[14, 15, 26]", "[14, 15, 100]", ["herds.regions[0]", "space 100 touches no other herd"]),
    ("[14, 15, 26]", "[14, 15]", ["herds.regions[0]", "must hold 3 entries, found 2"]),
    ("[43, 44, 59]", "[14, 44, 59]", ["herds.regions[1]", "space 14 is already in herd region 0"]),
    (ATLANTIC, ATLANTIC.replace("20, ", ""), ["borders.atlantic", "must hold 11 entries, found 10"]),
    (PACIFIC, PACIFIC.replace("[1, ", "[60, "), ["borders.pacific", "space 60 is not on the board's edge"]),
    ("{ q = 2, r = -1 }", "{ q = 2, r = 0 }", ["canada_icons.positions[0]", "is on space 3"]),
    (
        "{ q = 2, r = -1 }",
        "{ q = 20, r = -1 }",
        ["canada_icons.positions[0]", "not next to a Canadian border space"],
    ),
    (
        "spaces = [66, 79, 80]",
        "spaces = [66, 79, 100]",
        ["Los Angeles", "spaces 66 and 100 are not adjacent"],
    ),
    (
        "spaces = [66, 79, 80]",
        "spaces = [79, 80]",
        ["Los Angeles", "only spaces 79 and 80 but is not on the edge"],
    ),
    (
        "spaces = [66, 79, 80]",
        "spaces = [66]",
        ["cities.list[0].spaces", "must hold 2 to 3 entries, found 1"],
    ),
    (
        '"Los Angeles", value = 7',
        '"Los Angeles", value = 8',
        ["cities.list[0].value", "must be an integer in 1..7, got 8"],
    ),
    ("spaces = [66, 79, 80]", "spaces = [32, 33, 47]", ["Detroit", "same vertex as Los Angeles"]),
    ("value = 1,", "value = 3,", ["cities.list", "0 cities of value 1; at least 4"], -1),
    ("2 = [0, 2, 4, 7,", "2 = [0, 2, 1, 7,", ["missions.city.2", "never decreases"]),
    (
        "5 = [0, 5, 10, 15, 21, 28, 36]",
        "5 = [0, 5, 10, 15, 21, 28]",
        ["missions.city.5", "counts 0-5", "6 value-5 cities", "every count 0-6"],
    ),
    (
        "mexico = [0, 2, 4, 7, 10, 14, 18, 23]",
        "mexico = [0, 2, 4, 7]",
        ["missions.border.mexico", "7 spaces on the mexico border"],
    ),
    (
        '[missions.border]\nsource = "invented"',
        '[missions.border]\nsource = "guessed"',
        ["missions.border.source"],
    ),
    ("discs = 33", "discs = 0", ["supply.discs"]),
    ("[board]", "[boards]", ["boards", "unknown key"]),
]


@pytest.mark.parametrize(
    "old, new, fragments, count", [(*f, 1) if len(f) == 3 else f for f in FAULTS], ids=lambda v: str(v)[:40]
)
def test_each_fault_is_refused_with_one_line(tmp_path, old, new, fragments, count):
    refused(broken(tmp_path, old, new, count), *fragments)


def test_malformed_toml_is_refused(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("[board\n", encoding="utf-8")
    refused(path, "malformed TOML")


def test_a_corrected_copy_loads(tmp_path):
    path = broken(tmp_path, 'name = "Olympic"', 'name = "Olympic NP"')
    assert components.load(path).park_names[2] == "Olympic NP"
