"""Exact counting of big components by a table sweep: whole layers of states at once, in numpy.

The counter of `count` walks the component's cells in an order with a narrow frontier and keeps, after
each cell, a table: key = the residues of the counts the sweep has entered but not left (how many more
mines each still needs), value = how many ways the cells so far reach that key. This module runs the
same dynamic programme over a path decomposition, but a layer at a time: the keys are an int8 matrix
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

from typing import Dict, List, NamedTuple, Sequence, Tuple

import numpy as np

from ....core.bounds import UNBOUNDED, Bounds, CountingLimitError, int_bytes
from ..packing import top_bits, unpack_slots
from .packed import Cons, Moves, packed_sweep

BIG_COMPONENT = 48    # cells from which a component is swept here (smaller: counting's own loop is as quick)
MAX_WIDTH = 64        # open counts at once past which a sweep is not even tried
STATES_PER_CAP = 100  # a layer here may hold this many times counting's max_states (states cost ~50x less)



class Cell(NamedTuple):
    """What one cell of the sweep does to the frontier: columns refer to the frontier extended by `start`."""

    start: np.ndarray      # rhs of the counts entered at this cell
    contains: np.ndarray   # columns of the counts containing the cell
    keep: np.ndarray       # columns still open after the cell
    cap: np.ndarray        # cells each kept count has left after the cell
    ends: np.ndarray       # columns of the counts left at this cell (their residue must be 0)




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
            start=np.asarray([cons[ci][1] for ci in entering], dtype=np.int8),
            contains=np.asarray([j for j, ci in enumerate(ext) if i in sets[ci]], dtype=np.intp),
            keep=np.asarray([j for j, ci in enumerate(ext) if members[ci][-1] > i], dtype=np.intp),
            cap=np.asarray([sum(1 for p in members[ci] if p > i) for ci in nxt], dtype=np.int8),
            ends=np.asarray([j for j, ci in enumerate(ext) if members[ci][-1] == i], dtype=np.intp)))
        active = nxt
    return cells


def _fits(rows: np.ndarray, cell: Cell) -> np.ndarray:
    """Rows whose ending counts are met and whose kept residues are within 0 .. cells left."""
    ok = (rows[:, cell.ends] == 0).all(axis=1)
    kept = rows[:, cell.keep]
    return ok & (kept >= 0).all(axis=1) & (kept <= cell.cap).all(axis=1)


def merge_rows(rows: np.ndarray, cap: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
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


def row_sweep(cells: Sequence[Cell], bounds: Bounds = UNBOUNDED, what: str = "a component",
              max_states: int = 1 << 62) -> List[Moves]:
    """The forward pass over the keys: per cell, each state's next state without and with a mine."""
    keys = np.zeros((1, 0), dtype=np.int8)
    moves: List[Moves] = []
    kept = 0
    for i, cell in enumerate(cells):
        size = len(keys)
        # the step's own arrays (the extended keys twice, both moves' rows, their int64 codes and the sort)
        # come before the check after it: a layer of millions of wide rows must not pass the budget unseen
        width = keys.shape[1] + len(cell.start)
        bounds.check_memory(kept + size * (6 * width + 64), what)
        ext = np.concatenate([keys, np.broadcast_to(cell.start, (size, len(cell.start)))], axis=1)
        mine = ext.copy()
        mine[:, cell.contains] -= 1
        ok0, ok1 = _fits(ext, cell), _fits(mine, cell)
        rows = np.concatenate([ext[ok0][:, cell.keep], mine[ok1][:, cell.keep]])
        first, inv = merge_rows(rows, cell.cap)
        keys = rows[first]
        if len(keys) > max_states:
            raise CountingLimitError(f"{what} needs more than {max_states} counting states")
        idx0 = np.full(size, -1, dtype=np.int32)
        idx1 = np.full(size, -1, dtype=np.int32)
        n0 = int(ok0.sum())
        idx0[ok0] = inv[:n0]
        idx1[ok1] = inv[n0:]
        moves.append((idx0, idx1, len(keys)))
        kept += 16 * size + 200
        bounds.check_memory(kept + keys.nbytes, what)
        bounds.report("counting", i + 1, len(cells))
        bounds.check()
    return moves


