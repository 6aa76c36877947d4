//! Space Alert in the native core: the same mission generation, deal, planning crews, resolution
//! round and score as `simkit/games/space_alert/` (the reference), with every draw in the same
//! order, so both give identical game rows.
//!
//! `rules` (`state.py`, `rules.py`), `game` (`game.py`, as a step machine: the decision waited
//! on, its answer, the rules up to the next), `players` (`players.py`: random, scripted,
//! planner), `forward` (the forward model and the native-only search player, `mcts`). The
//! components come from `space_alert/native.py`.

mod forward;
mod game;
mod players;
pub mod rules;
#[cfg(test)]
mod tests;

use crate::batch::{head, ints, Column, GameError, Head, Kind, Rows};

pub use forward::{Observation, Position, SearchParams};
pub use game::{Action, Card, Known, Phase};
pub use players::ScriptedNumbers;

/// Threat kinds.
pub const EXTERNAL: u8 = 0;
pub const INTRUDER: u8 = 1;
pub const MALFUNCTION: u8 = 2;

/// Damage tile kinds, in `components.TILES` order (also the campaign repair's harm order).
pub const TILE_NAMES: [&str; 6] = [
    "reactor",
    "shield",
    "heavy_laser",
    "lower_cannon",
    "gravolift",
    "structural",
];
pub const TILE_REACTOR: u8 = 0;
pub const TILE_SHIELD: u8 = 1;
pub const TILE_HEAVY: u8 = 2;
pub const TILE_CANNON: u8 = 3;
pub const TILE_LIFT: u8 = 4;

/// Special rules (`components.RULE_KEYS`), one bit each.
pub const RULE_NAMES: [&str; 16] = [
    "double_damage",
    "stealth",
    "pulse_ignores_shield",
    "cryoshield",
    "rocket_immune",
    "rocket_wasted",
    "heavy_laser_ignores",
    "max_one_damage",
    "untargetable_far",
    "behemoth_interceptors",
    "rocket_magnet",
    "nemesis_backlash",
    "health_is_rockets",
    "slime",
    "fights_back",
    "fights_back_after_x",
];
pub const DOUBLE_DAMAGE: u32 = 1 << 0;
pub const STEALTH: u32 = 1 << 1;
pub const PULSE_IGNORES_SHIELD: u32 = 1 << 2;
pub const CRYOSHIELD: u32 = 1 << 3;
pub const ROCKET_IMMUNE: u32 = 1 << 4;
pub const ROCKET_WASTED: u32 = 1 << 5;
pub const HEAVY_LASER_IGNORES: u32 = 1 << 6;
pub const MAX_ONE_DAMAGE: u32 = 1 << 7;
pub const UNTARGETABLE_FAR: u32 = 1 << 8;
pub const BEHEMOTH_INTERCEPTORS: u32 = 1 << 9;
pub const ROCKET_MAGNET: u32 = 1 << 10;
pub const NEMESIS_BACKLASH: u32 = 1 << 11;
pub const HEALTH_IS_ROCKETS: u32 = 1 << 12;
pub const SLIME: u32 = 1 << 13;
pub const FIGHTS_BACK: u32 = 1 << 14;
pub const FIGHTS_BACK_AFTER_X: u32 = 1 << 15;

macro_rules! ops {
    ($($name:ident = $text:literal,)*) => {
        /// Effect steps (`components.EFFECT_OPS`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Op { $($name,)* }
        impl Op {
            pub fn from_name(name: &str) -> Option<Op> {
                match name { $($text => Some(Op::$name),)* _ => None }
            }
        }
    };
}

