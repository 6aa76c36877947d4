//! `players.py`: random, greedy, missions and rollout, each drawing from its seat's stream
//! exactly when and as the Python players do (ties by `random() * ties < 1`, floats in the same
//! order of operations).

use super::board::{points, Board};
use super::game::{
    final_score, for_each_space, gain, gain_key, neighborhood_targets, winners, Action, Final,
    Game, Phase, Progress, Snapshot, State, ATTACK, BASE, MAX_SEATS, NONE, PROTECTION,
};
use super::Strategy;
use crate::params::with_params;
use crate::rng::PyRandom;

/// `game.PowerOptions`; `extra_turn` true means every open marker (`State::open`) is offered.
pub struct PowerOptions<'a> {
    pub last: usize,
    pub cover: &'a [u8],
    pub neighborhood: bool,
    pub extra_turn: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Power {
    Cover(usize),
    Neighborhood(usize),
    ExtraTurn(usize),
}

/// Buffers the players reuse between decisions.
#[derive(Default)]
pub struct Scratch {
    targets: Vec<u8>,
    moves: Vec<Power>,
    group_of: Vec<i16>,
    sizes: Vec<i64>,
    stack: Vec<u8>,
}

/// `GreedyNumbers`: the greedy player's power thresholds (its strategy's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyNumbers {
    pub extra_at: i64,
    pub hood_at: i64,
}

impl GreedyNumbers {
    pub const DEFAULT: GreedyNumbers = GreedyNumbers {
        extra_at: 4,
        hood_at: 4,
    };

    /// The defaults with each number `param` gives.
    pub fn read(param: &impl Fn(&str) -> Option<f64>) -> GreedyNumbers {
        with_params!(GreedyNumbers::DEFAULT, param, [extra_at, hood_at])
    }
}

/// `MissionsNumbers`: the missions player's weights and thresholds (its strategy's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MissionsNumbers {
    pub loss: f64,
    pub opener: f64,
    pub protection_step: f64,
    pub capture_risk: f64,
    pub extra_at: f64,
    pub hood_at: f64,
}

impl MissionsNumbers {
    pub const DEFAULT: MissionsNumbers = MissionsNumbers {
        loss: 5.0,
        opener: 0.3,
        protection_step: 2.0,
        capture_risk: 0.6,
        extra_at: 6.0,
        hood_at: 6.0,
    };

    /// The defaults with each number `param` gives.
    pub fn read(param: &impl Fn(&str) -> Option<f64>) -> MissionsNumbers {
        with_params!(
            MissionsNumbers::DEFAULT,
            param,
            [
                loss,
                opener,
                protection_step,
                capture_risk,
                extra_at,
                hood_at
            ]
        )
    }
}

pub fn place(
    strategy: Strategy,
    board: &Board,
    st: &State,
    p: usize,
    rng: &mut PyRandom,
    scratch: &mut Scratch,
) -> usize {
    match strategy {
        Strategy::Random => {
            let k = (rng.random() * st.open.len() as f64) as usize;
            st.open[k] as usize
        }
        Strategy::Greedy(_) => greedy_best(board, st, p, &st.open, rng).0,
        // a rollout seat with one option (Game::choose_place searches otherwise)
        Strategy::Rollout { .. } => st.open[0] as usize,
        Strategy::Missions(n) => missions_best(board, st, p, &st.open, rng, scratch, &n).0,
        Strategy::Mcts(_) => unreachable!("{SEARCHED}"),
    }
}

pub fn protect(strategy: Strategy, rng: &mut PyRandom) -> bool {
    match strategy {
        Strategy::Random => rng.random() < 0.5,
        Strategy::Mcts(_) => unreachable!("{SEARCHED}"),
        _ => true,
    }
}

