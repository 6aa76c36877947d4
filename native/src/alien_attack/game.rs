//! One game: `state.py`'s State, `rules.py`'s transitions and end-of-game scoring, and
//! `game.py`'s round sequence, with every stream drawn in the same order as the Python engine.

use super::board::{points, Board};
use super::forward::Searcher;
use super::players::{self, GreedyNumbers, Power, Rollout};
use super::{Params, Strategy, BORDER_CARDS, CITY_CARDS};
use crate::batch::Head;
use crate::rng::{game_sequence, PyRandom, CHANCE, FIRST_SEAT, SETUP};

pub const NONE: i8 = -1;
pub const ATTACK: i8 = -2;
pub const BASE: i8 = -3;
pub const EMPTY: i8 = -4;
pub const LOST: i8 = -5;
pub const NEUTRAL: i8 = 4;

pub const PROTECTION: u8 = 1;
pub const COVER: u8 = 2;
pub const NEIGHBORHOOD: u8 = 4;
pub const EXTRA: u8 = 8;
pub const ALL_POWERS: u8 = 15;

pub const EXTRA_TURN_LIMIT: i64 = 2;
pub const SEMI_COOP_BASES: i64 = 24;

pub const MAX_SEATS: usize = 4;
/// `Game::rngs[SETUP_RNG]`, `[CHANCE_RNG]`, then the seats' streams.
const SETUP_RNG: usize = 0;
const CHANCE_RNG: usize = 1;
pub const SEAT_RNG0: usize = 2;

/// `cell[s]` for every space, indexed by a `u8` space without a bounds check to pay.
pub type Cells = [i8; 256];

/// `state.State`. `city_cnt[p * cities + ci]`: seat p's discs touching city ci.
#[derive(Clone, Debug)]
pub struct State {
    pub players: usize,
    pub cities: usize,
    pub cell: Cells,
    pub bag: Vec<u8>,
    pub round: i64,
    pub rounds: i64,
    pub open: Vec<u8>,
    pub extra_users: i64,
    pub discs: [i64; MAX_SEATS],
    pub score: [i64; MAX_SEATS],
    pub powers: [u8; MAX_SEATS],
    pub parks: [i64; MAX_SEATS],
    pub park_markers: i64,
    pub bases: [i64; MAX_SEATS],
    pub city_cnt: Vec<i32>,
    pub placed: [i64; MAX_SEATS],
    pub captured: [i64; MAX_SEATS],
    pub city_card: [i64; MAX_SEATS],
    pub border_card: [usize; MAX_SEATS],
    /// The spaces holding each seat's discs (bit s of word s / 64): `cell[s] == p`, kept by
    /// `place` and `remove_disc` so the players need not scan the board.
    pub discs_at: [[u64; 4]; MAX_SEATS],
}

#[inline]
fn set_bit(set: &mut [u64; 4], s: usize) {
    set[s / 64] |= 1 << (s % 64);
}

#[inline]
fn clear_bit(set: &mut [u64; 4], s: usize) {
    set[s / 64] &= !(1 << (s % 64));
}

impl State {
    pub fn new(board: &Board, players: usize) -> State {
        let cities = board.city_value.len();
        let mut st = State {
            players,
            cities,
            cell: [NONE; 256],
            bag: Vec::with_capacity(board.n),
            round: 0,
            rounds: (board.n / (players + 2)) as i64,
            open: Vec::with_capacity(8),
            extra_users: 0,
            discs: [board.discs; MAX_SEATS],
            score: [0; MAX_SEATS],
            powers: [ALL_POWERS; MAX_SEATS],
            parks: [0; MAX_SEATS],
            park_markers: board.park_markers,
            bases: [0; MAX_SEATS],
            city_cnt: vec![0; players * cities],
            placed: [0; MAX_SEATS],
            captured: [0; MAX_SEATS],
            city_card: [0; MAX_SEATS],
            border_card: [0; MAX_SEATS],
            discs_at: [[0; 4]; MAX_SEATS],
        };
        st.cell[0] = NEUTRAL;
        st
    }

