"""Scripted crews for Space Alert. Every figure's planner sees only a `View` (game.py).

One decision (see RULES.md, "Player interface"):
  plan(view) -> list of card codes, one per turn of `view.turns` (state.EMPTY for none)
The engine checks that the codes are halves of distinct cards in `view.hand` (any plain half with
free hands) and that the heroic card is played at most once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from simkit.core.strategies import number
from simkit.games.space_alert.components import Components
from simkit.games.space_alert.game import View
from simkit.games.space_alert.state import (
    BB,
    BLUE,
    EMPTY,
    HA,
    HB,
    HBB,
    LIFT,
    RED,
    TELEPORT,
    ZONE_NAMES,
    A,
    B,
    C,
    KnownThreat,
)

PLAIN = (A, B, C, BB, RED, BLUE, LIFT)
SPACE = 6  # a figure out in the interceptors
UPPER_RED, UPPER_WHITE, UPPER_BLUE, LOWER_RED, LOWER_WHITE, LOWER_BLUE = range(6)


class Hand:
    """The cards a planner may still use this phase: `take(code)` spends a card with that half.
    With free hands every plain half is always there; the heroic card only once."""

    def __init__(self, view: View) -> None:
        self.free = view.free
        self.cards = [c for c in view.hand if c[0] < TELEPORT]
        self.heroic = next((c for c in view.hand if c[0] >= TELEPORT), None)
        self.halves = [0] * 16  # cards holding each plain half
        for top, bottom in self.cards:
            self.halves[top] += 1
            self.halves[bottom] += 1

    def has(self, code: int) -> bool:
        if code == EMPTY:
            return True
        if self.heroic is not None and code in self.heroic:
            return True
        if self.free:
            return code in PLAIN
        return code < 16 and self.halves[code] > 0

    def take(self, code: int) -> bool:
        if code == EMPTY:
            return True
        if self.free and code in PLAIN:
            return True
        if not self.free:
            # keep variety: spend the matching card whose other half the hand has most copies of
            best = -1
            spare = -1
            for i, c in enumerate(self.cards):
                if code in c:
                    other = c[1] if c[0] == code else c[0]
                    copies = self.halves[other]
                    if copies > spare:
                        best, spare = i, copies
            if best >= 0:
                top, bottom = self.cards.pop(best)
                self.halves[top] -= 1
                self.halves[bottom] -= 1
                return True
        if self.heroic is not None and code in self.heroic:
            self.heroic = None
            return True
        return False


def step_toward(here: int, there: int) -> int:
    """The move card that brings a figure one step from station `here` toward `there`."""
    if here // 3 != there // 3:
        return LIFT
    return RED if there % 3 < here % 3 else BLUE


def apply_move(here: int, code: int) -> int:
    if code >= TELEPORT:
        return code - TELEPORT
    if code == LIFT:
        return (here + 3) % 6
    if code == RED:
        return here - (here % 3) + max(0, here % 3 - 1)
    if code == BLUE:
        return here - (here % 3) + min(2, here % 3 + 1)
    return here


def position_after(plan: tuple[int, ...], upto: int, start: int) -> int:
    """Where a figure stands after the cards of turns 1..upto (delays and knock-outs unseen)."""
    here = start
    for t in range(1, upto + 1):
        here = apply_move(here, plan[t]) if here != 6 else here
    return here


_POSITIONS: dict = {}


def positions(plan: tuple[int, ...], start: int) -> list[int]:
    """`positions(plan)[t]`: where the figure stands when its card of turn t is played (memoised;
    do not modify the list)."""
    key = (plan, start)
    out = _POSITIONS.get(key)
    if out is None:
        if len(_POSITIONS) > 4096:
            _POSITIONS.clear()
        out = _POSITIONS[key] = _positions(plan, start)
    return out


def _positions(plan: tuple[int, ...], start: int) -> list[int]:
    out = [start, start]
    here = start
    for t in range(1, 13):
        here = apply_move(here, plan[t])
        out.append(here)
    return out


_FORECASTS: dict = {}


def forecast(comp: Components, known: tuple[KnownThreat, ...]) -> Forecast:
    """The crew's shared forecast for these announced threats (pure; memoised)."""
    key = (comp.sha256, known)
    fc = _FORECASTS.get(key)
    if fc is None:
        if len(_FORECASTS) > 256:
            _FORECASTS.clear()
        fc = _FORECASTS[key] = Forecast(comp, known)
    return fc