pub fn power(
    strategy: Strategy,
    board: &Board,
    st: &State,
    p: usize,
    options: &PowerOptions,
    rng: &mut PyRandom,
    scratch: &mut Scratch,
) -> Option<Power> {
    match strategy {
        Strategy::Random => random_power(board, st, p, options, rng, scratch),
        Strategy::Greedy(n) => greedy_power(board, st, p, options, rng, scratch, &n),
        Strategy::Missions(n) | Strategy::Rollout { missions: n, .. } => {
            missions_power(board, st, p, options, rng, scratch, &n)
        }
        Strategy::Mcts(_) => unreachable!("{SEARCHED}"),
    }
}

/// Why no heuristic answers for an mcts seat: `Game::run` stops at its decisions, which its
/// engine searches.
const SEARCHED: &str = "an mcts seat's decisions are searched, not played by a heuristic";

fn random_power(
    board: &Board,
    st: &State,
    p: usize,
    options: &PowerOptions,
    rng: &mut PyRandom,
    scratch: &mut Scratch,
) -> Option<Power> {
    if rng.random() < 0.5 {
        return None;
    }
    let moves = &mut scratch.moves;
    moves.clear();
    moves.extend(options.cover.iter().map(|&s| Power::Cover(s as usize)));
    if options.extra_turn {
        moves.extend(st.open.iter().map(|&s| Power::ExtraTurn(s as usize)));
    }
    if options.neighborhood {
        neighborhood_targets(board, &st.cell, p, &mut scratch.targets);
        moves.extend(
            scratch
                .targets
                .iter()
                .map(|&s| Power::Neighborhood(s as usize)),
        );
    }
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.choice_index(moves.len())])
}

/// `GreedyPlayer._best`: (space, points * 64 + bases destroyed * 2 + park).
pub fn greedy_best(
    board: &Board,
    st: &State,
    p: usize,
    spaces: &[u8],
    rng: &mut PyRandom,
) -> (usize, i64) {
    let (mut best, mut best_key, mut ties) = (0usize, -1i64, 0u32);
    for &s in spaces {
        let s = s as usize;
        let key = gain_key(board, st, p, s);
        if key > best_key {
            best = s;
            best_key = key;
            ties = 1;
        } else if key == best_key {
            ties += 1;
            if rng.random() * (ties as f64) < 1.0 {
                best = s;
            }
        }
    }
    (best, best_key)
}

/// The Neighborhood targets the greedy and missions players consider: bases next to the disc
/// just placed, or any target in the last round.
fn hood_targets(
    board: &Board,
    st: &State,
    p: usize,
    last: usize,
    last_round: bool,
    out: &mut Vec<u8>,
) {
    if last_round {
        neighborhood_targets(board, &st.cell, p, out);
    } else {
        out.clear();
        out.extend(
            board
                .neighbors
                .get(last)
                .iter()
                .filter(|&&t| st.cell[t as usize] == BASE),
        );
    }
}

fn greedy_power(
    board: &Board,
    st: &State,
    p: usize,
    options: &PowerOptions,
    rng: &mut PyRandom,
    scratch: &mut Scratch,
    n: &GreedyNumbers,
) -> Option<Power> {
    let last_round = st.round >= st.rounds;
    if !options.cover.is_empty() {
        return Some(Power::Cover(
            greedy_best(board, st, p, options.cover, rng).0,
        ));
    }
    if options.extra_turn {
        let (s, key) = greedy_best(board, st, p, &st.open, rng);
        let (pts, n_destroyed) = (key >> 6, (key & 63) >> 1);
        if pts >= n.extra_at || n_destroyed > 0 || last_round {
            return Some(Power::ExtraTurn(s));
        }
    }
    if options.neighborhood {
        let mut targets = std::mem::take(&mut scratch.targets);
        hood_targets(board, st, p, options.last, last_round, &mut targets);
        let mut out = None;
        if !targets.is_empty() {
            let (s, key) = greedy_best(board, st, p, &targets, rng);
            if key >> 6 >= n.hood_at || last_round {
                out = Some(Power::Neighborhood(s));
            }
        }
        scratch.targets = targets;
        return out;
    }
    None
}

