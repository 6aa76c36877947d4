//! The search player every game shares: single-observer information-set Monte Carlo tree search
//! (Cowling, Powley and Whitehouse 2012), over a game's forward model (`Model`).
//!
//! Why this form: the games hide cards and roll dice, so a tree of true states would let the
//! searcher read what it cannot see. Each iteration instead deals one *determinization* (the
//! hidden cards and every future die sampled afresh, consistent with what the player to move has
//! seen: `Model::determinize`), walks the tree by UCB1 over the actions legal in that deal, adds
//! one node, and plays the rest of the game by the game's built-in heuristic. A node is an
//! information set: the model's `info_key`, a hash of what the player to move observes, so deals
//! that look alike to the player share statistics and no node distinguishes what only the deal
//! knows. An edge counts the iterations in which it was legal (`avail`), the ISMCTS form of the
//! UCB exploration term, because an action is not open in every deal.
//!
//! At the root the actions are compared on shared deals, by sequential halving (Karnin, Koren
//! and Somekh 2013; as the root of Gumbel MuZero and of SHOT): each round plays every surviving
//! action on the same fresh deals and keeps the better half by mean value. The games here are
//! ruled by dice, so two actions' values differ by far less than one deal's luck; comparing
//! them on the same deals (common random numbers) removes that luck from the comparison, where
//! UCB1 at the root would spend most of a small budget averaging it out. Below the root the
//! walk is the ISMCTS above.
//!
//! The tree and its statistics live for one decision; nothing is read from the true hidden
//! state, only from the determinized copy.
//!
//! Every game's model is a `Sim`: its engine, which answers what the position is (`Positions`:
//! snapshot, restore, over, the observer's key), and its search's hooks, which say the rest
//! (`Hooks`: the deal, the seat to move, the answers weighed, the step, the rollout, the
//! rewards); `Sim` is the one `Model` over them. A game's `mcts` player keeps a `Searcher`
//! (model, tree, budget) across a batch's decisions.

use std::collections::HashMap;
use std::hash::Hash;

