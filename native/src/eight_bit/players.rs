//! The built-in players (`players.py`): each decision as the reference makes it, with the same
//! draws from the player's seat stream. The greedy player plays no bonus cards and never trades a
//! shield, so its card decisions are never asked; they answer as `players.Player`'s defaults.

use super::game::{Adjust, Engine};
use super::rules::{
    bombed, excess, fire, lethal, shift_shields, MoveTable, EXTRA_LIFE, RAPID_FIRE, ROCKET_FUEL,
    SMART_BOMB, TIME_SLIP,
};
use super::search::{resolve, Witness};
use super::Strategy;
use crate::params::with_params;
use crate::rng::PyRandom;

/// `LookaheadPlayer.DEAD`: a won (or lost) game, beyond any weighing.
const DEAD: f64 = 1e6;

/// `LookaheadNumbers`: the lookahead player's weights, its strategy's parameters (the batch is
/// handed every value from Python; `default` gives the declared defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub kill: f64,
    pub danger: f64,
    pub card: f64,
    pub shield: f64,
    pub extra_life: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            kill: 10.0,
            danger: 30.0,
            card: 12.0,
            shield: 6.0,
            extra_life: 40.0,
        }
    }
}

impl Weights {
    /// The defaults with each weight `param` gives.
    pub fn read(param: impl Fn(&str) -> Option<f64>) -> Weights {
        with_params!(
            Weights::default(),
            param,
            [kill, danger, card, shield, extra_life]
        )
    }
}

fn seat(rng: &mut Option<PyRandom>) -> &mut PyRandom {
    rng.as_mut().expect("the random player has its seat stream")
}

/// The k-th lowest set bit of `bits`.
fn nth_bit(mut bits: u16, k: usize) -> usize {
    for _ in 0..k {
        bits &= bits - 1;
    }
    bits.trailing_zeros() as usize
}

