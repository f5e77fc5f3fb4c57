"""A tree decomposition of a component's counts, for counting by dynamic programming over a tree.

The count graph has a node per count (number) and an edge between two counts that share a cell. Counts are
eliminated one at a time, each time the one whose neighbours lack the fewest edges among themselves
(min-fill), and those neighbours are joined into a clique. Ties go to the bag with the fewest states at
most: the product of (number + 1) over its counts, a state holding up to that many mines on each. On a
60x60 checkerboard at 0.4 that tie-break cuts the joins' pairs from 24.7 to 15.4 million (min-fill with
ties by degree), on 80x80 from 12.3 to 6.7 million. The
bag of a count is the count with its neighbours at its elimination; its parent is the bag of the first of
them eliminated after it. Every cell's counts form a clique, so the bag of whichever of them is eliminated
first holds all of them: the cell is counted there, and only there.

Worked example: a row of cells a b c d under three counts A = {a, b}, B = {b, c}, C = {c, d}. The count
graph is the path A - B - C. A has one neighbour (no fill): eliminated first, bag (A, B). Then B, bag
(B, C), then C, bag (C,). Cells a, b go to A's bag (A is their first count eliminated), c to B's, d to C's.
A row sweep keeps the same counts open here; on a checkerboard of openings it keeps a whole row of counts
open (28-57 on 50x50 to 100x100 boards), while the bags of this decomposition hold 10-20 counts.
"""
from __future__ import annotations

import heapq
import math
from typing import Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

from ....core.bounds import UNBOUNDED, Bounds

Cons = Sequence[Tuple[Tuple[int, ...], int]]   # per count: its cells (ids) and its right-hand side


class Bag(NamedTuple):
    """One count's bag: its counts (the eliminated one first), its parent bag (-1 at a root), its child
    bags, and its own cells grouped by the positions (in `counts`) of the counts they belong to."""

    counts: Tuple[int, ...]
    parent: int
    children: Tuple[int, ...]
    own: Tuple[Tuple[Tuple[int, ...], Tuple[int, ...]], ...]   # (positions of the cell's counts, cells)


def count_graph(cons: Cons) -> List[Set[int]]:
    """Per count, the other counts sharing a cell with it."""
    owners: Dict[int, List[int]] = {}
    for ci, (cells, _) in enumerate(cons):
        for x in cells:
            owners.setdefault(x, []).append(ci)
    adj: List[Set[int]] = [set() for _ in cons]
    for cs in owners.values():
        for c in cs:
            adj[c].update(cs)
    for c, ns in enumerate(adj):
        ns.discard(c)
    return adj


def _fill(adj: List[Set[int]], v: int) -> int:
    """Edges missing among v's neighbours."""
    ns = list(adj[v])
    return sum(1 for i, a in enumerate(ns) for b in ns[i + 1:] if b not in adj[a])


def elimination(adj: List[Set[int]], need: Sequence[int], limit: Optional[int] = None,
                bounds: Bounds = UNBOUNDED) -> Optional[Tuple[List[int], List[Tuple[int, ...]]]]:
    """(the min-fill elimination order, each count's later neighbours at its elimination); `need`: each
    count's number, for the ties. None as soon as a count has more than `limit` neighbours left at its
    elimination (a bag wider than the caller can use: on a 1000x1000 board the whole order takes minutes)."""
    adj = [set(ns) for ns in adj]
    logs = [round(1000 * math.log2(n + 1)) for n in need]   # integers: a stale score compares exactly

    def score(v: int) -> Tuple[int, int]:
        return _fill(adj, v), logs[v] + sum(logs[u] for u in adj[v])

    heap = [(*score(v), v) for v in range(len(adj))]
    heapq.heapify(heap)
    done = [False] * len(adj)
    order: List[int] = []
    later: List[Tuple[int, ...]] = [()] * len(adj)
    while heap:
        fill, states, v = heapq.heappop(heap)
        if done[v] or (fill, states) != score(v):
            continue   # a stale entry: v's score changed since it was pushed, and a fresh one is queued
        if limit is not None and len(adj[v]) > limit:
            return None
        done[v] = True
        order.append(v)
        if len(order) & 63 == 0:
            bounds.check()
        ns = adj[v]
        later[v] = tuple(sorted(ns))
        touched = set(ns)
        for a in ns:
            adj[a].discard(v)
            new = ns - adj[a] - {a}
            if new:
                adj[a] |= new
                touched |= adj[a]
        touched -= {v}
        for a in touched:
            if not done[a]:
                heapq.heappush(heap, (*score(a), a))
        adj[v] = set()
    return order, later


def decompose(cons: Cons, limit: Optional[int] = None, bounds: Bounds = UNBOUNDED) -> Optional[List[Bag]]:
    """The bags of a min-fill tree decomposition of the counts, children before parents (elimination order),
    each cell given to one bag holding all its counts; None when a bag would pass `limit` + 1 counts."""
    found = elimination(count_graph(cons), [r for _, r in cons], limit, bounds)
    if found is None:
        return None
    order, later = found
    pos = {c: i for i, c in enumerate(order)}
    bag_counts = {c: (c,) + tuple(sorted(later[c], key=pos.__getitem__)) for c in order}
    parent = {c: (min(later[c], key=pos.__getitem__) if later[c] else -1) for c in order}
    children: Dict[int, List[int]] = {c: [] for c in order}
    for c in order:
        if parent[c] >= 0:
            children[parent[c]].append(c)
    owners: Dict[int, List[int]] = {}
    for ci, (cells, _) in enumerate(cons):
        for x in cells:
            owners.setdefault(x, []).append(ci)
    own: Dict[int, Dict[Tuple[int, ...], List[int]]] = {c: {} for c in order}
    for x, cs in owners.items():
        first = min(cs, key=pos.__getitem__)
        where = {c: i for i, c in enumerate(bag_counts[first])}
        own[first].setdefault(tuple(sorted(where[c] for c in cs)), []).append(x)
    index = {c: i for i, c in enumerate(order)}
    return [Bag(bag_counts[c], index[parent[c]] if parent[c] >= 0 else -1, tuple(index[ch] for ch in children[c]),
                tuple((ps, tuple(sorted(xs))) for ps, xs in sorted(own[c].items())))
            for c in order]


def width(bags: Sequence[Bag]) -> int:
    """The decomposition's width: counts in its largest bag, less one."""
    return max((len(b.counts) for b in bags), default=1) - 1
