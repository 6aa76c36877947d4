//! `game.py`: mission generation, the deal, the planning phase by phase, the trips, the
//! campaign's repairs and the record. Set-up draws from the set-up stream, tiles and misplays
//! from the two chance streams, each figure's planner from its own stream (made on first use).

use super::players::Player;
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

const ANNOUNCED_BY_PHASE: [i32; 3] = [4, 8, 12];

/// `game.View`.
pub struct View<'a> {
    pub comp: &'a Components,
    pub figure: usize,
    pub figures: usize,
    pub humans: usize,
    pub phase: usize,
    /// First and last turn of the phase.
    pub first: usize,
    pub last: usize,
    pub hand: &'a [Card],
    pub free: bool,
    pub threats: &'a [Known],
    pub plans: &'a [[u8; 13]],
}

struct Setup {
    threats: Vec<Known>,
    hands: Vec<[Vec<Card>; 3]>,
    heroic: Vec<Card>,
    transfers: [i64; 3],
}

fn err(game_index: u64, message: &str) -> GameError {
    GameError {
        game_index,
        message: message.to_string(),
    }
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
fn random_mission(
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

fn deal(
    comp: &Components,
    params: &Params,
    rng: &mut PyRandom,
    gi: u64,
) -> Result<Setup, GameError> {
    let figures = params.figures;
    let humans = params.players;
    let mission_owned;
    let mission: &Mission = match params.mission {
        MissionKind::Numbered(i) => comp
            .missions
            .get(i)
            .ok_or_else(|| err(gi, "no such mission"))?,
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
                .ok_or_else(|| err(gi, "could not build a random mission"))?;
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
        let card = deck.pop().ok_or_else(|| err(gi, "a threat deck ran out"))?;
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
                        .ok_or_else(|| err(gi, "action deck ran out"))?,
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

/// `game.plan_mission`: every figure's 12 cards.
fn plan_mission(
    comp: &Components,
    params: &Params,
    setup: &Setup,
    crew: &mut [Player],
    seat_rngs: &mut [PyRandom],
    gi: u64,
) -> Result<Vec<[u8; 12]>, GameError> {
    let figures = params.figures;
    let humans = params.players;
    let free = params.free_hands || humans == 1;
    let mut plans = vec![[EMPTY; 13]; figures];
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); figures];
    let mut heroic_left = vec![true; figures];
    let pe = &comp.phase_ends;
    let starts = [1, pe[0] + 1, pe[1] + 1];
    for p in 0..3 {
        for f in 0..figures {
            hands[f].extend_from_slice(&setup.hands[f][p]);
        }
        let first = starts[p] as usize;
        let last = pe[p] as usize;
        let known: Vec<Known> = setup
            .threats
            .iter()
            .filter(|t| t.turn <= ANNOUNCED_BY_PHASE[p])
            .copied()
            .collect();
        if !free && humans > 1 {
            for _ in 0..setup.transfers[p] {
                for f in 0..humans {
                    let hand = hands[f].clone();
                    let view = View {
                        comp,
                        figure: f,
                        figures,
                        humans,
                        phase: p,
                        first,
                        last,
                        hand: &hand,
                        free: false,
                        threats: &known,
                        plans: &plans,
                    };
                    if let Some((i, to)) = crew[f].transfer(&view) {
                        let card = hands[f].remove(i);
                        hands[to].push(card);
                    }
                }
            }
        }
        for f in 0..figures {
            let android = f >= humans;
            let mut offered: Vec<Card> = if free {
                Vec::new()
            } else if android {
                hands[..humans].concat()
            } else {
                hands[f].clone()
            };
            let n_offered = offered.len();
            if heroic_left[f] {
                offered.push(setup.heroic[f]);
            }
            let codes = {
                let view = View {
                    comp,
                    figure: f,
                    figures,
                    humans,
                    phase: p,
                    first,
                    last,
                    hand: &offered,
                    free,
                    threats: &known,
                    plans: &plans,
                };
                crew[f].plan(&view, &mut seat_rngs[f])
            };
            if codes.len() != last + 1 - first {
                return Err(err(gi, "a plan of the wrong length"));
            }
            let h = setup.heroic[f];
            let mut heroic_used = false;
            let mut plain: Vec<u8> = Vec::new();
            for &c in &codes {
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
                heroic_left[f] = false;
            }
            if !free {
                let cards = &offered[..n_offered];
                let used =
                    matches(&plain, cards).ok_or_else(|| err(gi, "a plan not in the hand"))?;
                for j in used {
                    let card = cards[j];
                    let owners = if android { 0..humans } else { f..f + 1 };
                    for o in owners {
                        if let Some(pos) = hands[o].iter().position(|&c| c == card) {
                            hands[o].remove(pos);
                            break;
                        }
                    }
                }
            }
            for (i, &c) in codes.iter().enumerate() {
                plans[f][first + i] = c;
            }
        }
    }
    Ok(plans
        .iter()
        .map(|p| {
            let mut row = [EMPTY; 12];
            row.copy_from_slice(&p[1..]);
            row
        })
        .collect())
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

struct Carry {
    tiles: [Vec<u8>; 3],
    disabled: Vec<bool>,
    stacks: [Vec<u8>; 3],
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

/// Plays whole games, reusing the buffers.
pub struct Engine<'a> {
    comp: &'a Components,
    params: Params,
    strategy: Strategy,
    st: State,
    /// The set-up stream, the two chance streams, then one per figure.
    rngs: Vec<PyRandom>,
    crew: Vec<Player>,
}

impl<'a> Engine<'a> {
    pub fn new(comp: &'a Components, params: Params, strategy: Strategy) -> Engine<'a> {
        Engine {
            comp,
            params,
            strategy,
            st: State::default(),
            rngs: (0..3 + params.figures)
                .map(|_| PyRandom::from_u64(0))
                .collect(),
            crew: (0..params.figures).map(|_| Player::new(strategy)).collect(),
        }
    }

    /// `SpaceAlert.play` (`game.play_game`).
    pub fn play(&mut self, root_seed: u64, gi: u64) -> Result<Record, GameError> {
        let comp = self.comp;
        let params = self.params;
        let figures = params.figures;
        let humans = params.players;
        let seq = game_sequence(root_seed, gi);
        // the set-up and chance streams and, for crews that draw, each figure's
        // `seeds.stream(seq, FIRST_SEAT + k)`, seeded side by side (the scripted crew never draws:
        // Python makes its streams lazily, so they are not made here either)
        let mut keys = [[0u32; 4]; 8];
        keys[0].copy_from_slice(&seq.child(&[SETUP]).generate_state(4));
        let chance = seq.child(&[CHANCE]).generate_state(8);
        keys[1].copy_from_slice(&chance[..4]);
        keys[2].copy_from_slice(&chance[4..]);
        let seeded = if self.strategy == Strategy::Scripted {
            3
        } else {
            for k in 0..figures {
                keys[3 + k].copy_from_slice(&seq.child(&[FIRST_SEAT + k as u64]).generate_state(4));
            }
            3 + figures
        };
        PyRandom::reseed_many(&mut self.rngs[..seeded], &keys[..seeded]);
        let crew = &mut self.crew;
        let mut carry: Option<Carry> = None;
        let mut total_points = 0i64;
        let mut visuals: Vec<i64> = Vec::new();
        let mut rec = Record::default();
        let mut earlier: Vec<Record> = Vec::new();
        let missions = params.campaign;
        for m in 0..missions {
            let (chance, seats) = self.rngs.split_at_mut(3);
            let setup = deal(comp, &params, &mut chance[0], gi)?;
            let mut stacks: [Vec<u8>; 3] = Default::default();
            for stack in stacks.iter_mut() {
                *stack = comp.tiles.clone();
                chance[1].shuffle(stack);
            }
            let mut draws = vec![[0f64; 12]; figures];
            for row in draws.iter_mut() {
                for d in row.iter_mut() {
                    *d = chance[2].random();
                }
            }
            let plans = plan_mission(comp, &params, &setup, crew, seats, gi)?;
            let mut trips = vec![0u16; figures];
            for f in 0..humans {
                for t in 0..12 {
                    if draws[f][t] < params.error_rate && plans[f][t] != EMPTY {
                        trips[f] |= 1 << (t + 1);
                    }
                }
            }
            let st = &mut self.st;
            match &carry {
                Some(c) => st.reset(comp, figures, &plans, &c.stacks, humans),
                None => st.reset(comp, figures, &plans, &stacks, humans),
            }
            if let Some(c) = &carry {
                apply_carry(st, c);
            }
            build_threats(comp, st, &setup.threats);
            Resolver::new(comp, st, &trips).run();
            let res = rules::score(comp, st);
            if m > 0 {
                earlier.push(std::mem::take(&mut rec));
            }
            rec = record(comp, st, &res);
            total_points += res.threat_points;
            visuals.push(res.visual);
            if st.lost || m == missions - 1 {
                break;
            }
            carry = Some(repair(comp, st, figures, &stacks));
        }
        rec.ints_b[4] = visuals.len() as i64;
        if !earlier.is_empty() {
            for key in 7..10 {
                rec.ints_a[key] += earlier.iter().map(|e| e.ints_a[key]).sum::<i64>();
            }
            for key in [0, 1, 3] {
                let mut parts: Vec<&str> = earlier
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
            rec.ints_a[0] = total_points;
            rec.ints_a[2] = visuals.iter().sum::<i64>().div_euclid(visuals.len() as i64);
            rec.head.score = rec.ints_a[0] - rec.ints_a[1] + rec.ints_a[2];
        }
        Ok(rec)
    }
}
