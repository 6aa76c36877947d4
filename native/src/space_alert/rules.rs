//! `state.py` and `rules.py`: the ship during the resolution round, the round itself and the
//! score. Every step in the reference's order; no event log.

use super::*;

pub const EMPTY: u8 = 0;
pub const A: u8 = 1;
pub const B: u8 = 2;
pub const C: u8 = 3;
pub const BB: u8 = 4;
pub const RED: u8 = 5;
pub const BLUE: u8 = 6;
pub const LIFT: u8 = 7;
pub const HA: u8 = 8;
pub const HB: u8 = 9;
pub const HBB: u8 = 10;
pub const TELEPORT: u8 = 16;

pub const SPACE: i32 = 6;
pub const UPPER_RED: i32 = 0;
pub const UPPER_WHITE: i32 = 1;
pub const UPPER_BLUE: i32 = 2;
pub const LOWER_RED: i32 = 3;
pub const LOWER_WHITE: i32 = 4;
pub const LOWER_BLUE: i32 = 5;

pub const WAITING: u8 = 0;
pub const ACTIVE: u8 = 1;
pub const DESTROYED: u8 = 2;
pub const SURVIVED: u8 = 3;

pub const TURNS: usize = 12;

/// `end_reason` codes (END_REASONS).
pub const SURVIVED_END: u8 = 0;
pub const ZONE_DESTROYED: u8 = 1;
pub const THREAT_DESTROYED_SHIP: u8 = 2;

/// One threat card in play (`state.Live`).
#[derive(Clone, Debug)]
pub struct Live {
    pub card: usize,
    pub token: i32,
    pub zone: i32,
    pub traj: usize,
    pub pos: i32,
    pub damage: i32,
    pub shield: i32,
    pub speed: i32,
    pub status: u8,
    pub cryo: bool,
    pub revealed: bool,
    pub counted: i32,
    pub stations: Vec<i32>,
    pub tokens: Vec<(i32, i32)>,
    pub grown: bool,
    pub external: bool,
}

impl Live {
    pub fn new(comp: &Components, card: usize, token: i32, zone: i32, traj: usize) -> Live {
        let c = &comp.threats[card];
        Live {
            card,
            token,
            zone,
            traj,
            pos: comp.trajectories[traj].length,
            damage: 0,
            shield: c.shield,
            speed: c.speed,
            status: WAITING,
            cryo: c.has(CRYOSHIELD),
            revealed: !c.has(STEALTH),
            counted: 0,
            stations: c.stations.clone(),
            tokens: Vec::new(),
            grown: false,
            external: c.kind == EXTERNAL,
        }
    }
}

/// `state.State`.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub turn: i32,
    pub reactor: [i32; 3],
    pub reactor_cap: [i32; 3],
    pub shield: [i32; 3],
    pub shield_cap: [i32; 3],
    pub fuel: i32,
    pub rockets: i32,
    pub rocket_track: [i32; 2],
    pub heavy: [i32; 3],
    pub light: [i32; 3],
    pub pulse_range: i32,
    pub lift_damaged: [bool; 3],
    pub tiles: [Vec<u8>; 3],
    pub tile_stacks: [Vec<u8>; 3],
    pub bots_at: Vec<i32>,
    pub bots_disabled: Vec<bool>,
    pub computer: [bool; 3],
    pub visual: [i32; 3],
    pub damage_mult: [i32; 3],
    pub pos: Vec<i32>,
    pub knocked: Vec<bool>,
    pub carry: Vec<i32>,
    pub plans: Vec<[u8; 13]>,
    pub delayed_at: Vec<i32>,
    pub threats: Vec<Live>,
    /// (station, button) pairs wrecked by a malfunction's Z: a bit per button code, per station.
    pub broken: [u32; 6],
    pub boost: i32,
    pub lost: bool,
    pub end_reason: u8,
    pub humans: usize,
    /// The card index of the threat that destroyed the ship (-1: none yet).
    pub culprit: i64,
    pub contaminated: [bool; 6],
}

impl State {
    /// `state.new_state`; `plans[f]` holds 12 cards.
    pub fn reset(
        &mut self,
        comp: &Components,
        figures: usize,
        plans: &[[u8; 12]],
        stacks: &[Vec<u8>; 3],
        humans: usize,
    ) {
        self.turn = 0;
        self.reactor = comp.reactor_start;
        self.reactor_cap = comp.reactor_capacity;
        self.shield = comp.shield_start;
        self.shield_cap = comp.shield_capacity;
        self.fuel = comp.fuel;
        self.rockets = comp.rockets;
        self.rocket_track = [0, 0];
        self.heavy = comp.heavy_laser;
        self.light = comp.light_laser;
        self.pulse_range = comp.pulse_range;
        self.lift_damaged = [false; 3];
        for (z, stack) in stacks.iter().enumerate() {
            self.tiles[z].clear();
            self.tile_stacks[z].clear();
            self.tile_stacks[z].extend_from_slice(stack);
        }
        self.bots_at.clear();
        self.bots_at.extend_from_slice(&comp.battlebots);
        self.bots_disabled.clear();
        self.bots_disabled.resize(comp.battlebots.len(), false);
        self.computer = [false; 3];
        self.visual = [0; 3];
        self.damage_mult = [1; 3];
        self.pos.clear();
        self.pos.resize(figures, comp.start_station);
        self.knocked.clear();
        self.knocked.resize(figures, false);
        self.carry.clear();
        self.carry.resize(figures, -1);
        self.plans.clear();
        for p in plans.iter().take(figures) {
            let mut row = [EMPTY; 13];
            row[1..].copy_from_slice(p);
            self.plans.push(row);
        }
        self.delayed_at.clear();
        self.delayed_at.resize(figures, 0);
        self.threats.clear();
        self.broken = [0; 6];
        self.boost = 0;
        self.lost = false;
        self.end_reason = SURVIVED_END;
        self.humans = humans;
        self.culprit = -1;
        self.contaminated = [false; 6];
    }
}

