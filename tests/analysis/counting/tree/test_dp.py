"""Counting over a tree decomposition of the counts (analysis/decompose.py, analysis/treedp.py; issue 24,
target 3): the bags are a tree decomposition, each bag's table equals a plain dict-of-tuples programme over
the same bags count for count, and the counts, polynomials and per-cell numbers equal the plain counter's,
the sweep's and d4's."""
from __future__ import annotations

import random
from itertools import product
from typing import Dict, List, Tuple

import numpy as np
import pytest

from mineconv.analysis import treedp, treejoin
from mineconv.analysis.counting import count as counting
from mineconv.analysis.counting import components, count_component, count_solutions
from mineconv.analysis.decompose import count_graph, decompose, width
from mineconv.analysis.treedp import count_by_tree, structure, tree_bags
from mineconv.analysis.treeweigh import TreeComponent
from mineconv.core.bounds import AnalysisTimeout, Bounds, CountingLimitError, CountingMemoryError
from mineconv.core.system import build_system

from tests.analysis.counting.sweep.test_rows import board, d4_reference

# the docstrings' example: cells 1-4 in a row, counts A = {1, 2}, B = {2, 3}, C = {3, 4}, each 1
ROW = [((1, 2), 1), ((2, 3), 1), ((3, 4), 1)]


def random_cons(seed: int, rows: int = 6, cols: int = 6, density: float = 0.35):
    """The counts of a random board with about half its safe cells opened (cells numbered from 1)."""
    rng = random.Random(seed)
    mine = [[rng.random() < density for _ in range(cols)] for _ in range(rows)]
    opened = [[not mine[i][j] and rng.random() < 0.5 for j in range(cols)] for i in range(rows)]
    var = {(i, j): 0 for i in range(rows) for j in range(cols) if not opened[i][j]}
    for n, rc in enumerate(var):
        var[rc] = n + 1
    cons = []
    for i, j in product(range(rows), range(cols)):
        near = [(a, b) for a in range(i - 1, i + 2) for b in range(j - 1, j + 2) if 0 <= a < rows and 0 <= b < cols]
        cells = tuple(var[rc] for rc in near if rc in var)
        if opened[i][j] and cells:
            cons.append((cells, sum(mine[a][b] for a, b in near)))
    rc = np.zeros((len(var), 2), dtype=np.int64)
    for (i, j), v in var.items():
        rc[v - 1] = (i, j)
    return cons, rc


def test_the_example_of_the_docstrings():
    bags = decompose(ROW)
    assert [b.counts for b in bags] == [(0, 1), (1, 2), (2,)]
    assert [b.own for b in bags] == [(((0,), (1,)), ((0, 1), (2,))), (((0, 1), (3,)),), (((0,), (4,)),)]
    assert [b.parent for b in bags] == [1, 2, -1] and width(bags) == 1
    assert count_by_tree([1, 2, 3, 4], ROW, weighted=False) == (2, {1: 1, 2: 1, 3: 1, 4: 1})
    assert count_by_tree([1, 2, 3, 4], ROW) == ([0, 0, 2], {v: [0, 0, 1] for v in (1, 2, 3, 4)})


@pytest.mark.parametrize("seed", range(40))
def test_the_bags_are_a_tree_decomposition(seed):
    cons, _ = random_cons(seed, 8, 8)
    if not cons:
        return
    bags = decompose(cons)
    assert sorted(b.counts[0] for b in bags) == list(range(len(cons)))
    adj = count_graph(cons)
    holding: Dict[int, List[int]] = {}
    for i, b in enumerate(bags):
        assert b.parent == -1 or b.parent > i   # children first
        assert all(bags[ch].parent == i for ch in b.children)
        assert set(b.counts[1:]) <= set(bags[b.parent].counts) if b.parent >= 0 else len(b.counts) >= 1
        for c in b.counts:
            holding.setdefault(c, []).append(i)
    for c, ns in enumerate(adj):   # every edge inside a bag
        assert all(any(c in bags[i].counts for i in holding[d]) for d in ns)
    for c, where in holding.items():   # each count's bags connected: one of them has its parent outside
        assert sum(1 for i in where if bags[i].parent not in where) == 1
    cells = {}
    for b in bags:
        for ps, xs in b.own:
            for x in xs:
                assert x not in cells
                cells[x] = {b.counts[p] for p in ps}
    assert cells == {x: {ci for ci, (vs, _) in enumerate(cons) if x in vs} for vs, _ in cons for x in vs}


