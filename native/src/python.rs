//! The Python binding, `simkit._native`: one batch call for every game, and the randomness
//! pieces the tests compare with numpy and CPython.
//!
//! `play_batch(game, data, params, strategies, root_seed, start, stop)` plays games
//! [start, stop) of one cell with the GIL released and returns `(games, seats)`: the game
//! columns `{column: (kind, labels, data)}` in the record's order, and the seat columns likewise
//! (game_index, seat, strategy, then the seat record; None for a game without seat rows). Kinds:
//! "bool" (one byte a game), "opt_bool" (one byte: 0, 1, or 2 for null), "int" (little-endian
//! i64), "float" (little-endian f64), "label" (one byte a game, an index into `labels`) and "str"
//! (data is a list of str). No Python object is made per game or per turn but the "str" values.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::alien_attack;
use crate::batch::{Column, GameError, Values};
use crate::eight_bit;
use crate::oh_no;
use crate::rng::{PyRandom, SeedSequence};
use crate::space_alert;

mod forward;

// Raised when a native game breaks an invariant, with args (game index, message): the runner
// replays the chunk on the Python engine, which records the failure like any other.
pyo3::create_exception!(_native, NativeGameError, pyo3::exceptions::PyException);

fn item<'py, T: FromPyObject<'py>>(dict: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match dict.get_item(key)? {
        Some(value) => value
            .extract::<T>()
            .map_err(|e| PyValueError::new_err(format!("'{key}': {e}"))),
        None => Err(PyValueError::new_err(format!("missing '{key}'"))),
    }
}