pub struct Lost;
type R = Result<(), Lost>;

/// `rules.Resolver`.
pub struct Resolver<'a> {
    comp: &'a Components,
    pub st: &'a mut State,
    /// trips[f]: bit t set when figure f trips on turn t.
    trips: &'a [u16],
    fired_heavy: [u8; 3],
    fired_light: [u8; 3],
    fired_pulse: u8,
    lift_used: [bool; 3],
    in_space: i32,
    space_heroic: bool,
    observers: i32,
}

fn button_code(button: u8) -> u8 {
    button
}

impl<'a> Resolver<'a> {
    pub fn new(comp: &'a Components, st: &'a mut State, trips: &'a [u16]) -> Resolver<'a> {
        Resolver {
            comp,
            st,
            trips,
            fired_heavy: [0; 3],
            fired_light: [0; 3],
            fired_pulse: 0,
            lift_used: [false; 3],
            in_space: -1,
            space_heroic: false,
            observers: 0,
        }
    }

    #[inline]
    fn card(&self, ti: usize) -> &'a Threat {
        &self.comp.threats[self.st.threats[ti].card]
    }

    #[inline]
    fn distance(&self, ti: usize) -> i32 {
        let (lo, hi) = self.comp.distance_bounds;
        let p = self.st.threats[ti].pos;
        if p <= lo {
            1
        } else if p <= hi {
            2
        } else {
            3
        }
    }

    fn phase(&self, turn: i32) -> usize {
        for (p, &end) in self.comp.phase_ends.iter().enumerate() {
            if turn <= end {
                return p;
            }
        }
        self.comp.phase_ends.len() - 1
    }

    fn active_by_token(&self) -> Vec<usize> {
        let mut out: Vec<usize> = (0..self.st.threats.len())
            .filter(|&i| self.st.threats[i].status == ACTIVE)
            .collect();
        out.sort_by_key(|&i| self.st.threats[i].token);
        out
    }

    fn delay(&mut self, f: usize, turn: i32) {
        let st = &mut *self.st;
        if turn > TURNS as i32 || st.delayed_at[f] == turn {
            return;
        }
        st.delayed_at[f] = turn;
        let plan = &mut st.plans[f];
        let turn = turn as usize;
        if plan[turn] == EMPTY {
            return;
        }
        let mut k = turn;
        while k <= TURNS && plan[k] != EMPTY {
            k += 1;
        }
        let mut j = k.min(TURNS);
        while j > turn {
            plan[j] = plan[j - 1];
            j -= 1;
        }
        plan[turn] = EMPTY;
    }

    fn knock_out(&mut self, f: usize) {
        let st = &mut *self.st;
        if st.knocked[f] {
            return;
        }
        st.knocked[f] = true;
        if st.carry[f] >= 0 {
            st.bots_disabled[st.carry[f] as usize] = true;
        }
    }

    fn draw_tile(&mut self, z: usize) -> R {
        let st = &mut *self.st;
        if st.tiles[z].len() >= st.tile_stacks[z].len() {
            st.lost = true;
            st.end_reason = ZONE_DESTROYED;
            return Err(Lost);
        }
        let tile = st.tile_stacks[z][st.tiles[z].len()];
        st.tiles[z].push(tile);
        match tile {
            TILE_REACTOR => {
                st.reactor_cap[z] = (st.reactor_cap[z] - 1).max(0);
                st.reactor[z] = st.reactor[z].min(st.reactor_cap[z]);
            }
            TILE_SHIELD => {
                st.shield_cap[z] = (st.shield_cap[z] - 1).max(0);
                st.shield[z] = st.shield[z].min(st.shield_cap[z]);
            }
            TILE_HEAVY => st.heavy[z] = (st.heavy[z] - 1).max(0),
            TILE_CANNON => {
                if z == 1 {
                    st.pulse_range = (st.pulse_range - 1).max(1);
                } else {
                    st.light[z] = (st.light[z] - 1).max(0);
                }
            }
            TILE_LIFT => st.lift_damaged[z] = true,
            _ => {}
        }
        Ok(())
    }

    fn hull(&mut self, z: usize, n: i32, factor: i32) -> R {
        let n = n * factor * self.st.damage_mult[z];
        for _ in 0..n.max(0) {
            self.draw_tile(z)?;
        }
        Ok(())
    }

    fn external_attack(&mut self, ti: usize, z: usize, mut n: i32, unshielded: bool) -> R {
        let card = self.card(ti);
        let (external, grown, idx) = {
            let th = &self.st.threats[ti];
            (th.external, th.grown, th.card)
        };
        if self.st.boost != 0 && external {
            n += self.st.boost - i32::from(grown && card.has(HEAVY_LASER_IGNORES));
        }
        let st = &mut *self.st;
        st.culprit = idx as i64;
        let absorbed = if unshielded { 0 } else { st.shield[z].min(n) };
        st.shield[z] -= absorbed;
        let through = n - absorbed;
        if through > 0 {
            let factor = if card.has(DOUBLE_DAMAGE) { 2 } else { 1 };
            self.hull(z, through, factor)?;
        }
        Ok(())
    }

