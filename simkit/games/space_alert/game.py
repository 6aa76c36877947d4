"""One Space Alert mission: set-up, the crew's planning (phase by phase), the resolution round and
the record. A game is a pure function of (components, settings, crew, seed): all chance comes from
the streams handed in, never from global random state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from simkit.core.errors import RuleViolation
from simkit.games.space_alert import rules
from simkit.games.space_alert.components import Components, Mission, MissionThreat
from simkit.games.space_alert.state import (
    BB,
    BLUE,
    EMPTY,
    HA,
    HB,
    HBB,
    LIFT,
    RED,
    TELEPORT,
    ZONE_NAMES,
    A,
    B,
    C,
    KnownThreat,
    State,
    card_name,
    new_state,
)

MOVES = (RED, BLUE, LIFT)
ACTIONS = (A, B, C, BB)
HEROIC = {"A": HA, "B": HB, "BB": HBB}
# Threats announced by the end of each phase (RULINGS §4): plans for a phase see these turns.
ANNOUNCED_BY_PHASE = (4, 8, 12)


class View(NamedTuple):
    """What a figure's planner sees when it plans one phase (see RULES.md, "Player interface").

    `hand` lists the cards it may play as (move half, action half) codes; the heroic card is
    (TELEPORT + station, HA/HB/HBB). With `free` hands any plain half may be played. `plans`
    holds every figure's cards planned so far (slot t = turn t; the crew talks), `threats` the
    threats announced so far. `comp` is the printed components (read-only)."""

    figure: int
    android: bool
    figures: int
    humans: int
    phase: int  # 0, 1, 2
    turns: tuple[int, ...]
    hand: tuple[tuple[int, int], ...]
    free: bool
    threats: tuple[KnownThreat, ...]
    plans: tuple[tuple[int, ...], ...]
    comp: Components


@dataclass
class Setup:
    """A mission as dealt: the threat cards (turn, id, zone, trajectory), the trajectories, the
    damage-tile stacks and the hands."""

    threats: list[KnownThreat]
    trajectories: dict[str, str]  # zone name -> trajectory id
    tiles: list[list[str]]
    hands: list[list[list[tuple[int, int]]]]  # hands[f][phase]: cards dealt to figure f
    heroic: list[tuple[int, int]]
    incoming: list[int]  # incoming data per phase (each human draws one card each time)
    transfers: list[int]  # data transfers per phase (each human may give one card each time)


def _pick_turn(rng: random.Random, lo: int, hi: int, used: set[int]) -> int | None:
    free = [t for t in range(lo, hi + 1) if t not in used]
    return rng.choice(free) if free else None


def random_mission(comp: Components, level: int, extra: int, rng: random.Random) -> Mission:
    """A random mission from the published recipe (data file [recipe]): threat level
    = commons + 2 x serious, internal level 1..3 in at most 2 internal threats, each kind within
    its turn window, at most one threat a turn; `extra` unconfirmed commons (5 figures)."""
    rec = comp.recipe
    for _ in range(100):
        lo, hi = rec["internal_level"]
        il = rng.randint(lo, min(hi, level - 1))
        internal = {1: [False], 2: rng.choice(([True], [False, False])), 3: [True, False]}[il][
            : rec["max_internal"]
        ]
        el = level - il
        serious_ext = rng.randint(0, el // 2)
        external = [True] * serious_ext + [False] * (el - 2 * serious_ext)
        used: set[int] = set()
        out: list[MissionThreat] = []
        ok = True
        # narrow windows first
        jobs = [(s, 3, "serious_internal_turns" if s else "common_internal_turns") for s in internal]
        jobs += [
            (s, rng.randrange(3), "serious_external_turns" if s else "common_external_turns")
            for s in external
        ]
        jobs.sort(key=lambda j: (not j[0], j[1] != 3))
        for serious, zone, window in jobs:
            t = _pick_turn(rng, *rec[window], used)
            if t is None:
                ok = False
                break
            used.add(t)
            out.append(MissionThreat(t, zone, serious, False))
        for _ in range(extra):
            t = _pick_turn(rng, *rec["common_external_turns"], used)
            if t is None:
                ok = False
                break
            used.add(t)
            out.append(MissionThreat(t, rng.randrange(3), False, True))
        if ok:
            out.sort(key=lambda m: m.turn)
            return Mission(
                0, tuple(out), rng.randint(*rec["incoming_data"]), rng.randint(*rec["data_transfers"])
            )
    raise RuntimeError("could not build a random mission")  # pragma: no cover


def hand_sizes(humans: int, figures: int) -> tuple[int, int, int]:
    """Cards per phase for each human (rulebook: 5; 6 with 3 players; 9/6/6 with 2; +1 in phase 1
    with a 5th figure). Phase 1 counts the heroic card."""
    sizes = {2: (9, 6, 6), 3: (6, 6, 6)}.get(humans, (5, 5, 5))
    if figures == 5:
        sizes = (sizes[0] + 1, sizes[1], sizes[2])
    return sizes


def deal(comp: Components, params: Any, rng: random.Random) -> Setup:
    """Mission, threat cards, trajectories and hands, all from the set-up stream. `params` are the
    engine's typed parameters (`ENGINE.params(settings)`)."""
    figures = params.figures
    humans = params.players
    mission_name = str(params.mission)
    level = {
        "test": comp.recipe["level_test"],
        "simulation": comp.recipe["level_simulation"],
        "real": comp.recipe["level_real"],
    }
    if mission_name in level:
        extra = comp.recipe["unconfirmed_extra"] if figures == 5 and mission_name != "test" else 0
        mission = random_mission(comp, level[mission_name], extra, rng)
    else:
        mission = comp.missions[int(mission_name) - 1]
    boards = list(comp.trajectories)
    rng.shuffle(boards)
    traj = {ZONE_NAMES[z]: boards[z].id for z in range(3)}
    traj["internal"] = boards[3].id
    decks: dict[tuple[bool, bool], list[str]] = {}
    colours = {"white": ("white",), "yellow": ("yellow",), "mixed": ("white", "yellow")}
    for serious in (False, True):
        allowed = colours[params.serious if serious else params.common]
        for external in (True, False):
            ids = [
                t.id
                for t in comp.threats
                if t.external == external and (t.deck == "serious") == serious and t.colour in allowed
            ]
            rng.shuffle(ids)
            decks[(external, serious)] = ids
    threats: list[KnownThreat] = []
    for mt in mission.threats:
        if mt.unconfirmed and figures < 5:
            continue
        deck = decks[(mt.zone != 3, mt.serious)]
        ident = deck.pop()
        zone_name = "internal" if mt.zone == 3 else ZONE_NAMES[mt.zone]
        threats.append(KnownThreat(mt.turn, ident, mt.zone, traj[zone_name]))
    # action cards (RULINGS §4: invented deck, every move/action pair equally often)
    deck_cards = [(m, a) for m in MOVES for a in ACTIONS] * comp.copies
    rng.shuffle(deck_cards)
    heroic_cards = [(TELEPORT + s, HEROIC[a]) for a, s in comp.heroic]
    rng.shuffle(heroic_cards)
    heroic = [heroic_cards[f % len(heroic_cards)] for f in range(figures)]
    sizes = hand_sizes(humans, figures)
    incoming = [0, 0, 0]
    for i in range(mission.incoming_data):
        incoming[i % 2] += 1  # the transcribed soundtracks announce incoming data in phases 1-2
    transfers = [0, 0, 0]
    for i in range(mission.data_transfers):
        transfers[i % 2] += 1  # alternating phases 1 and 2, like incoming data
    hands: list[list[list[tuple[int, int]]]] = []
    for f in range(figures):
        per_phase: list[list[tuple[int, int]]] = []
        for p in range(3):
            if f >= humans or params.hands == "free":
                per_phase.append([])
                continue
            n = sizes[p] - (1 if p == 0 else 0) + incoming[p]
            per_phase.append([deck_cards.pop() for _ in range(n)])
        hands.append(per_phase)
    return Setup(threats, traj, [[], [], []], hands, heroic, incoming, transfers)