ops! {
    Attack = "attack",
    AttackAll = "attack_all",
    AttackOthers = "attack_others",
    AttackRedBlue = "attack_red_blue",
    AttackUnshielded = "attack_unshielded",
    AttackRemaining = "attack_remaining",
    AttackAllIfDamaged = "attack_all_if_damaged",
    AttackUnlessDamaged = "attack_unless_damaged",
    AttackCounted = "attack_counted",
    Reveal = "reveal",
    DrainAllShields = "drain_all_shields",
    DrainEachShield = "drain_each_shield",
    Repair = "repair",
    HealHalf = "heal_half",
    Speed = "speed",
    Shield = "shield",
    SetShield = "set_shield",
    BoostOthers = "boost_others",
    AdvanceOthers = "advance_others",
    ShieldAllExternal = "shield_all_external",
    Count = "count",
    DamageOtherExternal = "damage_other_external",
    SelfDamage = "self_damage",
    DestroyShip = "destroy_ship",
    DelayZone = "delay_zone",
    DelayAboard = "delay_aboard",
    KnockoutAboard = "knockout_aboard",
    MoveRed = "move_red",
    MoveBlue = "move_blue",
    ChangeDeck = "change_deck",
    DrainZoneReactor1 = "drain_zone_reactor_1",
    DrainZoneShield = "drain_zone_shield",
    DrainZoneReactor = "drain_zone_reactor",
    AttackWarheads = "attack_warheads",
    DestroyRocket = "destroy_rocket",
    DisableIdleBots = "disable_idle_bots",
    SpreadRed = "spread_red",
    SpreadBlue = "spread_blue",
    AttackPerToken = "attack_per_token",
    DrainEachReactor = "drain_each_reactor",
    AttackAllInternal = "attack_all_internal",
    AttackReactorEnergy = "attack_reactor_energy",
    DestroyFuel = "destroy_fuel",
    MoveBlueIfDamagedElseAttack = "move_blue_if_damaged_else_attack",
    MoveRedIfDamagedElseAttack = "move_red_if_damaged_else_attack",
    KnockoutStation = "knockout_station",
    GrowUp = "grow_up",
    AttackPlayersPresent = "attack_players_present",
    DoubleDamageZone = "double_damage_zone",
    DoubleDamageAll = "double_damage_all",
    EnergyLeak = "energy_leak",
    ShieldLeak = "shield_leak",
    ReactorLeak = "reactor_leak",
    KnockoutWithBots = "knockout_with_bots",
    KnockoutAtStations = "knockout_at_stations",
    KnockoutAboardRedBlue = "knockout_aboard_red_blue",
    KnockoutWithoutBots = "knockout_without_bots",
    Seek = "seek",
    DrainWhiteReactor = "drain_white_reactor",
    DelayAtStations = "delay_at_stations",
    Contaminate = "contaminate",
}

#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    pub id: String,
    pub length: i32,
    /// action[s]: 0 none, 1 X, 2 Y, 3 Z (index = space number).
    pub action: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Threat {
    pub id: String,
    pub kind: u8,
    pub serious: bool,
    /// 0 white, 1 yellow.
    pub colour: u8,
    pub shield: i32,
    pub health: i32,
    pub speed: i32,
    /// x, y, z, destroyed.
    pub effects: [Vec<(Op, i32)>; 4],
    pub rules: u32,
    pub stations: Vec<i32>,
    /// The button's card code (A, B, C, BB); 0 for an external threat.
    pub button: u8,
    /// (destroyed, survived).
    pub points: (i64, i64),
}

impl Threat {
    #[inline]
    pub fn has(&self, rule: u32) -> bool {
        self.rules & rule != 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MissionThreat {
    pub turn: i32,
    pub zone: i32,
    pub serious: bool,
    pub unconfirmed: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mission {
    pub threats: Vec<MissionThreat>,
    pub incoming_data: i64,
    pub data_transfers: i64,
}

/// The component file as the engine needs it (built by `space_alert/native.py`).
#[derive(Clone, Debug, PartialEq)]
pub struct Components {
    pub trajectories: Vec<Trajectory>,
    pub distance_bounds: (i32, i32),
    pub reactor_capacity: [i32; 3],
    pub reactor_start: [i32; 3],
    pub shield_capacity: [i32; 3],
    pub shield_start: [i32; 3],
    pub heavy_laser: [i32; 3],
    pub light_laser: [i32; 3],
    pub fuel: i32,
    pub laser_range: i32,
    pub pulse_strength: i32,
    pub pulse_range: i32,
    pub rockets: i32,
    pub rocket_strength: i32,
    pub rocket_range: i32,
    pub icpt_single: i32,
    pub icpt_multi: i32,
    pub icpt_range: i32,
    pub battlebots: Vec<i32>,
    pub start_station: i32,
    pub computer_checks: Vec<i32>,
    pub phase_ends: Vec<i32>,
    pub visual_points: Vec<i64>,
    /// Tile kinds (TILE_NAMES indices), in the file's order.
    pub tiles: Vec<u8>,
    pub penalty_knocked_out: i64,
    pub penalty_disabled_bots: i64,
    pub penalty_damage: i64,
    pub copies: usize,
    /// (heroic action code HA/HB/HBB, teleport station).
    pub heroic: Vec<(u8, i32)>,
    pub threats: Vec<Threat>,
    pub missions: Vec<Mission>,
    pub level_test: i64,
    pub level_simulation: i64,
    pub level_real: i64,
    pub unconfirmed_extra: i64,
    pub max_internal: usize,
    pub internal_level: (i64, i64),
    pub common_external_turns: (i64, i64),
    pub serious_external_turns: (i64, i64),
    pub common_internal_turns: (i64, i64),
    pub serious_internal_turns: (i64, i64),
    pub incoming_data: (i64, i64),
    pub data_transfers: (i64, i64),
}

/// Mission kinds: a random mission of a level, or a transcribed one (index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissionKind {
    Test,
    Simulation,
    Real,
    Numbered(usize),
}

/// Deck colours allowed: white, yellow or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    White,
    Yellow,
    Mixed,
}

impl Colours {
    pub fn from_name(name: &str) -> Option<Colours> {
        match name {
            "white" => Some(Colours::White),
            "yellow" => Some(Colours::Yellow),
            "mixed" => Some(Colours::Mixed),
            _ => None,
        }
    }

