"""The Space Alert table for the replay page: `look` takes a picture of the state (plain tuples,
copied, so later turns never change it), `draw` turns a picture into one SVG.

The drawing shows, top to bottom: the mission, turn and phase; the four threat tracks (red, white
and blue outside, the internal track) with each threat in play at its space and the strength it
has left; the ship's six stations with their shields, reactors, weapons, damage tiles, the figures
(androids square), battlebots, intruders and malfunctions; each figure's 12 cards with the current
turn marked (delays show as shifted cards); and every threat of the mission with its state.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from simkit.core import svg
from simkit.games.space_alert.components import Components
from simkit.games.space_alert.state import (
    SPACE,
    STATION_NAMES,
    STATUS_NAMES,
    ZONE_NAMES,
    State,
    card_name,
)

WIDTH = 900
ZONE_COLOURS = ("#d1495b", "#8d96a3", "#3d7dca", "#7a4e9e")  # red, white, blue, internal
LANE_NAMES = (*ZONE_NAMES, "internal")


class Table:
    """What `look` pictures: the mission under way. A campaign plays each mission on a new state,
    which `new_mission` hands over."""

    def __init__(self, mission: str, comp: Components) -> None:
        self.mission = mission
        self.comp = comp
        self.number = 0
        self.state: State | None = None

    def new_mission(self, st: State) -> None:
        self.number += 1
        self.state = st


class Zone(NamedTuple):
    name: str
    shield: int
    shield_cap: int
    reactor: int
    reactor_cap: int
    heavy_laser: int
    light_laser: int
    tiles: tuple[str, ...]
    lift_damaged: bool


class Figure(NamedTuple):
    number: int  # 1.. (figure 1 is the captain)
    station: int  # 0..5, or SPACE (out in the interceptors)
    android: bool
    knocked_out: bool
    squad: int  # the battlebot squad carried, or -1


class Squad(NamedTuple):
    number: int  # 1..
    station: int  # 0..5; -1 carried by a figure; -2 not aboard this mission
    disabled: bool


class Threat(NamedTuple):
    id: str
    name: str
    lane: int  # 0..2 external zone, 3 internal
    status: str  # waiting / active / destroyed / survived
    appears: int  # the turn it appears
    space: int
    damage: int
    health: int
    shield: int
    stations: tuple[int, ...]  # internal threats: where they are aboard
    tokens: tuple[tuple[int, int], ...]  # slime: (station, health) per token
    revealed: bool


class Track(NamedTuple):
    lane: int
    trajectory: str  # "" when no threat of the mission comes down this lane
    length: int
    actions: tuple[int, ...]  # per space: 0 none, 1 X, 2 Y, 3 Z


class Picture(NamedTuple):
    mission: str
    number: int  # the mission's place in a campaign (1 for a single mission)
    turn: int
    phase: int  # 1..3
    zones: tuple[Zone, ...]
    figures: tuple[Figure, ...]
    squads: tuple[Squad, ...]
    threats: tuple[Threat, ...]
    tracks: tuple[Track, ...]
    fuel: int
    rockets: int
    rocket_flying: bool
    pulse_range: int
    computer: tuple[bool, ...]  # maintained, per phase
    visual: tuple[int, ...]  # best observers, per phase
    contaminated: tuple[int, ...]
    plans: tuple[tuple[str, ...], ...]  # each figure's cards, turns 1..12 ("-" empty)
    lost: bool
    end_reason: str


def _health(th: Any) -> int:
    """A threat's health: the rockets aboard when it appeared for those whose health they are."""
    return th.counted if "health_is_rockets" in th.card.rules else th.card.health


