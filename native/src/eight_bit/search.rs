//! `rules.kill_plans` and `rules.witness_placement`: the same windows, the same depth-first walk
//! with the same cuts, so the same plans are met in the same order (the first witness of each kill
//! mask, and the greedy search's first acceptable plan, depend on that order). The full
//! enumeration cuts a few more branches than Python, only ones that can report no plan.

use super::rules::{
    face_count, fire, fits, lethal, pack_dice, Dealt, Memo, Opt, Tables, MAX_COLUMNS,
};

/// The most candidates of a window: three columns of at most 9 rows.
const MAX_CAND: usize = 32;
/// The most stepping stones of a plan (at most one die each).
const MAX_STONES: usize = 32;

/// `rules._window_shape`: the candidates of the window at one column, in walk order.
#[derive(Clone, Debug)]
pub struct Shape {
    pub n: usize,
    /// Position (bit index) of candidate j.
    pub pos: [u8; MAX_CAND],
    /// Candidates any one of which, once diced, makes j placeable (0: the start).
    pub need: [u32; MAX_CAND],
    /// Candidates that depend on j.
    pub deps: [u32; MAX_CAND],
    /// Index of j's last dependent (-1: none).
    pub last_dep: [i32; MAX_CAND],
    /// Candidates with dependents (only they can be stepping stones).
    pub stone_able: u32,
}

impl Shape {
    pub fn empty() -> Shape {
        Shape {
            n: 0,
            pos: [0; MAX_CAND],
            need: [0; MAX_CAND],
            deps: [0; MAX_CAND],
            last_dep: [-1; MAX_CAND],
            stone_able: 0,
        }
    }

    /// Build the window at column `c` from the occupancy (bit r: row r holds an alien) of columns
    /// c-1, c, c+1 (0 for a column that does not exist).
    pub fn build(&mut self, c: usize, occ_l: u32, occ_c: u32, occ_r: u32, nrows: usize) {
        self.n = 0;
        let (mut below_l, mut below_c, mut below_r) = (-1i32, -1i32, -1i32);
        for r in 0..nrows {
            let mut here = -1i32;
            if occ_c >> r & 1 == 1 {
                here = self.n as i32;
                if below_c >= 0 {
                    self.deps[below_c as usize] |= 1 << here;
                }
                self.pos[self.n] = (c * nrows + r) as u8;
                self.need[self.n] = if below_c == -1 { 0 } else { 1 << below_c };
                self.deps[self.n] = 0;
                self.n += 1;
                below_c = here;
            }
            for left_side in [true, false] {
                let occ = if left_side { occ_l } else { occ_r };
                if occ >> r & 1 == 0 {
                    continue;
                }
                let prev = if left_side { below_l } else { below_r };
                let new = if here < 0 && prev < 0 {
                    -2 // no way in: it also cuts the vertical chain above it
                } else {
                    let new = self.n as i32;
                    let mut need = 0u32;
                    if here >= 0 {
                        need |= 1 << here;
                        self.deps[here as usize] |= 1 << new;
                    }
                    if prev >= 0 {
                        need |= 1 << prev;
                        self.deps[prev as usize] |= 1 << new;
                    }
                    let side = if left_side { c - 1 } else { c + 1 };
                    self.pos[self.n] = (side * nrows + r) as u8;
                    self.need[self.n] = need;
                    self.deps[self.n] = 0;
                    self.n += 1;
                    new
                };
                if left_side {
                    below_l = new;
                } else {
                    below_r = new;
                }
            }
        }
        self.stone_able = 0;
        for j in 0..self.n {
            let d = self.deps[j];
            if d != 0 {
                self.stone_able |= 1 << j;
            }
            self.last_dep[j] = 31 - d.leading_zeros() as i32; // bit_length - 1; -1 for none
        }
    }
}

/// One way to make a kill set: the kill mask, the dice the kills leave (packed counts), and the
/// stepping stones in the order the walk placed them (enough for `witness_placement`).
#[derive(Clone, Copy, Debug)]
pub struct Witness {
    pub mask: u64,
    pub leaf: u64,
    pub nstones: u8,
    pub stones: [u8; MAX_STONES],
}

impl Witness {
    pub fn empty(leaf: u64) -> Witness {
        Witness {
            mask: 0,
            leaf,
            nstones: 0,
            stones: [0; MAX_STONES],
        }
    }

    fn of(mask: u64, leaf: u64, stones: &[u8]) -> Witness {
        let mut w = Witness::empty(leaf);
        w.mask = mask;
        w.nstones = stones.len() as u8;
        w.stones[..stones.len()].copy_from_slice(stones);
        w
    }
}

/// `DIV[m][n] = n / m` for m = 1..=6 (row 0 unused).
const DIV: [[i32; 64]; 7] = {
    let mut t = [[0i32; 64]; 7];
    let mut m = 1;
    while m < 7 {
        let mut n = 0;
        while n < 64 {
            t[m][n] = (n / m) as i32;
            n += 1;
        }
        m += 1;
    }
    t
};

/// The walk of one window (`rules._walk_window`'s inner `walk`).
struct Walker<'a> {
    /// The options of the whole roll; `ranges[req]` those of one requirement.
    opts: &'a [Opt],
    ranges: &'a [(u32, u32)],
    pos_req: &'a [u8; 64],
    shape: &'a Shape,
    killable: u32,
    useful: u32,
    nothing_pending: i32,
    target: i32,
    /// `div[n] = n // min_need` (n < 64): the bounds divide on every node.
    div: [i32; 64],
    min_need: i32,
    nstones: usize,
    stones: [u8; MAX_STONES],
}