/// `MissionsPlayer._context`: the deciding seat's mission counts and disc groups (the groups in
/// `scratch.group_of` / `scratch.sizes`).
struct Context {
    card: i64,
    touched_card: i64,
    own_bit: u8,
    on_border: i64,
    largest: i64,
    need_v1: bool,
    need_herd: bool,
    need_border: bool,
    undefended: f64,
}

fn context(board: &Board, st: &State, p: usize, scratch: &mut Scratch) -> Context {
    let cc = st.own_cnt(p);
    let card = st.city_card[p];
    let (mut touched_card, mut value1) = (0, 0);
    for (&n, &v) in cc.iter().zip(&board.city_value) {
        let touched = (n != 0) as i64;
        touched_card += touched & (v == card) as i64;
        value1 += touched & (v == 1) as i64;
    }
    let own_bit = 1u8 << st.border_card[p];
    let group_of = &mut scratch.group_of;
    group_of.clear();
    group_of.resize(board.n + 1, -1);
    let sizes = &mut scratch.sizes;
    sizes.clear();
    let stack = &mut scratch.stack;
    let (mut herds, mut other, mut on_border) = (0, 0, 0);
    let me = p as i8;
    for_each_space(&st.discs_at[p], |s| {
        if board.card_border[s] & own_bit != 0 {
            on_border += 1;
        } else if board.border_mask[s] != 0 {
            other += 1;
        }
        if board.is_herd[s] {
            herds += 1;
        }
        if group_of[s] >= 0 {
            return;
        }
        let gid = sizes.len() as i16;
        group_of[s] = gid;
        stack.clear();
        stack.push(s as u8);
        let mut size = 1;
        while let Some(u) = stack.pop() {
            for &t in board.neighbors.get(u as usize) {
                if st.cell[t as usize] == me && group_of[t as usize] < 0 {
                    group_of[t as usize] = gid;
                    stack.push(t);
                    size += 1;
                }
            }
        }
        sizes.push(size);
    });
    Context {
        card,
        touched_card,
        own_bit,
        on_border,
        largest: sizes.iter().copied().max().unwrap_or(0),
        need_v1: board.protection_value1 - value1 > 0,
        need_herd: board.protection_herds - herds > 0,
        need_border: board.protection_borders - other > 0,
        undefended: 2.0 / (st.players as f64 + 2.0),
    }
}

