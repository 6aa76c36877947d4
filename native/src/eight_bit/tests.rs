//! Unit tests of the native 8-Bit Invaders rules. Equivalence with the Python engine, game by game,
//! is checked from Python (`tests/native/`); these check rules that are easy to state here.

use std::collections::BTreeSet;

use super::game::{Engine, END_CLEARED, END_LANDED, END_SHOT_DOWN};
use super::rules::{
    bombed, fire, firing_depth, lethal, movement, shift_shields, Dealt, Memo, MoveTable, Tables,
};
use super::search::{resolve, Search};
use super::{play_batch, Alien, Bonus, Components, Numbers, Params, Strategy, PAIR, SUM};
use crate::batch::Values;
use crate::rng::PyRandom;

fn alien(label: &str, type_: u8) -> Alien {
    if let Some(n) = label.strip_prefix('=') {
        let n: u8 = n.parse().unwrap();
        Alien {
            kind: SUM,
            a: n,
            b: 0,
            type_,
            bomber: (12..=15).contains(&n),
            need: n.div_ceil(6),
        }
    } else {
        let mut it = label.split_whitespace().map(|x| x.parse::<u8>().unwrap());
        let (a, b) = (it.next().unwrap(), it.next().unwrap());
        Alien {
            kind: PAIR,
            a,
            b,
            type_,
            bomber: false,
            need: 2,
        }
    }
}

/// Components whose aliens are listed in the order they are dealt (top row first, left to right);
/// `types[i]` the picture type of alien i.
fn components(
    rows: usize,
    columns: usize,
    labels: &[&str],
    types: &[u8],
    shields: &[usize],
) -> Components {
    assert_eq!(labels.len(), rows * columns);
    Components {
        rows,
        columns,
        n_types: *types.iter().max().unwrap() as usize + 1,
        aliens: labels
            .iter()
            .zip(types)
            .map(|(l, &t)| alien(l, t))
            .collect(),
        shield_start: shields.to_vec(),
        bonus_deck: vec![
            Bonus::RapidFire,
            Bonus::TimeSlip,
            Bonus::SmartBomb,
            Bonus::ExtraLife,
            Bonus::RocketFuel,
        ],
        dice_per_turn: 9,
    }
}

/// The default component file's aliens (data/components.toml), in file order.
pub(super) fn default_components() -> Components {
    let labels = [
        "1 2", "1 3", "1 4", "1 5", "1 6", "2 3", "2 4", "2 5", "2 6", "3 4", "3 5", "3 6", "4 5",
        "4 6", "5 6", "=8", "=8", "=8", "=8", "=9", "=9", "=9", "=9", "=10", "=10", "=10", "=10",
        "=11", "=11", "=11", "=11", "=12", "=13", "=14", "=15",
    ];
    let types = [
        0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2, 3,
        4, 0, 1, 2, 3,
    ];
    let mut c = components(5, 7, &labels, &types, &[1, 3, 5]);
    c.bonus_deck = [
        Bonus::RapidFire,
        Bonus::RapidFire,
        Bonus::RapidFire,
        Bonus::TimeSlip,
        Bonus::TimeSlip,
        Bonus::SmartBomb,
        Bonus::SmartBomb,
        Bonus::ExtraLife,
        Bonus::RocketFuel,
    ]
    .to_vec();
    c
}

/// A board: the tables, the aliens dealt in file order, and the occupancy with `empty` places
/// (given as dealt indices) cleared.
struct Board {
    t: Tables,
    d: Dealt,
    occ: u64,
}

fn board(c: &Components, empty: &[usize]) -> Board {
    let t = Tables::new(c).unwrap();
    let mut d = Dealt::new(&t);
    let order: Vec<usize> = (0..t.n_aliens).collect();
    d.deal(&t, &order);
    let mut occ = (1u64 << t.n_aliens) - 1;
    for &i in empty {
        occ &= !(1u64 << pos_of(&t, i));
    }
    Board { t, d, occ }
}

/// The position bit of the i-th alien dealt.
fn pos_of(t: &Tables, i: usize) -> usize {
    let (row_from_top, c) = (i / t.columns, i % t.columns);
    c * t.rows + (t.rows - 1 - row_from_top)
}