impl Walker<'_> {
    /// The deadline once the stones in `pending` but not in `justified` are justified: a stone
    /// still pending must meet its last dependent, so the earliest such last dependent (or the
    /// end, when none is pending) bounds the search. Shared by both walks.
    #[inline]
    fn deadline_after(&self, justified: u32, pending: u32, deadline: i32) -> i32 {
        if justified == pending {
            return deadline;
        }
        let mut after = self.nothing_pending;
        let mut p = justified;
        while p != 0 {
            after = after.min(self.shape.last_dep[p.trailing_zeros() as usize & (MAX_CAND - 1)]);
            p &= p - 1;
        }
        after
    }

    #[allow(clippy::too_many_arguments)]
    fn walk<F: FnMut(u64, i32, u64, &[u8]) -> bool>(
        &mut self,
        on_plan: &mut F,
        lo: u32,
        open: u32,
        counts: u64,
        total: i32,
        stones: i32,
        pending: u32,
        deadline: i32,
        killed: u64,
        nkilled: i32,
    ) -> bool {
        if pending == 0
            && nkilled >= self.target
            && on_plan(killed, nkilled, counts, &self.stones[..self.nstones])
        {
            return true;
        }
        // 0 <= stones <= total <= 31 here (a child is made only with rest >= stones)
        let free = total - stones;
        let q = self.div[(free & 63) as usize];
        if q == 0 || nkilled + q < self.target {
            return false;
        }
        let q1 = self.div[((free - 1) & 63) as usize];
        let stone_ok = q1 >= 1 && nkilled + q1 >= self.target;
        let mut todo = ((open >> lo) << lo) & if stone_ok { self.useful } else { self.killable };
        let shape = self.shape;
        while todo != 0 {
            let low = todo & todo.wrapping_neg();
            todo ^= low;
            let j = low.trailing_zeros() as usize & (MAX_CAND - 1);
            if j as i32 > deadline {
                return false;
            }
            let pos = shape.pos[j];
            let bit = 1u64 << (pos & 63);
            let now_open = open | shape.deps[j];
            let justified = pending & !shape.need[j];
            let after = self.deadline_after(justified, pending, deadline);
            if low & self.killable != 0 {
                // the options of the roll that fit in the dice left, in the same order
                let (start, len) = self.ranges[self.pos_req[(pos & 63) as usize] as usize];
                for opt in &self.opts[start as usize..(start + len) as usize] {
                    if !fits(counts, opt.used) {
                        continue;
                    }
                    let rest = total - opt.n_used as i32;
                    // the child's own bound, checked here to spare the call
                    if rest >= stones
                        && nkilled + 1 + self.div[((rest - stones) & 63) as usize] >= self.target
                        && self.walk(
                            on_plan,
                            j as u32 + 1,
                            now_open,
                            counts - opt.used,
                            rest,
                            stones,
                            justified,
                            after,
                            killed | bit,
                            nkilled + 1,
                        )
                    {
                        return true;
                    }
                }
            }
            if stone_ok && low & shape.stone_able != 0 {
                self.stones[self.nstones & (MAX_STONES - 1)] = pos;
                self.nstones += 1;
                if self.walk(
                    on_plan,
                    j as u32 + 1,
                    now_open,
                    counts,
                    total,
                    stones + 1,
                    justified | low,
                    after.min(shape.last_dep[j]),
                    killed,
                    nkilled,
                ) {
                    return true;
                }
                self.nstones -= 1;
            }
        }
        false
    }
}

impl Walker<'_> {
    /// Could one of the candidates `deps` still be diced with `free` dice free and `counts` left:
    /// killed (an option fits) or made a stone (room for a stone and a kill after it)?
    #[inline]
    fn can_follow(&self, deps: u32, counts: u64, free: i32) -> bool {
        if free > self.min_need && deps & self.shape.stone_able != 0 {
            return true;
        }
        let mut d = deps & self.killable;
        while d != 0 {
            let j = d.trailing_zeros() as usize & (MAX_CAND - 1);
            d &= d - 1;
            let (start, len) =
                self.ranges[self.pos_req[(self.shape.pos[j] & 63) as usize] as usize];
            for opt in &self.opts[start as usize..(start + len) as usize] {
                if opt.n_used as i32 <= free && fits(counts, opt.used) {
                    return true;
                }
            }
        }
        false
    }

    /// `walk` for the full enumeration (target 0), the same plans in the same order with less
    /// work: no kill bound (every plan is wanted), `free` (dice not reserved by a pending stone)
    /// carried instead of the dice total and stones, a kill reported by its parent, which calls
    /// the child only when it can go further (`free >= min_need`), and no stone placed when none
    /// of the candidates it opens could still be diced (`can_follow`: the stone could never be
    /// justified, so nothing below it is ever reported). Entered only with `free >= min_need`;
    /// `record(killed, dice left, stones)` sees each plan with no pending stone.
    #[cfg(test)]
    #[allow(clippy::too_many_arguments)]
    fn walk_full<F: FnMut(u64, u64, &[u8])>(
        &mut self,
        record: &mut F,
        lo: u32,
        open: u32,
        counts: u64,
        free: i32,
        pending: u32,
        deadline: i32,
        killed: u64,
    ) {
        let min_need = self.min_need;
        let stone_ok = free > min_need;
        let mut todo = ((open >> lo) << lo) & if stone_ok { self.useful } else { self.killable };
        let shape = self.shape;
        while todo != 0 {
            let low = todo & todo.wrapping_neg();
            todo ^= low;
            let j = low.trailing_zeros() as usize & (MAX_CAND - 1);
            if j as i32 > deadline {
                return;
            }
            let pos = shape.pos[j];
            let now_open = open | shape.deps[j];
            let justified = pending & !shape.need[j];
            let after = self.deadline_after(justified, pending, deadline);
            if low & self.killable != 0 {
                let killed = killed | 1u64 << (pos & 63);
                let (start, len) = self.ranges[self.pos_req[(pos & 63) as usize] as usize];
                for opt in &self.opts[start as usize..(start + len) as usize] {
                    let rest = free - opt.n_used as i32;
                    if rest < 0 || !fits(counts, opt.used) {
                        continue;
                    }
                    let left = counts - opt.used;
                    if justified == 0 {
                        record(killed, left, &self.stones[..self.nstones]);
                    }
                    if rest >= min_need {
                        self.walk_full(
                            record,
                            j as u32 + 1,
                            now_open,
                            left,
                            rest,
                            justified,
                            after,
                            killed,
                        );
                    }
                }
            }
            if stone_ok
                && low & shape.stone_able != 0
                && self.can_follow(shape.deps[j], counts, free - 1)
            {
                self.stones[self.nstones & (MAX_STONES - 1)] = pos;
                self.nstones += 1;
                self.walk_full(
                    record,
                    j as u32 + 1,
                    now_open,
                    counts,
                    free - 1,
                    justified | low,
                    after.min(shape.last_dep[j]),
                    killed,
                );
                self.nstones -= 1;
            }
        }
    }
}

/// Dice left after some kills: packed counts, and how many.
type DiceState = (u64, i32);

