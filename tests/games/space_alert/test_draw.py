"""The Space Alert replay page (draw.py, narrate.narrate_steps, the engine's `draw_replay`): the
page plays the same game as `simkit replay`, its steps tell the whole narration, and each step's
drawing shows the table of that step (counted element by element against the picture and the
state), copied so later turns cannot change it."""

import xml.etree.ElementTree as ET

import pytest

from simkit.core import replay_page
from simkit.core.registry import get_game, resolve_settings
from simkit.core.replay import GameRef, page
from simkit.games.space_alert import components, draw, narrate
from simkit.games.space_alert.state import SPACE, STATION_NAMES, new_state

ENGINE = get_game("space-alert")
SVG = "{http://www.w3.org/2000/svg}"
FIVE = {"figures": 5, "players": 5}

# (settings, root seed, index): a plain mission, a 5-figure campaign of 3 (damage carried), slime
CASES = [
    ({}, 1, 3),
    ({"campaign": 3, **FIVE}, 3, 0),
    ({"common": "yellow", "serious": "yellow", **FIVE}, 4, 0),
]


def settings(raw):
    return resolve_settings(ENGINE, dict(raw), "test")


def watched_game(raw, seed, index):
    """(steps, the watched log) of one game, played as draw_replay plays it."""
    log = replay_page.WatchedLog()
    params = ENGINE.params(settings(raw))
    table = draw.Table(str(params.mission), components.load(params.data))

    def watch(st):
        table.new_mission(st)
        if log.look is None:
            log.watch(lambda: draw.look(table))

    ENGINE._play(settings(raw), ["scripted"], seed, index, log, watch)
    return log


def classed(svg_text, cls):
    """The elements of the drawing whose class list holds `cls`."""
    root = ET.fromstring(svg_text)
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


@pytest.mark.parametrize("raw, seed, index", CASES, ids=str)
def test_the_page_plays_the_same_game_and_tells_all_of_it(raw, seed, index):
    steps = ENGINE.draw_replay(settings(raw), ["scripted"], seed, index)
    events = ENGINE.replay(settings(raw), ["scripted"], seed, index)
    log = watched_game(raw, seed, index)
    assert list(log) == events
    told = [line for s in steps[1:] for line in s.lines]
    assert told == narrate.narrate(events)
    groups = narrate.narrate_steps(events)
    ends = [last for last, _ in groups]
    assert ends == sorted(set(ends)) and ends[-1] == len(events) - 1
    assert all(lines for _, lines in groups)
    assert len(steps) == len(groups) + 1
    for s in steps:
        assert ET.fromstring(s.svg).tag == SVG + "svg"
    assert steps[0].svg == draw.draw(log.setup)
    assert [s.svg for s in steps[1:]] == [draw.draw(log.picture_after(last)) for last in ends]


def test_a_group_holds_an_action_and_what_it_does():
    events = ENGINE.replay(settings({}), ["scripted"], 1, 3)
    groups = narrate.narrate_steps(events)
    # figure 2 presses C and maintains the computer: one step, two lines
    assert any(
        len(lines) == 2 and "presses C" in lines[0] and "maintains the computer" in lines[1]
        for _, lines in groups
    )
    # no step begins in the middle of another turn's story: each turn header opens a step
    for _, lines in groups:
        assert not any(line.startswith("Turn ") for line in lines[1:])


def test_a_group_that_tells_nothing_joins_the_next(monkeypatch):
    events = ENGINE.replay(settings({}), ["scripted"], 1, 3)
    plain = narrate.narrate_steps(events)
    # visual confirmation opens a group; told as nothing, its group merges into the shots after it
    monkeypatch.setitem(narrate.HANDLERS, "visual_confirmation", lambda e, story: [])
    quiet = narrate.narrate_steps(events)
    seen = [k for k, e in enumerate(events) if e["event"] == "visual_confirmation"]
    assert seen
    kept = [(last, lines) for last, lines in plain if last not in seen]
    assert [last for last, _ in quiet] == [last for last, _ in kept]
    assert [[line for line in lines if "Visual confirmation" not in line] for _, lines in kept] == [
        lines for _, lines in quiet
    ]
    assert all(lines for _, lines in quiet)


