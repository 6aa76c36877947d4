"""The analysis kit's section of a swept setting (`kit.SweepSection`): a game's subclass declares its
columns and words; the kit reads the games, says each group's best value, draws a panel per value
of the first grouping setting and writes the two tables."""

from __future__ import annotations

import polars as pl

from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext

WORDS = kit.Words(
    "test",
    {
        "best": "{who}: best {best:g} at {w:pct}.",
        "against": "{d:points} against {t:g}",
        "near": "It is {comps}.",
        "tied": "Not resolved: {listed}.",
        "none": "Every other is resolved.",
        "family": "({family}.)",
        "item": "level {level}, {strategy}, t {t:g}: {w:pct}",
        "best_table": "Best",
        "every_table": "Every",
        "title": "Win rate by t",
        "alt": "{title}. {items}",
        "caption": "Swept {swept}; {games}.",
    },
)

# two levels, one crew of 2 players, thresholds 4 and 6; game i is dealt alike at both thresholds
WON = {(1, 4.0): [1, 0, 0, 0], (1, 6.0): [1, 1, 1, 0], (2, 4.0): [0, 0, 0, 0], (2, 6.0): [1, 0, 0, 0]}
GAMES = pl.DataFrame(
    [
        {
            "level": lv,
            "strategy": "bold",
            "players": 2,
            "t": t,
            "game_index": i,
            "won": bool(w),
            "score": float(w),
        }
        | {"how": "won" if w else ("shields" if i % 2 else "eliminated")}
        for (lv, t), wins in WON.items()
        for i, w in enumerate(wins)
    ]
)


class Swept(kit.SweepSection):
    SWEPT, ENDING, KEYS = "t", "how", ("level", "strategy", "players", "t")
    GROUPS = (
        ("level", "level", "level {}"),
        ("strategy", "crew", "{}"),
        ("players", "players", "{} players"),
    )
    VARYING = ("players",)  # one crew size: not shown
    ENDS = (("shields", "to the shields"),)
    WORDS, VALUE, AXIS, LEGEND = WORDS, "t", "threshold", "crew"
    SAID = ("best", "against", "near", "tied", "none", "family")
    ALT_ITEM, TABLES = "item", ("best_table", "every_table")
    CHART = kit.Panels("swept", ("title", "alt", "caption"), (3.0, 3.0), "win rate (%)")

    @classmethod
    def games(cls, ctx: AnalysisContext) -> pl.DataFrame:
        return ctx.dataset

    def who(self, group: tuple) -> str:
        return f"Level {group[0]}, {group[1]}"


def test_sweep_section_reads_each_groups_best_value_and_says_it(tmp_path) -> None:
    ctx = AnalysisContext(dataset=GAMES, out=tmp_path, name="data", subject="A scenario")
    model = Swept.read(ctx)
    assert model.panels == [1, 2] and model.shown == (True, True, False)
    assert [(s.group, s.best) for s in model.sweeps] == [((1, "bold", 2), 6.0), ((2, "bold", 2), 6.0)]
    assert model.grid[(1, "bold", 2, 6.0)].estimate == 0.75 and model.grid[(2, "bold", 2, 4.0)].n == 4
    family = "the Holm adjustment (family-wise error rate 5 %) over 2 comparisons"
    assert model.family == family
    assert model.findings() == [
        f"Level 1, bold: best 6 at 75.0 %. It is +50.0 against 4. Not resolved: 4. ({family}.)",
        f"Level 2, bold: best 6 at 25.0 %. It is +25.0 against 4. Not resolved: 4. ({family}.)",
    ]


def test_sweep_section_tables_show_the_varying_groups_and_the_shares_of_each_ending(tmp_path) -> None:
    model = Swept.read(AnalysisContext(dataset=GAMES, out=tmp_path, name="data", subject="A scenario"))
    best, every = model.tables()
    assert best.caption == "Best" and best.columns[:3] == ["level", "crew", "best t"]
    assert best.columns[-1] == "ts not resolved from it"
    assert best.rows[0] == [
        *("1", "bold", "6", "75.0 %", "30.1 to 95.4 %", "4"),
        *("vs 4: +50.0 (-23.5 to +85.0)", "none (end of the sweep)", "no", "4"),
    ]
    assert every.columns == ["level", "crew", "t", "games", "wins", "win rate", "95 % CI", "to the shields"]
    # level 1 at t 4: one game won of 4; games 1 and 3 lost to the shields (2 of 4)
    assert every.rows[0] == ["1", "bold", "4", "4", "1", "25.0 %", "4.6 to 69.9 %", "50.0 % (15.0 to 85.0 %)"]
    assert every.rows[1][-1] == "25.0 % (4.6 to 69.9 %)"  # at t 6 only game 3 was lost, to the shields


def test_sweep_section_draws_a_panel_per_level_with_its_words(tmp_path) -> None:
    ctx = AnalysisContext(dataset=GAMES, out=tmp_path, name="data", subject="A scenario")
    (chart,) = Swept.read(ctx).charts(ctx)
    assert chart.name == "data-swept" and chart.title == "Win rate by t"
    assert chart.alt == (
        "Win rate by t. level 1, bold, t 4: 25.0 %; level 1, bold, t 6: 75.0 %; level 2, bold, t 4: 0.0 %;"
        " level 2, bold, t 6: 25.0 %"
    )
    assert chart.caption == "Swept 4, 6; 4 games per point."
    assert (tmp_path / "data-swept.svg").is_file()


def test_sweep_section_says_nothing_of_one_value(tmp_path) -> None:
    one = GAMES.filter(pl.col("t") == 4.0)
    assert Swept.read(AnalysisContext(dataset=one, out=tmp_path, name="data", subject="A scenario")) is None
