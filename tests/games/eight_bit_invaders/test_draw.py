"""The replay page's drawing of 8-Bit Invaders (draw.py, `draw_replay`): the same game as
`replay`, the narration in steps, one SVG per step that parses and tells the table at that step,
pictures that are snapshots and a page under its size bound (the CLI writing it:
tests/core/test_replay_pages.py)."""

import pickle
import xml.etree.ElementTree as ET

import pytest

from simkit.core import replay_page
from simkit.core.registry import get_game
from simkit.core.replay import GameRef, page
from simkit.games.eight_bit_invaders import draw, narrate

ENGINE = get_game("eight-bit-invaders")

# (strategy, countdown, dice, seed): every ending, bonus cards played and bombers (test_narrate.py)
CASES = [
    ("lookahead", 7, 6, 0),  # trade_shield, rapid_fire, landed
    ("lookahead", 6, 5, 4),  # bomber
    ("lookahead", 7, 6, 33),  # cleared
    ("random", 7, 6, 2),  # extra_life
]


def settings(countdown, dice):
    return {"countdown": countdown, "dice": dice, "data": None}


def drawn(monkeypatch, strategy, countdown, dice, seed):
    """`draw_replay`'s steps and the event log it played (caught on its way to `steps`)."""
    seen = {}
    real = replay_page.steps

    def spy(log, narrated, draw_):
        seen["log"] = log
        return real(log, narrated, draw_)

    monkeypatch.setattr(replay_page, "steps", spy)
    steps = ENGINE.draw_replay(settings(countdown, dice), [strategy], seed, 0)
    return steps, seen["log"]


def classed(root, name):
    """The elements whose class list holds `name`."""
    return [el for el in root.iter() if name in (el.get("class") or "").split()]


@pytest.mark.parametrize("strategy, countdown, dice, seed", CASES, ids=str)
def test_draw_replay_plays_the_game_replay_plays(monkeypatch, strategy, countdown, dice, seed):
    steps, log = drawn(monkeypatch, strategy, countdown, dice, seed)
    assert list(log) == ENGINE.replay(settings(countdown, dice), [strategy], seed, 0)
    assert len(log.pictures) == len(log)
    assert len(steps) == 1 + len(narrate.narrate_steps(list(log)))


@pytest.mark.parametrize("strategy, countdown, dice, seed", CASES, ids=str)
def test_the_steps_tell_the_narration_in_order(monkeypatch, strategy, countdown, dice, seed):
    steps, log = drawn(monkeypatch, strategy, countdown, dice, seed)
    events = list(log)
    assert [line for s in steps[1:] for line in s.lines] == narrate.narrate(events)
    groups = narrate.narrate_steps(events)
    lasts = [last for last, _ in groups]
    assert lasts == sorted(set(lasts)) and lasts[-1] == len(events) - 1
    assert all(lines for _, lines in groups)
    # the allocation's dice are one step; the kills they make, the next
    for last, _ in groups:
        if events[last]["event"] == "place":
            assert last + 1 == len(events) or events[last + 1]["event"] != "place"


def test_steps_without_lines_join_the_next(monkeypatch):
    events = ENGINE.replay(settings(7, 6), ["lookahead"], 0, 0)
    # every event of the game says something, so a handler that says nothing is made here
    monkeypatch.setattr(narrate, "HANDLERS", dict(narrate.HANDLERS, rapid_fire=lambda e, story: []))
    groups = narrate.narrate_steps(events)
    assert all(lines for _, lines in groups)
    told = [i for i, e in enumerate(events) if e["event"] == "rapid_fire"]
    assert told, "the case plays Rapid Fire"
    assert not any(last in told for last, _ in groups)  # merged into the roll after it


@pytest.mark.parametrize("strategy, countdown, dice, seed", CASES, ids=str)
def test_every_step_is_one_svg(monkeypatch, strategy, countdown, dice, seed):
    steps, _ = drawn(monkeypatch, strategy, countdown, dice, seed)
    for s in steps:
        root = ET.fromstring(s.svg)
        assert root.tag.endswith("svg")


