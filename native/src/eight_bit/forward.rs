//! 8-Bit Invaders' forward model (`mcts::Model`) and its search player, `mcts`.
//!
//! A position is the engine between two decisions (`Engine::phase`); `Engine::apply` plays an
//! answer and the rules and dice up to the next decision, the same code the built-in players'
//! games run through (`Engine::run`). What the player cannot see: the order of the bonus pile
//! and every future die. A determinization shuffles the pile and reseeds the attack, movement
//! and re-roll streams; the formation, the hand, the discards and this turn's dice are seen.

use super::game::{Action, Adjust, Engine, Phase, Record, Rngs, State, END_CLEARED};
use super::rules::{Dealt, Tables, RAPID_FIRE, SMART_BOMB, TIME_SLIP};
use super::{Components, Params, Strategy};
use crate::mcts::{self, Budget, Hooks, KeyHasher, Positions, SplitMix};
use crate::params::named_params;
use crate::position::{lasting, search};

/// The search player's numbers (its strategy's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    pub iterations: i64,
    pub exploration: f64,
    /// Plans the search weighs at an allocation: the best this many by the lookahead player's
    /// score (0: every achievable kill set).
    pub width: i64,
    /// A lost game's value: this times the share of the aliens killed (a won game is worth 1).
    pub progress: f64,
    /// Rollouts by the lookahead player (else by the greedy one, faster and weaker).
    pub lookahead_rollout: bool,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            iterations: 200,
            exploration: 0.5,
            width: 6,
            progress: 0.5,
            lookahead_rollout: true,
        }
    }
}

named_params!(
    SearchParams,
    [iterations, exploration, width, progress, lookahead_rollout]
);

/// A position: everything `Engine::apply` reads and changes (the engine's search buffers and
/// memo are caches, not state).
#[derive(Clone, Debug)]
pub struct Snapshot {
    st: super::game::State,
    dealt: Dealt,
    phase: Phase,
    dice: [u8; 32],
    n_dice: usize,
    living: u16,
}

impl Positions for Engine<'_> {
    type Snapshot = Snapshot;

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            st: self.st.clone(),
            dealt: self.dealt.clone(),
            phase: self.phase,
            dice: self.dice,
            n_dice: self.n_dice,
            living: self.living,
        }
    }

    fn restore(&mut self, s: &Snapshot) {
        self.st.clone_from(&s.st);
        self.dealt.clone_from(&s.dealt);
        self.phase = s.phase;
        self.dice = s.dice;
        self.n_dice = s.n_dice;
        self.living = s.living;
        self.declined = None;
    }

    fn over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }

    /// What the player has seen at this decision: the board, the hand, the discards (so the
    /// pile's contents, not its order) and this turn's dice.
    fn info_key(&self) -> u64 {
        let st = &self.st;
        let phase = match self.phase {
            Phase::Trade => 1,
            Phase::Rapid => 2,
            Phase::Adjust => 3,
            Phase::Allocate => 4,
            Phase::Fuel => 5,
            Phase::Over(r) => 6 + u64::from(r),
        };
        let hand = st.hand.iter().fold(0u64, |k, &c| k << 8 | u64::from(c));
        let mut discards = [0u64; 5];
        for &c in &st.discard {
            discards[c] += 1;
        }
        let discards = discards.iter().fold(0u64, |k, &c| k << 8 | c);
        let mut h = KeyHasher::default()
            .word(phase)
            .word(st.occ)
            .word(u64::from(st.shields))
            .word((st.countdown as u64) << 32 | st.track as u64)
            .word((st.turn as u64) << 32 | self.n_dice as u64)
            .word(hand)
            .word(discards);
        for chunk in self.dice[..self.n_dice].chunks(8) {
            h = h.word(chunk.iter().fold(0u64, |k, &v| k << 8 | u64::from(v)));
        }
        h.key()
    }
}

