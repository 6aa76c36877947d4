//! One game (`game.py`'s `Game.play`): the turn sequence, when each decision is asked, the draws
//! of every random stream in the same order, and the record.

use super::players::Weights;
use super::rules::{
    bombed, fire, lethal, movement, shift_shields, Dealt, Memo, Tables, EXTRA_LIFE, RAPID_FIRE,
    ROCKET_FUEL, SMART_BOMB, TIME_SLIP,
};
use super::search::{resolve, Search};
use super::{Params, Strategy};
use crate::batch::Head;
use crate::mcts::Positions;
use crate::rng::{game_sequence, PyRandom, CHANCE, FIRST_SEAT, SETUP};

pub const MAX_TURNS: i64 = 10_000;

pub const END_CLEARED: u8 = 0;
pub const END_SHOT_DOWN: u8 = 1;
pub const END_LANDED: u8 = 2;

// `game.STATS`, in the record's order.
pub const ST_SHIELDS_TRADED: usize = 0;
pub const ST_SHIELDS_BOMBED: usize = 1;
pub const ST_BONUS_DRAWN: usize = 2;
/// `stats[card]` for a card played: 3 + the card's index (rapid_fire .. rocket_fuel).
pub const ST_CARD0: usize = 3;
pub const ST_COUNTDOWN_REMOVED: usize = 8;
pub const N_STATS: usize = 9;

/// The record of one game (`Game.play`'s dict).
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub head: Head<bool>,
    pub aliens_left: i64,
    pub countdown_left: i64,
    pub shields_left: i64,
    pub stats: [i64; N_STATS],
}

/// The mutable state of a game (`state.State`), the formation as an occupancy mask over the dealt
/// positions and the hand as counts per card.
#[derive(Clone, Debug)]
pub struct State {
    pub occ: u64,
    pub shields: u16,
    pub countdown: i64,
    pub track: i64,
    pub aliens_left: i64,
    pub hand: [u8; 5],
    pub pile: Vec<usize>,
    pub discard: Vec<usize>,
    pub turn: i64,
    pub stats: [i64; N_STATS],
}

/// A player's answer to `adjust_roll`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjust {
    None,
    SmartBomb(usize),
    /// Die indices to re-roll, as a bit set (re-rolled in ascending order).
    TimeSlip(u32),
}

/// The decision a game waits on, or its end (`END_*`): where the forward model stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// [A1] trade a shield for a bonus card? (asked while a shield stands)
    Trade,
    /// [A2] how many Rapid Fire cards to play (asked while one is held)
    Rapid,
    /// [A2] Time Slip or Smart Bomb on the roll (asked while either is held)
    Adjust,
    /// [A3] the allocation
    Allocate,
    /// [B3] Rocket Fuel? (asked while held)
    Fuel,
    Over(u8),
}

/// One decision's answer, as the forward model takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The shield column traded, or none.
    Trade(Option<u8>),
    /// Rapid Fire cards played.
    Rapid(u8),
    Adjust(Adjust),
    /// A plan, named by its kill set (one of `Search::masks`).
    Allocate(u64),
    Fuel(bool),
}

/// The streams of one game (`Streams` plus the player's seat stream).
#[derive(Clone)]
pub struct Rngs {
    pub attack: PyRandom,
    pub movement: PyRandom,
    /// The re-roll stream, seeded from `misc_words` when first drawn from (`misc_seeded`).
    misc: PyRandom,
    misc_seeded: bool,
    misc_words: [u32; 4],
    pub setup: PyRandom,
    pub player: Option<PyRandom>,
}

impl Rngs {
    /// As `EightBitInvaders._game` makes them (`seed_game`).
    pub fn new(root_seed: u64, game_index: u64, player: bool) -> Rngs {
        let mut rngs = Rngs::unseeded();
        rngs.seed_game(root_seed, game_index, player);
        rngs
    }

