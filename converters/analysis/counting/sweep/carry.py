"""The second pass of a swept component under a total: the rest of the board's weights w carried through
the sweep (BW from the end, or FW from the start), each cell's number a dot product against the kept layers.

Cell v's number is then the sum, over the states t a mine on v leads to, of the dot product of into(t)
(the forward weight arriving at t with that mine) with BW(t), slot by slot: no product of polynomials.
weigh() paid one big-integer product per such state (four fifths of the time on a 30x30 checkerboard);
here a whole layer's dot products are one float64 matrix product of the slots' 16-bit limbs: row r of
A (limbs of into's slots) and of B (limbs of BW's slots, aligned to the same number of mines) meet in
A.T @ B, whose entry (k, l) is summed back at bit 16 (k + l). Each term is below 2**32 and a chunk has
at most 2**18 rows, so every float sum stays below 2**53: exact.
"""
from __future__ import annotations

from functools import partial
from typing import Dict, Tuple

import numpy as np

from ....core.bounds import Bounds
from .plan import WORKING, KeptPasses, layer_bytes
from .rows import NONE, Moves, Weights, aligned, pull_both, push, scatter

CHUNK = 1 << 18   # rows of the limb matrices multiplied at once (exactness needs at most 2**21)


# OpenBLAS runs a product of m x n x k multiply-adds up to 2**18 on one thread; past it, it starts threads
# that wait for a core. With another process on the second core, checker-40x40-0.4's last 46 layers spent
# 73 s in these (tall, narrow) products; cut to this size they take 0.3 s, no slower on a quiet machine
SERIAL = 1 << 18


TARGETS = 1 << 13  # states whose dot products are taken together


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


def carry_backward(comp: KeptPasses, back: Weights, btop: np.ndarray, bslot: int, bounds: Bounds) -> Dict[int, int]:
    """weighted_mines forward first: BW from the end, each cell's dots against the forward layers."""
    swept, slot = comp.swept, comp.slot
    out: Dict[int, int] = {}
    starts = sorted(comp.kept)
    for start, end in reversed(list(zip(starts, starts[1:] + [len(swept.moves)]))):
        held = swept.held + (sum(layer_bytes(layer) for layer in comp.kept.values()) if comp.every > 1 else 0)
        layers = comp.segment(start, end, bounds, held)
        sizes = [layer_bytes(layer) for layer in layers]
        held += sum(sizes)
        for i in range(start + len(layers) - 1, start - 1, -1):
            fwd = layers.pop()
            held -= sizes.pop()
            out[swept.order[i]] = _dot(fwd, back, btop, comp.tops[i + 1], swept.moves[i], slot, bslot)
            back, btop = _pull_down(back, btop, swept.moves[i], 8 * bslot, fwd[1], comp.tops[i])
            bounds.check_memory(held + WORKING * layer_bytes(back), comp.what)
            bounds.check()
    return out


def carry_forward(comp: KeptPasses, fw: Weights, ftop: np.ndarray, bslot: int, bounds: Bounds) -> Dict[int, int]:
    """weighted_mines backward first: FW from the start, each cell's dots against the backward layers."""
    swept = comp.swept
    out: Dict[int, int] = {}
    ends = sorted(comp.kept)
    for start, end in zip([0] + ends[:-1], ends):
        held = swept.held + (sum(layer_bytes(layer) for layer in comp.kept.values()) if comp.every > 1 else 0)
        layers = comp.segment(start, end, bounds, held)
        sizes = [layer_bytes(layer) for layer in layers]
        held += sum(sizes)
        for i in range(start, end):
            back = layers.pop()   # B at layer i + 1, where the cell's moves lead
            held -= sizes.pop()
            move, low, high = swept.moves[i], comp.lows[i + 1], comp.tops[i + 1]
            into, itop = _push_down(fw, ftop, move, 8 * bslot, low, high, mine=True)
            bbits = int(comp.logs[i + 1]) + 2   # no coefficient of B(t) passes the plain count from t
            out[swept.order[i]] = _dot_back(into, itop, back, high, comp.slots[i + 1], bslot, bbits)
            safe, stop = _push_down(fw, ftop, move, 8 * bslot, low, high, mine=False)
            fw, ftop = _join(safe, stop, into, itop, 8 * bslot)
            bounds.check_memory(held + WORKING * layer_bytes(fw), comp.what)
            bounds.check()
    return out
