"""Test helpers: brute-force enumeration of small boards, and random small boards of every kind."""
from __future__ import annotations

import numpy as np

from mineconv import Puzzle, build_system
from mineconv.generate import mine_counts
from mineconv.model.puzzle import neighbour_limit


def brute_force(puzzle: Puzzle, mines=None):
    """All solutions as a (n, k) bool matrix, by enumerating every assignment of the unknown cells."""
    system = build_system(puzzle, mines)
    k = system.num_vars
    assert k <= 16
    codes = np.arange(2 ** k, dtype=np.int64)
    X = np.zeros((2 ** k, k + 1), dtype=np.int16)
    X[:, 1:] = (codes[:, None] >> np.arange(k)[None, :]) & 1
    ok = np.ones(2 ** k, dtype=bool)
    if system.num_constraints:
        sums = X[:, system.con_vars].sum(axis=2)  # padding reads column 0, always 0
        ok &= (sums == system.con_rhs[None, :]).all(axis=1)
    if system.total is not None:
        ok &= X[:, 1:].sum(axis=1) == system.total
    return X[ok, 1:].astype(bool)


def random_board(rng: np.random.Generator) -> Puzzle:
    """A small board mixing counts, unknowns, known mines and known safe cells; sometimes inconsistent."""
    while True:
        p = _random_board(rng)
        if p.unknown_count <= 14:
            return p


def _random_board(rng: np.random.Generator) -> Puzzle:
    R, C = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    mines = rng.random((R, C)) < rng.uniform(0.1, 0.5)
    counts = mine_counts(mines)
    cells = []
    for r in range(R):
        for c in range(C):
            u = rng.random()
            if mines[r, c]:
                cells.append("*" if u < 0.15 else "?")
            elif u < 0.45:
                cells.append("?")
            elif u < 0.5:
                cells.append(".")
            else:
                cells.append(str(counts[r, c]))
    if rng.random() < 0.15:  # a wrong count somewhere: often no solution at all
        i = int(rng.integers(R * C))
        limit = int(neighbour_limit(R, C).ravel()[i])
        if cells[i] in "012345678" and int(cells[i]) < limit:
            cells[i] = str(int(cells[i]) + 1)
    total = None
    u = rng.random()
    if u < 0.4:
        total = int(mines.sum())
    elif u < 0.55:
        total = int(rng.integers(0, R * C + 1))
    return Puzzle(R, C, "".join(cells), mines=total)
