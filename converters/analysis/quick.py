"""Exact analysis of small boards in plain Python: the whole of `analyze`'s full level, without SAT.

On a board of a few hundred cells the general path (numpy system, propagation, a SAT backbone, the cell
by cell counter) spends almost all of its time on fixed costs: numpy calls on tiny arrays, solver set-up.
Here the exact count alone answers everything the full level asks: a cell is certain exactly when no
solution, or every one, puts a mine on it, so the backbone is read off the per-cell counts.

The counter works on groups, not cells: unknown cells touched by the same set of counts are one variable
holding 0..n mines, weighted by C(n, j). Each component (groups linked through shared counts) is counted
by a forward and a backward pass over its groups, with the states memoised on the partly filled counts'
remaining right-hand sides. A count polynomial (coefficient j: the weight of j mines) is one Python int
with the coefficients in fixed-width bit slots, so a sum is one addition, one more mine a shift, and a
product one big-integer multiplication (Kronecker substitution), all in C.

`quick_count` gives up (None) where the states grow past a small budget; the caller then takes the
general path. Its answers are the general path's, integer for integer (tests/test_quick.py holds them).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..core.puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ..core.system import LinearSystem
from .counting import Count
from .polynomials import binomial_window

# boards up to this many cells take the quick path (expert is 480); beyond it the general path's
# numpy set-up costs less than Python loops over the cells
QUICK_MAX_CELLS = 1024
# bytes of count polynomials the forward layers may keep before the quick path hands over
QUICK_MEMORY = 16 << 20

BINOMIAL = [[math.comb(n, j) for j in range(n + 1)] for n in range(9)]   # a group has at most 8 cells

Cons = List[Tuple[List[int], int]]     # (variable ids, right-hand side) per count


@lru_cache(maxsize=32)
def neighbour_table(rows: int, cols: int) -> Tuple[Tuple[int, ...], ...]:
    """Per cell (row-major), its neighbours' row-major indices, ascending; cached per board shape."""
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(tuple((r + dr) * cols + c + dc for dr, dc in NEIGHBOUR_OFFSETS
                               if 0 <= r + dr < rows and 0 <= c + dc < cols))
    return tuple(table)


def quick_system(puzzle: Puzzle, mines: Optional[int]) -> Tuple[LinearSystem, Cons]:
    """build_system's LinearSystem (the same arrays) and the counts as Python lists, without numpy loops."""
    rows, cols, cells = puzzle.rows, puzzle.cols, puzzle.cells
    table = neighbour_table(rows, cols)
    var_of = [0] * (rows * cols)
    var_flat = []
    for i, ch in enumerate(cells):
        if ch == "?":
            var_flat.append(i)
            var_of[i] = len(var_flat)
    con_flat, cons = [], []
    for i, ch in enumerate(cells):
        if "0" <= ch <= "8":
            around = table[i]
            ids = [var_of[j] for j in around if var_of[j]]
            known = sum(1 for j in around if cells[j] == "*")
            con_flat.append(i)
            cons.append((ids, ord(ch) - 48 - known))
    var_grid = np.zeros(rows * cols, dtype=np.int32)
    var_grid[var_flat] = np.arange(1, len(var_flat) + 1, dtype=np.int32)
    known_mines = cells.count("*")
    total_mines = puzzle.mines if mines is None else mines
    total = None if total_mines is None else int(total_mines) - known_mines
    system = LinearSystem(puzzle, var_grid.reshape(rows, cols), _row_col(var_flat, cols),
                          _row_col(con_flat, cols), np.array([len(v) for v, _ in cons], dtype=np.int8),
                          np.array([r for _, r in cons], dtype=np.int16), total)
    return system, cons


def _row_col(flat: List[int], cols: int) -> np.ndarray:
    """(n, 2) int32 (row, column) of row-major indices."""
    out = np.array([divmod(i, cols) for i in flat], dtype=np.int32)
    return out.reshape(len(flat), 2)


def quick_count(k: int, cons: Cons, total: Optional[int]) -> Optional[Count]:
    """The exact Count of count_solutions, or None when the states pass the budget."""
    known = _settle(k, cons)
    if known is None:
        return Count(0, (0,) * k)
    mines = [v for v in range(1, k + 1) if known[v] == 1]
    # the counts over the cells still open: settled cells split a game board's frontier into small parts
    open_cons: Cons = []
    for ids, r in cons:
        rest = [v for v in ids if known[v] < 0]
        if rest:
            open_cons.append((rest, r - sum(1 for v in ids if known[v] == 1)))
    touching: List[List[int]] = [[] for _ in range(k + 1)]
    for ci, (ids, _) in enumerate(open_cons):
        for v in ids:
            touching[v].append(ci)
    # groups: cells touched by the same counts
    by_sig: Dict[Tuple[int, ...], List[int]] = {}
    free = []
    for v in range(1, k + 1):
        if touching[v]:
            by_sig.setdefault(tuple(touching[v]), []).append(v)
        elif known[v] < 0:
            free.append(v)
    groups = list(by_sig.values())
    polys = []   # (groups of the component, P, per group M)
    for comp, comp_cons in _components(list(by_sig), open_cons):
        counted = _count_component([len(groups[g]) for g in comp], comp_cons)
        if counted is None:
            return None
        polys.append(([groups[g] for g in comp], *counted))
    if total is None:
        count = _without_total(polys, free, k)
    else:
        count = _with_total(polys, free, k, total - len(mines))
    if count.solutions and mines:
        per_var = list(count.mine_solutions or ())
        for v in mines:
            per_var[v - 1] = count.solutions
        return Count(count.solutions, tuple(per_var))
    return count


