//! `players.py`: the random crew, the scripted crew (roles reacting to the announced threats)
//! and the planner (the scripted rows improved by local search through the resolution).

use super::game::{matches, resolve, Card, Known, View};
use super::rules::*;
use super::*;
use crate::params::named_params;
use crate::rng::PyRandom;

pub(super) const PLAIN: [u8; 7] = [A, B, C, BB, RED, BLUE, LIFT];

/// `players.Hand`.
struct Hand {
    free: bool,
    cards: Vec<Card>,
    heroic: Option<Card>,
    halves: [i32; 16],
}

#[inline]
fn in_card(code: u8, c: Card) -> bool {
    c.0 == code || c.1 == code
}

impl Hand {
    fn new(view: &View) -> Hand {
        let cards: Vec<Card> = view
            .hand
            .iter()
            .copied()
            .filter(|c| c.0 < TELEPORT)
            .collect();
        let heroic = view.hand.iter().copied().find(|c| c.0 >= TELEPORT);
        let mut halves = [0; 16];
        for &(top, bottom) in &cards {
            halves[top as usize] += 1;
            halves[bottom as usize] += 1;
        }
        Hand {
            free: view.free,
            cards,
            heroic,
            halves,
        }
    }

    fn has(&self, code: u8) -> bool {
        if code == EMPTY {
            return true;
        }
        if self.heroic.is_some_and(|h| in_card(code, h)) {
            return true;
        }
        if self.free {
            return PLAIN.contains(&code);
        }
        code < 16 && self.halves[code as usize] > 0
    }

    fn take(&mut self, code: u8) -> bool {
        if code == EMPTY {
            return true;
        }
        if self.free && PLAIN.contains(&code) {
            return true;
        }
        if !self.free {
            let mut best: i64 = -1;
            let mut spare: i32 = -1;
            for (i, &c) in self.cards.iter().enumerate() {
                if in_card(code, c) {
                    let other = if c.0 == code { c.1 } else { c.0 };
                    let copies = self.halves[other as usize];
                    if copies > spare {
                        best = i as i64;
                        spare = copies;
                    }
                }
            }
            if best >= 0 {
                let (top, bottom) = self.cards.remove(best as usize);
                self.halves[top as usize] -= 1;
                self.halves[bottom as usize] -= 1;
                return true;
            }
        }
        if self.heroic.is_some_and(|h| in_card(code, h)) {
            self.heroic = None;
            return true;
        }
        false
    }
}

fn step_toward(here: i32, there: i32) -> u8 {
    if here / 3 != there / 3 {
        return LIFT;
    }
    if there % 3 < here % 3 {
        RED
    } else {
        BLUE
    }
}

fn apply_move(here: i32, code: u8) -> i32 {
    if code >= TELEPORT {
        return (code - TELEPORT) as i32;
    }
    match code {
        LIFT => (here + 3) % 6,
        RED => here - (here % 3) + (here % 3 - 1).max(0),
        BLUE => here - (here % 3) + (here % 3 + 1).min(2),
        _ => here,
    }
}

fn position_after(plan: &[u8; 13], upto: usize, start: i32) -> i32 {
    let mut here = start;
    for &c in &plan[1..=upto] {
        if here != 6 {
            here = apply_move(here, c);
        }
    }
    here
}

/// `positions(plan)[t]`: where the figure stands when its card of turn t is played.
fn positions(plan: &[u8; 13], start: i32) -> [i32; 14] {
    let mut out = [start; 14];
    let mut here = start;
    for t in 1..13 {
        here = apply_move(here, plan[t]);
        out[t + 1] = here;
    }
    out
}

struct FcThreat {
    k: Known,
    at: [i32; 14],
    dist: [i32; 14],
    acts: [i32; 14],
    revealed: [bool; 14],
    /// internal_station(k, t) for t < 15 (internal threats only).
    line: [i32; 15],
}

/// A short list of forecast indices, kept on the stack (a mission holds at most 12 threats).
#[derive(Clone, Copy)]
struct Few {
    items: [u8; 16],
    len: usize,
}

impl Few {
    fn new() -> Few {
        Few {
            items: [0; 16],
            len: 0,
        }
    }
    fn push(&mut self, i: usize) {
        self.items[self.len] = i as u8;
        self.len += 1;
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn as_slice(&self) -> &[u8] {
        &self.items[..self.len]
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&i| i as usize)
    }
    fn sort_by_key<K: Ord>(&mut self, f: impl FnMut(&u8) -> K) {
        self.items[..self.len].sort_by_key(f);
    }
}

/// `players.Forecast` (and the internal threats' timelines).
struct Forecast {
    threats: Vec<FcThreat>,
}

