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
//!
//! - the schedule after the announced window, from what the crew knows: the mission's recipe
//!   (`game.random_mission`: its threat level, the internal level and its split, the serious
//!   externals, the turn windows, the unconfirmed extras with 5 figures) conditioned exactly on
//!   the announced threats, which stay as they are (turn, zone, seriousness, card). `rests`
//!   walks every composition and every turn draw the recipe can make, in its order, keeps the
//!   ones that put exactly the announced kinds on the announced turns (an attempt that fails
//!   and starts again drops out), and sums them by what they put after the window; a deal draws
//!   one of those by its chance (cached per announced pattern), each external's zone at random
//!   (zones are drawn independently of turns, so that is exact), the trajectory the zone's board
//!   gives, and each card from its deck (not a card in play). So the number, seriousness, turns
//!   and zones of the later threats change from deal to deal, and a deal never reads the true
//!   later threats. A transcribed mission's crew does not know its soundtrack either: its deals
//!   use the random recipe of that mission's level (its confirmed threats, commons + 2 x serious;
//!   its unconfirmed threats are the extras with 5 figures). Only if the recipe cannot end with
//!   the announced threats (a soundtrack off its level's recipe; none of the 8 in phase 1) does a
//!   deal fall back to redrawing just the later cards on the mission's own turns and zones.
//!   Every recipe window ends by turn 8, so from phase 2 on nothing is left to redraw;
//! - the later hands from the action cards not yet dealt; the tile orders; the misplay draws;
//!   and the streams of the later missions' deals are reseeded.

use super::game::{Action, Card, Engine, Known, Phase, Round, ANNOUNCED_BY_PHASE};
use super::players::PLAIN;
use super::rules::{A, B, BB, BLUE, C, EMPTY, LIFT, RED};
use super::{unsupported, Components, MissionKind, Params, Record, Strategy, EXTERNAL};
use crate::mcts::{self, Budget, Hooks, KeyHasher, Positions, SplitMix};
use crate::params::named_params;
use crate::position::{copied, lasting, search};

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

named_params!(SearchParams, [iterations, exploration, kills]);

/// A position: everything `Engine::apply` reads and changes, and the scripted crew's memory
/// (the engine's resolution state and a built-in player's plan ahead are caches, not state).
#[derive(Clone, Debug)]
pub struct Snapshot {
    round: Round,
    phase: Phase,
    bots_ok: Vec<bool>,
}

impl Positions for Engine<'_> {
    type Snapshot = Snapshot;

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            round: self.round.clone(),
            phase: self.phase,
            bots_ok: self.crew.iter().map(|p| p.bots_ok).collect(),
        }
    }

    fn restore(&mut self, s: &Snapshot) {
        self.round.clone_from(&s.round);
        self.phase = s.phase;
        for (player, &ok) in self.crew.iter_mut().zip(&s.bots_ok) {
            player.bots_ok = ok;
        }
        self.ahead = None;
    }

    fn over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// What the crew has seen at this decision: the decision, the mission and phase, every
    /// plan and hand, the heroic cards, the threats announced so far, and a campaign's earlier
    /// outcomes (its points and the damage carried).
    fn info_key(&self) -> u64 {
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
}

