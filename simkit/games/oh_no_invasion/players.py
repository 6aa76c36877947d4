"""Scripted players for Oh no... INVASION!!! Every player sees only a `View` (game.py).

A crew is one strategy; each seat is its own object with its own random stream. Decisions (see
RULES.md, "Player interface"):
  final_conflict(view, moment) -> bool                call the Final Conflict now
  action(view, number) -> ("draw",) | ("transport", seat, cards) | ("end",)
  zap(view, alien, target) -> weapon card | None
  sabotalien_module(view, alien, options) -> module index
  discard(view, count) -> cards                       Evaporalien attack
  build(view) -> module cards
  combat(view) -> None | (attacker, target)
  attack(view, target) -> (plays, morphs)
  counter(view, alien) -> None | ("weapon", card) | ("morph", (a, b)) | ("help", seat)
  help_counter(view, alien, seat) -> None | ("weapon", card) | ("morph", (a, b))
  strike(view) -> None | ("weapon", card, colour) | ("morph", (a, b), colour) | ("help", seat)
  help_strike(view, seat) -> None | ("weapon", card, colour) | ("morph", (a, b), colour)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from simkit.core.strategies import number
from simkit.games.oh_no_invasion import rules
from simkit.games.oh_no_invasion.components import (
    BLACK,
    CATALYST,
    EVAPORALIEN,
    HUB,
    INVALIEN,
    MORPH_BOX,
    TELEPORTER,
    WEAPON,
)
from simkit.games.oh_no_invasion.game import MONSTER, View

MODULE_CATEGORIES = (CATALYST, MORPH_BOX, TELEPORTER)
# How much a working module is worth to a crew (which one a Sabotalien should take, what to clear)
MODULE_VALUE = {TELEPORTER: 1, HUB: 2, MORPH_BOX: 3, CATALYST: 4}


@dataclass(frozen=True)
class CrewNumbers:
    """The numbers a scripted crew plays by: its strategy's parameters (`bold:final_conflict=8`).
    The defaults are the cautious crew's; `BoldCrew.NUMBERS` changes ten of them."""

    final_conflict: float = number(
        6.0,
        "call the Final Conflict when the crew's weapons reach this many per strike still needed "
        "(Shield aliens in play + 1)",
        minimum=0.0,
        maximum=20.0,
    )
    panic: int = number(
        2, "call it anyway when this many Shield aliens are missing from the full set", minimum=0, maximum=8
    )
    invalien_clear: int = number(
        3, "clear an Invalien colour with at least this many figures on the station", minimum=1, maximum=12
    )
    evaporalien_clear: int = number(
        1, "clear Evaporaliens with at least this many figures on the station", minimum=1, maximum=12
    )
    clear_sabotaliens: bool = number(True, "also clear Sabotaliens that have not yet sabotaged")
    attack_min: int = number(
        3, "least total value a weapon type must clear to be spent", minimum=0, maximum=20
    )
    zap_landing: int = number(
        6,
        "zap an Invalien landing that brings its colour to this many figures (0: never)",
        minimum=0,
        maximum=12,
    )
    zap_evaporate: int = number(
        2, "zap an Evaporalien whose order would discard this many cards", minimum=1, maximum=12
    )
    zap_sabotage: bool = number(True, "zap a Sabotalien whose order would sabotage a working module")
    transport: bool = number(True, "pass weapons to a player in danger (levels 0-2)")
    morph_in_combat: bool = number(True, "use a working Morph Box in combat")
    weapon_share: float = number(
        0.7, "level 3: the share of another player's hand taken to be weapons", minimum=0.0, maximum=1.0
    )


