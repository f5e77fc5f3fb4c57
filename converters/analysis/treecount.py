"""Exact counting of big components by a table sweep: whole layers of states at once, in numpy.

The counter of `counting` walks the component's cells in an order with a narrow frontier and keeps, after
each cell, a table: key = the residues of the counts the sweep has entered but not left (how many more
mines each still needs), value = how many ways the cells so far reach that key. This module runs the
same dynamic programme over a path decomposition, but a layer at a time: the keys are an int16 matrix
(a row per state, a column per open count), a cell's two moves (safe, mine) are two array operations on
it, and equal keys merge by sorting their codes. Only the moves (state -> next state, per cell) are kept;
the weights then flow along them in separate passes, forward and backward, as numpy object arrays.

Worked example: cells a b c (in this order) and two counts, A: a + b = 1 and B: b + c = 1.

    before a: frontier (A)    keys {(1,)}            a enters A
    after a:  frontier (A)    keys {(1,): 1  [a=0],  (0,): 1  [a=1]}
    after b:  frontier (B)    b enters B (key 1) and ends A, whose residue must be 0:
              (1,) + b=1 -> A done, B needs 0 -> (0,);   (0,) + b=0 -> A done, B needs 1 -> (1,)
              keys {(0,): 1, (1,): 1}
    after c:  c ends B: (0,) + c=0 -> ();  (1,) + c=1 -> ()      keys {(): 2}: two solutions.

Per number of mines the weights are polynomials (coefficient j: ways with j mines), so that a total mine
count can be applied afterwards. Here a polynomial is one Python int, its coefficients packed in slots of
B bits (Kronecker): x (one mine more) is `<< B`, a sum is `+`, a product of two is one big-integer
product. B is found first by the plain counts (no coefficient exceeds the plain count of its state).
In the example, with B = 8: after a, (1,) holds 1 and (0,) holds 1 << 8 (x: one mine); the end holds
2 << 8 (2x: both solutions have one mine).

The mine count of cell v is sum over states s before v of fwd(s) * x * bwd(next(s, mine)), where bwd(t)
is the weight of finishing from t (the backward pass); the forward weights arriving at the same t are
summed first, so there is one product per target state.
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Sequence, Tuple

import numpy as np

from ..core.bounds import UNBOUNDED, Bounds, CountingLimitError, int_bytes

MIN_CELLS = 48        # smaller components: the plain counter of `counting` is as quick
MAX_WIDTH = 64        # open counts at once past which a sweep is not even tried
MAX_STATES = 20_000_000   # states in one layer past which the sweep gives up (CountingLimitError)

Cons = Sequence[Tuple[Tuple[int, ...], int]]


class Cell(NamedTuple):
    """What one cell of the sweep does to the frontier: columns refer to the frontier extended by `start`."""

    start: np.ndarray      # rhs of the counts entered at this cell
    contains: np.ndarray   # columns of the counts containing the cell
    keep: np.ndarray       # columns still open after the cell
    cap: np.ndarray        # cells each kept count has left after the cell
    ends: np.ndarray       # columns of the counts left at this cell (their residue must be 0)


Moves = Tuple[np.ndarray, np.ndarray, int]   # next state without / with a mine (-1: none), next layer's size


def frontier(order: Sequence[int], cons: Cons) -> Tuple[int, int]:
    """(largest number of counts open at once, sum over the cells) for a sweep in this order."""
    pos = {v: i for i, v in enumerate(order)}
    diff = np.zeros(len(order) + 1, dtype=np.int64)
    for vs, _ in cons:
        ps = [pos[x] for x in vs]
        diff[min(ps)] += 1
        diff[max(ps)] -= 1
    run = np.cumsum(diff)
    return int(run.max(initial=0)), int(run.sum())


def sweep_order(vars_: Sequence[int], cons: Cons, var_rc: np.ndarray) -> List[int]:
    """The narrowest of a row-major, a column-major and a breadth-first (wavefront) order of the cells."""
    rc = {v: (int(var_rc[v - 1, 0]), int(var_rc[v - 1, 1])) for v in vars_}
    adj: Dict[int, set] = {v: set() for v in vars_}
    for vs, _ in cons:
        for x in vs:
            adj[x].update(vs)
    candidates = [sorted(vars_, key=lambda v: rc[v]), sorted(vars_, key=lambda v: (rc[v][1], rc[v][0]))]
    start = min(vars_, key=lambda v: (len(adj[v]), v))
    for _ in range(2):
        wave = _bfs(start, adj)
        start = wave[-1]
    candidates.append(wave)
    return min(candidates, key=lambda o: frontier(o, cons))


def _bfs(start: int, adj: Dict[int, set]) -> List[int]:
    seen = {start}
    order = [start]
    for v in order:
        for w in sorted(adj[v], key=lambda x: (len(adj[x]), x)):
            if w not in seen:
                seen.add(w)
                order.append(w)
    return order


def schedule(order: Sequence[int], cons: Cons) -> List[Cell]:
    """Per cell of the order, what it does to the frontier of open counts."""
    pos = {v: i for i, v in enumerate(order)}
    members = [sorted(pos[x] for x in vs) for vs, _ in cons]
    by_first: Dict[int, List[int]] = {}
    for ci, ps in enumerate(members):
        by_first.setdefault(ps[0], []).append(ci)
    sets = [set(ps) for ps in members]
    active: List[int] = []
    cells = []
    for i in range(len(order)):
        entering = by_first.get(i, [])
        ext = active + entering
        nxt = [ci for ci in ext if members[ci][-1] > i]
        cells.append(Cell(
            start=np.asarray([cons[ci][1] for ci in entering], dtype=np.int16),
            contains=np.asarray([j for j, ci in enumerate(ext) if i in sets[ci]], dtype=np.intp),
            keep=np.asarray([j for j, ci in enumerate(ext) if members[ci][-1] > i], dtype=np.intp),
            cap=np.asarray([sum(1 for p in members[ci] if p > i) for ci in nxt], dtype=np.int16),
            ends=np.asarray([j for j, ci in enumerate(ext) if members[ci][-1] == i], dtype=np.intp)))
        active = nxt
    return cells


def _fits(rows: np.ndarray, cell: Cell) -> np.ndarray:
    """Rows whose ending counts are met and whose kept residues are within 0 .. cells left."""
    ok = (rows[:, cell.ends] == 0).all(axis=1)
    kept = rows[:, cell.keep]
    return ok & (kept >= 0).all(axis=1) & (kept <= cell.cap).all(axis=1)


def _merge(rows: np.ndarray, cap: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(index of one row per distinct row, distinct row number of each row), rows coded in int64 digits."""
    if rows.shape[1] == 0:
        return np.zeros(min(1, len(rows)), dtype=np.intp), np.zeros(len(rows), dtype=np.intp)
    codes, code, mult = [], np.zeros(len(rows), dtype=np.int64), 1
    for j, radix in enumerate((cap.astype(np.int64) + 1).tolist()):
        if mult * radix >= 1 << 62:
            codes.append(code)
            code, mult = np.zeros(len(rows), dtype=np.int64), 1
        code += rows[:, j].astype(np.int64) * mult
        mult *= radix
    codes.append(code)
    if len(codes) == 1:
        _, first, inv = np.unique(codes[0], return_index=True, return_inverse=True)
        return first, inv.ravel()
    order = np.lexsort(codes[::-1])
    stacked = np.stack([c[order] for c in codes])
    new = np.ones(len(order), dtype=bool)
    new[1:] = (stacked[:, 1:] != stacked[:, :-1]).any(axis=0)
    inv = np.empty(len(order), dtype=np.intp)
    inv[order] = np.cumsum(new) - 1
    return order[new], inv


