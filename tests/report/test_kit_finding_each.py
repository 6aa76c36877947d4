"""`kit.finding_each`: a section model's findings, a finding an item of one of its attributes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from simkit.core import stats
from simkit.reporting import kit

WORDS = kit.Words("test", {"pool.finding": "{name} wins {rate:pct} ({rate.n:,} games)."})


class Pool(NamedTuple):
    name: str
    rate: stats.Interval


@dataclass(frozen=True)
class Model(kit.SectionModel):
    pools: list[Pool]
    findings = kit.finding_each(WORDS, "pool.finding", "pools")


def test_finding_each_fills_the_text_from_each_item_in_order() -> None:
    model = Model([Pool("bold", stats.wilson(1, 4)), Pool("calm", stats.wilson(600, 1200))])
    expected = ["bold wins 25.0 % (4 games).", "calm wins 50.0 % (1,200 games)."]
    assert model.findings() == expected
    assert Model.section("k", "Title").findings(model) == expected  # the spec reads it too
    assert Model([]).findings() == []
