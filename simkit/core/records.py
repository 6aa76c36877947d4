"""Game and seat rows as polars frames with the types each game declares (registry.Column).

Both engines end here: the Python engine's records (dicts) are checked against the declaration
and typed; the native engine's columns (bytes) are decoded. So a dataset's columns have the same
types whichever engine played a chunk, and a record that strays from its declaration (a column
missing, extra or of another type) fails loudly instead of landing in the dataset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from simkit.core.registry import RUNNER_GAME_COLUMNS, RUNNER_SEAT_COLUMNS, Cell, Column, Engine

DTYPES = {"bool": pl.Boolean, "int": pl.Int64, "float": pl.Float64, "str": pl.String}
SETTING_DTYPES = {"int": pl.Int64, "float": pl.Float64, "str": pl.String, "path": pl.String}


class RecordError(RuntimeError):
    """A game returned a record that does not match its declared columns (a bug in the game)."""


def settings_columns(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings as dataset columns; the built-in data file is named, not null."""
    return {k: ("built-in" if k == "data" and v is None else v) for k, v in settings.items()}


def strategy_label(strategies: Sequence[str]) -> str:
    return ",".join(strategies)


def game_schema(engine: Engine) -> dict[str, pl.DataType]:
    """Every column of a game row, in order: the runner's, the settings, `strategy`, the record."""
    schema: dict[str, Any] = {"game": pl.String, "cell": pl.String, "game_index": pl.Int64, "seed": pl.Int64}
    assert tuple(schema) == RUNNER_GAME_COLUMNS
    for setting in engine.settings:
        schema[setting.name] = SETTING_DTYPES[setting.type]
    schema["strategy"] = pl.String
    for column in engine.record:
        schema[column.name] = DTYPES[column.type]
    return schema


def seat_schema(engine: Engine) -> dict[str, pl.DataType]:
    schema: dict[str, Any] = {
        "game_index": pl.Int64,
        "cell": pl.String,
        "seat": pl.Int64,
        "strategy": pl.String,
    }
    assert tuple(schema) == RUNNER_SEAT_COLUMNS
    for column in engine.seat_record or ():
        schema[column.name] = DTYPES[column.type]
    return schema


_PY_TYPES = {"bool": (bool,), "int": (int,), "float": (float,), "str": (str,)}


def check_record(engine: Engine, columns: tuple[Column, ...], record: dict[str, Any], what: str) -> None:
    """Raise RecordError naming the first column of `record` that strays from `columns`."""
    names = [c.name for c in columns]
    if list(record) != names:
        missing = [n for n in names if n not in record]
        extra = [n for n in record if n not in names]
        detail = (
            f"missing {missing}" if missing else f"undeclared {extra}" if extra else "columns out of order"
        )
        raise RecordError(f"{engine.id}: {what} does not match its declared columns ({detail})")
    for column in columns:
        value = record[column.name]
        if value is None:
            if not column.nullable:
                raise RecordError(
                    f"{engine.id}: {what} column '{column.name}' is null, declared not nullable"
                )
            continue
        # bool is an int in Python: an int column must not hold a bool, nor a bool column an int
        if type(value) not in _PY_TYPES[column.type] and not (column.type == "float" and type(value) is int):
            raise RecordError(
                f"{engine.id}: {what} column '{column.name}' holds {type(value).__name__} "
                f"{value!r}, declared {column.type}"
            )
        if column.labels is not None and value not in column.labels:
            raise RecordError(
                f"{engine.id}: {what} column '{column.name}' = {value!r} is not one of {column.labels}"
            )


def _runner_columns(engine: Engine, cell: Cell, root_seed: int, game_index: pl.Series) -> list[pl.Series]:
    """The columns before the record: the game, cell, game index, seed, settings and strategy."""
    n = game_index.len()
    schema = game_schema(engine)

    def constant(name: str, value: Any, dtype: Any) -> pl.Series:
        return pl.Series(name, [value] * n, dtype=dtype)  # from a list: ~7x faster than pl.repeat

    out = [
        constant("game", engine.id, pl.String),
        constant("cell", cell.name, pl.String),
        game_index.alias("game_index").cast(pl.Int64),
        constant("seed", root_seed, pl.Int64),
    ]
    for name, value in settings_columns(cell.settings).items():
        out.append(constant(name, value, schema[name]))
    out.append(constant("strategy", strategy_label(cell.strategies), pl.String))
    return out


