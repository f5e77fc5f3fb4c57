"""The SAT backbone on game boards decides exactly the cells a plain per-cell SAT check decides.

sat_backbone substitutes the cells propagation decided and splits the rest into independent parts; the
reference here asks one solver over the whole board's CNF, for every unknown cell, whether it can be a
mine and whether it can be safe. The full level is also checked against the exact counter's per-cell
counts (0 or all solutions), with and without the total mine count.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
import pytest

from mineconv.analysis.backbone import open_parts, full_backbone, sat_backbone
from mineconv.analysis.counting import count_solutions
from mineconv.analysis.propagation import MINE, SAFE, UNDECIDED, propagate
from mineconv.encode.cnf import to_cnf
from mineconv.make.generate import random_puzzle
from mineconv.core.puzzle import Puzzle
from mineconv.core.system import build_system

pytest.importorskip("pysat")


def reference_backbone(puzzle: Puzzle, use_total: bool) -> Optional[np.ndarray]:
    """Per-cell backbone by two SAT calls per cell on one solver over the whole CNF (None: unsat)."""
    from pysat.solvers import Solver

    system = build_system(puzzle)
    total = system.total + puzzle.known_mine_count if use_total and system.total is not None else None
    cnf = to_cnf(puzzle.replace(mines=total), mines=total)
    values = np.full(system.num_vars, UNDECIDED, dtype=np.int8)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as sat:
        if not sat.solve():
            return None
        mentioned = {abs(x) for c in cnf.clauses for x in c}
        for v in range(1, system.num_vars + 1):
            if v not in mentioned:
                continue
            can_mine, can_safe = sat.solve(assumptions=[v]), sat.solve(assumptions=[-v])
            if can_mine != can_safe:
                values[v - 1] = MINE if can_mine else SAFE
    return values


def boards():
    """Random game boards of several sizes and densities, with the total mine count."""
    for seed in range(40):
        rows, cols = 6 + seed % 7, 7 + (seed * 3) % 11
        yield random_puzzle(rows, cols, density=0.12 + 0.02 * (seed % 6), reveal="game", seed=seed,
                            openings=1 + seed % 3)
    for seed in range(6):  # frontiers long enough to hold several parts once the decided cells are cut out
        yield random_puzzle(30, 40, density=0.14 + 0.01 * seed, reveal="game", seed=100 + seed)


@pytest.mark.parametrize("board", list(boards()), ids=lambda p: f"{p.rows}x{p.cols}")
def test_counts_backbone_matches_reference(board: Puzzle) -> None:
    system = build_system(board)
    gac = propagate(board, "gac", system=system)
    expected = reference_backbone(board, use_total=False)
    for known in (None, gac.values):
        got = sat_backbone(board, system=system, known=known, use_total=False)
        if expected is None:
            assert got is None
        else:
            assert got is not None
            assert got.tolist() == expected.tolist()


@pytest.mark.parametrize("board", list(boards())[:25], ids=lambda p: f"{p.rows}x{p.cols}")
def test_full_backbone_matches_reference_and_counter(board: Puzzle) -> None:
    system = build_system(board)
    gac = propagate(board, "gac", system=system)
    values, counted, error = full_backbone(board, system=system, known=gac.values)
    assert error is None
    expected = reference_backbone(board, use_total=True)
    assert values.tolist() == expected.tolist()
    exact = count_solutions(system, np.full(system.num_vars, UNDECIDED, dtype=np.int8))
    assert exact.solutions > 0
    never, always = exact.never_mine(), exact.always_mine()
    assert (values == SAFE).tolist() == never.tolist()
    assert (values == MINE).tolist() == always.tolist()


def test_decided_cells_cut_the_board_into_small_parts() -> None:
    board = random_puzzle(120, 120, density=0.15, reveal="game", seed=3)
    system = build_system(board)
    gac = propagate(board, "gac", system=system)
    whole = open_parts(system, np.full(system.num_vars, UNDECIDED, dtype=np.int8))
    cut = open_parts(system, gac.values)
    assert max(len(cells) for _, cells, _ in whole) > 500
    assert max(len(cells) for _, cells, _ in cut) < 100
    # every open cell a clause mentions is in exactly one part
    covered = np.concatenate([cells for _, cells, _ in cut])
    assert np.unique(covered).size == covered.size
    assert set(covered.tolist()) <= set(np.flatnonzero(gac.values == UNDECIDED).tolist())


def test_a_decided_cell_breaking_a_count_is_unsatisfiable() -> None:
    board = random_puzzle(8, 8, density=0.2, reveal="game", seed=5)
    system = build_system(board)
    gac = propagate(board, "gac", system=system)
    assert gac.consistent
    wrong = gac.values.copy()
    decided = np.flatnonzero(wrong != UNDECIDED)
    assert decided.size
    wrong[decided[0]] = MINE if wrong[decided[0]] == SAFE else SAFE
    assert sat_backbone(board, system=system, known=wrong, use_total=False) is None
