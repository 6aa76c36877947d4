"""The native engine's seat rows (DESIGN.md, "Native engines"): a native chunk carries the same
seat frame as the Python engine's, columns, order and types included; a game without seat rows
has none on either engine."""

from simkit.core import runner, scenario


def _chunks(game, settings, strategies, games):
    cell = scenario.single_cell(game, games, 3, settings, strategies).cells[0]
    return [runner.play_chunk(game, cell, 3, 0, games, {}, kind) for kind in ("native", "python")]


def test_a_native_chunk_has_the_python_seat_rows(core):
    native, python = _chunks("alien-attack", {"variant": "semi-coop"}, ["random", "greedy", "missions"], 12)
    assert native.engine == "native" and python.engine == "python"
    assert native.games.equals(python.games)
    assert native.seats.schema == python.seats.schema
    assert native.seats.equals(python.seats)
    assert native.seats.height == 36
    # seats rotate with the game index: game 1 starts from the second strategy
    assert native.seats.filter(native.seats["game_index"] == 1)["strategy"].to_list() == [
        "greedy",
        "missions",
        "random",
    ]


def test_a_native_game_without_seat_rows_has_none(core):
    native, python = _chunks("eight-bit-invaders", {}, ["greedy"], 5)
    assert native.engine == "native" and native.seats is None and python.seats is None