@pytest.mark.parametrize("raw, seed, index", CASES, ids=str)
def test_the_drawing_shows_the_picture_of_its_step(raw, seed, index):
    log = watched_game(raw, seed, index)
    groups = narrate.narrate_steps(log)
    picked = [groups[0], groups[len(groups) // 3], groups[2 * len(groups) // 3], groups[-1]]
    assert any(t.damage for t in log.picture_after(groups[-1][0]).threats)  # the checks below bite
    for last, _ in picked:
        picture = log.picture_after(last)
        svg_text = draw.draw(picture)
        assert picture.turn == log[last]["turn"] or log[last]["event"] in ("mission", "score")
        # the picture agrees with what the log says happened by then, in this mission
        start = max(k for k in range(last + 1) if log[k]["event"] == "mission")
        tiles, damage = {}, {}
        for e in log[start : last + 1]:
            if e["event"] == "damage_tile":
                tiles[e["zone"]] = e["count"]
            elif e["event"] == "damage":
                damage[e["threat"]] = e["total"]
            elif e["event"] in ("battlebots_attack", "threat_repairs", "repair"):
                damage[e["threat"]] = e["damage"]
        carried = log.picture_after(start).zones  # a campaign's later mission starts damaged
        for z, zone in enumerate(picture.zones):
            assert len(zone.tiles) == tiles.get(zone.name, len(carried[z].tiles))
        for t in picture.threats:
            assert t.damage == damage.get(t.id, 0)
        # threats on the tracks: each active one at its space, with the strength it has left
        on_tracks = {
            (e.get("data-threat"), int(e.get("data-space")), int(e.get("data-left")))
            for e in classed(svg_text, "threat")
        }
        assert on_tracks == {
            (t.id, t.space, max(0, t.health - t.damage)) for t in picture.threats if t.status == "active"
        }
        for status in ("waiting", "active", "destroyed", "survived"):
            rows = [e.get("data-threat") for e in classed(svg_text, "threat-row") if status in e.get("class")]
            assert rows == [t.id for t in picture.threats if t.status == status]
        for z in picture.zones:
            assert len(classed(svg_text, f"zone-{z.name}")) == len(z.tiles) + z.shield + z.reactor
            tiles = [e for e in classed(svg_text, "damage-tile") if f"zone-{z.name}" in e.get("class")]
            assert len(tiles) == len(z.tiles)
            assert len(
                [e for e in classed(svg_text, "shield-energy") if f"zone-{z.name}" in e.get("class")]
            ) == (z.shield)
        assert len(classed(svg_text, "fuel")) == picture.fuel
        assert len(classed(svg_text, "rocket")) == picture.rockets
        figures = classed(svg_text, "figure")
        assert sorted(int(e.get("data-figure")) for e in figures) == [f.number for f in picture.figures]
        assert len(classed(svg_text, "knocked-out")) == sum(f.knocked_out for f in picture.figures)
        assert len(classed(svg_text, "android")) == sum(f.android for f in picture.figures)
        assert len(classed(svg_text, "squad")) == sum(q.station >= 0 for q in picture.squads)


def test_figures_stand_in_their_stations():
    """Each figure is drawn inside the box of the station the state says it stands in."""
    log = watched_game({}, 1, 3)
    for last in (5, 20, len(log) - 1):
        picture = log.picture_after(last)
        root = ET.fromstring(draw.draw(picture))
        boxes = {
            e.get("data-station"): (float(e.get("x")), float(e.get("y")), float(e.get("width")))
            for e in root.iter()
            if "station" in (e.get("class") or "").split()
        }
        for fig in root.iter():
            if "figure" not in (fig.get("class") or "").split():
                continue
            number = int(fig.get("data-figure"))
            shape = next(e for e in fig if e.tag in (SVG + "circle", SVG + "rect"))
            x = float(shape.get("cx") or float(shape.get("x")) + 11)
            y = float(shape.get("cy") or float(shape.get("y")) + 11)
            station = picture.figures[number - 1].station
            if station == SPACE:
                assert x < min(bx for bx, _, _ in boxes.values())
                continue
            bx, by, bw = boxes[STATION_NAMES[station]]
            assert bx <= x <= bx + bw and by <= y <= by + draw.DECK_H


def test_a_picture_is_a_snapshot():
    log = watched_game({}, 1, 3)
    steps = ENGINE.draw_replay(settings({}), ["scripted"], 1, 3)
    assert steps[0].svg != steps[-1].svg
    assert log.setup.turn == 0 and log.pictures[-1].turn > 0
    comp = components.load()
    table = draw.Table("real", comp)
    st = new_state(comp, 4, [[0] * 12 for _ in range(4)], [list(comp.tiles) for _ in range(3)])
    table.new_mission(st)
    before = draw.look(table)
    drawn = draw.draw(before)
    st.turn = 5
    st.pos[0] = 3
    st.tiles[0].append("reactor")
    st.shield[1] = 0
    st.plans[0][1] = 1
    after = draw.look(table)
    assert before != after
    assert before.turn == 0 and before.figures[0].station == st.pos[1] and before.zones[0].tiles == ()
    assert before.plans[0][0] == "-"
    assert draw.draw(before) == drawn


def test_texts_are_escaped():
    comp = components.load()
    table = draw.Table("<b>&", comp)
    table.new_mission(new_state(comp, 4, [[0] * 12 for _ in range(4)], [list(comp.tiles) for _ in range(3)]))
    svg_text = draw.draw(draw.look(table))
    ET.fromstring(svg_text)
    assert "<b>&" not in svg_text and "&lt;b&gt;&amp;" in svg_text


def test_a_long_game_page_stays_small():
    # the largest of 36 games measured (campaign of 3 missions, 5 figures, seeds 0-5, scripted and
    # random crews; three settings): root seed 5, scripted, 240,060 bytes
    size = len(page(GameRef("space-alert", 5, 0, {"campaign": 3, **FIVE}, ("scripted",))).encode("utf-8"))
    assert 50_000 < size < replay_page.MAX_PAGE_BYTES
