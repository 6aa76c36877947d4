//! Alien Attack's forward model (`mcts::Model`) and its search player, `mcts`.
//!
//! A position is a game between two decisions (`Game::phase`: a seat's placement, one of its
//! power windows, or its Protection question at a flip); `Game::apply` plays an answer and the
//! rules and draws up to the next decision of any seat, the same code the built-in players'
//! games run through (`Game::run`). Everything on the table is public (the mission cards lie
//! face up, RULINGS §1 and [Setup]); what nobody sees is the Mothership's order. A
//! determinization reshuffles the undrawn markers and reseeds the stream the rollout players
//! break their ties with.

use super::board::Board;
use super::game::{
    final_score, neighborhood_targets, winners, Action, Engine, Game, Phase, Record, Snapshot,
    State, MAX_SEATS, NEIGHBORHOOD, NONE, SEAT_RNG0, SEMI_COOP_BASES,
};
use super::players::{missions_values, MissionsNumbers, Power};
use super::{Components, Params, Strategy};
use crate::mcts::{self, Budget, Hooks, KeyHasher, Positions, SplitMix};
use crate::params::named_params;
use crate::position::lasting;
use crate::rng::PyRandom;

/// The search player's numbers (its strategy's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    pub iterations: i64,
    pub exploration: f64,
    /// Power uses weighed in a window: the best this many by the missions player's value of the
    /// disc they place (0: every one); ending the turn is always weighed.
    pub width: i64,
    /// The margin's weight in a seat's value (the rest is winning: 1 for a winner, 0 else).
    pub margin: f64,
    /// The lead over the best other seat, in points, that earns the whole margin share (as far
    /// behind earns none; level earns half).
    pub spread: f64,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            iterations: 200,
            exploration: 0.5,
            width: 4,
            margin: 0.5,
            spread: 30.0,
        }
    }
}

named_params!(
    SearchParams,
    [iterations, exploration, width, margin, spread]
);

/// What the player to move has seen: the whole table (every cell, this round's open markers,
/// every seat's discs left, points, powers, parks, bases and captures; the cards are fixed for
/// the game), the decision and where the round stands. Not the Mothership's order: the undrawn
/// markers are the spaces still `NONE`.
pub fn info_key(game: &Game, board: &Board) -> u64 {
    let st = &game.st;
    let spaces = |list: &[u8]| list.iter().fold(0u64, |k, &s| k << 8 | u64::from(s));
    let (phase, cover) = match game.phase {
        Phase::Place(p) => (1 << 8 | u64::from(p), 0),
        Phase::Power { seat, last, cover } => (
            (2 << 8 | u64::from(seat)) << 8 | u64::from(last),
            spaces(cover.as_slice()),
        ),
        Phase::Protect { seat, space } => ((3 << 8 | u64::from(seat)) << 8 | u64::from(space), 0),
        Phase::Over => (4 << 8, 0),
    };
    let pr = game.progress;
    let cursor =
        u64::from(pr.turns_taken) << 16 | u64::from(pr.flip_next) << 8 | u64::from(pr.trapped_next);
    let mut h = KeyHasher::default()
        .word(phase)
        .word(cover)
        .word(cursor)
        .word(spaces(&pr.trapped[..usize::from(pr.n_trapped)]))
        .word(spaces(&st.open))
        .word((st.round as u64) << 8 | st.extra_users as u64);
    for p in 0..st.players {
        h = h.word(
            (st.discs[p] as u64) << 56
                | (st.parks[p] as u64) << 48
                | (st.bases[p] as u64) << 40
                | (st.captured[p] as u64) << 32
                | u64::from(st.powers[p]) << 24
                | st.score[p] as u64,
        );
    }
    for chunk in st.cell[..=board.n].chunks(8) {
        h = h.word(chunk.iter().fold(0u64, |k, &c| k << 8 | u64::from(c as u8)));
    }
    h.key()
}

/// A position is its game's, on the engine's board.
impl Positions for Engine<'_> {
    type Snapshot = Snapshot;

    fn snapshot(&self) -> Snapshot {
        self.game.snapshot()
    }

    fn restore(&mut self, s: &Snapshot) {
        self.game.restore(s);
    }

    fn over(&self) -> bool {
        self.game.over()
    }

    fn info_key(&self) -> u64 {
        info_key(&self.game, self.board)
    }
}

/// A window's buffers: its power uses and their values, the Neighborhood targets.
#[derive(Default)]
struct Uses {
    uses: Vec<(f64, Power)>,
    spaces: Vec<u8>,
    values: Vec<f64>,
}

