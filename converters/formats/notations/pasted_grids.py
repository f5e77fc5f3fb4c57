"""Helpers the pasted-grid notations share (int matrices, quoted rows, ASCII grids, LeetCode, kata, ...).

Each of those readers knows, for every cell it read, the character offset of that cell in the input; the
helpers here turn the model's own complaints (a count larger than its neighbours, a total larger than the
board) into errors located at that offset, and split source text into located lines.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

from ...core.errors import MineconvError, PuzzleError
from ...core.puzzle import Puzzle
from ..located_errors import error_at

Where = Callable[[int, int], int]   # (row, col) of the grid -> character offset in the text


def puzzle_at(rows: Sequence[str], where: Where, text: str, source: Optional[str], *,
              mines: Optional[int] = None, mines_offset: int = 0, name: Optional[str] = None,
              notes: Iterable[str] = ()) -> Puzzle:
    """Puzzle.from_rows, with the model's errors located in text (at the cell, or at the total's offset)."""
    try:
        return Puzzle.from_rows(rows, mines=mines, name=name, notes=tuple(notes))
    except PuzzleError as exc:
        if exc.cell is not None:
            r, c = exc.cell
            raise error_at(exc.message, text, where(r, min(c, len(rows[r]) - 1)), source) from None
        raise error_at(exc.message, text, mines_offset, source) from None


def lines_with_offsets(text: str) -> List[Tuple[int, str]]:
    """(offset of the line's first character, line without its '\\n') for every line of text."""
    out: List[Tuple[int, str]] = []
    pos = 0
    for line in text.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


def fail(message: str, text: str, offset: int, source: Optional[str]) -> MineconvError:
    """A syntax error located at a character offset (a short alias the readers use everywhere)."""
    return error_at(message, text, offset, source)


_TOKEN = re.compile(r"""
    (?P<ws>[ \t\n]+)
  | (?P<comment>\#[^\n]*|//[^\n]*|%[^\n]*|/\*.*?\*/)
  | (?P<num>[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<str>'[^'\n]*'|"[^"\n]*")
  | (?P<open>[\[{(])
  | (?P<close>[\]})])
  | (?P<punct>[,;=:])
""", re.X | re.S)

Token = Tuple[str, str, int]   # (kind, text, offset): kinds comment num name str open close punct


def code_tokens(text: str, source: Optional[str], what: str) -> List[Token]:
    """The tokens of a pasted code snippet (numbers, names, quoted strings, brackets, comments), no blanks.

    Nothing is evaluated; a character no token starts with is an error located at it.
    """
    out: List[Token] = []
    pos, n = 0, len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            raise fail(f"unexpected character {text[pos]!r} in {what}", text, pos, source)
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group(), pos))
        pos = m.end()
    return out


def comment_note(comment: str) -> str:
    """The text of a '#', '//', '%' or '/* */' comment, blanks collapsed."""
    if comment.startswith("/*"):
        body = comment[2:-2]
    elif comment.startswith("//"):
        body = comment[2:]
    else:
        body = comment[1:]
    return " ".join(body.split())
