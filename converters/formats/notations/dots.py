"""The dot notation of the Gecode / hakank Minesweeper problem sets (.dots or --from dots; no content detection).

Gecode's examples/minesweeper.cc gives each board as rows of characters, '.' an unknown cell (or a
mine) and a digit the count shown; hakank's problem files (read by his OR-tools, JaCoP, Choco...
models) put the number of rows and of columns on the first two lines:

    6
    6
    ..2.3.
    2.....

The content is never used to guess this notation (it is also valid native text, where '.' means a
known safe cell): name it with --from dots, or use the .dots extension. Both layouts are read; rows copied from C or Python source as "..2.3." (quotes, optional trailing
comma) are accepted too, and '#' or '%' comment lines are kept as notes. The writer produces hakank's
layout, which his readers take as is. The notation has no known mines, no known safe cells, no
total mine count and no name: the writer turns the first two into '.' and warns.
"""
from __future__ import annotations

import re
from typing import Any, List, TextIO, Tuple

from lark.exceptions import UnexpectedInput

from ...errors import PuzzleError, PuzzleSyntaxError
from ...grammar import normalise_newlines, parser, syntax_error
from ...model.puzzle import Puzzle
from ...registry import register_format
from .._rows import decode, lost_parts, symbol_table

_TABLE = symbol_table({**{str(d): str(d) for d in range(9)}, ".": "?"})
_QUOTED = re.compile(r'"([^"]*)"[ \t]*,?')
_OUT = str.maketrans({"?": ".", "*": ".", ".": "."})


def read_dots(text: str, source: str = "<string>") -> Puzzle:
    """Parse the dot notation, with or without hakank's row and column count lines."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    try:
        tree = parser("dots").parse(body)
    except UnexpectedInput as exc:
        raise syntax_error(exc, body, source, "dot-notation puzzle") from None
    lines = body.split("\n")

    def fail(msg: str, line: int, col: int) -> PuzzleSyntaxError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=col, line_text=lines[line - 1])

    notes: List[str] = []
    found: List[Tuple[int, int, str]] = []  # (line, column, text) of each non-comment line
    for item in tree.children:
        tok = item.children[0]
        if item.data == "comment":
            s = str(tok).lstrip(" \t")[1:]
            notes.append(s[1:] if s.startswith(" ") else s)
            continue
        raw = str(tok)
        s = raw.strip(" \t")
        col = tok.column + len(raw) - len(raw.lstrip(" \t"))
        m = _QUOTED.fullmatch(s)
        if m:
            s, col = m.group(1), col + 1
        found.append((tok.line, col, s))
    if not found:
        raise PuzzleSyntaxError("no grid rows found", source=source, line=max(1, len(lines) - 1), column=1)
    if len(found) >= 3 and found[0][2].isdigit() and found[1][2].isdigit():
        want_r, want_c = int(found[0][2]), int(found[1][2])
        grid = found[2:]
        as_rows_ok = len({len(f[2]) for f in found}) == 1
        if (want_r, want_c) == (len(grid), len(grid[0][2])) or not as_rows_ok:
            if want_r != len(grid):
                raise fail(f"the first line says {want_r} rows but {len(grid)} follow", found[0][0], found[0][1])
            if want_c != len(grid[0][2]):
                raise fail(f"the second line says {want_c} columns but the first row has {len(grid[0][2])}",
                           found[1][0], found[1][1])
            found = grid
    rows: List[str] = []
    for line, col, s in found:
        cells, bad = decode(s, _TABLE)
        if cells is None:
            raise fail(f"{s[bad]!r} is not a cell of the dot notation ('.' unknown, 0-8 a count)", line, col + bad)
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {len(cells)} cells, the first row has {len(rows[0])} (the grid must be "
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
    out.write(f"{puzzle.rows}\n{puzzle.cols}\n" + "\n".join(puzzle.grid_lines()).translate(_OUT) + "\n")


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    return lost_parts(puzzle, mines_as="'.', unknown", safe_as="'.', unknown")


register_format("dots", [".dots"], "puzzle", reader=read_dots, writer=write_dots, losses=_losses, autodetect=False,
                aliases=("gecode", "hakank"),
                description="Gecode/hakank dots: '.' unknown, 0-8 counts; optional row/col count lines (--from dots)")
