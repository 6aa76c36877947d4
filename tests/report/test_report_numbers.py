"""The demo's numbers are pinned: the report of the four demo scenarios (`make demo`) writes the
same CSV files, byte for byte, as the copies in `report_numbers/`. A refactor of the report or of
a game's analysis must leave every number alone; a change that means to move them (a rule, a new
column) regenerates the copies with SIMKIT_UPDATE_GOLDEN=1, and the diff is read like a golden
playthrough's.

The scenarios are the Makefile's DEMO_RUNS at their own game counts, so this is the report a new
user first sees."""

import os
import re
from pathlib import Path

import pytest

from simkit.core import runner, scenario
from simkit.reporting import write_report
from simkit.testing.contract import UPDATE_ENV

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).parent / "report_numbers"


def demo_runs() -> list[tuple[str, Path]]:
    """(game, scenario file) of the Makefile's DEMO_RUNS, the one list of the demo's scenarios."""
    found = re.search(r"^DEMO_RUNS := (.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found, "the Makefile lost its DEMO_RUNS line"
    return [(run.split(":")[0], ROOT / "scenarios" / f"{run.split(':')[1]}.toml") for run in found[1].split()]


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("demo")
    folders = []
    for game, path in demo_runs():
        runner.run(scenario.load(path), root / "data" / game, jobs=2, progress=False)
        folders.append(root / "data" / game)
    write_report(folders, root / "report")
    return root / "report"


def test_the_demo_report_writes_the_pinned_numbers(demo_report):
    written = {p.name: p.read_text() for p in sorted(demo_report.glob("*.csv"))}
    assert len(written) >= 4 * 3, f"too few CSV files in the demo report: {sorted(written)}"
    if os.environ.get(UPDATE_ENV):
        PINNED.mkdir(exist_ok=True)
        for old in PINNED.glob("*.csv"):
            old.unlink()
        for name, text in written.items():
            (PINNED / name).write_text(text)
    pinned = {p.name: p.read_text() for p in sorted(PINNED.glob("*.csv"))}
    assert sorted(written) == sorted(pinned), "the report writes other CSV files than the pinned ones"
    changed = [name for name in written if written[name] != pinned[name]]
    assert not changed, (
        f"the demo report's numbers changed in {changed}; if that is intended, rerun with "
        f"{UPDATE_ENV}=1 and read the diff of tests/report/report_numbers/"
    )
