"""The analysis kit: the pieces every game's `analysis.py` builds its report sections from, so a
game's analysis says only what is its own (which settings, which verdicts, which words). A game
uses them as `kit.<name>`; each lives in one module of the kit:

- `wording`: a game's report words (`words`, `Words`), kept in `report_words.toml` beside its
  analysis.
- `section_specs`: sections as specs (`Section`, `SectionModel`, `build`), how a value reads
  (`Label`, `label_text`), tables (`table`, `estimate_columns`, `rate_grid_table`,
  `win_at_columns`, `listed_table`) and chart specs (`Panels`, `Ranked`, `Stacked`, `RateDots`,
  `ChartWords`).
- `cell_data`: the games with their settings, the cells (`Cell`, `cells`), and counts and
  estimates over them (`win_grid`, `grid_extremes`, `win_rate`, `mean_of`, `means`, `counts`,
  `listed`, `id_counts`), the share of each category of a column in each group of games (`shares`,
  `Shares`), and settings columns typed (`typed_columns`).
- `pairing`: comparisons along one setting, paired by seed (`paired_along`, `paired_in`,
  `along_settings` and `judged_along`, `ranked_along`, the steps between neighbouring values), and
  `resolve`.
- `families`: families of named comparisons and their words (`Comparisons`, `Compared`,
  `pairs_along`, `difference_sentence`, `pooled_over`), a swept setting's best value (`sweep`,
  `sweep_sentence`), and the gap between a top and a bottom picked among columns
  (`column_extremes`; `pairing.picked_extremes`).
- `sweep_section` and `score_section`: two kinds of section a game declares by a subclass (its
  columns and words as class attributes): a swept setting (`SweepSection`: each group's best
  value, a panel per value of the first grouping setting, and its tables) and the score's
  distribution (`ScoreSection`: where each series scores most, the share of games at each score,
  the mean per group).

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
    grid_extremes,
    grouped,
    id_counts,
    listed,
    mean_of,
    means,
    parameter_columns,
    setting_keys,
    shares,
    sorted_values,
    strategies_played,
    strategy_text,
    typed_columns,
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
    pairs_along,
    pooled_over,
    sweep,
    sweep_sentence,
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
from simkit.reporting.kit.score_section import ScoreSection
from simkit.reporting.kit.section_specs import (
    ChartWords,
    Label,
    Panels,
    Ranked,
    RateDots,
    Reads,
    Section,
    SectionModel,
    Stacked,
    build,
    cell_text,
    estimate_columns,
    label_text,
    listed_table,
    rate_grid_table,
    rate_top,
    save,
    table,
    win_at_columns,
)
from simkit.reporting.kit.sweep_section import SweepSection
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
    "Label",
    "Listed",
    "ListedItem",
    "Paired",
    "Panels",
    "Picked",
    "Ranked",
    "RateDots",
    "Ranking",
    "Reads",
    "Section",
    "ScoreSection",
    "SectionModel",
    "Shares",
    "Stacked",
    "Sweep",
    "SweepSection",
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
    "grid_extremes",
    "grouped",
    "id_counts",
    "judged_along",
    "label_text",
    "listed",
    "listed_table",
    "mean_of",
    "means",
    "neighbour_steps",
    "paired_along",
    "paired_in",
    "paired_ladder",
    "paired_outcome",
    "paired_steps",
    "pairs_along",
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
    "sweep_sentence",
    "table",
    "typed_columns",
    "values",
    "varied",
    "win_at_columns",
    "win_grid",
    "win_rate",
    "words",
]
