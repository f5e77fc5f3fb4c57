"""MPS writers: free MPS (`mps`, .mps) and fixed MPS (`fixed-mps`), read by glpsol, CBC, HiGHS, lp_solve.

Same model as the LP file: a zero objective row `obj`, one E row per stated count (c<row>_<col>) and the
total as row `total`; COLUMNS in variable id order, each column's zero objective entry first (so that every
column appears, in order), all inside one INTORG/INTEND marker pair; explicit `BV` bounds.

Free MPS puts FREE on the NAME line: CBC reads files named .mps as fixed MPS unless told so, and
glpsol --freemps, HiGHS and lp_solve -fmps accept it. Fixed MPS keeps every field in its columns (glpsol
--mps is strictly positional) and names to 8 characters: a board whose names do not fit is refused.
"""
from __future__ import annotations

from typing import Any, List, Optional, TextIO, Tuple

import numpy as np

from ..errors import FormatError
from ..header import header_text
from ..naming import TOTAL_CONSTRAINT
from ..puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ..registry import register_format
from ._linear import PLACEHOLDER, LinearModel, linear_model
from ._text import CHUNK, assemble_items, chunks, items, number_words, text_words, word_matrix, write_ascii

PROBLEM_NAME = "MINES"
OBJ = "obj"
FIXED_NAME_WIDTH = 8


