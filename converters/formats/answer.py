"""A solver's answer in one model, and mapping it back onto the puzzle (then verifying every count).

Answer readers (converters/formats/answers/) turn a solver's output into an `Answer`: a status and the
values the solver printed, keyed the way that solver keys them:

- "id": DIMACS variable ids (SAT and PB solvers); ids 1..k are the unknown cells in row-major order,
  ids above k are auxiliary variables of the total-count encoding;
- "name": variable names (LP/MPS/SMT solvers): `x{r}_{c}` (naming.var_name, 0-based) for an unknown
  cell, or `x[i,j]` (1-based, MathProg) for any cell;
- "index": raw 1-based column numbers (glpsol --write): ids 1..k, or every cell row-major when the
  solver reports rows*cols columns (a MathProg model declares a variable per cell).

`decode_answer` maps the values onto the grid through the linear system, enforces the strictness rules
(unknown keys, missing constrained variables, non-binary values are errors), then checks every count.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple, Union

from ..core.deprecated_calls import callable_list
from ..core.display import svg_picture
from ..core.errors import InputError, SolutionSyntaxError, VerificationError
from ..core.fileio import line_of
from ..core.lazy import LazyModule
from ..core.naming import VAR_FORM, VAR_RE, var_name
from ..core.outcome import AnswerJson
from ..core.puzzle import CODE_MINE, Puzzle
from ..core.system import LinearSystem, build_system, check_assignment
from ..core.wording import plural
from ..encode.linear import PLACEHOLDER as LINEAR_PLACEHOLDER

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

STATUSES = ("solved", "infeasible", "unknown")
KEYINGS = ("id", "name", "index")

# MIP solvers print 0.9999999 or 1e-10 for binaries; CPLEX's default integrality tolerance is 1e-5
INTEGRALITY_TOLERANCE = 1e-5

# columns that are not cells: PuLP's zero-objective placeholder, and the one column the linear writers
# declare (fixed at 0) when a puzzle has no unknown cell
IGNORED_NAMES = frozenset({"__dummy", LINEAR_PLACEHOLDER})

_MATHPROG_VAR = re.compile(r"x\[(\d+),(\d+)\]\Z")

# a column of an answer: a list, or the numpy array a bulk reader builds
Column = Union[Sequence[Any], "np.ndarray"]


@dataclass
class Answer:
    """What a solver answered: a status and the values it printed, keyed by id, name or column index."""

    status: str                          # "solved" | "infeasible" | "unknown"
    keying: str = "id"                   # "id" | "name" | "index"
    keys: Column = ()                    # int ids / column indices, or str names
    values: Column = ()                  # the value of each key (0/1 for SAT; floats for MIP solvers)
    lines: Optional[Column] = None       # 1-based line of each key in the file, for messages
    why: str = ""                        # what the solver said when not solved (timeout, limit, ...)
    sparse: bool = False                 # absent keys mean 0 (SCIP, HiGHS sparse style)
    columns: Optional[int] = None        # "index": how many columns the solver reported
    format: str = ""                     # the reader's format name
    source: str = "<string>"
    text: Optional[str] = field(default=None, repr=False)  # the file, to quote the offending line
    solutions: int = 1                   # how many models the output held (picosat --all); the first is kept

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise InputError(f"status must be one of {STATUSES}, not {self.status!r}")
        if self.keying not in KEYINGS:
            raise InputError(f"keying must be one of {KEYINGS}, not {self.keying!r}")

    def error(self, message: str, index: Optional[int] = None) -> SolutionSyntaxError:
        """A SolutionSyntaxError about entry `index` of this answer (its file line when known)."""
        line = None
        if index is not None and self.lines is not None and index < len(self.lines):
            line = int(self.lines[index]) or None   # 0: no line known (in-process solvers)
        text = line_of(self.text, line) if (line and self.text is not None) else None
        return SolutionSyntaxError(message, source=self.source, line=line, line_text=text)


@dataclass(frozen=True)
class Decoded(AnswerJson):
    """An answer mapped onto the grid and verified: the status and, when solved, where the mines are."""

    puzzle: Puzzle
    status: str
    grid: Optional[np.ndarray] = None  # (rows, cols) bool, every mine incl. known ones; None unless solved
    why: str = ""
    unique: Optional[bool] = None      # solve(check_unique=True): no other solution; None when not checked

    @property
    def mines(self) -> List[List[int]]:
        """Every mine cell [row, col], 0-based, row-major (empty unless solved)."""
        return callable_list(np.argwhere(self.grid).tolist() if self.grid is not None else (), "Decoded.mines")

    def solved_puzzle(self) -> Puzzle:
        """The puzzle with its unknown cells filled in ('*' mine, '.' safe)."""
        if self.grid is None:
            raise InputError("no solution to show")
        return self.puzzle.with_mines_at(map(tuple, np.argwhere(self.grid & (self.puzzle.codes != CODE_MINE))))

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter shows a solved answer as the solved board's picture (nothing when unsolved)."""
        if self.status != "solved":
            return None
        return svg_picture(self.solved_puzzle())