class Player:
    """Defaults: the quietest legal answer to every decision."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def final_conflict(self, view: View, moment: str) -> bool:
        return False

    def action(self, view: View, number: int):
        return ("draw",)

    def zap(self, view: View, alien: int, target: int):
        return None

    def sabotalien_module(self, view: View, alien: int, options: tuple[int, ...]) -> int:
        return options[0]

    def discard(self, view: View, count: int):
        return view.hand[:count]

    def build(self, view: View):
        return ()

    def combat(self, view: View):
        return None

    def attack(self, view: View, target: int):
        return ((), ())

    # No declining (RULINGS §2): the quietest legal counter or strike is the first one there is.
    def counter(self, view: View, alien: int):
        own = first_counter(view, alien)
        if own is not None:
            return own
        helpers = view.counter_helpers(alien)
        return ("help", helpers[0]) if helpers else None

    def help_counter(self, view: View, alien: int, seat: int):
        return first_counter(view, alien)

    def strike(self, view: View):
        return first_strike(view)

    def help_strike(self, view: View, seat: int):
        return first_strike(view)


def first_counter(view: View, alien: int):
    """The first of the player's own counters to a kamikaze: a weapon of its colour, else a
    Morph-box pair; None when it has neither."""
    comp, colour = view.comp, view.comp.spawn_colour[alien]
    cards = rules.counter_cards(comp, view.hand, colour)
    if cards:
        return ("weapon", cards[0])
    pairs = rules.morph_pairs(comp, view.hand) if view.working(view.seat, MORPH_BOX) else []
    return ("morph", pairs[0]) if pairs else None


def first_strike(view: View):
    """The first weapon strike the player can make (a Shield alien of its colour, or black on the
    first Shield alien, or the Spawnmonster when none is left); None when it holds none."""
    comp, shields = view.comp, view.shields
    cards = rules.strike_weapons(comp, view.hand, set(shields))
    if not cards:
        return None
    if not shields:
        return ("weapon", cards[0], MONSTER)
    colour = comp.res_colour[cards[0]]
    return ("weapon", cards[0], colour if colour in shields else shields[0])


class RandomPlayer(Player):
    """Legal choices at random: a fair coin for every yes/no (the Final Conflict: 1 in 10 at each
    of the two moments, or the crew would call it on the first turn), uniform over the options."""

    FINAL_CONFLICT = 0.1

    def final_conflict(self, view: View, moment: str) -> bool:
        return self.rng.random() < self.FINAL_CONFLICT

    def action(self, view: View, number: int):
        choices = ["draw"]
        if number == 1:
            choices.append("end")
        others = [p for p in range(view.players) if p != view.seat and view.is_alive(p)]
        if view.hand and others and view.hub_works(view.seat):
            choices.append("transport")
        kind = self.rng.choice(choices)
        if kind != "transport":
            return (kind,)
        hand = list(view.hand)
        cards = [c for c in hand if self.rng.random() < 0.5] or [self.rng.choice(hand)]
        return ("transport", self.rng.choice(others), tuple(cards))

    def zap(self, view: View, alien: int, target: int):
        if self.rng.random() < 0.5:
            return None
        return self.rng.choice(rules.zap_cards(view.comp, view.hand, view.comp.spawn_colour[alien]))

    def sabotalien_module(self, view: View, alien: int, options: tuple[int, ...]) -> int:
        return self.rng.choice(options)

    def discard(self, view: View, count: int):
        return tuple(self.rng.sample(view.hand, count))

    def build(self, view: View):
        cat = view.comp.res_category
        return tuple(c for c in view.hand if cat[c] in MODULE_CATEGORIES and self.rng.random() < 0.5)

    def combat(self, view: View):
        options = [None, (view.seat, view.seat)]
        for p in view.teleport_partners():
            options += [(view.seat, p), (p, view.seat)]
        return self.rng.choice(options)

    def attack(self, view: View, target: int):
        comp = view.comp
        hand = list(view.hand)
        plays = []
        for c in rules.weapons(comp, hand):
            if self.rng.random() < 0.5:
                colour = self.rng.randrange(8) if comp.res_colour[c] == BLACK else comp.res_colour[c]
                plays.append((c, colour))
        morphs = []
        if view.working(view.seat, MORPH_BOX) and self.rng.random() < 0.5:
            used = {c for c, _ in plays}
            pairs = rules.morph_pairs(comp, [c for c in hand if c not in used])
            if pairs:
                morphs.append((self.rng.choice(pairs), self.rng.randrange(8)))
        return (tuple(plays), tuple(morphs))

    def _means(self, view: View, colour: int) -> list:
        """Own counters: the weapons of the colour, else (Morph-box) the pairs."""
        comp = view.comp
        out: list = [("weapon", c) for c in rules.counter_cards(comp, view.hand, colour)]
        if not out and view.working(view.seat, MORPH_BOX):
            out += [("morph", p) for p in rules.morph_pairs(comp, view.hand)]
        return out

    # No declining (RULINGS §2): uniform over the ways to counter or strike when there is one.
    def counter(self, view: View, alien: int):
        options = self._means(view, view.comp.spawn_colour[alien])
        options += [("help", p) for p in view.counter_helpers(alien)]
        if not options:  # only a partner's Morph-box could help: asking is a free choice
            options = [None, *(("help", p) for p in view.teleport_partners())]
        return self.rng.choice(options)

    def help_counter(self, view: View, alien: int, seat: int):
        colour = view.comp.spawn_colour[alien]
        if rules.counter_cards(view.comp, view.hand, colour):
            return self.rng.choice(self._means(view, colour))
        return self.rng.choice([None, *self._means(view, colour)])

    def _strikes(self, view: View) -> list:
        comp = view.comp
        hand = view.hand
        shields = sorted(set(view.shields))
        if not shields:
            return [("weapon", c, MONSTER) for c in rules.weapons(comp, hand)]
        out: list = []
        for c in rules.weapons(comp, hand):
            wc = comp.res_colour[c]
            out += [("weapon", c, s) for s in shields if wc == s or wc == BLACK]
        if view.working(view.seat, MORPH_BOX):
            out += [("morph", p, s) for p in rules.morph_pairs(comp, hand) for s in shields]
        return out

    def _strike_helpers(self, view: View) -> list:
        """Level 0 only: partners who hold a weapon that can hit a Shield alien (open hands)."""
        if view.level != 0 or not view.shields:
            return []
        shields = set(view.shields)
        return [
            ("help", p)
            for p in view.teleport_partners()
            if rules.strike_weapons(view.comp, view.hand_of(p), shields)
        ]

    def strike(self, view: View):
        options = [*self._strikes(view), *self._strike_helpers(view)]
        if not rules.strike_weapons(view.comp, view.hand, set(view.shields)):
            options.insert(0, None)  # only a Morph-box strike or a partner's: a free choice
        return self.rng.choice(options)

    def help_strike(self, view: View, seat: int):
        options = self._strikes(view)
        if not rules.strike_weapons(view.comp, view.hand, set(view.shields)):
            options.insert(0, None)
        return self.rng.choice(options)


class Crew(Player):
    """A scripted crew member. The two crews differ only in their numbers (`CrewNumbers`, the
    strategies' parameters; see RULES.md): the crew calls the Final Conflict when the weapons its
    living players hold reach `final_conflict` x (Shield aliens in play + 1), the strikes still
    needed; or, whatever it holds, when only `panic` more Shield aliens would complete the
    Spawnmonster's protection. At levels 0-2 a member counts every hand (shared knowledge); at
    level 3 it knows only its own hand and estimates the others' from their sizes.
    """

    NUMBERS = CrewNumbers()  # a subclass states its own defaults

    def __init__(self, rng: random.Random, **numbers: Any) -> None:
        super().__init__(rng)
        self.numbers = replace(self.NUMBERS, **numbers)
        self._readiness: tuple[int, bool] = (-1, False)  # (turn, ready) as judged at combat
        self._planned: tuple = (-1, -1, None)  # (turn, station, plan) found by `combat`

    def crew_weapons(self, view: View) -> float:
        isw = view.comp.res_is_weapon
        total: float = sum(isw[c] for c in view.hand)
        for p in range(view.players):
            if p == view.seat or not view.is_alive(p):
                continue
            if view.open_hands:
                total += sum(isw[c] for c in view.hand_of(p))
            else:
                total += self.numbers.weapon_share * view.hand_size(p)
        return total

    def ready(self, view: View) -> bool:
        shields = view.shield_count
        if shields >= view.comp.shields_total - self.numbers.panic:
            return True
        need = self.numbers.final_conflict * (shields + 1)
        if view.cards_in_hands < need:  # fewer cards than weapons needed: cannot be ready
            return False
        return self.crew_weapons(view) >= need

    def final_conflict(self, view: View, moment: str) -> bool:
        if moment == "after_combat" and self._readiness[0] == view.turn:
            return self._readiness[1]  # combat only spends weapons: no readier than at combat
        return self.ready(view)

    # --- actions ------------------------------------------------------------------------------

    def action(self, view: View, number: int):
        if self.numbers.transport and number == 0 and view.open_hands and view.hub_works(view.seat):
            gift = self._gift(view)
            if gift is not None:
                return gift
        return ("draw",)

    def _gift(self, view: View):
        """A weapon to a player whose Invalien colour is near a threshold and who cannot clear it."""
        comp = view.comp
        rc, isw, kinds = comp.res_colour, comp.res_is_weapon, comp.colour_kind
        for p in range(view.players):
            if p == view.seat or not view.is_alive(p):
                continue
            figs = view.figures_of(p)
            if max(figs) < 5:
                continue
            danger = [k for k in range(8) if figs[k] >= 5 and kinds[k] == INVALIEN]
            if not danger:
                continue
            theirs = {rc[c] for c in view.hand_of(p) if isw[c]}
            if BLACK in theirs:
                continue
            for colour in danger:
                if colour in theirs or view.figures(view.seat, colour):
                    continue
                for c in view.hand:
                    if isw[c] and rc[c] == colour:
                        return ("transport", p, (c,))
        return None

    # --- zapping ------------------------------------------------------------------------------

    def zap(self, view: View, alien: int, target: int):
        comp = view.comp
        options = rules.zap_cards(comp, view.hand, comp.spawn_colour[alien])
        plain = [c for c in options if comp.res_colour[c] != BLACK]
        harm = self._harm(view, alien, target)
        if harm >= 2:
            return (plain or options)[0]
        if harm == 1 and plain:
            return plain[0]
        return None

    def _harm(self, view: View, alien: int, target: int) -> int:
        """2: placing it eliminates someone or destroys a module; 1: a lesser harm worth a plain
        weapon; 0: let it land."""
        comp = view.comp
        kind = comp.spawn_kind[alien]
        order = comp.spawn_orders[alien]
        colour = comp.spawn_colour[alien]
        alive = [p for p in range(view.players) if view.is_alive(p)]
        if kind == INVALIEN:
            threshold = comp.spawn_threshold[alien]
            if any(view.figures(p, order) >= threshold for p in alive):
                return 2
            if (
                self.numbers.zap_landing
                and view.figures(target, colour) + comp.spawn_aliens[alien] >= self.numbers.zap_landing
            ):
                return 1
            return 0
        if kind == EVAPORALIEN:
            lost = sum(min(view.figures(p, order), view.hand_size(p)) for p in alive)
            if lost >= 2 * self.numbers.zap_evaporate:
                return 2
            return 1 if lost >= self.numbers.zap_evaporate else 0
        harm = 0
        for p in alive:
            for _, a, flipped in view.sabotaliens(p):
                if comp.spawn_colour[a] == order:
                    if flipped and view.level >= 2:
                        return 2
                    if not flipped and self.numbers.zap_sabotage:
                        harm = 1
        return harm

    def sabotalien_module(self, view: View, alien: int, options: tuple[int, ...]) -> int:
        cat = view.comp.res_category
        mods = view.modules(view.seat)
        return min(options, key=lambda i: MODULE_VALUE[cat[mods[i][0]]])

    # --- keeping and spending cards -----------------------------------------------------------

    def _keep_value(self, view: View, card: int, hand) -> float:
        comp = view.comp
        if comp.res_category[card] != WEAPON:
            return 1.0
        colour = comp.res_colour[card]
        if colour == BLACK:
            return 10.0
        same = sum(1 for c in hand if comp.res_colour[c] == colour and comp.res_category[c] == WEAPON)
        return 4.0 - same + (2.0 if view.figures(view.seat, colour) else 0.0)

    def discard(self, view: View, count: int):
        hand = view.hand
        ranked = sorted(hand, key=lambda c: (self._keep_value(view, c, hand), c))
        return tuple(ranked[:count])

    def build(self, view: View):
        cat = view.comp.res_category
        return tuple(c for c in view.hand if cat[c] in MODULE_CATEGORIES)

    # --- combat -------------------------------------------------------------------------------

    def combat(self, view: View):
        ready = self.ready(view)
        self._readiness = (view.turn, ready)
        if ready:
            return None  # the Final Conflict follows: station aliens no longer matter
        seat = view.seat
        plan = self._plan(view, view.hand, seat, seat)
        if plan is not None:
            self._planned = (view.turn, seat, plan)
            return (seat, seat)
        if view.open_hands:
            for p in view.teleport_partners():
                if self._plan(view, view.hand_of(p), seat, p) is not None:
                    return (p, seat)
        return None

    def attack(self, view: View, target: int):
        turn, station, plan = self._planned
        if turn == view.turn and station == target and plan is not None:
            return plan
        return self._plan(view, view.hand, target, view.seat) or ((), ())

    def _needs(self, view: View, station: int) -> dict[int, int]:
        """Value of clearing each colour from `station`."""
        comp = view.comp
        kinds = comp.colour_kind
        needs: dict[int, int] = {}
        for colour, f in enumerate(view.figures_of(station)):
            if f:
                kind = kinds[colour]
                if kind == INVALIEN:
                    if f >= self.numbers.invalien_clear:
                        needs[colour] = f
                elif f >= self.numbers.evaporalien_clear:
                    needs[colour] = 2 * f
        cat = comp.res_category
        for m, a, flipped in view.sabotaliens(station):
            c = comp.spawn_colour[a]
            if flipped:
                needs[c] = needs.get(c, 0) + 1 + MODULE_VALUE[cat[m]]
            elif self.numbers.clear_sabotaliens:
                needs[c] = needs.get(c, 0) + 1
        return needs

    def _plan(self, view: View, hand, station: int, attacker: int):
        """The weapons (and the attacker's Morph-box) to clear `station` with `hand`, or None if
        not worth it.

        Each weapon type costs one card however many of its colours are played, so types are
        taken greedily by the value they clear, while a type clears at least ATTACK_MIN."""
        needs = self._needs(view, station)
        if not needs:
            return None
        comp = view.comp
        rc, rt, isw = comp.res_colour, comp.res_type, comp.res_is_weapon
        by_type: list[list[int]] = [[], [], []]
        for c in hand:
            if isw[c]:
                by_type[rt[c]].append(c)
        plays: list[tuple[int, int]] = []
        while needs:
            best = None
            for t in range(3):
                cards = by_type[t]
                if not cards:
                    continue
                cover = []
                blacks = []
                for c in cards:
                    k = rc[c]
                    if k == BLACK:
                        blacks.append(c)
                    elif k in needs:
                        cover.append((c, k))
                if blacks:
                    covered = {k for _, k in cover}
                    rest = sorted((k for k in needs if k not in covered), key=lambda k: -needs[k])
                    cover += zip(blacks, rest, strict=False)
                if cover:
                    value = sum(needs[k] for _, k in cover)
                    if best is None or value > best[0]:
                        best = (value, t, cover)
            if best is None or best[0] < self.numbers.attack_min:
                break
            value, t, cover = best
            # the first card of a type is the one discarded: a plain weapon rather than black
            if rc[cover[0][0]] == BLACK:
                cover.sort(key=lambda p: rc[p[0]] == BLACK)
            plays += cover
            by_type[t] = []
            for _, k in cover:
                needs.pop(k, None)
        morphs = []
        if self.numbers.morph_in_combat and needs and view.working(attacker, MORPH_BOX):
            danger = max(needs, key=lambda k: needs[k])
            if needs[danger] >= 5:
                used = {c for c, _ in plays}
                pair = self._cheapest_pair(view, [c for c in hand if c not in used])
                if pair is not None:
                    morphs.append((pair, danger))
        if not plays and not morphs:
            return None
        return (tuple(plays), tuple(morphs))

    def _cheapest_pair(self, view: View, hand):
        pairs = rules.morph_pairs(view.comp, hand)
        if not pairs:
            return None
        return min(
            pairs, key=lambda p: self._keep_value(view, p[0], hand) + self._keep_value(view, p[1], hand)
        )

    # --- the Final Conflict: counter and strike -----------------------------------------------

    def _own_counter(self, view: View, colour: int, morph: bool = True):
        cards = rules.counter_cards(view.comp, view.hand, colour)
        if cards:
            return ("weapon", cards[0])
        if morph and view.working(view.seat, MORPH_BOX):
            pair = self._cheapest_pair(view, list(view.hand))
            if pair is not None:
                return ("morph", pair)
        return None

    def counter(self, view: View, alien: int):
        """Own weapon of the colour; else a Teleporter partner's weapon; else own Morph-box (two
        cards); else a partner's Morph-box. At level 3 a partner that says it holds such a weapon,
        else one is asked blindly (for its Morph-box)."""
        colour = view.comp.spawn_colour[alien]
        own = self._own_counter(view, colour, morph=False)
        if own is not None:
            return own
        helpers = view.counter_helpers(alien)  # at level 3 too: a partner holding one says so
        if helpers:
            return ("help", helpers[0])
        partners = view.teleport_partners()
        comp = view.comp
        own = self._own_counter(view, colour)
        if own is not None:
            return own
        if not view.open_hands:
            return ("help", partners[0]) if partners else None
        for p in partners:
            if view.working(p, MORPH_BOX) and rules.morph_pairs(comp, view.hand_of(p)):
                return ("help", p)
        return None

    def help_counter(self, view: View, alien: int, seat: int):
        return self._own_counter(view, view.comp.spawn_colour[alien])

    def _own_strike(self, view: View):
        comp = view.comp
        rc = comp.res_colour
        held = rules.weapons(comp, view.hand)
        shields = view.shields
        if not shields:
            if not held:
                return None
            black = [c for c in held if rc[c] == BLACK]
            return ("weapon", (black or held)[0], MONSTER)
        for c in held:
            if rc[c] in shields:
                return ("weapon", c, rc[c])
        for c in held:
            if rc[c] == BLACK:
                return ("weapon", c, shields[0])
        if view.working(view.seat, MORPH_BOX):
            pair = self._cheapest_pair(view, list(view.hand))
            if pair is not None:
                return ("morph", pair, shields[0])
        return None

    def strike(self, view: View):
        own = self._own_strike(view)
        if own is not None or view.level != 0 or not view.shields:
            return own
        comp = view.comp
        rc = comp.res_colour
        for p in view.teleport_partners():
            if any(
                comp.res_category[c] == WEAPON and (rc[c] in view.shields or rc[c] == BLACK)
                for c in view.hand_of(p)
            ):
                return ("help", p)
        return None

    def help_strike(self, view: View, seat: int):
        return self._own_strike(view)


class CautiousCrew(Crew):
    """Clears its stations early, zaps freely, passes weapons, panics at 6 Shield aliens."""


class BoldCrew(Crew):
    """Hoards weapons for the Final Conflict: clears only large threats, zaps only to prevent an
    elimination or a heavy loss, never passes cards, waits until the 7th Shield alien to panic."""

    NUMBERS = CrewNumbers(
        panic=1,
        invalien_clear=5,
        evaporalien_clear=2,
        clear_sabotaliens=False,
        attack_min=5,
        zap_landing=0,
        zap_evaporate=3,
        zap_sabotage=False,
        transport=False,
        morph_in_combat=False,
    )
