//! The rules as bit operations over a fixed board (`rules.py`'s formation helpers): a position is
//! bit `c * rows + r` of a `u64` (column c from the left, row r from the bottom), shields are a
//! bitmask of columns. Also the per-batch tables: alien requirements, the memo of kill options
//! (`rules.kill_options`) and the movement tables of the lookahead player (`players.MOVE_TWO`,
//! `players.MOVE_ONE`).

use std::collections::{BTreeMap, HashMap};

use super::{Bonus, Components, PAIR, SUM};

/// The most positions a formation may have here (one `u64`); larger ones are refused.
pub const MAX_POSITIONS: usize = 64;
/// Loader bounds (`components.py`): 1..=9 rows and columns.
pub const MAX_ROWS: usize = 9;
pub const MAX_COLUMNS: usize = 9;
/// Dice counts are packed 5 bits a face, so at most 31 dice of one face.
pub const MAX_DICE: usize = 31;

/// A printed requirement: the aliens sharing one share their kill options (as in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Req {
    pub kind: u8,
    pub a: u8,
    pub b: u8,
}

/// Bonus cards as indices into a hand of counts (the hand's order is never observed).
pub const RAPID_FIRE: usize = 0;
pub const TIME_SLIP: usize = 1;
pub const SMART_BOMB: usize = 2;
pub const EXTRA_LIFE: usize = 3;
pub const ROCKET_FUEL: usize = 4;

pub fn bonus_index(b: Bonus) -> usize {
    match b {
        Bonus::RapidFire => RAPID_FIRE,
        Bonus::TimeSlip => TIME_SLIP,
        Bonus::SmartBomb => SMART_BOMB,
        Bonus::ExtraLife => EXTRA_LIFE,
        Bonus::RocketFuel => ROCKET_FUEL,
    }
}

/// What a batch shares: the component file turned into tables.
pub struct Tables {
    pub rows: usize,
    pub columns: usize,
    pub n_aliens: usize,
    pub n_types: usize,
    pub row_mask: u64,
    pub col_mask: [u64; MAX_COLUMNS],
    /// Positions covered by each set of shield columns (indexed by the column mask).
    pub shield_pos: Vec<u64>,
    pub reqs: Vec<Req>,
    pub alien_req: Vec<u8>,
    pub alien_type: Vec<u8>,
    pub alien_bomber: Vec<bool>,
    pub alien_need: Vec<u8>,
    /// SUM total of an alien when one die can kill it (total <= 6), else 0.
    pub alien_single: Vec<u8>,
    pub shield_start: u16,
    pub bonus_deck: Vec<usize>,
    pub dice_per_turn: usize,
    pub move_two: MoveTable,
    pub move_one: MoveTable,
}

