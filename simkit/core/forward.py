"""The games' forward models, from Python: a position of the native core's game that a search of
your own can copy, ask for the decisions open to the player, answer and play on (issue 18). All four
games have one (8-Bit Invaders, Alien Attack, Oh no... INVASION!!!, Space Alert); each game's
`RULES.md`, "Forward model", says what its phases, answers, observations and deals are.

    from simkit.core import forward
    pos = forward.start("eight-bit-invaders", {"countdown": 6}, root_seed=1, game_index=17)
    while pos.phase != "over":
        pos.apply(pos.legal()[0])
    pos.record()

`start` sets up game `game_index` of `root_seed` with the deal and chance the runner's game of that
index had. A position offers `phase` (the decision waited on, or "over"), `to_move` (the seat,
crew member or figure to decide; None once over), `legal()` (the answers, each a pair `(kind,
value)` of plain values), `apply(answer)`, `observation()` (a dict of what the player to move
sees), `info_key()` (a hash of what it has seen), `record()` (the game's record so far, with
per-seat rows where the game has them), `search(seed, **numbers)` (the native `mcts` player's
answer) and `copy()` (an independent position with the same chance to come). `determinize(seed)`
resamples what the player to move cannot see (hidden card order, other hands where they are
hidden, every future die), the step a search takes before each playout so it never reads them.
An answer that is not one, an answer once the game is over, or an unknown `search` parameter
raises ValueError.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from simkit.core import native
from simkit.core.errors import UserError
from simkit.core.registry import get_game, resolve_settings


def start(
    game_id: str, settings: dict[str, Any] | None = None, root_seed: int = 0, game_index: int = 0
) -> Any:
    """The position at the first decision of game `game_index` of `root_seed` under `settings`
    (unset ones at their defaults)."""
    engine = get_game(game_id)
    core = native.core()
    if core is None:
        raise UserError(
            "forward models live in the native core, which is not built (install with a Rust toolchain)"
        )
    params = engine.params(resolve_settings(engine, dict(settings or {}), "forward"))
    try:
        return core.forward_start(
            engine.id, engine.native_data(params), native.plain(asdict(params)), root_seed, game_index
        )
    except ValueError as error:
        raise UserError(f"forward: {error}") from None
