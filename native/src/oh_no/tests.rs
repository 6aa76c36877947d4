//! Unit tests of the native Oh no... INVASION!!! rules. Equivalence with the Python engine, game
//! by game, is checked from Python (`tests/native/`); these check rules that are easy to state here.

use super::game::{Engine, END_CREW_ELIMINATED, END_SPAWNMONSTER_DESTROYED, RESISTANCE_RESHUFFLES};
use super::players::{CrewParams, Means};
use super::rules::{morph_pair_ok, State};
use super::{
    play_batch, Components, Params, Strategy, BLACK, CATALYST, MORPH_BOX, TELEPORTER, WEAPON,
};
use crate::batch::Values;
use crate::rng::PyRandom;

const RED: i32 = 0;
const YELLOW: i32 = 1;
const PINK: i32 = 3;

/// `data/components.toml` as `native.native_data` hands it over (colours red, yellow, green,
/// pink, silver, blue, purple, orange; card ids in file order).
pub(super) fn default_components() -> Components {
    let mut c = Components {
        colour_kind: vec![0, 0, 0, 1, 1, 1, 2, 2],
        points: vec![2, 3, 5, 7],
        res_category: vec![],
        res_colour: vec![],
        res_type: vec![],
        res_symbols: vec![],
        hubs: vec![0, 1, 2, 3, 4],
        spawn_shield: vec![],
        spawn_colour: vec![],
        spawn_kind: vec![],
        spawn_aliens: vec![],
        spawn_flies: vec![],
        spawn_orders: vec![],
        spawn_threshold: vec![],
        shields_total: 8,
    };
    for symbols in [[0, 3, 6], [1, 4, 7], [2, 5, 6], [0, 4, 7], [1, 5, 7]] {
        c.res_category.push(0);
        c.res_colour.push(-1);
        c.res_type.push(-1);
        c.res_symbols.push(symbols.to_vec());
    }
    for (category, symbols) in [
        (CATALYST, [0, 3, 6, 5]),
        (MORPH_BOX, [1, 4, 7, 2]),
        (TELEPORTER, [1, 2, 7, 3]),
    ] {
        for s in symbols {
            c.res_category.push(category);
            c.res_colour.push(s);
            c.res_type.push(3);
            c.res_symbols.push(vec![s as u8]);
        }
    }
    for t in 0..3 {
        for colour in [0, 1, 2, 3, 4, 5, 6, 7, BLACK] {
            c.res_category.push(WEAPON);
            c.res_colour.push(colour);
            c.res_type.push(t);
            c.res_symbols.push(vec![]);
        }
    }
    let mut spawn = |shield: bool,
                     colour: i32,
                     kind: i32,
                     aliens: i32,
                     flies: i32,
                     orders: i32,
                     threshold: i32| {
        c.spawn_shield.push(shield);
        c.spawn_colour.push(colour);
        c.spawn_kind.push(kind);
        c.spawn_aliens.push(aliens);
        c.spawn_flies.push(flies);
        c.spawn_orders.push(orders);
        c.spawn_threshold.push(threshold);
    };
    for colour in 0..8 {
        spawn(true, colour, -1, 1, 0, -1, 0);
    }
    for (colour, a, b) in [(0, 1, 2), (1, 0, 2), (2, 0, 1)] {
        for i in 0..8 {
            let orders = if i % 4 < 2 { a } else { b };
            let threshold = [6, 7, 7, 6][i % 4];
            let flies = if i % 2 == 0 { 1 } else { -1 };
            spawn(false, colour, 0, 1 + i as i32 / 2, flies, orders, threshold);
        }
    }
    for (colour, orders) in [(3, 5), (4, 3), (5, 4)] {
        for i in 0..6 {
            spawn(
                false,
                colour,
                1,
                if i < 4 { 1 } else { 2 },
                if i % 2 == 0 { 1 } else { -1 },
                orders,
                0,
            );
        }
    }
    for (colour, orders) in [(6, 7), (7, 6)] {
        for i in 0..6 {
            spawn(
                false,
                colour,
                2,
                1,
                if i % 2 == 0 { 1 } else { -1 },
                orders,
                0,
            );
        }
    }
    c
}