fn masks_of(b: &Board, shields: u16, dice: &[u8]) -> BTreeSet<u64> {
    let mut memo = Memo::new(&b.t.reqs);
    let mut s = Search::new();
    s.full(&b.t, &b.d, &mut memo, b.occ, shields, dice);
    let masks: BTreeSet<u64> = s.plans.iter().map(|w| w.mask).collect();
    assert_eq!(masks.len(), s.plans.len(), "one witness per mask");
    masks
}

#[test]
fn one_column_kill_sets_and_stepping_stone() {
    // one column: bottom "1 2", top "3 4"
    let c = components(2, 1, &["3 4", "1 2"], &[0, 1], &[]);
    let b = board(&c, &[]);
    let (top, bottom) = (1u64 << 1, 1u64 << 0);
    assert_eq!(
        masks_of(&b, 0, &[1, 2, 3, 4]),
        BTreeSet::from([0, bottom, top, top | bottom])
    );
    assert_eq!(masks_of(&b, 0, &[1, 2, 3]), BTreeSet::from([0, bottom]));
    // the top alone behind a stepping stone on the bottom (the 5)
    assert_eq!(masks_of(&b, 0, &[3, 4, 5]), BTreeSet::from([0, top]));
    // no die left for a stone
    assert_eq!(masks_of(&b, 0, &[3, 4]), BTreeSet::from([0]));
    // a shield under the column blocks every chain
    assert_eq!(masks_of(&b, 1, &[1, 2, 3, 4]), BTreeSet::from([0]));

    let mut memo = Memo::new(&b.t.reqs);
    let mut s = Search::new();
    let dice = [5, 3, 4];
    s.full(&b.t, &b.d, &mut memo, b.occ, 0, &dice);
    let w = s.plans.iter().find(|w| w.mask == top).unwrap();
    assert_eq!(resolve(w, &dice, &b.d), (top, 0b111));
}

#[test]
fn stone_on_a_one_die_sum_card_kills_it() {
    // bottom "=5" (one die can kill it), top "1 2": the plan "top behind a stone" puts the spare 5
    // on the bottom, which kills it too (`rules.kills` judges the placement, not the plan).
    let c = components(2, 1, &["1 2", "=5"], &[0, 1], &[]);
    let b = board(&c, &[]);
    let (top, bottom) = (1u64 << 1, 1u64 << 0);
    let dice = [1, 2, 5];
    assert_eq!(
        masks_of(&b, 0, &dice),
        BTreeSet::from([0, bottom, top, top | bottom])
    );
    let mut memo = Memo::new(&b.t.reqs);
    let mut s = Search::new();
    s.full(&b.t, &b.d, &mut memo, b.occ, 0, &dice);
    let w = s.plans.iter().find(|w| w.mask == top).unwrap();
    assert_eq!(resolve(w, &dice, &b.d).0, top | bottom);
}

#[test]
fn side_columns_and_witness_dice() {
    // 2 rows x 3 columns, dealt top row first:
    //   top:    "5 6"  "=8"  "1 3"
    //   bottom: "1 2"  "3 4" "2 6"
    let c = components(
        2,
        3,
        &["5 6", "=8", "1 3", "1 2", "3 4", "2 6"],
        &[0, 1, 2, 3, 4, 0],
        &[],
    );
    let b = board(&c, &[]);
    let p = |i| 1u64 << pos_of(&b.t, i);
    // dice 3 4 1 2: the middle bottom (3 4) then its left neighbour (1 2); the left column alone
    // starts at its own bottom; "=8" (3 4 1) above a stone (the 2) on the middle bottom; "1 3" at
    // the top right behind two stones (middle bottom, then "2 6" beside it)
    let m = masks_of(&b, 0, &[3, 4, 1, 2]);
    assert_eq!(m, BTreeSet::from([0, p(3), p(4), p(3) | p(4), p(1), p(2)]));
    // a shield under the middle blocks only the first die: a chain started at column 1 may still
    // step into it and kill "3 4"; shields under every column block everything
    let m = masks_of(&b, 0b010, &[3, 4, 1, 2, 2, 6]);
    assert!(m.contains(&p(4)) && m.contains(&(p(3) | p(4))));
    assert_eq!(
        masks_of(&b, 0b111, &[3, 4, 1, 2, 2, 6]),
        BTreeSet::from([0])
    );
}