    /// Reseed in place for game `game_index` of a run, as `EightBitInvaders._game` makes its
    /// streams (`seeds.streams(seq, 3, CHANCE)`: the child's 12 words, four a stream); the seat
    /// stream only for a player that draws, the misc stream seeded when first drawn from. Seeding
    /// costs more than most games' draws, so the streams a game always uses are seeded side by
    /// side (`PyRandom::reseed_each`), and in place: a batch reuses one `Rngs` (10 KB of state)
    /// from game to game.
    pub fn seed_game(&mut self, root_seed: u64, game_index: u64, player: bool) {
        let seq = game_sequence(root_seed, game_index);
        let key = |w: &[u32]| [w[0], w[1], w[2], w[3]];
        let chance = seq.child(&[CHANCE]).generate_state(12);
        let setup = key(&seq.child(&[SETUP]).generate_state(4));
        self.misc_words = key(&chance[8..12]);
        self.misc_seeded = false;
        let (attack, movement) = (key(&chance[0..4]), key(&chance[4..8]));
        let streams = [&mut self.attack, &mut self.movement, &mut self.setup];
        if player {
            let seat = key(&seq.child(&[FIRST_SEAT]).generate_state(4));
            let [a, m, s] = streams;
            let p = self.player.get_or_insert_with(|| PyRandom::from_u64(0));
            PyRandom::reseed_each([a, m, s, p], &[attack, movement, setup, seat]);
        } else {
            self.player = None;
            PyRandom::reseed_each(streams, &[attack, movement, setup]);
        }
    }

    /// Streams for a search's deals, seeded by `reseed` before each (no seat stream: the
    /// rollouts' players draw nothing).
    pub fn unseeded() -> Rngs {
        Rngs {
            attack: PyRandom::from_u64(0),
            movement: PyRandom::from_u64(0),
            misc: PyRandom::from_u64(0),
            misc_seeded: true,
            misc_words: [0; 4],
            setup: PyRandom::from_u64(0),
            player: None,
        }
    }

    /// Reseed the chance streams (attack, movement, re-rolls) in place.
    pub fn reseed(&mut self, seeds: [u64; 3]) {
        self.attack.reseed_u64(seeds[0]);
        self.movement.reseed_u64(seeds[1]);
        self.misc.reseed_u64(seeds[2]);
        self.misc_seeded = true;
    }

    pub fn misc(&mut self) -> &mut PyRandom {
        if !self.misc_seeded {
            self.misc.reseed_from_words(&self.misc_words);
            self.misc_seeded = true;
        }
        &mut self.misc
    }
}

/// Everything a batch keeps from game to game, and the game being played.
pub struct Engine<'t> {
    pub t: &'t Tables,
    pub params: Params,
    pub strategy: Strategy,
    /// The lookahead player's weights (its parameters).
    pub weights: Weights,
    pub memo: Memo,
    pub search: Search,
    pub dealt: Dealt,
    pub st: State,
    order: Vec<usize>,
    drawn: Vec<u8>,
    /// The lookahead player's best plan for the roll its last `adjust_roll` declined to change
    /// (the allocation that follows sees the same view and dice).
    pub(super) declined: Option<super::search::Witness>,
    /// The decision the game waits on.
    pub phase: Phase,
    /// This turn's attack dice (the first `n_dice`), as adjusted so far.
    pub dice: [u8; 32],
    pub n_dice: usize,
    /// The columns with a living alien after [B1], for [B3]'s shield shift.
    pub(super) living: u16,
    /// The search player's tree and model, when the strategy is `mcts`.
    pub(super) searcher: Option<Box<super::forward::Searcher<'t>>>,
    /// The streams `play` seeds for each game, kept from game to game (see `Rngs::seed_game`).
    rngs: Option<Box<Rngs>>,
}

