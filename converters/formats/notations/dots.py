"""The dot notation of the Gecode / hakank Minesweeper problem sets (.dots, or detected by content).

Gecode's examples/minesweeper.cc gives each board as rows of characters, '.' an unknown cell (or a
mine) and a digit the count shown; hakank's problem files (read by his OR-tools, JaCoP, Choco,
MiniZinc... models, and named minesweeper_*.txt) put the number of rows and of columns on the first
two lines, after optional '#' or '%' comment lines and before comments or a licence block:

    # Problem from Gecode/examples/minesweeper.cc  problem 0
    6
    6
    ..2.3.
    2.....

Detection: LIKELY when the two count lines match the grid under them, POSSIBLE for a bare grid of '.'
and digits. A bare grid is also valid native text, where '.' means a known safe cell: the registry reads
it both ways, prefers the reading with unknown cells (this one) and warns. Rows copied from C or Python
source as "..2.3." (quotes, optional trailing comma) are accepted too, and '#' or '%' comment lines are
kept as notes. The writer produces hakank's layout, which his readers take as is. The notation has no
known mines, no known safe cells, no total mine count and no name: the writer turns the first two into
'.' and warns.
"""
from __future__ import annotations

import re
from typing import Any, List, TextIO, Tuple

from ...core.errors import PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines, parser, syntax_error
from ..grid_rows import decode, lost_parts, symbol_table
from ..registry import LIKELY, NO, POSSIBLE, WEAK, register_format
from .parse_trees import line_column, rules, terminal

_TABLE = symbol_table({**{str(d): str(d) for d in range(9)}, ".": "?"})
_QUOTED = re.compile(r'"([^"]*)"[ \t]*,?')
_OUT = str.maketrans({"?": ".", "*": ".", ".": "."})
_ROW = re.compile(r"[.0-8]+")
_COUNT = re.compile(r"[0-9]{1,9}")
_COMMENT = ("#", "%")


def read_dots(text: str, source: str = "<string>") -> Puzzle:
    """Parse the dot notation, with or without hakank's row and column count lines."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser("dots").parse(body)
    except UnexpectedInput as exc:
        raise syntax_error(exc, body, source, "dot-notation puzzle") from None
    lines = body.split("\n")

    def fail(msg: str, line: int, col: int) -> PuzzleSyntaxError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=col, line_text=lines[line - 1])

    notes: List[str] = []
    found: List[Tuple[int, int, str]] = []  # (line, column, text) of each non-comment line
    for item in rules(tree):
        tok = terminal(item, 0)
        if item.data == "comment":
            s = str(tok).lstrip(" \t")[1:]
            notes.append(s[1:] if s.startswith(" ") else s)
            continue
        raw = str(tok)
        s = raw.strip(" \t")
        line, column = line_column(tok)
        col = column + len(raw) - len(raw.lstrip(" \t"))
        m = _QUOTED.fullmatch(s)
        if m:
            s, col = m.group(1), col + 1
        found.append((line, col, s))
    if not found:
        raise PuzzleSyntaxError("no grid rows found", source=source, line=max(1, len(lines) - 1), column=1)
    if len(found) >= 3 and _COUNT.fullmatch(found[0][2]) and _COUNT.fullmatch(found[1][2]):
        want_r, want_c = int(found[0][2]), int(found[1][2])
        grid = found[2:]
        as_rows_ok = len({len(f[2]) for f in found}) == 1
        if (want_r, want_c) == (len(grid), len(grid[0][2])) or not as_rows_ok:
            if want_r != len(grid):
                raise fail(f"the first line says {plural(want_r, 'row')} but {len(grid)} "
                           "follow", found[0][0], found[0][1])
            if want_c != len(grid[0][2]):
                raise fail(f"the second line says {plural(want_c, 'column')} but the first row has {len(grid[0][2])}",
                           found[1][0], found[1][1])
            found = grid
    rows: List[str] = []
    for line, col, s in found:
        cells, bad = decode(s, _TABLE)
        if cells is None:
            raise fail(f"{s[bad]!r} is not a cell of the dot notation ('.' unknown, 0-8 a count)", line, col + bad)
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} (the grid must be "
                       "rectangular)", line, col)
        rows.append(cells)
    try:
        return Puzzle.from_rows(rows, notes=notes)
    except PuzzleError as exc:
        r, c = exc.cell if exc.cell is not None else (0, 0)
        line, col, _ = found[r]
        raise fail(exc.message, line, col + c) from None


def write_dots(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write hakank's layout: the row count, the column count, then the rows."""
    out.write(f"{puzzle.rows}\n{puzzle.cols}\n" + "\n".join(puzzle.grid_lines).translate(_OUT) + "\n")


def detect_dots(text: str) -> float:
    """LIKELY when hakank's two count lines match the grid, POSSIBLE for a bare grid of '.' and digits."""
    head = text[:1 << 16]
    lines = normalise_newlines(head).split("\n")
    cut = len(head) < len(text)
    if cut:
        lines.pop()  # cut short: the last line's width says nothing
    found = []
    for line in lines:
        t = line.strip(" \t")
        if not t or t.startswith(_COMMENT):
            continue
        m = _QUOTED.fullmatch(t)
        found.append(m.group(1) if m else t)
    if len(found) >= 3 and _COUNT.fullmatch(found[0]) and _COUNT.fullmatch(found[1]):
        want_r, want_c, grid = int(found[0]), int(found[1]), found[2:]
        if not all(_ROW.fullmatch(g) for g in grid):
            return NO
        if all(len(g) == want_c for g in grid) and (len(grid) <= want_r if cut else len(grid) == want_r):
            return LIKELY
        if len({len(g) for g in found}) > 1:
            return POSSIBLE  # hakank's layout with wrong counts: the reader says which count is off
    if not found or not all(_ROW.fullmatch(g) for g in found) or len({len(g) for g in found}) > 1:
        return NO
    # a grid without '.' has no unknown cell: it reads the same in every notation that fits it
    return POSSIBLE if any("." in g for g in found) else WEAK


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    return lost_parts(puzzle, mines_as="'.', unknown", safe_as="'.', unknown")


register_format("dots", reader=read_dots, writer=write_dots, detect=detect_dots, losses=_losses,
                description="Gecode/hakank dots: '.' unknown, 0-8 counts; optional row/col count lines")