def look(table: Table) -> Picture:
    """The table now, as plain data copied from the state."""
    st = table.state
    assert st is not None, "look before the first mission's state"
    comp = table.comp
    ends = comp.ship["phase_ends"]
    phase = next((p + 1 for p, end in enumerate(ends) if max(st.turn, 1) <= end), len(ends))
    zones = tuple(
        Zone(
            ZONE_NAMES[z],
            st.shield[z],
            st.shield_cap[z],
            st.reactor[z],
            st.reactor_cap[z],
            st.heavy[z],
            st.light[z],
            tuple(st.tiles[z]),
            st.lift_damaged[z],
        )
        for z in range(3)
    )
    figures = tuple(
        Figure(f + 1, st.pos[f], f >= st.humans, st.knocked[f], st.carry[f]) for f in range(len(st.pos))
    )
    squads = tuple(Squad(k + 1, s, st.bots_disabled[k]) for k, s in enumerate(st.bots_at))
    threats = tuple(
        Threat(
            th.card.id,
            th.card.name,
            th.zone,
            STATUS_NAMES[th.status],
            th.token,
            th.pos,
            th.damage,
            _health(th),
            th.shield,
            tuple(th.stations),
            tuple((s, h) for s, h in th.tokens),
            th.revealed,
        )
        for th in st.threats
    )
    lanes: dict[int, Any] = {}
    for th in st.threats:
        lanes.setdefault(th.zone, th.traj)
    tracks = tuple(
        Track(lane, lanes[lane].id, lanes[lane].length, tuple(lanes[lane].action))
        if lane in lanes
        else Track(lane, "", 0, ())
        for lane in range(4)
    )
    return Picture(
        mission=table.mission,
        number=table.number,
        turn=st.turn,
        phase=phase,
        zones=zones,
        figures=figures,
        squads=squads,
        threats=threats,
        tracks=tracks,
        fuel=st.fuel,
        rockets=st.rockets,
        rocket_flying=any(st.rocket_track),
        pulse_range=st.pulse_range,
        computer=tuple(st.computer),
        visual=tuple(st.visual),
        contaminated=tuple(sorted(st.contaminated)),
        plans=tuple(tuple(card_name(c) for c in plan[1:]) for plan in st.plans),
        lost=st.lost,
        end_reason=st.end_reason,
    )


# --- drawing -------------------------------------------------------------------------------------

TOP = 34  # below the header line
LANE_H = 50
LANE_LABEL_W = 118
SHIP_Y = TOP + 4 * (LANE_H + 4) + 14
SPACE_W = 78  # the interceptors' box, left of upper red
COL_W = (WIDTH - 20 - SPACE_W - 8) // 3
DECK_H = 122
PLAN_CELL = 30


def _status_line(p: Picture) -> str:
    campaign = f" (mission {p.number} of the campaign)" if p.number > 1 else ""
    when = "set-up" if p.turn == 0 else f"turn {p.turn}" if p.turn <= 12 else "turn 13 (threats move on)"
    phase = f", phase {p.phase}" if 0 < p.turn <= 12 else ""
    end = ""
    if p.lost:
        end = f" - the ship is destroyed ({p.end_reason.replace('_', ' ')})"
    elif p.turn > 12:
        end = " - the ship survives"
    return f"Mission {p.mission}{campaign}: {when}{phase}{end}"


