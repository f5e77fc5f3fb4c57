"""The 0-1 linear formulation that LP, MPS, OPB and SMT-LIB share: which rows are stated, their terms in
bulk, the placeholder column and the empty row that keep a file valid, and the prose the headers print.

The writers in formats/models/ know only their file syntax; what a row says and when it is written is
decided here (and in encode/cnf.py for CNF).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, List, Optional

from ..core.errors import FormatError, SolverError, VerificationError
from ..core.grid import centres, padded, scatter_neighbours
from ..core.lazy import LazyModule
from ..core.naming import CON_FORM, TOTAL_CONSTRAINT, con_name, parse_var_name, var_name
from ..core.puzzle import Puzzle
from ..core.system import LinearSystem, build_system, check_assignment
from .bulk_text import Section

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

if TYPE_CHECKING:   # pulp is imported when a model is made, not with mineconv
    from pulp import LpProblem

# the one column a linear file declares when the puzzle has no unknown cell: glpsol needs a variable in
# the objective, and a count that cannot be met needs a variable to hang its '0 v = rhs' on; fixed to 0
PLACEHOLDER = "zero"
# the one row a linear file states when no count and no total need stating (glpsol needs a constraint)
EMPTY_ROW = "none"

STATED = "per revealed cell with an unknown neighbour (or whose count cannot be met)"
ROW_SUM = "the sum of its unknown neighbours = its count minus its known-mine neighbours"
PLACEHOLDER_NOTE = f"no unknown cell: the column {PLACEHOLDER}, fixed at 0, only keeps the file valid"
EMPTY_ROW_NOTE = f"no count to state: the row {EMPTY_ROW} (0 = 0) only keeps the file valid"


def rows_prose(row: str, named: bool) -> str:
    """The header's sentence on the stated rows: 'one <row> per revealed cell ...: the sum ...'."""
    order = f"named {CON_FORM}" if named else "in row-major order"
    return f"one {row} {STATED}, {order}: {ROW_SUM}"


@dataclass(frozen=True)
class LinearModel:
    """The rows a linear file states, with their terms, in bulk."""

    system: LinearSystem
    rows: np.ndarray       # indices into the system's constraints that are written

    @property
    def k(self) -> int:
        """Number of cell variables."""
        return self.system.num_vars

    @property
    def n(self) -> int:
        """Number of stated constraints."""
        return int(self.rows.shape[0])

    def of(self, values: np.ndarray) -> np.ndarray:
        """The stated rows' entries of a per-constraint array (the array itself, unchanged and not copied, when
        every constraint is stated, as on a full reveal: no gather of 800,000 rows)."""
        # take(axis=0), not values[rows]: on the (n, 2) cell array numpy's fancy index is ~10x slower
        return values if self.n == self.system.num_constraints else values.take(self.rows, axis=0)

    @property
    def total(self) -> Optional[int]:
        """Mines left to place among the unknown cells (None without a total)."""
        return self.system.total

    @property
    def needs_empty_row(self) -> bool:
        """No count and no total to state: the file states EMPTY_ROW (0 = 0) instead."""
        return not self.n and self.system.total is None

    @property
    def any_var(self) -> str:
        """A variable name to carry a constant row: the first cell variable, or the placeholder."""
        if self.k:
            r, c = self.system.var_rc[0].tolist()
            return var_name(r, c)
        return PLACEHOLDER

    def notes(self, lead: str, total_row: str, *, left: bool = True, placeholder: bool = False,
              empty_row: bool = False) -> List[str]:
        """The header lines on this model: lead, the total's row, and why a placeholder or empty row is there."""
        lines = [lead]
        if self.system.total is not None:
            lines.append(f"{total_row}: the {self.k} cell variables sum to {self.system.total}"
                         + (" (mines left to place)" if left else ""))
        if placeholder and not self.k:
            lines.append(PLACEHOLDER_NOTE)
        if empty_row and self.needs_empty_row:
            lines.append(EMPTY_ROW_NOTE)
        return lines

    def line_items(self, start: int, stop: int, table: np.ndarray, terms: Section, tail: np.ndarray,
                   empty: int, head: Optional[np.ndarray] = None, first: Optional[Section] = None) -> bytes:
        """Stated constraints start..stop-1 as lines '[head] term term ... tail', every piece an item of
        `table`: variable id i is item terms.at(i - 1) (first.at(i - 1) when it opens the sum and `first` is
        given), `tail` and `head` give each line's items, `empty` stands in for a sum with no term. One
        gather of whole items, then the NUL bytes are dropped."""
        n = stop - start
        if not n:
            return b""
        rows: Any = slice(start, stop) if self.n == self.system.num_constraints else self.rows[start:stop]
        lens = self.system.con_len[rows].astype(np.int64)
        h = 0 if head is None else 1
        per_line = np.maximum(lens, 1) + 1 + h
        ends = np.cumsum(per_line)
        begins = ends - per_line
        index = np.empty(int(ends[-1]), dtype=np.int64)
        grid, width = self._padded_ids()
        con_rc = self.system.con_rc
        centre = centres(con_rc[rows] if isinstance(rows, slice) else con_rc.take(rows, axis=0), width)
        scatter_neighbours(grid, width, centre, index, begins + h, offset=terms.at(-1))
        index[begins[lens == 0] + h] = empty  # a sum with no term: its only slot
        if first is not None:
            index[begins[lens > 0] + h] += first.base - terms.base
        index[ends - 1] = tail
        if head is not None:
            index[begins] = head
        return table.take(index).tobytes().translate(None, b"\0")

    def _padded_ids(self):
        """The variable ids on the grid with a border of zeros (flat), and its row width."""
        cached = self.__dict__.get("_padded")
        if cached is None:
            cached = padded(self.system.var_grid, 0)
            object.__setattr__(self, "_padded", cached)
        return cached


