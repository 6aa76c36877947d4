//! The games' forward models from Python (`simkit.core.forward`): `forward_start` and a position
//! class a game. Every class has the same core (`position_class!`: `legal`, `apply`, `copy`,
//! `determinize`, `search`, `info_key`) and its game's own `phase`, `observation` and `record`
//! (and `to_move` where several seats decide). An answer is a pair `(kind, value)` of plain
//! Python values; each game's RULES.md lists its kinds.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{
    alien_attack_components, alien_attack_params, eight_bit_components, eight_bit_params, number,
    oh_no_components, oh_no_params, space_alert_components, space_alert_params,
};
use crate::batch::Head;
use crate::{alien_attack, eight_bit, oh_no, space_alert};

/// A position of a game's forward model at its first decision: game `game_index` of
/// `root_seed`, set up from the same component data and settings as `play_batch` takes, with
/// that game's deal and chance.
#[pyfunction]
fn forward_start<'py>(
    py: Python<'py>,
    game: &str,
    data: &Bound<'py, PyDict>,
    params: &Bound<'py, PyDict>,
    root_seed: u64,
    game_index: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let refused = PyValueError::new_err;
    let position = match game {
        "eight-bit-invaders" => {
            let (comp, params) = (eight_bit_components(data)?, eight_bit_params(params)?);
            let position = eight_bit::Position::start(&comp, params, root_seed, game_index);
            Bound::new(py, EightBitPosition(position.map_err(refused)?))?.into_any()
        }
        "alien-attack" => {
            let (comp, params) = (alien_attack_components(data)?, alien_attack_params(params)?);
            let position = alien_attack::Position::start(&comp, params, root_seed, game_index);
            Bound::new(py, AlienAttackPosition(position.map_err(refused)?))?.into_any()
        }
        "oh-no-invasion" => {
            let (comp, params) = (oh_no_components(data)?, oh_no_params(params)?);
            let position = oh_no::Position::start(&comp, params, root_seed, game_index);
            Bound::new(py, OhNoPosition(position.map_err(refused)?))?.into_any()
        }
        "space-alert" => {
            let comp = space_alert_components(data)?;
            let params = space_alert_params(params, &comp)?;
            let position = space_alert::Position::start(&comp, params, root_seed, game_index);
            Bound::new(py, SpaceAlertPosition(position.map_err(refused)?))?.into_any()
        }
        _ => return Err(refused(format!("no native forward model for '{game}'"))),
    };
    Ok(position)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(forward_start, m)?)?;
    m.add_class::<EightBitPosition>()?;
    m.add_class::<AlienAttackPosition>()?;
    m.add_class::<OhNoPosition>()?;
    m.add_class::<SpaceAlertPosition>()?;
    Ok(())
}

/// An answer as Python sees it: `(kind, value)`.
fn answer<'py, V: IntoPyObject<'py>>(
    py: Python<'py>,
    kind: &str,
    value: V,
) -> PyResult<Bound<'py, PyAny>> {
    Ok((kind, value).into_pyobject(py)?.into_any())
}

/// An answer's value read as `T` (a ValueError naming the answer when it is not one).
fn value<'py, T: FromPyObject<'py>>(kind: &str, value: &Bound<'py, PyAny>) -> PyResult<T> {
    value
        .extract()
        .map_err(|e| PyValueError::new_err(format!("('{kind}', {value}): {e}")))
}

fn no_action(game: &str, kind: &str) -> PyErr {
    PyValueError::new_err(format!("no {game} action '{kind}'"))
}

/// Refuses a parameter `mcts` does not have, in one line naming those it has.
fn known_names(numbers: Option<&Bound<'_, PyDict>>, names: &[&str]) -> PyResult<()> {
    for key in numbers.iter().flat_map(|n| n.keys()) {
        let key: String = key.extract()?;
        if !names.contains(&key.as_str()) {
            let known = names.join(", ");
            return Err(PyValueError::new_err(format!(
                "mcts has no parameter '{key}' (parameters: {known})"
            )));
        }
    }
    Ok(())
}

/// Small numbers as a list of ints (a `u8` slice would be `bytes`).
fn numbers(values: &[u8]) -> Vec<u16> {
    values.iter().map(|&v| u16::from(v)).collect()
}