/// An internal threat's moves at a trajectory action (1: X, 2: Y): its station and speed after.
fn move_on(card: &Threat, action: u8, station: &mut i32, speed: &mut i32) {
    for &(op, n) in &card.effects[action as usize - 1] {
        let z = *station % 3;
        if op == Op::MoveRed && z > 0 {
            *station -= 1;
        } else if op == Op::MoveBlue && z < 2 {
            *station += 1;
        } else if op == Op::ChangeDeck {
            *station = (*station + 3) % 6;
        } else if op == Op::Speed {
            *speed += n;
        }
    }
}

/// Turn t's station of an internal threat, replayed from its start: the reference the cargo
/// tests check `internal_line` against.
#[cfg(test)]
pub(super) fn internal_station_at(comp: &Components, k: &Known, t: i32) -> i32 {
    let card = &comp.threats[k.card];
    let traj = &comp.trajectories[k.traj];
    let mut pos = traj.length;
    let mut station = card.stations[0];
    let mut speed = card.speed;
    for _turn in k.turn..t {
        for _ in 0..speed.max(0) {
            pos -= 1;
            let a = traj.action[pos as usize];
            if a == 3 {
                return -1;
            }
            if a != 0 {
                move_on(card, a, &mut station, &mut speed);
            }
        }
    }
    station
}

/// `internal_station(k, t)` for t in 0..15 in one pass: turn t's station is turn t - 1's
/// after that turn's moves (each t replayed from the start gives the same).
pub(super) fn internal_line(comp: &Components, k: &Known, line: &mut [i32; 15]) {
    let card = &comp.threats[k.card];
    let traj = &comp.trajectories[k.traj];
    let mut pos = traj.length;
    let mut station = card.stations[0];
    let mut speed = card.speed;
    let mut gone = false;
    for t in 0..15i32 {
        if t > k.turn && !gone {
            // replay turn t - 1
            'turn: for _ in 0..speed.max(0) {
                pos -= 1;
                let a = traj.action[pos as usize];
                if a == 3 {
                    gone = true;
                    break 'turn;
                }
                if a != 0 {
                    move_on(card, a, &mut station, &mut speed);
                }
            }
        }
        line[t as usize] = if gone { -1 } else { station };
    }
}

impl Forecast {
    fn new(comp: &Components, known: &[Known]) -> Forecast {
        let (lo, hi) = comp.distance_bounds;
        let mut threats = Vec::with_capacity(known.len());
        for k in known {
            let card = &comp.threats[k.card];
            let traj = &comp.trajectories[k.traj];
            let mut pos = traj.length;
            let mut speed = card.speed;
            let mut at = [0; 14];
            let mut acts = [0; 14];
            let mut revealed = [false; 14];
            let mut shown = !card.has(STEALTH);
            for t in (k.turn.max(0) as usize)..14 {
                if pos <= 0 {
                    break;
                }
                at[t] = pos;
                revealed[t] = shown;
                for _ in 0..speed.max(0) {
                    pos -= 1;
                    let a = traj.action[pos as usize];
                    if a != 0 {
                        acts[t] += 1;
                        if a == 1 && card.has(STEALTH) {
                            shown = true;
                        }
                        if a < 3 {
                            speed += card.effects[a as usize - 1]
                                .iter()
                                .filter(|(op, _)| *op == Op::Speed)
                                .map(|(_, n)| n)
                                .sum::<i32>();
                        }
                    }
                    if pos <= 1 {
                        pos = 0;
                        break;
                    }
                }
            }
            let dist = at.map(|p| {
                if p == 0 {
                    0
                } else if p <= lo {
                    1
                } else if p <= hi {
                    2
                } else {
                    3
                }
            });
            let mut line = [-1; 15];
            if k.zone == 3 {
                internal_line(comp, k, &mut line);
            }
            threats.push(FcThreat {
                k: *k,
                at,
                dist,
                acts,
                revealed,
                line,
            });
        }
        Forecast { threats }
    }

    fn station(&self, ki: usize, t: i32) -> i32 {
        if (0..15).contains(&t) {
            self.threats[ki].line[t as usize]
        } else {
            -1
        }
    }

    /// Threats of zone z a heavy laser could target at turn t, closest first (indices).
    fn in_zone(&self, comp: &Components, z: i32, t: usize) -> Few {
        let mut out = Few::new();
        for (i, ft) in self.threats.iter().enumerate() {
            let card = &comp.threats[ft.k.card];
            if ft.k.zone != z || ft.at[t] == 0 || !ft.revealed[t] {
                continue;
            }
            if card.has(UNTARGETABLE_FAR) && ft.dist[t] == 3 {
                continue;
            }
            if card.has(HEAVY_LASER_IGNORES) {
                continue;
            }
            out.push(i);
        }
        out.sort_by_key(|&i| {
            (
                self.threats[i as usize].at[t],
                self.threats[i as usize].k.turn,
            )
        });
        out
    }

