//! Oh no... INVASION!!! in the native core: the same rules, crews and draws as
//! `simkit/games/oh_no_invasion/` (the reference), so both give identical rows.
//!
//! The types below are the contract with the Python binding (`python.rs`). The engine: `rules`
//! (`rules.py` and `state.py`'s look-ups), `players` (`players.py`), `game` (`game.py`, as a
//! step machine), `forward` (the forward model and the search player `mcts`, native only).

mod forward;
mod game;
mod players;
mod rules;
#[cfg(test)]
mod tests;

pub use forward::{Position, SearchParams};
pub use game::{Action, Attack, Phase, Record, MONSTER};
pub use players::{CrewParams, Means, StrikeAnswer};

use crate::batch::{head, ints, Column, GameError, Kind, Rows};

// Resistance card categories (`components.py`)
pub const HUB: u8 = 0;
pub const CATALYST: u8 = 1;
pub const MORPH_BOX: u8 = 2;
pub const TELEPORTER: u8 = 3;
pub const WEAPON: u8 = 4;
// Alien kinds
pub const INVALIEN: i32 = 0;
pub const EVAPORALIEN: i32 = 1;
pub const SABOTALIEN: i32 = 2;
/// The weapon colour of the black weapons.
pub const BLACK: i32 = 8;
pub const N_COLOURS: usize = 8;

/// The component file as the engine needs it (built by `oh_no_invasion/native.py` from
/// `components.Components`): parallel vectors indexed by card id, -1 where Python has -1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    pub colour_kind: Vec<i32>, // 8 colours
    pub points: Vec<i64>,      // per survivor at levels 0..3
    pub res_category: Vec<u8>,
    pub res_colour: Vec<i32>, // BLACK for black weapons, -1 for hubs
    pub res_type: Vec<i32>,   // weapon type 0..2, 3 for modules, -1 for hubs
    pub res_symbols: Vec<Vec<u8>>,
    pub hubs: Vec<u16>, // card ids of hubs 1..5 in number order
    pub spawn_shield: Vec<bool>,
    pub spawn_colour: Vec<i32>,
    pub spawn_kind: Vec<i32>, // -1 for shields
    pub spawn_aliens: Vec<i32>,
    pub spawn_flies: Vec<i32>,  // +1 clockwise, -1, 0 for shields
    pub spawn_orders: Vec<i32>, // -1 for shields
    pub spawn_threshold: Vec<i32>,
    pub shields_total: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub players: usize,
    pub level: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Random,
    Cautious,
    Bold,
    /// The search player (`forward.rs`): native only.
    Mcts,
}

/// The strategies the native engine plays, by name.
pub const STRATEGY_NAMES: [&str; 4] = ["random", "cautious", "bold", "mcts"];

impl Strategy {
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "cautious" => Some(Strategy::Cautious),
            "bold" => Some(Strategy::Bold),
            "mcts" => Some(Strategy::Mcts),
            _ => None,
        }
    }
}

/// `end_reason` labels, by the codes of `game::END_*`.
pub const END_REASONS: &[&str] = &[
    "spawnmonster_destroyed",
    "shields_complete",
    "crew_eliminated",
];
/// `final_conflict_moment` labels, by the codes of `game::MOMENT_*`.
pub const MOMENTS: &[&str] = &["", "start", "after_combat"];

/// `game.STAT_KEYS`, in the record's order.
pub const STAT_KEYS: [&str; game::N_STATS] = [
    "actions",
    "draws",
    "transports",
    "cards_drawn",
    "resistance_reshuffles",
    "spawn_drawn",
    "shields_placed",
    "aliens_zapped",
    "aliens_flown_off",
    "invasions",
    "cards_evaporated",
    "sabotages",
    "modules_destroyed",
    "modules_built",
    "attacks",
    "teleport_attacks",
    "aliens_removed",
    "weapons_discarded",
    "morph_box_uses",
    "setbacks_level0",
    "players_eliminated",
    "eliminated_invaliens",
    "eliminated_sabotage",
    "eliminated_kamikaze",
    "kamikazes",
    "kamikazes_countered",
    "teleport_helps",
    "shields_destroyed",
    "spawn_reshuffles",
];

/// Why these components or settings cannot be played natively (None: they can).
fn unsupported(comp: &Components, params: &Params, strategy: Strategy) -> Option<String> {
    if !(1..=comp.hubs.len()).contains(&params.players) {
        return Some(format!(
            "{} players, {} hubs",
            params.players,
            comp.hubs.len()
        ));
    }
    if params.level > 3 || comp.points.len() < 4 {
        return Some(format!("level {}", params.level));
    }
    // the search names sets of hand cards by their positions, in 64 bits
    if strategy == Strategy::Mcts && comp.res_category.len() > 64 {
        return Some("mcts with more than 64 Resistance cards".into());
    }
    if comp.res_category.len() > u16::MAX as usize || comp.spawn_colour.len() > u16::MAX as usize {
        return Some("more than 65,535 cards in a deck".into());
    }
    None
}

/// Games [start, stop) of a cell, as columns in the record's order.
#[allow(clippy::too_many_arguments)]
pub fn play_batch(
    comp: &Components,
    params: &Params,
    strategy: Strategy,
    crew: &CrewParams,
    search: &SearchParams,
    root_seed: u64,
    start: u64,
    stop: u64,
) -> Result<Vec<Column>, GameError> {
    if let Some(message) = unsupported(comp, params, strategy) {
        return Err(GameError {
            game_index: start,
            message: format!("not supported by the native engine: {message}"),
        });
    }
    let mut engine = game::Engine::new(comp, *params, strategy);
    engine.crew = *crew;
    if strategy == Strategy::Mcts {
        engine.searcher = Some(Box::new(forward::Searcher::new(&engine, search)));
    }
    let columns = head(Kind::Bool, END_REASONS).into_iter().chain([
        ("survivors", Kind::Int),
        ("final_conflict_called", Kind::Bool),
        ("final_conflict_turn", Kind::Int),
        ("final_conflict_moment", Kind::Label(MOMENTS)),
        ("final_conflict_shields", Kind::Int),
        ("final_conflict_weapons", Kind::Int),
        ("shields_in_play", Kind::Int),
    ]);
    let mut rows = Rows::new(
        columns.chain(ints(&STAT_KEYS)),
        stop.saturating_sub(start) as usize,
    );
    for game_index in start..stop {
        let rec = engine
            .play(root_seed, game_index)
            .map_err(GameError::at(game_index))?;
        rows.head(&rec.head)
            .int(rec.survivors)
            .bool(rec.final_conflict_turn > 0)
            .int(rec.final_conflict_turn)
            .label(rec.final_conflict_moment)
            .int(rec.final_conflict_shields)
            .int(rec.final_conflict_weapons)
            .int(rec.shields_in_play)
            .ints(&rec.stats)
            .end();
    }
    Ok(rows.into_columns())
}
