"""Exact analysis of small boards in plain Python: the whole of `analyze`'s full level, without SAT.

On a board of a few hundred cells the general path (numpy system, propagation, a SAT backbone, the cell
by cell counter) spends almost all of its time on fixed costs: numpy calls on tiny arrays, solver set-up.
Here the exact count alone answers everything the full level asks: a cell is certain exactly when no
solution, or every one, puts a mine on it, so the backbone is read off the per-cell counts.

The counter works on groups, not cells (`groups`): unknown cells touched by the same set of counts are
one variable holding 0..n mines. Before it, the cells single counts and pairs of overlapping counts
decide are settled, which cuts a game board's frontier into small components.

`quick_count` gives up (None) where the states grow past a small budget; the caller then takes the
general path. Its answers are the general path's, integer for integer (tests/test_quick.py holds them).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from ..core.puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ..core.system import LinearSystem, build_system
from .counting import Count
from .groups import count_groups, pack, unpack
from .polynomials import binomial_window

# boards up to this many cells take the quick path (expert is 480); beyond it the general path's
# numpy set-up costs less than Python loops over the cells
QUICK_MAX_CELLS = 1024
# components of more groups than this are first cut by what pairs of counts decide
PAIR_RULE_GROUPS = 30

Cons = List[Tuple[List[int], int]]     # (variable ids, right-hand side) per count


@lru_cache(maxsize=32)
def shape_table(rows: int, cols: int) -> Tuple[Tuple[Tuple[int, ...], ...], int, int, int]:
    """Per cell (row-major) its neighbours' indices, ascending; and as bit masks over the cells (bit i:
    cell i) the cells not in the first column, those not in the last, and all; cached per board shape."""
    around = tuple(tuple((r + dr) * cols + c + dc for dr, dc in sorted(NEIGHBOUR_OFFSETS)
                         if 0 <= r + dr < rows and 0 <= c + dc < cols)
                   for r in range(rows) for c in range(cols))
    rows_of = sum(1 << (r * cols) for r in range(rows))   # bit 0 of every row
    full = (1 << (rows * cols)) - 1
    return around, full & ~rows_of, full & ~(rows_of << (cols - 1)), full


def _bits(cells: bytes, table: bytes) -> int:
    """The cells whose byte `table` maps to "1", as a bit mask (bit i: cell i)."""
    return int(cells.translate(table)[::-1], 2)


def _byte_table(symbols: str) -> bytes:
    """A bytes.translate table: "1" for the symbols' bytes, "0" for every other byte."""
    return bytes(ord("1") if chr(b) in symbols else ord("0") for b in range(256))


_UNKNOWN_BITS = _byte_table("?")
_COUNT_BITS = _byte_table("012345678")
_NONZERO_BITS = _byte_table("12345678")
_DIGIT = {str(d): d for d in range(9)}


_LAZY = "As in LinearSystem; built on first read."


class QuickSystem(LinearSystem):
    """build_system's LinearSystem, its arrays built on first read: the quick path itself reads none of
    them, and a board of a few dozen cells costs more to put in numpy arrays than to count."""

    _mines: Optional[int]
    _k: int

    def __init__(self, puzzle: Puzzle, mines: Optional[int], k: int, total: Optional[int]) -> None:
        object.__setattr__(self, "puzzle", puzzle)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "_mines", mines)
        object.__setattr__(self, "_k", k)

    def built(self) -> LinearSystem:
        """The system build_system makes, made once."""
        system = self.__dict__.get("_built")
        if system is None:
            system = build_system(self.puzzle, self._mines)
            object.__setattr__(self, "_built", system)
        return system

    var_grid = property(lambda self: self.built().var_grid, doc=_LAZY)
    var_rc = property(lambda self: self.built().var_rc, doc=_LAZY)
    con_rc = property(lambda self: self.built().con_rc, doc=_LAZY)
    con_len = property(lambda self: self.built().con_len, doc=_LAZY)
    con_rhs = property(lambda self: self.built().con_rhs, doc=_LAZY)

    @property
    def num_vars(self) -> int:
        """k, the number of variables (unknown cells)."""
        return self._k


def quick_system(puzzle: Puzzle, mines: Optional[int]) -> Tuple[LinearSystem, Cons, bool]:
    """build_system's LinearSystem (its arrays built when read), the counts that see unknown cells as
    Python lists, and False when some count can never be met."""
    cells, cols = puzzle.cells, puzzle.cols
    around, not_first, not_last, full = shape_table(puzzle.rows, cols)
    var_of = [0] * len(cells)
    k = 0
    i = cells.find("?")
    while i >= 0:
        k += 1
        var_of[i] = k
        i = cells.find("?", i + 1)
    raw = cells.encode("ascii")
    # the cells next to an unknown one: the unknown cells spread one column, then one row, each way
    unknown = _bits(raw, _UNKNOWN_BITS) if k else 0
    near = unknown | (unknown >> 1) & not_last | (unknown << 1) & not_first
    near = (near | near << cols | near >> cols) & full
    counts = _bits(raw, _COUNT_BITS)
    known_mines = cells.count("*")
    # a count next to no unknown cell is met only by as many known mines
    feasible = not (_bits(raw, _NONZERO_BITS) & ~near) if not known_mines else all(
        _DIGIT[cells[i]] == sum(1 for j in around[i] if cells[j] == "*") for i in _positions(counts & ~near))
    cons: Cons = []
    for i in _positions(counts & near):
        r = _DIGIT[cells[i]]
        if known_mines:
            r -= sum(1 for j in around[i] if cells[j] == "*")
        ids = [var_of[j] for j in around[i] if var_of[j]]
        cons.append((ids, r))
        if r < 0 or r > len(ids):
            feasible = False
    total_mines = puzzle.mines if mines is None else mines
    total = None if total_mines is None else int(total_mines) - known_mines
    return QuickSystem(puzzle, mines, k, total), cons, feasible


