"""The replay page's drawing of Alien Attack: USA (draw.py, narrate.narrate_steps and the engine's
draw_replay): the same game as `replay`, the narration in steps, SVG that parses and tells the
table of its own step, pictures that are snapshots and a page under 2 MB (the CLI's --html:
tests/core/test_replay_pages.py)."""

import xml.etree.ElementTree as ET
from functools import cache

import pytest

from simkit.core import replay_page
from simkit.core.registry import get_game
from simkit.core.replay import GameRef, page
from simkit.games.alien_attack import draw, narrate
from simkit.games.alien_attack.state import ATTACK, BASE, EMPTY, LOST

ENGINE = get_game("alien-attack")
SVG = "{http://www.w3.org/2000/svg}"

# (strategies, variant, seed): captures, every power, both player counts at their extremes
CASES = [
    (("missions", "missions"), "standard", 0),
    (("greedy", "missions", "random", "greedy"), "semi-coop", 2),
]


def settings(strategies, variant):
    return {"players": len(strategies), "variant": variant, "data": None}


@cache
def played(strategies, variant, seed):
    """(events of `replay`, steps of `draw_replay`, the WatchedLog that draw_replay filled)."""
    events = ENGINE.replay(settings(strategies, variant), list(strategies), seed, 0)
    seen = []
    original = replay_page.steps

    def steps(log, narrated, draw_):
        seen.append(log)
        return original(log, narrated, draw_)

    replay_page.steps = steps  # to see the log draw_replay hands to the page
    try:
        drawn = ENGINE.draw_replay(settings(strategies, variant), list(strategies), seed, 0)
    finally:
        replay_page.steps = original
    return events, drawn, seen[0]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_draw_replay_plays_the_game_replay_plays(case):
    events, _, log = played(*case)
    assert list(log) == events
    assert len(log.pictures) == len(events)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_steps_tell_the_narration_in_order(case):
    events, steps, _ = played(*case)
    groups = narrate.narrate_steps(events)
    assert [line for _, lines in groups for line in lines] == narrate.narrate(events)
    assert [line for s in steps[1:] for line in s.lines] == narrate.narrate(events)
    last = [i for i, _ in groups]
    assert last == sorted(set(last)) and last[-1] == len(events) - 1
    assert all(lines for _, lines in groups), "no empty step"
    assert len(steps) == len(groups) + 1  # the set-up first


def test_a_group_without_lines_joins_the_next(monkeypatch):
    # a handler may tell nothing; its event must not become an empty step but join the next
    events = [{"event": "setup", "turn": 0, "players": 2, "seats": [], "rounds": 30}]
    events += [{"event": "flip", "turn": 1, "space": 5, "captured": [], "protected": []}]
    monkeypatch.setitem(narrate.HANDLERS, "setup", lambda e, story: [])
    assert narrate.narrate_steps(events) == [(1, ["  Undefended marker 5 flips into a base."])]
    monkeypatch.setitem(narrate.HANDLERS, "flip", lambda e, story: [])
    assert narrate.narrate_steps(events) == [] and narrate.narrate(events) == []


def test_round_header_and_draw_are_one_step_finals_another():
    events, _, _ = played(*CASES[0])
    kinds = [[events[i]["event"] for i in range(a + 1, b + 1)] for a, b in _spans(events)]
    assert kinds[0] == ["setup"]
    assert all(k == ["round", "draw"] for k in kinds if "round" in k)
    assert kinds[-2] == ["final"] * len(CASES[0][0]) and kinds[-1] == ["end"]


def _spans(events):
    """(index before, last index) of each step's events."""
    last = [i for i, _ in narrate.narrate_steps(events)]
    return list(zip([-1, *last[:-1]], last, strict=True))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_step_parses_as_xml(case):
    _, steps, _ = played(*case)
    for step in steps:
        ET.fromstring(step.svg)


def _classed(root, name):
    """The elements whose class list holds every word of `name`."""
    words = set(name.split())
    return [el for el in root.iter() if words <= set(el.get("class", "").split())]