impl Engine<'_> {
    /// [A1] a shield column to trade for a bonus card, or None.
    pub(super) fn trade_shield(&mut self, rng: &mut Option<PyRandom>) -> Option<usize> {
        match self.strategy {
            Strategy::Random => {
                let rng = seat(rng);
                if rng.random() < 0.5 {
                    return None;
                }
                let k = rng.choice_index(self.st.shields.count_ones() as usize);
                Some(nth_bit(self.st.shields, k))
            }
            Strategy::Greedy | Strategy::Mcts => None,
            Strategy::Lookahead => {
                // a shield under an empty column, or under a bomber that will destroy it anyway
                let mut s = self.st.shields;
                while s != 0 {
                    let c = s.trailing_zeros() as usize;
                    s &= s - 1;
                    let col = self.st.occ & self.t.col_mask[c];
                    if col == 0 || col & col.wrapping_neg() & self.dealt.bomber_mask != 0 {
                        return Some(c);
                    }
                }
                None
            }
        }
    }

    /// How many Rapid Fire cards to play (asked only when one is held).
    pub(super) fn rapid_fire(&mut self, rng: &mut Option<PyRandom>) -> usize {
        let held = self.st.hand[RAPID_FIRE] as usize;
        match self.strategy {
            Strategy::Random => seat(rng).randint(0, held as i64) as usize,
            Strategy::Greedy | Strategy::Mcts => 0,
            Strategy::Lookahead => {
                let f = fire(self.t, self.st.occ);
                if self.st.countdown == 1 || lethal(self.t, &self.dealt, &f, self.st.shields) {
                    held
                } else {
                    0
                }
            }
        }
    }

    /// Time Slip / Smart Bomb after the roll (asked while either is held).
    pub(super) fn adjust_roll(
        &mut self,
        rng: &mut Option<PyRandom>,
        dice: &[u8],
    ) -> Result<Adjust, String> {
        match self.strategy {
            Strategy::Random => {
                let rng = seat(rng);
                if rng.random() < 0.5 {
                    return Ok(Adjust::None);
                }
                let mut options = [0usize; 2];
                let mut n = 0;
                for card in [TIME_SLIP, SMART_BOMB] {
                    if self.st.hand[card] > 0 {
                        options[n] = card;
                        n += 1;
                    }
                }
                if options[rng.choice_index(n)] == SMART_BOMB {
                    if dice.is_empty() {
                        return Err("smart bomb on an empty roll (randrange(0))".into());
                    }
                    return Ok(Adjust::SmartBomb(rng.randrange(dice.len())));
                }
                let mut set = 0u32;
                for i in 0..dice.len() {
                    if rng.random() < 0.5 {
                        set |= 1 << i;
                    }
                }
                Ok(Adjust::TimeSlip(set))
            }
            Strategy::Greedy | Strategy::Mcts => Ok(Adjust::None),
            Strategy::Lookahead => self.lookahead_adjust(dice),
        }
    }

    /// [A3] the allocation, returned as the kills it makes ([A4]).
    pub(super) fn allocate(
        &mut self,
        rng: &mut Option<PyRandom>,
        dice: &[u8],
    ) -> Result<u64, String> {
        let (t, occ, shields) = (self.t, self.st.occ, self.st.shields);
        let witness = match self.strategy {
            Strategy::Random => {
                // sorted(plans)[k], then only that plan's witness
                let rng = seat(rng);
                let (d, memo) = (&self.dealt, &mut self.memo);
                let choose = |n| rng.choice_index(n);
                Some(
                    self.search
                        .random_plan(t, d, memo, occ, shields, dice, choose),
                )
            }
            Strategy::Greedy | Strategy::Mcts => {
                self.search
                    .greedy(t, &self.dealt, &mut self.memo, occ, shields, dice)
            }
            Strategy::Lookahead => match self.declined.take() {
                Some(w) => Some(w),
                None => Some(self.best(dice).1),
            },
        };
        Ok(match witness {
            Some(w) => resolve(&w, dice, &self.dealt).0,
            None => 0,
        })
    }

    /// Roll one movement die? (asked only when Rocket Fuel is held)
    pub(super) fn rocket_fuel(&mut self, rng: &mut Option<PyRandom>) -> bool {
        match self.strategy {
            Strategy::Random => seat(rng).random() < 0.5,
            Strategy::Greedy | Strategy::Mcts => false,
            Strategy::Lookahead => self.lookahead_fuel(),
        }
    }

    fn lookahead_fuel(&self) -> bool {
        let gap = self.st.aliens_left - self.st.track;
        self.st.countdown == 1 || (5 < gap && gap <= 10)
    }

    fn lookahead_adjust(&mut self, dice: &[u8]) -> Result<Adjust, String> {
        let (score, w) = self.best(dice);
        if self.st.hand[SMART_BOMB] > 0 {
            let mut best_gain = 1.0f64;
            let mut best_die = None;
            let mut flipped = [0u8; 32];
            flipped[..dice.len()].copy_from_slice(dice);
            for i in 0..dice.len() {
                if dice[..i].contains(&dice[i]) {
                    continue; // sorted({dice.index(v) for v in dice}): first index of each face
                }
                flipped[i] = 7 - dice[i];
                let gain = self.best_mask(&flipped[..dice.len()]).0 - score;
                flipped[i] = dice[i];
                if gain > best_gain {
                    best_gain = gain;
                    best_die = Some(i);
                }
            }
            if let Some(i) = best_die {
                return Ok(Adjust::SmartBomb(i));
            }
        }
        if self.st.hand[TIME_SLIP] > 0 && score <= -DEAD / 2.0 {
            let (_, used) = resolve(&w, dice, &self.dealt);
            let all = if dice.len() >= 32 {
                u32::MAX
            } else {
                (1u32 << dice.len()) - 1
            };
            return Ok(Adjust::TimeSlip(all & !used));
        }
        self.declined = Some(w);
        Ok(Adjust::None)
    }

    /// `LookaheadPlayer._best`: the best score over every achievable kill set and that plan's
    /// witness. Python scores the masks in ascending order and keeps the first strictly greater
    /// score: the best score, and among plans scoring as much, the smallest mask, whatever the
    /// order they are scored in. Only that plan's witness is looked for.
    fn best(&mut self, dice: &[u8]) -> (f64, Witness) {
        let (score, mask) = self.best_mask(dice);
        let (t, occ, shields) = (self.t, self.st.occ, self.st.shields);
        let w = self
            .search
            .first_witness(t, &self.dealt, &mut self.memo, occ, shields, dice, mask);
        (score, w)
    }

    /// `best` without the witness: the best score and its mask.
    fn best_mask(&mut self, dice: &[u8]) -> (f64, u64) {
        let mut best_score = f64::NAN;
        let mut best_mask = 0u64;
        let mut first = true;
        self.score_plans(dice, |score, mask| {
            if first || score > best_score || (score == best_score && mask < best_mask) {
                best_score = score;
                best_mask = mask;
                first = false;
            }
        });
        (best_score, best_mask)
    }

    /// Every achievable kill set of this roll with its lookahead score, the empty one first.
    pub(super) fn score_plans(&mut self, dice: &[u8], mut visit: impl FnMut(f64, u64)) {
        let t = self.t;
        self.search.masks(
            t,
            &self.dealt,
            &mut self.memo,
            self.st.occ,
            self.st.shields,
            dice,
        );
        let table = if self.st.hand[ROCKET_FUEL] > 0 && self.lookahead_fuel() {
            &t.move_one
        } else {
            &t.move_two
        };
        for &mask in &self.search.masks {
            visit(self.score(table, mask), mask);
        }
    }

    /// `LookaheadPlayer.score`: the same operations in the same order, for the same bits.
    fn score(&self, table: &MoveTable, mask: u64) -> f64 {
        let (t, d, st) = (self.t, &self.dealt, &self.st);
        let kills = mask.count_ones() as i64;
        let left = st.aliens_left - kills;
        if left == 0 {
            return DEAD;
        }
        let f = fire(t, st.occ & !mask);
        let w = &self.weights;
        let mut value = w.kill * kills as f64;
        if lethal(t, d, &f, st.shields) {
            if st.hand[EXTRA_LIFE] == 0 {
                return -DEAD + kills as f64;
            }
            value -= w.extra_life;
        }
        let shields = st.shields & !bombed(t, d, &f, st.shields);
        value += w.shield * shields.count_ones() as f64;
        let p_card = table.p_card(st.track, left);
        value -= (if st.countdown == 1 { DEAD } else { w.card }) * p_card;
        let first = f.living.trailing_zeros();
        let last = 15 - f.living.leading_zeros();
        for (side, odd) in [(0usize, false), (1usize, true)] {
            let p = table.p_side[side];
            let moved = shift_shields(shields, first, last, odd);
            let ex = excess(t, d, &f, moved);
            value -= w.danger * p * ex as f64;
        }
        value
    }
}
