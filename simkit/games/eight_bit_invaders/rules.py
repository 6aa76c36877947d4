"""8-Bit Invaders rules as pure functions over the column formation (see state.py).

No strategy here: what is legal and what happens. Rulebook sections are cited as [A3] (Allocate
the attack), [B1] (Counterattack) and so on; RULINGS §3 settles what the rulebook leaves open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from simkit.games.eight_bit_invaders.components import PAIR, Alien
from simkit.games.eight_bit_invaders.state import EMPTY

Placement = tuple[tuple[int, int, int], ...]  # (die index, column, row) for each placed die


# --- formation ---------------------------------------------------------------------------------


def column_count(cols: Sequence[Sequence[int]]) -> int:
    """The number of columns is the number of non-empty columns (RULINGS §3)."""
    n = 0
    for col in cols:
        for a in col:
            if a != EMPTY:
                n += 1
                break
    return n


def bottom_rows(col: Sequence[int], k: int) -> list[int]:
    """Rows of the bottom k aliens of a column, lowest first, skipping empty spaces."""
    out = []
    for r, a in enumerate(col):
        if a != EMPTY:
            out.append(r)
            if len(out) == k:
                break
    return out


def firing_depth(columns: int) -> int:
    """[B1]: 5+ columns -> the bottom alien fires; 3-4 -> the bottom 2; 1-2 -> the bottom 3."""
    return 1 if columns >= 5 else 2 if columns >= 3 else 3


def firing_positions(cols: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """(column, row) of every alien that fires in the counterattack."""
    depth = firing_depth(column_count(cols))
    return [(c, r) for c, col in enumerate(cols) for r in bottom_rows(col, depth)]


class Formation:
    """The formation seen through a kill mask (bit c * rows + r: an alien counted as gone), so the
    rules of the alien actions can be applied to the outcome of many plans without copying it."""

    def __init__(self, cols: Sequence[Sequence[int]], aliens: Sequence[Alien]) -> None:
        self.cols = cols
        self.aliens = aliens
        self.nrows = len(cols[0]) if cols else 0

    def living(self, removed: int = 0) -> list[tuple[int, list[int]]]:
        """(column, its aliens bottom-up) for every column still holding one."""
        out = []
        nrows = self.nrows
        for c, col in enumerate(self.cols):
            if removed >> (c * nrows) & ((1 << nrows) - 1):
                base = c * nrows
                alive = [a for r, a in enumerate(col) if a != EMPTY and not removed >> (base + r) & 1]
            else:
                alive = [a for a in col if a != EMPTY]
            if alive:
                out.append((c, alive))
        return out


def type_counts(
    living: list[tuple[int, list[int]]], shields: Sequence[int], aliens: Sequence[Alien], n_types: int
) -> list[int]:
    """[B1] Unshielded firing aliens of each picture type: with 5+ columns the bottom alien of each
    column fires, with 3-4 the bottom 2, with 1-2 the bottom 3; a shield covers its column."""
    depth = firing_depth(len(living))
    out = [0] * n_types
    for c, alive in living:
        if c not in shields:
            for a in alive[:depth]:
                out[aliens[a].type] += 1
    return out


def unshielded_type_counts(
    cols: Sequence[Sequence[int]], shields: Sequence[int], aliens: Sequence[Alien], n_types: int
) -> list[int]:
    """How many unshielded firing aliens of each picture type there are."""
    return type_counts(Formation(cols, aliens).living(), shields, aliens, n_types)


def is_lethal(
    cols: Sequence[Sequence[int]], shields: Sequence[int], aliens: Sequence[Alien], n_types: int
) -> bool:
    """[B1]: three or more unshielded firing aliens of one type destroy the ship."""
    return max(unshielded_type_counts(cols, shields, aliens, n_types)) >= 3


def bombers_over(
    living: list[tuple[int, list[int]]], shields: Sequence[int], aliens: Sequence[Alien]
) -> list[int]:
    """[B2]: shields under a column whose bottom alien is a heavy bomber."""
    return [c for c, alive in living if c in shields and aliens[alive[0]].bomber]


def bombed_shields(
    cols: Sequence[Sequence[int]], shields: Sequence[int], aliens: Sequence[Alien]
) -> list[int]:
    return bombers_over(Formation(cols, aliens).living(), shields, aliens)


def shift_shields(shields: Sequence[int], first: int, last: int, odd: bool) -> list[int]:
    """[B3.3]: even -> one column left, odd -> one right; all together, and not at all if the
    outermost shield would pass the outermost non-empty column (`first`, `last`) on that side."""
    if not shields:
        return []
    if odd:
        return list(shields) if shields[-1] + 1 > last else [s + 1 for s in shields]
    return list(shields) if shields[0] - 1 < first else [s - 1 for s in shields]


def moved_shields(shields: Sequence[int], cols: Sequence[Sequence[int]], odd: bool) -> list[int]:
    occupied = [c for c, col in enumerate(cols) if any(a != EMPTY for a in col)]
    if not occupied:
        return list(shields)
    return shift_shields(shields, occupied[0], occupied[-1], odd)


def movement_sum(dice: Sequence[int]) -> int:
    """[B3]: subtract one from each movement die and add them."""
    return sum(d - 1 for d in dice)


# --- attack ------------------------------------------------------------------------------------


def matches(alien: Alien, values: Sequence[int]) -> bool:
    """[A4] exact kill: a pair card takes exactly its two faces; a sum card dice totalling N."""
    if alien.kind == PAIR:
        return len(values) == 2 and min(values) == alien.a and max(values) == alien.b
    return sum(values) == alien.a


def placement_error(
    cols: Sequence[Sequence[int]], shields: Sequence[int], dice: Sequence[int], placement: Placement
) -> str | None:
    """Why a placement breaks [A3], or None if it is legal.

    A set of dice positions is legal when some unblocked column c has its bottom alien diced, the
    diced aliens of c are a run upward from the bottom (empty spaces skipped), and every diced
    alien of column c-1 or c+1 has either its same-row neighbour in c diced or the nearest alien
    below it diced. The rule only ever enables more squares as dice go down, so a set is legal
    exactly when some order of placing it is.
    """
    if not placement:
        return None
    used = set()
    diced: set[tuple[int, int]] = set()
    ncols, nrows = len(cols), len(cols[0])
    for entry in placement:
        if len(entry) != 3:
            return f"malformed placement entry {entry!r}"
        i, c, r = entry
        if not (0 <= i < len(dice)):
            return f"die index {i} out of range"
        if i in used:
            return f"die {i} placed twice"
        used.add(i)
        if not (0 <= c < ncols and 0 <= r < nrows) or cols[c][r] == EMPTY:
            return f"die {i} is not on an alien (column {c + 1}, row {nrows - r} from the top)"
        diced.add((c, r))
    for c in {c for c, _ in diced}:
        if c in shields:
            continue
        rows_c = [r for r, a in enumerate(cols[c]) if a != EMPTY]
        diced_c = sorted(r for cc, r in diced if cc == c)
        if diced_c != rows_c[: len(diced_c)]:
            continue  # column c's dice are not a run from its bottom alien
        ok = True
        for cc, r in diced:
            if cc == c:
                continue
            if abs(cc - c) != 1:
                ok = False
                break
            if (c, r) in diced:
                continue
            below = [rr for rr in range(r) if cols[cc][rr] != EMPTY]
            if not below or (cc, below[-1]) not in diced:
                ok = False
                break
        if ok:
            return None
    return "no unblocked column has its bottom alien diced with every other die connected to it"


def kills(
    cols: Sequence[Sequence[int]], aliens: Sequence[Alien], dice: Sequence[int], placement: Placement
) -> list[tuple[int, int]]:
    """Positions whose dice match their alien exactly (the placement must be legal)."""
    on: dict[tuple[int, int], list[int]] = {}
    for i, c, r in placement:
        on.setdefault((c, r), []).append(dice[i])
    return sorted(pos for pos, values in on.items() if matches(aliens[cols[pos[0]][pos[1]]], values))


# --- enumerating what an attack can kill ----------------------------------------------------------


def _sub_multisets(counts: tuple[int, ...], total: int) -> list[tuple[int, ...]]:
    """Every non-empty sub-multiset of the dice (counts by face 1-6) with the given total, as a
    tuple of the values used."""
    out: list[tuple[int, ...]] = []

    def walk(face: int, left: int, chosen: tuple[int, ...]) -> None:
        if left == 0:
            if chosen:
                out.append(chosen)
            return
        if face == 0:
            return
        for k in range(min(counts[face], left // face), -1, -1):
            walk(face - 1, left - k * face, chosen + (face,) * k)

    walk(6, total, ())
    return out


def kill_options(
    counts: tuple[int, ...], alien: Alien
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Ways to kill `alien` from dice `counts` (index = face): (counts left, values used) pairs.
    Memoised on the alien (`Alien.options`): a pure function of a few small ints."""
    hit = alien.options.get(counts)
    if hit is None:
        hit = alien.options[counts] = _compute_options(counts, alien)
    return hit


