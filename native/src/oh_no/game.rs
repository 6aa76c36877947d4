//! One game (`game.py`'s `Game.play`): the turn sequence, when each decision is asked, the draws
//! of every random stream in the same order, and the record, as a step machine: the game waits
//! at a `Phase` (a decision), an answer plays the rules and cards up to the next (`Engine::run`
//! asks the engine's strategy; `Engine::apply` takes the search's `Action`). The built-in crews'
//! answers are legal by construction (`players.rs` ports `players.py`), so `run` repeats the
//! checks of `Game` only in debug builds; `apply` checks every answer.

use super::players::{CrewParams, Means, StrikeAnswer};
use super::rules::{
    can_strike, colour_of, counters, has_counter, is_weapon, morph_pair_ok, shuffle, zaps, State,
};
use super::{Components, Params, Strategy, BLACK, EVAPORALIEN, HUB, INVALIEN, N_COLOURS, WEAPON};
use crate::batch::Head;
use crate::mcts::Positions;
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

/// A player's choice of action (the `action` decision); the transported cards are in
/// `Engine::picked`.
pub enum Act {
    Draw,
    End,
    Transport(usize),
}

/// The decision a game waits on, or its end (`END_*`): where the forward model stands. `seat` is
/// the active player; a decision asked inside an action's Spawn card keeps the action's `number`
/// (0 or 1), for the turn to go on after the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Call the Final Conflict now? (at the start of the turn, or after combat)
    Call {
        seat: usize,
        moment: u8,
    },
    /// The turn's first or second action.
    Act {
        seat: usize,
        number: usize,
    },
    /// Zap the flying Spawn `card` before it invades `target`? Asked of `zapper`, the station at
    /// `at` on the card's flight, who holds a weapon that zaps it.
    Zap {
        seat: usize,
        number: usize,
        card: u16,
        target: usize,
        at: usize,
        zapper: usize,
    },
    /// Which free module of `target`'s the Sabotalien `card` takes (several show its symbol).
    Module {
        seat: usize,
        number: usize,
        card: u16,
        target: usize,
    },
    /// The cards the player `at` places clockwise from the active player loses to the
    /// Evaporalien attack order of `card` (fewer than their hand).
    Evaporate {
        seat: usize,
        number: usize,
        card: u16,
        at: usize,
    },
    /// The modules to build from hand (asked while one is held).
    Build {
        seat: usize,
    },
    Combat {
        seat: usize,
    },
    /// Counter the kamikaze `card`: own means, or ask a Teleporter partner.
    Counter {
        seat: usize,
        card: u16,
    },
    /// The partner `helper` asked to counter the kamikaze `card` for `seat`.
    HelpCounter {
        seat: usize,
        helper: usize,
        card: u16,
    },
    /// Strike a Shield alien (or the Spawnmonster), or ask a partner (level 0).
    Strike {
        seat: usize,
    },
    HelpStrike {
        seat: usize,
        helper: usize,
    },
    Over(u8),
}

/// An attack as the rules resolve it (`rules.attack_discards`): who plays, on whose station,
/// the colours cleared, and the cards discarded: the first card played of each weapon type, in
/// play order, then a Morph-box pair (its colour is among `colours`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    pub attacker: usize,
    pub target: usize,
    pub colours: u16,
    pub spent: [Option<u16>; 3],
    pub morph: Option<(u16, u16)>,
}

/// One decision's answer, as the forward model takes it (`Engine::apply`). The decision answered
/// is the phase's; a helper answers with `Counter` and `Strike` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Call(bool),
    Draw,
    End,
    /// Transport this card to that seat.
    Transport(usize, u16),
    /// Zap with this weapon, or let the alien fly on.
    Zap(Option<u16>),
    /// The module (by its place on the station) the Sabotalien takes.
    Module(usize),
    /// The cards lost to an Evaporalien, as a set of hand positions.
    Discard(u64),
    /// The modules built, as a set of hand positions.
    Build(u64),
    Attack(Option<Attack>),
    Counter(Means),
    Strike(StrikeAnswer),
}

