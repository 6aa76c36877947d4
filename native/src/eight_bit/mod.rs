//! 8-Bit Invaders in the native core: the same rules, players and draws as
//! `simkit/games/eight_bit_invaders/` (the reference), so both give identical rows.
//!
//! The types below are the contract with the Python binding (`python.rs`). The engine:
//! `rules` (tables, the memo of kill options, the formation as bitmasks), `search`
//! (`rules.kill_plans` and `witness_placement`), `players` (`players.py`), `game` (`game.py`).

pub(super) mod forward;
mod game;
mod players;
mod rules;
mod search;

pub use forward::{Position, SearchParams};
pub use game::{Action, Adjust, Phase, Record};
pub use players::Weights;
#[cfg(test)]
mod tests;

use crate::batch::{head, ints, Column, GameError, Kind, Rows};

pub const PAIR: u8 = 0;
pub const SUM: u8 = 1;

/// One printed alien card (`components.Alien`).
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Information-set MCTS over the forward model (`forward.rs`).
    Mcts,
}

/// The bonus cards by their index in a hand (`rules::RAPID_FIRE` ..), as the record names them.
pub const CARD_NAMES: [&str; 5] = [
    "rapid_fire",
    "time_slip",
    "smart_bomb",
    "extra_life",
    "rocket_fuel",
];

/// The strategies this engine plays, by their Python names.
pub const STRATEGY_NAMES: [&str; 4] = ["random", "greedy", "lookahead", "mcts"];

impl Strategy {
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy),
            "lookahead" => Some(Strategy::Lookahead),
            "mcts" => Some(Strategy::Mcts),
            _ => None,
        }
    }
}

/// A strategy's numbers: the lookahead player's weights (also the search's plan order) and the
/// search player's budget.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Numbers {
    pub weights: Weights,
    pub search: SearchParams,
}

impl Numbers {
    pub fn read(param: impl Fn(&str) -> Option<f64>) -> Numbers {
        Numbers {
            weights: Weights::read(&param),
            search: SearchParams::read(&param),
        }
    }
}

/// Games [start, stop) of a cell, as columns in the record's order.
pub fn play_batch(
    comp: &Components,
    params: &Params,
    strategy: Strategy,
    numbers: &Numbers,
    root_seed: u64,
    start: u64,
    stop: u64,
) -> Result<Vec<Column>, GameError> {
    // The tables and the memo of kill options of the last batch's components, when these are the
    // same: building them and warming the memo again cost a 1,000-game batch about 7 ms (13 %).
    // The memo is a pure cache (the options of a roll for a requirement), so rows do not change.
    let (tables, memo) = match WARM.with(|warm| warm.borrow_mut().take()) {
        Some(w) if w.comp == *comp => (w.tables, Some(w.memo)),
        _ => (
            rules::Tables::new(comp).map_err(|message| GameError {
                game_index: start,
                message: format!("components not supported by the native engine: {message}"),
            })?,
            None,
        ),
    };
    let mut engine = game::Engine::new(&tables, *params, strategy);
    engine.weights = numbers.weights;
    if strategy == Strategy::Mcts {
        engine.searcher = Some(Box::new(forward::Searcher::new(&engine, &numbers.search)));
    }
    if let Some(memo) = memo {
        engine.memo = memo;
    }
    let n = stop.saturating_sub(start) as usize;
    let mut rows = Rows::new(
        head(Kind::Bool, END_REASONS)
            .into_iter()
            .chain(ints(&INT_COLUMNS)),
        n,
    );
    for game_index in start..stop {
        let rec = engine
            .play(root_seed, game_index)
            .map_err(GameError::at(game_index))?;
        rows.head(&rec.head)
            .ints(&[rec.aliens_left, rec.countdown_left, rec.shields_left])
            .ints(&rec.stats)
            .end();
    }
    let memo = std::mem::replace(&mut engine.memo, rules::Memo::new(&[]));
    drop(engine);
    WARM.with(|warm| {
        *warm.borrow_mut() = Some(Warm {
            comp: comp.clone(),
            tables,
            memo,
        })
    });
    Ok(rows.into_columns())
}

/// What one thread keeps between batch calls (see `play_batch`).
struct Warm {
    comp: Components,
    tables: rules::Tables,
    memo: rules::Memo,
}

thread_local! {
    static WARM: std::cell::RefCell<Option<Warm>> = const { std::cell::RefCell::new(None) };
}

/// `end_reason` labels, by the codes of `game::END_*`.
pub const END_REASONS: &[&str] = &["cleared", "shot_down", "landed"];

/// The record's columns after its head (`batch::head`), all integers: three, then `game.STATS`.
const INT_COLUMNS: [&str; 12] = [
    "aliens_left",
    "countdown_left",
    "shields_left",
    "shields_traded",
    "shields_bombed",
    "bonus_drawn",
    "rapid_fire",
    "time_slip",
    "smart_bomb",
    "extra_life",
    "rocket_fuel",
    "countdown_removed",
];
