"""The forward models of Alien Attack, Oh no... INVASION!!! and Space Alert from Python
(`simkit.core.forward`, issue 18): positions answer, copy and resample as each game's RULES.md
says ("Forward model"), start with the deal of the runner's game of the same index, and refuse
what is not an answer with a ValueError. 8-Bit Invaders' are in test_forward.py."""

from __future__ import annotations

import random

import pytest

from simkit.core import forward, seeds
from simkit.core.registry import get_game, resolve_settings

ALIEN, OH_NO, SPACE = "alien-attack", "oh-no-invasion", "space-alert"

# settings a game is played with here: a table of several seats that decide in turn, the level
# at which each player sees only its own hand, misplays and a campaign's missions to come
SETTINGS = {
    ALIEN: {"players": 3},
    OH_NO: {"players": 4, "level": 3},
    SPACE: {"players": 3, "error_rate": 0.2, "campaign": 3},
}
GAMES = pytest.mark.parametrize("game", list(SETTINGS))


def _start(game: str, root_seed: int = 1, game_index: int = 0, **settings):
    return forward.start(game, {**SETTINGS[game], **settings}, root_seed=root_seed, game_index=game_index)


def _play_out(position, pick) -> list:
    """Answer every decision with `pick(legal)` to the end; the answers given. Each decision's
    observation names it and the player to move."""
    answers = []
    while position.phase != "over":
        legal = position.legal()
        assert legal, f"nothing legal at {position.phase}"
        seen = position.observation()
        assert seen["phase"] == position.phase and seen["to_move"] == position.to_move is not None
        answers.append(pick(legal))
        position.apply(answers[-1])
    assert position.to_move is None and position.legal() == []
    return answers


def _seeded(seed: int):
    """A seeded uniform choice among the legal answers, but never calling Oh no's Final Conflict
    (called at random, it ends most games within a few turns)."""
    rng = random.Random(seed)
    return lambda legal: rng.choice([a for a in legal if a != ("call", True)] or legal)


@GAMES
def test_a_position_plays_to_the_end_and_its_record_adds_up(core, game):
    position = _start(game, root_seed=2, game_index=5)
    assert position.record()["end_reason"] is None  # not over yet
    answers = _play_out(position, _seeded(5))
    record = position.record()
    seen = position.observation()
    assert seen["phase"] == "over" and seen["to_move"] is None
    if game == ALIEN:
        seats = record["seats"]
        scores = sorted((s["score"] for s in seats), reverse=True)
        assert record["end_reason"] == "bag_empty" and record["won"] is None  # the standard game
        assert len(seats) == 3 and record["score"] == scores[0]
        assert record["margin"] == scores[0] - scores[1]
        assert record["winners"] == sum(s["won"] for s in seats) >= 1
        assert record["bases_destroyed"] == sum(s["bases_destroyed"] for s in seats)
        assert record["discs_captured"] == sum(s["discs_captured"] for s in seats)
        assert [s["city_card"] for s in seats] == [s["city_card"] for s in seen["seats"]]
        assert record["length"] == seen["round"] and seen["open"] == []
        # a placement and each power but Protection put one disc on the board
        placing = ("place", "cover", "extra_turn", "neighborhood")
        assert sum(s["discs_placed"] for s in seats) == sum(a[0] in placing for a in answers)
    elif game == OH_NO:
        alive = sum(station["alive"] for station in seen["stations"])
        assert record["end_reason"] in ("spawnmonster_destroyed", "shields_complete", "crew_eliminated")
        assert record["won"] == (record["end_reason"] == "spawnmonster_destroyed")
        assert record["survivors"] == alive and (record["score"] > 0) == record["won"]
        assert record["length"] == seen["turn"]
        assert record["actions"] == sum(a[0] in ("draw", "transport") for a in answers)
    else:
        assert record["end_reason"] in ("survived", "zone_destroyed", "threat_destroyed_ship")
        assert record["won"] == (record["end_reason"] == "survived")
        missions = record["campaign_missions"]
        assert missions == seen["mission"] + 1 and (missions == 3 or not record["won"])
        # every figure plans a card for each of the 12 turns of every mission flown
        assert sum(a[0] == "card" for a in answers) == 12 * 4 * missions
        destroyed = record["destroyed_ids"].split(",") if record["destroyed_ids"] else []
        assert record["threats_destroyed"] == len(destroyed)