/// The answers open at this decision. A window lists ending the turn first, then the power uses
/// (Cover, Extra Turn, Neighborhood: every legal space), the best `width` of them by the missions
/// value of the disc placed when `width` > 0 (ties to the order listed).
fn legal_actions(board: &Board, g: &mut Game, width: usize, b: &mut Uses, out: &mut Vec<Action>) {
    out.clear();
    match g.phase {
        Phase::Place(_) => out.extend(g.st.open.iter().map(|&s| Action::Place(s))),
        Phase::Power { seat, cover, .. } => {
            out.push(Action::EndTurn);
            let p = usize::from(seat);
            let st = &g.st;
            let uses = &mut b.uses;
            uses.clear();
            uses.extend(
                cover
                    .as_slice()
                    .iter()
                    .map(|&s| (0.0, Power::Cover(s.into()))),
            );
            if g.extra_turn_open(p) {
                uses.extend(st.open.iter().map(|&s| (0.0, Power::ExtraTurn(s.into()))));
            }
            if st.powers[p] & NEIGHBORHOOD != 0 {
                neighborhood_targets(board, &st.cell, p, &mut b.spaces);
                uses.extend(
                    b.spaces
                        .iter()
                        .map(|&s| (0.0, Power::Neighborhood(s.into()))),
                );
            }
            if width > 0 && uses.len() > width {
                let space = |u: &Power| match *u {
                    Power::Cover(s) | Power::ExtraTurn(s) | Power::Neighborhood(s) => s,
                };
                let n = &MissionsNumbers::DEFAULT;
                let spaces = uses.iter().map(|(_, u)| space(u));
                missions_values(board, st, p, spaces, &mut g.scratch, n, &mut b.values);
                for (u, &v) in uses.iter_mut().zip(&b.values) {
                    u.0 = v;
                }
                // a stable sort: equal values keep the order listed
                uses.sort_by(|a, b| b.0.total_cmp(&a.0));
                uses.truncate(width);
            }
            out.extend(uses.iter().map(|&(_, u)| Action::Power(u)));
        }
        Phase::Protect { .. } => out.extend([Action::Protect(true), Action::Protect(false)]),
        Phase::Over => {}
    }
}

/// The Mothership's order resampled from what is public: the spaces without a marker yet,
/// ascending, then shuffled by `g` (the deal depends on the seed and the table only).
fn reshuffle_mothership(board: &Board, st: &mut State, g: &mut SplitMix) {
    st.bag.clear();
    st.bag.extend(
        (1..=board.n)
            .filter(|&s| st.cell[s] == NONE)
            .map(|s| s as u8),
    );
    g.shuffle(&mut st.bag);
}

/// The model the search plays on: a game whose every seat plays the missions defaults (the
/// rollouts), one shared tie-break stream, and the search's reading of the end.
pub type Sim<'b> = mcts::Sim<Engine<'b>, SearchHooks>;

/// The search's own part of the model: the power uses it weighs, its reading of the end, and
/// the windows' buffers.
pub struct SearchHooks {
    width: usize,
    margin: f64,
    spread: f64,
    uses: Uses,
}

impl<'b> Sim<'b> {
    pub fn new(board: &'b Board, params: Params) -> Sim<'b> {
        let mut engine = Engine::new(board, params);
        let game = &mut engine.game;
        // the rollouts' players play the declared missions defaults, as the rollout player's do
        game.strategies = [MISSIONS; MAX_SEATS];
        game.shared_rng = true;
        game.track_flips = false;
        game.rngs.push(PyRandom::from_u64(0));
        let p = SearchParams::default();
        let hooks = SearchHooks {
            width: p.width as usize,
            margin: p.margin,
            spread: p.spread,
            uses: Uses::default(),
        };
        Sim { engine, hooks }
    }
}

impl Hooks<Engine<'_>> for SearchHooks {
    type Action = Action;

    /// The Mothership's order resampled from what is public (`reshuffle_mothership`), and the
    /// rollout players' tie-break stream reseeded.
    fn determinize(&mut self, e: &mut Engine, seed: u64) {
        let mut g = SplitMix(seed);
        reshuffle_mothership(e.board, &mut e.game.st, &mut g);
        e.game.rngs[0].reseed_u64(g.next_u64());
    }

    fn to_move(&self, e: &Engine) -> usize {
        e.game.to_move().unwrap_or(0)
    }

