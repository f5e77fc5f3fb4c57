"""The encoders against brute force: the CNF admits exactly the solutions, the PuLP model solves right."""
from __future__ import annotations

import itertools
import random
from typing import List, Optional, Set, Tuple

import numpy as np
import pytest

from mineconv.encode import (CARD_ENCODINGS, DEFAULT_CARD_ENCODING, cnf_clauses, encode_cnf, to_cnf,
                             to_pulp)
from mineconv.core.errors import FormatError, PuzzleError
from mineconv.core.puzzle import Puzzle
from mineconv.core.system import build_system, check_assignment

from helpers import brute_force, random_board, solution_set

Solution = Tuple[int, ...]


def cnf_solutions(clauses: List[List[int]], k: int) -> Set[Solution]:
    """Every assignment of variables 1..k the clauses admit (auxiliary variables projected away)."""
    from pysat.solvers import Solver

    found = set()
    if any(len(c) == 0 for c in clauses):
        return found
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        while s.solve():
            model = set(v for v in s.get_model() if v > 0)
            bits = tuple(int(i in model) for i in range(1, k + 1))
            found.add(bits)
            if not k:
                break
            s.add_clause([-i if b else i for i, b in zip(range(1, k + 1), bits)])
    return found


@pytest.mark.parametrize("seed", range(150))
def test_cnf_admits_exactly_the_solutions(seed: int) -> None:
    puzzle = random_board(seed, max_unknown=12)
    expected = solution_set(puzzle)
    cnf = to_cnf(puzzle)
    assert cnf.nv >= puzzle.unknown_count
    assert cnf_solutions(cnf.clauses, puzzle.unknown_count) == expected, repr(puzzle)


@pytest.mark.parametrize("encoding", [e for e in CARD_ENCODINGS if e not in ("pairwise", "bitwise", "ladder")])
def test_every_general_card_encoding_counts_exactly(encoding: str) -> None:
    rng = np.random.default_rng(7)
    for _ in range(12):
        puzzle = random_board(rng, max_unknown=9)
        for total in range(puzzle.known_mine_count, puzzle.known_mine_count + puzzle.unknown_count + 2):
            got = cnf_solutions(to_cnf(puzzle, mines=total, card_encoding=encoding).clauses, puzzle.unknown_count)
            assert got == solution_set(puzzle, total), (encoding, total, puzzle)


def test_auxiliary_variables_come_after_the_cells() -> None:
    puzzle = Puzzle.from_rows(["????", "?3??", "????"], mines=4)
    enc = encode_cnf(puzzle)
    k = puzzle.unknown_count
    assert enc.card_encoding == DEFAULT_CARD_ENCODING
    assert enc.nv > k
    cell_vars = {abs(v) for c in enc.cells.as_lists() for v in c}
    assert cell_vars <= set(range(1, k + 1))
    card_vars = {abs(v) for c in enc.card.as_lists() for v in c}
    assert max(card_vars) <= enc.nv
    assert card_vars - set(range(1, k + 1)), "the counter should need auxiliary variables"


def test_one_bound_encodings_work_for_one_and_refuse_others() -> None:
    puzzle = Puzzle.from_rows(["????", "?1??"])
    for name in ("pairwise", "ladder", "bitwise"):
        got = cnf_solutions(to_cnf(puzzle, mines=1, card_encoding=name).clauses, 7)
        assert got == solution_set(puzzle, 1)
        with pytest.raises(FormatError, match="only bounds of 1"):
            to_cnf(puzzle, mines=3, card_encoding=name)


def test_unknown_card_encoding_is_a_clear_error() -> None:
    with pytest.raises(FormatError, match="unknown cardinality encoding 'nope'; valid names: seqcounter"):
        to_cnf(Puzzle.from_rows(["1?"]), card_encoding="nope")


