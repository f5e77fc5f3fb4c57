"""The per-cell numbers with the total's weights applied in the backward pass (analysis/treetotal.py,
issue 24): count for count and numerator for numerator the same as the plain counter's polynomials, and
the component polynomials' plain counts the same as d4's on the boards' CNF without a total."""
from __future__ import annotations

import random

import numpy as np
import pytest
from tests.analysis.counting.sweep.test_rows import board, d4_reference

from mineconv.analysis import treetotal
from mineconv.analysis.counting.sweep import carry
from mineconv.analysis.counting import count as counting
from mineconv.analysis.counting import components, count_component, count_solutions
from mineconv.analysis.treecount import mine_polynomials, prepare
from mineconv.analysis.treetotal import BigComponent
from mineconv.core.system import build_system


def open_components(puzzle):
    """(cells, counts) of each component of a board with nothing decided, and the system."""
    system = build_system(puzzle)
    cons = [(tuple(x for x in row if x), r) for row, r in zip(system.con_vars.tolist(), system.con_rhs.tolist())]
    return [(vs, [cons[ci] for ci in cis]) for vs, cis in components(cons)], system


BOARDS = [(9, 9, 0.4, "checker", 1), (10, 12, 0.3, "lattice", 2), (12, 12, 0.35, "random", 3),
          (6, 20, 0.25, "checker", 4), (11, 9, 0.45, "random", 5)]


