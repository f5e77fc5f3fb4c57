"""Exact counting of a component by dynamic programming over a tree decomposition of its counts.

`decompose` gives the bags. A bag's table has a row per state: the mines so far on each of the bag's counts,
from the cells counted in the bag's subtree; its weight is the number of ways (or, per number of mines, a
polynomial packed as sweep/rows packs them). A bag starts from its own cells (a handful: all their ways,
in plain Python), then joins each child in turn. A child's table first forgets the child's own count (every
row has exactly its number there: the bounds below see to it), its rows projected onto the counts the
parent shares. A join pairs each row of the parent with each child row it can take: sums within every
count's number, and none short of it by more than the count's cells still to come.

Worked example: cells a b c d, counts A = {a, b} = 1, B = {b, c} = 1, C = {c, d} = 1 (decompose's example:
bags (A, B) with a, b; (B, C) with c; (C,) with d). Bag (A, B): own rows (A, B) = (1, 0) [a a mine] and
(1, 1) [b]; (0, 0) falls short of A's 1 with no cell of A left, (2, 1) passes it. Forgetting A leaves B = 0
(weight 1) and B = 1 (1). Bag (B, C): own c gives (0, 0), (1, 1). Joined with the child, B has no cell left,
so its sum must be its 1: (0, 0) + 1 and (1, 1) + 0 give rows (1, 0) and (1, 1). Forgetting B leaves C = 0
and C = 1. Bag (C,): own d gives C = 0, 1; joined: 0 + 1 (d safe, C's 1 from c) and 1 + 0: two solutions.

The structure (rows and which rows each join pairs) is found once, in numpy; the weights then flow along
it: inside (children to root) as above, then outside (root to children), where a row's outside weight is
the weight of everything not below it. A cell's number of solutions with a mine there is the sum over its
bag's own rows of (ways of the own cells with that cell a mine) times the row's outside weight.
"""
from __future__ import annotations

from functools import partial
from math import comb
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ....core.bounds import UNBOUNDED, Bounds, CountingLimitError, int_bytes
from ..packing import repack, top_bits, unpack_slots
from ..sweep.rows import NONE, Weights, aligned, frontier, merge_rows, scatter, sweep_order
from .decompose import Bag, Cons, decompose
from .join import join_rows, narrow

# the widest decomposition tried: checker-60x60-0.4's width 18 already makes a bag of 728,000 rows; at
# checker-200x200-0.4's 32 the rows only fill the memory budget (27 s and 1.4 GB more before the same
# partial answer)
TREE_WIDTH = 24
NUMBER: Any = None   # the weights' integer type, found on first use (tests set int)


def number_type() -> Any:
    """gmpy2's mpz (GMP's products are 7-13x quicker than CPython's on the 3-40 kbit weights of big
    components; imported here, not at start-up, where it costs 35 ms), or int without it."""
    global NUMBER
    if NUMBER is None:
        try:
            from gmpy2 import mpz  # type: ignore[import-untyped]
            NUMBER = mpz
        except ImportError:  # pragma: no cover - gmpy2 is a dependency; without it the same answers, slower
            NUMBER = int
    return NUMBER


class Join(NamedTuple):
    """One child joined into its parent's table: the child's rows projected (each row's index in the
    projection), and per pair the parent row, the projected row and the new row."""

    child: int
    project: np.ndarray
    projected: int
    rows: np.ndarray
    other: np.ndarray
    into: np.ndarray
    size: int


class Table(NamedTuple):
    """A bag's structure: its own rows (keys, and per row its own cells' ways by mines), the joins in
    order, and its final keys."""

    own_keys: np.ndarray
    own_ways: List[Dict[int, int]]
    joins: List[Join]
    keys: np.ndarray


def own_rows(bag: Bag, need: np.ndarray, forced: Optional[int] = None) -> Dict[Tuple[int, ...], Dict[int, int]]:
    """The bag's own cells' ways: per row (mines on each bag count), {mines: ways}. `forced`: the index of a
    group of own cells one of which is a mine (the others free)."""
    rows: Dict[Tuple[int, ...], Dict[int, int]] = {(0,) * len(bag.counts): {0: 1}}
    for g, (ps, cells) in enumerate(bag.own):
        k, base = len(cells), 0
        if g == forced:
            k, base = k - 1, 1
        nxt: Dict[Tuple[int, ...], Dict[int, int]] = {}
        for key, ways in rows.items():
            for j in range(k + 1):
                new = list(key)
                for p in ps:
                    new[p] += j + base
                if any(new[p] > need[p] for p in ps):
                    break
                row = nxt.setdefault(tuple(new), {})
                for m, w in ways.items():
                    row[m + j + base] = row.get(m + j + base, 0) + w * comb(k, j)
        rows = nxt
    return rows


