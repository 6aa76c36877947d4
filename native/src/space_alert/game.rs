//! `game.py`: mission generation, the deal, the planning phase by phase, the trips, the
//! campaign's repairs and the record. Set-up draws from the set-up stream, tiles and misplays
//! from the two chance streams, each figure's planner from its own stream (made on first use).

use super::forward::Searcher;
use super::players::{Player, PLAIN};
use super::rules::{self, Live, Resolver, State};
use super::rules::{A, B, BB, BLUE, C, EMPTY, LIFT, RED, TELEPORT};
use super::*;
use crate::rng::{game_sequence, PyRandom, CHANCE, FIRST_SEAT, SETUP};

/// An action card: (move half, action half); a heroic card is (TELEPORT + station, HA/HB/HBB).
pub type Card = (u8, u8);

/// `game.KnownThreat`: a threat card as the crew sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    pub turn: i32,
    pub card: usize,
    pub zone: i32,
    pub traj: usize,
}

pub(super) const ANNOUNCED_BY_PHASE: [i32; 3] = [4, 8, 12];

/// `game.View`.
pub struct View<'a> {
    pub comp: &'a Components,
    pub figure: usize,
    pub figures: usize,
    pub humans: usize,
    pub phase: usize,
    /// The phase's first turn: `first` unless a rollout completes a plan the search began.
    pub phase_first: usize,
    /// First and last turn to plan.
    pub first: usize,
    pub last: usize,
    pub hand: &'a [Card],
    pub free: bool,
    pub threats: &'a [Known],
    pub plans: &'a [[u8; 13]],
}

/// A mission as dealt: its threat cards, each figure's hand of each phase, the heroic cards and
/// each phase's data transfers.
#[derive(Clone, Debug, Default)]
pub(super) struct Setup {
    pub(super) threats: Vec<Known>,
    pub(super) hands: Vec<[Vec<Card>; 3]>,
    pub(super) heroic: Vec<Card>,
    pub(super) transfers: [i64; 3],
    /// The trajectory board of each zone (red, white, blue, internal): public from the start.
    pub(super) boards: [usize; 4],
}

fn pick_turn(rng: &mut PyRandom, (lo, hi): (i64, i64), used: &[i64]) -> Option<i64> {
    let free: Vec<i64> = (lo..=hi).filter(|t| !used.contains(t)).collect();
    if free.is_empty() {
        None
    } else {
        Some(free[rng.choice_index(free.len())])
    }
}

/// `game.random_mission`.
pub(super) fn random_mission(
    comp: &Components,
    level: i64,
    extra: i64,
    rng: &mut PyRandom,
) -> Option<Mission> {
    for _ in 0..100 {
        let (lo, hi) = comp.internal_level;
        let il = rng.randint(lo, hi.min(level - 1));
        let pick = rng.choice_index(2); // the dict literal evaluates its choice for every level
        let mut internal: Vec<bool> = match il {
            1 => vec![false],
            2 => {
                if pick == 0 {
                    vec![true]
                } else {
                    vec![false, false]
                }
            }
            3 => vec![true, false],
            _ => return None,
        };
        internal.truncate(comp.max_internal);
        let el = level - il;
        let serious_ext = rng.randint(0, el.div_euclid(2));
        let mut external = vec![true; serious_ext as usize];
        external.extend(std::iter::repeat_n(false, (el - 2 * serious_ext) as usize));
        let mut used: Vec<i64> = Vec::new();
        let mut out: Vec<MissionThreat> = Vec::new();
        let mut ok = true;
        // (serious, zone)
        let mut jobs: Vec<(bool, i32)> = internal.iter().map(|&s| (s, 3)).collect();
        for &s in &external {
            jobs.push((s, rng.randrange(3) as i32));
        }
        jobs.sort_by_key(|j| (!j.0, j.1 != 3));
        for &(serious, zone) in &jobs {
            let window = match (zone == 3, serious) {
                (true, true) => comp.serious_internal_turns,
                (true, false) => comp.common_internal_turns,
                (false, true) => comp.serious_external_turns,
                (false, false) => comp.common_external_turns,
            };
            match pick_turn(rng, window, &used) {
                None => {
                    ok = false;
                    break;
                }
                Some(t) => {
                    used.push(t);
                    out.push(MissionThreat {
                        turn: t as i32,
                        zone,
                        serious,
                        unconfirmed: false,
                    });
                }
            }
        }
        if ok {
            for _ in 0..extra {
                match pick_turn(rng, comp.common_external_turns, &used) {
                    None => {
                        ok = false;
                        break;
                    }
                    Some(t) => {
                        used.push(t);
                        out.push(MissionThreat {
                            turn: t as i32,
                            zone: rng.randrange(3) as i32,
                            serious: false,
                            unconfirmed: true,
                        });
                    }
                }
            }
        }
        if ok {
            out.sort_by_key(|m| m.turn);
            let incoming = rng.randint(comp.incoming_data.0, comp.incoming_data.1);
            let transfers = rng.randint(comp.data_transfers.0, comp.data_transfers.1);
            return Some(Mission {
                threats: out,
                incoming_data: incoming,
                data_transfers: transfers,
            });
        }
    }
    None
}