impl Engine<'_> {
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

    /// Redraw what the crew has not seen (see the module's comment), from `seed`.
    fn deal_unseen(&mut self, seed: u64, buffers: &mut Buffers) {
        let mut g = SplitMix(seed);
        let comp: &Components = self.comp;
        let params: Params = self.params;
        let r = &mut self.round;
        let limit = ANNOUNCED_BY_PHASE[r.phase];
        let windows = [
            comp.common_external_turns,
            comp.serious_external_turns,
            comp.common_internal_turns,
            comp.serious_internal_turns,
        ];
        let later = windows.iter().any(|w| w.1 > i64::from(limit))
            || r.setup.threats.iter().any(|k| k.turn > limit);
        if later {
            deal_schedule(comp, params, limit, &mut r.setup, buffers, &mut g);
        }
        let deck = &mut buffers.deck;
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
            g.shuffle(deck);
            let mut unseen = deck.iter();
            for hands in r.setup.hands.iter_mut() {
                for slot in hands[r.phase + 1..].iter_mut().flatten() {
                    *slot = *unseen.next().expect("the deck holds the hands it dealt");
                }
            }
        }
        for stack in r.stacks.iter_mut() {
            g.shuffle(stack);
        }
        if let Some(carry) = &mut r.carry {
            // a campaign's kept tiles lead its stacks; the rest are still to be drawn
            for (stack, kept) in carry.stacks.iter_mut().zip(&carry.tiles) {
                g.shuffle(&mut stack[kept.len()..]);
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

/// A threat's kind as a schedule codes it: 1 + serious + 2 x internal (0: no threat).
fn kind_code(serious: bool, internal: bool) -> u64 {
    1 + u64::from(serious) + 2 * u64::from(internal)
}

/// Bits a turn takes in a rest (`Rests`).
const TURN_BITS: u32 = 3;

/// The schedules still to come for one announced pattern: every way the mission's recipe ends
/// with exactly the announced threats in the announced window, summed by what it puts after the
/// window (a rest: a kind code per turn, `TURN_BITS` a turn), with its chance, cumulative.
#[derive(Default)]
struct Rests {
    /// The pattern: the window's last turn, then each announced threat's turn and kind.
    key: Vec<u64>,
    cumulative: Vec<(f64, u64)>,
}

/// A deal's buffers: a threat deck's candidates, the action cards not yet seen, the schedules of
/// the last announced pattern.
#[derive(Default)]
struct Buffers {
    pool: Vec<usize>,
    deck: Vec<Card>,
    rests: Rests,
}

/// The recipe a crew knows its mission by: the threat level (commons + 2 x serious) and the
/// unconfirmed extras. A transcribed mission's crew does not know the soundtrack, only its
/// level: its confirmed threats' level, and its unconfirmed threats with 5 figures.
fn recipe(comp: &Components, params: Params) -> (i64, i64) {
    let five = params.figures == 5;
    match params.mission {
        MissionKind::Numbered(i) => {
            let threats = comp.missions.get(i).map_or(&[][..], |m| &m.threats[..]);
            let level = (threats.iter().filter(|m| !m.unconfirmed))
                .map(|m| 1 + i64::from(m.serious))
                .sum();
            let extra = threats.iter().filter(|m| m.unconfirmed && five).count();
            (level, extra as i64)
        }
        MissionKind::Test => (comp.level_test, 0),
        MissionKind::Simulation => (
            comp.level_simulation,
            if five { comp.unconfirmed_extra } else { 0 },
        ),
        MissionKind::Real => (
            comp.level_real,
            if five { comp.unconfirmed_extra } else { 0 },
        ),
    }
}

/// One recipe attempt's turn draws, job by job (`random_mission`'s order), kept while they agree
/// with the announced threats.
struct Walk<'a> {
    /// (kind code, turn window) of each threat of the attempt, in the recipe's order.
    jobs: &'a [(u64, (i64, i64))],
    limit: i64,
    /// (turn, kind code) of each announced threat.
    announced: &'a [(i64, u64)],
    out: &'a mut std::collections::BTreeMap<u64, f64>,
}

impl Walk<'_> {
    fn walk(&mut self, j: usize, used: u32, left: u32, rest: u64, p: f64) {
        let Some(&(code, (lo, hi))) = self.jobs.get(j) else {
            if left == 0 {
                *self.out.entry(rest).or_default() += p;
            }
            return;
        };
        let free = (lo..=hi).filter(|&t| used >> t & 1 == 0).count();
        // no free turn: the attempt fails and the recipe starts again (not this pattern)
        let q = p / free as f64;
        for t in (lo..=hi).filter(|&t| used >> t & 1 == 0) {
            if t > self.limit {
                let rest = rest | code << (TURN_BITS * t as u32);
                self.walk(j + 1, used | 1 << t, left, rest, q);
            } else if let Some(i) = (0..self.announced.len())
                .find(|&i| left >> i & 1 == 1 && self.announced[i] == (t, code))
            {
                self.walk(j + 1, used | 1 << t, left & !(1 << i), rest, q);
            }
        }
    }
}