pub(super) fn params(players: usize, level: u8) -> Params {
    Params { players, level }
}

/// The card id of the weapon of `type_` (0 cannon, 1 rocket, 2 bomb) and `colour` (BLACK too).
pub(super) fn weapon(type_: u16, colour: i32) -> u16 {
    17 + 9 * type_ + if colour == BLACK { 8 } else { colour as u16 }
}

#[test]
fn the_default_components_have_the_published_counts() {
    let c = default_components();
    assert_eq!(c.res_category.len(), 44);
    assert_eq!(c.spawn_colour.len(), 62);
    assert_eq!(c.res_colour[weapon(2, BLACK) as usize], BLACK);
    assert_eq!(c.res_type[weapon(1, PINK) as usize], 1);
}

#[test]
fn games_give_the_python_engines_records() {
    // `OhNoInvasion().play({...}, (strategy,), 3, index).record` of the Python engine:
    // (won, length, end_reason, cards_drawn, spawn_drawn, attacks, final_conflict_turn)
    let c = default_components();
    for (strategy, players, level, index, expected) in [
        (
            Strategy::Cautious,
            4,
            1,
            0,
            (false, 32, END_CREW_ELIMINATED, 62, 46, 11, 23),
        ),
        (
            Strategy::Bold,
            3,
            2,
            1,
            (true, 9, END_SPAWNMONSTER_DESTROYED, 19, 18, 2, 9),
        ),
        (
            Strategy::Random,
            5,
            3,
            2,
            (false, 5, END_CREW_ELIMINATED, 1, 2, 0, 1),
        ),
        (
            Strategy::Cautious,
            4,
            0,
            3,
            (false, 24, END_CREW_ELIMINATED, 38, 34, 6, 17),
        ),
    ] {
        let mut e = Engine::new(&c, params(players, level), strategy);
        let r = e.play(3, index).unwrap();
        let stat = |name: &str| r.stats[super::STAT_KEYS.iter().position(|&k| k == name).unwrap()];
        let got = (
            r.head.won,
            r.head.length,
            r.head.end_reason,
            stat("cards_drawn"),
            stat("spawn_drawn"),
            stat("attacks"),
            r.final_conflict_turn,
        );
        assert_eq!(
            got, expected,
            "{strategy:?} p{players} l{level} game {index}"
        );
    }
}

#[test]
fn the_resistance_deck_is_remade_the_moment_it_runs_out() {
    let c = default_components();
    let mut e = Engine::new(&c, params(3, 1), Strategy::Cautious);
    e.play(1, 0).unwrap(); // a finished game: streams and state in place
    e.stats = [0; super::game::N_STATS];
    let st = &mut e.st;
    for hand in st.hands.iter_mut() {
        hand.clear();
    }
    st.deck = vec![weapon(0, RED)];
    st.discard = vec![weapon(0, YELLOW), weapon(1, YELLOW), weapon(2, YELLOW)];
    e.draw_resistance(0, 1);
    // the last card drawn, the discards at once became the new deck
    assert_eq!(e.st.hands[0], vec![weapon(0, RED)]);
    assert_eq!(e.st.deck.len(), 3);
    assert!(e.st.discard.is_empty());
    assert_eq!(e.stats[RESISTANCE_RESHUFFLES], 1);
    // with no discards when it runs out, the deck is remade at the next draw, if it can be
    e.st.deck = vec![weapon(0, RED)];
    e.st.hands[0].clear();
    e.draw_resistance(0, 2);
    assert_eq!(e.st.hands[0], vec![weapon(0, RED)]);
    assert!(e.st.deck.is_empty());
    assert_eq!(e.stats[RESISTANCE_RESHUFFLES], 1);
}