def sweep(cells: Sequence[Cell], bounds: Bounds = UNBOUNDED, what: str = "a component") -> List[Moves]:
    """The forward pass over the keys: per cell, each state's next state without and with a mine."""
    keys = np.zeros((1, 0), dtype=np.int16)
    moves: List[Moves] = []
    kept = 0
    for i, cell in enumerate(cells):
        size = len(keys)
        ext = np.concatenate([keys, np.broadcast_to(cell.start, (size, len(cell.start)))], axis=1)
        mine = ext.copy()
        mine[:, cell.contains] -= 1
        ok0, ok1 = _fits(ext, cell), _fits(mine, cell)
        rows = np.concatenate([ext[ok0][:, cell.keep], mine[ok1][:, cell.keep]])
        first, inv = _merge(rows, cell.cap)
        keys = rows[first]
        if len(keys) > MAX_STATES:
            raise CountingLimitError(f"{what} needs more than {MAX_STATES} counting states")
        idx0 = np.full(size, -1, dtype=np.int32)
        idx1 = np.full(size, -1, dtype=np.int32)
        n0 = int(ok0.sum())
        idx0[ok0] = inv[:n0]
        idx1[ok1] = inv[n0:]
        moves.append((idx0, idx1, len(keys)))
        kept += 8 * size + 200
        bounds.check_memory(kept + keys.nbytes, what)
        bounds.report("counting", i + 1, len(cells))
        bounds.check()
    return moves