    /// A fresh game's state, reusing this one's buffers.
    pub fn reset(&mut self, board: &Board) {
        self.cell.iter_mut().for_each(|c| *c = NONE);
        self.cell[0] = NEUTRAL;
        self.bag.clear();
        self.round = 0;
        self.open.clear();
        self.extra_users = 0;
        self.discs = [board.discs; MAX_SEATS];
        self.score = [0; MAX_SEATS];
        self.powers = [ALL_POWERS; MAX_SEATS];
        self.parks = [0; MAX_SEATS];
        self.park_markers = board.park_markers;
        self.bases = [0; MAX_SEATS];
        self.city_cnt.iter_mut().for_each(|c| *c = 0);
        self.placed = [0; MAX_SEATS];
        self.captured = [0; MAX_SEATS];
        self.discs_at = [[0; 4]; MAX_SEATS];
    }

    /// `self = other.copy()` without allocating.
    pub fn copy_from(&mut self, other: &State) {
        self.players = other.players;
        self.cities = other.cities;
        self.cell = other.cell;
        self.bag.clone_from(&other.bag);
        self.round = other.round;
        self.rounds = other.rounds;
        self.open.clone_from(&other.open);
        self.extra_users = other.extra_users;
        self.discs = other.discs;
        self.score = other.score;
        self.powers = other.powers;
        self.parks = other.parks;
        self.park_markers = other.park_markers;
        self.bases = other.bases;
        self.city_cnt.clone_from(&other.city_cnt);
        self.placed = other.placed;
        self.captured = other.captured;
        self.city_card = other.city_card;
        self.border_card = other.border_card;
        self.discs_at = other.discs_at;
    }

    #[inline]
    pub fn own_cnt(&self, p: usize) -> &[i32] {
        &self.city_cnt[p * self.cities..(p + 1) * self.cities]
    }

    #[inline]
    pub fn first_player(&self) -> usize {
        ((self.round - 1).rem_euclid(self.players as i64)) as usize
    }
}

/// Walks a set of spaces (bit s of word s / 64) in ascending order.
#[inline]
pub fn for_each_space(words: &[u64; 4], mut f: impl FnMut(usize)) {
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(w * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// Bases destroyed by one placement (at most one a direction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Destroyed {
    pub len: usize,
    pub spaces: [u8; 6],
}

impl Destroyed {
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.spaces[..self.len]
    }
}

// --- rules.py ----------------------------------------------------------------------------------

/// `rules.herd_group`: seat p's connected group in s's herd region if p had a disc on s.
#[inline]
pub fn herd_group(board: &Board, cell: &Cells, p: usize, s: usize) -> i64 {
    let mut seen = [0u8; 16];
    let mut n_seen = 1;
    seen[0] = s as u8;
    let mut stack = [0u8; 16];
    let mut top = 1;
    stack[0] = s as u8;
    let mut size = 1;
    while top > 0 {
        top -= 1;
        let u = stack[top] as usize;
        for &t in board.herd_nbrs.get(u) {
            if cell[t as usize] == p as i8 && !seen[..n_seen].contains(&t) {
                if n_seen == seen.len() {
                    // a region larger than 16 spaces: never on a valid board (regions are 3)
                    return herd_group_slow(board, cell, p, s);
                }
                seen[n_seen] = t;
                n_seen += 1;
                stack[top] = t;
                top += 1;
                size += 1;
            }
        }
    }
    size
}

fn herd_group_slow(board: &Board, cell: &Cells, p: usize, s: usize) -> i64 {
    let mut seen = vec![s];
    let mut stack = vec![s];
    let mut size = 1;
    while let Some(u) = stack.pop() {
        for &t in board.herd_nbrs.get(u) {
            let t = t as usize;
            if cell[t] == p as i8 && !seen.contains(&t) {
                seen.push(t);
                stack.push(t);
                size += 1;
            }
        }
    }
    size
}

/// `rules.gain` as the greedy player's key: points * 64 + bases destroyed * 2 + park.
#[inline]
pub fn gain_key(board: &Board, st: &State, p: usize, s: usize) -> i64 {
    let (pts, n_destroyed, park) = gain(board, &st.cell, st.own_cnt(p), p, s);
    pts * 64 + n_destroyed * 2 + park as i64
}

/// `rules.gain`: (points from cities and herds, bases destroyed, a National Park).
#[inline]
pub fn gain(board: &Board, cell: &Cells, cc: &[i32], p: usize, s: usize) -> (i64, i64, bool) {
    let mut pts = 0;
    for &ci in board.space_cities.get(s) {
        if cc[ci as usize] >= 1 {
            pts += board.city_value[ci as usize];
        }
    }
    if board.is_herd[s] {
        pts += 2 * herd_group(board, cell, p, s);
    }
    let mut n_destroyed = 0;
    for &(n1, n2) in board.lines.get(s) {
        if cell[n1 as usize] == BASE && cell[n2 as usize] >= 0 {
            n_destroyed += 1;
        }
    }
    (pts, n_destroyed, board.park[s])
}