/// `rules.placement_error` on the set of diced positions, and `rules.kills`, for brute force.
fn legal(t: &Tables, occ: u64, shields: u16, diced: u64) -> bool {
    if diced == 0 {
        return true;
    }
    let rows = t.rows;
    let at = |c: usize, r: usize| diced >> (c * rows + r) & 1 == 1;
    let occupied = |c: usize, r: usize| occ >> (c * rows + r) & 1 == 1;
    for c in 0..t.columns {
        if diced & t.col_mask[c] == 0 || shields >> c & 1 == 1 {
            continue;
        }
        let rows_c: Vec<usize> = (0..rows).filter(|&r| occupied(c, r)).collect();
        let diced_c: Vec<usize> = (0..rows).filter(|&r| at(c, r)).collect();
        if diced_c[..] != rows_c[..diced_c.len()] {
            continue;
        }
        let mut ok = true;
        'check: for cc in 0..t.columns {
            for r in 0..rows {
                if cc == c || !at(cc, r) {
                    continue;
                }
                if cc.abs_diff(c) != 1 {
                    ok = false;
                    break 'check;
                }
                if at(c, r) {
                    continue;
                }
                match (0..r).rev().find(|&rr| occupied(cc, rr)) {
                    Some(rr) if at(cc, rr) => {}
                    _ => {
                        ok = false;
                        break 'check;
                    }
                }
            }
        }
        if ok {
            return true;
        }
    }
    false
}

fn brute_force(b: &Board, comp: &Components, shields: u16, dice: &[u8]) -> BTreeSet<u64> {
    let positions: Vec<usize> = (0..64).filter(|&p| b.occ >> p & 1 == 1).collect();
    let choices = positions.len() + 1;
    let mut out = BTreeSet::new();
    let total = choices.pow(dice.len() as u32);
    for mut code in 0..total {
        let mut on: Vec<Vec<u8>> = vec![vec![]; 64];
        let mut diced = 0u64;
        for &v in dice {
            let k = code % choices;
            code /= choices;
            if k > 0 {
                let p = positions[k - 1];
                on[p].push(v);
                diced |= 1 << p;
            }
        }
        if !legal(&b.t, b.occ, shields, diced) {
            continue;
        }
        let mut kills = 0u64;
        for &p in &positions {
            if on[p].is_empty() {
                continue;
            }
            let a = &comp.aliens[b.d.pos_alien[p] as usize];
            let vals = &on[p];
            let hit = if a.kind == PAIR {
                vals.len() == 2
                    && *vals.iter().min().unwrap() == a.a
                    && *vals.iter().max().unwrap() == a.b
            } else {
                vals.iter().map(|&v| v as u32).sum::<u32>() == a.a as u32
            };
            if hit {
                kills |= 1 << p;
            }
        }
        out.insert(kills);
    }
    out
}

#[test]
fn kill_sets_match_brute_force_and_witnesses_are_legal() {
    // 3 rows x 3 columns of default-like cards (pairs and sums over 6: a stone never kills)
    let labels = ["1 2", "=8", "3 4", "5 6", "=9", "1 3", "2 5", "4 6", "=7"];
    let c = components(3, 3, &labels, &[0, 1, 2, 0, 1, 2, 0, 1, 2], &[]);
    let mut rng = PyRandom::from_words(&[12345]);
    for case in 0..60 {
        let mut empty = vec![];
        for i in 0..9 {
            if rng.random() < 0.2 {
                empty.push(i);
            }
        }
        let b = board(&c, &empty);
        let shields = rng.randbelow(8) as u16 & if case % 2 == 0 { 0b010 } else { 0b101 };
        let ndice = 3 + rng.randbelow(2);
        let dice: Vec<u8> = (0..ndice).map(|_| rng.d6()).collect();
        let mut memo = Memo::new(&b.t.reqs);
        let mut s = Search::new();
        let found = masks_of(&b, shields, &dice);
        assert_eq!(
            found,
            brute_force(&b, &c, shields, &dice),
            "case {case}: dice {dice:?} empty {empty:?}"
        );
        s.full(&b.t, &b.d, &mut memo, b.occ, shields, &dice);
        for w in &s.plans {
            let (kills, used) = resolve(w, &dice, &b.d);
            assert_eq!(kills, w.mask);
            let mut diced = w.mask;
            for k in 0..w.nstones as usize {
                diced |= 1 << w.stones[k];
            }
            assert!(
                legal(&b.t, b.occ, shields, diced),
                "case {case}: illegal witness {w:?}"
            );
            let stones = w.nstones as u32;
            assert!(used.count_ones() >= stones + 2 * (w.mask != 0) as u32);
        }
        // greedy: a plan with the most kills, one that survives if any such does
        let g = s.greedy(&b.t, &b.d, &mut memo, b.occ, shields, &dice);
        let most = found.iter().map(|m| m.count_ones()).max().unwrap();
        let gm = g.map_or(0, |w| w.mask);
        assert_eq!(gm.count_ones(), most, "case {case}");
        let survives = |m: u64| !lethal(&b.t, &b.d, &fire(&b.t, b.occ & !m), shields);
        if found.iter().any(|&m| m.count_ones() == most && survives(m)) {
            assert!(survives(gm));
        }
    }
}