Shift = Callable[[np.ndarray], np.ndarray]


def _push(vals: np.ndarray, move: Moves, shift: Shift) -> np.ndarray:
    """The next layer's forward weights from this layer's."""
    idx0, idx1, size = move
    out = np.zeros(size, dtype=object)
    m0, m1 = idx0 >= 0, idx1 >= 0
    np.add.at(out, idx0[m0], vals[m0])
    np.add.at(out, idx1[m1], shift(vals[m1]))
    return out


def _pull(back: np.ndarray, move: Moves, shift: Shift) -> np.ndarray:
    """This layer's backward weights (ways to finish from each state) from the next layer's."""
    idx0, idx1, _ = move
    out = np.zeros(len(idx0), dtype=object)
    m0, m1 = idx0 >= 0, idx1 >= 0
    out[m0] = back[idx0[m0]]
    out[m1] += shift(back[idx1[m1]])
    return out


def _mine_weight(fwd: np.ndarray, back_next: np.ndarray, move: Moves, shift: Shift) -> object:
    """The weight of the solutions with a mine on this cell: forward into each target, times x, times back."""
    idx0, idx1, size = move
    into = np.zeros(size, dtype=object)
    m1 = idx1 >= 0
    np.add.at(into, idx1[m1], fwd[m1])
    nz = np.flatnonzero(into != 0)
    if not len(nz):
        return 0
    return np.dot(into[nz], shift(back_next[nz]))


def weigh(moves: Sequence[Moves], shift: Shift, bounds: Bounds = UNBOUNDED,
          what: str = "a component") -> Tuple[object, List[object], int]:
    """(total weight, weight with a mine per cell, bits of the largest forward or backward weight)."""
    fwd = [np.ones(1, dtype=object)]
    kept = 0
    for move in moves:
        fwd.append(_push(fwd[-1], move, shift))
        kept += sum(int_bytes(int(w).bit_length()) + 8 for w in fwd[-1][:64]) * len(fwd[-1]) // max(1, min(64, len(fwd[-1])))
        bounds.check_memory(kept, what)
        bounds.check()
    top = max(max((int(w).bit_length() for w in layer), default=0) for layer in fwd)
    if not len(fwd[-1]):
        return 0, [0] * len(moves), top
    total = fwd[-1][0]
    back = np.ones(1, dtype=object)
    marg: List[object] = [0] * len(moves)
    for i in range(len(moves) - 1, -1, -1):
        marg[i] = _mine_weight(fwd[i], back, moves[i], shift)
        back = _pull(back, moves[i], shift)
        top = max(top, max((int(w).bit_length() for w in back), default=0))
        fwd[i + 1] = np.zeros(0, dtype=object)   # no longer needed: give it back while the marginals grow
        bounds.check()
    return total, marg, top


def unpack(value: int, slot_bytes: int) -> List[int]:
    """The coefficients of a packed polynomial (slots of slot_bytes bytes, lowest first), no trailing zeros."""
    if value == 0:
        return [0]
    raw = value.to_bytes((value.bit_length() + 7) // 8 + slot_bytes, "little")
    n = (value.bit_length() - 1) // (8 * slot_bytes) + 1
    return [int.from_bytes(raw[j * slot_bytes:(j + 1) * slot_bytes], "little") for j in range(n)]


def count_component(vars_: Sequence[int], cons: Cons, var_rc: np.ndarray, weighted: bool = True,
                    bounds: Bounds = UNBOUNDED):
    """The same answer as counting.count_component: (P, {v: M[v]}), polynomials when weighted, else ints."""
    what = f"counting a component of {len(vars_)} linked unknown cells"
    order = sweep_order(vars_, cons, var_rc)
    width, _ = frontier(order, cons)
    if width > MAX_WIDTH:
        raise CountingLimitError(f"{what} would keep {width} counts open at once (more than {MAX_WIDTH})")
    moves = sweep(schedule(order, cons), bounds, what)
    total, marg, top = weigh(moves, lambda a: a, bounds, what)
    if not weighted:
        return total, {v: m for v, m in zip(order, marg)}
    # no coefficient exceeds the plain count it is part of: slots of `top` bits cannot overflow
    slot = (max(top, int(total).bit_length()) + 1 + 7) // 8
    bits = 8 * slot
    total, marg, _ = weigh(moves, lambda a: a << bits, bounds, what)
    return unpack(int(total), slot), {v: unpack(int(m), slot) for v, m in zip(order, marg)}