class _Style:
    """Field layout of one MPS flavour."""

    def __init__(self, fixed: bool) -> None:
        self.fixed = fixed

    def suffix(self, value: str, last: bool) -> str:
        """What follows a row name in an entry: the value, then the line's end or the gap before the line's
        second entry (names are space-padded to their field in fixed MPS already)."""
        if not self.fixed:
            return " " + value + ("\n" if last else " ")
        return "  " + value.rjust(12) + ("\n" if last else "   ")

    def suffixes(self, values: List[str]) -> np.ndarray:
        """Item table of every suffix, index value * 2 + last, then a blank (no second entry)."""
        texts = [self.suffix(v, last) for v in values for last in (False, True)] + [""]
        width = max(-(-len(t) // 4) for t in texts)
        return items(np.vstack([text_words(t, width) for t in texts]))

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


def _digits(x: np.ndarray) -> np.ndarray:
    """How many decimal digits each non-negative integer has."""
    top = int(x.max()) if x.shape[0] else 0
    d = np.ones(x.shape[0], dtype=np.uint64)
    for e in range(1, len(str(top))):
        d += x >= 10 ** e
    return d


# the bytes after a name of n characters in an 8-byte field: spaces (fixed MPS) or NUL (dropped later)
_SPACED = np.array([int.from_bytes(b"\0" * n + b" " * (FIXED_NAME_WIDTH - n), "little")
                    for n in range(FIXED_NAME_WIDTH + 1)], dtype=np.uint64)


def _name_words(letter: str, r: np.ndarray, c: np.ndarray, spaced: bool) -> np.ndarray:
    """Names '<letter><row>_<col>' as rows of uint32 words: 8 bytes each when every name fits in 8
    characters (space-padded if `spaced`, for fixed MPS fields), else NUL-padded words of any length."""
    n = r.shape[0]
    top = max(int(r.max()), int(c.max())) if n else 0
    # every number 0..top as its digit bytes, right-aligned in a uint64 (byte i at bits 8i); a number
    # of 6 digits or more makes its name longer than 8 characters anyway
    words = number_words(np.arange(min(top, 10 ** 5) + 1))
    if words.shape[1] == 1:
        words = np.hstack([np.zeros_like(words), words])
    text = np.ascontiguousarray(words).view(np.uint64).ravel()
    lengths = np.count_nonzero(text.view(np.uint8).reshape(-1, 8), axis=1).astype(np.uint64)
    if n and (top >= 10 ** 5 or int((lengths[r] + lengths[c]).max()) + 2 > FIXED_NAME_WIDTH):
        # free MPS on boards beyond 1000 x 1000: a wider field
        return word_matrix(n, [letter, number_words(r), "_", number_words(c)])
    # one uint64 per name, from per-number tables: the row part '<letter><row>_' and the shift that
    # puts the column's digits after it
    eight = np.uint64(8)
    digits = text >> ((eight - lengths) * eight)
    head = np.uint64(ord(letter)) | (digits << eight) | (np.uint64(ord("_")) << ((lengths + np.uint64(1)) * eight))
    name = head[r] | (digits[c] << ((lengths + np.uint64(2)) * eight)[r])
    if spaced:
        name |= _SPACED[lengths[r] + lengths[c] + np.uint64(2)]
    return name.view(np.uint32).reshape(n, 2)


class _Names:
    """Row names '<letter><row>_<col>' as an item table, then constant names (obj, total), then a blank."""

    def __init__(self, letter: str, r: np.ndarray, c: np.ndarray, extra: Tuple[str, ...], spaced: bool) -> None:
        n = r.shape[0]
        body = _name_words(letter, r, c, spaced)
        width = body.shape[1]
        rows = np.zeros((n + len(extra) + 1, width), dtype=np.uint32)
        rows[:n] = body
        for i, e in enumerate(extra):
            rows[n + i] = text_words(e.ljust(4 * width) if spaced else e, width)
        self.table = items(rows)
        self.blank = n + len(extra)


def _pair_lines(suffixes: np.ndarray, names: _Names, heads: np.ndarray, head_of: np.ndarray,
                count: np.ndarray, row: np.ndarray, value: np.ndarray) -> bytes:
    """Lines 'head entry [entry]': group g's count[g] entries (consecutive in row/value) two to a line
    under heads[head_of[g]]; an entry is the name of row `row` and suffix number `value`."""
    lines_per = (count + 1) // 2
    line_start = np.cumsum(lines_per) - lines_per
    first_entry = np.cumsum(count) - count
    nlines = int(lines_per.sum())
    line_group = np.repeat(np.arange(count.shape[0]), lines_per)
    first = first_entry[line_group] + 2 * (np.arange(nlines) - line_start[line_group])
    two = first + 1 < first_entry[line_group] + count[line_group]
    second = np.where(two, first + 1, 0)
    row2 = np.where(two, row[second], names.blank)
    suffix2 = np.where(two, value[second] * 2 + 1, suffixes.shape[0] - 1)
    return assemble_items(nlines, [(heads, head_of[line_group]), (names.table, row[first]),
                                   (suffixes, value[first] * 2 + ~two), (names.table, row2), (suffixes, suffix2)])


def _check_fixed_names(model: LinearModel) -> None:
    system = model.system
    rc = np.concatenate([system.var_rc, system.con_rc[model.rows]]) if model.k or model.n else None
    if rc is None or not rc.shape[0]:
        return
    longest = 2 + int((_digits(rc[:, 0]) + _digits(rc[:, 1])).max())
    if longest > FIXED_NAME_WIDTH:
        p = system.puzzle
        raise FormatError(f"fixed MPS allows names of at most {FIXED_NAME_WIDTH} characters, and the names of "
                          f"this {p.rows} x {p.cols} board take up to {longest} (x<row>_<col>); write free MPS "
                          "instead (--to mps, or a .mps output name)")


def _const(text: str) -> np.ndarray:
    """A one-item table of constant text."""
    return items(text_words(text).reshape(1, -1))


def _rows_section(style: _Style, model: LinearModel, out: TextIO) -> None:
    out.write("ROWS\n N  obj\n" if style.fixed else "ROWS\n N obj\n")
    con_rc = model.system.con_rc
    for start, stop in chunks(model.n):
        idx = model.rows[start:stop]
        lines = word_matrix(stop - start, [" E  " if style.fixed else " E ",
                                           _name_words("c", con_rc[idx, 0], con_rc[idx, 1], False), "\n"])
        write_ascii(out, assemble_items(stop - start, [(items(lines), np.arange(stop - start))]))
    if model.system.total is not None:
        out.write((" E  " if style.fixed else " E ") + TOTAL_CONSTRAINT + "\n")


def _columns_section(style: _Style, model: LinearModel, names: _Names, out: TextIO) -> None:
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
    W = C + 2
    centre = (system.var_rc[:, 0].astype(np.int64) + 1) * W + system.var_rc[:, 1] + 1
    flat_grid = con_grid.ravel()
    around = np.empty((k, len(NEIGHBOUR_OFFSETS)), dtype=np.int32)
    for j, (dr, dc) in enumerate(NEIGHBOUR_OFFSETS):
        around[:, j] = flat_grid.take(centre + (dr * W + dc))
    del con_grid
    has_con = around > 0
    term_con = around[has_con] - 1
    term_ptr = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(has_con.sum(axis=1), out=term_ptr[1:])
    del around, has_con
    # column heads: the variable's name, in fixed MPS padded to its field
    r, c = system.var_rc[:, 0], system.var_rc[:, 1]
    heads = items(word_matrix(k, ["    " if style.fixed else " ", _name_words("x", r, c, style.fixed),
                                  "  " if style.fixed else " "]))
    suffixes = style.suffixes(["0", "1"])
    has_total = system.total is not None
    step = max(1, CHUNK // 4)
    for v0 in range(1, k + 1, step):
        v1 = min(k + 1, v0 + step)
        a, b = int(term_ptr[v0 - 1]), int(term_ptr[v1 - 1])
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
        value = (row != n).astype(np.int64)
        write_ascii(out, _pair_lines(suffixes, names, heads, np.arange(v0 - 1, v1 - 1), per, row, value))
    out.write(intend)


def _rhs_section(style: _Style, model: LinearModel, names: _Names, out: TextIO) -> None:
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
    # few distinct right-hand sides: each is a suffix of its own (bincount, not a sort of every value)
    low = int(values.min())
    seen = np.bincount(values - low)
    distinct = np.flatnonzero(seen) + low
    lookup = np.cumsum(seen > 0) - 1
    which = lookup[values - low]
    suffixes = style.suffixes([str(v) for v in distinct.tolist()])
    heads = _const("    RHS       " if style.fixed else " RHS ")
    for start, stop in chunks(where.shape[0], CHUNK):  # CHUNK is even: the pairs of one line stay together
        write_ascii(out, _pair_lines(suffixes, names, heads, np.zeros(1, dtype=np.int64), np.array([stop - start]),
                                     where[start:stop], which[start:stop]))


def _bounds_section(style: _Style, model: LinearModel, out: TextIO) -> None:
    out.write("BOUNDS\n")
    if not model.k:
        out.write(f" FX {'BND':<8}  {PLACEHOLDER:<8}  {0:>12}\n" if style.fixed else f" FX BND {PLACEHOLDER} 0\n")
        return
    lead = " BV BND       x" if style.fixed else " BV BND x"
    for start, stop in chunks(model.k):
        rc = model.system.var_rc[start:stop]
        lines = word_matrix(stop - start, [lead, number_words(rc[:, 0]), "_", number_words(rc[:, 1]), "\n"])
        write_ascii(out, assemble_items(stop - start, [(items(lines), np.arange(stop - start))]))


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
    con_rc = system.con_rc[model.rows]
    # row names: the stated counts 0..n-1, then obj (n) and total (n + 1)
    names = _Names("c", con_rc[:, 0], con_rc[:, 1], (OBJ, TOTAL_CONSTRAINT), style.fixed)
    _rows_section(style, model, out)
    _columns_section(style, model, names, out)
    _rhs_section(style, model, names, out)
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