fn eight_bit_components(data: &Bound<'_, PyDict>) -> PyResult<eight_bit::Components> {
    let aliens: Vec<(u8, u8, u8, u8, bool, u8)> = item(data, "aliens")?;
    let bonus: Vec<String> = item(data, "bonus_deck")?;
    let bonus_deck = bonus
        .iter()
        .map(|name| match name.as_str() {
            "rapid_fire" => Ok(eight_bit::Bonus::RapidFire),
            "time_slip" => Ok(eight_bit::Bonus::TimeSlip),
            "smart_bomb" => Ok(eight_bit::Bonus::SmartBomb),
            "extra_life" => Ok(eight_bit::Bonus::ExtraLife),
            "rocket_fuel" => Ok(eight_bit::Bonus::RocketFuel),
            other => Err(PyValueError::new_err(format!(
                "unknown bonus card '{other}'"
            ))),
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(eight_bit::Components {
        rows: item(data, "rows")?,
        columns: item(data, "columns")?,
        n_types: item(data, "n_types")?,
        aliens: aliens
            .into_iter()
            .map(|(kind, a, b, type_, bomber, need)| eight_bit::Alien {
                kind,
                a,
                b,
                type_,
                bomber,
                need,
            })
            .collect(),
        shield_start: item(data, "shield_start")?,
        bonus_deck,
        dice_per_turn: item(data, "dice_per_turn")?,
    })
}

fn eight_bit_params(params: &Bound<'_, PyDict>) -> PyResult<eight_bit::Params> {
    Ok(eight_bit::Params {
        countdown: item(params, "countdown")?,
        dice: item(params, "dice")?,
    })
}

fn alien_attack_components(data: &Bound<'_, PyDict>) -> PyResult<alien_attack::Components> {
    let border_cards: Vec<String> = item(data, "border_cards")?;
    let city_cards: Vec<i64> = item(data, "city_cards")?;
    if border_cards != alien_attack::BORDER_CARDS || city_cards != alien_attack::CITY_CARDS {
        return Err(PyValueError::new_err(format!(
            "cards {city_cards:?} {border_cards:?} are not the native engine's"
        )));
    }
    Ok(alien_attack::Components {
        n: item(data, "n")?,
        neighbors: item(data, "neighbors")?,
        lines: item(data, "lines")?,
        opposite: item(data, "opposite")?,
        park: item(data, "park")?,
        herd_region: item(data, "herd_region")?,
        herd_nbrs: item(data, "herd_nbrs")?,
        border_mask: item(data, "border_mask")?,
        borders: item(data, "borders")?,
        city_value: item(data, "city_value")?,
        space_cities: item(data, "space_cities")?,
        discs: item(data, "discs")?,
        park_markers: item(data, "park_markers")?,
        city_tables: item(data, "city_tables")?,
        border_tables: item(data, "border_tables")?,
        parks_table: item(data, "parks_table")?,
        bases_table: item(data, "bases_table")?,
        territory_table: item(data, "territory_table")?,
        protection_points: item(data, "protection_points")?,
        protection_value1: item(data, "protection_value1")?,
        protection_herds: item(data, "protection_herds")?,
        protection_borders: item(data, "protection_borders")?,
    })
}

fn alien_attack_params(params: &Bound<'_, PyDict>) -> PyResult<alien_attack::Params> {
    let variant: String = item(params, "variant")?;
    Ok(alien_attack::Params {
        players: item(params, "players")?,
        semi_coop: match variant.as_str() {
            "standard" => false,
            "semi-coop" => true,
            other => return Err(PyValueError::new_err(format!("unknown variant '{other}'"))),
        },
    })
}

fn oh_no_params(params: &Bound<'_, PyDict>) -> PyResult<oh_no::Params> {
    Ok(oh_no::Params {
        players: item(params, "players")?,
        level: item(params, "level")?,
    })
}

fn space_alert_params(
    params: &Bound<'_, PyDict>,
    comp: &space_alert::Components,
) -> PyResult<space_alert::Params> {
    let bad = |what: String| PyValueError::new_err(what);
    let mission: String = item(params, "mission")?;
    let colours = |key: &str| -> PyResult<space_alert::Colours> {
        let name: String = item(params, key)?;
        space_alert::Colours::from_name(&name)
            .ok_or_else(|| PyValueError::new_err(format!("unknown deck colour '{name}'")))
    };
    let hands: String = item(params, "hands")?;
    Ok(space_alert::Params {
        mission: match mission.as_str() {
            "test" => space_alert::MissionKind::Test,
            "simulation" => space_alert::MissionKind::Simulation,
            "real" => space_alert::MissionKind::Real,
            other => match other.parse::<usize>() {
                Ok(i) if i >= 1 && i <= comp.missions.len() => {
                    space_alert::MissionKind::Numbered(i - 1)
                }
                _ => return Err(bad(format!("unknown mission '{other}'"))),
            },
        },
        common: colours("common")?,
        serious: colours("serious")?,
        players: item(params, "players")?,
        figures: item(params, "figures")?,
        free_hands: match hands.as_str() {
            "dealt" => false,
            "free" => true,
            other => return Err(bad(format!("unknown hands '{other}'"))),
        },
        error_rate: item(params, "error_rate")?,
        campaign: item(params, "campaign")?,
    })
}

fn oh_no_components(data: &Bound<'_, PyDict>) -> PyResult<oh_no::Components> {
    Ok(oh_no::Components {
        colour_kind: item(data, "colour_kind")?,
        points: item(data, "points")?,
        res_category: item(data, "res_category")?,
        res_colour: item(data, "res_colour")?,
        res_type: item(data, "res_type")?,
        res_symbols: item(data, "res_symbols")?,
        hubs: item(data, "hubs")?,
        spawn_shield: item(data, "spawn_shield")?,
        spawn_colour: item(data, "spawn_colour")?,
        spawn_kind: item(data, "spawn_kind")?,
        spawn_aliens: item(data, "spawn_aliens")?,
        spawn_flies: item(data, "spawn_flies")?,
        spawn_orders: item(data, "spawn_orders")?,
        spawn_threshold: item(data, "spawn_threshold")?,
        shields_total: item(data, "shields_total")?,
    })
}

fn three(data: &Bound<'_, PyDict>, key: &str) -> PyResult<[i32; 3]> {
    let v: Vec<i32> = item(data, key)?;
    v.try_into()
        .map_err(|_| PyValueError::new_err(format!("'{key}': three values expected")))
}

fn space_alert_components(data: &Bound<'_, PyDict>) -> PyResult<space_alert::Components> {
    use space_alert::{Op, RULE_NAMES, TILE_NAMES};
    let bad = |what: String| PyValueError::new_err(what);
    let trajectories: Vec<(String, i32, Vec<u8>)> = item(data, "trajectories")?;
    let tiles: Vec<String> = item(data, "tiles")?;
    let tiles = tiles
        .iter()
        .map(|t| {
            TILE_NAMES
                .iter()
                .position(|n| n == t)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("unknown damage tile '{t}'")))
        })
        .collect::<PyResult<Vec<u8>>>()?;
    let ids: Vec<String> = item(data, "threat_ids")?;
    let kinds: Vec<String> = item(data, "threat_kinds")?;
    let serious: Vec<bool> = item(data, "threat_serious")?;
    let colours: Vec<String> = item(data, "threat_colours")?;
    let numbers: Vec<(i32, i32, i32)> = item(data, "threat_numbers")?;
    let effects: Vec<Vec<Vec<(String, i32)>>> = item(data, "threat_effects")?;
    let rules: Vec<Vec<String>> = item(data, "threat_rules")?;
    let stations: Vec<Vec<i32>> = item(data, "threat_stations")?;
    let buttons: Vec<u8> = item(data, "threat_buttons")?;
    let points: Vec<(i64, i64)> = item(data, "threat_points")?;
    let mut threats = Vec::with_capacity(ids.len());
    for i in 0..ids.len() {
        let kind = match kinds[i].as_str() {
            "external" => space_alert::EXTERNAL,
            "intruder" => space_alert::INTRUDER,
            "malfunction" => space_alert::MALFUNCTION,
            other => return Err(bad(format!("unknown threat kind '{other}'"))),
        };
        let colour = match colours[i].as_str() {
            "white" => 0,
            "yellow" => 1,
            other => return Err(bad(format!("unknown colour '{other}'"))),
        };
        let mut eff: [Vec<(Op, i32)>; 4] = Default::default();
        if effects[i].len() != 4 {
            return Err(bad("four effect lists expected".into()));
        }
        for (slot, steps) in eff.iter_mut().zip(&effects[i]) {
            for (op, n) in steps {
                let op = Op::from_name(op).ok_or_else(|| bad(format!("unknown effect '{op}'")))?;
                slot.push((op, *n));
            }
        }
        let mut bits = 0u32;
        for r in &rules[i] {
            let k = RULE_NAMES
                .iter()
                .position(|n| n == r)
                .ok_or_else(|| bad(format!("unknown rule '{r}'")))?;
            bits |= 1 << k;
        }
        if kind != space_alert::EXTERNAL && stations[i].is_empty() {
            return Err(bad(format!("internal threat {} without a station", ids[i])));
        }
        threats.push(space_alert::Threat {
            id: ids[i].clone(),
            kind,
            serious: serious[i],
            colour,
            shield: numbers[i].0,
            health: numbers[i].1,
            speed: numbers[i].2,
            effects: eff,
            rules: bits,
            stations: stations[i].clone(),
            button: buttons[i],
            points: points[i],
        });
    }
    let missions: Vec<(Vec<(i32, i32, bool, bool)>, i64, i64)> = item(data, "missions")?;
    let phase_ends: Vec<i32> = item(data, "phase_ends")?;
    if phase_ends.len() != 3 {
        return Err(bad("three phases expected".into()));
    }
    Ok(space_alert::Components {
        trajectories: trajectories
            .into_iter()
            .map(|(id, length, action)| space_alert::Trajectory { id, length, action })
            .collect(),
        distance_bounds: item(data, "distance_bounds")?,
        reactor_capacity: three(data, "reactor_capacity")?,
        reactor_start: three(data, "reactor_start")?,
        shield_capacity: three(data, "shield_capacity")?,
        shield_start: three(data, "shield_start")?,
        heavy_laser: three(data, "heavy_laser")?,
        light_laser: three(data, "light_laser")?,
        fuel: item(data, "fuel")?,
        laser_range: item(data, "laser_range")?,
        pulse_strength: item(data, "pulse_strength")?,
        pulse_range: item(data, "pulse_range")?,
        rockets: item(data, "rockets")?,
        rocket_strength: item(data, "rocket_strength")?,
        rocket_range: item(data, "rocket_range")?,
        icpt_single: item(data, "interceptor_single")?,
        icpt_multi: item(data, "interceptor_multi")?,
        icpt_range: item(data, "interceptor_range")?,
        battlebots: item(data, "battlebots")?,
        start_station: item(data, "start_station")?,
        computer_checks: item(data, "computer_checks")?,
        phase_ends,
        visual_points: item(data, "visual_points")?,
        tiles,
        penalty_knocked_out: item(data, "penalty_knocked_out")?,
        penalty_disabled_bots: item(data, "penalty_disabled_bots")?,
        penalty_damage: item(data, "penalty_damage")?,
        copies: item(data, "copies")?,
        heroic: item(data, "heroic")?,
        threats,
        missions: missions
            .into_iter()
            .map(|(ts, incoming, transfers)| space_alert::Mission {
                threats: ts
                    .into_iter()
                    .map(
                        |(turn, zone, serious, unconfirmed)| space_alert::MissionThreat {
                            turn,
                            zone,
                            serious,
                            unconfirmed,
                        },
                    )
                    .collect(),
                incoming_data: incoming,
                data_transfers: transfers,
            })
            .collect(),
        level_test: item(data, "level_test")?,
        level_simulation: item(data, "level_simulation")?,
        level_real: item(data, "level_real")?,
        unconfirmed_extra: item(data, "unconfirmed_extra")?,
        max_internal: item(data, "max_internal")?,
        internal_level: item(data, "internal_level")?,
        common_external_turns: item(data, "common_external_turns")?,
        serious_external_turns: item(data, "serious_external_turns")?,
        common_internal_turns: item(data, "common_internal_turns")?,
        serious_internal_turns: item(data, "serious_internal_turns")?,
        incoming_data: item(data, "incoming_data")?,
        data_transfers: item(data, "data_transfers")?,
    })
}