    fn internal_attack(&mut self, ti: usize, z: usize, n: i32) -> R {
        self.st.culprit = self.st.threats[ti].card as i64;
        if n > 0 {
            self.hull(z, n, 1)?;
        }
        Ok(())
    }

    fn appear(&mut self, ti: usize) -> R {
        let card = self.card(ti);
        let rockets = self.st.rockets;
        let th = &mut self.st.threats[ti];
        th.status = ACTIVE;
        if card.has(HEALTH_IS_ROCKETS) {
            th.counted = rockets;
        }
        if card.has(SLIME) {
            th.tokens = th.stations.iter().map(|&s| (s, card.health)).collect();
        }
        if card.has(HEALTH_IS_ROCKETS) && th.counted == 0 {
            self.destroy(ti)?;
        }
        Ok(())
    }

    fn health(&self, ti: usize) -> i32 {
        let card = self.card(ti);
        if card.has(HEALTH_IS_ROCKETS) {
            self.st.threats[ti].counted
        } else {
            card.health
        }
    }

    fn destroy(&mut self, ti: usize) -> R {
        let card = self.card(ti);
        let th = &mut self.st.threats[ti];
        th.status = DESTROYED;
        if th.external && card.has(HEAVY_LASER_IGNORES) && th.grown {
            self.st.boost -= 1;
        }
        for &(op, n) in &card.effects[3] {
            self.effect(ti, op, n)?;
        }
        Ok(())
    }

    fn move_to(&mut self, f: usize, station: i32) {
        self.st.pos[f] = station;
        let slimed = self.st.threats.iter().any(|th| {
            th.status == ACTIVE
                && !th.tokens.is_empty()
                && th.tokens.iter().any(|&(s, _)| s == station)
        });
        if slimed {
            let t = self.st.turn + 1;
            self.delay(f, t);
        }
        if self.st.contaminated[station as usize] {
            self.knock_out(f);
        }
    }

    fn player_action(&mut self, f: usize) -> R {
        let t = self.st.turn;
        let card = self.st.plans[f][t as usize];
        if self.st.knocked[f] {
            return Ok(());
        }
        if self.st.pos[f] == SPACE {
            if card == BB || card == HBB {
                self.in_space = f as i32;
                self.space_heroic = card == HBB;
                return Ok(());
            }
            self.move_to(f, UPPER_RED);
            if card != EMPTY {
                self.st.delayed_at[f] = 0;
                self.delay(f, t);
            }
            return Ok(());
        }
        if card == EMPTY {
            return Ok(());
        }
        let here = self.st.pos[f];
        if card >= TELEPORT {
            self.move_to(f, (card - TELEPORT) as i32);
        } else if card == RED || card == BLUE {
            let z = here % 3;
            let nz = if card == RED {
                (z - 1).max(0)
            } else {
                (z + 1).min(2)
            };
            if nz != z {
                self.move_to(f, here - z + nz);
            }
        } else if card == LIFT {
            let z = (here % 3) as usize;
            let late = self.lift_used[z] || self.st.lift_damaged[z];
            self.lift_used[z] = true;
            self.move_to(f, (here + 3) % 6);
            if late {
                self.delay(f, t + 1);
            }
        } else {
            self.button(f, here, card)?;
        }
        if f < self.trips.len() && self.trips[f] & (1 << t) != 0 && f < self.st.humans {
            self.delay(f, t + 1);
        }
        Ok(())
    }