def _positions(mask: int) -> List[int]:
    """The set bits of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def quick_count(k: int, cons: Cons, total: Optional[int]) -> Optional[Count]:
    """The exact Count of count_solutions, or None when the states pass the budget."""
    board = _Settler(k, cons)
    if not board.settle([ci for ci, (n, o) in enumerate(zip(board.need, board.open)) if n <= 0 or n >= o]):
        return Count(0, (0,) * k)
    known = board.known
    comps = _parts(board)
    if max((len(sizes) for _, sizes, _ in comps), default=0) > PAIR_RULE_GROUPS:
        # a long frontier: cells two overlapping counts decide split it before the programme sees it
        if not board.pair_rule():
            return Count(0, (0,) * k)
        comps = _parts(board)
    polys = []   # (groups of the component, offset, P, per group M)
    for groups, sizes, comp_cons in comps:
        counted = count_groups(sizes, comp_cons)
        if counted is None:
            return None
        polys.append((groups, *counted))
    mines = [v for v in board.touching if known[v] == 1]
    free = k - len(board.touching)       # cells next to no count
    if total is None:
        n, per_var = _without_total(polys, free, k)
    else:
        n, per_var = _with_total(polys, free, k, total - len(mines))
    if not n:
        return Count(0, (0,) * k)
    for v in board.touching:
        if known[v] >= 0:
            per_var[v - 1] = n if known[v] else 0
    return Count(n, tuple(per_var))


def _parts(board: "_Settler"):
    """[(groups, their sizes, counts over local group positions)] per component, over the open cells."""
    # an open cell's counts are all open: the settler's table of them serves as it is
    known, touching = board.known, board.touching
    open_cons: Dict[int, Tuple[List[int], int]] = {}
    for ci, ((ids, _), n, o) in enumerate(zip(board.cons, board.need, board.open)):
        if o:
            open_cons[ci] = ([v for v in ids if known[v] < 0], n)
    seen = [False] * len(board.cons)
    comps = []
    for first, (rest, r) in open_cons.items():
        if seen[first]:
            continue
        seen[first] = True
        members = [first]
        for ci in members:     # breadth first over counts sharing a cell
            for v in open_cons[ci][0]:
                for cj in touching[v]:
                    if not seen[cj]:
                        seen[cj] = True
                        members.append(cj)
        if len(members) == 1:  # a count alone: its cells are one group
            comps.append(([rest], [len(rest)], [([0], r)]))
            continue
        # groups: cells touched by the same counts
        by_sig: Dict[Tuple[int, ...], List[int]] = {}
        for v in {v for ci in members for v in open_cons[ci][0]}:
            by_sig.setdefault(tuple(touching[v]), []).append(v)
        con_groups: Dict[int, List[int]] = {ci: [] for ci in members}
        for g, sig in enumerate(by_sig):
            for ci in sig:
                con_groups[ci].append(g)
        groups = list(by_sig.values())
        comps.append((groups, [len(g) for g in groups], [(gs, open_cons[ci][1]) for ci, gs in con_groups.items()]))
    return comps


class _Settler:
    """The cells single counts (and pairs of counts) decide, with each count's open cells and mines
    still needed kept up to date as cells are decided."""

    def __init__(self, k: int, cons: Cons) -> None:
        self.cons = cons
        self.known = [-1] * (k + 1)          # per cell: 1 mine, 0 safe, -1 open
        self.touching: Dict[int, List[int]] = {}   # the counts of each cell next to one
        touching = self.touching
        for ci, (ids, _) in enumerate(cons):
            for v in ids:
                if v in touching:
                    touching[v].append(ci)
                else:
                    touching[v] = [ci]
        self.open = [len(ids) for ids, _ in cons]
        self.need = [r for _, r in cons]

    def settle(self, todo: List[int]) -> bool:
        """Decide what the counts in todo, and those they lead to, decide alone; False: no solution."""
        known, touching, need, open_ = self.known, self.touching, self.need, self.open
        while todo:
            ci = todo.pop()
            n, o = need[ci], open_[ci]
            if n < 0 or n > o:
                return False
            if o == 0 or 0 < n < o:
                continue
            value = 1 if n else 0
            for v in self.cons[ci][0]:
                if known[v] < 0:
                    known[v] = value
                    for cj in touching[v]:
                        o = open_[cj] - 1
                        n = need[cj] - value
                        open_[cj] = o
                        need[cj] = n
                        # a count decides its open cells, or cannot be met
                        if n <= 0 or n >= o:
                            todo.append(cj)
        return True

    def pair_rule(self) -> bool:
        """Decide what any two overlapping counts decide together (the cells only one of them sees are
        all mines or all safe), then the single counts again, until nothing changes; False: no solution."""
        known, touching, need = self.known, self.touching, self.need
        while True:
            rest = [{v for v in ids if known[v] < 0} for ids, _ in self.cons]
            decided: Dict[int, int] = {}
            for a, sa in enumerate(rest):
                for b in {cb for v in sa for cb in touching[v] if cb > a}:
                    sb = rest[b]
                    a_only, b_only = sa - sb, sb - sa
                    lo = max(0, need[a] - len(a_only), need[b] - len(b_only))
                    hi = min(len(sa) - len(a_only), need[a], need[b])
                    if lo > hi:
                        return False
                    for only, n in ((a_only, need[a]), (b_only, need[b])):
                        value = 1 if only and n - hi >= len(only) else 0 if only and n - lo <= 0 else -1
                        for v in only if value >= 0 else ():
                            if decided.setdefault(v, value) != value:
                                return False
            if not decided:
                return True
            todo = []
            for v, value in decided.items():
                known[v] = value
                for cj in touching[v]:
                    self.open[cj] -= 1
                    need[cj] -= value
                    todo.append(cj)
            if not self.settle(todo):
                return False


def _without_total(polys, free: int, k: int) -> Tuple[int, List[int]]:
    """The count and per-cell numbers when any number of mines goes (the settled cells' still to be set)."""
    N = 1 << free
    sums = []
    for _, _, P, _ in polys:
        p = sum(P)
        sums.append(p)
        N *= p
    if N == 0:
        return 0, []
    per_var = [N >> 1] * k      # a free cell is a mine in half the solutions
    for (gs, _, _, M), p in zip(polys, sums):
        rest = N // p
        for cells, m in zip(gs, M):
            n = sum(m) * rest
            for x in cells:
                per_var[x - 1] = n
    return N, per_var


def _with_total(polys, F: int, k: int, T: int) -> Tuple[int, List[int]]:
    """The count and per-cell numbers when T mines are left for the components and the F free cells (the
    settled cells' still to be set)."""
    # the components hold between `least` and least + D - 1 mines
    least = sum(off for _, off, _, _ in polys)
    T -= least
    D = 1 + sum(len(P) - 1 for _, _, P, _ in polys)
    G = _binomials(F, T, D)
    cells = sum(len(c) for gs, _, _, _ in polys for c in gs)
    # polynomials over the whole board as ints, in slots wide enough for a sum of D counts times binomials
    width = cells + max(g.bit_length() for g in G) + D.bit_length() + 8
    mask = (1 << width) - 1
    if len(polys) <= 1:
        packed, prefix = [], []
        P_all = polys[0][2] if polys else [1]
    else:
        packed = [pack(P, width) for _, _, P, _ in polys]
        prefix = [1]
        for p in packed:
            prefix.append(prefix[-1] * p)
        P_all = unpack(prefix[-1], width, D)
    N = sum(c * g for c, g in zip(P_all, G) if c)
    if N == 0:
        return 0, []
    # a free cell holds one of the T mines
    # (C(F - 1, T - m - 1) = C(F, T - m) * (T - m) / F: G again, no second window of binomials)
    n_free = sum(c * g * (T - m) for m, (c, g) in enumerate(zip(P_all, G)) if c) // F if F else 0
    per_var = [n_free] * k
    suffix = 1
    g_reversed = pack(G[::-1], width) if len(polys) > 1 else 0
    for c in range(len(polys) - 1, -1, -1):
        gs, _, P, M = polys[c]
        if len(polys) == 1:   # no other component: the free cells alone take the rest
            w = G
        else:
            # w[j], the weight of j mines in this component (the other components and the free cells
            # take the rest): sum over i of others[i] * G[j + i], slot D - 1 - j of one product
            corr = prefix[c] * suffix * g_reversed
            suffix *= packed[c]
            w = [(corr >> ((D - 1 - j) * width)) & mask for j in range(len(P))]
        for cells, m in zip(gs, M):
            n = sum(a * b for a, b in zip(m, w) if a)
            for x in cells:
                per_var[x - 1] = n
    return N, per_var


def _binomials(n: int, t: int, d: int) -> List[int]:
    """[C(n, t - m) for m in 0 .. d-1], 0 where t - m is outside 0..n."""
    lo, hi = max(0, t - d + 1), min(n, t)
    if lo > hi:
        return [0] * d
    window = binomial_window(n, lo, hi)
    return [window[t - m - lo] if lo <= t - m <= hi else 0 for m in range(d)]