/// `rules.is_neighborhood_target`: a base next to one of seat p's discs.
#[inline]
pub fn is_neighborhood_target(board: &Board, cell: &Cells, p: usize, s: usize) -> bool {
    (1..=board.n).contains(&s)
        && cell[s] == BASE
        && board
            .neighbors
            .get(s)
            .iter()
            .any(|&t| cell[t as usize] == p as i8)
}

/// `rules.neighborhood_targets` into `out`, ascending.
pub fn neighborhood_targets(board: &Board, cell: &Cells, p: usize, out: &mut Vec<u8>) {
    out.clear();
    out.extend(
        (1..=board.n)
            .filter(|&s| is_neighborhood_target(board, cell, p, s))
            .map(|s| s as u8),
    );
}

/// `rules.place`: seat p's disc on s, scored; the bases it destroys.
pub fn place(board: &Board, st: &mut State, p: usize, s: usize) -> Destroyed {
    st.cell[s] = p as i8;
    set_bit(&mut st.discs_at[p], s);
    st.discs[p] -= 1;
    st.placed[p] += 1;
    let mut pts = 0;
    let base = p * st.cities;
    for &ci in board.space_cities.get(s) {
        let c = &mut st.city_cnt[base + ci as usize];
        *c += 1;
        if *c >= 2 {
            pts += board.city_value[ci as usize];
        }
    }
    if board.is_herd[s] {
        pts += 2 * herd_group(board, &st.cell, p, s);
    }
    if board.park[s] && st.park_markers > 0 {
        st.park_markers -= 1;
        st.parks[p] += 1;
    }
    let mut destroyed = Destroyed::default();
    for &(n1, n2) in board.lines.get(s) {
        if st.cell[n1 as usize] == BASE && st.cell[n2 as usize] >= 0 {
            destroyed.spaces[destroyed.len] = n1;
            destroyed.len += 1;
        }
    }
    for &b in destroyed.as_slice() {
        st.cell[b as usize] = EMPTY;
    }
    st.bases[p] += destroyed.len as i64;
    st.score[p] += pts;
    destroyed
}

/// `rules.remove_disc`.
pub fn remove_disc(board: &Board, st: &mut State, s: usize) {
    let owner = st.cell[s] as usize;
    st.cell[s] = LOST;
    clear_bit(&mut st.discs_at[owner], s);
    let base = owner * st.cities;
    for &ci in board.space_cities.get(s) {
        st.city_cnt[base + ci as usize] -= 1;
    }
    st.captured[owner] += 1;
}

/// `rules.final_scores` for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Final {
    pub placement_points: i64,
    pub city_mission: i64,
    pub border_mission: i64,
    pub parks: i64,
    pub bases: i64,
    pub territory: i64,
    pub protection: i64,
    pub total: i64,
    pub city_cards: i64,
    pub border_discs: i64,
    pub largest_group: i64,
    pub best_city: i64,
}

/// `rules.largest_group`: the most of seat p's discs connected through its own discs.
pub fn largest_group(board: &Board, st: &State, p: usize) -> i64 {
    let own = &st.discs_at[p];
    let mut seen = [0u64; 4];
    let mut stack = [0u8; 256];
    let mut best = 0;
    for_each_space(own, |s| {
        if seen[s / 64] & (1 << (s % 64)) != 0 {
            return;
        }
        set_bit(&mut seen, s);
        let mut top = 1;
        stack[0] = s as u8;
        let mut size = 1;
        while top > 0 {
            top -= 1;
            for &t in board.neighbors.get(stack[top] as usize) {
                let t = t as usize;
                let bit = 1u64 << (t % 64);
                if own[t / 64] & bit != 0 && seen[t / 64] & bit == 0 {
                    seen[t / 64] |= bit;
                    stack[top] = t as u8;
                    top += 1;
                    size += 1;
                }
            }
        }
        best = best.max(size);
    });
    best
}