    fn near(&self, comp: &Components, t: usize, distance: i32, rocket: bool) -> Few {
        let mut out = Few::new();
        for (i, ft) in self.threats.iter().enumerate() {
            if ft.k.zone == 3 || ft.at[t] == 0 || !ft.revealed[t] || ft.dist[t] > distance {
                continue;
            }
            if rocket && comp.threats[ft.k.card].has(ROCKET_IMMUNE) {
                continue;
            }
            out.push(i);
        }
        out.sort_by_key(|&i| {
            (
                self.threats[i as usize].at[t],
                self.threats[i as usize].k.turn,
            )
        });
        out
    }

    fn any_near(&self, comp: &Components, t: usize, distance: i32, rocket: bool) -> bool {
        !self.near(comp, t, distance, rocket).is_empty()
    }

    fn attacks(&self, z: i32, t: usize) -> i32 {
        self.threats
            .iter()
            .filter(|ft| ft.k.zone == z)
            .map(|ft| ft.acts[t])
            .sum()
    }
}

/// A dict keyed by threat (turn, card) that knows which keys it holds.
#[derive(Default)]
struct Tally(Vec<((i32, usize), i32)>);

impl Tally {
    fn get(&self, k: &Known) -> i32 {
        self.0
            .iter()
            .find(|(key, _)| *key == (k.turn, k.card))
            .map_or(0, |e| e.1)
    }
    fn contains(&self, k: &Known) -> bool {
        self.0.iter().any(|(key, _)| *key == (k.turn, k.card))
    }
    fn set(&mut self, k: &Known, v: i32) {
        match self.0.iter_mut().find(|(key, _)| *key == (k.turn, k.card)) {
            Some(e) => e.1 = v,
            None => self.0.push(((k.turn, k.card), v)),
        }
    }
    fn add(&mut self, k: &Known, v: i32) {
        let cur = self.get(k);
        self.set(k, cur + v);
    }
}

const ROLE_RED: u8 = 0;
const ROLE_WHITE: u8 = 1;
const ROLE_BLUE: u8 = 2;
const ROLE_ENGINEER: u8 = 3;
const ROLE_SECURITY: u8 = 4;

fn roles(figures: usize) -> &'static [u8] {
    match figures.min(5) {
        1 => &[ROLE_WHITE],
        2 => &[ROLE_WHITE, ROLE_ENGINEER],
        3 => &[ROLE_RED, ROLE_WHITE, ROLE_BLUE],
        4 => &[ROLE_RED, ROLE_WHITE, ROLE_BLUE, ROLE_ENGINEER],
        _ => &[
            ROLE_RED,
            ROLE_WHITE,
            ROLE_BLUE,
            ROLE_ENGINEER,
            ROLE_SECURITY,
        ],
    }
}

fn needs(role: u8) -> [u8; 3] {
    match role {
        ROLE_RED | ROLE_BLUE => [A, LIFT, B],
        ROLE_WHITE => [C, A, BB],
        ROLE_ENGINEER => [B, C, A],
        _ => [BB, C, LIFT],
    }
}

/// `ScriptedNumbers`: the numbers the scripted crew plays by, its strategy's parameters (the
/// planner's starting rows play them too; the search player's rollouts play the defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScriptedNumbers {
    /// Turns ahead a gunner watches its own zone for a target before helping a neighbour.
    pub lookahead: i32,
    /// A side gunner at its reactor refills it while it holds fewer than this.
    pub refill_below: i32,
    /// A gunner feeds its shield before an attack only while its reactor holds more than this.
    pub shield_keep: i32,
    /// Turns of the others' draw on the main reactor the energy officer plans ahead for.
    pub draw_horizon: i32,
    /// Energy kept in the main reactor beyond that draw before the pulse cannon fires.
    pub pulse_reserve: i32,
    /// Farthest distance at which the energy officer fires a rocket (0: never).
    pub rocket_reach: i32,
}

impl ScriptedNumbers {
    pub const DEFAULT: ScriptedNumbers = ScriptedNumbers {
        lookahead: 3,
        refill_below: 2,
        shield_keep: 1,
        draw_horizon: 3,
        pulse_reserve: 1,
        rocket_reach: 2,
    };
}

impl Default for ScriptedNumbers {
    fn default() -> ScriptedNumbers {
        ScriptedNumbers::DEFAULT
    }
}

named_params!(
    ScriptedNumbers,
    [
        lookahead,
        refill_below,
        shield_keep,
        draw_horizon,
        pulse_reserve,
        rocket_reach,
    ]
);