fn hand_sizes(humans: usize, figures: usize) -> [i64; 3] {
    let mut sizes = match humans {
        2 => [9, 6, 6],
        3 => [6, 6, 6],
        _ => [5, 5, 5],
    };
    if figures == 5 {
        sizes[0] += 1;
    }
    sizes
}

fn deal(comp: &Components, params: &Params, rng: &mut PyRandom) -> Result<Setup, String> {
    let figures = params.figures;
    let humans = params.players;
    let mission_owned;
    let mission: &Mission = match params.mission {
        MissionKind::Numbered(i) => comp
            .missions
            .get(i)
            .ok_or_else(|| "no such mission".to_string())?,
        kind => {
            let level = match kind {
                MissionKind::Test => comp.level_test,
                MissionKind::Simulation => comp.level_simulation,
                _ => comp.level_real,
            };
            let extra = if figures == 5 && kind != MissionKind::Test {
                comp.unconfirmed_extra
            } else {
                0
            };
            mission_owned = random_mission(comp, level, extra, rng)
                .ok_or_else(|| "could not build a random mission".to_string())?;
            &mission_owned
        }
    };
    let mut boards: Vec<usize> = (0..comp.trajectories.len()).collect();
    rng.shuffle(&mut boards);
    // decks[external][serious]
    let mut decks: [[Vec<usize>; 2]; 2] = Default::default();
    for serious in [false, true] {
        let allowed = if serious {
            params.serious
        } else {
            params.common
        };
        for external in [true, false] {
            let mut ids: Vec<usize> = (0..comp.threats.len())
                .filter(|&i| {
                    let t = &comp.threats[i];
                    (t.kind == EXTERNAL) == external
                        && t.serious == serious
                        && allowed.allows(t.colour)
                })
                .collect();
            rng.shuffle(&mut ids);
            decks[usize::from(external)][usize::from(serious)] = ids;
        }
    }
    let mut threats = Vec::new();
    for mt in &mission.threats {
        if mt.unconfirmed && figures < 5 {
            continue;
        }
        let deck = &mut decks[usize::from(mt.zone != 3)][usize::from(mt.serious)];
        let card = deck
            .pop()
            .ok_or_else(|| "a threat deck ran out".to_string())?;
        let traj = boards[if mt.zone == 3 { 3 } else { mt.zone as usize }];
        threats.push(Known {
            turn: mt.turn,
            card,
            zone: mt.zone,
            traj,
        });
    }
    let mut deck_cards: Vec<Card> = Vec::with_capacity(12 * comp.copies);
    for _ in 0..comp.copies {
        for m in [RED, BLUE, LIFT] {
            for a in [A, B, C, BB] {
                deck_cards.push((m, a));
            }
        }
    }
    rng.shuffle(&mut deck_cards);
    let mut heroic_cards: Vec<Card> = comp
        .heroic
        .iter()
        .map(|&(a, s)| (TELEPORT + s as u8, a))
        .collect();
    rng.shuffle(&mut heroic_cards);
    let heroic: Vec<Card> = (0..figures)
        .map(|f| heroic_cards[f % heroic_cards.len()])
        .collect();
    let sizes = hand_sizes(humans, figures);
    let mut incoming = [0i64; 3];
    for i in 0..mission.incoming_data {
        incoming[(i % 2) as usize] += 1;
    }
    let mut transfers = [0i64; 3];
    for i in 0..mission.data_transfers {
        transfers[(i % 2) as usize] += 1;
    }
    let mut hands = Vec::with_capacity(figures);
    for f in 0..figures {
        let mut per: [Vec<Card>; 3] = Default::default();
        for (p, slot) in per.iter_mut().enumerate() {
            if f >= humans || params.free_hands {
                continue;
            }
            let n = sizes[p] - i64::from(p == 0) + incoming[p];
            for _ in 0..n {
                slot.push(
                    deck_cards
                        .pop()
                        .ok_or_else(|| "action deck ran out".to_string())?,
                );
            }
        }
        hands.push(per);
    }
    Ok(Setup {
        threats,
        hands,
        heroic,
        transfers,
        boards: [boards[0], boards[1], boards[2], boards[3]],
    })
}