impl<'t> Engine<'t> {
    pub fn new(t: &'t Tables, params: Params, strategy: Strategy) -> Engine<'t> {
        Engine {
            t,
            params,
            strategy,
            weights: Weights::default(),
            memo: Memo::new(&t.reqs),
            search: Search::new(),
            dealt: Dealt::new(t),
            st: State {
                occ: 0,
                shields: 0,
                countdown: 0,
                track: 0,
                aliens_left: 0,
                hand: [0; 5],
                pile: Vec::with_capacity(t.bonus_deck.len()),
                discard: Vec::with_capacity(t.bonus_deck.len()),
                turn: 0,
                stats: [0; N_STATS],
            },
            order: Vec::with_capacity(t.n_aliens),
            drawn: Vec::with_capacity(t.dice_per_turn),
            declined: None,
            phase: Phase::Over(END_CLEARED),
            dice: [0; 32],
            n_dice: 0,
            living: 0,
            searcher: None,
            rngs: None,
        }
    }

    /// `state.new_game`: shuffle the aliens into the formation, the shields to their start, shuffle
    /// the bonus deck.
    fn setup(&mut self, rng: &mut PyRandom) {
        let t = self.t;
        self.order.clear();
        self.order.extend(0..t.n_aliens);
        rng.shuffle(&mut self.order);
        self.dealt.deal(t, &self.order);
        let st = &mut self.st;
        st.occ = if t.n_aliens == 64 {
            u64::MAX
        } else {
            (1u64 << t.n_aliens) - 1
        };
        st.shields = t.shield_start;
        st.countdown = self.params.countdown;
        st.track = 0;
        st.aliens_left = t.n_aliens as i64;
        st.hand = [0; 5];
        st.pile.clear();
        st.pile.extend_from_slice(&t.bonus_deck);
        rng.shuffle(&mut st.pile);
        st.discard.clear();
        st.turn = 0;
        st.stats = [0; N_STATS];
        self.declined = None;
    }

    fn discard(&mut self, card: usize) {
        self.st.hand[card] -= 1;
        self.st.discard.push(card);
        self.st.stats[ST_CARD0 + card] += 1;
    }

    /// Bonus rule: an empty pile is reshuffled from the discards; none there -> no card.
    fn draw_bonus(&mut self, rngs: &mut Rngs) {
        let st = &mut self.st;
        if st.pile.is_empty() {
            if st.discard.is_empty() {
                return;
            }
            std::mem::swap(&mut st.pile, &mut st.discard);
            rngs.misc().shuffle(&mut st.pile);
        }
        let card = st.pile.pop().expect("a card");
        st.hand[card] += 1;
        st.stats[ST_BONUS_DRAWN] += 1;
    }

    /// One game from its seed, played by the engine's strategy.
    pub fn play(&mut self, root_seed: u64, game_index: u64) -> Result<Record, String> {
        let draws = matches!(self.strategy, Strategy::Random | Strategy::Mcts);
        let mut rngs = match self.rngs.take() {
            Some(mut rngs) => {
                rngs.seed_game(root_seed, game_index, draws);
                rngs
            }
            None => Box::new(Rngs::new(root_seed, game_index, draws)),
        };
        let played = self.start(&mut rngs).and_then(|()| self.run(&mut rngs));
        self.rngs = Some(rngs);
        played.map(|()| self.record())
    }

    /// Set the game up and play to its first decision.
    pub fn start(&mut self, rngs: &mut Rngs) -> Result<(), String> {
        self.setup(&mut rngs.setup);
        self.start_turn(rngs)
    }

    /// Play on from the current phase to the end, each decision by the engine's strategy.
    pub(super) fn run(&mut self, rngs: &mut Rngs) -> Result<(), String> {
        loop {
            if self.strategy == Strategy::Mcts {
                if self.over() {
                    return Ok(());
                }
                let action = self.searched(rngs)?;
                self.apply(action, rngs)?;
                continue;
            }
            let dice = self.dice;
            let dice = &dice[..self.n_dice];
            match self.phase {
                Phase::Trade => {
                    let column = self.trade_shield(&mut rngs.player);
                    self.trade(column, rngs)?
                }
                Phase::Rapid => {
                    let cards = self.rapid_fire(&mut rngs.player);
                    self.roll(cards, rngs)
                }
                Phase::Adjust => {
                    let adjust = self.adjust_roll(&mut rngs.player, dice)?;
                    self.adjust(adjust, rngs)
                }
                Phase::Allocate => {
                    let kills = self.allocate(&mut rngs.player, dice)?;
                    self.kill(kills, rngs)?
                }
                Phase::Fuel => {
                    let fuel = self.rocket_fuel(&mut rngs.player);
                    self.fuel(fuel, rngs)?
                }
                Phase::Over(_) => return Ok(()),
            }
        }
    }

    /// The forward model's step: play one decision's answer, then the rules and chance up to
    /// the next decision. An allocation names a plan by its kill set (`Search::masks`); the
    /// kills are those of the plan's first witness, stepping stones included.
    pub fn apply(&mut self, action: Action, rngs: &mut Rngs) -> Result<(), String> {
        let wrong = || format!("{action:?} does not answer the decision {:?}", self.phase);
        match (self.phase, action) {
            (Phase::Trade, Action::Trade(column)) => {
                if column.is_some_and(|c| self.st.shields >> c & 1 == 0) {
                    return Err(wrong());
                }
                self.trade(column.map(usize::from), rngs)
            }
            (Phase::Rapid, Action::Rapid(cards)) if cards <= self.st.hand[RAPID_FIRE] => {
                self.roll(usize::from(cards), rngs);
                Ok(())
            }
            (Phase::Adjust, Action::Adjust(adjust)) => {
                let legal = match adjust {
                    Adjust::None => true,
                    Adjust::SmartBomb(i) => self.st.hand[SMART_BOMB] > 0 && i < self.n_dice,
                    Adjust::TimeSlip(set) => {
                        self.st.hand[TIME_SLIP] > 0 && set != 0 && set >> self.n_dice == 0
                    }
                };
                if !legal {
                    return Err(wrong());
                }
                self.adjust(adjust, rngs);
                Ok(())
            }
            (Phase::Allocate, Action::Allocate(mask)) => {
                let (t, occ, shields) = (self.t, self.st.occ, self.st.shields);
                let dice = self.dice;
                let dice = &dice[..self.n_dice];
                let s = &mut self.search;
                s.masks(t, &self.dealt, &mut self.memo, occ, shields, dice);
                if !s.masks.contains(&mask) {
                    return Err(wrong());
                }
                let w = s.first_witness(t, &self.dealt, &mut self.memo, occ, shields, dice, mask);
                self.kill(resolve(&w, dice, &self.dealt).0, rngs)
            }
            (Phase::Fuel, Action::Fuel(fuel)) => self.fuel(fuel, rngs),
            _ => Err(wrong()),
        }
    }

    /// A new turn: [A1] is asked while a shield stands.
    pub(super) fn start_turn(&mut self, rngs: &mut Rngs) -> Result<(), String> {
        self.st.turn += 1;
        self.n_dice = 0; // nothing rolled yet this turn
        if self.st.turn > MAX_TURNS {
            return Err(format!("game did not end within {MAX_TURNS} turns"));
        }
        if self.st.shields != 0 {
            self.phase = Phase::Trade;
        } else {
            self.ask_rapid(rngs);
        }
        Ok(())
    }

    /// [A1] trade a shield for a bonus card, or not.
    fn trade(&mut self, column: Option<usize>, rngs: &mut Rngs) -> Result<(), String> {
        if let Some(c) = column {
            self.st.shields &= !(1 << c);
            self.st.stats[ST_SHIELDS_TRADED] += 1;
            self.draw_bonus(rngs);
        }
        self.ask_rapid(rngs);
        Ok(())
    }

    /// [A2] Rapid Fire is asked while one is held, else the roll.
    fn ask_rapid(&mut self, rngs: &mut Rngs) {
        if self.st.hand[RAPID_FIRE] > 0 {
            self.phase = Phase::Rapid;
        } else {
            self.roll(0, rngs);
        }
    }

    /// [A2] play `cards` Rapid Fire cards and roll.
    fn roll(&mut self, cards: usize, rngs: &mut Rngs) {
        let t = self.t;
        for _ in 0..cards {
            self.discard(RAPID_FIRE);
        }
        self.drawn.clear();
        for _ in 0..t.dice_per_turn {
            self.drawn.push(rngs.attack.d6());
        }
        self.n_dice = (self.params.dice + cards).min(t.dice_per_turn);
        self.dice[..self.n_dice].copy_from_slice(&self.drawn[..self.n_dice]);
        self.declined = None;
        self.ask_adjust();
    }

    /// Time Slip and Smart Bomb are asked while either is held, then the allocation.
    fn ask_adjust(&mut self) {
        self.phase = if self.st.hand[TIME_SLIP] > 0 || self.st.hand[SMART_BOMB] > 0 {
            Phase::Adjust
        } else {
            Phase::Allocate
        };
    }

    fn adjust(&mut self, adjust: Adjust, rngs: &mut Rngs) {
        match adjust {
            Adjust::None => {
                self.phase = Phase::Allocate;
                return;
            }
            Adjust::SmartBomb(i) => {
                self.discard(SMART_BOMB);
                self.dice[i] = 7 - self.dice[i];
            }
            Adjust::TimeSlip(set) => {
                self.discard(TIME_SLIP);
                for i in 0..self.n_dice {
                    if set >> i & 1 == 1 {
                        self.dice[i] = rngs.misc().d6();
                    }
                }
            }
        }
        self.ask_adjust();
    }

    /// [A4] the kills, then [B1] the counterattack and [B2] the bombers; Rocket Fuel is asked
    /// while held, then [B3] the movement.
    fn kill(&mut self, kills: u64, rngs: &mut Rngs) -> Result<(), String> {
        let t = self.t;
        self.declined = None;
        self.st.occ &= !kills;
        self.st.aliens_left -= kills.count_ones() as i64;
        if self.st.aliens_left == 0 {
            self.phase = Phase::Over(END_CLEARED);
            return Ok(());
        }
        let f = fire(t, self.st.occ);
        if lethal(t, &self.dealt, &f, self.st.shields) {
            if self.st.hand[EXTRA_LIFE] > 0 {
                self.discard(EXTRA_LIFE);
            } else {
                self.phase = Phase::Over(END_SHOT_DOWN);
                return Ok(());
            }
        }
        let b = bombed(t, &self.dealt, &f, self.st.shields);
        self.st.shields &= !b;
        self.st.stats[ST_SHIELDS_BOMBED] += b.count_ones() as i64;
        self.living = f.living;
        if self.st.hand[ROCKET_FUEL] > 0 {
            self.phase = Phase::Fuel;
            Ok(())
        } else {
            self.fuel(false, rngs)
        }
    }

    /// [B3] the movement (one die under Rocket Fuel), the countdown, the shields' shift.
    fn fuel(&mut self, fuel: bool, rngs: &mut Rngs) -> Result<(), String> {
        if fuel {
            self.discard(ROCKET_FUEL);
        }
        let drawn = [rngs.movement.d6(), rngs.movement.d6()];
        let (step, right) = movement(if fuel { &drawn[..1] } else { &drawn[..] });
        let st = &mut self.st;
        st.track += step;
        if st.track >= st.aliens_left {
            st.countdown -= 1;
            st.track = 0;
            st.stats[ST_COUNTDOWN_REMOVED] += 1;
        }
        if st.countdown <= 0 {
            self.phase = Phase::Over(END_LANDED);
            return Ok(());
        }
        let first = self.living.trailing_zeros();
        let last = 15 - self.living.leading_zeros();
        st.shields = shift_shields(st.shields, first, last, right);
        self.start_turn(rngs)
    }

    /// The record of the game played (over).
    pub fn record(&self) -> Record {
        let st = &self.st;
        let end_reason = match self.phase {
            Phase::Over(reason) => reason,
            _ => u8::MAX,
        };
        Record {
            head: Head {
                won: end_reason == END_CLEARED,
                score: self.t.n_aliens as i64 - st.aliens_left,
                length: st.turn,
                end_reason,
            },
            aliens_left: st.aliens_left,
            countdown_left: st.countdown,
            shields_left: st.shields.count_ones() as i64,
            stats: st.stats,
        }
    }
}
