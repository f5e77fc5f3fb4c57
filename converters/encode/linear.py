"""What the 0-1 linear writers (LP, MPS, OPB, SMT-LIB) share: the stated rows and their terms, in bulk."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from ..model.naming import TOTAL_CONSTRAINT, con_name, var_name
from ..model.puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ..model.system import LinearSystem, build_system
from ..bulk.items import Lines, Table, add_rc, render_tokens

# the one column a linear file declares when the puzzle has no unknown cell: glpsol needs a variable in
# the objective, and a count that cannot be met needs a variable to hang its '0 v = rhs' on; fixed to 0
PLACEHOLDER = "zero"
# the one row a linear file states when no count and no total need stating (glpsol needs a constraint)
EMPTY_ROW = "none"


@dataclass(frozen=True)
class Rows:
    """Stated constraints start..stop-1 of a LinearModel with their terms (flat, in row then slot order)."""

    con_r: np.ndarray     # (n,) row of each constraint's revealed cell
    con_c: np.ndarray
    lens: np.ndarray      # (n,) number of terms
    rhs: np.ndarray       # (n,)
    term_line: np.ndarray  # (t,) which constraint (0..n-1) each term belongs to
    term_slot: np.ndarray  # (t,) position of the term in its sum (0 = first)
    term_id: np.ndarray    # (t,) variable id
    term_r: np.ndarray     # (t,) row and column of the variable's cell
    term_c: np.ndarray

    @property
    def n(self) -> int:
        """Number of constraints."""
        return int(self.lens.shape[0])

    def assemble(self, head: np.ndarray, terms: np.ndarray, empty: np.ndarray, tail: np.ndarray) -> str:
        """Lines 'head term term ... tail', one per constraint ('empty' stands in for a sum with no term).

        head and tail are (n, w) byte matrices, terms (t, w), empty (1, w) or (n, w).
        """
        n = self.n
        items = np.maximum(self.lens.astype(np.int64), 1)
        per_line = items + 2
        starts = np.cumsum(per_line) - per_line
        blank = np.nonzero(self.lens == 0)[0]
        empty_rows = np.broadcast_to(empty, (n, empty.shape[1]))[blank] if blank.size else empty[:0]
        return render_tokens(int(per_line.sum()), [
            (starts, head),
            (starts[self.term_line] + 1 + self.term_slot, terms),
            (starts[blank] + 1, empty_rows),
            (starts + 1 + items, tail),
        ])


@dataclass(frozen=True)
class LinearModel:
    """The rows a linear file states, with their terms, in bulk."""

    system: LinearSystem
    rows: np.ndarray       # indices into the system's constraints that are written
    term_ptr: np.ndarray   # (n+1,) terms of stated constraint i are term_id[term_ptr[i]:term_ptr[i+1]]

    @property
    def term_id(self) -> np.ndarray:
        """(t,) variable ids of the terms, row-major by constraint then ascending (built on first use)."""
        cached = self.__dict__.get("_term_id")
        if cached is None:
            # rows not stated have no variable: the non-zero ids of all rows, in order, are the stated terms
            flat = self.system.con_vars.ravel()
            cached = flat[flat != 0]
            object.__setattr__(self, "_term_id", cached)
        return cached

    @property
    def k(self) -> int:
        """Number of cell variables."""
        return self.system.num_vars

    @property
    def n(self) -> int:
        """Number of stated constraints."""
        return int(self.rows.shape[0])

    @property
    def any_var(self) -> str:
        """A variable name to carry a constant row: the first cell variable, or the placeholder."""
        if self.k:
            r, c = self.system.var_rc[0].tolist()
            return var_name(r, c)
        return PLACEHOLDER

    def var_names(self) -> Table:
        """'x<row>_<col>' of every variable, row i = id i (row 0, for padding, is empty)."""
        cached = self.__dict__.get("_var_names")
        if cached is None:
            rc = np.vstack([np.zeros((1, 2), np.int32), self.system.var_rc])
            present = np.arange(rc.shape[0]) > 0
            cached = Table(add_rc(Lines(rc.shape[0]), "x", rc[:, 0], rc[:, 1], present).matrix())
            object.__setattr__(self, "_var_names", cached)
        return cached

    def chunk(self, start: int, stop: int) -> Rows:
        """Stated constraints start..stop-1 and their terms."""
        s = self.system
        idx = self.rows[start:stop]
        lens = s.con_len[idx].astype(np.int64)
        t0, t1 = int(self.term_ptr[start]), int(self.term_ptr[stop])
        ids = self.term_id[t0:t1]
        line = np.repeat(np.arange(stop - start), lens)
        slot = np.arange(t1 - t0) - np.repeat(self.term_ptr[start:stop] - t0, lens)
        rc = s.var_rc[ids - 1] if ids.size else np.zeros((0, 2), dtype=np.int32)
        return Rows(s.con_rc[idx, 0], s.con_rc[idx, 1], lens, s.con_rhs[idx], line, slot, ids,
                    rc[:, 0], rc[:, 1])

    def _padded_ids(self) -> Tuple[np.ndarray, np.ndarray]:
        """The variable ids on the grid with a border of zeros (flat), and the flat neighbour offsets."""
        cached = self.__dict__.get("_padded")
        if cached is None:
            R, C = self.system.puzzle.rows, self.system.puzzle.cols
            grid = np.zeros((R + 2, C + 2), dtype=np.int32)
            grid[1:-1, 1:-1] = self.system.var_grid
            offsets = np.array([dr * (C + 2) + dc for dr, dc in NEIGHBOUR_OFFSETS], dtype=np.int64)
            cached = (grid.ravel(), offsets)
            object.__setattr__(self, "_padded", cached)
        return cached

    def line_items(self, start: int, stop: int, table: np.ndarray, term_base: int, tail: np.ndarray,
                   empty: int, head: Optional[np.ndarray] = None) -> bytes:
        """Stated constraints start..stop-1 as lines '[head] term term ... tail', every piece an item of
        `table`: variable id i is item term_base + i, `tail` and `head` give each line's items, `empty`
        stands in for a sum with no term. One gather of whole items, then the NUL bytes are dropped."""
        n = stop - start
        if not n:
            return b""
        rows = self.rows[start:stop]
        lens = self.system.con_len[rows].astype(np.int64)
        per_line = np.maximum(lens, 1) + (1 if head is None else 2)
        ends = np.cumsum(per_line)
        begins = ends - per_line
        index = np.empty(int(ends[-1]), dtype=np.int64)
        # the terms, read off the padded grid of ids neighbour by neighbour, each scattered to its line's
        # next free slot: the offsets are row-major, so each line's ids come out ascending (a missing
        # neighbour writes there too, but the next term or the tail overwrites it)
        grid, offsets = self._padded_ids()
        rc = self.system.con_rc[rows]
        centre = (rc[:, 0].astype(np.int64) + 1) * (self.system.puzzle.cols + 2) + rc[:, 1] + 1
        slot = begins + (0 if head is None else 1)
        for offset in offsets.tolist():
            ids = grid.take(centre + offset)
            index[slot] = ids + term_base
            slot += ids != 0
        index[slot[lens == 0]] = empty  # a sum with no term: its only slot
        index[ends - 1] = tail
        if head is not None:
            index[begins] = head
        return table.take(index).tobytes().translate(None, b"\0")


def linear_model(puzzle: Puzzle, mines: Optional[int] = None) -> LinearModel:
    """The stated rows of the puzzle's linear system: every count except the met ones with no variable."""
    system = build_system(puzzle, mines)
    rows = constraint_rows(system)
    lens = system.con_len[rows].astype(np.int64)
    ptr = np.zeros(rows.shape[0] + 1, dtype=np.int64)
    np.cumsum(lens, out=ptr[1:])
    return LinearModel(system, rows, ptr)


