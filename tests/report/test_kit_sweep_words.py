"""A group's sweep in words (`kit.sweep_sentence`), and the ticks of an axis of many numbers
(`charts.thinned_ticks`)."""

from __future__ import annotations

from simkit.core import stats
from simkit.reporting import charts, kit

# a sweep's texts by key, in the order `kit.sweep_sentence` takes them
KEYS = ("best", "against", "near", "tied", "none", "family")
WORDS = kit.Words(
    "test",
    {
        "best": "{who}: best {best:g} at {w:pct}.",
        "against": "{d:points} against {t:g} ({resolved:resolved|not resolved})",
        "near": "It is {comps}.",
        "tied": "Not resolved: {listed} ({tied} of {others}).",
        "none": "Every other is resolved.",
        "family": "({family}.)",
    },
)


def _difference(d: float, low: float, high: float) -> stats.PairedDifference:
    return stats.PairedDifference(d, low, high, 4, 1, 0, low, high)


def _sweep(against: dict, near: dict) -> kit.Sweep:
    return kit.Sweep(("bold",), 6.0, stats.wilson(1, 4), 3, near, against)


def test_sweep_sentence_says_the_best_its_neighbours_and_the_values_tied_with_it() -> None:
    up = _difference(0.25, 0.05, 0.45)
    down = _difference(0.1, -0.2, 0.4)
    swept = _sweep({5.0: (up, True), 7.0: (down, False), 9.0: (down, False)}, {"lower": 5.0, "higher": 7.0})
    said = kit.sweep_sentence(WORDS, KEYS, swept, "Holm over 3", who="Level 1")
    assert said == (
        "Level 1: best 6 at 25.0 %. It is +25.0 against 5 (resolved) and +10.0 against 7 (not resolved)."
        " Not resolved: 7, 9 (2 of 3). (Holm over 3.)"
    )


def test_sweep_sentence_without_neighbours_paired_nor_values_tied() -> None:
    up = _difference(0.25, 0.05, 0.45)
    swept = _sweep({9.0: (up, True)}, {"higher": 7.0})  # its neighbour 7 did not pair
    said = kit.sweep_sentence(WORDS, KEYS, swept, "Holm over 1", who="Level 2")
    assert said == "Level 2: best 6 at 25.0 %. Every other is resolved. (Holm over 1.)"


def test_thinned_ticks_leave_at_most_the_labels_asked() -> None:
    assert charts.thinned_ticks([0, 2.5, 5]) == (range(0, 3), ["0", "2.5", "5"])
    ticks, labels = charts.thinned_ticks(list(range(25)), 12)  # every third: 9 labels
    assert ticks == range(0, 25, 3) and labels == ["0", "3", "6", "9", "12", "15", "18", "21", "24"]
    assert charts.thinned_ticks(list(range(24)), 12)[1] == [str(v) for v in range(0, 24, 2)]