    fn button(&mut self, f: usize, s: i32, card: u8) -> R {
        let comp = self.comp;
        let heroic = card == HA || card == HB || card == HBB;
        let base = match card {
            HA => A,
            HB => B,
            HBB => BB,
            c => c,
        };
        let z = (s % 3) as usize;
        if base != BB {
            if self.st.broken[s as usize] & (1 << base) != 0 {
                return Ok(());
            }
            let mut mal: Option<usize> = None;
            for (i, th) in self.st.threats.iter().enumerate() {
                let c = &comp.threats[th.card];
                if th.status == ACTIVE
                    && c.kind == MALFUNCTION
                    && button_code(c.button) == base
                    && th.stations.contains(&s)
                    && mal.is_none_or(|m| th.token < self.st.threats[m].token)
                {
                    mal = Some(i);
                }
            }
            if let Some(ti) = mal {
                self.st.threats[ti].damage += if heroic { 2 } else { 1 };
                if self.st.threats[ti].damage >= self.health(ti) {
                    self.destroy(ti)?;
                }
                return Ok(());
            }
        }
        let st = &mut *self.st;
        let h = if heroic { 2 } else { 1 };
        if base == A {
            if s < 3 {
                if self.fired_heavy[z] != 0 {
                    self.fired_heavy[z] = self.fired_heavy[z].max(h);
                } else if st.reactor[z] > 0 {
                    st.reactor[z] -= 1;
                    self.fired_heavy[z] = h;
                }
            } else if z == 1 {
                if self.fired_pulse != 0 {
                    self.fired_pulse = self.fired_pulse.max(h);
                } else if st.reactor[1] > 0 {
                    st.reactor[1] -= 1;
                    self.fired_pulse = h;
                }
            } else {
                self.fired_light[z] = self.fired_light[z].max(h);
            }
        } else if base == B {
            let bonus = |moved: i32| moved + i32::from(heroic && moved > 0);
            if s < 3 {
                let moved = st.reactor[z].min(st.shield_cap[z] - st.shield[z]).max(0);
                st.reactor[z] -= moved;
                st.shield[z] += bonus(moved);
            } else if z == 1 {
                if st.fuel > 0 {
                    st.fuel -= 1;
                    let moved = (st.reactor_cap[1] - st.reactor[1]).max(0);
                    st.reactor[1] += bonus(moved);
                }
            } else {
                let moved = st.reactor[1].min(st.reactor_cap[z] - st.reactor[z]).max(0);
                st.reactor[1] -= moved;
                st.reactor[z] += bonus(moved);
            }
        } else if base == C {
            if s == UPPER_RED {
                let k = st.carry[f];
                if k >= 0 && !st.bots_disabled[k as usize] && !st.pos.contains(&SPACE) {
                    st.pos[f] = SPACE;
                    self.in_space = f as i32;
                    self.space_heroic = false;
                }
            } else if s == UPPER_WHITE {
                let turn = st.turn;
                let p = self.phase(turn);
                let st = &mut *self.st;
                if !st.computer[p] {
                    st.computer[p] = true;
                }
            } else if s == UPPER_BLUE || s == LOWER_RED {
                let k = st.carry[f];
                if k >= 0 {
                    if st.bots_disabled[k as usize] {
                        st.bots_disabled[k as usize] = false;
                    }
                } else {
                    for k2 in 0..st.bots_at.len() {
                        if st.bots_at[k2] == s {
                            st.bots_at[k2] = -1;
                            st.carry[f] = k2 as i32;
                            break;
                        }
                    }
                }
            } else if s == LOWER_WHITE {
                self.observers += 1;
            } else if st.rockets > 0 && st.rocket_track[0] == 0 {
                st.rockets -= 1;
                st.rocket_track[0] = 1;
            }
        } else {
            let k = st.carry[f];
            if k < 0 || st.bots_disabled[k as usize] {
                return Ok(());
            }
            let mut target: Option<usize> = None;
            for (i, th) in st.threats.iter().enumerate() {
                if th.status == ACTIVE
                    && comp.threats[th.card].kind == INTRUDER
                    && target.is_none_or(|m| th.token < st.threats[m].token)
                    && ((!th.tokens.is_empty() && th.tokens.iter().any(|&(ts, _)| ts == s))
                        || (th.tokens.is_empty() && th.stations.contains(&s)))
                {
                    target = Some(i);
                }
            }
            let Some(ti) = target else {
                return Ok(());
            };
            let card = self.card(ti);
            let th = &mut self.st.threats[ti];
            if !th.tokens.is_empty() {
                let j = th.tokens.iter().position(|t| t.0 == s).unwrap();
                th.tokens[j].1 -= 1;
                th.damage += 1;
                if th.tokens[j].1 <= 0 {
                    th.tokens.remove(j);
                }
                if th.tokens.is_empty() {
                    self.destroy(ti)?;
                }
            } else {
                th.damage += 1;
                if th.damage >= self.health(ti) {
                    self.destroy(ti)?;
                }
            }
            let grown = self.st.threats[ti].grown;
            let fights = card.has(FIGHTS_BACK) || (card.has(FIGHTS_BACK_AFTER_X) && grown);
            if fights && !heroic {
                self.st.bots_disabled[k as usize] = true;
            }
        }
        Ok(())
    }

    fn targetable(&self, ti: usize, weapon: u8) -> bool {
        let card = self.card(ti);
        if !self.st.threats[ti].revealed {
            return false;
        }
        if card.has(UNTARGETABLE_FAR) && self.distance(ti) == 3 {
            return false;
        }
        if weapon == W_HEAVY && card.has(HEAVY_LASER_IGNORES) {
            return false;
        }
        if weapon == W_ROCKET && card.has(ROCKET_IMMUNE) {
            return false;
        }
        true
    }

    fn closest(&self, cands: impl Iterator<Item = usize>) -> Option<usize> {
        let mut best: Option<usize> = None;
        for i in cands {
            let th = &self.st.threats[i];
            match best {
                None => best = Some(i),
                Some(b) => {
                    let bt = &self.st.threats[b];
                    if th.pos < bt.pos || (th.pos == bt.pos && th.token < bt.token) {
                        best = Some(i);
                    }
                }
            }
        }
        best
    }

