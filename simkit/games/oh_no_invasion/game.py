"""One game of Oh no... INVASION!!!: the turn sequence, the players' decisions and the event log.
Every change to the state is a function of rules.py, called between the decisions.

A game is a pure function of (components, settings, players, seed): all chance comes from the
streams handed in, never from global random state. Rule references in brackets name rulebook
sections; RULES.md lists every decision taken where the rulebook is open.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from simkit.core.errors import RuleViolation
from simkit.games.oh_no_invasion import rules
from simkit.games.oh_no_invasion.components import (
    BLACK,
    EVAPORALIEN,
    INVALIEN,
    MORPH_BOX,
    WEAPON,
    Components,
)
from simkit.games.oh_no_invasion.state import State, new_game

MAX_TURNS = 2_000  # a safety net far above any real game (the Spawn deck forces the end)
MONSTER = -1  # the strike target "Spawnmonster" in a strike answer


class HiddenInformation(Exception):
    """A player asked for something it cannot see at the table (another hand at level 3)."""


class View:
    """What one seat sees at a decision: the public table and its own hand; at levels 0-2 also
    the others' hands (open cards at level 0, table talk at 1-2: RULINGS §2). Never the order of
    either deck. Every accessor returns tuples or numbers: the view cannot change the game.

    Its attributes are `seat` and `comp` (the printed components, immutable); the accessors read
    the live table from a slot no attribute name reaches (see `_state` below), so nothing on a
    view leads by accident to the decks, another hand at level 3 or the state itself.
    """

    __slots__ = ("comp", "seat", "_table")

    def __init__(self, state: State, comp: Components, seat: int) -> None:
        _set_state(self, state)
        self.comp = comp
        self.seat = seat

    # --- the game ---
    @property
    def level(self) -> int:
        return _state(self).level

    @property
    def players(self) -> int:
        return _state(self).n

    @property
    def turn(self) -> int:
        return _state(self).turn

    @property
    def active(self) -> int:
        return _state(self).active

    @property
    def in_final_conflict(self) -> bool:
        return _state(self).final_conflict

    @property
    def open_hands(self) -> bool:
        return _state(self).level < 3

    # --- hands ---
    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(_state(self).hands[self.seat])

    def hand_of(self, seat: int) -> tuple[int, ...]:
        if seat != self.seat and _state(self).level >= 3:
            raise HiddenInformation("level 3: no discussion, other hands are hidden")
        return tuple(_state(self).hands[seat])

    def hand_size(self, seat: int) -> int:
        return len(_state(self).hands[seat])

    # --- stations (public) ---
    @property
    def alive(self) -> tuple[bool, ...]:
        return tuple(_state(self).alive)

    def is_alive(self, seat: int) -> bool:
        return _state(self).alive[seat]

    def modules(self, seat: int) -> tuple[tuple[int, int, bool], ...]:
        """(Resistance card, Sabotalien card or -1, sabotaged) per module, the Hub first."""
        s = _state(self)
        return tuple(zip(s.mods[seat], s.sabo[seat], s.flipped[seat], strict=True))

    def sabotaliens(self, seat: int) -> list[tuple[int, int, bool]]:
        """(module card, Sabotalien card, sabotaged) for each module with a Sabotalien."""
        s = _state(self)
        sabo = s.sabo[seat]
        return [(s.mods[seat][i], a, s.flipped[seat][i]) for i, a in enumerate(sabo) if a >= 0]

    def aliens(self, seat: int) -> tuple[int, ...]:
        """The Invalien and Evaporalien cards at the station (Sabotaliens: see `modules`)."""
        return tuple(_state(self).aliens[seat])

    def figures(self, seat: int, colour: int) -> int:
        """Alien figures of an Invalien/Evaporalien colour at the station."""
        return _state(self).figs[seat][colour]

    def figures_of(self, seat: int) -> tuple[int, ...]:
        """Alien figures of each of the 8 colours at the station (0 for Sabotalien colours)."""
        return tuple(_state(self).figs[seat])

    def working(self, seat: int, category: int) -> int:
        return rules.working(self.comp, _state(self), seat, category)

    def hub_works(self, seat: int) -> bool:
        return rules.hub_works(self.comp, _state(self), seat)

    def teleport_partners(self, seat: int | None = None) -> list[int]:
        return rules.teleport_partners(self.comp, _state(self), self.seat if seat is None else seat)

    def counter_helpers(self, alien: int) -> list[int]:
        """Teleporter partners who hold a weapon countering this kamikaze: with no declining
        (RULINGS §2) they say so at every level, the cards stay hidden at level 3."""
        return rules.counter_helpers(self.comp, _state(self), self.seat, self.comp.spawn_colour[alien])

    # --- the Spawnmonster and the piles (public) ---
    @property
    def shield_count(self) -> int:
        return len(_state(self).shields)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards in each hand (0 for eliminated players)."""
        return tuple(map(len, _state(self).hands))

    @property
    def cards_in_hands(self) -> int:
        """All hand cards at the table (0 for eliminated players)."""
        return sum(map(len, _state(self).hands))

    @property
    def shields(self) -> tuple[int, ...]:
        """Colours of the Shield aliens next to the Spawnmonster."""
        col = self.comp.spawn_colour
        return tuple(col[c] for c in _state(self).shields)

    @property
    def deck_size(self) -> int:
        return len(_state(self).deck)

    @property
    def discard(self) -> tuple[int, ...]:
        return tuple(_state(self).discard)

    @property
    def spawn_deck_size(self) -> int:
        return len(_state(self).spawn_deck)

    @property
    def spawn_discard(self) -> tuple[int, ...]:
        return tuple(_state(self).spawn_discard)


