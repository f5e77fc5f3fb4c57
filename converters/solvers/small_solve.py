"""`mineconv solve` of a small board with the embedded solver, without numpy (issue 24, start-up).

Importing numpy is most of a small solve's start-up, and a board of a few hundred cells needs none of it:
`solve_small` takes the steps of `solve(puzzle, check_unique=True)` with the embedded solver (the same clauses
in the same order, so the same model; the same verification and uniqueness check) on plain lists, and gives
what the CLI prints of a Decoded. tests/solvers/test_quick_solve.py holds the two paths to the same output.
"""
from __future__ import annotations

from typing import List, Optional

from ..core.deprecated_calls import callable_list
from ..core.errors import InputError, VerificationError
from ..core.outcome import AnswerJson
from ..core.puzzle import UNKNOWN, Puzzle
from ..encode.plain import check_mines
from . import embedded
from .embedded import SMALL_SOLVE, EmbeddedSolver, card_too_slow
from .process import Deadline


class SmallDecoded(AnswerJson):
    """The part of a Decoded the CLI shows (status, why, unique, mines, the solved grid), built without numpy."""

    def __init__(self, puzzle: Puzzle, status: str, mine_cells: Optional[List[int]] = None, why: str = "",
                 unique: Optional[bool] = None) -> None:
        self.puzzle, self.status, self.why, self.unique = puzzle, status, why, unique
        self.mine_cells = mine_cells   # flat indices of every mine, known ones included, ascending; None unless solved
        self.grid = None               # Decoded's array, never built here (emit asks for it only on a wired board)

    @property
    def mines(self) -> List[List[int]]:
        """Every mine cell [row, col], 0-based, row-major (empty unless solved): Decoded.mines."""
        C = self.puzzle.cols
        return callable_list(([i // C, i % C] for i in self.mine_cells or ()), "Decoded.mines")

    def solved_puzzle(self) -> Puzzle:
        """The puzzle with its unknown cells filled in ('*' mine, '.' safe): Decoded.solved_puzzle()."""
        if self.mine_cells is None:
            raise InputError("no solution to show")
        cells, C = self.puzzle.cells, self.puzzle.cols
        return self.puzzle.with_mines_at(divmod(i, C) for i in self.mine_cells if cells[i] == UNKNOWN)


def solve_small(puzzle: Puzzle, deadline: Deadline) -> Optional[SmallDecoded]:
    """solve(puzzle, check_unique=True) with the embedded solver, for a board of at most SMALL_SOLVE cells (None
    for a bigger one, or a board `reduce` made, whose JSON needs the full Decoded)."""
    if puzzle.rows * puzzle.cols > SMALL_SOLVE or puzzle.wires:
        return None
    k = puzzle.unknown_count
    # while it guesses, the embedded solver asks the clock itself before it builds the total's clauses
    too_slow = None if embedded.GUIDE else \
        card_too_slow(k, None if puzzle.mines is None else puzzle.mines - puzzle.known_mine_count, deadline)
    if too_slow:
        return SmallDecoded(puzzle, "unknown", why=too_slow)
    emb = EmbeddedSolver(puzzle, deadline=deadline)
    try:
        if deadline.expired():
            return SmallDecoded(puzzle, "unknown", why=deadline.why("while the CNF model was built"))
        status, why = emb.run(deadline)
        if status != "solved":
            return SmallDecoded(puzzle, status, why=why, unique=False if status == "infeasible" else None)
        decoded = _verified(puzzle, emb.model(), k)
        if k == 0:
            decoded.unique = True   # nothing to choose: the one solution there is
            return decoded
        unknown = [i for i, ch in enumerate(puzzle.cells) if ch == UNKNOWN]
        mine_set = set(decoded.mine_cells or ())
        emb.block([i in mine_set for i in unknown])
        other, _ = emb.run(deadline)
        decoded.unique = None if other == "unknown" else other != "solved"
        return decoded
    finally:
        emb.close()


def _verified(puzzle: Puzzle, model: List[int], k: int) -> SmallDecoded:
    """The model's mines on the board (a cell the model leaves out is safe, as decode_answer reads it), checked
    against every count and the total like decode_answer."""
    unknown = [i for i, ch in enumerate(puzzle.cells) if ch == UNKNOWN]
    mines = {unknown[lit - 1] for lit in model if 0 < lit <= k}
    mines.update(i for i, ch in enumerate(puzzle.cells) if ch == "*")
    violation = check_mines(puzzle, mines)
    if violation is not None:
        cell, message = violation
        raise VerificationError(f"the answer violates the puzzle: {message}", source="<pysat>", cell=cell)
    return SmallDecoded(puzzle, "solved", sorted(mines))