    /// `legal_actions` at the model's position, its window narrowed to `width` uses.
    fn legal(&mut self, e: &mut Engine, out: &mut Vec<Action>) -> Result<(), String> {
        legal_actions(e.board, &mut e.game, self.width, &mut self.uses, out);
        Ok(())
    }

    fn apply(&mut self, e: &mut Engine, action: Action) -> Result<(), String> {
        e.game.apply(e.board, action)
    }

    fn rollout(&mut self, e: &mut Engine) -> Result<(), String> {
        e.game.run(e.board);
        Ok(())
    }

    /// A seat's value: `margin` x its margin share (its lead over the best other seat, over
    /// twice `spread`, from a half, within [0, 1]) plus the rest x winning (the game's winners,
    /// shared wins included; in the semi-cooperative game nobody wins short of 24 bases).
    fn rewards(&self, e: &Engine, out: &mut [f64]) {
        let st = &e.game.st;
        let n = st.players;
        let mut totals = [0i64; MAX_SEATS];
        let mut best_city = [0i64; MAX_SEATS];
        for p in 0..n {
            let f = final_score(e.board, st, p);
            totals[p] = f.total;
            best_city[p] = f.best_city;
        }
        let mut won = winners(&totals[..n], &best_city[..n]);
        if e.params.semi_coop && st.bases[..n].iter().sum::<i64>() < SEMI_COOP_BASES {
            won = 0;
        }
        for (p, value) in out.iter_mut().enumerate().take(n) {
            let others = (0..n).filter(|&q| q != p).map(|q| totals[q]).max();
            let lead = (totals[p] - others.expect("another seat")) as f64;
            let share = (0.5 + lead / (2.0 * self.spread)).clamp(0.0, 1.0);
            let win = f64::from(won >> p & 1);
            *value = self.margin * share + (1.0 - self.margin) * win;
        }
    }
}

/// The `mcts` seats' search: its model and tree, kept across a batch's decisions (each seat's
/// numbers are read at its decision).
pub type Searcher<'b> = mcts::Searcher<Sim<'b>>;

impl<'b> Searcher<'b> {
    pub fn new(board: &'b Board, params: Params) -> Searcher<'b> {
        let p = SearchParams::default();
        let budget = Budget::new(p.iterations, p.exploration);
        Searcher::with(Sim::new(board, params), params.players, budget)
    }

    /// A seat's numbers, for its decision.
    fn set_params(&mut self, p: &SearchParams) {
        let hooks = &mut self.sim.hooks;
        hooks.width = p.width.max(0) as usize;
        hooks.margin = p.margin;
        hooks.spread = p.spread;
        self.budget = Budget::new(p.iterations, p.exploration);
    }
}

impl Engine<'_> {
    /// The answer of seat p (playing `mcts`) at this decision: a search from a copy of the
    /// position, its deals drawn from a seed the seat's stream gives (so the game stays a
    /// function of its seed).
    pub(super) fn searched(&mut self, p: usize) -> Result<Action, String> {
        let Strategy::Mcts(params) = self.game.strategies[p] else {
            return Err(format!("seat {p} does not search"));
        };
        let seed = self.game.rngs[SEAT_RNG0 + p].getrandbits64();
        self.search(&params, seed)
    }

    /// The search's answer at this decision with these numbers, its deals drawn from `seed`.
    fn search(&mut self, params: &SearchParams, seed: u64) -> Result<Action, String> {
        let root = self.game.snapshot();
        let (board, players) = (self.board, self.params);
        let s = self
            .searcher
            .get_or_insert_with(|| Box::new(Searcher::new(board, players)));
        s.set_params(params);
        s.choose(&root, seed)
    }
}

/// Every seat's strategy in a position's game and in the rollouts: the game's own steps ask no
/// strategy, and the rollouts play the missions defaults.
const MISSIONS: Strategy = Strategy::Missions(MissionsNumbers::DEFAULT);

/// The forward model as one owned value: a position of a game, with the Mothership's order it
/// will draw from. Started from a game's seed it has that game's deal and draws.
pub struct Position {
    engine: Engine<'static>,
    uses: Uses,
}

impl Position {
    /// Game `game` of root seed `seed`, dealt and at its first decision.
    pub fn start(comp: &Components, params: Params, seed: u64, game: u64) -> Result<Self, String> {
        if !(2..=MAX_SEATS).contains(&params.players) {
            return Err(format!("{} players (2 to {MAX_SEATS})", params.players));
        }
        let board = lasting(comp, Board::new)?;
        let mut engine = Engine::new(board, params);
        engine.start(&[MISSIONS; MAX_SEATS][..params.players], seed, game);
        Ok(Position {
            engine,
            uses: Uses::default(),
        })
    }

