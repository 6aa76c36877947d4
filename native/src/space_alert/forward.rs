//! Space Alert's forward model (`mcts::Model`) and its search player, `mcts`.
//!
//! A position is the engine between two decisions of the action round (`Engine::phase`): a
//! human's data transfer, or one figure's card for one turn, asked phase by phase, figure by
//! figure, turn by turn (`game.plan_mission`'s order, so the built-in crews' games run through
//! the same step, `Engine::apply`). The figure's last card of phase 3 resolves the mission with
//! the resolver every crew uses.
//!
//! The crew plans as one (the real crew talks through the action round), so the search sees
//! every hand, every plan so far, the heroic cards and the trajectories. It does not see what
//! the crew has not been told (RULINGS §4): the threats announced after the phase being planned
//! (turns 5-8 while planning phase 1, none after), the hands of later phases, the damage-tile
//! orders, the misplays and, in a campaign, the later missions. A determinization redraws those:
//! each unannounced threat's card from its deck (not a card already in play), keeping its turn,
//! zone and seriousness; the later hands from the action cards not yet dealt; the tile orders;
//! the misplay draws; and reseeds the streams of the later missions' deals.

use super::game::{Action, Card, Engine, Phase, Round, ANNOUNCED_BY_PHASE};
use super::players::PLAIN;
use super::rules::{A, B, BB, BLUE, C, EMPTY, LIFT, RED};
use super::{Components, Params, Strategy, EXTERNAL};
use crate::mcts::{Budget, KeyHasher, Mcts, Model, SplitMix};
use crate::params::with_params;

/// The search player's numbers (its strategy's parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    pub iterations: i64,
    pub exploration: f64,
    /// A surviving crew's value: `1 - kills + kills * (share of the threats destroyed)`; a lost
    /// ship is worth 0. Survival first, and among survivals the one that scores.
    pub kills: f64,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            iterations: 400,
            exploration: 0.5,
            kills: 0.2,
        }
    }
}

impl SearchParams {
    pub fn read(param: impl Fn(&str) -> Option<f64>) -> SearchParams {
        with_params!(
            SearchParams::default(),
            param,
            [iterations, exploration, kills]
        )
    }
}

/// A position: everything `Engine::apply` reads and changes, and the scripted crew's memory
/// (the engine's resolution state and a built-in player's plan ahead are caches, not state).
#[derive(Clone, Debug)]
pub struct Snapshot {
    round: Round,
    phase: Phase,
    bots_ok: Vec<bool>,
}

