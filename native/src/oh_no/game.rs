//! One game (`game.py`'s `Game.play`): the turn sequence, when each decision is asked, the draws
//! of every random stream in the same order, and the record. The players' answers are legal by
//! construction (`players.rs` ports `players.py`), so the checks of `Game` are not repeated.

use super::players::{CrewParams, Means, StrikeAnswer};
use super::rules::{can_strike, counters, morph_pair_ok, shuffle, zaps, State};
use super::{Components, Params, Strategy, EVAPORALIEN, HUB, INVALIEN, N_COLOURS, WEAPON};
use crate::batch::Head;
use crate::rng::{game_sequence, PyRandom, SeedSequence, CHANCE, FIRST_SEAT, SETUP};

pub const MAX_TURNS: i64 = 2_000;
/// The strike target "Spawnmonster".
pub const MONSTER: i32 = -1;

pub const END_SPAWNMONSTER_DESTROYED: u8 = 0;
pub const END_SHIELDS_COMPLETE: u8 = 1;
pub const END_CREW_ELIMINATED: u8 = 2;

pub const MOMENT_NONE: u8 = 0;
pub const MOMENT_START: u8 = 1;
pub const MOMENT_AFTER_COMBAT: u8 = 2;

// `game.STAT_KEYS` indices
pub const ACTIONS: usize = 0;
pub const DRAWS: usize = 1;
pub const TRANSPORTS: usize = 2;
pub const CARDS_DRAWN: usize = 3;
pub const RESISTANCE_RESHUFFLES: usize = 4;
pub const SPAWN_DRAWN: usize = 5;
pub const SHIELDS_PLACED: usize = 6;
pub const ALIENS_ZAPPED: usize = 7;
pub const ALIENS_FLOWN_OFF: usize = 8;
pub const INVASIONS: usize = 9;
pub const CARDS_EVAPORATED: usize = 10;
pub const SABOTAGES: usize = 11;
pub const MODULES_DESTROYED: usize = 12;
pub const MODULES_BUILT: usize = 13;
pub const ATTACKS: usize = 14;
pub const TELEPORT_ATTACKS: usize = 15;
pub const ALIENS_REMOVED: usize = 16;
pub const WEAPONS_DISCARDED: usize = 17;
pub const MORPH_BOX_USES: usize = 18;
pub const SETBACKS_LEVEL0: usize = 19;
pub const PLAYERS_ELIMINATED: usize = 20;
pub const ELIMINATED_INVALIENS: usize = 21;
pub const ELIMINATED_SABOTAGE: usize = 22;
pub const ELIMINATED_KAMIKAZE: usize = 23;
pub const KAMIKAZES: usize = 24;
pub const KAMIKAZES_COUNTERED: usize = 25;
pub const TELEPORT_HELPS: usize = 26;
pub const SHIELDS_DESTROYED: usize = 27;
pub const SPAWN_RESHUFFLES: usize = 28;
pub const N_STATS: usize = 29;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cause {
    Invaliens,
    Sabotage,
    Kamikaze,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pile {
    Resistance,
    Spawn,
}

/// The record of one game (`Game.play`'s dict).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub head: Head<bool>,
    pub survivors: i64,
    pub final_conflict_turn: i64,
    pub final_conflict_moment: u8,
    pub final_conflict_shields: i64,
    pub final_conflict_weapons: i64,
    pub shields_in_play: i64,
    pub stats: [i64; N_STATS],
}

/// A player's action (`action` decision); the transported cards are in `Engine::picked`.
pub enum Action {
    Draw,
    End,
    Transport(usize),
}

/// The streams of one game, each seeded when first drawn from (`SeatStream`'s laziness: the same
/// numbers, without seeding streams a game never uses). The generators are reused from game to
/// game.
pub struct Rngs {
    seq: SeedSequence,
    chance: Option<[u32; 8]>,
    /// The streams by slot: `SPAWN`, `RESISTANCE`, `SETUP_SLOT`, then seat k's at `SEAT0 + k`
    /// (this order puts the ones a game seeds at its start side by side).
    streams: Vec<PyRandom>,
    /// Which slots this game has seeded, as bits.
    seeded: u64,
    keys: Vec<[u32; 4]>,
}

const SPAWN: usize = 0;
const RESISTANCE: usize = 1;
const SETUP_SLOT: usize = 2;
const SEAT0: usize = 3;