    /// The `mcts` player's answer for the seat to move, with these numbers, its deals drawn from
    /// `seed`. It reads only what is public: every evaluation starts from a fresh deal.
    pub fn search(&mut self, p: &SearchParams, seed: u64) -> Result<Action, String> {
        if self.engine.game.over() {
            return Err("the game is over".into());
        }
        self.engine.search(p, seed)
    }

    pub fn phase(&self) -> Phase {
        self.engine.game.phase
    }

    /// The seat to decide (none once over).
    pub fn to_move(&self) -> Option<usize> {
        self.engine.game.to_move()
    }

    /// Every legal answer at this decision (none when the game is over).
    pub fn legal(&mut self) -> Result<Vec<Action>, String> {
        let mut out = Vec::new();
        let e = &mut self.engine;
        legal_actions(e.board, &mut e.game, 0, &mut self.uses, &mut out);
        Ok(out)
    }

    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        // the engine's checks take the spaces its own players name: a space off the board here
        let board = self.engine.board;
        if let Action::Power(Power::Cover(s) | Power::ExtraTurn(s) | Power::Neighborhood(s)) =
            action
        {
            if !(1..=board.n).contains(&s) {
                return Err(format!("{action:?}: no such space (1 to {})", board.n));
            }
        }
        self.engine.game.apply(board, action)
    }

    /// Resample what nobody sees: the Mothership's order (as the search's deal of `seed` does).
    pub fn determinize(&mut self, seed: u64) {
        let e = &mut self.engine;
        reshuffle_mothership(e.board, &mut e.game.st, &mut SplitMix(seed));
    }

    pub fn info_key(&self) -> u64 {
        self.engine.info_key()
    }

    /// The table (all of it public but the Mothership's order, `State::bag`).
    pub fn state(&self) -> &State {
        &self.engine.game.st
    }

    /// The spaces on the board (1..=n).
    pub fn spaces(&self) -> usize {
        self.engine.board.n
    }

    /// The record as the table stands: the final scoring of every seat now (the game's record
    /// once it is over).
    pub fn record(&self) -> Record {
        self.engine.result()
    }
}

