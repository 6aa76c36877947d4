//! Rules easy to state, checked on the built-in board (`test_board.txt`: its `native_data`, written
//! by `alien_attack/native.py::rust_fixture` and kept current by tests/native/test_rust_fixtures.py), and
//! `bench_games`.

use super::board::Board;
use super::game::{
    final_score, place, remove_disc, Engine, Game, State, BASE, COVER, EMPTY, LOST, NONE,
    PROTECTION,
};
use super::{
    play_batch, Components, GreedyNumbers, MissionsNumbers, Params, SearchParams, Strategy,
};
use crate::batch::Values;
use crate::test_clock::{chosen, cpu_seconds};

fn parse_lists(value: &str) -> Vec<Vec<i64>> {
    value
        .strip_prefix(';')
        .expect("a list of lists")
        .split(';')
        .map(|part| {
            part.split_whitespace()
                .map(|x| x.parse().expect("an int"))
                .collect()
        })
        .collect()
}

fn parse_pairs(value: &str) -> Vec<Vec<(usize, usize)>> {
    value
        .strip_prefix(';')
        .expect("a list of lists")
        .split(';')
        .map(|part| {
            part.split_whitespace()
                .map(|pair| {
                    let (a, b) = pair.split_once(',').expect("a pair");
                    (a.parse().expect("an int"), b.parse().expect("an int"))
                })
                .collect()
        })
        .collect()
}

pub fn default_components() -> Components {
    let text = include_str!("test_board.txt");
    let mut fields = std::collections::HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        fields.insert(key, value);
    }
    let ints = |k: &str| -> Vec<i64> {
        fields[k]
            .split_whitespace()
            .map(|x| x.parse().expect("an int"))
            .collect()
    };
    let one = |k: &str| ints(k)[0];
    let usizes = |k: &str| -> Vec<Vec<usize>> {
        parse_lists(fields[k])
            .into_iter()
            .map(|l| l.into_iter().map(|x| x as usize).collect())
            .collect()
    };
    Components {
        n: one("n") as usize,
        neighbors: usizes("neighbors"),
        lines: parse_pairs(fields["lines"]),
        opposite: parse_pairs(fields["opposite"]),
        park: ints("park").into_iter().map(|x| x != 0).collect(),
        herd_region: ints("herd_region"),
        herd_nbrs: usizes("herd_nbrs"),
        border_mask: ints("border_mask"),
        borders: usizes("borders"),
        city_value: ints("city_value"),
        space_cities: usizes("space_cities"),
        discs: one("discs"),
        park_markers: one("park_markers"),
        city_tables: parse_lists(fields["city_tables"]),
        border_tables: parse_lists(fields["border_tables"]),
        parks_table: ints("parks_table"),
        bases_table: ints("bases_table"),
        territory_table: ints("territory_table"),
        protection_points: one("protection_points"),
        protection_value1: one("protection_value1"),
        protection_herds: one("protection_herds"),
        protection_borders: one("protection_borders"),
    }
}

fn board() -> Board {
    Board::new(&default_components()).expect("the built-in board")
}

/// A two-seat game (greedy seats, seeded streams) on an empty table.
fn game(board: &Board) -> Game {
    let mut g = Game::new(board, 2);
    g.rngs = (0..4).map(crate::rng::PyRandom::from_u64).collect();
    g.st.rounds = 30;
    g.st.round = 1;
    g
}

/// A space s with a line (n1, n2) through two board spaces.
fn a_line(board: &Board) -> (usize, usize, usize) {
    for s in 1..=board.n {
        for &(n1, n2) in board.lines.get(s) {
            if n2 != 0 {
                return (s, n1 as usize, n2 as usize);
            }
        }
    }
    panic!("no line");
}

#[test]
fn a_flip_captures_a_disc_between_two_bases_and_protection_saves_it() {
    let board = board();
    let (s, disc, base) = a_line(&board);
    for protected in [false, true] {
        let mut g = game(&board);
        g.st.cell[base] = BASE;
        place(&board, &mut g.st, 0, disc);
        if !protected {
            g.st.powers[0] &= !PROTECTION;
        }
        let touching: Vec<usize> = board
            .space_cities
            .get(disc)
            .iter()
            .map(|&c| c as usize)
            .collect();
        g.st.open = vec![s as u8];
        g.flip(&board);
        g.run(&board);
        assert_eq!(g.st.cell[s], BASE);
        if protected {
            // greedy always uses Protection: the disc stays, the power is spent
            assert_eq!(g.st.cell[disc], 0);
            assert_eq!(g.st.powers[0] & PROTECTION, 0);
            assert_eq!(g.st.captured[0], 0);
        } else {
            assert_eq!(g.st.cell[disc], LOST);
            assert_eq!(g.st.captured[0], 1);
            assert!(touching.iter().all(|&ci| g.st.own_cnt(0)[ci] == 0));
            assert_eq!(g.st.score[0], 0, "its points stay scored (none here)");
        }
    }
}

#[test]
fn a_placement_that_destroys_a_base_chains_into_cover() {
    let board = board();
    // s -> b (a base) -> c (any disc): placing on s destroys b; Cover puts the next disc on b
    let (s, b, c) = a_line(&board);
    let mut g = game(&board);
    g.st.cell[b] = BASE;
    g.st.cell[c] = 1;
    let destroyed = place(&board, &mut g.st, 0, s);
    assert_eq!(destroyed.as_slice(), &[b as u8]);
    assert_eq!(g.st.cell[b], EMPTY);
    assert_eq!(g.st.bases[0], 1);
    g.open_window(&board, 0, s, destroyed);
    g.run(&board);
    assert_eq!(g.st.cell[b], 0, "greedy covers the emptied space");
    assert_eq!(g.st.powers[0] & COVER, 0);
    assert_eq!(g.st.placed[0], 2);
}