/// `MissionsPlayer.value`.
fn missions_value(
    board: &Board,
    st: &State,
    p: usize,
    s: usize,
    ctx: &Context,
    scratch: &Scratch,
    n: &MissionsNumbers,
) -> f64 {
    let cell = &st.cell;
    let cc = st.own_cnt(p);
    let (pts, n_destroyed, park) = gain(board, cell, cc, p, s);
    let mut v = pts as f64;
    let (mut new_card, mut opened) = (0i64, 0i64);
    for &ci in board.space_cities.get(s) {
        let ci = ci as usize;
        if cc[ci] == 0 {
            opened += board.city_value[ci];
            if board.city_value[ci] == ctx.card {
                new_card += 1;
            }
        }
    }
    if new_card != 0 {
        let table = board.city_table(ctx.card);
        let k = ctx.touched_card;
        v += (points(table, k + new_card) - points(table, k)) as f64;
    }
    v += n.opener * opened as f64;
    let on_own = board.card_border[s] & ctx.own_bit != 0;
    if on_own {
        let table = &board.border_tables[st.border_card[p]];
        let k = ctx.on_border;
        v += (points(table, k + 1) - points(table, k)) as f64;
    }
    if park && st.park_markers != 0 {
        let k = st.parks[p];
        v += (points(&board.parks_table, k + 1) - points(&board.parks_table, k)) as f64;
    }
    if n_destroyed != 0 {
        let k = st.bases[p];
        v += (points(&board.bases_table, k + n_destroyed) - points(&board.bases_table, k)) as f64;
    }
    // territory: the groups this disc joins
    let mut joined = [0i16; 6];
    let mut n_joined = 0;
    let mut size = 1;
    for &t in board.neighbors.get(s) {
        let g = scratch.group_of[t as usize];
        if g >= 0 && !joined[..n_joined].contains(&g) {
            joined[n_joined] = g;
            n_joined += 1;
            size += scratch.sizes[g as usize];
        }
    }
    if size > ctx.largest {
        let table = &board.territory_table;
        v += (points(table, size) - points(table, ctx.largest)) as f64;
    }
    if ctx.need_v1
        && board
            .space_cities
            .get(s)
            .iter()
            .any(|&ci| board.city_value[ci as usize] == 1 && cc[ci as usize] == 0)
    {
        v += n.protection_step;
    }
    if ctx.need_herd && board.is_herd[s] {
        v += n.protection_step;
    }
    if ctx.need_border && board.border_mask[s] != 0 && !on_own {
        v += n.protection_step;
    }
    // discs of ours this marker would capture if it flipped (s is never on its own lines)
    let me = p as i8;
    let saved = board
        .lines
        .get(s)
        .iter()
        .filter(|&&(n1, n2)| cell[n1 as usize] == me && cell[n2 as usize] == BASE)
        .count();
    v += n.loss * saved as f64;
    let mut risk = 0.0f64;
    for &(a, b) in board.opposite.get(s) {
        let (ca, cb) = (cell[a as usize], cell[b as usize]);
        if ca == BASE || cb == BASE {
            let other = if ca == BASE { cb } else { ca };
            if other == NONE {
                risk += ctx.undefended;
            } else if other == ATTACK {
                risk += n.capture_risk;
            }
        }
    }
    if risk != 0.0 && st.powers[p] & PROTECTION != 0 {
        risk *= 0.5;
    }
    v - n.loss * risk.min(1.0)
}

/// `MissionsPlayer._best_value`.
pub fn missions_best(
    board: &Board,
    st: &State,
    p: usize,
    spaces: &[u8],
    rng: &mut PyRandom,
    scratch: &mut Scratch,
    n: &MissionsNumbers,
) -> (usize, f64) {
    let ctx = context(board, st, p, scratch);
    let (mut best, mut best_v, mut ties) = (0usize, f64::NEG_INFINITY, 0u32);
    for &s in spaces {
        let s = s as usize;
        let v = missions_value(board, st, p, s, &ctx, scratch, n);
        if v > best_v + 1e-9 {
            best = s;
            best_v = v;
            ties = 1;
        } else if (v - best_v).abs() <= 1e-9 {
            ties += 1;
            if rng.random() * (ties as f64) < 1.0 {
                best = s;
            }
        }
    }
    (best, best_v)
}

/// `MissionsPlayer.value` of a disc on each of `spaces` for seat p, into `out` (how the search
/// ranks the power uses of a window).
pub fn missions_values(
    board: &Board,
    st: &State,
    p: usize,
    spaces: impl Iterator<Item = usize>,
    scratch: &mut Scratch,
    n: &MissionsNumbers,
    out: &mut Vec<f64>,
) {
    let ctx = context(board, st, p, scratch);
    out.clear();
    out.extend(spaces.map(|s| missions_value(board, st, p, s, &ctx, scratch, n)));
}

fn missions_power(
    board: &Board,
    st: &State,
    p: usize,
    options: &PowerOptions,
    rng: &mut PyRandom,
    scratch: &mut Scratch,
    n: &MissionsNumbers,
) -> Option<Power> {
    let last_round = st.round >= st.rounds;
    if !options.cover.is_empty() {
        return Some(Power::Cover(
            missions_best(board, st, p, options.cover, rng, scratch, n).0,
        ));
    }
    if options.extra_turn {
        let (s, v) = missions_best(board, st, p, &st.open, rng, scratch, n);
        if v >= n.extra_at || last_round {
            return Some(Power::ExtraTurn(s));
        }
    }
    if options.neighborhood {
        let mut targets = std::mem::take(&mut scratch.targets);
        hood_targets(board, st, p, options.last, last_round, &mut targets);
        let mut out = None;
        if !targets.is_empty() {
            let (s, v) = missions_best(board, st, p, &targets, rng, scratch, n);
            if v >= n.hood_at || last_round {
                out = Some(Power::Neighborhood(s));
            }
        }
        scratch.targets = targets;
        return out;
    }
    None
}