@GAMES
def test_a_game_is_a_function_of_its_seed_and_answers(core, game):
    first = _start(game, root_seed=3, game_index=2)
    answers = _play_out(first, _seeded(8))
    again = _start(game, root_seed=3, game_index=2)
    for answer in answers:
        again.apply(answer)
    assert again.phase == "over" and again.record() == first.record()
    assert again.observation() == first.observation()
    other = _start(game, root_seed=3, game_index=3)
    _play_out(other, _seeded(8))
    assert other.record() != first.record()


@GAMES
def test_a_copy_is_independent_and_a_deal_changes_only_what_is_hidden(core, game):
    position = _start(game, root_seed=5, game_index=1)
    for _ in range(20):  # at each decision, deals look alike to the player to move
        for seed in (1, 2):
            deal = position.copy()
            deal.determinize(seed)
            assert deal.observation() == position.observation()
            assert deal.info_key() == position.info_key()
        position.apply(position.legal()[0])
    assert position.phase != "over"
    before, key = position.observation(), position.info_key()
    copy = position.copy()
    copy.determinize(11)
    _play_out(copy, lambda legal: legal[0])
    assert position.observation() == before and position.info_key() == key, "the copy moved it"
    # a copy has the same chance to come: the same answers give the same game
    a, b = position.copy(), position.copy()
    _play_out(a, lambda legal: legal[-1])
    _play_out(b, lambda legal: legal[-1])
    assert a.record() == b.record()
    # deals of the same position differ in what is hidden: the same answers, other games
    finals = set()
    for seed in range(6):
        deal = position.copy()
        deal.determinize(seed)
        _play_out(deal, lambda legal: legal[0])
        finals.add(repr(deal.record()))
    assert len(finals) > 1


def test_oh_no_shows_every_hand_below_level_3_and_only_the_movers_at_level_3(core):
    for level in (1, 3):
        position = _start(OH_NO, root_seed=4, game_index=0, level=level)
        hidden, held = set(), 0
        for _ in range(60):
            if position.phase == "over":
                break
            seen = position.observation()
            for p, station in enumerate(seen["stations"]):
                if level < 3 or p == position.to_move:
                    assert station["hand"] is not None and len(station["hand"]) == station["hand_size"]
                else:
                    assert station["hand"] is None
                    hidden.add(p)
                held += station["hand_size"]
            position.apply(position.legal()[0])
        assert held > 0 and hidden == ({0, 1, 2, 3} if level == 3 else set())


@GAMES
def test_what_is_not_an_answer_is_a_value_error(core, game):
    position = _start(game)
    wrong = {ALIEN: ("end_turn", None), OH_NO: ("draw", None), SPACE: ("card", 99)}[game]
    with pytest.raises(ValueError, match="does not answer"):
        position.apply(wrong)
    with pytest.raises(ValueError, match="no .* action 'teleport'"):
        position.apply(("teleport", 1))
    kind = position.legal()[0][0]
    with pytest.raises(ValueError, match=kind):
        position.apply((kind, "not a value"))
    off_the_table = {ALIEN: ("cover", 200), OH_NO: ("counter_help", 9), SPACE: ("transfer", (0, 9))}
    with pytest.raises(ValueError):
        position.apply(off_the_table[game])
    _play_out(position, lambda legal: legal[0])
    last = position.record()
    with pytest.raises(ValueError, match="does not answer"):
        position.apply(wrong)
    with pytest.raises(ValueError, match="the game is over"):
        position.search(1, iterations=4)
    assert position.record() == last