def _lane(p: Picture, track: Track, y: float) -> list[str]:
    colour = ZONE_COLOURS[track.lane]
    name = LANE_NAMES[track.lane]
    out = [
        svg.rect(10, y, WIDTH - 20, LANE_H, fill="#fff", stroke=svg.LINE, class_=f"track lane-{name}"),
        svg.rect(10, y, 6, LANE_H, fill=colour),
        svg.text(22, y + 20, name, font_weight="bold", fill=colour),
        svg.text(
            22,
            y + 38,
            f"trajectory {track.trajectory}" if track.trajectory else "no threat",
            fill=svg.MUTED,
            font_size=11,
        ),
    ]
    if not track.length:
        return out
    x0 = 10 + LANE_LABEL_W
    w = (WIDTH - 20 - LANE_LABEL_W - 22) / track.length
    # the entry space (= length) on the left; space 1 next to the ship on the right
    for s in range(1, track.length + 1):
        x = x0 + (track.length - s) * w
        act = track.actions[s] if s < len(track.actions) else 0
        fill = ("#fff", "#fdf1d6", "#fbe0c4", "#f6c6c6")[act]
        out.append(svg.rect(x, y + 2, w - 2, LANE_H - 4, fill=fill, stroke="#ddd"))
        out.append(svg.text(x + 3, y + 12, s, font_size=9, fill=svg.MUTED))
        if act:
            out.append(
                svg.text(
                    x + w - 5,
                    y + 12,
                    "XYZ"[act - 1],
                    font_size=10,
                    font_weight="bold",
                    anchor="end",
                    fill=svg.BAD if act == 3 else svg.INK,
                )
            )
    out.append(svg.text(WIDTH - 16, y + LANE_H / 2 + 4, "▶", fill=colour, anchor="end"))
    here = [t for t in p.threats if t.lane == track.lane and t.status == "active"]
    stacked: dict[int, int] = {}
    for t in here:
        k = stacked.get(t.space, 0)
        stacked[t.space] = k + 1
        x = x0 + (track.length - t.space) * w
        h = (LANE_H - 18) / 2 if sum(1 for u in here if u.space == t.space) > 1 else LANE_H - 18
        ty = y + 14 + k * h
        left = max(0, t.health - t.damage)
        out.append(
            svg.group(
                [
                    svg.title(
                        f"{t.name} ({t.id}): strength {left} of {t.health} left, shield {t.shield}, "
                        f"space {t.space}"
                    ),
                    svg.rect(x + 2, ty, w - 6, h - 1, rx=3, fill=colour, stroke=svg.INK, stroke_width=0.5),
                    svg.text(
                        x + w / 2 - 1,
                        ty + min(h - 4, 12),
                        t.id if t.revealed else "?",
                        anchor="middle",
                        font_size=9,
                        fill="#fff",
                        font_weight="bold",
                    ),
                    *(
                        [
                            svg.text(
                                x + w / 2 - 1,
                                ty + h - 4,
                                f"{left}♥",
                                anchor="middle",
                                font_size=10,
                                fill="#fff",
                            )
                        ]
                        if h > 20
                        else []
                    ),
                ],
                class_="threat",
                data_threat=t.id,
                data_space=t.space,
                data_left=left,
            )
        )
    return out


def _squares(x: float, y: float, filled: int, capacity: int, colour: str, cls: str) -> list[str]:
    """`capacity` boxes, the first `filled` coloured (energy cubes)."""
    out = []
    for i in range(capacity):
        on = i < filled
        out.append(
            svg.rect(
                x + i * 14,
                y,
                11,
                11,
                fill=colour if on else "#fff",
                stroke=svg.INK,
                stroke_width=0.5,
                class_=cls if on else None,
            )
        )
    return out