class Forecast:
    """What the crew can foresee at planning time about the known threats: where each external
    threat stands at the damage step of each turn (speed changes on X/Y included, other effects
    unseen) and which turns its X/Y/Z fall on."""

    def __init__(self, comp: Components, known: tuple[KnownThreat, ...]) -> None:
        by_traj = {t.id: t for t in comp.trajectories}
        lo, hi = comp.distance_bounds
        self._zone_memo: dict = {}
        self.threats = []
        for k in known:
            card = comp.by_id[k.id]
            traj = by_traj[k.trajectory]
            pos = traj.length
            speed = card.speed
            at = [0] * 14  # position at the damage step of turn t (0 = not on board)
            acts = [0] * 14  # number of actions (X/Y/Z) in turn t's threat step
            revealed = [False] * 14
            shown = "stealth" not in card.rules
            for t in range(k.turn, 14):
                if pos <= 0:
                    break
                at[t] = pos
                revealed[t] = shown
                for _ in range(speed):
                    pos -= 1
                    a = traj.action[pos]
                    if a:
                        acts[t] += 1
                        if a == 1 and "stealth" in card.rules:
                            shown = True
                        if a < 3:
                            speed += sum(n for op, n in card.effects[a - 1] if op == "speed")
                    if pos <= 1:
                        pos = 0
                        break
            dist = [0 if p == 0 else 1 if p <= lo else 2 if p <= hi else 3 for p in at]
            self.threats.append((k, card, at, dist, acts, revealed))

    def in_zone(self, z: int, t: int, weapon: str = "heavy"):
        """Threats of zone z a laser could target at turn t, closest first (memoised)."""
        key = (z, t, weapon)
        out = self._zone_memo.get(key)
        if out is None:
            out = self._zone_memo[key] = self._in_zone(z, t, weapon)
        return out

    def _in_zone(self, z: int, t: int, weapon: str):
        out = []
        for k, card, at, dist, _acts, revealed in self.threats:
            if k.zone != z or not at[t] or not revealed[t]:
                continue
            if "untargetable_far" in card.rules and dist[t] == 3:
                continue
            if weapon == "heavy" and "heavy_laser_ignores" in card.rules:
                continue
            out.append((at[t], k.turn, k, card))
        out.sort(key=lambda r: (r[0], r[1]))
        return out

    def near(self, t: int, distance: int, weapon: str = "pulse") -> list:
        out = []
        for k, card, at, dist, _acts, revealed in self.threats:
            if k.zone == 3 or not at[t] or not revealed[t] or dist[t] > distance:
                continue
            if weapon == "rocket" and "rocket_immune" in card.rules:
                continue
            out.append((at[t], k.turn, k, card))
        out.sort(key=lambda r: (r[0], r[1]))
        return out

    def attacks(self, z: int, t: int) -> int:
        """How many X/Y/Z actions of zone-z threats fall in turn t's threat step."""
        return sum(acts[t] for k, _c, _a, _d, acts, _r in self.threats if k.zone == z)


_TIMELINES: dict = {}


def internal_station(comp: Components, k: KnownThreat, t: int) -> int:
    """Where internal threat k stands at turn t's action step (-1 once it has reached Z): its
    moves on X/Y replayed (moves that depend on damage or on figures are not foreseen)."""
    key = (comp.sha256, k)
    line = _TIMELINES.get(key)
    if line is None:
        if len(_TIMELINES) > 4096:
            _TIMELINES.clear()
        line = _TIMELINES[key] = [_internal_station(comp, k, tt) for tt in range(15)]
    return line[t] if t < 15 else -1