/// One figure's planner and its own stream (made on first use).
pub struct Player {
    strategy: Strategy,
    /// The scripted crew's numbers this player plans by.
    numbers: ScriptedNumbers,
    /// Will the battlebots be at hand (the scripted crew's memory across phases)?
    pub(super) bots_ok: bool,
    scratch: State,
}

impl Player {
    pub fn new(strategy: Strategy) -> Player {
        Player {
            strategy,
            numbers: strategy.scripted_numbers(),
            bots_ok: true,
            scratch: State::default(),
        }
    }

    pub fn transfer(&mut self, view: &View) -> Option<(usize, usize)> {
        if self.strategy == Strategy::Random {
            return None;
        }
        let rs = roles(view.figures);
        let mine = if view.figure < rs.len() {
            needs(rs[view.figure])
        } else {
            needs(ROLE_SECURITY)
        };
        for (i, &(_move, action)) in view.hand.iter().enumerate() {
            if mine.contains(&action) {
                continue;
            }
            for f in 0..view.humans {
                if f != view.figure && f < rs.len() && needs(rs[f])[0] == action {
                    return Some((i, f));
                }
            }
        }
        None
    }

    /// The figure's plan for the phase; `rng` is its own stream (never drawn by the scripted
    /// crew, so left unseeded for it).
    pub fn plan(&mut self, view: &View, rng: &mut PyRandom) -> Vec<u8> {
        match self.strategy {
            Strategy::Random => self.plan_random(view, rng),
            // the search player is the scripted crew wherever it does not search
            Strategy::Scripted(_) | Strategy::Mcts(_) => self.plan_scripted(view),
            Strategy::Planner { steps, samples, .. } => {
                self.plan_planner(view, rng, steps, samples)
            }
        }
    }

    fn plan_random(&mut self, view: &View, rng: &mut PyRandom) -> Vec<u8> {
        let mut hand = Hand::new(view);
        let mut out = Vec::with_capacity(view.last + 1 - view.first);
        for _ in view.first..=view.last {
            if rng.random() < 0.5 {
                out.push(EMPTY);
                continue;
            }
            let mut options: Vec<u8> = if hand.free {
                PLAIN.to_vec()
            } else {
                let mut seen = [false; 16];
                for &(a, b) in &hand.cards {
                    seen[a as usize] = true;
                    seen[b as usize] = true;
                }
                (0..16u8).filter(|&c| seen[c as usize]).collect()
            };
            if let Some(h) = hand.heroic {
                options.push(h.0);
                options.push(h.1);
            }
            if options.is_empty() {
                out.push(EMPTY);
                continue;
            }
            let i = rng.choice_index(options.len());
            let code = options[i];
            hand.take(code);
            out.push(code);
        }
        out
    }

    fn plan_scripted(&mut self, view: &View) -> Vec<u8> {
        let rs = roles(view.figures);
        let role = if view.figure < rs.len() {
            rs[view.figure]
        } else {
            ROLE_SECURITY
        };
        let fc = Forecast::new(view.comp, view.threats);
        let mut hand = Hand::new(view);
        if view.phase == 0 {
            self.bots_ok = true;
        }
        let start = view.comp.start_station;
        let here = position_after(&view.plans[view.figure], view.first - 1, start);
        match role {
            ROLE_RED | ROLE_WHITE | ROLE_BLUE => {
                self.gunner(view, &fc, &mut hand, here, role as i32)
            }
            ROLE_ENGINEER => self.engineer(view, &fc, &mut hand, here),
            _ => self.security(view, &fc, &mut hand, here),
        }
    }