/// `Search::masks` and `Search::first_witness` against `Search::full`: the same set of kill masks
/// and, for every mask, the same first witness (dice left and stones, in order), on random deals,
/// gaps, shields and rolls of 1 to 10 dice. Two component files: the default one, and one with
/// one-die sum cards (min_need 1, stones on killable aliens) and cards no roll here can kill.
#[test]
fn masks_and_first_witness_match_the_full_enumeration() {
    let small = [
        "=2", "=5", "1 2", "=9", "=4", "3 6", "=6", "=13", "=17", "2 4", "=3", "=8", "4 5", "=1",
        "=11", "5 6", "=7", "1 6", "=15", "=6",
    ];
    let small_types: Vec<u8> = (0..20).map(|i| (i % 5) as u8).collect();
    let files = [
        default_components(),
        components(4, 5, &small, &small_types, &[0, 2]),
    ];
    let mut rng = PyRandom::from_words(&[2026, 12, 1]);
    let (mut plans, mut cases) = (0usize, 0usize);
    for c in &files {
        let t = Tables::new(c).unwrap();
        let mut d = Dealt::new(&t);
        let mut memo = Memo::new(&t.reqs);
        let (mut full, mut fast) = (Search::new(), Search::new());
        for case in 0..1500 {
            let mut order: Vec<usize> = (0..t.n_aliens).collect();
            rng.shuffle(&mut order);
            d.deal(&t, &order);
            let gap = [0.0, 0.2, 0.5, 0.8][case % 4];
            let mut occ = 0u64;
            for i in 0..t.n_aliens {
                if rng.random() >= gap {
                    occ |= 1 << pos_of(&t, i);
                }
            }
            let shields = (rng.randbelow(1 << t.columns) & rng.randbelow(1 << t.columns)) as u16;
            let ndice = 1 + rng.randbelow(10);
            let dice: Vec<u8> = (0..ndice).map(|_| rng.d6()).collect();
            full.full(&t, &d, &mut memo, occ, shields, &dice);
            fast.masks(&t, &d, &mut memo, occ, shields, &dice);
            let want: BTreeSet<u64> = full.plans.iter().map(|w| w.mask).collect();
            let got: BTreeSet<u64> = fast.masks.iter().copied().collect();
            let why = format!("case {case}: occ {occ:#x} shields {shields:#b} dice {dice:?}");
            assert_eq!(got.len(), fast.masks.len(), "{why}: a mask twice");
            assert_eq!(got, want, "{why}");
            for w in &full.plans {
                let f = fast.first_witness(&t, &d, &mut memo, occ, shields, &dice, w.mask);
                let n = w.nstones as usize;
                assert_eq!(
                    (f.mask, f.leaf, &f.stones[..f.nstones as usize]),
                    (w.mask, w.leaf, &w.stones[..n]),
                    "{why}"
                );
            }
            plans += full.plans.len();
            cases += 1;
        }
    }
    // the cases are not all trivial
    assert!(plans > 20 * cases, "{plans} plans in {cases} cases");
}