impl Tables {
    pub fn new(comp: &Components) -> Result<Tables, String> {
        let (rows, columns) = (comp.rows, comp.columns);
        if rows == 0 || columns == 0 || rows > MAX_ROWS || columns > MAX_COLUMNS {
            return Err(format!("formation {rows}x{columns} outside 1..=9 x 1..=9"));
        }
        if rows * columns > MAX_POSITIONS {
            return Err(format!(
                "formation {rows}x{columns} has more than {MAX_POSITIONS} places"
            ));
        }
        if comp.aliens.len() != rows * columns {
            return Err(format!(
                "{} aliens for a {rows}x{columns} formation",
                comp.aliens.len()
            ));
        }
        if comp.n_types == 0 || comp.n_types > MAX_POSITIONS {
            return Err(format!("{} picture types", comp.n_types));
        }
        if comp.dice_per_turn > MAX_DICE {
            return Err(format!(
                "{} dice a turn (at most {MAX_DICE})",
                comp.dice_per_turn
            ));
        }
        let mut shield_start = 0u16;
        for &c in &comp.shield_start {
            if c >= columns {
                return Err(format!("shield under column {c} of {columns}"));
            }
            shield_start |= 1 << c;
        }
        let mut reqs: Vec<Req> = Vec::new();
        let mut alien_req = Vec::new();
        let mut alien_type = Vec::new();
        let mut alien_bomber = Vec::new();
        let mut alien_need = Vec::new();
        let mut alien_single = Vec::new();
        for (i, a) in comp.aliens.iter().enumerate() {
            let ok = match a.kind {
                PAIR => 1 <= a.a && a.a < a.b && a.b <= 6,
                SUM => (1..=63).contains(&a.a),
                _ => false,
            };
            if !ok || a.need == 0 || (a.type_ as usize) >= comp.n_types {
                return Err(format!("alien {i} malformed: {a:?}"));
            }
            let req = Req {
                kind: a.kind,
                a: a.a,
                b: if a.kind == PAIR { a.b } else { 0 },
            };
            let id = match reqs.iter().position(|r| *r == req) {
                Some(id) => id,
                None => {
                    reqs.push(req);
                    reqs.len() - 1
                }
            };
            alien_req.push(id as u8);
            alien_type.push(a.type_);
            alien_bomber.push(a.bomber);
            alien_need.push(a.need);
            alien_single.push(if a.kind == SUM && a.a <= 6 { a.a } else { 0 });
        }
        if reqs.len() > 128 {
            return Err(format!(
                "{} distinct requirements (at most 128)",
                reqs.len()
            ));
        }
        let mut col_mask = [0u64; MAX_COLUMNS];
        let row_mask = (1u64 << rows) - 1;
        for (c, m) in col_mask.iter_mut().enumerate().take(columns) {
            *m = row_mask << (c * rows);
        }
        let shield_pos = (0..1usize << columns)
            .map(|s| {
                (0..columns)
                    .filter(|c| s >> c & 1 == 1)
                    .fold(0u64, |acc, c| acc | col_mask[c])
            })
            .collect();
        Ok(Tables {
            rows,
            columns,
            n_aliens: comp.aliens.len(),
            n_types: comp.n_types,
            row_mask,
            col_mask,
            shield_pos,
            reqs,
            alien_req,
            alien_type,
            alien_bomber,
            alien_need,
            alien_single,
            shield_start,
            bonus_deck: comp.bonus_deck.iter().map(|&b| bonus_index(b)).collect(),
            dice_per_turn: comp.dice_per_turn,
            move_two: MoveTable::new(2),
            move_one: MoveTable::new(1),
        })
    }
}

// --- dice counts ---------------------------------------------------------------------------------

/// Dice counts by face packed 6 bits a face (face f at bits 6(f-1), at most 31 of a face, bit 5 of
/// each field kept clear): `fits` tests a sub-multiset with one subtraction (SWAR), and taking one
/// away never borrows.
#[inline]
pub fn face_shift(face: u8) -> u32 {
    6 * (face as u32 - 1)
}

#[inline]
pub fn face_count(packed: u64, face: u8) -> u32 {
    ((packed >> face_shift(face)) & 31) as u32
}

pub fn pack_dice(dice: &[u8]) -> u64 {
    dice.iter().fold(0u64, |acc, &d| acc + (1 << face_shift(d)))
}

/// Bit 5 of each face's field.
const GUARD: u64 = 0x0000_0008_2082_0820;

/// Every face of `used` is in `counts`.
#[inline(always)]
pub fn fits(counts: u64, used: u64) -> bool {
    ((counts | GUARD) - used) & GUARD == GUARD
}

/// One way to kill an alien from a roll: the dice it uses.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    pub used: u64,
    pub n_used: u8,
}

/// `rules.kill_options` memoised per (roll, requirement) for the whole batch, for whole rolls
/// only: the options from a part of the roll are those of the whole roll that fit in the part, in
/// the same order (`_sub_multisets` lists them in descending lexicographic order of the counts of
/// faces 6..1, and a subset of the dice only drops some).
pub struct Memo {
    n_reqs: usize,
    reqs: Vec<Req>,
    ids: HashMap<u64, u32>,
    pub packed: Vec<u64>,
    /// Per (roll id, requirement): a range of `opts`, or (UNSET, 0).
    slots: Vec<(u32, u32)>,
    killable: Vec<u128>,
    pub opts: Vec<Opt>,
    tmp: Vec<u64>,
}

const UNSET: u32 = u32::MAX;