def prune(moves: Sequence[Moves]) -> List[Moves]:
    """The moves without the dead states (those no way finishes from), the states renumbered.

    On a 30x30 checkerboard four states in five are dead: the weights need not flow through them. Every
    state before a live one is live, so the forward weights of live states do not change.
    """
    alive = [np.ones(moves[-1][2], dtype=bool)] if moves else []
    for idx0, idx1, _ in reversed(moves):
        nxt = alive[-1]
        a = np.zeros(len(idx0), dtype=bool)
        for idx in (idx0, idx1):
            m = idx >= 0
            a[m] |= nxt[idx[m]]
        alive.append(a)
    alive.reverse()
    out: List[Moves] = []
    for i, (idx0, idx1, _) in enumerate(moves):
        keep, nxt = alive[i], alive[i + 1]
        renumber = (np.cumsum(nxt) - 1).astype(np.int32)
        pair = []
        for idx in (idx0[keep], idx1[keep]):
            safe = np.maximum(idx, 0)
            pair.append(np.where((idx >= 0) & nxt[safe], renumber[safe], -1).astype(np.int32))
        out.append((pair[0], pair[1], int(nxt.sum())))
    return out


Weights = Tuple[np.ndarray, np.ndarray]   # per state: packed weight (object ints) and its offset in mines
NONE = np.iinfo(np.int64).max              # the offset of a state nothing reaches


def aligned(vals: np.ndarray, offs: np.ndarray, to: np.ndarray, bits: int) -> np.ndarray:
    """vals * x**(offs - to): weights brought down to a common offset (`to` <= offs)."""
    if not bits:
        return vals
    d = offs - to
    out = vals.copy()
    up = np.flatnonzero(d)
    out[up] = vals[up] << (d[up] * bits)
    return out


def scatter(size: int, target: np.ndarray, vals: np.ndarray) -> np.ndarray:
    """out[t] = the sum of vals[k] over target[k] == t (an object array of `size`). The first value reaching
    each t is put there as it is: np.add.at alone copies each one (0 + v), a big integer per state."""
    out = np.zeros(size, dtype=object)
    _, first = np.unique(target, return_index=True)
    out[target[first]] = vals[first]
    rest = np.setdiff1d(np.arange(len(target)), first, assume_unique=True)
    np.add.at(out, target[rest], vals[rest])
    return out


def push(layer: Weights, move: Moves, bits: int) -> Weights:
    """The next layer's forward weights (and offsets) from this layer's."""
    vals, offs = layer
    idx0, idx1, size = move
    m0, m1 = idx0 >= 0, idx1 >= 0
    target = np.concatenate([idx0[m0], idx1[m1]])
    v = np.concatenate([vals[m0], vals[m1]])
    o = np.concatenate([offs[m0], offs[m1] + (1 if bits else 0)])
    to = np.full(size, NONE, dtype=np.int64)
    np.minimum.at(to, target, o)
    out = scatter(size, target, aligned(v, o, to[target], bits))
    to[to == NONE] = 0
    return out, to


def pull(back: Weights, move: Moves, bits: int) -> Weights:
    """This layer's backward weights (ways to finish from each state) from the next layer's."""
    vals, offs = back
    idx0, idx1, _ = move
    m0, m1 = idx0 >= 0, idx1 >= 0
    o0 = np.where(m0, offs[idx0], NONE)
    o1 = np.where(m1, offs[idx1] + (1 if bits else 0), NONE)
    to = np.minimum(o0, o1)
    to[to == NONE] = 0
    return pull_both(vals, idx0, idx1, o0, o1, to, bits), to


def pull_both(vals: np.ndarray, idx0: np.ndarray, idx1: np.ndarray, o0: np.ndarray, o1: np.ndarray, to: np.ndarray,
              bits: int) -> np.ndarray:
    """Per state, the sum of the next layer's weights its two moves lead to, brought to offset `to` (one
    move only: that weight as it is, not copied by 0 + v)."""
    m0, m1 = idx0 >= 0, idx1 >= 0
    out = np.zeros(len(idx0), dtype=object)
    out[m0] = aligned(vals[idx0[m0]], o0[m0], to[m0], bits)
    for m, add in ((m1 & ~m0, False), (m1 & m0, True)):
        more = aligned(vals[idx1[m]], o1[m], to[m], bits)
        out[m] = out[m] + more if add else more
    return out


def _mine_weight(fwd: Weights, back_next: Weights, move: Moves, bits: int) -> Tuple[object, int]:
    """The weight (and offset) of the solutions with a mine on this cell: forward into each target times x
    times the weight of finishing from there."""
    vals, offs = fwd
    idx0, idx1, size = move
    m1 = idx1 >= 0
    target, v, o = idx1[m1], vals[m1], offs[m1]
    to = np.full(size, NONE, dtype=np.int64)
    np.minimum.at(to, target, o)
    into = np.zeros(size, dtype=object)
    np.add.at(into, target, aligned(v, o, to[target], bits))
    back, boffs = back_next
    nz = np.flatnonzero((into != 0) & (back != 0))
    if not len(nz):
        return 0, 0
    prod_off = to[nz] + boffs[nz]
    low = int(prod_off.min())
    one = 1 if bits else 0
    # multiply first, then shift: shifting a factor first would make Karatsuba multiply its zero slots too
    products = into[nz] * back[nz]
    return aligned(products, prod_off, np.full(len(nz), low), bits).sum(), low + one