#[test]
fn counterattack_depth_by_column_count() {
    assert_eq!(
        (1..=7).map(firing_depth).collect::<Vec<_>>(),
        vec![3, 3, 2, 2, 1, 1, 1]
    );
    let c = default_components();
    let b = board(&c, &[]);
    let t = &b.t;
    let col = |cs: &[usize]| cs.iter().fold(0u64, |m, &c| m | t.col_mask[c]);
    // all 7 columns: the bottom alien of each
    let f = fire(t, b.occ);
    assert_eq!(f.firing.count_ones(), 7);
    assert_eq!(f.firing, f.bottom);
    // 4 columns: the bottom two of each
    let f = fire(t, b.occ & col(&[0, 2, 4, 6]));
    assert_eq!(f.firing.count_ones(), 8);
    assert_eq!(f.living, 0b1010101);
    // 2 columns, one with only two aliens: the bottom 3 (or all it has)
    let f = fire(t, b.occ & col(&[1, 5]) & !(0b111 << 5));
    assert_eq!(f.firing.count_ones(), 5);
    // empty spaces are skipped: a column with its bottom alien gone fires from the next
    let f = fire(t, b.occ & !1);
    assert_eq!(f.bottom & t.col_mask[0], 0b10);
}

#[test]
fn three_of_a_type_unshielded_is_lethal() {
    // one row of 5 columns: types 0 0 0 1 2 -> lethal unless a shield covers one of the three
    let c = components(
        1,
        5,
        &["1 2", "1 3", "1 4", "1 5", "1 6"],
        &[0, 0, 0, 1, 2],
        &[],
    );
    let b = board(&c, &[]);
    let f = fire(&b.t, b.occ);
    assert!(lethal(&b.t, &b.d, &f, 0));
    assert!(!lethal(&b.t, &b.d, &f, 0b00010));
    assert!(lethal(&b.t, &b.d, &f, 0b01000));
}

#[test]
fn shield_shift_bounds() {
    // shields under columns 2, 4, 6 (0-based 1, 3, 5) of 7
    let s = 0b0101010;
    assert_eq!(shift_shields(s, 0, 6, true), 0b1010100);
    assert_eq!(shift_shields(s, 0, 6, false), 0b0010101);
    // the outermost non-empty column bounds the move on that side
    assert_eq!(shift_shields(s, 0, 5, true), s);
    assert_eq!(shift_shields(s, 1, 6, false), s);
    assert_eq!(shift_shields(0b1000000, 0, 6, true), 0b1000000);
    assert_eq!(shift_shields(0b0000001, 0, 6, false), 0b0000001);
    assert_eq!(shift_shields(0, 0, 6, true), 0);
}

#[test]
fn movement_parity_is_the_faces() {
    // Rocket Fuel: one die showing 4 advances 3 and moves the shields left; a 3 advances 2, right
    assert_eq!(movement(&[4]), (3, false));
    assert_eq!(movement(&[3]), (2, true));
    // two dice: the parity of the advance
    assert_eq!(movement(&[3, 4]), (5, true));
    assert_eq!(movement(&[6, 6]), (10, false));
}

#[test]
fn movement_tables_match_python_bits() {
    // players.MOVE_TWO / MOVE_ONE probabilities summed left to right, as printed by CPython
    let two: [u64; 12] = [
        0x3ff0000000000001,
        0x3fef1c71c71c71c8,
        0x3fed555555555556,
        0x3feaaaaaaaaaaaac,
        0x3fe71c71c71c71c8,
        0x3fe2aaaaaaaaaaab,
        0x3fdaaaaaaaaaaaaa,
        0x3fd1c71c71c71c71,
        0x3fc5555555555556,
        0x3fb5555555555555,
        0x3f9c71c71c71c71c,
        0x0,
    ];
    let one: [u64; 7] = [
        0x3fefffffffffffff,
        0x3feaaaaaaaaaaaaa,
        0x3fe5555555555555,
        0x3fe0000000000000,
        0x3fd5555555555555,
        0x3fc5555555555555,
        0x0,
    ];
    let t2 = MoveTable::new(2);
    let t1 = MoveTable::new(1);
    assert_eq!(
        t2.p_card_from
            .iter()
            .map(|p| p.to_bits())
            .collect::<Vec<_>>(),
        two
    );
    assert_eq!(
        t1.p_card_from
            .iter()
            .map(|p| p.to_bits())
            .collect::<Vec<_>>(),
        one
    );
    assert_eq!(t2.step, (0..=10).collect::<Vec<_>>());
    assert_eq!(t1.right, vec![true, false, true, false, true, false]);
    assert_eq!(t2.p_side, [0.5, 0.5]);
    assert_eq!(t2.p_card(3, 5), t2.p_card_from[2]);
    assert_eq!(t2.p_card(0, 11), 0.0);
}

