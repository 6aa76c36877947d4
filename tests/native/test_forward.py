"""The forward model from Python (`simkit.core.forward`) and the native-only search player `mcts`:
positions answer, copy and resample as RULES.md says; the search plays on the native engine, a
pure function of its seed, and the Python engine refuses it in one line."""

from __future__ import annotations

import pytest

from simkit.core import dataset, forward, runner, scenario
from simkit.core.errors import UserError
from tests.reliability.test_bad_input import refused

EIGHT_BIT = "eight-bit-invaders"


def _play_out(position, pick) -> list:
    """Answer every decision with `pick(legal)` to the end; the answers given."""
    answers = []
    while position.phase != "over":
        legal = position.legal()
        assert legal, f"nothing legal at {position.phase}"
        answers.append(pick(legal))
        position.apply(answers[-1])
    return answers


def test_a_position_plays_to_the_end_through_its_legal_answers(core):
    position = forward.start(EIGHT_BIT, {"countdown": 6}, root_seed=1, game_index=17)
    seen = forward.start(EIGHT_BIT, {"countdown": 6}, root_seed=1, game_index=17).observation()
    assert seen["phase"] == position.phase == "trade"  # shields stand on turn 1
    assert seen["countdown"] == 6 and seen["aliens_left"] == 35 and seen["dice"] == []
    _play_out(position, lambda legal: legal[-1])
    record = position.record()
    assert record["end_reason"] in ("cleared", "shot_down", "landed")
    assert record["won"] == (record["end_reason"] == "cleared")
    assert record["aliens_left"] + record["score"] == 35


def test_a_game_is_a_function_of_its_seed_and_answers(core):
    first = forward.start(EIGHT_BIT, {}, root_seed=3, game_index=2)
    answers = _play_out(first, lambda legal: legal[len(legal) // 2])
    again = forward.start(EIGHT_BIT, {}, root_seed=3, game_index=2)
    for answer in answers:
        again.apply(answer)
    assert again.phase == "over" and again.record() == first.record()


def test_a_copy_is_independent_and_a_deal_changes_only_what_is_hidden(core):
    position = forward.start(EIGHT_BIT, {}, root_seed=5, game_index=0)
    for _ in range(4):
        position.apply(position.legal()[0])
    before, key = position.observation(), position.info_key()
    copy = position.copy()
    copy.determinize(11)
    assert copy.observation() == before and copy.info_key() == key
    _play_out(copy, lambda legal: legal[0])
    assert position.observation() == before, "playing a copy moved the original"
    # two deals of the same position differ somewhere in the dice to come
    finals = set()
    for seed in range(6):
        deal = position.copy()
        deal.determinize(seed)
        _play_out(deal, lambda legal: legal[0])
        finals.add(tuple(sorted(deal.record().items())))
    assert len(finals) > 1


def test_an_answer_to_another_decision_is_refused(core):
    position = forward.start(EIGHT_BIT, {}, root_seed=1, game_index=0)
    assert position.phase == "trade"
    with pytest.raises(ValueError, match="does not answer"):
        position.apply(("fuel", True))
    with pytest.raises(ValueError, match="no 8-Bit Invaders action"):
        position.apply(("teleport", 1))


def test_start_refuses_bad_settings_and_games_without_a_forward_model(core):
    with pytest.raises(UserError, match="countdown"):
        forward.start(EIGHT_BIT, {"countdown": 9})
    with pytest.raises(UserError, match="unknown game"):
        forward.start("chess")


def test_mcts_plays_on_the_native_engine_as_a_function_of_its_seed(core, tmp_path):
    spec = {
        "scenario": {"name": "search", "game": EIGHT_BIT, "games": 6, "seed": 8, "chunk_size": 2},
        "grid": {"strategy": ["mcts:iterations=12", "lookahead"]},
    }
    sc = scenario.parse(spec, "search")
    for out, jobs in (("a", 1), ("b", 2)):
        runner.run(sc, tmp_path / out, jobs=jobs, progress=False)
    a, b = (dataset.load(tmp_path / out) for out in ("a", "b"))
    rows_a, rows_b = (d.games.sort("cell", "game_index") for d in (a, b))
    assert rows_a.height == 12 and rows_a.equals(rows_b)  # chunks on one worker or two: same games
    assert {c["engine"] for c in a.manifest["cells"]} == {"native"}
    assert set(rows_a["strategy"]) == {"mcts:iterations=12", "lookahead"}


def test_the_python_engine_refuses_mcts_in_one_line(core, tmp_path, capsys, monkeypatch):
    out = tmp_path / "d"
    line = refused(
        capsys, monkeypatch, "simulate", EIGHT_BIT, "-n", 2, "--strategy", "mcts", "--engine", "python",
        "--out", out,
    )  # fmt: skip
    assert "strategy 'mcts' of eight-bit-invaders is played by the native engine only" in line
    assert not out.exists()


def test_the_search_answers_legally_as_a_function_of_its_seed(core):
    position = forward.start(EIGHT_BIT, {}, root_seed=2, game_index=4)
    for _ in range(5):
        answer = position.search(9, iterations=20)
        assert answer in position.legal()
        assert position.copy().search(9, iterations=20) == answer
        position.apply(answer)
    with pytest.raises(ValueError, match="mcts has no parameter 'iteration'"):
        position.search(1, iteration=5)
