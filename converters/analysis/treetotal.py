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
from typing import Dict, List, Sequence

import numpy as np

from ..core.bounds import UNBOUNDED, Bounds, int_bytes
from .treecount import NONE, Moves, Swept, Weights, aligned, mine_polynomials, push, top_bits, unpack

CHUNK = 1 << 18   # rows of the limb matrices multiplied at once (exactness needs at most 2**21)


def _layer_bytes(layer: Weights) -> int:
    """Estimated bytes of a layer of packed weights (judged by its first states)."""
    return (16 + int_bytes(top_bits(layer[0][:16]))) * len(layer[0])


BIT_LENGTH = np.frompyfunc(int.bit_length, 1, 1)


def _pull_down(back: Weights, move: Moves, bits: int, fwd: Weights, fbits: int) -> Weights:
    """This layer's BW from the next layer's, only over the numbers of mines the forward weights hold."""
    vals, offs = back
    idx0, idx1, _ = move
    m0, m1 = idx0 >= 0, idx1 >= 0
    o0 = np.where(m0, offs[np.maximum(idx0, 0)], NONE)
    o1 = np.where(m1, offs[np.maximum(idx1, 0)] - 1, NONE)
    to = np.minimum(o0, o1)
    out = np.zeros(len(idx0), dtype=object)
    out[m0] = aligned(vals[idx0[m0]], o0[m0], to[m0], bits)
    out[m1] += aligned(vals[idx1[m1]], o1[m1], to[m1], bits)
    low = fwd[1]
    cut = np.flatnonzero(to < low)
    if len(cut):
        out[cut] = out[cut] >> ((low[cut] - to[cut]) * bits)
        to[cut] = low[cut]
    # and above the most: BW's top slot stays where w ends while the forward weights start near 0 mines
    top = np.asarray(BIT_LENGTH(fwd[0]), dtype=np.int64)
    slots = np.maximum(low + (top - 1) // fbits - to + 1, 0)
    masks = np.asarray([(1 << (n * bits)) - 1 for n in range(int(slots.max(initial=0)) + 1)], dtype=object)
    return out & masks[slots], to


def _limbs(values: np.ndarray, nbytes: int, slot: int) -> np.ndarray:
    """Rows of 16-bit limbs: each value as nbytes little-endian bytes, a row per slot of `slot` bytes."""
    raw = b"".join(int(x).to_bytes(nbytes, "little") for x in values)
    return np.frombuffer(raw, dtype="<u2").reshape(-1, slot // 2)


def _dot(fwd: Weights, back_next: Weights, move: Moves, slot: int, bslot: int) -> int:
    """Cell's number: sum over the states t a mine on it leads to of into(t) . BW(t), slot by slot."""
    idx0, idx1, size = move
    into, ito = push(fwd, (np.full(len(idx1), -1, dtype=np.int32), idx1, size), 8 * slot)
    bvals, boffs = back_next
    nz = np.flatnonzero((into != 0) & (bvals != 0))
    if not len(nz):
        return 0
    a, b, d = into[nz], bvals[nz].copy(), boffs[nz] - ito[nz]
    up, down = np.flatnonzero(d > 0), np.flatnonzero(d < 0)
    b[up] = b[up] << (d[up] * 8 * bslot)
    b[down] = b[down] >> (-d[down] * 8 * bslot)
    width = -(-top_bits(a) // (8 * slot))    # slots of the widest into(t): BW's slots past it meet zeros
    b = b & ((1 << (width * 8 * bslot)) - 1)
    rows_a, rows_b = _limbs(a, width * slot, slot), _limbs(b, width * bslot, bslot)
    acc = np.zeros((slot // 2, bslot // 2), dtype=np.int64)
    for start in range(0, len(rows_a), CHUNK):
        part_a = rows_a[start:start + CHUNK].astype(np.float64)
        part_b = rows_b[start:start + CHUNK].astype(np.float64)
        acc += (part_a.T @ part_b).astype(np.int64)
    total = 0
    for k, row in enumerate(acc.tolist()):
        for ell, c in enumerate(row):
            if c:
                total += c << (16 * (k + ell))
    return total


class BigComponent:
    """A swept component: its count polynomial P now, its per-cell numbers once w is known.

    The backward pass needs every layer's forward weights, which on a 40x40 checkerboard pass the memory
    budget; P's forward pass keeps one layer in `every` (about the square root of the number of cells),
    and the backward pass recomputes the layers between two kept ones as it reaches them: one forward
    pass more for a square root of the memory."""

    def __init__(self, swept: Swept, bounds: Bounds = UNBOUNDED) -> None:
        self.swept = swept
        self.what = f"counting a component of {len(swept.order)} linked unknown cells"
        self.slot = swept.slot_bytes(even=True)
        self.every = max(1, math.isqrt(len(swept.moves)))
        self.kept: Dict[int, Weights] = {}
        if swept.log_total == float("-inf"):
            self.P = [0]
            return
        layer: Weights = (np.ones(1, dtype=object), np.zeros(1, dtype=np.int64))
        held = swept.held
        for i, move in enumerate(swept.moves):
            if i % self.every == 0:
                self.kept[i] = layer
                held += _layer_bytes(layer)
            layer = push(layer, move, 8 * self.slot)
            bounds.check_memory(held + _layer_bytes(layer), self.what)
            bounds.check()
        self.P = unpack(layer[0][0], int(layer[1][0]), self.slot)

    def polynomials(self, bounds: Bounds = UNBOUNDED) -> Dict[int, List[int]]:
        """{v: M[v]}: the per-cell polynomials themselves (weigh(), one product per state)."""
        self.kept = {}
        if self.swept.log_total == float("-inf"):
            return {v: [0] for v in self.swept.order}
        return mine_polynomials(self.swept, bounds, self.what)[1]

    def _segment(self, start: int, bounds: Bounds, held: int) -> List[Weights]:
        """The forward layers start .. start + every - 1, recomputed from the kept one at start."""
        moves = self.swept.moves
        layers = [self.kept.pop(start)]
        for i in range(start, min(start + self.every, len(moves)) - 1):
            layers.append(push(layers[-1], moves[i], 8 * self.slot))
            held += _layer_bytes(layers[-1])
            bounds.check_memory(held, self.what)
            bounds.check()
        return layers

    def weighted_mines(self, w: Sequence[int], bounds: Bounds = UNBOUNDED) -> Dict[int, int]:
        """{v: sum_j M[v][j] * w[j]}: each cell's solutions with a mine there, weighted by w[mines]."""
        swept, slot = self.swept, self.slot
        if swept.log_total == float("-inf") or not any(w):
            return {v: 0 for v in swept.order}
        top = int(swept.log_top) + 4 + max(int(x).bit_length() for x in w)   # BW(s)[a] <= back(s) * max w
        bslot = (top + 15) // 16 * 2
        low = next(j for j, x in enumerate(w) if x)
        packed = sum(int(x) << (8 * bslot * (j - low)) for j, x in enumerate(w) if j >= low)
        back: Weights = (np.asarray([packed], dtype=object), np.asarray([low], dtype=np.int64))
        out: Dict[int, int] = {}
        for start in sorted(self.kept, reverse=True):
            held = swept.held + sum(_layer_bytes(layer) for layer in self.kept.values())
            layers = self._segment(start, bounds, held)
            for i in range(start + len(layers) - 1, start - 1, -1):
                fwd = layers.pop()
                out[swept.order[i]] = _dot(fwd, back, swept.moves[i], slot, bslot)
                back = _pull_down(back, swept.moves[i], 8 * bslot, fwd, 8 * slot)
                bounds.check()
        return out