impl Engine<'_> {
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            round: self.round.clone(),
            phase: self.phase,
            bots_ok: self.crew.iter().map(|p| p.bots_ok).collect(),
        }
    }

    pub fn restore(&mut self, s: &Snapshot) {
        self.round.clone_from(&s.round);
        self.phase = s.phase;
        for (player, &ok) in self.crew.iter_mut().zip(&s.bots_ok) {
            player.bots_ok = ok;
        }
        self.ahead = None;
    }

    /// The answers open at this decision. A card: the built-in player's first (ties go to it),
    /// then no card, each plain half the hand still allows, the heroic card's halves. A data
    /// transfer: only the built-in player's (the search weighs cards, not transfers).
    pub fn legal_actions(&mut self, out: &mut Vec<Action>) -> Result<(), String> {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::Transfer { figure, .. } => {
                out.push(Action::Transfer(self.transfer_by_crew(figure)));
            }
            Phase::Card { figure, turn } => {
                out.push(Action::Card(self.planned(figure, turn)?));
                let (move_half, action_half) = self.round.setup.heroic[figure];
                let codes = std::iter::once(EMPTY)
                    .chain(PLAIN)
                    .chain([action_half, move_half]);
                for code in codes {
                    if !out.contains(&Action::Card(code)) && self.playable(figure, turn, code) {
                        out.push(Action::Card(code));
                    }
                }
            }
        }
        Ok(())
    }

    /// What the crew has seen at this decision: the decision, the mission and phase, every
    /// plan and hand, the heroic cards, the threats announced so far, and a campaign's earlier
    /// outcomes (its points and the damage carried).
    pub fn info_key(&self) -> u64 {
        let r = &self.round;
        let decision = match self.phase {
            Phase::Transfer { round, figure } => 1 | (round as u64) << 8 | (figure as u64) << 16,
            Phase::Card { figure, turn } => 2 | (figure as u64) << 8 | (turn as u64) << 16,
            Phase::Over => 3,
        };
        let pack = |bytes: &[u8]| bytes.iter().fold(0u64, |k, &b| k << 8 | u64::from(b));
        let mut h = KeyHasher::default()
            .word(decision)
            .word((r.mission as u64) << 8 | r.phase as u64)
            .word(r.total_points as u64);
        for plan in &r.plans {
            h = h.word(pack(&plan[1..7])).word(pack(&plan[7..]));
        }
        for (f, hand) in r.hands.iter().enumerate() {
            let (m, a) = r.setup.heroic[f];
            h = h.word(pack(&[u8::from(r.heroic_left[f]), m, a, hand.len() as u8]));
            for cards in hand.chunks(4) {
                h = h.word(cards.iter().fold(0u64, |k, &(m, a)| {
                    k << 16 | u64::from(m) << 8 | u64::from(a)
                }));
            }
        }
        let limit = ANNOUNCED_BY_PHASE[r.phase];
        for k in r.setup.threats.iter().filter(|k| k.turn <= limit) {
            h = h.word(
                (k.turn as u64) << 48
                    | (k.card as u64) << 16
                    | (k.zone as u64) << 8
                    | k.traj as u64,
            );
        }
        if let Some(carry) = &r.carry {
            for tiles in &carry.tiles {
                h = h.word(pack(tiles) << 8 | tiles.len() as u64);
            }
            h = h.word(
                carry
                    .disabled
                    .iter()
                    .fold(0u64, |k, &d| k << 1 | u64::from(d)),
            );
        }
        h.key()
    }

    /// Redraw what the crew has not seen (see the module's comment), from `seed`.
    fn deal_unseen(&mut self, seed: u64, pool: &mut Vec<usize>, deck: &mut Vec<Card>) {
        let mut g = SplitMix(seed);
        let comp: &Components = self.comp;
        let params: Params = self.params;
        let r = &mut self.round;
        let limit = ANNOUNCED_BY_PHASE[r.phase];
        let threats = &mut r.setup.threats;
        for i in 0..threats.len() {
            if threats[i].turn <= limit {
                continue;
            }
            let was = &comp.threats[threats[i].card];
            let (external, serious) = (was.kind == EXTERNAL, was.serious);
            let colours = if serious {
                params.serious
            } else {
                params.common
            };
            // not a card announced, nor one already redrawn
            let taken = |c: usize| {
                (threats.iter().enumerate()).any(|(j, k)| k.card == c && (k.turn <= limit || j < i))
            };
            pool.clear();
            pool.extend((0..comp.threats.len()).filter(|&c| {
                let t = &comp.threats[c];
                (t.kind == EXTERNAL) == external
                    && t.serious == serious
                    && colours.allows(t.colour)
                    && !taken(c)
            }));
            if !pool.is_empty() {
                threats[i].card = pool[g.below(pool.len())];
            }
        }
        if !params.free_hands && r.phase < 2 {
            deck.clear();
            for _ in 0..comp.copies {
                for m in [RED, BLUE, LIFT] {
                    for a in [A, B, C, BB] {
                        deck.push((m, a));
                    }
                }
            }
            for hands in &r.setup.hands {
                for card in hands[..=r.phase].iter().flatten() {
                    if let Some(i) = deck.iter().position(|c| c == card) {
                        deck.swap_remove(i);
                    }
                }
            }
            shuffle(deck, &mut g);
            let mut unseen = deck.iter();
            for hands in r.setup.hands.iter_mut() {
                for slot in hands[r.phase + 1..].iter_mut().flatten() {
                    *slot = *unseen.next().expect("the deck holds the hands it dealt");
                }
            }
        }
        for stack in r.stacks.iter_mut() {
            shuffle(stack, &mut g);
        }
        if let Some(carry) = &mut r.carry {
            // a campaign's kept tiles lead its stacks; the rest are still to be drawn
            for (stack, kept) in carry.stacks.iter_mut().zip(&carry.tiles) {
                shuffle(&mut stack[kept.len()..], &mut g);
            }
        }
        if params.error_rate > 0.0 {
            for d in r.draws.iter_mut().flatten() {
                *d = (g.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            }
        }
        if r.mission + 1 < params.campaign {
            for rng in &mut self.rngs[..3] {
                rng.reseed_u64(g.next_u64());
            }
        }
    }
}