@pytest.mark.parametrize("strategy, countdown, dice, seed", CASES, ids=str)
def test_the_drawing_tells_the_table_of_its_step(monkeypatch, strategy, countdown, dice, seed):
    """Each step's drawing is checked against the events of that step (not the pictures), so
    a drawing of another step, or a count drawn wrong, fails."""
    steps, log = drawn(monkeypatch, strategy, countdown, dice, seed)
    events = list(log)
    groups = narrate.narrate_steps(events)
    checked = set()
    for (last, _), step in zip(groups, steps[1:], strict=True):
        e = events[last]
        root = ET.fromstring(step.svg)
        kind = e["event"]
        if kind == "turn":
            assert len(classed(root, "alien")) == e["aliens_left"]
            assert sorted(int(el.get("data-column")) for el in classed(root, "shield")) == e["shields"]
            assert len(classed(root, "countdown")) == e["countdown"]
            assert len(classed(root, "filled")) == e["track"]
            assert len(classed(root, "track-cell")) == e["aliens_left"]
            assert [el.get("data-card") for el in classed(root, "hand")] == e["hand"]
            assert [el.get("data-card") for el in classed(root, "discard")] == e["bonus_discard"]
            assert [int(el.get("data-cards")) for el in classed(root, "pile")] == [e["bonus_pile_size"]]
            assert not classed(root, "die") and not classed(root, "destroyed")
            # every card where the event's formation has it, with its label
            cards = {
                (int(el.get("data-column")), int(el.get("data-row"))): el for el in classed(root, "alien")
            }
            for r, row in enumerate(e["formation"], 1):
                for c, cell in enumerate(row, 1):
                    assert ((c, r) in cards) == (cell is not None)
                    if cell is not None:
                        assert cards[(c, r)].get("data-label") == cell.split(" ", 1)[1]
        elif kind in ("roll", "time_slip", "smart_bomb"):
            assert [int(el.get("data-value")) for el in classed(root, "die")] == e["dice"]
        elif kind == "place":
            first = last
            while events[first - 1]["event"] == "place":
                first -= 1
            run = events[first : last + 1]
            assert len(classed(root, "placed")) == len(run)
            on = sorted(
                (int(el.get("data-column")), int(el.get("data-row")))
                for el in classed(root, "alien")
                for _ in classed(el, "placed")
            )
            assert on == sorted((p["column"], p["row"]) for p in run)
        elif kind == "kill":
            turn = e["turn"]
            kills = [k for k in events[: last + 1] if k["event"] == "kill" and k["turn"] == turn]
            gone = classed(root, "destroyed")
            start = [t for t in events[:last] if t["event"] == "turn"][-1]["aliens_left"]
            assert len(classed(root, "alien")) == start - len(kills)
            assert len(classed(root, "track-cell")) == start - len(kills)
            assert sorted((int(el.get("data-column")), int(el.get("data-row"))) for el in gone) == sorted(
                (k["column"], k["row"]) for k in kills
            )
        elif kind == "counterattack":
            assert len(classed(root, "firing")) == len(e["firing"])
            assert len(classed(root, "shielded")) == sum(f["shielded"] for f in e["firing"])
        elif kind == "movement":
            assert [int(el.get("data-value")) for el in classed(root, "movement-die")] == e["dice"]
            assert len(classed(root, "countdown")) == e["countdown"]
            assert len(classed(root, "filled")) == e["track_after"]
            [advance] = classed(root, "advance")
            assert ("countdown card goes" in advance.text) == e["countdown_removed"]
        elif kind == "shield_move":
            assert sorted(int(el.get("data-column")) for el in classed(root, "shield")) == e["shields"]
        elif kind == "bomber":
            columns = [int(el.get("data-column")) for el in classed(root, "shield")]
            assert e["shield_destroyed"] not in columns
            assert classed(root, "bomber")
        elif kind == "end":
            assert len(classed(root, "verdict")) == 1
            turn = [t for t in events if t["event"] == "turn"][-1]
            kills = sum(k["event"] == "kill" and k["turn"] == turn["turn"] for k in events)
            assert len(classed(root, "alien")) == turn["aliens_left"] - kills
        checked.add(kind)
    assert {"turn", "roll", "place", "kill", "counterattack", "end"} <= checked


def test_the_picture_is_a_snapshot():
    log = replay_page.WatchedLog()
    game = ENGINE.new_game(settings(7, 6), ["lookahead"], 33, 0, log)
    log.watch(lambda: draw.look(game))
    setup = log.setup
    before = pickle.dumps(setup)
    game.play()
    assert pickle.dumps(setup) == before  # the game went on; the earlier picture did not move
    assert setup.aliens_left == 35 and log.pictures[-1].aliens_left == 0
    assert draw.draw(log.setup) != draw.draw(log.pictures[-1])

    def plain(value):
        if isinstance(value, tuple):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, int | str | bool)

    assert all(plain(p) for p in [setup, *log.pictures])


def test_first_and_last_steps_differ(monkeypatch):
    steps, _ = drawn(monkeypatch, "random", 7, 6, 0)
    assert steps[0].svg != steps[-1].svg


def test_a_long_game_page_stays_small():
    # the longest of random/greedy/lookahead x countdown 7/6 x dice 6/5 x seeds 0-59 (282 events,
    # 28 turns): its page was 82,420 bytes
    ref = GameRef("eight-bit-invaders", 2, 0, {"countdown": 7, "dice": 5}, ("random",))
    html = page(ref)
    assert len(html.encode("utf-8")) < replay_page.MAX_PAGE_BYTES