/// Add `s` to the states `arena[base..]` kept as an antichain: a state whose dice include
/// another's can make every plan the other can (any kill option that fits the smaller fits it,
/// and it has as many dice for stones), so only the larger is kept.
#[inline]
fn push_antichain(arena: &mut Vec<DiceState>, base: usize, s: DiceState) {
    let mut k = base;
    while k < arena.len() {
        let c = arena[k].0;
        if fits(c, s.0) {
            return; // s is within c (or equal)
        }
        if fits(s.0, c) {
            arena.swap_remove(k);
        } else {
            k += 1;
        }
    }
    arena.push(s);
}

/// `POP[x] = x.count_ones()` for a column's rows (at most 9 bits): the build targets plain x86-64,
/// where `count_ones` is a dozen instructions, not one.
const POP: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 1;
    while x < 512 {
        t[x] = t[x >> 1] + (x & 1) as u8;
        x += 1;
    }
    t
};

/// Stones needed on one side column of a window: each kill there needs an unbroken run of diced
/// aliens of that column down to an anchor (an alien beside a diced centre alien); the nearest
/// anchor below a kill gives the shortest run. `occ`, `kills`, `centre`: rows (bits) of the
/// column's aliens, of its kills, and of the diced centre aliens. None: a kill with no anchor.
#[inline]
fn side_stones(occ: u32, kills: u32, centre: u32) -> Option<u32> {
    let anchors = occ & centre;
    let (mut diced, mut k) = (0u32, kills);
    while k != 0 {
        let top = 31 - k.leading_zeros();
        let upto = (2u32 << top) - 1;
        let below = anchors & upto;
        if below == 0 {
            return None;
        }
        let a = 31 - below.leading_zeros();
        let run = occ & upto & !((1u32 << a) - 1);
        diced |= run;
        k &= !run;
    }
    Some(POP[(diced & !kills) as usize & 511] as u32)
}

/// The kill masks of `Search::full` found without walking the windows: a depth-first walk over
/// kill sets (positions in ascending order) that keeps, for the set so far, the windows in which
/// it can be made and, for a set of two kills or more, every dice state its kill options can
/// leave (sets of one or two are judged by the roll's tables, `RollTables`). Each set is met once,
/// and only sets that can be made are extended: a set that can be made in a window stays so
/// when a kill is taken out of it (the alien becomes a stone, or is not needed: one die at
/// least is spared), so every set is reached through sets that can be made, in the same windows.
///
/// The window at column c (the rules of `Shape`): the centre column is diced from its bottom
/// alien up without a gap; an alien of a side column c±1 is diced beside a diced centre alien
/// or above the diced alien below it in its column. A set of kills can be made in the window
/// when the stones this needs (`stones_in`) are no more than the dice its kills leave.
struct MaskWalk<'a> {
    opts: &'a [Opt],
    ranges: &'a [(u32, u32)],
    pos_req: &'a [u8; 64],
    columns: usize,
    row_mask: u64,
    min_need: i32,
    killable: u64,
    /// Column of each position, and the position of each column's bottom row.
    pos_col: [u8; 64],
    col_shift: [u8; MAX_COLUMNS],
    /// Rows (bits) of the aliens of each column.
    occ_col: [u32; MAX_COLUMNS],
    /// Per window (by centre column): the positions of its columns.
    win_pos: [u64; MAX_COLUMNS],
    /// The roll: packed counts and how many dice.
    counts0: u64,
    ndice: i32,
    /// The roll's tables (`RollTables`).
    roll: RollTables<'a>,
    /// The requirements of the kills of the set being extended, in order.
    kill_reqs: [u8; 64],
    /// `stones[k][c]`: stones enough for the first k + 1 kills of the set in window c.
    stones: [[u8; MAX_COLUMNS]; 64],
    /// `alone[c][x]`: the fewest stones a kill at x alone needs in window c (u8::MAX: none
    /// will do), for every killable x in the columns of a window c the walk starts with.
    alone: [[u8; 64]; MAX_COLUMNS],
    depth: usize,
}

/// What the mask walk knows of one roll whatever the formation: for each requirement (`n` of
/// them), the most dice a kill of it leaves (`single`), and with a kill of each other one beside
/// it (`pair[a * n + b]`); -1: none can be made. A pair is the two kills alone, whatever others
/// a set holds, so it only bounds a larger set (and decides a set of two).
struct RollTables<'a> {
    n: usize,
    single: &'a [i8],
    pair: &'a [i8],
}

/// The `RollTables` of every roll met, by its `Memo` id, kept for the batch (as the memo is).
#[derive(Default)]
struct RollCache {
    single: Vec<i8>,
    pair: Vec<i8>,
}

/// A roll's `RollCache::single` not filled yet.
const UNKNOWN: i8 = -2;

impl RollCache {
    /// The tables of the roll `p.roll`, whose options are `ranges` (none for a requirement it
    /// cannot kill), filled when first asked for.
    fn tables(&mut self, p: &Prep, opts: &[Opt], ranges: &[(u32, u32)]) -> RollTables<'_> {
        let (n, roll) = (ranges.len(), p.roll as usize);
        if self.single.len() < (roll + 1) * n {
            self.single.resize((roll + 1) * n, UNKNOWN);
            self.pair.resize((roll + 1) * n * n, -1);
        }
        let single = &mut self.single[roll * n..(roll + 1) * n];
        let pair = &mut self.pair[roll * n * n..(roll + 1) * n * n];
        if single[0] == UNKNOWN {
            RollCache::fill(single, pair, opts, ranges, p.counts0, p.ndice);
        }
        RollTables { n, single, pair }
    }

    fn fill(
        single: &mut [i8],
        pair: &mut [i8],
        opts: &[Opt],
        ranges: &[(u32, u32)],
        counts0: u64,
        ndice: i32,
    ) {
        let n = ranges.len();
        let options = |r: usize| &opts[ranges[r].0 as usize..(ranges[r].0 + ranges[r].1) as usize];
        for a in 0..n {
            // the roll's own options: each fits
            single[a] = options(a)
                .iter()
                .map(|o| ndice - o.n_used as i32)
                .max()
                .unwrap_or(-1) as i8;
            for b in a..n {
                let mut best = -1;
                for oa in options(a) {
                    let rest = counts0 - oa.used;
                    for ob in options(b) {
                        if fits(rest, ob.used) {
                            best = best.max(ndice - oa.n_used as i32 - ob.n_used as i32);
                        }
                    }
                }
                pair[a * n + b] = best as i8;
                pair[b * n + a] = best as i8;
            }
        }
    }
}