def test_binomial_clauses_of_one_count() -> None:
    # 2 of 4 unknown neighbours: C(4,3) at-most clauses then C(4,3) at-least clauses, lexicographic
    puzzle = Puzzle.from_rows(["??", "?2", "?."])
    got = cnf_clauses(build_system(puzzle)).as_lists()
    assert got == [[-1, -2, -3], [-1, -2, -4], [-1, -3, -4], [-2, -3, -4],
                   [1, 2, 3], [1, 2, 4], [1, 3, 4], [2, 3, 4]]


@pytest.mark.parametrize("rows, expected", [
    (["0?"], [[-1]]),                 # c = 0: negative units
    (["1?"], [[1]]),                  # c = d: positive units
    (["1."], [[]]),                   # more mines than neighbours: the empty clause
    (["1*", "?."], [[-1]]),           # the known mine is folded into the count
    (["0*"], [[]]),                   # a known mine beside a 0: rhs -1, the empty clause
    (["2."], None),                   # invalid as a puzzle? no: 2 > 1 neighbour is refused by Puzzle
])
def test_edge_counts(rows: List[str], expected: Optional[List[List[int]]]) -> None:
    if expected is None:
        with pytest.raises(PuzzleError):
            Puzzle.from_rows(rows)
        return
    assert cnf_clauses(build_system(Puzzle.from_rows(rows))).as_lists() == expected


def test_total_out_of_range_and_trivial_totals() -> None:
    puzzle = Puzzle.from_rows(["??", "?."])
    assert [] in to_cnf(puzzle, mines=4).clauses
    assert cnf_solutions(to_cnf(puzzle, mines=0).clauses, 3) == {(0, 0, 0)}
    assert cnf_solutions(to_cnf(puzzle, mines=3).clauses, 3) == {(1, 1, 1)}
    assert to_cnf(puzzle, mines=3).nv == 3


def test_unconstrained_cells_stay_declared() -> None:
    puzzle = Puzzle.from_rows(["1?.?", "...."])
    cnf = to_cnf(puzzle)
    assert cnf.nv == 2
    assert cnf_solutions(cnf.clauses, 2) == {(1, 0), (1, 1)}


def test_clauses_are_in_row_major_constraint_order() -> None:
    puzzle = Puzzle.from_rows(["1?1", "???", "2?0"])
    sys_ = build_system(puzzle)
    lists = cnf_clauses(sys_).as_lists()
    # rebuild constraint by constraint with the same rule and compare the concatenation
    expected = []
    for n, row, rhs in zip(sys_.con_len.tolist(), sys_.con_vars.tolist(), sys_.con_rhs.tolist()):
        vs = row[:n]
        if rhs < 0 or rhs > n:
            expected.append([])
            continue
        expected += [[-v for v in s] for s in itertools.combinations(vs, rhs + 1)]
        expected += [list(s) for s in itertools.combinations(vs, n - rhs + 1)]
    assert lists == expected


def test_big_board_encodes_fast() -> None:
    import time

    from mineconv.make.generate import place_mines
    from mineconv.core.layout import full_reveal

    puzzle = full_reveal(place_mines(300, 300, density=0.2, seed=3))
    t = time.perf_counter()
    enc = encode_cnf(puzzle)
    assert time.perf_counter() - t < 5
    assert enc.num_clauses > puzzle.unknown_count


@pytest.mark.parametrize("seed", range(12))
def test_to_pulp_solves_with_cbc(seed: int) -> None:
    import pulp

    puzzle = random_board(1000 + seed, max_unknown=10)
    prob = to_pulp(puzzle)
    status = prob.solve(pulp.PULP_CBC_CMD(msg=False))
    feasible = len(brute_force(puzzle)) > 0
    assert pulp.LpStatus[status] == ("Optimal" if feasible else "Infeasible"), repr(puzzle)
    if feasible:
        values = {v.name: v.varValue for v in prob.variables()}
        grid = puzzle.codes == 9
        for r, c in puzzle.unknown_cells:
            grid[r, c] = round(values[f"x{r}_{c}"]) == 1
        assert check_assignment(puzzle, grid) is None


