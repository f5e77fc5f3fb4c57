"""The puzzle as an OR-Tools CP-SAT model (the optional extra `cpsat`: pip install 'mineconv[cpsat]').

A Boolean variable `x<row>_<col>` per unknown cell, created in id order, so that model variable index i is
DIMACS id i + 1 and a CpSolverResponse's `solution` list reads as the cell variables in order; one linear
equality per stated count (encode.linear.constraint_rows), the total last when given.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ..core.errors import SolverError
from ..core.puzzle import Puzzle
from ..core.system import build_system
from .linear import constraint_rows

if TYPE_CHECKING:   # ortools is imported when a model is made, not with mineconv
    from ortools.sat.python.cp_model import CpModel

Cell = Tuple[int, int]


def to_cpsat(puzzle: Puzzle, mines: Optional[int] = None) -> "CpModel":
    """A cp_model.CpModel of the puzzle; `model.cells[i]` is the cell of variable index i, `model.cell_vars[cell]` its variable."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise SolverError("to_cpsat needs OR-Tools (pip install 'mineconv[cpsat]' or pip install ortools)") from None
    system = build_system(puzzle, mines)
    model = _puzzle_model_class()()
    model.name = puzzle.name or "minesweeper"
    cells: List[Cell] = [(int(r), int(c)) for r, c in system.var_rc.tolist()]
    xs = [model.new_bool_var(f"x{r}_{c}") for r, c in cells]
    lens = system.con_len.tolist()
    rhs = system.con_rhs.tolist()
    cons = system.con_vars
    for i in constraint_rows(system).tolist():
        ids = cons[i, :lens[i]].tolist()
        model.add(cp_model.LinearExpr.sum([xs[v - 1] for v in ids]) == rhs[i])
    if system.total is not None:
        model.add(cp_model.LinearExpr.sum(xs) == system.total)
    # the variable map travels with the model, as to_cnf's CNF knows its grid
    model.cells = cells
    model.cell_vars = dict(zip(cells, xs))
    return model


@lru_cache(maxsize=None)
def _puzzle_model_class() -> type:
    # built on first use: ortools is imported only by the code paths that need it
    from ortools.sat.python import cp_model

    class PuzzleCpModel(cp_model.CpModel):
        """A CpModel of a puzzle that knows its grid: `cells[i]` is the cell of variable index i,
        `cell_vars[cell]` its variable."""

        cells: List[Cell]
        cell_vars: Dict[Cell, Any]

    return PuzzleCpModel
