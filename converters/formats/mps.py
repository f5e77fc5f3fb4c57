"""MPS writers: free MPS (`mps`, .mps) and fixed MPS (`fixed-mps`), read by glpsol, CBC, HiGHS, lp_solve.

Same model as the LP file: a zero objective row `obj`, one E row per stated count (c<row>_<col>) and the
total as row `total`; COLUMNS in variable id order, each column's zero objective entry first (so that every
column appears, in order), all inside one INTORG/INTEND marker pair; explicit `BV` bounds.

Free MPS puts FREE on the NAME line: CBC reads files named .mps as fixed MPS unless told so, and
glpsol --freemps, HiGHS and lp_solve -fmps accept it. Fixed MPS keeps every field in its columns (glpsol
--mps is strictly positional) and names to 8 characters: a board whose names do not fit is refused.
"""
from __future__ import annotations

from typing import Any, List, Optional, TextIO

import numpy as np

from ..errors import FormatError
from ..header import header_text
from ..naming import TOTAL_CONSTRAINT
from ..puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ..registry import register_format
from ._linear import PLACEHOLDER, LinearModel, linear_model
from ._text import CHUNK, Lines, Table, add_rc, chunks, fixed_field, render_tokens

PROBLEM_NAME = "MINES"
OBJ = "obj"
FIXED_NAME_WIDTH = 8


class _Style:
    """Field layout of one MPS flavour."""

    def __init__(self, fixed: bool) -> None:
        self.fixed = fixed

    def name(self, block: np.ndarray) -> np.ndarray:
        return fixed_field(block, FIXED_NAME_WIDTH) if self.fixed else block

    def number(self, block: np.ndarray, aligned: bool = False) -> np.ndarray:
        """A number field; `aligned` when the block is unsigned numbers (already right-aligned)."""
        if not self.fixed:
            return block
        if aligned and block.shape[1] <= 12:
            out = np.full((block.shape[0], 12), 32, dtype=np.uint8)
            out[:, 12 - block.shape[1]:] = np.where(block == 0, np.uint8(32), block)
            return out
        return fixed_field(block, 12, right=True)

    def const(self, text: str, n: int, width: Optional[int] = None) -> np.ndarray:
        raw = text.ljust(width) if (self.fixed and width) else text
        return Lines(n).text(raw).matrix()

    def head(self, names: np.ndarray) -> np.ndarray:
        """'    NAME      ' (fields 1-2, up to column 14) / ' NAME'."""
        n = names.shape[0]
        if self.fixed:
            return np.hstack([self.const("    ", n), self.name(names), self.const("  ", n)])
        return np.hstack([self.const(" ", n), names])

    def entry(self, names: np.ndarray, values: np.ndarray, second: np.ndarray) -> np.ndarray:
        """'ROWNAME   value' in fields 3-4 (first) or 5-6 (second) / ' ROWNAME value' (fields styled already)."""
        n = names.shape[0]
        if self.fixed:
            gap = Lines(n).text("   ", second).matrix()
            return np.hstack([gap, names, self.const("  ", n), values])
        return np.hstack([self.const(" ", n), names, self.const(" ", n), values])

    def line(self, *pieces: str) -> str:
        """A line of constant fields, positioned like head + entries."""
        if not self.fixed:
            return " " + " ".join(pieces) + "\n"
        first, rest = pieces[0], pieces[1:]
        text = "    " + first.ljust(FIXED_NAME_WIDTH) + "  "
        for i in range(0, len(rest), 2):
            if i:
                text += "   "
            text += rest[i].ljust(FIXED_NAME_WIDTH) + "  " + rest[i + 1].rjust(12)
        return text.rstrip() + "\n"


def _pairs(style: _Style, group: np.ndarray, heads: np.ndarray, names: np.ndarray, values: np.ndarray) -> str:
    """Lines 'head entry [entry]' with each group's entries (sorted by group) two to a line."""
    ngroups = heads.shape[0]
    count = np.bincount(group, minlength=ngroups)
    lines_per = (count + 1) // 2
    line_start = np.cumsum(lines_per) - lines_per
    first_entry = np.cumsum(count) - count
    p = np.arange(group.shape[0]) - first_entry[group]
    line = line_start[group] + p // 2
    nlines = int(lines_per.sum())
    line_group = np.repeat(np.arange(ngroups), lines_per)
    nl = Lines(nlines).text("\n").matrix()
    entries = style.entry(names, values, (p % 2) == 1)
    return render_tokens(4 * nlines, [
        (4 * np.arange(nlines), heads[line_group]),
        (4 * line + 1 + p % 2, entries),
        (4 * np.arange(nlines) + 3, nl),
    ])