fn shuffle<T>(items: &mut [T], g: &mut SplitMix) {
    for i in (1..items.len()).rev() {
        items.swap(i, g.below(i + 1));
    }
}

/// The model the search plays on: an engine whose scripted crew plays the rollouts.
pub struct Sim<'a> {
    engine: Engine<'a>,
    kills: f64,
    /// A deal's buffers: a threat deck's candidates, the action cards not yet seen.
    pool: Vec<usize>,
    deck: Vec<Card>,
}

impl<'a> Sim<'a> {
    fn new(comp: &'a Components, params: Params, kills: f64) -> Sim<'a> {
        Sim {
            engine: Engine::new(comp, params, Strategy::Scripted),
            kills,
            pool: Vec::new(),
            deck: Vec::new(),
        }
    }
}

impl Model for Sim<'_> {
    type Action = Action;
    type Snapshot = Snapshot;

    fn save(&self) -> Snapshot {
        self.engine.snapshot()
    }

    fn load(&mut self, s: &Snapshot) {
        self.engine.restore(s);
    }

    fn determinize(&mut self, seed: u64) {
        self.engine
            .deal_unseen(seed, &mut self.pool, &mut self.deck);
    }

    fn over(&self) -> bool {
        self.engine.over()
    }

    /// The crew decides as one.
    fn to_move(&self) -> usize {
        0
    }

    fn legal(&mut self, out: &mut Vec<Action>) -> Result<(), String> {
        self.engine.legal_actions(out)
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        self.engine.apply(action)
    }

    fn info_key(&self) -> u64 {
        self.engine.info_key()
    }

    fn rollout(&mut self) -> Result<(), String> {
        self.engine.run()
    }

    fn rewards(&self, out: &mut [f64]) {
        let rec = &self.engine.round.rec;
        out[0] = if self.engine.over() && rec.head.won {
            let (threats, destroyed) = (rec.ints_a[7], rec.ints_a[8]);
            let share = if threats > 0 {
                destroyed as f64 / threats as f64
            } else {
                1.0
            };
            1.0 - self.kills + self.kills * share
        } else {
            0.0
        };
    }
}

/// The `mcts` strategy's search: its model and tree, kept across a batch's decisions.
pub struct Searcher<'a> {
    sim: Sim<'a>,
    tree: Mcts<Action>,
    budget: Budget,
}