impl Clone for Position {
    fn clone(&self) -> Position {
        let e = &self.engine;
        let mut engine = Engine::new(e.board, e.params);
        let g = &mut engine.game;
        g.restore(&e.game.snapshot());
        g.strategies = e.game.strategies;
        g.rngs.clone_from(&e.game.rngs);
        g.flipped.clone_from(&e.game.flipped);
        Position {
            engine,
            uses: Uses::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::Board;
    use super::super::tests::default_components;
    use super::*;
    use crate::mcts::{advance, assert_order_free, Model};

    fn params(players: usize) -> Params {
        Params {
            players,
            semi_coop: false,
        }
    }

    /// The position at game `game`'s first decision, missions in every seat.
    fn first_decision(board: &Board, players: usize, game: u64) -> Snapshot {
        let mut e = Engine::new(board, params(players));
        e.start(&vec![MISSIONS; players], 7, game);
        e.game.snapshot()
    }

    /// A game walked through the forward model from its first decision by a seeded uniform
    /// choice among every legal answer (width 0): (answers given, final table).
    fn walk(sim: &mut Sim, start: &Snapshot, pick: u64) -> (usize, Snapshot) {
        sim.load(start);
        let mut g = SplitMix(pick);
        let mut legal = Vec::new();
        let mut steps = 0;
        while !sim.over() {
            sim.legal(&mut legal).unwrap();
            assert!(
                !legal.is_empty(),
                "nothing legal at {:?}",
                sim.engine.game.phase
            );
            let a = legal[g.below(legal.len())];
            sim.apply(a).unwrap();
            steps += 1;
        }
        (steps, sim.save())
    }

    #[test]
    fn every_legal_answer_is_taken_and_games_end() {
        let board = Board::new(&default_components()).unwrap();
        let mut kinds = [0usize; 5];
        for players in [2, 4] {
            let mut sim = Sim::new(&board, params(players));
            sim.hooks.width = 0;
            for game in 0..40 {
                let start = first_decision(&board, players, game);
                let (steps, end) = walk(&mut sim, &start, game);
                assert!(steps >= 30 * 2, "every seat places every round");
                assert!(end.st.bag.is_empty() || end.st.round == end.st.rounds);
                let (again, end2) = walk(&mut sim, &start, game);
                assert_eq!(
                    (again, end2.st.cell),
                    (steps, end.st.cell),
                    "a function of its seeds"
                );
                // what the walks met: placements, windows, each power, Protection questions
                sim.load(&start);
                let mut g = SplitMix(game);
                let mut legal = Vec::new();
                while !sim.over() {
                    sim.legal(&mut legal).unwrap();
                    for a in &legal {
                        kinds[match a {
                            Action::Place(_) => 0,
                            Action::EndTurn => 1,
                            Action::Power(Power::Neighborhood(_)) => 2,
                            Action::Power(_) => 3,
                            Action::Protect(_) => 4,
                        }] += 1;
                    }
                    sim.apply(legal[g.below(legal.len())]).unwrap();
                }
            }
        }
        assert!(
            kinds.iter().all(|&k| k > 0),
            "every kind of decision: {kinds:?}"
        );
    }

    #[test]
    fn apply_refuses_an_answer_the_rules_do_not_allow() {
        let board = Board::new(&default_components()).unwrap();
        let mut sim = Sim::new(&board, params(2));
        sim.load(&first_decision(&board, 2, 3));
        assert!(matches!(sim.engine.game.phase, Phase::Place(0)));
        let taken = (1..=board.n as u8)
            .find(|s| !sim.engine.game.st.open.contains(s))
            .unwrap();
        assert!(
            sim.apply(Action::Place(taken)).is_err(),
            "not an open marker"
        );
        assert!(sim.apply(Action::EndTurn).is_err(), "not a window");
        assert!(sim.apply(Action::Protect(true)).is_err());
        let open = sim.engine.game.st.open[0];
        assert!(sim
            .apply(Action::Power(Power::ExtraTurn(open.into())))
            .is_err());
        sim.apply(Action::Place(open)).unwrap();
        // the first window: Neighborhood has no target yet, Extra Turn takes an open marker only
        assert!(matches!(
            sim.engine.game.phase,
            Phase::Power { seat: 0, .. }
        ));
        assert!(sim
            .apply(Action::Power(Power::Neighborhood(open.into())))
            .is_err());
        assert!(sim
            .apply(Action::Power(Power::ExtraTurn(open.into())))
            .is_err());
        assert!(sim.apply(Action::Power(Power::Cover(open.into()))).is_err());
        sim.apply(Action::EndTurn).unwrap();
        assert!(matches!(sim.engine.game.phase, Phase::Place(1)));
    }

    #[test]
    fn a_window_weighs_ending_the_turn_and_the_best_width_uses() {
        let board = Board::new(&default_components()).unwrap();
        let mut sim = Sim::new(&board, params(2));
        let (mut all, mut kept) = (Vec::new(), Vec::new());
        let mut wide = 0;
        for game in 0..20 {
            sim.load(&first_decision(&board, 2, game));
            let mut g = SplitMix(game);
            while !sim.over() {
                sim.hooks.width = 0;
                sim.legal(&mut all).unwrap();
                sim.hooks.width = 3;
                sim.legal(&mut kept).unwrap();
                if matches!(sim.engine.game.phase, Phase::Power { .. }) {
                    assert_eq!(kept.len(), all.len().min(1 + 3));
                    assert!(kept.iter().all(|a| all.contains(a)));
                    assert_eq!(kept[0], Action::EndTurn);
                    wide += usize::from(all.len() > 4);
                } else {
                    assert_eq!(kept, all, "only a window is narrowed");
                }
                sim.apply(all[g.below(all.len())]).unwrap();
            }
        }
        assert!(wide > 0, "some window had more uses than the width");
    }

    #[test]
    fn a_restored_snapshot_plays_on_as_the_original() {
        let board = Board::new(&default_components()).unwrap();
        let mut sim = Sim::new(&board, params(3));
        sim.load(&first_decision(&board, 3, 5));
        advance(&mut sim, 40, |legal| *legal.last().unwrap());
        let snap = sim.save();
        let key = sim.info_key();
        sim.determinize(11);
        sim.rollout().unwrap();
        let first = sim.save();
        let mut rewards = [0.0; 3];
        sim.rewards(&mut rewards);
        sim.load(&snap);
        assert_eq!(sim.info_key(), key);
        sim.determinize(11);
        sim.rollout().unwrap();
        let second = sim.save();
        assert_eq!(
            (first.st.cell, first.st.score, first.st.round),
            (second.st.cell, second.st.score, second.st.round)
        );
        let mut again = [0.0; 3];
        sim.rewards(&mut again);
        assert_eq!(rewards, again);
        assert!(rewards.iter().all(|r| (0.0..=1.0).contains(r)));
    }

    #[test]
    fn a_deal_changes_only_the_mothership_order() {
        let board = Board::new(&default_components()).unwrap();
        let mut sim = Sim::new(&board, params(2));
        sim.load(&first_decision(&board, 2, 9));
        advance(&mut sim, 25, |legal| legal[0]);
        let snap = sim.save();
        let key = sim.info_key();
        let mut sorted_before = snap.st.bag.clone();
        sorted_before.sort_unstable();
        let mut orders = std::collections::BTreeSet::new();
        for seed in 0..20 {
            sim.load(&snap);
            sim.determinize(seed);
            assert_eq!(sim.info_key(), key);
            let st = &sim.engine.game.st;
            assert_eq!(
                (st.cell, &st.open, st.score, st.powers),
                (snap.st.cell, &snap.st.open, snap.st.score, snap.st.powers)
            );
            orders.insert(st.bag.clone());
            let mut sorted = st.bag.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, sorted_before, "the same markers, in another order");
        }
        assert!(orders.len() == 20, "deals shuffle the Mothership");
        // the deal reads the table only: the true order does not show through
        sim.load(&snap);
        sim.engine.game.st.bag.reverse();
        sim.determinize(3);
        let from_reversed = sim.engine.game.st.bag.clone();
        sim.load(&snap);
        sim.determinize(3);
        assert_eq!(sim.engine.game.st.bag, from_reversed);
    }

    /// Answers no seat would give as well as legal ones: spaces on and off the board.
    fn any_answers() -> Vec<Action> {
        let mut out = vec![
            Action::EndTurn,
            Action::Protect(true),
            Action::Protect(false),
        ];
        for s in (0..=255u8).step_by(7).chain([1, 2, 3]) {
            out.push(Action::Place(s));
            for p in [Power::Cover, Power::ExtraTurn, Power::Neighborhood] {
                out.push(Action::Power(p(usize::from(s))));
            }
        }
        out.push(Action::Power(Power::Cover(300)));
        out
    }

    #[test]
    fn a_position_takes_exactly_its_legal_answers_and_never_panics() {
        let comp = default_components();
        for (players, game) in [(2, 0), (3, 1), (4, 2)] {
            let mut pos = Position::start(&comp, params(players), 9, game).unwrap();
            let mut g = SplitMix(game);
            while pos.to_move().is_some() {
                let legal = pos.legal().unwrap();
                for a in any_answers().into_iter().chain(legal.iter().copied()) {
                    let ok = pos.clone().apply(a).is_ok();
                    assert_eq!(ok, legal.contains(&a), "{a:?} at {:?}", pos.phase());
                }
                pos.apply(legal[g.below(legal.len())]).unwrap();
            }
            assert!(pos.legal().unwrap().is_empty());
            assert!(pos.apply(Action::EndTurn).is_err());
            assert!(pos.search(&SearchParams::default(), 1).is_err());
        }
    }

    #[test]
    fn a_copy_plays_on_as_the_original_and_a_deal_keeps_what_is_seen() {
        let comp = default_components();
        let mut pos = Position::start(&comp, params(3), 4, 7).unwrap();
        for _ in 0..20 {
            let legal = pos.legal().unwrap();
            pos.apply(legal[legal.len() / 2]).unwrap();
        }
        let walk = |mut p: Position| {
            while p.to_move().is_some() {
                let legal = p.legal().unwrap();
                p.apply(legal[legal.len() / 2]).unwrap();
            }
            p.record()
        };
        let copy = pos.clone();
        assert_eq!(walk(copy), walk(pos.clone()));
        let mut dealt = pos.clone();
        dealt.determinize(5);
        assert_eq!(dealt.info_key(), pos.info_key());
        let mut a = dealt.state().bag.clone();
        let mut b = pos.state().bag.clone();
        assert_ne!(a, b, "another order");
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "of the same markers");
    }

    #[test]
    fn mcts_games_are_a_function_of_their_seed() {
        let board = Board::new(&default_components()).unwrap();
        let mcts = Strategy::Mcts(SearchParams {
            iterations: 8,
            ..SearchParams::default()
        });
        let seats = [mcts, MISSIONS];
        let mut e = Engine::new(&board, params(2));
        assert_order_free(3, |i| e.play(&seats, 4, i).unwrap());
    }
}
