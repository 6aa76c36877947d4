"""The contract test kit: what every registered game must honour, checked the same way for each.

Plain functions that take an `Engine` and raise `AssertionError` naming what broke; they import no
test framework, so a game's own tests (a game from outside included) call them from any runner:

    from simkit.testing import contract

    def test_my_game_keeps_the_contract():
        contract.check_all(ENGINE, golden_folder=Path(__file__).parent / "golden")

The checks play the arguments of the game's declared golden cases (`Engine.golden_cases`), so a
game declares nothing else for them:

- `check_determinism`: the same arguments give the same record, seats and events twice;
- `check_global_random`: a game neither reads nor changes Python's global `random` state or
  numpy's global state;
- `check_records`: every row matches the declared `record` (and `seat_record`, one row a seat);
- `check_replay`: replay's events are JSON (strict: no NaN), and where a hook `outcome(events)`
  is given, what it reads from the log equals the same fields of play's record;
- `check_same_deal`: game `index` deals the same whatever the strategies (common random
  numbers). What "the deal" is differs by game, so the caller gives `deal(events) -> value`;
- `check_goldens`: each golden case's replay equals the stored `<name>.json` in the folder; a
  game without golden cases fails. `SIMKIT_UPDATE_GOLDEN=1` rewrites the files (read the diff);
- `check_component_copy` (games with a component file): a copy of the built-in file elsewhere
  loads as itself and plays the same games;
- `told` (games that narrate): a game's every event is told in words, alone and in the story,
  never as the fields of an event the narration does not know;
- `check_refused`: the built-in component file with one change is refused in one line naming
  the file and the key (a game's tests give the changes, a table of them).
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from simkit.core.errors import UserError
from simkit.core.narration import event_fields
from simkit.core.records import RecordError, check_record
from simkit.core.registry import Engine, GoldenCase

UPDATE_ENV = "SIMKIT_UPDATE_GOLDEN"


def golden_folder(engine: Engine) -> Path:
    """Where a game's goldens live unless the caller names another folder: `golden/` next to the
    module that defines its engine class (an outside game ships them inside its package)."""
    module = sys.modules[type(engine).__module__]
    return Path(module.__file__ or ".").parent / "golden"


def cases(engine: Engine) -> tuple[GoldenCase, ...]:
    """The game's declared golden cases: the arguments every check plays. None fails the kit."""
    found = tuple(engine.golden_cases)
    assert found, (
        f"{engine.id}: the game declares no golden_cases; every registered game keeps at least one "
        "golden playthrough (see simkit/testing/contract.py)"
    )
    return found


def _offers_replay(engine: Engine) -> bool:
    return type(engine).replay is not Engine.replay


def _json(events: list[dict]) -> str:
    return json.dumps(events, indent=1, sort_keys=True, allow_nan=False) + "\n"


def check_determinism(engine: Engine, games: int = 3) -> None:
    """Same arguments, same game: the record, the seats and (where replay is offered) the events."""
    for case in cases(engine):
        for index in range(case.index, case.index + games):
            args = (case.settings, list(case.strategies), case.seed, index)
            first, second = engine.play(*args), engine.play(*args)
            assert first.record == second.record, f"{engine.id} {case.name} game {index}: record differs"
            assert first.seats == second.seats, f"{engine.id} {case.name} game {index}: seats differ"
            if _offers_replay(engine):
                assert engine.replay(*args) == engine.replay(*args), (
                    f"{engine.id} {case.name} game {index}: replay's events differ"
                )


def _global_states() -> tuple[Any, Any]:
    import numpy as np

    state = np.random.get_state()
    return random.getstate(), (state[0], state[1].tobytes(), *state[2:])


def check_global_random(engine: Engine, games: int = 2) -> None:
    """A game draws only from its own seeded streams: reseeding the global generators changes
    nothing, and playing leaves them where they were."""
    import numpy as np

    case = cases(engine)[0]
    for index in range(case.index, case.index + games):
        args = (case.settings, list(case.strategies), case.seed, index)
        outcomes = []
        for global_seed in (index, index + 1000):
            random.seed(global_seed)
            np.random.seed(global_seed)
            before = _global_states()
            result = engine.play(*args)
            assert _global_states() == before, f"{engine.id}: play moved the global random state"
            events = None
            if _offers_replay(engine):
                events = engine.replay(*args)
                assert _global_states() == before, f"{engine.id}: replay moved the global random state"
            outcomes.append((result.record, result.seats, events))
        assert outcomes[0] == outcomes[1], (
            f"{engine.id} {case.name} game {index}: the game follows the global random state"
        )