/// A record's head as the game row has it, in a new dict: won, score, length, end_reason (its
/// label once the game is over, None before).
fn record_head<'py, W: IntoPyObject<'py> + Copy>(
    py: Python<'py>,
    head: &Head<W>,
    over: bool,
    labels: &[&'static str],
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("won", head.won)?;
    out.set_item("score", head.score)?;
    out.set_item("length", head.length)?;
    let label = labels.get(usize::from(head.end_reason)).filter(|_| over);
    out.set_item("end_reason", label)?;
    Ok(out)
}

/// A position class: `struct $class($game::Position)` with the methods every game shares, then
/// the game's own (`$own`). `$phase(phase)` names a decision, `$answer(py, action)` makes an
/// answer's Python value, `$parse(kind, value)` reads one.
macro_rules! position_class {
    (
        $(#[$doc:meta])*
        $class:ident($game:ident), $phase:ident, $answer:ident, $parse:ident, { $($own:tt)* }
    ) => {
        $(#[$doc])*
        #[pyclass(unsendable, module = "simkit._native")]
        struct $class($game::Position);

        #[pymethods]
        impl $class {
            /// The decision waited on (the class's doc lists them), or "over".
            #[getter]
            fn phase(&self) -> &'static str {
                $phase(self.0.phase())
            }

            /// The player to decide (None once over).
            #[getter]
            fn to_move(&self) -> Option<usize> {
                self.0.to_move()
            }

            /// Every distinct answer open at this decision, none once over (the game's RULES.md
            /// says where the list is narrowed).
            fn legal<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
                let legal = self.0.legal().map_err(PyValueError::new_err)?;
                legal.into_iter().map(|a| $answer(py, a)).collect()
            }

            /// Play one answer `(kind, value)`, then the rules and chance up to the next
            /// decision. ValueError: not an answer to this decision, or the game is over.
            fn apply(&mut self, action: (String, Bound<'_, PyAny>)) -> PyResult<()> {
                let action = $parse(&action.0, &action.1)?;
                self.0.apply(action).map_err(PyValueError::new_err)
            }

            /// An independent copy (the same position and the same chance to come).
            fn copy(&self) -> Self {
                Self(self.0.clone())
            }

            /// Resample what the player to move cannot see, as the search's deal of `seed` does
            /// (the game's RULES.md, "Forward model").
            fn determinize(&mut self, seed: u64) {
                self.0.determinize(seed)
            }

            /// The `mcts` strategy's answer here: its parameters by name (those left out at
            /// their defaults), its deals drawn from `seed`.
            #[pyo3(signature = (seed, **numbers))]
            fn search<'py>(
                &mut self,
                py: Python<'py>,
                seed: u64,
                numbers: Option<&Bound<'py, PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                known_names(numbers, $game::SearchParams::NAMES)?;
                let p = $game::SearchParams::read(|key| numbers.and_then(|n| number(n, key)));
                let action = py
                    .allow_threads(|| self.0.search(&p, seed))
                    .map_err(PyValueError::new_err)?;
                $answer(py, action)
            }

            /// A hash of what the player to move has seen (positions alike to that player,
            /// equal keys).
            fn info_key(&self) -> u64 {
                self.0.info_key()
            }

            $($own)*
        }
    };
}

// --- 8-Bit Invaders ------------------------------------------------------------------------------

fn eight_bit_answer(py: Python<'_>, action: eight_bit::Action) -> PyResult<Bound<'_, PyAny>> {
    use eight_bit::{Action, Adjust};
    match action {
        Action::Trade(column) => answer(py, "trade", column),
        Action::Rapid(cards) => answer(py, "rapid", cards),
        Action::Adjust(Adjust::None) => answer(py, "keep", None::<u8>),
        Action::Adjust(Adjust::SmartBomb(die)) => answer(py, "smart_bomb", die),
        Action::Adjust(Adjust::TimeSlip(set)) => answer(py, "time_slip", set),
        Action::Allocate(kills) => answer(py, "allocate", kills),
        Action::Fuel(fuel) => answer(py, "fuel", fuel),
    }
}

fn eight_bit_parse(kind: &str, v: &Bound<'_, PyAny>) -> PyResult<eight_bit::Action> {
    use eight_bit::{Action, Adjust};
    Ok(match kind {
        "trade" => Action::Trade(value(kind, v)?),
        "rapid" => Action::Rapid(value(kind, v)?),
        "keep" => Action::Adjust(Adjust::None),
        "smart_bomb" => Action::Adjust(Adjust::SmartBomb(value(kind, v)?)),
        "time_slip" => Action::Adjust(Adjust::TimeSlip(value(kind, v)?)),
        "allocate" => Action::Allocate(value(kind, v)?),
        "fuel" => Action::Fuel(value(kind, v)?),
        _ => return Err(no_action("8-Bit Invaders", kind)),
    })
}

fn eight_bit_phase(phase: eight_bit::Phase) -> &'static str {
    match phase {
        eight_bit::Phase::Trade => "trade",
        eight_bit::Phase::Rapid => "rapid",
        eight_bit::Phase::Adjust => "adjust",
        eight_bit::Phase::Allocate => "allocate",
        eight_bit::Phase::Fuel => "fuel",
        eight_bit::Phase::Over(_) => "over",
    }
}

position_class! {
    /// 8-Bit Invaders' forward model (`eight_bit::Position`). An action is a pair (kind, value):
    /// ("trade", column or None), ("rapid", cards), ("keep", None), ("smart_bomb", die index),
    /// ("time_slip", dice as a bit set), ("allocate", kill set as a bit set over the dealt
    /// places), ("fuel", bool). Phases: trade, rapid, adjust, allocate, fuel; over.
    EightBitPosition(eight_bit), eight_bit_phase, eight_bit_answer, eight_bit_parse, {
        /// What the player sees: the formation and shields as bit sets, the counters, the hand
        /// and the discards by card, this turn's dice (none before the roll).
        fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let st = self.0.state();
            let out = PyDict::new(py);
            out.set_item("phase", self.phase())?;
            out.set_item("turn", st.turn)?;
            out.set_item("formation", st.occ)?;
            out.set_item("aliens_left", st.aliens_left)?;
            out.set_item("shields", st.shields)?;
            out.set_item("countdown", st.countdown)?;
            out.set_item("track", st.track)?;
            let hand = PyDict::new(py);
            let discard = PyDict::new(py);
            for (i, name) in eight_bit::CARD_NAMES.iter().enumerate() {
                hand.set_item(name, st.hand[i])?;
                discard.set_item(name, st.discard.iter().filter(|&&c| c == i).count())?;
            }
            out.set_item("hand", hand)?;
            out.set_item("discard", discard)?;
            let dice: Vec<i64> = self.0.dice().iter().map(|&d| i64::from(d)).collect();
            out.set_item("dice", dice)?;
            Ok(out)
        }

        /// The game's record so far: won, score, length, end_reason (None before the end), and
        /// the record's counts.
        fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let r = self.0.record();
            let out = record_head(py, &r.head, self.to_move().is_none(), eight_bit::END_REASONS)?;
            out.set_item("aliens_left", r.aliens_left)?;
            out.set_item("countdown_left", r.countdown_left)?;
            out.set_item("shields_left", r.shields_left)?;
            Ok(out)
        }
    }
}

