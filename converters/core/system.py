"""The constraint system of a puzzle, built once with numpy: what every encoder and checker shares."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Tuple

from .deprecated_calls import callable_array, callable_list
from .grid import centres, padded, scatter_neighbours
from .lazy import LazyModule
from .puzzle import CODE_MINE, CODE_UNKNOWN, Puzzle, neighbour_count
from .wording import plural

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")


@dataclass(frozen=True)
class LinearSystem:
    """For each revealed cell: sum of its unknown neighbours' variables == count - known-mine neighbours.

    Variables are the unknown cells, numbered 1..k in row-major order (the DIMACS numbering).
    Constraint i belongs to revealed cell con_rc[i] (row-major order); con_vars[i, :con_len[i]] are its
    variable ids, ascending; the rest of the row is 0. A constraint with rhs < 0 or rhs > con_len is
    unsatisfiable (the puzzle is infeasible).
    """

    puzzle: Puzzle
    var_grid: np.ndarray   # (rows, cols) int32: variable id of each unknown cell, 0 elsewhere
    var_rc: np.ndarray     # (k, 2) int32: (row, col) of variable id i + 1
    con_rc: np.ndarray     # (m, 2) int32: the revealed cell of each constraint
    con_len: np.ndarray    # (m,) int8: how many variables
    con_rhs: np.ndarray    # (m,) int16: count minus known-mine neighbours
    total: Optional[int]   # mines still to place among the unknowns (None without a total count)

    @property
    def con_vars(self) -> np.ndarray:
        """(m, 8) int32: each constraint's variable ids, ascending, padded with 0 (built on first use)."""
        cached = self.__dict__.get("_con_vars")
        if cached is None:
            cached = _constraint_vars(self.var_grid, self.con_rc)
            object.__setattr__(self, "_con_vars", cached)
        return cached

    @property
    def A(self) -> np.ndarray:
        """The constraint matrix, dense (num_constraints x num_vars, 0/1): A @ x == b for every solution x.

        Dense memory is rows x columns bytes; for a large board build scipy.sparse from con_vars instead.
        """
        k, m = self.num_vars, self.num_constraints
        a = np.zeros((m, k), dtype=np.int8)
        rows = np.repeat(np.arange(m), self.con_len.astype(np.int64))
        cols = self.con_vars[self.con_vars > 0] - 1
        a[rows, cols] = 1
        return a

    @property
    def b(self) -> np.ndarray:
        """The right-hand sides: each count minus its known-mine neighbours."""
        return self.con_rhs.astype(np.int64)

    @property
    def num_vars(self) -> int:
        """k, the number of variables (unknown cells)."""
        return int(self.var_rc.shape[0])

    @property
    def num_constraints(self) -> int:
        """m, the number of revealed cells."""
        return int(self.con_rc.shape[0])

    @property
    def impossible(self) -> np.ndarray:
        """Boolean mask of constraints no assignment can meet (rhs < 0 or rhs > number of variables)."""
        return callable_array((self.con_rhs < 0) | (self.con_rhs > self.con_len), "LinearSystem.impossible")

    @property
    def constrained_vars(self) -> np.ndarray:
        """Boolean mask (k,) of variables that occur in at least one count constraint."""
        seen = np.zeros(self.num_vars + 1, dtype=bool)
        seen[self.con_vars.ravel()] = True
        return callable_array(seen[1:], "LinearSystem.constrained_vars")

    @property
    def var_name_list(self) -> list:
        """The variable names (naming.var_name) in id order."""
        from .naming import var_name

        return callable_list((var_name(r, c) for r, c in self.var_rc.tolist()), "LinearSystem.var_name_list")


def build_system(puzzle: Puzzle, mines: Optional[int] = None) -> LinearSystem:
    """The linear system of a puzzle; `mines` overrides the puzzle's total mine count."""
    codes = puzzle.codes
    R, C = codes.shape
    unknown = codes == CODE_UNKNOWN
    var_flat = np.flatnonzero(unknown)
    var_grid = np.zeros((R, C), dtype=np.int32)
    var_grid.ravel()[var_flat] = np.arange(1, var_flat.shape[0] + 1, dtype=np.int32)
    revealed = (codes >= 0) & (codes <= 8)
    con_flat = np.flatnonzero(revealed)
    var_rc = _row_col(var_flat, C)
    con_rc = _row_col(con_flat, C)
    # neighbour counts on the whole grid (eight shifted slices), then read off once per constraint:
    # cheaper than gathering eight columns per constraint and summing them
    con_len = neighbour_count(unknown).ravel()[con_flat]
    con_rhs = codes.ravel()[con_flat].astype(np.int16)
    mine = codes == CODE_MINE
    if mine.any():
        con_rhs -= neighbour_count(mine).ravel()[con_flat]
    total_mines = puzzle.mines if mines is None else mines
    total = None if total_mines is None else int(total_mines) - puzzle.known_mine_count
    return LinearSystem(puzzle, var_grid, var_rc, con_rc, con_len, con_rhs, total)