def _matches(codes: list[int], cards: list[tuple[int, int]]) -> list[int] | None:
    """A card index for each planned half (bipartite matching), or None."""
    owner = [-1] * len(cards)

    def place(i: int, seen: set[int]) -> bool:
        for j, (top, bottom) in enumerate(cards):
            if j in seen or (top != codes[i] and bottom != codes[i]):
                continue
            seen.add(j)
            if owner[j] < 0 or place(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(codes)):
        if not place(i, set()):
            return None
    used = [-1] * len(codes)
    for j, i in enumerate(owner):
        if i >= 0:
            used[i] = j
    return used


def plan_mission(comp: Components, params: Any, setup: Setup, crew: list[Any]) -> list[list[int]]:
    """Every figure's 12 cards: phase by phase, humans then androids, each in player order; a
    phase's plan sees only the threats announced by then. Checks every returned plan."""
    figures = params.figures
    humans = params.players
    free = params.hands == "free" or humans == 1
    plans = [[EMPTY] * 13 for _ in range(figures)]
    hands: list[list[tuple[int, int]]] = [[] for _ in range(figures)]
    heroic_left = [True] * figures
    starts = (1,) + tuple(e + 1 for e in comp.ship["phase_ends"][:-1])
    for p in range(3):
        for f in range(figures):
            hands[f].extend(setup.hands[f][p])
        turns = tuple(range(starts[p], comp.ship["phase_ends"][p] + 1))
        known = tuple(t for t in setup.threats if t.turn <= ANNOUNCED_BY_PHASE[p])
        if not free and humans > 1:
            for _ in range(setup.transfers[p]):
                _data_transfer(comp, crew, hands, plans, p, turns, known, figures, humans)
        order = list(range(humans)) + list(range(humans, figures))
        for f in order:
            android = f >= humans
            if free:
                offered: list[tuple[int, int]] = []
            elif android:
                offered = [c for h in range(humans) for c in hands[h]]
            else:
                offered = list(hands[f])
            own_heroic = [setup.heroic[f]] if heroic_left[f] else []
            view = View(
                f, android, figures, humans, p, turns, tuple(offered + own_heroic), free, known,
                tuple(tuple(pl) for pl in plans), comp,
            )  # fmt: skip
            answer = crew[f].plan(view)
            codes = _check_plan(answer, turns, f)
            heroic_codes = [c for c in codes if c != EMPTY and c in setup.heroic[f]]
            if heroic_codes and (not heroic_left[f] or len(heroic_codes) > 1):
                raise RuleViolation(f"plan: figure {f} plays its heroic card twice")
            plain = [c for c in codes if c != EMPTY and c not in setup.heroic[f]]
            if any(c >= TELEPORT or c in (HA, HB, HBB) for c in plain):
                raise RuleViolation(f"plan: figure {f} plays a heroic half it does not hold")
            if heroic_codes:
                heroic_left[f] = False
            if not free:
                used = _matches(plain, offered)
                if used is None:
                    raise RuleViolation(
                        f"plan: figure {f}'s cards {[card_name(c) for c in plain]} are not in its hand"
                    )
                taken = [offered[j] for j in used]
                for card in taken:  # remove from the owner's hand (an android takes a human's card)
                    for h in [f] if not android else range(humans):
                        if card in hands[h]:
                            hands[h].remove(card)
                            break
            for t, c in zip(turns, codes, strict=True):
                plans[f][t] = c
    return [pl[1:] for pl in plans]


