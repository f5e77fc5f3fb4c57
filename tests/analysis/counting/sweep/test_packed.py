"""The packed-key sweep of analysis/treesweep.py (issue 24) against treecount.row_sweep, its plain reference:
on the components of random boards, the same transitions layer by layer, up to the numbering of each
layer's states (a bijection found as the two sweeps go), and so the same counts."""
from __future__ import annotations

from typing import List

import numpy as np
import pytest

from mineconv.analysis import treecount, treesweep
from mineconv.analysis.counting import components
from mineconv.analysis.propagation import UNDECIDED, propagate
from mineconv.core.bounds import CountingLimitError
from mineconv.core.system import build_system

from tests.analysis.counting.sweep.test_rows import board


def component_inputs(puzzle):
    """(vars, cons) of each component of the board's undecided cells after GAC, with var_rc."""
    system = build_system(puzzle)
    values = np.concatenate([[0], propagate(puzzle, "gac", system=system).values]).astype(np.int8)
    cv = system.con_vars
    v = values[cv]
    need = system.con_rhs.astype(np.int64) - ((v == 1) & (cv != 0)).sum(axis=1)
    und = ((v == UNDECIDED) & (cv != 0)).sum(axis=1)
    idx = np.flatnonzero(und > 0)
    cons = [(tuple(x for x in row if x and values[x] == UNDECIDED), r)
            for row, r in zip(cv[idx].tolist(), need[idx].tolist())]
    return [(vs, [cons[ci] for ci in cis]) for vs, cis in components(cons)], system.var_rc


def same_transitions(old: List[treecount.Moves], new: List[treecount.Moves]) -> None:
    """Assert the two sweeps' moves are one graph: a bijection of each layer's states maps old onto new."""
    assert len(old) == len(new)
    here = {0: 0}   # old state -> new state of the current layer
    for (o0, o1, osize), (n0, n1, nsize) in zip(old, new):
        assert osize == nsize and len(o0) == len(n0) == len(here)
        nxt = {}
        for s, t in here.items():
            for a, b in ((o0[s], n0[t]), (o1[s], n1[t])):
                assert (a < 0) == (b < 0)
                if a >= 0:
                    assert nxt.setdefault(int(a), int(b)) == b
        assert len(set(nxt.values())) == len(nxt) == osize   # a bijection onto the whole next layer
        here = nxt


@pytest.mark.parametrize("rows, cols, density, pattern, seed", [
    (8, 8, 0.3, "checker", 1), (10, 12, 0.4, "checker", 2), (12, 12, 0.35, "lattice", 3),
    (9, 14, 0.25, "random", 4), (14, 10, 0.45, "checker", 5), (16, 16, 0.2, "random", 6),
])
def test_the_same_transitions_as_the_row_sweep(rows, cols, density, pattern, seed):
    comps, var_rc = component_inputs(board(rows, cols, density, pattern, seed))
    checked = 0
    for vs, cons in comps:
        order = treecount.sweep_order(vs, cons, var_rc)
        old = treecount.row_sweep(treecount.schedule(order, cons))
        same_transitions(old, treesweep.packed_sweep(order, cons))
        checked += len(vs) >= 10
    assert checked


def planted(n: int, m: int, seed: int, span: int):
    """(order, cons): m counts of 2-8 cells each within a window of `span` cells of the order 1..n, their
    right-hand sides those of a planted random assignment (so at least one solution)."""
    rng = np.random.default_rng(seed)
    x = rng.random(n) < 0.5
    cons = []
    for _ in range(m):
        a = int(rng.integers(0, n - span))
        cells = sorted(set(int(c) for c in rng.integers(a, a + span, size=int(rng.integers(2, 9)))))
        cons.append((tuple(c + 1 for c in cells), int(x[cells].sum())))
    return list(range(1, n + 1)), cons


def test_wide_frontiers_take_more_words_and_impossible_counts_no_state():
    # 26-35 counts open at once: their fields pass 64 bits on some seeds, and keys take two words
    words = []
    for seed in range(5):
        order, cons = planted(80, 70, seed, 30)
        words.append(treesweep.plan(order, cons)[1])
        same_transitions(treecount.row_sweep(treecount.schedule(order, cons)), treesweep.packed_sweep(order, cons))
    assert max(words) >= 2 and min(words) == 1
    # a count that needs more mines than it has cells, or fewer than none, lets no state through
    for rhs in (3, -1):
        assert treesweep.packed_sweep([1, 2], [((1, 2), rhs)])[-1][2] == 0
    order, cons = planted(80, 70, 0, 30)
    with pytest.raises(CountingLimitError):
        treesweep.packed_sweep(order, cons, max_states=2)