def check_records(engine: Engine, games: int = 5) -> None:
    """Every row matches the declared columns; a competitive game gives one seat row per seat."""
    for case in cases(engine):
        for index in range(case.index, case.index + games):
            result = engine.play(case.settings, list(case.strategies), case.seed, index)
            where = f"{case.name} game {index}"
            try:
                check_record(engine, engine.record, result.record, f"the record of {where}")
                if engine.seat_record is not None:
                    assert result.seats is not None, f"{engine.id} {where}: no seat records"
                    for seat, row in enumerate(result.seats):
                        check_record(engine, engine.seat_record, row, f"seat {seat}'s record of {where}")
                else:
                    assert not result.seats, f"{engine.id} {where}: seat records with no seat_record"
            except RecordError as exc:
                raise AssertionError(str(exc)) from None
            if engine.competitive:
                assert len(result.seats or ()) == len(case.strategies), (
                    f"{engine.id} {where}: {len(result.seats or ())} seat rows for "
                    f"{len(case.strategies)} seats"
                )


def check_replay(
    engine: Engine, outcome: Callable[[list[dict]], dict[str, Any]] | None = None, games: int = 3
) -> None:
    """Replay's events are strict JSON (they round-trip unchanged); with `outcome`, the fields it
    reads from the log equal play's record (or, for a key `seats`, play's seat rows' fields)."""
    if not _offers_replay(engine):
        return
    for case in cases(engine):
        for index in range(case.index, case.index + games):
            args = (case.settings, list(case.strategies), case.seed, index)
            events = engine.replay(*args)
            where = f"{engine.id} {case.name} game {index}"
            assert isinstance(events, list) and events, f"{where}: replay gave no events"
            try:
                text = _json(events)
            except (TypeError, ValueError) as exc:
                raise AssertionError(f"{where}: replay's events are not JSON ({exc})") from None
            assert json.loads(text) == events, f"{where}: replay's events change through JSON"
            if outcome is None:
                continue
            result = engine.play(*args)
            for key, value in outcome(events).items():
                if key == "seats":
                    got = [{k: row[k] for k in value[0]} for row in result.seats or ()]
                    assert got == value, f"{where}: the log's seats {value} != play's {got}"
                else:
                    assert result.record[key] == value, (
                        f"{where}: the log says {key} = {value!r}, play's record {result.record[key]!r}"
                    )


def check_same_deal(
    engine: Engine,
    deal: Callable[[list[dict]], Any],
    variants: Iterable[tuple[dict[str, Any], Sequence[str]]],
    seed: int = 8,
    indexes: Iterable[int] = (0, 1, 2),
) -> None:
    """Common random numbers: game `index` deals the same under every (settings, strategies)
    variant; `deal(events)` reads the deal from a replay."""
    variants = list(variants)
    assert len(variants) > 1, f"{engine.id}: the same-deal check needs two variants or more"
    for index in indexes:
        deals = [deal(engine.replay(s, list(st), seed, index)) for s, st in variants]
        for (settings, strategies), got in zip(variants[1:], deals[1:], strict=True):
            assert got == deals[0], (
                f"{engine.id} game {index}: {list(strategies)} {settings} deals {got!r}, "
                f"{list(variants[0][1])} {variants[0][0]} dealt {deals[0]!r}"
            )


def golden_path(folder: Path, case: GoldenCase) -> Path:
    return Path(folder) / f"{case.name}.json"