def _station(p: Picture, s: int, x: float, y: float) -> list[str]:
    z, deck = s % 3, s // 3
    zone = p.zones[z]
    colour = ZONE_COLOURS[z]
    out = [
        svg.rect(
            x,
            y,
            COL_W,
            DECK_H,
            fill="#fff",
            stroke=colour,
            stroke_width=2,
            class_="station",
            data_station=STATION_NAMES[s],
        ),
        svg.text(x + 6, y + 15, STATION_NAMES[s], font_weight="bold", fill=colour),
    ]
    if s in p.contaminated:
        out.append(svg.text(x + COL_W - 6, y + 15, "contaminated", anchor="end", fill=svg.BAD, font_size=10))
    zc = f"zone-{zone.name}"
    if deck == 0:
        out.append(svg.text(x + 6, y + 33, "shield", font_size=11))
        out += _squares(x + 50, y + 24, zone.shield, zone.shield_cap, "#3da5d9", f"shield-energy {zc}")
        out.append(svg.text(x + 6, y + 50, f"A: heavy laser {zone.heavy_laser}", font_size=11))
        extra = {0: "C: interceptors", 1: "C: computer " + _checks(p.computer), 2: ""}[z]
        if extra:
            out.append(svg.text(x + 6, y + 65, extra, font_size=11))
    else:
        out.append(svg.text(x + 6, y + 33, "reactor", font_size=11))
        out += _squares(x + 54, y + 24, zone.reactor, zone.reactor_cap, "#e9c46a", f"reactor-energy {zc}")
        weapon = (
            f"A: light laser {zone.light_laser}",
            f"A: pulse, range {p.pulse_range}",
            f"A: light laser {zone.light_laser}",
        )[z]
        out.append(svg.text(x + 6, y + 50, weapon, font_size=11))
        if z == 1:
            out.append(svg.text(x + 6, y + 65, f"fuel {p.fuel}", font_size=11))
            out += [
                svg.rect(x + 44 + i * 14, y + 56, 11, 11, fill="#2a9d8f", class_="fuel")
                for i in range(p.fuel)
            ]
            window = ", ".join(str(v) for v in p.visual)
            out.append(
                svg.text(
                    x + COL_W - 6, y + 65, f"window: {window}", anchor="end", font_size=10, fill=svg.MUTED
                )
            )
        if z == 2:
            flying = " (one flying)" if p.rocket_flying else ""
            out.append(svg.text(x + 6, y + 65, f"C: rockets {p.rockets}{flying}", font_size=11))
            out += [
                svg.polygon(
                    [(x + 120 + i * 12, y + 66), (x + 124 + i * 12, y + 55), (x + 128 + i * 12, y + 66)],
                    fill=svg.INK,
                    class_="rocket",
                )
                for i in range(p.rockets)
            ]
    # lower row: figures (left), battlebots, intruders (right)
    row_y = y + DECK_H - 22
    fx = x + 16
    for f in p.figures:
        if f.station == s:
            out += _figure(f, fx, row_y)
            fx += 27
    for q in p.squads:
        if q.station == s:
            out.append(_squad(q, fx, row_y - 8))
            fx += 30
    ix = x + COL_W - 26
    for t in p.threats:
        if t.lane != 3 or t.status != "active":
            continue
        places = [(st, h) for st, h in t.tokens] if t.tokens else [(st, None) for st in t.stations]
        for st, h in places:
            if st == s:
                out.append(_intruder(t, ix, row_y, h))
                ix -= 46
    return out


def _checks(done: tuple[bool, ...]) -> str:
    return " ".join("✓" if d else "·" for d in done)


def _figure(f: Figure, cx: float, cy: float) -> list[str]:
    colour = "#bbb" if f.knocked_out else svg.SEAT_COLOURS[(f.number - 1) % len(svg.SEAT_COLOURS)]
    kind = "android" if f.android else "human"
    state = " knocked-out" if f.knocked_out else ""
    shape = (
        svg.rect(cx - 11, cy - 11, 22, 22, rx=3, fill=colour, stroke=svg.INK)
        if f.android
        else svg.circle(cx, cy, 11, fill=colour, stroke=svg.INK)
    )
    body = [
        svg.title(
            f"Figure {f.number}{' (android)' if f.android else ''}"
            f"{', knocked out' if f.knocked_out else ''}{', carrying battlebots' if f.squad >= 0 else ''}"
        ),
        shape,
        svg.text(cx, cy + 4, f.number, anchor="middle", font_weight="bold", fill="#fff"),
    ]
    if f.knocked_out:
        body.append(svg.line(cx - 8, cy - 8, cx + 8, cy + 8, stroke=svg.BAD, stroke_width=2))
    if f.squad >= 0:
        body.append(
            svg.text(cx, cy - 14, "BB", anchor="middle", font_size=9, font_weight="bold", fill=svg.GOOD)
        )
    return [svg.group(body, class_=f"figure {kind}{state}", data_figure=f.number)]