def _data_transfer(comp, crew, hands, plans, p, turns, known, figures, humans) -> None:
    """Data Transfer [RB]: each human in turn may hand one (non-heroic) card to another human.
    Decision `transfer(view) -> None | (card index in view.hand, figure)`."""
    for f in range(humans):
        view = View(
            f, False, figures, humans, p, turns, tuple(hands[f]), False, known,
            tuple(tuple(pl) for pl in plans), comp,
        )  # fmt: skip
        answer = crew[f].transfer(view) if hasattr(crew[f], "transfer") else None
        if answer is None:
            continue
        if (
            not isinstance(answer, tuple)
            or len(answer) != 2
            or type(answer[0]) is not int
            or type(answer[1]) is not int
            or not 0 <= answer[0] < len(hands[f])
            or not 0 <= answer[1] < humans
            or answer[1] == f
        ):
            raise RuleViolation(f"transfer: figure {f} returned {answer!r}, not (card index, another human)")
        hands[answer[1]].append(hands[f].pop(answer[0]))


def _check_plan(answer: Any, turns: tuple[int, ...], f: int) -> list[int]:
    if not isinstance(answer, (list, tuple)) or len(answer) != len(turns):
        raise RuleViolation(f"plan: figure {f} must return {len(turns)} cards (one per turn), got {answer!r}")
    for c in answer:
        if type(c) is not int or not (0 <= c <= HBB or TELEPORT <= c < TELEPORT + 6):
            raise RuleViolation(f"plan: figure {f} returned {c!r}, not a card code")
    return list(answer)


