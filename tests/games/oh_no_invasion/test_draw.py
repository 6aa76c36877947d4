"""The step-through replay page of Oh no... INVASION!!! (draw.py, `draw_replay`): the game it
plays is the replayed game, its steps tell the whole narration, every drawing is SVG that shows
the table at its own step (counted against the event log and the pictures), a picture is a
snapshot, and a long game's page stays small."""

import re
import xml.etree.ElementTree as ET

import pytest

from simkit.core import replay_page
from simkit.core.registry import get_game
from simkit.core.replay import GameRef, page
from simkit.games.oh_no_invasion import draw
from simkit.games.oh_no_invasion import narrate as narration

ENGINE = get_game("oh-no-invasion")
SVG = "{http://www.w3.org/2000/svg}"

# (strategy, level, players, seed, index): every level, 2 to 5 players, eliminations of every
# cause, sabotage and the Final Conflict (the cases of test_narrate, which names what each shows)
CASES = [
    ("cautious", 1, 4, 1, 3),  # the CLI's game: a kamikaze elimination, then won
    ("cautious", 0, 2, 0, 0),  # the crew eliminated by kamikazes
    ("cautious", 2, 5, 1, 0),  # a module destroyed, eliminated by sabotage
    ("bold", 3, 3, 2, 0),  # level 3 (hidden hands), eliminated by Invaliens
    ("random", 0, 2, 2, 0),  # transports
]


def settings(level, players):
    return {"players": players, "level": level, "data": None}


@pytest.fixture(scope="module")
def played():
    """Per case: the steps of `draw_replay` and the WatchedLog it played into (caught on its
    way to `replay_page.steps`)."""
    out = {}
    real_steps = replay_page.steps
    for case in CASES:
        strategy, level, players, seed, index = case
        caught = []

        def catching(log, narrated, draw_, *rest, caught=caught):
            caught.append(log)
            return real_steps(log, narrated, draw_, *rest)

        replay_page.steps = catching  # draw_replay reads it from the module at call time
        try:
            steps = ENGINE.draw_replay(settings(level, players), [strategy], seed, index)
        finally:
            replay_page.steps = real_steps
        out[case] = (steps, caught[0])
    return out


def parse(step):
    return ET.fromstring(step.svg)


def classed(root, word):
    """Elements whose class has `word`."""
    return [e for e in root.iter() if word in (e.get("class") or "").split()]


def station(root, seat):
    (node,) = classed(root, f"seat-{seat}")
    return node


@pytest.mark.parametrize("case", CASES, ids=str)
def test_draw_replay_plays_the_replayed_game(played, case):
    strategy, level, players, seed, index = case
    steps, log = played[case]
    assert list(log) == ENGINE.replay(settings(level, players), [strategy], seed, index)
    assert len(log.pictures) == len(log)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_steps_tell_the_whole_narration_in_order(played, case):
    steps, log = played[case]
    events = list(log)
    assert steps[0].lines == ("The table as set up.",)
    assert [line for s in steps[1:] for line in s.lines] == narration.narrate(events)
    groups = narration.narrate_steps(events)
    lasts = [last for last, _ in groups]
    assert lasts == sorted(set(lasts)) and lasts[-1] == len(events) - 1
    assert all(lines for _, lines in groups)
    # a deck remade is told with the draw or kamikaze it happened in, never as a step of its own
    assert all(events[last]["event"] not in narration.LEADS_IN for last in lasts[:-1])
    assert [s.turn for s in steps[1:]] == [events[last]["turn"] for last in lasts]


def test_a_remade_deck_joins_the_next_event():
    events = [
        {"event": "reshuffle_resistance", "turn": 3, "cards": 12},
        {"event": "draw", "turn": 3, "player": "P2", "cards": ["red rocket"]},
        {"event": "no_strike", "turn": 4, "player": "P1"},
    ]
    assert narration.narrate_steps(events) == [
        (1, ["  The Resistance deck is remade: 12 discarded cards shuffled.", "  P2 draws red rocket."]),
        (2, ["  P1 makes no strike."]),
    ]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_drawing_is_svg(played, case):
    steps, _ = played[case]
    for step in steps:
        root = parse(step)
        assert root.tag == f"{SVG}svg"


def _station_counts(text):
    """(hand cards, modules, sabotaged, Sabotaliens, alien figures) from a `turn` event's line."""
    hand, modules, aliens = (part.split(": ", 1)[1] for part in text.split(" | "))
    figures = sum(int(n) for n in re.findall(r"\d+", aliens))
    return (
        0 if hand == "-" else len(hand.split(", ")),
        0 if modules == "-" else len(modules.split(", ")),
        modules.count("(sabotaged)"),
        modules.count(" Sabotalien"),
        figures,
    )


