"""A swept component's per-cell numbers under a total mine count, the total's weights applied as it goes.

With a total, counting uses a component's per-cell polynomials only through sum_j M[v][j] * w[j], where
w[j] is the number of ways the rest of the board (the other components and the free cells) takes the
remaining mines when this component holds j. So once the component's count polynomial P is known (a
forward pass, `BigComponent`) and counting has w, the backward pass carries w applied: per state s
BW(s)[a] = sum_b back(s)[b] * w[a + b], a vector by the number of mines placed *before* s, packed in one
integer like the forward weights. It needs additions only: BW(s) = BW(next without a mine) + BW(next with
a mine) one slot down (a mine more before it); slots below the fewest mines that reach s are dropped.

Cell v's number is then the sum, over the states t a mine on v leads to, of the dot product of into(t)
(the forward weight arriving at t with that mine) with BW(t), slot by slot: no product of polynomials.
weigh() paid one big-integer product per such state (four fifths of the time on a 30x30 checkerboard);
here a whole layer's dot products are one float64 matrix product of the slots' 16-bit limbs: row r of
A (limbs of into's slots) and of B (limbs of BW's slots, aligned to the same number of mines) meet in
A.T @ B, whose entry (k, l) is summed back at bit 16 (k + l). Each term is below 2**32 and a chunk has
at most 2**18 rows, so every float sum stays below 2**53: exact.
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ....core.bounds import UNBOUNDED, Bounds, int_bytes
from ..packing import repack, top_bits, unpack_slots
from ..polynomials import binomial_bits
from .rows import (
    NONE,
    Moves,
    Swept,
    Weights,
    aligned,
    mine_polynomials,
    pull,
    pull_both,
    push,
    scatter,
)

CHUNK = 1 << 18   # rows of the limb matrices multiplied at once (exactness needs at most 2**21)
# OpenBLAS runs a product of m x n x k multiply-adds up to 2**18 on one thread; past it, it starts threads
# that wait for a core. With another process on the second core, checker-40x40-0.4's last 46 layers spent
# 73 s in these (tall, narrow) products; cut to this size they take 0.3 s, no slower on a quiet machine
SERIAL = 1 << 18
TARGETS = 1 << 13  # states whose dot products are taken together
# a step's peak beside what is held: the layer it reads, the shifted copies of its weights and the layer it
# makes (push and _pull_down); counting the new layer once let checker-40x40-0.4 reach 2.5 GB of RSS under a
# 2 GB budget, whose estimate stayed below it
WORKING = 4


def _layer_bytes(layer: Weights) -> int:
    """Estimated bytes of a layer of packed weights (judged by the biggest of 16 states across it)."""
    vals = layer[0]
    return (16 + int_bytes(top_bits(vals[::max(1, len(vals) // 16)]))) * len(vals)


def _masks(slots: np.ndarray, bits: int) -> np.ndarray:
    """Per entry, the mask keeping its lowest `slots` slots of `bits` bits (none for slots <= 0)."""
    slots = np.maximum(slots, 0)
    masks = [(1 << (n * bits)) - 1 for n in range(int(slots.max(initial=0)) + 1)]
    return np.asarray(masks, dtype=object)[slots]


def _pull_down(back: Weights, btop: np.ndarray, move: Moves, bits: int, low: np.ndarray,
               high: np.ndarray) -> Tuple[Weights, np.ndarray]:
    """This layer's BW (and its top slots, in mines) from the next layer's, only over the numbers of mines
    the forward weights hold there (low .. high)."""
    vals, offs = back
    idx0, idx1, _ = move
    m0, m1 = idx0 >= 0, idx1 >= 0
    i0, i1 = np.maximum(idx0, 0), np.maximum(idx1, 0)
    o0 = np.where(m0, offs[i0], NONE)
    o1 = np.where(m1, offs[i1] - 1, NONE)
    to = np.minimum(o0, o1)
    top = np.maximum(np.where(m0, btop[i0], -1), np.where(m1, btop[i1] - 1, -1))
    out = pull_both(vals, idx0, idx1, o0, o1, to, bits)
    _clip(out, to, top, low, high, bits)
    return (out, to), top


def _clip(out: np.ndarray, to: np.ndarray, top: np.ndarray, low: np.ndarray, high: np.ndarray, bits: int) -> None:
    """Drop, in place, each state's slots below `low` mines and above `high` (the other pass's weights are
    zero there): BW's top stays near where w ends while the forward weights start near 0 mines."""
    cut = np.flatnonzero(to < low)
    if len(cut):
        out[cut] = out[cut] >> ((low[cut] - to[cut]) * bits)
        to[cut] = low[cut]
    over = np.flatnonzero(top > high)
    if len(over):
        out[over] = out[over] & _masks(high[over] - to[over] + 1, bits)
        top[over] = high[over]


