"""Clauses split into independent parts: no variable of one part is in a clause of another.

A game board's count clauses fall apart along its frontier into many small parts, and a SAT solver given
them one part at a time does far less work than given them all: its decisions and backjumps in one part no
longer undo those of the others (the backbone asks its questions per part; the embedded solver finds its
first model part by part).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Tuple

from ..core.graph import component_roots
from ..core.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use
    np = LazyModule("numpy", __name__, "np")

Part = Tuple[List[List[int]], "np.ndarray"]   # clauses over the part's cells numbered 1..m, their ids - 1


def independent_parts(lits: np.ndarray, k: int) -> List[Part]:
    """The clauses (rows of lits over cells 1..k, each row's literals first and zeros after, none empty) in
    independent parts, ordered by their first cell: per part its clauses over its cells renumbered 1..m in
    board order (each in its row order), and those cells' ids - 1."""
    lits = lits.astype(np.int64, copy=False)
    if lits.shape[0] == 0:
        return []
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
    local = np.zeros(k + 1, dtype=np.int64)
    local[ordered] = np.arange(ordered.size) - np.repeat(starts, np.diff(np.r_[starts, ordered.size])) + 1
    # the clauses sorted by part, then by length, in row order within both: each run of one part and one
    # length becomes lists in one tolist() of its rows cut to that length (not a Python slice per clause)
    lens = (lits != 0).sum(axis=1)
    order = np.lexsort((lens, root[first]))
    mapped = np.sign(lits) * local[np.abs(lits)]
    mapped, run_root, run_len = mapped[order], root[first][order], lens[order]
    cuts = np.flatnonzero(np.r_[True, (run_root[1:] != run_root[:-1]) | (run_len[1:] != run_len[:-1]), True])
    clauses_of: dict = {}
    for lo, hi in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
        r = int(run_root[lo])
        clauses_of.setdefault(r, []).extend(mapped[lo:hi, :int(run_len[lo])].tolist())
    edges = np.r_[starts, ordered.size]
    # a root is its part's smallest cell: the parts come in order of their first cell
    return [(clauses_of[int(part_of[starts[n]])], ordered[edges[n]:edges[n + 1]] - 1) for n in range(starts.size)]