/// `game._matches`: a card index for each planned half (bipartite matching), or None.
pub fn matches(codes: &[u8], cards: &[Card]) -> Option<Vec<usize>> {
    fn place(
        i: usize,
        codes: &[u8],
        cards: &[Card],
        owner: &mut [i64],
        seen: &mut Vec<bool>,
    ) -> bool {
        for (j, &(top, bottom)) in cards.iter().enumerate() {
            if seen[j] || (top != codes[i] && bottom != codes[i]) {
                continue;
            }
            seen[j] = true;
            if owner[j] < 0 || place(owner[j] as usize, codes, cards, owner, seen) {
                owner[j] = i as i64;
                return true;
            }
        }
        false
    }
    let mut owner = vec![-1i64; cards.len()];
    let mut seen = vec![false; cards.len()];
    for i in 0..codes.len() {
        seen.iter_mut().for_each(|s| *s = false);
        if !place(i, codes, cards, &mut owner, &mut seen) {
            return None;
        }
    }
    let mut used = vec![0usize; codes.len()];
    for (j, &i) in owner.iter().enumerate() {
        if i >= 0 {
            used[i as usize] = j;
        }
    }
    Some(used)
}

/// `matches(codes, cards).is_some()` without allocating, for a phase's few codes: at most 8 codes
/// on at most 64 cards (more fall back to `matches`).
pub fn fits(codes: &[u8], cards: &[Card]) -> bool {
    if codes.len() > 8 || cards.len() > 64 {
        return matches(codes, cards).is_some();
    }
    fn place(i: usize, codes: &[u8], cards: &[Card], owner: &mut [u8; 64], seen: &mut u64) -> bool {
        for (j, &(top, bottom)) in cards.iter().enumerate() {
            if *seen >> j & 1 == 1 || (top != codes[i] && bottom != codes[i]) {
                continue;
            }
            *seen |= 1 << j;
            if owner[j] == u8::MAX || place(usize::from(owner[j]), codes, cards, owner, seen) {
                owner[j] = i as u8;
                return true;
            }
        }
        false
    }
    let mut owner = [u8::MAX; 64];
    (0..codes.len()).all(|i| place(i, codes, cards, &mut owner, &mut 0))
}

/// The threats of a mission as `Live` cards (`game.build_threats`).
pub fn build_threats(comp: &Components, st: &mut State, threats: &[Known]) {
    st.threats.clear();
    for k in threats {
        st.threats
            .push(Live::new(comp, k.card, k.turn, k.zone, k.traj));
    }
}

/// `game.resolve` into `st`: the resolution round on these plans (no trips).
pub fn resolve(
    comp: &Components,
    st: &mut State,
    threats: &[Known],
    plans: &[[u8; 12]],
    stacks: &[Vec<u8>; 3],
    humans: usize,
) -> rules::Score {
    st.reset(comp, plans.len(), plans, stacks, humans);
    build_threats(comp, st, threats);
    Resolver::new(comp, st, &[]).run();
    rules::score(comp, st)
}

/// What a campaign's mission leaves the next: the damage kept after repairs, the squads still
/// disabled and the damage-tile orders.
#[derive(Clone, Debug)]
pub(super) struct Carry {
    pub(super) tiles: [Vec<u8>; 3],
    pub(super) disabled: Vec<bool>,
    pub(super) stacks: [Vec<u8>; 3],
}

/// `game._repair`.
fn repair(comp: &Components, st: &State, figures: usize, fresh: &[Vec<u8>; 3]) -> Carry {
    let mut tiles = st.tiles.clone();
    // a squad left off the board this mission is still unrepaired
    let mut disabled: Vec<bool> = (st.bots_disabled.iter().zip(&st.bots_at))
        .map(|(&d, &at)| d || at == -2)
        .collect();
    let mut repaired = [0; 3];
    for f in 0..figures {
        if st.knocked[f] {
            continue;
        }
        if let Some(k) = disabled.iter().position(|&d| d) {
            disabled[k] = false;
            continue;
        }
        let mut best: Option<usize> = None;
        for z in 0..3 {
            if !tiles[z].is_empty()
                && repaired[z] < 2
                && best.is_none_or(|b| tiles[z].len() > tiles[b].len())
            {
                best = Some(z);
            }
        }
        let Some(z) = best else { continue };
        let tile = *tiles[z].iter().min().unwrap();
        let pos = tiles[z].iter().position(|&t| t == tile).unwrap();
        tiles[z].remove(pos);
        repaired[z] += 1;
    }
    let mut stacks: [Vec<u8>; 3] = Default::default();
    for z in 0..3 {
        let rest: Vec<u8> = st.tile_stacks[z][st.tiles[z].len()..].to_vec();
        let back: Vec<u8> = comp
            .tiles
            .iter()
            .copied()
            .filter(|t| !tiles[z].contains(t) && !rest.contains(t))
            .collect();
        let mut tail: Vec<u8> = rest;
        tail.extend(back);
        let index = |t: &u8| fresh[z].iter().position(|x| x == t).unwrap_or(usize::MAX);
        tail.sort_by_key(index);
        let mut stack = tiles[z].clone();
        stack.extend(tail);
        stacks[z] = stack;
    }
    Carry {
        tiles,
        disabled,
        stacks,
    }
}

