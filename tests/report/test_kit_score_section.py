"""The analysis kit's section of the score's distribution (`kit.ScoreSection`): a game's subclass
declares its columns and words; the kit says where each series scores most, draws the share of
games at each score and tables the mean score per group."""

from __future__ import annotations

import polars as pl

from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext

WORDS = kit.Words(
    "test",
    {
        "most": "{who} scores most at {at}: {m.estimate:.2f}{pooled}.",
        "top": "{sentence}{resolved:|: not resolved} ({values} values, {pairs} pairs, {family}).",
        "score": "{b} {head} {a} ({lo} to {hi}; {n:,} pairs)",
        "head": "scores {size} {up:more|fewer} than",
        "same": "scores as much as",
        "table": "Scores",
        "title": "Scores",
        "alt": "{title}. {items}",
        "caption": "Shares; {games}.",
    },
)

# two levels, two crews of 2 players; game i is dealt alike everywhere; the shy crew never scores
SCORES = {
    (1, "bold"): [2, 2, 0, 2],
    (2, "bold"): [3, 0, 3, 3],
    (1, "shy"): [0, 0, 0, 0],
    (2, "shy"): [0, 0, 0, 0],
}
GAMES = pl.DataFrame(
    [
        {"level": lv, "strategy": crew, "players": 2, "game_index": i, "score": float(s), "won": s > 0}
        for (lv, crew), scores in SCORES.items()
        for i, s in enumerate(scores)
    ]
)


class Scored(kit.ScoreSection):
    ALONG, SERIES = ("level", "level {}", "L{}"), ("strategy", "crew", "the {} crew")
    ROWS, KEYS = (("level", "level"), ("strategy", "crew")), ("level", "strategy", "players")
    WORDS, CHART, TABLE, AXIS = (
        WORDS,
        kit.Panels("scores", ("title", "alt", "caption"), (3, 3), "%"),
        "table",
        "score",
    )
    SAID = ("most", "top", ("score", "head", "same"))

    @classmethod
    def games(cls, ctx: AnalysisContext) -> pl.DataFrame:
        return ctx.dataset


def _ctx(tmp_path, games: pl.DataFrame = GAMES) -> AnalysisContext:
    return AnalysisContext(dataset=games, out=tmp_path, name="data", subject="A scenario")


def test_score_section_says_where_each_scoring_series_scores_most(tmp_path) -> None:
    model = Scored.read(_ctx(tmp_path))
    assert [(series, top) for series, _, top in model.tops] == [("bold", [2, 1])]  # shy never scored
    (said,) = model.findings()
    # level 2 against 1, game by game: +1, -2, +3, +1 -> +0.75 over 4 pairs
    assert said.startswith(
        "The bold crew scores most at level 2: 2.25. Level 2 scores 0.75 more than level 1 ("
    )
    assert said.endswith("; 4 pairs): not resolved (2 values, 1 pairs, " + model.compared.family + ").")


def test_score_section_tables_each_group_and_charts_a_panel_per_value(tmp_path) -> None:
    ctx = _ctx(tmp_path)
    model = Scored.read(ctx)
    (table,) = model.tables()
    assert table.columns == [
        *("level", "crew", "games", "mean score", "scored 0", "games won", "mean score when won")
    ]
    assert table.rows[0][:3] == ["1", "bold", "4"] and table.rows[0][5:] == ["3", "2.00 (2.00 to 2.00)"]
    assert table.rows[1][-2:] == ["0", "-"]  # level 1, shy: no game won
    (chart,) = model.charts(ctx)
    assert chart.alt == (
        "Scores. level 1, bold (n=4): 0: 25.0 %, 2: 75.0 %; level 1, shy (n=4): 0: 100.0 %;"
        " level 2, bold (n=4): 0: 25.0 %, 3: 75.0 %; level 2, shy (n=4): 0: 100.0 %"
    )
    assert chart.caption == "Shares; 4 games per crew and level."


def test_score_section_says_nothing_without_scores(tmp_path) -> None:
    unscored = GAMES.with_columns(pl.lit(None, pl.Float64).alias("score"))
    assert Scored.read(_ctx(tmp_path, unscored)) is None