def weigh(moves: Sequence[Moves], bits: int, bounds: Bounds = UNBOUNDED, what: str = "a component",
          held: int = 0) -> Tuple[Tuple[object, int], List[Tuple[object, int]]]:
    """((total, offset), (weight with a mine, offset) per cell): polynomials packed in slots of `bits` bits
    (bits = 0: plain counts)."""
    one = (np.ones(1, dtype=object), np.zeros(1, dtype=np.int64))
    fwd = [one]
    kept = held
    for move in moves:
        fwd.append(push(fwd[-1], move, bits))
        vals = fwd[-1][0]
        kept += 16 * len(vals) + int_bytes(top_bits(vals[:16])) * len(vals)
        bounds.check_memory(kept, what)
        bounds.check()
    if not len(fwd[-1][0]):
        return (0, 0), [(0, 0)] * len(moves)
    total = (fwd[-1][0][0], int(fwd[-1][1][0]))
    back = one
    marg: List[Tuple[object, int]] = [(0, 0)] * len(moves)
    for i in range(len(moves) - 1, -1, -1):
        marg[i] = _mine_weight(fwd[i], back, moves[i], bits)
        back = pull(back, moves[i], bits)
        fwd[i + 1] = one   # no longer needed: give it back while the marginals grow
        bounds.check()
    return total, marg


def _log_pass(moves: Sequence[Moves]) -> Tuple[float, float]:
    """(log2 of the plain count, log2 of the largest plain forward or backward weight), in floats.

    Each layer is scaled to a largest weight of 1 and the scale kept as a logarithm, so no float overflows;
    the relative error is that of double precision, far below the margin the callers add.
    """
    vals: np.ndarray = np.ones(1)
    scale, top = 0.0, 0.0
    for idx0, idx1, size in moves:
        m0, m1 = idx0 >= 0, idx1 >= 0
        vals = (np.bincount(idx0[m0], vals[m0], minlength=size) + np.bincount(idx1[m1], vals[m1], minlength=size))
        peak = vals.max(initial=0.0)
        if peak <= 0:
            return float("-inf"), top
        vals = vals / peak
        scale += float(np.log2(peak))
        top = max(top, scale)
    total = scale + float(np.log2(vals[0]))
    back, scale = np.ones(1), 0.0
    for idx0, idx1, _ in reversed(moves):
        m0, m1 = idx0 >= 0, idx1 >= 0
        out = np.zeros(len(idx0))
        out[m0] = back[idx0[m0]]
        out[m1] += back[idx1[m1]]
        peak = out.max(initial=0.0)
        back = out / peak if peak > 0 else out
        scale += float(np.log2(peak)) if peak > 0 else 0.0
        top = max(top, scale)
    return total, top


def primes_below(limit: int, k: int) -> List[int]:
    """The k largest primes below limit (trial division; k is at most a few thousand)."""
    out: List[int] = []
    n = limit - 1
    while len(out) < k:
        if n % 2 and all(n % d for d in range(3, int(n ** 0.5) + 1, 2)):
            out.append(n)
        n -= 1
    return out