def games_frame(
    engine: Engine, cell: Cell, root_seed: int, indices: Sequence[int], records: Sequence[dict[str, Any]]
) -> pl.DataFrame:
    """Game rows from the Python engine's records (game `indices[k]` gave `records[k]`)."""
    schema = game_schema(engine)
    if not records:
        return pl.DataFrame(schema=schema)
    fixed = _runner_columns(engine, cell, root_seed, pl.Series("game_index", list(indices), dtype=pl.Int64))
    record_columns = [
        pl.Series(c.name, [r[c.name] for r in records], dtype=DTYPES[c.type], strict=True)
        for c in engine.record
    ]
    return pl.DataFrame(fixed + record_columns)


def seats_frame(engine: Engine, cell: Cell, rows: Sequence[dict[str, Any]]) -> pl.DataFrame | None:
    """Seat rows (each with game_index, seat and strategy already set) as a typed frame."""
    if not rows:
        return None
    schema = seat_schema(engine)
    return pl.DataFrame(
        [pl.Series(name, [r[name] for r in rows], dtype=dtype, strict=True) for name, dtype in schema.items()]
    )


def native_frame(
    engine: Engine, cell: Cell, root_seed: int, start: int, stop: int, columns: dict[str, tuple]
) -> pl.DataFrame:
    """Game rows from the native engine's columns ({name: (kind, labels, data)}, record order)."""
    declared = [c.name for c in engine.record]
    if list(columns) != declared:
        raise RecordError(
            f"{engine.id}: the native engine's columns {list(columns)} are not the declared {declared}"
        )
    series = _runner_columns(engine, cell, root_seed, pl.Series(np.arange(start, stop, dtype=np.int64)))
    series += _native_columns(engine, engine.record, columns, stop - start)
    return pl.DataFrame(series)


def native_seats_frame(engine: Engine, cell: Cell, columns: dict[str, tuple]) -> pl.DataFrame | None:
    """Seat rows from the native engine's seat columns (game_index, seat, strategy, then the seat
    record): the same columns, order and types as `seats_frame` gives the Python engine's rows."""
    lead = ["game_index", "seat", "strategy"]
    declared = lead + [c.name for c in engine.seat_record or ()]
    if list(columns) != declared:
        raise RecordError(
            f"{engine.id}: the native engine's seat columns {list(columns)} are not the declared {declared}"
        )
    first = (
        Column("game_index", "int"),
        Column("seat", "int"),
        Column("strategy", "int"),  # which of the cell's strategies the seat played
        *(engine.seat_record or ()),
    )
    rows = len(columns["seat"][2]) // 8
    if not rows:
        return None
    values = {s.name: s for s in _native_columns(engine, first, columns, rows)}
    specs = pl.Series(list(cell.strategies), dtype=pl.String)
    values["strategy"] = specs.gather(values["strategy"]).alias("strategy")
    schema = seat_schema(engine)
    values["cell"] = pl.Series("cell", [cell.name] * rows, dtype=pl.String)
    return pl.DataFrame([values[name].cast(dtype) for name, dtype in schema.items()])


def _native_columns(
    engine: Engine, declared: Sequence[Column], columns: dict[str, tuple], rows: int
) -> list[pl.Series]:
    """The native engine's columns decoded (kinds: see native/src/python.rs) and typed."""
    out = []
    for column in declared:
        kind, labels, raw = columns[column.name]
        if kind == "int":
            values = pl.Series(column.name, np.frombuffer(raw, dtype="<i8"), dtype=pl.Int64)
        elif kind == "float":
            values = pl.Series(column.name, np.frombuffer(raw, dtype="<f8"), dtype=pl.Float64)
        elif kind == "bool":
            values = pl.Series(column.name, np.frombuffer(raw, dtype=np.uint8).astype(bool), dtype=pl.Boolean)
        elif kind == "opt_bool":  # 2 is null
            codes = pl.Series(column.name, np.frombuffer(raw, dtype=np.uint8), dtype=pl.UInt8)
            values = codes.replace_strict({0: False, 1: True, 2: None}, return_dtype=pl.Boolean)
        elif kind == "label":
            codes = pl.Series(column.name, np.frombuffer(raw, dtype=np.uint8), dtype=pl.UInt8)
            values = codes.replace_strict(dict(enumerate(labels)), return_dtype=pl.String)
        elif kind == "str":
            values = pl.Series(column.name, raw, dtype=pl.String)
        else:
            raise RecordError(f"{engine.id}: native column '{column.name}' of unknown kind {kind!r}")
        if values.len() != rows:
            raise RecordError(f"{engine.id}: native column '{column.name}' has {values.len()} rows")
        out.append(values.cast(DTYPES[column.type]))
    return out
