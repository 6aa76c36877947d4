//! One game (`game.py`'s `Game.play`): the turn sequence, when each decision is asked, the draws
//! of every random stream in the same order, and the record.

use super::players::Weights;
use super::rules::{
    bombed, fire, lethal, movement, shift_shields, Dealt, Memo, Tables, EXTRA_LIFE, RAPID_FIRE,
    ROCKET_FUEL, SMART_BOMB, TIME_SLIP,
};
use super::search::Search;
use super::{Params, Strategy};
use crate::batch::Head;
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
pub enum Adjust {
    None,
    SmartBomb(usize),
    /// Die indices to re-roll, as a bit set (re-rolled in ascending order).
    TimeSlip(u32),
}

/// The streams of one game (`Streams` plus the player's seat stream).
pub struct Rngs {
    pub attack: PyRandom,
    pub movement: PyRandom,
    misc: Option<PyRandom>,
    misc_words: [u32; 4],
    pub setup: PyRandom,
    pub player: Option<PyRandom>,
}

impl Rngs {
    /// As `EightBitInvaders._game` makes them (`seeds.streams(seq, 3, CHANCE)`: the child's 12
    /// words, four a stream); the seat stream only for a player that draws, the misc stream seeded
    /// when first drawn from. Seeding costs more than most games' draws, so the streams a game
    /// always uses are seeded side by side (`PyRandom::from_keys`).
    pub fn new(root_seed: u64, game_index: u64, player: bool) -> Rngs {
        let seq = game_sequence(root_seed, game_index);
        let key = |w: &[u32]| [w[0], w[1], w[2], w[3]];
        let chance = seq.child(&[CHANCE]).generate_state(12);
        let setup = key(&seq.child(&[SETUP]).generate_state(4));
        let misc_words = key(&chance[8..12]);
        let (attack, movement) = (key(&chance[0..4]), key(&chance[4..8]));
        let (attack, movement, setup, player) = if player {
            let seat = key(&seq.child(&[FIRST_SEAT]).generate_state(4));
            let [a, m, s, p] = PyRandom::from_keys(&[attack, movement, setup, seat]);
            (a, m, s, Some(p))
        } else {
            let [a, m, s] = PyRandom::from_keys(&[attack, movement, setup]);
            (a, m, s, None)
        };
        Rngs {
            attack,
            movement,
            misc: None,
            misc_words,
            setup,
            player,
        }
    }

    pub fn misc(&mut self) -> &mut PyRandom {
        let words = self.misc_words;
        self.misc
            .get_or_insert_with(|| PyRandom::from_words(&words))
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

    pub fn play(&mut self, root_seed: u64, game_index: u64) -> Result<Record, String> {
        let mut rngs = Rngs::new(root_seed, game_index, self.strategy == Strategy::Random);
        self.setup(&mut rngs.setup);
        let t = self.t;
        let mut dice = [0u8; 32];
        let end_reason;
        loop {
            self.st.turn += 1;
            if self.st.turn > MAX_TURNS {
                return Err(format!("game did not end within {MAX_TURNS} turns"));
            }
            // [A1] trade a shield for a bonus card
            if self.st.shields != 0 {
                if let Some(c) = self.trade_shield(&mut rngs.player) {
                    self.st.shields &= !(1 << c);
                    self.st.stats[ST_SHIELDS_TRADED] += 1;
                    self.draw_bonus(&mut rngs);
                }
            }
            // [A2] Rapid Fire, the roll; Time Slip and Smart Bomb
            let mut rapid = 0usize;
            if self.st.hand[RAPID_FIRE] > 0 {
                rapid = self.rapid_fire(&mut rngs.player);
                for _ in 0..rapid {
                    self.discard(RAPID_FIRE);
                }
            }
            self.drawn.clear();
            for _ in 0..t.dice_per_turn {
                self.drawn.push(rngs.attack.d6());
            }
            let n = (self.params.dice + rapid).min(t.dice_per_turn);
            dice[..n].copy_from_slice(&self.drawn[..n]);
            let dice = &mut dice[..n];
            self.declined = None;
            while self.st.hand[TIME_SLIP] > 0 || self.st.hand[SMART_BOMB] > 0 {
                match self.adjust_roll(&mut rngs.player, dice)? {
                    Adjust::None => break,
                    Adjust::SmartBomb(i) => {
                        self.discard(SMART_BOMB);
                        dice[i] = 7 - dice[i];
                    }
                    Adjust::TimeSlip(set) => {
                        self.discard(TIME_SLIP);
                        for (i, die) in dice.iter_mut().enumerate() {
                            if set >> i & 1 == 1 {
                                *die = rngs.misc().d6();
                            }
                        }
                    }
                }
            }
            // [A3] allocate, [A4] kill
            let kills = self.allocate(&mut rngs.player, dice)?;
            self.declined = None;
            self.st.occ &= !kills;
            self.st.aliens_left -= kills.count_ones() as i64;
            if self.st.aliens_left == 0 {
                end_reason = END_CLEARED;
                break;
            }
            // [B1] counterattack
            let f = fire(t, self.st.occ);
            if lethal(t, &self.dealt, &f, self.st.shields) {
                if self.st.hand[EXTRA_LIFE] > 0 {
                    self.discard(EXTRA_LIFE);
                } else {
                    end_reason = END_SHOT_DOWN;
                    break;
                }
            }
            // [B2] bombers
            let b = bombed(t, &self.dealt, &f, self.st.shields);
            self.st.shields &= !b;
            self.st.stats[ST_SHIELDS_BOMBED] += b.count_ones() as i64;
            // [B3] movement
            let mut fuel = false;
            if self.st.hand[ROCKET_FUEL] > 0 {
                fuel = self.rocket_fuel(&mut rngs.player);
                if fuel {
                    self.discard(ROCKET_FUEL);
                }
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
                end_reason = END_LANDED;
                break;
            }
            let first = f.living.trailing_zeros();
            let last = 15 - f.living.leading_zeros();
            st.shields = shift_shields(st.shields, first, last, right);
        }
        let st = &self.st;
        Ok(Record {
            head: Head {
                won: end_reason == END_CLEARED,
                score: t.n_aliens as i64 - st.aliens_left,
                length: st.turn,
                end_reason,
            },
            aliens_left: st.aliens_left,
            countdown_left: st.countdown,
            shields_left: st.shields.count_ones() as i64,
            stats: st.stats,
        })
    }
}
