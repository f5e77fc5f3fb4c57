"""A component counted over a tree decomposition, under a total mine count: P first, the cells' numbers
once the rest of the board's weights w are known, carried down the tree already applied.

With a total, counting needs a cell's polynomial M[v] only through sum_j M[v][j] * w[j]. dp's outside
pass carries, per row, the polynomial of the mines outside the row's subtree: deep in the tree that is
nearly the whole component (hundreds of numbers of mines), so its products are long, and they are three
quarters of the time on a 50x50 checkerboard. Here each row carries OW instead, indexed by the mines
*inside* its subtree a: OW(s)[a] = sum_b O(s)[b] * w[a + b]. It spans only the row's own inside numbers of
mines (few deep in the tree), and its numbers are at most the count times the largest w.

Down a join, a parent row before it and a child row meet in a new row t: OW_before(row)[a] is the sum, over
its pairs, of sum_c I_child[c] * OW(t)[a + c]: a correlation, which is one product of packed integers with
the child's polynomial reversed. With R = I_child reversed (slot k holds I_child[hi - k], hi its top),
slot q of R * OW(t) is sum_c I_child[c] * OW(t)[lo_t - hi + q + c] (lo_t: OW(t)'s first number of mines),
so the row's window of a starts at slot q = lo_row - lo_t + hi. Worked example, B-bit slots: I_child =
1 + 2x (lo 0, hi 1), R = 2 + x; OW(t) = 5 + 7x at lo_t = 3. R * OW(t) = 10 + 19x + 7x^2; for a row with
inside numbers 3..3 the window starts at q = 3 - 3 + 1 = 1, and slot 1 is 19 = 1 * OW(t)[3] + 2 * OW(t)[4],
the sum a = 3 needs. A cell's number is the dot product of its bag's own
rows' polynomials (the cell a mine) with their OW: a handful of numbers each.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import numpy as np

from ....core.bounds import UNBOUNDED, Bounds, CountingLimitError
from ..packing import repack, unpack_slots
from ..polynomials import pmul
from ..sweep.rows import Weights
from .decompose import Bag, Cons
from .dp import (
    CHUNK,
    Inside,
    bytes_for,
    met_rows,
    number_type,
    outside,
    own_rows,
    packed_inside,
    root_totals,
    structure,
    table_bytes,
)


def _spans(w: Weights, slot: int) -> np.ndarray:
    """Per row, the number of slots its packed polynomial spans (0 for a zero)."""
    bits = 8 * slot
    return np.asarray([(int(x).bit_length() + bits - 1) // bits for x in w[0].tolist()], dtype=np.int64)


def _reversed(w: Weights, slot: int, to: int) -> np.ndarray:
    """Each row's polynomial in slots of `to` bytes, its slots in reverse order (within its own span)."""
    spans = _spans(w, slot)
    wide = repack(w[0], slot, to, number_type())
    out = np.zeros(len(spans), dtype=object)
    num = number_type()
    for n in np.unique(spans).tolist():
        rows = np.flatnonzero(spans == n)
        if n <= 1:
            out[rows] = wide[rows]
            continue
        raw = b"".join(int(x).to_bytes(n * to, "little") for x in wide[rows].tolist())
        flipped = np.frombuffer(raw, dtype=np.uint8).reshape(len(rows), n, to)[:, ::-1, :].tobytes()
        out[rows] = [num.from_bytes(flipped[r * n * to:(r + 1) * n * to], "little") for r in range(len(rows))]
    return out


def correlate(size: int, target: np.ndarray, rev: np.ndarray, ri: np.ndarray, rtop: np.ndarray,
              ow: Weights, oi: np.ndarray, lo: np.ndarray, span: np.ndarray, bits: int,
              bounds: Bounds) -> np.ndarray:
    """Per target row (lowest inside number lo, span slots), the sum over its pairs of the window of
    rev[ri] * ow[oi] that holds its a = lo .. lo + span - 1 (rtop: the reversed factor's top number)."""
    order = np.argsort(target, kind="stable")
    out = np.zeros(size, dtype=object)
    one = np.ones(1, dtype=object)[0]
    for at in range(0, len(order), CHUNK):
        part = order[at:at + CHUNK]
        tgt = target[part]
        prod = rev[ri[part]] * ow[0][oi[part]]
        start = (lo[tgt] - ow[1][oi[part]] + rtop[ri[part]]) * bits
        masks = np.asarray([(one << int(n)) - 1 for n in (span[tgt] * bits).tolist()], dtype=object)
        vals = (prod >> start) & masks
        starts = np.flatnonzero(np.concatenate([[True], tgt[1:] != tgt[:-1]]))
        out[tgt[starts]] += np.add.reduceat(vals, starts) if len(starts) < len(vals) else vals
        bounds.check()
    return out