// --- Alien Attack ------------------------------------------------------------------------------

fn alien_attack_answer(py: Python<'_>, action: alien_attack::Action) -> PyResult<Bound<'_, PyAny>> {
    use alien_attack::{Action, Power};
    match action {
        Action::Place(space) => answer(py, "place", space),
        Action::EndTurn => answer(py, "end_turn", None::<u8>),
        Action::Power(Power::Cover(space)) => answer(py, "cover", space),
        Action::Power(Power::ExtraTurn(space)) => answer(py, "extra_turn", space),
        Action::Power(Power::Neighborhood(space)) => answer(py, "neighborhood", space),
        Action::Protect(keep) => answer(py, "protect", keep),
    }
}

fn alien_attack_parse(kind: &str, v: &Bound<'_, PyAny>) -> PyResult<alien_attack::Action> {
    use alien_attack::{Action, Power};
    let space = || value::<u8>(kind, v).map(usize::from);
    Ok(match kind {
        "place" => Action::Place(value(kind, v)?),
        "end_turn" => Action::EndTurn,
        "cover" => Action::Power(Power::Cover(space()?)),
        "extra_turn" => Action::Power(Power::ExtraTurn(space()?)),
        "neighborhood" => Action::Power(Power::Neighborhood(space()?)),
        "protect" => Action::Protect(value(kind, v)?),
        _ => return Err(no_action("Alien Attack", kind)),
    })
}

fn alien_attack_phase(phase: alien_attack::Phase) -> &'static str {
    match phase {
        alien_attack::Phase::Place(_) => "place",
        alien_attack::Phase::Power { .. } => "power",
        alien_attack::Phase::Protect { .. } => "protect",
        alien_attack::Phase::Over => "over",
    }
}