def to_pulp(puzzle: Puzzle, mines: Optional[int] = None):
    """The puzzle as a pulp.LpProblem (binary x<row>_<col> per unknown cell, one equality per count)."""
    import pulp

    system = build_system(puzzle, mines)
    prob = pulp.LpProblem(puzzle.name.replace(" ", "_") if puzzle.name else "minesweeper", pulp.LpMinimize)
    add = getattr(prob, "add_variable", None)  # PuLP >= 3.3 deprecates building LpVariable directly
    make = add if add is not None else (lambda name, lo, up, cat: pulp.LpVariable(name, lo, up, cat))
    xs = [make(var_name(r, c), 0, 1, pulp.LpBinary) for r, c in system.var_rc.tolist()]
    prob.addVariables(xs)  # cells no count mentions are variables of the model all the same
    # explicit zero terms keep every variable in the objective, in id order, as the LP writer does
    prob += pulp.LpAffineExpression([(x, 0) for x in xs])
    for (r, c), n, row, rhs in zip(system.con_rc.tolist(), system.con_len.tolist(), system.con_vars.tolist(),
                                   system.con_rhs.tolist()):
        if n == 0 and rhs == 0:
            continue  # nothing around this count is unknown and it is met: no constraint to state
        prob += pulp.lpSum(xs[v - 1] for v in row[:n]) == rhs, con_name(r, c)
    if system.total is not None:
        prob += pulp.lpSum(xs) == system.total, TOTAL_CONSTRAINT
    return prob


def constraint_rows(system: LinearSystem) -> np.ndarray:
    """Indices of the constraints a linear file states: all but the met ones with no variable (0 = 0)."""
    return np.nonzero((system.con_len > 0) | (system.con_rhs != 0))[0]
