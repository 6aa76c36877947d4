"""`kit.build`: the sections a game's specs give, and none where the games lack what they read."""

from __future__ import annotations

from types import SimpleNamespace

import polars as pl

from simkit.reporting import kit
from simkit.reporting.sections import AnalysisContext


def _ctx(tmp_path, games: pl.DataFrame) -> AnalysisContext:
    return AnalysisContext(dataset=SimpleNamespace(games=games), out=tmp_path, name="d", subject="S")


SPECS = [
    kit.Section("games", "Games", lambda ctx: ctx.dataset.games.height, findings=lambda n: [f"{n} games"]),
    kit.Section("never", "Never", lambda ctx: None),  # nothing to say: left out
]


def test_build_gives_each_section_with_something_to_say_in_order(tmp_path) -> None:
    ctx = _ctx(tmp_path, pl.DataFrame({"won": [True, False], "score": [1.0, 0.0]}))
    (section,) = kit.build(ctx, SPECS, ("won", "score"))
    assert (section.key, section.title, section.findings) == ("games", "Games", ["2 games"])


def test_build_gives_nothing_where_the_games_lack_a_needed_column_or_are_none(tmp_path) -> None:
    games = pl.DataFrame({"won": [True, False]})
    assert kit.build(_ctx(tmp_path, games), SPECS, ("won", "score")) == []
    assert kit.build(_ctx(tmp_path, games.clear()), SPECS, ("won",)) == []
    assert [s.key for s in kit.build(_ctx(tmp_path, games.clear()), SPECS)] == ["games"]  # nothing needed


def test_build_adds_the_datasets_notes_after_a_sections_own_paragraphs(tmp_path) -> None:
    asked = []

    def notes(ctx: AnalysisContext) -> dict[str, tuple[str, ...]]:
        asked.append(ctx.name)
        return {"games": ("Only two games.",), "never": ("Not shown.",)}

    spec = kit.Section("games", "Games", lambda ctx: 2, paragraphs=("How to read it.",))
    ctx = _ctx(tmp_path, pl.DataFrame({"won": [True, False]}))
    (section,) = kit.build(ctx, [spec, SPECS[1]], ("won",), notes)
    assert section.paragraphs == ["How to read it.", "Only two games."] and asked == ["d"]
    assert kit.build(ctx, [SPECS[1]], ("won",), notes) == [] and asked == ["d"]  # nothing built: not asked
