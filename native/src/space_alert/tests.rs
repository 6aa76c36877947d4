//! Rules easy to state, checked on the built-in components (`test_components.txt`: their
//! `native_data`, written by `simkit/games/space_alert/native.py::rust_fixture`), and `bench_games`.
//!
//! After changing `data/space_alert.toml`, `SIMKIT_UPDATE_GOLDEN=1 pytest
//! tests/native/test_rust_fixtures.py` rewrites `test_components.txt` (the test fails while it is
//! stale): each line is a `native_data` key and its values; `traj`, `threat` (fields, then
//! `|`-separated rules, stations and the x/y/z/destroyed steps as op:n) and `mission` lines hold
//! the tables.

use super::game::{resolve, Known};
use super::rules::{State, A, EMPTY, RED};
use super::*;
use crate::batch::Values;
use crate::test_clock::cpu_seconds;

fn pair(v: &[i64]) -> (i64, i64) {
    (v[0], v[1])
}

pub fn default_components() -> Components {
    let text = include_str!("test_components.txt");
    let mut f = std::collections::HashMap::new();
    let mut trajectories = Vec::new();
    let mut threats = Vec::new();
    let mut missions = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "traj" => {
                let w: Vec<&str> = value.split_whitespace().collect();
                trajectories.push(Trajectory {
                    id: w[0].to_string(),
                    length: w[1].parse().unwrap(),
                    action: w[2..].iter().map(|x| x.parse().unwrap()).collect(),
                });
            }
            "threat" => {
                let parts: Vec<&str> = value.split('|').map(str::trim).collect();
                let w: Vec<&str> = parts[0].split_whitespace().collect();
                let num = |i: usize| -> i64 { w[i].parse().unwrap() };
                let mut rules = 0u32;
                for r in parts[1].split_whitespace() {
                    rules |= 1 << RULE_NAMES.iter().position(|n| *n == r).unwrap();
                }
                let mut effects: [Vec<(Op, i32)>; 4] = Default::default();
                for (slot, text) in effects.iter_mut().zip(&parts[3..7]) {
                    for step in text.split_whitespace() {
                        let (op, n) = step.split_once(':').unwrap();
                        slot.push((Op::from_name(op).unwrap(), n.parse().unwrap()));
                    }
                }
                threats.push(Threat {
                    id: w[0].to_string(),
                    kind: match w[1] {
                        "external" => EXTERNAL,
                        "intruder" => INTRUDER,
                        _ => MALFUNCTION,
                    },
                    serious: w[2] == "1",
                    colour: u8::from(w[3] == "yellow"),
                    shield: num(4) as i32,
                    health: num(5) as i32,
                    speed: num(6) as i32,
                    effects,
                    rules,
                    stations: parts[2]
                        .split_whitespace()
                        .map(|x| x.parse().unwrap())
                        .collect(),
                    button: num(7) as u8,
                    points: (num(8), num(9)),
                });
            }
            "mission" => {
                let w: Vec<&str> = value.split_whitespace().collect();
                missions.push(Mission {
                    incoming_data: w[0].parse().unwrap(),
                    data_transfers: w[1].parse().unwrap(),
                    threats: w[2..]
                        .iter()
                        .map(|m| {
                            let v: Vec<i32> = m.split(',').map(|x| x.parse().unwrap()).collect();
                            MissionThreat {
                                turn: v[0],
                                zone: v[1],
                                serious: v[2] == 1,
                                unconfirmed: v[3] == 1,
                            }
                        })
                        .collect(),
                });
            }
            _ => {
                f.insert(key.to_string(), value.to_string());
            }
        }
    }
    let ints = |k: &str| -> Vec<i64> {
        f[k].split_whitespace()
            .map(|x| x.parse().expect("an int"))
            .collect()
    };
    let i32s = |k: &str| -> Vec<i32> { ints(k).into_iter().map(|x| x as i32).collect() };
    let three = |k: &str| -> [i32; 3] { i32s(k).try_into().unwrap() };
    let one = |k: &str| ints(k)[0];
    Components {
        trajectories,
        distance_bounds: (
            one("distance_bounds") as i32,
            ints("distance_bounds")[1] as i32,
        ),
        reactor_capacity: three("reactor_capacity"),
        reactor_start: three("reactor_start"),
        shield_capacity: three("shield_capacity"),
        shield_start: three("shield_start"),
        heavy_laser: three("heavy_laser"),
        light_laser: three("light_laser"),
        fuel: one("fuel") as i32,
        laser_range: one("laser_range") as i32,
        pulse_strength: one("pulse_strength") as i32,
        pulse_range: one("pulse_range") as i32,
        rockets: one("rockets") as i32,
        rocket_strength: one("rocket_strength") as i32,
        rocket_range: one("rocket_range") as i32,
        icpt_single: one("interceptor_single") as i32,
        icpt_multi: one("interceptor_multi") as i32,
        icpt_range: one("interceptor_range") as i32,
        battlebots: i32s("battlebots"),
        start_station: one("start_station") as i32,
        computer_checks: i32s("computer_checks"),
        phase_ends: i32s("phase_ends"),
        visual_points: ints("visual_points"),
        tiles: f["tiles"]
            .split_whitespace()
            .map(|t| TILE_NAMES.iter().position(|n| *n == t).unwrap() as u8)
            .collect(),
        penalty_knocked_out: one("penalty_knocked_out"),
        penalty_disabled_bots: one("penalty_disabled_bots"),
        penalty_damage: one("penalty_damage"),
        copies: one("copies") as usize,
        heroic: f["heroic"]
            .split_whitespace()
            .map(|h| {
                let (a, s) = h.split_once(',').unwrap();
                (a.parse().unwrap(), s.parse().unwrap())
            })
            .collect(),
        threats,
        missions,
        level_test: one("level_test"),
        level_simulation: one("level_simulation"),
        level_real: one("level_real"),
        unconfirmed_extra: one("unconfirmed_extra"),
        max_internal: one("max_internal") as usize,
        internal_level: pair(&ints("internal_level")),
        common_external_turns: pair(&ints("common_external_turns")),
        serious_external_turns: pair(&ints("serious_external_turns")),
        common_internal_turns: pair(&ints("common_internal_turns")),
        serious_internal_turns: pair(&ints("serious_internal_turns")),
        incoming_data: pair(&ints("incoming_data")),
        data_transfers: pair(&ints("data_transfers")),
    }
}

