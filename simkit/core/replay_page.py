"""`simkit replay --html`: one self-contained page that steps through a game.

A game that declares the `draw` capability gives `draw_replay(settings, strategies, seed, index)`:
the game as a list of `Step`s, each a drawing of the table (SVG text), the narration lines told
at that step and its turn. This module writes the page around them: the drawing, the narration
beside it, buttons, keys (arrows, Home, End), a jump to any turn, a deep link (`#step=N`) and, at
the last step, the game's record.

The page loads nothing: its Content-Security-Policy allows no fetch of any kind, so a request the
page tried would be refused and logged (the browser test listens for both). The steps travel as
gzip-compressed JSON in the page, which the browser inflates with `DecompressionStream`: a game's
drawings differ little from step to step, so a full game stays far below 2 MB.

How a game takes its pictures: its event log is a `WatchedLog`, which calls `look()` (the game's
snapshot of the table, plain data) after every event it is given; `steps` then pairs the
narration's groups of events with the table after each group's last event.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.core.errors import UserError

MAX_PAGE_BYTES = 2_000_000  # what issue 22 promises for a full game


@dataclass(frozen=True)
class Step:
    """One step of a replay: the table after it (SVG), what the narration says and the turn."""

    turn: int | str
    lines: tuple[str, ...]
    svg: str


class WatchedLog(list):
    """An event log that takes a picture of the table after each event appended to it.

    `look` is set once the game exists (`watch(look)`, which also pictures the table as set up);
    events appended before that share the first picture taken.
    """

    def __init__(self) -> None:
        super().__init__()
        self.look: Callable[[], Any] | None = None
        self.setup: Any = None  # the table before the first event
        self.pictures: list[Any] = []

    def watch(self, look: Callable[[], Any]) -> None:
        self.look = look
        self.setup = look()

    def append(self, event: dict) -> None:  # type: ignore[override]
        super().append(event)
        self.pictures.append(self.look() if self.look is not None else None)

    def picture_after(self, index: int) -> Any:
        """The table after event `index` (the setup before the first event; the latest earlier
        picture, or the setup, for an event appended before `watch`)."""
        for i in range(index, -1, -1):
            if self.pictures[i] is not None:
                return self.pictures[i]
        return self.setup


def steps(
    log: WatchedLog,
    narrated: Sequence[tuple[int, Sequence[str]]],
    draw: Callable[[Any], str],
    setup_lines: Sequence[str] = ("The table as set up.",),
) -> list[Step]:
    """The page's steps: the table as set up, then one step per narrated group of events.

    `narrated` is the game's narration as (index of the group's last event, its lines), in order
    (each game's `narrate.narrate_steps`); `draw` turns one picture into SVG text.
    """
    out = [Step(0, tuple(setup_lines), draw(log.setup))]
    for last, lines in narrated:
        event = log[last]
        out.append(Step(event.get("turn", ""), tuple(lines), draw(log.picture_after(last))))
    return out


def play_watched(
    build: Callable[[WatchedLog], Any],
    look: Callable[[Any], Any],
    narrate_steps: Callable[[list[dict]], Sequence[tuple[int, Sequence[str]]]],
    draw: Callable[[Any], str],
) -> list[Step]:
    """The steps of a game object with a `play()` method: `build(log)` makes it writing to a
    watched log, `look(game)` pictures its table, then it plays and each narrated group is drawn."""
    log = WatchedLog()
    game = build(log)
    log.watch(lambda: look(game))
    game.play()
    return steps(log, narrate_steps(log), draw)


def _payload(steps_: Sequence[Step], record: dict, seats: list[dict] | None) -> str:
    """The steps as gzip-compressed JSON in base64, each distinct drawing stored once."""
    drawings: dict[str, int] = {}
    rows = []
    for s in steps_:
        index = drawings.setdefault(s.svg, len(drawings))
        rows.append({"turn": s.turn, "lines": list(s.lines), "svg": index})
    doc = {"svgs": list(drawings), "steps": rows, "record": record, "seats": seats or []}
    raw = json.dumps(doc, separators=(",", ":"), default=str).encode("utf-8")
    # mtime=0: the same game always gives the same bytes
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def render(
    *,
    title: str,
    facts: Sequence[tuple[str, str]],
    steps: Sequence[Step],
    record: dict,
    seats: list[dict] | None = None,
) -> str:
    """The page as text. `facts` (name, value) head it: game, seed, settings, strategies, command."""
    if not steps:
        raise ValueError("a replay page needs at least one step")
    facts_html = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in facts)
    return (
        _TEMPLATE.replace("%TITLE%", html.escape(title))
        .replace("%FACTS%", facts_html)
        .replace("%DATA%", _payload(steps, record, seats))
    )


def write(path: str | Path, page: str) -> int:
    """Write the page atomically; its size in bytes."""
    path = Path(path)
    data = page.encode("utf-8")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UserError(f"{path}: cannot write the replay page ({exc.strerror or exc})") from None
    return len(data)


# The page (no external resource of any kind; its CSP forbids them all), with %TITLE%, %FACTS% and
# %DATA% to fill in.
_TEMPLATE = (Path(__file__).parent / "replay_page.html").read_text(encoding="utf-8")
