"""Alien Attack: USA rules as functions on `State` (legal moves and transitions, no strategy).

Sections of RULES.md are cited as [Round], [Scoring], [Destroy], [Capture], [Powers], [End].
The read-only helpers (`gain`, `destroyable`, `capture_risk_lines`...) take the plain sequences a
player's `View` carries as well, so players and the engine judge placements the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from simkit.games.alien_attack.components import Board, points
from simkit.games.alien_attack.state import BASE, EMPTY, LOST, State

# --- reading a position (works on State lists or View tuples) ---------------------------------


def herd_group(board: Board, cell: Sequence[int], p: int, s: int) -> int:
    """Size of seat p's connected group inside s's herd region if p had a disc on s (s counted)."""
    size, seen, stack = 1, [s], [s]
    nbrs = board.herd_nbrs
    while stack:
        for t in nbrs[stack.pop()]:
            if cell[t] == p and t not in seen:
                seen.append(t)
                stack.append(t)
                size += 1
    return size


def destroyable(board: Board, cell: Sequence[int], s: int) -> list[int]:
    """[Destroy] The bases a disc placed on s would destroy: a base next to s with a disc of any
    colour, or a Canada icon, directly behind it on the same line."""
    return [n1 for n1, n2 in board.lines[s] if cell[n1] == BASE and cell[n2] >= 0]


def gain(board: Board, cell: Sequence[int], city_cnt: Sequence[int], p: int, s: int) -> tuple[int, int, bool]:
    """What placing one of seat p's discs on s would bring at once: (points from cities and herds,
    bases destroyed, whether it is a National Park). Nothing is changed."""
    pts = 0
    value = board.city_value
    for ci in board.space_cities[s]:
        if city_cnt[ci] >= 1:
            pts += value[ci]
    if board.herd_region[s] >= 0:
        pts += 2 * herd_group(board, cell, p, s)
    n_destroyed = 0
    for n1, n2 in board.lines[s]:
        if cell[n1] == BASE and cell[n2] >= 0:
            n_destroyed += 1
    return pts, n_destroyed, board.park[s]


def neighborhood_targets(board: Board, cell: Sequence[int], p: int) -> list[int]:
    """[Powers] Bases adjacent to any disc of seat p (the targets of Neighborhood), ascending."""
    nbrs = board.neighbors
    return [s for s in range(1, board.n + 1) if cell[s] == BASE and any(cell[t] == p for t in nbrs[s])]


def is_neighborhood_target(board: Board, cell: Sequence[int], p: int, s: int) -> bool:
    return 1 <= s <= board.n and cell[s] == BASE and any(cell[t] == p for t in board.neighbors[s])


def captures_on_flip(board: Board, cell: Sequence[int], s: int) -> list[int]:
    """[Capture] Discs that a base on s traps against another base on one line (base - disc - base)."""
    return [n1 for n1, n2 in board.lines[s] if 0 <= cell[n1] < 4 and cell[n2] == BASE]


# --- transitions ------------------------------------------------------------------------------


def place(st: State, p: int, s: int) -> tuple[int, list[int], bool, list[int]]:
    """[Scoring] Seat p puts a disc on s (the caller checked that this is allowed) and scores it:
    cities (the 2nd and every later disc of p touching a city scores its value), herds (2 x p's
    connected group in the region), a National Park marker, and every base it destroys [Destroy].
    Returns (points, cities that scored, park taken, bases destroyed)."""
    board, cell = st.board, st.cell
    cell[s] = p
    st.discs[p] -= 1
    st.placed[p] += 1
    pts = 0
    scored = []
    cc = st.city_cnt[p]
    value = board.city_value
    for ci in board.space_cities[s]:
        cc[ci] += 1
        if cc[ci] >= 2:
            pts += value[ci]
            scored.append(ci)
    if board.herd_region[s] >= 0:
        pts += 2 * herd_group(board, cell, p, s)
    park = False
    if board.park[s] and st.park_markers > 0:
        st.park_markers -= 1
        st.parks[p] += 1
        park = True
    destroyed = [n1 for n1, n2 in board.lines[s] if cell[n1] == BASE and cell[n2] >= 0]
    for b in destroyed:
        cell[b] = EMPTY
    st.bases[p] += len(destroyed)
    st.score[p] += pts
    return pts, scored, park, destroyed


def remove_disc(st: State, s: int) -> int:
    """[Capture] The disc on s leaves the game (its points stay scored); returns its owner."""
    owner = st.cell[s]
    st.cell[s] = LOST
    cc = st.city_cnt[owner]
    for ci in st.board.space_cities[s]:
        cc[ci] -= 1
    st.captured[owner] += 1
    return owner


def destroy_for_neighborhood(st: State, p: int, s: int) -> None:
    """[Powers] Neighborhood: the base on s is destroyed and kept by p (a disc goes on it next)."""
    st.cell[s] = EMPTY
    st.bases[p] += 1


# --- end of game [End] --------------------------------------------------------------------------


def largest_group(board: Board, cell: Sequence[int], p: int) -> int:
    """Territorial Expansion: the most discs of p connected through spaces holding p's discs."""
    best = 0
    seen = set()
    nbrs = board.neighbors
    for s in range(1, board.n + 1):
        if cell[s] != p or s in seen:
            continue
        seen.add(s)
        stack, size = [s], 1
        while stack:
            for t in nbrs[stack.pop()]:
                if cell[t] == p and t not in seen:
                    seen.add(t)
                    stack.append(t)
                    size += 1
        best = max(best, size)
    return best


