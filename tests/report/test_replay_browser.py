"""Replay pages in a real browser: headless Chromium driven over the DevTools protocol (tests/cdp.py).

For every game that draws its table: the page of a whole game loads with no console message and no
request beyond itself, the keys and buttons step through it and change the drawing, a link to a step
opens there, and the last step shows the record's result. The first and last steps' screenshots
are real, different, not blank pictures, kept in $SIMKIT_TEST_ARTIFACTS (default:
reports/test-artifacts). A page made here without a game checks the stepping itself: turns, the
slider, a click on the narration.

Skipped, with the reason, only when no chromium can be found (`.ci/run` installs it when missing).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest

from simkit.core import replay, replay_page, svg
from simkit.core.registry import all_games
from tests.cdp import Browser, chromium

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = [g for g in all_games() if type(g).__module__.startswith("simkit.games.")]  # not outside games
DRAWN = [g.id for g in BUILT_IN if "draw" in g.capabilities]
# one game of each: seats for the competitive ones, a short setting where a game has one
GAME_REFS = {
    "eight-bit-invaders": replay.GameRef("eight-bit-invaders", 1, 17, {}, ()),
    "alien-attack": replay.GameRef("alien-attack", 2, 1, {"players": 3}, ()),
    "oh-no-invasion": replay.GameRef("oh-no-invasion", 3, 2, {"players": 4}, ()),
    "space-alert": replay.GameRef("space-alert", 4, 0, {}, ()),
}

pytestmark = pytest.mark.skipif(
    chromium() is None, reason="no chromium on this machine (.ci/run installs it)"
)


def artifacts() -> Path:
    folder = Path(os.environ.get("SIMKIT_TEST_ARTIFACTS", ROOT / "reports" / "test-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    with Browser() as b:
        yield b


def picture(png: bytes) -> np.ndarray:
    image = mpimg.imread(io.BytesIO(png), format="png")
    assert image.ndim == 3 and image.shape[0] > 200 and image.shape[1] > 200
    return image


def not_blank(image: np.ndarray) -> bool:
    colours = np.unique((image[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    return len(colours) > 20


def test_every_game_draws_its_table():
    assert set(DRAWN) == {g.id for g in BUILT_IN}


@pytest.mark.parametrize("game_id", DRAWN)
def test_a_whole_game_steps_in_the_browser(browser, tmp_path, game_id):
    ref = GAME_REFS[game_id]
    engine, settings, strategies = replay.resolved(ref)
    record = engine.play(settings, strategies, ref.root_seed, ref.index).record
    path = tmp_path / f"{game_id}.html"
    size = replay.write_page(ref, path)
    assert size < replay_page.MAX_PAGE_BYTES

    page = browser.open(path.as_uri())
    page.wait_for("document.body.dataset.ready === '1'")
    steps = int(page.eval("Number(document.body.dataset.steps)"))
    assert steps > 3
    assert page.eval("document.body.dataset.step") == "0"
    assert page.eval("document.querySelector('#table svg') !== null")
    first_svg = page.eval("document.querySelector('#table').innerHTML")
    first_png = page.screenshot()

    # the keys step, and the drawing follows (some step within the first few changes the table)
    drawings = [first_svg]
    for expected in range(1, min(steps, 8)):
        page.key("ArrowRight", 39)
        assert page.eval("document.body.dataset.step") == str(expected)
        drawings.append(page.eval("document.querySelector('#table').innerHTML"))
    assert len(set(drawings)) > 1
    page.key("ArrowLeft", 37)
    assert page.eval("document.body.dataset.step") == str(min(steps, 8) - 2)
    assert page.eval("document.getElementById('result').hidden") is True

    # the last step shows the record
    page.key("End", 35)
    assert page.eval("document.body.dataset.step") == str(steps - 1)
    assert page.eval("document.getElementById('result').hidden") is False
    result_text = page.eval("document.getElementById('result').innerText")
    for column in ("won", "score", "end_reason"):
        assert column in result_text
    assert str(record["end_reason"]) in result_text and str(record["score"]) in result_text
    last_svg = page.eval("document.querySelector('#table').innerHTML")
    assert last_svg != first_svg
    last_png = page.screenshot()

    first, last = picture(first_png), picture(last_png)
    assert not_blank(first) and not_blank(last)
    assert first.shape != last.shape or not np.array_equal(first, last)
    (artifacts() / f"replay-{game_id}-first.png").write_bytes(first_png)
    (artifacts() / f"replay-{game_id}-last.png").write_bytes(last_png)

    # nothing but the page itself was requested, and nothing was said on the console
    assert [u for u in page.requests() if not u.startswith("data:")] == [path.as_uri()]
    assert page.console() == []


@pytest.mark.parametrize("game_id", DRAWN)
def test_a_link_opens_at_its_step(browser, tmp_path, game_id):
    path = tmp_path / f"{game_id}.html"
    replay.write_page(GAME_REFS[game_id], path)
    page = browser.open(path.as_uri() + "#step=3")
    page.wait_for("document.body.dataset.ready === '1'")
    assert page.eval("document.body.dataset.step") == "3"
    assert page.eval("document.querySelector('#story p.now').dataset.step") == "3"


def toy_page(tmp_path: Path) -> Path:
    """Nine steps over three turns, each drawing saying its step."""
    steps = [
        replay_page.Step(1 + i // 3, (f"line {i}",), svg.svg(200, 60, [svg.text(10, 30, f"step {i}")]))
        for i in range(9)
    ]
    page = replay_page.render(
        title="toy",
        facts=[("game", "toy")],
        steps=steps,
        record={"won": True, "score": 7, "end_reason": "done"},
    )
    path = tmp_path / "toy.html"
    replay_page.write(path, page)
    return path


def test_turns_slider_buttons_and_clicks(browser, tmp_path):
    page = browser.open(toy_page(tmp_path).as_uri())
    page.wait_for("document.body.dataset.ready === '1'")

    def at() -> str:
        return page.eval("document.body.dataset.step")

    def drawn() -> str:
        return page.eval("document.querySelector('#table text').textContent")

    page.key("PageDown", 34)  # the next turn starts at step 3
    assert at() == "3" and drawn() == "step 3"
    page.key("PageDown", 34)
    assert at() == "6"
    page.key("ArrowRight", 39)
    page.key("PageUp", 33)  # back to the start of this turn
    assert at() == "6"
    page.key("PageUp", 33)  # and then the turn before
    assert at() == "3"
    page.click("#next")
    assert at() == "4" and drawn() == "step 4"
    page.click("#last")
    assert at() == "8" and page.eval("document.getElementById('result').hidden") is False
    page.click("#first")
    assert at() == "0"
    page.eval(
        "(() => { const s = document.getElementById('turn'); s.value = s.options[2].value;"
        " s.dispatchEvent(new Event('change')); })()"
    )
    assert at() == "6"
    page.click("#story p[data-step='5']")
    assert at() == "5" and page.eval("document.getElementById('now').textContent") == "line 5"
    assert page.eval("location.hash") == "#step=5"
    assert page.console() == []


def test_a_page_that_tries_the_network_is_refused_and_heard(browser, tmp_path):
    """The check above can fail: a drawing with an external image is blocked by the page's policy,
    and the refusal is both a request and a console line."""
    steps = [
        replay_page.Step(
            0, ("x",), svg.svg(50, 50, ['<image href="http://example.invalid/x.png" width="9" height="9"/>'])
        )
    ]
    path = tmp_path / "leaky.html"
    replay_page.write(path, replay_page.render(title="t", facts=[], steps=steps, record={"won": False}))
    page = browser.open(path.as_uri())
    page.wait_for("document.body.dataset.ready === '1'")
    page.wait_for("true")
    logged = page.console()
    assert any("Content Security Policy" in line or "Refused" in line for line in logged), logged