/// `game._apply_carry`.
fn apply_carry(st: &mut State, carry: &Carry) {
    for z in 0..3 {
        let kept = &carry.tiles[z];
        st.tiles[z] = kept.clone();
        for &tile in kept {
            match tile {
                TILE_REACTOR => {
                    st.reactor_cap[z] -= 1;
                    st.reactor[z] = (st.reactor[z] - 1).min(st.reactor_cap[z]).max(0);
                }
                TILE_SHIELD => {
                    st.shield_cap[z] -= 1;
                    st.shield[z] = (st.shield[z] - 1).min(st.shield_cap[z]).max(0);
                }
                TILE_HEAVY => st.heavy[z] -= 1,
                TILE_CANNON => {
                    if z == 1 {
                        st.pulse_range = (st.pulse_range - 1).max(1);
                    } else {
                        st.light[z] -= 1;
                    }
                }
                TILE_LIFT => st.lift_damaged[z] = true,
                _ => st.damage_mult[z] *= 2,
            }
        }
    }
    for (k, &gone) in carry.disabled.iter().enumerate() {
        if gone {
            st.bots_at[k] = -2;
        }
    }
}

fn ids(comp: &Components, st: &State, status: u8) -> String {
    let mut out = String::new();
    for th in &st.threats {
        if th.status == status {
            if !out.is_empty() {
                out.push(',');
            }
            out.push_str(&comp.threats[th.card].id);
        }
    }
    out
}

/// `game.record`.
fn record(comp: &Components, st: &State, res: &rules::Score) -> Record {
    let destroyed = st
        .threats
        .iter()
        .filter(|t| t.status == rules::DESTROYED)
        .count() as i64;
    let survived = st
        .threats
        .iter()
        .filter(|t| t.status == rules::SURVIVED)
        .count() as i64;
    let all: Vec<&str> = st
        .threats
        .iter()
        .map(|t| comp.threats[t.card].id.as_str())
        .collect();
    Record {
        head: Head {
            won: res.won,
            score: res.score,
            length: st.turn.min(13) as i64,
            end_reason: st.end_reason,
        },
        ints_a: [
            res.threat_points,
            res.penalties,
            res.visual,
            res.tiles[0],
            res.tiles[1],
            res.tiles[2],
            res.tiles.iter().sum(),
            st.threats.len() as i64,
            destroyed,
            survived,
        ],
        strs: [
            ids(comp, st, rules::DESTROYED),
            ids(comp, st, rules::SURVIVED),
            ids(comp, st, rules::ACTIVE),
            all.join(","),
            if st.lost && st.culprit >= 0 {
                comp.threats[st.culprit as usize].id.clone()
            } else {
                String::new()
            },
        ],
        ints_b: [
            res.knocked,
            res.disabled,
            st.fuel as i64,
            st.rockets as i64,
            0,
        ],
    }
}

/// The decision a game waits on, or its end: where the forward model stands. The crew plans
/// phase by phase in `game.plan_mission`'s order: the phase's data transfers (round by round,
/// human by human), then each figure's cards in figure order, turn by turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// A human's data transfer in the phase's `round`-th: one card to a teammate, or none.
    Transfer {
        round: usize,
        figure: usize,
    },
    /// The figure's card for the turn: a half of a card offered, a half of its heroic card, or
    /// nothing.
    Card {
        figure: usize,
        turn: usize,
    },
    Over,
}

/// One decision's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// (the card's index in the figure's hand, the teammate given it), or none.
    Transfer(Option<(u8, u8)>),
    /// The code planned for the turn (`EMPTY`: no card).
    Card(u8),
}