impl Engine<'_> {
    /// The answers open at this decision, every distinct one: re-rolling dice of one face
    /// differs only in which of them, so a Time Slip re-rolls the last ones of each face, and a
    /// Smart Bomb turns the first die of a face. `width` > 0 keeps an allocation's best `width`
    /// plans by the lookahead player's score (ties to the smaller kill set).
    pub fn legal_actions(&mut self, width: usize, out: &mut Vec<Action>) {
        out.clear();
        let dice = self.dice;
        let dice = &dice[..self.n_dice];
        match self.phase {
            Phase::Trade => {
                out.push(Action::Trade(None));
                let mut s = self.st.shields;
                while s != 0 {
                    out.push(Action::Trade(Some(s.trailing_zeros() as u8)));
                    s &= s - 1;
                }
            }
            Phase::Rapid => out.extend((0..=self.st.hand[RAPID_FIRE]).map(Action::Rapid)),
            Phase::Adjust => {
                out.push(Action::Adjust(Adjust::None));
                if self.st.hand[SMART_BOMB] > 0 {
                    for (i, v) in dice.iter().enumerate() {
                        if !dice[..i].contains(v) {
                            out.push(Action::Adjust(Adjust::SmartBomb(i)));
                        }
                    }
                }
                if self.st.hand[TIME_SLIP] > 0 {
                    for set in 1u32..1 << dice.len() {
                        let last_of_face = (0..dice.len()).all(|i| {
                            set >> i & 1 == 0
                                || (i + 1..dice.len())
                                    .all(|j| dice[j] != dice[i] || set >> j & 1 == 1)
                        });
                        if last_of_face {
                            out.push(Action::Adjust(Adjust::TimeSlip(set)));
                        }
                    }
                }
            }
            Phase::Allocate => {
                let mut plans = Vec::new();
                self.score_plans(dice, |score, mask| plans.push((score, mask)));
                plans.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                if width > 0 {
                    plans.truncate(width);
                }
                out.extend(plans.iter().map(|&(_, mask)| Action::Allocate(mask)));
            }
            Phase::Fuel => out.extend([Action::Fuel(false), Action::Fuel(true)]),
            Phase::Over(_) => {}
        }
    }
}

/// One deal consistent with what the player has seen: the pile shuffled, the chance streams
/// reseeded. The pile is sorted first, so the deal depends on its contents (seen) and the seed,
/// never on its true order.
fn deal(engine: &mut Engine, rngs: &mut Rngs, seed: u64) {
    let mut g = SplitMix(seed);
    rngs.reseed([g.next_u64(), g.next_u64(), g.next_u64()]);
    let pile = &mut engine.st.pile;
    pile.sort_unstable();
    g.shuffle(pile);
}

/// The model the search plays on: an engine whose strategy plays the rollouts, and its streams.
pub type Sim<'t> = mcts::Sim<Engine<'t>, SearchHooks>;

/// The search's own part of the model: the chance streams its steps draw from, the plans it
/// weighs, its reading of the end.
pub struct SearchHooks {
    rngs: Rngs,
    width: usize,
    progress: f64,
}

impl Hooks<Engine<'_>> for SearchHooks {
    type Action = Action;

    fn determinize(&mut self, engine: &mut Engine, seed: u64) {
        deal(engine, &mut self.rngs, seed);
    }

    fn legal(&mut self, engine: &mut Engine, out: &mut Vec<Action>) -> Result<(), String> {
        engine.legal_actions(self.width, out);
        Ok(())
    }

    fn apply(&mut self, engine: &mut Engine, action: Action) -> Result<(), String> {
        engine.apply(action, &mut self.rngs)
    }

    fn rollout(&mut self, engine: &mut Engine) -> Result<(), String> {
        engine.run(&mut self.rngs)
    }

    fn rewards(&self, e: &Engine, out: &mut [f64]) {
        out[0] = if e.phase == Phase::Over(END_CLEARED) {
            1.0
        } else {
            let n = e.t.n_aliens as f64;
            self.progress * (n - e.st.aliens_left as f64) / n
        };
    }
}

/// The `mcts` strategy's search: its model and tree, kept across a batch's decisions.
pub type Searcher<'t> = mcts::Searcher<Sim<'t>>;

impl<'t> Searcher<'t> {
    pub fn new(engine: &Engine<'t>, p: &SearchParams) -> Searcher<'t> {
        let rollout = if p.lookahead_rollout {
            Strategy::Lookahead
        } else {
            Strategy::Greedy
        };
        let mut sim = Sim {
            engine: Engine::new(engine.t, engine.params, rollout),
            hooks: SearchHooks {
                rngs: Rngs::unseeded(),
                width: p.width.max(0) as usize,
                progress: p.progress,
            },
        };
        sim.engine.weights = engine.weights;
        Searcher::with(sim, 1, Budget::new(p.iterations, p.exploration))
    }
}

impl Engine<'_> {
    /// The `mcts` player's answer at this decision: a search from a copy of the position, its
    /// deals drawn from a seed the seat stream gives (so the game stays a function of its seed).
    pub(super) fn searched(&mut self, rngs: &mut Rngs) -> Result<Action, String> {
        let seed = rngs
            .player
            .as_mut()
            .expect("the search player has its seat stream")
            .getrandbits64();
        let root = self.snapshot();
        mcts::answer(&mut self.searcher, &root, seed)
    }
}

