"""The resolution round of Space Alert, step by step in the rulebook's order.

Each turn 1..12: threats appear; actions in player order (captain first); compute damage; threats
act (lowest token first; X/Y/Z on landing or passing); a rocket on the first space moves to the
second; computer check after turns 2, 5 and 9. Turn 13: figures in space return, a rocket fired
on turn 12 hits, threats act once more. No strategy here: the rules read the plans and the
component tables, nothing else. `log`, when a list, receives the event log.
"""

from __future__ import annotations

from simkit.games.space_alert.components import Components
from simkit.games.space_alert.state import (
    ACTIVE,
    BB,
    BLUE,
    DESTROYED,
    EMPTY,
    HA,
    HB,
    HBB,
    LIFT,
    RED,
    SPACE,
    STATION_NAMES,
    SURVIVED,
    TELEPORT,
    WAITING,
    ZONE_NAMES,
    A,
    B,
    C,
    KnownThreat,
    Live,
    State,
    card_name,
    new_state,
)

TURNS = 12
UPPER_RED, UPPER_WHITE, UPPER_BLUE, LOWER_RED, LOWER_WHITE, LOWER_BLUE = range(6)
_BUTTON = {"A": A, "B": B, "C": C, "BB": BB}


class ShipLost(Exception):
    """Raised inside a step when the ship is destroyed; the resolution stops there."""