/// The game between two decisions: the mission being planned, and the campaign so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Round {
    /// The campaign's mission being planned (0 for the first).
    pub(super) mission: usize,
    pub(super) setup: Setup,
    /// This mission's damage-tile orders, drawn before the planning.
    pub(super) stacks: [Vec<u8>; 3],
    /// Each figure's misplay draw for each turn (against `error_rate`).
    pub(super) draws: Vec<[f64; 12]>,
    /// Each figure's codes by turn (index 0 unused).
    pub(super) plans: Vec<[u8; 13]>,
    /// The cards each figure holds.
    pub(super) hands: Vec<Vec<Card>>,
    pub(super) heroic_left: Vec<bool>,
    /// The action round's phase being planned, 0..3.
    pub(super) phase: usize,
    /// The cards offered to the figure planning: its hand (an android's: every human's), then
    /// its heroic card while unused; the first `n_offered` are plain.
    pub(super) offered: Vec<Card>,
    pub(super) n_offered: usize,
    pub(super) carry: Option<Carry>,
    pub(super) total_points: i64,
    visuals: Vec<i64>,
    /// The last resolved mission's record; the game's once it is over.
    pub(super) rec: Record,
    earlier: Vec<Record>,
}

/// A built-in player's plan for the rest of a figure's phase, answered a turn at a time:
/// `codes[i]` is for turn `turn + i`.
pub(super) struct Ahead {
    figure: usize,
    turn: usize,
    codes: Vec<u8>,
}

/// Plays whole games, reusing the buffers; between two decisions it is the forward model's
/// position (`forward.rs`).
pub struct Engine<'a> {
    pub(super) comp: &'a Components,
    pub(super) params: Params,
    strategy: Strategy,
    st: State,
    /// The set-up stream, the two chance streams, then one per figure.
    pub(super) rngs: Vec<PyRandom>,
    /// Each figure's built-in player (the search player's plan as the scripted crew: its
    /// transfers).
    pub(super) crew: Vec<Player>,
    pub(super) round: Round,
    pub phase: Phase,
    pub(super) ahead: Option<Ahead>,
    /// The search player's tree and model, when the strategy is `mcts`.
    pub(super) searcher: Option<Box<Searcher<'a>>>,
}