/// A seat's strategy as Python hands it: its name and {parameter: value} (every parameter the
/// strategy declares, defaults filled in).
type StrategySpec<'py> = (String, Bound<'py, PyDict>);

fn one_strategy<'a, 'py>(strategies: &'a [StrategySpec<'py>]) -> PyResult<&'a StrategySpec<'py>> {
    match strategies {
        [one] => Ok(one),
        _ => Err(PyValueError::new_err(format!(
            "one strategy expected, got {}",
            strategies.len()
        ))),
    }
}

/// A parameter's value as a number (a boolean as 0 or 1), None where the strategy lacks it.
fn number(params: &Bound<'_, PyDict>, key: &str) -> Option<f64> {
    params
        .get_item(key)
        .ok()
        .flatten()
        .and_then(|v| v.extract::<f64>().ok())
}

fn no_strategy(name: &str) -> PyErr {
    PyValueError::new_err(format!("no native strategy '{name}'"))
}

fn columns_to_python<'py>(py: Python<'py>, columns: Vec<Column>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for column in columns {
        let (kind, labels, bytes): (&str, Vec<&str>, Vec<u8>) = match column.values {
            Values::Bool(v) => ("bool", vec![], v.into_iter().map(u8::from).collect()),
            Values::OptBool(v) => (
                "opt_bool",
                vec![],
                v.into_iter().map(|x| x.map_or(2, u8::from)).collect(),
            ),
            Values::Int(v) => (
                "int",
                vec![],
                v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            ),
            Values::Float(v) => (
                "float",
                vec![],
                v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            ),
            Values::Label(v, labels) => ("label", labels.to_vec(), v),
            Values::Str(v) => {
                let empty: Vec<&str> = vec![];
                out.set_item(
                    column.name,
                    ("str", PyList::new(py, empty)?, PyList::new(py, v)?),
                )?;
                continue;
            }
        };
        out.set_item(
            column.name,
            (kind, PyList::new(py, labels)?, PyBytes::new(py, &bytes)),
        )?;
    }
    Ok(out)
}

