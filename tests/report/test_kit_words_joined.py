"""`Words.joined`: items filled into one text each and joined."""

from __future__ import annotations

from typing import NamedTuple

from simkit.core import stats
from simkit.reporting import kit


class Point(NamedTuple):
    label: str
    rate: stats.Interval


def test_joined_fills_each_item_and_joins_them() -> None:
    words = kit.Words("test", {"item": "{label}{mark} {rate:pct}"})
    points = [Point("a", stats.wilson(1, 4)), Point("b", stats.wilson(3, 4))]
    assert words.joined("item", points, mark=":") == "a: 25.0 %; b: 75.0 %"
    assert words.joined("item", points, ", ", mark="") == "a 25.0 %, b 75.0 %"
    assert words.joined("item", []) == ""