impl MaskWalk<'_> {
    #[inline]
    fn rows_of(&self, m: u64, c: usize) -> u32 {
        ((m >> self.col_shift[c]) & self.row_mask) as u32
    }

    /// The most dice a kill of requirement `a` and one of `b` can leave together.
    #[inline]
    fn pair_spare(&self, a: u8, b: u8) -> i32 {
        self.roll.pair[a as usize * self.roll.n + b as usize] as i32
    }

    /// The states the kills of an alien of requirement `a` and one of `b` can leave, pushed onto
    /// `arena` as an antichain (the states of a set of two kills, from the roll).
    fn pair_states(&self, arena: &mut Vec<DiceState>, a: u8, b: u8) {
        let to = arena.len();
        for oa in self.options(a) {
            let rest = self.counts0 - oa.used; // the roll's own options: each fits
            let left = self.ndice - oa.n_used as i32;
            for ob in self.options(b) {
                if ob.n_used as i32 <= left && fits(rest, ob.used) {
                    push_antichain(arena, to, (rest - ob.used, left - ob.n_used as i32));
                }
            }
        }
    }

    /// The options of requirement `req` for this roll.
    #[inline]
    fn options(&self, req: u8) -> &[Opt] {
        let (start, len) = self.ranges[req as usize];
        &self.opts[start as usize..(start + len) as usize]
    }

    /// The most dice the kill of one more alien of requirement `req` can leave from the dice
    /// states `states` (-1: no option fits any).
    #[inline]
    fn spare_after(&self, states: &[DiceState], req: u8) -> i32 {
        let opts = self.options(req);
        let mut spare = -1;
        for &(counts, left) in states {
            for opt in opts {
                let rest = left - opt.n_used as i32;
                if rest > spare && fits(counts, opt.used) {
                    spare = rest;
                }
            }
        }
        spare
    }

    /// The states the kill of one more alien of requirement `req` can leave from those of
    /// `arena[from..to]`, pushed after them as an antichain.
    fn child_states(&self, arena: &mut Vec<DiceState>, from: usize, to: usize, req: u8) {
        let opts = self.options(req);
        for i in from..to {
            let (counts, left) = arena[i];
            for opt in opts {
                let rest = left - opt.n_used as i32;
                if rest >= 0 && fits(counts, opt.used) {
                    push_antichain(arena, to, (counts - opt.used, rest));
                }
            }
        }
    }

    /// Stones enough for the kills `m` (all in the columns of window c) in window c, the first
    /// count found within `budget` (None: none is). The centre is diced up to its highest kill
    /// (its bottom alien at least), and maybe higher to give the side columns nearer anchors:
    /// each step up costs a stone, and helps only while below the highest side kill.
    fn stones_in(&self, c: usize, m: u64, budget: i32) -> Option<i32> {
        let (occ_l, kills_l) = if c > 0 {
            (self.occ_col[c - 1], self.rows_of(m, c - 1))
        } else {
            (0, 0)
        };
        let (occ_r, kills_r) = if c + 1 < self.columns {
            (self.occ_col[c + 1], self.rows_of(m, c + 1))
        } else {
            (0, 0)
        };
        let (occ_c, kills_c) = (self.occ_col[c], self.rows_of(m, c));
        let low = occ_c & occ_c.wrapping_neg();
        let top = 31 - (kills_c | low).leading_zeros();
        let mut centre = occ_c & ((2u32 << top) - 1);
        let side_kills = kills_l | kills_r;
        loop {
            let mut cost = POP[(centre & !kills_c) as usize & 511] as i32;
            if cost > budget {
                return None;
            }
            if let (Some(l), Some(r)) = (
                side_stones(occ_l, kills_l, centre),
                side_stones(occ_r, kills_r, centre),
            ) {
                cost += (l + r) as i32;
                if cost <= budget {
                    return Some(cost);
                }
            }
            // the next centre alien up, if it is below a side kill
            let next = occ_c & !centre;
            let next = next & next.wrapping_neg();
            if next == 0 || next > side_kills {
                return None;
            }
            centre |= next;
        }
    }

    /// Fill `alone` for the windows `wins`: the fewest stones of one kill, in closed form (the
    /// rules of `stones_in`). A centre kill needs the centre aliens below it; a side kill, a run
    /// of its column down to an anchor and the centre up to that anchor's row, the cheapest
    /// anchor at or below it.
    fn singles(&mut self, wins: u16) {
        let mut w = wins;
        while w != 0 {
            let c = w.trailing_zeros() as usize;
            w &= w - 1;
            let occ_c = self.occ_col[c];
            for cc in c.saturating_sub(1)..(c + 2).min(self.columns) {
                let occ_s = self.occ_col[cc];
                let kills = ((self.killable >> self.col_shift[cc]) & self.row_mask) as u32;
                let alone = &mut self.alone[c][self.col_shift[cc] as usize..];
                if cc == c {
                    let mut todo = kills;
                    while todo != 0 {
                        let r = todo.trailing_zeros();
                        todo &= todo - 1;
                        alone[r as usize] = POP[(occ_c & ((1u32 << r) - 1)) as usize & 511];
                    }
                    continue;
                }
                // The cheapest anchor at or below each row, bottom up: anchor a costs the centre
                // aliens up to row a and the side aliens from a up to the kill (not the kill),
                // so a row up adds the side alien passed to every anchor's cost, and a row where
                // both columns hold an alien is one more anchor (no run). NONE: no anchor yet.
                const NONE: u32 = u8::MAX as u32;
                let (mut least, mut centre) = (NONE, 0u32);
                for r in 0..32 - kills.leading_zeros() {
                    centre += occ_c >> r & 1;
                    if (occ_s & occ_c) >> r & 1 == 1 {
                        least = least.min(centre);
                    }
                    if kills >> r & 1 == 1 {
                        alone[r as usize] = least.min(NONE) as u8;
                    }
                    least += occ_s >> r & 1;
                }
            }
        }
    }

    /// The windows among `wins` in which the set `mx` (the set being extended and x) can be made
    /// with `spare` dice left for stones, recording in `stones[depth]` the stones enough in each.
    /// The windows holding x's column only. The stones of x alone (`alone`) bound those of the
    /// set with x: no more than the set's own (`stones`) plus x's (the union of two placements
    /// is one), no fewer than x's less one per kill of the set (a kill of the set can stand in
    /// for a stone of x's). Only between the bounds are they counted.
    #[inline(always)]
    fn windows_with(&mut self, x: usize, mx: u64, wins: u16, spare: i32) -> u16 {
        let depth = self.depth;
        let cx = self.pos_col[x & 63] as usize;
        let mut cand = wins & ((0b111u32 << cx) >> 1) as u16;
        let mut wins_x = 0u16;
        while cand != 0 {
            let c = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let alone = self.alone[c][x & 63] as i32;
            let cost = if depth == 0 {
                Some(alone).filter(|&n| n <= spare)
            } else {
                let with = self.stones[depth - 1][c] as i32 + alone;
                if with <= spare {
                    Some(with)
                } else if alone > spare + depth as i32 {
                    None
                } else {
                    self.stones_in(c, mx, spare)
                }
            };
            if let Some(n) = cost {
                wins_x |= 1 << c;
                self.stones[depth & 63][c] = n as u8;
            }
        }
        wins_x
    }

    /// Extend the kill set `m` (windows `wins` can make it, leaving at most `spare_m` dice) by
    /// each killable position in `allowed` in turn; `out` gets each new set that can be made.
    /// For a set of three kills or more, `arena[from..]` holds the dice states it can leave; for
    /// a set of two, they are worked out there when first needed.
    #[allow(clippy::too_many_arguments)]
    fn extend(
        &mut self,
        out: &mut Vec<u64>,
        arena: &mut Vec<DiceState>,
        from: usize,
        m: u64,
        spare_m: i32,
        allowed: u64,
        wins: u16,
    ) {
        let depth = self.depth;
        let mut to = arena.len();
        // a set of two kills: its dice states are worked out when a candidate first needs them
        let mut states_known = depth != 2;
        let mut reach = 0u64;
        let mut w = wins;
        while w != 0 {
            reach |= self.win_pos[w.trailing_zeros() as usize];
            w &= w - 1;
        }
        let mut todo = self.killable & reach & allowed;
        while todo != 0 {
            let x = todo.trailing_zeros() as usize;
            let bit = todo & todo.wrapping_neg();
            todo ^= bit;
            let req = self.pos_req[x & 63];
            let mx = m | bit;
            // The dice: a set of one or two kills is judged by the roll's tables (exactly), a
            // larger one by the dice states the set can leave. Those cost more than the
            // windows, so the windows come first, with the most the set with x could leave:
            // the set's spare dice less x's, and what each pair with x leaves less the other
            // kills' dice (at least `min_need` each).
            let (spare, wins_x) = match depth {
                0 | 1 => {
                    let spare = if depth == 0 {
                        self.roll.single[req as usize] as i32
                    } else {
                        self.pair_spare(self.kill_reqs[0], req)
                    };
                    if spare < 0 {
                        continue; // no option fits the dice left
                    }
                    (spare, self.windows_with(x, mx, wins, spare))
                }
                _ => {
                    let others = (depth as i32 - 1) * self.min_need;
                    let mut most = spare_m - self.min_need;
                    for k in 0..depth {
                        most = most.min(self.pair_spare(self.kill_reqs[k], req) - others);
                    }
                    if most < 0 {
                        continue; // no room for x's dice
                    }
                    let wins_most = self.windows_with(x, mx, wins, most);
                    if wins_most == 0 {
                        continue;
                    }
                    if !states_known {
                        let (a, b) = (self.kill_reqs[0], self.kill_reqs[1]);
                        self.pair_states(arena, a, b);
                        to = arena.len();
                        states_known = true;
                    }
                    let spare = self.spare_after(&arena[from..to], req);
                    if spare < 0 {
                        continue; // no option fits the dice left
                    }
                    if spare == most {
                        (spare, wins_most)
                    } else {
                        (spare, self.windows_with(x, mx, wins, spare))
                    }
                }
            };
            if wins_x != 0 {
                out.push(mx);
                if spare >= self.min_need {
                    if depth >= 2 {
                        self.child_states(arena, from, to, req);
                    }
                    // higher positions only: each set is met once, from its lower kills
                    self.kill_reqs[depth & 63] = req;
                    self.depth += 1;
                    self.extend(out, arena, to, mx, spare, !((bit << 1) - 1), wins_x);
                    self.depth -= 1;
                }
            }
            arena.truncate(to);
        }
    }
}