fn card(c: &Components, id: &str) -> usize {
    c.threats.iter().position(|t| t.id == id).expect("a card")
}

fn stacks(c: &Components) -> [Vec<u8>; 3] {
    [c.tiles.clone(), c.tiles.clone(), c.tiles.clone()]
}

#[test]
fn an_unmaintained_computer_delays_every_figure_aboard() {
    // nobody presses C at the computer in phase 1: after turn 2 every figure's card of turn 3
    // moves to turn 4 (and what follows it, up to the first empty slot)
    let c = default_components();
    let mut plans = vec![[EMPTY; 12]; 4];
    plans[0][2] = A; // turn 3
    plans[0][3] = RED; // turn 4
    let mut st = State::default();
    let res = resolve(&c, &mut st, &[], &plans, &stacks(&c), 4);
    assert!(res.won);
    assert_eq!(st.plans[0][3], EMPTY);
    assert_eq!(st.plans[0][4], A);
    assert_eq!(st.plans[0][5], RED);
}

#[test]
fn a_heavy_laser_shot_deals_strength_minus_shield() {
    // the Destroyer (shield 2) appears in red on turn 1; the captain walks to upper red and fires
    // the red heavy laser (strength 4) on turn 2: 2 damage, 1 energy from the red reactor
    let c = default_components();
    let destroyer = card(&c, "E1-02");
    assert_eq!(c.threats[destroyer].shield, 2);
    let t1 = c.trajectories.iter().position(|t| t.id == "T7").unwrap();
    let threats = [Known {
        turn: 1,
        card: destroyer,
        zone: 0,
        traj: t1,
    }];
    let mut plans = vec![[EMPTY; 12]; 4];
    plans[0][0] = RED;
    plans[0][1] = A;
    let mut st = State::default();
    resolve(&c, &mut st, &threats, &plans, &stacks(&c), 4);
    assert_eq!(st.threats[0].damage, c.heavy_laser[0] - 2);
}

#[test]
fn a_quiet_mission_scores_nothing_and_is_won() {
    let c = default_components();
    let plans = vec![[EMPTY; 12]; 4];
    let mut st = State::default();
    let res = resolve(&c, &mut st, &[], &plans, &stacks(&c), 4);
    assert!(res.won);
    assert_eq!((res.score, res.penalties, res.threat_points), (0, 0, 0));
    assert_eq!(st.turn, 13);
}

/// The default settings: a real mission, white decks, 4 players and figures, dealt hands.
pub fn real_mission_params() -> Params {
    Params {
        mission: MissionKind::Real,
        common: Colours::White,
        serious: Colours::White,
        players: 4,
        figures: 4,
        free_hands: false,
        error_rate: 0.0,
        campaign: 1,
    }
}

#[test]
fn a_batch_is_the_same_game_by_game() {
    let c = default_components();
    let params = real_mission_params();
    for strategy in [Strategy::Random, Strategy::SCRIPTED] {
        let all = play_batch(&c, &params, strategy, 5, 0, 6).expect("a batch");
        for i in 0..6u64 {
            let one = play_batch(&c, &params, strategy, 5, i, i + 1).expect("a batch");
            for (a, b) in all.iter().zip(&one) {
                if let (Values::Int(x), Values::Int(y)) = (&a.values, &b.values) {
                    assert_eq!(x[i as usize], y[0], "{}", a.name);
                }
            }
        }
    }
}

/// `cargo test --release bench_games -- --ignored --nocapture`: games per CPU second per strategy
/// (real mission, 4 figures, one core).
#[test]
#[ignore]
fn bench_games() {
    let c = default_components();
    let params = real_mission_params();
    for (strategy, n) in [
        (Strategy::Random, 40_000u64),
        (Strategy::SCRIPTED, 40_000),
        (
            Strategy::Planner {
                scripted: ScriptedNumbers::DEFAULT,
                steps: 40,
                samples: 2,
            },
            500,
        ),
    ] {
        let wall = std::time::Instant::now();
        let start = cpu_seconds(wall);
        play_batch(&c, &params, strategy, 3, 0, n).expect("a batch");
        let s = cpu_seconds(wall) - start;
        println!("{strategy:?}: {:.1} games/s", n as f64 / s);
    }
}

#[test]
fn an_internal_threats_timeline_in_one_pass_is_the_replayed_one() {
    let c = default_components();
    for (i, th) in c.threats.iter().enumerate() {
        if th.kind == EXTERNAL {
            continue;
        }
        for traj in 0..c.trajectories.len() {
            for turn in 1..=8 {
                let k = Known {
                    turn,
                    card: i,
                    zone: 3,
                    traj,
                };
                let mut line = [0; 15];
                super::players::internal_line(&c, &k, &mut line);
                for (t, &station) in line.iter().enumerate() {
                    assert_eq!(
                        station,
                        super::players::internal_station_at(&c, &k, t as i32)
                    );
                }
            }
        }
    }
}
