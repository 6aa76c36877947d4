"""Strategy parameters (`NAME:key=value,...`): parsing, the canonical spec, one line for bad input,
scenario [parameters] sweeps, and the spec carried into the dataset and the Python players."""

from __future__ import annotations

import random

import pytest

from simkit.core import dataset, runner, scenario, strategies
from simkit.core.errors import UserError
from simkit.core.registry import get_game, resolve_strategies
from tests.reliability.test_bad_input import refused

OH_NO = get_game("oh-no-invasion")
ALIEN_ATTACK = get_game("alien-attack")
SPACE_ALERT = get_game("space-alert")


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("bold", "bold"),
        ("bold:final_conflict=8", "bold:final_conflict=8"),
        ("bold:final_conflict=8.0", "bold:final_conflict=8"),
        ("bold: final_conflict = 2.5 ", "bold:final_conflict=2.5"),
        ("bold:final_conflict=6", "bold"),  # the default is not written
        ("bold:transport=true,final_conflict=4", "bold:final_conflict=4,transport=true"),  # declared order
        ("cautious:transport=no", "cautious:transport=false"),
    ],
)
def test_a_spec_is_written_one_way(given, canonical):
    assert resolve_strategies(OH_NO, [given], None, "test") == (canonical,)


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("bold:", "nothing after ':'"),
        ("bold:final_conflict", "expected key=value"),
        ("bold:final_conflict=", "expected key=value"),
        ("bold:panic=1,panic=2", "given twice"),
        ("bold:courage=3", "strategy 'bold' has no parameter 'courage' (parameters: final_conflict, panic"),
        ("random:final_conflict=3", "strategy 'random' has no parameter 'final_conflict' (parameters: none)"),
        ("bold:final_conflict=high", "parameter 'final_conflict' must be float"),
        ("bold:final_conflict=21", "parameter 'final_conflict' = 21.0 is above the maximum 20.0"),
        ("bold:panic=1.5", "parameter 'panic' must be int"),
        ("bold:transport=maybe", "parameter 'transport' must be bool"),
        ("timid:final_conflict=3", "unknown strategy 'timid' for oh-no-invasion"),
    ],
)
def test_a_bad_spec_gets_one_line_and_exit_code_2(tmp_path, capsys, monkeypatch, given, words):
    out = tmp_path / "d"
    line = refused(
        capsys, monkeypatch, "simulate", "oh-no-invasion", "-n", 3, "--strategy", given, "--out", out
    )
    assert words in line, line
    assert not out.exists()


def test_a_player_is_built_with_the_specs_numbers_over_its_defaults():
    crew = OH_NO.player("bold:final_conflict=2.5,transport=true", random.Random(1))
    assert crew.numbers.final_conflict == 2.5 and crew.numbers.transport is True
    assert crew.numbers.panic == 1  # bold's own default, not cautious's 2
    assert OH_NO.player("cautious", random.Random(1)).numbers.panic == 2
    assert ALIEN_ATTACK.player("rollout:rollouts=3", random.Random(1)).rollouts == 3


def test_space_alerts_planner_takes_the_scripted_numbers_and_its_budget():
    scripted = SPACE_ALERT.player("scripted:pulse_reserve=2,rocket_reach=0", random.Random(1))
    assert scripted.numbers.pulse_reserve == 2 and scripted.numbers.rocket_reach == 0
    assert scripted.numbers.lookahead == 3  # the default
    planner = SPACE_ALERT.player("planner:pulse_reserve=2,steps=7", random.Random(1))
    assert planner.numbers.pulse_reserve == 2 and planner.steps == 7 and planner.samples == 2
    names = [p.name for p in SPACE_ALERT.strategies["planner"].params]
    assert names[:6] == [p.name for p in SPACE_ALERT.strategies["scripted"].params] and names[6:] == [
        "steps",
        "samples",
    ]
    assert resolve_strategies(SPACE_ALERT, ["planner:steps=40,lookahead=3,refill_below=1"], None, "t") == (
        "planner:refill_below=1",
    )


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("scripted:rocket_reach=4", "parameter 'rocket_reach' = 4 is above the maximum 3"),
        ("scripted:lookahead=-1", "parameter 'lookahead' = -1 is below the minimum 0"),
        (
            "scripted:steps=5",
            "strategy 'scripted' has no parameter 'steps' (parameters: lookahead, refill_below",
        ),
        ("scripted:pulse_reserve=0.5", "parameter 'pulse_reserve' must be int"),
    ],
)
def test_a_bad_space_alert_number_gets_one_line_and_exit_code_2(tmp_path, capsys, monkeypatch, given, words):
    out = tmp_path / "d"
    line = refused(capsys, monkeypatch, "simulate", "space-alert", "-n", 3, "--strategy", given, "--out", out)
    assert words in line, line
    assert not out.exists()