def _compute_options(counts: tuple[int, ...], alien: Alien) -> tuple:
    if alien.kind == PAIR:
        found = [(alien.a, alien.b)] if counts[alien.a] and counts[alien.b] else []
    else:
        found = _sub_multisets(counts, alien.a)
    result = []
    for used in found:
        left = list(counts)
        for v in used:
            left[v] -= 1
        result.append((tuple(left), used))
    return tuple(result)


def _candidates(
    cols: Sequence[Sequence[int]], c: int, aliens: Sequence[Alien]
) -> tuple[list[tuple], list[int]]:
    """The aliens a chain started at column c's bottom alien can reach, in an order where each
    one's way in comes first: row by row from the bottom, column c before its two sides.

    Each candidate is (mask bit, column, row, option memo, need mask, alien); `need` holds the
    candidates any one of which, once diced, makes it placeable (0 for the start). Returns the
    candidates and, for each, the mask of candidates that depend on it.
    """
    ncols, nrows = len(cols), len(cols[0])
    cand: list[tuple] = []
    dependents: list[int] = []
    # nearest candidate below, per column of the window: -1 none yet, -2 cut (an unreachable alien)
    below_l = below_c = below_r = -1
    colc = cols[c]
    coll = cols[c - 1] if c > 0 else None
    colr = cols[c + 1] if c + 1 < ncols else None
    for r in range(nrows):
        here = -1
        a = colc[r]
        if a != EMPTY:
            here = len(cand)
            need = 0 if below_c == -1 else 1 << below_c
            if below_c >= 0:
                dependents[below_c] |= 1 << here
            cand.append((1 << (c * nrows + r), c, r, aliens[a].options, need, aliens[a]))
            dependents.append(0)
            below_c = here
        for side, col in ((c - 1, coll), (c + 1, colr)):
            if col is None or col[r] == EMPTY:
                continue
            prev = below_l if side < c else below_r
            if here < 0 and prev < 0:
                new = -2  # no way in: it also cuts the vertical chain above it
            else:
                new = len(cand)
                need = 0
                if here >= 0:
                    need |= 1 << here
                    dependents[here] |= 1 << new
                if prev >= 0:
                    need |= 1 << prev
                    dependents[prev] |= 1 << new
                a = col[r]
                cand.append((1 << (side * nrows + r), side, r, aliens[a].options, need, aliens[a]))
                dependents.append(0)
            if side < c:
                below_l = new
            else:
                below_r = new
    return cand, dependents


