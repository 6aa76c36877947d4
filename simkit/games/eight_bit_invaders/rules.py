"""8-Bit Invaders rules as pure functions over the column formation (see state.py).

No strategy here: what is legal and what happens. Rulebook sections are cited as [A3] (Allocate
the attack), [B1] (Counterattack) and so on; RULINGS §3 settles what the rulebook leaves open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from simkit.games.eight_bit_invaders.components import OPTION_MEMOS, PAIR, Alien
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
    rules of the alien actions can be applied to the outcome of many plans without copying it.
    `cache` (a `ColumnCache` kept for one game) only saves work."""

    def __init__(
        self, cols: Sequence[Sequence[int]], aliens: Sequence[Alien], cache: ColumnCache | None = None
    ) -> None:
        self.cols = cols
        self.aliens = aliens
        self.nrows = len(cols[0]) if cols else 0
        self.cache = cache
        self._types: list[tuple[int, list[int]]] | None = None  # (column, types) with none removed

    def living(self, removed: int = 0) -> list[tuple[int, list[int]]]:
        """(column, its aliens bottom-up) for every column still holding one."""
        out = []
        nrows = self.nrows
        for c, col in enumerate(self.cols):
            if removed >> (c * nrows) & ((1 << nrows) - 1):
                base = c * nrows
                alive = [a for r, a in enumerate(col) if a != EMPTY and not removed >> (base + r) & 1]
            else:
                alive = list(col) if EMPTY not in col else [a for a in col if a != EMPTY]
            if alive:
                out.append((c, alive))
        return out

    def is_lethal(self, removed: int, shields: Sequence[int], n_types: int) -> bool:
        """[B1] after the kills in `removed`: `max(type_counts(self.living(removed), ...)) >= 3`,
        counted on the picture types directly."""
        if self._types is None:
            info = (self.cache or ColumnCache()).info
            aliens = self.aliens
            self._types = []
            for c, col in enumerate(self.cols):
                types = info(col, aliens)[4]
                if types:
                    self._types.append((c, types))
        firing = self._types
        if removed:
            firing = []
            nrows = self.nrows
            full = (1 << nrows) - 1
            aliens = self.aliens
            for c, types in self._types:
                if removed >> (c * nrows) & full:
                    base = c * nrows
                    types = [
                        aliens[a].type
                        for r, a in enumerate(self.cols[c])
                        if a != EMPTY and not removed >> (base + r) & 1
                    ]
                    if not types:
                        continue
                firing.append((c, types))
        depth = firing_depth(len(firing))
        counts = [0] * n_types
        for c, types in firing:
            if c not in shields:
                for t in types[:depth]:
                    counts[t] += 1
        return max(counts) >= 3


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


