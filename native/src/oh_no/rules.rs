//! The state of a game (`state.py`) and the rule look-ups on it (`rules.py`), with no strategy in
//! them. Cards are ids as in Python; piles are vectors whose top is the end.

use super::{Components, BLACK, CATALYST, HUB, MORPH_BOX, SABOTALIEN, TELEPORTER, WEAPON};
use crate::rng::PyRandom;

pub struct State {
    pub n: usize,
    pub level: u8,
    pub deck: Vec<u16>,
    pub discard: Vec<u16>,
    pub spawn_deck: Vec<u16>,
    pub spawn_discard: Vec<u16>,
    pub shields: Vec<u16>,
    pub hands: Vec<Vec<u16>>,
    pub mods: Vec<Vec<u16>>,
    /// Per module, the Sabotalien card next to it, or -1.
    pub sabo: Vec<Vec<i32>>,
    pub flipped: Vec<Vec<bool>>,
    pub aliens: Vec<Vec<u16>>,
    pub figs: Vec<[i32; 8]>,
    pub alive: Vec<bool>,
    pub active: usize,
    pub turn: i64,
    pub final_conflict: bool,
    pub catalyst_used: bool,
    pub end_reason: Option<u8>,
    /// Unsabotaged modules of each category HUB..TELEPORTER (`State.works`).
    pub works: Vec<[i32; 4]>,
    /// The colours the station's modules show, as bits (`State.shown[s][c] > 0`).
    pub shown: Vec<u16>,
}

/// A copy for the search's snapshots; `clone_from` keeps the target's vectors (a search restores
/// a position thousands of times a decision).
impl Clone for State {
    fn clone(&self) -> State {
        let mut st = State::new();
        st.clone_from(self);
        st
    }

    fn clone_from(&mut self, s: &State) {
        self.n = s.n;
        self.level = s.level;
        self.deck.clone_from(&s.deck);
        self.discard.clone_from(&s.discard);
        self.spawn_deck.clone_from(&s.spawn_deck);
        self.spawn_discard.clone_from(&s.spawn_discard);
        self.shields.clone_from(&s.shields);
        self.hands.clone_from(&s.hands);
        self.mods.clone_from(&s.mods);
        self.sabo.clone_from(&s.sabo);
        self.flipped.clone_from(&s.flipped);
        self.aliens.clone_from(&s.aliens);
        self.figs.clone_from(&s.figs);
        self.alive.clone_from(&s.alive);
        self.active = s.active;
        self.turn = s.turn;
        self.final_conflict = s.final_conflict;
        self.catalyst_used = s.catalyst_used;
        self.end_reason = s.end_reason;
        self.works.clone_from(&s.works);
        self.shown.clone_from(&s.shown);
    }
}