pub fn final_score(board: &Board, st: &State, p: usize) -> Final {
    let cc = st.own_cnt(p);
    let card = st.city_card[p];
    let own_bit = 1u8 << st.border_card[p];
    let (mut city_cards, mut value1, mut best_city) = (0, 0, 0);
    for (ci, &n) in cc.iter().enumerate() {
        if n > 0 {
            let v = board.city_value[ci];
            city_cards += (v == card) as i64;
            value1 += (v == 1) as i64;
            best_city = best_city.max(v);
        }
    }
    let (mut on_card_border, mut other_border, mut herds) = (0, 0, 0);
    for_each_space(&st.discs_at[p], |s| {
        if board.card_border[s] & own_bit != 0 {
            on_card_border += 1;
        } else if board.border_mask[s] != 0 {
            other_border += 1;
        }
        if board.is_herd[s] {
            herds += 1;
        }
    });
    let largest = largest_group(board, st, p);
    let protection = value1 >= board.protection_value1
        && herds >= board.protection_herds
        && other_border >= board.protection_borders;
    let mut f = Final {
        placement_points: st.score[p],
        city_mission: points(board.city_table(card), city_cards),
        border_mission: points(&board.border_tables[st.border_card[p]], on_card_border),
        parks: points(&board.parks_table, st.parks[p]),
        bases: points(&board.bases_table, st.bases[p]),
        territory: points(&board.territory_table, largest),
        protection: if protection {
            board.protection_points
        } else {
            0
        },
        total: 0,
        city_cards,
        border_discs: on_card_border,
        largest_group: largest,
        best_city,
    };
    f.total = f.placement_points
        + f.city_mission
        + f.border_mission
        + f.parks
        + f.bases
        + f.territory
        + f.protection;
    f
}

/// `rules.winners` as a bit set of seats.
pub fn winners(totals: &[i64], best_city: &[i64]) -> u8 {
    let top = *totals.iter().max().expect("a seat");
    let best = totals
        .iter()
        .zip(best_city)
        .filter(|(t, _)| **t == top)
        .map(|(_, b)| *b)
        .max()
        .expect("a seat");
    let mut out = 0;
    for (p, (t, b)) in totals.iter().zip(best_city).enumerate() {
        if *t == top && *b == best {
            out |= 1 << p;
        }
    }
    out
}

// --- game.py ---------------------------------------------------------------------------------

/// The decision a game waits on, or its end: where the forward model stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// [Round] step 2: the seat's mandatory placement on one of this round's open markers.
    Place(u8),
    /// [Powers] a power window of `seat` after its placement on `last`; `cover` holds the spaces
    /// that placement emptied and that Cover may fill (none once Cover is used).
    Power {
        seat: u8,
        last: u8,
        cover: Destroyed,
    },
    /// [Capture] the seat's disc on `space` is trapped by a flip: keep it with Protection?
    Protect {
        seat: u8,
        space: u8,
    },
    Over,
}

/// One decision's answer, as the forward model takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The mandatory placement: an open marker's space.
    Place(u8),
    /// A power used in a window (it places the next disc).
    Power(Power),
    /// A window closed without a power: the turn ends.
    EndTurn,
    /// Protection's answer: keep the disc (spending the power) or let it go.
    Protect(bool),
}

/// Where a round stands between decisions: the turns taken, and the flips in progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Progress {
    /// Turns taken this round: the seat to play is the first player plus this.
    pub(super) turns_taken: u8,
    /// The next of `State::open` to flip (the markers stay in `open` while they flip, in
    /// ascending order, as the Python engine's view shows them).
    pub(super) flip_next: u8,
    /// The discs the last flip trapped, in space order, and the next one to resolve.
    pub(super) trapped: [u8; 6],
    pub(super) n_trapped: u8,
    pub(super) trapped_next: u8,
}

/// A position: everything the rules read and change between two decisions.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub st: State,
    pub phase: Phase,
    pub progress: Progress,
}

/// The players' random streams: one per seat, or one shared by every seat (rollout playouts).
pub struct Game {
    pub st: State,
    /// The decision the game waits on.
    pub phase: Phase,
    pub progress: Progress,
    pub strategies: [Strategy; MAX_SEATS],
    pub rngs: Vec<PyRandom>,
    pub shared_rng: bool,
    /// Spaces flipped into bases (for the records; not kept in playouts).
    pub flipped: Vec<u8>,
    pub track_flips: bool,
    /// The rollout player's search (its own playout game), when a seat plays rollout.
    pub rollout: Option<Box<Rollout>>,
    pub scratch: players::Scratch,
}

impl Game {
    pub fn new(board: &Board, players: usize) -> Game {
        Game {
            st: State::new(board, players),
            phase: Phase::Over,
            progress: Progress::default(),
            strategies: [Strategy::Greedy(GreedyNumbers::DEFAULT); MAX_SEATS],
            rngs: Vec::new(),
            shared_rng: false,
            flipped: Vec::with_capacity(board.n),
            track_flips: true,
            rollout: None,
            scratch: players::Scratch::default(),
        }
    }