    fn gunner(
        &mut self,
        view: &View,
        fc: &Forecast,
        hand: &mut Hand,
        mut here: i32,
        z: i32,
    ) -> Vec<u8> {
        let comp = view.comp;
        let zu = z as usize;
        let numbers = self.numbers;
        let mut strength = comp.heavy_laser[zu];
        let mut damage = self.shots_so_far(view, fc, z);
        let mut energy = own_energy(view, z);
        let security = z == 1 && view.figures < 5;
        let mut carry = carrying(view);
        let mut done = self.done_so_far(view, fc);
        let mut out = Vec::new();
        // the computer is maintained in each phase's first two turns; a plan resumed within the
        // phase (a rollout after the search's cards) counts a C already played at it
        let where_ = positions(&view.plans[view.figure], comp.start_station);
        let mut computer_done = (view.phase_first..view.first)
            .any(|t| view.plans[view.figure][t] == C && where_[t] == z);
        for t in view.first..=view.last {
            let mut code = EMPTY;
            let mut target: Option<usize> = None;
            for i in fc.in_zone(comp, z, t).iter() {
                let k = &fc.threats[i].k;
                if damage.get(k) < comp.threats[k.card].health {
                    target = Some(i);
                    break;
                }
            }
            let mut later = false;
            'outer: for tt in (t + 1)..13.min(t + 1 + numbers.lookahead.max(0) as usize) {
                for i in fc.in_zone(comp, z, tt).iter() {
                    let k = &fc.threats[i].k;
                    if damage.get(k) < comp.threats[k.card].health {
                        later = true;
                        break 'outer;
                    }
                }
            }
            let task = if security {
                internal_task(view, fc, t as i32, &done, Some(&[UPPER_WHITE]), true)
            } else {
                internal_task(view, fc, t as i32, &done, Some(&[z, 3 + z]), false)
            };
            let helped = if z == 1 && !computer_done && t - view.phase_first < 2 && hand.has(C) {
                -2
            } else if task.is_none() && target.is_none() && !later {
                help(view, fc, t, here, z)
            } else {
                -1
            };
            if helped == -2 {
                code = if here != z { step_toward(here, z) } else { C };
                computer_done = here == z;
            } else if helped >= 0 {
                if here != helped {
                    code = step_toward(here, helped);
                } else if !fc.in_zone(comp, helped, t).is_empty() && hand.has(A) {
                    code = A;
                }
            } else if let Some(task) = task {
                let (c, cr) = self.chase(view, fc, task, here, carry, &mut done, hand, t as i32);
                code = c;
                carry = cr;
            } else {
                let light = comp.light_laser[zu];
                let tshield = target.map(|i| comp.threats[fc.threats[i].k.card].shield);
                if here == 3 + z
                    && target.is_some()
                    && light > tshield.unwrap().max(0)
                    && energy < 1
                {
                    code = A;
                } else if here == 3 + z && z != 1 && energy < numbers.refill_below {
                    code = B;
                } else if here != z {
                    code = step_toward(here, z);
                } else if z != 1 && energy <= 0 && (target.is_some() || later) {
                    code = LIFT;
                } else if target.is_some() && energy > 0 {
                    code = if hand.has(A) { A } else { HA };
                } else if (fc.attacks(z, t) != 0 || fc.attacks(z, t + 1) != 0)
                    && energy > numbers.shield_keep
                    && hand.has(B)
                {
                    code = B;
                }
            }
            if code != EMPTY && !hand.take(code) {
                code = if code == BB && hand.take(HBB) {
                    HBB
                } else {
                    EMPTY
                };
            }
            let aimed =
                target.filter(|_| (code == A || code == HA) && (here == z || here == 3 + z));
            if let Some(i) = aimed {
                let k = fc.threats[i].k;
                let card = &comp.threats[k.card];
                if here == z {
                    energy -= 1;
                } else {
                    strength = comp.light_laser[zu];
                }
                if card.has(CRYOSHIELD) && !damage.contains(&k) {
                    damage.set(&k, 0);
                } else {
                    let gain = strength + i32::from(code == HA) - card.shield.max(0);
                    damage.add(&k, gain.max(0));
                }
                strength = comp.heavy_laser[zu];
            } else if code == B && here == z {
                energy -= 1;
            } else if code == B && here == 3 + z {
                energy = comp.reactor_capacity[zu];
            }
            if code == C && comp.battlebots.contains(&here) {
                carry = true;
            }
            here = apply_move(here, code);
            out.push(code);
        }
        let _ = carry;
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn chase(
        &mut self,
        view: &View,
        fc: &Forecast,
        task: (usize, i32, u8),
        here: i32,
        carry: bool,
        done: &mut Tally,
        hand: &Hand,
        t: i32,
    ) -> (u8, bool) {
        let comp = view.comp;
        let (ki, station, button) = task;
        let k = fc.threats[ki].k;
        if button == BB && (!carry || !self.bots_ok) {
            let mut bots = comp.battlebots[0];
            let key = |s: i32| i32::from(s / 3 != here / 3) + (s % 3 - here % 3).abs();
            for &s in &comp.battlebots[1..] {
                if key(s) < key(bots) {
                    bots = s;
                }
            }
            if here != bots {
                return (step_toward(here, bots), carry);
            }
            self.bots_ok = hand.has(C);
            return (C, carry);
        }
        if here != station {
            let ahead = if comp.threats[k.card].kind == INTRUDER {
                fc.station(ki, t + 1)
            } else {
                -1
            };
            let goal = if ahead >= 0 { ahead } else { station };
            return (
                if goal == here {
                    EMPTY
                } else {
                    step_toward(here, goal)
                },
                carry,
            );
        }
        let mut code = button;
        if code == BB && !hand.has(BB) && hand.has(HBB) {
            code = HBB;
        }
        if hand.has(code) {
            done.add(&k, 1);
            let card = &comp.threats[k.card];
            if code == BB && (card.has(FIGHTS_BACK) || card.has(FIGHTS_BACK_AFTER_X)) {
                self.bots_ok = false;
            }
        }
        (code, carry)
    }

