"""What the 0-1 linear writers (LP, MPS, OPB, SMT-LIB) share: the stated rows and the names in bulk."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..encode import constraint_rows
from ..naming import var_name
from ..puzzle import Puzzle
from ..system import LinearSystem, build_system

# the one column a linear file declares when the puzzle has no unknown cell: glpsol needs a variable in
# the objective, and a count that cannot be met needs a variable to hang its '0 v = rhs' on; fixed to 0
PLACEHOLDER = "zero"
# the one row a linear file states when no count and no total need stating (glpsol needs a constraint)
EMPTY_ROW = "none"


@dataclass(frozen=True)
class LinearModel:
    """The rows a linear file states, with the (row, col) of every variable slot, in bulk."""

    system: LinearSystem
    rows: np.ndarray      # indices into the system's constraints that are written
    con_r: np.ndarray     # (n,) row of each stated constraint's revealed cell
    con_c: np.ndarray
    lens: np.ndarray      # (n,) number of variables
    rhs: np.ndarray       # (n,)
    ids: np.ndarray       # (n, 8) variable ids, 0-padded
    var_r: np.ndarray     # (n, 8) row of each slot's cell (garbage where padded)
    var_c: np.ndarray

    @property
    def k(self) -> int:
        """Number of cell variables."""
        return self.system.num_vars

    @property
    def any_var(self) -> str:
        """A variable name to carry a constant row: the first cell variable, or the placeholder."""
        if self.k:
            r, c = self.system.var_rc[0].tolist()
            return var_name(r, c)
        return PLACEHOLDER


def linear_model(puzzle: Puzzle, mines: Optional[int] = None) -> LinearModel:
    """The stated rows of the puzzle's linear system: every count except the met ones with no variable."""
    system = build_system(puzzle, mines)
    rows = constraint_rows(system)
    ids = system.con_vars[rows]
    rc = system.var_rc[np.maximum(ids, 1) - 1] if system.num_vars else np.zeros(ids.shape + (2,), np.int32)
    return LinearModel(system, rows, system.con_rc[rows, 0], system.con_rc[rows, 1], system.con_len[rows],
                       system.con_rhs[rows], ids, rc[..., 0], rc[..., 1])
