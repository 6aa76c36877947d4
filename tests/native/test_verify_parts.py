"""The equivalence check's parts (core/verify.py): slow strategies on fewer games a cell
(`Engine.verify_games`, `verify_settings`), mixed cells (`verify_mixed`)."""

from simkit.core import scenario, verify
from simkit.core.registry import get_game


def test_a_slow_strategy_and_the_mixed_cells_are_parts_of_their_own(core):
    engine = get_game("alien-attack")
    parts = verify.parts_for(engine, 2000, 7)
    assert list(parts) == ["", "rollout", "mixed"]
    assert parts[""]["grid"]["strategy"] == ["random", "greedy", "missions"]
    assert parts[""]["scenario"]["games"] == 2000
    assert parts["rollout"]["scenario"]["games"] == engine.verify_games["rollout"]
    assert parts["rollout"]["grid"]["strategy"] == ["rollout:rollouts=1", "rollout"]
    assert parts["mixed"]["scenario"]["games"] == 2000
    cells = scenario.parse(parts["mixed"], "mixed").cells
    assert {len(c.strategies) for c in cells} == {len(m) for m in engine.verify_mixed}
    assert all(c.settings["players"] == len(c.strategies) for c in cells)
    # fewer games asked than a slow strategy's cap: the check's count
    assert verify.parts_for(engine, 2, 7)["rollout"]["scenario"]["games"] == 2
    # only some strategies: the parts that hold them
    assert list(verify.parts_for(engine, 10, 7, ["rollout"])) == ["rollout"]
    assert list(verify.parts_for(engine, 10, 7, ["greedy", "missions"])) == ["", "mixed"]


def test_a_game_without_slow_strategies_has_one_part(core):
    engine = get_game("eight-bit-invaders")
    assert list(verify.parts_for(engine, 100, 7)) == [""]
    assert verify.parts_for(engine, 100, 7)[""] == verify.spec_for(engine, 100, 7)


def test_further_factors_are_parts_over_the_main_strategies(core):
    engine = get_game("space-alert")
    parts = verify.parts_for(engine, 50, 7)
    assert list(parts) == ["", "missions", "decks", "crews", "planner"]
    for name, grid in engine.verify_factors.items():
        cells = scenario.parse(parts[name], name).cells
        assert {c.strategies[0] for c in cells} == set(parts[""]["grid"]["strategy"])
        for key, values in grid.items():
            assert {c.settings[key] for c in cells} == set(values)
    # every mission kind is checked somewhere, and five players bring five figures
    missions = set(parts[""]["grid"]["mission"]) | set(engine.verify_factors["missions"]["mission"])
    assert missions == set(next(s for s in engine.settings if s.name == "mission").choices)
    crews = scenario.parse(parts["crews"], "crews").cells
    assert {(c.settings["players"], c.settings["figures"]) for c in crews} == {(1, 4), (2, 4), (3, 4), (5, 5)}


def test_a_slice_of_the_check_keeps_the_cells_with_its_values(core):
    engine = get_game("eight-bit-invaders")
    whole = verify.parts_for(engine, 100, 7)[""]
    (part,) = verify.parts_for(engine, 100, 7, ["lookahead"], {"countdown": "7"}).values()
    assert part["grid"] == {**whole["grid"], "countdown": [7], "strategy": ["lookahead"]}
    cells = scenario.parse(part, "slice").cells
    assert {(c.settings["countdown"], c.settings["dice"]) for c in cells} == {(7, 6), (7, 5)}
    # the slices of a setting together hold every cell of the whole
    sliced = [verify.parts_for(engine, 100, 7, None, {"countdown": str(v)}) for v in (7, 6)]
    keys = sorted(
        (c.settings["countdown"], c.settings["dice"], c.strategies)
        for parts in sliced
        for c in scenario.parse(parts[""], "s").cells
    )
    assert keys == sorted(
        (c.settings["countdown"], c.settings["dice"], c.strategies) for c in scenario.parse(whole, "w").cells
    )
    # a value no cell has, or a setting only some parts vary: those parts are left out
    assert verify.parts_for(engine, 100, 7, None, {"countdown": "5"}) == {}
    sa = get_game("space-alert")
    assert set(verify.parts_for(sa, 10, 7, None, {"players": "5"})) == {"crews"}