    fn shots_so_far(&self, view: &View, fc: &Forecast, z: i32) -> Tally {
        let comp = view.comp;
        let strength = comp.heavy_laser[z as usize];
        let mut damage = Tally::default();
        let plan = &view.plans[view.figure];
        for (t, &card) in plan.iter().enumerate().take(view.first).skip(1) {
            if card == A || card == HA {
                for i in fc.in_zone(comp, z, t).iter() {
                    let k = fc.threats[i].k;
                    let card = &comp.threats[k.card];
                    if damage.get(&k) < card.health {
                        damage.add(&k, (strength - card.shield.max(0)).max(0));
                        break;
                    }
                }
            }
        }
        damage
    }

    fn done_so_far(&self, view: &View, fc: &Forecast) -> Tally {
        let start = view.comp.start_station;
        let plan = &view.plans[view.figure];
        let mut done = Tally::default();
        let where_ = positions(plan, start);
        for t in 1..view.first {
            if matches!(plan[t], BB | HBB | A | B | C | HB) {
                if let Some((ki, station, _)) = internal_task(view, fc, t as i32, &done, None, true)
                {
                    if where_[t] == station {
                        let k = fc.threats[ki].k;
                        done.add(&k, 1);
                    }
                }
            }
        }
        done
    }

    fn engineer(&mut self, view: &View, fc: &Forecast, hand: &mut Hand, mut here: i32) -> Vec<u8> {
        let comp = view.comp;
        let numbers = self.numbers;
        let horizon = numbers.draw_horizon.max(0) as usize;
        let start = comp.start_station;
        let mut draw = [0i32; 14];
        for (f, plan) in view.plans.iter().enumerate() {
            if f == view.figure {
                continue;
            }
            let where_ = positions(plan, start);
            for t in 1..13 {
                let pos = where_[t];
                if (plan[t] == A || plan[t] == HA) && pos == UPPER_WHITE {
                    draw[t] += 1;
                } else if (plan[t] == B || plan[t] == HB) && (pos == LOWER_RED || pos == LOWER_BLUE)
                {
                    draw[t] += 2;
                }
            }
        }
        let mut white = comp.reactor_start[1];
        let mut fuel = comp.fuel;
        let mut rockets = comp.rockets;
        let mut last_rocket = 0usize;
        let mine = &view.plans[view.figure];
        let where_ = positions(mine, start);
        for t in 1..view.first {
            white = (white - draw[t]).max(0);
            let pos = where_[t];
            if (mine[t] == B || mine[t] == HB) && pos == LOWER_WHITE && fuel != 0 {
                fuel -= 1;
                white = comp.reactor_capacity[1];
            } else if (mine[t] == A || mine[t] == HA) && pos == LOWER_WHITE {
                white = (white - 1).max(0);
            } else if mine[t] == C && pos == LOWER_BLUE && rockets != 0 {
                rockets -= 1;
                last_rocket = t;
            }
        }
        let mut done = self.done_so_far(view, fc);
        let mut out = Vec::new();
        for t in view.first..=view.last {
            white = (white - draw[t]).max(0);
            let soon: i32 = draw[(t + 1).min(14)..(t + 1 + horizon).min(14)]
                .iter()
                .sum();
            let rocket_target = rockets != 0
                && t > last_rocket + 1
                && fc.any_near(comp, t + 1, numbers.rocket_reach, true);
            let mut code = EMPTY;
            let task = internal_task(view, fc, t as i32, &done, Some(&[LOWER_WHITE]), false);
            if let Some(task) = task {
                code = self
                    .chase(view, fc, task, here, true, &mut done, hand, t as i32)
                    .0;
            } else if here < 3 {
                code = LIFT;
            } else if here == LOWER_BLUE && rocket_target {
                code = C;
            } else if here != LOWER_WHITE {
                code = step_toward(here, LOWER_WHITE);
            } else if white <= soon && fuel > 0 && white < comp.reactor_capacity[1] - 1 {
                code = B;
            } else if pulse_worth(comp, fc, t, comp.pulse_range)
                && white > soon + numbers.pulse_reserve
            {
                code = A;
            } else if rocket_target {
                code = BLUE;
            } else if !fc.any_near(comp, t + 1, 1, false) {
                code = C;
            }
            if code != EMPTY && !hand.take(code) {
                if code == B && hand.take(HB) {
                    code = HB;
                } else if code == A && hand.take(HA) {
                    code = HA;
                } else {
                    code = EMPTY;
                }
            }
            if (code == B || code == HB) && here == LOWER_WHITE && fuel != 0 {
                fuel -= 1;
                white = comp.reactor_capacity[1];
            } else if (code == A || code == HA) && here == LOWER_WHITE {
                white = (white - 1).max(0);
            } else if code == C && here == LOWER_BLUE && rockets != 0 {
                rockets -= 1;
                last_rocket = t;
            }
            here = apply_move(here, code);
            out.push(code);
        }
        out
    }