def _internal_station(comp: Components, k: KnownThreat, t: int) -> int:
    card = comp.by_id[k.id]
    traj = next(tr for tr in comp.trajectories if tr.id == k.trajectory)
    pos = traj.length
    station = card.stations[0]
    speed = card.speed
    for _turn in range(k.turn, t):
        for _ in range(speed):
            pos -= 1
            a = traj.action[pos]
            if a == 3:
                return -1
            if a:
                for op, n in card.effects[a - 1]:
                    z = station % 3
                    if op == "move_red" and z > 0:
                        station -= 1
                    elif op == "move_blue" and z < 2:
                        station += 1
                    elif op == "change_deck":
                        station = (station + 3) % 6
                    elif op == "speed":
                        speed += n
    return station


class Player:
    """A figure's planner; subclasses decide. `rng` is the figure's own stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def plan(self, view: View) -> list[int]:
        return [EMPTY] * len(view.turns)

    def transfer(self, view: View) -> tuple[int, int] | None:
        """Data transfer: (index of a card in view.hand, the human to give it to) or None."""
        return None


class RandomPlayer(Player):
    """Each turn: a fair coin for playing a card at all, then a uniform half of an unused card."""

    def plan(self, view: View) -> list[int]:
        hand = Hand(view)
        out = []
        for _ in view.turns:
            if self.rng.random() < 0.5:
                out.append(EMPTY)
                continue
            if hand.free:
                options = list(PLAIN)
            else:
                options = sorted({h for c in hand.cards for h in c})
            if hand.heroic is not None:
                options += list(hand.heroic)
            if not options:
                out.append(EMPTY)
                continue
            code = self.rng.choice(options)
            hand.take(code)
            out.append(code)
        return out


# Roles of the scripted crew by figure index (captain first), for 4 and 5 figures.
ROLES = {
    1: ("white",),
    2: ("white", "engineer"),
    3: ZONE_NAMES,
    4: (*ZONE_NAMES, "engineer"),
    5: (*ZONE_NAMES, "engineer", "security"),
}


# What each scripted role mostly plays (for data transfers).
NEEDS = {
    "red": (A, LIFT, B),
    "white": (C, A, BB),
    "blue": (A, LIFT, B),
    "engineer": (B, C, A),
    "security": (BB, C, LIFT),
}


@dataclass(frozen=True)
class ScriptedNumbers:
    """The numbers the scripted crew plays by: its strategy's parameters
    (`scripted:lookahead=2,pulse_reserve=0`). The gunners' three, then the energy officer's."""

    lookahead: int = number(
        3,
        "turns ahead a gunner watches its own zone: with a target coming it stays home (and goes "
        "down for energy) rather than man a neighbour's idle laser",
        minimum=0,
        maximum=11,
    )
    refill_below: int = number(
        2,
        "a side gunner at its reactor pulls energy from the main one while its own holds fewer than this",
        minimum=0,
        maximum=5,
    )
    shield_keep: int = number(
        1,
        "a gunner with no target feeds its shield before an attack only while its reactor holds "
        "more than this (kept for the laser)",
        minimum=0,
        maximum=5,
    )
    draw_horizon: int = number(
        3,
        "turns of the others' draw on the main reactor the energy officer plans ahead for "
        "(refuel when it would not cover them; the pulse cannon's reserve on top)",
        minimum=0,
        maximum=11,
    )
    pulse_reserve: int = number(
        1,
        "energy the energy officer keeps in the main reactor beyond that draw before firing the pulse cannon",
        minimum=0,
        maximum=5,
    )
    rocket_reach: int = number(
        2,
        "farthest distance (1 close, 2 middle, 3 far) at which the energy officer fires a rocket "
        "at an announced threat (0: never)",
        minimum=0,
        maximum=3,
    )


class ScriptedPlayer(Player):
    """The scripted crew (issue 5 point 5): a heavy-laser gunner per zone (the white one also
    maintains the computer in one of each phase's first two turns), an energy officer on the lower deck
    (pulse cannon, refuelling, feeding the side reactors and, with 4 figures, the internal
    threats), and with 5 figures a security officer (battlebots against intruders, repairs,
    rockets). Window watching when idle and safe. Reacts to the threats announced by then;
    cards it lacks are left out (the turn stays empty). Its numbers: `ScriptedNumbers`."""

    NUMBERS = ScriptedNumbers()

    def __init__(self, rng: random.Random, **numbers: Any) -> None:
        super().__init__(rng)
        self.numbers = replace(self.NUMBERS, **numbers)

    def transfer(self, view: View) -> tuple[int, int] | None:
        """Give away a card whose action half this role does not use to the first teammate
        whose role leads with that action (gunners get A, the engineer B...)."""
        roles = ROLES[min(view.figures, 5)]
        mine = NEEDS[roles[view.figure]] if view.figure < len(roles) else NEEDS["security"]
        for i, (_move, action) in enumerate(view.hand):
            if action in mine:
                continue
            for f in range(view.humans):
                if f != view.figure and f < len(roles) and NEEDS[roles[f]][0] == action:
                    return (i, f)
        return None

    def plan(self, view: View) -> list[int]:
        roles = ROLES[min(view.figures, 5)] if view.figures <= 5 else ROLES[5]
        role = roles[view.figure] if view.figure < len(roles) else "security"
        fc = forecast(view.comp, view.threats)
        hand = Hand(view)
        if view.phase == 0:
            self.bots_ok = True
        start = view.comp.ship["start_station"]
        here = position_after(view.plans[view.figure], view.turns[0] - 1, start)
        if role in ZONE_NAMES:
            return self._gunner(view, fc, hand, here, ZONE_NAMES.index(role))
        if role == "engineer":
            return self._engineer(view, fc, hand, here)
        return self._security(view, fc, hand, here)

    # --- roles -------------------------------------------------------------------------------

    def _gunner(self, view: View, fc: Forecast, hand: Hand, here: int, z: int) -> list[int]:
        comp = view.comp
        numbers = self.numbers
        strength = comp.ship["heavy_laser"][z]
        damage = self._shots_so_far(view, fc, z)
        energy = self._own_energy(view, z)
        security = z == 1 and view.figures < 5  # with 4 figures the white gunner also fights aboard
        carry = self._carrying(view)
        done = self._done_so_far(view)
        out: list[int] = []
        computer_done = False
        for t in view.turns:
            code = EMPTY
            target = None
            for _pos, _tok, k, card in fc.in_zone(z, t):
                if damage.get((k.turn, k.id), 0) < card.health:
                    target = (k, card)
                    break
            later = any(
                damage.get((k.turn, k.id), 0) < card.health
                for tt in range(t + 1, min(13, t + 1 + numbers.lookahead))
                for _p, _o, k, card in fc.in_zone(z, tt)
            )
            if security:
                task = self._internal_task(view, t, done, (UPPER_WHITE,))
            else:
                task = self._internal_task(view, t, done, (z, 3 + z), intruders=False)
            if z == 1 and not computer_done and t - view.turns[0] < 2 and hand.has(C):
                code = step_toward(here, z) if here != z else C
                computer_done = here == z
            elif (
                task is None
                and target is None
                and not later
                and (helped := self._help(view, fc, t, here, z)) >= 0
            ):
                # nothing to shoot at home for a while: man a neighbour's heavy laser if it is free
                if here != helped:
                    code = step_toward(here, helped)
                elif fc.in_zone(helped, t) and hand.has(A):
                    code = A
            elif task is None:
                light = comp.ship["light_laser"][z]
                if here == 3 + z and target is not None and light > max(0, target[1].shield) and energy < 1:
                    code = A  # the light laser needs no reactor energy
                elif here == 3 + z and z != 1 and energy < numbers.refill_below:
                    code = B  # pull energy from the main reactor
                elif here != z:
                    code = step_toward(here, z)
                elif z != 1 and energy <= 0 and (target is not None or later):
                    code = LIFT  # down to the reactor
                elif target is not None and energy > 0:
                    code = A if hand.has(A) else HA
                elif (
                    (fc.attacks(z, t) or fc.attacks(z, t + 1))
                    and energy > numbers.shield_keep
                    and hand.has(B)
                ):
                    code = B
            else:
                code, carry = self._chase(view, task, here, carry, done, hand, t)
            if code != EMPTY and not hand.take(code):
                code = HBB if code == BB and hand.take(HBB) else EMPTY
            if code in (A, HA) and here in (z, 3 + z) and target is not None:
                k, card = target
                if here == z:
                    energy -= 1
                else:
                    strength = comp.ship["light_laser"][z]
                key = (k.turn, k.id)
                if "cryoshield" in card.rules and key not in damage:
                    damage[key] = 0
                else:
                    gain = strength + (1 if code == HA else 0) - max(0, card.shield)
                    damage[key] = damage.get(key, 0) + max(0, gain)
                strength = comp.ship["heavy_laser"][z]
            elif code == B and here == z:
                energy -= 1
            elif code == B and here == 3 + z:
                energy = comp.ship["reactor_capacity"][z]
            if code == C and here in comp.ship["battlebots"]:
                carry = True
            here = apply_move(here, code)
            out.append(code)
        return out

    def _help(self, view: View, fc: Forecast, t: int, here: int, z: int) -> int:
        """A neighbouring zone whose heavy laser has a target at t (t + 1 if we must walk there)
        that no other figure's card fires at, or -1. Side gunners help white, white helps both
        (white's reactor is the engineer's care; a side reactor is its own gunner's)."""
        start = view.comp.ship["start_station"]
        for zone in (1,) if z != 1 else (0, 2):
            when = t if here == zone else t + 1
            if when > 12 or not fc.in_zone(zone, when):
                continue
            if any(
                f != view.figure and plan[when] in (A, HA) and positions(plan, start)[when] == zone
                for f, plan in enumerate(view.plans)
            ):
                continue
            return zone
        return -1

    def _own_energy(self, view: View, z: int) -> int:
        """The energy a gunner expects in its zone's reactor after its own earlier cards."""
        ship = view.comp.ship
        plan = view.plans[view.figure]
        energy = ship["reactor_start"][z]
        where = positions(plan, ship["start_station"])
        for t in range(1, view.turns[0]):
            here = where[t]
            if plan[t] in (A, HA) and here == z:
                energy = max(0, energy - 1)
            elif plan[t] in (B, HB) and here == 3 + z:
                energy = ship["reactor_capacity"][z]
        return energy

    def _carrying(self, view: View) -> bool:
        """Whether this figure's earlier cards picked up a battlebot squad."""
        ship = view.comp.ship
        plan = view.plans[view.figure]
        where = positions(plan, ship["start_station"])
        return any(plan[t] == C and where[t] in ship["battlebots"] for t in range(1, view.turns[0]))

    def _done_so_far(self, view: View) -> dict:
        """Hits on internal threats from this figure's earlier cards (by threat)."""
        ship = view.comp.ship
        plan = view.plans[view.figure]
        done: dict = {}
        where = positions(plan, ship["start_station"])
        for t in range(1, view.turns[0]):
            if plan[t] in (BB, HBB, A, B, C, HB):
                task = self._internal_task(view, t, done)
                here = where[t]
                if task is not None and here == task[1]:
                    key = (task[0].turn, task[0].id)
                    done[key] = done.get(key, 0) + 1
        return done

    def _chase(
        self, view: View, task: tuple, here: int, carry: bool, done: dict, hand: Hand, t: int
    ) -> tuple[int, bool]:
        """One step of dealing with an internal threat: fetch battlebots (or reactivate them after
        an intruder fought back), walk, press."""
        ship = view.comp.ship
        k, station, button = task
        if button == "BB" and (not carry or not self.bots_ok):
            bots = min(ship["battlebots"], key=lambda s: (s // 3 != here // 3) + abs(s % 3 - here % 3))
            if here != bots:
                return step_toward(here, bots), carry
            self.bots_ok = hand.has(C)
            return C, carry
        if here != station:
            # an intruder may move before we get there: head for where it will be next turn
            ahead = internal_station(view.comp, k, t + 1) if view.comp.by_id[k.id].kind == "intruder" else -1
            goal = ahead if ahead >= 0 else station
            return (EMPTY if goal == here else step_toward(here, goal)), carry
        code = {"A": A, "B": B, "C": C, "BB": BB}[button]
        if code == BB and not hand.has(BB) and hand.has(HBB):
            code = HBB
        if hand.has(code):
            done[(k.turn, k.id)] = done.get((k.turn, k.id), 0) + 1
            rules = view.comp.by_id[k.id].rules
            if code == BB and ("fights_back" in rules or "fights_back_after_x" in rules):
                self.bots_ok = False
        return code, carry

    def _shots_so_far(self, view: View, fc: Forecast, z: int) -> dict:
        """Damage this gunner's earlier A cards are expected to have done, by threat."""
        strength = view.comp.ship["heavy_laser"][z]
        damage: dict = {}
        plan = view.plans[view.figure]
        for t in range(1, view.turns[0]):
            if plan[t] in (A, HA):
                targets = fc.in_zone(z, t)
                for _pos, _tok, k, card in targets:
                    key = (k.turn, k.id)
                    if damage.get(key, 0) < card.health:
                        damage[key] = damage.get(key, 0) + max(0, strength - max(0, card.shield))
                        break
        return damage

    def _internal_task(self, view: View, t: int, done: dict, stations=None, intruders=True) -> tuple | None:
        """The internal threat to deal with at turn t: (threat, station, button) or None; the
        station is where the threat is foreseen at turn t's action step (its moves on X/Y).
        `stations` limits malfunctions to those stations; `intruders` whether to fight them."""
        comp = view.comp
        best = None
        for k in view.threats:
            if k.zone != 3 or k.turn > t:
                continue
            card = comp.by_id[k.id]
            if done.get((k.turn, k.id), 0) >= card.health:
                continue
            if card.kind == "intruder" and not intruders:
                continue
            station = internal_station(comp, k, t)
            if station < 0:
                continue  # has reached Z by now
            if card.kind == "malfunction" and stations is not None:
                mine = [s for s in card.stations if s in stations]
                if not mine:
                    continue
                station = mine[0]
            # most dangerous first: threats whose Z destroys the ship, then the soonest Z
            last = t
            while internal_station(comp, k, last + 1) >= 0 and last < 13:
                last += 1
            if card.kind == "intruder" and last - t < 1:
                continue  # gone before anyone could get there
            deadly = any(op == "destroy_ship" for op, _n in card.effects[2])
            rank = (not deadly, last, k.turn)
            if best is None or rank < best[3]:
                best = (k, station, card.button, rank)
        return best[:3] if best else None

    def _engineer(self, view: View, fc: Forecast, hand: Hand, here: int) -> list[int]:
        """Keeps the main reactor fed for the gunners (who fetch their own side energy), fires
        the pulse cannon when it has spare energy and rockets at close targets, else watches."""
        ship = view.comp.ship
        numbers = self.numbers
        start = ship["start_station"]
        draw = [0] * 14  # energy the others take from the main reactor, by turn
        for f, plan in enumerate(view.plans):
            if f == view.figure:
                continue
            where = positions(plan, start)
            for t in range(1, 13):
                pos = where[t]
                if plan[t] in (A, HA) and pos == UPPER_WHITE:
                    draw[t] += 1
                elif plan[t] in (B, HB) and pos in (LOWER_RED, LOWER_BLUE):
                    draw[t] += 2
        white = ship["reactor_start"][1]
        fuel = ship["fuel"]
        rockets = ship["rockets"]
        last_rocket = 0
        mine = view.plans[view.figure]
        where = positions(mine, start)
        for t in range(1, view.turns[0]):
            white = max(0, white - draw[t])
            pos = where[t]
            if mine[t] in (B, HB) and pos == LOWER_WHITE and fuel:
                fuel -= 1
                white = ship["reactor_capacity"][1]
            elif mine[t] in (A, HA) and pos == LOWER_WHITE:
                white = max(0, white - 1)
            elif mine[t] == C and pos == LOWER_BLUE and rockets:
                rockets -= 1
                last_rocket = t
        done = self._done_so_far(view)
        out: list[int] = []
        for t in view.turns:
            white = max(0, white - draw[t])
            soon = sum(draw[t + 1 : t + 1 + numbers.draw_horizon])
            rocket_target = rockets and t > last_rocket + 1 and fc.near(t + 1, numbers.rocket_reach, "rocket")
            code = EMPTY
            task = self._internal_task(view, t, done, (LOWER_WHITE,), intruders=False)
            if task is not None:
                code, _carry = self._chase(view, task, here, True, done, hand, t)
            elif here < 3:
                code = LIFT
            elif here == LOWER_BLUE and rocket_target:
                code = C
            elif here != LOWER_WHITE:
                code = step_toward(here, LOWER_WHITE)
            elif white <= soon and fuel > 0 and white < ship["reactor_capacity"][1] - 1:
                code = B
            elif self._pulse_worth(fc, t, ship["pulse_range"]) and white > soon + numbers.pulse_reserve:
                code = A
            elif rocket_target:
                code = BLUE
            elif not fc.near(t + 1, 1):
                code = C  # window: nothing close, look out
            if code != EMPTY and not hand.take(code):
                if code == B and hand.take(HB):
                    code = HB
                elif code == A and hand.take(HA):
                    code = HA
                else:
                    code = EMPTY
            if code in (B, HB) and here == LOWER_WHITE and fuel:
                fuel -= 1
                white = ship["reactor_capacity"][1]
            elif code in (A, HA) and here == LOWER_WHITE:
                white = max(0, white - 1)
            elif code == C and here == LOWER_BLUE and rockets:
                rockets -= 1
                last_rocket = t
            here = apply_move(here, code)
            out.append(code)
        return out

    @staticmethod
    def _pulse_worth(fc: Forecast, t: int, reach: int) -> bool:
        """The pulse cannon hurts something: a target in reach with no shield, or a cloud."""
        return any(
            card.shield <= 0 or "pulse_ignores_shield" in card.rules for _p, _o, _k, card in fc.near(t, reach)
        )

    @staticmethod
    def _energy(code: int, here: int, reactor: list[int], fuel: int, ship: dict) -> tuple[list[int], int]:
        reactor = reactor[:]
        if code in (B, HB) and here >= 3:
            z = here % 3
            if z == 1:
                if fuel > 0:
                    fuel -= 1
                    reactor[1] = ship["reactor_capacity"][1]
            else:
                moved = min(reactor[1], ship["reactor_capacity"][z] - reactor[z])
                reactor[1] -= moved
                reactor[z] += moved
        elif code in (A, HA) and here == LOWER_WHITE and reactor[1] > 0:
            reactor[1] -= 1
        return reactor, fuel

    def _security(self, view: View, fc: Forecast, hand: Hand, here: int) -> list[int]:
        ship = view.comp.ship
        carry = self._carrying(view)
        done = self._done_so_far(view)
        out: list[int] = []
        for t in view.turns:
            code = EMPTY
            task = self._internal_task(view, t, done)
            if here == SPACE:
                # in space: stay and attack while targets remain at distance 1, else come back
                if fc.near(t, 1, "interceptors") and (hand.has(BB) or hand.has(HBB)):
                    code = BB if hand.has(BB) else HBB
            elif task is not None:
                code, carry = self._chase(view, task, here, carry, done, hand, t)
            elif not carry:
                code = step_toward(here, LOWER_RED) if here != LOWER_RED else C
            elif fc.near(t, 1, "interceptors") and here == UPPER_RED:
                code = C
            elif fc.near(t + 1, 1, "interceptors"):
                code = step_toward(here, UPPER_RED) if here != UPPER_RED else EMPTY
            if code != EMPTY and not hand.take(code):
                code = HBB if code == BB and hand.take(HBB) else EMPTY
            if code == C and here in ship["battlebots"]:
                carry = True
            out.append(code)
            if code == C and here == UPPER_RED:
                here = SPACE
            elif here == SPACE:
                here = SPACE if code in (BB, HBB) else UPPER_RED
            else:
                here = apply_move(here, code)
        return out


@dataclass(frozen=True)
class PlannerNumbers(ScriptedNumbers):
    """The planner's numbers: the scripted crew's (its starting rows) and its search budget, its
    strategy's parameters (`planner:steps=80,samples=4`)."""

    steps: int = number(40, "candidate changes tried per figure and phase", minimum=0, maximum=10_000)
    samples: int = number(2, "damage-tile orders each candidate is resolved with", minimum=1, maximum=100)


class PlannerPlayer(ScriptedPlayer):
    """Local search through the engine (issue 5 point 5): each figure starts from its scripted
    row for the phase and hill-climbs it, one card at a time, scoring every candidate crew plan
    by resolving the announced threats with damage-tile orders drawn from its own stream (the
    real tiles are never seen). Later phases are left empty in the evaluation; teammates not yet
    planned this phase are taken as idle. `steps` candidate changes per figure and phase,
    `samples` tile orders per evaluation; its starting rows play the scripted crew's numbers
    (its parameters: `PlannerNumbers`)."""

    NUMBERS = PlannerNumbers()

    def __init__(self, rng: random.Random, **numbers: Any) -> None:
        super().__init__(rng, **numbers)
        self.steps, self.samples = self.numbers.steps, self.numbers.samples

    def plan(self, view: View) -> list[int]:
        from simkit.games.space_alert.game import _matches
        from simkit.games.space_alert.rules import resolve

        base = super().plan(view)
        comp = view.comp
        tiles = list(comp.tiles)
        stacks = []
        for _ in range(self.samples):
            per_zone = []
            for _z in range(3):
                order = tiles[:]
                self.rng.shuffle(order)
                per_zone.append(order)
            stacks.append(per_zone)
        threats = list(view.threats)
        rows = [list(p[1:]) for p in view.plans]

        def fitness(row: list[int]) -> float:
            for i, t in enumerate(view.turns):
                rows[view.figure][t - 1] = row[i]
            total = 0.0
            for st_tiles in stacks:
                st, res = resolve(comp, threats, rows, st_tiles, view.humans)
                partial = sum(
                    t.card.points[0] * min(1.0, t.damage / max(1, t.card.health))
                    for t in st.threats
                    if t.status == 1
                )
                if st.lost:  # the later the loss and the more damage dealt, the better
                    total += -1000 + 20 * st.turn + res["threat_points"] + partial
                    continue
                total += res["threat_points"] + partial - res["penalties"] + res["visual_points"]
            return total

        plain = [c for c in view.hand if c[0] < TELEPORT]
        heroic = next((c for c in view.hand if c[0] >= TELEPORT), None)
        options = sorted(set(PLAIN) if view.free else {h for c in plain for h in c})
        if heroic is not None:
            options += list(heroic)
        options.append(EMPTY)

        def legal(row: list[int]) -> bool:
            codes = [c for c in row if c != EMPTY]
            if heroic is not None:
                used = [c for c in codes if c in heroic]
                if len(used) > 1:
                    return False
                codes = [c for c in codes if c not in heroic]
            if any(c >= TELEPORT or c in (HA, HB, HBB) for c in codes):
                return False
            return view.free or _matches(codes, plain) is not None

        best = list(base)
        best_fit = fitness(best)
        for _ in range(self.steps):
            cand = list(best)
            i = self.rng.randrange(len(cand))
            cand[i] = self.rng.choice(options)
            if cand == best or not legal(cand):
                continue
            fit = fitness(cand)
            if fit > best_fit:
                best, best_fit = cand, fit
        return best