/// An engine whose seat 0 holds `hand` and has a working Morph-box (level 1, 3 players).
fn with_morph_box<'c>(c: &'c Components, strategy: Strategy, hand: &[u16]) -> Engine<'c> {
    let mut e = Engine::new(c, params(3, 1), strategy);
    e.play(1, 0).unwrap();
    let mut setup = PyRandom::from_words(&[1]);
    e.st.reset(c, 3, 1, &mut setup);
    e.st.add_module(c, 0, 9); // Morph-box (yellow)
    e.st.hands[0] = hand.to_vec();
    assert!(e.st.morph_works(0));
    e
}

#[test]
fn the_morph_box_counters_only_a_colour_without_a_weapon_in_hand() {
    let c = default_components();
    // two Catalyst cards make a Morph-box pair; a red weapon is held
    let hand = [5, 6, weapon(1, RED)];
    assert!(morph_pair_ok(&c, 5, 6));
    for strategy in [Strategy::Cautious, Strategy::Bold] {
        let mut e = with_morph_box(&c, strategy, &hand);
        assert_eq!(e.counter(0, RED), Means::Weapon(weapon(1, RED)));
        assert_eq!(e.counter(0, YELLOW), Means::Morph(5, 6));
    }
    // the random crew: only the weapon is offered against red, whatever it draws
    for words in 0..50u32 {
        let mut e = with_morph_box(&c, Strategy::Random, &hand);
        e.rngs = super::game::Rngs::for_tests(words, 3);
        assert_eq!(e.counter(0, RED), Means::Weapon(weapon(1, RED)));
        assert!(matches!(e.counter(0, YELLOW), Means::Morph(5, 6)));
    }
}

#[test]
fn invaders_fly_clockwise_to_the_left_and_skip_the_eliminated() {
    let c = default_components();
    let mut st = State::new();
    st.reset(&c, 4, 1, &mut PyRandom::from_words(&[2]));
    let mut path = Vec::new();
    // a green Invalien flying left (card 24): hubs 1-4 show red/pink/purple, yellow/silver/orange,
    // green/blue/purple, red/silver/orange; from seat 0 clockwise the first green is seat 2
    assert_eq!(c.spawn_colour[24], 2);
    assert_eq!(st.flight(&c, 0, 24, &mut path), Some(2));
    assert_eq!(path, vec![0, 1, 2]);
    // flying right from seat 0: 3, 2
    assert_eq!(st.flight(&c, 0, 25, &mut path), Some(2));
    assert_eq!(path, vec![0, 3, 2]);
    st.alive[2] = false;
    assert_eq!(st.flight(&c, 0, 24, &mut path), None);
    assert_eq!(path, vec![0, 1, 3]);
}

#[test]
fn a_batch_gives_one_value_per_game_in_every_column() {
    let c = default_components();
    let columns = play_batch(
        &c,
        &params(4, 1),
        Strategy::Bold,
        &CrewParams::of(Strategy::Bold),
        &super::SearchParams::default(),
        5,
        10,
        30,
    )
    .unwrap();
    assert_eq!(columns.len(), 11 + super::game::N_STATS);
    assert!(columns.iter().all(|col| col.len() == 20));
    let Values::Label(_, labels) = &columns[3].values else {
        panic!("end_reason is a label column")
    };
    assert_eq!(labels[0], "spawnmonster_destroyed");
}