def linear_model(puzzle: Puzzle, mines: Optional[int] = None, system: Optional[LinearSystem] = None
                 ) -> LinearModel:
    """The stated rows of the puzzle's linear system (`system`: build_system(puzzle, mines), when built)."""
    if system is None:
        system = build_system(puzzle, mines)
    return LinearModel(system, constraint_rows(system))


def to_pulp(puzzle: Puzzle, mines: Optional[int] = None) -> "LpProblem":
    """The puzzle as a pulp.LpProblem (binary x<row>_<col> per unknown cell, one equality per count)."""
    import pulp

    system = build_system(puzzle, mines)
    prob = pulp.LpProblem(puzzle.name.replace(" ", "_") if puzzle.name else "minesweeper", pulp.LpMinimize)
    add = getattr(prob, "add_variable", None)  # PuLP >= 3.3 deprecates building LpVariable directly
    make = add if add is not None else (lambda name, lo, up, cat: pulp.LpVariable(name, lo, up, cat))
    xs = [make(var_name(r, c), 0, 1, pulp.LpBinary) for r, c in system.var_rc.tolist()]
    # explicit zero terms keep every variable in the objective, in id order, as the LP writer does, so
    # cells no count mentions are variables of the model all the same (prob.addVariables, which did that
    # too, is deprecated from PuLP 3.3)
    prob += pulp.LpAffineExpression([(x, 0) for x in xs])
    for (r, c), n, row, rhs in zip(system.con_rc.tolist(), system.con_len.tolist(), system.con_vars.tolist(),
                                   system.con_rhs.tolist()):
        if n == 0 and rhs == 0:
            continue  # nothing around this count is unknown and it is met: no constraint to state
        prob += pulp.lpSum(xs[v - 1] for v in row[:n]) == rhs, con_name(r, c)
    if system.total is not None:
        prob += pulp.lpSum(xs) == system.total, TOTAL_CONSTRAINT
    prob.mineconv_puzzle, prob.mineconv_mines = puzzle, mines  # for pulp_solution
    return prob


def pulp_solution(prob: "LpProblem", puzzle: Optional[Puzzle] = None, tolerance: float = 1e-5) -> Puzzle:
    """The solved grid of a to_pulp model after prob.solve(): checked against every count.

    Raises SolverError when PuLP found no solution (status not Optimal) or a value is unset, and
    VerificationError (naming the cell) when the values are not 0/1 within `tolerance` or break a count.
    """
    import pulp

    total = getattr(prob, "mineconv_mines", None) if puzzle is None else None
    puzzle = puzzle if puzzle is not None else getattr(prob, "mineconv_puzzle", None)
    if puzzle is None:
        raise FormatError("this model was not made by mineconv.to_pulp: pass the puzzle")
    status = pulp.LpStatus.get(prob.status, str(prob.status))
    if status != "Optimal":
        raise SolverError(f"PuLP reports {status!r}: no solution to decode")
    mines = []
    for var in prob.variables():
        rc = parse_var_name(var.name)
        if rc is None:
            continue  # a variable the user added to the model
        value = var.varValue
        if value is None:
            raise SolverError(f"PuLP left {var.name} without a value")
        if abs(value - round(value)) > tolerance or round(value) not in (0, 1):
            raise VerificationError(f"{var.name} = {value:g} is not 0 or 1", cell=rc)
        if round(value) == 1:
            mines.append(rc)
    solved = puzzle.with_mines_at(mines)
    grid = np.array([[ch == "*" for ch in row] for row in solved.grid_lines], dtype=bool)
    bad = check_assignment(puzzle, grid, total)
    if bad is not None:
        raise VerificationError(bad.message, cell=bad.cell)
    return solved


def constraint_rows(system: LinearSystem) -> np.ndarray:
    """Indices of the constraints a linear file states: all but the met ones with no variable (0 = 0)."""
    return np.nonzero((system.con_len > 0) | (system.con_rhs != 0))[0]
