"""The analysis kit's ranked-rates chart spec (`kit.Ranked`) and the values of a setting ranked with
their paired comparisons (`kit.ranked_along`)."""

from __future__ import annotations

import polars as pl

from simkit.core import stats
from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext


def test_ranked_draws_the_rows_with_the_games_words(tmp_path, monkeypatch) -> None:
    package = tmp_path / "ranked_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / kit.WORDS_FILE).write_text(
        "[decks]\n"
        'title = "Decks ranked"\nheading = "Decks, hardest first: {subject}"\naxis = "won (%)"\n'
        'alt = "Win rate per deck. {items}"\nitem = "{label} ({group}): {rate:pct}"\n'
        'caption = "Win rate per deck; {games}.{several: Colour shows the crew.|}"\n',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    words = kit.words("ranked_game")
    texts = ("decks.title", "decks.heading", "decks.axis", "decks.alt", "decks.item", "decks.caption")
    spec = kit.Ranked("rg-decks", texts, 6.0, 0.6, "crew", 8)
    ctx = AnalysisContext(dataset=None, out=tmp_path, name="data", subject="A scenario")
    rows = {"red": "deck red", "white": "deck white"}
    points = {
        ("red", "bold"): stats.wilson(1, 4),
        ("white", "bold"): stats.wilson(3, 4),
        ("red", "shy"): stats.wilson(2, 4),
    }
    chart = spec.draw(ctx, words, rows, ["bold", "shy"], points, 3.0, 101, 2, games="4 games", several=True)
    assert chart.name == "data-rg-decks" and chart.title == "Decks ranked"
    assert chart.alt == "Win rate per deck. deck red (bold): 25.0 %; deck white (bold): 75.0 %"  # the first 2
    assert chart.caption == "Win rate per deck; 4 games. Colour shows the crew."
    assert (tmp_path / "data-rg-decks.png").is_file() and (tmp_path / "data-rg-decks.svg").is_file()
    every = spec.draw(ctx, words, rows, ["bold"], points, 3.0, 101, games="4 games", several=False)
    assert every.alt.endswith("deck red (shy): 50.0 %") and every.caption == "Win rate per deck; 4 games."


def _cell(cid: str, won: list[bool], **settings: str) -> kit.Cell:
    games = pl.DataFrame({"game_index": range(len(won)), "won": won, "score": [float(w) for w in won]})
    return kit.Cell(cid, settings, games)


def test_ranked_along_pools_ranks_and_pairs_the_values() -> None:
    # two decks at each of three missions; game i of every cell shares its seed
    wins = {"1": [True, True, False, False], "2": [False, False, False, True], "3": [True] * 4}
    cells = [_cell(f"{m}{d}", won, mission=m, deck=d) for m, won in wins.items() for d in ("white", "yellow")]
    keys = ["mission", "deck"]

    def rate(value: str, games: pl.DataFrame) -> tuple:
        return kit.win_rate(games).estimate, int(value)

    ranking = kit.ranked_along(cells, "mission", keys, rate)
    assert [v for v, _ in ranking.pools] == ["2", "1", "3"]  # lowest win rate first
    assert [g.height for _, g in ranking.pools] == [8, 8, 8]  # both decks pooled
    assert ranking.extremes == kit.paired_along(cells, "mission", "2", "3", keys)
    assert ranking.extremes.wins.difference == 0.75 and ranking.extremes.cells == 2
    assert ranking.steps == [
        kit.paired_along(cells, "mission", a, b, keys) for a, b in (("2", "1"), ("1", "3"))
    ]
    # the ends picked from the 3 pairs of missions: their p value times 3, resolved below 5 %
    assert ranking.picked == kit.picked_extremes(ranking.extremes.wins.p_value, 3)
    assert ranking.picked.pairs == 3 and ranking.picked.resolved
    # neither step is resolved after Holm over the two (p 0.41 and 0.046, the smaller times 2)
    assert ranking.resolved == 0 and ranking.family.endswith("over 2 comparisons")
    one = kit.ranked_along(cells[:2], "mission", keys, rate)
    assert [v for v, _ in one.pools] == ["1"] and one.extremes is None and one.steps == []
    assert one.picked is None and one.resolved == 0
