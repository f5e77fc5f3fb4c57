"""JSMinesweeper position files (.mine), as David Hill's JSMinesweeper saves and loads them.

    30x16x99          width x height x total mines (known mines included)
    HHH1F1HH...       height rows of width characters

Cells, as JSMinesweeper's loader (newBoardFromString) reads them: 0-8 a revealed count, H hidden,
F (also M and O) a flag, I a hidden cell already known to be a mine; the last three are treated here
as known mines, like F. The files its writers write hold more:
- '?' is what JSMinesweeper's "save position" (Board.getPositionData) writes for a mine shown after a
  lost game; its loader reads it back as a hidden cell, and so does this reader (unknown).
- lower-case 'h' and 'm' come from David Hill's Java solver (GameStateReader): 'h' hidden, 'm' a mine
  not flagged (read here as a known mine, like 'M').
- 'MSG:' lines after the last row carry a message with the position; each is kept as a note
  ("MSG: text"), and the writer writes such notes back the same way.
JSMinesweeper takes any other character, and a missing one at the end of a short row, as hidden: this
reader reports them instead, because a typo that silently becomes an unknown cell changes the puzzle.
Other lines after the last row are ignored by JSMinesweeper; here only blank ones are allowed. The
writer emits what JSMinesweeper's "save position" writes: 0-8, H and F (plus the MSG notes).
"""
from __future__ import annotations

import re
from typing import Any, List, TextIO

from ...core.errors import FormatError, PuzzleError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines, parser, syntax_error
from ..grid_rows import decode, lost_parts, symbol_table
from ..registry import register_format
from .parse_trees import line_column, rules, terminal

_TABLE = symbol_table({**{str(d): str(d) for d in range(9)}, "H": "?", "F": "*", "M": "*", "O": "*", "I": "*",
                       "h": "?", "m": "*", "?": "?"})
_MSG = "MSG:"
_OUT = str.maketrans({"?": "H", "*": "F", ".": "H"})


def read_jsmines(text: str, source: str = "<string>") -> Puzzle:
    """Parse a JSMinesweeper position file."""
    text = normalise_newlines(text)
    body = text if text.endswith("\n") else text + "\n"
    from lark.exceptions import UnexpectedInput
    try:
        tree = parser("jsmines").parse(body)
    except UnexpectedInput as exc:
        err = syntax_error(exc, body, source, "a JSMinesweeper file")
        if err.line == 1:
            err.message = "the first line must be the header WIDTHxHEIGHTxMINES, e.g. 30x16x99"
            err.column = 1
        raise err from None
    lines = body.split("\n")

    def fail(msg: str, line: int, col: int) -> PuzzleSyntaxError:
        return PuzzleSyntaxError(msg, source=source, line=line, column=col, line_text=lines[line - 1])

    head, *items = rules(tree)
    width, height, mines = (int(v) for v in re.findall(r"[0-9]+", str(terminal(head, 0))))
    if width < 1 or height < 1:
        raise fail(f"the board must be at least 1 x 1, the header says {width} x {height}", 1, 1)
    rows: List[str] = []
    notes: List[str] = []
    for item in items:
        tok = terminal(item, 0)
        line, column = line_column(tok)
        if item.data == "msg":
            if len(rows) < height:
                raise fail(f"a {_MSG} line where row {len(rows) + 1} of {height} should be", line, 1)
            notes.append(_MSG + " " + str(tok)[len(_MSG):].strip())
            continue
        if notes:
            raise fail(f"only blank lines and {_MSG} lines may follow the {_MSG} line", line, 1)
        if len(rows) == height:
            raise fail(f"more rows than the {height} the header announces", line, column)
        if line != len(rows) + 2:
            raise fail(f"a blank line where row {len(rows) + 1} of {height} should be", len(rows) + 2, 1)
        s = str(tok)
        cells, bad = decode(s, _TABLE)
        if cells is None:
            raise fail(f"{s[bad]!r} is not a JSMinesweeper cell (0-8 count, H/h/? hidden, F/M/m/O/I mine)",
                       line, bad + 1)
        if len(cells) != width:
            raise fail(f"row {len(rows) + 1} has {plural(len(cells), 'cell')}, the header says the board "
                       f"is {width} wide",
                       line, min(len(cells), width) + 1)
        rows.append(cells)
    if len(rows) < height:
        line = len(rows) + 2
        raise fail(f"only {plural(len(rows), 'row')}, the header says {height}", min(line, len(lines)), 1)
    try:
        return Puzzle.from_rows(rows, mines=mines, notes=notes)
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            raise fail(exc.message, r + 2, c + 1) from None
        raise fail(exc.message, 1, 1) from None


def write_jsmines(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the header and the rows (known safe cells become H: JSMinesweeper has no such cell)."""
    if puzzle.mines is None:
        raise FormatError("a JSMinesweeper file must state the total number of mines and this puzzle has none; "
                          "give it with --mines N")
    out.write(f"{puzzle.cols}x{puzzle.rows}x{puzzle.mines}\n")
    out.write("\n".join(puzzle.grid_lines).translate(_OUT) + "\n")
    for note in _msg_notes(puzzle):
        out.write(note + "\n")


def _msg_notes(puzzle: Puzzle) -> List[str]:
    return [n for n in puzzle.notes if n.startswith(_MSG)]


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    others = tuple(n for n in puzzle.notes if not n.startswith(_MSG))
    return lost_parts(puzzle.replace(notes=others), mines_as=None, safe_as="hidden", total=False)


def detect_jsmines(text: str) -> bool:
    """True when the first line is a WxHxM header and the next is a row of JSMinesweeper cells."""
    lines = normalise_newlines(text[:20000]).split("\n")
    return (len(lines) > 1 and re.fullmatch(r"[ \t]*[0-9]+[ \t]*x[ \t]*[0-9]+[ \t]*x[ \t]*[0-9]+[ \t]*", lines[0]) is not None
            and re.fullmatch(r"[0-8HFMOIhm?]+", lines[1]) is not None)


register_format("mine", reader=read_jsmines, writer=write_jsmines, detect=detect_jsmines, losses=_losses,
                description="JSMinesweeper position: WxHxM header, rows of 0-8, H/h/? hidden, F/M/m flagged or known "
                            "mine, trailing MSG: lines")
