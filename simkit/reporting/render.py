"""The HTML report: one self-contained `index.html` plus each chart as PNG and SVG and each
dataset's per-cell summary as CSV.

    write_report([Path("runs/a"), Path("runs/b")], Path("reports/latest"))

Layout of the page: a table of contents (every dataset and each of its sub-sections, the game's
own sections included), then one section per dataset with
  1. notes (invented component data, failed games, an unfinished run),
  2. a plain-language summary: the easiest and hardest cell and, for each setting the grid
     varies, the largest paired difference (largest first, three findings at most), each with its
     interval, game count and whether it is resolved; then the game's own findings,
  3. results by cell (the headline table: n, win rate with its 95 % Wilson interval, mean score
     with its interval, game length), also written as `<dataset>-summary.csv`,
  4. win rate by cell (chart), 5. convergence (the running win rate of each cell against games
     played with its running Wilson band; the running mean score with its t band when no game
     has a team result), 6. paired comparisons, 7. how games ended (chart and table),
  8. game length, 9. score distribution (ECDF per cell; quantile boxes past 16 cells),
  10. the game's own sections (its `analysis.py`, see sections.py),
  11. component data and its provenance, 12. how to reproduce the dataset.

The pipeline: model.py (numbers) -> findings.py (sentences) -> layout.py (one dataset's section,
its tables, charts and CSV files; its charts drawn by dataset_charts.py with the pieces of
charts.py) -> this module (the page). Decisions here:
- Datasets are loaded (and so validated) before anything is written: bad input leaves nothing
  behind. `index.html` is written under a temporary name and renamed.
- Output names: a dataset is named after its folder (made file-safe; a repeated name gets
  `-2`, `-3`...); its files are named in layout.py.
- Text from manifests, scenarios and data files reaches the page only through jinja2 with
  autoescape on; only the SVG that matplotlib wrote (which escapes its own text) is marked safe.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import jinja2
from markupsafe import Markup

from simkit.core import dataset as ds_io
from simkit.core.errors import UserError
from simkit.core.version import VERSION
from simkit.reporting import charts
from simkit.reporting.layout import Section, build_section
from simkit.reporting.model import check_columns
from simkit.reporting.text import fmt_int, fmt_interval, fmt_num, fmt_pct

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = "report.html.j2"


def _names(paths: Sequence[Path]) -> list[str]:
    """File-safe, unique names for the datasets, from their folder names."""
    names, seen = [], set()
    for p in paths:
        base = charts.slug(p.resolve().name)
        name, k = base, 1
        while name in seen:
            k += 1
            name = f"{base}-{k}"
        seen.add(name)
        names.append(name)
    return names


@functools.cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(pct=fmt_pct, num=fmt_num, int=fmt_int, interval=fmt_interval)
    return env


def _make_folder(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: cannot create the report folder (a file of that name exists)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{out}: cannot create the report folder ({exc.strerror or exc})") from None


def render(sections: Sequence[Section]) -> str:
    """The HTML page for already built sections."""
    template = _environment().get_template(TEMPLATE)
    return template.render(
        sections=sections,
        simkit_version=VERSION,
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        inline=Markup,  # only ever applied to SVG written by matplotlib
    )


def write_report(datasets: Sequence[str | Path], out: str | Path) -> Path:
    """Write `out/index.html` (self-contained) and the charts and CSVs beside it; return its path."""
    paths = [Path(p) for p in datasets]
    if not paths:
        raise UserError("report: give at least one dataset folder")
    loaded = [ds_io.load(p) for p in paths]  # every dataset is checked before anything is written
    for d in loaded:
        check_columns(d)
    out = Path(out)
    _make_folder(out)
    index = out / "index.html"
    try:
        sections = [build_section(d, name, out)[0] for d, name in zip(loaded, _names(paths), strict=True)]
        html = render(sections)
        tmp = out / f".index.html.{os.getpid()}.tmp"
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, index)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the report ({exc.strerror or exc})") from None
    return index