def _check_fixed_names(model: LinearModel) -> None:
    system = model.system
    rc = np.concatenate([system.var_rc, system.con_rc[model.rows]]) if model.k or model.n else None
    if rc is None or not rc.shape[0]:
        return
    digits = sum((rc >= 10 ** e).astype(np.int64) for e in range(1, 10)) + 1
    longest = 2 + int(digits.sum(axis=1).max())
    if longest > FIXED_NAME_WIDTH:
        p = system.puzzle
        raise FormatError(f"fixed MPS allows names of at most {FIXED_NAME_WIDTH} characters, and the names of "
                          f"this {p.rows} x {p.cols} board take up to {longest} (x<row>_<col>); write free MPS "
                          "instead (--to mps, or a .mps output name)")


def _rows_section(style: _Style, model: LinearModel, out: TextIO) -> None:
    out.write("ROWS\n N  obj\n" if style.fixed else "ROWS\n N obj\n")
    rc = model.system.con_rc
    for start, stop in chunks(model.n):
        idx = model.rows[start:stop]
        out.write(add_rc(Lines(stop - start).text(" E  " if style.fixed else " E "), "c", rc[idx, 0], rc[idx, 1])
                  .text("\n").render())
    if model.system.total is not None:
        out.write((" E  " if style.fixed else " E ") + TOTAL_CONSTRAINT + "\n")


def _row_names(style: _Style, model: LinearModel) -> Table:
    """Styled row names to gather: the stated counts 0..n-1, then obj (n) and total (n + 1)."""
    n = model.n
    con_rc = model.system.con_rc[model.rows]
    names = add_rc(Lines(n + 2), "c", np.append(con_rc[:, 0], [0, 0]), np.append(con_rc[:, 1], [0, 0]),
                   np.arange(n + 2) < n)
    names.text(OBJ, np.arange(n + 2) == n).text(TOTAL_CONSTRAINT, np.arange(n + 2) == n + 1)
    return Table(style.name(names.matrix()))


