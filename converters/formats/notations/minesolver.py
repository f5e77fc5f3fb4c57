"""The text boards of LewisGaul's minesolver (its Zig solver's example*.txt, its Python Board.from_str).

    # # 1            one row per line, cells separated by blanks:
    3 # 2            '#' an unclicked (unknown) cell, 0-8 a number shown, '.' another way to write 0
    # # #            (the number 0 is not normally shown), '*' a mine (revealed or flagged), and the
                     Python side's F (flag), M (mine), ! (the mine hit), each optionally followed by 1

Blank lines between rows only group them for the eye (the project's 30 x 16 example has one every four
rows): the board is every non-blank line. A mine cell with a count above 1 (`*2`, `F3`: the solver's
--per-cell mode) and X (a wrong flag) have no place in mineconv's model and are located errors. The file
states no total (the solver takes --mines): none is read. Writer: the same layout, '#' unknown, '.'
for 0, '*' a known mine; a known safe cell without a count has no symbol and is written '#'.

Detection by content: rows of blank-separated cells with a '#' among them. '.' means 0 here and an
unknown cell in the dot notations, and a leading '#' starts a comment in native text: the registry
compares the readings and names the others' --from when they differ.
"""
from __future__ import annotations

import re
from typing import Any, List, TextIO

from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..grid_rows import lost_parts
from ..registry import LIKELY, NO, POSSIBLE, register_format
from .pasted_grids import fail, lines_with_offsets, puzzle_at

_CELL = {"#": "?", ".": "0", "*": "*", "F": "*", "M": "*", "!": "*", **{str(d): str(d) for d in range(9)}}
_MINES = "*FM!"
_TOKEN = re.compile(r"\S+")
_WHAT = "a minesolver cell ('#' unclicked, 0-8 or '.' a number, '*', F, M or ! a mine)"
_CELLTOK = re.compile(r"[#.0-8]|[*FM!][1-9]?")


def _cell(tok: str, text: str, off: int, source: str) -> str:
    if tok in _CELL:
        return _CELL[tok]
    if len(tok) == 2 and tok[0] in _MINES and tok[1].isdigit():
        if tok[1] == "1":
            return "*"
        raise fail(f"{tok!r} is {plural(int(tok[1]), 'mine')} in one cell (minesolver's --per-cell mode): a "
                   "mineconv board holds at most one mine per cell", text, off, source)
    if tok[:1] == "X" and tok[1:] in ("", "1"):
        raise fail("'X' (a wrong flag, shown after a lost game) is not read: write '#' (unknown) or the "
                   "number the cell hides", text, off, source)
    raise fail(f"{tok[:20]!r} is not {_WHAT}", text, off, source)


def read_minesolver(text: str, source: str = "<string>") -> Puzzle:
    """Parse a minesolver board: blank-separated cells, '#' unknown, '.' or 0-8 numbers, '*'/F/M/! mines."""
    text = normalise_newlines(text)
    rows: List[str] = []
    offs: List[List[int]] = []
    for start, line in lines_with_offsets(text):
        cells = [(m.group(), start + m.start()) for m in _TOKEN.finditer(line)]
        if not cells:
            continue
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} (the board "
                       "must be rectangular)", text, start, source)
        rows.append("".join(_cell(tok, text, off, source) for tok, off in cells))
        offs.append([off for _, off in cells])
    if not rows:
        raise fail("no board rows found", text, len(text), source)
    return puzzle_at(rows, lambda r, c: offs[r][c], text, source)


def write_minesolver(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the board as minesolver reads it: '#' unknown, '.' 0, 1-8, '*' a known mine."""
    table = str.maketrans({"?": "#", "0": ".", ".": "#"})
    out.write("".join(" ".join(puzzle.row(r).translate(table)) + "\n" for r in range(puzzle.rows)))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    if puzzle.stats["known_safe"]:
        lost.append(f"{plural(puzzle.stats['known_safe'], 'known safe cell')} without a count (written as "
                    "'#', unknown)")
    if puzzle.mines is not None:
        lost.append(f"the total mine count ({puzzle.mines}; give it to the solver as --mines)")
    return lost + lost_parts(puzzle, mines_as=None, safe_as=None, total=False)


def detect_minesolver(text: str) -> float:
    """LIKELY for blank-separated cells with a '#' among them (one odd cell in ten allowed, so that the
    reader can say which); POSSIBLE for such rows with '.' but no '#'."""
    lines = [ln for ln in normalise_newlines(text[:8000]).split("\n") if ln.strip()]
    if len(text) > 8000 and lines:
        lines.pop()     # cut short: the last line's width says nothing
    rows = [ln.split() for ln in lines[:100]]
    if not rows or len({len(r) for r in rows}) != 1 or len(rows[0]) < 2:
        return NO
    cells = [tok for r in rows for tok in r]
    odd = [tok for tok in cells if not _CELLTOK.fullmatch(tok)]
    if any(len(tok) > 2 for tok in odd) or len(odd) > max(1, len(cells) // 10):
        return NO
    if "#" in cells:
        return LIKELY
    return POSSIBLE if "." in cells and not odd else NO


register_format("minesolver", reader=read_minesolver, writer=write_minesolver,
                detect=detect_minesolver, losses=_losses,
                description="LewisGaul's minesolver board: blank-separated cells, '#' unclicked, '.' or 0-8 a "
                            "number, '*' F M ! a mine")