def record(comp: Components, st, result: dict) -> dict:
    """The flat game record (DESIGN.md columns + the game's own)."""
    destroyed, survived = result["destroyed"], result["survived"]
    on_board = [t.card.id for t in st.threats if t.status == 1]
    return {
        "won": result["won"],
        "score": result["score"],
        "length": min(st.turn, 13),
        "end_reason": st.end_reason,
        "threat_points": result["threat_points"],
        "penalties": result["penalties"],
        "visual_points": result["visual_points"],
        "damage_red": result["tiles"][0],
        "damage_white": result["tiles"][1],
        "damage_blue": result["tiles"][2],
        "damage_total": sum(result["tiles"]),
        "threats": len(st.threats),
        "threats_destroyed": len(destroyed),
        "threats_survived": len(survived),
        "destroyed_ids": ",".join(destroyed),
        "survived_ids": ",".join(survived),
        "on_board_ids": ",".join(on_board),
        "threat_ids": ",".join(t.card.id for t in st.threats),
        "lost_to": st.culprit if st.lost else "",
        "knocked_out": result["knocked_out"],
        "disabled_bots": result["disabled_bots"],
        "fuel_left": st.fuel,
        "rockets_left": st.rockets,
    }


def describe_plans(plans: list[list[int]]) -> list[list[str]]:
    return [[card_name(c) for c in p] for p in plans]


def play_game(
    comp: Components,
    params: Any,
    make_player,
    setup_rng: random.Random,
    chance: list[random.Random],
    log: list | None = None,
    watch: Callable[[State], None] | None = None,
) -> dict:
    """One game (a mission, or a campaign of 3): deal, plan, resolve, score; the flat record.
    `params` are the engine's typed parameters (every setting filled in). `watch`, when given, is
    handed each mission's state as set up, before its first event (the replay page's pictures).

    `make_player(k)` builds figure k's planner (its own stream); `chance[0]` draws the damage
    tiles, `chance[1]` the misplays (a fixed number of draws, so settings compare as pairs)."""
    figures = params.figures
    humans = params.players
    crew = [make_player(k) for k in range(figures)]
    missions = params.campaign
    carry: dict | None = None
    totals = {"threat_points": 0, "visual": []}
    rec: dict = {}
    earlier: list[dict] = []  # the records of the campaign's missions before the last one played
    for m in range(missions):
        setup = deal(comp, params, setup_rng)
        stacks = []
        for _z in range(3):
            stack = list(comp.tiles)
            chance[0].shuffle(stack)
            stacks.append(stack)
        draws = [[chance[1].random() for _ in range(12)] for _ in range(figures)]
        plans = plan_mission(comp, params, setup, crew)
        rate = params.error_rate
        trips = {
            (f, t + 1)
            for f in range(humans)
            for t in range(12)
            if draws[f][t] < rate and plans[f][t] != EMPTY
        }
        st = new_state(comp, figures, plans, carry["stacks"] if carry else stacks, humans)
        if carry:
            _apply_carry(comp, st, carry)
        st.threats = rules.live_threats(comp, setup.threats)
        if watch is not None:
            watch(st)
        if log is not None:
            log.append(
                {
                    "event": "mission",
                    "turn": 0,
                    "mission": str(params.mission),
                    "campaign_mission": m + 1,
                    "threats": [
                        {
                            "turn": k.turn,
                            "threat": k.id,
                            "name": comp.by_id[k.id].name,
                            "zone": "internal" if k.zone == 3 else ZONE_NAMES[k.zone],
                            "trajectory": k.trajectory,
                        }
                        for k in setup.threats
                    ],
                    "trajectories": setup.trajectories,
                    "plans": describe_plans(plans),
                    "androids": list(range(humans, figures)),
                    "trips": sorted([f, t] for f, t in trips),
                }
            )
        rules.Resolution(comp, st, log, trips).run()
        result = rules.score(comp, st)
        if rec:
            earlier.append(rec)
        rec = record(comp, st, result)
        totals["threat_points"] += result["threat_points"]
        totals["visual"].append(result["visual_points"])
        if log is not None:
            log.append({"event": "score", "turn": st.turn, **result})
        if st.lost or m == missions - 1:
            break
        carry = _repair(comp, st, figures, stacks)
    rec["campaign_missions"] = len(totals["visual"])
    if earlier:  # a campaign's threat columns cover every mission played, in order
        for key in ("threats", "threats_destroyed", "threats_survived"):
            rec[key] += sum(e[key] for e in earlier)
        for key in ("destroyed_ids", "survived_ids", "threat_ids"):
            rec[key] = ",".join(filter(None, [*(e[key] for e in earlier), rec[key]]))
    if missions > 1:
        if rec["won"]:
            rec["threat_points"] = totals["threat_points"]
            rec["visual_points"] = sum(totals["visual"]) // len(totals["visual"])
            rec["score"] = rec["threat_points"] - rec["penalties"] + rec["visual_points"]
    return rec


