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

from ...errors import FormatError
from ..header import header_text
from ...model.naming import TOTAL_CONSTRAINT
from ...model.puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ...registry import register_format
from ...encode.linear import PLACEHOLDER, LinearModel, linear_model
from ...bulk.items import (CHUNK, assemble_items, chunks, distinct, item_table, items, number_words, text_words,
                    word_matrix, write_ascii)

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


def _digit_table(top: int) -> Tuple[np.ndarray, np.ndarray]:
    """Every number 0..top (at most 10**5) as its digit bytes in the low bytes of a uint64 (byte i at
    bits 8i), and its number of digits."""
    words = number_words(np.arange(top + 1))
    if words.shape[1] == 1:
        words = np.hstack([np.zeros_like(words), words])
    text = np.ascontiguousarray(words).view(np.uint64).ravel()
    lengths = np.count_nonzero(text.view(np.uint8).reshape(-1, 8), axis=1).astype(np.uint64)
    return text >> ((np.uint64(8) - lengths) * np.uint64(8)), lengths


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
                    for n in range(FIXED_NAME_WIDTH + 1)], dtype=np.uint64)


def _name_words(letter: str, r: np.ndarray, c: np.ndarray) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """Names '<letter><row>_<col>' as rows of uint32 words, NUL-padded: 8 bytes each when every name fits
    in 8 characters (then also each name's length), else words of any length (and None)."""
    n = r.shape[0]
    top = max(int(r.max()), int(c.max())) if n else 0
    if top >= 10 ** 5 or not _names_fit(r, c):
        # free MPS on boards beyond 1000 x 1000: a wider field
        return word_matrix(n, [letter, number_words(r), "_", number_words(c)]), None
    # one uint64 per name, from per-number tables: the row part '<letter><row>_' and the shift that
    # puts the column's digits after it
    eight = np.uint64(8)
    digits, lengths = _digit_table(top)
    head = np.uint64(ord(letter)) | (digits << eight) | (np.uint64(ord("_")) << ((lengths + np.uint64(1)) * eight))
    name = head[r] | (digits[c] << ((lengths + np.uint64(2)) * eight)[r])
    return name.view(np.uint32).reshape(n, 2), lengths[r] + lengths[c] + np.uint64(2)


def _spaced(words: np.ndarray, length: np.ndarray) -> np.ndarray:
    """8-byte names (from _name_words) padded with spaces to their fixed MPS field."""
    return (words.view(np.uint64).ravel() | _SPACED[length]).view(np.uint32).reshape(-1, 2)


class _Names:
    """Row names '<letter><row>_<col>' as item tables, then constant names (obj, total), then a blank:
    `plain` NUL-padded, `table` as entries show them (padded to the field in fixed MPS)."""

    def __init__(self, letter: str, r: np.ndarray, c: np.ndarray, extra: Tuple[str, ...], fixed: bool) -> None:
        n = r.shape[0]
        body, length = _name_words(letter, r, c)
        self.plain = self._table(body, extra, False)
        self.table = self._table(_spaced(body, length), extra, True) if fixed else self.plain
        self.blank = n + len(extra)

    @staticmethod
    def _table(body: np.ndarray, extra: Tuple[str, ...], spaced: bool) -> np.ndarray:
        n, width = body.shape
        rows = np.zeros((n + len(extra) + 1, width), dtype=np.uint32)
        rows[:n] = body
        for i, e in enumerate(extra):
            rows[n + i] = text_words(e.ljust(4 * width) if spaced else e, width)
        return items(rows)


def _check_fixed_names(model: LinearModel) -> None:
    system = model.system
    con_rc = system.con_rc[model.rows]
    if not (_names_fit(system.var_rc[:, 0], system.var_rc[:, 1]) and _names_fit(con_rc[:, 0], con_rc[:, 1])):
        longest = max(_longest_name(system.var_rc[:, 0], system.var_rc[:, 1]),
                      _longest_name(con_rc[:, 0], con_rc[:, 1]))
        p = system.puzzle
        raise FormatError(f"fixed MPS allows names of at most {FIXED_NAME_WIDTH} characters, and the names of "
                          f"this {p.rows} x {p.cols} board take up to {longest} (x<row>_<col>); write free MPS "
                          "instead (--to mps, or a .mps output name)")


def _const(text: str) -> np.ndarray:
    """A one-item table of constant text."""
    return items(text_words(text).reshape(1, -1))