def _walk_window(
    cand: list[tuple],
    dependents: list[int],
    counts0: tuple[int, ...],
    ndice: int,
    min_need: int,
    target: int,
    on_plan: Callable[[int, int, list], bool],
) -> bool:
    """Every plan of one window (a chain started at one column's bottom alien) that can still
    reach `target` kills: `on_plan(kill mask, kills, path)` sees each plan with no pending
    stepping stone; it returns True to stop the search, and then so does this function."""
    # A stepping stone stays "pending" until a later diced candidate needs it; once the search has
    # passed its last dependent it never can be, and the branch is dropped (the same kills
    # without that stone are found anyway).
    last_dep = [d.bit_length() - 1 for d in dependents]
    path: list[tuple] = []

    def walk(
        lo: int, open_: int, counts: tuple, total: int, stones: int, pending: int, killed: int, nkilled: int
    ) -> bool:
        """Extend the plan by one more diced candidate, in index order, so each plan is built
        once. True = stop searching."""
        if not pending and nkilled >= target and on_plan(killed, nkilled, path):
            return True
        free = total - stones
        if free < min_need or nkilled + free // min_need < target:
            return False
        todo = open_ >> lo << lo
        while todo:
            low = todo & -todo
            todo ^= low
            j = low.bit_length() - 1
            if pending:
                p = pending
                while p:
                    if last_dep[(p & -p).bit_length() - 1] < j:
                        return False
                    p &= p - 1
            bit, cc, r, memo, need, alien = cand[j]
            now_open = open_ | dependents[j]
            justified = pending & ~need
            options = memo.get(counts)
            if options is None:
                options = memo[counts] = _compute_options(counts, alien)
            for left, used in options:
                rest = total - len(used)
                # the child's own bound, checked here to spare the call
                if rest >= stones and nkilled + 1 + (rest - stones) // min_need >= target:
                    path.append((cc, r, used))
                    if walk(j + 1, now_open, left, rest, stones, justified, killed | bit, nkilled + 1):
                        return True
                    path.pop()
            if dependents[j] and free - 1 >= min_need and nkilled + (free - 1) // min_need >= target:
                path.append((cc, r, None))
                if walk(j + 1, now_open, counts, total, stones + 1, justified | low, killed, nkilled):
                    return True
                path.pop()
            if not need:
                return False  # column c's bottom alien starts every chain: nothing without it
        return False

    return walk(0, 1, counts0, ndice, 0, 0, 0, 0)


