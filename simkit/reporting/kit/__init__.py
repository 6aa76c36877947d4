"""The analysis kit: the pieces every game's `analysis.py` builds its report sections from, so a
game's analysis says only what is its own (which settings, which verdicts, which words). A game
uses them as `kit.<name>`; each lives in one module of the kit:

- `wording`: a game's report words (`words`, `Words`), kept in `report_words.toml` beside its
  analysis.
- `section_specs`: sections as specs (`Section`, `SectionModel`, `build`), tables (`table`,
  `estimate_columns`, `rate_grid_table`) and chart specs (`Panels`, `Ranked`, `ChartWords`).
- `cell_data`: the games with their settings, the cells (`Cell`, `cells`), and counts and
  estimates over them (`win_grid`, `win_rate`, `mean_of`, `means`, `counts`, `listed`), and the
  share of each category of a column in each group of games (`shares`, `Shares`).
- `pairing`: comparisons along one setting, paired by seed (`paired_along`, `paired_in`,
  `along_settings`, `ranked_along`, the steps between neighbouring values), and `resolve`.
- `families`: families of named comparisons and their words (`Comparisons`, `Compared`,
  `difference_sentence`, `pooled_over`), a swept setting's best value (`sweep`), and the gap
  between a top and a bottom picked among columns (`column_extremes`; `pairing.picked_extremes`).

Formatting is `simkit.reporting.text`; chart pieces are `simkit.reporting.charts`; the pieces for
games with seat rows (a competitive game's seats) are `simkit.reporting.seats`, and their report
sections `simkit.reporting.seat_sections`.
"""

from simkit.reporting.kit.cell_data import (
    Cell,
    Listed,
    ListedItem,
    Shares,
    at_one_value,
    cells,
    cells_by,
    counts,
    games_with_settings,
    grouped,
    listed,
    mean_of,
    means,
    parameter_columns,
    setting_keys,
    shares,
    sorted_values,
    strategies_played,
    strategy_text,
    values,
    varied,
    win_grid,
    win_rate,
)
from simkit.reporting.kit.families import (
    Compared,
    Comparisons,
    Extremes,
    Sweep,
    Swept,
    column_extremes,
    difference_sentence,
    pooled_over,
    sweep,
)
from simkit.reporting.kit.pairing import (
    Along,
    Paired,
    Picked,
    Ranking,
    along_settings,
    as_interval,
    judged_along,
    neighbour_steps,
    paired_along,
    paired_in,
    paired_ladder,
    paired_outcome,
    paired_steps,
    picked_extremes,
    ranked_along,
    resolve,
)
from simkit.reporting.kit.section_specs import (
    ChartWords,
    Panels,
    Ranked,
    Reads,
    Section,
    SectionModel,
    build,
    cell_text,
    estimate_columns,
    rate_grid_table,
    rate_top,
    save,
    table,
)
from simkit.reporting.kit.wording import (
    WORDS_FILE,
    Words,
    words,
)

__all__ = [
    "Along",
    "Cell",
    "ChartWords",
    "Compared",
    "Comparisons",
    "Extremes",
    "Listed",
    "ListedItem",
    "Paired",
    "Panels",
    "Picked",
    "Ranked",
    "Ranking",
    "Reads",
    "Section",
    "SectionModel",
    "Shares",
    "Sweep",
    "Swept",
    "WORDS_FILE",
    "Words",
    "along_settings",
    "as_interval",
    "at_one_value",
    "build",
    "cell_text",
    "cells",
    "cells_by",
    "column_extremes",
    "counts",
    "difference_sentence",
    "estimate_columns",
    "games_with_settings",
    "grouped",
    "judged_along",
    "listed",
    "mean_of",
    "means",
    "neighbour_steps",
    "paired_along",
    "paired_in",
    "paired_ladder",
    "paired_outcome",
    "paired_steps",
    "parameter_columns",
    "picked_extremes",
    "pooled_over",
    "ranked_along",
    "rate_grid_table",
    "rate_top",
    "resolve",
    "save",
    "setting_keys",
    "shares",
    "sorted_values",
    "strategies_played",
    "strategy_text",
    "sweep",
    "table",
    "values",
    "varied",
    "win_grid",
    "win_rate",
    "words",
]