class Resolution:
    """Runs the resolution round on a `State`. Construct, then `run()`; or call the steps directly
    (the tests build small states and call one step)."""

    def __init__(
        self, comp: Components, st: State, log: list | None = None, trips: set | None = None
    ) -> None:
        self.comp = comp
        self.st = st
        self.log = log
        self.trips = trips or set()  # (figure, turn): "oops, I tripped" (misplayed, then delayed)
        ship = comp.ship
        self.bounds = comp.distance_bounds
        self.laser_range = ship["laser_range"]
        self.rocket_range = ship["rocket_range"]
        self.rocket_strength = ship["rocket_strength"]
        self.pulse_strength = ship["pulse_strength"]
        self.icpt_single = ship["interceptor_single"]
        self.icpt_multi = ship["interceptor_multi"]
        self.icpt_range = ship["interceptor_range"]
        self.checks = ship["computer_checks"]
        self.phase_ends = ship["phase_ends"]
        self.visual_points = ship["visual_points"]
        # per-turn scratch
        self.fired_heavy = [0, 0, 0]  # 0 not fired, 1 fired, 2 fired with a heroic card
        self.fired_light = [0, 0, 0]
        self.fired_pulse = 0
        self.lift_used = [False, False, False]
        self.in_space = -1  # figure attacking from the interceptors this turn
        self.space_heroic = False
        self.observers = 0

    # --- events ------------------------------------------------------------------------------

    def emit(self, event: str, **data) -> None:
        if self.log is not None:
            self.log.append({"event": event, "turn": self.st.turn, **data})

    # --- helpers -----------------------------------------------------------------------------

    def distance(self, th: Live) -> int:
        lo, hi = self.bounds
        return 1 if th.pos <= lo else 2 if th.pos <= hi else 3

    def phase(self, turn: int) -> int:
        for p, end in enumerate(self.phase_ends):
            if turn <= end:
                return p
        return len(self.phase_ends) - 1

    def active(self) -> list[Live]:
        return [t for t in self.st.threats if t.status == ACTIVE]

    def delay(self, f: int, turn: int) -> None:
        """Figure f is delayed in `turn`: its card there moves one turn right, pushing the next
        ones until an empty slot takes them or the card on turn 12 falls off the board. A figure
        is delayed at most once per turn (RULES.md)."""
        st = self.st
        if turn > TURNS or st.delayed_at[f] == turn:
            return
        st.delayed_at[f] = turn
        plan = st.plans[f]
        if plan[turn] == EMPTY:
            self.emit("delayed", figure=f, at=turn, shifted=0)
            return
        k = turn
        while k <= TURNS and plan[k] != EMPTY:
            k += 1
        lost = plan[TURNS] if k > TURNS else None
        for j in range(min(k, TURNS), turn, -1):
            plan[j] = plan[j - 1]
        plan[turn] = EMPTY
        if self.log is not None:
            self.emit(
                "delayed",
                figure=f,
                at=turn,
                shifted=min(k, TURNS) - turn,
                lost=None if lost is None else card_name(lost),
            )

    def knock_out(self, f: int, why: str) -> None:
        st = self.st
        if st.knocked[f]:
            return
        st.knocked[f] = True
        if st.carry[f] >= 0:
            st.bots_disabled[st.carry[f]] = True
        self.emit("knocked_out", figure=f, by=why)

    # --- damage to the ship ------------------------------------------------------------------

    def draw_tile(self, z: int) -> None:
        st = self.st
        if len(st.tiles[z]) >= len(st.tile_stacks[z]):
            st.lost = True
            st.end_reason = "zone_destroyed"
            self.emit("ship_destroyed", zone=ZONE_NAMES[z], reason="a 7th damage tile")
            raise ShipLost
        tile = st.tile_stacks[z][len(st.tiles[z])]
        st.tiles[z].append(tile)
        if tile == "reactor":
            st.reactor_cap[z] = max(0, st.reactor_cap[z] - 1)
            st.reactor[z] = min(st.reactor[z], st.reactor_cap[z])
        elif tile == "shield":
            st.shield_cap[z] = max(0, st.shield_cap[z] - 1)
            st.shield[z] = min(st.shield[z], st.shield_cap[z])
        elif tile == "heavy_laser":
            st.heavy[z] = max(0, st.heavy[z] - 1)
        elif tile == "lower_cannon":
            if z == 1:
                st.pulse_range = max(1, st.pulse_range - 1)
            else:
                st.light[z] = max(0, st.light[z] - 1)
        elif tile == "gravolift":
            st.lift_damaged[z] = True
        self.emit("damage_tile", zone=ZONE_NAMES[z], tile=tile, count=len(st.tiles[z]))

    def hull(self, z: int, n: int, factor: int = 1) -> None:
        """n points reach the ship in zone z (after any shield): one tile each, doubled by a
        Destroyer (factor) and by a Fissure's doubling in that zone."""
        n *= factor * self.st.damage_mult[z]
        for _ in range(n):
            self.draw_tile(z)

    def external_attack(self, th: Live, z: int, n: int, unshielded: bool = False) -> None:
        st = self.st
        if st.boost and th.external:
            # every scout whose X is in force adds 1; a scout never boosts its own attacks
            n += st.boost - (1 if th.grown and "heavy_laser_ignores" in th.card.rules else 0)
        st.culprit = th.card.id
        absorbed = 0 if unshielded else min(st.shield[z], n)
        st.shield[z] -= absorbed
        through = n - absorbed
        self.emit(
            "attack", threat=th.card.id, zone=ZONE_NAMES[z], strength=n, absorbed=absorbed, through=through
        )
        if through > 0:
            self.hull(z, through, 2 if "double_damage" in th.card.rules else 1)

    def internal_attack(self, th: Live, z: int, n: int) -> None:
        self.st.culprit = th.card.id
        self.emit("internal_attack", threat=th.card.id, zone=ZONE_NAMES[z], strength=n)
        if n > 0:
            self.hull(z, n)

    # --- threats appear ----------------------------------------------------------------------

    def appear(self, th: Live) -> None:
        st = self.st
        th.status = ACTIVE
        if "health_is_rockets" in th.card.rules:
            th.counted = st.rockets  # its health: the rockets aboard when it appears
        if "slime" in th.card.rules:
            th.tokens = [[s, th.card.health] for s in th.stations]
        self.emit(
            "threat_appears",
            threat=th.card.id,
            name=th.card.name,
            token=th.token,
            zone="internal" if th.zone == 3 else ZONE_NAMES[th.zone],
            trajectory=th.traj.id,
            stations=[STATION_NAMES[s] for s in th.stations] or None,
        )
        if "health_is_rockets" in th.card.rules and th.counted == 0:
            self.destroy(th, "no rockets aboard")

    def health(self, th: Live) -> int:
        return th.counted if "health_is_rockets" in th.card.rules else th.card.health

    def destroy(self, th: Live, how: str) -> None:
        st = self.st
        th.status = DESTROYED
        if th.external and "heavy_laser_ignores" in th.card.rules and th.grown:
            st.boost -= 1  # a scout's boost ends when it is destroyed
        self.emit("threat_destroyed", threat=th.card.id, by=how)
        for op, n in th.card.effects[3]:
            self.effect(th, op, n)

    # --- player actions ----------------------------------------------------------------------

    def move_to(self, f: int, station: int) -> None:
        st = self.st
        st.pos[f] = station
        for th in st.threats:
            if th.status == ACTIVE and th.tokens and any(s == station for s, _ in th.tokens):
                self.emit("slimed", figure=f, station=STATION_NAMES[station])
                self.delay(f, st.turn + 1)
                break
        if station in st.contaminated:
            self.knock_out(f, st.contaminated[station])

    def player_action(self, f: int) -> None:
        st = self.st
        t = st.turn
        card = st.plans[f][t]
        if st.knocked[f]:
            return
        if st.pos[f] == SPACE:
            if card in (BB, HBB):
                self.in_space = f
                self.space_heroic = card == HBB
                self.emit("interceptors_stay", figure=f, heroic=card == HBB)
                return
            self.emit("interceptors_return", figure=f)
            self.move_to(f, UPPER_RED)
            if card != EMPTY:
                st.delayed_at[f] = 0
                self.delay(f, t)
            return
        if card == EMPTY:
            return
        here = st.pos[f]
        if self.log is not None:
            self.emit("action", figure=f, card=card_name(card), station=STATION_NAMES[here])
        if card >= TELEPORT:
            self.move_to(f, card - TELEPORT)
        elif card == RED or card == BLUE:
            z = here % 3
            nz = max(0, z - 1) if card == RED else min(2, z + 1)
            if nz != z:
                self.move_to(f, here - z + nz)
        elif card == LIFT:
            z = here % 3
            late = self.lift_used[z] or st.lift_damaged[z]
            self.lift_used[z] = True
            self.move_to(f, (here + 3) % 6)
            if late:
                self.emit("gravolift_delay", figure=f, zone=ZONE_NAMES[z])
                self.delay(f, t + 1)
        else:
            self.button(f, here, card)
        if (f, t) in self.trips and f < st.humans:
            self.emit("tripped", figure=f)
            self.delay(f, t + 1)

    def button(self, f: int, s: int, card: int) -> None:
        st = self.st
        heroic = card in (HA, HB, HBB)
        base = A if card == HA else B if card == HB else BB if card == HBB else card
        z = s % 3
        if base != BB:
            if (s, base) in st.broken:
                self.emit("no_effect", figure=f, why="system wrecked by a malfunction's Z")
                return
            mal = None
            for th in st.threats:
                if (
                    th.status == ACTIVE
                    and th.card.kind == "malfunction"
                    and _BUTTON[th.card.button] == base
                    and s in th.stations
                    and (mal is None or th.token < mal.token)
                ):
                    mal = th
            if mal is not None:
                th = mal
                th.damage += 2 if heroic else 1
                self.emit("repair", figure=f, threat=th.card.id, damage=th.damage)
                if th.damage >= self.health(th):
                    self.destroy(th, "repaired")
                return
        if base == A:
            if s < 3:
                if self.fired_heavy[z]:
                    self.fired_heavy[z] = max(self.fired_heavy[z], 2 if heroic else 1)
                elif st.reactor[z] > 0:
                    st.reactor[z] -= 1
                    self.fired_heavy[z] = 2 if heroic else 1
                else:
                    self.emit("no_effect", figure=f, why="no energy in the reactor")
            elif z == 1:
                if self.fired_pulse:
                    self.fired_pulse = max(self.fired_pulse, 2 if heroic else 1)
                elif st.reactor[1] > 0:
                    st.reactor[1] -= 1
                    self.fired_pulse = 2 if heroic else 1
                else:
                    self.emit("no_effect", figure=f, why="no energy in the reactor")
            else:
                self.fired_light[z] = max(self.fired_light[z], 2 if heroic else 1)
        elif base == B:
            if s < 3:
                moved = min(st.reactor[z], st.shield_cap[z] - st.shield[z])
                moved = max(0, moved)
                st.reactor[z] -= moved
                st.shield[z] += moved + (1 if heroic and moved > 0 else 0)
                self.emit(
                    "energy",
                    figure=f,
                    to="shield " + ZONE_NAMES[z],
                    moved=moved + (1 if heroic and moved > 0 else 0),
                )
            elif z == 1:
                if st.fuel > 0:
                    st.fuel -= 1
                    moved = max(0, st.reactor_cap[1] - st.reactor[1])
                    st.reactor[1] += moved + (1 if heroic and moved > 0 else 0)
                    self.emit(
                        "refuel", figure=f, moved=moved + (1 if heroic and moved > 0 else 0), fuel=st.fuel
                    )
                else:
                    self.emit("no_effect", figure=f, why="no fuel capsules")
            else:
                moved = max(0, min(st.reactor[1], st.reactor_cap[z] - st.reactor[z]))
                st.reactor[1] -= moved
                st.reactor[z] += moved + (1 if heroic and moved > 0 else 0)
                self.emit(
                    "energy",
                    figure=f,
                    to="reactor " + ZONE_NAMES[z],
                    moved=moved + (1 if heroic and moved > 0 else 0),
                )
        elif base == C:
            if s == UPPER_RED:
                k = st.carry[f]
                if k >= 0 and not st.bots_disabled[k] and SPACE not in st.pos:
                    st.pos[f] = SPACE
                    self.in_space = f
                    self.space_heroic = False
                    self.emit("interceptors_launch", figure=f)
                else:
                    self.emit("no_effect", figure=f, why="no active battlebots to fly the interceptors")
            elif s == UPPER_WHITE:
                p = self.phase(st.turn)
                if not st.computer[p]:
                    st.computer[p] = True
                    self.emit("computer_maintained", figure=f, phase=p + 1)
            elif s in (UPPER_BLUE, LOWER_RED):
                k = st.carry[f]
                if k >= 0:
                    if st.bots_disabled[k]:
                        st.bots_disabled[k] = False
                        self.emit("battlebots_repaired", figure=f)
                else:
                    for k2, at in enumerate(st.bots_at):
                        if at == s:
                            st.bots_at[k2] = -1
                            st.carry[f] = k2
                            self.emit("battlebots_taken", figure=f, disabled=st.bots_disabled[k2])
                            break
            elif s == LOWER_WHITE:
                self.observers += 1
            else:  # lower blue: rockets
                if st.rockets > 0 and not st.rocket_track[0]:
                    st.rockets -= 1
                    st.rocket_track[0] = 1
                    self.emit("rocket_launched", figure=f, left=st.rockets)
        else:  # battlebots
            k = st.carry[f]
            if k < 0 or st.bots_disabled[k]:
                self.emit("no_effect", figure=f, why="no active battlebots")
                return
            target = None
            for th in st.threats:
                if (
                    th.status == ACTIVE
                    and th.card.kind == "intruder"
                    and (target is None or th.token < target.token)
                ):
                    if (th.tokens and any(ts == s for ts, _ in th.tokens)) or (
                        not th.tokens and s in th.stations
                    ):
                        target = th
            if target is None:
                return
            th = target
            if th.tokens:
                tok = next(t for t in th.tokens if t[0] == s)
                tok[1] -= 1
                th.damage += 1
                if tok[1] <= 0:
                    th.tokens.remove(tok)
                self.emit("battlebots_attack", figure=f, threat=th.card.id, damage=th.damage)
                if not th.tokens:
                    self.destroy(th, "battlebots")
            else:
                th.damage += 1
                self.emit("battlebots_attack", figure=f, threat=th.card.id, damage=th.damage)
                if th.damage >= self.health(th):
                    self.destroy(th, "battlebots")
            fights = "fights_back" in th.card.rules or ("fights_back_after_x" in th.card.rules and th.grown)
            if fights and not heroic:
                st.bots_disabled[k] = True
                self.emit("battlebots_disabled", figure=f, threat=th.card.id)

    # --- compute damage ----------------------------------------------------------------------

    def targetable(self, th: Live, weapon: str) -> bool:
        rules = th.card.rules
        if not th.revealed:
            return False
        if "untargetable_far" in rules and self.distance(th) == 3:
            return False
        if weapon == "heavy" and "heavy_laser_ignores" in rules:
            return False
        if weapon == "rocket" and "rocket_immune" in rules:
            return False
        return True

    def closest(self, candidates: list[Live]) -> Live | None:
        best = None
        for th in candidates:
            if best is None or th.pos < best.pos or (th.pos == best.pos and th.token < best.token):
                best = th
        return best

    def compute_damage(self) -> None:
        st = self.st
        ext = [t for t in st.threats if t.status == ACTIVE and t.external]
        hits: dict[int, list] = {}  # id(threat) -> [threat, strength, pulse, rocket, interceptors]

        def hit(th: Live, strength: int, kind: str) -> None:
            row = hits.get(id(th))
            if row is None:
                row = hits[id(th)] = [th, 0, False, False, False]
            if kind == "rocket_wasted":
                row[3] = True
                return
            row[1] += strength
            if kind == "pulse":
                row[2] = True
            elif kind == "rocket":
                row[3] = True
            elif kind == "interceptors":
                row[4] = True

        for z in range(3):
            if self.fired_heavy[z]:
                cands = [
                    t
                    for t in ext
                    if t.zone == z and self.distance(t) <= self.laser_range and self.targetable(t, "heavy")
                ]
                target = self.closest(cands)
                self.emit("fire", weapon=f"heavy laser {ZONE_NAMES[z]}", target=target and target.card.id)
                if target is not None:
                    hit(target, st.heavy[z] + (1 if self.fired_heavy[z] == 2 else 0), "heavy")
            if self.fired_light[z]:
                cands = [
                    t
                    for t in ext
                    if t.zone == z and self.distance(t) <= self.laser_range and self.targetable(t, "light")
                ]
                target = self.closest(cands)
                self.emit("fire", weapon=f"light laser {ZONE_NAMES[z]}", target=target and target.card.id)
                if target is not None:
                    hit(target, st.light[z] + (1 if self.fired_light[z] == 2 else 0), "light")
        if self.fired_pulse:
            targets = [t for t in ext if self.distance(t) <= st.pulse_range and self.targetable(t, "pulse")]
            self.emit("fire", weapon="pulse cannon", targets=[t.card.id for t in targets])
            for t in targets:
                hit(t, self.pulse_strength + (1 if self.fired_pulse == 2 else 0), "pulse")
        if st.rocket_track[1]:
            magnets = [t for t in ext if "rocket_magnet" in t.card.rules and t.revealed]
            if magnets:
                target = min(magnets, key=lambda t: t.token)
            else:
                cands = [
                    t for t in ext if self.distance(t) <= self.rocket_range and self.targetable(t, "rocket")
                ]
                target = self.closest(cands)
            self.emit("fire", weapon="rocket", target=target and target.card.id)
            if target is not None:
                hit(
                    target,
                    self.rocket_strength,
                    "rocket_wasted" if "rocket_wasted" in target.card.rules else "rocket",
                )
        pilot_out = False
        if self.in_space >= 0:
            targets = [
                t for t in ext if self.distance(t) <= self.icpt_range and self.targetable(t, "interceptors")
            ]
            bonus = 1 if self.space_heroic else 0
            self.emit("fire", weapon="interceptors", targets=[t.card.id for t in targets])
            if len(targets) == 1:
                strength = self.icpt_single + bonus
                if "behemoth_interceptors" in targets[0].card.rules:
                    strength += 6
                    pilot_out = True
                hit(targets[0], strength, "interceptors")
            else:
                for t in targets:
                    hit(t, self.icpt_multi + bonus, "interceptors")
        self.fired_heavy = [0, 0, 0]
        self.fired_light = [0, 0, 0]
        self.fired_pulse = 0
        st.rocket_track[1] = 0
        for th, strength, pulse, rocket, _icpt in sorted(hits.values(), key=lambda r: r[0].token):
            if th.status != ACTIVE:
                continue
            rules = th.card.rules
            if th.cryo:
                th.cryo = False
                self.emit("cryoshield", threat=th.card.id)
                continue
            shield = 0 if pulse and "pulse_ignores_shield" in rules else th.shield
            dmg = strength - shield if strength > 0 else 0
            if "max_one_damage" in rules:
                dmg = min(dmg, 1)
            if dmg > 0:
                th.damage += dmg
                self.emit(
                    "damage", threat=th.card.id, strength=strength, shield=shield, damage=dmg, total=th.damage
                )
                if "nemesis_backlash" in rules:
                    for z in range(3):
                        self.external_attack(th, z, 1)
                if th.damage >= th.card.health:
                    self.destroy(th, "weapons")
            else:
                self.emit(
                    "damage", threat=th.card.id, strength=strength, shield=shield, damage=0, total=th.damage
                )
            if rocket and "rocket_magnet" in rules and th.status == ACTIVE:
                th.shield += 1
        if pilot_out:
            self.knock_out(self.in_space, "Behemoth")

    # --- threat actions ----------------------------------------------------------------------

    def threat_actions(self) -> None:
        for th in sorted(self.active(), key=lambda t: t.token):
            if th.status == ACTIVE:
                self.advance(th, th.speed)

    def advance(self, th: Live, steps: int) -> None:
        """Move `steps` spaces; every X/Y/Z landed on or passed acts, in order."""
        action = th.traj.action
        for _ in range(steps):
            if th.status != ACTIVE:
                return
            th.pos -= 1
            a = action[th.pos]
            if a:
                self.emit("threat_action", threat=th.card.id, action="XYZ"[a - 1], space=th.pos)
                if a == 3:
                    th.status = SURVIVED
                    for op, n in th.card.effects[2]:
                        self.effect(th, op, n)
                    if th.card.kind == "malfunction":
                        for s in th.stations:
                            self.st.broken.add((s, _BUTTON[th.card.button]))
                    return
                for op, n in th.card.effects[a - 1]:
                    self.effect(th, op, n)
                    if th.status == DESTROYED:
                        return

    def zone_of(self, th: Live) -> int:
        if th.external:
            return th.zone
        if th.tokens:
            return th.tokens[0][0] % 3
        return th.stations[0] % 3

    def figures_at(self, stations) -> list[int]:
        st = self.st
        return [f for f in range(len(st.pos)) if st.pos[f] in stations]

    def move_internal(self, th: Live, station: int) -> None:
        th.stations = [station]
        self.emit("intruder_moves", threat=th.card.id, to=STATION_NAMES[station])

    def effect(self, th: Live, op: str, n: int) -> None:
        st = self.st
        z = self.zone_of(th)
        if op == "attack":
            if th.external:
                self.external_attack(th, z, n)
            else:
                self.internal_attack(th, z, n)
        elif op == "attack_all":
            for zz in range(3):
                self.external_attack(th, zz, n)
        elif op == "attack_others":
            for zz in range(3):
                if zz != z:
                    self.external_attack(th, zz, n)
        elif op == "attack_red_blue":
            self.external_attack(th, 0, n)
            self.external_attack(th, 2, n)
        elif op == "attack_unshielded":
            self.external_attack(th, z, n, unshielded=True)
        elif op == "attack_remaining":
            self.external_attack(th, z, n * max(0, th.card.health - th.damage))
        elif op == "attack_all_if_damaged":
            if th.damage > 0:
                for zz in range(3):
                    self.external_attack(th, zz, n)
        elif op == "attack_unless_damaged":
            if th.damage < n:
                self.external_attack(th, z, n)
        elif op == "attack_counted":
            if th.counted:
                self.external_attack(th, z, n * th.counted)
        elif op == "reveal":
            th.revealed = True
        elif op == "drain_all_shields":
            st.shield = [0, 0, 0]
            self.emit("shields_drained", threat=th.card.id)
        elif op == "drain_each_shield":
            st.shield = [max(0, s - n) for s in st.shield]
            self.emit("shields_drained", threat=th.card.id, each=n)
        elif op == "repair":
            th.damage = max(0, th.damage - n)
            self.emit("threat_repairs", threat=th.card.id, damage=th.damage)
        elif op == "heal_half":
            th.damage -= th.damage // 2
            self.emit("threat_repairs", threat=th.card.id, damage=th.damage)
        elif op == "speed":
            th.speed += n
        elif op == "shield":
            th.shield += n
        elif op == "set_shield":
            th.shield = n
        elif op == "boost_others":
            if not th.grown:
                th.grown = True
                st.boost += 1
        elif op == "advance_others":
            for other in sorted(self.active(), key=lambda t: t.token):
                if other is not th and other.external and other.status == ACTIVE:
                    self.advance(other, n)
        elif op == "shield_all_external":
            for other in self.active():
                if other.external:
                    other.shield += n
        elif op == "count":
            th.counted += 1
        elif op == "damage_other_external":
            for other in sorted(self.active(), key=lambda t: t.token):
                if other is not th and other.external and other.status == ACTIVE:
                    other.damage += n
                    self.emit(
                        "damage", threat=other.card.id, strength=n, shield=0, damage=n, total=other.damage
                    )
                    if other.damage >= other.card.health:
                        self.destroy(other, th.card.id)
        elif op == "self_damage":
            th.damage += n
            self.emit("damage", threat=th.card.id, strength=n, shield=0, damage=n, total=th.damage)
            if th.damage >= th.card.health:
                self.destroy(th, "itself")
        elif op == "destroy_ship":
            st.lost = True
            st.end_reason = "threat_destroyed_ship"
            st.culprit = th.card.id
            self.emit("ship_destroyed", threat=th.card.id)
            raise ShipLost
        elif op == "delay_zone":
            for f in range(len(st.pos)):
                if st.pos[f] != SPACE and st.pos[f] % 3 == z:
                    self.delay(f, st.turn + 1)
        elif op == "delay_aboard":
            for f in range(len(st.pos)):
                if st.pos[f] != SPACE:
                    self.delay(f, st.turn + 1)
        elif op == "knockout_aboard":
            for f in range(len(st.pos)):
                if st.pos[f] != SPACE:
                    self.knock_out(f, th.card.id)
        # --- internal ---
        elif op == "move_red" or op == "move_blue":
            s = th.stations[0]
            nz = max(0, z - 1) if op == "move_red" else min(2, z + 1)
            if nz != z:
                self.move_internal(th, s - z + nz)
        elif op == "change_deck":
            self.move_internal(th, (th.stations[0] + 3) % 6)
        elif op == "drain_zone_reactor_1":
            if st.reactor[z] > 0:
                st.reactor[z] -= 1
            else:
                self.internal_attack(th, z, 1)
        elif op == "drain_zone_shield":
            st.shield[z] = 0
        elif op == "drain_zone_reactor":
            st.reactor[z] = 0
        elif op == "attack_warheads":
            self.internal_attack(th, z, n * max(0, th.counted - th.damage))
        elif op == "destroy_rocket":
            if st.rockets > 0:
                st.rockets -= 1
                self.emit("rocket_destroyed", threat=th.card.id, left=st.rockets)
        elif op == "disable_idle_bots":
            where = {s for s, _ in th.tokens} if th.tokens else set(th.stations)
            for k, at in enumerate(st.bots_at):
                if at in where:
                    st.bots_disabled[k] = True
                    self.emit("battlebots_disabled", threat=th.card.id, station=STATION_NAMES[at])
        elif op == "spread_red" or op == "spread_blue":
            step = -1 if op == "spread_red" else 1
            have = {s for s, _ in th.tokens}
            for s, _ in list(th.tokens):
                nz = s % 3 + step
                if 0 <= nz <= 2 and s + step not in have:
                    th.tokens.append([s + step, 1])
                    have.add(s + step)
                    self.emit("slime_spreads", threat=th.card.id, to=STATION_NAMES[s + step])
        elif op == "attack_per_token":
            places = [s for s, _ in th.tokens] if th.tokens else th.stations
            for s in places:
                self.internal_attack(th, s % 3, n)
        elif op == "drain_each_reactor":
            st.reactor = [max(0, r - n) for r in st.reactor]
        elif op == "attack_all_internal":
            for zz in range(3):
                self.internal_attack(th, zz, n)
        elif op == "attack_reactor_energy":
            self.internal_attack(th, z, st.reactor[z])
        elif op == "destroy_fuel":
            st.fuel = max(0, st.fuel - 1)
        elif op == "move_blue_if_damaged_else_attack" or op == "move_red_if_damaged_else_attack":
            if th.damage > 0:
                s = th.stations[0]
                nz = min(2, z + 1) if op.startswith("move_blue") else max(0, z - 1)
                if nz != z:
                    self.move_internal(th, s - z + nz)
            else:
                self.internal_attack(th, z, n)
        elif op == "knockout_station" or op == "knockout_at_stations":
            for f in self.figures_at(th.stations):
                self.knock_out(f, th.card.id)
        elif op == "grow_up":
            th.grown = True
        elif op == "attack_players_present":
            self.internal_attack(th, z, len(self.figures_at(th.stations)))
        elif op == "double_damage_zone":
            st.damage_mult[z] = 2
        elif op == "double_damage_all":
            st.damage_mult = [2, 2, 2]
        elif op == "energy_leak":
            # its zone's reactor empties into its shield; what the shield cannot hold leaks as damage
            moved = max(0, min(st.reactor[z], st.shield_cap[z] - st.shield[z]))
            leaked = st.reactor[z] - moved
            st.shield[z] += moved
            st.reactor[z] = 0
            self.internal_attack(th, z, leaked)
        elif op == "shield_leak":
            leaked, st.shield[z] = st.shield[z], 0
            self.internal_attack(th, z, leaked)
        elif op == "reactor_leak":
            # "every reactor": each leaks its energy as damage to its own zone
            for zz in range(3):
                leaked, st.reactor[zz] = st.reactor[zz], 0
                self.internal_attack(th, zz, leaked)
        elif op == "knockout_with_bots":
            for f in range(len(st.pos)):
                if st.pos[f] != SPACE and st.carry[f] >= 0:
                    self.knock_out(f, th.card.id)
        elif op == "knockout_aboard_red_blue":
            for f in range(len(st.pos)):
                if st.pos[f] != SPACE and st.pos[f] % 3 != 1:
                    self.knock_out(f, th.card.id)
        elif op == "knockout_without_bots":
            for f in self.figures_at(th.stations):
                if st.carry[f] < 0:
                    self.knock_out(f, th.card.id)
        elif op == "seek":
            s = th.stations[0]
            here = len(self.figures_at((s,)))
            zs = s % 3
            near = [(s + 3) % 6] + [s - zs + nz for nz in (zs - 1, zs + 1) if 0 <= nz <= 2]
            counts = [(len(self.figures_at((n2,))), n2) for n2 in near]
            top = max(c for c, _ in counts)
            best = [n2 for c, n2 in counts if c == top]
            if top > here and len(best) == 1:
                self.move_internal(th, best[0])
        elif op == "drain_white_reactor":
            st.reactor[1] = max(0, st.reactor[1] - n)
        elif op == "contaminate":
            # Z knocks out the figures there, and the stations stay contaminated for the mission
            for f in self.figures_at(th.stations):
                self.knock_out(f, th.card.id)
            for s in th.stations:
                st.contaminated[s] = th.card.id
        elif op == "delay_at_stations":
            for f in self.figures_at(th.stations):
                self.delay(f, st.turn + 1)
        else:  # pragma: no cover - components.EFFECT_OPS lists exactly the ops above
            raise ValueError(f"unknown effect {op}")

    # --- the round ---------------------------------------------------------------------------

    def play_turn(self, t: int) -> None:
        st = self.st
        st.turn = t
        self.lift_used = [False, False, False]
        self.observers = 0
        self.in_space = -1
        self.space_heroic = False
        if t <= TURNS:
            for th in st.threats:
                if th.status == WAITING and th.token == t:
                    self.appear(th)
            for f in range(len(st.pos)):
                self.player_action(f)
            if self.observers:
                p = self.phase(t)
                if self.observers > st.visual[p]:
                    st.visual[p] = self.observers
                    self.emit("visual_confirmation", phase=p + 1, observers=self.observers)
        else:
            for f in range(len(st.pos)):
                if st.pos[f] == SPACE:
                    self.emit("interceptors_return", figure=f)
                    self.move_to(f, UPPER_RED)
        self.compute_damage()
        self.threat_actions()
        if st.rocket_track[0]:
            st.rocket_track = [0, 1]
        if t in self.checks:
            p = self.phase(t)
            if not st.computer[p]:
                self.emit("computer_not_maintained", phase=p + 1)
                for f in range(len(st.pos)):
                    if st.pos[f] != SPACE:
                        self.delay(f, t + 1)

    def run(self) -> State:
        try:
            for t in range(1, TURNS + 2):
                self.play_turn(t)
        except ShipLost:
            pass
        return self.st