def plain_tables(bags, cons) -> List[Dict[Tuple[int, ...], int]]:
    """The programme in plain Python over the same bags: per bag, {mines on each bag count: ways}."""
    need = [r for _, r in cons]
    out: List[Dict[Tuple[int, ...], int]] = []
    for bag in bags:
        table = {(0,) * len(bag.counts): 1}
        for ps, cells in bag.own:
            for _ in cells:
                nxt: Dict[Tuple[int, ...], int] = {}
                for key, w in table.items():
                    for mine in (0, 1):
                        new = tuple(k + (mine if p in ps else 0) for p, k in enumerate(key))
                        if all(new[p] <= need[bag.counts[p]] for p in ps):
                            nxt[new] = nxt.get(new, 0) + w
                table = nxt
        for ch in bag.children:
            child = bags[ch]
            where = [bag.counts.index(c) for c in child.counts[1:]]
            nxt = {}
            for ckey, cw in out[ch].items():
                if ckey[0] != need[child.counts[0]]:
                    continue
                for key, w in table.items():
                    new = list(key)
                    for p, k in zip(where, ckey[1:]):
                        new[p] += k
                    if all(new[p] <= need[c] for p, c in enumerate(bag.counts)):
                        nxt[tuple(new)] = nxt.get(tuple(new), 0) + w * cw
            table = nxt
        out.append(table)
    return out


@pytest.mark.parametrize("seed", range(25))
def test_each_bag_holds_the_plain_programmes_rows(seed):
    cons, _ = random_cons(seed, 7, 7, 0.3)
    if not cons:
        return
    bags = decompose(cons)
    tables = structure(bags, cons)
    ins = treedp.inside(bags, tables)
    need = [r for _, r in cons]
    for bag, table in zip(bags, tables):   # a bag's own count is complete below its parent: at its number
        assert bag.parent < 0 or (table.keys[:, 0] == need[bag.counts[0]]).all()
    for table, (vals, _), plain in zip(tables, ins.final, plain_tables(bags, cons)):
        got = {tuple(k): int(w) for k, w in zip(table.keys.tolist(), vals) if w}
        # the fast rows leave out those that cannot reach a count's number with the cells still to come
        assert got == {k: w for k, w in plain.items() if k in got}
        assert set(got) <= set(plain)
    root = [i for i, b in enumerate(bags) if b.parent < 0]
    for r in root:   # and no row that can still finish is left out
        full = {k: w for k, w in plain_tables(bags, cons)[r].items() if all(k[p] == need[c] for p, c in enumerate(bags[r].counts))}
        fast = {tuple(k): int(w) for k, w in zip(tables[r].keys.tolist(), ins.final[r][0])
                if all(k[p] == need[c] for p, c in enumerate(bags[r].counts))}
        assert fast == full


def board_cons(puzzle):
    """A board's counts as (cells, number), the cells numbered from 1 (none decided beforehand)."""
    system = build_system(puzzle)
    return [(tuple(x for x in row if x), r) for row, r in zip(system.con_vars.tolist(), system.con_rhs.tolist())
            if any(row)]


@pytest.mark.parametrize("chunk", [1, 7, 60])
@pytest.mark.parametrize("seed", [0, 3])   # joins of 5,896 and 8,064 pairs
def test_joins_made_a_chunk_at_a_time_are_the_same(seed, chunk, monkeypatch):
    # the chunks' distinct keys merged again must give each pair the row one merge of all pairs gives it
    cons = board_cons(board(20, 20, 0.4, "checker", seed))
    bags = decompose(cons)
    whole = structure(bags, cons)
    monkeypatch.setattr(treejoin, "JOIN_CHUNK", chunk)
    parts = structure(bags, cons)
    assert max(len(j.rows) for t in whole for j in t.joins) > 3 * chunk
    for a, b in zip(whole, parts):
        assert np.array_equal(a.keys, b.keys) and len(a.joins) == len(b.joins)
        for x, y in zip(a.joins, b.joins):
            assert x.child == y.child and x.projected == y.projected and x.size == y.size
            for f in ("project", "rows", "other", "into"):
                assert np.array_equal(getattr(x, f), getattr(y, f)), f
                assert getattr(y, f).dtype == np.int32   # half the memory of intp indices


def test_a_long_join_looks_at_the_clock_chunk_by_chunk(monkeypatch):
    cons = board_cons(board(20, 20, 0.4, "checker", 3))
    bags = decompose(cons)
    tables = structure(bags, cons)
    joins = sum(len(t.joins) for t in tables)
    biggest = max(len(j.rows) for t in tables for j in t.joins)

    class Counted(Bounds):
        def check(self, values=None):
            self.checks = getattr(self, "checks", 0) + 1
            super().check(values)

    monkeypatch.setattr(treejoin, "JOIN_CHUNK", 100)
    counted = Counted(memory=None)
    structure(bags, cons, counted)
    assert counted.checks >= joins + biggest // 100   # a join of n pairs: n / JOIN_CHUNK chunks, each checked


