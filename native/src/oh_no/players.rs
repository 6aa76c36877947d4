//! The built-in crews (`players.py`): each decision as the reference makes it, with the same draws
//! from the seat's own stream. `RandomPlayer` draws; `CautiousCrew` and `BoldCrew` (one `Crew`
//! with different numbers) never do.

use super::game::{is_module, Act, Engine, MOMENT_AFTER_COMBAT, MONSTER};
use super::rules::{
    can_strike, colour_of, counters, has_counter, has_morph_pair, is_weapon, morph_pair_ok, zaps,
};
use super::{Strategy, BLACK, EVAPORALIEN, INVALIEN, N_COLOURS};
use crate::params::with_params;

/// A counter (or a strike's cards): a weapon, a Morph-box pair, a partner asked, or none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Means {
    Weapon(u16),
    Morph(u16, u16),
    Help(usize),
    Nothing,
}

/// A strike: the cards and the colour hit (`MONSTER`: the Spawnmonster).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StrikeAnswer {
    Weapon(u16, i32),
    Morph(u16, u16, i32),
    Help(usize),
    Nothing,
}

/// `CrewNumbers`: the numbers a scripted crew plays by, its strategy's parameters (`of` gives
/// each crew's defaults; the batch is handed every value from Python).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrewParams {
    pub final_conflict: f64,
    pub panic: i64,
    pub invalien_clear: i32,
    pub evaporalien_clear: i32,
    pub clear_sabotaliens: bool,
    pub attack_min: i32,
    pub zap_landing: i32,
    pub zap_evaporate: i32,
    pub zap_sabotage: bool,
    pub transport: bool,
    pub morph_in_combat: bool,
    pub weapon_share: f64,
}

impl CrewParams {
    pub fn of(strategy: Strategy) -> CrewParams {
        let cautious = CrewParams {
            final_conflict: 6.0,
            panic: 2,
            invalien_clear: 3,
            evaporalien_clear: 1,
            clear_sabotaliens: true,
            attack_min: 3,
            zap_landing: 6,
            zap_evaporate: 2,
            zap_sabotage: true,
            transport: true,
            morph_in_combat: true,
            weapon_share: 0.7,
        };
        match strategy {
            Strategy::Bold => CrewParams {
                panic: 1,
                invalien_clear: 5,
                evaporalien_clear: 2,
                clear_sabotaliens: false,
                attack_min: 5,
                zap_landing: 0,
                zap_evaporate: 3,
                zap_sabotage: false,
                transport: false,
                morph_in_combat: false,
                ..cautious
            },
            _ => cautious,
        }
    }

    /// The crew's defaults with each parameter `param` gives (as a number; booleans 0 or 1).
    pub fn read(strategy: Strategy, param: impl Fn(&str) -> Option<f64>) -> CrewParams {
        with_params!(
            CrewParams::of(strategy),
            param,
            [
                final_conflict,
                panic,
                invalien_clear,
                evaporalien_clear,
                clear_sabotaliens,
                attack_min,
                zap_landing,
                zap_evaporate,
                zap_sabotage,
                transport,
                morph_in_combat,
                weapon_share,
            ]
        )
    }
}

/// `MODULE_VALUE` by category (HUB, CATALYST, MORPH_BOX, TELEPORTER).
const MODULE_VALUE: [i32; 4] = [2, 4, 3, 1];
/// `RandomPlayer.FINAL_CONFLICT`.
const RANDOM_FINAL_CONFLICT: f64 = 0.1;

/// `Crew._needs`: a dict in insertion order (the order decides ties), colour -> value.
#[derive(Clone, Copy, Default)]
struct Needs {
    order: [u8; N_COLOURS],
    len: usize,
    value: [i32; N_COLOURS],
}

impl Needs {
    fn contains(&self, k: i32) -> bool {
        (0..N_COLOURS as i32).contains(&k) && self.order[..self.len].contains(&(k as u8))
    }

