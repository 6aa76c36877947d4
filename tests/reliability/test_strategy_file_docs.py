"""Issue 19, point 6: the README and `--help` say what a strategy file is (code run with the
user's rights in the main process and every worker, Dask workers included) and what views
guarantee (no accidental peeking; deliberate introspection is not prevented in-process)."""

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from simkit.cli import app

README = Path(__file__).resolve().parents[2] / "README.md"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("command", ["simulate", "replay", "calibrate", "run"])
def test_help_says_a_strategy_file_runs_as_code_everywhere(command):
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = flat(result.output)
    assert "path/file.py:Class" in text
    assert "Python code with your rights" in text
    assert "Dask workers included" in text
    if command != "run":  # the scenario command names no --strategy option
        assert "by accident" in text and "deliberate introspection of the interpreter" in text


def test_the_readme_says_what_a_strategy_file_is_and_what_views_guarantee():
    text = flat(README.read_text())
    start = text.index("**A strategy file is code.**")
    section = text[start : start + 1500]
    for phrase in (
        "runs that file as Python with your rights, in the main process and in every worker",
        "Dask workers",
        "a player sees what a player at the table sees",
        "`object.__setattr__`",
        "deliberate introspection of the interpreter",
        "not prevented in-process",
    ):
        assert phrase in section, phrase
