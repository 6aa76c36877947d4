"""One game of 8-Bit Invaders: the turn sequence, the player's decisions and the event log.

A game is a pure function of (components, settings, player, seed): all chance comes from the
streams handed in, never from global random state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from simkit.core.errors import RuleViolation
from simkit.games.eight_bit_invaders import rules
from simkit.games.eight_bit_invaders.components import Components
from simkit.games.eight_bit_invaders.state import EMPTY, State, new_game

MAX_TURNS = 10_000  # a safety net far above any real game (the track always advances in time)


# What the record counts, in the record's order (the engine declares these columns).
STATS = (
    "shields_traded",
    "shields_bombed",
    "bonus_drawn",
    "rapid_fire",
    "time_slip",
    "smart_bomb",
    "extra_life",
    "rocket_fuel",
    "countdown_removed",
)


class View(NamedTuple):
    """What the player sees at a decision: the public table, never the bonus pile's order.

    `cols[c][r]` is an alien index into `aliens` (row 0 = bottom) or -1; `shields` are 0-based
    columns; `hand` the bonus cards held. Immutable (a named tuple: cheap to build each decision).
    """

    cols: tuple[tuple[int, ...], ...]
    shields: tuple[int, ...]
    countdown: int
    track: int
    aliens_left: int
    hand: tuple[str, ...]
    bonus_pile_size: int
    bonus_discard: tuple[str, ...]
    attack_dice: int
    turn: int
    aliens: tuple  # Components.aliens: the printed card faces
    n_types: int


def view_of(state: State, comp: Components, attack_dice: int) -> View:
    return View(
        tuple(tuple(c) for c in state.cols),
        tuple(state.shields),
        state.countdown,
        state.track,
        state.aliens_left,
        tuple(state.hand),
        len(state.bonus_pile),
        tuple(state.bonus_discard),
        attack_dice,
        state.turn,
        comp.aliens,
        len(comp.types),
    )


@dataclass
class Streams:
    """The chance streams of one game (see core/seeds.py): dice for the attack, dice for the
    aliens' movement, and everything else (re-rolls, reshuffles), kept apart so that a decision
    that draws extra dice does not shift the attack and movement dice of later turns."""

    setup: random.Random
    attack: random.Random
    movement: random.Random
    misc: random.Random


def _is_index(value: Any, size: int) -> bool:
    """A plain int in range(size) (bools are not numbers here)."""
    return type(value) is int and 0 <= value < size


def _d6(rng: random.Random) -> int:
    return int(rng.random() * 6) + 1


class Game:
    """Runs one game. `log`, when a list, receives the event log (schema in RULES.md)."""

    def __init__(
        self,
        comp: Components,
        countdown: int,
        attack_dice: int,
        player: Any,
        streams: Streams,
        log: list | None = None,
    ):
        self.comp = comp
        self.attack_dice = attack_dice
        self.player = player
        self.streams = streams
        self.log = log
        # Every turn draws as many dice as the box supplies, whatever the settings and Rapid
        # Fire, so that cells with 5 and 6 attack dice see the same dice (common random numbers).
        self.dice_per_turn = comp.dice_supplied
        self.state = new_game(comp, countdown, streams.setup)
        # The view shown at the trade question, kept for the allocation when nothing changed in
        # between (no shield traded, no card played): building a view costs a copy of the table.
        self._unchanged_view: View | None = None
        self.stats = dict.fromkeys(STATS, 0)

    # --- log helpers -------------------------------------------------------------------------

    def _emit(self, event: str, **data: Any) -> None:
        """Log an event; callers that build costly arguments check `self.log` first."""
        if self.log is not None:
            self.log.append({"event": event, "turn": self.state.turn, **data})

    def _where(self, c: int, r: int) -> dict:
        a = self.comp.aliens[self.state.cols[c][r]]
        return {"column": c + 1, "row": self.comp.rows - r, "alien": a.label, "type": self.comp.types[a.type]}

    def snapshot(self) -> dict:
        s, comp = self.state, self.comp
        rows = []
        for r in range(comp.rows - 1, -1, -1):
            row = []
            for c in range(comp.columns):
                a = s.cols[c][r]
                row.append(
                    None if a == EMPTY else f"{comp.types[comp.aliens[a].type]} {comp.aliens[a].label}"
                )
            rows.append(row)
        return {
            "formation": rows,
            "shields": [c + 1 for c in s.shields],
            "columns": rules.column_count(s.cols),
            "countdown": s.countdown,
            "track": s.track,
            "aliens_left": s.aliens_left,
            "hand": list(s.hand),
            "bonus_pile_size": len(s.bonus_pile),
            "bonus_discard": list(s.bonus_discard),
        }

    # --- steps -------------------------------------------------------------------------------

    def _discard(self, card: str) -> None:
        self._unchanged_view = None
        self.state.hand.remove(card)
        self.state.bonus_discard.append(card)
        self.stats[card] += 1

    def _draw_bonus(self) -> str | None:
        """Bonus rule: an empty pile is reshuffled from the discards; none there -> no card."""
        s = self.state
        if not s.bonus_pile:
            if not s.bonus_discard:
                return None
            s.bonus_pile = s.bonus_discard
            s.bonus_discard = []
            self.streams.misc.shuffle(s.bonus_pile)
            self._emit("reshuffle_bonus", cards=len(s.bonus_pile))
        card = s.bonus_pile.pop()
        s.hand.append(card)
        self.stats["bonus_drawn"] += 1
        return card

    def _trade_shield(self) -> None:
        """[A1] Optionally discard one shield to draw a bonus card at once."""
        s = self.state
        self._unchanged_view = None
        if not s.shields:
            return
        view = view_of(s, self.comp, self.attack_dice)
        choice = self.player.trade_shield(view)
        if choice is None:
            self._unchanged_view = view
            return
        if not _is_index(choice, self.comp.columns) or choice not in s.shields:
            raise RuleViolation(f"trade_shield: no shield under column {choice!r}")
        s.shields.remove(choice)
        self.stats["shields_traded"] += 1
        card = self._draw_bonus()
        self._emit("trade_shield", column=choice + 1, drew=card)

    def _roll_attack(self) -> list[int]:
        s = self.state
        rapid = 0
        if "rapid_fire" in s.hand:
            rapid = self.player.rapid_fire(view_of(s, self.comp, self.attack_dice))
            if not _is_index(rapid, s.hand.count("rapid_fire") + 1):
                raise RuleViolation(f"rapid_fire: {rapid!r} is not a number of Rapid Fire cards held")
            for _ in range(rapid):
                self._discard("rapid_fire")
            if rapid:
                self._emit("rapid_fire", count=rapid)
        rand = self.streams.attack.random
        drawn = [int(rand() * 6) + 1 for _ in range(self.dice_per_turn)]  # _d6, inlined
        dice = drawn[: self.attack_dice + rapid]
        if self.log is not None:
            self._emit("roll", dice=list(dice))
        # Time Slip and Smart Bomb: after rolling, as often as cards are held and wanted.
        while "time_slip" in s.hand or "smart_bomb" in s.hand:
            action = self.player.adjust_roll(view_of(s, self.comp, self.attack_dice), tuple(dice))
            if action is None:
                break
            kind, arg = action if isinstance(action, tuple) and len(action) == 2 else (None, None)
            if kind == "smart_bomb" and "smart_bomb" in s.hand and _is_index(arg, len(dice)):
                self._discard("smart_bomb")
                before = dice[arg]
                dice[arg] = 7 - before
                self._emit("smart_bomb", die=arg, before=before, after=dice[arg], dice=list(dice))
            elif (
                kind == "time_slip"
                and "time_slip" in s.hand
                and isinstance(arg, tuple | list)
                and all(_is_index(i, len(dice)) for i in arg)
                and len(set(arg)) == len(arg)
            ):
                self._discard("time_slip")
                for i in sorted(arg):
                    dice[i] = _d6(self.streams.misc)
                self._emit("time_slip", rerolled=sorted(arg), dice=list(dice))
            else:
                raise RuleViolation(f"adjust_roll: {action!r} is not a playable Time Slip or Smart Bomb")
        return dice

    def _attack(self, dice: list[int]) -> None:
        """[A3] allocate, [A4] kill."""
        s, comp = self.state, self.comp
        view = self._unchanged_view or view_of(s, comp, self.attack_dice)
        self._unchanged_view = None
        answer = self.player.allocate(view, tuple(dice))
        try:
            placement = tuple(tuple(p) for p in answer)
        except TypeError:
            raise RuleViolation(f"allocate: {answer!r} is not a sequence of (die, column, row)") from None
        for p in placement:
            if len(p) != 3 or type(p[0]) is not int or type(p[1]) is not int or type(p[2]) is not int:
                raise RuleViolation(f"allocate: {answer!r} is not a sequence of (die, column, row) integers")
        error = rules.placement_error(s.cols, s.shields, dice, placement)
        if error:
            raise RuleViolation(f"allocate: {error}")
        if self.log is not None:
            for i, c, r in placement:
                self._emit("place", die=i, value=dice[i], **self._where(c, r))
        for c, r in rules.kills(s.cols, comp.aliens, dice, placement):
            where = self._where(c, r) if self.log is not None else None  # the card, before it goes
            s.cols[c][r] = EMPTY
            s.aliens_left -= 1
            if where is not None:  # logged after the change: an event's table is the table after it
                self._emit(
                    "kill", dice=sorted(dice[i] for i, cc, rr in placement if (cc, rr) == (c, r)), **where
                )

    def _living(self) -> list[tuple[int, list[int]]]:
        return rules.Formation(self.state.cols, self.comp.aliens).living()

    def _counterattack(self, living: list | None = None) -> bool:
        """[B1]; returns True if the ship is destroyed. Extra Life cancels one such loss.
        `living` is `self._living()` when the caller has it (the formation does not change
        between the counterattack, the bombers and the movement)."""
        s, comp = self.state, self.comp
        counts = rules.type_counts(living or self._living(), s.shields, comp.aliens, len(comp.types))
        lethal = max(counts) >= 3
        if self.log is not None:
            firing = [
                dict(self._where(c, r), shielded=c in s.shields) for c, r in rules.firing_positions(s.cols)
            ]
            columns = rules.column_count(s.cols)
            self._emit(
                "counterattack",
                columns=columns,
                depth=rules.firing_depth(columns),
                firing=firing,
                unshielded_by_type={comp.types[t]: n for t, n in enumerate(counts) if n},
                lethal=lethal,
            )
        if not lethal:
            return False
        if "extra_life" in s.hand:
            self._discard("extra_life")
            self._emit("extra_life")
            return False
        return True

    def _bombers(self, living: list | None = None) -> None:
        """[B2] a heavy bomber at the bottom of a column over a shield destroys that shield."""
        s = self.state
        for c in rules.bombers_over(living or self._living(), s.shields, self.comp.aliens):
            s.shields.remove(c)
            self.stats["shields_bombed"] += 1
            if self.log is not None:
                r = rules.bottom_rows(s.cols[c], 1)[0]
                self._emit("bomber", shield_destroyed=c + 1, **self._where(c, r))

    def _movement(self, living: list | None = None) -> bool:
        """[B3]; returns True if the aliens land."""
        s = self.state
        fuel = False
        if "rocket_fuel" in s.hand:
            fuel = bool(self.player.rocket_fuel(view_of(s, self.comp, self.attack_dice)))
            if fuel:
                self._discard("rocket_fuel")
                self._emit("rocket_fuel")
        rng = self.streams.movement
        drawn = [_d6(rng), _d6(rng)]
        dice = drawn[:1] if fuel else drawn
        step = rules.movement_sum(dice)
        before = s.track
        s.track += step
        removed = s.track >= s.aliens_left
        if removed:
            s.countdown -= 1
            s.track = 0
            self.stats["countdown_removed"] += 1
        if self.log is not None:
            self._emit(
                "movement",
                dice=dice,
                sum=step,
                track_before=before,
                track_after=s.track,
                aliens_left=s.aliens_left,
                countdown_removed=removed,
                countdown=s.countdown,
            )
        if s.countdown <= 0:
            return True
        odd = rules.shields_move_right(dice)
        if living is None:
            living = self._living()
        # the outermost non-empty columns bound the move (rules.moved_shields)
        new = rules.shift_shields(s.shields, living[0][0], living[-1][0], odd) if living else list(s.shields)
        old, s.shields = s.shields, new
        if self.log is not None:
            self._emit(
                "shield_move",
                direction="right" if odd else "left",
                moved=new != old,
                shields=[c + 1 for c in new],
            )
        return False

    def play(self) -> dict[str, Any]:
        s = self.state
        while s.end_reason is None:
            s.turn += 1
            if s.turn > MAX_TURNS:
                raise RuntimeError(f"game did not end within {MAX_TURNS} turns")
            if self.log is not None:
                self._emit("turn", **self.snapshot())
            self._trade_shield()
            dice = self._roll_attack()
            self._attack(dice)
            if s.aliens_left == 0:
                s.end_reason = "cleared"
                continue
            living = self._living()  # the alien actions below do not change the formation
            if self._counterattack(living):
                s.end_reason = "shot_down"
            else:
                self._bombers(living)
                if self._movement(living):
                    s.end_reason = "landed"
        won = s.end_reason == "cleared"
        self._emit("end", reason=s.end_reason, won=won)
        return {
            "won": won,
            "score": len(self.comp.aliens) - s.aliens_left,
            "length": s.turn,
            "end_reason": s.end_reason,
            "aliens_left": s.aliens_left,
            "countdown_left": s.countdown,
            "shields_left": len(s.shields),
            **self.stats,
        }
