"""A game's own report sections: what a game's `analysis.py` returns and how the report finds it.

A game package may hold `analysis.py` with a function

    def sections(ctx: AnalysisContext) -> list[GameSection]: ...

It reads the dataset (`ctx.dataset`: manifest, games and seats frames), computes its findings with
`simkit.core.stats` / `simkit.core.compare`, draws its charts with `simkit.reporting.charts` (files go
to `ctx.out`, names start with `ctx.name`), and returns sections the report renders after the
generic ones. Every number it shows carries its interval and the games it rests on; findings are
sentences the code writes from the numbers. It never calls an engine.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simkit.core.dataset import Dataset
from simkit.core.registry import get_game
from simkit.reporting.charts import Chart


def point_decimals(*fractions: float) -> int:
    """Decimals for differences of rates shown in percentage points: one, or as many (up to three)
    as it takes for no nonzero value among `fractions` (0-1 scale) to print as 0.0, so a small but
    resolved difference never reads "0.0 (95 % CI 0.0 to 0.0)"."""
    for digits in (1, 2):
        if all(round(100 * abs(f), digits) > 0 for f in fractions if f and not math.isnan(f)):
            return digits
    return 3


@dataclass(frozen=True)
class Table:
    caption: str
    columns: list[str]
    rows: list[list[str]]  # already formatted text, one list per row; first cell is the row header


@dataclass(frozen=True)
class GameSection:
    key: str  # short id, unique within the game: the section's anchor is "<dataset id>-<key>"
    title: str
    findings: list[str] = field(default_factory=list)  # plain-language, each with interval and n
    paragraphs: list[str] = field(default_factory=list)  # how to read the section (plain text)
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@dataclass(frozen=True)
class AnalysisContext:
    dataset: Dataset
    out: Path  # the report folder: chart files go here
    name: str  # file-safe name of this dataset within the report: prefix chart file names with it
    subject: str  # the scenario's name, for chart titles


def game_sections(ctx: AnalysisContext) -> list[GameSection]:
    """The sections of the game's own `analysis.py` (none if it has no such module), after the
    generic ones that apply: the parameter search of a `simkit tune` dataset, and "Does the
    verdict hold?" where the strategies vary with a setting, or where the game's `VERDICTS` (its
    verdicts read in mirror cells, `verdicts.Mirror`) find mirror cells of two strategies."""
    from simkit.reporting import tuning, verdicts

    game_id = ctx.dataset.manifest.get("game")
    module = _analysis(str(game_id)) if game_id else None
    mirrors = getattr(module, "VERDICTS", ())
    generic = [s for s in (tuning.section(ctx), verdicts.section(ctx, mirrors)) if s is not None]
    return [*generic, *(module.sections(ctx) if module is not None else ())]


def _analysis(game_id: str) -> Any:
    """The game's `analysis` module (None: it has none)."""
    package = type(get_game(game_id)).__module__  # the game's package, e.g. simkit.games.x
    try:
        return importlib.import_module(f"{package}.analysis")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.analysis":
            return None
        raise