    /// `rngs` holds the set-up and chance streams, then one per seat (`SEAT_RNG0 + p`); a
    /// playout's one shared stream is `rngs[0]`.
    #[inline]
    fn rng_index(&self, p: usize) -> usize {
        if self.shared_rng {
            0
        } else {
            SEAT_RNG0 + p
        }
    }

    pub fn over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The seat to decide (none once over).
    pub fn to_move(&self) -> Option<usize> {
        match self.phase {
            Phase::Place(p) | Phase::Power { seat: p, .. } | Phase::Protect { seat: p, .. } => {
                Some(usize::from(p))
            }
            Phase::Over => None,
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            st: self.st.clone(),
            phase: self.phase,
            progress: self.progress,
        }
    }

    /// Back to a snapshot's position, reusing this game's buffers.
    pub fn restore(&mut self, s: &Snapshot) {
        self.st.copy_from(&s.st);
        self.phase = s.phase;
        self.progress = s.progress;
    }

    /// Play on by the seats' strategies until the game is over or a seat that searches (`mcts`,
    /// which its engine asks) is to move. Every built-in game runs through here.
    pub fn run(&mut self, board: &Board) {
        while let Some(p) = self.to_move() {
            if matches!(self.strategies[p], Strategy::Mcts(_)) {
                return;
            }
            let r = self.rng_index(p);
            let action = match self.phase {
                Phase::Place(_) => Action::Place(self.choose_place(board, p) as u8),
                Phase::Power { last, cover, .. } => {
                    let options = players::PowerOptions {
                        last: usize::from(last),
                        cover: cover.as_slice(),
                        neighborhood: self.st.powers[p] & NEIGHBORHOOD != 0,
                        extra_turn: self.extra_turn_open(p),
                    };
                    let strategy = self.strategies[p];
                    let (st, scratch) = (&self.st, &mut self.scratch);
                    let power = players::power(
                        strategy,
                        board,
                        st,
                        p,
                        &options,
                        &mut self.rngs[r],
                        scratch,
                    );
                    power.map_or(Action::EndTurn, Action::Power)
                }
                Phase::Protect { .. } => {
                    Action::Protect(players::protect(self.strategies[p], &mut self.rngs[r]))
                }
                Phase::Over => unreachable!("to_move is none once over"),
            };
            self.play(board, action);
        }
    }

    /// Play a decision's answer, checked against the rules, then the rules and the draws up to
    /// the next decision (the forward model's step).
    pub fn apply(&mut self, board: &Board, action: Action) -> Result<(), String> {
        let st = &self.st;
        let legal = match (self.phase, action) {
            (Phase::Place(_), Action::Place(s)) => st.open.contains(&s),
            (Phase::Power { seat, cover, .. }, Action::Power(power)) => {
                let p = usize::from(seat);
                match power {
                    Power::Cover(s) => cover.as_slice().contains(&(s as u8)),
                    Power::ExtraTurn(s) => self.extra_turn_open(p) && st.open.contains(&(s as u8)),
                    Power::Neighborhood(s) => {
                        st.powers[p] & NEIGHBORHOOD != 0
                            && is_neighborhood_target(board, &st.cell, p, s)
                    }
                }
            }
            (Phase::Power { .. }, Action::EndTurn)
            | (Phase::Protect { .. }, Action::Protect(_)) => true,
            _ => false,
        };
        if !legal {
            return Err(format!(
                "{action:?} does not answer the decision {:?}",
                self.phase
            ));
        }
        self.play(board, action);
        Ok(())
    }

