"""The seat-level kit: its win rates stay proportions (within 0 and 1 at the edges), and its seat
sections write a game's words from the numbers."""

from pathlib import Path

import polars as pl

from simkit.core.dataset import Dataset
from simkit.reporting import kit, seat_sections, seats
from simkit.reporting.sections import AnalysisContext


def _rows(wins: list[int], seats_a_game: int) -> pl.DataFrame:
    games = len(wins) // seats_a_game
    return pl.DataFrame(
        {
            "cell": ["c000"] * len(wins),
            "game_index": [i // seats_a_game for i in range(len(wins))],
            "won": [bool(w) for w in wins],
        }
    ).with_columns(pl.lit(games).alias("games"))


def test_one_seat_a_game_gets_the_wilson_interval():
    rate = seats.win_rate(_rows([0] * 19 + [1], 1))
    assert rate.estimate == 0.05 and rate.n == 20
    assert 0.0 < rate.low < 0.05 < rate.high < 0.3  # Wilson, not a t interval reaching below 0


def test_no_win_in_several_seats_a_game_stays_at_zero():
    rate = seats.win_rate(_rows([0] * 40 + [1, 0], 2))  # one win in 21 games of two seats
    assert rate.low >= 0.0 and rate.high <= 1.0
    assert rate.n == 21


# --- the seat sections in a game's words (seat_sections.SeatEffectsSection, seat_sections.HeadToHeadSection) ---

WORDS = kit.Words(
    "test",
    {
        "seats.finding": "{cell.label}: seat 1 wins {wins[0]:pct}, {verdict} (after {family})",
        "seats.advantage": "an edge",
        "seats.disadvantage": "a handicap",
        "seats.no_advantage": "even",
        "seats.title": "Seats",
        "seats.axis": "seat",
        "charts.points_above": "points",
        "seats.alt": "By seat: {items}",
        "seats.alt_item": "seat {seat} {rel:signed1}",
        "seats.caption": "Cells of {cells}.",
        "seats.table": "Seats table",
        "h2h.finding": "{cell.label}: {verdict} by {diff:signed1} a game",
        "h2h.beats": "{winner} beats {loser}",
        "h2h.neither": "neither {a} nor {b}",
        "h2h.table": "Strategies table",
    },
)


class FirstSeat(seat_sections.SeatEffectsSection):
    WORDS, STEM = WORDS, "t-seats"


class Duel(seat_sections.HeadToHeadSection):
    WORDS = WORDS


def _two_strategies(tmp_path: Path, games: int = 40) -> AnalysisContext:
    """A cell of two players, `strong` against `weak` with the seats rotated: `strong` always wins
    by 10 points, and the first seat scores 8 points more than it otherwise would."""
    manifest = {"cells": [{"cell": "c000", "settings": {"players": 2}, "strategy": ["strong", "weak"]}]}
    rows = []
    for g in range(games):
        for seat in (0, 1):
            strategy = ["strong", "weak"][(seat + g) % 2]
            score = (20.0 if strategy == "strong" else 10.0) + (8.0 if seat == 0 else 0.0) + g % 3
            rows.append({"cell": "c000", "game_index": g, "seat": seat, "strategy": strategy, "score": score})
    seat_rows = pl.DataFrame(rows).with_columns(won=pl.col("strategy") == "strong")
    games_table = pl.DataFrame({"cell": ["c000"] * games, "game_index": list(range(games))})
    dataset = Dataset(tmp_path, manifest, games_table, seat_rows, None)
    return AnalysisContext(dataset, tmp_path, "t", "a test")


def test_seat_effects_section_in_a_games_words(tmp_path):
    (section,) = kit.build(_two_strategies(tmp_path), [FirstSeat.section("t-seats", "First seat")])
    (finding,) = section.findings
    assert finding.startswith("2 players, strong vs weak: seat 1 wins 50.0 %, an edge (after ")
    assert [row[:3] for row in section.tables[0].rows] == [["2 players, strong vs weak", "1", "40"]] + [
        ["2 players, strong vs weak", "2", "40"]
    ]
    assert section.tables[0].rows[0][4].startswith("+4.0 ")  # 8 points over a table that averages 4
    (chart,) = section.charts
    assert chart.png_file == "t-t-seats.png" and (tmp_path / chart.png_file).exists()
    assert chart.alt == "By seat: seat 1 +4.0; seat 2 -4.0" and chart.caption == "Cells of 40 games."


def test_head_to_head_section_in_a_games_words(tmp_path):
    (section,) = kit.build(_two_strategies(tmp_path), [Duel.section("t-h2h", "Head to head")])
    assert section.findings == ["2 players, strong vs weak: strong beats weak by +10.0 a game"]
    assert [row[1:4] for row in section.tables[0].rows] == [["strong", "40", "100.0 % [91.2 %, 100.0 %]"]] + [
        ["weak", "40", "0.0 % [0.0 %, 8.8 %]"]
    ]
    assert not section.charts


class Dealt(seat_sections.DealtSection):
    WORDS = kit.Words(
        "test",
        {
            "charts.points_above": "points",
            **{
                f"dealt.{key}": text
                for key, text in {
                    "finding": "{cell}: {column}s {ranking}; {best} over {worst} by {points:signed1} of {values}",
                    "finding_wins": ", {wins:points} pp",
                    "settled": "; resolved.",
                    "unsettled": "; unresolved.",
                    "over": "{higher}>{lower}",
                    "resolved": "{resolved} of {pairs}: {listed}",
                    "none_resolved": "none of {pairs}",
                    "no_mirror": "no mirror",
                    "how": "how",
                    "fair": "{fair} of {pairs} fair",
                    "left_out": "left out: {cells}",
                    "title": "Cards",
                    "alt": "alt: {items}",
                    "alt_item": "{card} {rel:signed1}",
                    "caption": "{cells}",
                    "table": "values",
                    "pairs_table": "pairs",
                }.items()
            },
        },
    )
    COLUMNS, STEM = {"card": "Card"}, "t-cards"


def test_dealt_section_in_a_games_words(tmp_path):
    """A mirror cell of two players who are dealt card x or y, x worth 6 points more."""
    manifest = {"cells": [{"cell": "c000", "settings": {"players": 2}, "strategy": ["same", "same"]}]}
    rows = []
    for g in range(30):
        for seat in (0, 1):
            card = "xy"[(seat + g) % 2]
            rows.append(
                {
                    "cell": "c000",
                    "game_index": g,
                    "seat": seat,
                    "card": card,
                    "score": 10.0 + 6 * (card == "x") + g % 4,
                }
            )
    seat_rows = pl.DataFrame(rows).with_columns(won=pl.col("card") == "x", strategy=pl.lit("same"))
    games = pl.DataFrame({"cell": ["c000"] * 30, "game_index": list(range(30))})
    ctx = AnalysisContext(Dataset(tmp_path, manifest, games, seat_rows, None), tmp_path, "t", "a test")
    (section,) = kit.build(ctx, [Dealt.section("t-cards", "Cards")])
    assert section.findings == [
        "2 players, same mirror: Cards x > y; Card x over Card y by +6.0 of 2, +100.0 pp; resolved. 1 of 1: x>y"
    ]
    assert section.paragraphs == ["how", "2 of 2 fair"]  # each card sits first in half the games: fair
    assert [row[1] for row in section.tables[0].rows] == ["Card x", "Card y"]
    assert [row[:3] for row in section.tables[1].rows] == [["2 players, same mirror", "Card y − x", "30"]]
    (chart,) = section.charts
    assert chart.alt == "alt: Card x +3.0; Card y -3.0" and chart.png_file == "t-t-cards.png"


# --- the seat sections' verdicts at every rung of a strategy ladder (seat_sections.first_seat_verdicts, ...) ---


def _ladder(tmp_path: Path) -> AnalysisContext:
    """Mirror cells of two strategies at 2 players, 30 games each, cards x and y dealt in turn: x is
    worth 6 points, and the first seat 4 more at rung `a` only."""
    manifest = {"cells": [{"cell": f"c00{i}", "strategy": [s, s]} for i, s in enumerate("ab")]}
    rows = []
    for i, strategy in enumerate("ab"):
        for g in range(30):
            for seat in (0, 1):
                card = "xy"[(seat + g) % 2]
                score = 10.0 + 6 * (card == "x") + (4 if seat == 0 and strategy == "a" else 0) + g % 4
                row = {"cell": f"c00{i}", "game_index": g, "seat": seat, "card": card, "score": score}
                rows.append(row | {"strategy": strategy, "won": card == "x"})
    games = pl.DataFrame(
        {
            "cell": [f"c00{i}" for i in range(2) for _ in range(30)],
            "game_index": list(range(30)) * 2,
            "strategy": [f"{s},{s}" for s in "ab" for _ in range(30)],
            "players": [2] * 60,
        }
    )
    return AnalysisContext(
        Dataset(tmp_path, manifest, games, pl.DataFrame(rows), None), tmp_path, "t", "a test"
    )


def test_the_first_seat_verdict_is_read_at_each_rung(tmp_path):
    part = seat_sections.first_seat_verdicts(FirstSeat, "how", "caption", "rungs").part(_ladder(tmp_path))
    assert [(m.rung, m.base, m.other, round(m.difference, 6)) for m in part.measures] == [
        ("a", "the table's average", "the first seat", 2.0),
        ("b", "the table's average", "the first seat", 0.0),
    ]
    (rungs,) = part.tables
    assert rungs.caption == "rungs" and rungs.columns[3:] == [
        "first seat's win rate",
        "average seat's",
        "first seat's points above table",
    ]
    assert [row[1] for row in rungs.rows] == ["a", "b"] and rungs.rows[0][5].startswith("+2.0 ")
    assert (part.unit, part.how, part.caption, part.test) == (
        "points",
        "how",
        "caption",
        "paired within the game",
    )


def test_every_pair_of_dealt_values_is_a_verdict_at_each_rung(tmp_path):
    part = seat_sections.dealt_verdicts(Dealt, "how", "caption", "rungs").part(_ladder(tmp_path))
    assert [(m.rung, m.base, m.other, round(m.difference, 6)) for m in part.measures] == [
        ("a", "Card x", "Card y", -6.0),
        ("b", "Card x", "Card y", -6.0),
    ]
    (rungs,) = part.tables
    assert rungs.columns[3:] == ["Cards by points above table"]
    assert [row[3] for row in rungs.rows] == ["x (+3.0) > y (-3.0)"] * 2
    assert part.test == "in the games that dealt both, paired"


class Labelled(seats.SeatCell):
    @property
    def label(self) -> str:
        return f"{super().label}, {self.settings['deck']} deck"


class LabelledSeats(seat_sections.SeatEffectsSection):
    WORDS, CELL, SETTINGS = WORDS, Labelled, {"deck": "red"}


def test_a_seat_section_reads_its_cells_as_its_cell_class_with_its_settings(tmp_path):
    ctx = _two_strategies(tmp_path)
    (cell,) = LabelledSeats.cells_of(ctx)
    assert isinstance(cell, Labelled) and cell.settings == {"deck": "red"}  # the default: not played
    assert cell.label == "2 players, strong vs weak, red deck"
    assert FirstSeat.cells_of(ctx) == [seats.SeatCell("c000", 2, ("strong", "weak"), 40)]


class OnlyBlue(seat_sections.SeatEffectsSection):
    WORDS, CELL, SETTINGS, ONLY = WORDS, Labelled, {"deck": "red"}, {"deck": "blue"}


def test_a_seat_section_reads_only_the_cells_whose_settings_hold_its_values(tmp_path):
    ctx = _two_strategies(tmp_path)  # its one cell plays the red deck (the default)
    assert OnlyBlue.cells_of(ctx) == []
    assert [c.label for c in LabelledSeats.cells_of(ctx)] == ["2 players, strong vs weak, red deck"]


class Ordered(seat_sections.DealtSection):
    WORDS, COLUMNS, ORDERS = WORDS, {"card": "Card", "suit": "Suit"}, {"card": [5, 2, 3]}


def test_dealt_values_in_their_columns_own_order_the_others_after_by_their_text():
    assert Ordered.order("card", ["9", 3, "2", "10", 5]) == [5, "2", 3, "10", "9"]
    assert Ordered.order("suit", ["spades", "clubs"]) == ["clubs", "spades"]  # no order: by text