impl<'a> Engine<'a> {
    pub fn new(comp: &'a Components, params: Params, strategy: Strategy) -> Engine<'a> {
        let searcher = match strategy {
            Strategy::Mcts(search) => Some(Box::new(Searcher::new(comp, params, &search))),
            _ => None,
        };
        Engine {
            comp,
            params,
            strategy,
            st: State::default(),
            rngs: (0..3 + params.figures)
                .map(|_| PyRandom::from_u64(0))
                .collect(),
            crew: (0..params.figures).map(|_| Player::new(strategy)).collect(),
            round: Round::default(),
            phase: Phase::Over,
            ahead: None,
            searcher,
        }
    }

    /// `SpaceAlert.play` (`game.play_game`).
    pub fn play(&mut self, root_seed: u64, gi: u64) -> Result<Record, GameError> {
        self.seed(root_seed, gi);
        self.start()
            .and_then(|()| self.run())
            .map_err(|message| GameError {
                game_index: gi,
                message,
            })?;
        Ok(std::mem::take(&mut self.round.rec))
    }

    /// The set-up and chance streams and, for crews that draw, each figure's
    /// `seeds.stream(seq, FIRST_SEAT + k)`, seeded side by side (the scripted crew never draws:
    /// Python makes its streams lazily, so they are not made here either).
    pub(super) fn seed(&mut self, root_seed: u64, gi: u64) {
        let figures = self.params.figures;
        let seq = game_sequence(root_seed, gi);
        let mut keys = [[0u32; 4]; 8];
        keys[0].copy_from_slice(&seq.child(&[SETUP]).generate_state(4));
        let chance = seq.child(&[CHANCE]).generate_state(8);
        keys[1].copy_from_slice(&chance[..4]);
        keys[2].copy_from_slice(&chance[4..]);
        let seeded = if matches!(self.strategy, Strategy::Scripted(_)) {
            3
        } else {
            for k in 0..figures {
                keys[3 + k].copy_from_slice(&seq.child(&[FIRST_SEAT + k as u64]).generate_state(4));
            }
            3 + figures
        };
        PyRandom::reseed_many(&mut self.rngs[..seeded], &keys[..seeded]);
    }

    /// Deal the first mission and play to the first decision.
    pub fn start(&mut self) -> Result<(), String> {
        let r = &mut self.round;
        r.mission = 0;
        r.carry = None;
        r.total_points = 0;
        r.visuals.clear();
        r.earlier.clear();
        r.rec = Record::default();
        self.begin_mission()
    }

    /// Play on from the current decision to the end, each decision by the engine's strategy.
    pub(super) fn run(&mut self) -> Result<(), String> {
        loop {
            let action = match self.phase {
                Phase::Over => return Ok(()),
                Phase::Transfer { figure, .. } => Action::Transfer(self.transfer_by_crew(figure)),
                Phase::Card { figure, turn } => match self.searcher {
                    Some(_) => self.searched()?,
                    None => Action::Card(self.planned(figure, turn)?),
                },
            };
            self.apply(action)?;
        }
    }

    /// The forward model's step: play one decision's answer, then the rules and chance up to
    /// the next decision (a figure's last card of a phase gives up the cards it used; the last
    /// figure's of phase 3 resolves the mission and, in a campaign, deals the next).
    pub fn apply(&mut self, action: Action) -> Result<(), String> {
        let phase = self.phase;
        let wrong = || format!("{action:?} does not answer the decision {phase:?}");
        match (phase, action) {
            (Phase::Transfer { round, figure }, Action::Transfer(offer)) => {
                let humans = self.params.players;
                let r = &mut self.round;
                if let Some((i, to)) = offer {
                    let (i, to) = (usize::from(i), usize::from(to));
                    if i >= r.hands[figure].len() || to >= humans || to == figure {
                        return Err(wrong());
                    }
                    let card = r.hands[figure].remove(i);
                    r.hands[to].push(card);
                }
                if figure + 1 < humans {
                    self.phase = Phase::Transfer {
                        round,
                        figure: figure + 1,
                    };
                } else if ((round + 1) as i64) < r.setup.transfers[r.phase] {
                    self.phase = Phase::Transfer {
                        round: round + 1,
                        figure: 0,
                    };
                } else {
                    self.enter_figure(0);
                }
                Ok(())
            }
            (Phase::Card { figure, turn }, Action::Card(code)) => {
                if !self.playable(figure, turn, code) {
                    return Err(wrong());
                }
                self.round.plans[figure][turn] = code;
                let followed = self.ahead.as_ref().is_some_and(|a| {
                    a.figure == figure
                        && turn >= a.turn
                        && a.codes.get(turn - a.turn) == Some(&code)
                });
                if !followed {
                    self.ahead = None;
                }
                if turn < self.last_turn() {
                    self.phase = Phase::Card {
                        figure,
                        turn: turn + 1,
                    };
                    Ok(())
                } else {
                    self.end_figure(figure)
                }
            }
            _ => Err(wrong()),
        }
    }

    /// Can the figure plan `code` for the turn, after its codes of the phase so far? A plain
    /// half while the phase's plain codes still take distinct cards offered (any plain half
    /// with free hands), or its heroic card's once in a phase while unused; nothing always.
    pub(super) fn playable(&self, figure: usize, turn: usize, code: u8) -> bool {
        if code == EMPTY {
            return true;
        }
        let r = &self.round;
        let earlier = &r.plans[figure][self.first_turn()..turn];
        let h = r.setup.heroic[figure];
        let heroic = |c: u8| c == h.0 || c == h.1;
        if heroic(code) {
            return r.heroic_left[figure] && !earlier.iter().any(|&c| heroic(c));
        }
        if !PLAIN.contains(&code) {
            return false;
        }
        if self.free() {
            return true;
        }
        let mut codes = [EMPTY; 13];
        let mut n = 0;
        for &c in earlier.iter().filter(|&&c| c != EMPTY && !heroic(c)) {
            codes[n] = c;
            n += 1;
        }
        codes[n] = code;
        fits(&codes[..=n], &r.offered[..r.n_offered])
    }

    /// Any card with any half each turn (`hands = free`, or a crew of one).
    fn free(&self) -> bool {
        self.params.free_hands || self.params.players == 1
    }

    /// The first and last turn of the phase being planned.
    pub(super) fn first_turn(&self) -> usize {
        match self.round.phase {
            0 => 1,
            p => self.comp.phase_ends[p - 1] as usize + 1,
        }
    }

    fn last_turn(&self) -> usize {
        self.comp.phase_ends[self.round.phase] as usize
    }

    fn begin_mission(&mut self) -> Result<(), String> {
        let comp = self.comp;
        let figures = self.params.figures;
        let chance = &mut self.rngs[..3];
        let r = &mut self.round;
        r.setup = deal(comp, &self.params, &mut chance[0])?;
        for stack in r.stacks.iter_mut() {
            stack.clone_from(&comp.tiles);
            chance[1].shuffle(stack);
        }
        r.draws.clear();
        for _ in 0..figures {
            let mut row = [0f64; 12];
            for d in row.iter_mut() {
                *d = chance[2].random();
            }
            r.draws.push(row);
        }
        r.plans.clear();
        r.plans.resize(figures, [EMPTY; 13]);
        r.hands.clear();
        r.hands.resize(figures, Vec::new());
        r.heroic_left.clear();
        r.heroic_left.resize(figures, true);
        self.enter_phase(0);
        Ok(())
    }

    /// The phase's hands join the cards held; its data transfers are asked when hands are dealt
    /// to more than one human.
    fn enter_phase(&mut self, p: usize) {
        let transfers = !self.free() && self.params.players > 1;
        let r = &mut self.round;
        r.phase = p;
        for (hand, dealt) in r.hands.iter_mut().zip(&r.setup.hands) {
            hand.extend_from_slice(&dealt[p]);
        }
        if transfers && r.setup.transfers[p] > 0 {
            self.phase = Phase::Transfer {
                round: 0,
                figure: 0,
            };
        } else {
            self.enter_figure(0);
        }
    }

    fn enter_figure(&mut self, f: usize) {
        let humans = self.params.players;
        let free = self.free();
        let first = self.first_turn();
        let r = &mut self.round;
        r.offered.clear();
        if !free {
            if f >= humans {
                for hand in &r.hands[..humans] {
                    r.offered.extend_from_slice(hand);
                }
            } else {
                r.offered.extend_from_slice(&r.hands[f]);
            }
        }
        r.n_offered = r.offered.len();
        if r.heroic_left[f] {
            r.offered.push(r.setup.heroic[f]);
        }
        self.phase = Phase::Card {
            figure: f,
            turn: first,
        };
    }

    /// The figure's phase is planned: its heroic card is spent if used, and the cards its plain
    /// codes take leave the hands (an android's, its humans').
    fn end_figure(&mut self, f: usize) -> Result<(), String> {
        let (figures, humans) = (self.params.figures, self.params.players);
        let free = self.free();
        let (first, last) = (self.first_turn(), self.last_turn());
        self.ahead = None;
        let r = &mut self.round;
        let h = r.setup.heroic[f];
        let mut heroic_used = false;
        let mut plain: Vec<u8> = Vec::new();
        for &c in &r.plans[f][first..=last] {
            if c == EMPTY {
                continue;
            }
            if c == h.0 || c == h.1 {
                heroic_used = true;
            } else {
                plain.push(c);
            }
        }
        if heroic_used {
            r.heroic_left[f] = false;
        }
        if !free {
            let cards = &r.offered[..r.n_offered];
            let used =
                matches(&plain, cards).ok_or_else(|| "a plan not in the hand".to_string())?;
            let android = f >= humans;
            for j in used {
                let card = cards[j];
                let owners = if android { 0..humans } else { f..f + 1 };
                for o in owners {
                    if let Some(pos) = r.hands[o].iter().position(|&c| c == card) {
                        r.hands[o].remove(pos);
                        break;
                    }
                }
            }
        }
        if f + 1 < figures {
            self.enter_figure(f + 1);
            Ok(())
        } else if r.phase < 2 {
            let next = r.phase + 1;
            self.enter_phase(next);
            Ok(())
        } else {
            self.resolve_mission()
        }
    }

    /// The resolution round on the crew's plans (misplays by the draws), the record, and the
    /// campaign's next mission or the game's end.
    fn resolve_mission(&mut self) -> Result<(), String> {
        let comp = self.comp;
        let params = self.params;
        let (figures, humans) = (params.figures, params.players);
        let r = &mut self.round;
        let plans: Vec<[u8; 12]> = r
            .plans
            .iter()
            .map(|p| p[1..].try_into().expect("12 turns"))
            .collect();
        let mut trips = vec![0u16; figures];
        for (f, trip) in trips.iter_mut().enumerate().take(humans) {
            for (t, (&draw, &code)) in r.draws[f].iter().zip(&plans[f]).enumerate() {
                if draw < params.error_rate && code != EMPTY {
                    *trip |= 1 << (t + 1);
                }
            }
        }
        let st = &mut self.st;
        match &r.carry {
            Some(c) => {
                st.reset(comp, figures, &plans, &c.stacks, humans);
                apply_carry(st, c);
            }
            None => st.reset(comp, figures, &plans, &r.stacks, humans),
        }
        build_threats(comp, st, &r.setup.threats);
        Resolver::new(comp, st, &trips).run();
        let res = rules::score(comp, st);
        if r.mission > 0 {
            r.earlier.push(std::mem::take(&mut r.rec));
        }
        r.rec = record(comp, st, &res);
        r.total_points += res.threat_points;
        r.visuals.push(res.visual);
        if st.lost || r.mission + 1 == params.campaign {
            self.finish();
            return Ok(());
        }
        r.carry = Some(repair(comp, st, figures, &r.stacks));
        r.mission += 1;
        self.begin_mission()
    }

    /// The game's record: the last mission's, with a campaign's totals.
    fn finish(&mut self) {
        self.phase = Phase::Over;
        let missions = self.params.campaign;
        let r = &mut self.round;
        let rec = &mut r.rec;
        rec.ints_b[4] = r.visuals.len() as i64;
        if !r.earlier.is_empty() {
            for key in 7..10 {
                rec.ints_a[key] += r.earlier.iter().map(|e| e.ints_a[key]).sum::<i64>();
            }
            for key in [0, 1, 3] {
                let mut parts: Vec<&str> = r
                    .earlier
                    .iter()
                    .map(|e| e.strs[key].as_str())
                    .filter(|s| !s.is_empty())
                    .collect();
                let own = rec.strs[key].clone();
                if !own.is_empty() {
                    parts.push(&own);
                }
                let joined = parts.join(",");
                rec.strs[key] = joined;
            }
        }
        if missions > 1 && rec.head.won {
            rec.ints_a[0] = r.total_points;
            rec.ints_a[2] = r
                .visuals
                .iter()
                .sum::<i64>()
                .div_euclid(r.visuals.len() as i64);
            rec.head.score = rec.ints_a[0] - rec.ints_a[1] + rec.ints_a[2];
        }
    }

    /// The threats the crew has heard of while planning this phase.
    pub(super) fn announced(&self) -> Vec<Known> {
        let limit = ANNOUNCED_BY_PHASE[self.round.phase];
        let threats = self.round.setup.threats.iter();
        threats.filter(|t| t.turn <= limit).copied().collect()
    }

    /// The figure's built-in player's data transfer.
    pub(super) fn transfer_by_crew(&mut self, figure: usize) -> Option<(u8, u8)> {
        let known = self.announced();
        let (first, last) = (self.first_turn(), self.last_turn());
        let r = &self.round;
        let view = View {
            comp: self.comp,
            figure,
            figures: self.params.figures,
            humans: self.params.players,
            phase: r.phase,
            phase_first: first,
            first,
            last,
            hand: &r.hands[figure],
            free: false,
            threats: &known,
            plans: &r.plans,
        };
        let (i, to) = self.crew[figure].transfer(&view)?;
        Some((i as u8, to as u8))
    }

    /// The figure's built-in player's card for the turn: from its plan of the phase, made at the
    /// phase's first turn (or, after a turn it did not plan, from this turn on, on the cards
    /// the phase's earlier codes leave).
    pub(super) fn planned(&mut self, figure: usize, turn: usize) -> Result<u8, String> {
        if let Some(a) = &self.ahead {
            if a.figure == figure && turn >= a.turn && turn - a.turn < a.codes.len() {
                return Ok(a.codes[turn - a.turn]);
            }
        }
        let known = self.announced();
        let (first, last) = (self.first_turn(), self.last_turn());
        let hand = self.hand_left(figure, turn);
        let r = &self.round;
        let view = View {
            comp: self.comp,
            figure,
            figures: self.params.figures,
            humans: self.params.players,
            phase: r.phase,
            phase_first: first,
            first: turn,
            last,
            hand: &hand,
            free: self.free(),
            threats: &known,
            plans: &r.plans,
        };
        let codes = self.crew[figure].plan(&view, &mut self.rngs[3 + figure]);
        if codes.len() != last + 1 - turn {
            return Err("a plan of the wrong length".to_string());
        }
        let code = codes[0];
        self.ahead = Some(Ahead {
            figure,
            turn,
            codes,
        });
        Ok(code)
    }

    /// The cards offered to the figure that its codes of the phase before `turn` leave.
    fn hand_left(&self, figure: usize, turn: usize) -> Vec<Card> {
        let r = &self.round;
        let mut hand = r.offered.clone();
        let earlier = &r.plans[figure][self.first_turn()..turn];
        let h = r.setup.heroic[figure];
        let heroic = |c: u8| c == h.0 || c == h.1;
        if earlier.iter().any(|&c| heroic(c)) {
            hand.truncate(r.n_offered);
        }
        let plain: Vec<u8> = earlier
            .iter()
            .copied()
            .filter(|&c| c != EMPTY && !heroic(c))
            .collect();
        if !self.free() && !plain.is_empty() {
            let mut used = matches(&plain, &r.offered[..r.n_offered]).unwrap_or_default();
            used.sort_unstable_by(|a, b| b.cmp(a));
            for j in used {
                hand.remove(j);
            }
        }
        hand
    }
}