def _settle(k: int, cons: Cons) -> Optional[List[int]]:
    """Per cell 1 (mine), 0 (safe) or -1 (open) from the counts whose open cells must all be mines or all
    safe, to a fixed point; None when a count cannot be met."""
    known = [-1] * (k + 1)
    touching: List[List[int]] = [[] for _ in range(k + 1)]
    for ci, (ids, _) in enumerate(cons):
        for v in ids:
            touching[v].append(ci)
    todo = list(range(len(cons)))
    queued = [True] * len(cons)
    while todo:
        ci = todo.pop()
        queued[ci] = False
        ids, r = cons[ci]
        rest = [v for v in ids if known[v] < 0]
        need = r - sum(1 for v in ids if known[v] == 1)
        if need < 0 or need > len(rest):
            return None
        if rest and (need == 0 or need == len(rest)):
            value = 1 if need else 0
            for v in rest:
                known[v] = value
                for cj in touching[v]:
                    if not queued[cj]:
                        queued[cj] = True
                        todo.append(cj)
    return known


def _components(sigs: List[Tuple[int, ...]], cons: Cons):
    """Per component: (its group indices, its counts as (local group positions, rhs)), counts without cells dropped."""
    parent = list(range(len(cons)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for sig in sigs:
        root = find(sig[0])
        for ci in sig[1:]:
            rc = find(ci)
            if rc != root:
                parent[rc] = root
    comp_groups: Dict[int, List[int]] = {}
    for g, sig in enumerate(sigs):
        comp_groups.setdefault(find(sig[0]), []).append(g)
    out = []
    for members in comp_groups.values():
        local = {g: i for i, g in enumerate(members)}
        con_groups: Dict[int, List[int]] = {}
        for g in members:
            for ci in sigs[g]:
                con_groups.setdefault(ci, []).append(local[g])
        out.append((members, [(gs, cons[ci][1]) for ci, gs in con_groups.items()]))
    return out


def _order(sizes: Sequence[int], cons: Sequence[Tuple[List[int], int]]) -> List[int]:
    """The groups breadth first from a far end: the partly filled counts stay few."""
    adj: List[set] = [set() for _ in sizes]
    for gs, _ in cons:
        for g in gs:
            adj[g].update(gs)
    start = min(range(len(sizes)), key=lambda g: len(adj[g]))
    for _ in range(2):
        seen = {start}
        order = [start]
        for g in order:
            for h in sorted(adj[g] - seen):
                seen.add(h)
                order.append(h)
        start = order[-1]
    return order


def _count_component(sizes: List[int], cons: Sequence[Tuple[List[int], int]]):
    """(P, M) of one component: P[j] the weight of j mines in it, M[g][j] the same with a given cell of
    group g a mine; None past the state budget."""
    order = _order(sizes, cons)
    cells = sum(sizes)
    width = cells + 8          # a slot holds any count of the component's cells times a group's size
    steps = _schedule(order, sizes, cons)
    layers, moves = _forward(steps, width, cells)
    if layers is None:
        return None
    if () not in layers[-1]:
        return [0], [[0]] * len(sizes)
    back: Dict[tuple, int] = {(): 1}
    marg: List[int] = [0] * len(sizes)
    for i in range(len(order) - 1, -1, -1):
        size = sizes[order[i]]
        binom = BINOMIAL[size]
        cur: Dict[tuple, int] = {}
        into: Dict[tuple, int] = {}
        for s, w in layers[i].items():
            acc = 0
            for v, t in moves[i][s]:
                b = back.get(t)
                if b is not None:
                    acc += (b * binom[v]) << (v * width)
                    if v:
                        into[t] = into.get(t, 0) + ((w * binom[v] * v) << (v * width))
            if acc:
                cur[s] = acc
        marg[order[i]] = sum(w * back[t] for t, w in into.items())
        back = cur
    mask = (1 << width) - 1
    P = [(back[()] >> (j * width)) & mask for j in range(cells + 1)]
    M = [[((m >> (j * width)) & mask) // sizes[g] for j in range(cells + 1)] for g, m in enumerate(marg)]
    return P, M


Step = Tuple[int, Tuple[int, ...], List[int], List[Tuple[int, bool]]]


def _schedule(order: List[int], sizes: List[int], cons: Sequence[Tuple[List[int], int]]) -> List[Step]:
    """Per group of the order: (its size, rhs of the counts starting at it, per count containing it its
    position in the extended state and cells left after it, per kept count its position and whether it
    contains the group)."""
    pos = {g: i for i, g in enumerate(order)}
    first, last = [], []
    for gs, _ in cons:
        ps = [pos[g] for g in gs]
        first.append(min(ps))
        last.append(max(ps))
    active: List[int] = []
    steps = []
    for i, g in enumerate(order):
        ext = active + [ci for ci in range(len(cons)) if first[ci] == i]
        start_rhs = tuple(cons[ci][1] for ci in ext[len(active):])
        contains = [(j, sum(sizes[h] for h in cons[ci][0] if pos[h] > i))
                    for j, ci in enumerate(ext) if g in cons[ci][0]]
        keep = [(j, g in cons[ci][0]) for j, ci in enumerate(ext) if last[ci] > i]
        steps.append((sizes[g], start_rhs, contains, keep))
        active = [ext[j] for j, _ in keep]
    return steps


def _forward(steps: List[Step], width: int, cells: int):
    """Forward layers (state -> weight polynomial) and each state's moves [(mines, next state)]; None, None
    past the memory budget."""
    layers: List[Dict[tuple, int]] = [{(): 1}]
    moves: List[Dict[tuple, List[Tuple[int, tuple]]]] = []
    budget = QUICK_MEMORY // max(1, (width * (cells + 1)) // 8 + 64)    # states the layers may hold
    for size, start_rhs, contains, keep in steps:
        binom = BINOMIAL[size]
        nxt: Dict[tuple, int] = {}
        mv: Dict[tuple, List[Tuple[int, tuple]]] = {}
        for s, w in layers[-1].items():
            ext = s + start_rhs
            lo, hi = 0, size
            for j, cap in contains:
                r = ext[j]
                if r < hi:
                    hi = r
                if r - cap > lo:
                    lo = r - cap
            out = []
            for v in range(lo, hi + 1):
                t = tuple([ext[j] - v if inside else ext[j] for j, inside in keep])
                out.append((v, t))
                add = (w * binom[v]) << (v * width)
                nxt[t] = nxt.get(t, 0) + add
            mv[s] = out
        budget -= len(nxt)
        if budget < 0:
            return None, None
        layers.append(nxt)
        moves.append(mv)
    return layers, moves


def _without_total(polys, free: List[int], k: int) -> Count:
    """count_solutions' numbers when any number of mines goes."""
    N = 1 << len(free)
    sums = []
    for _, P, _ in polys:
        p = sum(P)
        sums.append(p)
        N *= p
    per_var = [0] * k
    if N == 0:
        return Count(0, tuple(per_var))
    for (gs, _, M), p in zip(polys, sums):
        rest = N // p
        for cells, m in zip(gs, M):
            n = sum(m) * rest
            for x in cells:
                per_var[x - 1] = n
    for x in free:
        per_var[x - 1] = N >> 1
    return Count(N, tuple(per_var))


def _with_total(polys, free: List[int], k: int, T: int) -> Count:
    """count_solutions' numbers when T mines are left for the components and the free cells."""
    F = len(free)
    D = 1 + sum(len(P) - 1 for _, P, _ in polys)
    G = _binomials(F, T, D)
    # polynomials over the whole board as ints in slots wide enough for any count times any binomial
    width = k + max(1, max(g.bit_length() for g in G)) + 8
    packed = [_pack(P, width) for _, P, _ in polys]
    prefix = [1]
    for p in packed:
        prefix.append(prefix[-1] * p)
    P_all = _unpack(prefix[-1], width, D)
    N = sum(c * g for c, g in zip(P_all, G) if c)
    if N == 0:
        return Count(0, (0,) * k)
    per_var = [0] * k
    suffix = 1
    for c in range(len(polys) - 1, -1, -1):
        gs, P, M = polys[c]
        others = _unpack(prefix[c] * suffix, width, D)
        suffix *= packed[c]
        # weight of j mines in this component: the other components and the free cells take the rest
        w = [sum(o * G[j + kk] for kk, o in enumerate(others[:D - j]) if o) for j in range(len(P))]
        for cells, m in zip(gs, M):
            n = sum(a * b for a, b in zip(m, w) if a)
            for x in cells:
                per_var[x - 1] = n
    if F:
        G1 = _binomials(F - 1, T - 1, D)
        n_free = sum(c * g for c, g in zip(P_all, G1) if c)
        for x in free:
            per_var[x - 1] = n_free
    return Count(N, tuple(per_var))


def _binomials(n: int, t: int, d: int) -> List[int]:
    """[C(n, t - m) for m in 0 .. d-1], 0 where t - m is outside 0..n."""
    lo, hi = max(0, t - d + 1), min(n, t)
    if lo > hi:
        return [0] * d
    window = binomial_window(n, lo, hi)
    return [window[t - m - lo] if lo <= t - m <= hi else 0 for m in range(d)]


def _pack(coeffs: Sequence[int], width: int) -> int:
    """A coefficient list as one int, coefficient j in bits j*width .. (j+1)*width - 1."""
    out = 0
    for c in reversed(coeffs):
        out = (out << width) | c
    return out


def _unpack(x: int, width: int, d: int) -> List[int]:
    """The first d coefficients of a packed polynomial."""
    mask = (1 << width) - 1
    return [(x >> (j * width)) & mask for j in range(d)]