impl Rngs {
    fn new() -> Rngs {
        Rngs {
            seq: game_sequence(0, 0),
            chance: None,
            streams: vec![PyRandom::from_words(&[0]); SEAT0],
            seeded: 0,
            keys: Vec::with_capacity(8),
        }
    }

    fn key(&self, path: u64) -> [u32; 4] {
        let w = self.seq.child(&[path]).generate_state(4);
        [w[0], w[1], w[2], w[3]]
    }

    /// `seeds.streams(seq, 2, CHANCE)`'s words: (resistance, spawn).
    fn chance_words(&mut self) -> [u32; 8] {
        let seq = &self.seq;
        *self.chance.get_or_insert_with(|| {
            let w = seq.child(&[CHANCE]).generate_state(8);
            [w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]
        })
    }

    /// The streams of game `game_index`, seeded side by side at its start: the setup stream,
    /// then for a crew that draws every seat's, else the Resistance reshuffles' (most crew games
    /// reshuffle). The others are seeded when first drawn from; the numbers are the same
    /// whenever a stream is seeded.
    fn start(&mut self, root_seed: u64, game_index: u64, n: usize, seats: bool) {
        self.seq = game_sequence(root_seed, game_index);
        self.chance = None;
        if self.streams.len() < SEAT0 + n {
            self.streams.resize(SEAT0 + n, self.streams[0].clone());
        }
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        let first = if seats {
            keys.push(self.key(SETUP));
            keys.extend((0..n).map(|k| self.key(FIRST_SEAT + k as u64)));
            SETUP_SLOT
        } else {
            let w = self.chance_words();
            keys.push([w[0], w[1], w[2], w[3]]);
            keys.push(self.key(SETUP));
            RESISTANCE
        };
        PyRandom::reseed_many(&mut self.streams[first..first + keys.len()], &keys);
        self.seeded = ((1u64 << keys.len()) - 1) << first;
        self.keys = keys;
    }

    pub fn setup(&mut self) -> &mut PyRandom {
        &mut self.streams[SETUP_SLOT]
    }

    /// Streams for a test: every seat's from `words`.
    #[cfg(test)]
    pub fn for_tests(words: u32, n: usize) -> Rngs {
        let mut rngs = Rngs::new();
        rngs.start(0, 0, n, false);
        for (k, seat) in rngs.streams[SEAT0..].iter_mut().enumerate() {
            *seat = PyRandom::from_words(&[words, k as u32]);
        }
        rngs.seeded = u64::MAX;
        rngs
    }

    /// `seeds.streams(seq, 2, CHANCE)`: (resistance, spawn).
    fn pile(&mut self, pile: Pile) -> &mut PyRandom {
        let (slot, words) = match pile {
            Pile::Resistance => (RESISTANCE, 0..4),
            Pile::Spawn => (SPAWN, 4..8),
        };
        if self.seeded >> slot & 1 == 0 {
            self.seeded |= 1 << slot;
            let w = self.chance_words();
            self.streams[slot].reseed_from_words(&w[words]);
        }
        &mut self.streams[slot]
    }

    /// `seeds.stream(seq, FIRST_SEAT + seat)`.
    #[inline]
    pub fn seat(&mut self, seat: usize) -> &mut PyRandom {
        let slot = SEAT0 + seat;
        if self.seeded >> slot & 1 == 0 {
            self.seeded |= 1 << slot;
            let words = self.key(FIRST_SEAT + seat as u64);
            self.streams[slot].reseed_from_words(&words);
        }
        &mut self.streams[slot]
    }
}

/// `Crew._plan`'s lists: a type's cover, the best cover, its black weapons, the colours left.
pub(super) type PlanBufs = (Vec<(u16, i32)>, Vec<(u16, i32)>, Vec<u16>, Vec<u8>);