@pytest.mark.parametrize("case", CASES, ids=str)
def test_each_turns_drawing_shows_what_its_event_says(played, case):
    """At every turn header the drawing shows the piles, the shields and every station the event
    lists (a drawing of another step would differ somewhere: the turns change the table)."""
    steps, log = played[case]
    lasts = [last for last, _ in narration.narrate_steps(list(log))]
    checked = 0
    for step, last in zip(steps[1:], lasts, strict=True):
        e = log[last]
        if e["event"] != "turn":
            continue
        root = parse(step)
        piles = e["piles"]
        assert classed(root, "resistance-deck")[0].get("data-count") == str(piles["deck"])
        assert classed(root, "spawn-deck")[0].get("data-count") == str(piles["spawn_deck"])
        for name, key in (("resistance-discard", "discard"), ("spawn-discard", "spawn_discard")):
            assert (classed(root, name)[0].get("data-count") or "0") == str(piles[key])
        assert [s.get("data-colour") for s in classed(root, "shield")] == e["shields"]
        assert bool(classed(root, "final-conflict")) == e["final_conflict"]
        for name, text in e["stations"].items():
            node = station(root, int(name[1:]))
            assert ("active" in node.get("class").split()) == (name == e["player"])
            assert node.get("data-alive") == str(text != "eliminated").lower()
            if text == "eliminated":
                assert not classed(node, "module") and not classed(node, "figure")
                continue
            hand, modules, sabotaged, sabotaliens, figures = _station_counts(text)
            assert len(classed(node, "hand-card")) + len(classed(node, "card-back")) == hand
            assert len(classed(node, "module")) == modules
            assert len([m for m in classed(node, "module") if m.get("data-sabotaged") == "true"]) == sabotaged
            assert len(classed(node, "sabotalien")) == sabotaliens
            assert len(classed(node, "figure")) == figures
        checked += 1
    assert checked == sum(e["event"] == "turn" for e in log)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_drawing_counts_its_picture(played, case):
    strategy, level, players, seed, index = case
    steps, log = played[case]
    lasts = [last for last, _ in narration.narrate_steps(list(log))]
    pictures = [log.setup] + [log.picture_after(last) for last in lasts]
    for step, picture in zip(steps, pictures, strict=True):
        root = parse(step)
        assert len(classed(root, "shield")) == len(picture.shields)
        assert len(classed(root, "flying")) == (picture.flying is not None)
        assert len(classed(root, "result")) == bool(picture.end_reason)
        for st in picture.stations:
            node = station(root, st.seat + 1)
            if not st.alive:
                continue
            faces, backs = classed(node, "hand-card"), classed(node, "card-back")
            if level == 3:  # hidden hands: backs with the count, no face
                assert not faces and len(backs) == st.hand_size and st.hand is None
            else:
                assert not backs and [f.get("data-colour") for f in faces] == [c.colour for c in st.hand]
            assert len(classed(node, "figure")) == sum(a.figures for a in st.aliens)
            assert len(classed(node, "module")) == len(st.modules)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_an_elimination_is_stamped_on_its_station(played, case):
    """The log tells an elimination before the station is cleared: its step says so on the
    station, and the next step draws it gone (or, level 0, left with its Hub)."""
    steps, log = played[case]
    lasts = [last for last, _ in narration.narrate_steps(list(log))]
    seen = 0
    for k, last in enumerate(lasts):
        e = log[last]
        if e["event"] != "eliminated":
            assert not classed(parse(steps[k + 1]), "falling")
            continue
        root = parse(steps[k + 1])
        (stamp,) = classed(root, "falling")
        assert stamp in list(station(root, int(e["player"][1:])))
        after = station(parse(steps[k + 2]), int(e["player"][1:]))
        assert after.get("data-alive") == str(e["stays_in_game"]).lower()
        seen += 1
    assert seen == sum(e["event"] == "eliminated" for e in log)
    assert seen or case[0] == "random"  # the scripted cases were picked for their eliminations


def test_a_picture_is_a_snapshot(monkeypatch):
    """Each picture is plain immutable data copied from the state: what it held when taken, it
    still holds at the end of the game; the first and last drawings differ."""
    taken = []
    real_look = draw.look

    def look(game):
        picture = real_look(game)
        taken.append((picture, repr(picture), hash(picture)))  # hash: tuples all the way down
        return picture

    monkeypatch.setattr(draw, "look", look)
    steps = ENGINE.draw_replay(settings(0, 5), ["bold"], 1, 24)  # 43 turns, decks remade
    assert len(taken) > 300
    assert all(repr(p) == text and hash(p) == h for p, text, h in taken)
    assert taken[0][1] != taken[-1][1]
    assert steps[0].svg != steps[-1].svg


def test_a_long_games_page_stays_small():
    # the longest of 720 games (seed 1, games 0-29; cautious, bold, random; levels 0-3; 2 and 5
    # players): bold, level 0, 5 players, game 1:24, 43 turns, 352 steps: its page was 107,425 bytes
    ref = GameRef("oh-no-invasion", 1, 24, {"players": 5, "level": 0}, ("bold",))
    size = len(page(ref).encode("utf-8"))
    assert 10_000 < size < replay_page.MAX_PAGE_BYTES
