"""The ASCII boards of mrgriscom's minesweepr solver (minesweeper_util.Board, read_board_file).

    ...2x            one row per line (minesweepr splits the text at any blank):
    .113x            '.' a blank, i.e. an opened 0; 'x' an unknown cell; '*' a mine; 1-8 a count
    .2*xx
    13*xx
    xxxxx

The total number of mines is not part of the board (minesweepr takes it beside the board): none is
read. Writer: the same layout; a known safe cell without a count has no symbol and is written 'x'.

Detection by content: rows of '.', 'x', '*' and digits with an 'x' and a '.' among them. Without an 'x' such a
grid has nothing to solve here, while the dot notations read its '.' as unknown cells: it is theirs, and
`--from minesweepr` reads it this way.
"""
from __future__ import annotations

import re
from typing import Any, List, TextIO

from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..grammar import normalise_newlines
from ..grid_rows import decode, lost_parts, symbol_table
from ..registry import LIKELY, NO, register_format
from .pasted_grids import fail, lines_with_offsets, puzzle_at

_TABLE = symbol_table({".": "0", "x": "?", "*": "*", **{str(d): str(d) for d in range(9)}})
_ODD = re.compile(r"[^.x*0-8]")
_WHAT = "a minesweepr cell ('.' blank, 'x' unknown, '*' mine, 1-8)"


def read_minesweepr(text: str, source: str = "<string>") -> Puzzle:
    """Parse a minesweepr board: rows of '.' (0), 'x' (unknown), '*' (mine) and counts, split at blanks."""
    text = normalise_newlines(text)
    rows: List[str] = []
    offs: List[int] = []
    for start, line in lines_with_offsets(text):
        for m in re.finditer(r"\S+", line):
            word, off = m.group(), start + m.start()
            cells, bad = decode(word, _TABLE)
            if cells is None:
                raise fail(f"{word[bad]!r} is not {_WHAT}", text, off + bad, source)
            if rows and len(cells) != len(rows[0]):
                raise fail(f"this row has {plural(len(cells), 'cell')}, the first row has {len(rows[0])} (the "
                           "board must be rectangular)", text, off, source)
            rows.append(cells)
            offs.append(off)
    if not rows:
        raise fail("no board rows found", text, len(text), source)
    return puzzle_at(rows, lambda r, c: offs[r] + c, text, source)


def write_minesweepr(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the board as minesweepr reads it: '.' 0, 'x' unknown, '*' a known mine, 1-8."""
    table = str.maketrans({"?": "x", "0": ".", ".": "x"})
    out.write("".join(puzzle.row(r).translate(table) + "\n" for r in range(puzzle.rows)))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    if puzzle.stats["known_safe"]:
        lost.append(f"{plural(puzzle.stats['known_safe'], 'known safe cell')} without a count (written as "
                    "'x', unknown)")
    if puzzle.mines is not None:
        lost.append(f"the total mine count ({puzzle.mines}; minesweepr takes it beside the board)")
    return lost + lost_parts(puzzle, mines_as=None, safe_as=None, total=False)


def detect_minesweepr(text: str) -> float:
    """LIKELY for rows of '.', 'x', '*' and digits of one width with 'x' and '.' among them (one odd letter in ten
    allowed, so that the reader can say which: minesweepr's README tags cells A, B, ... for illustration)."""
    head = normalise_newlines(text[:8000])
    rows = head.split()
    if len(head) < len(text) and rows:
        rows.pop()     # cut short: the last row's width says nothing
    rows = rows[:200]
    # both of its own symbols: 'x' (unknown) and '.' (an opened blank), as a game in progress shows them
    if not rows or len({len(r) for r in rows}) != 1 or not any("x" in r for r in rows) or not any("." in r for r in rows):
        return NO
    odd = sum(len(_ODD.findall(r)) for r in rows)
    if odd > max(1, sum(map(len, rows)) // 10) or not all(re.fullmatch(r"[.x*0-8A-Za-z]+", r) for r in rows):
        return NO
    return LIKELY


register_format("minesweepr", reader=read_minesweepr, writer=write_minesweepr,
                detect=detect_minesweepr, losses=_losses,
                description="mrgriscom's minesweepr ASCII board: '.' blank (0), 'x' unknown, '*' mine, 1-8")
