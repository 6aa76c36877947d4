"""The contract kit (simkit/testing/contract.py) run over every registered game: the built-in
four and any installed from outside through the `simkit.games` entry points.

Goldens: a built-in game's stay in tests/games/<package>/golden (they are not shipped in the
wheel); any other game's sit in `golden/` beside its engine module (contract.golden_folder).
Regenerate after an intended change with `SIMKIT_UPDATE_GOLDEN=1 .venv/bin/pytest
tests/contract/test_contract.py -k goldens` and read the diff before committing it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.cli import app
from simkit.core.errors import UserError
from simkit.core.narration import event_fields
from simkit.core.registry import all_games
from simkit.testing import contract

TESTS = Path(__file__).resolve().parents[1]
GAMES = all_games()
IDS = [g.id for g in GAMES]


def first(events, *kinds):
    return next(e for e in events if e["event"] in kinds)


def golden_folder(engine):
    module = type(engine).__module__
    if module.startswith("simkit.games."):
        return TESTS / "games" / module.split(".")[2] / "golden"
    return contract.golden_folder(engine)


def players(n):
    return {"players": n, "variant": "standard", "data": None}


# What each built-in game deals (common random numbers) and the variants that must deal the same;
# an outside game's own tests state its deal (examples/dice_race/tests).
DEALS = {
    "alien-attack": (
        lambda ev: (ev[0]["seats"][0]["city_card"], first(ev, "draw")["markers"]),
        [(players(2), ("greedy", "greedy")), (players(2), ("random", "greedy"))],
    ),
    "eight-bit-invaders": (
        lambda ev: (first(ev, "turn")["formation"], first(ev, "roll")["dice"][:5]),  # Rapid Fire adds dice
        [({}, (s,)) for s in ("greedy", "random", "lookahead")],
    ),
    "oh-no-invasion": (
        lambda ev: first(ev, "draw", "transport")["cards"],
        [
            ({"players": 4, "level": level, "data": None}, (s,))
            for level in range(4)
            for s in ("random", "cautious", "bold")
        ],
    ),
    "space-alert": (
        lambda ev: [t["threat"] for t in ev[0]["threats"]],
        [({}, ("scripted",)), ({}, ("random",))],
    ),
}

# What each built-in game's log says of its outcome, checked against play's record.
OUTCOMES = {
    "alien-attack": lambda ev: {"seats": [{"score": s} for s in ev[-1]["scores"]]},
    "eight-bit-invaders": lambda ev: {
        "end_reason": ev[-1]["reason"],
        "score": sum(e["event"] == "kill" for e in ev),
    },
    "oh-no-invasion": lambda ev: {"end_reason": ev[-1]["reason"]},
    "space-alert": lambda ev: {"won": ev[-1]["won"], "score": ev[-1]["score"]},
}


@pytest.fixture(params=GAMES, ids=IDS)
def engine(request):
    return request.param


def test_goldens(engine):
    contract.check_goldens(engine, golden_folder(engine))


def test_determinism(engine):
    contract.check_determinism(engine, games=2)


def test_global_random_is_neither_read_nor_moved(engine):
    contract.check_global_random(engine)


def test_rows_match_the_declared_record(engine):
    contract.check_records(engine, games=3)


def test_replay_is_json_and_agrees_with_play(engine):
    contract.check_replay(engine, OUTCOMES.get(engine.id), games=2)


def test_same_deal_whatever_the_strategies(engine):
    if len(engine.strategies) < 2:
        pytest.skip(f"{engine.id} has one strategy")
    if engine.id not in DEALS:
        pytest.skip(f"{engine.id}: its deal is stated by its own tests (no hook here)")
    deal, variants = DEALS[engine.id]
    contract.check_same_deal(engine, deal, variants, indexes=(3,) if len(variants) > 3 else (0, 1, 2))


@pytest.fixture(params=[g for g in GAMES if g.component_spec is not None], ids=lambda g: g.id)
def with_components(request):
    return request.param


def test_a_copy_of_the_component_file_plays_alike(with_components, tmp_path):
    contract.check_component_copy(with_components, tmp_path)


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [("no-such-file.toml", None, "cannot read"), ("latin1.toml", b"# \xe9t\xe9\n", "not UTF-8")],
)
def test_an_unreadable_component_file_is_refused_in_one_line(with_components, tmp_path, name, content, says):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(UserError, match=says) as info:
        with_components.load_components(with_components.params({"data": str(path)}))
    assert "\n" not in str(info.value) and str(path.resolve()) in str(info.value)


@pytest.fixture(params=[g for g in GAMES if "narrate" in g.capabilities], ids=lambda g: g.id)
def narrating(request):
    return request.param


def test_the_cli_tells_the_game_and_json_keeps_the_log(narrating):
    runner = CliRunner()
    told = runner.invoke(app, ["replay", narrating.id, "--seed", "1"])
    assert told.exit_code == 0, told.output
    raw = runner.invoke(app, ["replay", narrating.id, "--seed", "1", "--json"])
    assert raw.exit_code == 0, raw.output
    events = json.loads(raw.output)["events"]
    assert told.output.splitlines() == narrating.narrate(events)
    assert not {event_fields(e) for e in events} & set(told.output.splitlines())


def test_an_unknown_event_keeps_its_fields(narrating):
    unknown = {"event": "wormhole", "turn": 4, "zone": "red"}
    assert narrating.narrate([unknown])[-1] == "[4] wormhole: zone=red" == event_fields(unknown)


def test_a_game_without_goldens_fails_the_kit():
    class NoGoldens(type(GAMES[0])):
        golden_cases = ()

    with pytest.raises(AssertionError, match="declares no golden_cases"):
        contract.check_goldens(NoGoldens(), TESTS)