class TreeComponent:
    """A component's count polynomial P now (dp's passes), its per-cell numbers under the rest of the
    board's weights w later (`weighted_mines`, once), or its polynomials (`polynomials`, once)."""

    def __init__(self, vars_: Sequence[int], cons: Cons, bags: Sequence[Bag], bounds: Bounds = UNBOUNDED,
                 max_states: int = 1 << 62) -> None:
        self.vars = list(vars_)
        self.bags = bags
        self.what = f"counting a component of {len(vars_)} linked unknown cells"
        self.need = np.asarray([r for _, r in cons], dtype=np.int8)
        self.tables = structure(bags, cons, bounds, self.what, max_states)
        self.count, slots, self.ins = packed_inside(bags, self.tables, self.need, bounds, self.what)
        self.P: List[int] = [0]
        self.roots = [i for i, b in enumerate(bags) if b.parent < 0]
        self.root_P: Dict[int, List[int]] = {}
        if slots is not None and self.ins is not None:
            self.slots = slots
            # each root's own polynomial (a root's rows get w times the other roots'), and their product
            for r, (vals, offs) in root_totals(bags, self.tables, self.ins, self.need, slots).items():
                self.root_P[r] = unpack_slots(vals[0], int(offs[0]), slots.total)
            self.P = [1]
            for poly in self.root_P.values():
                self.P = pmul(self.P, poly)

    def polynomials(self, bounds: Bounds = UNBOUNDED) -> Dict[int, List[int]]:
        """{v: M[v]}: the per-cell polynomials (dp's outside pass)."""
        if not self.count:
            return {v: [0] for v in self.vars}
        out = outside(self.bags, self.tables, self._take(), self.need, self.slots, bounds)
        return {v: unpack_slots(*out.marks.get(v, (0, 0)), self.slots.total) for v in self.vars}

    def _take(self) -> Inside:
        """The inside pass's tables, given up (the passes down free them as they go)."""
        ins, self.ins = self.ins, None
        if ins is None:
            raise CountingLimitError("a tree component's numbers can be taken once")
        return ins

    def weighted_mines(self, w: Sequence[int], bounds: Bounds = UNBOUNDED) -> Dict[int, int]:
        """{v: sum_j M[v][j] * w[j]}: each cell's solutions with a mine there, weighted by w[mines]."""
        if not self.count:
            return {v: 0 for v in self.vars}
        ins = self._take()
        if not any(w):
            return {v: 0 for v in self.vars}
        slot = bytes_for(self.count.bit_length() + max(int(x).bit_length() for x in w))
        bits = 8 * slot
        out: List[Optional[Weights]] = [None] * len(self.bags)
        for r in self.roots:
            out[r] = self._root(r, ins, w, slot)
        marks: Dict[int, int] = {}
        for i in range(len(self.bags) - 1, -1, -1):
            cur, out[i] = out[i], None
            assert cur is not None
            si = self.slots.inner[i]
            for j in range(len(self.tables[i].joins) - 1, -1, -1):
                join, proj, prev = self.tables[i].joins[j], ins.projected[i][j], ins.before[i][j]
                ins.before[i][j] = ins.projected[i][j] = (prev[0][:0], prev[1][:0])
                live = np.flatnonzero(cur[0][join.into] != 0)
                into, rows, other = join.into[live], join.rows[live], join.other[live]
                # beside the inside tables (given back as it goes): this row's OW, the pairs' arrays, the
                # reversed factors and the two new tables at about this one's size each
                bounds.check_memory(ins.held + 3 * table_bytes(cur) + 64 * len(live), self.what)
                pspan, bspan = _spans(proj, si), _spans(prev, si)
                ptop, btop = proj[1] + pspan - 1, prev[1] + bspan - 1
                down = correlate(join.projected, other, _reversed(prev, si, slot), rows, btop, cur, into,
                                 proj[1], pspan, bits, bounds)
                cur = (correlate(len(prev[0]), rows, _reversed(proj, si, slot), other, ptop, cur, into,
                                 prev[1], bspan, bits, bounds), prev[1])
                out[join.child] = (down[join.project], proj[1][join.project])
                bounds.check()
            marks.update(self._own(i, cur, slot))
        return {v: marks.get(v, 0) for v in self.vars}

    def _root(self, r: int, ins: Inside, w: Sequence[int], slot: int) -> Weights:
        """OW of a root's final rows: w over each met row's inside numbers, times the other roots' P."""
        vals, offs = ins.final[r]
        rest = [1]
        for q in self.roots:
            if q != r:
                rest = pmul(rest, self.root_P[q])
        met = met_rows(self.tables[r].keys, self.bags[r], self.need)
        spans = _spans((vals, offs), self.slots.inner[r])
        out = np.zeros(len(vals), dtype=object)
        for row in np.flatnonzero(met).tolist():
            lo = int(offs[row])
            ow = [sum(c * w[a + b] for b, c in enumerate(rest) if c and a + b < len(w))
                  for a in range(lo, lo + int(spans[row]))]
            out[row] = number_type()(sum(x << (8 * slot * k) for k, x in enumerate(ow)))
        return out, offs

    def _own(self, i: int, ow: Weights, slot: int) -> Dict[int, int]:
        """The numbers of bag i's own cells: the dot of each own row's ways (the cell a mine) with its OW."""
        bag, table = self.bags[i], self.tables[i]
        need = self.need[np.asarray(bag.counts)]
        where = {tuple(k): r for r, k in enumerate(table.own_keys.tolist())}
        marks: Dict[int, int] = {}
        for g, (_, cells) in enumerate(bag.own):
            value = 0
            for key, ways in own_rows(bag, need, forced=g).items():
                r = where.get(key)
                if r is None or not ow[0][r]:
                    continue
                coeffs = unpack_slots(ow[0][r], 0, slot)
                lo = int(ow[1][r])
                value += sum(c * coeffs[m - lo] for m, c in ways.items() if 0 <= m - lo < len(coeffs))
            for x in cells:
                marks[x] = value
        return marks
