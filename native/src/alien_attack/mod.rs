//! Alien Attack: USA in the native core: the same rules, players and draws as
//! `simkit/games/alien_attack/` (the reference), so both give identical game and seat rows.
//!
//! The types below are the contract with the Python binding (`python.rs`). The engine: `board`
//! (the component tables, flattened), `game` (`state.py`, `rules.py`, `game.py`, as a step
//! machine: a phase per decision, `Game::apply` plays an answer to the next), `players`
//! (`players.py`: random, greedy, missions, rollout) and `forward` (the forward model and the
//! native-only search player, mcts).

mod board;
mod forward;
mod game;
mod players;
#[cfg(test)]
mod tests;

use crate::batch::{head, ints, Column, GameError, Kind, Rows};

pub use board::Board;
pub use forward::{Position, SearchParams};
pub use game::{Action, Phase, Record, SeatRow, State};
pub use game::{COVER, EXTRA, NEIGHBORHOOD, PROTECTION};
pub use players::{GreedyNumbers, MissionsNumbers, Power};

/// `components.BORDER_CARDS`, in order: the deal shuffles this list.
pub const BORDER_CARDS: [&str; 4] = ["atlantic", "pacific", "gulf", "mexico"];
/// `components.CITY_CARDS`.
pub const CITY_CARDS: [i64; 4] = [2, 3, 4, 5];

/// The board file as the engine needs it (built by `alien_attack/native.py`). Spaces are 1..=n;
/// per-space lists are indexed by space (index 0 unused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    pub n: usize,
    pub neighbors: Vec<Vec<usize>>,
    /// (n1, n2) per direction: n2 is 0 for a Canada icon.
    pub lines: Vec<Vec<(usize, usize)>>,
    pub opposite: Vec<Vec<(usize, usize)>>,
    pub park: Vec<bool>,
    pub herd_region: Vec<i64>,
    pub herd_nbrs: Vec<Vec<usize>>,
    pub border_mask: Vec<i64>,
    /// The spaces of each Border card's border, in `BORDER_CARDS` order.
    pub borders: Vec<Vec<usize>>,
    pub city_value: Vec<i64>,
    pub space_cities: Vec<Vec<usize>>,
    pub discs: i64,
    pub park_markers: i64,
    /// The City card tables in `CITY_CARDS` order.
    pub city_tables: Vec<Vec<i64>>,
    /// The Border card tables in `BORDER_CARDS` order.
    pub border_tables: Vec<Vec<i64>>,
    pub parks_table: Vec<i64>,
    pub bases_table: Vec<i64>,
    pub territory_table: Vec<i64>,
    pub protection_points: i64,
    pub protection_value1: i64,
    pub protection_herds: i64,
    pub protection_borders: i64,
}

#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub players: usize,
    pub semi_coop: bool,
}

/// A seat's strategy, with its parameters (`rollout:rollouts=K`, the heuristics' numbers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    Random,
    Greedy(GreedyNumbers),
    Missions(MissionsNumbers),
    /// flat Monte Carlo: `rollouts` playouts per candidate, a win worth `win` points of margin;
    /// its own powers as `missions` with `missions`
    Rollout {
        missions: MissionsNumbers,
        rollouts: usize,
        win: i64,
    },
    /// information-set MCTS over the forward model (native only; `forward.rs`)
    Mcts(SearchParams),
}

/// The strategies' names, in the engine's order.
pub const STRATEGY_NAMES: &[&str] = &["random", "greedy", "missions", "rollout", "mcts"];

impl Strategy {
    /// The strategy called `name`, its parameters read by `param` (the defaults where it gives
    /// none; None: no such strategy).
    pub fn from_name(name: &str, param: impl Fn(&str) -> Option<f64>) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "greedy" => Some(Strategy::Greedy(GreedyNumbers::read(&param))),
            "missions" => Some(Strategy::Missions(MissionsNumbers::read(&param))),
            "rollout" => Some(Strategy::Rollout {
                missions: MissionsNumbers::read(&param),
                rollouts: param("rollouts").map_or(8, |v| v as usize),
                win: param("win").map_or(10, |v| v as i64),
            }),
            "mcts" => Some(Strategy::Mcts(SearchParams::read(&param))),
            _ => None,
        }
    }
}