thread_local! {
    /// Decisions searched on this thread (for the benchmark's decisions per second).
    static DECISIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Decisions `Mcts::choose` answered on this thread since the last call (and reset the count).
pub fn take_decision_count() -> u64 {
    DECISIONS.with(|d| d.replace(0))
}

/// A game's forward model: a position at a decision (or over), with everything the rules need
/// to play on from it. Chance between decisions is drawn from streams the model owns, which
/// `determinize` reseeds.
pub trait Model {
    type Action: Copy + Eq + Hash + std::fmt::Debug;
    /// A copy of the position, cheap enough to take once per decision.
    type Snapshot: Clone;

    fn save(&self) -> Self::Snapshot;
    fn load(&mut self, snapshot: &Self::Snapshot);
    /// Resample what the player to move cannot see (card order, other seats' hands) and reseed
    /// every chance stream from `seed`: one deal consistent with that player's observations.
    fn determinize(&mut self, seed: u64);
    /// Is the game over?
    fn over(&self) -> bool;
    /// The seat to decide.
    fn to_move(&self) -> usize;
    /// The actions open to the player to move, in the model's order (the search takes them as
    /// given: a model may list only its heuristic's best few, see each game's `RULES.md`).
    fn legal(&mut self, out: &mut Vec<Self::Action>) -> Result<(), String>;
    /// Play the action, then the rules and the chance that follow up to the next decision.
    fn apply(&mut self, action: Self::Action) -> Result<(), String>;
    /// A hash of what the player to move has observed (their information set at this decision).
    fn info_key(&self) -> u64;
    /// Play to the end by the game's heuristic player (the rollout).
    fn rollout(&mut self) -> Result<(), String>;
    /// The value of the finished (or abandoned) game to each seat, in [0, 1].
    fn rewards(&self, out: &mut [f64]);
}

/// What a game's engine answers about its position, the part of `Model` every game takes from
/// its engine the same way: a copy saved and restored, whether the game is over, what the
/// player to move has observed. Each engine implements it in its `forward.rs` (Alien Attack's
/// with its board).
pub trait Positions {
    /// A copy of the position (`Model::Snapshot`).
    type Snapshot: Clone;

    fn snapshot(&self) -> Self::Snapshot;
    fn restore(&mut self, snapshot: &Self::Snapshot);
    fn over(&self) -> bool;
    /// A hash of what the player to move has observed (`Model::info_key`).
    fn info_key(&self) -> u64;
}

/// The rest of `Model`, which each game's search says for itself over its engine `E`: the deal,
/// the seat to move, the answers weighed, the step, the rollout and the rewards. The answers,
/// the step and the rollout are here rather than in `Positions` because the engines take them
/// each their own way: 8-Bit Invaders' with the chance streams the model owns (a deal reseeds
/// them) and the plans it weighs, Alien Attack's game with its board and the power uses weighed.
pub trait Hooks<E: Positions> {
    type Action: Copy + Eq + Hash + std::fmt::Debug;

    fn determinize(&mut self, engine: &mut E, seed: u64);
    /// One seat searches unless a game says otherwise: a solo player, or a crew deciding as one.
    fn to_move(&self, _: &E) -> usize {
        0
    }
    fn legal(&mut self, engine: &mut E, out: &mut Vec<Self::Action>) -> Result<(), String>;
    fn apply(&mut self, engine: &mut E, action: Self::Action) -> Result<(), String>;
    fn rollout(&mut self, engine: &mut E) -> Result<(), String>;
    fn rewards(&self, engine: &E, out: &mut [f64]);
}

/// The model the search plays on: a game's engine and its search's hooks (each game's `Sim`).
/// Every method is the engine's (`Positions`) or the hooks' (`Hooks`).
pub struct Sim<E, H> {
    pub engine: E,
    pub hooks: H,
}

impl<E: Positions, H: Hooks<E>> Model for Sim<E, H> {
    type Action = H::Action;
    type Snapshot = E::Snapshot;

    fn save(&self) -> E::Snapshot {
        self.engine.snapshot()
    }

    fn load(&mut self, snapshot: &E::Snapshot) {
        self.engine.restore(snapshot);
    }

    fn determinize(&mut self, seed: u64) {
        self.hooks.determinize(&mut self.engine, seed);
    }

    fn over(&self) -> bool {
        self.engine.over()
    }

    fn to_move(&self) -> usize {
        self.hooks.to_move(&self.engine)
    }

    fn legal(&mut self, out: &mut Vec<H::Action>) -> Result<(), String> {
        self.hooks.legal(&mut self.engine, out)
    }

    fn apply(&mut self, action: H::Action) -> Result<(), String> {
        self.hooks.apply(&mut self.engine, action)
    }

    fn info_key(&self) -> u64 {
        self.engine.info_key()
    }

    fn rollout(&mut self) -> Result<(), String> {
        self.hooks.rollout(&mut self.engine)
    }

    fn rewards(&self, out: &mut [f64]) {
        self.hooks.rewards(&self.engine, out);
    }
}

/// The search's budget and exploration constant (a strategy's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub iterations: u32,
    /// UCB1's exploration constant (sqrt 2 for rewards in [0, 1]).
    pub exploration: f64,
}

impl Budget {
    /// A strategy's `iterations` (at least one) and `exploration`.
    pub fn new(iterations: i64, exploration: f64) -> Budget {
        Budget {
            iterations: iterations.max(1) as u32,
            exploration,
        }
    }
}

/// An `mcts` player's search: its model, its tree and its budget, kept across a batch's
/// decisions (the tables are allocated once).
pub struct Searcher<M: Model> {
    pub sim: M,
    pub budget: Budget,
    pub tree: Mcts<M::Action>,
}

impl<M: Model> Searcher<M> {
    pub fn with(sim: M, seats: usize, budget: Budget) -> Searcher<M> {
        Searcher {
            sim,
            budget,
            tree: Mcts::new(seats),
        }
    }

    /// The action to play at `root` (`Mcts::choose` with this searcher's model and budget).
    pub fn choose(&mut self, root: &M::Snapshot, seed: u64) -> Result<M::Action, String> {
        self.tree.choose(&mut self.sim, root, self.budget, seed)
    }
}

/// The answer of an engine's `mcts` player at `root` (where the engine stands), by the
/// searcher the engine keeps for it, its deals drawn from `seed`.
pub fn answer<M: Model>(
    searcher: &mut Option<Box<Searcher<M>>>,
    root: &M::Snapshot,
    seed: u64,
) -> Result<M::Action, String> {
    let searcher = searcher.as_mut().expect("an mcts engine has its searcher");
    searcher.choose(root, seed)
}

#[derive(Clone, Debug)]
struct Edge<A> {
    action: A,
    visits: f64,
    total: f64,
    /// Iterations in which this action was legal at the node.
    avail: f64,
}

/// The search's tables, kept across decisions (cleared each time) so a game allocates them once.
pub struct Mcts<A> {
    nodes: HashMap<u64, Vec<Edge<A>>>,
    legal: Vec<A>,
    path: Vec<(u64, usize, usize)>,
    untried: Vec<usize>,
    /// The root's actions: (action, total value, evaluations).
    arms: Vec<(A, f64, f64)>,
    rewards: Vec<f64>,
    rng: SplitMix,
}