def check_goldens(engine: Engine, folder: Path | None = None, update: bool | None = None) -> None:
    """Each golden case replays to its stored event log; a missing case or file fails. With
    `update` (default: `SIMKIT_UPDATE_GOLDEN` set), the files are written first."""
    folder = golden_folder(engine) if folder is None else Path(folder)
    update = bool(os.environ.get(UPDATE_ENV)) if update is None else update
    assert _offers_replay(engine), f"{engine.id}: goldens need replay, and the game has none"
    wrong = []
    for case in cases(engine):
        events = engine.replay(case.settings, list(case.strategies), case.seed, case.index)
        path = golden_path(folder, case)
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_json(events))
        assert path.is_file(), f"{engine.id}: missing golden file {path}; run with {UPDATE_ENV}=1"
        if json.loads(path.read_text()) != events:
            wrong.append(case.name)
    assert not wrong, (
        f"{engine.id}: replays differ from the goldens {wrong} in {folder}; if the change is "
        f"intended, rerun with {UPDATE_ENV}=1 and read the diff"
    )


def told(
    engine: Engine, settings: dict[str, Any], strategies: Sequence[str], seed: int, index: int = 0
) -> tuple[list[dict], list[str]]:
    """The events of one game and their story, once every event is told in words: each event
    alone gives lines with text, and neither those nor the story hold the fields form of an
    event (`narration.event_fields`, what an event the narration does not know becomes)."""
    events = engine.replay(settings, list(strategies), seed, index)
    for event in events:
        lines = engine.narrate([event])
        assert lines and all(line.strip() for line in lines), f"{engine.id}: {event} is told as {lines}"
        assert event_fields(event) not in lines, f"{engine.id}: no words for {event}"
    story = engine.narrate(events)
    untold = {event_fields(e) for e in events} & set(story)
    assert not untold, f"{engine.id}: the story holds events without words: {sorted(untold)[:3]}"
    return events, story


def _builtin_file(engine: Engine) -> Path:
    return Path(engine.load_components(engine.params()).path)


def check_component_copy(engine: Engine, folder: Path, games: int = 2) -> None:
    """A copy of the built-in component file at another path loads, names that path and plays
    the golden cases' games exactly as the built-in file does (`--set data=` changes nothing but
    the provenance)."""
    copy = Path(folder) / "copy.toml"
    copy.write_bytes(_builtin_file(engine).read_bytes())
    loaded = engine.load_components(engine.params({"data": str(copy)}))
    assert loaded.path == str(copy.resolve()), f"{engine.id}: the copy loads as {loaded.path}"
    for case in cases(engine)[:games]:
        builtin = engine.play(case.settings, list(case.strategies), case.seed, case.index)
        mine = engine.play({**case.settings, "data": str(copy)}, list(case.strategies), case.seed, case.index)
        assert (mine.record, mine.seats) == (builtin.record, builtin.seats), (
            f"{engine.id} {case.name}: the copy of the built-in file plays another game"
        )


def check_refused(engine: Engine, folder: Path, old: str, new: str, key: str | None) -> str:
    """The built-in component file with `old` (found there exactly once) made `new`, written into
    `folder`, is refused with a one-line error naming the file and, where given, `key`. Returns
    the message for any further check."""
    text = _builtin_file(engine).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{engine.id}: the built-in file no longer holds {old!r} exactly once"
    path = Path(folder) / "broken.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    try:
        engine.load_components(engine.params({"data": str(path)}))
    except UserError as exc:
        message = str(exc)
    else:
        raise AssertionError(f"{engine.id}: a file with {old!r} made {new!r} was not refused")
    assert "\n" not in message, f"{engine.id}: not one line: {message!r}"
    assert str(path.resolve()) in message, f"{engine.id}: the file is not named: {message!r}"
    assert key is None or key in message, f"{engine.id}: {key!r} is not named: {message!r}"
    return message


def check_all(
    engine: Engine,
    golden_folder: Path | None = None,
    deal: Callable[[list[dict]], Any] | None = None,
    deal_variants: Iterable[tuple[dict[str, Any], Sequence[str]]] | None = None,
    outcome: Callable[[list[dict]], dict[str, Any]] | None = None,
) -> None:
    """Every check above, for one game (the same-deal check where `deal` and its variants are given)."""
    check_goldens(engine, golden_folder)
    check_determinism(engine)
    check_global_random(engine)
    check_records(engine)
    check_replay(engine, outcome)
    if deal is not None and deal_variants is not None:
        check_same_deal(engine, deal, deal_variants)
