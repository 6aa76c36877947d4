"""`simkit tune`: the candidates a --param gives, the race's rule, the confirmation on fresh seeds
against the defaults, the report's section, and bad input in one line."""

from __future__ import annotations

import json

import pytest

from simkit.core import dataset, stats
from simkit.core.calibrate import confirm_folder
from simkit.core.errors import UserError
from simkit.core.registry import get_game
from simkit.core.tune import SUMMARY, Racing, parse_range, tune
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
    report = write_report([out], tmp_path / "r")
    html = report.read_text(encoding="utf-8")
    assert "Parameter search (simkit tune)" in html and f"The search picked {pick.strategy}" in html


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["oh-no-invasion", "--strategy", "bold"], "give at least one --param"),
        (["oh-no-invasion", "--strategy", "random", "--param", "x=1..2"], "no parameter 'x'"),
        (["alien-attack", "--strategy", "rollout", "--param", "rollouts=2..4"], "competitive"),
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