    pub fn allows(self, colour: u8) -> bool {
        match self {
            Colours::White => colour == 0,
            Colours::Yellow => colour == 1,
            Colours::Mixed => true,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub mission: MissionKind,
    pub common: Colours,
    pub serious: Colours,
    pub players: usize,
    pub figures: usize,
    pub free_hands: bool,
    pub error_rate: f64,
    pub campaign: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strategy {
    Random,
    Scripted(ScriptedNumbers),
    /// The scripted rows (`scripted`'s numbers) improved by `steps` candidate changes per figure
    /// and phase, each resolved with `samples` tile orders
    Planner {
        scripted: ScriptedNumbers,
        steps: usize,
        samples: usize,
    },
    /// Information-set MCTS over the crew's cards (`forward.rs`); native only.
    Mcts(forward::SearchParams),
}

/// The strategies this build plays natively.
pub const STRATEGY_NAMES: &[&str] = &["random", "scripted", "planner", "mcts"];

impl Strategy {
    /// The scripted crew at its default numbers (the search player's rollouts, the forward model).
    pub const SCRIPTED: Strategy = Strategy::Scripted(ScriptedNumbers::DEFAULT);

    /// The numbers the scripted crew plays by under this strategy (the defaults where it has none).
    pub fn scripted_numbers(&self) -> ScriptedNumbers {
        match *self {
            Strategy::Scripted(numbers)
            | Strategy::Planner {
                scripted: numbers, ..
            } => numbers,
            _ => ScriptedNumbers::DEFAULT,
        }
    }

    /// The strategy called `name`, its parameters read by `param` (the scripted numbers' defaults
    /// where it gives none; None: a planner budget not given, or no such strategy).
    pub fn from_name(name: &str, param: impl Fn(&str) -> Option<f64>) -> Option<Strategy> {
        match name {
            "random" => Some(Strategy::Random),
            "scripted" => Some(Strategy::Scripted(ScriptedNumbers::read(&param))),
            "planner" => Some(Strategy::Planner {
                scripted: ScriptedNumbers::read(&param),
                steps: param("steps")? as usize,
                samples: param("samples")? as usize,
            }),
            "mcts" => Some(Strategy::Mcts(forward::SearchParams::read(param))),
            _ => None,
        }
    }
}

/// `end_reason` labels.
pub const END_REASONS: &[&str] = &["survived", "zone_destroyed", "threat_destroyed_ship"];

/// The int columns after `end_reason`, in the record's order.
pub const INTS_A: [&str; 10] = [
    "threat_points",
    "penalties",
    "visual_points",
    "damage_red",
    "damage_white",
    "damage_blue",
    "damage_total",
    "threats",
    "threats_destroyed",
    "threats_survived",
];
pub const STRS: [&str; 5] = [
    "destroyed_ids",
    "survived_ids",
    "on_board_ids",
    "threat_ids",
    "lost_to",
];
pub const INTS_B: [&str; 5] = [
    "knocked_out",
    "disabled_bots",
    "fuel_left",
    "rockets_left",
    "campaign_missions",
];

/// One game's record (`game.record` and the campaign's totals).
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub head: Head<bool>,
    pub ints_a: [i64; 10],
    pub strs: [String; 5],
    pub ints_b: [i64; 5],
}

/// Why these settings cannot be played natively (None: they can).
fn unsupported(params: &Params) -> Option<String> {
    let (players, figures) = (params.players, params.figures);
    (players > figures || figures > 5 || players == 0)
        .then(|| format!("{players} players with {figures} figures"))
}

/// Game columns of games [start, stop) of a cell.
pub fn play_batch(
    comp: &Components,
    params: &Params,
    strategy: Strategy,
    root_seed: u64,
    start: u64,
    stop: u64,
) -> Result<Vec<Column>, GameError> {
    if let Some(message) = unsupported(params) {
        return Err(GameError {
            game_index: start,
            message,
        });
    }
    let columns = head(Kind::Bool, END_REASONS)
        .into_iter()
        .chain(ints(&INTS_A))
        .chain(STRS.iter().map(|&name| (name, Kind::Str)))
        .chain(ints(&INTS_B));
    let mut rows = Rows::new(columns, stop.saturating_sub(start) as usize);
    let mut engine = game::Engine::new(comp, *params, strategy);
    for game_index in start..stop {
        let rec = engine.play(root_seed, game_index)?;
        rows.head(&rec.head).ints(&rec.ints_a);
        for s in rec.strs {
            rows.str(s);
        }
        rows.ints(&rec.ints_b).end();
    }
    Ok(rows.into_columns())
}