impl State {
    pub fn new() -> State {
        State {
            n: 0,
            level: 0,
            deck: Vec::with_capacity(64),
            discard: Vec::with_capacity(64),
            spawn_deck: Vec::with_capacity(64),
            spawn_discard: Vec::with_capacity(64),
            shields: Vec::with_capacity(16),
            hands: Vec::new(),
            mods: Vec::new(),
            sabo: Vec::new(),
            flipped: Vec::new(),
            aliens: Vec::new(),
            figs: Vec::new(),
            alive: Vec::new(),
            active: 0,
            turn: 0,
            final_conflict: false,
            catalyst_used: false,
            end_reason: None,
            works: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// `state.new_game`: hubs 1..n to seats 0..n-1, the rest of the Resistance deck shuffled, the
    /// Spawn deck shuffled. The vectors of the last game are reused.
    pub fn reset(&mut self, c: &Components, n: usize, level: u8, setup: &mut PyRandom) {
        self.n = n;
        self.level = level;
        for v in [&mut self.hands, &mut self.mods, &mut self.aliens] {
            v.resize_with(n, Vec::new);
            v.iter_mut().for_each(Vec::clear);
        }
        self.sabo.resize_with(n, Vec::new);
        self.sabo.iter_mut().for_each(Vec::clear);
        self.flipped.resize_with(n, Vec::new);
        self.flipped.iter_mut().for_each(Vec::clear);
        self.figs.clear();
        self.figs.resize(n, [0; 8]);
        self.alive.clear();
        self.alive.resize(n, true);
        self.works.clear();
        self.works.resize(n, [0; 4]);
        self.shown.clear();
        self.shown.resize(n, 0);
        self.active = 0;
        self.turn = 0;
        self.final_conflict = false;
        self.catalyst_used = false;
        self.end_reason = None;
        for seat in 0..n {
            self.add_module(c, seat, c.hubs[seat]);
        }
        self.deck.clear();
        self.deck
            .extend((0..c.res_category.len() as u16).filter(|card| !c.hubs.contains(card)));
        shuffle(setup, &mut self.deck);
        self.spawn_deck.clear();
        self.spawn_deck.extend(0..c.spawn_colour.len() as u16);
        shuffle(setup, &mut self.spawn_deck);
        self.discard.clear();
        self.spawn_discard.clear();
        self.shields.clear();
    }

    /// `State.recount`: `works` and `shown` after any change to a station's modules.
    pub fn recount(&mut self, c: &Components, seat: usize) {
        let mut counts = [0i32; 4];
        let mut shown = 0u16;
        for (&m, &f) in self.mods[seat].iter().zip(&self.flipped[seat]) {
            if !f {
                counts[c.res_category[m as usize] as usize] += 1;
            }
            for &colour in &c.res_symbols[m as usize] {
                shown |= 1 << colour;
            }
        }
        self.works[seat] = counts;
        self.shown[seat] = shown;
    }

    pub fn add_module(&mut self, c: &Components, seat: usize, card: u16) {
        self.mods[seat].push(card);
        self.sabo[seat].push(-1);
        self.flipped[seat].push(false);
        self.recount(c, seat);
    }

    pub fn hub_works(&self, seat: usize) -> bool {
        self.works[seat][HUB as usize] > 0
    }

    pub fn catalyst_works(&self, seat: usize) -> bool {
        self.works[seat][CATALYST as usize] > 0
    }

    pub fn morph_works(&self, seat: usize) -> bool {
        self.works[seat][MORPH_BOX as usize] > 0
    }

    /// Whether `p` is a Teleporter partner of `seat` (`rules.teleport_partners`).
    pub fn is_partner(&self, seat: usize, p: usize) -> bool {
        p != seat
            && self.alive[p]
            && self.works[seat][TELEPORTER as usize] > 0
            && self.works[p][TELEPORTER as usize] > 0
    }

    /// `rules.teleport_partners`, into `out`.
    pub fn partners(&self, seat: usize, out: &mut Vec<usize>) {
        out.clear();
        if self.works[seat][TELEPORTER as usize] == 0 {
            return;
        }
        out.extend((0..self.n).filter(|&p| self.is_partner(seat, p)));
    }

    /// `rules.free_slots`: modules showing `colour` with no Sabotalien next to them.
    pub fn free_slots(&self, c: &Components, seat: usize, colour: i32, out: &mut Vec<usize>) {
        out.clear();
        for (i, &m) in self.mods[seat].iter().enumerate() {
            if self.sabo[seat][i] < 0 && shows_symbol(c, m, colour) {
                out.push(i);
            }
        }
    }

    fn has_free_slot(&self, c: &Components, seat: usize, colour: i32) -> bool {
        self.mods[seat]
            .iter()
            .enumerate()
            .any(|(i, &m)| self.sabo[seat][i] < 0 && shows_symbol(c, m, colour))
    }

    pub fn shows(&self, seat: usize, colour: i32) -> bool {
        self.shown[seat] >> colour & 1 == 1
    }

    /// `rules.flight`: the stations visited (into `path`) and the target, or None.
    pub fn flight(
        &self,
        c: &Components,
        start: usize,
        card: u16,
        path: &mut Vec<usize>,
    ) -> Option<usize> {
        let card = card as usize;
        let colour = c.spawn_colour[card];
        let step = c.spawn_flies[card];
        let sabotalien = c.spawn_kind[card] == SABOTALIEN;
        let n = self.n as i32;
        path.clear();
        let mut seat = start;
        for _ in 0..n {
            if self.alive[seat] {
                path.push(seat);
                let hit = if sabotalien {
                    self.has_free_slot(c, seat, colour)
                } else {
                    self.shows(seat, colour)
                };
                if hit {
                    return Some(seat);
                }
            }
            seat = (seat as i32 + step).rem_euclid(n) as usize;
        }
        None
    }

    /// `rules.counter_helpers`: partners of `seat` holding a weapon that counters `colour`.
    pub fn counter_helpers(&self, c: &Components, seat: usize, colour: i32, out: &mut Vec<usize>) {
        self.partners(seat, out);
        out.retain(|&p| has_counter(c, &self.hands[p], colour));
    }

    /// `rules.can_counter`.
    pub fn can_counter(&self, c: &Components, seat: usize, colour: i32) -> bool {
        let hand = &self.hands[seat];
        if has_counter(c, hand, colour) {
            return true;
        }
        if (0..self.n).any(|p| self.is_partner(seat, p) && has_counter(c, &self.hands[p], colour)) {
            return true;
        }
        self.morph_works(seat) && has_morph_pair(c, hand)
    }

    /// `rules.next_alive`.
    pub fn next_alive(&self, seat: usize) -> usize {
        for k in 1..=self.n {
            let s = (seat + k) % self.n;
            if self.alive[s] {
                return s;
            }
        }
        seat
    }

    /// `Game.crew_weapons`: weapons in the hands of living players.
    pub fn crew_weapons(&self, c: &Components) -> i64 {
        (0..self.n)
            .filter(|&p| self.alive[p])
            .map(|p| self.hands[p].iter().filter(|&&x| is_weapon(c, x)).count() as i64)
            .sum()
    }

    pub fn cards_in_hands(&self) -> usize {
        self.hands.iter().map(Vec::len).sum()
    }
}

/// `state.shuffle`: Fisher-Yates with one `random()` per card.
pub fn shuffle(rng: &mut PyRandom, cards: &mut [u16]) {
    for i in (1..cards.len()).rev() {
        let j = (rng.random() * (i + 1) as f64) as usize;
        cards.swap(i, j);
    }
}

#[inline]
pub fn shows_symbol(c: &Components, card: u16, colour: i32) -> bool {
    c.res_symbols[card as usize]
        .iter()
        .any(|&s| s as i32 == colour)
}

#[inline]
pub fn is_weapon(c: &Components, card: u16) -> bool {
    c.res_category[card as usize] == WEAPON
}

#[inline]
pub fn colour_of(c: &Components, card: u16) -> i32 {
    c.res_colour[card as usize]
}

/// A weapon that ZAPs a flying alien of `colour`: that colour or black.
#[inline]
pub fn zaps(c: &Components, card: u16, colour: i32) -> bool {
    is_weapon(c, card) && (colour_of(c, card) == colour || colour_of(c, card) == BLACK)
}

/// A weapon that counters a kamikaze of `colour`: that colour only.
#[inline]
pub fn counters(c: &Components, card: u16, colour: i32) -> bool {
    is_weapon(c, card) && colour_of(c, card) == colour
}

pub fn has_counter(c: &Components, hand: &[u16], colour: i32) -> bool {
    hand.iter().any(|&x| counters(c, x, colour))
}

/// `rules.morph_pair_ok`: the same type (weapon type, or both modules), or two weapons of one
/// colour.
#[inline]
pub fn morph_pair_ok(c: &Components, a: u16, b: u16) -> bool {
    if a == b {
        return false;
    }
    let (ai, bi) = (a as usize, b as usize);
    if c.res_type[ai] == c.res_type[bi] {
        return true;
    }
    c.res_category[ai] == WEAPON
        && c.res_category[bi] == WEAPON
        && c.res_colour[ai] == c.res_colour[bi]
}

/// `rules.morph_pairs`, into `out`.
pub fn morph_pairs(c: &Components, hand: &[u16], out: &mut Vec<(u16, u16)>) {
    out.clear();
    for (i, &a) in hand.iter().enumerate() {
        for &b in &hand[i + 1..] {
            if morph_pair_ok(c, a, b) {
                out.push((a, b));
            }
        }
    }
}

pub fn has_morph_pair(c: &Components, hand: &[u16]) -> bool {
    hand.iter()
        .enumerate()
        .any(|(i, &a)| hand[i + 1..].iter().any(|&b| morph_pair_ok(c, a, b)))
}

/// `rules.strike_weapons` is not empty: a weapon of a Shield alien's colour or black, or with no
/// Shield alien left any weapon.
pub fn can_strike(c: &Components, hand: &[u16], shield_colours: u16) -> bool {
    hand.iter().any(|&x| strikes(c, x, shield_colours))
}

#[inline]
pub fn strikes(c: &Components, card: u16, shield_colours: u16) -> bool {
    if !is_weapon(c, card) {
        return false;
    }
    let k = colour_of(c, card);
    shield_colours == 0 || k == BLACK || shield_colours >> k & 1 == 1
}
