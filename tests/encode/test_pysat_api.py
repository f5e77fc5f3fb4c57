"""to_cnf for PySAT users: the CNF knows its grid, decodes a model, and counts solutions over the cell
variables only (a cardinality encoding's auxiliary variables never repeat a solution)."""
from __future__ import annotations

import numpy as np
import pytest
from pysat.solvers import Solver

from mineconv import Puzzle, read
from mineconv.encode import to_cnf
from tests.conftest import SAMPLES
from tests.helpers import mine_sets, random_board


def test_seed_board_cells_and_decode():
    p = read(SAMPLES / "seed-3x3.txt")
    cnf = to_cnf(p)
    assert cnf.k == 4 and cnf.cells == [(0, 1), (0, 2), (1, 2), (2, 2)] and cnf.puzzle == p
    with Solver(bootstrap_with=cnf.clauses) as s:
        assert s.solve()
        solved = cnf.decode(s.get_model())
    assert solved.unknown_count == 0 and solved[0, 1] == "*" and solved[0, 2] == "."


def test_auxiliary_variables_do_not_multiply_solutions():
    p = read(SAMPLES / "seed-3x3.txt").replace(mines=2)
    cnf = to_cnf(p, card_encoding="totalizer")
    with Solver(bootstrap_with=cnf.clauses) as s:
        raw = len(list(s.enum_models()))
    assert raw > 2  # the totalizer's auxiliaries are free: plain enum_models repeats each solution
    solutions = list(cnf.solutions())
    assert len(solutions) == 2 and len(set(solutions)) == 2


@pytest.mark.parametrize("seed", range(40))
def test_solutions_match_brute_force(seed):
    p = random_board(seed, max_unknown=10)
    rng = np.random.default_rng(seed)
    if p.mines is None and rng.random() < 0.5 and p.unknown_count:
        p = p.replace(mines=int(rng.integers(0, p.unknown_count + 1)) + p.known_mine_count)
    cnf = to_cnf(p, card_encoding="totalizer")
    got = {frozenset((r, c) for r in range(sol.rows) for c in range(sol.cols) if sol[r, c] == "*")
           for sol in cnf.solutions()}
    assert got == mine_sets(p)


def test_limit_and_a_board_without_unknowns():
    p = read(SAMPLES / "kaye-splitter.txt")
    assert len(list(to_cnf(p).solutions(limit=5))) == 5
    full = Puzzle.from_rows(["1*", "11"])
    assert list(to_cnf(full).solutions()) == [full]


def test_a_missing_file_is_a_file_not_found_error(tmp_path):
    from mineconv import MineconvError
    with pytest.raises(FileNotFoundError) as exc:
        read(tmp_path / "nope.txt")
    assert isinstance(exc.value, MineconvError) and str(exc.value).endswith("nope.txt: no such file")
    assert exc.value.filename == str(tmp_path / "nope.txt")


# --- PuLP users -----------------------------------------------------------------------------------------
def _pulp_solve(prob):
    import pulp
    prob.solve(pulp.PULP_CBC_CMD(msg=False))


def test_pulp_solution_is_the_checked_grid():
    pytest.importorskip("pulp")
    from mineconv.encode import pulp_solution, to_pulp
    p = read(SAMPLES / "dusautoy-6x6.txt")
    prob = to_pulp(p)
    _pulp_solve(prob)
    solved = pulp_solution(prob)
    assert solved.unknown_count == 0 and sorted(
        (r, c) for r in range(6) for c in range(6) if solved[r, c] == "*") == sorted(
        frozenset().union(*mine_sets(p)))


def test_pulp_solution_refuses_infeasible_and_tampered_values():
    pytest.importorskip("pulp")
    from mineconv import MineconvError, SolverError, VerificationError
    from mineconv.encode import pulp_solution, to_pulp
    bad = Puzzle.from_rows(["3?", ".?"])
    prob = to_pulp(bad)
    _pulp_solve(prob)
    with pytest.raises(SolverError):
        pulp_solution(prob)
    p = read(SAMPLES / "seed-3x3.txt")
    prob = to_pulp(p)
    _pulp_solve(prob)
    for var in prob.variables():
        if var.name == "x0_1":
            var.varValue = 0.0  # the only mine the 1 at (0, 0) can have
    with pytest.raises(VerificationError) as exc:
        pulp_solution(prob)
    assert isinstance(exc.value, MineconvError) and exc.value.cell is not None


# --- notebook users -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_linear_system_arrays_hold_for_every_solution(seed):
    from mineconv import build_system
    p = random_board(100 + seed, max_unknown=10)
    system = build_system(p)
    A, b = system.A, system.b
    assert A.shape == (system.num_constraints, system.num_vars) and b.shape == (system.num_constraints,)
    cells = p.unknown_cells
    for mines in mine_sets(p):
        x = np.array([1 if rc in mines else 0 for rc in cells], dtype=np.int64)
        assert (A @ x == b).all()


def test_pictures_and_arrays_for_notebooks():
    import mineconv
    p = read(SAMPLES / "seed-3x3.txt")
    assert mineconv.solve(p)._repr_svg_().startswith("<?xml")
    a = mineconv.analyze(p)
    assert "legend" in a._repr_svg_()
    probs = a.probability_array
    assert probs.shape == (3, 3) and np.isnan(probs[0, 0]) and probs[0, 1] == 1.0 and probs[1, 2] == 0.5


def test_solutions_are_lazy_and_bounded():
    import mineconv
    stream = mineconv.solutions(read(SAMPLES / "kaye-splitter.txt"), limit=3)
    first = next(iter(stream))
    assert first.status == "solved"
    assert len(list(mineconv.solutions(read(SAMPLES / "seed-3x3.txt")))) == 2