impl Walker<'_> {
    /// `walk_full` cut down to the plans that kill only candidates of `target` (a set of
    /// candidates), stopping at the first that kills all of them with no stone pending: the
    /// witness `walk_full` records first for that mask. The same nodes in the same order, less
    /// subtrees that cannot record it: a kill outside `target` (kills are never undone), a
    /// candidate of `target` passed over unkilled (the walk only goes up the candidates), too few
    /// dice for the kills missing, and anything below the kill that completes it (more kills).
    #[allow(clippy::too_many_arguments)]
    fn walk_target(
        &mut self,
        target: u32,
        lo: u32,
        open: u32,
        counts: u64,
        free: i32,
        pending: u32,
        deadline: i32,
        killed: u32,
    ) -> Option<(u64, usize)> {
        let min_need = self.min_need;
        let missing = target & !killed;
        // each kill missing takes min_need dice at least
        if free < min_need * missing.count_ones() as i32 {
            return None;
        }
        let first_missing = missing.trailing_zeros() as usize;
        let stone_ok = free > min_need;
        let mut todo = ((open >> lo) << lo)
            & if stone_ok {
                target | self.shape.stone_able
            } else {
                target
            };
        let shape = self.shape;
        while todo != 0 {
            let low = todo & todo.wrapping_neg();
            todo ^= low;
            let j = low.trailing_zeros() as usize & (MAX_CAND - 1);
            if j as i32 > deadline || j > first_missing {
                return None;
            }
            let pos = shape.pos[j];
            let now_open = open | shape.deps[j];
            let justified = pending & !shape.need[j];
            let after = self.deadline_after(justified, pending, deadline);
            if low & target != 0 {
                // j is the first candidate missing: kill it, or pass it and lose it
                let (start, len) = self.ranges[self.pos_req[(pos & 63) as usize] as usize];
                for opt in &self.opts[start as usize..(start + len) as usize] {
                    let rest = free - opt.n_used as i32;
                    if rest < 0 || !fits(counts, opt.used) {
                        continue;
                    }
                    let left = counts - opt.used;
                    if missing == low {
                        if justified == 0 {
                            return Some((left, self.nstones));
                        }
                    } else if rest >= min_need {
                        let found = self.walk_target(
                            target,
                            j as u32 + 1,
                            now_open,
                            left,
                            rest,
                            justified,
                            after,
                            killed | low,
                        );
                        if found.is_some() {
                            return found;
                        }
                    }
                }
                continue;
            }
            if stone_ok
                && low & shape.stone_able != 0
                && self.can_follow(shape.deps[j], counts, free - 1)
            {
                self.stones[self.nstones & (MAX_STONES - 1)] = pos;
                self.nstones += 1;
                let found = self.walk_target(
                    target,
                    j as u32 + 1,
                    now_open,
                    counts,
                    free - 1,
                    justified | low,
                    after.min(shape.last_dep[j]),
                    killed,
                );
                if found.is_some() {
                    return found;
                }
                self.nstones -= 1;
            }
        }
        None
    }
}