/// `end_reason` labels.
pub const END_REASONS: &[&str] = &["bag_empty", "earth_wins", "invasion_succeeds"];

/// The integer game columns after `end_reason`, in the record's order (then `mean_score`,
/// `base_spaces`, `capture_spaces`).
pub const GAME_INTS: [&str; 6] = [
    "winners",
    "winning_seat",
    "margin",
    "bases_destroyed",
    "bases_left",
    "discs_captured",
];

/// The seat record's integer columns after `won`, in order.
pub const SEAT_INTS: [&str; 15] = [
    "placement_points",
    "city_mission",
    "border_mission",
    "parks",
    "bases",
    "territory",
    "protection",
    "discs_placed",
    "discs_captured",
    "bases_destroyed",
    "parks_taken",
    "largest_group",
    "city_card_cities",
    "border_discs",
    "powers_used",
];

/// `used_*` columns, in `state.POWER_NAMES` order (protection, cover, neighborhood, extra turn).
pub const USED: [&str; 4] = [
    "used_protection",
    "used_cover",
    "used_neighborhood",
    "used_extra_turn",
];

/// Game and seat columns of games [start, stop) of a cell; `strategies` has one per seat and
/// rotates with the game index (`runner.seat_order`).
pub fn play_batch(
    comp: &Components,
    params: &Params,
    strategies: &[Strategy],
    root_seed: u64,
    start: u64,
    stop: u64,
) -> Result<(Vec<Column>, Vec<Column>), GameError> {
    let board = Board::new(comp).map_err(|message| GameError {
        game_index: start,
        message: format!("components not supported by the native engine: {message}"),
    })?;
    if strategies.len() != params.players {
        return Err(GameError {
            game_index: start,
            message: format!(
                "{} strategies for {} players",
                strategies.len(),
                params.players
            ),
        });
    }
    let n = stop.saturating_sub(start) as usize;
    let seats = params.players;
    let mut engine = game::Engine::new(&board, *params);
    let game_columns = head(Kind::OptBool, END_REASONS)
        .into_iter()
        .chain(ints(&GAME_INTS));
    let mut games = Rows::new(
        game_columns.chain([
            ("mean_score", Kind::Float),
            ("base_spaces", Kind::Str),
            ("capture_spaces", Kind::Str),
        ]),
        n,
    );
    let seat_columns = [
        ("game_index", Kind::Int),
        ("seat", Kind::Int),
        ("strategy", Kind::Int), // which of the cell's strategies the seat plays
        ("city_card", Kind::Int),
        ("border_card", Kind::Label(&BORDER_CARDS)),
        ("score", Kind::Int),
        ("won", Kind::Bool),
    ];
    let seat_columns = seat_columns.into_iter().chain(ints(&SEAT_INTS));
    let mut seat_rows = Rows::new(
        seat_columns.chain(USED.iter().map(|&name| (name, Kind::Bool))),
        n * seats,
    );
    let mut order = vec![Strategy::Greedy(GreedyNumbers::DEFAULT); seats];
    for game_index in start..stop {
        let k = (game_index % seats as u64) as usize;
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = strategies[(k + i) % seats];
        }
        let rec = engine
            .play(&order, root_seed, game_index)
            .map_err(|message| GameError {
                game_index,
                message,
            })?;
        games
            .head(&rec.head)
            .ints(&[
                rec.winners,
                rec.winning_seat,
                rec.margin,
                rec.bases_destroyed,
                rec.bases_left,
                rec.discs_captured,
            ])
            .float(rec.mean_score)
            .str(rec.base_spaces)
            .str(rec.capture_spaces)
            .end();
        for (p, seat) in rec.seats.iter().enumerate() {
            seat_rows
                .int(game_index as i64)
                .int(p as i64)
                .int(((k + p) % seats) as i64)
                .int(seat.city_card)
                .label(seat.border_card as u8)
                .int(seat.score)
                .bool(seat.won)
                .ints(&seat.ints);
            for &used in &seat.used {
                seat_rows.bool(used);
            }
            seat_rows.end();
        }
    }
    Ok((games.into_columns(), seat_rows.into_columns()))
}