#[test]
fn bomber_over_a_shield_destroys_it() {
    // 2 rows x 3 columns; bottom row "=12" (bomber), "=13" (bomber), "1 2"
    let c = components(
        2,
        3,
        &["1 3", "=8", "1 4", "=12", "=13", "1 2"],
        &[0, 1, 2, 0, 1, 2],
        &[],
    );
    let b = board(&c, &[]);
    let f = fire(&b.t, b.occ);
    assert_eq!(bombed(&b.t, &b.d, &f, 0b111), 0b011);
    assert_eq!(bombed(&b.t, &b.d, &f, 0b100), 0);
    // the bomber of column 1 killed: the "1 3" above it is the bottom now, the shield stays
    let f = fire(&b.t, b.occ & !(1 << pos_of(&b.t, 3)));
    assert_eq!(bombed(&b.t, &b.d, &f, 0b011), 0b010);
    // a shield under an empty column is not bombed
    let f = fire(&b.t, b.occ & !b.t.col_mask[1]);
    assert_eq!(bombed(&b.t, &b.d, &f, 0b010), 0);
}

#[test]
fn games_finish_and_columns_are_in_record_order() {
    let c = default_components();
    for strategy in [Strategy::Greedy, Strategy::Random, Strategy::Lookahead] {
        let cols = play_batch(
            &c,
            &Params {
                countdown: 7,
                dice: 6,
            },
            strategy,
            &Numbers::default(),
            5,
            10,
            40,
        )
        .unwrap();
        let names: Vec<&str> = cols.iter().map(|c| c.name).collect();
        assert_eq!(
            names,
            [
                "won",
                "score",
                "length",
                "end_reason",
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
                "countdown_removed"
            ]
        );
        assert!(cols.iter().all(|c| c.len() == 30));
        let ints = |i: usize| match &cols[i].values {
            Values::Int(v) => v.clone(),
            other => panic!("{other:?}"),
        };
        let (score, aliens_left) = (ints(1), ints(4));
        assert!(score.iter().zip(&aliens_left).all(|(s, a)| s + a == 35));
        if let Values::Label(codes, labels) = &cols[3].values {
            assert_eq!(*labels, &["cleared", "shot_down", "landed"]);
            assert!(codes
                .iter()
                .all(|&c| c == END_CLEARED || c == END_SHOT_DOWN || c == END_LANDED));
        } else {
            panic!("end_reason is a label column");
        }
    }
}

#[test]
fn a_game_is_a_function_of_its_seed_and_index() {
    let c = default_components();
    let t = Tables::new(&c).unwrap();
    let params = Params {
        countdown: 6,
        dice: 5,
    };
    let mut e = Engine::new(&t, params, Strategy::Lookahead);
    let a: Vec<_> = (0..20).map(|i| e.play(9, i).unwrap()).collect();
    let mut e2 = Engine::new(&t, params, Strategy::Lookahead);
    let b: Vec<_> = (0..20).rev().map(|i| e2.play(9, i).unwrap()).collect();
    assert!(a.iter().eq(b.iter().rev()));
}

#[test]
fn unsupported_components_are_refused() {
    let mut c = default_components();
    c.rows = 9;
    c.columns = 9;
    c.aliens = (0..81).map(|i| alien("1 2", (i % 5) as u8)).collect();
    let err = play_batch(
        &c,
        &Params {
            countdown: 7,
            dice: 6,
        },
        Strategy::Greedy,
        &Numbers::default(),
        1,
        3,
        5,
    )
    .unwrap_err();
    assert_eq!(err.game_index, 3);
}

#[test]
fn lazily_seeded_streams_are_seeds_streams() {
    use super::game::Rngs;
    use crate::rng::{game_sequence, stream, streams, CHANCE, FIRST_SEAT, SETUP};
    for (root, index) in [(1u64, 0u64), (7, 12345), (u64::MAX, 3)] {
        let seq = game_sequence(root, index);
        let mut reference = streams(&seq, 3, &[CHANCE]);
        reference.push(stream(&seq, &[SETUP]));
        reference.push(stream(&seq, &[FIRST_SEAT]));
        let mut r = Rngs::new(root, index, true);
        for _ in 0..5 {
            assert_eq!(r.attack.next_u32(), reference[0].next_u32());
            assert_eq!(r.movement.next_u32(), reference[1].next_u32());
            assert_eq!(r.misc().next_u32(), reference[2].next_u32());
            assert_eq!(r.setup.next_u32(), reference[3].next_u32());
            assert_eq!(
                r.player.as_mut().unwrap().next_u32(),
                reference[4].next_u32()
            );
        }
    }
}