def _squad(q: Squad, x: float, y: float) -> str:
    fill = "#ccc" if q.disabled else svg.GOOD
    return svg.group(
        [
            svg.title(f"battlebots {q.number}{' (disabled)' if q.disabled else ''}"),
            svg.rect(x - 12, y - 2, 24, 18, rx=2, fill=fill, stroke=svg.INK),
            svg.text(x, y + 11, "BB", anchor="middle", font_size=10, font_weight="bold", fill="#fff"),
        ],
        class_="squad disabled" if q.disabled else "squad",
    )


def _intruder(t: Threat, cx: float, cy: float, token_health: int | None) -> str:
    left = token_health if token_health is not None else max(0, t.health - t.damage)
    return svg.group(
        [
            svg.title(f"{t.name} ({t.id}): strength {left} left"),
            svg.polygon(
                [(cx, cy - 14), (cx + 20, cy), (cx, cy + 14), (cx - 20, cy)],
                fill=ZONE_COLOURS[3],
                stroke=svg.INK,
            ),
            svg.text(cx, cy - 1, t.id, anchor="middle", font_size=8, fill="#fff"),
            svg.text(cx, cy + 9, f"{left}♥", anchor="middle", font_size=9, fill="#fff"),
        ],
        class_="intruder",
        data_threat=t.id,
    )