/// The powers' bits and names (`state.POWER_NAMES`).
const POWERS: [(u8, &str); 4] = [
    (alien_attack::PROTECTION, "protection"),
    (alien_attack::COVER, "cover"),
    (alien_attack::NEIGHBORHOOD, "neighborhood"),
    (alien_attack::EXTRA, "extra_turn"),
];

position_class! {
    /// Alien Attack's forward model (`alien_attack::Position`): every seat's decisions, the seat
    /// to decide in `to_move`. An action is a pair (kind, value): ("place", space) on one of the
    /// round's open markers; in a power window ("end_turn", None), ("cover", space),
    /// ("extra_turn", space), ("neighborhood", space); at a flip that traps a disc ("protect",
    /// bool: keep it with Protection). Phases: place, power (a window), protect; over.
    AlienAttackPosition(alien_attack), alien_attack_phase, alien_attack_answer, alien_attack_parse, {
        /// What every seat sees (the whole table is public; the Mothership's order is not):
        /// `cell` by space (index 0 unused; a seat number for its disc, -1 no marker yet, -2 an
        /// open marker, -3 a base, -4 emptied, -5 a captured disc's space), the open markers, the
        /// markers left, every seat's discs, points, powers, parks, bases, captures and mission
        /// cards; in a power window the space just placed (`last`) and the spaces Cover may fill,
        /// at a Protection question the trapped disc's space.
        fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let st = self.0.state();
            let out = PyDict::new(py);
            out.set_item("phase", self.phase())?;
            out.set_item("to_move", self.to_move())?;
            out.set_item("round", st.round)?;
            out.set_item("rounds", st.rounds)?;
            out.set_item("cell", &st.cell[..=self.0.spaces()])?;
            out.set_item("open", numbers(&st.open))?;
            out.set_item("markers_left", st.bag.len())?;
            out.set_item("extra_turn_users", st.extra_users)?;
            out.set_item("park_markers", st.park_markers)?;
            let (mut last, mut cover, mut trapped) = (None, Vec::new(), None);
            match self.0.phase() {
                alien_attack::Phase::Power { last: l, cover: c, .. } => {
                    last = Some(l);
                    cover = numbers(c.as_slice());
                }
                alien_attack::Phase::Protect { space, .. } => trapped = Some(space),
                _ => {}
            }
            out.set_item("last", last)?;
            out.set_item("cover", cover)?;
            out.set_item("trapped", trapped)?;
            let seats = (0..st.players)
                .map(|p| {
                    let seat = PyDict::new(py);
                    seat.set_item("discs", st.discs[p])?;
                    seat.set_item("score", st.score[p])?;
                    let powers = POWERS.iter().filter(|(bit, _)| st.powers[p] & bit != 0);
                    seat.set_item("powers", powers.map(|(_, name)| *name).collect::<Vec<_>>())?;
                    seat.set_item("parks", st.parks[p])?;
                    seat.set_item("bases", st.bases[p])?;
                    seat.set_item("captured", st.captured[p])?;
                    seat.set_item("city_card", st.city_card[p])?;
                    seat.set_item("border_card", alien_attack::BORDER_CARDS[st.border_card[p]])?;
                    Ok(seat)
                })
                .collect::<PyResult<Vec<_>>>()?;
            out.set_item("seats", seats)?;
            Ok(out)
        }

        /// The record as the table stands (each seat's final scoring now; the game's record once
        /// it is over): the game row (end_reason None before the end) and `seats`, a row a seat.
        fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let r = self.0.record();
            let out = record_head(py, &r.head, self.to_move().is_none(), alien_attack::END_REASONS)?;
            let ints = [
                r.winners,
                r.winning_seat,
                r.margin,
                r.bases_destroyed,
                r.bases_left,
                r.discs_captured,
            ];
            for (name, v) in alien_attack::GAME_INTS.iter().zip(ints) {
                out.set_item(name, v)?;
            }
            out.set_item("mean_score", r.mean_score)?;
            out.set_item("base_spaces", r.base_spaces)?;
            out.set_item("capture_spaces", r.capture_spaces)?;
            let seats = r
                .seats
                .iter()
                .enumerate()
                .map(|(p, s)| {
                    let seat = PyDict::new(py);
                    seat.set_item("seat", p)?;
                    seat.set_item("city_card", s.city_card)?;
                    seat.set_item("border_card", alien_attack::BORDER_CARDS[s.border_card])?;
                    seat.set_item("score", s.score)?;
                    seat.set_item("won", s.won)?;
                    for (name, v) in alien_attack::SEAT_INTS.iter().zip(s.ints) {
                        seat.set_item(name, v)?;
                    }
                    for (name, used) in alien_attack::USED.iter().zip(s.used) {
                        seat.set_item(name, used)?;
                    }
                    Ok(seat)
                })
                .collect::<PyResult<Vec<_>>>()?;
            out.set_item("seats", seats)?;
            Ok(out)
        }
    }
}