/// A set of u64 keys (kill masks), cleared in O(1) by a generation stamp.
#[cfg(test)]
struct MaskSet {
    slots: Vec<(u64, u32)>,
    gen: u32,
    bits: u32,
    len: usize,
}

#[cfg(test)]
impl MaskSet {
    fn new() -> MaskSet {
        let bits = 10;
        MaskSet {
            slots: vec![(0, 0); 1 << bits],
            gen: 1,
            bits,
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.iter_mut().for_each(|s| s.1 = 0);
            self.gen = 1;
        }
        self.len = 0;
    }

    /// Insert `key`; true if it was not there.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let mask = (1usize << self.bits) - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize;
        loop {
            let slot = &mut self.slots[i & mask];
            if slot.1 != self.gen {
                *slot = (key, self.gen);
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return true;
            }
            if slot.0 == key {
                return false;
            }
            i += 1;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let old: Vec<u64> = self
            .slots
            .iter()
            .filter(|s| s.1 == self.gen)
            .map(|s| s.0)
            .collect();
        self.bits += 1;
        self.slots = vec![(0, 0); 1 << self.bits];
        self.gen = 1;
        self.len = 0;
        for k in old {
            self.insert(k);
        }
    }
}

/// What one call of the search works from (the prelude of `rules.kill_plans`).
struct Prep {
    counts0: u64,
    ndice: i32,
    min_need: i32,
    starts: [u8; MAX_COLUMNS],
    nstarts: usize,
    killable_pos: u64,
    /// The roll's id in the `Memo` (set when `prepare` says go).
    roll: u32,
}

/// The search's buffers, kept across the turns and games of a batch.
pub struct Search {
    /// Per column: the occupancy key its shape was built for, and the shape.
    shapes: Vec<(u64, Shape)>,
    /// The full enumeration's plans: the first witness of each kill mask, in the order found.
    #[cfg(test)]
    pub plans: Vec<Witness>,
    /// The kill masks of `kill_plans(..., best_only=False)` without witnesses (`Search::masks`).
    pub masks: Vec<u64>,
    /// `MaskWalk::roll` of every roll met.
    rolls: RollCache,
    /// The dice states of `MaskWalk`, a stack of one antichain per kill set (of two or more).
    arena: Vec<DiceState>,
    #[cfg(test)]
    set: MaskSet,
    /// Per requirement: its options for this roll (a range of `Memo::opts`).
    ranges: Vec<(u32, u32)>,
}

impl Default for Search {
    fn default() -> Self {
        Search::new()
    }
}

impl Search {
    pub fn new() -> Search {
        Search {
            shapes: (0..MAX_COLUMNS)
                .map(|_| (u64::MAX, Shape::empty()))
                .collect(),
            #[cfg(test)]
            plans: Vec::new(),
            masks: Vec::new(),
            rolls: RollCache::default(),
            arena: Vec::new(),
            #[cfg(test)]
            set: MaskSet::new(),
            ranges: Vec::new(),
        }
    }

    fn prepare(
        t: &Tables,
        d: &Dealt,
        memo: &mut Memo,
        ranges: &mut Vec<(u32, u32)>,
        occ: u64,
        shields: u16,
        dice: &[u8],
    ) -> (Prep, bool) {
        let counts0 = pack_dice(dice);
        let mut p = Prep {
            counts0,
            ndice: dice.len() as i32,
            min_need: d.min_need(occ),
            starts: [0; MAX_COLUMNS],
            nstarts: 0,
            killable_pos: 0,
            roll: 0,
        };
        for c in 0..t.columns {
            if occ & t.col_mask[c] != 0 && shields >> c & 1 == 0 {
                p.starts[p.nstarts] = c as u8;
                p.nstarts += 1;
            }
        }
        if p.ndice == 0 || p.nstarts == 0 {
            return (p, false);
        }
        let cid0 = memo.id(counts0);
        p.roll = cid0;
        let mut reqs = memo.killable_reqs(cid0);
        ranges.clear();
        ranges.extend_from_slice(memo.ranges(cid0));
        while reqs != 0 {
            let r = reqs.trailing_zeros() as usize;
            reqs &= reqs - 1;
            p.killable_pos |= d.req_mask[r];
        }
        p.killable_pos &= occ;
        (p, true)
    }

    /// The window at column c (shape cached by the occupancy of c-1, c, c+1) and its killable
    /// candidates.
    fn window(&mut self, t: &Tables, occ: u64, c: usize, killable_pos: u64) -> u32 {
        let field = |cc: usize| ((occ >> (cc * t.rows)) & t.row_mask) as u32;
        let occ_l = if c > 0 { field(c - 1) } else { 0 };
        let occ_c = field(c);
        let occ_r = if c + 1 < t.columns { field(c + 1) } else { 0 };
        let key = (occ_l as u64) | (occ_c as u64) << 20 | (occ_r as u64) << 40;
        let entry = &mut self.shapes[c];
        if entry.0 != key {
            entry.1.build(c, occ_l, occ_c, occ_r, t.rows);
            entry.0 = key;
        }
        let shape = &entry.1;
        let mut killable = 0u32;
        for j in 0..shape.n {
            if killable_pos >> shape.pos[j] & 1 == 1 {
                killable |= 1 << j;
            }
        }
        killable
    }