def test_each_number_of_a_player_is_a_declared_parameter_with_help_and_default():
    bold = OH_NO.strategies["bold"]
    names = [p.name for p in bold.params]
    assert names[0] == "final_conflict" and "weapon_share" in names and len(names) == 12
    assert all(p.help and p.what == "parameter" for p in bold.params)
    assert bold.defaults()["zap_landing"] == 0 and OH_NO.strategies["cautious"].defaults()["zap_landing"] == 6


def _scenario(parameters: dict, grid: dict | None = None) -> dict:
    return {
        "scenario": {"name": "sweep", "game": "oh-no-invasion", "games": 6, "seed": 3},
        "grid": grid or {"level": [1], "strategy": ["cautious", "bold"]},
        "parameters": parameters,
    }


def test_a_swept_parameter_makes_one_cell_a_value_for_every_strategy_that_has_it():
    sc = scenario.parse(_scenario({"final_conflict": [4.0, 6.0], "panic": 3}), "test")
    assert [c.strategies for c in sc.cells] == [
        ("cautious:final_conflict=4,panic=3",),
        ("cautious:panic=3",),
        ("bold:final_conflict=4,panic=3",),
        ("bold:panic=3",),
    ]
    assert sc.grid_keys == ["level", "strategy"]


def test_a_fixed_parameter_goes_to_the_seats_whose_strategy_has_it():
    doc = {
        "scenario": {"name": "ladder", "game": "alien-attack", "games": 2, "seed": 3},
        "grid": {"strategy": [["rollout", "missions"], ["missions", "greedy"]]},
        "parameters": {"rollouts": 2},
    }
    sc = scenario.parse(doc, "test")
    assert [c.strategies for c in sc.cells] == [("rollout:rollouts=2", "missions"), ("missions", "greedy")]


@pytest.mark.parametrize(
    ("parameters", "grid", "words"),
    [
        ({"courage": 2}, None, "[parameters] courage: no strategy of oh-no-invasion in this scenario has it"),
        (
            {"final_conflict": [2, 4]},
            {"strategy": ["random", "bold"]},
            "final_conflict is swept, and strategy random",
        ),
        ({"final_conflict": []}, None, "must be a value or a non-empty list"),
        ({"final_conflict": [2, "x"]}, None, "parameter 'final_conflict' must be float"),
        ({"level": 2}, None, "'level' is given twice"),
    ],
)
def test_bad_parameters_in_a_scenario_name_the_key(parameters, grid, words):
    doc = _scenario(parameters, grid)
    if "level" in parameters:
        doc["fixed"] = {"level": 2}
        doc["grid"] = {"strategy": ["bold"]}
    with pytest.raises(UserError) as err:
        scenario.parse(doc, "s.toml")
    assert str(err.value).startswith("s.toml: ") and words in str(err.value), err.value


def test_the_dataset_and_manifest_carry_the_canonical_spec(tmp_path):
    sc = scenario.parse(_scenario({"final_conflict": [3.0, 6.0]}, {"strategy": ["bold"]}), "test")
    runner.run(sc, tmp_path / "d", backend="sequential", progress=False, engine="python")
    ds = dataset.load(tmp_path / "d")
    assert sorted(ds.games["strategy"].unique().to_list()) == ["bold", "bold:final_conflict=3"]
    labels = [c["label"] for c in ds.manifest["cells"]]
    assert labels == ["strategy=bold:final_conflict=3", "strategy=bold"]


def test_a_spec_and_its_parts_round_trip():
    bold = OH_NO.strategies["bold"]
    name, values = strategies.parse("bold:zap_evaporate=4", OH_NO.strategies, "test")
    assert name == "bold" and values == bold.defaults() | {"zap_evaporate": 4}
    assert strategies.canonical(name, values, bold) == "bold:zap_evaporate=4"
    assert strategies.base_name("bold:zap_evaporate=4") == "bold"
    assert strategies.base_name("my/file.py:Crew") == "my/file.py:Crew"
    assert strategies.normalise("my/file.py:Crew", OH_NO.strategies, "test") == "my/file.py:Crew"


def test_a_game_that_declares_strategies_the_old_way_is_refused_at_registration():
    from simkit.core.registry import register

    class OldStyle(type(OH_NO)):
        id = "old-style"
        strategies = {"bold": "a description, not a Strategy"}
        default_strategy = "bold"

    with pytest.raises(RuntimeError, match="must be declared as Strategy"):
        register(OldStyle())