def _rows_section(style: _Style, model: LinearModel, names: _Names, out: TextIO) -> None:
    out.write("ROWS\n N  obj\n" if style.fixed else "ROWS\n N obj\n")
    lead, nl = _const(" E  " if style.fixed else " E "), _const("\n")
    for start, stop in chunks(model.n, CHUNK // 4):
        write_ascii(out, assemble_items(stop - start, [(lead, None), (names.plain, np.arange(start, stop)),
                                                       (nl, None)]))
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
    # each column's entries: its objective 0, its stated counts, the total; read off the grid in the
    # row-major neighbour order, the counts come in row-major order (no sort of the terms needed)
    n = model.n
    blank = names.blank
    R, C = system.puzzle.rows, system.puzzle.cols
    W = C + 2
    con_rc = system.con_rc[model.rows]
    con_grid = np.full((R + 2) * W, blank, dtype=np.int32)
    con_grid[(con_rc[:, 0].astype(np.int64) + 1) * W + con_rc[:, 1] + 1] = np.arange(n, dtype=np.int32)
    centre = (system.var_rc[:, 0].astype(np.int64) + 1) * W + system.var_rc[:, 1] + 1
    # column heads: the variable's name, in fixed MPS padded to its field; a blank head at the end
    r, c = system.var_rc[:, 0], system.var_rc[:, 1]
    var_names, length = _name_words("x", r, c)
    if style.fixed:
        var_names = _spaced(var_names, length)
    heads = item_table(word_matrix(k, ["    " if style.fixed else " ", var_names, "  " if style.fixed else " "]),
                       np.zeros((1, 1), dtype=np.uint32))
    suffixes = style.suffixes(["0", "1"])
    no_suffix = suffixes.shape[0] - 1
    slots = 2 + len(NEIGHBOUR_OFFSETS)          # at most: objective, eight counts, total
    step = max(1, CHUNK // 16)  # small pieces: fewer page faults, warm caches
    for v0 in range(0, k, step):
        v1 = min(k, v0 + step)
        nv = v1 - v0
        # the (nv, 10) entries of each column, packed to the front, blank after: five line slots per
        # column, the unused ones blank in every field (NUL bytes, dropped with the rest)
        entry = np.full((nv, slots), blank, dtype=np.int32)
        packed = entry.ravel()
        packed[::slots] = n
        slot = np.arange(1, nv * slots, slots, dtype=np.int64)
        at = centre[v0:v1]
        for dr, dc in NEIGHBOUR_OFFSETS:
            found = con_grid.take(at + (dr * W + dc))
            packed[slot] = found
            slot += found != blank
        if system.total is not None:
            packed[slot] = n + 1
        first, second = entry[:, 0::2], entry[:, 1::2]
        used = first != blank
        alone = second == blank
        head = np.where(used, np.arange(v0, v1)[:, None], k)
        suffix1 = np.where(used, (first != n) * 2 + alone, no_suffix)
        suffix2 = np.where(alone, no_suffix, 3)  # a second entry is never the objective: value 1, line end
        write_ascii(out, assemble_items(nv * (slots // 2), [
            (heads, head.ravel()), (names.table, first.ravel()), (suffixes, suffix1.ravel()),
            (names.table, second.ravel()), (suffixes, suffix2.ravel())]))
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
    # few distinct right-hand sides: each is a suffix of its own
    values_list, which = distinct(values)
    suffixes = style.suffixes([str(v) for v in values_list])
    no_suffix = suffixes.shape[0] - 1
    heads = _const("    RHS       " if style.fixed else " RHS ")
    step = CHUNK // 8  # even: the pairs of one line stay together
    for start, stop in chunks(where.shape[0], step):
        nl = (stop - start + 1) // 2
        first = where[start:stop:2]
        second = np.full(nl, names.blank, dtype=np.int64)
        second[:(stop - start) // 2] = where[start + 1:stop:2]
        alone = second == names.blank
        suffix2 = np.full(nl, no_suffix, dtype=np.int64)
        suffix2[~alone] = which[start + 1:stop:2] * 2 + 1
        write_ascii(out, assemble_items(nl, [(heads, None), (names.table, first),
                                             (suffixes, which[start:stop:2] * 2 + alone),
                                             (names.table, second), (suffixes, suffix2)]))


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
    _rows_section(style, model, names, out)
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
                aliases=("free-mps",), write_options=("mines",))
register_format("fixed-mps", [".mps"], "model", writer=write_fixed_mps, detect=_detect_fixed,
                description="fixed MPS, names up to 8 characters (glpsol --mps, cbc, HiGHS, lp_solve -mps)",
                write_options=("mines",))
