"""`simkit tune`: the candidates a --param gives, the race's rule, the confirmation on fresh seeds
against the defaults, the report's section, and bad input in one line; and, for a competitive
game, a seat against a field: the candidate's own seat tallied (a synthetic coin game whose
truths are known, where the game rows say something else), a better threshold found in the
example dice race and confirmed paired on fresh seeds, and an interrupted search resumed."""

from __future__ import annotations

import json

import polars as pl
import pytest

from simkit.core import dataset, registry, runner, seeds, stats
from simkit.core import strategies as strategy_specs
from simkit.core.calibrate import confirm_folder
from simkit.core.errors import UserError
from simkit.core.registry import Column, Engine, GameResult, Setting, get_game, record_head
from simkit.core.strategies import Strategy, declare, param
from simkit.core.tune import SUMMARY, Racing, describe, parse_range, tune
from simkit.reporting.render import write_report
from tests.reliability.test_bad_input import refused

BOLD = {p.name: p for p in get_game("oh-no-invasion").strategies["bold"].params}


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("final_conflict=0..10", [float(v) for v in range(11)]),
        ("final_conflict=2..3", [2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9, 3.0]),
        ("panic=0..8", list(range(9))),
        ("zap_landing=0..6", list(range(7))),
        ("final_conflict=4, 6.5,4", [4.0, 6.5]),
        ("transport=true,false", [True, False]),
    ],
)
def test_a_param_gives_its_values_checked_as_the_parameter(text, values):
    assert parse_range(text, BOLD, "tune") == (text.partition("=")[0], values)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("final_conflict", "NAME=LO..HI or NAME=a,b,c"),
        ("courage=1..3", "no parameter 'courage'"),
        ("final_conflict=5..2", "LO < HI"),
        ("transport=false..true", "LO..HI needs a number parameter"),
        ("final_conflict=0..30", "above the maximum"),
        ("panic=a,b", "must be int"),
    ],
)
def test_a_bad_param_is_refused_naming_it(text, words):
    with pytest.raises(UserError, match=words):
        parse_range(text, BOLD, "tune")


def test_the_race_keeps_only_what_could_still_be_best():
    rule = Racing(tolerance=0.01, first_games=400, candidates=3, rounds=4)
    tallies = {"c000": (200, 400, 400), "c001": (190, 400, 400), "c002": (80, 400, 400)}
    assert rule.contenders(tallies) == ["c000", "c001"]
    assert rule.after_round(tallies, dict.fromkeys(tallies, 400)) == {"c000": 800, "c001": 800, "c002": 400}
    # one contender left: the race is over
    clear = {"c000": (300, 400, 400), "c001": (100, 400, 400)}
    assert rule.after_round(clear, dict.fromkeys(clear, 400)) == dict.fromkeys(clear, 400)


def test_tune_races_confirms_on_fresh_seeds_and_the_report_shows_the_search(tmp_path):
    out = tmp_path / "t"
    result = tune(
        "oh-no-invasion",
        "bold:panic=2",
        ["final_conflict=0,1,6"],
        out=out,
        settings={"level": 1},
        first_games=100,
        max_games=400,
        backend="sequential",
        seed=5,
    )
    specs = {c.strategy for c in result.candidates}
    assert specs == {"bold:final_conflict=0,panic=2", "bold:final_conflict=1,panic=2", "bold:panic=2"}
    assert result.default == "bold:panic=2"
    # threshold 0 calls the Final Conflict at once with no weapons: it loses, and is ruled out early
    zero = next(c for c in result.candidates if c.values["final_conflict"] == 0.0)
    assert not zero.contender and zero.games == 100 and zero.win_rate.estimate < 0.05
    pick = result.candidates[0]
    assert pick.win_rate.estimate == max(c.win_rate.estimate for c in result.candidates)
    # the confirmation: the pick and the default on the same fresh seeds, none of the search's
    search, fresh = dataset.load(out), dataset.load(confirm_folder(out))
    assert not set(fresh.games["seed"].to_list()) & set(search.games["seed"].to_list())
    assert result.pick_confirmed.n == pick.games
    if pick.strategy != result.default:
        by = {s: fresh.games.filter(fresh.games["strategy"] == s).sort("game_index")["won"] for s in specs}
        want = stats.paired_difference(by[result.default].to_numpy(), by[pick.strategy].to_numpy())
        assert result.gain == want
    summary = json.loads((out / SUMMARY).read_text())
    assert summary["pick"] == pick.strategy and len(summary["candidates"]) == 3
    assert search.manifest["stopping"] == "tune" and fresh.manifest["stopping"] == "fixed"
    report = write_report([out], tmp_path / "r")
    html = report.read_text(encoding="utf-8")
    assert "Parameter search (simkit tune)" in html and f"The search picked {pick.strategy}" in html
    # threshold 0 stopped at 100 of 400 games by design: a search, not an unfinished run
    assert "This dataset is a search (`simkit tune`)" in html and "unfinished" not in html


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["oh-no-invasion", "--strategy", "bold"], "give at least one --param"),
        (["oh-no-invasion", "--strategy", "random", "--param", "x=1..2"], "no parameter 'x'"),
        (["oh-no-invasion", "--strategy", "bold", "--param", "panic=0..2", "--field", "bold"], "competitive"),
        (["dice-race", "--strategy", "safe", "--param", "two_dice_above=0,6", "--field", "nope"], "unknown"),
        (
            ["dice-race", "--strategy", "safe", "--param", "two_dice_above=0,6", "--field", "safe:x=1"],
            "--field: strategy 'safe' has no parameter 'x'",
        ),
        (
            ["alien-attack", "--strategy", "missions", "--param", "loss=2,8", "--field", "nothere.py:Mine"],
            "--field: strategy file not found: nothere.py",
        ),
        (["dice-race", "--strategy", "safe", "--param", "two_dice_above=0,6", "--players", "1"], "minimum 2"),
        (
            ["dice-race", "--strategy", "safe", "--param", "two_dice_above=0,6", "--set", "players=5"],
            "maximum 4",
        ),
        (
            ["alien-attack", "--strategy", "missions", "--param", "loss=2,8", "--players", "5"],
            "allowed: 2, 3, 4",
        ),
        (
            ["oh-no-invasion", "--strategy", "bold", "--param", "panic=0..8", "--first-games", "0"],
            "--first-games",
        ),
    ],
)
def test_bad_tune_input_gets_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch, args, words):
    out = tmp_path / "t"
    line = refused(capsys, monkeypatch, "tune", *args, "--out", out)
    assert words in line, line
    assert not out.exists()