@pytest.mark.parametrize("rows,cols,density,pattern,seed", BOARDS)
@pytest.mark.parametrize("window", ["all", "narrow", "one"])
@pytest.mark.parametrize("backward", [False, True])
def test_weighted_mines_are_the_polynomials_applied_to_w(rows, cols, density, pattern, seed, window, backward,
                                                         monkeypatch):
    # small chunks and parts, so that one layer's dot products take several matrix products
    monkeypatch.setattr(carry, "CHUNK", 7)
    monkeypatch.setattr(carry, "TARGETS", 3)
    monkeypatch.setattr(carry, "SERIAL", 1)   # and each product a row at a time
    comps, system = open_components(board(rows, cols, density, pattern, seed))
    rng = random.Random(seed)
    tried = 0
    for vs, cons in comps:
        if len(vs) < 4:
            continue
        P, M = count_component(vs, cons, system.var_rc, weighted=True, max_states=10 ** 9)
        # keep_bytes=0: one forward layer in sqrt(n) kept, the others recomputed in the backward pass
        big = BigComponent(prepare(vs, cons, system.var_rc), keep_bytes=0 if window != "all" else None,
                           backward=backward)
        assert big.P == P and (big.every > 1) == (window != "all") and big.backward == backward
        nz = [j for j, c in enumerate(P) if c]
        lo, hi = {"all": (0, len(P)), "narrow": (nz[len(nz) // 3], nz[2 * len(nz) // 3]),
                  "one": (nz[-1], nz[-1])}[window]
        w = [rng.getrandbits(rng.choice([1, 30, 200])) if lo <= j <= hi else 0 for j in range(len(P))]
        got = big.weighted_mines(w)
        assert got == {v: sum(m * w[j] for j, m in enumerate(M[v]) if j < len(w)) for v in vs}
        tried += 1
    assert tried


@pytest.mark.parametrize("rows,cols,density,pattern,seed", BOARDS)
@pytest.mark.parametrize("big", [1, 6])
def test_probabilities_in_floats_from_the_swept_polynomials(rows, cols, density, pattern, seed, big, monkeypatch):
    # exact_budget=0: the big components hand counting their polynomials (approx_marginals needs them);
    # big=6: swept and small components mixed, summed in the components' order to the last bit
    system = build_system(board(rows, cols, density, pattern, seed))
    monkeypatch.setattr(counting, "BIG_COMPONENT", big)
    monkeypatch.setattr(counting, "TREES", "never")
    swept = count_solutions(system, exact_budget=0)
    monkeypatch.setattr(counting, "BIG_COMPONENT", 10 ** 9)
    plain = count_solutions(system, exact_budget=0)
    assert swept.solutions == plain.solutions > 0
    assert swept.approx == plain.approx and swept.mine_solutions is None


@pytest.mark.parametrize("rows,cols,density,pattern,seed", [(10, 10, 0.4, "checker", 1), (12, 12, 0.3, "lattice", 2),
                                                            (9, 14, 0.35, "random", 3)])
def test_the_polynomials_plain_counts_are_d4s(rows, cols, density, pattern, seed, tmp_path):
    comps, system = open_components(board(rows, cols, density, pattern, seed))
    free = system.num_vars - sum(len(vs) for vs, _ in comps)
    count = 2 ** free
    for vs, cons in comps:
        count *= sum(BigComponent(prepare(vs, cons, system.var_rc)).P)
    assert count == d4_reference(board(rows, cols, density, pattern, seed, total=False), str(tmp_path))


def test_no_solution_and_zero_weights():
    cons = [((1, 2), 1), ((2, 3), 1), ((1, 2, 3), 3)]
    var_rc = np.array([[0, j] for j in range(3)])
    big = BigComponent(prepare([1, 2, 3], cons, var_rc))
    assert big.P == [0] and big.weighted_mines([1, 1, 1, 1]) == {1: 0, 2: 0, 3: 0}
    big = BigComponent(prepare([1, 2, 3], cons[:2], var_rc))
    assert big.P == [0, 1, 1] and big.weighted_mines([0, 0, 0]) == {1: 0, 2: 0, 3: 0}
    assert big.weighted_mines([0, 5, 7]) == {1: 7, 2: 5, 3: 7}


@pytest.mark.parametrize("rows,cols,density,pattern,seed", BOARDS)
def test_the_path_is_chosen_before_the_forward_pass(rows, cols, density, pattern, seed, monkeypatch):
    # a component given BW's path never finds w wider than its slot afterwards (then P's pass would have
    # been spent before the products), and the products' path gives the same numbers as the plain counter
    system = build_system(board(rows, cols, density, pattern, seed))
    seen = {"narrow": 0, "wide": 0}
    weighted_mines = BigComponent.weighted_mines

    def checked(self, w, bounds=treetotal.UNBOUNDED):
        assert max(int(x).bit_length() for x in w) <= 8 * self.slot
        seen["narrow"] += 1
        return weighted_mines(self, w, bounds)

    def polynomials(swept, bounds, what):
        seen["wide"] += 1
        return mine_polynomials(swept, bounds, what)

    monkeypatch.setattr(BigComponent, "weighted_mines", checked)
    monkeypatch.setattr(treetotal, "mine_polynomials", polynomials)
    monkeypatch.setattr(counting, "BIG_COMPONENT", 4)
    monkeypatch.setattr(counting, "TREES", "never")
    swept = count_solutions(system)
    monkeypatch.setattr(counting, "BIG_COMPONENT", 10 ** 9)
    plain = count_solutions(system)
    assert swept.solutions == plain.solutions > 0 and swept.mine_solutions == plain.mine_solutions
    assert seen["narrow"] + seen["wide"] > 0


def test_both_paths_are_taken():
    # a chain of 5 cells (2 solutions, 2-byte slots): alone, its w fits a slot; beside 40 free cells holding
    # about half of the mines, the binomials alone pass 16 bits
    cons = [((j, j + 1), 1) for j in range(1, 5)]
    var_rc = np.array([[0, j] for j in range(5)])
    sweeps = {0: prepare([1, 2, 3, 4, 5], cons, var_rc)}
    P, M = treetotal.big_components(sweeps, [], 40, 22, 5)[0]
    assert isinstance(M, dict) and P == [0, 0, 1, 1]
    assert M == {1: [0, 0, 0, 1], 2: [0, 0, 1], 3: [0, 0, 0, 1], 4: [0, 0, 1], 5: [0, 0, 0, 1]}
    P, M = treetotal.big_components(sweeps, [], 0, 2, 5)[0]
    assert isinstance(M, BigComponent) and P == [0, 0, 1, 1]