// --- Oh no... INVASION!!! ----------------------------------------------------------------------

fn oh_no_answer(py: Python<'_>, action: oh_no::Action) -> PyResult<Bound<'_, PyAny>> {
    use oh_no::{Action, Means, StrikeAnswer};
    match action {
        Action::Call(now) => answer(py, "call", now),
        Action::Draw => answer(py, "draw", None::<u8>),
        Action::End => answer(py, "end", None::<u8>),
        Action::Transport(to, card) => answer(py, "transport", (to, card)),
        Action::Zap(weapon) => answer(py, "zap", weapon),
        Action::Module(slot) => answer(py, "module", slot),
        Action::Discard(set) => answer(py, "discard", set),
        Action::Build(set) => answer(py, "build", set),
        Action::Attack(None) => answer(py, "attack", None::<u8>),
        Action::Attack(Some(a)) => {
            let [x, y, z] = a.spent;
            answer(
                py,
                "attack",
                (a.attacker, a.target, a.colours, (x, y, z), a.morph),
            )
        }
        Action::Counter(Means::Weapon(card)) => answer(py, "counter", card),
        Action::Counter(Means::Morph(a, b)) => answer(py, "counter_morph", (a, b)),
        Action::Counter(Means::Help(p)) => answer(py, "counter_help", p),
        Action::Counter(Means::Nothing) => answer(py, "counter_none", None::<u8>),
        Action::Strike(StrikeAnswer::Weapon(card, k)) => answer(py, "strike", (card, k)),
        Action::Strike(StrikeAnswer::Morph(a, b, k)) => answer(py, "strike_morph", (a, b, k)),
        Action::Strike(StrikeAnswer::Help(p)) => answer(py, "strike_help", p),
        Action::Strike(StrikeAnswer::Nothing) => answer(py, "strike_none", None::<u8>),
    }
}

/// An attack as Python gives it: (attacker, target, colours, (3 cards or None), pair or None).
type AttackValue = (
    usize,
    usize,
    u16,
    (Option<u16>, Option<u16>, Option<u16>),
    Option<(u16, u16)>,
);

fn oh_no_parse(kind: &str, v: &Bound<'_, PyAny>) -> PyResult<oh_no::Action> {
    use oh_no::{Action, Attack, Means, StrikeAnswer};
    Ok(match kind {
        "call" => Action::Call(value(kind, v)?),
        "draw" => Action::Draw,
        "end" => Action::End,
        "transport" => {
            let (to, card) = value(kind, v)?;
            Action::Transport(to, card)
        }
        "zap" => Action::Zap(value(kind, v)?),
        "module" => Action::Module(value(kind, v)?),
        "discard" => Action::Discard(value(kind, v)?),
        "build" => Action::Build(value(kind, v)?),
        "attack" => Action::Attack(value::<Option<AttackValue>>(kind, v)?.map(
            |(attacker, target, colours, (x, y, z), morph)| Attack {
                attacker,
                target,
                colours,
                spent: [x, y, z],
                morph,
            },
        )),
        "counter" => Action::Counter(Means::Weapon(value(kind, v)?)),
        "counter_morph" => {
            let (a, b) = value(kind, v)?;
            Action::Counter(Means::Morph(a, b))
        }
        "counter_help" => Action::Counter(Means::Help(value(kind, v)?)),
        "counter_none" => Action::Counter(Means::Nothing),
        "strike" => {
            let (card, k) = value(kind, v)?;
            Action::Strike(StrikeAnswer::Weapon(card, k))
        }
        "strike_morph" => {
            let (a, b, k) = value(kind, v)?;
            Action::Strike(StrikeAnswer::Morph(a, b, k))
        }
        "strike_help" => Action::Strike(StrikeAnswer::Help(value(kind, v)?)),
        "strike_none" => Action::Strike(StrikeAnswer::Nothing),
        _ => return Err(no_action("Oh no... INVASION!!!", kind)),
    })
}

/// A decision's name and its details (the phase's fields, by name).
fn oh_no_decision(phase: oh_no::Phase) -> (&'static str, Vec<(&'static str, i64)>) {
    use oh_no::Phase;
    let n = |v: usize| v as i64;
    match phase {
        Phase::Call { seat, moment } => (
            "call",
            vec![("seat", n(seat)), ("moment", i64::from(moment))],
        ),
        Phase::Act { seat, number } => ("act", vec![("seat", n(seat)), ("number", n(number))]),
        Phase::Zap {
            zapper,
            seat,
            number,
            card,
            target,
            at,
        } => (
            "zap",
            vec![
                ("seat", n(seat)),
                ("number", n(number)),
                ("card", i64::from(card)),
                ("target", n(target)),
                ("at", n(at)),
                ("zapper", n(zapper)),
            ],
        ),
        Phase::Module {
            seat,
            number,
            card,
            target,
        } => (
            "module",
            vec![
                ("seat", n(seat)),
                ("number", n(number)),
                ("card", i64::from(card)),
                ("target", n(target)),
            ],
        ),
        Phase::Evaporate {
            seat,
            number,
            card,
            at,
        } => (
            "evaporate",
            vec![
                ("seat", n(seat)),
                ("number", n(number)),
                ("card", i64::from(card)),
                ("at", n(at)),
            ],
        ),
        Phase::Build { seat } => ("build", vec![("seat", n(seat))]),
        Phase::Combat { seat } => ("combat", vec![("seat", n(seat))]),
        Phase::Counter { seat, card } => (
            "counter",
            vec![("seat", n(seat)), ("card", i64::from(card))],
        ),
        Phase::HelpCounter { seat, helper, card } => (
            "help_counter",
            vec![
                ("seat", n(seat)),
                ("helper", n(helper)),
                ("card", i64::from(card)),
            ],
        ),
        Phase::Strike { seat } => ("strike", vec![("seat", n(seat))]),
        Phase::HelpStrike { seat, helper } => (
            "help_strike",
            vec![("seat", n(seat)), ("helper", n(helper))],
        ),
        Phase::Over(_) => ("over", vec![]),
    }
}