# --- a seat against a field (competitive games) -------------------------------------------------


class CoinTable(Engine):
    """A synthetic competitive game: each seat wins on its own coin, with the chance its strategy's
    `p` says (seat k's coin comes from chance stream k, so game i throws the same coins in every
    cell); several seats may win one game (a shared win). The game row's `won` says whether anybody
    won: a table verdict that is not any one seat's."""

    id = "coin-table"
    title = "Coin table"
    min_players, max_players = 2, 4
    competitive = True
    settings = (Setting("players", "int", 3, "seats", minimum=2, maximum=4),)
    strategies = declare(
        Strategy(
            "coin",
            None,
            "wins with chance p",
            params=(param("p", "float", 0.5, "chance", minimum=0, maximum=1),),
        )
    )
    default_strategy = "coin"
    record = record_head(("coins",))
    seat_record = (Column("won", "bool"), Column("score", "int"))

    def data_files(self, settings):
        return []

    def data_sources(self, settings):
        return {}

    def play(self, settings, strategies, root_seed, game_index):
        seq = seeds.game_sequence(root_seed, game_index)
        chances = [strategy_specs.resolved(s, self.strategies)[1]["p"] for s in strategies]
        won = [seeds.stream(seq, seeds.CHANCE, k).random() < p for k, p in enumerate(chances)]
        record = {"won": any(won), "score": sum(won), "length": 1, "end_reason": "coins"}
        return GameResult(record, [{"won": w, "score": int(w)} for w in won])

    def replay(self, settings, strategies, root_seed, game_index):
        return []


@pytest.fixture
def coin_table(monkeypatch):
    monkeypatch.setitem(registry._GAMES, CoinTable.id, CoinTable())  # this test only, in-process
    return CoinTable.id


def candidate_seat(seats, players):
    """The candidate's rows, found by hand: it is listed first, and game i starts from seat i mod P."""
    index = seats["game_index"].to_numpy()
    return seats.filter(pl.Series(seats["seat"].to_numpy() == (-index) % players))


def test_the_tally_counts_the_candidates_seat_only_not_the_game_row_or_its_strategys_name():
    # seat 0 wins every game and the game rows say the table won every game
    games = pl.DataFrame({"game_index": range(10), "won": [True] * 10})
    seats = pl.DataFrame(
        {
            "game_index": [i for i in range(10) for _ in range(3)],
            "seat": [0, 1, 2] * 10,
            "strategy": ["coin"] * 30,  # every seat the same spec: the name cannot tell the candidate
            "won": [True, False, False] * 10,
        }
    )
    rule = Racing(0.01, 10, players=3)
    # the candidate sits in seat 0 in games 0, 3, 6 and 9 only
    assert rule.tally(games, seats) == (4, 10, 10)
    assert runner.tally_of(games) == (10, 10, 10) == Racing(0.01, 10).tally(games, None)
    assert runner.chunk_tally(rule)(games, seats) == (4, 10, 10)
    assert runner.chunk_tally(runner.FixedCount({}))(games, seats) == (10, 10, 10)
    # a shared win counts as a win: seats 0 and 1 both win every game, the candidate 7 of 10
    assert rule.tally(games, seats.with_columns(won=pl.col("seat") != 2)) == (7, 10, 10)