def strip(p):
    """A polynomial without its trailing zeros."""
    p = list(p)
    while len(p) > 1 and p[-1] == 0:
        p.pop()
    return p


@pytest.mark.parametrize("seed", range(60))
def test_same_answers_as_the_plain_counter(seed):
    cons, rc = random_cons(seed, 6 + seed % 4, 6 + seed % 3)
    for vs, cis in components(cons):
        cc = [cons[i] for i in cis]
        for weighted in (False, True):
            P, M = count_component(vs, cc, rc, weighted, max_states=10 ** 9) if len(vs) < 48 else (None, None)
            if P is None:
                continue
            tP, tM = count_by_tree(vs, cc, weighted)
            if weighted:
                assert strip(tP) == strip(P) and all(strip(tM[v]) == strip(M[v]) for v in vs)
            else:
                assert tP == P and tM == M


def test_several_components_at_once_and_no_solution():
    two = ROW + [((5, 6), 1)]
    assert count_by_tree([1, 2, 3, 4, 5, 6], two, weighted=False) == (4, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    P, M = count_by_tree([1, 2, 3, 4, 5, 6], two)
    assert strip(P) == [0, 0, 0, 4] and all(strip(M[v]) == [0, 0, 0, 2] for v in range(1, 7))
    impossible = [((1, 2), 2), ((2, 3), 0)]
    assert count_by_tree([1, 2, 3], impossible, weighted=False) == (0, {1: 0, 2: 0, 3: 0})
    assert count_by_tree([1, 2, 3], impossible) == ([0], {1: [0], 2: [0], 3: [0]})


@pytest.mark.parametrize("total", [False, True])
@pytest.mark.parametrize("rows,cols,density,pattern,seed", [(9, 9, 0.4, "checker", 1), (12, 12, 0.35, "checker", 2),
                                                            (10, 10, 0.3, "lattice", 3), (8, 13, 0.3, "random", 4)])
def test_count_solutions_over_trees_equals_the_sweep(rows, cols, density, pattern, seed, total, monkeypatch):
    system = build_system(board(rows, cols, density, pattern, seed, total=total))
    monkeypatch.setattr(counting, "BIG_COMPONENT", 6)
    monkeypatch.setattr(counting, "TREES", "always")
    tree = count_solutions(system)
    monkeypatch.setattr(counting, "TREES", "never")
    swept = count_solutions(system)
    assert tree.solutions == swept.solutions > 0 and tree.mine_solutions == swept.mine_solutions
    if total:   # the probabilities in floats (exact_budget 0) from the per-cell polynomials, to the last bit
        monkeypatch.setattr(counting, "TREES", "always")
        tree = count_solutions(system, exact_budget=0)
        monkeypatch.setattr(counting, "TREES", "never")
        swept = count_solutions(system, exact_budget=0)
        assert tree.approx == swept.approx and tree.mine_solutions is None


def test_without_gmpy2_the_same_answers(monkeypatch):
    cons, rc = random_cons(7, 9, 9, 0.3)
    vs, cis = max(components(cons), key=lambda c: len(c[0]))
    cc = [cons[i] for i in cis]
    fast = count_by_tree(vs, cc)
    monkeypatch.setattr(treedp, "NUMBER", int)
    slow = count_by_tree(vs, cc)
    assert fast == slow and all(type(x) is int for x in slow[0])


@pytest.mark.parametrize("total", [False, True])
def test_the_chooser_takes_the_tree_where_it_is_narrower(total, monkeypatch):
    # a 16x16 checkerboard: the sweep keeps a row of counts open, the bags are narrower
    system = build_system(board(16, 16, 0.4, "checker", 5, total=total))
    used = []
    real_count, real_component = treedp.count_by_tree, TreeComponent

    def spy_count(*args, **kwargs):
        used.append(len(args[0]))
        return real_count(*args, **kwargs)

    def spy_component(*args, **kwargs):
        used.append(len(args[0]))
        return real_component(*args, **kwargs)

    monkeypatch.setattr(counting, "count_by_tree", spy_count)
    monkeypatch.setattr(counting, "TreeComponent", spy_component)
    tree = count_solutions(system)
    assert used and max(used) >= counting.BIG_COMPONENT
    monkeypatch.setattr(counting, "TREES", "never")
    assert count_solutions(system) == tree


def test_bounds_hold():
    cons, rc = random_cons(3, 12, 12, 0.35)
    vs, cis = max(components(cons), key=lambda c: len(c[0]))
    cc = [cons[i] for i in cis]
    with pytest.raises(CountingMemoryError):
        count_by_tree(vs, cc, bounds=Bounds(memory=1000))
    with pytest.raises(AnalysisTimeout):
        count_by_tree(vs, cc, bounds=Bounds(timeout=0))
    with pytest.raises(CountingLimitError):
        count_by_tree(vs, cc, max_states=2)


def test_tree_bags_none_where_the_sweep_is_as_narrow():
    # a row of cells: the sweep keeps one or two counts open, the bags hold two: swept
    row = [((i, i + 1), 1) for i in range(1, 60)]
    rc = np.array([[0, j] for j in range(60)])
    assert tree_bags(list(range(1, 61)), row, rc) is None


@pytest.mark.parametrize("rows,cols,density,pattern,seed", [(16, 16, 0.4, "checker", 1), (14, 14, 0.3, "lattice", 2)])
def test_same_counts_as_d4(rows, cols, density, pattern, seed, tmp_path, monkeypatch):
    p = board(rows, cols, density, pattern, seed, total=False)
    expected = d4_reference(p, str(tmp_path))
    monkeypatch.setattr(counting, "BIG_COMPONENT", 6)
    monkeypatch.setattr(counting, "TREES", "always")
    assert count_solutions(build_system(p)).solutions == expected


@pytest.mark.parametrize("seed", range(30))
def test_weighted_mines_equal_the_polynomials_applied(seed):
    # each component alone, and all of them at once (several roots: the others' P multiply each root's OW)
    cons, _ = random_cons(seed, 6 + seed % 5, 7, 0.3)
    comps = components(cons)
    if not comps:
        return
    groups = [(vs, [cons[i] for i in cis]) for vs, cis in comps]
    groups.append((sorted(x for vs, _ in comps for x in vs), cons))
    rng = random.Random(seed)
    for vs, cc in groups:
        P, M = count_by_tree(vs, cc)
        # w as counting makes it: zeros outside a window, numbers of 1 to 90 bits inside
        lo = rng.randrange(len(P))
        w = [rng.getrandbits(rng.choice([1, 20, 90])) if lo <= j <= lo + rng.randrange(4) else 0
             for j in range(len(P) + 2)]
        comp = TreeComponent(vs, cc, decompose(cc))
        assert comp.P == P
        assert comp.weighted_mines(w) == {v: sum(m * w[j] for j, m in enumerate(M[v]) if j < len(w)) for v in vs}
        with pytest.raises(CountingLimitError):   # its tables are given up as it goes: once only
            comp.polynomials()
        again = TreeComponent(vs, cc, decompose(cc))
        assert {v: strip(p) for v, p in again.polynomials().items()} == {v: strip(M[v]) for v in vs}


def test_the_correlation_window_of_the_docstring():
    # treeweigh's example: I_child = 1 + 2x reversed is 2 + x; OW(t) = 5 + 7x from 3 mines; a row whose
    # inside numbers are 3..3 takes slot 1 of the product: 1 * 5 + 2 * 7
    from mineconv.analysis.treeweigh import correlate
    bits = 16
    rev = np.asarray([2 + (1 << bits)], dtype=object)
    ow = (np.asarray([5 + (7 << bits)], dtype=object), np.asarray([3]))
    got = correlate(1, np.asarray([0]), rev, np.asarray([0]), np.asarray([1]), ow, np.asarray([0]),
                     np.asarray([3]), np.asarray([1]), bits, Bounds(memory=None))
    assert got.tolist() == [19]


def test_the_decomposition_stops_at_its_limit_and_its_clock():
    system = build_system(board(16, 16, 0.4, "checker", 5, total=False))
    cons = [(tuple(int(x) for x in row if x), int(r)) for row, r in zip(system.con_vars.tolist(), system.con_rhs.tolist())
            if any(row)]
    full = decompose(cons)
    assert decompose(cons, width(full)) == full
    assert decompose(cons, width(full) - 1) is None
    with pytest.raises(AnalysisTimeout):
        decompose(cons, None, Bounds(timeout=0))


def test_no_tree_past_its_widest(monkeypatch):
    system = build_system(board(16, 16, 0.4, "checker", 5, total=False))
    cons = [(tuple(int(x) for x in row if x), int(r)) for row, r in zip(system.con_vars.tolist(), system.con_rhs.tolist())
            if any(row)]
    vs, cis = max(components(cons), key=lambda c: len(c[0]))
    cc = [cons[i] for i in cis]
    bags = tree_bags(vs, cc, system.var_rc)
    assert bags is not None
    monkeypatch.setattr(treedp, "TREE_WIDTH", width(bags))
    assert tree_bags(vs, cc, system.var_rc) == bags
    monkeypatch.setattr(treedp, "TREE_WIDTH", width(bags) - 1)
    assert tree_bags(vs, cc, system.var_rc) is None