def round_binary(values: np.ndarray, answer: Answer,
                 tolerance: float = INTEGRALITY_TOLERANCE) -> np.ndarray:
    """Round 0/1 values within the tolerance; a value farther from both is an error naming its line."""
    vals = np.asarray(values, dtype=np.float64)
    ones = np.abs(vals - 1.0) <= tolerance
    zeros = np.abs(vals) <= tolerance
    bad = ~(ones | zeros)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise answer.error(f"{_key_text(answer, i)} has the value {vals[i]!r}, not 0 or 1 "
                           f"(within {tolerance:g})", i)
    return ones


def _key_text(answer: Answer, i: int) -> str:
    key = answer.keys[i]
    if answer.keying == "name":
        return f"variable {key}"
    return f"{'column' if answer.keying == 'index' else 'variable'} {int(key)}"


def _names_to_targets(answer: Answer, system: LinearSystem) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Map names to (variable ids for x{r}_{c} names, all-cell flat indices for x[i,j] names) + entry masks."""
    puzzle = system.puzzle
    R, C = puzzle.rows, puzzle.cols
    n = len(answer.keys)
    ids = np.zeros(n, dtype=np.int64)
    flat = np.full(n, -1, dtype=np.int64)
    keep = np.ones(n, dtype=bool)
    for i, name in enumerate(answer.keys):
        m = VAR_RE.match(name)
        if m:
            r, c = int(m.group(1)), int(m.group(2))
            if r < R and c < C and system.var_grid[r, c]:
                ids[i] = system.var_grid[r, c]
                continue
            where = f"cell ({r}, {c}) is not an unknown cell of this puzzle" if r < R and c < C \
                else f"cell ({r}, {c}) is outside the {R} x {C} puzzle"
            raise answer.error(f"variable {name} is not in the model: {where} (an answer for another puzzle?)", i)
        m = _MATHPROG_VAR.match(name)
        if m:
            r, c = int(m.group(1)) - 1, int(m.group(2)) - 1
            if 0 <= r < R and 0 <= c < C:
                flat[i] = r * C + c
                continue
            raise answer.error(f"variable {name} is outside the {R} x {C} puzzle (an answer for another "
                               "puzzle?)", i)
        if name in IGNORED_NAMES:
            keep[i] = False
            continue
        raise answer.error(f"variable {name!r} is not in the model", i)
    return ids, flat, keep


def _check_duplicates(answer: Answer, keys: np.ndarray, values: np.ndarray, what: str) -> None:
    """Two entries for one variable must agree (z3 prints both a model and get-value)."""
    if keys.size < 2:
        return
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    same = np.flatnonzero(k[1:] == k[:-1])
    if same.size:
        clash = same[values[order][same + 1] != values[order][same]]
        if clash.size:
            i = int(order[clash[0] + 1])
            raise answer.error(f"{what} {_key_text(answer, i)} is given two different values", i)


def _map_ids(answer: Answer, system: LinearSystem, values: np.ndarray, cell_value: np.ndarray,
             given: np.ndarray, model_vars: Optional[int]) -> None:
    """Put the values of an id-keyed answer (DIMACS literals) on their variables; ids past the cells are the
    encoding's auxiliary variables, checked against the model's declared count."""
    k = system.num_vars
    ids = np.asarray(answer.keys, dtype=np.int64)
    bad = ids < 1
    limit = model_vars if model_vars is not None else (None if system.total is not None else k)
    if limit is not None:
        bad |= ids > limit
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        span = f"1..{limit}" if limit is not None else "1 and above"
        hint = "an answer for another puzzle?"
        if system.total is None and model_vars is None and ids[i] > k:
            # auxiliary variables come from a total-count encoding the given puzzle does not state
            hint += " If the model counted the total mines, give --mines or decode against the model file"
        raise answer.error(f"variable {int(ids[i])} is not in the model (variables are {span}; {hint})", i)
    _check_duplicates(answer, ids, values, "the literal of")
    cells = ids <= k
    cell_value[ids[cells]] = values[cells]
    given[ids[cells]] = True


def _map_columns(answer: Answer, system: LinearSystem, values: np.ndarray, cell_value: np.ndarray,
                 given: np.ndarray, shape: Tuple[int, int]) -> Optional[np.ndarray]:
    """Put the values of a column-indexed answer on their variables, or return the whole grid (flat) when the
    columns are the board's cells."""
    R, C = shape
    k = system.num_vars
    cols = np.asarray(answer.keys, dtype=np.int64)
    ncols = answer.columns if answer.columns is not None else (int(cols.max()) if cols.size else 0)
    if ncols == R * C and ncols != k:
        target = "cells"
    elif ncols == k:
        target = "ids"
    elif k == 0 and ncols == 1:
        target = "none"   # the placeholder column of a puzzle without unknown cells
    else:
        raise answer.error(f"the solver reports {plural(ncols, 'column')} but this puzzle has "
                           f"{plural(k, 'unknown cell')} "
                           f"({plural(R * C, 'cell')} in all): an answer for another puzzle?")
    bad = (cols < 1) | (cols > ncols)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise answer.error(f"column {int(cols[i])} is not in the model (columns are 1..{ncols})", i)
    _check_duplicates(answer, cols, values, "the value of")
    if target == "ids":
        cell_value[cols] = values
        given[cols] = True
    if target != "cells":
        return None
    full_grid = np.zeros(R * C, dtype=bool)
    seen = np.zeros(R * C, dtype=bool)
    full_grid[cols - 1] = values
    seen[cols - 1] = True
    if not answer.sparse and not seen.all():
        missing = int(np.flatnonzero(~seen)[0])
        raise answer.error(f"the answer leaves out column {missing + 1} (cell {divmod(missing, C)})")
    return full_grid


