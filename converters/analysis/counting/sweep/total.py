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
The parts: `plan` decides the way and the layers kept before any pass, `carry` runs the second pass
with w applied; here `BigComponent` holds the kept layers between the two, and `big_components`
chooses, per component, this or the polynomials themselves.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ....core.bounds import UNBOUNDED, Bounds
from ..packing import repack, unpack_slots
from ..polynomials import binomial_bits
from .carry import carry_backward, carry_forward
from .plan import WORKING, back_extent, extent, kept_bound, layer_bytes, log_back, slot_widths
from .rows import Swept, Weights, mine_polynomials, pull, push


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
        self.lows, self.tops = extent(swept.moves)
        blows, btops = back_extent(swept.moves)
        self.logs = log_back(swept.moves)
        self.slots = slot_widths(self.logs, self.slot)
        bound = kept_bound(self.lows, self.tops, [self.slot] * (n + 1))
        bbound = kept_bound(blows, btops, self.slots)
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
                held += layer_bytes(layer)
            layer = self._pull_to(layer, i - 1) if self.backward else push(layer, moves[i], 8 * self.slot)
            bounds.check_memory(held + WORKING * layer_bytes(layer), self.what)
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

    def segment(self, start: int, end: int, bounds: Bounds, held: int) -> List[Weights]:
        """The kept pass's layers start .. end - 1 (forward: recomputed from the kept one at start), or
        end .. start + 1 (backward: from the kept one at end); the second pass takes them from the end."""
        moves, bits = self.swept.moves, 8 * self.slot
        layers = [self.kept.pop(end if self.backward else start)]
        for i in (range(end, start + 1, -1) if self.backward else range(start, end - 1)):
            layers.append(self._pull_to(layers[-1], i - 1) if self.backward else push(layers[-1], moves[i], bits))
            held += layer_bytes(layers[-1])
            bounds.check_memory(held + (WORKING - 1) * layer_bytes(layers[-1]), self.what)
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
            return carry_forward(self, carried, ctop, bslot, bounds)
        return carry_backward(self, carried, ctop, bslot, bounds)


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