/// The streams of one game, each seeded when first drawn from (`SeatStream`'s laziness: the same
/// numbers, without seeding streams a game never uses). The generators are reused from game to
/// game.
#[derive(Clone)]
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

    /// Reseed the streams of the Resistance and Spawn reshuffles (a search's deal).
    pub fn reseed_piles(&mut self, seeds: [u64; 2]) {
        self.streams[RESISTANCE].reseed_u64(seeds[0]);
        self.streams[SPAWN].reseed_u64(seeds[1]);
        self.seeded |= 1 << RESISTANCE | 1 << SPAWN;
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
    /// The flight of the Spawn card being resolved (`State::flight`).
    pub(super) path: Vec<usize>,
    slots: Vec<usize>,
    pub(super) lost: Vec<u16>,
    /// The decision the game waits on.
    pub phase: Phase,
    /// The search player's tree and model, when the strategy is `mcts`.
    pub(super) searcher: Option<Box<super::forward::Searcher<'c>>>,
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
            phase: Phase::Over(END_CREW_ELIMINATED),
            searcher: None,
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

    /// `Game.spawn`: draw a Spawn card after action `number` of `seat` and resolve it.
    fn spawn(&mut self, seat: usize, number: usize) -> Result<(), String> {
        let c = self.c;
        if self.st.spawn_deck.is_empty() {
            self.remake(Pile::Spawn);
            if self.st.spawn_deck.is_empty() {
                return self.after_action(seat, number);
            }
        }
        let card = self.st.spawn_deck.pop().expect("a card");
        self.stats[SPAWN_DRAWN] += 1;
        if c.spawn_shield[card as usize] {
            self.st.shields.push(card);
            self.stats[SHIELDS_PLACED] += 1;
            if self.st.shields.len() >= c.shields_total {
                self.st.end_reason = Some(END_SHIELDS_COMPLETE);
            }
            return self.after_action(seat, number);
        }
        let mut path = std::mem::take(&mut self.path);
        let target = self.st.flight(c, seat, card, &mut path);
        self.path = path;
        let Some(target) = target else {
            self.st.spawn_discard.push(card);
            self.stats[ALIENS_FLOWN_OFF] += 1;
            return self.after_action(seat, number);
        };
        self.zap_from(seat, number, card, target, 0)
    }

    /// [ZAPPING] the active player, then every player the alien flies past or is about to
    /// invade, from the station at `from` on its flight (`self.path`; a restored position has
    /// none and works it out again): the first holding a weapon that zaps it is asked; with no
    /// one left, the alien lands.
    fn zap_from(
        &mut self,
        seat: usize,
        number: usize,
        card: u16,
        target: usize,
        from: usize,
    ) -> Result<(), String> {
        let c = self.c;
        if self.path.is_empty() {
            let mut path = std::mem::take(&mut self.path);
            self.st.flight(c, seat, card, &mut path);
            self.path = path;
        }
        let colour = c.spawn_colour[card as usize];
        for at in from..self.path.len() {
            let zapper = self.path[at];
            if self.st.hands[zapper].iter().any(|&x| zaps(c, x, colour)) {
                self.phase = Phase::Zap {
                    seat,
                    number,
                    card,
                    target,
                    at,
                    zapper,
                };
                return Ok(());
            }
        }
        self.place(seat, number, target, card)
    }

    /// The answer to [ZAPPING]: the weapon and the alien discarded, or the flight goes on.
    fn zapped(&mut self, weapon: Option<u16>) -> Result<(), String> {
        let Phase::Zap {
            seat,
            number,
            card,
            target,
            at,
            zapper,
        } = self.phase
        else {
            unreachable!("a zap answers a zap")
        };
        let Some(weapon) = weapon else {
            return self.zap_from(seat, number, card, target, at + 1);
        };
        self.discard_from_hand(zapper, weapon);
        self.st.spawn_discard.push(card);
        self.stats[ALIENS_ZAPPED] += 1;
        self.after_action(seat, number)
    }

    /// `Game.place`: the alien joins the station; a Sabotalien takes a free module with its
    /// symbol (the owner chooses among several). Then its attack order.
    fn place(
        &mut self,
        seat: usize,
        number: usize,
        target: usize,
        card: u16,
    ) -> Result<(), String> {
        let c = self.c;
        let ci = card as usize;
        let kind = c.spawn_kind[ci];
        self.stats[INVASIONS] += 1;
        if kind == INVALIEN || kind == EVAPORALIEN {
            self.st.aliens[target].push(card);
            self.st.figs[target][c.spawn_colour[ci] as usize] += c.spawn_aliens[ci];
            return self.attack_order(seat, number, card);
        }
        let mut slots = std::mem::take(&mut self.slots);
        self.st
            .free_slots(c, target, c.spawn_colour[ci], &mut slots);
        let only = slots[0];
        let several = slots.len() > 1;
        self.slots = slots;
        if several {
            self.phase = Phase::Module {
                seat,
                number,
                card,
                target,
            };
            return Ok(());
        }
        self.take_module(seat, number, card, target, only)
    }

    /// The Sabotalien `card` takes the module at `slot` of `target`'s station.
    fn take_module(
        &mut self,
        seat: usize,
        number: usize,
        card: u16,
        target: usize,
        slot: usize,
    ) -> Result<(), String> {
        self.st.sabo[target][slot] = card as i32;
        self.attack_order(seat, number, card)
    }

    /// `Game.attack_order`: every alien of the ordered colour on every station attacks, from the
    /// active player clockwise.
    fn attack_order(&mut self, seat: usize, number: usize, card: u16) -> Result<(), String> {
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
                        break;
                    }
                }
            }
        } else if kind == EVAPORALIEN {
            return self.evaporate(seat, number, card, 0);
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
                        break;
                    }
                }
            }
        }
        self.after_action(seat, number)
    }

    /// The cards an Evaporalien's attack order of `card` costs each player from the one at
    /// `from` clockwise of the active player: all of a hand too small, else the player chooses.
    fn evaporate(
        &mut self,
        seat: usize,
        number: usize,
        card: u16,
        from: usize,
    ) -> Result<(), String> {
        let order = self.c.spawn_orders[card as usize] as usize;
        let n = self.st.n;
        for at in from..n {
            let p = (self.st.active + at) % n;
            let need = self.st.figs[p][order] as usize;
            let size = self.st.hands[p].len();
            if !self.st.alive[p] || need == 0 || size == 0 {
                continue;
            }
            if need < size {
                self.phase = Phase::Evaporate {
                    seat,
                    number,
                    card,
                    at,
                };
                return Ok(());
            }
            let st = &mut self.st;
            st.discard.extend_from_slice(&st.hands[p]);
            st.hands[p].clear();
            self.stats[CARDS_EVAPORATED] += size as i64;
        }
        self.after_action(seat, number)
    }

    /// The player asked at `Phase::Evaporate` discards the cards in `self.lost`.
    fn evaporated(&mut self) -> Result<(), String> {
        let Phase::Evaporate {
            seat,
            number,
            card,
            at,
        } = self.phase
        else {
            unreachable!("a discard answers an Evaporalien")
        };
        let p = (self.st.active + at) % self.st.n;
        let need = self.st.figs[p][self.c.spawn_orders[card as usize] as usize];
        self.discard_lost(p);
        self.stats[CARDS_EVAPORATED] += i64::from(need);
        self.evaporate(seat, number, card, at + 1)
    }

    // --- the turn --------------------------------------------------------------------------

    /// A new turn of the active player: the Final Conflict's, or the question whether to call it.
    fn start_turn(&mut self) -> Result<(), String> {
        self.st.turn += 1;
        if self.st.turn > MAX_TURNS {
            return Err(format!("game did not end within {MAX_TURNS} turns"));
        }
        let seat = self.st.active;
        self.st.catalyst_used = false;
        if self.st.final_conflict {
            self.kamikaze(seat)
        } else {
            self.phase = Phase::Call {
                seat,
                moment: MOMENT_START,
            };
            Ok(())
        }
    }

    /// The turn of `seat` is over: the game's end, or the next living player's turn.
    fn end_turn(&mut self, seat: usize) -> Result<(), String> {
        if let Some(reason) = self.st.end_reason {
            self.phase = Phase::Over(reason);
            return Ok(());
        }
        self.st.active = self.st.next_alive(seat);
        self.start_turn()
    }

    /// `Game.ask_final_conflict`'s answer: the Final Conflict begins with this turn's kamikaze,
    /// or the turn goes on (the actions, or after combat its end).
    fn call(&mut self, seat: usize, moment: u8, now: bool) -> Result<(), String> {
        if now {
            self.st.final_conflict = true;
            self.fc_turn = self.st.turn;
            self.fc_shields = self.st.shields.len() as i64;
            self.fc_weapons = self.st.crew_weapons(self.c);
            self.fc_moment = moment;
            return self.kamikaze(seat);
        }
        if moment == MOMENT_START {
            self.phase = Phase::Act { seat, number: 0 };
            Ok(())
        } else {
            self.end_turn(seat)
        }
    }

    /// `Game.action`: one Draw or Transport (the cards in `self.picked`), then a Spawn card; or
    /// the player ends the actions.
    fn act(&mut self, seat: usize, number: usize, act: Act) -> Result<(), String> {
        match act {
            Act::End => return self.build(seat),
            Act::Draw => {
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
            Act::Transport(to) => {
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
        self.spawn(seat, number)
    }

    /// After an action's Spawn card: the second action, or the build; the turn ends at once with
    /// the game or with the player.
    fn after_action(&mut self, seat: usize, number: usize) -> Result<(), String> {
        if self.st.end_reason.is_some() || !self.st.alive[seat] {
            return self.end_turn(seat);
        }
        if number == 0 {
            self.phase = Phase::Act { seat, number: 1 };
            Ok(())
        } else {
            self.build(seat)
        }
    }

    /// `Game.build` is asked while a module card is in hand; then combat.
    fn build(&mut self, seat: usize) -> Result<(), String> {
        let c = self.c;
        self.phase = if self.st.hands[seat].iter().any(|&x| is_module(c, x)) {
            Phase::Build { seat }
        } else {
            Phase::Combat { seat }
        };
        Ok(())
    }

    /// The module cards in `self.picked` join the station.
    fn built(&mut self, seat: usize) -> Result<(), String> {
        let c = self.c;
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
        self.phase = Phase::Combat { seat };
        Ok(())
    }

    /// The attack a player's plan (`self.plays`, `self.morph`) makes: None when it plays nothing.
    pub(super) fn planned_attack(&self, attacker: usize, target: usize) -> Option<Attack> {
        let c = self.c;
        if self.plays.is_empty() && self.morph.is_none() {
            return None;
        }
        let mut colours = 0u16;
        let mut spent = [None; 3];
        let mut n_spent = 0;
        let mut types_seen = 0u32;
        for &(card, k) in &self.plays {
            colours |= 1 << k;
            let t = c.res_type[card as usize];
            if types_seen >> t & 1 == 0 {
                types_seen |= 1 << t;
                spent[n_spent] = Some(card);
                n_spent += 1;
            }
        }
        if let Some((_, _, k)) = self.morph {
            colours |= 1 << k;
        }
        Some(Attack {
            attacker,
            target,
            colours,
            spent,
            morph: self.morph.map(|(a, b, _)| (a, b)),
        })
    }

    /// `Game.combat`: the attack made, if any; then the Final Conflict may be called.
    fn fight(&mut self, seat: usize, attack: Option<Attack>) -> Result<(), String> {
        if let Some(a) = attack {
            self.resolve_attack(&a);
        }
        self.phase = Phase::Call {
            seat,
            moment: MOMENT_AFTER_COMBAT,
        };
        Ok(())
    }

    /// One attack: its cards discarded, every alien of its colours removed from the station.
    fn resolve_attack(&mut self, a: &Attack) {
        let c = self.c;
        let (colours, target) = (a.colours, a.target);
        self.lost.clear();
        self.lost.extend(a.spent.iter().flatten());
        if let Some((x, y)) = a.morph {
            self.lost.push(x);
            self.lost.push(y);
        }
        let lost = self.lost.len() as i64;
        self.discard_lost(a.attacker);
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
        let morphs = a.morph.is_some() as i64;
        self.stats[ATTACKS] += 1;
        self.stats[TELEPORT_ATTACKS] += (a.attacker != target) as i64;
        self.stats[ALIENS_REMOVED] += removed;
        self.stats[WEAPONS_DISCARDED] += lost - 2 * morphs;
        self.stats[MORPH_BOX_USES] += morphs;
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

    /// `Game.final_conflict_turn`, 1.: the kamikaze (the top Spawn card), or with none the strike.
    fn kamikaze(&mut self, seat: usize) -> Result<(), String> {
        if self.st.spawn_deck.is_empty() {
            self.remake(Pile::Spawn);
        }
        if let Some(card) = self.st.spawn_deck.pop() {
            if self.st.spawn_deck.is_empty() {
                // remade at once, before this kamikaze is discarded (RULINGS §2)
                self.remake(Pile::Spawn);
            }
            self.stats[KAMIKAZES] += 1;
            self.phase = Phase::Counter { seat, card };
        } else {
            self.phase = Phase::Strike { seat };
        }
        Ok(())
    }

    /// The answer to a kamikaze (by `seat`, or by the partner asked): a partner asked, or the
    /// counter: the cards spent, or none and `seat` is eliminated. Then the strike.
    fn countered(&mut self, answer: Means) -> Result<(), String> {
        let c = self.c;
        let (seat, who, card) = match self.phase {
            Phase::Counter { seat, card } => {
                if let Means::Help(helper) = answer {
                    self.phase = Phase::HelpCounter { seat, helper, card };
                    return Ok(());
                }
                (seat, seat, card)
            }
            Phase::HelpCounter { seat, helper, card } => {
                self.stats[TELEPORT_HELPS] += (answer != Means::Nothing) as i64;
                (seat, helper, card)
            }
            _ => unreachable!("a counter answers a kamikaze"),
        };
        self.st.spawn_discard.push(card);
        if answer == Means::Nothing {
            debug_assert!(
                !self.st.can_counter(c, seat, c.spawn_colour[card as usize]) || who != seat
            );
            self.eliminate(seat, Cause::Kamikaze);
            return self.end_turn(seat);
        }
        debug_assert!(match answer {
            Means::Weapon(w) => counters(c, w, c.spawn_colour[card as usize]),
            _ => true,
        });
        self.spend(answer);
        self.discard_lost(who);
        self.stats[KAMIKAZES_COUNTERED] += 1;
        self.phase = Phase::Strike { seat };
        Ok(())
    }

    /// `Game.final_conflict_turn`, 2.: the strike (by `seat`, or by the partner asked) removes a
    /// Shield alien, or with none left destroys the Spawnmonster; or a partner is asked.
    fn struck(&mut self, answer: StrikeAnswer) -> Result<(), String> {
        let c = self.c;
        let (seat, who) = match self.phase {
            Phase::Strike { seat } => {
                if let StrikeAnswer::Help(helper) = answer {
                    self.phase = Phase::HelpStrike { seat, helper };
                    return Ok(());
                }
                (seat, seat)
            }
            Phase::HelpStrike { seat, helper } => {
                self.stats[TELEPORT_HELPS] += !matches!(answer, StrikeAnswer::Nothing) as i64;
                (seat, helper)
            }
            _ => unreachable!("a strike answers a strike"),
        };
        let (means, colour) = match answer {
            StrikeAnswer::Weapon(w, k) => (Means::Weapon(w), k),
            StrikeAnswer::Morph(a, b, k) => (Means::Morph(a, b), k),
            StrikeAnswer::Nothing => {
                debug_assert!(!can_strike(c, &self.st.hands[who], self.shield_colours()));
                return self.end_turn(seat);
            }
            StrikeAnswer::Help(_) => unreachable!("help asked of a helper"),
        };
        self.spend(means);
        self.discard_lost(who);
        if colour == MONSTER {
            self.st.end_reason = Some(END_SPAWNMONSTER_DESTROYED);
            return self.end_turn(seat);
        }
        let shields = &mut self.st.shields;
        let i = shields
            .iter()
            .position(|&s| c.spawn_colour[s as usize] == colour)
            .expect("a Shield alien of the colour");
        let shield = shields.remove(i);
        self.st.spawn_discard.push(shield);
        self.stats[SHIELDS_DESTROYED] += 1;
        self.end_turn(seat)
    }

    /// The colours of the Shield aliens in play, as bits.
    pub(super) fn shield_colours(&self) -> u16 {
        self.st
            .shields
            .iter()
            .fold(0, |m, &s| m | 1 << self.c.spawn_colour[s as usize])
    }

    // --- the game --------------------------------------------------------------------------

    /// One game from its seed, played by the engine's strategy.
    pub fn play(&mut self, root_seed: u64, game_index: u64) -> Result<Record, String> {
        self.start(root_seed, game_index)?;
        self.run()?;
        Ok(self.record())
    }

    /// Set game `game_index` up and play to its first decision.
    pub fn start(&mut self, root_seed: u64, game_index: u64) -> Result<(), String> {
        let n = self.params.players;
        self.rngs
            .start(root_seed, game_index, n, self.strategy == Strategy::Random);
        self.st
            .reset(self.c, n, self.params.level, self.rngs.setup());
        self.stats = [0; N_STATS];
        self.fc_turn = 0;
        self.fc_shields = -1;
        self.fc_weapons = -1;
        self.fc_moment = MOMENT_NONE;
        self.readiness.clear();
        self.readiness.resize(n, (-1, false));
        self.start_turn()
    }

    /// The Final Conflict's record: (turn, shields, weapons, moment) when called.
    pub(super) fn final_conflict_record(&self) -> (i64, i64, i64, u8) {
        (
            self.fc_turn,
            self.fc_shields,
            self.fc_weapons,
            self.fc_moment,
        )
    }

    pub(super) fn set_final_conflict_record(&mut self, fc: (i64, i64, i64, u8)) {
        (
            self.fc_turn,
            self.fc_shields,
            self.fc_weapons,
            self.fc_moment,
        ) = fc;
    }

    /// Play on from the current phase to the end, each decision by the engine's strategy: the
    /// player's answer, then the rules and chance up to the next decision.
    pub(super) fn run(&mut self) -> Result<(), String> {
        loop {
            if self.strategy == Strategy::Mcts && !self.over() {
                let action = self.searched()?;
                self.apply(action)?;
                continue;
            }
            // the fields matched, not the whole phase: it was just written field by field
            match self.phase {
                Phase::Call { seat, moment } => {
                    let now = self.wants_final_conflict(seat, moment);
                    self.call(seat, moment, now)?
                }
                Phase::Act { seat, number } => {
                    let act = self.choose_action(seat, number);
                    self.act(seat, number, act)?
                }
                Phase::Zap {
                    card,
                    target,
                    zapper,
                    ..
                } => {
                    let weapon = self.zap(zapper, card, target);
                    self.zapped(weapon)?
                }
                Phase::Module {
                    seat,
                    number,
                    card,
                    target,
                } => {
                    let mut slots = std::mem::take(&mut self.slots);
                    let colour = self.c.spawn_colour[card as usize];
                    self.st.free_slots(self.c, target, colour, &mut slots);
                    let slot = self.sabotalien_module(target, &slots);
                    self.slots = slots;
                    self.take_module(seat, number, card, target, slot)?
                }
                Phase::Evaporate { card, at, .. } => {
                    let p = (self.st.active + at) % self.st.n;
                    let need = self.st.figs[p][self.c.spawn_orders[card as usize] as usize];
                    self.discard_choice(p, need as usize);
                    self.evaporated()?
                }
                Phase::Build { seat } => {
                    self.choose_build(seat);
                    self.built(seat)?
                }
                Phase::Combat { seat } => {
                    let attack = self.choose_combat(seat).and_then(|(attacker, target)| {
                        self.attack(attacker, target);
                        self.planned_attack(attacker, target)
                    });
                    debug_assert!(attack.is_none_or(|a| self.attack_is_legal(seat, &a)));
                    self.fight(seat, attack)?
                }
                Phase::Counter { seat, card } => {
                    let answer = self.counter(seat, self.c.spawn_colour[card as usize]);
                    debug_assert!(self.counter_is_legal(self.phase, answer));
                    self.countered(answer)?
                }
                Phase::HelpCounter { helper, card, .. } => {
                    let answer = self.help_counter(helper, self.c.spawn_colour[card as usize]);
                    debug_assert!(self.counter_is_legal(self.phase, answer));
                    self.countered(answer)?
                }
                Phase::Strike { seat } => {
                    let answer = self.strike(seat);
                    debug_assert!(self.strike_is_legal(self.phase, answer));
                    self.struck(answer)?
                }
                Phase::HelpStrike { helper, .. } => {
                    let answer = self.help_strike(helper);
                    debug_assert!(self.strike_is_legal(self.phase, answer));
                    self.struck(answer)?
                }
                Phase::Over(_) => return Ok(()),
            }
        }
    }

    // --- the forward model's step ------------------------------------------------------------

    /// The forward model's step: play one answer to the decision waited on, then the rules and
    /// chance up to the next decision. Sets of cards are hand positions (bit i: the i-th card).
    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        let c = self.c;
        let phase = self.phase;
        let wrong = || Err(format!("{action:?} does not answer the decision {phase:?}"));
        let hand_cards = |e: &Engine, p: usize, set: u64, out: &mut Vec<u16>| {
            out.clear();
            let hand = &e.st.hands[p];
            out.extend(
                (0..hand.len())
                    .filter(|&i| set >> i & 1 == 1)
                    .map(|i| hand[i]),
            );
        };
        match (phase, action) {
            (Phase::Call { seat, moment }, Action::Call(now)) => self.call(seat, moment, now),
            (Phase::Act { seat, number }, Action::Draw) => self.act(seat, number, Act::Draw),
            (Phase::Act { seat, number: 1 }, Action::End) => self.act(seat, 1, Act::End),
            (Phase::Act { seat, number }, Action::Transport(to, card)) => {
                let st = &self.st;
                if !(st.hub_works(seat)
                    && to < st.n
                    && to != seat
                    && st.alive[to]
                    && st.hands[seat].contains(&card))
                {
                    return wrong();
                }
                self.picked.clear();
                self.picked.push(card);
                self.act(seat, number, Act::Transport(to))
            }
            (Phase::Zap { card, zapper, .. }, Action::Zap(weapon)) => {
                let colour = c.spawn_colour[card as usize];
                let hand = &self.st.hands[zapper];
                if weapon.is_some_and(|w| !hand.contains(&w) || !zaps(c, w, colour)) {
                    return wrong();
                }
                self.zapped(weapon)
            }
            (
                Phase::Module {
                    seat,
                    number,
                    card,
                    target,
                },
                Action::Module(slot),
            ) => {
                let mut slots = std::mem::take(&mut self.slots);
                let colour = c.spawn_colour[card as usize];
                self.st.free_slots(c, target, colour, &mut slots);
                let free = slots.contains(&slot);
                self.slots = slots;
                if !free {
                    return wrong();
                }
                self.take_module(seat, number, card, target, slot)
            }
            (Phase::Evaporate { card, at, .. }, Action::Discard(set)) => {
                let p = (self.st.active + at) % self.st.n;
                let need = self.st.figs[p][c.spawn_orders[card as usize] as usize];
                if set.count_ones() != need as u32 || set >> self.st.hands[p].len() != 0 {
                    return wrong();
                }
                let mut lost = std::mem::take(&mut self.lost);
                hand_cards(self, p, set, &mut lost);
                self.lost = lost;
                self.evaporated()
            }
            (Phase::Build { seat }, Action::Build(set)) => {
                let mut picked = std::mem::take(&mut self.picked);
                hand_cards(self, seat, set, &mut picked);
                let modules = set >> self.st.hands[seat].len() == 0
                    && picked.iter().all(|&x| is_module(c, x));
                self.picked = picked;
                if !modules {
                    return wrong();
                }
                self.built(seat)
            }
            (Phase::Combat { seat }, Action::Attack(attack)) => {
                if attack.is_some_and(|a| !self.attack_is_legal(seat, &a)) {
                    return wrong();
                }
                self.fight(seat, attack)
            }
            (Phase::Counter { .. } | Phase::HelpCounter { .. }, Action::Counter(means)) => {
                if !self.counter_is_legal(phase, means) {
                    return wrong();
                }
                self.countered(means)
            }
            (Phase::Strike { .. } | Phase::HelpStrike { .. }, Action::Strike(answer)) => {
                if !self.strike_is_legal(phase, answer) {
                    return wrong();
                }
                self.struck(answer)
            }
            _ => wrong(),
        }
    }

    /// The rules of an attack in the combat of `seat` (`Game.combat`'s checks): by `seat` on its
    /// own or a Teleporter partner's station, or by a partner on `seat`'s; each discarded card a
    /// weapon in the attacker's hand, one a type; a Morph-box pair of other hand cards with a
    /// working Morph-box; every colour cleared shown by a plain weapon of a type played, or
    /// given by a black one of such a type or by the Morph-box (one colour each).
    pub(super) fn attack_is_legal(&self, seat: usize, a: &Attack) -> bool {
        let c = self.c;
        let st = &self.st;
        let (attacker, target) = (a.attacker, a.target);
        let related = if attacker == seat {
            target == seat || st.is_partner(seat, target)
        } else {
            target == seat && attacker < st.n && st.is_partner(seat, attacker)
        };
        if !related || a.colours == 0 || a.colours >> N_COLOURS != 0 {
            return false;
        }
        let hand = &st.hands[attacker];
        let morph_cards = |x: u16| a.morph.is_some_and(|(p, q)| x == p || x == q);
        let mut types = 0u32;
        for &x in a.spent.iter().flatten() {
            if !hand.contains(&x) || !is_weapon(c, x) || morph_cards(x) {
                return false;
            }
            let t = 1 << c.res_type[x as usize];
            if types & t != 0 {
                return false;
            }
            types |= t;
        }
        if let Some((p, q)) = a.morph {
            let ok = st.morph_works(attacker)
                && hand.contains(&p)
                && hand.contains(&q)
                && morph_pair_ok(c, p, q);
            if !ok {
                return false;
            }
        } else if types == 0 {
            return false;
        }
        let (mut plain, mut wild) = (0u16, u32::from(a.morph.is_some()));
        for &x in hand {
            if is_weapon(c, x) && types >> c.res_type[x as usize] & 1 == 1 && !morph_cards(x) {
                match colour_of(c, x) {
                    BLACK => wild += 1,
                    k => plain |= 1 << k,
                }
            }
        }
        (a.colours & !plain).count_ones() <= wild
    }

    /// The rules of a counter (`Game._use` and no declining, RULINGS §2): a weapon of the
    /// kamikaze's colour; a Morph-box pair when no such weapon is held; a partner asked who
    /// holds such a weapon, or any partner when no one can counter; nothing only then.
    fn counter_is_legal(&self, phase: Phase, means: Means) -> bool {
        let c = self.c;
        let st = &self.st;
        let (seat, who, card) = match phase {
            Phase::Counter { seat, card } => (seat, seat, card),
            Phase::HelpCounter { seat, helper, card } => (seat, helper, card),
            _ => return false,
        };
        let colour = c.spawn_colour[card as usize];
        let hand = &st.hands[who];
        match means {
            Means::Weapon(w) => hand.contains(&w) && counters(c, w, colour),
            Means::Morph(a, b) => {
                st.morph_works(who)
                    && hand.contains(&a)
                    && hand.contains(&b)
                    && morph_pair_ok(c, a, b)
                    && !has_counter(c, hand, colour)
            }
            Means::Help(p) => {
                who == seat
                    && st.is_partner(seat, p)
                    && (has_counter(c, &st.hands[p], colour) || !st.can_counter(c, seat, colour))
            }
            Means::Nothing => !has_counter(c, hand, colour) && !st.can_counter(c, seat, colour),
        }
    }

    /// The rules of a strike (`Game._use` and no declining): a weapon of a Shield alien's
    /// colour or black on that alien, or with none left any weapon on the Spawnmonster; a
    /// Morph-box pair on a Shield alien; at level 0 a partner asked who can strike; nothing
    /// only when neither the striker nor the player helped can strike.
    fn strike_is_legal(&self, phase: Phase, answer: StrikeAnswer) -> bool {
        let c = self.c;
        let st = &self.st;
        let (seat, who) = match phase {
            Phase::Strike { seat } => (seat, seat),
            Phase::HelpStrike { seat, helper } => (seat, helper),
            _ => return false,
        };
        let shields = self.shield_colours();
        let hand = &st.hands[who];
        let on_shield = |k: i32| (0..N_COLOURS as i32).contains(&k) && shields >> k & 1 == 1;
        match answer {
            StrikeAnswer::Weapon(w, k) => {
                hand.contains(&w)
                    && is_weapon(c, w)
                    && if shields == 0 {
                        k == MONSTER
                    } else {
                        on_shield(k) && (colour_of(c, w) == k || colour_of(c, w) == BLACK)
                    }
            }
            StrikeAnswer::Morph(a, b, k) => {
                on_shield(k)
                    && st.morph_works(who)
                    && hand.contains(&a)
                    && hand.contains(&b)
                    && morph_pair_ok(c, a, b)
            }
            StrikeAnswer::Help(p) => {
                who == seat
                    && st.level == 0
                    && shields != 0
                    && st.is_partner(seat, p)
                    && can_strike(c, &st.hands[p], shields)
            }
            StrikeAnswer::Nothing => {
                !can_strike(c, hand, shields) && !can_strike(c, &st.hands[seat], shields)
            }
        }
    }

    /// The record of the game played (over).
    pub fn record(&self) -> Record {
        let c = self.c;
        let st = &self.st;
        let end_reason = match self.phase {
            Phase::Over(reason) => reason,
            _ => u8::MAX,
        };
        let won = end_reason == END_SPAWNMONSTER_DESTROYED;
        let survivors = st.alive.iter().filter(|&&a| a).count() as i64;
        Record {
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
        }
    }
}

#[inline]
pub fn is_module(c: &Components, card: u16) -> bool {
    let k = c.res_category[card as usize];
    k != HUB && k != WEAPON
}