    fn security(&mut self, view: &View, fc: &Forecast, hand: &mut Hand, mut here: i32) -> Vec<u8> {
        let comp = view.comp;
        let mut carry = carrying(view);
        let mut done = self.done_so_far(view, fc);
        let mut out = Vec::new();
        for t in view.first..=view.last {
            let mut code = EMPTY;
            let task = internal_task(view, fc, t as i32, &done, None, true);
            if here == SPACE {
                if fc.any_near(comp, t, 1, false) && (hand.has(BB) || hand.has(HBB)) {
                    code = if hand.has(BB) { BB } else { HBB };
                }
            } else if let Some(task) = task {
                let (c, cr) = self.chase(view, fc, task, here, carry, &mut done, hand, t as i32);
                code = c;
                carry = cr;
            } else if !carry {
                code = if here != LOWER_RED {
                    step_toward(here, LOWER_RED)
                } else {
                    C
                };
            } else if fc.any_near(comp, t, 1, false) && here == UPPER_RED {
                code = C;
            } else if fc.any_near(comp, t + 1, 1, false) {
                code = if here != UPPER_RED {
                    step_toward(here, UPPER_RED)
                } else {
                    EMPTY
                };
            }
            if code != EMPTY && !hand.take(code) {
                code = if code == BB && hand.take(HBB) {
                    HBB
                } else {
                    EMPTY
                };
            }
            if code == C && comp.battlebots.contains(&here) {
                carry = true;
            }
            out.push(code);
            if code == C && here == UPPER_RED {
                here = SPACE;
            } else if here == SPACE {
                here = if code == BB || code == HBB {
                    SPACE
                } else {
                    UPPER_RED
                };
            } else {
                here = apply_move(here, code);
            }
        }
        out
    }

    fn plan_planner(
        &mut self,
        view: &View,
        rng: &mut PyRandom,
        steps: usize,
        samples: usize,
    ) -> Vec<u8> {
        let base = self.plan_scripted(view);
        let comp = view.comp;
        let mut stacks: Vec<[Vec<u8>; 3]> = Vec::with_capacity(samples);
        for _ in 0..samples {
            let mut per: [Vec<u8>; 3] = Default::default();
            for order in per.iter_mut() {
                *order = comp.tiles.clone();
                rng.shuffle(order);
            }
            stacks.push(per);
        }
        let mut rows: Vec<[u8; 12]> = view
            .plans
            .iter()
            .map(|p| {
                let mut r = [EMPTY; 12];
                r.copy_from_slice(&p[1..]);
                r
            })
            .collect();
        let plain: Vec<Card> = view
            .hand
            .iter()
            .copied()
            .filter(|c| c.0 < TELEPORT)
            .collect();
        let heroic = view.hand.iter().copied().find(|c| c.0 >= TELEPORT);
        let mut options: Vec<u8> = if view.free {
            PLAIN.to_vec()
        } else {
            let mut seen = [false; 16];
            for &(a, b) in &plain {
                seen[a as usize] = true;
                seen[b as usize] = true;
            }
            (0..16u8).filter(|&c| seen[c as usize]).collect()
        };
        if let Some(h) = heroic {
            options.push(h.0);
            options.push(h.1);
        }
        options.push(EMPTY);
        let legal = |row: &[u8]| -> bool {
            let mut codes: Vec<u8> = row.iter().copied().filter(|&c| c != EMPTY).collect();
            if let Some(h) = heroic {
                if codes.iter().filter(|&&c| in_card(c, h)).count() > 1 {
                    return false;
                }
                codes.retain(|&c| !in_card(c, h));
            }
            if codes
                .iter()
                .any(|&c| c >= TELEPORT || c == HA || c == HB || c == HBB)
            {
                return false;
            }
            view.free || matches(&codes, &plain).is_some()
        };
        let figure = view.figure;
        let first = view.first;
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut fitness = |row: &[u8], rows: &mut Vec<[u8; 12]>| -> f64 {
            for (i, &c) in row.iter().enumerate() {
                rows[figure][first + i - 1] = c;
            }
            let mut total = 0.0f64;
            for st_tiles in &stacks {
                let res = resolve(
                    comp,
                    &mut scratch,
                    view.threats,
                    rows,
                    st_tiles,
                    view.humans,
                );
                let st = &scratch;
                let mut partial = 0.0f64;
                for t in &st.threats {
                    if t.status == ACTIVE {
                        let card = &comp.threats[t.card];
                        let frac = (t.damage as f64 / card.health.max(1) as f64).min(1.0);
                        partial += card.points.0 as f64 * frac;
                    }
                }
                if st.lost {
                    let ints = -1000 + 20 * st.turn as i64 + res.threat_points;
                    total += ints as f64 + partial;
                    continue;
                }
                total +=
                    (res.threat_points as f64 + partial) - res.penalties as f64 + res.visual as f64;
            }
            total
        };
        let mut best = base;
        let mut best_fit = fitness(&best, &mut rows);
        for _ in 0..steps {
            let mut cand = best.clone();
            let i = rng.randrange(cand.len());
            let j = rng.choice_index(options.len());
            cand[i] = options[j];
            if cand == best || !legal(&cand) {
                continue;
            }
            let fit = fitness(&cand, &mut rows);
            if fit > best_fit {
                best = cand;
                best_fit = fit;
            }
        }
        self.scratch = scratch;
        best
    }
}