fn game_error(error: GameError) -> PyErr {
    NativeGameError::new_err((error.game_index, error.message))
}

#[pyfunction]
#[pyo3(signature = (game, data, params, strategies, root_seed, start, stop))]
#[allow(clippy::too_many_arguments)]
fn play_batch<'py>(
    py: Python<'py>,
    game: &str,
    data: &Bound<'py, PyDict>,
    params: &Bound<'py, PyDict>,
    strategies: Vec<StrategySpec<'py>>,
    root_seed: u64,
    start: u64,
    stop: u64,
) -> PyResult<(Bound<'py, PyDict>, Option<Bound<'py, PyDict>>)> {
    if stop < start {
        return Err(PyValueError::new_err("stop is before start"));
    }
    let result = match game {
        "eight-bit-invaders" => {
            let comp = eight_bit_components(data)?;
            let params = eight_bit_params(params)?;
            let (name, values) = one_strategy(&strategies)?;
            let strategy = eight_bit::Strategy::from_name(name).ok_or_else(|| no_strategy(name))?;
            let numbers = eight_bit::Numbers::read(|key| number(values, key));
            py.allow_threads(|| {
                eight_bit::play_batch(&comp, &params, strategy, &numbers, root_seed, start, stop)
            })
            .map(|games| (games, None))
        }
        "alien-attack" => {
            let comp = alien_attack_components(data)?;
            let params = alien_attack_params(params)?;
            let seats = strategies
                .iter()
                .map(|(name, values)| {
                    alien_attack::Strategy::from_name(name, |key| number(values, key))
                        .ok_or_else(|| no_strategy(name))
                })
                .collect::<PyResult<Vec<_>>>()?;
            py.allow_threads(|| {
                alien_attack::play_batch(&comp, &params, &seats, root_seed, start, stop)
            })
            .map(|(games, seats)| (games, Some(seats)))
        }
        "oh-no-invasion" => {
            let comp = oh_no_components(data)?;
            let params = oh_no_params(params)?;
            // every seat plays the cell's first strategy, as `OhNoInvasion.new_game` does
            let (name, values) = strategies
                .first()
                .ok_or_else(|| PyValueError::new_err("no strategy"))?;
            let strategy = oh_no::Strategy::from_name(name).ok_or_else(|| no_strategy(name))?;
            let crew = oh_no::CrewParams::read(strategy, |key| number(values, key));
            let search = oh_no::SearchParams::read(|key| number(values, key));
            py.allow_threads(|| {
                oh_no::play_batch(
                    &comp, &params, strategy, &crew, &search, root_seed, start, stop,
                )
            })
            .map(|games| (games, None))
        }
        "space-alert" => {
            let comp = space_alert_components(data)?;
            let params = space_alert_params(params, &comp)?;
            let (name, values) = one_strategy(&strategies)?;
            let strategy = space_alert::Strategy::from_name(name, |key| number(values, key))
                .ok_or_else(|| no_strategy(name))?;
            py.allow_threads(|| {
                space_alert::play_batch(&comp, &params, strategy, root_seed, start, stop)
            })
            .map(|games| (games, None))
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "no native engine for '{other}'"
            )))
        }
    };
    match result {
        Ok((games, seats)) => Ok((
            columns_to_python(py, games)?,
            seats.map(|s| columns_to_python(py, s)).transpose()?,
        )),
        Err(error) => Err(game_error(error)),
    }
}