def _pieces(root, name):
    """Spaces of the pieces in the group(s) of class `name`."""
    return sorted(int(el.get("data-space")) for g in _classed(root, name) for el in g if el.get("data-space"))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_drawing_tells_the_table_of_its_step(case):
    events, steps, log = played(*case)
    groups = narrate.narrate_steps(events)
    players = len(case[0])
    # the set-up, a step in every fifth, and the last: pieces per space match that step's picture
    chosen = [0, *range(1, len(steps), 5), len(steps) - 1]
    for k in chosen:
        picture = log.setup if k == 0 else log.picture_after(groups[k - 1][0])
        root = ET.fromstring(steps[k].svg)
        cell = picture.cell
        spaces = {code: sorted(s for s, c in enumerate(cell, 1) if c == code) for code in set(cell)}
        assert _pieces(root, "marker open") == spaces.get(ATTACK, [])
        assert _pieces(root, "base") == spaces.get(BASE, [])
        assert _pieces(root, "emptied") == spaces.get(EMPTY, [])
        assert _pieces(root, "lost") == spaces.get(LOST, [])
        for p in range(players):
            assert _pieces(root, f"disc seat-{p + 1}") == spaces.get(p, []), (k, p)
        seats = _classed(root, "seat")
        assert [int(g.get("data-discs-left")) for g in seats] == list(picture.discs)
        assert [int(g.get("data-score")) for g in seats] == list(picture.score)
        assert int(_classed(root, "round")[0].get("data-round")) == picture.round
        assert int(_classed(root, "bag")[0].get("data-bag")) == picture.bag
    # and against the game's own log: each round's header event lists the table before its draw
    for k, (last, _) in enumerate(groups, start=1):
        if events[last]["event"] == "draw" and events[last - 1]["event"] == "round":
            header = events[last - 1]
            root = ET.fromstring(steps[k].svg)
            assert _pieces(root, "base") == sorted(header["bases"])
            for p in range(players):
                assert _pieces(root, f"disc seat-{p + 1}") == sorted(header["discs"][str(p)])
            assert _pieces(root, "marker open") == sorted(events[last]["markers"])


def test_the_board_has_every_space_and_city():
    _, steps, log = played(*CASES[0])
    root = ET.fromstring(steps[0].svg)
    board = log.setup.board
    hexes = [el for g in _classed(root, "spaces") for el in g if el.tag == SVG + "polygon"]
    assert len(hexes) == board.n
    assert len(list(_classed(root, "cities")[0])) == len(board.cities)
    numbers = [el.text for el in _classed(root, "numbers")[0]]
    assert numbers == [str(s) for s in range(1, board.n + 1)]


def test_mission_cards_are_shown_as_dealt_and_totals_only_at_the_final_scoring():
    events, steps, log = played(*CASES[0])
    setup = events[0]
    first = steps[0].svg
    for seat in setup["seats"]:
        assert f"City card {seat['city_card']}, Border card {seat['border_card'].title()}" in first
    assert "final total" not in steps[-3].svg
    end = events[-1]
    for p, total in enumerate(end["scores"]):
        assert f"Seat {p + 1}: score {log.pictures[-1].score[p]}, final total {total}" in steps[-1].svg


def test_a_picture_is_a_snapshot():
    events, steps, log = played(*CASES[0])
    assert steps[0].svg != steps[-1].svg
    assert log.setup.cell != log.pictures[-1].cell
    # a picture taken early is unchanged after the game went on: drawn again, it is the same
    early = ENGINE.draw_replay(settings(*CASES[0][:2]), list(CASES[0][0]), CASES[0][2], 0)[0].svg
    assert draw.draw(log.setup) == early == steps[0].svg
    assert all(c < 0 for c in log.setup.cell)  # no disc at set-up, though the game put many down


def test_a_long_game_page_is_under_2_mb():
    # the longest pages measured (two seeds each of 2 greedy, 3 random, 4 random, 4 missions
    # semi-coop): 4 missions players, semi-coop, seed 1:3 was the largest, 1,324,951 bytes (every drawing is
    # ~37 kB, past gzip's 32 kB window, so each step costs ~8 kB compressed)
    ref = GameRef("alien-attack", 1, 3, {"players": 4, "variant": "semi-coop"}, ("missions",) * 4)
    size = len(page(ref).encode("utf-8"))
    assert size < replay_page.MAX_PAGE_BYTES