def modular_weigh(moves: Sequence[Moves], bits: int, bounds: Bounds = UNBOUNDED, what: str = "a component",
                  held: int = 0) -> Tuple[int, List[int]]:
    """(plain count, plain count with a mine per cell) by residues modulo primes below 2**31, in numpy.

    Only the results are rebuilt (Chinese remainders), so the primes' product need only pass the count
    (`bits` of it): the weights in between may wrap freely. Sums of residues stay below 2**53, so
    np.bincount adds them exactly in floats; a product of two residues fits in int64.
    """
    primes = np.asarray(primes_below(1 << 31, bits // 30 + 1), dtype=np.int64)
    k = len(primes)
    fwd = [np.ones((1, k), dtype=np.int64)]
    kept = held
    for idx0, idx1, size in moves:
        m0, m1 = idx0 >= 0, idx1 >= 0
        v = fwd[-1]
        out = np.empty((size, k), dtype=np.int64)
        for j in range(k):
            col = v[:, j].astype(np.float64)
            out[:, j] = (np.bincount(idx0[m0], col[m0], minlength=size)
                         + np.bincount(idx1[m1], col[m1], minlength=size)).astype(np.int64)
        fwd.append(out % primes)
        kept += out.nbytes
        bounds.check_memory(kept, what)
        bounds.check()
    back = np.ones((1, k), dtype=np.int64)
    marg: List[np.ndarray] = [back[0]] * len(moves)
    for i in range(len(moves) - 1, -1, -1):
        idx0, idx1, size = moves[i]
        m0, m1 = idx0 >= 0, idx1 >= 0
        into = np.zeros((size, k), dtype=np.int64)
        np.add.at(into, idx1[m1], fwd[i][m1])
        marg[i] = ((into % primes) * back % primes).sum(axis=0) % primes
        out = np.zeros((len(idx0), k), dtype=np.int64)
        out[m0] = back[idx0[m0]]
        out[m1] += back[idx1[m1]]
        back = out % primes
        fwd[i + 1] = back[:0]
        bounds.check()
    crt = _crt(primes.tolist())
    return crt(back[0]), [crt(m) for m in marg]


def _crt(primes: List[int]):
    """A function from residues (one per prime) to the integer in [0, product) they stand for."""
    modulus = 1
    for p in primes:
        modulus *= p
    basis = [(modulus // p) * pow(modulus // p, -1, p) for p in primes]

    def rebuild(residues: np.ndarray) -> int:
        return sum(int(r) * b for r, b in zip(residues.tolist(), basis)) % modulus

    return rebuild


class Swept(NamedTuple):
    """A component swept: its cells in order, the pruned moves, their bytes, and log2 of the plain count and
    of the largest plain forward or backward weight (-inf count: no solution)."""

    order: List[int]
    moves: List[Moves]
    held: int
    log_total: float
    log_top: float

    def slot_bytes(self, even: bool = False) -> int:
        """Bytes per coefficient of a packed polynomial: no coefficient exceeds the plain weight it is part
        of, so slots wider than the largest cannot overflow (even: a whole number of 16-bit limbs)."""
        slot = (int(max(self.log_top, self.log_total)) + 4 + 7) // 8
        return slot + (slot & 1) if even else slot


def prepare(vars_: Sequence[int], cons: Cons, var_rc: np.ndarray, bounds: Bounds = UNBOUNDED,
            max_states: int = 1 << 62) -> Swept:
    """The sweep of a component (order, pruned moves) and the plain counts' sizes, before any weighing.

    Raises CountingLimitError when the sweep would keep more than MAX_WIDTH counts open or a layer would
    pass max_states states, CountingMemoryError past the memory budget of `bounds`."""
    what = f"counting a component of {len(vars_)} linked unknown cells"
    order = sweep_order(vars_, cons, var_rc)
    width, _ = frontier(order, cons)
    if width > MAX_WIDTH:
        raise CountingLimitError(f"{what} would keep {width} counts open at once (more than {MAX_WIDTH})")
    # the packed keys' sweep (packed), 6x quicker on a 40x40 checkerboard than `row_sweep` here, which stays
    # as the plain reference tests/analysis/counting/sweep/test_packed.py holds it to, transition for transition
    moves = prune(packed_sweep(order, cons, bounds, what, max_states))
    held = sum(16 * len(idx0) for idx0, _, _ in moves)
    log_total, log_top = _log_pass(moves)
    return Swept(order, moves, held, log_total, log_top)


def count_big_component(vars_: Sequence[int], cons: Cons, var_rc: np.ndarray, weighted: bool = True,
                        bounds: Bounds = UNBOUNDED, max_states: int = 1 << 62):
    """The same answer as counting.count_component: (P, {v: M[v]}), polynomials when weighted, else ints.

    Raises as prepare() does."""
    what = f"counting a component of {len(vars_)} linked unknown cells"
    swept = prepare(vars_, cons, var_rc, bounds, max_states)
    order, moves, held = swept.order, swept.moves, swept.held
    if swept.log_total == float("-inf"):
        zero: object = [0] if weighted else 0
        return zero, {v: zero for v in vars_}
    if not weighted:
        total, marg = modular_weigh(moves, int(swept.log_total) + 4, bounds, what, held)
        return total, dict(zip(order, marg))
    return mine_polynomials(swept, bounds, what)


def mine_polynomials(swept: Swept, bounds: Bounds = UNBOUNDED, what: str = "a component"):
    """(P, {v: M[v]}) of a swept component with at least one solution, as coefficient lists by mines."""
    slot = swept.slot_bytes()
    wtotal, wmarg = weigh(swept.moves, 8 * slot, bounds, what, swept.held)
    return unpack_slots(*wtotal, slot), {v: unpack_slots(*m, slot) for v, m in zip(swept.order, wmarg)}
