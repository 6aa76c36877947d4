"""`kit.one_table`: a section model's one table, as a spec set as the class's `tables`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from simkit.reporting import kit


class Row(NamedTuple):
    name: str
    games: int


@dataclass(frozen=True)
class Model(kit.SectionModel):
    rows: list[Row]
    tables = kit.one_table("Games per row", (("name", "{name}"), ("games", "{games:,}")), "rows")


def test_one_table_lists_a_row_an_item_of_the_models_attribute() -> None:
    model = Model([Row("a", 1200), Row("b", 3)])
    (table,) = model.tables()
    assert table.caption == "Games per row" and table.columns == ["name", "games"]
    assert table.rows == [["a", "1,200"], ["b", "3"]]
    assert Model.section("k", "Title").tables(model) == [table]  # the spec reads it too