impl<A: Copy + Eq + Hash + std::fmt::Debug> Mcts<A> {
    pub fn new(seats: usize) -> Mcts<A> {
        Mcts {
            nodes: HashMap::new(),
            legal: Vec::new(),
            path: Vec::new(),
            untried: Vec::new(),
            arms: Vec::new(),
            rewards: vec![0.0; seats],
            rng: SplitMix(0),
        }
    }

    /// The action to play at `root` (a decision, not over): the survivor of sequential halving
    /// over the legal actions, `budget.iterations` evaluations in all. `seed` drives the deals
    /// and tie-breaks, so the choice is a pure function of the position and the seed.
    pub fn choose<M: Model<Action = A>>(
        &mut self,
        model: &mut M,
        root: &M::Snapshot,
        budget: Budget,
        seed: u64,
    ) -> Result<A, String> {
        DECISIONS.with(|d| d.set(d.get() + 1));
        self.nodes.clear();
        self.rng = SplitMix(seed);
        model.load(root);
        model.legal(&mut self.legal)?;
        let arms = self.legal.clone();
        self.arms.clear();
        self.arms.extend(arms.iter().map(|&a| (a, 0.0, 0.0)));
        if arms.is_empty() {
            return Err("a decision with no legal action".into());
        }
        let mut alive: Vec<usize> = (0..arms.len()).collect();
        let rounds = usize::BITS - (arms.len() - 1).leading_zeros(); // ceil(log2 n)
        let mut left = budget.iterations as usize;
        for round in 0..rounds {
            let share = (left / (alive.len() * (rounds - round) as usize)).max(1);
            let deals: Vec<u64> = (0..share).map(|_| self.rng.next_u64()).collect();
            for &i in &alive {
                for &deal in &deals {
                    let value = self.evaluate(model, root, arms[i], deal, budget.exploration)?;
                    self.arms[i].1 += value;
                    self.arms[i].2 += 1.0;
                }
            }
            left = left.saturating_sub(share * alive.len());
            let mean = |i: usize| self.arms[i].1 / self.arms[i].2;
            // better mean first; ties to the action listed first (the model's order)
            alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
        }
        Ok(arms[alive[0]])
    }

    /// Each root action's evaluations in the last search: (action, total value, count).
    pub fn root_arms(&self) -> &[(A, f64, f64)] {
        &self.arms
    }

    /// One evaluation of `action` at the root on one deal: the action, the tree walk below
    /// it, the rollout; the value to the player who chose it.
    fn evaluate<M: Model<Action = A>>(
        &mut self,
        model: &mut M,
        root: &M::Snapshot,
        action: A,
        deal: u64,
        exploration: f64,
    ) -> Result<f64, String> {
        model.load(root);
        model.determinize(deal);
        let seat = model.to_move();
        model.apply(action)?;
        self.iterate(model, exploration)?;
        Ok(self.rewards[seat])
    }

    /// The ISMCTS walk from the model's position to the end: UCB1 through known nodes, one
    /// new node, the rollout; the values backed up along the path (into `self.rewards`).
    fn iterate<M: Model<Action = A>>(
        &mut self,
        model: &mut M,
        exploration: f64,
    ) -> Result<(), String> {
        self.path.clear();
        while !model.over() {
            let key = model.info_key();
            let seat = model.to_move();
            model.legal(&mut self.legal)?;
            let edges = self.nodes.entry(key).or_default();
            // every legal action gets an edge; each counts this iteration as available
            let untried = &mut self.untried;
            untried.clear();
            for &a in &self.legal {
                let i = match edges.iter().position(|e| e.action == a) {
                    Some(i) => i,
                    None => {
                        edges.push(Edge {
                            action: a,
                            visits: 0.0,
                            total: 0.0,
                            avail: 0.0,
                        });
                        edges.len() - 1
                    }
                };
                edges[i].avail += 1.0;
                if edges[i].visits == 0.0 {
                    untried.push(i);
                }
            }
            if !untried.is_empty() {
                // expand: one untried action, then the rollout
                let i = untried[self.rng.below(untried.len())];
                self.path.push((key, i, seat));
                model.apply(edges[i].action)?;
                model.rollout()?;
                break;
            }
            let mut best = usize::MAX;
            let mut best_value = f64::NEG_INFINITY;
            for &a in &self.legal {
                let i = edges.iter().position(|e| e.action == a).expect("an edge");
                let e = &edges[i];
                let value = e.total / e.visits + exploration * (e.avail.ln() / e.visits).sqrt();
                if value > best_value {
                    best_value = value;
                    best = i;
                }
            }
            self.path.push((key, best, seat));
            model.apply(edges[best].action)?;
        }
        model.rewards(&mut self.rewards);
        for &(key, i, seat) in &self.path {
            let e = &mut self.nodes.get_mut(&key).expect("a node on the path")[i];
            e.visits += 1.0;
            e.total += self.rewards[seat];
        }
        Ok(())
    }
}