def kill_plans(
    cols: Sequence[Sequence[int]],
    shields: Sequence[int],
    dice: Sequence[int],
    aliens: Sequence[Alien],
    best_only: bool = False,
    acceptable: Callable[[int], bool] | None = None,
) -> dict[int, tuple]:
    """The distinct sets of kills the dice can make, each with one way to make it.

    Returns {kill mask: witness}; bit `c * rows + r` of the mask is the alien at (c, r); the
    witness is a tuple of (column, row, values used) with `None` values for a "stepping stone" die
    that kills nothing but lets the chain reach further. The empty plan (mask 0) is always there.
    Turn a witness into dice with `witness_placement`.

    With `best_only`, the result is one plan with the most kills (plus the empty plan). If
    `acceptable` is given (a test of a kill mask), among plans with the most kills an acceptable
    one is preferred. The search deepens downward: first only plans that could make the most
    kills the dice allow are followed (every other branch is cut at once), then one kill fewer,
    and so on; the first pass that finds a plan answers. Windows are tried by their bound (most
    first, then left to right) and each window's candidates bottom row first, so among equal
    plans the first found is near the most targets and kills the lowest aliens.
    """
    counts_l = [0] * 7
    for d in dice:
        counts_l[d] += 1
    counts0 = tuple(counts_l)
    ndice = len(dice)
    # One pass over the formation: each column's bottom alien (where a chain starts), the fewest
    # dice any alien needs (bounds the kills left) and, for best_only, how many aliens per column
    # these dice could kill on their own.
    min_need = 6
    killable = [0] * len(cols)
    bottoms = [EMPTY] * len(cols)
    for c, col in enumerate(cols):
        n = 0
        for a in col:
            if a != EMPTY:
                if bottoms[c] == EMPTY:
                    bottoms[c] = a
                alien = aliens[a]
                if alien.need < min_need:
                    min_need = alien.need
                if best_only:
                    options = alien.options.get(counts0)
                    if options is None:
                        options = kill_options(counts0, alien)
                    if options:
                        n += 1
        killable[c] = n
    starts = [c for c, a in enumerate(bottoms) if a != EMPTY and c not in shields]
    if ndice == 0 or not starts:
        return {0: ()}

    if not best_only:
        plans: dict[int, tuple] = {0: ()}

        def record(killed: int, nkilled: int, path: list) -> bool:
            if killed not in plans:
                plans[killed] = tuple(path)
            return False

        for c in starts:
            _walk_window(*_candidates(cols, c, aliens), counts0, ndice, min_need, 0, record)
        return plans

    # A bound on each window's kills: its killable aliens, and the dice; when the bottom alien of
    # column c (every chain's first die) cannot be killed, one die is a stepping stone.
    reach = {}
    for c in starts:
        dice_left = ndice if kill_options(counts0, aliens[bottoms[c]]) else ndice - 1
        reach[c] = min(sum(killable[max(c - 1, 0) : c + 2]), dice_left // min_need)
    starts.sort(key=lambda c: -reach[c])
    windows: dict[int, tuple] = {}
    found: list = [None, None]  # the first acceptable plan of this pass, the first plan of it

    for target in range(reach[starts[0]], 0, -1):

        def keep(killed: int, nkilled: int, path: list) -> bool:
            if acceptable is None or acceptable(killed):
                found[0] = (killed, tuple(path))
                return True
            if found[1] is None:
                found[1] = (killed, tuple(path))
            return False

        for c in starts:
            if reach[c] < target:
                break
            if c not in windows:
                windows[c] = _candidates(cols, c, aliens)
            if _walk_window(*windows[c], counts0, ndice, min_need, target, keep):
                break
        plan = found[0] or found[1]
        if plan is not None:
            return {0: (), plan[0]: plan[1]}
    return {0: ()}


def witness_placement(witness: tuple, dice: Sequence[int]) -> Placement:
    """Turn a kill_plans witness into concrete (die index, column, row) triples."""
    free: dict[int, list[int]] = {}
    for i, d in enumerate(dice):
        free.setdefault(d, []).append(i)
    out = []
    stones = []
    for c, r, used in witness:
        if used is None:
            stones.append((c, r))
            continue
        for v in used:
            out.append((free[v].pop(), c, r))
    spare = sorted(i for idx in free.values() for i in idx)
    for (c, r), i in zip(stones, spare, strict=False):
        out.append((i, c, r))
    return tuple(sorted(out))
