"""Boxed and pipe ASCII grids, as pasted from web pages, exercises and Markdown tables.

    +---+---+---+        | 1 |   | 2 |        1 | 2 | ?
    | 1 |   | 2 |        |---|---|---|        --+---+--
    +---+---+---+        | ? | * | 1 |        ? | * | 1
    | ? | * | 1 |
    +---+---+---+

Rule lines (made of - = + | : and blanks, like +---+---+ or -+-+- or |---|---|) are skipped; every
other grid line is split on '|' (a leading and a trailing bar are borders). A cell holds 0-8 (a count),
'?' or '#' (unknown), '*', 'X', 'F' or 'M' (a mine), or nothing. An empty cell, and '.', means an
unknown cell on some sites and a revealed 0 on others, so the `blank` option (the CLI's --blank) says
which: `unknown` or `zero`; a grid with such cells read without it is an error naming the first one.
Lines before and after the grid ('#' comments, captions) become notes. Read only.
"""
from __future__ import annotations

import re
from typing import List, Optional

from ...core.errors import FormatError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..registry import LIKELY, NO, POSSIBLE, register_format
from .pasted_grids import fail, lines_with_offsets, puzzle_at

_RULE = re.compile(r"[ \t]*[-=+|:]*[-=][-=+|: \t]*")
_CELLS = {**{str(d): str(d) for d in range(9)}, "?": "?", "#": "?", "*": "*", "X": "*", "x": "*", "F": "*",
          "M": "*"}
_BLANK = {"unknown": "?", "zero": "0"}


def read_ascii_grid(text: str, source: str = "<string>", blank: Optional[str] = None) -> Puzzle:
    """Parse a boxed or pipe grid; `blank` ('unknown' or 'zero') says what an empty or '.' cell is."""
    if blank is not None and str(blank).strip().lower() not in _BLANK:
        raise FormatError(f"--blank must be 'unknown' or 'zero', not {blank!r}", source=source)
    empty = _BLANK.get(str(blank).strip().lower()) if blank is not None else None
    text = normalise_newlines(text)
    rows: List[str] = []
    offs: List[List[int]] = []
    notes: List[str] = []
    grid_over = False
    last_grid_line = -1
    lines = lines_with_offsets(text)
    for n, (start, line) in enumerate(lines):
        if "|" not in line:
            if _RULE.fullmatch(line) and line.strip():
                if rows:
                    last_grid_line = n
                continue
            if line.strip():
                if rows:
                    grid_over = True
                notes.append(line.strip().lstrip("#").strip())
            continue
        if _RULE.fullmatch(line):
            continue
        if grid_over:
            raise fail("a grid line after text that followed the grid: this notation reads one grid per file",
                       text, start, source)
        if rows and last_grid_line >= 0 and n > last_grid_line + 1 and not all(
                _RULE.fullmatch(lines[k][1]) or not lines[k][1].strip() for k in range(last_grid_line + 1, n)):
            raise fail("a second grid", text, start, source)
        parts = line.split("|")
        pos = start
        fields = []
        for p in parts:
            fields.append((p, pos))
            pos += len(p) + 1
        if not fields[0][0].strip():
            fields = fields[1:]            # the left border
        if fields and not fields[-1][0].strip() and line.rstrip().endswith("|"):
            fields = fields[:-1]           # the right border
        row, where = [], []
        for body, at in fields:
            s = body.strip()
            col = at + (len(body) - len(body.lstrip()) if s else len(body) // 2)
            if s in ("", "."):
                if empty is None:
                    raise fail("an empty cell: on some sites it is unknown, on others a revealed 0; say which "
                               "with --blank unknown or --blank zero", text, col, source)
                row.append(empty)
            elif s in _CELLS:
                row.append(_CELLS[s])
            else:
                raise fail(f"{s!r} is not a grid cell (0-8, '?' unknown, '*'/X/F/M mine, blank or '.')", text, col,
                           source)
            where.append(col)
        if rows and len(row) != len(rows[0]):
            raise fail(f"this row has {plural(len(row), 'cell')}, the first row has {len(rows[0])} (the grid must be "
                       "rectangular)", text, start, source)
        rows.append("".join(row))
        offs.append(where)
        last_grid_line = n
    if not rows:
        raise fail("no grid lines with '|' found", text, len(text), source)
    return puzzle_at(rows, lambda r, c: offs[r][c], text, source, notes=notes)


def detect_ascii_grid(text: str) -> float:
    """LIKELY for a boxed grid (+---+ rules around | rows); POSSIBLE for rows of |-separated cells."""
    lines = [ln for ln in normalise_newlines(text[:8000]).split("\n") if ln.strip()]
    cell_lines = [ln for ln in lines if "|" in ln and not _RULE.fullmatch(ln)]
    if not cell_lines:
        return NO
    widths = set()
    for ln in cell_lines:
        parts = [p.strip() for p in ln.strip().strip("|").split("|")]
        if any(p not in _CELLS and p not in ("", ".") for p in parts):
            return NO
        widths.add(len(parts))
    if len(widths) != 1 or widths == {1}:
        return NO
    if any(_RULE.fullmatch(ln) for ln in lines):
        return LIKELY
    return POSSIBLE


register_format("ascii-grid", reader=read_ascii_grid, detect=detect_ascii_grid,
                read_options={"blank": "what an empty (or '.') cell of a boxed / pipe ASCII grid is: unknown or "
                                       "zero (required when the grid has such cells)"},
                description="boxed / pipe ASCII grid: +---+ rules skipped, cells split on '|' (--blank "
                            "unknown|zero)")
