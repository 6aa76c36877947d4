"""The runner's contract: shared seeds across cells, the dataset layout, resuming from the chunks
on disk, and refusing another run's folder. (Backends and job counts: test_backends.py; kills,
failures and bad input: test_trust.py.)"""

import json

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simkit.core import dataset, runner, scenario
from simkit.core.errors import UserError


def small_scenario(games=120, chunk=40, strategies=("greedy", "random")):
    return scenario.parse(
        {
            "scenario": {
                "name": "t",
                "game": "eight-bit-invaders",
                "games": games,
                "seed": 5,
                "chunk_size": chunk,
            },
            "grid": {"countdown": [7, 6], "strategy": list(strategies)},
            "fixed": {"dice": 6},
        },
        "test",
    )


def rows(out):
    return dataset.load(out).games


def test_cells_share_seeds_so_game_i_sees_the_same_deal(tmp_path):
    runner.run(small_scenario(), tmp_path / "d", backend="sequential", progress=False)
    games = rows(tmp_path / "d")
    # the same root seed and game index in every cell
    by_cell = games.group_by("cell").agg(
        pl.col("seed").unique().len().alias("seeds"), pl.col("game_index").max()
    )
    assert by_cell["seeds"].to_list() == [1] * 4
    assert set(by_cell["game_index"].to_list()) == {119}


def test_dataset_layout_and_manifest(tmp_path):
    out = tmp_path / "d"
    runner.run(
        small_scenario(games=50, chunk=20), out, backend="sequential", progress=False, command="simkit run x"
    )
    ds = dataset.load(out)
    names = sorted(p.name for p in (out / "games").iterdir())
    assert names[:3] == ["c000-000000000.parquet", "c000-000000020.parquet", "c000-000000040.parquet"]
    assert ds.manifest["root_seed"] == 5 and ds.manifest["games_per_cell"] == 50
    assert [c["label"] for c in ds.manifest["cells"]] == [
        "countdown=7 strategy=greedy",
        "countdown=7 strategy=random",
        "countdown=6 strategy=greedy",
        "countdown=6 strategy=random",
    ]
    assert all(len(h) == 64 for h in ds.manifest["data_files"].values())
    for column in (
        "game",
        "cell",
        "game_index",
        "seed",
        "countdown",
        "dice",
        "data",
        "strategy",
        "won",
        "score",
        "length",
        "end_reason",
    ):
        assert column in ds.games.columns
    assert ds.games["data"].unique().to_list() == ["built-in"]


def test_resume_plays_only_missing_chunks_and_matches_a_full_run(tmp_path):
    full, partial = tmp_path / "full", tmp_path / "partial"
    runner.run(small_scenario(), full, backend="sequential", progress=False)
    runner.run(small_scenario(), partial, backend="sequential", progress=False)
    # lose some finished chunks, and leave a temporary file as a killed write would
    victims = sorted((partial / "games").iterdir())[::3]
    for path in victims:
        path.unlink()
    (partial / "games" / ".c000-000000000.parquet.123.tmp").write_bytes(b"partial")
    summary = runner.run(small_scenario(), partial, backend="sequential", progress=False)
    assert summary.games == 40 * len(victims)
    assert not list((partial / "games").glob(".*.tmp"))
    assert_frame_equal(rows(full), rows(partial))


def test_a_manifest_from_before_stopping_rules_were_named_resumes_and_gains_the_name(tmp_path):
    out = tmp_path / "d"
    runner.run(small_scenario(games=40, chunk=20), out, backend="sequential", progress=False)
    path = out / dataset.MANIFEST
    manifest = json.loads(path.read_text())
    assert manifest["stopping"] == "fixed"
    del manifest["stopping"]  # as written before the key existed
    path.write_text(json.dumps(manifest))
    (out / "games" / "c001-000000020.parquet").unlink()
    summary = runner.run(small_scenario(games=40, chunk=20), out, backend="sequential", progress=False)
    assert summary.games == 20
    assert json.loads(path.read_text())["stopping"] == "fixed"
    # a named rule is compared like any other field: a precision run may not resume a fixed one
    with pytest.raises(UserError, match="different run"):
        runner.run(
            scenario.with_precision(small_scenario(games=40, chunk=20), 0.2, None, "test"),
            out,
            backend="sequential",
            progress=False,
        )