def test_to_pulp_names_and_rows() -> None:
    import warnings

    prob = to_pulp(Puzzle.from_rows(["1??", "12?", "01?"], mines=2, name="seed 3x3"))
    with warnings.catch_warnings():  # PuLP 3.3 deprecates the mapping view that older PuLPs only have
        warnings.simplefilter("ignore", DeprecationWarning)
        names = sorted(prob.constraints)
    assert names == ["c0_0", "c1_0", "c1_1", "c2_1", "total"]
    assert sorted(v.name for v in prob.variables()) == ["x0_1", "x0_2", "x1_2", "x2_2"]
    assert all(v.cat == "Integer" and v.upBound == 1 for v in prob.variables())


@pytest.mark.parametrize("rows, mines, verdict", [
    (["1.", "..", "?."], None, "Infeasible"),   # a count with nothing unknown around it that is not met
    (["1*", "11"], 1, "Optimal"),               # no unknown cell at all, consistent
    (["2*", "11"], None, "Infeasible"),         # no unknown cell at all, inconsistent
    (["??", "??"], 5, "Infeasible"),            # total above the number of cells left
])
def test_to_pulp_edge_boards(rows: List[str], mines: Optional[int], verdict: str) -> None:
    import pulp

    prob = to_pulp(Puzzle.from_rows(rows), mines=mines)
    assert pulp.LpStatus[prob.solve(pulp.PULP_CBC_CMD(msg=False))] == verdict


def twenty_unknowns(rng: random.Random) -> Puzzle:
    """A 6x6 board from a real mine placement with 18-20 unknown cells, the rest mostly counts."""
    from mineconv.make.generate import place_mines
    from mineconv.core.layout import full_reveal

    board = full_reveal(place_mines(6, 6, mines=rng.randint(5, 9), seed=rng.randint(0, 10 ** 6)))
    cells = list(board.cells)
    counts = [i for i, ch in enumerate(cells) if ch != "?"]
    rng.shuffle(counts)
    for i in counts[:max(0, rng.randint(18, 20) - board.unknown_count)]:
        cells[i] = "?"
    mines = [i for i, ch in enumerate(board.cells) if ch == "?"]
    for i in mines[:rng.randint(0, 2)]:
        cells[i] = "*"
    return board.replace(cells="".join(cells), mines=board.mines if rng.random() < 0.5 else None)


@pytest.mark.parametrize("seed", range(6))
def test_cnf_on_boards_of_about_twenty_unknowns(seed: int) -> None:
    rng = random.Random(500 + seed)
    if seed == 0:
        puzzle = Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"], mines=8)
    else:
        puzzle = twenty_unknowns(rng)
    expected = solution_set(puzzle)
    if seed == 0:
        assert len(expected) == 1  # du Sautoy's puzzle has exactly one solution
    got = cnf_solutions(to_cnf(puzzle).clauses, puzzle.unknown_count)
    assert got == expected, repr(puzzle)


def test_brute_force_agrees_with_check_assignment() -> None:
    # the oracle (helpers.brute_force, from the rules by hand) against the library's checker, assignment by assignment
    for seed in range(60):
        puzzle = random_board(2000 + seed, max_unknown=8)
        cells = puzzle.unknown_cells
        found = set()
        for bits in itertools.product((0, 1), repeat=len(cells)):
            grid = puzzle.codes == 9
            for (r, c), b in zip(cells, bits):
                grid[r, c] = bool(b)
            if check_assignment(puzzle, grid) is None:
                found.add(bits)
        assert solution_set(puzzle) == found, repr(puzzle)


def test_pysat_encoders_run_off_the_main_thread(monkeypatch):
    # from the main thread pysat's C encoders install a SIGINT handler that longjmps out of C++ code:
    # a batch stopped with Ctrl-C while one ran died of SIGSEGV now and then
    import threading
    from pysat.card import CardEnc
    from mineconv import Puzzle, dumps
    seen = []
    real = CardEnc.equals

    def spy(*args, **kwargs):
        seen.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(CardEnc, "equals", spy)
    text = dumps(Puzzle.from_rows(["1??", "???"], mines=2), "cnf", card_encoding="seqcounter")
    assert seen == [False] and "p cnf" in text