/// The games and strategies this build plays: {game id: [strategy, ...]}.
#[pyfunction]
fn engines(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("eight-bit-invaders", eight_bit::STRATEGY_NAMES.to_vec())?;
    out.set_item("alien-attack", alien_attack::STRATEGY_NAMES.to_vec())?;
    out.set_item("oh-no-invasion", oh_no::STRATEGY_NAMES.to_vec())?;
    out.set_item("space-alert", space_alert::STRATEGY_NAMES.to_vec())?;
    Ok(out)
}

/// `SeedSequence(entropy, spawn_key=spawn_key).generate_state(n_words)`, for the tests.
#[pyfunction]
fn seed_sequence_state(entropy: Vec<u64>, spawn_key: Vec<u64>, n_words: usize) -> Vec<u32> {
    SeedSequence::new(&entropy, &spawn_key).generate_state(n_words)
}

/// Runs `ops` on `random.Random(n)` (n given by its 32-bit words, least significant first) and
/// returns what each gave, for the tests: ("random", 0) -> float, ("randbelow", n) -> int,
/// ("randint", n) -> randint(0, n), ("shuffle", n) -> the shuffled range(n),
/// ("getrandbits64", 0) -> getrandbits(64),
/// ("sampleK", n) -> sample(range(n), K).
#[pyfunction]
fn py_random_ops<'py>(
    py: Python<'py>,
    words: Vec<u32>,
    ops: Vec<(String, usize)>,
) -> PyResult<Bound<'py, PyList>> {
    if words.is_empty() {
        return Err(PyValueError::new_err("at least one word"));
    }
    let mut rng = PyRandom::from_words(&words);
    let out = PyList::empty(py);
    for (op, n) in ops {
        match op.as_str() {
            "random" => out.append(rng.random())?,
            "randbelow" if n > 0 => out.append(rng.randbelow(n))?,
            "randint" => out.append(rng.randint(0, n as i64))?,
            "shuffle" => {
                let mut items: Vec<usize> = (0..n).collect();
                rng.shuffle(&mut items);
                out.append(items)?
            }
            "getrandbits64" => out.append(rng.getrandbits64())?,
            // ("sampleK", n) -> sample(range(n), K)
            _ if op.starts_with("sample") && op[6..].parse::<usize>().is_ok_and(|k| k <= n) => {
                let k: usize = op[6..].parse().expect("a sample size");
                let population: Vec<usize> = (0..n).collect();
                let mut picked = Vec::with_capacity(k);
                rng.sample_into(&population, k, &mut picked);
                out.append(picked)?
            }
            _ => return Err(PyRuntimeError::new_err(format!("unknown op ({op}, {n})"))),
        }
    }
    Ok(out)
}

/// Decisions the search players answered on this thread since the last call (the count then
/// starts again): with the CPU time of the batches between, the benchmark's decisions per second.
#[pyfunction]
fn take_decision_count() -> u64 {
    crate::mcts::take_decision_count()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(take_decision_count, m)?)?;
    forward::register(m)?;
    m.add_function(wrap_pyfunction!(engines, m)?)?;
    m.add_function(wrap_pyfunction!(seed_sequence_state, m)?)?;
    m.add_function(wrap_pyfunction!(py_random_ops, m)?)?;
    m.add("NativeGameError", m.py().get_type::<NativeGameError>())?;
    Ok(())
}
