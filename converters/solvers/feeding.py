"""How the embedded solver's clauses reach pysat: in slices by length, the cells numbered free cells last.

pysat takes clauses as Python lists; a big board's come from numpy arrays a slice at a time (FEED_ROWS), so
that the clock is looked at between slices and no list of them all is ever made.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List, Optional

from ..core.lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np

    from ..encode.cnf import ClauseArrays
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

FEED_ROWS = 100_000          # clauses handed to pysat at a time between looks at the clock


def free_last(k: int, free: List[int]) -> Optional[List[int]]:
    """The solver's variable of each cell (index: the cell's id 1..k; 0 unused): the cells in a count clause
    first, in id order, then the free ones (next to no count, ascending ids); None when that is every cell's own id.

    A CDCL solver decides every variable it knows, and each backjump undoes the decisions made since, free cells'
    among them, to be made again: on a 500 x 500 game position (170,146 cells, 110,691 of them free) glucose made
    31.5 million decisions for 1,171 conflicts (3.6 s). Numbered after the others, the free cells are in no clause
    the solver has until a blocking clause or the total's clauses bring them in, so it decides none of them: 1.6
    million decisions (1.2 s). Worked example: five cells, 2 and 4 free: var = [0, 1, 4, 2, 5, 3] (cells 1, 3, 5
    are variables 1, 2, 3; cells 2 and 4 are 4 and 5).
    """
    m = k - len(free)
    if not free or free[0] == m + 1:   # none free, or the free cells are the last ids already
        return None
    var = [0] * (k + 1)
    for i, cell in enumerate(free, m + 1):
        var[cell] = i
    at = 1
    for cell in range(1, k + 1):
        if not var[cell]:
            var[cell] = at
            at += 1
    return var


def renamed(clauses: List[List[int]], var: Optional[List[int]]) -> List[List[int]]:
    """Clauses over cell ids as clauses over the solver's variables (free_last)."""
    if var is None:
        return clauses
    return [[var[lit] if lit > 0 else -var[-lit] for lit in clause] for clause in clauses]


def renamed_slices(arrays: ClauseArrays, var: Optional[List[int]]) -> Iterator[List[List[int]]]:
    """array_slices of the clause arrays over the solver's variables (free_last), renamed only when the first
    slice is asked for (the solver may never need them: EmbeddedSolver._fed). The padding zeros stay zeros:
    var[0] is 0."""
    if var is not None:
        from ..encode.cnf import ClauseArrays
        lits = arrays.lits
        ids = np.asarray(var, dtype=lits.dtype)[np.abs(lits)]
        np.negative(ids, out=ids, where=lits < 0)
        arrays = ClauseArrays(ids, arrays.lens)
    yield from array_slices(arrays)


def array_slices(arrays: ClauseArrays) -> Iterator[List[List[int]]]:
    """The clauses by length, ascending (in order within a length), FEED_ROWS at a time."""
    # the lengths present (np.unique would import numpy.ma, a tenth of a small solve)
    for n in np.flatnonzero(np.bincount(arrays.lens)).tolist():
        rows = arrays.lits[arrays.lens == n, :n]
        for at in range(0, rows.shape[0], FEED_ROWS):
            yield rows[at:at + FEED_ROWS].tolist()


def list_slices(clauses: List[List[int]]) -> Iterator[List[List[int]]]:
    """array_slices of clause lists: the same clauses in the same order."""
    ordered = sorted(clauses, key=len)   # stable: in order within a length
    for at in range(0, len(ordered), FEED_ROWS):
        yield ordered[at:at + FEED_ROWS]
