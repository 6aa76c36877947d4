"""The analysis kit's comparisons along every varied setting (`kit.along_settings`) and an
estimate's two table columns (`kit.estimate_columns`)."""

from __future__ import annotations

import polars as pl

from simkit.core import stats
from simkit.reporting import kit


def _cell(cid: str, won: list[bool], **settings: str) -> kit.Cell:
    games = pl.DataFrame({"game_index": range(len(won)), "won": won, "score": [float(w) for w in won]})
    return kit.Cell(cid, settings, games)


def test_every_other_value_against_the_first_per_group():
    cells = [
        _cell(f"c{i}", [i % 2 == 0, True, False, True], deck=deck, strategy=strategy)
        for i, (strategy, deck) in enumerate((s, d) for s in ("a", "b") for d in ("white", "yellow", "red"))
    ]
    keys = ["deck", "strategy"]
    found = kit.along_settings(cells, keys, ["deck", "strategy"])
    # the deck within each strategy (2 others against white, 2 strategies), then the strategies pooled
    assert [(c.group, c.key, c.base, c.other) for c in found] == [
        ("a", "deck", "white", "yellow"),
        ("a", "deck", "white", "red"),
        ("b", "deck", "white", "yellow"),
        ("b", "deck", "white", "red"),
        ("", "strategy", "a", "b"),
    ]
    assert found[-1].paired.cells == 3 and found[-1].paired.wins.n == 12
    direct = kit.paired_along(
        [c for c in cells if c.settings["strategy"] == "a"], "deck", "white", "red", keys
    )
    assert found[1].paired == direct
    # a skipped value is neither a base nor compared; one strategy names the group
    mine = [c for c in cells if c.settings["strategy"] == "b"]
    skipped = kit.along_settings(mine, keys, ["deck"], skip=lambda k, v: v == "white")
    assert [(c.group, c.base, c.other) for c in skipped] == [("b", "yellow", "red")]
    # without the group's setting among the keys, every cell is one group
    bare = [kit.Cell(c.cell, {"deck": c.settings["deck"]}, c.games) for c in mine]
    assert [c.group for c in kit.along_settings(bare, ["deck"], ["deck"])] == ["", ""]


def test_an_estimate_reads_as_two_columns():
    items = [type("Row", (), {"surv": stats.Interval(0.5, 0.4, 0.6, 100)})()]
    table = kit.table("t", [*kit.estimate_columns("survival", "surv", rate=True)], items)
    assert table.columns == ["survival", "95 % CI"] and table.rows == [["50.0 %", "40.0 to 60.0 %"]]
    table = kit.table("t", kit.estimate_columns("mean", "surv"), items)
    assert table.rows == [["0.50", "0.40 to 0.60"]]