/// `RolloutPlayer`'s search: its table copy, the plans, and the playout game (missions in every
/// seat, one shared stream).
pub struct Rollout {
    /// The position searched, its Mothership order a fresh shuffle.
    base: Snapshot,
    bags: Vec<Vec<u8>>,
    seeds: Vec<u64>,
    playout: Game,
}

impl Rollout {
    pub fn new(board: &Board, players: usize) -> Rollout {
        let mut playout = Game::new(board, players);
        // the playouts' missions players play the declared defaults (`RolloutPlayer.playout`)
        playout.strategies = [Strategy::Missions(MissionsNumbers::DEFAULT); MAX_SEATS];
        playout.shared_rng = true;
        playout.track_flips = false;
        playout.rngs.push(PyRandom::from_u64(0));
        Rollout {
            base: Snapshot {
                st: State::new(board, players),
                phase: Phase::Over,
                progress: Progress::default(),
            },
            bags: Vec::new(),
            seeds: Vec::new(),
            playout,
        }
    }

    /// `RolloutPlayer.place` with more than one open marker: seat p to place, the round at
    /// `progress`.
    #[allow(clippy::too_many_arguments)]
    pub fn place(
        &mut self,
        board: &Board,
        st: &State,
        progress: Progress,
        p: usize,
        rng: &mut PyRandom,
        rollouts: usize,
        win: i64,
    ) -> usize {
        // game.state_from_view: the hidden Mothership order is a fresh shuffle of the undrawn
        let base = &mut self.base;
        base.st.copy_from(st);
        base.phase = Phase::Place(p as u8);
        base.progress = progress;
        base.st.bag.clear();
        base.st.bag.extend(
            (1..=board.n)
                .filter(|&s| st.cell[s] == NONE)
                .map(|s| s as u8),
        );
        rng.shuffle(&mut base.st.bag);
        let players = st.players;
        self.bags.resize_with(rollouts, Vec::new);
        self.seeds.clear();
        for j in 0..rollouts {
            let bag = &mut self.bags[j];
            bag.clone_from(&self.base.st.bag);
            rng.shuffle(bag);
            self.seeds.push(rng.getrandbits64());
        }
        let (mut best, mut best_v) = (st.open[0] as usize, f64::NEG_INFINITY);
        let mut finals = [Final::default(); MAX_SEATS];
        for &s in &st.open {
            let s = s as usize;
            let mut total = 0.0f64;
            for j in 0..rollouts {
                let g = &mut self.playout;
                g.restore(&self.base);
                g.st.bag.clone_from(&self.bags[j]);
                g.rngs[0].reseed_u64(self.seeds[j]);
                g.apply(board, Action::Place(s as u8))
                    .expect("an open marker");
                g.run(board);
                let mut totals = [0i64; MAX_SEATS];
                let mut best_city = [0i64; MAX_SEATS];
                for q in 0..players {
                    finals[q] = final_score(board, &g.st, q);
                    totals[q] = finals[q].total;
                    best_city[q] = finals[q].best_city;
                }
                let others = (0..players)
                    .filter(|&q| q != p)
                    .map(|q| totals[q])
                    .max()
                    .expect("another seat");
                let won = winners(&totals[..players], &best_city[..players]) & (1 << p) != 0;
                total += (totals[p] - others + if won { win } else { 0 }) as f64;
            }
            if total > best_v {
                best = s;
                best_v = total;
            }
        }
        best
    }
}