def mission_counts(
    board: Board, cell: Sequence[int], city_cnt: Sequence[int], p: int, city_card: int, border_card: str
) -> dict[str, int]:
    """The counts the mission cards score for seat p (not the points)."""
    touched = [ci for ci, n in enumerate(city_cnt) if n > 0]
    own_border = board.borders[border_card]
    other_border = 0
    herds = 0
    on_card_border = 0
    for s in range(1, board.n + 1):
        if cell[s] != p:
            continue
        if s in own_border:
            on_card_border += 1
        elif board.border_mask[s]:
            other_border += 1
        if board.herd_region[s] >= 0:
            herds += 1
    value = board.city_value
    return {
        "city_cards": sum(1 for ci in touched if value[ci] == city_card),
        "border_discs": on_card_border,
        "largest_group": largest_group(board, cell, p),
        "value1_cities": sum(1 for ci in touched if value[ci] == 1),
        "herd_spaces": herds,
        "other_border_spaces": other_border,
        "best_city": max((value[ci] for ci in touched), default=0),
    }


def mission_points(
    board: Board, counts: dict[str, int], parks: int, bases: int, city_card: int, border_card: str
) -> dict[str, int]:
    """[End] Points of the two own missions and the four Global cards from the counts."""
    protection = (
        counts["value1_cities"] >= board.protection_value1
        and counts["herd_spaces"] >= board.protection_herds
        and counts["other_border_spaces"] >= board.protection_borders
    )
    return {
        "city_mission": points(board.city_tables[city_card], counts["city_cards"]),
        "border_mission": points(board.border_tables[border_card], counts["border_discs"]),
        "parks": points(board.parks_table, parks),
        "bases": points(board.bases_table, bases),
        "territory": points(board.territory_table, counts["largest_group"]),
        "protection": board.protection_points if protection else 0,
    }


def final_scores(st: State) -> list[dict[str, int]]:
    """Each seat's final breakdown: placement points, mission points, counts and total."""
    out = []
    for p in range(st.players):
        counts = mission_counts(st.board, st.cell, st.city_cnt[p], p, st.city_card[p], st.border_card[p])
        pts = mission_points(st.board, counts, st.parks[p], st.bases[p], st.city_card[p], st.border_card[p])
        total = st.score[p] + sum(pts.values())
        out.append({"placement_points": st.score[p], **pts, "total": total, **counts})
    return out


def winners(totals: Sequence[int], best_city: Sequence[int]) -> list[int]:
    """[End] Most points; a tie goes to the higher best city value touched; still tied: all win."""
    top = max(totals)
    tied = [p for p, t in enumerate(totals) if t == top]
    best = max(best_city[p] for p in tied)
    return [p for p in tied if best_city[p] == best]