impl Memo {
    pub fn new(reqs: &[Req]) -> Memo {
        Memo {
            n_reqs: reqs.len(),
            reqs: reqs.to_vec(),
            ids: HashMap::new(),
            packed: Vec::new(),
            slots: Vec::new(),
            killable: Vec::new(),
            opts: Vec::new(),
            tmp: Vec::new(),
        }
    }

    pub fn id(&mut self, packed: u64) -> u32 {
        if let Some(&i) = self.ids.get(&packed) {
            return i;
        }
        let i = self.packed.len() as u32;
        self.ids.insert(packed, i);
        self.packed.push(packed);
        self.slots
            .extend(std::iter::repeat_n((UNSET, 0), self.n_reqs));
        self.killable.push(u128::MAX);
        i
    }

    /// The options (a range of `opts`) of killing an alien of requirement `req` with the roll
    /// `id`, in `rules._compute_options`'s order.
    pub fn options(&mut self, id: u32, req: u8) -> (u32, u32) {
        let s = self.slots[id as usize * self.n_reqs + req as usize];
        if s.0 != UNSET {
            return s;
        }
        let packed = self.packed[id as usize];
        let mut counts = [0u8; 7];
        for f in 1..=6u8 {
            counts[f as usize] = face_count(packed, f) as u8;
        }
        let r = self.reqs[req as usize];
        let mut found = std::mem::take(&mut self.tmp);
        found.clear();
        if r.kind == PAIR {
            if counts[r.a as usize] > 0 && counts[r.b as usize] > 0 {
                found.push((1 << face_shift(r.a)) + (1 << face_shift(r.b)));
            }
        } else {
            sub_multisets(&counts, r.a as u32, &mut found);
        }
        let start = self.opts.len() as u32;
        for &used in &found {
            let n_used = (1..=6u8).map(|f| face_count(used, f)).sum::<u32>() as u8;
            self.opts.push(Opt { used, n_used });
        }
        let s = (start, found.len() as u32);
        self.tmp = found;
        self.slots[id as usize * self.n_reqs + req as usize] = s;
        s
    }

    /// The options of every requirement for the roll `id` (`options`), once `killable_reqs(id)`
    /// has worked them out.
    pub fn ranges(&self, id: u32) -> &[(u32, u32)] {
        let row = &self.slots[id as usize * self.n_reqs..(id as usize + 1) * self.n_reqs];
        debug_assert!(row.iter().all(|s| s.0 != UNSET), "killable_reqs first");
        row
    }

    /// Bit r set when roll `id` can kill an alien of requirement r (`rules.killable_mask`).
    pub fn killable_reqs(&mut self, id: u32) -> u128 {
        let k = self.killable[id as usize];
        if k != u128::MAX {
            return k;
        }
        let mut k = 0u128;
        for r in 0..self.n_reqs {
            if self.options(id, r as u8).1 > 0 {
                k |= 1 << r;
            }
        }
        self.killable[id as usize] = k;
        k
    }
}

/// `rules._sub_multisets`: every non-empty sub-multiset of `counts` with the given total, faces
/// from 6 down, most of each face first; each pushed as packed counts.
pub fn sub_multisets(counts: &[u8; 7], total: u32, out: &mut Vec<u64>) {
    fn walk(counts: &[u8; 7], face: u8, left: u32, chosen: u64, out: &mut Vec<u64>) {
        if left == 0 {
            if chosen != 0 {
                out.push(chosen);
            }
            return;
        }
        if face == 0 {
            return;
        }
        let kmax = (counts[face as usize] as u32).min(left / face as u32);
        for k in (0..=kmax).rev() {
            walk(
                counts,
                face - 1,
                left - k * face as u32,
                chosen + ((k as u64) << face_shift(face)),
                out,
            );
        }
    }
    walk(counts, 6, total, 0, out);
}

// --- one game's dealt formation --------------------------------------------------------------------

/// Per game: which alien lies where, and position masks derived from it (aliens never move; a
/// kill only clears the position from the occupancy).
#[derive(Clone, Debug)]
pub struct Dealt {
    pub pos_alien: [u8; MAX_POSITIONS],
    pub pos_req: [u8; MAX_POSITIONS],
    pub pos_single: [u8; MAX_POSITIONS],
    pub type_mask: Vec<u64>,
    pub bomber_mask: u64,
    /// Positions whose alien needs k dice (k = 1..=6; more than 6 counts as 6, as `min(6, ...)`).
    pub need_mask: [u64; 7],
    /// Positions of the aliens of each requirement.
    pub req_mask: Vec<u64>,
}