    fn walker<'a>(
        shape: &'a Shape,
        killable: u32,
        opts: &'a [Opt],
        ranges: &'a [(u32, u32)],
        d: &'a Dealt,
        p: &Prep,
        target: i32,
    ) -> Walker<'a> {
        Walker {
            opts,
            ranges,
            pos_req: &d.pos_req,
            shape,
            killable,
            useful: killable | shape.stone_able,
            nothing_pending: shape.n as i32,
            div: DIV[p.min_need as usize],
            min_need: p.min_need,
            target,
            nstones: 0,
            stones: [0; MAX_STONES],
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_window<F: FnMut(u64, i32, u64, &[u8]) -> bool>(
        shape: &Shape,
        killable: u32,
        opts: &[Opt],
        ranges: &[(u32, u32)],
        d: &Dealt,
        p: &Prep,
        target: i32,
        on_plan: &mut F,
    ) -> bool {
        let mut w = Search::walker(shape, killable, opts, ranges, d, p, target);
        w.walk(
            on_plan,
            0,
            1,
            p.counts0,
            p.ndice,
            0,
            0,
            shape.n as i32,
            0,
            0,
        )
    }

    /// `kill_plans(..., best_only=False)`: every distinct kill set with its first witness, into
    /// `self.plans` (in the order found, the empty plan first). The players ask only for the masks
    /// (`masks`) and one witness (`first_witness`); this whole enumeration is kept as the
    /// reference the tests hold those two to.
    #[cfg(test)]
    pub fn full(
        &mut self,
        t: &Tables,
        d: &Dealt,
        memo: &mut Memo,
        occ: u64,
        shields: u16,
        dice: &[u8],
    ) {
        let (p, go) = Search::prepare(t, d, memo, &mut self.ranges, occ, shields, dice);
        self.plans.clear();
        self.set.clear();
        self.set.insert(0);
        self.plans.push(Witness::empty(p.counts0));
        if go {
            for s in 0..p.nstarts {
                let c = p.starts[s] as usize;
                let killable = self.window(t, occ, c, p.killable_pos);
                let (plans, set) = (&mut self.plans, &mut self.set);
                let mut record = |killed: u64, counts: u64, stones: &[u8]| {
                    if set.insert(killed) {
                        plans.push(Witness::of(killed, counts, stones));
                    }
                };
                // the root's own plan is the empty one, already there
                if p.ndice >= p.min_need {
                    let shape = &self.shapes[c].1;
                    let mut w = Search::walker(shape, killable, &memo.opts, &self.ranges, d, &p, 0);
                    w.walk_full(&mut record, 0, 1, p.counts0, p.ndice, 0, shape.n as i32, 0);
                }
            }
        }
    }

    /// The kill masks of `full` into `self.masks` (the empty one first, the others in no
    /// particular order), found by `MaskWalk`: the same set, with no witnesses.
    /// `first_witness` then gives the witness `full` keeps for one of them.
    pub fn masks(
        &mut self,
        t: &Tables,
        d: &Dealt,
        memo: &mut Memo,
        occ: u64,
        shields: u16,
        dice: &[u8],
    ) {
        let (p, go) = Search::prepare(t, d, memo, &mut self.ranges, occ, shields, dice);
        self.masks_prepared(t, d, memo, occ, &p, go);
    }

    /// The random player's plan (`sorted(plans)[k]` and its witness): the kill masks (`masks`),
    /// `choose(how many)` picks k, and the first witness of the k-th smallest mask
    /// (`first_witness`), from one `prepare`.
    #[allow(clippy::too_many_arguments)]
    pub fn random_plan(
        &mut self,
        t: &Tables,
        d: &Dealt,
        memo: &mut Memo,
        occ: u64,
        shields: u16,
        dice: &[u8],
        choose: impl FnOnce(usize) -> usize,
    ) -> Witness {
        let (p, go) = Search::prepare(t, d, memo, &mut self.ranges, occ, shields, dice);
        self.masks_prepared(t, d, memo, occ, &p, go);
        let k = choose(self.masks.len());
        let (_, &mut mask, _) = self.masks.select_nth_unstable(k);
        self.first_witness_prepared(t, d, memo, occ, &p, go, mask)
    }

    /// `masks` once the roll is prepared (`prepare`'s answer `p`, `go`).
    fn masks_prepared(&mut self, t: &Tables, d: &Dealt, memo: &Memo, occ: u64, p: &Prep, go: bool) {
        self.masks.clear();
        self.masks.push(0);
        if !go || p.ndice < p.min_need {
            return; // no kill possible: only the empty plan
        }
        let mut walk = MaskWalk {
            opts: &memo.opts,
            ranges: &self.ranges,
            pos_req: &d.pos_req,
            columns: t.columns,
            row_mask: t.row_mask,
            min_need: p.min_need,
            killable: p.killable_pos,
            occ_col: [0; MAX_COLUMNS],
            win_pos: [0; MAX_COLUMNS],
            pos_col: [0; 64],
            col_shift: [0; MAX_COLUMNS],
            counts0: p.counts0,
            ndice: p.ndice,
            roll: self.rolls.tables(p, &memo.opts, &self.ranges),
            kill_reqs: [0; 64],
            stones: [[0; MAX_COLUMNS]; 64],
            alone: [[u8::MAX; 64]; MAX_COLUMNS],
            depth: 0,
        };
        for c in 0..t.columns {
            walk.col_shift[c] = (c * t.rows) as u8;
            for r in 0..t.rows {
                walk.pos_col[c * t.rows + r] = c as u8;
            }
            walk.occ_col[c] = ((occ >> (c * t.rows)) & t.row_mask) as u32;
            let lo = c.saturating_sub(1);
            let hi = (c + 1).min(t.columns - 1);
            walk.win_pos[c] = (lo..=hi).fold(0, |acc, cc| acc | t.col_mask[cc]);
        }
        let mut wins = 0u16;
        for &c in &p.starts[..p.nstarts] {
            wins |= 1 << c;
        }
        self.arena.clear();
        walk.singles(wins);
        walk.extend(
            &mut self.masks,
            &mut self.arena,
            0,
            0,
            p.ndice,
            u64::MAX,
            wins,
        );
    }

    /// The witness `full` keeps for `target`, one of the masks `masks` found for the same
    /// formation and roll: the first plan of `walk_full` killing exactly `target`, over the
    /// windows in the same order (`walk_target`).
    #[allow(clippy::too_many_arguments)]
    pub fn first_witness(
        &mut self,
        t: &Tables,
        d: &Dealt,
        memo: &mut Memo,
        occ: u64,
        shields: u16,
        dice: &[u8],
        target: u64,
    ) -> Witness {
        let (p, go) = Search::prepare(t, d, memo, &mut self.ranges, occ, shields, dice);
        self.first_witness_prepared(t, d, memo, occ, &p, go, target)
    }

    /// `first_witness` once the roll is prepared (`prepare`'s answer `p`, `go`).
    #[allow(clippy::too_many_arguments)]
    fn first_witness_prepared(
        &mut self,
        t: &Tables,
        d: &Dealt,
        memo: &Memo,
        occ: u64,
        p: &Prep,
        go: bool,
        target: u64,
    ) -> Witness {
        if target == 0 {
            return Witness::empty(p.counts0);
        }
        if go && p.ndice >= p.min_need {
            for s in 0..p.nstarts {
                let c = p.starts[s] as usize;
                let cols = t.col_mask[c.saturating_sub(1)..(c + 2).min(t.columns)].iter();
                if target & !cols.fold(0, |acc, m| acc | m) != 0 {
                    continue; // a kill outside the window's columns
                }
                let killable = self.window(t, occ, c, p.killable_pos);
                let shape = &self.shapes[c].1;
                // target as candidates of this window; a window without them all cannot make it
                let mut target_c = 0u32;
                for j in 0..shape.n {
                    if target >> shape.pos[j] & 1 == 1 {
                        target_c |= 1 << j;
                    }
                }
                if target_c.count_ones() != target.count_ones() || target_c & !killable != 0 {
                    continue;
                }
                let mut w = Search::walker(shape, killable, &memo.opts, &self.ranges, d, p, 0);
                let found = w.walk_target(target_c, 0, 1, p.counts0, p.ndice, 0, shape.n as i32, 0);
                if let Some((left, n)) = found {
                    return Witness::of(target, left, &w.stones[..n]);
                }
            }
        }
        panic!("kill mask {target:#x} is not a plan of this roll");
    }

    /// `kill_plans(..., best_only=True, acceptable=survives)` as the greedy player calls it:
    /// the plan it returns besides the empty one (None: only the empty plan). `survives(mask)`: the
    /// counterattack after those kills is not lethal.
    pub fn greedy(
        &mut self,
        t: &Tables,
        d: &Dealt,
        memo: &mut Memo,
        occ: u64,
        shields: u16,
        dice: &[u8],
    ) -> Option<Witness> {
        let (p, go) = Search::prepare(t, d, memo, &mut self.ranges, occ, shields, dice);
        if !go {
            return None;
        }
        // A bound on each window's kills: its killable aliens, and the dice; when the bottom alien
        // of column c cannot be killed, one die is a stepping stone.
        let mut killable_col = [0i32; MAX_COLUMNS];
        for (c, k) in killable_col.iter_mut().enumerate().take(t.columns) {
            *k = (p.killable_pos & t.col_mask[c]).count_ones() as i32;
        }
        let mut reach = [0i32; MAX_COLUMNS];
        for s in 0..p.nstarts {
            let c = p.starts[s] as usize;
            let bottom = occ & t.col_mask[c];
            let bottom = bottom & bottom.wrapping_neg();
            let dice_left = if p.killable_pos & bottom != 0 {
                p.ndice
            } else {
                p.ndice - 1
            };
            let lo = c.saturating_sub(1);
            let hi = (c + 2).min(t.columns);
            let sum: i32 = killable_col[lo..hi].iter().sum();
            reach[c] = sum.min(dice_left / p.min_need);
        }
        let mut starts = p.starts;
        // stable sort by -reach (insertion sort: at most 9)
        for i in 1..p.nstarts {
            let mut k = i;
            while k > 0 && reach[starts[k - 1] as usize] < reach[starts[k] as usize] {
                starts.swap(k - 1, k);
                k -= 1;
            }
        }
        let mut found: [Option<Witness>; 2] = [None, None];
        let top = reach[starts[0] as usize];
        let mut target = top;
        while target > 0 {
            for &c in &starts[..p.nstarts] {
                let c = c as usize;
                if reach[c] < target {
                    break;
                }
                let killable = self.window(t, occ, c, p.killable_pos);
                let mut keep = |killed: u64, _n: i32, counts: u64, stones: &[u8]| {
                    let f = fire(t, occ & !killed);
                    if !lethal(t, d, &f, shields) {
                        found[0] = Some(Witness::of(killed, counts, stones));
                        return true;
                    }
                    if found[1].is_none() {
                        found[1] = Some(Witness::of(killed, counts, stones));
                    }
                    false
                };
                if Search::walk_window(
                    &self.shapes[c].1,
                    killable,
                    &memo.opts,
                    &self.ranges,
                    d,
                    &p,
                    target,
                    &mut keep,
                ) {
                    break;
                }
            }
            if found[0].is_some() {
                return found[0];
            }
            if found[1].is_some() {
                return found[1];
            }
            target -= 1;
        }
        None
    }
}

/// `rules.witness_placement` followed by `rules.kills`: the kills the placement makes and the die
/// indices it uses (bit i: die i). Kill dice take, face by face, the highest indices of that face
/// (`free[v].pop()`); the stepping stones take the lowest spare indices, in the order placed.
pub fn resolve(w: &Witness, dice: &[u8], d: &Dealt) -> (u64, u32) {
    let counts0 = pack_dice(dice);
    let leaf = w.leaf;
    let mut used = 0u32;
    for v in 1..=6u8 {
        let mut k = face_count(counts0, v) - face_count(leaf, v);
        let mut i = dice.len();
        while k > 0 {
            i -= 1;
            if dice[i] == v {
                used |= 1 << i;
                k -= 1;
            }
        }
    }
    let mut kills = w.mask;
    let mut s = 0usize;
    let n = w.nstones as usize;
    for (i, &v) in dice.iter().enumerate() {
        if s == n {
            break;
        }
        if used >> i & 1 == 0 {
            used |= 1 << i;
            // one die on an alien: a kill only for a sum card of that face (`rules.matches`)
            let pos = w.stones[s] as usize;
            if d.pos_single[pos] == v {
                kills |= 1 << pos;
            }
            s += 1;
        }
    }
    (kills, used)
}