def shields_move_right(dice: Sequence[int]) -> bool:
    """[B3.3]: "if the roll was even" reads the faces rolled (RULINGS §3): an odd sum of the faces
    moves the shields right. With two dice this is the parity of the track's advance; with Rocket
    Fuel's one die it is the face itself (a 3 moves them right), not the face less one."""
    return sum(dice) % 2 == 1


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
    Memoised per requirement (`components.OPTION_MEMOS`): a pure function of a few small ints."""
    memo = OPTION_MEMOS[alien.memo]
    hit = memo.get(counts)
    if hit is None:
        hit = memo[counts] = _compute_options(counts, alien)
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


# A window is the part of the formation a chain started at column c's bottom alien can reach:
# columns c-1, c and c+1. Its shape (which candidates, in which order, which one opens which)
# depends only on which spaces of those columns hold an alien, so shapes are remembered by that
# occupancy; the aliens themselves are looked up for each search.
_SHAPES: dict[tuple[int, int, int, int, int], tuple] = {}
_SHAPES_MAX = 20_000  # about 1 kB each: a bound on memory (a long run sees ~20k shapes by 4000 games)


def _window_shape(c: int, occ_l: int, occ_c: int, occ_r: int, nrows: int) -> tuple:
    """The candidates of the window at column c (bit r of occ_* set: row r of column c-1, c, c+1
    holds an alien; 0 for a column that does not exist), in an order where each one's way in comes
    first: row by row from the bottom, column c before its two sides.

    Returns (candidates, dependents, last_dep, stone_able): each candidate is (mask bit, column,
    row, need), `need` the mask of candidates any one of which, once diced, makes it placeable (0
    for the start); per candidate the mask of candidates that depend on it and the index of its
    last dependent (-1: none); and the mask of candidates with dependents (only those can be
    stepping stones).
    """
    key = (c, occ_l, occ_c, occ_r, nrows)
    shape = _SHAPES.get(key)
    if shape is not None:
        return shape
    positions: list[tuple[int, int]] = []
    needs: list[int] = []
    dependents: list[int] = []
    # nearest candidate below, per column of the window: -1 none yet, -2 cut (an unreachable alien)
    below_l = below_c = below_r = -1
    for r in range(nrows):
        here = -1
        if occ_c >> r & 1:
            here = len(positions)
            if below_c >= 0:
                dependents[below_c] |= 1 << here
            positions.append((c, r))
            needs.append(0 if below_c == -1 else 1 << below_c)
            dependents.append(0)
            below_c = here
        for side, occ in ((c - 1, occ_l), (c + 1, occ_r)):
            if not occ >> r & 1:
                continue
            prev = below_l if side < c else below_r
            if here < 0 and prev < 0:
                new = -2  # no way in: it also cuts the vertical chain above it
            else:
                new = len(positions)
                need = 0
                if here >= 0:
                    need |= 1 << here
                    dependents[here] |= 1 << new
                if prev >= 0:
                    need |= 1 << prev
                    dependents[prev] |= 1 << new
                positions.append((side, r))
                needs.append(need)
                dependents.append(0)
            if side < c:
                below_l = new
            else:
                below_r = new
    stone_able = 0
    for j, d in enumerate(dependents):
        if d:
            stone_able |= 1 << j
    cand = tuple((1 << (cc * nrows + r), cc, r, needs[j]) for j, (cc, r) in enumerate(positions))
    shape = (cand, tuple(dependents), tuple(d.bit_length() - 1 for d in dependents), stone_able)
    if len(_SHAPES) >= _SHAPES_MAX:
        _SHAPES.clear()
    _SHAPES[key] = shape
    return shape


def _window(cols: Sequence[Sequence[int]], c: int, occupancy: Sequence[int], can_kill: int) -> tuple:
    """The window at column c ready for `_walk_window`: its shape and `killable`, the mask of
    candidates whose alien is in `can_kill` (a mask of alien indices: those these dice could kill
    on their own)."""
    shape = _window_shape(
        c,
        occupancy[c - 1] if c > 0 else 0,
        occupancy[c],
        occupancy[c + 1] if c + 1 < len(cols) else 0,
        len(cols[0]),
    )
    killable = 0
    j = 1
    for _, cc, r, _ in shape[0]:
        if can_kill >> cols[cc][r] & 1:
            killable |= j
        j <<= 1
    return shape, killable


def _walk_window(
    window: tuple,
    cols: Sequence[Sequence[int]],
    aliens: Sequence[Alien],
    counts0: tuple[int, ...],
    ndice: int,
    min_need: int,
    target: int,
    on_plan: Callable[[int, int, list], bool],
) -> bool:
    """Every plan of one window (a chain started at one column's bottom alien) that can still
    reach `target` kills: `on_plan(kill mask, kills, path)` sees each plan with no pending
    stepping stone; it returns True to stop the search, and then so does this function."""
    (cand, dependents, last_dep, stone_able), killable = window
    useful = killable | stone_able
    nothing_pending = len(cand)  # the deadline when no stone is pending
    path: list[tuple] = []
    memos = OPTION_MEMOS

    # A stepping stone stays "pending" until a later diced candidate needs it; once the search has
    # passed its last dependent it never can be, and the branch is dropped (the same kills without
    # that stone are found anyway). `deadline` is the earliest last dependent of a pending stone.
    def walk(
        lo: int,
        open_: int,
        counts: tuple,
        total: int,
        stones: int,
        pending: int,
        deadline: int,
        killed: int,
        nkilled: int,
    ) -> bool:
        """Extend the plan by one more diced candidate, in index order, so each plan is built
        once. True = stop searching."""
        if not pending and nkilled >= target and on_plan(killed, nkilled, path):
            return True
        free = total - stones
        if free < min_need or nkilled + free // min_need < target:
            return False
        # A stone is worth trying only if a kill can still follow it (same test for every j).
        stone_ok = free - 1 >= min_need and nkilled + (free - 1) // min_need >= target
        # Candidates that could do nothing here (not killable by these dice, and not a stone) are
        # skipped: their turn in the loop would make no plan. Only candidate 0 is open at the
        # root, so every chain starts on column c's bottom alien.
        todo = (open_ >> lo << lo) & (useful if stone_ok else killable)
        while todo:
            low = todo & -todo
            todo ^= low
            j = low.bit_length() - 1
            if j > deadline:
                return False
            bit, cc, r, need = cand[j]
            now_open = open_ | dependents[j]
            justified = pending & ~need
            after = deadline
            if justified != pending:
                after = nothing_pending
                p = justified
                while p:
                    after = min(after, last_dep[(p & -p).bit_length() - 1])
                    p &= p - 1
            if low & killable:
                alien = aliens[cols[cc][r]]
                memo = memos[alien.memo]
                options = memo.get(counts)
                if options is None:
                    options = memo[counts] = _compute_options(counts, alien)
                for left, used in options:
                    rest = total - len(used)
                    # the child's own bound, checked here to spare the call
                    if rest >= stones and nkilled + 1 + (rest - stones) // min_need >= target:
                        path.append((cc, r, used))
                        if walk(
                            j + 1, now_open, left, rest, stones, justified, after, killed | bit, nkilled + 1
                        ):
                            return True
                        path.pop()
            if stone_ok and low & stone_able:
                path.append((cc, r, None))
                if walk(
                    j + 1,
                    now_open,
                    counts,
                    total,
                    stones + 1,
                    justified | low,
                    min(after, last_dep[j]),
                    killed,
                    nkilled,
                ):
                    return True
                path.pop()
        return False

    return walk(0, 1, counts0, ndice, 0, 0, nothing_pending, 0, 0)


class ColumnCache:
    """What the rules derive from a single column, kept by a caller across the turns of one game
    (with one component set): the formation changes little from turn to turn, so most columns come
    back unchanged. Keyed by the column's contents (a tuple), so a changed column never meets a
    stale entry. Used by `kill_plans` and `Formation`; it only saves work."""

    __slots__ = ("columns",)

    def __init__(self) -> None:
        self.columns: dict[tuple[int, ...], tuple] = {}

    def info(self, col: Sequence[int], aliens: Sequence[Alien]) -> tuple:
        key = col if type(col) is tuple else tuple(col)
        info = self.columns.get(key)
        if info is None:
            info = self.columns[key] = _column_info(col, aliens)
        return info


def _column_info(col: Sequence[int], aliens: Sequence[Alien]) -> tuple[int, int, int, int, list[int]]:
    """(bottom alien or EMPTY, mask of the alien indices in the column, fewest dice any needs,
    occupancy: bit r set when row r holds an alien, picture types of its aliens bottom-up)."""
    bottom, mask, need, occ = EMPTY, 0, 6, 0
    types = []
    for r, a in enumerate(col):
        if a != EMPTY:
            if bottom == EMPTY:
                bottom = a
            mask |= 1 << a
            need = min(need, aliens[a].need)
            occ |= 1 << r
            types.append(aliens[a].type)
    return bottom, mask, need, occ, types


# Per component set (a tuple of aliens, by identity) and roll (dice counts): the mask of alien
# indices the roll could kill on its own. Few rolls exist (462 of six dice), so this stays small.
_KILLABLE: dict[int, tuple[Sequence[Alien], dict[tuple[int, ...], int]]] = {}


def killable_mask(counts: tuple[int, ...], aliens: Sequence[Alien]) -> int:
    """Bit a set for every alien index a that the dice `counts` (index = face) could kill alone."""
    entry = _KILLABLE.get(id(aliens))
    if entry is None or entry[0] is not aliens:
        if type(aliens) is not tuple:  # only an immutable set of aliens can be remembered
            return _killable_mask(counts, aliens)
        entry = _KILLABLE[id(aliens)] = (aliens, {})
    mask = entry[1].get(counts)
    if mask is None:
        mask = entry[1][counts] = _killable_mask(counts, aliens)
    return mask


def _killable_mask(counts: tuple[int, ...], aliens: Sequence[Alien]) -> int:
    mask = 0
    for a, alien in enumerate(aliens):
        if kill_options(counts, alien):
            mask |= 1 << a
    return mask


def kill_plans(
    cols: Sequence[Sequence[int]],
    shields: Sequence[int],
    dice: Sequence[int],
    aliens: Sequence[Alien],
    best_only: bool = False,
    acceptable: Callable[[int], bool] | None = None,
    cache: ColumnCache | None = None,
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

    `cache` (a `ColumnCache` kept for one game) only saves work: the answer is the same without.
    """
    counts_l = [0] * 7
    for d in dice:
        counts_l[d] += 1
    counts0 = tuple(counts_l)
    ndice = len(dice)
    # Per column: its bottom alien (where a chain starts), its aliens (to count those these dice
    # could kill on their own), the fewest dice any alien needs (bounds the kills left) and which
    # rows hold an alien (the shape of the windows).
    columns = cache.columns if cache is not None else {}
    min_need = 6
    bottoms = []
    col_masks = []
    occupancy = []
    for col in cols:
        info = columns.get(col) if type(col) is tuple else None
        if info is None:
            info = _column_info(col, aliens)
            if type(col) is tuple:
                columns[col] = info
        bottoms.append(info[0])
        col_masks.append(info[1])
        if info[2] < min_need:
            min_need = info[2]
        occupancy.append(info[3])
    starts = [c for c, a in enumerate(bottoms) if a != EMPTY and c not in shields]
    if ndice == 0 or not starts:
        return {0: ()}
    can_kill = killable_mask(counts0, aliens)

    if not best_only:
        plans: dict[int, tuple] = {0: ()}

        def record(killed: int, nkilled: int, path: list) -> bool:
            if killed not in plans:
                plans[killed] = tuple(path)
            return False

        for c in starts:
            window = _window(cols, c, occupancy, can_kill)
            _walk_window(window, cols, aliens, counts0, ndice, min_need, 0, record)
        return plans

    # A bound on each window's kills: its killable aliens, and the dice; when the bottom alien of
    # column c (every chain's first die) cannot be killed, one die is a stepping stone.
    killable = [(m & can_kill).bit_count() for m in col_masks]
    reach = {}
    for c in starts:
        dice_left = ndice if can_kill >> bottoms[c] & 1 else ndice - 1
        reach[c] = min(sum(killable[max(c - 1, 0) : c + 2]), dice_left // min_need)
    starts.sort(key=lambda c: -reach[c])
    windows: dict[int, tuple] = {}
    found: list = [None, None]  # the first acceptable plan of this pass, the first plan of it
    refused: set[int] = set()  # masks `acceptable` said no to: many plans share a mask

    def keep(killed: int, nkilled: int, path: list) -> bool:
        if acceptable is None or (killed not in refused and acceptable(killed)):
            found[0] = (killed, tuple(path))
            return True
        refused.add(killed)
        if found[1] is None:
            found[1] = (killed, tuple(path))
        return False

    for target in range(reach[starts[0]], 0, -1):
        for c in starts:
            if reach[c] < target:
                break
            if c not in windows:
                windows[c] = _window(cols, c, occupancy, can_kill)
            if _walk_window(windows[c], cols, aliens, counts0, ndice, min_need, target, keep):
                break
        plan = found[0] or found[1]
        if plan is not None:
            return {0: (), plan[0]: plan[1]}
    return {0: ()}


def witness_placement(witness: tuple, dice: Sequence[int]) -> Placement:
    """Turn a kill_plans witness into concrete (die index, column, row) triples."""
    free: list[list[int]] = [[], [], [], [], [], [], []]  # die indices by face
    for i, d in enumerate(dice):
        free[d].append(i)
    out = []
    stones = []
    for c, r, used in witness:
        if used is None:
            stones.append((c, r))
            continue
        for v in used:
            out.append((free[v].pop(), c, r))
    spare = sorted(i for idx in free for i in idx)
    for (c, r), i in zip(stones, spare, strict=False):
        out.append((i, c, r))
    return tuple(sorted(out))