impl Dealt {
    pub fn new(t: &Tables) -> Dealt {
        Dealt {
            pos_alien: [u8::MAX; MAX_POSITIONS],
            pos_req: [0; MAX_POSITIONS],
            pos_single: [0; MAX_POSITIONS],
            type_mask: vec![0; t.n_types],
            bomber_mask: 0,
            need_mask: [0; 7],
            req_mask: vec![0; t.reqs.len()],
        }
    }

    /// Lay alien `order[i]` at the i-th place dealt (`state.new_game`: row by row from the top,
    /// left to right).
    pub fn deal(&mut self, t: &Tables, order: &[usize]) {
        self.type_mask.iter_mut().for_each(|m| *m = 0);
        self.req_mask.iter_mut().for_each(|m| *m = 0);
        self.need_mask = [0; 7];
        self.bomber_mask = 0;
        for (i, &a) in order.iter().enumerate() {
            let (row_from_top, c) = (i / t.columns, i % t.columns);
            let r = t.rows - 1 - row_from_top;
            let p = c * t.rows + r;
            let bit = 1u64 << p;
            self.pos_alien[p] = a as u8;
            self.pos_req[p] = t.alien_req[a];
            self.pos_single[p] = t.alien_single[a];
            self.type_mask[t.alien_type[a] as usize] |= bit;
            if t.alien_bomber[a] {
                self.bomber_mask |= bit;
            }
            self.need_mask[t.alien_need[a].min(6) as usize] |= bit;
            self.req_mask[t.alien_req[a] as usize] |= bit;
        }
    }

    /// The fewest dice any alien present needs, at most 6.
    #[inline]
    pub fn min_need(&self, occ: u64) -> i32 {
        for k in 1..6 {
            if self.need_mask[k] & occ != 0 {
                return k as i32;
            }
        }
        6
    }
}

/// The columns still holding an alien, and the firing aliens ([B1]) of a formation.
#[derive(Clone, Copy, Debug)]
pub struct Fire {
    /// Bit c: column c holds an alien.
    pub living: u16,
    /// Positions that fire: the bottom 1, 2 or 3 aliens of each column by the column count.
    pub firing: u64,
    /// The bottom alien of each column.
    pub bottom: u64,
}

/// `rules.firing_depth`.
#[inline]
pub fn firing_depth(columns: u32) -> u32 {
    if columns >= 5 {
        1
    } else if columns >= 3 {
        2
    } else {
        3
    }
}

#[inline]
pub fn fire(t: &Tables, alive: u64) -> Fire {
    let (mut f1, mut f2, mut f3) = (0u64, 0u64, 0u64);
    let mut living = 0u16;
    for c in 0..t.columns {
        let base = c * t.rows;
        let x = (alive >> base) & t.row_mask;
        if x == 0 {
            continue;
        }
        living |= 1 << c;
        let b1 = x & x.wrapping_neg();
        let x2 = x ^ b1;
        let b2 = x2 & x2.wrapping_neg();
        let x3 = x2 ^ b2;
        let b3 = x3 & x3.wrapping_neg();
        f1 |= b1 << base;
        f2 |= (b1 | b2) << base;
        f3 |= (b1 | b2 | b3) << base;
    }
    let firing = match firing_depth(living.count_ones()) {
        1 => f1,
        2 => f2,
        _ => f3,
    };
    Fire {
        living,
        firing,
        bottom: f1,
    }
}

/// [B1]: three or more unshielded firing aliens of one type.
#[inline]
pub fn lethal(t: &Tables, d: &Dealt, f: &Fire, shields: u16) -> bool {
    let m = f.firing & !t.shield_pos[shields as usize];
    d.type_mask.iter().any(|&tm| (m & tm).count_ones() >= 3)
}