/// For the games' tests: `play(i)`, games `0..n` in order and then in reverse on one engine, gives
/// the same records (a game, its searches and all, is a function of its seed and index).
#[cfg(test)]
pub(crate) fn assert_order_free<R>(n: u64, mut play: impl FnMut(u64) -> R)
where
    R: PartialEq + std::fmt::Debug,
{
    let forward: Vec<R> = (0..n).map(&mut play).collect();
    let mut backward: Vec<R> = (0..n).rev().map(&mut play).collect();
    backward.reverse();
    assert_eq!(forward, backward);
}

/// For the games' tests: `steps` decisions of `model`, each answered by what `pick` takes from
/// the answers listed.
#[cfg(test)]
pub(crate) fn advance<M: Model>(
    model: &mut M,
    steps: usize,
    pick: impl Fn(&[M::Action]) -> M::Action,
) {
    let mut legal = Vec::new();
    for _ in 0..steps {
        model.legal(&mut legal).unwrap();
        model.apply(pick(&legal)).unwrap();
    }
}

/// A small, fast generator for the search's own draws (deal seeds, tie-breaks); the games'
/// streams stay Python's Mersenne Twister.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, n) (n > 0), by Lemire's multiply-shift; the bias is below 2^-32 for the
    /// small n a search draws.
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Shuffle in place (Fisher-Yates from the back, one `below` a swap): a deal's card orders.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A 64-bit hash builder for information keys: feed words, read the key.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl KeyHasher {
    pub fn word(mut self, w: u64) -> KeyHasher {
        self.0 = SplitMix(self.0 ^ w).next_u64();
        self
    }

    pub fn key(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-decision game with a known best action: pick a coin 0..4; coin k pays 1 with
    /// probability k/4 (a determinized die decides). The search must find coin 3.
    #[derive(Clone)]
    struct Coins {
        picked: Option<u8>,
        die: u64,
    }

    impl Model for Coins {
        type Action = u8;
        type Snapshot = Coins;
        fn save(&self) -> Coins {
            self.clone()
        }
        fn load(&mut self, s: &Coins) {
            *self = s.clone();
        }
        fn determinize(&mut self, seed: u64) {
            self.die = SplitMix(seed).next_u64() % 4;
        }
        fn over(&self) -> bool {
            self.picked.is_some()
        }
        fn to_move(&self) -> usize {
            0
        }
        fn legal(&mut self, out: &mut Vec<u8>) -> Result<(), String> {
            out.clear();
            out.extend(0..4);
            Ok(())
        }
        fn apply(&mut self, a: u8) -> Result<(), String> {
            self.picked = Some(a);
            Ok(())
        }
        fn info_key(&self) -> u64 {
            KeyHasher::default()
                .word(self.picked.map_or(9, u64::from))
                .key()
        }
        fn rollout(&mut self) -> Result<(), String> {
            Ok(())
        }
        fn rewards(&self, out: &mut [f64]) {
            out[0] = f64::from(u8::from(self.die < u64::from(self.picked.unwrap())));
        }
    }

    #[test]
    fn finds_the_best_coin_and_is_a_function_of_its_seed() {
        let start = Coins {
            picked: None,
            die: 0,
        };
        let mut model = start.clone();
        let mut search = Mcts::new(1);
        let budget = Budget {
            iterations: 400,
            exploration: 2f64.sqrt(),
        };
        let a = search.choose(&mut model, &start, budget, 7).unwrap();
        assert_eq!(a, 3);
        let arms = search.root_arms().to_vec();
        let total: f64 = arms.iter().map(|v| v.2).sum();
        assert!(
            (300.0..=400.0).contains(&total),
            "the budget is spent: {total}"
        );
        // the halving kept the better half: coins 2 and 3 got the last round's deals
        let count = |k: u8| arms.iter().find(|v| v.0 == k).unwrap().2;
        assert!(count(3) > count(0) && count(2) > count(1));
        let again = search.choose(&mut model, &start, budget, 7).unwrap();
        assert_eq!(search.root_arms(), &arms[..], "same seed, same search");
        assert_eq!(again, a);
    }
}