    fn compute_damage(&mut self) -> R {
        let comp = self.comp;
        let ext: Vec<usize> = (0..self.st.threats.len())
            .filter(|&i| self.st.threats[i].status == ACTIVE && self.st.threats[i].external)
            .collect();
        // (threat, strength, pulse, rocket)
        let mut hits: Vec<(usize, i32, bool, bool)> = Vec::new();
        fn hit(hits: &mut Vec<(usize, i32, bool, bool)>, ti: usize, strength: i32, kind: u8) {
            let j = match hits.iter().position(|h| h.0 == ti) {
                Some(j) => j,
                None => {
                    hits.push((ti, 0, false, false));
                    hits.len() - 1
                }
            };
            if kind == K_ROCKET_WASTED {
                hits[j].3 = true;
                return;
            }
            hits[j].1 += strength;
            if kind == K_PULSE {
                hits[j].2 = true;
            } else if kind == K_ROCKET {
                hits[j].3 = true;
            }
        }
        for z in 0..3 {
            if self.fired_heavy[z] != 0 {
                let target = self.closest(ext.iter().copied().filter(|&t| {
                    self.st.threats[t].zone == z as i32
                        && self.distance(t) <= comp.laser_range
                        && self.targetable(t, W_HEAVY)
                }));
                if let Some(t) = target {
                    let s = self.st.heavy[z] + i32::from(self.fired_heavy[z] == 2);
                    hit(&mut hits, t, s, K_OTHER);
                }
            }
            if self.fired_light[z] != 0 {
                let target = self.closest(ext.iter().copied().filter(|&t| {
                    self.st.threats[t].zone == z as i32
                        && self.distance(t) <= comp.laser_range
                        && self.targetable(t, W_OTHER)
                }));
                if let Some(t) = target {
                    let s = self.st.light[z] + i32::from(self.fired_light[z] == 2);
                    hit(&mut hits, t, s, K_OTHER);
                }
            }
        }
        if self.fired_pulse != 0 {
            let s = comp.pulse_strength + i32::from(self.fired_pulse == 2);
            for &t in &ext {
                if self.distance(t) <= self.st.pulse_range && self.targetable(t, W_OTHER) {
                    hit(&mut hits, t, s, K_PULSE);
                }
            }
        }
        if self.st.rocket_track[1] != 0 {
            let mut target: Option<usize> = None;
            for &t in &ext {
                if self.card(t).has(ROCKET_MAGNET)
                    && self.st.threats[t].revealed
                    && target.is_none_or(|m| self.st.threats[t].token < self.st.threats[m].token)
                {
                    target = Some(t);
                }
            }
            if target.is_none() {
                target = self.closest(ext.iter().copied().filter(|&t| {
                    self.distance(t) <= comp.rocket_range && self.targetable(t, W_ROCKET)
                }));
            }
            if let Some(t) = target {
                let kind = if self.card(t).has(ROCKET_WASTED) {
                    K_ROCKET_WASTED
                } else {
                    K_ROCKET
                };
                hit(&mut hits, t, comp.rocket_strength, kind);
            }
        }
        let mut pilot_out = false;
        if self.in_space >= 0 {
            let targets: Vec<usize> = ext
                .iter()
                .copied()
                .filter(|&t| self.distance(t) <= comp.icpt_range && self.targetable(t, W_OTHER))
                .collect();
            let bonus = i32::from(self.space_heroic);
            if targets.len() == 1 {
                let mut strength = comp.icpt_single + bonus;
                if self.card(targets[0]).has(BEHEMOTH_INTERCEPTORS) {
                    strength += 6;
                    pilot_out = true;
                }
                hit(&mut hits, targets[0], strength, K_OTHER);
            } else {
                for &t in &targets {
                    hit(&mut hits, t, comp.icpt_multi + bonus, K_OTHER);
                }
            }
        }
        self.fired_heavy = [0; 3];
        self.fired_light = [0; 3];
        self.fired_pulse = 0;
        self.st.rocket_track[1] = 0;
        hits.sort_by_key(|h| self.st.threats[h.0].token);
        for &(ti, strength, pulse, rocket) in &hits {
            if self.st.threats[ti].status != ACTIVE {
                continue;
            }
            let card = self.card(ti);
            if self.st.threats[ti].cryo {
                self.st.threats[ti].cryo = false;
                continue;
            }
            let shield = if pulse && card.has(PULSE_IGNORES_SHIELD) {
                0
            } else {
                self.st.threats[ti].shield
            };
            let mut dmg = if strength > 0 { strength - shield } else { 0 };
            if card.has(MAX_ONE_DAMAGE) {
                dmg = dmg.min(1);
            }
            if dmg > 0 {
                self.st.threats[ti].damage += dmg;
                if card.has(NEMESIS_BACKLASH) {
                    for z in 0..3 {
                        self.external_attack(ti, z, 1, false)?;
                    }
                }
                if self.st.threats[ti].damage >= card.health {
                    self.destroy(ti)?;
                }
            }
            if rocket && card.has(ROCKET_MAGNET) && self.st.threats[ti].status == ACTIVE {
                self.st.threats[ti].shield += 1;
            }
        }
        if pilot_out {
            self.knock_out(self.in_space as usize);
        }
        Ok(())
    }

    fn threat_actions(&mut self) -> R {
        for ti in self.active_by_token() {
            if self.st.threats[ti].status == ACTIVE {
                let speed = self.st.threats[ti].speed;
                self.advance(ti, speed)?;
            }
        }
        Ok(())
    }