/// Everything a batch keeps from game to game, and the game being played.
pub struct Engine<'c> {
    pub c: &'c Components,
    pub params: Params,
    pub strategy: Strategy,
    pub crew: CrewParams,
    pub st: State,
    pub stats: [i64; N_STATS],
    pub rngs: Rngs,
    fc_turn: i64,
    fc_shields: i64,
    fc_weapons: i64,
    fc_moment: u8,
    /// A crew member's `_readiness`: (turn, ready) as judged at its last combat.
    pub(super) readiness: Vec<(i64, bool)>,
    // Scratch buffers, reused from decision to decision.
    pub(super) picked: Vec<u16>,
    pub(super) plays: Vec<(u16, i32)>,
    pub(super) morph: Option<(u16, u16, i32)>,
    pub(super) seats_buf: Vec<usize>,
    pub(super) pairs: Vec<(u16, u16)>,
    pub(super) cards_buf: Vec<u16>,
    pub(super) plan_bufs: PlanBufs,
    path: Vec<usize>,
    slots: Vec<usize>,
    pub(super) lost: Vec<u16>,
}

impl<'c> Engine<'c> {
    pub fn new(c: &'c Components, params: Params, strategy: Strategy) -> Engine<'c> {
        Engine {
            c,
            params,
            strategy,
            crew: CrewParams::of(strategy),
            st: State::new(),
            stats: [0; N_STATS],
            rngs: Rngs::new(),
            fc_turn: 0,
            fc_shields: -1,
            fc_weapons: -1,
            fc_moment: MOMENT_NONE,
            readiness: Vec::new(),
            picked: Vec::with_capacity(64),
            plays: Vec::with_capacity(32),
            morph: None,
            seats_buf: Vec::with_capacity(8),
            pairs: Vec::with_capacity(256),
            cards_buf: Vec::with_capacity(64),
            plan_bufs: (
                Vec::with_capacity(16),
                Vec::with_capacity(16),
                Vec::with_capacity(4),
                Vec::with_capacity(8),
            ),
            path: Vec::with_capacity(8),
            slots: Vec::with_capacity(8),
            lost: Vec::with_capacity(64),
        }
    }

    // --- the piles -------------------------------------------------------------------------

    /// `Game._remake`: a new deck from the shuffled discards of `pile` (none: nothing).
    fn remake(&mut self, pile: Pile) {
        let st = &mut self.st;
        let (deck, discard, stat) = match pile {
            Pile::Resistance => (&mut st.deck, &mut st.discard, RESISTANCE_RESHUFFLES),
            Pile::Spawn => (&mut st.spawn_deck, &mut st.spawn_discard, SPAWN_RESHUFFLES),
        };
        if discard.is_empty() {
            return;
        }
        std::mem::swap(deck, discard);
        discard.clear();
        shuffle(self.rngs.pile(pile), deck);
        self.stats[stat] += 1;
    }

    /// `Game._draw_resistance`: the deck is remade the moment it runs out.
    pub(super) fn draw_resistance(&mut self, seat: usize, count: usize) {
        let mut got = 0;
        for _ in 0..count {
            if self.st.deck.is_empty() {
                self.remake(Pile::Resistance);
                if self.st.deck.is_empty() {
                    break;
                }
            }
            let card = self.st.deck.pop().expect("a card");
            self.st.hands[seat].push(card);
            got += 1;
            if self.st.deck.is_empty() {
                self.remake(Pile::Resistance);
            }
        }
        self.stats[CARDS_DRAWN] += got;
    }

    fn discard_from_hand(&mut self, seat: usize, card: u16) {
        let hand = &mut self.st.hands[seat];
        let i = hand
            .iter()
            .position(|&x| x == card)
            .expect("a card in hand");
        hand.remove(i);
        self.st.discard.push(card);
    }

    /// `Game._discard_from_hand` of the cards in `self.lost`, in order.
    fn discard_lost(&mut self, seat: usize) {
        let lost = std::mem::take(&mut self.lost);
        for &card in &lost {
            self.discard_from_hand(seat, card);
        }
        self.lost = lost;
    }

    // --- elimination -----------------------------------------------------------------------

    /// `Game.eliminate`: level 0 and Invaliens, the player discards all but the Hub and stays.
    pub fn eliminate(&mut self, seat: usize, cause: Cause) {
        let c = self.c;
        let st = &mut self.st;
        let stays = st.level == 0 && cause == Cause::Invaliens;
        let hand = std::mem::take(&mut st.hands[seat]);
        st.discard.extend_from_slice(&hand);
        st.hands[seat] = hand;
        st.hands[seat].clear();
        st.spawn_discard.extend_from_slice(&st.aliens[seat]);
        st.aliens[seat].clear();
        st.figs[seat] = [0; 8];
        st.spawn_discard
            .extend(st.sabo[seat].iter().filter(|&&a| a >= 0).map(|&a| a as u16));
        let mut kept = 0;
        for i in 0..st.mods[seat].len() {
            let m = st.mods[seat][i];
            let hub = c.res_category[m as usize] == HUB;
            if stays && hub {
                st.mods[seat][kept] = m;
                kept += 1;
            } else if !hub {
                st.discard.push(m);
            } // a Hub goes to the box: out of the game
        }
        st.mods[seat].truncate(kept);
        st.sabo[seat].clear();
        st.sabo[seat].resize(kept, -1);
        st.flipped[seat].clear();
        st.flipped[seat].resize(kept, false);
        st.recount(c, seat);
        if stays {
            self.stats[SETBACKS_LEVEL0] += 1;
            return;
        }
        st.alive[seat] = false;
        self.stats[PLAYERS_ELIMINATED] += 1;
        self.stats[match cause {
            Cause::Invaliens => ELIMINATED_INVALIENS,
            Cause::Sabotage => ELIMINATED_SABOTAGE,
            Cause::Kamikaze => ELIMINATED_KAMIKAZE,
        }] += 1;
        if !st.alive.iter().any(|&a| a) {
            st.end_reason = Some(END_CREW_ELIMINATED);
        }
    }

    // --- the invasion ----------------------------------------------------------------------

    /// `Game.spawn`: draw a Spawn card after an action and resolve it.
    fn spawn(&mut self, seat: usize) {
        let c = self.c;
        if self.st.spawn_deck.is_empty() {
            self.remake(Pile::Spawn);
            if self.st.spawn_deck.is_empty() {
                return;
            }
        }
        let card = self.st.spawn_deck.pop().expect("a card");
        self.stats[SPAWN_DRAWN] += 1;
        let ci = card as usize;
        if c.spawn_shield[ci] {
            self.st.shields.push(card);
            self.stats[SHIELDS_PLACED] += 1;
            if self.st.shields.len() >= c.shields_total {
                self.st.end_reason = Some(END_SHIELDS_COMPLETE);
            }
            return;
        }
        let mut path = std::mem::take(&mut self.path);
        let target = self.st.flight(c, seat, card, &mut path);
        let Some(target) = target else {
            self.path = path;
            self.st.spawn_discard.push(card);
            self.stats[ALIENS_FLOWN_OFF] += 1;
            return;
        };
        let colour = c.spawn_colour[ci];
        // [ZAPPING] the active player, then every player it flies past or is about to invade
        for &p in &path {
            if !self.st.hands[p].iter().any(|&x| zaps(c, x, colour)) {
                continue;
            }
            if let Some(weapon) = self.zap(p, card, target) {
                self.discard_from_hand(p, weapon);
                self.st.spawn_discard.push(card);
                self.stats[ALIENS_ZAPPED] += 1;
                self.path = path;
                return;
            }
        }
        self.path = path;
        self.place(target, card);
        if self.st.end_reason.is_none() {
            self.attack_order(card);
        }
    }

    /// `Game.place`: the alien joins the station; a Sabotalien takes a free module with its
    /// symbol (the owner chooses among several).
    fn place(&mut self, target: usize, card: u16) {
        let c = self.c;
        let ci = card as usize;
        let kind = c.spawn_kind[ci];
        self.stats[INVASIONS] += 1;
        if kind == INVALIEN || kind == EVAPORALIEN {
            self.st.aliens[target].push(card);
            self.st.figs[target][c.spawn_colour[ci] as usize] += c.spawn_aliens[ci];
            return;
        }
        let mut slots = std::mem::take(&mut self.slots);
        self.st
            .free_slots(c, target, c.spawn_colour[ci], &mut slots);
        let slot = if slots.len() > 1 {
            self.sabotalien_module(target, &slots)
        } else {
            slots[0]
        };
        self.slots = slots;
        self.st.sabo[target][slot] = card as i32;
    }

    /// `Game.attack_order`: every alien of the ordered colour on every station attacks, from the
    /// active player clockwise.
    fn attack_order(&mut self, card: u16) {
        let c = self.c;
        let ci = card as usize;
        let kind = c.spawn_kind[ci];
        let order = c.spawn_orders[ci];
        let n = self.st.n;
        let active = self.st.active;
        if kind == INVALIEN {
            let threshold = c.spawn_threshold[ci];
            for k in 0..n {
                let p = (active + k) % n;
                if self.st.alive[p] && self.st.figs[p][order as usize] >= threshold {
                    self.eliminate(p, Cause::Invaliens);
                    if self.st.end_reason.is_some() {
                        return;
                    }
                }
            }
        } else if kind == EVAPORALIEN {
            for k in 0..n {
                let p = (active + k) % n;
                let need = self.st.figs[p][order as usize] as usize;
                let size = self.st.hands[p].len();
                if !self.st.alive[p] || need == 0 || size == 0 {
                    continue;
                }
                if need >= size {
                    let st = &mut self.st;
                    st.discard.extend_from_slice(&st.hands[p]);
                    st.hands[p].clear();
                    self.stats[CARDS_EVAPORATED] += size as i64;
                } else {
                    self.discard_choice(p, need);
                    self.discard_lost(p);
                    self.stats[CARDS_EVAPORATED] += need as i64;
                }
            }
        } else {
            for k in 0..n {
                let p = (active + k) % n;
                if !self.st.alive[p] {
                    continue;
                }
                let mut destroyed = false;
                // the modules hit, in reverse order (a destroyed one is removed)
                for i in (0..self.st.sabo[p].len()).rev() {
                    let a = self.st.sabo[p][i];
                    if a < 0 || c.spawn_colour[a as usize] != order {
                        continue;
                    }
                    let st = &mut self.st;
                    if !st.flipped[p][i] {
                        st.flipped[p][i] = true;
                        st.recount(c, p);
                        self.stats[SABOTAGES] += 1;
                    } else if st.level >= 2 {
                        // Level 2: a sabotaged module attacked again is discarded with its Sabotalien
                        let module = st.mods[p][i];
                        st.spawn_discard.push(a as u16);
                        if c.res_category[module as usize] != HUB {
                            st.discard.push(module);
                        }
                        st.mods[p].remove(i);
                        st.sabo[p].remove(i);
                        st.flipped[p].remove(i);
                        st.recount(c, p);
                        self.stats[MODULES_DESTROYED] += 1;
                        destroyed = true;
                    }
                }
                if destroyed && self.st.mods[p].is_empty() {
                    self.eliminate(p, Cause::Sabotage);
                    if self.st.end_reason.is_some() {
                        return;
                    }
                }
            }
        }
    }

    // --- the turn --------------------------------------------------------------------------

    /// `Game.action`: one Draw or Transport, then a Spawn card; false when the player ends.
    fn action(&mut self, seat: usize, number: usize) -> bool {
        match self.choose_action(seat, number) {
            Action::End => return false,
            Action::Draw => {
                let st = &mut self.st;
                let mut count = 1;
                if st.catalyst_works(seat) && !(st.level >= 2 && st.catalyst_used) {
                    count = 2;
                    if st.level >= 2 {
                        st.catalyst_used = true;
                    }
                }
                self.draw_resistance(seat, count);
                self.stats[DRAWS] += 1;
            }
            Action::Transport(to) => {
                let picked = std::mem::take(&mut self.picked);
                for &card in &picked {
                    let hand = &mut self.st.hands[seat];
                    let i = hand
                        .iter()
                        .position(|&x| x == card)
                        .expect("a card in hand");
                    hand.remove(i);
                    self.st.hands[to].push(card);
                }
                self.picked = picked;
                self.stats[TRANSPORTS] += 1;
            }
        }
        self.stats[ACTIONS] += 1;
        self.spawn(seat);
        true
    }

    /// `Game.build`: module cards from hand join the station.
    fn build(&mut self, seat: usize) {
        let c = self.c;
        if !self.st.hands[seat].iter().any(|&x| is_module(c, x)) {
            return;
        }
        self.choose_build(seat);
        let picked = std::mem::take(&mut self.picked);
        for &card in &picked {
            let hand = &mut self.st.hands[seat];
            let i = hand
                .iter()
                .position(|&x| x == card)
                .expect("a card in hand");
            hand.remove(i);
            self.st.add_module(c, seat, card);
        }
        self.stats[MODULES_BUILT] += picked.len() as i64;
        self.picked = picked;
    }

    /// `Game.combat`: one attack.
    fn combat(&mut self, seat: usize) {
        let c = self.c;
        let Some((attacker, target)) = self.choose_combat(seat) else {
            return;
        };
        self.attack(attacker, target);
        if self.plays.is_empty() && self.morph.is_none() {
            return;
        }
        // the colours cleared, as bits
        let mut colours = 0u16;
        for &(_, k) in &self.plays {
            colours |= 1 << k;
        }
        if let Some((_, _, k)) = self.morph {
            colours |= 1 << k;
        }
        // `rules.attack_discards`: the first played card of each weapon type, then the pair
        self.lost.clear();
        let mut types_seen = 0u32;
        for &(card, _) in &self.plays {
            let t = c.res_type[card as usize];
            if types_seen >> t & 1 == 0 {
                types_seen |= 1 << t;
                self.lost.push(card);
            }
        }
        if let Some((a, b, _)) = self.morph {
            self.lost.push(a);
            self.lost.push(b);
        }
        let lost = self.lost.len() as i64;
        self.discard_lost(attacker);
        let st = &mut self.st;
        let mut removed = 0i64;
        let clears = |a: u16| colours >> c.spawn_colour[a as usize] & 1 == 1;
        if st.aliens[target].iter().any(|&a| clears(a)) {
            let aliens = &mut st.aliens[target];
            for &a in aliens.iter() {
                if clears(a) {
                    st.spawn_discard.push(a);
                    removed += 1;
                }
            }
            aliens.retain(|&a| !clears(a));
            for k in 0..N_COLOURS {
                if colours >> k & 1 == 1 {
                    st.figs[target][k] = 0;
                }
            }
        }
        for i in 0..st.sabo[target].len() {
            let a = st.sabo[target][i];
            if a >= 0 && clears(a as u16) {
                st.spawn_discard.push(a as u16);
                removed += 1;
                st.sabo[target][i] = -1;
                if st.flipped[target][i] {
                    st.flipped[target][i] = false;
                    st.recount(c, target);
                }
            }
        }
        let morphs = self.morph.is_some() as i64;
        self.stats[ATTACKS] += 1;
        self.stats[TELEPORT_ATTACKS] += (attacker != target) as i64;
        self.stats[ALIENS_REMOVED] += removed;
        self.stats[WEAPONS_DISCARDED] += lost - 2 * morphs;
        self.stats[MORPH_BOX_USES] += morphs;
    }

    /// `Game.ask_final_conflict`.
    fn ask_final_conflict(&mut self, seat: usize, moment: u8) -> bool {
        if !self.wants_final_conflict(seat, moment) {
            return false;
        }
        self.st.final_conflict = true;
        self.fc_turn = self.st.turn;
        self.fc_shields = self.st.shields.len() as i64;
        self.fc_weapons = self.st.crew_weapons(self.c);
        self.fc_moment = moment;
        self.final_conflict_turn(seat);
        true
    }

    fn turn(&mut self, seat: usize) {
        if self.ask_final_conflict(seat, MOMENT_START) {
            return;
        }
        for number in 0..2 {
            if !self.action(seat, number) {
                break;
            }
            if self.st.end_reason.is_some() || !self.st.alive[seat] {
                return;
            }
        }
        self.build(seat);
        self.combat(seat);
        self.ask_final_conflict(seat, MOMENT_AFTER_COMBAT);
    }

    // --- the Final Conflict ----------------------------------------------------------------

    /// The cards a counter or strike spends into `self.lost` (`Game._use`).
    fn spend(&mut self, means: Means) {
        self.lost.clear();
        match means {
            Means::Weapon(card) => self.lost.push(card),
            Means::Morph(a, b) => {
                debug_assert!(morph_pair_ok(self.c, a, b));
                self.stats[MORPH_BOX_USES] += 1;
                self.lost.push(a);
                self.lost.push(b);
            }
            Means::Help(_) | Means::Nothing => unreachable!("no cards to spend"),
        }
    }

    /// `Game.final_conflict_turn`: 1. kamikaze: counter or be eliminated; 2. strike.
    fn final_conflict_turn(&mut self, seat: usize) {
        let c = self.c;
        if self.st.spawn_deck.is_empty() {
            self.remake(Pile::Spawn);
        }
        if let Some(card) = self.st.spawn_deck.pop() {
            if self.st.spawn_deck.is_empty() {
                // remade at once, before this kamikaze is discarded (RULINGS §2)
                self.remake(Pile::Spawn);
            }
            self.stats[KAMIKAZES] += 1;
            let colour = c.spawn_colour[card as usize];
            let mut answer = self.counter(seat, colour);
            let mut who = seat;
            if let Means::Help(helper) = answer {
                who = helper;
                answer = self.help_counter(helper, colour);
                self.stats[TELEPORT_HELPS] += (answer != Means::Nothing) as i64;
            }
            self.st.spawn_discard.push(card);
            if answer == Means::Nothing {
                debug_assert!(!self.st.can_counter(c, seat, colour) || who != seat);
                self.eliminate(seat, Cause::Kamikaze);
                return;
            }
            debug_assert!(match answer {
                Means::Weapon(w) => counters(c, w, colour),
                _ => true,
            });
            self.spend(answer);
            self.discard_lost(who);
            self.stats[KAMIKAZES_COUNTERED] += 1;
        }
        // 2. Strike!!! a Shield alien, or with none left the Spawnmonster
        let mut answer = self.strike(seat);
        let mut who = seat;
        if let StrikeAnswer::Help(helper) = answer {
            who = helper;
            answer = self.help_strike(helper);
            self.stats[TELEPORT_HELPS] += !matches!(answer, StrikeAnswer::Nothing) as i64;
        }
        let (means, colour) = match answer {
            StrikeAnswer::Weapon(w, k) => (Means::Weapon(w), k),
            StrikeAnswer::Morph(a, b, k) => (Means::Morph(a, b), k),
            StrikeAnswer::Nothing => {
                debug_assert!(!can_strike(c, &self.st.hands[who], self.shield_colours()));
                return;
            }
            StrikeAnswer::Help(_) => unreachable!("help asked of a helper"),
        };
        self.spend(means);
        self.discard_lost(who);
        if colour == MONSTER {
            self.st.end_reason = Some(END_SPAWNMONSTER_DESTROYED);
            return;
        }
        let shields = &mut self.st.shields;
        let i = shields
            .iter()
            .position(|&s| c.spawn_colour[s as usize] == colour)
            .expect("a Shield alien of the colour");
        let shield = shields.remove(i);
        self.st.spawn_discard.push(shield);
        self.stats[SHIELDS_DESTROYED] += 1;
    }

    /// The colours of the Shield aliens in play, as bits.
    pub(super) fn shield_colours(&self) -> u16 {
        self.st
            .shields
            .iter()
            .fold(0, |m, &s| m | 1 << self.c.spawn_colour[s as usize])
    }

    // --- the game --------------------------------------------------------------------------

    pub fn play(&mut self, root_seed: u64, game_index: u64) -> Result<Record, String> {
        let c = self.c;
        let n = self.params.players;
        self.rngs
            .start(root_seed, game_index, n, self.strategy == Strategy::Random);
        self.st.reset(c, n, self.params.level, self.rngs.setup());
        self.stats = [0; N_STATS];
        self.fc_turn = 0;
        self.fc_shields = -1;
        self.fc_weapons = -1;
        self.fc_moment = MOMENT_NONE;
        self.readiness.clear();
        self.readiness.resize(n, (-1, false));
        while self.st.end_reason.is_none() {
            self.st.turn += 1;
            if self.st.turn > MAX_TURNS {
                return Err(format!("game did not end within {MAX_TURNS} turns"));
            }
            let seat = self.st.active;
            self.st.catalyst_used = false;
            if self.st.final_conflict {
                self.final_conflict_turn(seat);
            } else {
                self.turn(seat);
            }
            if self.st.end_reason.is_none() {
                self.st.active = self.st.next_alive(seat);
            }
        }
        let st = &self.st;
        let end_reason = st.end_reason.expect("the game ended");
        let won = end_reason == END_SPAWNMONSTER_DESTROYED;
        let survivors = st.alive.iter().filter(|&&a| a).count() as i64;
        Ok(Record {
            head: Head {
                won,
                score: if won {
                    c.points[st.level as usize] * survivors
                } else {
                    0
                },
                length: st.turn,
                end_reason,
            },
            survivors,
            final_conflict_turn: self.fc_turn,
            final_conflict_moment: self.fc_moment,
            final_conflict_shields: self.fc_shields,
            final_conflict_weapons: self.fc_weapons,
            shields_in_play: st.shields.len() as i64,
            stats: self.stats,
        })
    }
}

#[inline]
pub fn is_module(c: &Components, card: u16) -> bool {
    let k = c.res_category[card as usize];
    k != HUB && k != WEAPON
}
