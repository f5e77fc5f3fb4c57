"""A position as the player sees it, counted: the unknown cells, the exact number of layouts that fit, and
per unknown cell how many of them put a mine there (analyze's exact count, not a second counter).

Cells are flat row-major indices; a flag ('*') is an unknown cell like any other (the player may be
wrong), and a known-safe '.' cell stays a cell to open that no layout mines.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import compress, repeat
from operator import eq, not_
from typing import List, NamedTuple, Optional, Tuple

import numpy as np

from ...core.errors import PuzzleError
from ...core.puzzle import Puzzle
from ..cellstate import SAFE
from ..report import analyze
from ..small.quick import QUICK_MAX_CELLS, quick_classes, quick_outcome

Neighbours = Tuple[Tuple[int, ...], ...]
# a small board's turn counted per class of cells straight from the quick count (False: through analyze's
# Analysis, for the tests that hold the two equal)
QUICK_COUNT = True


@lru_cache(maxsize=16)
def neighbour_table(rows: int, cols: int) -> Neighbours:
    """Per flat cell of a rows x cols board, its neighbours' flat indices, row-major."""
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(tuple(rr * cols + cc for rr in range(max(r - 1, 0), min(r + 2, rows))
                               for cc in range(max(c - 1, 0), min(c + 2, cols)) if (rr, cc) != (r, c)))
    return tuple(table)


class Counted(NamedTuple):
    """A position's exact count: `unknown` the flat '?' cells (row-major), `solutions` the layouts that fit,
    `mine_solutions[i]` those with a mine on unknown[i] (None: only `chances` were affordable), `chances`
    each unknown cell's mine probability, `given_safe` the flat '.' cells."""

    unknown: Tuple[int, ...]
    solutions: int
    mine_solutions: Optional[Tuple[int, ...]]
    chances: Tuple[float, ...]
    given_safe: Tuple[int, ...]


def player_cells(puzzle: Puzzle) -> str:
    """The cells string as the player's position: flags are unknown cells."""
    return puzzle.cells.replace("*", "?")


def count_cells(rows: int, cols: int, cells: str, total: Optional[int], puzzle: Optional[Puzzle] = None) -> Counted:
    """The exact count of the position `cells` (no '*') with `total` mines on the board (None: any); `puzzle`,
    when it is that very position, is counted as it is rather than checked again."""
    if puzzle is None or (puzzle.rows, puzzle.cols, puzzle.cells, puzzle.mines) != (rows, cols, cells, total):
        puzzle = Puzzle(rows, cols, cells, mines=total)
    given_safe = tuple(flat_cells(cells, ".")) if "." in cells else ()
    quick = quick_classes(puzzle) if QUICK_COUNT and rows * cols <= QUICK_MAX_CELLS else None
    classes = None if quick is None else quick[1]
    if quick is not None and classes is not None:
        # analyze's quick count, per class of cells: one division per class, one lookup per unknown cell
        whole = quick[0]
        per_cell = classes.codes.translate(None, b"\0")   # the unknown cells' classes, row-major
        shares = [x / whole for x in classes.mine_solutions]
        unknown = tuple(np.flatnonzero(np.frombuffer(classes.codes, dtype=np.uint8)).tolist())
        return Counted(unknown, whole, tuple(map(classes.mine_solutions.__getitem__, per_cell)),
                       tuple(map(shares.__getitem__, per_cell)), given_safe)
    a = analyze(puzzle)
    unknown = tuple(flat_cells(cells, "?"))
    n = a.solutions
    if not n:
        if n is None:
            raise PuzzleError(f"the position could not be counted: {a.count_error}")
        return Counted(unknown, 0, (0,) * len(unknown), (0.0,) * len(unknown), given_safe)
    if a.mine_solutions is not None:
        counts = a.mine_solutions
        # one division per distinct count (a position has a handful), not one per unknown cell
        share = {x: x / n for x in set(counts)}
        return Counted(unknown, n, tuple(counts), tuple(map(share.__getitem__, counts)), given_safe)
    return Counted(unknown, n, None, tuple(a.approx_probabilities or ()), given_safe)


def outcome(rows: int, cols: int, cells: str, total: Optional[int]) -> Tuple[int, int]:
    """The number of layouts that fit the position `cells`, and how many unknown cells are proven safe.

    `cells` is a checked position with unknown cells given counts of at most their neighbours (the guess
    weigher's imagined positions): it is made a Puzzle without Puzzle's checks, which cost a fifth of the
    count (a count more than the layouts allow is no layout, as analyze says of any board)."""
    made = object.__new__(Puzzle)
    made.__dict__.update(rows=rows, cols=cols, cells=cells, mines=total, name=None, notes=(), start=None, wires=())
    if rows * cols <= QUICK_MAX_CELLS:   # analyze's quick path, without the per-cell answer it would make
        counted = quick_outcome(made)
        if counted is not None:
            return counted
    a = analyze(made)
    if not a.solutions:
        return 0, 0
    return a.solutions, int((a.values == SAFE).sum())


def flat_cells(cells: str, symbol: str) -> List[int]:
    """The flat indices of the cells holding `symbol`, row-major."""
    return np.flatnonzero(np.frombuffer(cells.encode(), dtype=np.uint8) == ord(symbol)).tolist()


def count_puzzle(puzzle: Puzzle) -> Counted:
    """count_cells of the position the player sees in puzzle."""
    return count_cells(puzzle.rows, puzzle.cols, player_cells(puzzle), puzzle.mines)


def safe_and_mines(counted: Counted) -> Tuple[List[int], List[int]]:
    """The flat cells no layout mines (the given '.' ones too) and those every layout mines, row-major."""
    n = counted.solutions
    # the integers decide where they are known: a float of n - 1 over a huge n rounds to 1.0
    known = counted.mine_solutions if counted.mine_solutions is not None else counted.chances
    whole = n if counted.mine_solutions is not None else 1.0
    safe = list(compress(counted.unknown, map(not_, known)))
    mines = list(compress(counted.unknown, map(eq, known, repeat(whole)))) if n else []
    return sorted(safe + list(counted.given_safe)), mines
