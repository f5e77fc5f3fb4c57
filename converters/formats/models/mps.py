"""MPS writers: free MPS (`mps`, .mps) and fixed MPS (`fixed-mps`), read by glpsol, CBC, HiGHS, lp_solve.

Same model as the LP file: a zero objective row `obj`, one E row per stated count (c<row>_<col>) and the
total as row `total`; COLUMNS in variable id order, each column's zero objective entry first (so that every
column appears, in order), all inside one INTORG/INTEND marker pair; explicit `BV` bounds.

Free MPS puts FREE on the NAME line: CBC reads files named .mps as fixed MPS unless told so, and
glpsol --freemps, HiGHS and lp_solve -fmps accept it. Fixed MPS keeps every field in its columns (glpsol
--mps is strictly positional) and names to 8 characters: a board whose names do not fit is refused.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, List, Optional, TextIO, Tuple

import numpy as np

from ...core.errors import FormatError
from ...core.grid import centres, padded, scatter_neighbours
from ...core.naming import CON_PREFIX, SEPARATOR, TOTAL_CONSTRAINT, VAR_FORM, VAR_PREFIX
from ...core.puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ...encode import bulk_text
from ...encode.bulk_text import emit
from ...encode.linear import PLACEHOLDER, LinearModel, linear_model, rows_prose
from ..header import write_header
from ..registry import register_format

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

    def suffixes(self, builder: bulk_text.TableBuilder, values: List[str]) -> bulk_text.Section:
        """Add every suffix to a table: item value * 2 + last."""
        return builder.add([self.suffix(v, last) for v in values for last in (False, True)])

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


# 8-byte names are packed into one integer each, byte i at bits 8i: '<u8' says so on any machine
_U8 = np.dtype("<u8")


@lru_cache(maxsize=8)
def _digit_table(top: int) -> Tuple[np.ndarray, np.ndarray]:
    """Every number 0..top (at most 10**5) as its digit bytes in the low bytes of a '<u8' integer (byte i at
    bits 8i), and its number of digits (both read-only: made once per board size)."""
    words = bulk_text.as_bytes(bulk_text.numbers(np.arange(top + 1)))   # right-aligned, NUL-padded
    text = np.zeros((top + 1, 8), dtype=np.uint8)
    text[:, 8 - words.shape[1]:] = words
    lengths = np.count_nonzero(text, axis=1).astype(np.uint64)
    digits = text.view(_U8).ravel() >> ((np.uint64(8) - lengths) * np.uint64(8))
    digits.flags.writeable = lengths.flags.writeable = False
    return digits, lengths


def _names_fit(r: np.ndarray, c: np.ndarray) -> bool:
    """Whether every name '<letter><row>_<col>' fits in a fixed MPS field (8 characters)."""
    if not r.shape[0]:
        return True
    # the digits of the largest row and column bound every name: exact names only when that fails
    if 2 + len(str(int(r.max()))) + len(str(int(c.max()))) <= FIXED_NAME_WIDTH:
        return True
    return _longest_name(r, c) <= FIXED_NAME_WIDTH


def _longest_name(r: np.ndarray, c: np.ndarray) -> int:
    """The length of the longest name '<letter><row>_<col>'."""
    if not r.shape[0]:
        return 0
    top = max(int(r.max()), int(c.max()))
    if top > 10 ** 5:
        digits = 2 + sum((r >= 10 ** e).astype(np.int64) + (c >= 10 ** e) for e in range(1, len(str(top))))
        return 2 + int(digits.max())
    lengths = _digit_table(top)[1]
    return 2 + int((lengths[r] + lengths[c]).max())


# the bytes after a name of n characters in an 8-byte field: spaces (fixed MPS) or NUL (dropped later)
_SPACED = np.array([int.from_bytes(b"\0" * n + b" " * (FIXED_NAME_WIDTH - n), "little")
                    for n in range(FIXED_NAME_WIDTH + 1)], dtype=_U8)


def _name_items(letter: str, r: np.ndarray, c: np.ndarray, spaced: bool) -> np.ndarray:
    """Names '<letter><row>_<col>' as items: 8 bytes each when every name fits in 8 characters (then, when
    spaced, padded with spaces to the fixed MPS field), else as wide as the longest."""
    n = r.shape[0]
    top = max(int(r.max()), int(c.max())) if n else 0
    if top >= 10 ** 5 or not _names_fit(r, c):
        # free MPS on boards beyond 1000 x 1000: a wider field
        return bulk_text.rows_of(n, [letter.encode("ascii"), bulk_text.numbers(r), SEPARATOR.encode("ascii"),
                                  bulk_text.numbers(c)])
    # one integer per name, from per-number tables: the row part '<letter><row>_' and the shift that
    # puts the column's digits after it
    eight = np.uint64(8)
    digits, lengths = _digit_table(top)
    head = np.uint64(ord(letter)) | (digits << eight) | \
        (np.uint64(ord(SEPARATOR)) << ((lengths + np.uint64(1)) * eight))
    name = head[r] | (digits[c] << ((lengths + np.uint64(2)) * eight)[r])
    if spaced:
        name |= _SPACED[lengths[r] + lengths[c] + np.uint64(2)]
    return name.astype(_U8, copy=False).view("V8")


class _Names:
    """Row names '<letter><row>_<col>', then constant names (obj, total), then a blank, in one table:
    `plain` NUL-padded, `table` as entries show them (padded to the field in fixed MPS)."""

    def __init__(self, letter: str, r: np.ndarray, c: np.ndarray, extra: Tuple[str, ...], fixed: bool) -> None:
        self.plain, self.rows, self.extra, self.blank = self._table(letter, r, c, extra, False)
        self.table = self._table(letter, r, c, extra, True)[0] if fixed else self.plain

    @staticmethod
    def _table(letter: str, r: np.ndarray, c: np.ndarray, extra: Tuple[str, ...], spaced: bool):
        builder = bulk_text.TableBuilder()
        rows = builder.add(_name_items(letter, r, c, spaced))
        named = builder.add([e.ljust(FIXED_NAME_WIDTH) if spaced else e for e in extra])
        blank = builder.add([""])
        return builder.build(), rows, named, blank.item


def _check_fixed_names(model: LinearModel) -> None:
    system = model.system
    con_rc = model.of(system.con_rc)
    if not (_names_fit(system.var_rc[:, 0], system.var_rc[:, 1]) and _names_fit(con_rc[:, 0], con_rc[:, 1])):
        longest = max(_longest_name(system.var_rc[:, 0], system.var_rc[:, 1]),
                      _longest_name(con_rc[:, 0], con_rc[:, 1]))
        p = system.puzzle
        raise FormatError(f"fixed MPS allows names of at most {FIXED_NAME_WIDTH} characters, and the names of "
                          f"this {p.rows} x {p.cols} board take up to {longest} ({VAR_FORM}); write free MPS "
                          "instead (--to mps, or a .mps output name)")


def _rows_section(style: _Style, model: LinearModel, names: _Names, out: TextIO) -> None:
    out.write("ROWS\n N  obj\n" if style.fixed else "ROWS\n N obj\n")
    lead = b" E  " if style.fixed else b" E "
    for start, stop in bulk_text.chunks(model.n, bulk_text.ROW_CHUNK):
        emit(out, bulk_text.join(stop - start, [lead, (names.plain, names.rows.at(np.arange(start, stop))), b"\n"]))
    if model.system.total is not None:
        out.write(lead.decode("ascii") + TOTAL_CONSTRAINT + "\n")


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
    # each column's entries: its objective 0, its stated counts, the total; read off the grid in the
    # row-major neighbour order, the counts come in row-major order (no sort of the terms needed)
    n = model.n
    blank = names.blank
    obj, total = names.extra.at(0), names.extra.at(1)
    con_grid = np.full(system.var_grid.shape, blank, dtype=np.int32)
    con_rc = model.of(system.con_rc)
    # by flat position: numpy's two-array index on the grid costs ~4x more for 660,000 counts
    con_grid.ravel()[con_rc[:, 0].astype(np.intp) * system.puzzle.cols + con_rc[:, 1]] = \
        names.rows.at(np.arange(n, dtype=np.int32))
    grid, width = padded(con_grid, blank)
    centre = centres(system.var_rc, width)
    # the column heads: the variable's name (in fixed MPS padded to its field) between its gaps, then a
    # blank head for the line slots a column does not use
    r, c = system.var_rc[:, 0], system.var_rc[:, 1]
    var_names = _name_items(VAR_PREFIX, r, c, style.fixed)
    builder = bulk_text.TableBuilder()
    heads = builder.add(bulk_text.rows_of(k, [b"    " if style.fixed else b" ", var_names,
                                           b"  " if style.fixed else b" "]))
    no_head = builder.add([""])
    head_table = builder.build()
    builder = bulk_text.TableBuilder()
    suffixes = style.suffixes(builder, ["0", "1"])
    no_suffix = builder.add([""])
    suffix_table = builder.build()
    slots = 2 + len(NEIGHBOUR_OFFSETS)          # at most: objective, eight counts, total
    for v0, v1 in bulk_text.chunks(k, bulk_text.COLUMN_CHUNK):
        nv = v1 - v0
        # the (nv, 10) entries of each column, packed to the front, blank after: five line slots per
        # column, the unused ones blank in every field (NUL bytes, dropped with the rest)
        entry = np.full((nv, slots), blank, dtype=np.int32)
        packed = entry.ravel()
        packed[::slots] = obj
        slot = scatter_neighbours(grid, width, centre[v0:v1], packed,
                                         np.arange(1, nv * slots, slots, dtype=np.int64), blank=blank)
        if system.total is not None:
            packed[slot] = total
        first, second = entry[:, 0::2], entry[:, 1::2]
        used = first != blank
        alone = second == blank
        head = np.where(used, heads.at(np.arange(v0, v1))[:, None], no_head.item)
        suffix1 = np.where(used, suffixes.at((first != obj) * 2 + alone), no_suffix.item)
        # a second entry is never the objective: value 1, line end
        suffix2 = np.where(alone, no_suffix.item, suffixes.at(3))
        emit(out, bulk_text.join(nv * (slots // 2), [
            (head_table, head.ravel()), (names.table, first.ravel()), (suffix_table, suffix1.ravel()),
            (names.table, second.ravel()), (suffix_table, suffix2.ravel())]))
    out.write(intend)


def _rhs_section(style: _Style, model: LinearModel, names: _Names, out: TextIO) -> None:
    out.write("RHS\n")
    system = model.system
    rhs = model.of(system.con_rhs)
    listed = np.flatnonzero(rhs)     # rows not listed have rhs 0
    # the listed rows, then the total's row when it is not 0, made in place (no appended copies)
    n = listed.shape[0]
    m = n + (1 if system.total else 0)
    if not m:
        return
    where = np.empty(m, dtype=np.int64)
    np.add(listed, names.rows.base, out=where[:n])
    # the counts' right-hand sides span a few values (-8..8), each a suffix of its own, and the total one more
    values_list, which_count = bulk_text.value_table(rhs.take(listed))
    which = np.empty(m, dtype=np.intp)
    which[:n] = which_count
    if system.total:
        where[-1], which[-1] = names.extra.at(1), len(values_list)
        values_list.append(system.total)
    # two entries to a line
    builder = bulk_text.TableBuilder()
    suffixes = style.suffixes(builder, [str(v) for v in values_list])
    no_suffix = builder.add([""])
    suffix_table = builder.build()
    head = b"    RHS       " if style.fixed else b" RHS "
    for l0, l1 in bulk_text.chunks((m + 1) // 2, bulk_text.ROW_CHUNK):
        a, b = 2 * l0, min(m, 2 * l1)      # the entries of lines l0..l1-1
        nl = l1 - l0
        first = where[a:b:2]
        second = np.full(nl, names.blank, dtype=np.int64)
        second[:(b - a) // 2] = where[a + 1:b:2]
        alone = second == names.blank
        suffix2 = np.full(nl, no_suffix.item, dtype=np.int64)
        suffix2[~alone] = suffixes.at(which[a + 1:b:2] * 2 + 1)
        emit(out, bulk_text.join(nl, [head, (names.table, first), (suffix_table, suffixes.at(which[a:b:2] * 2 + alone)),
                                   (names.table, second), (suffix_table, suffix2)]))


def _bounds_section(style: _Style, model: LinearModel, out: TextIO) -> None:
    out.write("BOUNDS\n")
    if not model.k:
        out.write(f" FX {'BND':<8}  {PLACEHOLDER:<8}  {0:>12}\n" if style.fixed else f" FX BND {PLACEHOLDER} 0\n")
        return
    lead = b" BV BND       " if style.fixed else b" BV BND "
    rc = model.system.var_rc
    for start, stop in bulk_text.chunks(model.k):
        names = _name_items(VAR_PREFIX, rc[start:stop, 0], rc[start:stop, 1], False)
        emit(out, bulk_text.join(stop - start, [lead, names, b"\n"]))


def _write(puzzle: Puzzle, out: TextIO, fixed: bool, mines: Optional[int]) -> None:
    model = linear_model(puzzle, mines)
    system = model.system
    if fixed:
        _check_fixed_names(model)
    style = _Style(fixed)
    notes = model.notes(f"minimise the zero row {OBJ}; " + rows_prose("E row", named=True)
                        + "; columns in id order, integer markers, BV bounds", f"row {TOTAL_CONSTRAINT}",
                        left=False, placeholder=True)
    write_header(out, puzzle, system, "*", "fixed MPS" if fixed else "free MPS", notes)
    out.write(f"NAME          {PROBLEM_NAME}\n" if fixed else f"NAME {PROBLEM_NAME} FREE\n")
    con_rc = model.of(system.con_rc)
    # row names: the stated counts, then obj and total, then a blank
    names = _Names(CON_PREFIX, con_rc[:, 0], con_rc[:, 1], (OBJ, TOTAL_CONSTRAINT), style.fixed)
    _rows_section(style, model, names, out)
    _columns_section(style, model, names, out)
    _rhs_section(style, model, names, out)
    _bounds_section(style, model, out)
    out.write("ENDATA\n")


def write_mps(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
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
register_format("mps", writer=write_mps, detect=_detect,
                description="free MPS for MIP solvers (glpsol --freemps, cbc, HiGHS, lp_solve -fmps)",
                write_options=("mines",))
register_format("fixed-mps", writer=write_fixed_mps, detect=_detect_fixed,
                description="fixed MPS, names up to 8 characters (glpsol --mps, cbc, HiGHS, lp_solve -mps)",
                write_options=("mines",))