def test_a_folder_from_another_run_is_refused(tmp_path):
    out = tmp_path / "d"
    runner.run(small_scenario(games=20, chunk=20), out, backend="sequential", progress=False)
    with pytest.raises(UserError, match="different run .*games_per_cell"):
        runner.run(small_scenario(games=40, chunk=20), out, backend="sequential", progress=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not empty"):
        runner.run(
            small_scenario(games=20, chunk=20), tmp_path / "other", backend="sequential", progress=False
        )
    assert [p.name for p in (tmp_path / "other").iterdir()] == ["notes.txt"], "nothing left in their folder"


def test_seats_rotate_in_balanced_order():
    assert [runner.seat_order(("a", "b", "c"), i) for i in range(4)] == [
        ("a", "b", "c"),
        ("b", "c", "a"),
        ("c", "a", "b"),
        ("a", "b", "c"),
    ]


def by_strategy_scenario(table, game="eight-bit-invaders", strategies=("greedy", "random", "lookahead")):
    return scenario.parse(
        {
            "scenario": {"name": "t", "game": game, "games": 60, "seed": 5},
            "grid": {"countdown": [7, 6], "strategy": list(strategies)}
            if game == "eight-bit-invaders"
            else {"strategy": [list(s) for s in strategies]},
            "games_by_strategy": table,
        },
        "test.toml",
    )


def test_games_by_strategy_gives_those_cells_their_own_count_on_the_same_seeds(tmp_path):
    """A slow player sits in the same grid on fewer games: its cells play games 0..n-1 of the
    same seeds, in chunks sized for their own count, and the run resumes and reports whole."""
    from simkit.reporting import findings, model

    sc = by_strategy_scenario({"lookahead": 25, "random": 40})
    own = {"c000": 60, "c001": 40, "c002": 25, "c003": 60, "c004": 40, "c005": 25}
    assert {c.name: sc.games_of(c.name) for c in sc.cells} == own
    assert sc.chunk_of("c002") == 25 and sc.chunk_of("c000") == sc.chunk_size
    out = tmp_path / "d"
    assert runner.run(sc, out, backend="sequential", progress=False).games_per_cell == own
    ds = dataset.load(out)
    assert [c.get("games") for c in ds.manifest["cells"]] == [None, 40, 25, None, 40, 25]
    runner.run(by_strategy_scenario({}), tmp_path / "full", backend="sequential", progress=False)
    full = rows(tmp_path / "full")
    assert full.height == 6 * 60
    # game i of a cell is the same game whatever the cell's count
    first = full.filter(pl.col("game_index") < pl.col("cell").replace_strict(own, return_dtype=pl.Int64))
    assert_frame_equal(ds.games, first)
    again = runner.run(sc, out, backend="sequential", progress=False)
    assert again.games == 0 and again.skipped_chunks == 2 * (3 + 2 + 1)  # chunks of 25
    summary = model.cell_summary(ds, model.cell_infos(ds.manifest, ds.games))
    assert summary["planned"].to_list() == list(own.values())
    assert not any("unfinished" in note for note in findings.dataset_notes(ds, summary))
    # a cell short of its own count is named unfinished
    (out / "games" / "c002-000000000.parquet").unlink()
    short = dataset.load(out)
    notes = findings.dataset_notes(
        short, model.cell_summary(short, model.cell_infos(short.manifest, short.games))
    )
    assert any("1 of 6 cells hold fewer than the games planned for them" in note for note in notes), notes


def test_games_by_strategy_takes_the_least_where_several_name_a_cell_and_refuses_what_names_nothing():
    pairs = (("greedy", "random"), ("missions", "random"), ("greedy", "missions"))
    sc = by_strategy_scenario({"greedy": 30, "missions": 20}, "alien-attack", pairs)
    assert [sc.games_of(c.name) for c in sc.cells] == [30, 20, 20]
    for table, words in (
        ({"greedy": 0}, "'greedy' must be an integer in 1"),
        ({"greedy": "5"}, "'greedy' must be an integer in 1"),
        ({"greedy:bogus=1": 5}, "bogus"),
        ({"nope": 5}, "nope"),
        ({"mcts": 5}, "'mcts': no cell of the grid plays it"),
    ):
        with pytest.raises(UserError, match=words):
            by_strategy_scenario(table)