# The live state sits in the slot `_table`, whose name the class then forgets: only these two
# functions reach it (reading the slot costs one call; a class per game would cost more, since
# every new class resets the interpreter's attribute caches at the players' call sites).
_set_state = View._table.__set__
_state = View._table.__get__
del View._table


@dataclass
class Streams:
    """The chance streams of one game (core/seeds.py): the setup shuffles, the Resistance
    reshuffles and the Spawn reshuffles (Final Conflict), kept apart."""

    setup: random.Random
    resistance: random.Random
    spawn: random.Random


STAT_KEYS = (
    "actions",
    "draws",
    "transports",
    "cards_drawn",
    "resistance_reshuffles",
    "spawn_drawn",
    "shields_placed",
    "aliens_zapped",
    "aliens_flown_off",
    "invasions",
    "cards_evaporated",
    "sabotages",
    "modules_destroyed",
    "modules_built",
    "attacks",
    "teleport_attacks",
    "aliens_removed",
    "weapons_discarded",
    "morph_box_uses",
    "setbacks_level0",
    "players_eliminated",
    "eliminated_invaliens",
    "eliminated_sabotage",
    "eliminated_kamikaze",
    "kamikazes",
    "kamikazes_countered",
    "teleport_helps",
    "shields_destroyed",
    "spawn_reshuffles",
)