#[test]
fn global_protection_needs_all_three_requirements() {
    let board = board();
    let mut st = State::new(&board, 2);
    st.city_card = [2, 3, 0, 0];
    st.border_card = [0, 1, 0, 0];
    // value-1 cities, herd spaces and border spaces off the Atlantic (card 0), one disc each
    let value1: Vec<usize> = (0..board.city_value.len())
        .filter(|&ci| board.city_value[ci] == 1)
        .collect();
    let mut chosen = Vec::new();
    let mut v1 = 0;
    for s in 1..=board.n {
        if v1 < board.protection_value1 as usize
            && board
                .space_cities
                .get(s)
                .iter()
                .any(|&ci| value1.contains(&(ci as usize)) && st.own_cnt(0)[ci as usize] == 0)
        {
            place(&board, &mut st, 0, s);
            chosen.push(s);
            v1 = value1.iter().filter(|&&ci| st.own_cnt(0)[ci] > 0).count();
        }
    }
    let herds: Vec<usize> = (1..=board.n)
        .filter(|&s| board.is_herd[s] && st.cell[s] == NONE)
        .take(board.protection_herds as usize)
        .collect();
    for &s in &herds {
        place(&board, &mut st, 0, s);
    }
    let f = final_score(&board, &st, 0);
    let others = (1..=board.n)
        .filter(|&s| st.cell[s] == 0 && board.border_mask[s] != 0 && board.card_border[s] & 1 == 0)
        .count() as i64;
    let borders: Vec<usize> = (1..=board.n)
        .filter(|&s| {
            st.cell[s] == NONE && board.border_mask[s] != 0 && board.card_border[s] & 1 == 0
        })
        .take((board.protection_borders - others).max(0) as usize)
        .collect();
    assert_eq!(
        f.protection,
        if others >= board.protection_borders {
            board.protection_points
        } else {
            0
        }
    );
    for &s in &borders {
        place(&board, &mut st, 0, s);
    }
    let f = final_score(&board, &st, 0);
    assert_eq!(f.protection, board.protection_points);
    // one requirement short: the card scores nothing
    let herd = *herds.last().expect("a herd space");
    remove_disc(&board, &mut st, herd);
    let f = final_score(&board, &st, 0);
    assert_eq!(f.protection, 0);
}

#[test]
fn a_batch_is_the_same_game_by_game_and_rotates_seats() {
    let c = default_components();
    let params = Params {
        players: 3,
        semi_coop: false,
    };
    let mixed = [
        Strategy::Random,
        Strategy::Greedy(GreedyNumbers::DEFAULT),
        Strategy::Missions(MissionsNumbers::DEFAULT),
    ];
    let (all, seats) = play_batch(&c, &params, &mixed, 5, 0, 6).expect("a batch");
    for i in 0..6u64 {
        let (one, _) = play_batch(&c, &params, &mixed, 5, i, i + 1).expect("a batch");
        for (a, b) in all.iter().zip(&one) {
            assert_eq!(a.name, b.name);
            if let (Values::Int(x), Values::Int(y)) = (&a.values, &b.values) {
                assert_eq!(x[i as usize], y[0], "{}", a.name);
            }
        }
    }
    // game 1 starts from the second strategy: seat 0 plays greedy
    let strategy = seats
        .iter()
        .find(|c| c.name == "strategy")
        .expect("strategy");
    if let Values::Int(slots) = &strategy.values {
        assert_eq!(&slots[..6], &[0, 1, 2, 1, 2, 0]);
    } else {
        panic!("strategy is an int column (the cell's strategy slot)");
    }
}

fn rollout(rollouts: usize) -> Strategy {
    Strategy::Rollout {
        missions: MissionsNumbers::DEFAULT,
        rollouts,
        win: 10,
    }
}

/// `cargo test --release bench_games -- --ignored --nocapture`: games per CPU second per strategy
/// and player count (one core). AA_ONLY=<strategy> runs one strategy.
#[test]
#[ignore]
fn bench_games() {
    let c = default_components();
    let board = Board::new(&c).unwrap();
    for (strategy, n) in [
        (Strategy::Random, 30_000u64),
        (Strategy::Greedy(GreedyNumbers::DEFAULT), 30_000),
        (Strategy::Missions(MissionsNumbers::DEFAULT), 10_000),
        (rollout(2), 20),
        (rollout(8), 5),
        (Strategy::Mcts(SearchParams::default()), 2),
    ] {
        if !chosen("AA_ONLY", &strategy) {
            continue;
        }
        for players in [2, 4] {
            let params = Params {
                players,
                semi_coop: false,
            };
            let mut e = Engine::new(&board, params);
            let seats = vec![strategy; players];
            let wall = std::time::Instant::now();
            let start = cpu_seconds(wall);
            for i in 0..n {
                e.play(&seats, 3, i).expect("a game");
            }
            let s = cpu_seconds(wall) - start;
            println!(
                "{strategy:?}, {players} players: {:.1} games/s",
                n as f64 / s
            );
        }
    }
}