fn oh_no_phase(phase: oh_no::Phase) -> &'static str {
    oh_no_decision(phase).0
}

fn sorted(cards: &[u16]) -> Vec<u16> {
    let mut out = cards.to_vec();
    out.sort_unstable();
    out
}

position_class! {
    /// Oh no... INVASION!!!'s forward model (`oh_no::Position`): every crew member's decisions,
    /// the one to decide in `to_move`. Cards are ids (the components' order); a set of hand cards
    /// is a bit set of hand positions. An action is a pair (kind, value): ("call", bool); ("draw",
    /// None), ("end", None), ("transport", (seat, card)); ("zap", weapon or None); ("module",
    /// slot); ("discard", set); ("build", set); ("attack", None or (attacker, target, colours as
    /// a bit set, (up to 3 weapons or None), Morph-box pair or None)); ("counter", weapon),
    /// ("counter_morph", (a, b)), ("counter_help", seat), ("counter_none", None); ("strike",
    /// (weapon, colour)), ("strike_morph", (a, b, colour)), ("strike_help", seat),
    /// ("strike_none", None) (colour -1: the Spawnmonster). Phases: call, act, zap, module,
    /// evaporate, build, combat, counter, help_counter, strike, help_strike; over.
    OhNoPosition(oh_no), oh_no_phase, oh_no_answer, oh_no_parse, {
        /// What the player to move sees: the decision and its details, the turn, the Shield
        /// aliens, the piles' sizes and discards, every station (modules, Sabotaliens, aliens)
        /// and the hands it sees (every hand at levels 0-2, where the crew shares them; its own
        /// at level 3, the others' as None with their sizes).
        fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let st = self.0.state();
            let mover = self.0.to_move();
            let (name, details) = oh_no_decision(self.0.phase());
            let out = PyDict::new(py);
            out.set_item("phase", name)?;
            out.set_item("to_move", mover)?;
            let decision = PyDict::new(py);
            for (key, v) in details {
                decision.set_item(key, v)?;
            }
            out.set_item("decision", decision)?;
            out.set_item("level", st.level)?;
            out.set_item("turn", st.turn)?;
            out.set_item("active", st.active)?;
            out.set_item("final_conflict", st.final_conflict)?;
            out.set_item("catalyst_used", st.catalyst_used)?;
            out.set_item("shields", &st.shields)?;
            out.set_item("deck", st.deck.len())?;
            out.set_item("spawn_deck", st.spawn_deck.len())?;
            out.set_item("discard", sorted(&st.discard))?;
            out.set_item("spawn_discard", sorted(&st.spawn_discard))?;
            let stations = (0..st.n)
                .map(|p| {
                    let station = PyDict::new(py);
                    station.set_item("alive", st.alive[p])?;
                    station.set_item("modules", &st.mods[p])?;
                    let sabo = st.sabo[p].iter().map(|&a| (a >= 0).then_some(a));
                    station.set_item("sabotaliens", sabo.collect::<Vec<_>>())?;
                    station.set_item("sabotaged", &st.flipped[p])?;
                    station.set_item("aliens", &st.aliens[p])?;
                    let seen = st.level < 3 || mover == Some(p);
                    station.set_item("hand", seen.then_some(&st.hands[p]))?;
                    station.set_item("hand_size", st.hands[p].len())?;
                    Ok(station)
                })
                .collect::<PyResult<Vec<_>>>()?;
            out.set_item("stations", stations)?;
            Ok(out)
        }

        /// The game's record so far (`end_reason` None before the end): won, score, length,
        /// survivors, the Final Conflict's columns, shields_in_play and the counts.
        fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let r = self.0.record();
            let out = record_head(py, &r.head, self.to_move().is_none(), oh_no::END_REASONS)?;
            out.set_item("survivors", r.survivors)?;
            out.set_item("final_conflict_called", r.final_conflict_turn > 0)?;
            out.set_item("final_conflict_turn", r.final_conflict_turn)?;
            out.set_item("final_conflict_moment", oh_no::MOMENTS[usize::from(r.final_conflict_moment)])?;
            out.set_item("final_conflict_shields", r.final_conflict_shields)?;
            out.set_item("final_conflict_weapons", r.final_conflict_weapons)?;
            out.set_item("shields_in_play", r.shields_in_play)?;
            for (name, v) in oh_no::STAT_KEYS.iter().zip(r.stats) {
                out.set_item(name, v)?;
            }
            Ok(out)
        }
    }
}