def _room(bounds: Bounds, what: str, held: int, step: int) -> None:
    """Raise when a step of `step` bytes beside `held` would pass the memory budget, or time is up (a join
    of 31 million pairs takes ~10 s: its chunks look at the clock)."""
    bounds.check_memory(held + step, what)
    bounds.check()


def structure(bags: Sequence[Bag], cons: Cons, bounds: Bounds = UNBOUNDED, what: str = "a component",
              max_states: int = 1 << 62) -> List[Table]:
    """Every bag's rows and joins, children first."""
    need_all = np.asarray([r for _, r in cons], dtype=np.int8)
    size_all = np.asarray([len(xs) for xs, _ in cons], dtype=np.int16)
    inside = np.zeros(len(bags), dtype=object)   # per bag, cells counted below and in it, per bag count
    tables: List[Table] = []
    held = 0
    for i, bag in enumerate(bags):
        counts = np.asarray(bag.counts)
        need, size = need_all[counts], size_all[counts]
        ins = np.zeros(len(counts), dtype=np.int16)
        for ps, cells in bag.own:
            ins[list(ps)] += len(cells)
        own = own_rows(bag, need)
        keys = np.asarray(list(own), dtype=np.int8).reshape(len(own), len(counts))
        alive = ((keys + (size - ins)) >= need).all(axis=1)
        own_keys = keys = keys[alive]
        own_ways = [w for w, a in zip(own.values(), alive) if a]
        joins = []
        for ch in bag.children:
            child = bags[ch]
            ckeys = tables[ch].keys
            where = {c: p for p, c in enumerate(bag.counts)}
            cols = np.asarray([where[c] for c in child.counts[1:]], dtype=np.intp)
            # the child's own count has no cell outside its subtree: the bounds of its joins (and of its own
            # rows) already hold it at its number in every row, so a child's rows only lose that column
            first, project = merge_rows(ckeys[:, 1:], need[cols])
            ins[cols] += inside[ch][1:]
            rows, other, into, keys = join_rows(keys, cols, ckeys[first][:, 1:], need, size[cols] - ins[cols],
                                                partial(_room, bounds, what, held))
            joins.append(Join(ch, narrow(project), len(first), rows, other, into, len(keys)))
            held += 12 * len(rows) + 4 * len(ckeys)
            if len(keys) > max_states:
                raise CountingLimitError(f"{what} needs more than {max_states} counting states")
            bounds.check_memory(held + keys.nbytes, what)
            bounds.check()
        inside[i] = ins
        tables.append(Table(own_keys, own_ways, joins, keys))
        bounds.report("counting", i + 1, len(bags))
    return tables


def _pack(ways: Sequence[Dict[int, int]], bits: int) -> Weights:
    """Per row, its {mines: ways} as a packed polynomial and its offset (bits 0: the plain count)."""
    vals = np.zeros(len(ways), dtype=object)
    offs = np.zeros(len(ways), dtype=np.int64)
    for r, w in enumerate(ways):
        if not w:
            continue
        low = min(w) if bits else 0
        vals[r] = number_type()(sum(c << ((m - low) * bits) for m, c in w.items()))
        offs[r] = low
    return vals, offs


def _gather(size: int, target: np.ndarray, vals: np.ndarray, offs: np.ndarray, bits: int) -> Weights:
    """Per target row, the sum of the weights sent to it, at the lowest offset among them."""
    if not bits:
        return scatter(size, target, vals) if len(target) else np.zeros(size, dtype=object), np.zeros(size, np.int64)
    to = np.full(size, NONE, dtype=np.int64)
    np.minimum.at(to, target, offs)
    out = scatter(size, target, aligned(vals, offs, to[target], bits)) if len(target) else np.zeros(size, object)
    to[to == NONE] = 0
    return out, to


CHUNK = 1 << 14   # products made at once: their memory stays small, and the clock is looked at between