SCATTER_STEP = 1 << 14   # constraints per step of _constraint_vars (16384 rows of 8 ids: 512 KB)


def _constraint_vars(var_grid: np.ndarray, con_rc: np.ndarray) -> np.ndarray:
    """(m, 8) int32: the variable ids around each constraint's cell, ascending, padded with 0."""
    grid, width = padded(var_grid, 0)
    m = con_rc.shape[0]
    # each row's non-zero ids packed to its front, ascending (the one neighbour scatter: no sort)
    con_vars = np.zeros((m, 8), dtype=np.int32)
    centre = centres(con_rc, width)
    # in steps whose rows stay in the CPU cache across the eight passes (one pass over all 800,000 rows of a
    # 1000 x 1000 board evicts them each time: ~60 ms, in steps ~33 ms)
    for a in range(0, m, SCATTER_STEP):
        b = min(m, a + SCATTER_STEP)
        scatter_neighbours(grid, width, centre[a:b], con_vars[a:b].ravel(), np.arange(0, 8 * (b - a), 8, dtype=np.int64))
    return con_vars


def unknown_flat(puzzle: Puzzle) -> np.ndarray:
    """The row-major flat indices of the unknown cells (variable i + 1 at entry i), from the cells string
    alone: neither the codes array nor the rest of the system is needed for them."""
    return np.flatnonzero(np.frombuffer(puzzle.cells.encode("ascii"), dtype=np.uint8) == ord("?"))


def unknown_rc(puzzle: Puzzle) -> np.ndarray:
    """build_system's var_rc alone: (k, 2) int32 (row, column) of the unknown cells, row-major."""
    return _row_col(unknown_flat(puzzle), puzzle.cols)


def _row_col(flat: np.ndarray, cols: int) -> np.ndarray:
    """(n, 2) int32 (row, column) of row-major flat cell indices (np.argwhere, several times faster)."""
    rc = np.empty((flat.shape[0], 2), dtype=np.int32)
    if cols:
        np.floor_divide(flat, cols, out=rc[:, 0], casting="unsafe")
        np.remainder(flat, cols, out=rc[:, 1], casting="unsafe")
    return rc


@dataclass(frozen=True)
class Violation:
    """The first thing a mine placement gets wrong: the cell it concerns (None for the shape or the total)."""

    cell: Optional[Tuple[int, int]]   # (row, col), 0-based
    message: str                      # a whole sentence, e.g. "cell (1, 1) shows 2 but the answer puts 1 mine around it"

    def __str__(self) -> str:
        return self.message


def check_assignment(puzzle: Puzzle, mine_grid: np.ndarray, mines: Optional[int] = None) -> Optional[Violation]:
    """None when the mine placement (bool array over the grid) meets every count, else the first Violation.

    Known mines must be mines, revealed and known-safe cells must not be; the violation names the first
    violated cell (row-major) and its count.
    """
    codes = puzzle.codes
    R, C = codes.shape
    mine_grid = np.asarray(mine_grid, dtype=bool)
    if mine_grid.shape != (R, C):
        return Violation(None, f"the answer has shape {mine_grid.shape}, the puzzle is {R} x {C}")
    bad = (codes == CODE_MINE) & ~mine_grid
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        return Violation((r, c), f"cell ({r}, {c}) is a known mine but the answer leaves it empty")
    bad = (codes >= 0) & (codes != CODE_MINE) & mine_grid
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        return Violation((r, c), f"cell ({r}, {c}) is {puzzle[r, c]!r} (not an unknown cell) but the answer "
                                 "puts a mine there")
    around = neighbour_count(mine_grid)
    revealed = (codes >= 0) & (codes <= 8)
    wrong = revealed & (around != codes)
    if wrong.any():
        r, c = (int(v) for v in np.argwhere(wrong)[0])
        n = int(around[r, c])
        return Violation((r, c), f"cell ({r}, {c}) shows {codes[r, c]} but the answer puts {n} "
                                 f"mine{'' if n == 1 else 's'} around it")
    total = puzzle.mines if mines is None else mines
    if total is not None and int(mine_grid.sum()) != total:
        return Violation(None, f"the board must hold {plural(total, 'mine')} in all, the answer places "
                               f"{int(mine_grid.sum())}")
    return None