def _repair(comp: Components, st, figures: int, fresh: list[list[str]]) -> dict:
    """Exploration campaign repairs (rulebook): each figure in player order repairs one damage
    tile or one disabled squad (knocked-out figures only stand up); at most 2 tiles a zone.
    simkit's choice: squads first, then the most damaged zone's most harmful tile. A squad left off
    the board this mission (disabled, unrepaired) is still disabled: it stays off until repaired."""
    tiles = [t[:] for t in st.tiles]
    disabled = [d or at == -2 for d, at in zip(st.bots_disabled, st.bots_at, strict=True)]
    repaired = [0, 0, 0]
    harm = ("reactor", "shield", "heavy_laser", "lower_cannon", "gravolift", "structural")
    for f in range(figures):
        if st.knocked[f]:
            continue
        if any(disabled):
            disabled[disabled.index(True)] = False
            continue
        zones = [z for z in range(3) if tiles[z] and repaired[z] < 2]
        if not zones:
            continue
        z = max(zones, key=lambda zz: (len(tiles[zz]), -zz))
        tile = min(tiles[z], key=harm.index)
        tiles[z].remove(tile)
        repaired[z] += 1
    stacks = []
    for z in range(3):
        rest = [t for t in st.tile_stacks[z][len(st.tiles[z]) :]]
        back = [t for t in comp.tiles if t not in tiles[z] and t not in rest]
        stacks.append(tiles[z] + sorted(rest + back, key=lambda t: fresh[z].index(t)))
    return {"tiles": tiles, "disabled": disabled, "stacks": stacks}


def _apply_carry(comp: Components, st, carry: dict) -> None:
    """Damage kept from the last mission: tiles keep their effects (a reactor or shield tile also
    removes one block at set-up), structural tiles double later damage, disabled squads are gone."""
    for z in range(3):
        kept = carry["tiles"][z]
        st.tiles[z] = list(kept)
        for tile in kept:
            if tile == "reactor":
                st.reactor_cap[z] -= 1
                st.reactor[z] = max(0, min(st.reactor[z] - 1, st.reactor_cap[z]))
            elif tile == "shield":
                st.shield_cap[z] -= 1
                st.shield[z] = max(0, min(st.shield[z] - 1, st.shield_cap[z]))
            elif tile == "heavy_laser":
                st.heavy[z] -= 1
            elif tile == "lower_cannon":
                if z == 1:
                    st.pulse_range = max(1, st.pulse_range - 1)
                else:
                    st.light[z] -= 1
            elif tile == "gravolift":
                st.lift_damaged[z] = True
            elif tile == "structural":
                st.damage_mult[z] *= 2
    for k, gone in enumerate(carry["disabled"]):
        if gone:
            st.bots_at[k] = -2  # not on the board this mission