def _ship(p: Picture, y: float) -> list[str]:
    x0 = 10 + SPACE_W + 8
    out = [svg.text(10, y - 4, "the ship", font_weight="bold", fill=svg.MUTED, font_size=11)]
    out.append(svg.rect(10, y, SPACE_W, DECK_H, fill="#eef3fb", stroke=svg.LINE, stroke_dasharray="4 3"))
    out.append(svg.text(10 + SPACE_W / 2, y + 16, "space", anchor="middle", font_size=11, fill=svg.MUTED))
    out.append(
        svg.text(10 + SPACE_W / 2, y + 30, "interceptors", anchor="middle", font_size=9, fill=svg.MUTED)
    )
    fy = y + 56
    for f in p.figures:
        if f.station == SPACE:
            out += _figure(f, 10 + SPACE_W / 2, fy)
            fy += 27
    for s in range(6):
        out += _station(p, s, x0 + (s % 3) * COL_W, y + (s // 3) * (DECK_H + 4))
    # damage tiles under each zone
    ty = y + 2 * DECK_H + 4 + 18
    for z, zone in enumerate(p.zones):
        x = x0 + z * COL_W
        out.append(
            svg.text(
                x + 6,
                ty,
                f"damage {len(zone.tiles)}:",
                font_size=11,
                font_weight="bold",
                fill=svg.BAD if zone.tiles else svg.MUTED,
            )
        )
        for i, tile in enumerate(zone.tiles):
            tx = x + 80 + (i % 3) * 62
            row = i // 3
            out.append(
                svg.group(
                    [
                        svg.rect(tx, ty - 11 + row * 18, 60, 15, rx=2, fill="#fbe3e0", stroke=svg.BAD),
                        svg.text(
                            tx + 30,
                            ty + row * 18,
                            tile.replace("_", " "),
                            anchor="middle",
                            font_size=8.5,
                        ),
                    ],
                    class_=f"damage-tile zone-{zone.name}",
                )
            )
        if zone.lift_damaged:
            out.append(
                svg.text(
                    x + COL_W - 6,
                    y + DECK_H + 4 + 33,
                    "gravolift damaged",
                    anchor="end",
                    font_size=10,
                    fill=svg.BAD,
                    class_="lift-damaged",
                )
            )
    return out


def _plans(p: Picture, x: float, y: float) -> list[str]:
    out = [svg.text(x, y, "cards (turns 1-12)", font_weight="bold", fill=svg.MUTED, font_size=11)]
    cx = x + 44
    for t in range(1, 13):
        col = cx + (t - 1) * PLAN_CELL
        if t == p.turn:
            out.append(svg.rect(col, y + 4, PLAN_CELL, 20 * len(p.plans) + 16, fill="#fff3c4", class_="now"))
        out.append(svg.text(col + PLAN_CELL / 2, y + 16, t, anchor="middle", font_size=9, fill=svg.MUTED))
    for f, row in enumerate(p.plans):
        ry = y + 20 + f * 20
        out.append(
            svg.text(
                x,
                ry + 14,
                f"F{f + 1}",
                font_size=11,
                font_weight="bold",
                fill=svg.SEAT_COLOURS[f % len(svg.SEAT_COLOURS)],
            )
        )
        for t, card in enumerate(row, start=1):
            col = cx + (t - 1) * PLAN_CELL
            out.append(svg.rect(col + 1, ry + 1, PLAN_CELL - 2, 18, fill="#fff", stroke="#ddd"))
            short = card.replace("teleport ", "→").replace("upper ", "u").replace("lower ", "l")
            out.append(
                svg.text(
                    col + PLAN_CELL / 2,
                    ry + 14,
                    short,
                    anchor="middle",
                    font_size=8 if len(short) > 4 else 10,
                    fill=svg.MUTED if card == "-" else svg.INK,
                )
            )
    return out


def _threat_list(p: Picture, x: float, y: float) -> list[str]:
    out = [svg.text(x, y, "threats", font_weight="bold", fill=svg.MUTED, font_size=11)]
    for i, t in enumerate(p.threats):
        ry = y + 18 + i * 18
        left = max(0, t.health - t.damage)
        if t.status == "waiting":
            what = f"appears on turn {t.appears}"
        elif t.status == "active":
            where = f"space {t.space}"
            if t.lane == 3:
                places = [s for s, _ in t.tokens] if t.tokens else list(t.stations)
                where = "at " + (", ".join(STATION_NAMES[s] for s in places) or "?")
            what = (
                f"{left} of {t.health} left, shield {t.shield}, {where}"
                if t.lane < 3
                else f"{left} of {t.health} left, {where}"
            )
        else:
            what = t.status
        colour = ZONE_COLOURS[t.lane]
        out.append(
            svg.group(
                [
                    svg.rect(x, ry - 10, 8, 12, fill=colour),
                    svg.text(
                        x + 12,
                        ry,
                        f"{t.id} {t.name}"[:26],
                        font_size=11.5,
                        fill=svg.MUTED if t.status != "active" else svg.INK,
                    ),
                    svg.text(
                        x + 180,
                        ry,
                        what,
                        font_size=11.5,
                        fill=svg.GOOD
                        if t.status == "destroyed"
                        else svg.BAD
                        if t.status == "survived"
                        else svg.INK,
                    ),
                ],
                class_=f"threat-row {t.status}",
                data_threat=t.id,
            )
        )
    return out


def draw(p: Picture) -> str:
    """The table as SVG: the tracks, the ship, the cards and the threats of `p`."""
    out = [
        svg.text(
            10,
            22,
            _status_line(p),
            font_size=15,
            font_weight="bold",
            fill=svg.BAD if p.lost else svg.INK,
            class_="status",
        )
    ]
    for track in p.tracks:
        out += _lane(p, track, TOP + track.lane * (LANE_H + 4))
    out += _ship(p, SHIP_Y)
    below = SHIP_Y + 2 * DECK_H + 4 + 28 + 18 * max([0] + [(len(z.tiles) - 1) // 3 for z in p.zones])
    out += _plans(p, 10, below + 14)
    out += _threat_list(p, 470, below + 14)
    height = below + 14 + max(20 * len(p.plans) + 30, 18 * len(p.threats) + 26) + 6
    return svg.svg(WIDTH, height, out, label=_status_line(p))
