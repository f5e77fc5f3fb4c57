"""The embedded solver on big boards: the cells next to no count numbered last, the first model part by part.

On a 500 x 500 game position glucose made 31.5 million decisions to find its first model (4 s): it decided
the 110,691 cells next to no count again after every backjump, and the decisions of one part of the frontier
were undone by conflicts in another. Numbered last, the free cells are never decided (solvers/feeding.py,
free_last); solved part by part (encode/parts.py), the frontier's parts no longer disturb each other. These
tests hold both to what they replace: the union-find and the parts to plain references, the answers to the
exact count and to the one-solver path, the search saved in decisions (not seconds, which depend on load).
"""
from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

import mineconv.solvers.embedded as embedded_module
from mineconv.analysis.report import analyze
from mineconv.core.graph import component_roots
from mineconv.core.puzzle import Puzzle
from mineconv.encode.parts import independent_parts
from mineconv.make.generate import random_puzzle
from mineconv.solvers.embedded import EmbeddedSolver
from mineconv.solvers.feeding import free_last
from mineconv.solvers.process import Deadline
from tests.solvers.test_guided_solve import decode_mines, enumerate_blocking, solved_as_counted
from tests.solvers.test_quick_solve import random_puzzles


# the plain references ----------------------------------------------------------------------------------
def plain_roots(n, edges):
    """Each node's smallest fellow in its component, by breadth-first search."""
    adj = defaultdict(list)
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    root = list(range(n))
    for start in range(n):
        if root[start] != start:
            continue
        queue = [start]
        for x in queue:
            for y in adj[x]:
                if root[y] == y and y != start and y > start:
                    root[y] = start
                    queue.append(y)
    return root


def test_component_roots_are_the_plain_search_s():
    rng = random.Random(1)
    for _ in range(300):
        n = rng.randint(1, 40)
        edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 2 * n))]
        a = np.array([e[0] for e in edges], dtype=np.int64)
        b = np.array([e[1] for e in edges], dtype=np.int64)
        assert component_roots(n, a, b).tolist() == plain_roots(n, edges), edges


def random_clauses(rng, k):
    """Clauses over some of the cells 1..k (none empty) as zero-padded rows, and as lists."""
    used = rng.sample(range(1, k + 1), rng.randint(1, k))
    clauses = []
    for _ in range(rng.randint(1, 3 * k)):
        vs = rng.sample(used, rng.randint(1, min(4, len(used))))
        clauses.append([v if rng.random() < 0.5 else -v for v in vs])
    width = max(map(len, clauses))
    rows = np.zeros((len(clauses), width), dtype=np.int32)
    for i, c in enumerate(clauses):
        rows[i, :len(c)] = c
    return rows, clauses


