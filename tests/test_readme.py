"""The README's Python session runs exactly as written (in a scratch folder)."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_python_session_runs_as_written(tmp_path, monkeypatch, capsys):
    session = next(
        b for b in python_blocks(README.read_text()) if b.startswith("import polars as pl\nimport simkit")
    )
    monkeypatch.chdir(tmp_path)
    exec(compile(session, "README.md", "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert "reports/api-demo/index.html" in printed
    assert (tmp_path / "reports" / "api-demo" / "index.html").is_file()
    assert (tmp_path / "runs" / "api-demo" / "manifest.json").is_file()
    assert "│ 5" in printed and "│ 6" in printed  # the grid's two cells


def test_the_readme_player_example_runs_from_its_own_file(tmp_path):
    """A user's player written from the README alone, in a fresh file outside the project."""
    import simkit

    block = next(b for b in python_blocks(README.read_text()) if b.startswith("# first_fit.py"))
    (tmp_path / "first_fit.py").write_text(block)
    out = simkit.simulate(
        "eight-bit-invaders",
        60,
        seed=5,
        jobs=2,
        strategies=f"{tmp_path / 'first_fit.py'}:FirstFit",
        out=tmp_path / "d",
    )
    data = simkit.load(out)
    assert data.failures is None and data.games.height == 60
    assert data.games["strategy"].unique().to_list() == [f"{tmp_path / 'first_fit.py'}:FirstFit"]
    page = simkit.report([out], tmp_path / "r")
    assert "FirstFit" in page.read_text()


def test_the_readme_forward_model_example_plays_a_game_to_its_end(core, capsys):
    block = next(
        b for b in python_blocks(README.read_text()) if b.startswith("from simkit.core import forward")
    )
    exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    assert "'end_reason': " in printed and "'score': " in printed