def _map_names(answer: Answer, system: LinearSystem, values: np.ndarray, cell_value: np.ndarray,
               given: np.ndarray, shape: Tuple[int, int]) -> Optional[np.ndarray]:
    """Put the values of a name-keyed answer on their variables (x<r>_<c>), or return the whole grid (flat)
    when it names cells as x[i,j] (MathProg)."""
    R, C = shape
    ids, flat, keep = _names_to_targets(answer, system)
    by_id = keep & (ids > 0)
    by_cell = keep & (flat >= 0)
    if by_id.any() and by_cell.any():
        i = int(np.flatnonzero(by_cell)[0])
        raise answer.error(f"the answer mixes {VAR_FORM} and x[i,j] names", i)
    _check_duplicates(answer, np.where(by_id, ids, -1 - flat), values, "the value of")
    cell_value[ids[by_id]] = values[by_id]
    given[ids[by_id]] = True
    if not by_cell.any():
        return None
    full_grid = np.zeros(R * C, dtype=bool)
    full_grid[flat[by_cell]] = values[by_cell]
    seen = np.zeros(R * C, dtype=bool)
    seen[flat[by_cell]] = True
    if not answer.sparse and not seen.all():
        missing = int(np.flatnonzero(~seen)[0])
        r, c = divmod(missing, C)
        raise answer.error(f"the answer leaves out x[{r + 1},{c + 1}] (cell ({r}, {c}))")
    return full_grid


def decode_answer(puzzle: Puzzle, answer: Answer, *, mines: Optional[int] = None,
                  model_vars: Optional[int] = None, system: Optional[LinearSystem] = None) -> Decoded:
    """Map an answer onto the puzzle and verify it.

    `mines` overrides the puzzle's total; `model_vars` is the number of variables the model declared
    (a DIMACS header's nvars), so that ids beyond the cells can be checked against it. Raises
    SolutionSyntaxError (exit 2) for answers that do not fit the model and VerificationError (exit 3)
    when the mapped assignment violates a count.
    """
    if answer.status != "solved":
        return Decoded(puzzle, answer.status, None, answer.why)
    system = system if system is not None else build_system(puzzle, mines)
    k = system.num_vars
    shape = (puzzle.rows, puzzle.cols)
    values = round_binary(np.asarray(answer.values, dtype=np.float64), answer)
    cell_value = np.zeros(k + 1, dtype=bool)   # by variable id; index 0 unused
    given = np.zeros(k + 1, dtype=bool)
    full_grid: Optional[np.ndarray] = None     # set when the answer keys every cell (MathProg)
    if answer.keying == "id":
        _map_ids(answer, system, values, cell_value, given, model_vars)
    elif answer.keying == "index":
        full_grid = _map_columns(answer, system, values, cell_value, given, shape)
    else:
        full_grid = _map_names(answer, system, values, cell_value, given, shape)

    if full_grid is not None:
        grid = full_grid.reshape(shape)
    else:
        if not answer.sparse:
            _check_missing(answer, system, given)
        grid = puzzle.codes == CODE_MINE
        if k:
            grid = grid.copy()
            grid[system.var_rc[:, 0], system.var_rc[:, 1]] = cell_value[1:]
    violation = check_assignment(puzzle, grid, mines)
    if violation is not None:
        raise VerificationError(f"the answer violates the puzzle: {violation.message}", source=answer.source,
                                cell=violation.cell)
    return Decoded(puzzle, "solved", grid, answer.why)