def _columns_section(style: _Style, model: LinearModel, rows_table: Table, out: TextIO) -> None:
    system = model.system
    k = model.k
    if style.fixed:
        intorg = "    MARKER    'MARKER'                 'INTORG'\n"
        intend = "    MARKER    'MARKER'                 'INTEND'\n"
    else:
        intorg, intend = " MARKER 'MARKER' 'INTORG'\n", " MARKER 'MARKER' 'INTEND'\n"
    out.write("COLUMNS\n" + intorg)
    if not k:
        out.write(style.line(PLACEHOLDER, OBJ, "0"))
        out.write(intend)
        return
    # the count terms, column-major: each variable's stated neighbours, read off the grid in the
    # row-major neighbour order, are its constraints in row-major order (no sort of the terms needed)
    n = model.n
    R, C = system.puzzle.rows, system.puzzle.cols
    con_grid = np.zeros((R + 2, C + 2), dtype=np.int32)
    con_rc = system.con_rc[model.rows]
    con_grid[con_rc[:, 0] + 1, con_rc[:, 1] + 1] = np.arange(1, n + 1, dtype=np.int32)
    vr, vc = system.var_rc[:, 0] + 1, system.var_rc[:, 1] + 1
    around = np.empty((k, len(NEIGHBOUR_OFFSETS)), dtype=np.int32)
    for j, (dr, dc) in enumerate(NEIGHBOUR_OFFSETS):
        around[:, j] = con_grid[vr + dr, vc + dc]
    del con_grid
    has_con = around > 0
    term_con = around[has_con] - 1
    term_ptr = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(has_con.sum(axis=1), out=term_ptr[1:])
    del around, has_con
    # every field is built once and gathered: row names (the stated counts, then obj and total), column
    # heads, and the two values an entry can hold
    heads_table = Table(style.head(model.var_names().take(np.arange(1, k + 1))))
    values_table = Table(style.number(Lines(2).number(np.array([0, 1])).matrix(), aligned=True))
    has_total = system.total is not None
    step = max(1, CHUNK // 8)
    for v0 in range(1, k + 1, step):
        v1 = min(k + 1, v0 + step)
        a, b = int(term_ptr[v0 - 1]), int(term_ptr[v1 - 1])
        nv = v1 - v0
        # each column's entries: its objective 0 first, then its counts, then the total
        per = 1 + np.diff(term_ptr[v0 - 1:v1]) + (1 if has_total else 0)
        first = np.cumsum(per) - per
        n_ent = int(per.sum())
        row = np.full(n_ent, n + 1, dtype=np.int64)  # the total, unless overwritten below
        row[first] = n
        is_con = np.ones(n_ent, dtype=bool)
        is_con[first] = False
        if has_total:
            is_con[first + per - 1] = False
        row[is_con] = term_con[a:b]
        group = np.repeat(np.arange(nv), per)
        names = rows_table.take(row)
        values = values_table.take((row != n).astype(np.int64))
        out.write(_pairs(style, group, heads_table.take(np.arange(v0 - 1, v1 - 1)), names, values))
    out.write(intend)


def _rhs_section(style: _Style, model: LinearModel, rows_table: Table, out: TextIO) -> None:
    out.write("RHS\n")
    system = model.system
    rhs = system.con_rhs[model.rows].astype(np.int64)
    where = np.nonzero(rhs)[0]                 # rows not listed have rhs 0
    values = rhs[where]
    if system.total:
        where = np.append(where, model.n + 1)
        values = np.append(values, system.total)
    if not where.shape[0]:
        return
    # few distinct right-hand sides: style each once, gather (bincount, not a sort of every value)
    low = int(values.min())
    seen = np.bincount(values - low)
    distinct = np.flatnonzero(seen) + low
    lookup = np.cumsum(seen > 0) - 1
    which = lookup[values - low]
    values_table = Table(style.number(Lines(distinct.shape[0]).number(distinct, signed=True).matrix()))
    heads = style.head(Lines(1).text("RHS").matrix())
    for start, stop in chunks(where.shape[0], CHUNK):  # CHUNK is even: the pairs of one line stay together
        out.write(_pairs(style, np.zeros(stop - start, dtype=np.int64), heads, rows_table.take(where[start:stop]),
                         values_table.take(which[start:stop])))


def _bounds_section(style: _Style, model: LinearModel, out: TextIO) -> None:
    out.write("BOUNDS\n")
    if not model.k:
        out.write(f" FX {'BND':<8}  {PLACEHOLDER:<8}  {0:>12}\n" if style.fixed else f" FX BND {PLACEHOLDER} 0\n")
        return
    lead = " BV BND       " if style.fixed else " BV BND "
    for start, stop in chunks(model.k):
        rc = model.system.var_rc[start:stop]
        out.write(add_rc(Lines(stop - start).text(lead), "x", rc[:, 0], rc[:, 1]).text("\n").render())


def _write(puzzle: Puzzle, out: TextIO, fixed: bool, mines: Optional[int]) -> None:
    model = linear_model(puzzle, mines)
    system = model.system
    if fixed:
        _check_fixed_names(model)
    style = _Style(fixed)
    extra: List[str] = [
        "minimise the zero row obj; one E row per revealed cell with an unknown neighbour (or whose count "
        "cannot be met), named c<row>_<col>: the sum of its unknown neighbours = its count minus its "
        "known-mine neighbours; columns in id order, integer markers, BV bounds"]
    if system.total is not None:
        extra.append(f"row {TOTAL_CONSTRAINT}: the {model.k} cell variables sum to {system.total}")
    if not model.k:
        extra.append(f"no unknown cell: the column {PLACEHOLDER}, fixed at 0, only keeps the file valid")
    out.write(header_text(puzzle, system, "*", "fixed MPS" if fixed else "free MPS", extra))
    out.write(f"NAME          {PROBLEM_NAME}\n" if fixed else f"NAME {PROBLEM_NAME} FREE\n")
    _rows_section(style, model, out)
    rows_table = _row_names(style, model)
    _columns_section(style, model, rows_table, out)
    _rhs_section(style, model, rows_table, out)
    _bounds_section(style, model, out)
    out.write("ENDATA\n")


def write_free_mps(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as free MPS."""
    _write(puzzle, out, False, mines)


def write_fixed_mps(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as fixed MPS (names of at most 8 characters, else FormatError)."""
    _write(puzzle, out, True, mines)


def _detect(text: str) -> bool:
    lines = [ln for ln in text[:8192].splitlines() if ln.strip() and not ln.startswith("*")]
    return bool(lines) and lines[0].startswith("NAME") and any(ln.startswith("ROWS") for ln in lines[1:4])


def _detect_fixed(text: str) -> bool:
    return _detect(text) and not any(ln.startswith("NAME") and ln.split()[-1] == "FREE"
                                     for ln in text[:8192].splitlines())


# registration order matters: for a .mps output name the registry picks the first candidate, free MPS
register_format("mps", [".mps", ".fmps"], "model", writer=write_free_mps, detect=_detect,
                description="free MPS for MIP solvers (glpsol --freemps, cbc, HiGHS, lp_solve -fmps)",
                aliases=("free-mps",))
register_format("fixed-mps", [".mps"], "model", writer=write_fixed_mps, detect=_detect_fixed,
                description="fixed MPS, names up to 8 characters (glpsol --mps, cbc, HiGHS, lp_solve -mps)")
