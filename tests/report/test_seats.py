"""The seat-level kit's win rates stay proportions: within 0 and 1 at the edges."""

import polars as pl

from simkit.reporting import seats


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