def _check_missing(answer: Answer, system: LinearSystem, given: np.ndarray) -> None:
    """A variable the model constrains must have a value; an unconstrained cell may be left out.

    With a total mine count every cell occurs in the cardinality constraint, so none may be left out.
    Without one, a cell next to no revealed count occurs in no constraint: some SAT solvers (minisat)
    print nothing for it, and any value is right; it is read as safe.
    """
    missing = ~given[1:]
    if not missing.any():
        return
    if system.total is None:
        missing &= system.constrained_vars
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        r, c = (int(v) for v in system.var_rc[i])
        why = "the total mine count constrains" if not system.constrained_vars[i] \
            else "the counts around it constrain"
        raise answer.error(f"the answer leaves out variable {i + 1} (cell ({r}, {c}), {var_name(r, c)}), which "
                           f"{why}: truncated, or an answer for another puzzle?")


# helpers shared by the solution readers -----------------------------------------------------------
_LITERAL = re.compile(r"-?x?\d+\Z")


def parse_literals(parts: Sequence[Tuple[int, str, int]], answer_proto: dict, *,
                   require_zero: bool) -> Tuple[List[int], List[int], bool]:
    """Signed literals from (line number, text, its 0-based offset in the line) pieces; stops at `0`.

    Tokens are `3`, `-3`, `x3` or `-x3` (PB solvers print names).

    Returns (literals, line of each, whether a terminating 0 was seen). A malformed token, a token after
    the terminating 0, or (with require_zero) a missing 0 raise SolutionSyntaxError at the token.
    """
    lits: List[int] = []
    lines: List[int] = []
    text = answer_proto.get("text")
    source = answer_proto.get("source", "<string>")
    for ln, piece, offset in parts:
        if not piece.strip():
            continue
        try:
            nums = [int(t) for t in piece.split()]
        except ValueError:
            nums = []
            for m in re.finditer(r"\S+", piece):
                tok = m.group()
                if not _LITERAL.match(tok):
                    raise SolutionSyntaxError(f"{tok!r} is not a literal", source=source, line=ln,
                                              column=offset + m.start() + 1,
                                              line_text=line_of(text, ln) if text else None) from None
                nums.append(int(tok.replace("x", "")))
        if lits and lits[-1] == 0:
            raise SolutionSyntaxError("literals after the terminating 0", source=source, line=ln,
                                      line_text=line_of(text, ln) if text else None)
        if 0 in nums:
            end = nums.index(0)
            if end != len(nums) - 1:
                raise SolutionSyntaxError("literals after the terminating 0", source=source, line=ln,
                                          line_text=line_of(text, ln) if text else None)
        lits.extend(nums)
        lines.extend([ln] * len(nums))
    closed = bool(lits) and lits[-1] == 0
    if closed:
        lits.pop()
        lines.pop()
    elif require_zero:
        last = parts[-1][0] if parts else None
        raise SolutionSyntaxError("the model does not end with 0 (truncated?)", source=source, line=last,
                                  line_text=line_of(text, last) if (text and last) else None)
    return lits, lines, closed


def literal_answer(lits: Sequence[int], lines: Sequence[int], **fields) -> Answer:
    """An id-keyed Answer from signed literals."""
    arr = np.asarray(lits, dtype=np.int64)
    return Answer("solved", "id", np.abs(arr), (arr > 0).astype(np.float64), np.asarray(lines, dtype=np.int64),
                  **fields)


def first_content_line(text: str) -> Tuple[int, str]:
    """(1-based number, stripped text) of the first non-blank line, or (0, '')."""
    for i, ln in enumerate(text.splitlines(), 1):
        if ln.strip():
            return i, ln.strip()
    return 0, ""


def parse_value(token: str, *, source: str, line: Optional[int], line_text: Optional[str]) -> float:
    """A solver's number (ints, floats, 1e-10, inf); anything else is a SolutionSyntaxError at its line."""
    try:
        return float(token)
    except ValueError:
        col = line_text.find(token) + 1 if token and line_text and token in line_text else None
        raise SolutionSyntaxError(f"{token!r} is not a number", source=source, line=line, column=col,
                                  line_text=line_text) from None


def named_answer(names: Sequence[str], values: Sequence[float], lines: Sequence[int], **fields) -> Answer:
    """A name-keyed solved Answer."""
    return Answer("solved", "name", list(names), np.asarray(values, dtype=np.float64),
                  np.asarray(lines, dtype=np.int64), **fields)
