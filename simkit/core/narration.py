"""Pieces shared by the games' replay narration (each game's `narrate.py`) and `simkit replay`.

A game's `narrate(events)` maps each event type to a handler that returns the lines a player at
the table would read; an event told in one indented line needs no function of its own, only its
sentence (`said`). An event whose type has no handler, or whose fields do not fit the handler (a
log from a newer version), is printed as its fields, so a replay never loses anything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

INDENT = "  "  # a line told under its turn's header

# What a handler raises when an event's fields are not the ones it expects
SCHEMA_ERRORS = (KeyError, TypeError, IndexError, ValueError, AttributeError, ZeroDivisionError)


def event_fields(event: dict) -> str:
    """`[turn] event: key=value, ...`: an event as its fields."""
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("event", "turn"))
    return f"[{event.get('turn', '')}] {event.get('event')}: {rest}"


def tell(event: dict, story: Any, handlers: Mapping[str, Callable[[dict, Any], list[str]]]) -> list[str]:
    """One event's lines from its handler (which may read and update `story`, what the narration
    remembers between events); its fields when there is no handler or they do not fit it."""
    handler = handlers.get(event.get("event"))
    if handler is None:
        return [event_fields(event)]
    try:
        return handler(event, story)
    except SCHEMA_ERRORS:
        return [event_fields(event)]


class _Values:
    """What a `said` sentence fills in: a value from `derived` (made from the event and the story,
    only when the sentence names it), else the event's field of that name."""

    __slots__ = ("event", "story", "derived")

    def __init__(self, event: dict, story: Any, derived: Mapping[str, Callable[[dict, Any], Any]]) -> None:
        self.event, self.story, self.derived = event, story, derived

    def __getitem__(self, key: str) -> Any:
        make = self.derived.get(key)
        return self.event[key] if make is None else make(self.event, self.story)


def said(sentence: str, **derived: Callable[[dict, Any], Any]) -> Callable[[dict, Any], list[str]]:
    """A handler that tells its event in one indented line: `sentence` (a `str.format` template)
    filled with the event's fields by name, or, for a name in `derived`, with that function of the
    event and the story (`said("{player} builds {modules}.", modules=lambda e, _: and_list(e["modules"]))`).
    A missing field raises KeyError, so `tell` prints the event as its fields."""

    def handler(event: dict, story: Any) -> list[str]:
        return [INDENT + sentence.format_map(_Values(event, story, derived))]

    return handler


def and_list(items: list, empty: str = "none") -> str:
    """`a`, `a and b`, `a, b and c`; `empty` for no items."""
    words = [str(i) for i in items]
    if not words:
        return empty
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def count(n: int, word: str, plural: str | None = None) -> str:
    """`1 disc`, `2 discs` (`plural` where adding an s is wrong)."""
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"