/// The rests `random_mission` leaves after `announced` in turns up to `limit`, with their chances
/// (exact: every composition the recipe draws, every turn draw, the failed attempts left out).
fn rests(
    comp: &Components,
    params: Params,
    limit: i64,
    announced: &[(i64, u64)],
) -> Vec<(f64, u64)> {
    let (level, extra) = recipe(comp, params);
    let mut out = std::collections::BTreeMap::new();
    let (lo, hi) = comp.internal_level;
    let levels = (lo..=hi.min(level - 1)).count();
    let fits = |w: (i64, i64)| w.0 >= 0 && w.1 < 20;
    let windows = [
        comp.common_external_turns,
        comp.serious_external_turns,
        comp.common_internal_turns,
        comp.serious_internal_turns,
    ];
    if announced.len() > 31 || !windows.into_iter().all(fits) {
        return Vec::new();
    }
    for il in lo..=hi.min(level - 1) {
        let internals: &[(f64, &[bool])] = match il {
            1 => &[(1.0, &[false])],
            2 => &[(0.5, &[true]), (0.5, &[false, false])],
            3 => &[(1.0, &[true, false])],
            _ => &[],
        };
        let el = level - il;
        for &(p_internal, internal) in internals {
            let internal = &internal[..internal.len().min(comp.max_internal)];
            for serious_ext in 0..=el.div_euclid(2) {
                let p = p_internal / (levels as f64 * (el.div_euclid(2) + 1) as f64);
                let mut jobs = Vec::new();
                let si = internal.iter().filter(|&&s| s).count();
                let ci = internal.len() - si;
                let ce = (el - 2 * serious_ext) as usize;
                for (n, serious, int, window) in [
                    (si, true, true, comp.serious_internal_turns),
                    (
                        serious_ext as usize,
                        true,
                        false,
                        comp.serious_external_turns,
                    ),
                    (ci, false, true, comp.common_internal_turns),
                    (
                        ce + extra as usize,
                        false,
                        false,
                        comp.common_external_turns,
                    ),
                ] {
                    jobs.extend(std::iter::repeat_n((kind_code(serious, int), window), n));
                }
                if jobs.len() > 20 {
                    continue;
                }
                let left = (1u32 << announced.len()) - 1;
                Walk {
                    jobs: &jobs,
                    limit,
                    announced,
                    out: &mut out,
                }
                .walk(0, 0, left, 0, p);
            }
        }
    }
    let mut total = 0.0;
    out.into_iter()
        .map(|(rest, p)| {
            total += p;
            (total, rest)
        })
        .collect()
}