def _times(a: Weights, ai: np.ndarray, b: Weights, bi: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Pairwise products of a[ai] and b[bi] (weights and offsets)."""
    return a[0][ai] * b[0][bi], a[1][ai] + b[1][bi]


def _product_sum(size: int, target: np.ndarray, a: Weights, ai: np.ndarray, b: Weights, bi: np.ndarray,
                 bits: int, bounds: Bounds = UNBOUNDED) -> Weights:
    """Per target row, the sum of a[ai] * b[bi] over the pairs sent to it, at the lowest offset among them.

    The pairs go in target order, a chunk at a time, each chunk's products summed per target (reduceat)
    and added in: all the products of a join at once took 24 GB on an 80x80 checkerboard. Besides them, a
    pair holds 8 bytes at once (the order)."""
    to = np.zeros(size, dtype=np.int64)
    if bits and len(target):
        to[:] = NONE
        for at in range(0, len(target), CHUNK):
            np.minimum.at(to, target[at:at + CHUNK], a[1][ai[at:at + CHUNK]] + b[1][bi[at:at + CHUNK]])
        to[to == NONE] = 0
    order = np.argsort(target, kind="stable")
    out = np.zeros(size, dtype=object)
    for at in range(0, len(order), CHUNK):
        part = order[at:at + CHUNK]
        tgt = target[part]
        vals = a[0][ai[part]] * b[0][bi[part]]
        if bits:
            vals = aligned(vals, a[1][ai[part]] + b[1][bi[part]], to[tgt], bits)
        starts = np.flatnonzero(np.concatenate([[True], tgt[1:] != tgt[:-1]]))
        out[tgt[starts]] += np.add.reduceat(vals, starts) if len(starts) < len(vals) else vals
        bounds.check()
    return out, to


class Slots(NamedTuple):
    """Bytes per coefficient of the packed polynomials: per bag for its inside weights, and for everything
    else (outside weights, totals, per-cell numbers). No coefficient exceeds the plain count it is part of,
    so slots as wide as the largest plain count met in a bag cannot carry into each other; deep in the tree
    they are narrow (a 116-bit slot where the whole count needs 296 on a 50x50 checkerboard), and products
    there cheap. Every solution goes through one row of each table (sum over rows of inside * outside is the
    total), so no outside weight passes the total: the total's slot holds them all."""

    inner: List[int]
    total: int


class Inside(NamedTuple):
    """The inside pass's weights: per bag its final rows', and per join the parent's rows before it and the
    child's projected rows (the outside pass multiplies by them); per bag, bits of its largest weight."""

    final: List[Weights]
    before: List[List[Weights]]
    projected: List[List[Weights]]
    tops: List[int]
    held: int   # estimated bytes of it all (and of the structure)


def _slot(slots: Optional[Slots], kind: str, i: int = 0) -> int:
    """A bag's slot in bytes, or the totals' (0: plain counts)."""
    if slots is None:
        return 0
    return slots.total if kind == "total" else getattr(slots, kind)[i]


def structure_bytes(tables: Sequence[Table]) -> int:
    """Bytes of the structure's arrays."""
    return sum(t.keys.nbytes + sum(j.rows.nbytes * 3 + j.project.nbytes for j in t.joins) for t in tables)


def inside(bags: Sequence[Bag], tables: Sequence[Table], slots: Optional[Slots] = None,
           bounds: Bounds = UNBOUNDED, what: str = "a component", held: int = 0, keep: bool = True) -> Inside:
    """The weights from the leaves up (no slots: plain counts; else packed polynomials); `held`: bytes
    already taken (the structure), for the memory budget; keep False: only the final tables are kept
    (no outside pass will follow)."""
    final: List[Weights] = []
    before: List[List[Weights]] = []
    projected: List[List[Weights]] = []
    tops: List[int] = []
    for i, table in enumerate(tables):
        slot = _slot(slots, "inner", i)
        cur = _pack(table.own_ways, 8 * slot)
        top = top_bits(cur[0])
        bs, ps = [], []
        for join in table.joins:
            vals, offs = final[join.child]
            vals = repack(vals, _slot(slots, "inner", join.child), slot, number_type()) if slot else vals
            proj = _gather(join.projected, join.project, vals, offs, 8 * slot)
            final[join.child] = _EMPTY
            if keep:
                bs.append(cur)
                ps.append(proj)
            # the pairs' order, and the new table at its factors' sizes, before it exists
            guess = join.size * (56 + (top_bits(cur[0]) + top_bits(proj[0])) // 8)
            bounds.check_memory(held + table_bytes(proj) + 8 * len(join.rows) + guess, what)
            cur = _product_sum(join.size, join.into, cur, join.rows, proj, join.other, 8 * slot, bounds)
            top = max(top, top_bits(proj[0]), top_bits(cur[0]))
            held += table_bytes(cur) + (table_bytes(proj) if keep else 0)
            bounds.check_memory(held, what)
            bounds.check()
        final.append(cur)
        before.append(bs)
        projected.append(ps)
        tops.append(top)
    return Inside(final, before, projected, tops, held)


_EMPTY: Weights = (np.zeros(0, dtype=object), np.zeros(0, dtype=np.int64))
_AT0 = np.zeros(1, dtype=np.intp)


def table_bytes(w: Weights) -> int:
    """Estimated bytes of a table's weights (judged by its biggest of 16 rows across it)."""
    vals = w[0]
    return (24 + int_bytes(top_bits(vals[::max(1, len(vals) // 16)]))) * len(vals)


def met_rows(keys: np.ndarray, bag: Bag, need_all: np.ndarray) -> np.ndarray:
    """Rows of a root's final table where every count has its number of mines."""
    return (keys == need_all[np.asarray(bag.counts)]).all(axis=1)


def _moved(w: Weights, a: int, b: int) -> Weights:
    """Weights repacked from slots of a bytes to b (plain counts as they are)."""
    return (repack(w[0], a, b, number_type()), w[1]) if b else w


class Outside(NamedTuple):
    """The component's total and, per cell, the weight of the solutions with a mine there (each packed in
    the total's slots, with its offset)."""

    total: Tuple[object, int]
    marks: Dict[int, Tuple[object, int]]


def root_totals(bags: Sequence[Bag], tables: Sequence[Table], ins: Inside, need_all: np.ndarray,
                slots: Optional[Slots]) -> Dict[int, Weights]:
    """Per root (a tree of the forest), the weight of its met rows, in the total's slots."""
    st = _slot(slots, "total")
    totals = {}
    for r in (i for i, b in enumerate(bags) if b.parent < 0):
        vals, offs = _moved(ins.final[r], _slot(slots, "inner", r), st)
        met = np.flatnonzero(met_rows(tables[r].keys, bags[r], need_all))
        totals[r] = _gather(1, np.zeros(len(met), dtype=np.intp), vals[met], offs[met], 8 * st)
    return totals


def roots_of(bags: Sequence[Bag], tables: Sequence[Table], ins: Inside, need_all: np.ndarray,
           slots: Optional[Slots]) -> Tuple[Weights, List[Optional[Weights]]]:
    """(the total, the outside weights of the roots' final rows: the other roots' totals where met)."""
    totals = root_totals(bags, tables, ins, need_all, slots)
    roots = list(totals)
    out: List[Optional[Weights]] = [None] * len(bags)
    total: Weights = (np.ones(1, dtype=object), np.zeros(1, dtype=np.int64))
    for r in roots:
        rest: Weights = (np.ones(1, dtype=object), np.zeros(1, dtype=np.int64))
        for q in roots:
            if q != r:
                rest = _times(rest, _AT0, totals[q], _AT0)
        total = _times(total, _AT0, totals[r], _AT0)
        met = met_rows(tables[r].keys, bags[r], need_all)
        vals = np.zeros(len(met), dtype=object)
        vals[met] = rest[0][0]
        out[r] = (vals, np.where(met, rest[1][0], 0).astype(np.int64))
    return total, out


def outside(bags: Sequence[Bag], tables: Sequence[Table], ins: Inside, need_all: np.ndarray,
            slots: Optional[Slots] = None, bounds: Bounds = UNBOUNDED) -> Outside:
    """From the root down: the total and the per-cell numbers.

    Frees the inside pass's tables as it goes."""
    total, out = roots_of(bags, tables, ins, need_all, slots)
    marks: Dict[int, Tuple[object, int]] = {}
    for i in range(len(bags) - 1, -1, -1):
        cur, out[i] = out[i], None
        assert cur is not None
        si, st = _slot(slots, "inner", i), _slot(slots, "total")
        for j in range(len(tables[i].joins) - 1, -1, -1):
            join, proj, prev = tables[i].joins[j], ins.projected[i][j], ins.before[i][j]
            ins.before[i][j] = ins.projected[i][j] = _EMPTY
            live = np.flatnonzero(cur[0][join.into] != 0)
            into, rows, other = join.into[live], join.rows[live], join.other[live]
            pout = _product_sum(join.projected, other, cur, into, _moved(prev, si, st), rows, 8 * st, bounds)
            cur = _product_sum(len(prev[0]), rows, cur, into, _moved(proj, si, st), other, 8 * st, bounds)
            out[join.child] = _lift(pout, join.project)
            bounds.check()
        marks.update(_own_marks(bags[i], tables[i], cur, need_all, 8 * st))
    return Outside((total[0][0], int(total[1][0])), marks)


def _lift(w: Weights, project: np.ndarray) -> Weights:
    """A child's final rows' outside weights from its projected rows'."""
    return w[0][project], w[1][project]


def _own_marks(bag: Bag, table: Table, out: Weights, need_all: np.ndarray, bits: int
               ) -> Dict[int, Tuple[object, int]]:
    """Per own cell of a bag, the weight of the solutions with a mine on it (the same for a whole group)."""
    need = need_all[np.asarray(bag.counts)]
    where = {tuple(k): r for r, k in enumerate(table.own_keys.tolist())}
    marks: Dict[int, Tuple[object, int]] = {}
    for g, (_, cells) in enumerate(bag.own):
        forced = own_rows(bag, need, forced=g)
        rows = [(where[k], w) for k, w in forced.items() if k in where]
        mark: Tuple[object, int] = (0, 0)
        if rows:
            idx = np.asarray([r for r, _ in rows], dtype=np.intp)
            prod = _times(out, idx, _pack([w for _, w in rows], bits), np.arange(len(idx)))
            value, off = _gather(1, np.zeros(len(idx), dtype=np.intp), *prod, bits)
            mark = (value[0], int(off[0]))
        for x in cells:
            marks[x] = mark
    return marks


def bytes_for(bits: int) -> int:
    """Bytes of a slot holding numbers of `bits` bits, with a spare bit."""
    return (bits + 8) // 8


def count_by_tree(vars_: Sequence[int], cons: Cons, weighted: bool = True, bounds: Bounds = UNBOUNDED,
                  max_states: int = 1 << 62, bags: Optional[Sequence[Bag]] = None):
    """The same answer as counting.count_component, (P, {v: M[v]}), by a tree decomposition of the counts.

    The plain counts go first: they are the answer without weights, and their sizes give the slots of the
    polynomials."""
    what = f"counting a component of {len(vars_)} linked unknown cells"
    bags = bags if bags is not None else decompose(cons, None, bounds)
    assert bags is not None   # no limit: always found
    need_all = np.asarray([r for _, r in cons], dtype=np.int8)
    tables = structure(bags, cons, bounds, what, max_states)
    if not weighted:
        plain = outside(bags, tables, inside(bags, tables, None, bounds, what, structure_bytes(tables)), need_all,
                        None, bounds)
        return int(plain.total[0]), {v: int(plain.marks.get(v, (0, 0))[0]) for v in vars_}  # type: ignore[call-overload]
    total, slots, ins = packed_inside(bags, tables, need_all, bounds, what)
    if slots is None or ins is None:
        return [0], {v: [0] for v in vars_}
    packed = outside(bags, tables, ins, need_all, slots, bounds)
    return unpack_slots(*packed.total, slots.total), {v: unpack_slots(*packed.marks.get(v, (0, 0)), slots.total) for v in vars_}


def packed_inside(bags: Sequence[Bag], tables: Sequence[Table], need_all: np.ndarray, bounds: Bounds = UNBOUNDED,
                  what: str = "a component") -> Tuple[int, Optional[Slots], Optional[Inside]]:
    """(the plain count, the slots, the inside pass with polynomials); no slots nor pass without a solution.

    The plain pass goes first: its sizes give the slots, and it keeps no table for an outside pass."""
    held = structure_bytes(tables)
    plain = inside(bags, tables, None, bounds, what, held, keep=False)
    total = int(roots_of(bags, tables, plain, need_all, None)[0][0][0])
    if not total:
        return 0, None, None
    slots = Slots([bytes_for(b) for b in plain.tops], bytes_for(total.bit_length()))
    return total, slots, inside(bags, tables, slots, bounds, what, held)


def tree_bags(vars_: Sequence[int], cons: Cons, var_rc: np.ndarray, bounds: Bounds = UNBOUNDED
              ) -> Optional[List[Bag]]:
    """The tree decomposition's bags when they are narrower than the best sweep's frontier (None: sweep).

    A sweep keeps up to its frontier's counts open at once, a bag holds its width plus one: on a
    checkerboard of openings at 0.4, 25-57 counts against 10-20. The decomposition stops as soon as a bag
    reaches the sweep's width, or TREE_WIDTH."""
    sweep_width, _ = frontier(sweep_order(vars_, cons, var_rc), cons)
    return decompose(cons, min(sweep_width, TREE_WIDTH + 1) - 1, bounds)
