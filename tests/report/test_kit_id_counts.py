"""`kit.id_counts`: in how many games a column of ids apart by commas names each id."""

from __future__ import annotations

from collections import Counter

import polars as pl

from simkit.reporting import kit


def test_id_counts_counts_each_id_once_a_game() -> None:
    ids = pl.Series(["t1,e3,t1", "e3", None, "", "t2,,e3"])
    assert kit.id_counts(ids) == Counter({"e3": 3, "t1": 1, "t2": 1})


def test_id_counts_takes_another_separator() -> None:
    assert kit.id_counts(pl.Series(["a b", "b"]), sep=" ") == Counter({"b": 2, "a": 1})