// --- Space Alert -------------------------------------------------------------------------------

fn space_alert_answer(py: Python<'_>, action: space_alert::Action) -> PyResult<Bound<'_, PyAny>> {
    match action {
        space_alert::Action::Transfer(offer) => answer(py, "transfer", offer),
        space_alert::Action::Card(code) => answer(py, "card", code),
    }
}

fn space_alert_parse(kind: &str, v: &Bound<'_, PyAny>) -> PyResult<space_alert::Action> {
    Ok(match kind {
        "transfer" => space_alert::Action::Transfer(value(kind, v)?),
        "card" => space_alert::Action::Card(value(kind, v)?),
        _ => return Err(no_action("Space Alert", kind)),
    })
}

fn space_alert_phase(phase: space_alert::Phase) -> &'static str {
    match phase {
        space_alert::Phase::Transfer { .. } => "transfer",
        space_alert::Phase::Card { .. } => "card",
        space_alert::Phase::Over => "over",
    }
}

/// The zones' names, in the order of the trajectory boards.
const ZONES: [&str; 4] = ["red", "white", "blue", "internal"];

position_class! {
    /// Space Alert's forward model (`space_alert::Position`): the crew's planning, decision by
    /// decision; the figure to decide in `to_move`. Cards are the engine's codes
    /// (`state.CARD_NAMES`; a heroic card's move half is 16 + station). An action is a pair
    /// (kind, value): ("transfer", None or (index of the card in the figure's hand, teammate));
    /// ("card", code), the figure's card for the turn (0: none). Phases: transfer, card; over.
    SpaceAlertPosition(space_alert), space_alert_phase, space_alert_answer, space_alert_parse, {
        /// What the crew sees (it plans as one): the decision (the figure, the turn or the
        /// transfer round), the mission and planning phase (1-3), every figure's plan (codes for
        /// turns 1-12) and hand, the heroic cards and which are unused, the threats announced so
        /// far (turn, card id, zone, trajectory), each zone's trajectory and, in a campaign, the
        /// points so far and the damage carried.
        fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let o = self.0.observation();
            let out = PyDict::new(py);
            out.set_item("phase", self.phase())?;
            out.set_item("to_move", self.to_move())?;
            let (turn, round) = match self.0.phase() {
                space_alert::Phase::Card { turn, .. } => (Some(turn), None),
                space_alert::Phase::Transfer { round, .. } => (None, Some(round)),
                space_alert::Phase::Over => (None, None),
            };
            out.set_item("turn", turn)?;
            out.set_item("transfer_round", round)?;
            out.set_item("mission", o.mission)?;
            out.set_item("planning_phase", o.phase + 1)?;
            let plans: Vec<_> = o.plans.iter().map(|p| numbers(&p[1..])).collect();
            out.set_item("plans", plans)?;
            out.set_item("hands", o.hands)?;
            out.set_item("heroic", o.heroic)?;
            out.set_item("heroic_left", o.heroic_left)?;
            let comp = o.comp;
            let threats: Vec<_> = (o.announced.iter())
                .map(|k| (k.turn, comp.threats[k.card].id.as_str(), k.zone, comp.trajectories[k.traj].id.as_str()))
                .collect();
            out.set_item("threats", threats)?;
            let trajectories = PyDict::new(py);
            for (zone, &board) in ZONES.iter().zip(&o.boards) {
                trajectories.set_item(zone, comp.trajectories[board].id.as_str())?;
            }
            out.set_item("trajectories", trajectories)?;
            out.set_item("total_points", o.total_points)?;
            let carried = match o.carried {
                Some((tiles, disabled)) => {
                    let carried = PyDict::new(py);
                    let names = |zone: &Vec<u8>| -> Vec<&str> {
                        zone.iter().map(|&t| space_alert::TILE_NAMES[usize::from(t)]).collect()
                    };
                    carried.set_item("damage", tiles.iter().map(names).collect::<Vec<_>>())?;
                    carried.set_item("disabled_bots", disabled)?;
                    Some(carried)
                }
                None => None,
            };
            out.set_item("carried", carried)?;
            Ok(out)
        }

        /// The record of the last resolved mission (with a campaign's totals once over; zeros
        /// before the first resolution): won, score, length, end_reason (None before the end)
        /// and the record's columns.
        fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let r = self.0.record();
            let out = record_head(py, &r.head, self.to_move().is_none(), space_alert::END_REASONS)?;
            for (name, v) in space_alert::INTS_A.iter().zip(r.ints_a) {
                out.set_item(name, v)?;
            }
            for (name, v) in space_alert::STRS.iter().zip(&r.strs) {
                out.set_item(name, v)?;
            }
            for (name, v) in space_alert::INTS_B.iter().zip(r.ints_b) {
                out.set_item(name, v)?;
            }
            Ok(out)
        }
    }
}