def _limbs(values: np.ndarray, nbytes: int, slot: int) -> np.ndarray:
    """Rows of 16-bit limbs: each value as nbytes little-endian bytes, a row per slot of `slot` bytes."""
    raw = b"".join(map(partial(int.to_bytes, length=nbytes, byteorder="little"), values.tolist()))
    return np.frombuffer(raw, dtype="<u2").reshape(-1, slot // 2)


def _dot_part(a: np.ndarray, aoff: np.ndarray, atop: np.ndarray, b: np.ndarray, boff: np.ndarray,
              btop: np.ndarray, slot: int, bslot: int, abits: int) -> np.ndarray:
    """sum over k, l of A.T @ B for some states: into's slots (a, first at aoff, last at most atop) against
    BW's (b, first at boff, last at btop) over the same numbers of mines, as 16-bit limbs."""
    d = boff - aoff
    b = b.copy()
    up, down = np.flatnonzero(d > 0), np.flatnonzero(d < 0)
    b[up] = b[up] << (d[up] * 8 * bslot)
    b[down] = b[down] >> (-d[down] * 8 * bslot)
    width = int((atop - aoff).max()) + 1   # slots of the widest into(t): BW's slots past it meet zeros
    over = np.flatnonzero(btop - aoff >= width)
    b[over] = b[over] & ((1 << (width * 8 * bslot)) - 1)
    rows_a, rows_b = _limbs(a, width * slot, slot), _limbs(b, width * bslot, bslot)
    acc = np.zeros((slot // 2, bslot // 2), dtype=np.int64)
    # a's slots hold numbers of at most abits bits: the products skip their high limbs (always zero)
    ka, kb = min(slot // 2, (abits + 15) // 16), bslot // 2
    rows_a = rows_a[:, :ka]
    serial = max(1, SERIAL // (ka * kb))
    for start in range(0, len(rows_a), CHUNK):
        part_a = rows_a[start:start + CHUNK].astype(np.float64)
        part_b = rows_b[start:start + CHUNK].astype(np.float64)
        prod = np.zeros((ka, kb))
        for at in range(0, len(part_a), serial):
            prod += part_a[at:at + serial].T @ part_b[at:at + serial]
        acc[:ka, :kb] += prod.astype(np.int64)
    return acc


def _dot(fwd: Weights, back_next: Weights, btop: np.ndarray, ftop: np.ndarray, move: Moves, slot: int,
         bslot: int) -> int:
    """Cell's number: sum over the states t a mine on it leads to of into(t) . BW(t), slot by slot.

    The states go in parts of TARGETS, sorted by their span of mines: the limb rows of a part are padded
    to its widest state only, and a wide layer's rows are never all in memory at once."""
    idx0, idx1, size = move
    into, ito = push(fwd, (np.full(len(idx1), -1, dtype=np.int32), idx1, size), 8 * slot)
    bvals, boffs = back_next
    return _dots(into, ito, ftop, bvals, boffs, btop, slot, bslot, 8 * slot)


def _dots(avals: np.ndarray, aoff: np.ndarray, atop: np.ndarray, bvals: np.ndarray, boff: np.ndarray,
          btop: np.ndarray, slot: int, bslot: int, abits: int) -> int:
    """The sum of _dot_part over the states where both sides are non-zero, in parts of TARGETS states
    sorted by the first side's span of mines (a's numbers have at most abits bits)."""
    nz = np.flatnonzero((avals != 0) & (bvals != 0))
    nz = nz[np.argsort(atop[nz] - aoff[nz], kind="stable")]
    acc = np.zeros((slot // 2, bslot // 2), dtype=object)
    for start in range(0, len(nz), TARGETS):
        part = nz[start:start + TARGETS]
        acc += _dot_part(avals[part], aoff[part], atop[part], bvals[part], boff[part], btop[part], slot,
                         bslot, abits).astype(object)
    return _collect(acc)


def _collect(acc: np.ndarray) -> int:
    """The number whose 16-bit limb products are summed in acc: entry (k, l) is worth 2**(16 (k + l))."""
    total = 0
    for k, row in enumerate(acc.tolist()):
        for ell, c in enumerate(row):
            if c:
                total += c << (16 * (k + ell))
    return total


def _push_down(fw: Weights, ftop: np.ndarray, move: Moves, bits: int, low: np.ndarray, high: np.ndarray,
               mine: bool) -> Tuple[Weights, np.ndarray]:
    """Half of the next layer's FW (and top slots, in mines) from this layer's: FW(t)[b] sums FW(s)[b]
    over the safe moves s -> t and FW(s)[b + 1] over the mine moves (mine: this half), kept to the mines a
    way on from t places (low .. high). Offsets where nothing arrives are NONE."""
    vals, offs = fw
    idx0, idx1, size = move
    none = np.zeros(len(idx0), dtype=bool)
    m0, m1 = (none, idx1 >= 0) if mine else (idx0 >= 0, none)
    target = np.concatenate([idx0[m0], idx1[m1]])
    o = np.concatenate([offs[m0], offs[m1] - 1])
    t = np.concatenate([ftop[m0], ftop[m1] - 1])
    to = np.full(size, NONE, dtype=np.int64)
    np.minimum.at(to, target, o)
    top = np.full(size, -1, dtype=np.int64)
    np.maximum.at(top, target, t)
    out = scatter(size, target, aligned(np.concatenate([vals[m0], vals[m1]]), o, to[target], bits))
    _clip(out, to, top, low, high, bits)
    return (out, to), top


def _join(safe: Weights, stop: np.ndarray, mine: Weights, mtop: np.ndarray, bits: int) -> Tuple[Weights, np.ndarray]:
    """FW of the next layer from its two halves (_push_down's), brought to a common offset."""
    (svals, soffs), (mvals, moffs) = safe, mine
    to = np.minimum(soffs, moffs)
    has_safe, has_mine = soffs != NONE, moffs != NONE
    out = np.where(has_safe, svals, mvals)   # one half only: its weights as they are (no copies)
    both = np.flatnonzero(has_safe & has_mine)
    out[both] = aligned(svals[both], soffs[both], to[both], bits) + aligned(mvals[both], moffs[both], to[both], bits)
    return (out, np.where(to == NONE, 0, to)), np.maximum(stop, mtop)


def _dot_back(into: Weights, itop: np.ndarray, back_next: Weights, btop: np.ndarray, slot: int, bslot: int,
              bbits: int) -> int:
    """Cell's number when the forward pass carries w: sum over the states t a mine on it leads to of
    B(t) . into(t) (the FW a mine brings into t), slot by slot (in parts of TARGETS states, as _dot);
    B's numbers have at most bbits bits."""
    bvals, boffs = back_next
    into_vals, ito = into
    return _dots(bvals, boffs, btop, into_vals, ito, itop, slot, bslot, bbits)


def _back_extent(moves: Sequence[Moves]) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    """Per layer and state, the fewest and the most mines a way on from it places (the backward weights'
    first and last slots)."""
    lows, tops = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
    for idx0, idx1, _ in reversed(moves):
        m0, m1 = idx0 >= 0, idx1 >= 0
        i0, i1 = np.maximum(idx0, 0), np.maximum(idx1, 0)
        lows.append(np.minimum(np.where(m0, lows[-1][i0], NONE), np.where(m1, lows[-1][i1] + 1, NONE)))
        tops.append(np.maximum(np.where(m0, tops[-1][i0], -1), np.where(m1, tops[-1][i1] + 1, -1)))
    return lows[::-1], tops[::-1]


def _log_back(moves: Sequence[Moves]) -> List[float]:
    """Per layer, log2 of its largest plain backward weight (scaled floats, as treecount's log pass)."""
    back, scale, logs = np.ones(1), 0.0, [0.0]
    for idx0, idx1, _ in reversed(moves):
        m0, m1 = idx0 >= 0, idx1 >= 0
        out = np.zeros(len(idx0))
        out[m0] = back[idx0[m0]]
        out[m1] += back[idx1[m1]]
        peak = float(out.max(initial=0.0))
        back = out / peak if peak > 0 else out
        scale += float(np.log2(peak)) if peak > 0 else 0.0
        logs.append(scale)
    return logs[::-1]


def _bound(lows: Sequence[np.ndarray], tops: Sequence[np.ndarray], slots: Sequence[int]) -> int:
    """Bytes of every layer's weights: their slots, each a Python int (~56 bytes besides its digits) behind
    16 bytes of arrays."""
    return sum(int(((top - low + 1) * slot).sum()) + 72 * len(top) for low, top, slot in zip(lows, tops, slots))


def _slots(logs: Sequence[float], most: int) -> List[int]:
    """Per layer, bytes per slot of the backward weights: whole 16-bit limbs over the layer's largest plain
    weight, growing from the end (a layer's pull can widen what it reads, never narrow it)."""
    out, cur = [], 2
    for log in reversed(logs):
        cur = min(most, max(cur, (int(log) + 4 + 15) // 16 * 2))
        out.append(cur)
    return out[::-1]


def _extent(moves: Sequence[Moves]) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    """Per layer and state, the fewest and the most mines a way in places (the forward weights' first
    and last slots)."""
    lows, tops = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
    for idx0, idx1, size in moves:
        m0, m1 = idx0 >= 0, idx1 >= 0
        low = np.full(size, NONE, dtype=np.int64)
        top = np.full(size, -1, dtype=np.int64)
        for m, idx, mine in ((m0, idx0, 0), (m1, idx1, 1)):
            np.minimum.at(low, idx[m], lows[-1][m] + mine)
            np.maximum.at(top, idx[m], tops[-1][m] + mine)
        lows.append(low)
        tops.append(top)
    return lows, tops


class BigComponent:
    """A swept component: its count polynomial P now, its per-cell numbers once w is known.

    Two ways, the one whose kept weights take fewer bytes (both bounds are known before any pass, from
    each state's span of mines): forward first, P's forward pass keeps the forward layers and the backward
    pass carries w (BW, by mines before a state); or backward first, P's backward pass keeps the backward
    layers B and the forward pass carries w (FW(s)[b] = sum_a F(s)[a] * w[a + b], by mines after s).
    The widest layers of a sweep come where a way has the most cells behind it or the most ahead: on
    checker-40x40-0.4 they come 680 cells into 766, where a forward weight spans 65 numbers of mines and a
    backward one 9 (forward layers 14.6 GB in all, backward ones 3.9 GB; on 30x30 0.57 GB against 0.97).

    When the bound passes half the budget (or keep_bytes), P's pass keeps one layer in `every` (about the
    square root of the number of cells) and the second pass recomputes the layers between two kept ones as
    it reaches them: one pass more for a square root of the memory. Deciding before the pass, not when the
    kept layers pass the bound, matters: layers freed halfway left their memory to the heap (2.3 GB RSS).
    """

    def __init__(self, swept: Swept, bounds: Bounds = UNBOUNDED, keep_bytes: Optional[int] = None,
                 keep: bool = True, backward: Optional[bool] = None) -> None:
        self.swept = swept
        self.what = f"counting a component of {len(swept.order)} linked unknown cells"
        self.slot = swept.slot_bytes(even=True)
        self.every = 1
        self.kept: Dict[int, Weights] = {}
        self.backward = bool(backward)
        self.logs: List[float] = []   # log2 of each layer's largest plain backward weight
        self.slots: List[int] = []    # backward first: each layer's bytes per slot (forward: self.slot)
        if swept.log_total == float("-inf"):
            self.P = [0]
            return
        n = len(swept.moves)
        self.lows, self.tops = _extent(swept.moves)
        blows, btops = _back_extent(swept.moves)
        self.logs = _log_back(swept.moves)
        self.slots = _slots(self.logs, self.slot)
        bound = _bound(self.lows, self.tops, [self.slot] * (n + 1))
        bbound = _bound(blows, btops, self.slots)
        self.backward = bbound < bound if backward is None else backward
        if self.backward:
            self.lows, self.tops, bound = blows, btops, bbound
        else:
            self.lows = []   # BW is clipped to the forward layers' own offsets: only their tops are needed
        if keep_bytes is None:
            keep_bytes = bounds.memory // 2 if bounds.memory else 1 << 62
        if swept.held + bound > keep_bytes:
            self.every = max(1, math.isqrt(n))
        elif not keep:
            self.every = max(1, n)   # all recomputed in weighted_mines: two components never hold theirs together
        layer = self._first_pass(bounds)
        self.P = unpack_slots(layer[0][0], int(layer[1][0]), self.slots[0] if self.backward else self.slot)

    def _first_pass(self, bounds: Bounds) -> Weights:
        """P's pass (forward, or backward from the end), keeping one layer in `every` (and the last one
        backward, where the second pass starts recomputing)."""
        layer: Weights = (np.ones(1, dtype=object), np.zeros(1, dtype=np.int64))
        moves, n = self.swept.moves, len(self.swept.moves)
        held = self.swept.held
        for i in (range(n, 0, -1) if self.backward else range(n)):
            if i % self.every == 0 or i == n:
                self.kept[i] = layer
                held += _layer_bytes(layer)
            layer = self._pull_to(layer, i - 1) if self.backward else push(layer, moves[i], 8 * self.slot)
            bounds.check_memory(held + WORKING * _layer_bytes(layer), self.what)
            bounds.check()
        return layer

    def _pull_to(self, layer: Weights, i: int) -> Weights:
        """The backward layer i from layer i + 1, widened first where layer i's slots are wider."""
        vals = repack(layer[0], self.slots[i + 1], self.slots[i])
        return pull((vals, layer[1]), self.swept.moves[i], 8 * self.slots[i])

    def polynomials(self, bounds: Bounds = UNBOUNDED) -> Dict[int, List[int]]:
        """{v: M[v]}: the per-cell polynomials themselves (weigh(), one product per state)."""
        self.kept = {}
        if self.swept.log_total == float("-inf"):
            return {v: [0] for v in self.swept.order}
        return mine_polynomials(self.swept, bounds, self.what)[1]

    def _segment(self, start: int, end: int, bounds: Bounds, held: int) -> List[Weights]:
        """The kept pass's layers start .. end - 1 (forward: recomputed from the kept one at start), or
        end .. start + 1 (backward: from the kept one at end); the second pass takes them from the end."""
        moves, bits = self.swept.moves, 8 * self.slot
        layers = [self.kept.pop(end if self.backward else start)]
        for i in (range(end, start + 1, -1) if self.backward else range(start, end - 1)):
            layers.append(self._pull_to(layers[-1], i - 1) if self.backward else push(layers[-1], moves[i], bits))
            held += _layer_bytes(layers[-1])
            bounds.check_memory(held + (WORKING - 1) * _layer_bytes(layers[-1]), self.what)
            bounds.check()
        return layers

    def weighted_mines(self, w: Sequence[int], bounds: Bounds = UNBOUNDED) -> Dict[int, int]:
        """{v: sum_j M[v][j] * w[j]}: each cell's solutions with a mine there, weighted by w[mines].

        Once only: it gives the kept layers back as it goes. When w's numbers are wider than a forward
        slot, BW's (FW's) slots would be too (big_components sends such components to the products first;
        this is the same fallback for a w it did not foresee): then the polynomials are applied."""
        swept, slot = self.swept, self.slot
        if swept.log_total == float("-inf") or not any(w):
            return {v: 0 for v in swept.order}
        if max(int(x).bit_length() for x in w) > 8 * slot:
            M = self.polynomials(bounds)
            return {v: sum(m * w[j] for j, m in enumerate(M[v]) if m and j < len(w)) for v in swept.order}
        # BW(s)[a] <= back(s) * max w, FW(s)[b] <= forward(s) * max w
        top = int(swept.log_top) + 4 + max(int(x).bit_length() for x in w)
        bslot = (top + 15) // 16 * 2
        low = next(j for j, x in enumerate(w) if x)
        high = len(w) - 1 - next(j for j, x in enumerate(reversed(w)) if x)
        if self.backward:
            low, high = max(low, int(self.lows[0][0])), min(high, int(self.tops[0][0]))
            if low > high:
                return {v: 0 for v in swept.order}
        packed = sum(int(w[j]) << (8 * bslot * (j - low)) for j in range(low, high + 1))
        carried: Weights = (np.asarray([packed], dtype=object), np.asarray([low], dtype=np.int64))
        ctop = np.asarray([high], dtype=np.int64)
        if self.backward:
            return self._carry_forward(carried, ctop, bslot, bounds)
        return self._carry_backward(carried, ctop, bslot, bounds)

    def _carry_backward(self, back: Weights, btop: np.ndarray, bslot: int, bounds: Bounds) -> Dict[int, int]:
        """weighted_mines forward first: BW from the end, each cell's dots against the forward layers."""
        swept, slot = self.swept, self.slot
        out: Dict[int, int] = {}
        starts = sorted(self.kept)
        for start, end in reversed(list(zip(starts, starts[1:] + [len(swept.moves)]))):
            held = swept.held + (sum(_layer_bytes(layer) for layer in self.kept.values()) if self.every > 1 else 0)
            layers = self._segment(start, end, bounds, held)
            sizes = [_layer_bytes(layer) for layer in layers]
            held += sum(sizes)
            for i in range(start + len(layers) - 1, start - 1, -1):
                fwd = layers.pop()
                held -= sizes.pop()
                out[swept.order[i]] = _dot(fwd, back, btop, self.tops[i + 1], swept.moves[i], slot, bslot)
                back, btop = _pull_down(back, btop, swept.moves[i], 8 * bslot, fwd[1], self.tops[i])
                bounds.check_memory(held + WORKING * _layer_bytes(back), self.what)
                bounds.check()
        return out

    def _carry_forward(self, fw: Weights, ftop: np.ndarray, bslot: int, bounds: Bounds) -> Dict[int, int]:
        """weighted_mines backward first: FW from the start, each cell's dots against the backward layers."""
        swept = self.swept
        out: Dict[int, int] = {}
        ends = sorted(self.kept)
        for start, end in zip([0] + ends[:-1], ends):
            held = swept.held + (sum(_layer_bytes(layer) for layer in self.kept.values()) if self.every > 1 else 0)
            layers = self._segment(start, end, bounds, held)
            sizes = [_layer_bytes(layer) for layer in layers]
            held += sum(sizes)
            for i in range(start, end):
                back = layers.pop()   # B at layer i + 1, where the cell's moves lead
                held -= sizes.pop()
                move, low, high = swept.moves[i], self.lows[i + 1], self.tops[i + 1]
                into, itop = _push_down(fw, ftop, move, 8 * bslot, low, high, mine=True)
                bbits = int(self.logs[i + 1]) + 2   # no coefficient of B(t) passes the plain count from t
                out[swept.order[i]] = _dot_back(into, itop, back, high, self.slots[i + 1], bslot, bbits)
                safe, stop = _push_down(fw, ftop, move, 8 * bslot, low, high, mine=False)
                fw, ftop = _join(safe, stop, into, itop, 8 * bslot)
                bounds.check_memory(held + WORKING * _layer_bytes(fw), self.what)
                bounds.check()
        return out


def big_components(sweeps: Dict[int, Swept], small: Sequence[Sequence[int]], free: int, left: int,
                   cells: int, bounds: Bounds = UNBOUNDED) -> Dict[int, Tuple[List[int], Any]]:
    """Per swept component (by its number): (P, BigComponent), or (P, {v: M[v]}) when its w may be wider
    than a forward slot (BW's slots would be as wide: on checker-100x100-0.3 a 457-cell component with
    470-bit weights took 62 s that way against 6 s for the products).

    Decided before P's pass from a bound of w's numbers: the product of the other components' plain counts
    (small: their polynomials) times the largest binomial of the `free` cells' window (`left` mines for
    all, the components `cells` in all), so that no component runs P's pass and then the products anyway.
    """
    lo, hi = max(0, left - cells), min(free, left)
    g_bits = binomial_bits(free, min(max(free // 2, lo), hi)) if lo <= hi else 0
    rest = g_bits + sum(math.log2(max(1, sum(P))) + 1 for P in small)
    logs = {n: max(0.0, swept.log_total) + 1 for n, swept in sweeps.items()}
    wide = {n for n, swept in sweeps.items()
            if rest + sum(logs.values()) - logs[n] + 4 > 8 * swept.slot_bytes(even=True)}
    narrow = [n for n in sweeps if n not in wide]
    out: Dict[int, Tuple[List[int], Any]] = {}
    for n, swept in sweeps.items():
        if n in wide and swept.log_total != float("-inf"):
            what = f"counting a component of {len(swept.order)} linked unknown cells"
            out[n] = mine_polynomials(swept, bounds, what)
        else:
            # only the last keeps its forward layers: two components never hold theirs together
            comp = BigComponent(swept, bounds, keep=n == (narrow or [n])[-1])
            out[n] = (comp.P, comp)
    return out
