"""The puzzle files of jolyonb's blog_puzzles ASP solvers (examples/minesweeper*.txt).

    .2...#          the grid: 0-8 a count, '.' an unknown cell, '*' a known mine,
    ..32.#          '#' an excluded cell (no mine, no count: mineconv's known safe '.')
    .2..2*
                    a blank line ends the grid; then settings and comments
    # Unique solution: ...
    mine_count=8    the total number of mines (the blog's solver ignores 0, and so does this reader)

Every grid line must have the same length; '#' lines after the grid become notes; the only setting is
mine_count. A bare grid of '.' and digits is this notation and the dot notation alike (both read '.' as
unknown), so detection claims it only weakly; a '#' cell or a mine_count line is particular to it.
Read only.
"""
from __future__ import annotations

import re
from typing import List, Optional

from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..grid_rows import decode, symbol_table
from ..registry import LIKELY, NO, WEAK, register_format
from .pasted_grids import fail, lines_with_offsets, puzzle_at

_TABLE = symbol_table({**{str(d): str(d) for d in range(9)}, ".": "?", "*": "*", "#": "."})
_ROW = re.compile(r"[0-8.*#]+")
_SETTING = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)")


def read_blog_text(text: str, source: str = "<string>") -> Puzzle:
    """Parse a blog-puzzle grid with its settings block."""
    text = normalise_newlines(text)
    lines = lines_with_offsets(text)
    rows: List[str] = []
    starts: List[int] = []
    i = 0
    while i < len(lines) and not lines[i][1].strip() and not rows:
        i += 1   # leading blank lines
    while i < len(lines) and lines[i][1].strip():
        off, line = lines[i]
        line = line.rstrip(" \t")
        cells, bad = decode(line, _TABLE)
        if cells is None:
            raise fail(f"{line[bad]!r} is not a grid cell (0-8 count, '.' unknown, '*' mine, '#' excluded); "
                       "a blank line must separate the grid from settings and comments", text, off + bad, source)
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} (the grid must be "
                       "rectangular)", text, off + min(len(cells), len(rows[0])), source)
        rows.append(cells)
        starts.append(off)
        i += 1
    if not rows:
        raise fail("no grid rows found", text, len(text), source)
    notes: List[str] = []
    mines: Optional[int] = None
    mines_at = 0
    for off, line in lines[i:]:
        s = line.strip()
        if not s:
            continue
        lead = len(line) - len(line.lstrip())
        if s.startswith("#"):
            notes.append(s[1:].strip())
            continue
        m = _SETTING.fullmatch(s)
        if m is None:
            raise fail("expected a '# comment' or a setting 'mine_count=N' after the grid", text, off + lead, source)
        if m.group(1) != "mine_count":
            raise fail(f"unknown setting {m.group(1)!r} (the only one is mine_count)", text, off + lead, source)
        if mines_at:
            raise fail("mine_count is given twice", text, off + lead, source)
        if not re.fullmatch(r"[0-9]+", m.group(2).strip()):
            raise fail(f"mine_count needs a whole number >= 0, got {m.group(2).strip()!r}", text,
                       off + lead + m.start(2), source)
        mines_at = off + lead
        value = int(m.group(2))
        mines = value if value > 0 else None   # the blog's solver takes 0 as "no constraint"
    return puzzle_at(rows, lambda r, c: starts[r] + c, text, source, mines=mines, mines_offset=mines_at,
                     notes=notes)


def detect_blog_text(text: str) -> float:
    """LIKELY with a '#' cell or a mine_count line; WEAK for a bare grid of '.', '*' and digits."""
    lines = normalise_newlines(text[:8000]).split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    grid: List[str] = []
    while i < len(lines) and lines[i].strip():
        row = lines[i].rstrip(" \t")
        if not _ROW.fullmatch(row) or (grid and len(row) != len(grid[0])):
            return NO
        grid.append(row)
        i += 1
    if not grid:
        return NO
    has_setting = False
    for line in lines[i:]:
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if re.fullmatch(r"mine_count[ \t]*=[ \t]*[0-9]+", s):
            has_setting = True
            continue
        return NO
    if has_setting or any("#" in row for row in grid):
        return LIKELY
    return WEAK


register_format("blog-text", reader=read_blog_text, detect=detect_blog_text,
                description="blog-puzzle grid: '.' unknown, 0-8, '*' mine, '#' excluded; blank line, '# notes', "
                            "mine_count=N")