fn pulse_worth(comp: &Components, fc: &Forecast, t: usize, reach: i32) -> bool {
    fc.near(comp, t, reach, false).iter().any(|i| {
        let card = &comp.threats[fc.threats[i].k.card];
        card.shield <= 0 || card.has(PULSE_IGNORES_SHIELD)
    })
}

fn own_energy(view: &View, z: i32) -> i32 {
    let comp = view.comp;
    let plan = &view.plans[view.figure];
    let mut energy = comp.reactor_start[z as usize];
    let where_ = positions(plan, comp.start_station);
    for t in 1..view.first {
        let here = where_[t];
        if (plan[t] == A || plan[t] == HA) && here == z {
            energy = (energy - 1).max(0);
        } else if (plan[t] == B || plan[t] == HB) && here == 3 + z {
            energy = comp.reactor_capacity[z as usize];
        }
    }
    energy
}

fn carrying(view: &View) -> bool {
    let comp = view.comp;
    let plan = &view.plans[view.figure];
    let where_ = positions(plan, comp.start_station);
    (1..view.first).any(|t| plan[t] == C && comp.battlebots.contains(&where_[t]))
}

/// `_help`: a neighbouring zone whose heavy laser has a target no other figure fires at, or -1.
fn help(view: &View, fc: &Forecast, t: usize, here: i32, z: i32) -> i32 {
    let comp = view.comp;
    let start = comp.start_station;
    let zones: &[i32] = if z != 1 { &[1] } else { &[0, 2] };
    for &zone in zones {
        let when = if here == zone { t } else { t + 1 };
        if when > 12 || fc.in_zone(comp, zone, when).is_empty() {
            continue;
        }
        let taken = view.plans.iter().enumerate().any(|(f, plan)| {
            f != view.figure
                && (plan[when] == A || plan[when] == HA)
                && positions(plan, start)[when] == zone
        });
        if taken {
            continue;
        }
        return zone;
    }
    -1
}

/// `_internal_task`: (forecast index, station, button) or None.
fn internal_task(
    view: &View,
    fc: &Forecast,
    t: i32,
    done: &Tally,
    stations: Option<&[i32]>,
    intruders: bool,
) -> Option<(usize, i32, u8)> {
    let comp = view.comp;
    // (threat, station, button, rank: not deadly at Z, the last turn it can be worked, its turn)
    type Candidate = (usize, i32, u8, (bool, i32, i32));
    let mut best: Option<Candidate> = None;
    for (ki, ft) in fc.threats.iter().enumerate() {
        let k = &ft.k;
        if k.zone != 3 || k.turn > t {
            continue;
        }
        let card = &comp.threats[k.card];
        if done.get(k) >= card.health {
            continue;
        }
        if card.kind == INTRUDER && !intruders {
            continue;
        }
        let mut station = fc.station(ki, t);
        if station < 0 {
            continue;
        }
        if card.kind == MALFUNCTION {
            if let Some(stations) = stations {
                match card.stations.iter().find(|s| stations.contains(s)) {
                    None => continue,
                    Some(&s) => station = s,
                }
            }
        }
        let mut last = t;
        while fc.station(ki, last + 1) >= 0 && last < 13 {
            last += 1;
        }
        if card.kind == INTRUDER && last - t < 1 {
            continue;
        }
        let deadly = card.effects[2].iter().any(|(op, _)| *op == Op::DestroyShip);
        let rank = (!deadly, last, k.turn);
        if best.is_none_or(|b| rank < b.3) {
            best = Some((ki, station, card.button, rank));
        }
    }
    best.map(|b| (b.0, b.1, b.2))
}
