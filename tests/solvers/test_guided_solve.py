"""The embedded solver guided to a solution on a board with a total mine count (solvers/embedded.py, _guess).

On game positions the total made glucose search: 0.03-1.0 s on 16 x 30 boards with 99 mines, ~12,700
conflicts on samples/expert-16x30.txt. Guided, the count clauses alone give the frontier and the total's
remaining mines go on cells next to no count; the total's clauses are built only when a guess cannot answer.
These tests hold what it answers to the unguided solver, to the exact count and to every count, and count the
search it saves (conflicts, not seconds: a count does not depend on the machine's load).
"""
from __future__ import annotations

import pytest

import mineconv.solvers.embedded as embedded_module
from mineconv.analysis.report import analyze
from mineconv.core.puzzle import Puzzle
from mineconv.formats.reading import read
from mineconv.solvers.embedded import EmbeddedSolver
from mineconv.solvers.process import Deadline
from mineconv.solvers import solving
from mineconv.solvers.solving import solve
from tests.conftest import SAMPLES
from tests.solvers.test_quick_solve import random_puzzles
from mineconv.encode.plain import check_mines


def first_two(puzzle):
    """(statuses, conflicts after each run, the two models' cell values, whether the total's clauses were
    built) of a solve, a block and a solve."""
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
        return statuses, conflicts, models, emb._card is None
    finally:
        emb.close()


def test_a_game_position_is_solved_without_search(monkeypatch):
    p = read(SAMPLES / "expert-16x30.txt")
    assert p.mines == 99 and p.unknown_count > 300
    statuses, conflicts, models, card_built = first_two(p)
    assert statuses == ["solved", "solved"]
    # the counts alone, then one mine moved between two cells next to no count: the total's clauses never built
    assert conflicts[0] <= 5 and conflicts[1] == conflicts[0] and not card_built
    assert sum(a != b for a, b in zip(*models)) == 2
    assert all(decode_mines(p, m) is None for m in models)
    monkeypatch.setattr(embedded_module, "GUIDE", False)
    plain, plain_conflicts, _, plain_built = first_two(p)
    assert plain == statuses and plain_built and plain_conflicts[0] > 20 * (conflicts[0] + 1)


def decode_mines(p, values):
    """check_mines's verdict on the cells' values of a model (known mines added)."""
    unknown = [i for i, ch in enumerate(p.cells) if ch == "?"]
    mines = {i for i, v in zip(unknown, values) if v} | {i for i, ch in enumerate(p.cells) if ch == "*"}
    return check_mines(p, mines)


@pytest.mark.parametrize("seed", [11, 12])
def test_guided_answers_are_the_exact_count_s(seed, monkeypatch):
    seen = set()
    for p in random_puzzles(seed, 250, most=8):
        if p.mines is None:
            continue
        seen.add(solved_as_counted(p, monkeypatch, "GUIDE", False))
    assert {("solved", True), ("solved", False), ("infeasible", False)} <= seen


def solved_as_counted(p, monkeypatch, flag: str, other) -> tuple:
    """(status, unique) of solve(p, check_unique=True), held to the exact count and to the solve with the
    embedded solver's `flag` set to `other`."""
    got = solve(p, check_unique=True)
    a = analyze(p)
    assert got.status == ("solved" if a.solutions else "infeasible"), p
    if a.solutions:
        assert got.unique == (a.solutions == 1), p
    with monkeypatch.context() as m:
        m.setattr(embedded_module, flag, other)
        plain = solve(p, check_unique=True)
    assert (plain.status, plain.unique) == (got.status, got.unique), p
    return got.status, got.unique


def enumerate_blocking(p, look):
    """(how many solutions the embedded solver gives, blocking each: every one checked against the rules and
    met once; look(solver) before the first run; look(solver) after the last)."""
    emb = EmbeddedSolver(p)
    try:
        before = look(emb)
        found = set()
        while emb.run(Deadline(None))[0] == "solved":
            values = tuple(lit > 0 for lit in emb.model()[:emb.k])
            assert values not in found and decode_mines(p, values) is None, p
            found.add(values)
            emb.block(list(values))
        return len(found), before, look(emb)
    finally:
        emb.close()


def test_enumerating_a_guided_board_gives_every_solution_once():
    # guesses first, then (a move blocked, or none possible) the total's clauses and the search: every solution
    # exactly once either way, as many as the exact count
    paths = set()
    for p in random_puzzles(21, 400, most=6):
        if p.mines is None:
            continue
        a = analyze(p)
        if not a.solutions or a.solutions > 200:
            continue
        n, card_before, card_after = enumerate_blocking(p, lambda emb: emb._card)
        assert n == a.solutions, p
        paths.add((card_before is not None, card_after is None))
    assert {(True, True), (False, True)} <= paths


def test_a_solution_blocked_before_the_first_run_is_never_guessed():
    # as the uniqueness check of an external solver's answer does: block it, then ask. "1???" with one mine:
    # the count makes cell 1 a mine, the total leaves cells 2 and 3 (next to no count) safe: one solution
    p = Puzzle(1, 4, "1???", mines=1)
    emb = EmbeddedSolver(p)
    try:
        emb.block([True, False, False])
        assert emb.run(Deadline(None))[0] == "infeasible"
    finally:
        emb.close()
    assert solve(p, check_unique=True).unique is True


def test_an_external_answer_s_uniqueness_is_checked_without_a_big_total(monkeypatch):
    # past UNIQUE_CARD_WORK the check never builds the total's clauses: a guess answers it, or it stays unknown
    monkeypatch.setattr(solving, "UNIQUE_CARD_WORK", 1)
    several = read(SAMPLES / "expert-16x30.txt")
    one = Puzzle(1, 4, "1???", mines=1)
    for p, want in ((several, True), (one, None)):
        dec = solve(p)
        assert solving._other_solution(p, dec, Deadline(None)) is want, p
    monkeypatch.setattr(embedded_module, "GUIDE", False)
    assert solving._other_solution(several, solve(several), Deadline(None)) is None   # as before the guesses


def test_the_clock_is_asked_before_the_total_s_clauses_are_built(monkeypatch):
    # "1???" with one mine is unique: no move answers the uniqueness check, so the total's clauses are wanted;
    # on a machine that would take 30 s to build them the check is unknown at once, with the reason
    monkeypatch.setattr(embedded_module, "CARD_UNITS_PER_SECOND", 0.1)
    emb = EmbeddedSolver(Puzzle(1, 4, "1???", mines=1))
    try:
        assert emb.run(Deadline(10))[0] == "solved"
        emb.block([lit > 0 for lit in emb.model()])
        status, why = emb.run(Deadline(10))
        assert status == "unknown" and "no guess answered" in why and emb._card is not None
    finally:
        emb.close()