    fn advance(&mut self, ti: usize, steps: i32) -> R {
        let comp = self.comp;
        let card = self.card(ti);
        let action = &comp.trajectories[self.st.threats[ti].traj].action;
        for _ in 0..steps.max(0) {
            if self.st.threats[ti].status != ACTIVE {
                return Ok(());
            }
            self.st.threats[ti].pos -= 1;
            let a = action[self.st.threats[ti].pos as usize];
            if a != 0 {
                if a == 3 {
                    self.st.threats[ti].status = SURVIVED;
                    for &(op, n) in &card.effects[2] {
                        self.effect(ti, op, n)?;
                    }
                    if card.kind == MALFUNCTION {
                        for &s in &self.st.threats[ti].stations {
                            self.st.broken[s as usize] |= 1 << button_code(card.button);
                        }
                    }
                    return Ok(());
                }
                for &(op, n) in &card.effects[a as usize - 1] {
                    self.effect(ti, op, n)?;
                    if self.st.threats[ti].status == DESTROYED {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    fn zone_of(&self, ti: usize) -> usize {
        let th = &self.st.threats[ti];
        if th.external {
            th.zone as usize
        } else if !th.tokens.is_empty() {
            (th.tokens[0].0 % 3) as usize
        } else {
            (th.stations[0] % 3) as usize
        }
    }

    fn at_count(&self, stations: &[i32]) -> usize {
        self.st.pos.iter().filter(|p| stations.contains(p)).count()
    }

    fn move_internal(&mut self, ti: usize, station: i32) {
        let th = &mut self.st.threats[ti];
        th.stations.clear();
        th.stations.push(station);
    }

    fn effect(&mut self, ti: usize, op: Op, n: i32) -> R {
        let z = self.zone_of(ti);
        let figures = self.st.pos.len();
        let turn = self.st.turn;
        match op {
            Op::Attack => {
                if self.st.threats[ti].external {
                    self.external_attack(ti, z, n, false)?;
                } else {
                    self.internal_attack(ti, z, n)?;
                }
            }
            Op::AttackAll => {
                for zz in 0..3 {
                    self.external_attack(ti, zz, n, false)?;
                }
            }
            Op::AttackOthers => {
                for zz in 0..3 {
                    if zz != z {
                        self.external_attack(ti, zz, n, false)?;
                    }
                }
            }
            Op::AttackRedBlue => {
                self.external_attack(ti, 0, n, false)?;
                self.external_attack(ti, 2, n, false)?;
            }
            Op::AttackUnshielded => self.external_attack(ti, z, n, true)?,
            Op::AttackRemaining => {
                let left = (self.card(ti).health - self.st.threats[ti].damage).max(0);
                self.external_attack(ti, z, n * left, false)?;
            }
            Op::AttackAllIfDamaged => {
                if self.st.threats[ti].damage > 0 {
                    for zz in 0..3 {
                        self.external_attack(ti, zz, n, false)?;
                    }
                }
            }
            Op::AttackUnlessDamaged => {
                if self.st.threats[ti].damage < n {
                    self.external_attack(ti, z, n, false)?;
                }
            }
            Op::AttackCounted => {
                let c = self.st.threats[ti].counted;
                if c != 0 {
                    self.external_attack(ti, z, n * c, false)?;
                }
            }
            Op::Reveal => self.st.threats[ti].revealed = true,
            Op::DrainAllShields => self.st.shield = [0; 3],
            Op::DrainEachShield => {
                for s in self.st.shield.iter_mut() {
                    *s = (*s - n).max(0);
                }
            }
            Op::Repair => {
                let th = &mut self.st.threats[ti];
                th.damage = (th.damage - n).max(0);
            }
            Op::HealHalf => {
                let th = &mut self.st.threats[ti];
                th.damage -= th.damage.div_euclid(2);
            }
            Op::Speed => self.st.threats[ti].speed += n,
            Op::Shield => self.st.threats[ti].shield += n,
            Op::SetShield => self.st.threats[ti].shield = n,
            Op::BoostOthers => {
                if !self.st.threats[ti].grown {
                    self.st.threats[ti].grown = true;
                    self.st.boost += 1;
                }
            }
            Op::AdvanceOthers => {
                for other in self.active_by_token() {
                    if other != ti
                        && self.st.threats[other].external
                        && self.st.threats[other].status == ACTIVE
                    {
                        self.advance(other, n)?;
                    }
                }
            }
            Op::ShieldAllExternal => {
                for th in self.st.threats.iter_mut() {
                    if th.status == ACTIVE && th.external {
                        th.shield += n;
                    }
                }
            }
            Op::Count => self.st.threats[ti].counted += 1,
            Op::DamageOtherExternal => {
                for other in self.active_by_token() {
                    if other != ti
                        && self.st.threats[other].external
                        && self.st.threats[other].status == ACTIVE
                    {
                        self.st.threats[other].damage += n;
                        if self.st.threats[other].damage >= self.card(other).health {
                            self.destroy(other)?;
                        }
                    }
                }
            }
            Op::SelfDamage => {
                self.st.threats[ti].damage += n;
                if self.st.threats[ti].damage >= self.card(ti).health {
                    self.destroy(ti)?;
                }
            }
            Op::DestroyShip => {
                self.st.lost = true;
                self.st.end_reason = THREAT_DESTROYED_SHIP;
                self.st.culprit = self.st.threats[ti].card as i64;
                return Err(Lost);
            }
            Op::DelayZone => {
                for f in 0..figures {
                    if self.st.pos[f] != SPACE && self.st.pos[f] % 3 == z as i32 {
                        self.delay(f, turn + 1);
                    }
                }
            }
            Op::DelayAboard => {
                for f in 0..figures {
                    if self.st.pos[f] != SPACE {
                        self.delay(f, turn + 1);
                    }
                }
            }
            Op::KnockoutAboard => {
                for f in 0..figures {
                    if self.st.pos[f] != SPACE {
                        self.knock_out(f);
                    }
                }
            }
            Op::MoveRed | Op::MoveBlue => {
                let s = self.st.threats[ti].stations[0];
                let z = z as i32;
                let nz = if op == Op::MoveRed {
                    (z - 1).max(0)
                } else {
                    (z + 1).min(2)
                };
                if nz != z {
                    self.move_internal(ti, s - z + nz);
                }
            }
            Op::ChangeDeck => {
                let s = self.st.threats[ti].stations[0];
                self.move_internal(ti, (s + 3) % 6);
            }
            Op::DrainZoneReactor1 => {
                if self.st.reactor[z] > 0 {
                    self.st.reactor[z] -= 1;
                } else {
                    self.internal_attack(ti, z, 1)?;
                }
            }
            Op::DrainZoneShield => self.st.shield[z] = 0,
            Op::DrainZoneReactor => self.st.reactor[z] = 0,
            Op::AttackWarheads => {
                let th = &self.st.threats[ti];
                let k = (th.counted - th.damage).max(0);
                self.internal_attack(ti, z, n * k)?;
            }
            Op::DestroyRocket => {
                if self.st.rockets > 0 {
                    self.st.rockets -= 1;
                }
            }
            Op::DisableIdleBots => {
                let th = &self.st.threats[ti];
                let place: Vec<i32> = if th.tokens.is_empty() {
                    th.stations.clone()
                } else {
                    th.tokens.iter().map(|t| t.0).collect()
                };
                for k in 0..self.st.bots_at.len() {
                    if place.contains(&self.st.bots_at[k]) {
                        self.st.bots_disabled[k] = true;
                    }
                }
            }
            Op::SpreadRed | Op::SpreadBlue => {
                let step = if op == Op::SpreadRed { -1 } else { 1 };
                let th = &mut self.st.threats[ti];
                let mut have: Vec<i32> = th.tokens.iter().map(|t| t.0).collect();
                let snapshot = th.tokens.len();
                for i in 0..snapshot {
                    let s = th.tokens[i].0;
                    let nz = s % 3 + step;
                    if (0..=2).contains(&nz) && !have.contains(&(s + step)) {
                        th.tokens.push((s + step, 1));
                        have.push(s + step);
                    }
                }
            }
            Op::AttackPerToken => {
                let th = &self.st.threats[ti];
                let places: Vec<i32> = if th.tokens.is_empty() {
                    th.stations.clone()
                } else {
                    th.tokens.iter().map(|t| t.0).collect()
                };
                for s in places {
                    self.internal_attack(ti, (s % 3) as usize, n)?;
                }
            }
            Op::DrainEachReactor => {
                for r in self.st.reactor.iter_mut() {
                    *r = (*r - n).max(0);
                }
            }
            Op::AttackAllInternal => {
                for zz in 0..3 {
                    self.internal_attack(ti, zz, n)?;
                }
            }
            Op::AttackReactorEnergy => {
                let e = self.st.reactor[z];
                self.internal_attack(ti, z, e)?;
            }
            Op::DestroyFuel => self.st.fuel = (self.st.fuel - 1).max(0),
            Op::MoveBlueIfDamagedElseAttack | Op::MoveRedIfDamagedElseAttack => {
                if self.st.threats[ti].damage > 0 {
                    let s = self.st.threats[ti].stations[0];
                    let z = z as i32;
                    let nz = if op == Op::MoveBlueIfDamagedElseAttack {
                        (z + 1).min(2)
                    } else {
                        (z - 1).max(0)
                    };
                    if nz != z {
                        self.move_internal(ti, s - z + nz);
                    }
                } else {
                    self.internal_attack(ti, z, n)?;
                }
            }
            Op::KnockoutStation | Op::KnockoutAtStations => {
                let stations = self.st.threats[ti].stations.clone();
                for f in 0..figures {
                    if stations.contains(&self.st.pos[f]) {
                        self.knock_out(f);
                    }
                }
            }
            Op::GrowUp => self.st.threats[ti].grown = true,
            Op::AttackPlayersPresent => {
                let c = self.at_count(&self.st.threats[ti].stations.clone());
                self.internal_attack(ti, z, c as i32)?;
            }
            Op::DoubleDamageZone => self.st.damage_mult[z] = 2,
            Op::DoubleDamageAll => self.st.damage_mult = [2; 3],
            Op::EnergyLeak => {
                let st = &mut *self.st;
                let moved = st.reactor[z].min(st.shield_cap[z] - st.shield[z]).max(0);
                let leaked = st.reactor[z] - moved;
                st.shield[z] += moved;
                st.reactor[z] = 0;
                self.internal_attack(ti, z, leaked)?;
            }
            Op::ShieldLeak => {
                let leaked = self.st.shield[z];
                self.st.shield[z] = 0;
                self.internal_attack(ti, z, leaked)?;
            }
            Op::ReactorLeak => {
                for zz in 0..3 {
                    let leaked = self.st.reactor[zz];
                    self.st.reactor[zz] = 0;
                    self.internal_attack(ti, zz, leaked)?;
                }
            }
            Op::KnockoutWithBots => {
                for f in 0..figures {
                    if self.st.pos[f] != SPACE && self.st.carry[f] >= 0 {
                        self.knock_out(f);
                    }
                }
            }
            Op::KnockoutAboardRedBlue => {
                for f in 0..figures {
                    if self.st.pos[f] != SPACE && self.st.pos[f] % 3 != 1 {
                        self.knock_out(f);
                    }
                }
            }
            Op::KnockoutWithoutBots => {
                let stations = self.st.threats[ti].stations.clone();
                let at: Vec<usize> = (0..figures)
                    .filter(|&f| stations.contains(&self.st.pos[f]))
                    .collect();
                for f in at {
                    if self.st.carry[f] < 0 {
                        self.knock_out(f);
                    }
                }
            }
            Op::Seek => {
                let s = self.st.threats[ti].stations[0];
                let here = self.at_count(&[s]);
                let zs = s % 3;
                let mut near: Vec<i32> = vec![(s + 3) % 6];
                for nz in [zs - 1, zs + 1] {
                    if (0..=2).contains(&nz) {
                        near.push(s - zs + nz);
                    }
                }
                let counts: Vec<(usize, i32)> =
                    near.iter().map(|&n2| (self.at_count(&[n2]), n2)).collect();
                let top = counts.iter().map(|c| c.0).max().unwrap();
                let best: Vec<i32> = counts.iter().filter(|c| c.0 == top).map(|c| c.1).collect();
                if top > here && best.len() == 1 {
                    self.move_internal(ti, best[0]);
                }
            }
            Op::DrainWhiteReactor => self.st.reactor[1] = (self.st.reactor[1] - n).max(0),
            Op::Contaminate => {
                let stations = self.st.threats[ti].stations.clone();
                let at: Vec<usize> = (0..figures)
                    .filter(|&f| stations.contains(&self.st.pos[f]))
                    .collect();
                for f in at {
                    self.knock_out(f);
                }
                for s in stations {
                    self.st.contaminated[s as usize] = true;
                }
            }
            Op::DelayAtStations => {
                let stations = self.st.threats[ti].stations.clone();
                let at: Vec<usize> = (0..figures)
                    .filter(|&f| stations.contains(&self.st.pos[f]))
                    .collect();
                for f in at {
                    self.delay(f, turn + 1);
                }
            }
        }
        Ok(())
    }

    fn play_turn(&mut self, t: i32) -> R {
        self.st.turn = t;
        self.lift_used = [false; 3];
        self.observers = 0;
        self.in_space = -1;
        self.space_heroic = false;
        let figures = self.st.pos.len();
        if t <= TURNS as i32 {
            for ti in 0..self.st.threats.len() {
                if self.st.threats[ti].status == WAITING && self.st.threats[ti].token == t {
                    self.appear(ti)?;
                }
            }
            for f in 0..figures {
                self.player_action(f)?;
            }
            if self.observers != 0 {
                let p = self.phase(t);
                if self.observers > self.st.visual[p] {
                    self.st.visual[p] = self.observers;
                }
            }
        } else {
            for f in 0..figures {
                if self.st.pos[f] == SPACE {
                    self.move_to(f, UPPER_RED);
                }
            }
        }
        self.compute_damage()?;
        self.threat_actions()?;
        if self.st.rocket_track[0] != 0 {
            self.st.rocket_track = [0, 1];
        }
        if self.comp.computer_checks.contains(&t) {
            let p = self.phase(t);
            if !self.st.computer[p] {
                for f in 0..figures {
                    if self.st.pos[f] != SPACE {
                        self.delay(f, t + 1);
                    }
                }
            }
        }
        Ok(())
    }

    pub fn run(&mut self) {
        for t in 1..=(TURNS as i32 + 1) {
            if self.play_turn(t).is_err() {
                break;
            }
        }
    }
}

const W_HEAVY: u8 = 0;
const W_ROCKET: u8 = 1;
const W_OTHER: u8 = 2;
const K_OTHER: u8 = 0;
const K_PULSE: u8 = 1;
const K_ROCKET: u8 = 2;
const K_ROCKET_WASTED: u8 = 3;

/// `rules.score`.
#[derive(Clone, Debug, Default)]
pub struct Score {
    pub won: bool,
    pub score: i64,
    pub threat_points: i64,
    pub penalties: i64,
    pub visual: i64,
    pub tiles: [i64; 3],
    pub disabled: i64,
    pub knocked: i64,
}

pub fn score(comp: &Components, st: &State) -> Score {
    let mut threat_points = 0;
    for th in &st.threats {
        if th.status == DESTROYED {
            threat_points += comp.threats[th.card].points.0;
        }
    }
    for th in &st.threats {
        if th.status == SURVIVED {
            threat_points += comp.threats[th.card].points.1;
        }
    }
    let tiles = [0, 1, 2].map(|z| st.tiles[z].len() as i64);
    let disabled = st.bots_disabled.iter().filter(|&&d| d).count() as i64;
    let knocked = st.knocked.iter().filter(|&&k| k).count() as i64;
    let penalties = comp.penalty_damage
        * (tiles.iter().sum::<i64>() + *tiles.iter().max().unwrap())
        + comp.penalty_disabled_bots * disabled
        + comp.penalty_knocked_out * knocked;
    let visual: i64 = st
        .visual
        .iter()
        .map(|&v| comp.visual_points[(v as usize).min(5)])
        .sum();
    Score {
        won: !st.lost,
        score: if st.lost {
            0
        } else {
            threat_points - penalties + visual
        },
        threat_points,
        penalties,
        visual,
        tiles,
        disabled,
        knocked,
    }
}