@GAMES
def test_the_search_answers_legally_as_a_function_of_its_seed(core, game):
    position = _start(game, root_seed=2, game_index=4)
    for _ in range(4):
        answer = position.search(9, iterations=16)
        assert answer in position.legal()
        assert position.copy().search(9, iterations=16) == answer
        position.apply(answer)
    names = {
        ALIEN: "iterations, exploration, width, margin, spread",
        OH_NO: "iterations, exploration, survivors, progress, bold_rollout",
        SPACE: "iterations, exploration, kills",
    }[game]
    with pytest.raises(ValueError) as refused:
        position.search(1, iteration=5)
    assert str(refused.value) == f"mcts has no parameter 'iteration' (parameters: {names})"


# --- the forward start of game i is the runner's game i ----------------------------------------


def _python_settings(game: str, **settings):
    engine = get_game(game)
    return engine, resolve_settings(engine, {**SETTINGS[game], **settings}, "forward")


@pytest.mark.parametrize("index", [0, 7, 31])
def test_alien_attack_starts_with_the_runners_deal(core, index):
    engine, settings = _python_settings(ALIEN)
    st = engine.new_game(settings, ["greedy"] * 3, 6, index, None).st
    seen = _start(ALIEN, root_seed=6, game_index=index).observation()
    assert [s["city_card"] for s in seen["seats"]] == list(st.city_card)
    assert [s["border_card"] for s in seen["seats"]] == list(st.border_card)
    drawn = st.bag[-5:]  # round 1 draws players + 2 markers from the end of the Mothership
    assert seen["open"] == sorted(drawn) and seen["markers_left"] == len(st.bag) - 5
    assert seen["phase"] == "place" and seen["to_move"] == 0 and seen["round"] == 1


@pytest.mark.parametrize("index", [0, 7, 31])
def test_oh_no_starts_with_the_runners_deal(core, index):
    engine, settings = _python_settings(OH_NO)
    s = engine.new_game(settings, ["cautious"], 6, index, None).state
    position = _start(OH_NO, root_seed=6, game_index=index)
    seen = position.observation()
    assert [st["modules"] for st in seen["stations"]] == [list(m) for m in s.mods]
    assert seen["deck"] == len(s.deck) and seen["spawn_deck"] == len(s.spawn_deck)
    assert seen["phase"] == "call" and position.to_move == 0
    # the first card drawn is the top of the runner's deck; the Spawn card after it, its Spawn deck's
    position.apply(("call", False))
    position.apply(("draw", None))
    seen = position.observation()
    assert seen["stations"][0]["hand"] == [s.deck[-1]]
    spawn = s.spawn_deck[-1]
    placed = [seen["shields"], seen["spawn_discard"]]
    placed += [st["aliens"] + st["sabotaliens"] for st in seen["stations"]]
    assert any(spawn in cards for cards in placed) or seen["decision"].get("card") == spawn


@pytest.mark.parametrize(("index", "mission"), [(0, "real"), (7, "simulation"), (31, "3")])
def test_space_alert_starts_with_the_runners_deal(core, index, mission):
    from simkit.games.space_alert import components, game

    engine, settings = _python_settings(SPACE, mission=mission)
    params = engine.params(settings)
    seq = seeds.game_sequence(6, index)
    setup = game.deal(components.load(params.data), params, seeds.stream(seq, seeds.SETUP))
    seen = _start(SPACE, root_seed=6, game_index=index, mission=mission).observation()
    assert seen["threats"] == [tuple(t) for t in setup.threats if t.turn <= 4]
    assert seen["trajectories"] == setup.trajectories
    assert seen["heroic"] == [tuple(card) for card in setup.heroic]
    assert seen["hands"] == [[tuple(c) for c in hands[0]] for hands in setup.hands]
    assert seen["mission"] == 0 and seen["planning_phase"] == 1 and seen["plans"] == [[0] * 12] * 4