/// The forward model as one owned value: a position of a game and the chance streams that play
/// on from it. Started from a game's seed it has that game's deal and draws its dice.
pub struct Position {
    engine: Engine<'static>,
    rngs: Rngs,
    /// The search `search` last ran, kept for the next call with the same numbers (its memo
    /// of kill options warms up over a game).
    searcher: Option<(SearchParams, Box<Searcher<'static>>)>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        let mut engine = Engine::new(self.engine.t, self.engine.params, Strategy::Greedy);
        engine.restore(&self.engine.snapshot());
        Position {
            engine,
            rngs: self.rngs.clone(),
            searcher: None,
        }
    }
}

impl Position {
    /// Game `game_index` of root seed `root_seed`, set up and at its first decision.
    pub fn start(
        comp: &Components,
        params: Params,
        root_seed: u64,
        game_index: u64,
    ) -> Result<Position, String> {
        let t = lasting(comp, Tables::new)?;
        let mut engine = Engine::new(t, params, Strategy::Greedy);
        let mut rngs = Rngs::new(root_seed, game_index, false);
        engine.start(&mut rngs)?;
        Ok(Position {
            engine,
            rngs,
            searcher: None,
        })
    }

    /// The `mcts` player's answer here with these numbers, its deals drawn from `seed`. It
    /// reads only what the player sees: every evaluation starts from a fresh deal.
    pub fn search(&mut self, p: &SearchParams, seed: u64) -> Result<Action, String> {
        let (root, make) = (self.engine.snapshot(), |p: &_| {
            Searcher::new(&self.engine, p)
        });
        let choose = |s: &mut Searcher| s.choose(&root, seed);
        search(self.engine.over(), &mut self.searcher, p, make, choose)
    }

    pub fn phase(&self) -> Phase {
        self.engine.phase
    }

    /// The player to decide: the one seat (none once over).
    pub fn to_move(&self) -> Option<usize> {
        (!self.engine.over()).then_some(0)
    }