/// `sum(n - 2 for n in type_counts(...) if n > 2)`.
#[inline]
pub fn excess(t: &Tables, d: &Dealt, f: &Fire, shields: u16) -> i64 {
    let m = f.firing & !t.shield_pos[shields as usize];
    d.type_mask
        .iter()
        .map(|&tm| {
            let n = (m & tm).count_ones() as i64;
            if n > 2 {
                n - 2
            } else {
                0
            }
        })
        .sum()
}

/// [B2] `rules.bombers_over`: shield columns whose bottom alien is a heavy bomber.
#[inline]
pub fn bombed(t: &Tables, d: &Dealt, f: &Fire, shields: u16) -> u16 {
    let mut out = 0u16;
    let mut cs = f.living & shields;
    let bombers = f.bottom & d.bomber_mask;
    while cs != 0 {
        let c = cs.trailing_zeros() as usize;
        cs &= cs - 1;
        if bombers & t.col_mask[c] != 0 {
            out |= 1 << c;
        }
    }
    out
}

/// [B3.3] `rules.shift_shields`: all one column right (odd) or left (even), or not at all if the
/// outermost shield on that side would pass the outermost non-empty column `first` / `last`.
#[inline]
pub fn shift_shields(shields: u16, first: u32, last: u32, right: bool) -> u16 {
    if shields == 0 {
        return 0;
    }
    if right {
        let hi = 15 - shields.leading_zeros();
        if hi + 1 > last {
            shields
        } else {
            shields << 1
        }
    } else {
        let lo = shields.trailing_zeros();
        if lo < first + 1 {
            shields
        } else {
            shields >> 1
        }
    }
}

/// [B3] a movement roll: (track advance, shields move right) — `rules.movement_sum` and
/// `rules.shields_move_right` (the parity of the faces rolled).
#[inline]
pub fn movement(dice: &[u8]) -> (i64, bool) {
    let step = dice.iter().map(|&d| d as i64 - 1).sum();
    let faces: i64 = dice.iter().map(|&d| d as i64).sum();
    (step, faces % 2 == 1)
}

/// `players._movement_outcomes(dice)`: (advance, probability, shields move right), sorted by
/// (advance, right), with the sums the lookahead player adds, left to right, precomputed.
pub struct MoveTable {
    pub step: Vec<i64>,
    pub prob: Vec<f64>,
    pub right: Vec<bool>,
    /// `p_card_from[k]`: 0.0 + prob[k] + prob[k+1] + ... added left to right.
    pub p_card_from: Vec<f64>,
    /// [even, odd]: the probabilities of the shields moving left / right, added left to right.
    pub p_side: [f64; 2],
}

impl MoveTable {
    pub fn new(dice: u32) -> MoveTable {
        let mut counts: BTreeMap<(i64, bool), u32> = BTreeMap::new();
        let total = 6u32.pow(dice);
        for n in 0..total {
            let mut faces = Vec::new();
            let mut x = n;
            for _ in 0..dice {
                faces.push((x % 6) as u8 + 1);
                x /= 6;
            }
            *counts.entry(movement(&faces)).or_insert(0) += 1;
        }
        let mut t = MoveTable {
            step: vec![],
            prob: vec![],
            right: vec![],
            p_card_from: vec![],
            p_side: [0.0; 2],
        };
        for (&(step, right), &n) in &counts {
            t.step.push(step);
            t.prob.push(n as f64 / total as f64);
            t.right.push(right);
        }
        for k in 0..=t.step.len() {
            let mut p = 0.0f64;
            for &pr in &t.prob[k..] {
                p += pr;
            }
            t.p_card_from.push(p);
        }
        for (side, odd) in [(0, false), (1, true)] {
            let mut p = 0.0f64;
            for (i, &pr) in t.prob.iter().enumerate() {
                if t.right[i] == odd {
                    p += pr;
                }
            }
            t.p_side[side] = p;
        }
        t
    }

    /// The chance that the track reaches `left` from `track`: the entries with track + advance >=
    /// left, added left to right (advances ascend, so they are a suffix).
    #[inline]
    pub fn p_card(&self, track: i64, left: i64) -> f64 {
        let k = self
            .step
            .iter()
            .position(|&s| track + s >= left)
            .unwrap_or(self.step.len());
        self.p_card_from[k]
    }
}