impl<'a> Searcher<'a> {
    pub fn new(comp: &'a Components, params: Params, p: &SearchParams) -> Searcher<'a> {
        Searcher {
            sim: Sim::new(comp, params, p.kills),
            tree: Mcts::new(1),
            budget: Budget {
                iterations: p.iterations.max(1) as u32,
                exploration: p.exploration,
            },
        }
    }
}

impl Engine<'_> {
    /// The `mcts` player's card at this decision: a search from a copy of the position, its
    /// deals drawn from a seed the figure's stream gives (so the game stays a function of its
    /// seed).
    pub(super) fn searched(&mut self) -> Result<Action, String> {
        let Phase::Card { figure, .. } = self.phase else {
            return Err(format!("the search answers cards, not {:?}", self.phase));
        };
        let seed = self.rngs[3 + figure].getrandbits64();
        let root = self.snapshot();
        let s = self
            .searcher
            .as_mut()
            .expect("an mcts engine has its searcher");
        s.tree.choose(&mut s.sim, &root, s.budget, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{default_components, real_mission_params};
    use super::super::{MissionKind, Record};
    use super::*;

    /// A game walked through the forward model by a seeded uniform choice among the legal
    /// answers, from its first decision: (cards answered, record).
    fn walk(c: &Components, params: Params, game: u64, pick: u64) -> (usize, Record) {
        let mut e = Engine::new(c, params, Strategy::Scripted);
        e.seed(7, game);
        e.start().unwrap();
        let mut g = SplitMix(pick);
        let mut legal = Vec::new();
        let mut cards = 0;
        while !e.over() {
            e.legal_actions(&mut legal).unwrap();
            assert!(!legal.is_empty(), "nothing legal at {:?}", e.phase);
            let a = legal[g.below(legal.len())];
            cards += usize::from(matches!(a, Action::Card(_)));
            e.apply(a).unwrap();
        }
        (cards, e.round.rec.clone())
    }

    fn variants() -> Vec<Params> {
        let real = real_mission_params();
        vec![
            real,
            Params {
                figures: 5,
                players: 3,
                mission: MissionKind::Numbered(2),
                ..real
            },
            Params {
                players: 2,
                error_rate: 0.2,
                ..real
            },
            Params {
                free_hands: true,
                campaign: 3,
                ..real
            },
        ]
    }

    #[test]
    fn every_legal_answer_is_taken_and_games_end() {
        let c = default_components();
        for params in variants() {
            for game in 0..40 {
                let (cards, rec) = walk(&c, params, game, game * 3);
                let missions = rec.ints_b[4] as usize;
                assert_eq!(cards, 12 * params.figures * missions);
                assert!(rec.head.end_reason <= 2);
                let again = walk(&c, params, game, game * 3).1;
                assert_eq!(
                    format!("{again:?}"),
                    format!("{rec:?}"),
                    "a walk is a function of its seeds"
                );
            }
        }
    }

    #[test]
    fn the_built_in_answer_is_listed_first_and_replays_the_game() {
        let c = default_components();
        for params in variants() {
            let mut e = Engine::new(&c, params, Strategy::Scripted);
            let played = e.play(7, 3).unwrap();
            e.seed(7, 3);
            e.start().unwrap();
            let mut legal = Vec::new();
            while !e.over() {
                e.legal_actions(&mut legal).unwrap();
                e.apply(legal[0]).unwrap();
            }
            assert_eq!(format!("{:?}", e.round.rec), format!("{played:?}"));
        }
    }

    #[test]
    fn apply_refuses_an_answer_to_another_decision_or_a_card_not_held() {
        let c = default_components();
        let mut e = Engine::new(&c, real_mission_params(), Strategy::Scripted);
        e.seed(7, 0);
        e.start().unwrap();
        assert!(
            matches!(
                e.phase,
                Phase::Transfer {
                    round: 0,
                    figure: 0
                }
            ),
            "this deal's phase 1 has a data transfer"
        );
        assert!(e.apply(Action::Card(EMPTY)).is_err());
        assert!(
            e.apply(Action::Transfer(Some((0, 0)))).is_err(),
            "not to itself"
        );
        let mut legal = Vec::new();
        while matches!(e.phase, Phase::Transfer { .. }) {
            e.legal_actions(&mut legal).unwrap();
            e.apply(legal[0]).unwrap();
        }
        assert!(matches!(e.phase, Phase::Card { figure: 0, turn: 1 }));
        assert!(e.apply(Action::Transfer(None)).is_err());
        let held = e.round.offered[..e.round.n_offered].to_vec();
        let missing = [A, B, C, BB]
            .into_iter()
            .find(|&a| held.iter().all(|&(_, b)| b != a));
        if let Some(code) = missing {
            assert!(e.apply(Action::Card(code)).is_err());
        }
        assert!(e.apply(Action::Card(EMPTY)).is_ok());
    }

    #[test]
    fn a_restored_snapshot_plays_on_as_the_original() {
        let c = default_components();
        let mut e = Engine::new(&c, real_mission_params(), Strategy::Scripted);
        e.seed(7, 1);
        e.start().unwrap();
        let mut legal = Vec::new();
        for _ in 0..5 {
            e.legal_actions(&mut legal).unwrap();
            e.apply(*legal.last().unwrap()).unwrap();
        }
        let snap = e.snapshot();
        let key = e.info_key();
        e.run().unwrap();
        let first = format!("{:?}", e.round.rec);
        e.restore(&snap);
        assert_eq!(e.info_key(), key);
        e.run().unwrap();
        assert_eq!(format!("{:?}", e.round.rec), first);
    }

    #[test]
    fn a_deal_changes_only_what_the_crew_cannot_see() {
        let c = default_components();
        let mut model = Sim::new(&c, real_mission_params(), 0.2);
        let mut deals = std::collections::BTreeSet::new();
        for game in 0..10 {
            model.engine.seed(7, game);
            model.engine.start().unwrap();
            let snap = model.save();
            let key = model.info_key();
            let announced = model.engine.announced();
            for seed in 0..20 {
                model.load(&snap);
                model.determinize(seed);
                assert_eq!(model.info_key(), key);
                assert_eq!(model.engine.announced(), announced);
                let r = &model.engine.round;
                let mut cards: Vec<usize> = r.setup.threats.iter().map(|k| k.card).collect();
                cards.sort_unstable();
                cards.dedup();
                assert_eq!(cards.len(), r.setup.threats.len(), "no threat card twice");
                let later: Vec<Vec<Card>> = (r.setup.hands.iter())
                    .map(|h| [h[1].clone(), h[2].clone()].concat())
                    .collect();
                for (h, was) in later.iter().zip(&snap.round.setup.hands) {
                    assert_eq!(h.len(), was[1].len() + was[2].len());
                }
                deals.insert(format!("{:?}{later:?}", r.setup.threats));
            }
        }
        assert!(deals.len() > 150, "deals vary: {}", deals.len());
    }

    #[test]
    fn the_allocation_free_hand_check_is_the_matching() {
        use super::super::game::{fits, matches};
        let mut g = SplitMix(3);
        let halves = [RED, BLUE, LIFT, A, B, C, BB];
        for _ in 0..20_000 {
            let cards: Vec<Card> = (0..g.below(12))
                .map(|_| (halves[g.below(3)], halves[3 + g.below(4)]))
                .collect();
            let codes: Vec<u8> = (0..1 + g.below(5)).map(|_| halves[g.below(7)]).collect();
            assert_eq!(fits(&codes, &cards), matches(&codes, &cards).is_some());
        }
    }

    #[test]
    fn mcts_games_are_a_function_of_their_seed() {
        let c = default_components();
        let p = SearchParams {
            iterations: 8,
            ..SearchParams::default()
        };
        let mut e = Engine::new(&c, real_mission_params(), Strategy::Mcts(p));
        let a: Vec<String> = (0..3)
            .map(|i| format!("{:?}", e.play(4, i).unwrap()))
            .collect();
        let mut b: Vec<String> = (0..3)
            .rev()
            .map(|i| format!("{:?}", e.play(4, i).unwrap()))
            .collect();
        b.reverse();
        assert_eq!(a, b);
    }
}