/// `cargo test --release bench_games -- --ignored --nocapture`: games a second per strategy
/// (`EB_ONLY=random`: one strategy; `EB_N=2000`: that many games of each, e.g. under callgrind).
#[test]
#[ignore]
fn bench_games() {
    let c = default_components();
    let t = Tables::new(&c).unwrap();
    let games: Option<u64> = std::env::var("EB_N")
        .ok()
        .map(|n| n.parse().unwrap_or(2_000));
    for (strategy, n) in [
        (Strategy::Greedy, 50_000u64),
        (Strategy::Random, 50_000),
        (Strategy::Lookahead, 10_000),
        (Strategy::Mcts, 20),
    ] {
        if !crate::test_clock::chosen("EB_ONLY", &strategy) {
            continue;
        }
        let n = games.unwrap_or(n);
        let mut e = Engine::new(
            &t,
            Params {
                countdown: 7,
                dice: 6,
            },
            strategy,
        );
        if strategy == Strategy::Mcts {
            let p = super::SearchParams::default();
            e.searcher = Some(Box::new(super::forward::Searcher::new(&e, &p)));
        }
        let start = std::time::Instant::now();
        for i in 0..n {
            e.play(3, i).unwrap();
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "{strategy:?}: {:.0} games/s; memo {} ids, {} options",
            n as f64 / s,
            e.memo.packed.len(),
            e.memo.opts.len()
        );
    }
}

#[test]
#[ignore]
fn bench_rng_floor() {
    use super::game::Rngs;
    let n = 50_000u64;
    let start = std::time::Instant::now();
    let mut acc = 0u64;
    for i in 0..n {
        let mut r = Rngs::new(3, i, true);
        let mut order: Vec<usize> = (0..35).collect();
        r.setup.shuffle(&mut order);
        for _ in 0..60 {
            acc += r.attack.d6() as u64;
        }
        for _ in 0..12 {
            acc += r.movement.d6() as u64;
        }
        acc += r.player.as_mut().unwrap().next_u32() as u64;
    }
    println!(
        "rng floor (4 streams): {:.0} games/s ({acc})",
        n as f64 / start.elapsed().as_secs_f64()
    );
}

/// A batch after another (warm tables and memo, see `play_batch`) gives the rows a cold batch
/// gives: two halves equal the whole, also after a batch of other components in between.
#[test]
fn warm_batches_give_the_rows_of_cold_ones() {
    let c = default_components();
    let mut other = c.clone();
    other.aliens.swap(0, 1);
    let params = Params {
        countdown: 7,
        dice: 6,
    };
    for strategy in [Strategy::Random, Strategy::Greedy, Strategy::Lookahead] {
        let whole = play_batch(&c, &params, strategy, &Numbers::default(), 5, 0, 60).unwrap();
        play_batch(&other, &params, strategy, &Numbers::default(), 5, 0, 3).unwrap(); // the cache now holds other's
        let first = play_batch(&c, &params, strategy, &Numbers::default(), 5, 0, 30).unwrap();
        let second = play_batch(&c, &params, strategy, &Numbers::default(), 5, 30, 60).unwrap(); // warm
        for ((w, a), b) in whole.iter().zip(&first).zip(&second) {
            let joined = match (&a.values, &b.values) {
                (Values::Bool(x), Values::Bool(y)) => Values::Bool([x.clone(), y.clone()].concat()),
                (Values::Int(x), Values::Int(y)) => Values::Int([x.clone(), y.clone()].concat()),
                (Values::Label(x, l), Values::Label(y, _)) => {
                    Values::Label([x.clone(), y.clone()].concat(), l)
                }
                _ => panic!("column {} changed type", w.name),
            };
            assert_eq!(w.values, joined, "{strategy:?} column {}", w.name);
        }
    }
}