    /// `apply` without the check (the built-in players answer within the rules).
    fn play(&mut self, board: &Board, action: Action) {
        match (self.phase, action) {
            (Phase::Place(p), Action::Place(s)) => {
                let i = self
                    .st
                    .open
                    .iter()
                    .position(|&x| x == s)
                    .expect("an open marker");
                self.st.open.remove(i);
                let p = usize::from(p);
                let destroyed = place(board, &mut self.st, p, usize::from(s));
                self.open_window(board, p, usize::from(s), destroyed);
            }
            (Phase::Power { seat, .. }, Action::Power(power)) => {
                let p = usize::from(seat);
                let st = &mut self.st;
                let s = match power {
                    Power::Cover(s) => {
                        st.powers[p] &= !COVER;
                        s
                    }
                    Power::ExtraTurn(s) => {
                        st.powers[p] &= !EXTRA;
                        st.extra_users += 1;
                        let i = st
                            .open
                            .iter()
                            .position(|&x| x as usize == s)
                            .expect("an open marker");
                        st.open.remove(i);
                        s
                    }
                    Power::Neighborhood(s) => {
                        st.powers[p] &= !NEIGHBORHOOD;
                        st.cell[s] = EMPTY;
                        st.bases[p] += 1;
                        s
                    }
                };
                let destroyed = place(board, st, p, s);
                self.open_window(board, p, s, destroyed);
            }
            (Phase::Power { .. }, Action::EndTurn) => self.end_turn(board),
            (Phase::Protect { seat, space }, Action::Protect(keep)) => {
                self.progress.trapped_next += 1;
                if keep {
                    self.st.powers[usize::from(seat)] &= !PROTECTION;
                } else {
                    remove_disc(board, &mut self.st, usize::from(space));
                }
                self.flip(board);
            }
            (phase, action) => unreachable!("{action:?} does not answer {phase:?}"),
        }
    }

    /// Extra Turn is offered to seat p now: unused, fewer than two users this round, and an
    /// undefended marker left.
    pub(super) fn extra_turn_open(&self, p: usize) -> bool {
        let st = &self.st;
        st.powers[p] & EXTRA != 0 && st.extra_users < EXTRA_TURN_LIMIT && !st.open.is_empty()
    }

    /// `Game.play_rest`'s loop test: another round while rounds and markers remain, else the end.
    /// From a fresh set-up this starts the game.
    pub fn next_round(&mut self, board: &Board) {
        if self.st.round < self.st.rounds && !self.st.bag.is_empty() {
            self.st.round += 1;
            self.draw();
            self.progress = Progress::default();
            self.next_turn(board);
        } else {
            self.phase = Phase::Over;
        }
    }

    /// `Game.turn`'s skip: the next seat this round with a disc and an open marker is asked to
    /// place; when every seat has had its turn, the flips.
    fn next_turn(&mut self, board: &Board) {
        let st = &self.st;
        while usize::from(self.progress.turns_taken) < st.players {
            let p = (st.first_player() + usize::from(self.progress.turns_taken)) % st.players;
            if st.discs[p] != 0 && !st.open.is_empty() {
                self.phase = Phase::Place(p as u8);
                return;
            }
            self.progress.turns_taken += 1;
        }
        self.flip(board);
    }

    fn end_turn(&mut self, board: &Board) {
        self.progress.turns_taken += 1;
        self.next_turn(board);
    }

    /// `Game._powers`: after seat p's placement on `last`, a power window while it has a disc and
    /// a power that could apply; else its turn ends.
    pub fn open_window(&mut self, board: &Board, p: usize, last: usize, destroyed: Destroyed) {
        let st = &self.st;
        if st.discs[p] == 0 {
            return self.end_turn(board);
        }
        let bits = st.powers[p];
        let mut cover = Destroyed::default();
        if bits & COVER != 0 {
            for &b in destroyed.as_slice() {
                if st.cell[b as usize] == EMPTY {
                    cover.spaces[cover.len] = b;
                    cover.len += 1;
                }
            }
        }
        if cover.len == 0 && !self.extra_turn_open(p) && bits & NEIGHBORHOOD == 0 {
            return self.end_turn(board);
        }
        self.phase = Phase::Power {
            seat: p as u8,
            last: last as u8,
            cover,
        };
    }

    /// `Game.flips` from where it stands: the open markers flip in ascending order, each
    /// capturing the discs it traps (Protection asked of their owners in space order); after the
    /// last, the next round. Stops at a Protection question.
    pub fn flip(&mut self, board: &Board) {
        loop {
            let pr = &mut self.progress;
            while pr.trapped_next < pr.n_trapped {
                let t = pr.trapped[usize::from(pr.trapped_next)];
                let owner = self.st.cell[usize::from(t)] as u8;
                if self.st.powers[usize::from(owner)] & PROTECTION != 0 {
                    self.phase = Phase::Protect {
                        seat: owner,
                        space: t,
                    };
                    return;
                }
                pr.trapped_next += 1;
                remove_disc(board, &mut self.st, usize::from(t));
            }
            let Some(&s) = self.st.open.get(usize::from(pr.flip_next)) else {
                break;
            };
            pr.flip_next += 1;
            let s = usize::from(s);
            let cell = &mut self.st.cell;
            cell[s] = BASE;
            if self.track_flips {
                self.flipped.push(s as u8);
            }
            let mut n = 0;
            for &(n1, n2) in board.lines.get(s) {
                let c = cell[n1 as usize];
                if (0..4).contains(&c) && cell[n2 as usize] == BASE {
                    pr.trapped[n] = n1;
                    n += 1;
                }
            }
            pr.trapped[..n].sort_unstable();
            pr.n_trapped = n as u8;
            pr.trapped_next = 0;
        }
        self.st.open.clear();
        self.next_round(board);
    }