/// `cargo test --release bench_games -- --ignored --nocapture`: games a second per strategy
/// (4 players, level 1), one core.
#[test]
#[ignore]
fn bench_games() {
    let c = default_components();
    for (strategy, n) in [
        (Strategy::Random, 100_000u64),
        (Strategy::Cautious, 100_000),
        (Strategy::Bold, 100_000),
    ] {
        if !crate::test_clock::chosen("OHNO_ONLY", &strategy) {
            continue;
        }
        let mut e = Engine::new(&c, params(4, 1), strategy);
        let start = std::time::Instant::now();
        let mut turns = 0;
        for i in 0..n {
            turns += e.play(3, i).unwrap().head.length;
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "{strategy:?}: {:.0} games/s ({:.1} turns a game)",
            n as f64 / s,
            turns as f64 / n as f64
        );
    }
}

#[test]
fn streams_seeded_side_by_side_draw_as_if_seeded_alone() {
    let keys = [
        [1, 2, 3, 4],
        [5, 0, 0, 0],
        [0, 0, 0, 0],
        [7, 8, 0, 9],
        [u32::MAX, 1, 0, 0],
    ];
    let mut many = vec![PyRandom::from_words(&[42]); keys.len()];
    PyRandom::reseed_many(&mut many, &keys);
    for (r, key) in many.iter_mut().zip(&keys) {
        let mut alone = PyRandom::from_words(key);
        for _ in 0..1000 {
            assert_eq!(r.next_u32(), alone.next_u32());
        }
    }
}

#[test]
#[ignore]
fn bench_seeding() {
    let keys: Vec<[u32; 4]> = (0..5u32).map(|k| [k + 1, 2, 3, 4]).collect();
    let n = 100_000;
    let mut rs = vec![PyRandom::from_words(&[1]); 5];
    let t = std::time::Instant::now();
    for i in 0..n {
        let mut ks = keys.clone();
        ks[0][0] = i;
        PyRandom::reseed_many(&mut rs, &ks);
    }
    println!(
        "many: {:.2} us per 5",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
    let t = std::time::Instant::now();
    for i in 0..n {
        for (g, r) in rs.iter_mut().enumerate() {
            let mut k = keys[g];
            k[0] = i;
            r.reseed_from_words(&k);
        }
    }
    println!(
        "alone: {:.2} us per 5",
        t.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}

#[test]
fn every_crew_finishes_its_games_keeping_every_card() {
    // In a debug build the engine also asserts that no one declines a counter or a strike
    // they could make (RULINGS §2: no declining), as the Python engine checks.
    let c = default_components();
    for strategy in [Strategy::Random, Strategy::Cautious, Strategy::Bold] {
        for players in 2..=5 {
            for level in 0..=3 {
                let mut e = Engine::new(&c, params(players, level), strategy);
                for index in 0..60 {
                    let r = e.play(9, index).unwrap();
                    assert!(r.head.length >= 1 && r.survivors <= players as i64);
                    // every Resistance card but the hubs in the box, and every Spawn card, is somewhere
                    let st = &e.st;
                    let mut res: Vec<u16> = st.deck.iter().chain(&st.discard).copied().collect();
                    for p in 0..players {
                        res.extend(&st.hands[p]);
                        res.extend(&st.mods[p]);
                    }
                    res.retain(|&x| c.res_category[x as usize] != 0); // a Hub may be in the box
                    res.sort_unstable();
                    let before = res.len();
                    res.dedup();
                    assert_eq!(
                        (before, res.len()),
                        (39, 39),
                        "{strategy:?} p{players} l{level} game {index}"
                    );
                    let mut spawn: Vec<u16> = st
                        .spawn_deck
                        .iter()
                        .chain(&st.spawn_discard)
                        .chain(&st.shields)
                        .copied()
                        .collect();
                    for p in 0..players {
                        spawn.extend(&st.aliens[p]);
                        spawn.extend(st.sabo[p].iter().filter(|&&a| a >= 0).map(|&a| a as u16));
                    }
                    spawn.sort_unstable();
                    let before = spawn.len();
                    spawn.dedup();
                    assert_eq!(
                        (before, spawn.len()),
                        (62, 62),
                        "{strategy:?} p{players} l{level} game {index}"
                    );
                }
            }
        }
    }
}