class Game:
    """Runs one game. `log`, when a list, receives the event log (schema in RULES.md)."""

    def __init__(
        self,
        comp: Components,
        n: int,
        level: int,
        players: list[Any],
        streams: Streams,
        log: list | None = None,
    ) -> None:
        self.comp = comp
        self.players = players
        self.streams = streams
        self.log = log
        self.state = new_game(comp, n, level, streams.setup)
        self._views = [View(self.state, comp, p) for p in range(n)]
        self._views_of = self.state  # the state the views read (a test may swap in its own)
        self.stats = dict.fromkeys(STAT_KEYS, 0)
        self.fc_turn = 0
        self.fc_shields = -1
        self.fc_weapons = -1
        self.fc_moment = ""

    # --- log helpers -------------------------------------------------------------------------

    def _emit(self, event: str, **data: Any) -> None:
        """Log an event; callers that build costly arguments check `self.log` first."""
        if self.log is not None:
            self.log.append({"event": event, "turn": self.state.turn, **data})

    def _names(self, cards) -> list[str]:
        return [self.comp.res_name[c] for c in cards]

    def _seat(self, seat: int) -> str:
        return f"P{seat + 1}"

    def station(self, seat: int) -> str:
        """One player's table as a line: hand | modules (Sabotaliens, sabotage) | alien figures."""
        s, comp = self.state, self.comp
        if not s.alive[seat]:
            return "eliminated"
        mods = []
        for m, a, f in zip(s.mods[seat], s.sabo[seat], s.flipped[seat], strict=True):
            text = comp.res_name[m]
            if m in comp.hubs:
                text += " [" + " ".join(comp.colours[c] for c in comp.res_symbols[m]) + "]"
            if a >= 0:
                text += f" + {comp.colours[comp.spawn_colour[a]]} Sabotalien"
            if f:
                text += " (sabotaged)"
            mods.append(text)
        figures = ", ".join(f"{comp.colours[c]} {k}" for c, k in enumerate(s.figs[seat]) if k)
        hand = ", ".join(self._names(s.hands[seat]))
        return f"hand: {hand or '-'} | modules: {', '.join(mods) or '-'} | aliens: {figures or '-'}"

    def snapshot(self) -> dict:
        s, comp = self.state, self.comp
        return {
            "player": self._seat(s.active),
            "final_conflict": s.final_conflict,
            "shields": [comp.colours[comp.spawn_colour[c]] for c in s.shields],
            "piles": {
                "deck": len(s.deck),
                "discard": len(s.discard),
                "spawn_deck": len(s.spawn_deck),
                "spawn_discard": len(s.spawn_discard),
            },
            "stations": {self._seat(p): self.station(p) for p in range(s.n)},
        }

    # --- helpers -----------------------------------------------------------------------------

    def _view(self, seat: int) -> View:
        if self._views_of is not self.state:  # a test swapped in its own state
            self._views = [View(self.state, self.comp, p) for p in range(self.state.n)]
            self._views_of = self.state
        return self._views[seat]

    def _violation(self, decision: str, seat: int, problem: str) -> RuleViolation:
        return RuleViolation(f"{decision} ({self._seat(seat)}): {problem}")

    def crew_weapons(self) -> int:
        s, cat = self.state, self.comp.res_category
        return sum(1 for p in range(s.n) if s.alive[p] for c in s.hands[p] if cat[c] == WEAPON)

    # --- the decks ---------------------------------------------------------------------------

    def _reshuffled(self, pile: str, drawn: rules.Drawn) -> None:
        """Count and log each deck of `pile` ("resistance" or "spawn") remade during a draw."""
        for cards in drawn.reshuffled:
            self.stats[f"{pile}_reshuffles"] += 1
            self._emit(f"reshuffle_{pile}", cards=cards)

    def _draw_resistance(self, seat: int, count: int) -> list[int]:
        """`rules.draw_resistance` with its reshuffles logged; returns the cards drawn."""
        drawn = rules.draw_resistance(self.state, seat, count, self.streams.resistance)
        self._reshuffled("resistance", drawn)
        self.stats["cards_drawn"] += len(drawn.cards)
        return drawn.cards

    # --- elimination -------------------------------------------------------------------------

    def eliminate(self, seat: int, cause: str) -> None:
        """`rules.eliminate`, logged before the cards leave the station (the replay pictures the
        station as it falls)."""
        s = self.state
        stays = rules.setback_only(s, cause)
        if self.log is not None:
            self._emit("eliminated", player=self._seat(seat), cause=cause, stays_in_game=stays)
        rules.eliminate(self.comp, s, seat, cause)
        if stays:
            self.stats["setbacks_level0"] += 1
            return
        self.stats["players_eliminated"] += 1
        self.stats["eliminated_" + cause] += 1

    # --- the invasion ------------------------------------------------------------------------

    def spawn(self, seat: int) -> None:
        """[Action: The Invasion] draw a Spawn card after an action and resolve it."""
        s, comp = self.state, self.comp
        drawn = rules.draw_spawn(s, self.streams.spawn)
        self._reshuffled("spawn", drawn)
        if not drawn.cards:
            return
        card = drawn.cards[0]
        self.stats["spawn_drawn"] += 1
        if comp.spawn_shield[card]:
            rules.place_shield(comp, s, card)
            self.stats["shields_placed"] += 1
            if self.log is not None:
                self._emit(
                    "shield", player=self._seat(seat), alien=comp.spawn_name[card], shields=len(s.shields)
                )
            return
        path, target = rules.take_off(comp, s, seat, card)
        if self.log is not None:
            self._emit(
                "spawn",
                player=self._seat(seat),
                alien=comp.spawn_name[card],
                path=[self._seat(p) for p in path],
                target=self._seat(target) if target >= 0 else None,
            )
        if target < 0:
            rules.discard_flying(s)
            self.stats["aliens_flown_off"] += 1
            if self.log is not None:
                self._emit("flies_off", alien=comp.spawn_name[card])
            return
        colour = comp.spawn_colour[card]
        # [ZAPPING] the active player, then every player it flies past or is about to invade
        zappers = comp.zappers[colour]
        for p in path:
            hand = s.hands[p]
            if zappers.isdisjoint(hand):
                continue
            options = rules.zap_cards(comp, hand, colour)
            answer = self.players[p].zap(self._view(p), card, target)
            if answer is None:
                continue
            if answer not in options:
                raise self._violation(
                    "zap", p, f"{answer!r} is not a weapon in hand of the alien's colour or black"
                )
            rules.zap(s, p, answer)
            self.stats["aliens_zapped"] += 1
            if self.log is not None:
                self._emit(
                    "zap", player=self._seat(p), weapon=comp.res_name[answer], alien=comp.spawn_name[card]
                )
            return
        self.place(target, card)
        if s.end_reason is None:
            self.attack_order(card)

    def place(self, target: int, card: int) -> None:
        """[Flying] the alien joins the station; a Sabotalien takes a free module with its symbol
        (the station's owner chooses among several)."""
        s, comp = self.state, self.comp
        kind = comp.spawn_kind[card]
        self.stats["invasions"] += 1
        if kind == INVALIEN or kind == EVAPORALIEN:
            rules.invade(comp, s, target)
            if self.log is not None:
                self._emit("invade", player=self._seat(target), alien=comp.spawn_name[card])
            return
        options = rules.free_slots(comp, s, target, comp.spawn_colour[card])
        slot = options[0]
        if len(options) > 1:
            slot = self.players[target].sabotalien_module(self._view(target), card, tuple(options))
            if slot not in options:
                raise self._violation("sabotalien_module", target, f"{slot!r} is not one of {options}")
        rules.invade(comp, s, target, slot)
        if self.log is not None:
            self._emit(
                "invade",
                player=self._seat(target),
                alien=comp.spawn_name[card],
                module=comp.res_name[s.mods[target][slot]],
            )

    def _order_figures(self, order: int) -> dict[str, int]:
        """Figures of the ordered colour per living station that has some, for the order's event."""
        s = self.state
        seats = rules.seats_from_active(s)
        return {self._seat(p): s.figs[p][order] for p in seats if s.alive[p] and s.figs[p][order]}

    def attack_order(self, card: int) -> None:
        """[Attack orders] every alien of the ordered colour on every station attacks, station by
        station from the active player clockwise; each step is logged as it happens."""
        s, comp = self.state, self.comp
        kind = comp.spawn_kind[card]
        order = comp.spawn_orders[card]
        if kind == INVALIEN:
            if self.log is not None:
                threshold, figures = comp.spawn_threshold[card], self._order_figures(order)
                self._emit("order", ordered=comp.colours[order], threshold=threshold, figures=figures)
            for p in rules.invalien_victims(comp, s, card):
                self.eliminate(p, "invaliens")
        elif kind == EVAPORALIEN:
            if self.log is not None:
                self._emit("order", ordered=comp.colours[order], figures=self._order_figures(order))
            for p, need in rules.evaporations(comp, s, card):
                hand = s.hands[p]
                if need >= len(hand):
                    lost = list(hand)
                else:
                    answer = self.players[p].discard(self._view(p), need)
                    try:
                        lost = list(answer)
                    except TypeError:
                        raise self._violation("discard", p, f"{answer!r} is not a list of cards") from None
                    if len(lost) != need or len(set(lost)) != need or not all(c in hand for c in lost):
                        raise self._violation("discard", p, f"{answer!r} is not {need} distinct hand cards")
                rules.discard_from_hand(s, p, lost)
                self.stats["cards_evaporated"] += len(lost)
                if self.log is not None:
                    self._emit("evaporate", player=self._seat(p), cards=self._names(lost))
        else:
            if self.log is not None:
                self._emit("order", ordered=comp.colours[order])
            for p in rules.seats_from_active(s):
                if not s.alive[p]:
                    continue
                destroyed = False
                for slot in rules.sabotalien_hits(comp, s, p, order):
                    module = comp.res_name[s.mods[p][slot]]  # named before a level 2 attack discards it
                    hit = rules.sabotalien_attack(comp, s, p, slot)
                    if hit == rules.SABOTAGED:
                        self.stats["sabotages"] += 1
                        if self.log is not None:
                            self._emit("sabotage", player=self._seat(p), module=module)
                    elif hit == rules.DESTROYED:
                        self.stats["modules_destroyed"] += 1
                        destroyed = True
                        if self.log is not None:
                            self._emit("module_destroyed", player=self._seat(p), module=module)
                if destroyed and not s.mods[p]:  # level 2+: a player left with no module
                    self.eliminate(p, "sabotage")
                    if s.end_reason is not None:
                        return

    # --- the turn ----------------------------------------------------------------------------

    def action(self, seat: int, number: int) -> bool:
        """[Action] one Draw or Transport, then a Spawn card; False when the player ends actions."""
        s, comp = self.state, self.comp
        answer = self.players[seat].action(self._view(seat), number)
        if not isinstance(answer, tuple) or not answer:
            raise self._violation("action", seat, f"{answer!r} is not an action tuple")
        if answer[0] == "end" and len(answer) == 1:
            if number == 0:
                raise self._violation("action", seat, "the first action cannot be 'end' (one or two actions)")
            return False
        if answer[0] == "draw" and len(answer) == 1:
            got = self._draw_resistance(seat, rules.use_catalyst(comp, s, seat))
            self.stats["draws"] += 1
            if self.log is not None:
                self._emit("draw", player=self._seat(seat), cards=self._names(got))
        elif answer[0] == "transport" and len(answer) == 3:
            _, to, cards = answer
            hand = s.hands[seat]
            if not rules.hub_works(comp, s, seat):
                raise self._violation("action", seat, "transport needs a working Transport Hub")
            if type(to) is not int or not 0 <= to < s.n or to == seat or not s.alive[to]:
                raise self._violation("action", seat, f"transport to {to!r}: not another living player")
            try:
                cards = list(cards)
            except TypeError:
                raise self._violation("action", seat, f"transport cards {cards!r} are not a list") from None
            if not cards or len(set(cards)) != len(cards) or not all(c in hand for c in cards):
                raise self._violation(
                    "action", seat, f"transport cards {cards!r}: give one or more hand cards"
                )
            rules.transport(s, seat, to, cards)
            self.stats["transports"] += 1
            if self.log is not None:
                self._emit("transport", player=self._seat(seat), to=self._seat(to), cards=self._names(cards))
        else:
            raise self._violation(
                "action", seat, f"{answer!r} is not ('draw',), ('transport', seat, cards) or ('end',)"
            )
        self.stats["actions"] += 1
        self.spawn(seat)
        return True

    def build(self, seat: int) -> None:
        """[Build phase] place Module cards from hand; they work at once."""
        s, comp = self.state, self.comp
        hand = s.hands[seat]
        is_module = comp.res_is_module
        if not any(is_module[c] for c in hand):
            return
        answer = self.players[seat].build(self._view(seat))
        try:
            cards = list(answer)
        except TypeError:
            raise self._violation("build", seat, f"{answer!r} is not a list of cards") from None
        if len(set(cards)) != len(cards) or not all(c in hand and is_module[c] for c in cards):
            raise self._violation("build", seat, f"{answer!r} is not a set of module cards in hand")
        rules.build(s, seat, cards)
        self.stats["modules_built"] += len(cards)
        if cards and self.log is not None:
            self._emit("build", player=self._seat(seat), modules=self._names(cards))

    def combat(self, seat: int) -> None:
        """[Combat phase] one attack: the active player on their own station, or with working
        Teleporters on both sides, the active player on another's station or another on theirs."""
        s, comp = self.state, self.comp
        answer = self.players[seat].combat(self._view(seat))
        if answer is None:
            return
        if not (isinstance(answer, tuple) and len(answer) == 2):
            raise self._violation("combat", seat, f"{answer!r} is not None or (attacker, target)")
        attacker, target = answer
        if not (attacker == seat and target == seat) and not (
            (attacker == seat or target == seat)
            and (attacker if target == seat else target) in rules.teleport_partners(comp, s, seat)
        ):
            raise self._violation(
                "combat", seat, f"attacker {attacker!r} on station {target!r} is not allowed"
            )
        plan = self.players[attacker].attack(self._view(attacker), target)
        hand = s.hands[attacker]
        error = rules.attack_error(comp, hand, plan, rules.working(comp, s, attacker, MORPH_BOX))
        if error:
            raise self._violation("attack", attacker, error)
        plays, morphs = tuple(plan[0]), tuple(plan[1])
        if not plays and not morphs:
            return
        outcome = rules.attack(comp, s, attacker, target, plays, morphs)
        self.stats["attacks"] += 1
        self.stats["teleport_attacks"] += attacker != target
        self.stats["aliens_removed"] += len(outcome.removed)
        self.stats["weapons_discarded"] += len(outcome.discarded) - 2 * len(morphs)
        self.stats["morph_box_uses"] += len(morphs)
        if self.log is not None:
            self._emit(
                "combat",
                attacker=self._seat(attacker),
                station=self._seat(target),
                played=[f"{comp.res_name[c]} as {comp.colours[k]}" for c, k in plays],
                morph_box=[
                    f"{comp.res_name[a]} + {comp.res_name[b]} as {comp.colours[k]}" for (a, b), k in morphs
                ],
                cleared=sorted(comp.colours[c] for c in outcome.cleared),
                removed=[comp.spawn_name[a] for a in outcome.removed],
                discarded=self._names(outcome.discarded),
            )

    def ask_final_conflict(self, seat: int, moment: str) -> bool:
        """[The Final Conflict] the active player may call it at the start of the turn or after
        combat (RULINGS §2); the active player then faces the first kamikaze at once."""
        s = self.state
        if not self.players[seat].final_conflict(self._view(seat), moment):
            return False
        rules.call_final_conflict(s)
        self.fc_turn = s.turn
        self.fc_shields = len(s.shields)
        self.fc_weapons = self.crew_weapons()
        self.fc_moment = moment
        if self.log is not None:
            self._emit(
                "final_conflict",
                player=self._seat(seat),
                moment=moment,
                shields=len(s.shields),
                crew_weapons=self.fc_weapons,
                hands={self._seat(p): self._names(s.hands[p]) for p in range(s.n) if s.alive[p]},
            )
        self.final_conflict_turn(seat)
        return True

    def turn(self, seat: int) -> None:
        s = self.state
        if self.ask_final_conflict(seat, "start"):
            return
        for number in (0, 1):
            if not self.action(seat, number):
                break
            if s.end_reason is not None or not s.alive[seat]:
                return
        self.build(seat)
        self.combat(seat)
        self.ask_final_conflict(seat, "after_combat")

    # --- the Final Conflict ------------------------------------------------------------------

    def _use(
        self, decision: str, who: int, answer, colour: int, strike: bool
    ) -> tuple[list[int], int] | None:
        """Check a counter/strike answer by `who` and return (cards spent, colour hit), or None
        for no answer. `colour` is the kamikaze's colour (counter) or ignored (strike)."""
        s, comp = self.state, self.comp
        hand = s.hands[who]
        if answer is None:
            return None
        if not isinstance(answer, tuple) or len(answer) != (3 if strike else 2):
            raise self._violation(decision, who, f"{answer!r} is not a valid answer")
        how, what = answer[0], answer[1]
        if strike:
            colour = answer[2]
            shield_colours = {comp.spawn_colour[c] for c in s.shields}
            if s.shields:
                if colour not in shield_colours:
                    raise self._violation(decision, who, f"no Shield alien of colour {colour!r}")
            elif colour != MONSTER or how != "weapon":
                raise self._violation(
                    decision, who, "no Shield alien left: strike the Spawnmonster with a weapon"
                )
        if how == "weapon":
            if what not in hand or comp.res_category[what] != WEAPON:
                raise self._violation(decision, who, f"{what!r} is not a weapon in hand")
            wc = comp.res_colour[what]
            ok = wc == colour or (strike and (wc == BLACK or colour == MONSTER))
            if not ok:
                raise self._violation(
                    decision, who, f"{comp.res_name[what]} cannot hit {comp.colours[colour]}"
                )
            return [what], colour
        if how == "morph":
            if not rules.working(comp, s, who, MORPH_BOX):
                raise self._violation(decision, who, "no working Morph-box")
            if not (isinstance(what, tuple | list) and len(what) == 2):
                raise self._violation(decision, who, f"{what!r} is not two cards")
            a, b = what
            if a not in hand or b not in hand or not rules.morph_pair_ok(comp, a, b):
                raise self._violation(decision, who, f"{what!r} are not two hand cards of one colour or type")
            if not strike and not rules.morph_counter_allowed(comp, hand, colour):
                raise self._violation(
                    decision,
                    who,
                    f"holds a {comp.colours[colour]} weapon: the Morph-box counters only "
                    "a colour with no weapon in hand (RULINGS §2)",
                )
            self.stats["morph_box_uses"] += 1
            return [a, b], colour
        raise self._violation(decision, who, f"{answer!r}: use 'weapon' or 'morph'")

    def final_conflict_turn(self, seat: int) -> None:
        """[The Final Conflict] 1. kamikaze: counter or be eliminated; 2. strike."""
        s, comp = self.state, self.comp
        drawn = rules.draw_kamikaze(s, self.streams.spawn)
        self._reshuffled("spawn", drawn)
        if drawn.cards:
            card = drawn.cards[0]
            self.stats["kamikazes"] += 1
            colour = comp.spawn_colour[card]
            if self.log is not None:
                self._emit(
                    "kamikaze",
                    player=self._seat(seat),
                    alien=comp.spawn_name[card],
                    colour=comp.colours[colour],
                )
            answer = self.players[seat].counter(self._view(seat), card)
            who = seat
            if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == "help":
                helper = answer[1]
                if helper not in rules.teleport_partners(comp, s, seat):
                    raise self._violation("counter", seat, f"{helper!r} is not a Teleporter partner")
                who = helper
                answer = self.players[helper].help_counter(self._view(helper), card, seat)
                self.stats["teleport_helps"] += answer is not None
            used = self._use("help_counter" if who != seat else "counter", who, answer, colour, False)
            if used is None:  # no declining (RULINGS §2): whoever can counter, counters
                if who != seat and rules.counter_cards(comp, s.hands[who], colour):
                    raise self._violation("help_counter", who, "declines to counter with a weapon it holds")
                if rules.can_counter(comp, s, seat, colour):
                    raise self._violation("counter", seat, "can counter this kamikaze but does not")
            rules.discard_flying(s)
            if used is None:
                self.eliminate(seat, "kamikaze")
                return
            rules.discard_from_hand(s, who, used[0])
            self.stats["kamikazes_countered"] += 1
            if self.log is not None:
                self._emit(
                    "counter",
                    player=self._seat(who),
                    helping=self._seat(seat) if who != seat else None,
                    cards=self._names(used[0]),
                    alien=comp.spawn_name[card],
                )
        # 2. Strike!!! one strike per turn: a Shield alien, or with none left the Spawnmonster
        answer = self.players[seat].strike(self._view(seat))
        who = seat
        if isinstance(answer, tuple) and len(answer) == 2 and answer[0] == "help":
            helper = answer[1]
            if s.level != 0 or not s.shields or helper not in rules.teleport_partners(comp, s, seat):
                raise self._violation(
                    "strike", seat, "Teleporter help at the strike: level 0, Shield aliens only"
                )
            who = helper
            answer = self.players[helper].help_strike(self._view(helper), seat)
            self.stats["teleport_helps"] += answer is not None
        used = self._use("help_strike" if who != seat else "strike", who, answer, MONSTER, True)
        if used is None:  # no declining (RULINGS §2): a player holding a weapon that can strike does
            shield_colours = {comp.spawn_colour[c] for c in s.shields}
            for p in dict.fromkeys((who, seat)):
                if rules.strike_weapons(comp, s.hands[p], shield_colours):
                    what = "help_strike" if p != seat else "strike"
                    raise self._violation(what, p, "holds a weapon that can strike but does not")
            if self.log is not None:
                self._emit("no_strike", player=self._seat(seat))
            return
        if used[1] == MONSTER:
            rules.strike_spawnmonster(s, who, used[0])
            if self.log is not None:
                self._emit("spawnmonster_destroyed", player=self._seat(who), weapon=self._names(used[0]))
            return
        rules.strike_shield(comp, s, who, used[0], used[1])
        self.stats["shields_destroyed"] += 1
        if self.log is not None:
            self._emit(
                "strike",
                player=self._seat(who),
                helping=self._seat(seat) if who != seat else None,
                cards=self._names(used[0]),
                shield=comp.colours[used[1]],
                shields_left=len(s.shields),
            )

    # --- the game ----------------------------------------------------------------------------

    def play(self) -> dict[str, Any]:
        s, comp = self.state, self.comp
        if self.log is not None:
            self._emit(
                "setup",
                players=s.n,
                level=s.level,
                hubs={
                    self._seat(p): comp.res_name[m]
                    + " ["
                    + " ".join(comp.colours[c] for c in comp.res_symbols[m])
                    + "]"
                    for p in range(s.n)
                    for m in s.mods[p][:1]
                },
                deck=len(s.deck),
                spawn_deck=len(s.spawn_deck),
            )
        while s.end_reason is None:
            seat = rules.start_turn(s)
            if s.turn > MAX_TURNS:
                raise RuntimeError(f"game did not end within {MAX_TURNS} turns")
            if self.log is not None:
                self._emit("turn", **self.snapshot())
            if s.final_conflict:
                self.final_conflict_turn(seat)
            else:
                self.turn(seat)
            if s.end_reason is None:
                rules.pass_turn(s, seat)
        won = s.end_reason == "spawnmonster_destroyed"
        survivors = sum(s.alive)
        score = comp.points[s.level] * survivors if won else 0
        self._emit("end", reason=s.end_reason, won=won, survivors=survivors, score=score)
        return {
            "won": won,
            "score": score,
            "length": s.turn,
            "end_reason": s.end_reason,
            "survivors": survivors,
            "final_conflict_called": self.fc_turn > 0,
            "final_conflict_turn": self.fc_turn,
            "final_conflict_moment": self.fc_moment,
            "final_conflict_shields": self.fc_shields,
            "final_conflict_weapons": self.fc_weapons,
            "shields_in_play": len(s.shields),
            **self.stats,
        }
