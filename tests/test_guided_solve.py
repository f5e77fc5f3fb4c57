"""The embedded solver guided to a solution on a board with a total mine count (solvers/embedded.py, _guess).

On game positions the total made glucose search: 0.03-1.0 s on 16 x 30 boards with 99 mines, ~12,700
conflicts on samples/expert-16x30.txt. Guided, the count clauses alone give the frontier, the total's
remaining mines go on cells next to no count, and the solver checks that under assumptions. These tests hold
what it answers to the unguided solver and to the exact count, and count the search it saves (conflicts, not
seconds: a count does not depend on the machine's load).
"""
from __future__ import annotations

import pytest

import mineconv.solvers.embedded as embedded_module
from mineconv.analysis.report import analyze
from mineconv.formats.reading import read
from mineconv.solvers.embedded import EmbeddedSolver
from mineconv.solvers.process import Deadline
from mineconv.solvers.solving import solve
from tests.conftest import SAMPLES
from tests.test_quick_solve import random_puzzles


def first_two(puzzle):
    """(statuses, conflicts after each run, the two models' cell values) of a solve, a block and a solve."""
    emb = EmbeddedSolver(puzzle)
    try:
        statuses, conflicts, models = [], [], []
        for _ in range(2):
            statuses.append(emb.run(Deadline(None))[0])
            conflicts.append(emb.solver.accum_stats()["conflicts"])
            if statuses[-1] != "solved":
                break
            models.append([lit > 0 for lit in emb.model()[:emb.k]])
            emb.block(models[-1])
        return statuses, conflicts, models
    finally:
        emb.close()


def test_a_game_position_is_solved_without_search(monkeypatch):
    p = read(SAMPLES / "expert-16x30.txt")
    assert p.mines == 99 and p.unknown_count > 300
    statuses, conflicts, models = first_two(p)
    assert statuses == ["solved", "solved"]
    # the first model is the guess itself; the second moves one mine between two cells next to no count
    assert conflicts[0] <= 5
    assert sum(a != b for a, b in zip(*models)) == 2
    assert conflicts[1] - conflicts[0] < 1000
    monkeypatch.setattr(embedded_module, "GUIDED_CELLS", 0)
    plain, plain_conflicts, _ = first_two(p)
    assert plain == statuses and plain_conflicts[0] > 20 * (conflicts[0] + 1)


@pytest.mark.parametrize("seed", [11, 12])
def test_guided_answers_are_the_exact_count_s(seed, monkeypatch):
    seen = set()
    for p in random_puzzles(seed, 250, most=8):
        if p.mines is None:
            continue
        got = solve(p, check_unique=True)
        a = analyze(p)
        assert got.status == ("solved" if a.solutions else "infeasible"), p
        if a.solutions:
            assert got.unique == (a.solutions == 1), p
        with monkeypatch.context() as m:
            m.setattr(embedded_module, "GUIDED_CELLS", 0)
            plain = solve(p, check_unique=True)
        assert (plain.status, plain.unique) == (got.status, got.unique), p
        seen.add((got.status, got.unique))
    assert {("solved", True), ("solved", False), ("infeasible", False)} <= seen


def test_a_guess_that_is_no_solution_falls_back_to_the_search(monkeypatch):
    p = read(SAMPLES / "expert-16x30.txt")
    real = EmbeddedSolver._guess

    def wrong(self, deadline):
        guess = real(self, deadline)
        return None if guess is None else [-lit for lit in guess]   # every cell flipped: no solution

    monkeypatch.setattr(EmbeddedSolver, "_guess", wrong)
    statuses, conflicts, models = first_two(p)
    assert statuses == ["solved", "solved"] and models[0] != models[1]
    assert conflicts[0] > 100   # it searched
