"""The rules on a `State`, with no strategy in them (RULES.md cites each rule): legal moves and
look-ups, then the transitions.

A transition is a plain function of `(comp, state, ...)` that changes the state and returns what
happened; it asks no player and logs nothing (game.py does both, between the steps). The chance a
transition needs (a reshuffle) comes in as a `random.Random` stream.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from simkit.games.oh_no_invasion.components import (
    BLACK,
    CATALYST,
    EVAPORALIEN,
    HUB,
    INVALIEN,
    MORPH_BOX,
    SABOTALIEN,
    TELEPORTER,
    WEAPON,
    Components,
)
from simkit.games.oh_no_invasion.state import State, shuffle


def working(comp: Components, state: State, seat: int, category: int) -> int:
    """How many unsabotaged modules of `category` the station of `seat` has."""
    return state.works[seat][category]


def hub_works(comp: Components, state: State, seat: int) -> bool:
    """The Hub is there (level 2 can destroy it) and not sabotaged."""
    return state.works[seat][HUB] > 0


def teleport_partners(comp: Components, state: State, seat: int) -> list[int]:
    """Other living players who, with `seat`, both have a working Teleporter (Component notes)."""
    works = state.works
    if not works[seat][TELEPORTER]:
        return []
    return [p for p in range(state.n) if p != seat and state.alive[p] and works[p][TELEPORTER]]


def free_slots(comp: Components, state: State, seat: int, colour: int) -> list[int]:
    """Modules of the station that show `colour` and have no Sabotalien next to them."""
    syms = comp.res_symbols
    sabo = state.sabo[seat]
    return [i for i, m in enumerate(state.mods[seat]) if sabo[i] < 0 and colour in syms[m]]


def shows(comp: Components, state: State, seat: int, colour: int) -> bool:
    """The station shows `colour` on any module (sabotaged modules still show their symbols)."""
    return state.shown[seat][colour] > 0


def flight(comp: Components, state: State, start: int, card: int) -> tuple[list[int], int]:
    """(stations visited, target) for a drawn invader (rulebook, Flying; RULINGS §2): from the
    active player's station round the table in the card's direction, each living station once;
    the first with a matching symbol (Sabotaliens: a free module with it) is the target, -1 if
    none (the alien is discarded). The path ends at the target."""
    colour = comp.spawn_colour[card]
    step = comp.spawn_flies[card]
    sabotalien = comp.spawn_kind[card] == SABOTALIEN
    n = state.n
    path: list[int] = []
    seat = start
    for _ in range(n):
        if state.alive[seat]:
            path.append(seat)
            if free_slots(comp, state, seat, colour) if sabotalien else shows(comp, state, seat, colour):
                return path, seat
        seat = (seat + step) % n
    return path, -1


def zap_cards(comp: Components, hand: list[int] | tuple[int, ...], colour: int) -> list[int]:
    """Weapons that can ZAP a flying alien of `colour`: that colour, or black (RULINGS §2)."""
    zappers = comp.zappers[colour]
    return [c for c in hand if c in zappers]


def counter_cards(comp: Components, hand: list[int] | tuple[int, ...], colour: int) -> list[int]:
    """Weapons that counter a kamikaze alien of `colour`: that colour only, never black."""
    rc, cat = comp.res_colour, comp.res_category
    return [c for c in hand if cat[c] == WEAPON and rc[c] == colour]


def weapons(comp: Components, hand: list[int] | tuple[int, ...]) -> list[int]:
    cat = comp.res_category
    return [c for c in hand if cat[c] == WEAPON]


def morph_pair_ok(comp: Components, a: int, b: int) -> bool:
    """Two hand cards of the same colour or the same type (Morph-box: "2 bombs, 2 yellows or 2
    Modules"). Colour is a weapon's colour (black pairs with black); modules pair as a type."""
    if a == b:
        return False
    cat, rc, rt = comp.res_category, comp.res_colour, comp.res_type
    if rt[a] == rt[b]:
        return True
    return cat[a] == WEAPON and cat[b] == WEAPON and rc[a] == rc[b]


def morph_pairs(comp: Components, hand: list[int] | tuple[int, ...]) -> list[tuple[int, int]]:
    h = list(hand)
    return [(a, b) for i, a in enumerate(h) for b in h[i + 1 :] if morph_pair_ok(comp, a, b)]


# --- the Final Conflict: no declining (RULINGS §2) -------------------------------------------


def counter_helpers(comp: Components, state: State, seat: int, colour: int) -> list[int]:
    """Teleporter partners of `seat` holding a weapon that counters a kamikaze of `colour`: the
    help `seat` can count on (a partner so asked must counter)."""
    return [p for p in teleport_partners(comp, state, seat) if counter_cards(comp, state.hands[p], colour)]


def morph_counter_allowed(comp: Components, hand: list[int] | tuple[int, ...], colour: int) -> bool:
    """The Morph-box counters only a kamikaze of a colour its owner holds no weapon for."""
    return not counter_cards(comp, hand, colour)


def can_counter(comp: Components, state: State, seat: int, colour: int) -> bool:
    """Whether `seat` can counter a kamikaze of `colour` (then it must): a weapon of that colour,
    a working Morph-box with a pair, or a Teleporter partner holding such a weapon."""
    hand = state.hands[seat]
    if counter_cards(comp, hand, colour) or counter_helpers(comp, state, seat, colour):
        return True
    return bool(working(comp, state, seat, MORPH_BOX) and morph_pairs(comp, hand))


def strike_weapons(comp: Components, hand: list[int] | tuple[int, ...], shield_colours) -> list[int]:
    """Weapons in `hand` that can strike (then the player must): one of a Shield alien's colour or
    black, or with no Shield alien left any weapon (the Spawnmonster)."""
    rc = comp.res_colour
    if not shield_colours:
        return weapons(comp, hand)
    return [c for c in weapons(comp, hand) if rc[c] == BLACK or rc[c] in shield_colours]


def attack_error(comp: Components, hand: list[int], plan, morph_uses: int) -> str | None:
    """Why a combat plan `(plays, morphs)` is illegal, or None.

    plays: ((weapon card, colour), ...) weapons played from hand; a black weapon names any colour,
    another weapon its own. morphs: (((card, card), colour), ...), at most one per working
    Morph-box of the attacker's station."""
    try:
        plays, morphs = plan
        plays = tuple(plays)
        morphs = tuple(morphs)
    except (TypeError, ValueError):
        return f"{plan!r} is not (plays, morphs)"
    used: set[int] = set()
    cat, rc = comp.res_category, comp.res_colour
    for p in plays:
        if not (isinstance(p, tuple | list) and len(p) == 2):
            return f"play {p!r} is not (card, colour)"
        card, colour = p
        if card not in hand or card in used or cat[card] != WEAPON:
            return f"{card!r} is not a weapon in hand (or is played twice)"
        if not (type(colour) is int and 0 <= colour < 8):
            return f"colour {colour!r} is not an alien colour"
        if rc[card] != BLACK and rc[card] != colour:
            return f"{comp.res_name[card]} cannot be played as {comp.colours[colour]}"
        used.add(card)
    if len(morphs) > morph_uses:
        return f"{len(morphs)} Morph-box uses, {morph_uses} working Morph-box(es)"
    for m in morphs:
        if not (
            isinstance(m, tuple | list) and len(m) == 2 and isinstance(m[0], tuple | list) and len(m[0]) == 2
        ):
            return f"Morph-box use {m!r} is not ((card, card), colour)"
        (a, b), colour = m
        if a not in hand or b not in hand or a in used or b in used or not morph_pair_ok(comp, a, b):
            return f"Morph-box cards {a!r}, {b!r} are not two unused hand cards of one colour or type"
        if not (type(colour) is int and 0 <= colour < 8):
            return f"colour {colour!r} is not an alien colour"
        used.add(a)
        used.add(b)
    return None


def attack_discards(comp: Components, plays) -> list[int]:
    """One played card per weapon type used (the first listed of each type); the rest are kept."""
    seen: set[int] = set()
    out = []
    rt = comp.res_type
    for card, _ in plays:
        if rt[card] not in seen:
            seen.add(rt[card])
            out.append(card)
    return out


def next_alive(state: State, seat: int) -> int:
    """The next living seat clockwise after `seat` (seat itself if it is the only one)."""
    n = state.n
    for k in range(1, n + 1):
        s = (seat + k) % n
        if state.alive[s]:
            return s
    return seat


# --- attack orders and elimination ------------------------------------------------------------


def seats_from_active(state: State) -> list[int]:
    """Every seat, from the active player clockwise (the order in which attack orders strike)."""
    return [(state.active + k) % state.n for k in range(state.n)]


def setback_only(state: State, cause: str) -> bool:
    """Level 0, eliminated by Invaliens: the player loses all but the Hub and stays in the game."""
    return state.level == 0 and cause == "invaliens"


def invalien_victims(comp: Components, state: State, card: int) -> list[int]:
    """[Attack orders] Invaliens: the living players, from the active one clockwise, with at
    least the placed card's threshold of figures of the ordered colour (each is eliminated; one
    elimination changes no other station, so the list holds until the last)."""
    order, threshold = comp.spawn_orders[card], comp.spawn_threshold[card]
    return [p for p in seats_from_active(state) if state.alive[p] and state.figs[p][order] >= threshold]


def evaporations(comp: Components, state: State, card: int) -> list[tuple[int, int]]:
    """[Attack orders] Evaporaliens: (seat, figures of the ordered colour) for each living player,
    from the active one clockwise, with such figures and a hand: each discards one hand card per
    figure, the whole hand when it holds no more (one player's discard changes no other's)."""
    order = comp.spawn_orders[card]
    figs, hands = state.figs, state.hands
    return [
        (p, figs[p][order])
        for p in seats_from_active(state)
        if state.alive[p] and figs[p][order] and hands[p]
    ]


def sabotalien_hits(comp: Components, state: State, seat: int, colour: int) -> list[int]:
    """[Attack orders] Sabotaliens: the modules of `seat` with a Sabotalien of the ordered
    `colour`, last first (a module destroyed leaves the indexes of the ones before it valid)."""
    colours = comp.spawn_colour
    hits = [i for i, a in enumerate(state.sabo[seat]) if a >= 0 and colours[a] == colour]
    return hits[::-1]


# --- transitions: each changes the state and returns what happened ----------------------------


@dataclass(slots=True)
class Drawn:
    """What a draw took from a deck: the cards, and the size of each new deck remade on the way
    from the shuffled discards (a game logs one reshuffle per size)."""

    cards: list[int]
    reshuffled: list[int]


# (deck, discard) attributes of the state per pile
_PILES = {"resistance": ("deck", "discard"), "spawn": ("spawn_deck", "spawn_discard")}


def _remake(state: State, pile: str, rng: random.Random, drawn: Drawn) -> None:
    """A new deck from the shuffled discards of `pile`, noted in `drawn` (none: nothing to remake)."""
    deck, discard = _PILES[pile]
    cards = getattr(state, discard)
    if cards:
        setattr(state, deck, cards)
        setattr(state, discard, [])
        shuffle(rng, cards)
        drawn.reshuffled.append(len(cards))


def draw_resistance(state: State, seat: int, count: int, rng: random.Random) -> Drawn:
    """[Action phase] draw `count` cards into the hand of `seat`; the deck is remade from the
    shuffled discards the moment it runs out (or, if there were none then, at the next draw)."""
    drawn = Drawn([], [])
    for _ in range(count):
        if not state.deck:  # it ran out with no discards to remake it from: try again now
            _remake(state, "resistance", rng, drawn)
            if not state.deck:
                break
        card = state.deck.pop()
        state.hands[seat].append(card)
        drawn.cards.append(card)
        if not state.deck:  # remade the moment it runs out, not at the next draw (RULINGS §2)
            _remake(state, "resistance", rng, drawn)
    return drawn


def draw_spawn(state: State, rng: random.Random) -> Drawn:
    """[Action: The Invasion] the top Spawn card, the deck remade first when it is empty (no card
    when the discards are empty too). Before the last Shield alien ends the invasion the deck
    runs out only with odd data files; in the Final Conflict it does."""
    drawn = Drawn([], [])
    if not state.spawn_deck:
        _remake(state, "spawn", rng, drawn)
        if not state.spawn_deck:
            return drawn
    drawn.cards.append(state.spawn_deck.pop())
    return drawn


def draw_kamikaze(state: State, rng: random.Random) -> Drawn:
    """[The Final Conflict] 1. the top Spawn card comes at the active player as a kamikaze (it is
    flying until countered or not)."""
    drawn = draw_spawn(state, rng)
    if drawn.cards:
        state.flying = drawn.cards[0]
        if not state.spawn_deck:  # remade at once, before this kamikaze is discarded (RULINGS §2)
            _remake(state, "spawn", rng, drawn)
    return drawn


def discard_from_hand(state: State, seat: int, cards) -> None:
    """`seat` discards `cards` from its hand to the Resistance discard."""
    hand = state.hands[seat]
    for c in cards:
        hand.remove(c)
        state.discard.append(c)


def discard_flying(state: State) -> int:
    """The flying alien or kamikaze goes to the Spawn discard; returns it."""
    card = state.flying
    state.flying = -1
    state.spawn_discard.append(card)
    return card


def eliminate(comp: Components, state: State, seat: int, cause: str) -> None:
    """Players that are eliminated discard everything; the Hub goes to the box. Level 0,
    eliminated by Invaliens: discard hand, extra modules and aliens, but stay in the game
    (`setback_only`). With every player eliminated the game ends."""
    stays = setback_only(state, cause)
    state.discard.extend(state.hands[seat])
    state.hands[seat] = []
    state.spawn_discard.extend(state.aliens[seat])
    state.aliens[seat] = []
    state.figs[seat] = [0] * 8
    state.spawn_discard.extend(a for a in state.sabo[seat] if a >= 0)
    keep = []
    for m in state.mods[seat]:
        if stays and comp.res_category[m] == HUB:
            keep.append(m)
        elif comp.res_category[m] == HUB:
            state.box.append(m)
        else:
            state.discard.append(m)
    state.mods[seat] = keep
    state.sabo[seat] = [-1] * len(keep)
    state.flipped[seat] = [False] * len(keep)
    state.recount(seat)
    if stays:
        return
    state.alive[seat] = False
    if not any(state.alive):
        state.end_reason = "crew_eliminated"


# --- the invasion ---


def place_shield(comp: Components, state: State, card: int) -> None:
    """[Action: The Invasion] a Shield alien goes next to the Spawnmonster; the last of them (all
    of the file's shields) ends the game."""
    state.shields.append(card)
    if len(state.shields) >= comp.shields_total:
        state.end_reason = "shields_complete"


def take_off(comp: Components, state: State, seat: int, card: int) -> tuple[list[int], int]:
    """[Flying] a drawn invader flies from the station of `seat`: it is flying until it lands, is
    zapped or flies off (`discard_flying`). Returns its `flight`: (stations visited, target)."""
    state.flying = card
    return flight(comp, state, seat, card)


def zap(state: State, seat: int, weapon: int) -> int:
    """[ZAPPING] `seat` discards `weapon` (checked: `zap_cards`) and the flying alien with it;
    returns the alien."""
    discard_from_hand(state, seat, (weapon,))
    return discard_flying(state)


def invade(comp: Components, state: State, target: int, slot: int = -1) -> int:
    """[Flying] the flying alien joins the station of `target`: an Invalien or Evaporalien with its
    figures, a Sabotalien next to module `slot` (one of `free_slots`). Returns the alien."""
    card = state.flying
    state.flying = -1
    kind = comp.spawn_kind[card]
    if kind == INVALIEN or kind == EVAPORALIEN:
        state.aliens[target].append(card)
        state.figs[target][comp.spawn_colour[card]] += comp.spawn_aliens[card]
    else:
        state.sabo[target][slot] = card
    return card


SABOTAGED, DESTROYED = "sabotaged", "destroyed"  # what a Sabotalien's attack did to its module


def sabotalien_attack(comp: Components, state: State, seat: int, slot: int) -> str | None:
    """[Attack orders] the Sabotalien next to module `slot` of `seat` attacks: an unsabotaged
    module is sabotaged (turned); one already sabotaged is, at level 2+, discarded with its
    Sabotalien (a Hub goes to the box), at levels 0-1 untouched. Returns SABOTAGED, DESTROYED
    or None."""
    if not state.flipped[seat][slot]:
        state.flipped[seat][slot] = True
        state.recount(seat)
        return SABOTAGED
    if state.level < 2:
        return None
    module = state.mods[seat][slot]
    state.spawn_discard.append(state.sabo[seat][slot])
    (state.box if comp.res_category[module] == HUB else state.discard).append(module)
    del state.mods[seat][slot], state.sabo[seat][slot], state.flipped[seat][slot]
    state.recount(seat)
    return DESTROYED


# --- the turn ---


def start_turn(state: State) -> int:
    """The next turn begins for the active player (returned); a Catalyst's extra card (once a turn
    at level 2+) is available again."""
    state.turn += 1
    state.catalyst_used = False
    return state.active


def pass_turn(state: State, seat: int) -> None:
    """Turns pass clockwise from `seat` to the next living player."""
    state.active = next_alive(state, seat)


def use_catalyst(comp: Components, state: State, seat: int) -> int:
    """[Catalyst] How many cards a Draw by `seat` takes: two with a working Catalyst (several:
    still two), else one. Level 2+: only the first Draw of the turn gets the extra card (this
    marks it used)."""
    if not working(comp, state, seat, CATALYST) or (state.level >= 2 and state.catalyst_used):
        return 1
    if state.level >= 2:
        state.catalyst_used = True
    return 2


def transport(state: State, seat: int, to: int, cards: list[int]) -> None:
    """[Action] Transport: `seat` gives `cards` from its hand to player `to`."""
    hand = state.hands[seat]
    for c in cards:
        hand.remove(c)
        state.hands[to].append(c)


def build(state: State, seat: int, cards: list[int]) -> None:
    """[Build phase] module cards from the hand of `seat` join its station; they work at once."""
    hand = state.hands[seat]
    for c in cards:
        hand.remove(c)
        state.add_module(seat, c)


# --- combat ---


@dataclass(slots=True)
class AttackOutcome:
    """What one attack did: the colours it cleared, the Spawn cards removed (Invaliens and
    Evaporaliens, then Sabotaliens) and the attacker's cards discarded."""

    cleared: set[int]
    removed: list[int]
    discarded: list[int]


def attack(comp: Components, state: State, attacker: int, target: int, plays, morphs) -> AttackOutcome:
    """[Combat phase] `attacker` carries out a plan (checked: `attack_error`) on the station of
    `target`: every alien of each colour played is removed, Sabotaliens too (turning their
    modules back). One card per weapon type used is discarded (`attack_discards`), and both
    cards of each Morph-box use."""
    cleared = {c for _, c in plays} | {c for _, c in morphs}
    lost = attack_discards(comp, plays)
    for (a, b), _ in morphs:
        lost += [a, b]
    discard_from_hand(state, attacker, lost)
    colour = comp.spawn_colour
    removed = [a for a in state.aliens[target] if colour[a] in cleared]
    if removed:
        state.aliens[target] = [a for a in state.aliens[target] if colour[a] not in cleared]
        state.spawn_discard.extend(removed)
        for c in cleared:
            state.figs[target][c] = 0
    sabo, flipped = state.sabo[target], state.flipped[target]
    for i, a in enumerate(sabo):
        if a >= 0 and colour[a] in cleared:
            state.spawn_discard.append(a)
            removed.append(a)
            sabo[i] = -1
            if flipped[i]:
                flipped[i] = False
                state.recount(target)
    return AttackOutcome(cleared, removed, lost)


# --- the Final Conflict ---


def call_final_conflict(state: State) -> None:
    """[The Final Conflict] called: every turn from now on is a Final Conflict turn."""
    state.final_conflict = True


def strike_shield(comp: Components, state: State, seat: int, cards: list[int], colour: int) -> int:
    """[2. Strike!!!] `seat` discards `cards` (checked by the game) and destroys the Shield alien of
    `colour`; returns it."""
    discard_from_hand(state, seat, cards)
    shield = next(c for c in state.shields if comp.spawn_colour[c] == colour)
    state.shields.remove(shield)
    state.spawn_discard.append(shield)
    return shield


def strike_spawnmonster(state: State, seat: int, cards: list[int]) -> None:
    """[2. Strike!!!] with no Shield alien left, `seat` discards `cards` and destroys the
    Spawnmonster: the crew wins."""
    discard_from_hand(state, seat, cards)
    state.end_reason = "spawnmonster_destroyed"