def test_a_seat_against_a_field_is_raced_on_its_own_seat_with_shared_wins_as_wins(tmp_path, coin_table):
    out = tmp_path / "t"
    result = tune(
        coin_table,
        "coin",
        ["p=0.2,0.6,0.9"],
        out=out,
        field="coin:p=0.9",
        first_games=200,
        max_games=800,
        backend="sequential",
        seed=2,
    )
    assert (result.field, result.players) == ("coin:p=0.9", 3)
    assert result.candidates[0].strategy == "coin:p=0.9"
    search = dataset.load(out)
    assert search.manifest["cells"][0]["strategy"] == ["coin:p=0.2", "coin:p=0.9", "coin:p=0.9"]
    for c in result.candidates:
        games = search.games.filter(pl.col("cell") == c.cell)
        mine = candidate_seat(search.seats.filter(pl.col("cell") == c.cell), 3)
        assert c.win_rate == stats.wilson(int(mine["won"].sum()), games.height) and c.games == games.height
        # the table's verdict (anybody won) is another number: nearly every game
        assert runner.tally_of(games)[0] > int(mine["won"].sum())
    # each seat's coin is its own: the candidate's rate is its p, ties (three winners) and all
    low = next(c for c in result.candidates if c.strategy == "coin:p=0.2")
    assert not low.contender and low.win_rate.low < 0.2 < low.win_rate.high
    summary = json.loads((out / SUMMARY).read_text())
    assert (summary["field"], summary["players"]) == ("coin:p=0.9", 3)
    assert describe(result)[0].startswith("Tuned in one seat against a field of coin:p=0.9 at 3 players")


def test_a_competitive_tune_finds_the_better_threshold_and_confirms_it_paired_on_fresh_seeds(tmp_path):
    # against a field of safe (two dice above 12) at two players, two dice to the very end (0)
    # wins about 29 % of the seat's games, two dice above 6 about 57 % (measured over 2,000 games)
    out = tmp_path / "t"
    result = tune(
        "dice-race",
        "safe",
        ["two_dice_above=0,6"],
        out=out,
        first_games=200,
        max_games=800,
        backend="sequential",
        seed=3,
    )
    assert (result.field, result.players, result.default) == ("safe", 2, "safe")
    pick, worse = result.candidates
    assert pick.strategy == "safe:two_dice_above=6" and pick.contender
    assert worse.strategy == "safe:two_dice_above=0" and not worse.contender and worse.games == 200
    assert worse.win_rate.high < pick.win_rate.low
    # the confirmation: the pick and the default, each in the candidate's seat against the same
    # field, on the same fresh seeds (none of the search's), paired game by game
    search, fresh = dataset.load(out), dataset.load(confirm_folder(out))
    assert not set(fresh.games["seed"].to_list()) & set(search.games["seed"].to_list())
    assert [c["strategy"] for c in fresh.manifest["cells"]] == [[pick.strategy, "safe"], ["safe", "safe"]]
    cells = {c["strategy"][0]: c["cell"] for c in fresh.manifest["cells"]}
    won = {
        s: candidate_seat(fresh.seats.filter(pl.col("cell") == c), 2).sort("game_index")
        for s, c in cells.items()
    }
    assert (
        won["safe"]["game_index"].to_list()
        == won[pick.strategy]["game_index"].to_list()
        == list(range(pick.games))
    )
    assert set(won[pick.strategy]["strategy"]) == {pick.strategy}  # the seat found is the candidate's
    want = stats.paired_difference(won["safe"]["won"].to_numpy(), won[pick.strategy]["won"].to_numpy())
    assert result.gain == want and want.difference > 0
    assert result.pick_confirmed == stats.wilson(int(won[pick.strategy]["won"].sum()), pick.games)
    report = write_report([out], tmp_path / "r").read_text(encoding="utf-8")
    assert "Tuned in one seat against a field of safe at 2 players" in report
    assert f"The search picked {pick.strategy}" in report and "the pick gains" in report


def test_an_interrupted_competitive_tune_resumes_to_the_same_result(tmp_path, monkeypatch):
    args = ("dice-race", "safe", ["two_dice_above=0,6,12"])
    kw = {"first_games": 200, "max_games": 800, "backend": "sequential", "seed": 4}
    whole = tune(*args, out=tmp_path / "whole", **kw)
    assert sorted(c.games for c in whole.candidates) == [200, 800, 800]  # three rounds were played
    write, writes = dataset.write_chunk, []

    def interrupted(*a, **k):
        writes.append(a[1])
        if len(writes) == 8:  # the second round's second chunk: Ctrl-C
            raise KeyboardInterrupt
        return write(*a, **k)

    monkeypatch.setattr(dataset, "write_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        tune(*args, out=tmp_path / "cut", **kw)
    monkeypatch.setattr(dataset, "write_chunk", write)
    assert len(list((tmp_path / "cut" / "games").glob("*.parquet"))) == 7
    # the first round is read back from disk and tallied on the candidate's seat as when played:
    # the same chunks are played and the same candidates ruled out, on another backend and job
    # count too
    resumed = tune(*args, out=tmp_path / "cut", **kw | {"backend": "loky", "jobs": 2})
    assert resumed == whole
    summary = json.loads((tmp_path / "cut" / SUMMARY).read_text())
    assert summary == json.loads((tmp_path / "whole" / SUMMARY).read_text()) | {
        "confirm_folder": str(confirm_folder(tmp_path / "cut"))
    }
