"""`kit.extremes_by`: each group's highest and lowest measure, the gaps one Holm family."""

from __future__ import annotations

import polars as pl

from simkit.reporting import kit


def test_extremes_by_picks_each_groups_ends_and_resolves_the_gaps_together() -> None:
    wide = pl.DataFrame({"a": [5.0, 6.0, 7.0, 6.0, 5.5, 6.5], "b": [0.0, 1.0, 0.0, 1.0, 0.5, 0.5]})
    tied = pl.DataFrame({"a": [1.0, 2.0], "b": [1.0, 2.0]})
    compared = kit.extremes_by({"wide": wide, "tied": tied}, {"A": "a", "B": "b"})
    assert list(compared.verdicts) == ["wide", "tied"]
    ends, resolved = compared.verdicts["wide"]
    assert (ends.most, ends.least, ends.gap.estimate, ends.pairs) == ("A", "B", 5.5, 1)
    assert resolved
    ends, resolved = compared.verdicts["tied"]
    assert ends.most == ends.least == "A" and not resolved  # no gap: left out of the family
    assert compared.family.endswith("over 1 comparison")  # the tie has no test
