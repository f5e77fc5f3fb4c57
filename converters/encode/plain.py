"""A small board's constraint system, CNF clauses and check in plain Python: what a small solve needs without
numpy (issue 24, start-up: importing numpy was a third of `mineconv solve` on a 3x3 board).

Each is the twin of a numpy function and gives what it gives: small_system of core.system.build_system,
small_cnf of encode.cnf.encode_cnf (the same clauses in the same order), check_mines of
core.system.check_assignment. tests/solvers/test_quick_solve.py holds them to each other.
"""
from __future__ import annotations

from itertools import combinations
from typing import Dict, List, Optional, Set, Tuple

from ..core.puzzle import MINE, UNKNOWN, Puzzle
from ..core.wording import plural
from .cardinality import check_card_encoding, check_card_work, exactly


class SmallSystem:
    """build_system's numbering and constraints as plain lists, for a small board (no numpy: issue 24).

    var_cells[i] is the (row, col) of variable i + 1; constraints[j] is (its variable ids ascending, count
    minus known-mine neighbours) of the j-th revealed cell, row-major: con_vars and con_rhs of the LinearSystem.
    """

    def __init__(self, var_cells: List[Tuple[int, int]], constraints: List[Tuple[List[int], int]],
                 total: Optional[int]) -> None:
        # a plain class: a dataclass costs its creation at import, on the path this class is here for
        self.var_cells, self.constraints, self.total = var_cells, constraints, total

    @property
    def num_vars(self) -> int:
        """k, the number of variables (unknown cells)."""
        return len(self.var_cells)


def small_system(puzzle: Puzzle, mines: Optional[int] = None) -> SmallSystem:
    """build_system in plain Python: the same variables, constraints and total, as lists."""
    cells, C = puzzle.cells, puzzle.cols
    ids: Dict[int, int] = {}
    for i, ch in enumerate(cells):
        if ch == UNKNOWN:
            ids[i] = len(ids) + 1
    constraints = []
    for i, ch in enumerate(cells):
        if ch.isdigit():
            around = [rr * C + cc for rr, cc in puzzle.neighbours(*divmod(i, C))]   # row-major: ids ascending
            constraints.append(([ids[j] for j in around if j in ids],
                                int(ch) - sum(1 for j in around if cells[j] == MINE)))
    total_mines = puzzle.mines if mines is None else mines
    total = None if total_mines is None else int(total_mines) - puzzle.known_mine_count
    return SmallSystem([divmod(i, C) for i in ids], constraints, total)


def small_cnf(puzzle: Puzzle, mines: Optional[int] = None, card_encoding: Optional[str] = None
              ) -> Tuple[SmallSystem, List[List[int]], List[List[int]], int]:
    """encode_cnf in plain Python for a small board: (system, count clauses, total-count clauses, highest variable).

    The clauses are encode_cnf's, in its order (cells.as_lists() and card.as_lists()); no numpy is imported.
    """
    name = check_card_encoding(card_encoding)
    system, cells = small_counts(puzzle, mines)
    card, nv = small_card(system, name)
    return system, cells, card, nv


def small_counts(puzzle: Puzzle, mines: Optional[int] = None) -> Tuple[SmallSystem, List[List[int]]]:
    """small_cnf's system and count clauses, without the total's clauses (built by small_card when needed)."""
    system = small_system(puzzle, mines)
    cells: List[List[int]] = []
    for ids, c in system.constraints:
        d = len(ids)
        if c < 0 or c > d:
            cells.append([])   # no assignment meets this count
            continue
        cells.extend([-v for v in subset] for subset in combinations(ids, c + 1))
        cells.extend(list(subset) for subset in combinations(ids, d - c + 1))
    return system, cells


def small_card(system: SmallSystem, card_encoding: Optional[str] = None) -> Tuple[List[List[int]], int]:
    """small_cnf's total-count clauses and highest variable (none and k without a total)."""
    name = check_card_encoding(card_encoding)
    k, t = system.num_vars, system.total
    if t is None:
        return [], k
    check_card_work(k, t)
    return exactly(range(1, k + 1), t, top=k, encoding=name)


def check_mines(puzzle: Puzzle, mine_cells: Set[int], mines: Optional[int] = None
                ) -> Optional[Tuple[Optional[Tuple[int, int]], str]]:
    """core.system.check_assignment for a small board, given the flat indices of every mine (known ones included)
    on unknown or known-mine cells: None, or the first violation's (cell, message) (a count, or the total)."""
    cells, C = puzzle.cells, puzzle.cols
    for i, ch in enumerate(cells):
        if ch.isdigit():
            r, c = divmod(i, C)
            n = sum(1 for rr, cc in puzzle.neighbours(r, c) if rr * C + cc in mine_cells)
            if n != int(ch):
                return ((r, c), f"cell ({r}, {c}) shows {ch} but the answer puts {n} "
                                         f"mine{'' if n == 1 else 's'} around it")
    total = puzzle.mines if mines is None else mines
    if total is not None and len(mine_cells) != total:
        return (None, f"the board must hold {plural(total, 'mine')} in all, the answer places "
                               f"{len(mine_cells)}")
    return None
