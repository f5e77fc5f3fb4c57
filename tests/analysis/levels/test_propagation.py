"""Propagation levels gac / 2rc / 3rc: sound (brute force), nested, and each stronger on its own example."""
from __future__ import annotations

import numpy as np
import pytest

from mineconv import Puzzle
from mineconv.make.generate import place_mines
from mineconv.core.layout import full_reveal
from mineconv.analysis.propagation import LEVELS, propagate

from helpers import brute_force, random_board


def decided(p: Puzzle, level: str):
    r = propagate(p, level)
    assert r.consistent
    return set(r.safe_cells), set(r.mine_cells)


def test_single_counts_gac():
    # a 0 clears its neighbours, a 3 in a corner with 3 unknowns fills them
    p = Puzzle.from_rows(["3?.", "??.", "..."])
    assert decided(p, "gac") == (set(), {(0, 1), (1, 0), (1, 1)})
    q = Puzzle.from_rows(["??", "?0"])
    assert decided(q, "gac") == ({(0, 0), (0, 1), (1, 0)}, set())


def test_one_two_one_needs_pairs():
    # a+b=1, a+b+c=2, b+c=1: no count alone decides anything, any two overlapping ones do
    p = Puzzle.from_rows(["???", "121", "..."])
    assert decided(p, "gac") == (set(), set())
    assert decided(p, "2rc") == ({(0, 1)}, {(0, 0), (0, 2)})


def test_triple_needed():
    # a+b+c=2, b+c+d+e=2, d+e=1: only the join of all three gives b+c=1, hence a=1
    p = Puzzle.from_rows(["?2", "??", "2?", "?1"])
    assert decided(p, "2rc") == (set(), set())
    assert decided(p, "3rc") == (set(), {(0, 0)})


def test_total_count_in_gac():
    p = Puzzle.from_rows(["??", "?."], mines=3)
    assert decided(p, "gac") == (set(), {(0, 0), (0, 1), (1, 0)})
    # the count takes one mine of three and the total says one, so (0, 2) and (1, 2) are safe; but that
    # needs the count and the total together, which the relational levels do not join
    r = Puzzle.from_rows(["1??", "???"]).replace(mines=1)
    for level in LEVELS:
        assert decided(r, level) == (set(), set())
    q = Puzzle.from_rows(["??", "??"], mines=0)
    assert decided(q, "gac") == ({(0, 0), (0, 1), (1, 0), (1, 1)}, set())


def test_contradictions_detected():
    assert not propagate(Puzzle.from_rows(["3?", ".?"]), "gac").consistent
    # the 0 clears (0, 1), then the 2 has one cell left
    assert not propagate(Puzzle.from_rows(["???", "2.0"]), "gac").consistent
    # each count alone is satisfiable, the pair is not: the same three cells must hold 2 and 1 mines
    p = Puzzle.from_rows(["?*", "32", "??"])
    assert propagate(p, "gac").consistent
    assert not propagate(p, "2rc").consistent and not propagate(p, "3rc").consistent


def test_unknown_level_rejected():
    with pytest.raises(ValueError):
        propagate(Puzzle.from_rows(["?"]), "4rc")


def test_sound_and_nested_on_random_boards():
    rng = np.random.default_rng(11)
    for _ in range(300):
        p = random_board(rng)
        sols = brute_force(p)
        prev = None
        for level in LEVELS:
            r = propagate(p, level)
            if sols.shape[0] == 0:
                continue
            assert r.consistent, (level, p)  # a level never refutes a puzzle that has a solution
            for i in np.flatnonzero(r.values == 0):
                assert not sols[:, i].any(), (level, p)
            for i in np.flatnonzero(r.values == 1):
                assert sols[:, i].all(), (level, p)
            cur = {(int(i), int(v)) for i, v in enumerate(r.values) if v != -1}
            if prev is not None:
                assert prev <= cur, (level, p)
            prev = cur


def test_fully_revealed_board_mostly_decided_quickly():
    grid = place_mines(40, 40, density=0.15, seed=1)
    p = full_reveal(grid, with_total=False)
    truth = grid[p.codes == -1]
    for level in LEVELS:
        r = propagate(p, level)
        assert r.consistent
        assert not (truth & (r.values == 0)).any() and not (~truth & (r.values == 1)).any()
