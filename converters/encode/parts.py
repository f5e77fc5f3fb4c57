"""Clauses split into independent parts: no variable of one part is in a clause of another.

A game board's count clauses fall apart along its frontier into many small parts, and a SAT solver given
them one part at a time does far less work than given them all: its decisions and backjumps in one part no
longer undo those of the others (the backbone asks its questions per part; the embedded solver finds its
first model part by part).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List, Tuple

from ..core.graph import component_roots
from ..core.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use
    np = LazyModule("numpy", __name__, "np")

Part = Tuple[List[List[int]], "np.ndarray"]   # clauses over the part's cells numbered 1..m, their ids - 1


def independent_parts(lits: np.ndarray, k: int) -> Iterator[Part]:
    """The clauses (rows of lits over cells 1..k, each row's literals first and zeros after, none empty) in
    independent parts, one at a time in order of their first cell: per part its clauses over its cells
    renumbered 1..m in board order (each in its row order), and those cells' ids - 1."""
    if lits.shape[0] == 0:
        return
    # a clause links its first variable to each of its others
    first = np.abs(lits[:, 0])
    heads, tails = [], []
    for j in range(1, lits.shape[1]):
        there = lits[:, j] != 0
        heads.append(first[there])
        tails.append(np.abs(lits[there, j]))
    root = component_roots(k + 1, np.concatenate(heads) if heads else first[:0],
                           np.concatenate(tails) if tails else first[:0])
    present = np.unique(np.abs(lits[lits != 0]))
    # cells renumbered 1..m within their part, in board order; parts ordered by their first cell
    by_part = np.lexsort((present, root[present]))
    ordered = present[by_part]
    part_of = root[ordered]
    starts = np.flatnonzero(np.r_[True, part_of[1:] != part_of[:-1]])
    local = np.zeros(k + 1, dtype=lits.dtype)
    local[ordered] = np.arange(ordered.size) - np.repeat(starts, np.diff(np.r_[starts, ordered.size])) + 1
    # the clauses sorted by part, then by length, in row order within both: each run of one part and one
    # length becomes lists in one tolist() of its rows cut to that length (not a Python slice per clause)
    lens = (lits != 0).sum(axis=1)
    order = np.lexsort((lens, root[first]))
    mapped = local[np.abs(lits)]
    np.negative(mapped, out=mapped, where=lits < 0)
    mapped, run_root, run_len = mapped.take(order, axis=0), root[first].take(order), lens.take(order)
    cuts = np.flatnonzero(np.r_[True, (run_root[1:] != run_root[:-1]) | (run_len[1:] != run_len[:-1]), True]).tolist()
    # a root is its part's smallest cell, and both the runs and the parts are in root order: the parts come
    # in order of their first cell, each made when it is asked for (a 1000 x 1000 board's clauses as lists
    # all at once took hundreds of MB)
    edges = np.r_[starts, ordered.size].tolist()
    run = 0
    for n in range(len(edges) - 1):
        r = int(part_of[edges[n]])
        clauses: List[List[int]] = []
        while run < len(cuts) - 1 and int(run_root[cuts[run]]) == r:
            lo, hi = cuts[run], cuts[run + 1]
            clauses.extend(mapped[lo:hi, :int(run_len[lo])].tolist())
            run += 1
        yield clauses, ordered[edges[n]:edges[n + 1]] - 1