    fn choose_place(&mut self, board: &Board, p: usize) -> usize {
        let r = self.rng_index(p);
        match self.strategies[p] {
            Strategy::Rollout { rollouts, win, .. } if self.st.open.len() > 1 => {
                let mut search = self
                    .rollout
                    .take()
                    .unwrap_or_else(|| Box::new(Rollout::new(board, self.st.players)));
                let s = search.place(
                    board,
                    &self.st,
                    self.progress,
                    p,
                    &mut self.rngs[r],
                    rollouts,
                    win,
                );
                self.rollout = Some(search);
                s
            }
            strategy => players::place(
                strategy,
                board,
                &self.st,
                p,
                &mut self.rngs[r],
                &mut self.scratch,
            ),
        }
    }

    /// `Game.draw`.
    fn draw(&mut self) {
        let st = &mut self.st;
        let k = (st.players + 2).min(st.bag.len());
        st.open.clear();
        for _ in 0..k {
            let s = st.bag.pop().expect("a marker");
            st.cell[s as usize] = ATTACK;
            st.open.push(s);
        }
        st.open.sort_unstable();
        st.extra_users = 0;
    }
}

/// One seat's row (`seat_record`), the integers in `SEAT_INTS` order.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub city_card: i64,
    pub border_card: usize,
    pub score: i64,
    pub won: bool,
    pub ints: [i64; 15],
    pub used: [bool; 4],
}

/// One game's row (`record`) and its seats.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub head: Head<Option<bool>>,
    pub winners: i64,
    pub winning_seat: i64,
    pub margin: i64,
    pub bases_destroyed: i64,
    pub bases_left: i64,
    pub discs_captured: i64,
    pub mean_score: f64,
    pub base_spaces: String,
    pub capture_spaces: String,
    pub seats: Vec<SeatRow>,
}

/// Plays whole games, reusing one game's buffers.
pub struct Engine<'a> {
    pub(super) board: &'a Board,
    pub(super) params: Params,
    pub(super) game: Game,
    /// The search players' tree and model, made when a seat first searches.
    pub(super) searcher: Option<Box<Searcher<'a>>>,
}