    /// `needs[k] = needs.get(k, 0) + v`.
    fn add(&mut self, k: usize, v: i32) {
        if !self.order[..self.len].contains(&(k as u8)) {
            self.order[self.len] = k as u8;
            self.len += 1;
            self.value[k] = 0;
        }
        self.value[k] += v;
    }

    fn pop(&mut self, k: i32) {
        if let Some(i) = self.order[..self.len].iter().position(|&x| x as i32 == k) {
            self.order.copy_within(i + 1..self.len, i);
            self.len -= 1;
        }
    }

    fn keys(&self) -> &[u8] {
        &self.order[..self.len]
    }
}

impl Engine<'_> {
    fn rand(&mut self, seat: usize) -> f64 {
        self.rngs.seat(seat).random()
    }

    fn below(&mut self, seat: usize, n: usize) -> usize {
        self.rngs.seat(seat).choice_index(n)
    }

    // --- shared look-ups ---------------------------------------------------------------------

    /// `Crew._keep_value` of `card` in `hand`, as seen from `viewer`.
    fn keep_value(&self, viewer: usize, card: u16, hand: &[u16]) -> f64 {
        let c = self.c;
        if !is_weapon(c, card) {
            return 1.0;
        }
        let colour = colour_of(c, card);
        if colour == BLACK {
            return 10.0;
        }
        let same = hand
            .iter()
            .filter(|&&x| is_weapon(c, x) && colour_of(c, x) == colour)
            .count() as f64;
        4.0 - same
            + if self.st.figs[viewer][colour as usize] != 0 {
                2.0
            } else {
                0.0
            }
    }

    /// `Crew._cheapest_pair`: the first Morph-box pair of `hand` with the least keep value.
    pub(super) fn cheapest_pair(&self, viewer: usize, hand: &[u16]) -> Option<(u16, u16)> {
        let c = self.c;
        let mut best: Option<(f64, u16, u16)> = None;
        for (i, &a) in hand.iter().enumerate() {
            for &b in &hand[i + 1..] {
                if !morph_pair_ok(c, a, b) {
                    continue;
                }
                let cost = self.keep_value(viewer, a, hand) + self.keep_value(viewer, b, hand);
                if best.is_none_or(|(x, _, _)| cost < x) {
                    best = Some((cost, a, b));
                }
            }
        }
        best.map(|(_, a, b)| (a, b))
    }

    /// `Crew.ready`: call the Final Conflict now?
    fn ready(&self, seat: usize) -> bool {
        let c = self.c;
        let st = &self.st;
        let shields = st.shields.len() as i64;
        if shields >= c.shields_total as i64 - self.crew.panic {
            return true;
        }
        let need = self.crew.final_conflict * (shields + 1) as f64;
        if (st.cards_in_hands() as f64) < need {
            return false;
        }
        // `Crew.crew_weapons`: own weapons, the others' counted (levels 0-2) or estimated (3)
        let weapons = |p: usize| st.hands[p].iter().filter(|&&x| is_weapon(c, x)).count();
        let mut total = weapons(seat) as f64;
        for p in 0..st.n {
            if p == seat || !st.alive[p] {
                continue;
            }
            if st.level < 3 {
                total += weapons(p) as f64;
            } else {
                total += self.crew.weapon_share * st.hands[p].len() as f64;
            }
        }
        total >= need
    }

    // --- the decisions -----------------------------------------------------------------------

    pub(super) fn wants_final_conflict(&mut self, seat: usize, moment: u8) -> bool {
        match self.strategy {
            Strategy::Random => self.rand(seat) < RANDOM_FINAL_CONFLICT,
            _ => {
                let (turn, ready) = self.readiness[seat];
                if moment == MOMENT_AFTER_COMBAT && turn == self.st.turn {
                    return ready; // combat only spends weapons: no readier than at combat
                }
                self.ready(seat)
            }
        }
    }

    pub(super) fn choose_action(&mut self, seat: usize, number: usize) -> Act {
        match self.strategy {
            Strategy::Random => self.random_action(seat, number),
            _ => {
                if self.crew.transport
                    && number == 0
                    && self.st.level < 3
                    && self.st.hub_works(seat)
                {
                    if let Some((p, card)) = self.gift(seat) {
                        self.picked.clear();
                        self.picked.push(card);
                        return Act::Transport(p);
                    }
                }
                Act::Draw
            }
        }
    }

    fn random_action(&mut self, seat: usize, number: usize) -> Act {
        let st = &self.st;
        let n_others = (0..st.n).filter(|&p| p != seat && st.alive[p]).count();
        let transport = !st.hands[seat].is_empty() && n_others > 0 && st.hub_works(seat);
        let choices = 1 + (number == 1) as usize + transport as usize;
        let k = self.below(seat, choices);
        if k == 0 {
            return Act::Draw;
        }
        if number == 1 && k == 1 {
            return Act::End;
        }
        self.picked.clear();
        for i in 0..self.st.hands[seat].len() {
            if self.rand(seat) < 0.5 {
                let card = self.st.hands[seat][i];
                self.picked.push(card);
            }
        }
        if self.picked.is_empty() {
            let i = self.below(seat, self.st.hands[seat].len());
            let card = self.st.hands[seat][i];
            self.picked.push(card);
        }
        let j = self.below(seat, n_others);
        let st = &self.st;
        let to = (0..st.n)
            .filter(|&p| p != seat && st.alive[p])
            .nth(j)
            .expect("another living player");
        Act::Transport(to)
    }

    /// `Crew._gift`: a weapon to a player whose Invalien colour is near a threshold and who
    /// cannot clear it.
    fn gift(&self, seat: usize) -> Option<(usize, u16)> {
        self.gift_seen(seat, true)
    }

    /// The gift as `seat` can judge it: a plain weapon of an Invalien colour at 5+ figures on
    /// another living player's station, to that player, when `seat` has none of the colour on its
    /// own station. With `hands` (the crews' `_gift`, levels 0-2) also only when that player
    /// holds no weapon of the colour nor a black one; without, only the stations and `seat`'s
    /// own hand are read (level 3: the other hands are hidden).
    pub(super) fn gift_seen(&self, seat: usize, hands: bool) -> Option<(usize, u16)> {
        let c = self.c;
        let st = &self.st;
        for p in 0..st.n {
            if p == seat || !st.alive[p] {
                continue;
            }
            let figs = &st.figs[p];
            if figs.iter().max().copied().unwrap_or(0) < 5 {
                continue;
            }
            let danger = |k: usize| figs[k] >= 5 && c.colour_kind[k] == INVALIEN;
            if !(0..N_COLOURS).any(danger) {
                continue;
            }
            let mut theirs = 0u16;
            if hands {
                for &x in &st.hands[p] {
                    if is_weapon(c, x) {
                        theirs |= 1 << colour_of(c, x);
                    }
                }
            }
            if theirs >> BLACK & 1 == 1 {
                continue;
            }
            for colour in (0..N_COLOURS).filter(|&k| danger(k)) {
                if theirs >> colour & 1 == 1 || st.figs[seat][colour] != 0 {
                    continue;
                }
                for &x in &st.hands[seat] {
                    if is_weapon(c, x) && colour_of(c, x) == colour as i32 {
                        return Some((p, x));
                    }
                }
            }
        }
        None
    }

    /// Zap the flying `card` about to invade `target`? (asked only of a player holding a weapon
    /// that zaps it)
    pub(super) fn zap(&mut self, p: usize, card: u16, target: usize) -> Option<u16> {
        let c = self.c;
        let colour = c.spawn_colour[card as usize];
        match self.strategy {
            Strategy::Random => {
                if self.rand(p) < 0.5 {
                    return None;
                }
                let n = self.st.hands[p]
                    .iter()
                    .filter(|&&x| zaps(c, x, colour))
                    .count();
                let k = self.below(p, n);
                self.st.hands[p]
                    .iter()
                    .copied()
                    .filter(|&x| zaps(c, x, colour))
                    .nth(k)
            }
            _ => {
                let hand = &self.st.hands[p];
                let first = hand.iter().copied().find(|&x| zaps(c, x, colour));
                let plain = hand
                    .iter()
                    .copied()
                    .find(|&x| zaps(c, x, colour) && colour_of(c, x) != BLACK);
                match self.harm(card, target) {
                    2 => plain.or(first),
                    1 => plain,
                    _ => None,
                }
            }
        }
    }

    /// `Crew._harm`: 2: placing it eliminates someone or destroys a module; 1: a lesser harm
    /// worth a plain weapon; 0: let it land.
    fn harm(&self, card: u16, target: usize) -> i32 {
        let c = self.c;
        let st = &self.st;
        let ci = card as usize;
        let kind = c.spawn_kind[ci];
        let order = c.spawn_orders[ci] as usize;
        let colour = c.spawn_colour[ci] as usize;
        let alive = || (0..st.n).filter(|&p| st.alive[p]);
        if kind == INVALIEN {
            if alive().any(|p| st.figs[p][order] >= c.spawn_threshold[ci]) {
                return 2;
            }
            if self.crew.zap_landing != 0
                && st.figs[target][colour] + c.spawn_aliens[ci] >= self.crew.zap_landing
            {
                return 1;
            }
            return 0;
        }
        if kind == EVAPORALIEN {
            let lost: i64 = alive()
                .map(|p| (st.figs[p][order] as i64).min(st.hands[p].len() as i64))
                .sum();
            let z = self.crew.zap_evaporate as i64;
            if lost >= 2 * z {
                return 2;
            }
            return (lost >= z) as i32;
        }
        let mut harm = 0;
        for p in alive() {
            for (i, &a) in st.sabo[p].iter().enumerate() {
                if a >= 0 && c.spawn_colour[a as usize] == order as i32 {
                    let flipped = st.flipped[p][i];
                    if flipped && st.level >= 2 {
                        return 2;
                    }
                    if !flipped && self.crew.zap_sabotage {
                        harm = 1;
                    }
                }
            }
        }
        harm
    }

    /// Which free module a Sabotalien takes (asked of the owner when there are several).
    pub(super) fn sabotalien_module(&mut self, target: usize, slots: &[usize]) -> usize {
        match self.strategy {
            Strategy::Random => slots[self.below(target, slots.len())],
            _ => {
                let c = self.c;
                let mods = &self.st.mods[target];
                let value = |i: usize| MODULE_VALUE[c.res_category[mods[i] as usize] as usize];
                let mut best = slots[0];
                for &i in &slots[1..] {
                    if value(i) < value(best) {
                        best = i;
                    }
                }
                best
            }
        }
    }

    /// The `count` cards an Evaporalien attack discards (fewer than the hand), into `self.lost`.
    pub(super) fn discard_choice(&mut self, p: usize, count: usize) {
        let mut lost = std::mem::take(&mut self.lost);
        lost.clear();
        match self.strategy {
            Strategy::Random => {
                let hand = &self.st.hands[p];
                self.rngs.seat(p).sample_into(hand, count, &mut lost);
            }
            _ => {
                let hand = &self.st.hands[p];
                let mut ranked: Vec<(f64, u16)> = hand
                    .iter()
                    .map(|&x| (self.keep_value(p, x, hand), x))
                    .collect();
                ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                lost.extend(ranked[..count].iter().map(|&(_, x)| x));
            }
        }
        self.lost = lost;
    }

    /// The module cards to build, into `self.picked`.
    pub(super) fn choose_build(&mut self, seat: usize) {
        let c = self.c;
        self.picked.clear();
        for i in 0..self.st.hands[seat].len() {
            let card = self.st.hands[seat][i];
            if !is_module(c, card) {
                continue;
            }
            if self.strategy != Strategy::Random || self.rand(seat) < 0.5 {
                self.picked.push(card);
            }
        }
    }

    /// `combat`: None or (attacker, station).
    pub(super) fn choose_combat(&mut self, seat: usize) -> Option<(usize, usize)> {
        let mut partners = std::mem::take(&mut self.seats_buf);
        self.st.partners(seat, &mut partners);
        let answer = match self.strategy {
            Strategy::Random => {
                let k = self.below(seat, 2 + 2 * partners.len());
                match k {
                    0 => None,
                    1 => Some((seat, seat)),
                    _ if k.is_multiple_of(2) => Some((seat, partners[(k - 2) / 2])),
                    _ => Some((partners[(k - 3) / 2], seat)),
                }
            }
            _ => {
                let ready = self.ready(seat);
                self.readiness[seat] = (self.st.turn, ready);
                if ready {
                    None // the Final Conflict follows: station aliens no longer matter
                } else if self.plan(seat, seat, seat, seat) {
                    Some((seat, seat))
                } else if self.st.level < 3 {
                    partners
                        .iter()
                        .copied()
                        .find(|&p| self.plan(seat, p, seat, p))
                        .map(|p| (p, seat))
                } else {
                    None
                }
            }
        };
        self.seats_buf = partners;
        answer
    }

    /// `attack`: the plan of `attacker` on `target`'s station, into `self.plays`/`self.morph`.
    pub(super) fn attack(&mut self, attacker: usize, target: usize) {
        match self.strategy {
            Strategy::Random => {
                let c = self.c;
                self.plays.clear();
                self.morph = None;
                for i in 0..self.st.hands[attacker].len() {
                    let card = self.st.hands[attacker][i];
                    if !is_weapon(c, card) || self.rand(attacker) >= 0.5 {
                        continue;
                    }
                    let colour = if colour_of(c, card) == BLACK {
                        self.below(attacker, 8) as i32
                    } else {
                        colour_of(c, card)
                    };
                    self.plays.push((card, colour));
                }
                if self.st.morph_works(attacker) && self.rand(attacker) < 0.5 {
                    let mut rest = std::mem::take(&mut self.cards_buf);
                    rest.clear();
                    let plays = &self.plays;
                    rest.extend(
                        self.st.hands[attacker]
                            .iter()
                            .filter(|&&x| !plays.iter().any(|&(p, _)| p == x)),
                    );
                    let mut pairs = std::mem::take(&mut self.pairs);
                    super::rules::morph_pairs(c, &rest, &mut pairs);
                    if !pairs.is_empty() {
                        let (a, b) = pairs[self.below(attacker, pairs.len())];
                        let k = self.below(attacker, 8) as i32;
                        self.morph = Some((a, b, k));
                    }
                    self.pairs = pairs;
                    self.cards_buf = rest;
                }
            }
            _ => {
                if !self.plan(attacker, attacker, target, attacker) {
                    self.plays.clear();
                    self.morph = None;
                }
            }
        }
    }

    /// `Crew._plan` of `viewer` for the hand of `holder` on `station`'s aliens, the Morph-box of
    /// `attacker`: true when worth it (into `self.plays`/`self.morph`), false for None.
    ///
    /// Each weapon type costs one card however many of its colours are played, so types are
    /// taken greedily by the value they clear, while a type clears at least `attack_min`.
    pub(super) fn plan(
        &mut self,
        viewer: usize,
        holder: usize,
        station: usize,
        attacker: usize,
    ) -> bool {
        let c = self.c;
        let crew = self.crew;
        self.plays.clear();
        self.morph = None;
        let mut needs = self.needs(station);
        if needs.len == 0 {
            return false;
        }
        let (mut cover, mut best_cover, mut blacks, mut rest) = std::mem::take(&mut self.plan_bufs);
        let hand = &self.st.hands[holder];
        let mut spent = [false; 3]; // a type is spent whole
        while needs.len > 0 {
            let mut best: Option<(i32, usize)> = None;
            for (t, &done) in spent.iter().enumerate() {
                if done {
                    continue;
                }
                cover.clear();
                blacks.clear();
                let mut any = false;
                for &x in hand {
                    if !is_weapon(c, x) || c.res_type[x as usize] != t as i32 {
                        continue;
                    }
                    any = true;
                    let k = colour_of(c, x);
                    if k == BLACK {
                        blacks.push(x);
                    } else if needs.contains(k) {
                        cover.push((x, k));
                    }
                }
                if !any {
                    continue;
                }
                if !blacks.is_empty() {
                    rest.clear();
                    rest.extend(
                        needs
                            .keys()
                            .iter()
                            .copied()
                            .filter(|&k| !cover.iter().any(|&(_, ck)| ck == k as i32)),
                    );
                    // sorted(key=-needs[k]): stable, so ties keep the dict's order
                    rest.sort_by_key(|&k| -needs.value[k as usize]);
                    cover.extend(blacks.iter().zip(&rest).map(|(&x, &k)| (x, k as i32)));
                }
                if !cover.is_empty() {
                    let value: i32 = cover.iter().map(|&(_, k)| needs.value[k as usize]).sum();
                    if best.is_none_or(|(v, _)| value > v) {
                        best = Some((value, t));
                        std::mem::swap(&mut best_cover, &mut cover);
                    }
                }
            }
            let Some((value, t)) = best else { break };
            if value < crew.attack_min {
                break;
            }
            // the first card of a type is the one discarded: a plain weapon rather than black
            if colour_of(c, best_cover[0].0) == BLACK {
                best_cover.sort_by_key(|&(x, _)| colour_of(c, x) == BLACK);
            }
            self.plays.extend_from_slice(&best_cover);
            spent[t] = true;
            for &(_, k) in &best_cover {
                needs.pop(k);
            }
        }
        if crew.morph_in_combat && needs.len > 0 && self.st.morph_works(attacker) {
            let mut danger = needs.keys()[0] as usize;
            for &k in needs.keys() {
                if needs.value[k as usize] > needs.value[danger] {
                    danger = k as usize;
                }
            }
            if needs.value[danger] >= 5 {
                let mut unused = std::mem::take(&mut self.cards_buf);
                unused.clear();
                let plays = &self.plays;
                unused.extend(
                    hand.iter()
                        .copied()
                        .filter(|&x| !plays.iter().any(|&(p, _)| p == x)),
                );
                if let Some((a, b)) = self.cheapest_pair(viewer, &unused) {
                    self.morph = Some((a, b, danger as i32));
                }
                self.cards_buf = unused;
            }
        }
        self.plan_bufs = (cover, best_cover, blacks, rest);
        !self.plays.is_empty() || self.morph.is_some()
    }

    /// `Crew._needs`: the value of clearing each colour from `station`.
    fn needs(&self, station: usize) -> Needs {
        let c = self.c;
        let st = &self.st;
        let mut needs = Needs::default();
        for (colour, &f) in st.figs[station].iter().enumerate() {
            if f == 0 {
                continue;
            }
            if c.colour_kind[colour] == INVALIEN {
                if f >= self.crew.invalien_clear {
                    needs.add(colour, f);
                }
            } else if f >= self.crew.evaporalien_clear {
                needs.add(colour, 2 * f);
            }
        }
        for (i, &a) in st.sabo[station].iter().enumerate() {
            if a < 0 {
                continue;
            }
            let k = c.spawn_colour[a as usize] as usize;
            if st.flipped[station][i] {
                let m = st.mods[station][i] as usize;
                needs.add(k, 1 + MODULE_VALUE[c.res_category[m] as usize]);
            } else if self.crew.clear_sabotaliens {
                needs.add(k, 1);
            }
        }
        needs
    }

    // --- the Final Conflict ------------------------------------------------------------------

    /// `RandomPlayer._means`: the weapons of the colour, else (Morph-box) the pairs.
    fn random_means(&mut self, seat: usize, colour: i32, out: &mut Vec<Means>) {
        let c = self.c;
        let hand = &self.st.hands[seat];
        let before = out.len();
        out.extend(
            hand.iter()
                .filter(|&&x| counters(c, x, colour))
                .map(|&x| Means::Weapon(x)),
        );
        if out.len() == before && self.st.morph_works(seat) {
            let mut pairs = std::mem::take(&mut self.pairs);
            super::rules::morph_pairs(c, hand, &mut pairs);
            out.extend(pairs.iter().map(|&(a, b)| Means::Morph(a, b)));
            self.pairs = pairs;
        }
    }

    /// Counter a kamikaze of `colour`: own means, or a partner asked.
    pub(super) fn counter(&mut self, seat: usize, colour: i32) -> Means {
        let c = self.c;
        match self.strategy {
            Strategy::Random => {
                let mut options = Vec::new();
                self.random_means(seat, colour, &mut options);
                let mut helpers = std::mem::take(&mut self.seats_buf);
                self.st.counter_helpers(c, seat, colour, &mut helpers);
                options.extend(helpers.iter().map(|&p| Means::Help(p)));
                if options.is_empty() {
                    // only a partner's Morph-box could help: asking is a free choice
                    options.push(Means::Nothing);
                    self.st.partners(seat, &mut helpers);
                    options.extend(helpers.iter().map(|&p| Means::Help(p)));
                }
                self.seats_buf = helpers;
                options[self.below(seat, options.len())]
            }
            _ => {
                let hand = &self.st.hands[seat];
                if let Some(&x) = hand.iter().find(|&&x| counters(c, x, colour)) {
                    return Means::Weapon(x);
                }
                let mut helpers = std::mem::take(&mut self.seats_buf);
                self.st.counter_helpers(c, seat, colour, &mut helpers);
                let first_helper = helpers.first().copied();
                self.st.partners(seat, &mut helpers);
                let partners = helpers;
                let answer = if let Some(p) = first_helper {
                    Means::Help(p)
                } else if let Some((a, b)) = self
                    .st
                    .morph_works(seat)
                    .then(|| self.cheapest_pair(seat, &self.st.hands[seat]))
                    .flatten()
                {
                    Means::Morph(a, b)
                } else if self.st.level >= 3 {
                    partners.first().map_or(Means::Nothing, |&p| Means::Help(p))
                } else {
                    partners
                        .iter()
                        .copied()
                        .find(|&p| self.st.morph_works(p) && has_morph_pair(c, &self.st.hands[p]))
                        .map_or(Means::Nothing, Means::Help)
                };
                self.seats_buf = partners;
                answer
            }
        }
    }

    /// A Teleporter partner asked to counter for another player.
    pub(super) fn help_counter(&mut self, helper: usize, colour: i32) -> Means {
        let c = self.c;
        match self.strategy {
            Strategy::Random => {
                let mut options = Vec::new();
                let holds = has_counter(c, &self.st.hands[helper], colour);
                if !holds {
                    options.push(Means::Nothing);
                }
                self.random_means(helper, colour, &mut options);
                options[self.below(helper, options.len())]
            }
            _ => {
                let hand = &self.st.hands[helper];
                if let Some(&x) = hand.iter().find(|&&x| counters(c, x, colour)) {
                    return Means::Weapon(x);
                }
                if self.st.morph_works(helper) {
                    if let Some((a, b)) = self.cheapest_pair(helper, hand) {
                        return Means::Morph(a, b);
                    }
                }
                Means::Nothing
            }
        }
    }

    /// `RandomPlayer._strikes`: every strike `seat` can make itself.
    fn random_strikes(&mut self, seat: usize, out: &mut Vec<StrikeAnswer>) {
        let c = self.c;
        let shields = self.shield_colours();
        let hand = &self.st.hands[seat];
        if shields == 0 {
            out.extend(
                hand.iter()
                    .filter(|&&x| is_weapon(c, x))
                    .map(|&x| StrikeAnswer::Weapon(x, MONSTER)),
            );
            return;
        }
        for &x in hand {
            if !is_weapon(c, x) {
                continue;
            }
            let wc = colour_of(c, x);
            for s in 0..N_COLOURS as i32 {
                if shields >> s & 1 == 1 && (wc == s || wc == BLACK) {
                    out.push(StrikeAnswer::Weapon(x, s));
                }
            }
        }
        if self.st.morph_works(seat) {
            let mut pairs = std::mem::take(&mut self.pairs);
            super::rules::morph_pairs(c, hand, &mut pairs);
            for &(a, b) in &pairs {
                for s in 0..N_COLOURS as i32 {
                    if shields >> s & 1 == 1 {
                        out.push(StrikeAnswer::Morph(a, b, s));
                    }
                }
            }
            self.pairs = pairs;
        }
    }

    /// Strike a Shield alien (or the Spawnmonster), or ask a partner (level 0).
    pub(super) fn strike(&mut self, seat: usize) -> StrikeAnswer {
        let c = self.c;
        let shields = self.shield_colours();
        match self.strategy {
            Strategy::Random => {
                let mut options = Vec::new();
                if !can_strike(c, &self.st.hands[seat], shields) {
                    options.push(StrikeAnswer::Nothing); // only a Morph-box strike or a partner's
                }
                self.random_strikes(seat, &mut options);
                if self.st.level == 0 && shields != 0 {
                    let mut partners = std::mem::take(&mut self.seats_buf);
                    self.st.partners(seat, &mut partners);
                    for &p in &partners {
                        if can_strike(c, &self.st.hands[p], shields) {
                            options.push(StrikeAnswer::Help(p));
                        }
                    }
                    self.seats_buf = partners;
                }
                options[self.below(seat, options.len())]
            }
            _ => {
                let own = self.own_strike(seat);
                if own != StrikeAnswer::Nothing || self.st.level != 0 || shields == 0 {
                    return own;
                }
                let mut partners = std::mem::take(&mut self.seats_buf);
                self.st.partners(seat, &mut partners);
                let st = &self.st;
                let answer = partners
                    .iter()
                    .copied()
                    .find(|&p| {
                        st.hands[p].iter().any(|&x| {
                            is_weapon(c, x)
                                && (colour_of(c, x) == BLACK || shields >> colour_of(c, x) & 1 == 1)
                        })
                    })
                    .map_or(StrikeAnswer::Nothing, StrikeAnswer::Help);
                self.seats_buf = partners;
                answer
            }
        }
    }

    pub(super) fn help_strike(&mut self, helper: usize) -> StrikeAnswer {
        match self.strategy {
            Strategy::Random => {
                let mut options = Vec::new();
                if !can_strike(self.c, &self.st.hands[helper], self.shield_colours()) {
                    options.push(StrikeAnswer::Nothing);
                }
                self.random_strikes(helper, &mut options);
                options[self.below(helper, options.len())]
            }
            _ => self.own_strike(helper),
        }
    }

    /// `Crew._own_strike`.
    fn own_strike(&self, seat: usize) -> StrikeAnswer {
        let c = self.c;
        let st = &self.st;
        let hand = &st.hands[seat];
        let held = || hand.iter().copied().filter(|&x| is_weapon(c, x));
        let Some(&first_shield) = st.shields.first() else {
            let black = held().find(|&x| colour_of(c, x) == BLACK);
            return match black.or_else(|| held().next()) {
                Some(x) => StrikeAnswer::Weapon(x, MONSTER),
                None => StrikeAnswer::Nothing,
            };
        };
        let shields = self.shield_colours();
        for x in held() {
            let k = colour_of(c, x);
            if k != BLACK && shields >> k & 1 == 1 {
                return StrikeAnswer::Weapon(x, k);
            }
        }
        let first_colour = c.spawn_colour[first_shield as usize];
        if let Some(x) = held().find(|&x| colour_of(c, x) == BLACK) {
            return StrikeAnswer::Weapon(x, first_colour);
        }
        if st.morph_works(seat) {
            if let Some((a, b)) = self.cheapest_pair(seat, hand) {
                return StrikeAnswer::Morph(a, b, first_colour);
            }
        }
        StrikeAnswer::Nothing
    }
}