@pytest.mark.parametrize("least", [1, 4])
def test_independent_parts_are_the_plain_grouping_s(least):
    rng = random.Random(2)
    for _ in range(300):
        k = rng.randint(1, 30)
        rows, clauses = random_clauses(rng, k)
        edges = [(abs(c[0]), abs(x)) for c in clauses for x in c[1:]]
        root = plain_roots(k + 1, edges)
        want = defaultdict(list)   # root: the part's clauses, in row order
        for c in clauses:
            want[root[abs(c[0])]].append(tuple(c))
        cells_of = defaultdict(list)   # root: the part's cells, ascending
        for v in sorted({abs(x) for c in clauses for x in c}):
            cells_of[root[v]].append(v)
        groups = list(independent_parts(rows, k, least))
        roots = sorted(want)   # the parts in order of their first cell
        at = 0
        for local, cells in groups:
            # whole parts, consecutive, each's cells in board order after the group's earlier parts'
            ids = (cells + 1).tolist()
            members = []
            while len(sum((cells_of[r] for r in members), [])) < len(ids):
                members.append(roots[at])
                at += 1
            assert ids == sum((cells_of[r] for r in members), [])
            if least == 1:
                assert len(members) == 1
            back = [tuple(ids[abs(x) - 1] * (1 if x > 0 else -1) for x in c) for c in local]
            # the group's clauses, each once: shorter first, in row order within a length
            assert back == sorted((tuple(c) for c in clauses if root[abs(c[0])] in members), key=len)
        assert at == len(roots)
        # a group begins only where a part begins in a new window of `least` cells: at most one per window
        total = sum(len(c) for c in cells_of.values())
        assert len(groups) <= -(-total // least)


# the free cells numbered last --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_the_free_cells_are_never_decided(seed, monkeypatch):
    # a 100 x 100 game position, 6,843 cells of which ~2,300 are in count clauses: the first model
    p = random_puzzle(100, 100, density=0.2, reveal="game", seed=seed)
    runs = {}
    for last in (True, False):
        monkeypatch.setattr(embedded_module, "FREE_LAST", last)
        emb = EmbeddedSolver(p)
        try:
            known = emb.solver.nof_vars()
            assert emb.run(Deadline(None))[0] == "solved"
            values = [lit > 0 for lit in emb.model()[:emb.k]]
            assert decode_mines(p, values) is None
            runs[last] = known, emb._m, emb.solver.accum_stats()["decisions"]
        finally:
            emb.close()
    (known, m, decisions), (known_all, _, decisions_all) = runs[True], runs[False]
    assert known == m < p.unknown_count / 2 < known_all   # the solver knows only the cells in count clauses
    assert decisions_all > 10 * decisions                  # measured: 50,430 and 90,209 against 2,917 and 3,223


def test_free_last_s_worked_example():
    assert free_last(5, [2, 4]) == [0, 1, 4, 2, 5, 3]
    assert free_last(5, []) is None and free_last(5, [4, 5]) is None


# the first model part by part --------------------------------------------------------------------------
@pytest.fixture(params=[(1, 2000), (300, 0)])
def by_parts(monkeypatch, request):
    """Small boards through the numpy path and part by part, as a big board goes: a solver per part solved
    directly, or small parts together (the default grouping) each solved in a worker thread, as a big part is."""
    group, thread = request.param
    monkeypatch.setattr(embedded_module, "SMALL_SOLVE", 0)
    monkeypatch.setattr(embedded_module, "PARTS_FROM", 0)
    monkeypatch.setattr(embedded_module, "PART_GROUP", group)
    monkeypatch.setattr(embedded_module, "PART_THREAD", thread)


@pytest.mark.parametrize("seed", [31, 32])
def test_part_by_part_answers_are_the_exact_count_s(seed, by_parts, monkeypatch):
    seen = set()
    for p in random_puzzles(seed, 250, most=8):
        seen.add((*solved_as_counted(p, monkeypatch, "PARTS_FROM", 10 ** 9), p.mines is None))
    # with and without a total: unique, several and no solution all met
    assert {(s, u, t) for s, u in [("solved", True), ("solved", False), ("infeasible", False)]
            for t in (True, False)} <= seen


def test_part_by_part_enumeration_gives_every_solution_once(by_parts):
    met = 0
    for p in random_puzzles(41, 300, most=6):
        a = analyze(p)
        if not a.solutions or a.solutions > 200:
            continue
        n, parts, _ = enumerate_blocking(p, lambda emb: emb._parts)
        assert n == a.solutions, p
        met += parts is not None
    assert met > 50


def test_units_alone_are_no_reason_for_parts(monkeypatch):
    # a full reveal without its total: every count clause is a unit, and one solver needs no search
    monkeypatch.setattr(embedded_module, "PARTS_FROM", 1)
    full = random_puzzle(30, 30, density=0.2, reveal="full", seed=4)
    game = random_puzzle(30, 30, density=0.2, reveal="game", seed=4)
    for p, parts in ((Puzzle(full.rows, full.cols, full.cells), False), (game, True)):
        emb = EmbeddedSolver(p)
        try:
            assert (emb._parts is not None) is parts
            assert emb.run(Deadline(None))[0] == "solved"
        finally:
            emb.close()


def test_a_solution_blocked_before_the_first_run_is_not_found_part_by_part(by_parts):
    # an external solver's answer blocked first (its uniqueness check): the parts are then not asked
    for p, values in ((Puzzle(1, 4, "1???", mines=1), [True, False, False]), (Puzzle(1, 2, "1?"), [True])):
        emb = EmbeddedSolver(p)
        try:
            assert emb._parts is not None
            emb.block(values)
            assert emb.run(Deadline(None))[0] == "infeasible"
        finally:
            emb.close()


def test_an_impossible_count_is_infeasible_part_by_part(by_parts):
    # the 2 sees one unknown cell and two safe ones: an empty clause, no part to solve
    emb = EmbeddedSolver(Puzzle(2, 2, "2..?"))
    try:
        assert emb.run(Deadline(None))[0] == "infeasible"
    finally:
        emb.close()


class Ticks(Deadline):
    """A deadline that passes after its n-th look at the clock."""

    def __init__(self, n: int) -> None:
        super().__init__(3600)
        self.looks = n

    def expired(self) -> bool:
        self.looks -= 1
        return self.looks < 0


def test_the_clock_is_asked_between_parts(by_parts, monkeypatch):
    # a game position of 30 x 30 (many parts), a solver each, solved directly: time runs out after a few
    monkeypatch.setattr(embedded_module, "PART_GROUP", 1)
    monkeypatch.setattr(embedded_module, "PART_THREAD", 2000)
    p = random_puzzle(30, 30, density=0.2, reveal="game", seed=3)
    emb = EmbeddedSolver(p)
    try:
        status, why = emb.run(Ticks(4))
        assert status == "unknown" and "part by part" in why, why
        assert emb.run(Deadline(None))[0] == "solved"   # the one solver takes over
    finally:
        emb.close()