/// Redraw the threats after the announced window: a rest from the recipe given the announced
/// threats (kept as they are), each external's zone at random, each card from its deck (not a
/// card in play). If the recipe cannot end with the announced threats (a transcribed mission off
/// its level's recipe), only the later cards are redrawn, on the mission's turns, zones and
/// seriousness.
fn deal_schedule(
    comp: &Components,
    params: Params,
    limit: i32,
    setup: &mut super::game::Setup,
    b: &mut Buffers,
    g: &mut SplitMix,
) {
    let announced: Vec<(i64, u64)> = (setup.threats.iter())
        .filter(|k| k.turn <= limit)
        .map(|k| {
            let serious = comp.threats[k.card].serious;
            (i64::from(k.turn), kind_code(serious, k.zone == 3))
        })
        .collect();
    let key_now =
        || std::iter::once(limit as u64).chain(announced.iter().map(|&(t, c)| (t as u64) << 8 | c));
    if !b.rests.key.iter().copied().eq(key_now()) {
        b.rests.key = key_now().collect();
        b.rests.cumulative = rests(comp, params, i64::from(limit), &announced);
    }
    let threats = &mut setup.threats;
    let mut later: Vec<(i32, i32, bool)> = Vec::new();
    if let Some(&(total, _)) = b.rests.cumulative.last() {
        let u = (g.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let cumulative = &b.rests.cumulative;
        let i = cumulative
            .partition_point(|&(c, _)| c <= u)
            .min(cumulative.len() - 1);
        let rest = cumulative[i].1;
        for t in 0..(64 / TURN_BITS) {
            let code = rest >> (TURN_BITS * t) & ((1 << TURN_BITS) - 1);
            if code != 0 {
                let (serious, internal) = ((code - 1) & 1 == 1, (code - 1) & 2 == 2);
                let zone = if internal { 3 } else { g.below(3) as i32 };
                later.push((t as i32, zone, serious));
            }
        }
    } else {
        let unseen = threats.iter().filter(|k| k.turn > limit);
        later.extend(unseen.map(|k| (k.turn, k.zone, comp.threats[k.card].serious)));
    }
    threats.retain(|k| k.turn <= limit);
    for (turn, zone, serious) in later {
        let colours = if serious {
            params.serious
        } else {
            params.common
        };
        // not a card announced, nor one already drawn
        b.pool.clear();
        b.pool.extend((0..comp.threats.len()).filter(|&c| {
            let t = &comp.threats[c];
            (t.kind == EXTERNAL) == (zone != 3)
                && t.serious == serious
                && colours.allows(t.colour)
                && threats.iter().all(|k| k.card != c)
        }));
        if !b.pool.is_empty() {
            threats.push(Known {
                turn,
                card: b.pool[g.below(b.pool.len())],
                zone,
                traj: setup.boards[zone as usize],
            });
        }
    }
}

/// The model the search plays on: an engine whose scripted crew plays the rollouts.
pub type Sim<'a> = mcts::Sim<Engine<'a>, SearchHooks>;

/// The search's own part of the model: its reading of the end, and the deal's scratch.
pub struct SearchHooks {
    kills: f64,
    buffers: Buffers,
}

impl<'a> Sim<'a> {
    fn new(comp: &'a Components, params: Params, kills: f64) -> Sim<'a> {
        Sim {
            engine: Engine::new(comp, params, Strategy::SCRIPTED),
            hooks: SearchHooks {
                kills,
                buffers: Buffers::default(),
            },
        }
    }
}

impl Hooks<Engine<'_>> for SearchHooks {
    type Action = Action;

    fn determinize(&mut self, engine: &mut Engine, seed: u64) {
        engine.deal_unseen(seed, &mut self.buffers);
    }

    fn legal(&mut self, engine: &mut Engine, out: &mut Vec<Action>) -> Result<(), String> {
        engine.legal_actions(out)
    }

    fn apply(&mut self, engine: &mut Engine, action: Action) -> Result<(), String> {
        engine.apply(action)
    }

    fn rollout(&mut self, engine: &mut Engine) -> Result<(), String> {
        engine.run()
    }

    fn rewards(&self, engine: &Engine, out: &mut [f64]) {
        let rec = &engine.round.rec;
        out[0] = if engine.over() && rec.head.won {
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
pub type Searcher<'a> = mcts::Searcher<Sim<'a>>;

impl<'a> Searcher<'a> {
    pub fn new(comp: &'a Components, params: Params, p: &SearchParams) -> Searcher<'a> {
        let sim = Sim::new(comp, params, p.kills);
        Searcher::with(sim, 1, Budget::new(p.iterations, p.exploration))
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
        mcts::answer(&mut self.searcher, &root, seed)
    }
}

impl<'a> Engine<'a> {
    /// A new engine at this position with these streams: the same chance to come (its scratch,
    /// memory of plans and search are not state).
    fn copy(&self) -> Engine<'a> {
        let mut engine = Engine::new(self.comp, self.params, Strategy::SCRIPTED);
        engine.restore(&self.snapshot());
        engine.rngs.clone_from(&self.rngs);
        engine
    }
}

/// What the crew sees at a decision (`Position::observation`): see the module's note.
pub struct Observation<'a> {
    pub comp: &'a Components,
    /// The campaign's mission being planned (0 for the first) and the action round's phase (0..3).
    pub mission: usize,
    pub phase: usize,
    /// A campaign's threat points of the missions before this one.
    pub total_points: i64,
    /// Each figure's codes, by turn (index 0 unused).
    pub plans: &'a [[u8; 13]],
    /// The cards each figure holds.
    pub hands: &'a [Vec<Card>],
    pub heroic: &'a [Card],
    pub heroic_left: &'a [bool],
    /// The threats announced so far, in turn order.
    pub announced: Vec<Known>,
    /// The trajectory of each zone (red, white, blue, internal).
    pub boards: [usize; 4],
    /// A campaign's damage carried from the missions before: tiles by zone, squads disabled.
    pub carried: Option<(&'a [Vec<u8>; 3], &'a [bool])>,
}

/// The forward model as one owned value: a position of a game and the streams of a campaign's
/// missions to come. Started from a game's seed it has that game's missions, hands and draws.
pub struct Position {
    engine: Engine<'static>,
    buffers: Buffers,
    /// The search `search` last ran, kept for the next call with the same numbers.
    searcher: Option<(SearchParams, Box<Searcher<'static>>)>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position::new(self.engine.copy())
    }
}

impl Position {
    /// Game `game` of root seed `seed`, dealt and at its first decision.
    pub fn start(comp: &Components, params: Params, seed: u64, game: u64) -> Result<Self, String> {
        if let Some(message) = unsupported(&params) {
            return Err(message);
        }
        let mut engine = Engine::new(lasting(comp, copied)?, params, Strategy::SCRIPTED);
        engine.seed(seed, game);
        engine.start()?;
        Ok(Position::new(engine))
    }

    /// The `mcts` crew's answer here with these numbers, its deals drawn from `seed` (a data
    /// transfer: the scripted crew's). It reads only what the crew has seen.
    pub fn search(&mut self, p: &SearchParams, seed: u64) -> Result<Action, String> {
        let (root, e) = (self.engine.snapshot(), &self.engine);
        let make = |p: &SearchParams| Searcher::new(e.comp, e.params, p);
        let choose = |s: &mut Searcher| s.choose(&root, seed);
        search(e.over(), &mut self.searcher, p, make, choose)
    }

    pub fn phase(&self) -> Phase {
        self.engine.phase
    }

    /// The figure to decide (none once over).
    pub fn to_move(&self) -> Option<usize> {
        match self.engine.phase {
            Phase::Transfer { figure, .. } | Phase::Card { figure, .. } => Some(figure),
            Phase::Over => None,
        }
    }

    /// Every answer open at this decision: a card as `legal_actions` lists them (the scripted
    /// crew's first); a data transfer, none, then each card held (by its place in the hand) to
    /// each other human.
    pub fn legal(&mut self) -> Result<Vec<Action>, String> {
        let mut out = Vec::new();
        let Phase::Transfer { figure, .. } = self.engine.phase else {
            self.engine.legal_actions(&mut out)?;
            return Ok(out);
        };
        out.push(Action::Transfer(None));
        let held = self.engine.round.hands[figure].len();
        for i in 0..held {
            for to in (0..self.engine.params.players).filter(|&to| to != figure) {
                out.push(Action::Transfer(Some((i as u8, to as u8))));
            }
        }
        Ok(out)
    }

    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        self.engine.apply(action)
    }

    /// Resample what the crew has not seen, as the search's deal of `seed` does.
    pub fn determinize(&mut self, seed: u64) {
        self.engine.deal_unseen(seed, &mut self.buffers);
    }

    pub fn info_key(&self) -> u64 {
        self.engine.info_key()
    }

    pub fn observation(&self) -> Observation<'_> {
        let r = &self.engine.round;
        Observation {
            comp: self.engine.comp,
            mission: r.mission,
            phase: r.phase,
            total_points: r.total_points,
            plans: &r.plans,
            hands: &r.hands,
            heroic: &r.setup.heroic,
            heroic_left: &r.heroic_left,
            announced: self.engine.announced(),
            boards: r.setup.boards,
            carried: r.carry.as_ref().map(|c| (&c.tiles, &c.disabled[..])),
        }
    }

    /// The last resolved mission's record (with a campaign's totals once the game is over).
    pub fn record(&self) -> &Record {
        &self.engine.round.rec
    }

    /// A position of this engine, its buffers and search not made yet.
    fn new(engine: Engine<'static>) -> Position {
        Position {
            engine,
            buffers: Buffers::default(),
            searcher: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{default_components, real_mission_params};
    use super::super::{MissionKind, Record};
    use super::*;
    use crate::mcts::{assert_order_free, Model};

    /// A game walked through the forward model by a seeded uniform choice among the legal
    /// answers, from its first decision: (cards answered, record).
    fn walk(c: &Components, params: Params, game: u64, pick: u64) -> (usize, Record) {
        let mut e = Engine::new(c, params, Strategy::SCRIPTED);
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
            let mut e = Engine::new(&c, params, Strategy::SCRIPTED);
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
        let mut e = Engine::new(&c, real_mission_params(), Strategy::SCRIPTED);
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
        let mut e = Engine::new(&c, real_mission_params(), Strategy::SCRIPTED);
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

    /// The engine of `game` at its first card (the data transfers answered as the crew would).
    fn at_first_card(c: &Components, params: Params, strategy: Strategy, game: u64) -> Engine<'_> {
        let mut e = Engine::new(c, params, strategy);
        e.seed(7, game);
        e.start().unwrap();
        let mut legal = Vec::new();
        while matches!(e.phase, Phase::Transfer { .. }) {
            e.legal_actions(&mut legal).unwrap();
            e.apply(legal[0]).unwrap();
        }
        e
    }

    #[test]
    fn a_phase_1_deal_redraws_the_later_schedule_by_the_recipe() {
        let c = default_components();
        let params = real_mission_params();
        let mut model = Sim::new(&c, params, 0.2);
        let level = |ks: &[Known]| -> i64 {
            ks.iter()
                .map(|k| 1 + i64::from(c.threats[k.card].serious))
                .sum()
        };
        for game in 0..10 {
            model.engine = at_first_card(&c, params, Strategy::SCRIPTED, game);
            let snap = model.save();
            let announced = model.engine.announced();
            let mut schedules = std::collections::BTreeSet::new();
            for seed in 0..40 {
                model.load(&snap);
                model.determinize(seed);
                let threats = &model.engine.round.setup.threats;
                assert_eq!(threats[..announced.len()], announced[..], "announced kept");
                let later = &threats[announced.len()..];
                assert_eq!(level(threats), c.level_real, "the recipe's level");
                let mut turns: Vec<i32> = threats.iter().map(|k| k.turn).collect();
                turns.dedup();
                assert_eq!(
                    turns.len(),
                    threats.len(),
                    "one threat a turn, in turn order"
                );
                for k in later {
                    assert!(k.turn > 4);
                    assert_eq!(k.traj, model.engine.round.setup.boards[k.zone as usize]);
                }
                schedules.insert(format!(
                    "{:?}",
                    later.iter().map(|k| (k.turn, k.zone)).collect::<Vec<_>>()
                ));
            }
            assert!(
                schedules.len() > 5,
                "later turns and zones vary: {schedules:?}"
            );
        }
    }

    #[test]
    fn the_schedules_are_the_recipes_given_the_announced_threats() {
        use super::super::game::random_mission;
        use std::collections::BTreeMap;
        let c = default_components();
        let params = real_mission_params();
        let mut rng = crate::rng::PyRandom::from_words(&[5, 6, 7]);
        let mut by_pattern: BTreeMap<Vec<(i64, u64)>, BTreeMap<u64, f64>> = BTreeMap::new();
        let n = 200_000;
        for _ in 0..n {
            let m = random_mission(&c, c.level_real, 0, &mut rng).unwrap();
            let (mut pattern, mut rest) = (Vec::new(), 0u64);
            for t in &m.threats {
                let code = kind_code(t.serious, t.zone == 3);
                if t.turn <= 4 {
                    pattern.push((i64::from(t.turn), code));
                } else {
                    rest |= code << (TURN_BITS * t.turn as u32);
                }
            }
            *by_pattern
                .entry(pattern)
                .or_default()
                .entry(rest)
                .or_default() += 1.0;
        }
        let mut common: Vec<_> = by_pattern.into_iter().collect();
        common.sort_by_key(|(_, rests)| -(rests.values().sum::<f64>() as i64));
        for (pattern, seen) in common.iter().take(4) {
            let count: f64 = seen.values().sum();
            let mut want = BTreeMap::new();
            let mut last = 0.0;
            for (cum, rest) in rests(&c, params, 4, pattern) {
                want.insert(rest, cum - last);
                last = cum;
            }
            let mut distance = 0.0;
            for rest in want.keys().chain(seen.keys()) {
                let p = want.get(rest).copied().unwrap_or(0.0) / last;
                let q = seen.get(rest).copied().unwrap_or(0.0) / count;
                distance += (p - q).abs() / 2.0;
            }
            // sampling noise alone: about 0.03 at 4000 missions a pattern (0.015 at 40000)
            assert!(distance < 0.1, "{pattern:?} ({count} missions): {distance}");
        }
    }

    #[test]
    fn every_transcribed_mission_is_on_its_levels_recipe_in_phase_1() {
        let c = default_components();
        for figures in [4, 5] {
            for i in 0..c.missions.len() {
                let params = Params {
                    mission: MissionKind::Numbered(i),
                    players: 4,
                    figures,
                    ..real_mission_params()
                };
                let e = at_first_card(&c, params, Strategy::SCRIPTED, 0);
                let announced: Vec<(i64, u64)> = (e.announced().iter())
                    .map(|k| {
                        (
                            i64::from(k.turn),
                            kind_code(c.threats[k.card].serious, k.zone == 3),
                        )
                    })
                    .collect();
                assert!(
                    !rests(&c, params, 4, &announced).is_empty(),
                    "mission {i}, {figures} figures"
                );
            }
        }
    }

    #[test]
    fn the_search_never_reads_the_unannounced_schedule() {
        let c = default_components();
        let params = real_mission_params();
        let p = SearchParams {
            iterations: 40,
            ..SearchParams::default()
        };
        for game in 0..3 {
            let e = at_first_card(&c, params, Strategy::SCRIPTED, game);
            let announced = e.announced();
            let mut other = Sim::new(&c, params, 0.2);
            other.engine = at_first_card(&c, params, Strategy::SCRIPTED, game);
            let mut answers = Vec::new();
            let mut deals = Vec::new();
            for variant in 0..4u64 {
                let mut root = e.snapshot();
                if variant > 0 {
                    // another schedule after the announced window (none, or another deal's)
                    other.load(&root);
                    other.determinize(100 + variant);
                    root.round.setup.threats = if variant == 1 {
                        announced.clone()
                    } else {
                        other.engine.round.setup.threats.clone()
                    };
                    assert_ne!(
                        format!("{:?}", root.round.setup.threats),
                        format!("{:?}", e.round.setup.threats)
                    );
                }
                let mut sim = Sim::new(&c, params, 0.2);
                sim.load(&root);
                sim.determinize(17);
                deals.push(format!("{:?}", sim.engine.round.setup.threats));
                let mut s = Searcher::new(&c, params, &p);
                answers.push(s.choose(&root, 17).unwrap());
            }
            assert!(deals.windows(2).all(|w| w[0] == w[1]), "{deals:?}");
            assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
        }
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
    fn a_copy_plays_on_as_the_original_and_a_deal_keeps_what_is_seen() {
        let c = default_components();
        let params = Params {
            campaign: 3,
            error_rate: 0.2,
            ..real_mission_params()
        };
        let mut pos = Position::start(&c, params, 4, 7).unwrap();
        for _ in 0..10 {
            let legal = pos.legal().unwrap();
            pos.apply(legal[0]).unwrap();
        }
        // the copy and the original, answered alike, stay alike to the end
        let (mut a, mut b) = (pos.clone(), pos.clone());
        while a.to_move().is_some() {
            let legal = a.legal().unwrap();
            assert_eq!(legal, b.legal().unwrap());
            let pick = legal[legal.len() / 2];
            a.apply(pick).unwrap();
            b.apply(pick).unwrap();
            assert_eq!(a.info_key(), b.info_key());
        }
        assert_eq!(format!("{:?}", a.record()), format!("{:?}", b.record()));
        let mut dealt = pos.clone();
        dealt.determinize(5);
        assert_eq!(dealt.info_key(), pos.info_key());
        let hidden = |p: &Position| format!("{:?}", p.engine.round.setup);
        assert_ne!(hidden(&dealt), hidden(&pos));
    }

    #[test]
    fn a_position_refuses_what_the_rules_do_not_allow_and_never_panics() {
        let c = default_components();
        for (k, params) in variants().into_iter().enumerate() {
            let mut pos = Position::start(&c, params, 9, k as u64).unwrap();
            let mut g = SplitMix(k as u64);
            while pos.to_move().is_some() {
                let legal = pos.legal().unwrap();
                let mut any: Vec<Action> = (0..=40).map(Action::Card).collect();
                any.push(Action::Transfer(None));
                for i in [0, 1, 5, 30, 255] {
                    any.extend((0..7).map(|to| Action::Transfer(Some((i, to)))));
                }
                for a in any {
                    let ok = pos.clone().apply(a).is_ok();
                    assert_eq!(ok, legal.contains(&a), "{a:?} at {:?}", pos.phase());
                }
                pos.apply(legal[g.below(legal.len())]).unwrap();
            }
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
        assert_order_free(3, |i| format!("{:?}", e.play(4, i).unwrap()));
    }
}