impl<'a> Engine<'a> {
    pub fn new(board: &'a Board, params: Params) -> Engine<'a> {
        Engine {
            board,
            params,
            game: Game::new(board, params.players),
            searcher: None,
        }
    }

    /// `AlienAttack.play` for seats playing `strategies` (already in seat order): the seats'
    /// heuristics play through `Game::run`, which stops at each decision of a seat that searches.
    pub fn play(
        &mut self,
        strategies: &[Strategy],
        root_seed: u64,
        game_index: u64,
    ) -> Result<Record, String> {
        self.start(strategies, root_seed, game_index);
        loop {
            self.game.run(self.board);
            let Some(p) = self.game.to_move() else {
                return Ok(self.result());
            };
            let action = self.searched(p)?;
            self.game.apply(self.board, action)?;
        }
    }

    /// `AlienAttack._game`: the streams, the deal and the Mothership's order, then the first
    /// round's draw, up to its first decision.
    pub(super) fn start(&mut self, strategies: &[Strategy], root_seed: u64, game_index: u64) {
        let board = self.board;
        let n = self.params.players;
        let g = &mut self.game;
        g.st.reset(board);
        g.flipped.clear();
        let seq = game_sequence(root_seed, game_index);
        // the set-up, chance and seat streams, seeded together (PyRandom::reseed_many)
        let mut keys = [[0u32; 4]; SEAT_RNG0 + MAX_SEATS];
        for (k, key) in keys.iter_mut().enumerate().take(SEAT_RNG0 + n) {
            let path = [SETUP + k as u64];
            key.copy_from_slice(&seq.child(&path).generate_state(4));
        }
        debug_assert!(
            CHANCE == SETUP + CHANCE_RNG as u64 && FIRST_SEAT == SETUP + SEAT_RNG0 as u64
        );
        g.rngs.resize_with(SEAT_RNG0 + n, || PyRandom::from_u64(0));
        PyRandom::reseed_many(&mut g.rngs, &keys[..SEAT_RNG0 + n]);
        let mut cities = CITY_CARDS;
        let mut borders = [0usize, 1, 2, 3];
        let setup = &mut g.rngs[SETUP_RNG];
        setup.shuffle(&mut cities);
        setup.shuffle(&mut borders);
        g.st.city_card[..n].copy_from_slice(&cities[..n]);
        g.st.border_card[..n].copy_from_slice(&borders[..n]);
        g.st.bag.extend((1..=board.n).map(|s| s as u8));
        g.rngs[CHANCE_RNG].shuffle(&mut g.st.bag);
        g.strategies[..n].copy_from_slice(strategies);
        g.next_round(board);
    }

    /// `AlienAttack._result`.
    pub(super) fn result(&self) -> Record {
        let board = self.board;
        let g = &self.game;
        let st = &g.st;
        let n = st.players;
        let mut finals = [Final::default(); MAX_SEATS];
        for (p, f) in finals.iter_mut().enumerate().take(n) {
            *f = final_score(board, st, p);
        }
        let totals: Vec<i64> = finals[..n].iter().map(|f| f.total).collect();
        let best: Vec<i64> = finals[..n].iter().map(|f| f.best_city).collect();
        let mut win = winners(&totals, &best);
        let destroyed: i64 = st.bases[..n].iter().sum();
        let earth = destroyed >= SEMI_COOP_BASES;
        let semi = self.params.semi_coop;
        if semi && !earth {
            win = 0;
        }
        let mut ranked = totals.clone();
        ranked.sort_unstable_by(|a, b| b.cmp(a));
        let n_win = win.count_ones() as i64;
        // every space that flipped, and any base or emptied space (a set: ascending, once each)
        let mut base_set = [false; 256];
        for &s in &g.flipped {
            base_set[s as usize] = true;
        }
        let mut base_spaces = String::new();
        let mut capture_spaces = String::new();
        for (s, &c) in st.cell.iter().enumerate().take(board.n + 1).skip(1) {
            if base_set[s] || c == BASE || c == EMPTY {
                push_space(&mut base_spaces, s);
            }
            if c == LOST {
                push_space(&mut capture_spaces, s);
            }
        }
        let seats = (0..n)
            .map(|p| {
                let f = &finals[p];
                let used = [PROTECTION, COVER, NEIGHBORHOOD, EXTRA].map(|b| st.powers[p] & b == 0);
                SeatRow {
                    city_card: st.city_card[p],
                    border_card: st.border_card[p],
                    score: f.total,
                    won: win & (1 << p) != 0,
                    ints: [
                        f.placement_points,
                        f.city_mission,
                        f.border_mission,
                        f.parks,
                        f.bases,
                        f.territory,
                        f.protection,
                        st.placed[p],
                        st.captured[p],
                        st.bases[p],
                        st.parks[p],
                        f.largest_group,
                        f.city_cards,
                        f.border_discs,
                        used.iter().filter(|&&u| u).count() as i64,
                    ],
                    used,
                }
            })
            .collect();
        Record {
            head: Head {
                won: if semi { Some(earth) } else { None },
                score: ranked[0],
                length: st.round,
                end_reason: if semi {
                    if earth {
                        1
                    } else {
                        2
                    }
                } else {
                    0
                },
            },
            winners: n_win,
            winning_seat: if n_win == 1 {
                win.trailing_zeros() as i64
            } else {
                -1
            },
            margin: ranked[0] - ranked[1],
            bases_destroyed: destroyed,
            bases_left: (1..=board.n).filter(|&s| st.cell[s] == BASE).count() as i64,
            discs_captured: st.captured[..n].iter().sum(),
            mean_score: totals.iter().sum::<i64>() as f64 / n as f64,
            base_spaces,
            capture_spaces,
            seats,
        }
    }
}

fn push_space(out: &mut String, s: usize) {
    use std::fmt::Write;
    if !out.is_empty() {
        out.push(' ');
    }
    let _ = write!(out, "{s}");
}

/// Border card names, for the tests.
#[allow(dead_code)]
pub fn border_name(card: usize) -> &'static str {
    BORDER_CARDS[card]
}
