"""Comparisons along every varied setting with their verdicts (`kit.judged_along`): the win
rates in one Holm family, the scores in another, and the settings each is pooled over."""

from __future__ import annotations

import polars as pl

from simkit.reporting import kit


def _cell(cid: str, won: list[bool], score: list[float], **settings: str) -> kit.Cell:
    games = pl.DataFrame({"game_index": range(len(won)), "won": won, "score": score})
    return kit.Cell(cid, settings, games)


def test_win_rates_and_scores_are_judged_in_families_of_their_own() -> None:
    lost, won = [False] * 20, [True] * 20
    low, high = [float(i % 3) for i in range(20)], [float(i % 3 + 1 + i % 2) for i in range(20)]
    cells = [
        # the red deck wins every game the white one lost, 1 or 2 points higher
        _cell("w1", lost, low, deck="white", players="2"),
        _cell("r1", won, high, deck="red", players="2"),
        _cell("w2", lost, low, deck="white", players="4"),
        _cell("r2", won, high, deck="red", players="4"),
    ]
    keys = ["deck", "players"]
    compared, wins = kit.judged_along(cells, keys, keys)
    assert [(c.key, c.base, c.other, c.over) for c in compared] == [
        ("deck", "white", "red", ("players",)),
        ("players", "2", "4", ("deck",)),
    ]
    # 40 pairs all won by the red deck, each 1.5 points higher on average: both resolved; the
    # players' pairs agree in every game: neither
    assert [(c.resolved, c.score_resolved) for c in compared] == [(True, True), (False, False)]
    assert compared[0].paired.wins.n == 40 and compared[0].paired.wins.difference == 1.0
    assert compared[0].paired.score.estimate == 1.5
    assert wins.members == 2 and wins.text.endswith("over 2 comparisons")
    # a value left out is neither a base nor compared
    kept, _ = kit.judged_along(cells, keys, keys, leave_out={"deck": {"white"}})
    assert [(c.key, c.base, c.other) for c in kept] == [("players", "2", "4")]
    # the plain comparisons carry no verdict
    assert [c.resolved for c in kit.along_settings(cells, keys, keys)] == [False, False]
