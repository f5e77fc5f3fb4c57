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


def independent_parts(lits: np.ndarray, k: int, least: int = 1) -> Iterator[Part]:
    """The clauses (rows of lits over cells 1..k, each row's literals first and zeros after, none empty) in
    independent parts, one at a time in order of their first cell: per part its clauses over its cells
    renumbered 1..m in board order (within a length in row order, shorter clauses first), and those cells'
    ids - 1.

    With `least` above 1, consecutive parts go together, about `least` cells to a group (a part is never
    split; its cells follow the group's earlier parts'): a solver per part costs more to set up than to solve
    a part of a few cells, and a 1000 x 1000 board without a total has some 100,000 of them.
    """
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
    # the cells part by part, parts in order of their root (their smallest cell), each in board order
    ordered = present[np.lexsort((present, root[present]))]
    part_of = root[ordered]
    starts = np.flatnonzero(np.r_[True, part_of[1:] != part_of[:-1]])
    # a group begins with each part that begins in another window of `least` cells than the part before it
    begins = starts[np.r_[True, np.diff(starts // least) > 0]] if least > 1 else starts
    size = ordered.size
    group_at = np.repeat(np.arange(begins.size), np.diff(np.r_[begins, size]))   # per position in ordered
    local = np.zeros(k + 1, dtype=lits.dtype)
    local[ordered] = np.arange(size) - begins[group_at] + 1
    group = np.zeros(k + 1, dtype=np.int64)
    group[ordered] = group_at
    # the clauses sorted by group, then by length, in row order within both: each run of one group and one
    # length becomes lists in one tolist() of its rows cut to that length (not a Python slice per clause)
    lens = (lits != 0).sum(axis=1)
    clause_group = group[first]
    order = np.lexsort((lens, clause_group))
    mapped = local[np.abs(lits)]
    np.negative(mapped, out=mapped, where=lits < 0)
    mapped, run_group, run_len = mapped.take(order, axis=0), clause_group.take(order), lens.take(order)
    cuts = np.flatnonzero(np.r_[True, (run_group[1:] != run_group[:-1]) | (run_len[1:] != run_len[:-1]),
                                True]).tolist()
    # each group made when it is asked for: a 1000 x 1000 board's clauses as lists all at once took hundreds of MB
    edges = np.r_[begins, size].tolist()
    run = 0
    for g in range(len(edges) - 1):
        clauses: List[List[int]] = []
        while run < len(cuts) - 1 and int(run_group[cuts[run]]) == g:
            lo, hi = cuts[run], cuts[run + 1]
            clauses.extend(mapped[lo:hi, :int(run_len[lo])].tolist())
            run += 1
        yield clauses, ordered[edges[g]:edges[g + 1]] - 1
