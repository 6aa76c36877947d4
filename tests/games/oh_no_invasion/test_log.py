"""The event log is complete enough to re-check the rules: attack orders, combat discards,
zaps, counters, strikes and flights are re-derived from the logged events alone."""

from __future__ import annotations

import pytest

from simkit.core.registry import get_game

ENGINE = get_game("oh-no-invasion")


def colour_of(name: str) -> str:
    return name.split()[0]


def kind_of(card: str) -> str:
    return card.split()[-1]


def recheck(events) -> dict:
    seen = dict.fromkeys(("order", "combat", "zap", "counter", "strike", "spawn"), 0)
    for k, e in enumerate(events):
        kind = e["event"]
        if kind == "order" and "threshold" in e:
            doomed = {p for p, n in e["figures"].items() if n >= e["threshold"]}
            after = []
            for f in events[k + 1 :]:
                if f["event"] != "eliminated":
                    break
                after.append(f)
            assert {f["player"] for f in after} == doomed
            assert all(f["cause"] == "invaliens" for f in after)
            seen["order"] += 1
        elif kind == "combat":
            played = [p.split(" as ")[0] for p in e["played"]]
            expected, types = [], set()
            for card in played:
                if kind_of(card) not in types:
                    types.add(kind_of(card))
                    expected.append(card)
            for use in e["morph_box"]:
                expected += use.split(" as ")[0].split(" + ")
            assert e["discarded"] == expected
            cleared = {p.split(" as ")[1] for p in e["played"]} | {u.split(" as ")[1] for u in e["morph_box"]}
            assert sorted(cleared) == e["cleared"]
            assert all(colour_of(a) in cleared for a in e["removed"])
            seen["combat"] += 1
        elif kind == "zap":
            assert colour_of(e["weapon"]) in (colour_of(e["alien"]), "black")
            seen["zap"] += 1
        elif kind == "counter":
            kamikaze = next(f for f in reversed(events[:k]) if f["event"] == "kamikaze")
            if len(e["cards"]) == 1:
                assert colour_of(e["cards"][0]) == kamikaze["colour"] != "black"
            else:
                a, b = e["cards"]
                assert colour_of(a) == colour_of(b) or kind_of(a) == kind_of(b) or ")" in a + b
            assert (e["helping"] or e["player"]) == kamikaze["player"]
            seen["counter"] += 1
        elif kind == "strike":
            if len(e["cards"]) == 1:
                assert colour_of(e["cards"][0]) in (e["shield"], "black")
            seen["strike"] += 1
        elif kind == "spawn":
            assert e["path"][0] == e["player"]
            assert e["target"] is None or e["path"][-1] == e["target"]
            seen["spawn"] += 1
    return seen


@pytest.mark.parametrize("strategy", ["random", "cautious", "bold"])
def test_rules_recheck_from_the_log(strategy):
    total = dict.fromkeys(("order", "combat", "zap", "counter", "strike", "spawn"), 0)
    for i in range(16):
        settings = {"players": 3 + i % 3, "level": i % 4, "data": None}
        for key, n in recheck(ENGINE.replay(settings, [strategy], 21, i)).items():
            total[key] += n
    # every check ran on real events (random crews rarely reach a counter or a strike)
    required = ("order", "combat", "zap", "spawn") if strategy == "random" else tuple(total)
    assert all(total[key] > 0 for key in required), total