    /// Every distinct answer open at this decision (none when the game is over).
    pub fn legal(&mut self) -> Result<Vec<Action>, String> {
        let mut out = Vec::new();
        self.engine.legal_actions(0, &mut out);
        Ok(out)
    }

    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        self.engine.apply(action, &mut self.rngs)
    }

    /// Resample what the player cannot see: the bonus pile's order and every future die.
    pub fn determinize(&mut self, seed: u64) {
        deal(&mut self.engine, &mut self.rngs, seed);
    }

    pub fn info_key(&self) -> u64 {
        self.engine.info_key()
    }

    pub fn state(&self) -> &State {
        &self.engine.st
    }

    /// This turn's attack dice (empty before the roll).
    pub fn dice(&self) -> &[u8] {
        &self.engine.dice[..self.engine.n_dice]
    }

    /// The record so far (`end_reason` is meaningful once over).
    pub fn record(&self) -> Record {
        self.engine.record()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::default_components;
    use super::super::Params;
    use super::*;
    use crate::mcts::{assert_order_free, Model};

    const PARAMS: Params = Params {
        countdown: 7,
        dice: 6,
    };

    /// A game walked through the forward model by a seeded uniform choice among the legal
    /// answers, from its first decision: (actions taken, record).
    fn walk(t: &Tables, game: u64, pick: u64) -> (usize, super::super::game::Record) {
        let mut e = Engine::new(t, PARAMS, Strategy::Greedy);
        let mut rngs = Rngs::unseeded();
        rngs.reseed([game, game + 1, game + 2]);
        e.start(&mut rngs).unwrap();
        let mut g = SplitMix(pick);
        let mut legal = Vec::new();
        let mut steps = 0;
        while !e.over() {
            e.legal_actions(0, &mut legal);
            assert!(
                !legal.is_empty(),
                "a decision with nothing legal: {:?}",
                e.phase
            );
            let a = legal[g.below(legal.len())];
            e.apply(a, &mut rngs).unwrap();
            steps += 1;
        }
        (steps, e.record())
    }

    #[test]
    fn every_legal_answer_is_taken_and_games_end() {
        let t = Tables::new(&default_components()).unwrap();
        for game in 0..200 {
            let (steps, rec) = walk(&t, game * 3, game);
            assert!(steps > 0);
            assert!(rec.head.end_reason <= 2);
            assert_eq!(
                walk(&t, game * 3, game).1,
                rec,
                "a walk is a function of its seeds"
            );
        }
    }

    #[test]
    fn apply_refuses_an_answer_to_another_decision() {
        let t = Tables::new(&default_components()).unwrap();
        let mut e = Engine::new(&t, PARAMS, Strategy::Greedy);
        let mut rngs = Rngs::unseeded();
        rngs.reseed([1, 2, 3]);
        e.start(&mut rngs).unwrap();
        assert_eq!(
            e.phase,
            Phase::Trade,
            "the first turn starts with shields standing"
        );
        assert!(e.apply(Action::Fuel(true), &mut rngs).is_err());
        assert!(e.apply(Action::Trade(Some(15)), &mut rngs).is_err());
    }

    #[test]
    fn a_restored_snapshot_plays_on_as_the_original() {
        let t = Tables::new(&default_components()).unwrap();
        let mut e = Engine::new(&t, PARAMS, Strategy::Lookahead);
        let mut rngs = Rngs::unseeded();
        rngs.reseed([5, 6, 7]);
        e.start(&mut rngs).unwrap();
        let mut legal = Vec::new();
        for _ in 0..6 {
            assert!(!e.over());
            e.legal_actions(0, &mut legal);
            e.apply(legal[0], &mut rngs).unwrap();
        }
        let snap = e.snapshot();
        let key = e.info_key();
        let mut a = Rngs::unseeded();
        a.reseed([8, 9, 10]);
        e.run(&mut a).unwrap();
        let first = e.record();
        e.restore(&snap);
        assert_eq!(e.info_key(), key);
        let mut b = Rngs::unseeded();
        b.reseed([8, 9, 10]);
        e.run(&mut b).unwrap();
        assert_eq!(e.record(), first);
    }

    #[test]
    fn a_deal_changes_only_what_the_player_cannot_see() {
        let t = Tables::new(&default_components()).unwrap();
        let mut model = Sim {
            engine: Engine::new(&t, PARAMS, Strategy::Greedy),
            hooks: SearchHooks {
                rngs: Rngs::unseeded(),
                width: 0,
                progress: 0.5,
            },
        };
        model.hooks.rngs.reseed([1, 1, 1]);
        model.engine.start(&mut model.hooks.rngs).unwrap();
        let snap = model.save();
        let key = model.info_key();
        let mut piles = std::collections::BTreeSet::new();
        for seed in 0..20 {
            model.load(&snap);
            model.determinize(seed);
            assert_eq!(model.info_key(), key);
            let mut sorted = model.engine.st.pile.clone();
            piles.insert(model.engine.st.pile.clone());
            sorted.sort_unstable();
            let mut before = snap.st.pile.clone();
            before.sort_unstable();
            assert_eq!(sorted, before, "the same cards, in another order");
        }
        assert!(piles.len() > 10, "deals shuffle the pile");
    }

    #[test]
    fn the_search_never_reads_the_pile_order() {
        let t = Tables::new(&default_components()).unwrap();
        let mut e = Engine::new(&t, PARAMS, Strategy::Greedy);
        let mut rngs = Rngs::unseeded();
        rngs.reseed([3, 4, 5]);
        e.start(&mut rngs).unwrap();
        let p = SearchParams {
            iterations: 40,
            ..SearchParams::default()
        };
        let mut answers = Vec::new();
        for order in 0..4u64 {
            let mut root = e.snapshot();
            SplitMix(order).shuffle(&mut root.st.pile);
            let mut s = Searcher::new(&e, &p);
            answers.push(s.choose(&root, 17).unwrap());
            assert_eq!(s.tree.root_arms().len(), {
                let mut legal = Vec::new();
                e.legal_actions(p.width as usize, &mut legal);
                legal.len()
            });
        }
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    }

    #[test]
    fn mcts_games_are_a_function_of_their_seed() {
        let t = Tables::new(&default_components()).unwrap();
        let p = SearchParams {
            iterations: 30,
            ..SearchParams::default()
        };
        let mut e = Engine::new(&t, PARAMS, Strategy::Mcts);
        e.searcher = Some(Box::new(Searcher::new(&e, &p)));
        assert_order_free(4, |i| e.play(4, i).unwrap());
    }
}
