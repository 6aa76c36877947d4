//! 8-Bit Invaders in the native core: the same rules, players and draws as
//! `simkit/games/eight_bit_invaders/` (the reference), so both give identical rows.
//!
//! INTERFACE STUB: the types below are the contract with the Python binding (`python.rs`);
//! the engine itself is being written.

use crate::batch::{Column, GameError};

pub const PAIR: u8 = 0;
pub const SUM: u8 = 1;

/// One printed alien card (`components.Alien`).
#[derive(Clone, Debug)]
pub struct Alien {
    pub kind: u8, // PAIR or SUM
    pub a: u8,    // PAIR: the lower face; SUM: the total
    pub b: u8,    // PAIR: the higher face; SUM: 0
    pub type_: u8,
    pub bomber: bool,
    pub need: u8, // fewest dice that can kill it
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    RapidFire,
    TimeSlip,
    SmartBomb,
    ExtraLife,
    RocketFuel,
}

/// The component file as the engine needs it (built by `eight_bit_invaders/native.py`).
#[derive(Clone, Debug)]
pub struct Components {
    pub rows: usize,
    pub columns: usize,
    pub n_types: usize,
    pub aliens: Vec<Alien>,
    pub shield_start: Vec<usize>, // 0-based columns
    pub bonus_deck: Vec<Bonus>,   // file order
    pub dice_per_turn: usize,     // attack dice drawn each turn whatever the setting
}

#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub countdown: i64,
    pub dice: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Random,
    Greedy,
    Lookahead,
}

impl Strategy {
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy),
            "lookahead" => Some(Strategy::Lookahead),
            _ => None,
        }
    }
}

/// Games [start, stop) of a cell, as columns in the record's order.
pub fn play_batch(
    _comp: &Components,
    _params: &Params,
    _strategy: Strategy,
    _root_seed: u64,
    start: u64,
    _stop: u64,
) -> Result<Vec<Column>, GameError> {
    Err(GameError { game_index: start, message: "not written yet".into() })
}