def score(comp: Components, st: State) -> dict:
    """The final score (rulebook: threat points, penalties, visual confirmation) and its parts."""
    pts = comp.points
    destroyed = [t.card.id for t in st.threats if t.status == DESTROYED]
    survived = [t.card.id for t in st.threats if t.status == SURVIVED]
    threat_points = sum(t.card.points[0] for t in st.threats if t.status == DESTROYED) + sum(
        t.card.points[1] for t in st.threats if t.status == SURVIVED
    )
    tiles = [len(x) for x in st.tiles]
    disabled = sum(1 for d in st.bots_disabled if d)
    knocked = sum(1 for k in st.knocked if k)
    penalties = (
        pts["penalty_damage"] * (sum(tiles) + max(tiles))
        + pts["penalty_disabled_bots"] * disabled
        + pts["penalty_knocked_out"] * knocked
    )
    visual = sum(comp.ship["visual_points"][min(v, 5)] for v in st.visual)
    return {
        "won": not st.lost,
        "score": threat_points - penalties + visual if not st.lost else 0,
        "threat_points": threat_points,
        "penalties": penalties,
        "visual_points": visual,
        "destroyed": destroyed,
        "survived": survived,
        "tiles": tiles,
        "disabled_bots": disabled,
        "knocked_out": knocked,
    }


def live_threats(comp: Components, threats: list[KnownThreat]) -> list[Live]:
    """The mission's threat cards as they come into play, each on its trajectory."""
    by_traj = {t.id: t for t in comp.trajectories}
    return [Live(comp.by_id[k.id], k.turn, k.zone, by_traj[k.trajectory]) for k in threats]


def resolve(
    comp: Components,
    threats: list[KnownThreat],
    plans: list[list[int]],
    tiles: list[list[str]],
    humans: int | None = None,
    trips: set | None = None,
    log: list | None = None,
) -> tuple[State, dict]:
    """One whole resolution round from the set-up: the final state and the score."""
    st = new_state(comp, len(plans), plans, tiles, humans)
    st.threats = live_threats(comp, threats)
    Resolution(comp, st, log, trips).run()
    return st, score(comp, st)
