"""The text form of a Mines game in Simon Tatham's Portable Puzzle Collection (what Copy puts on the clipboard).

    ??1-              mines.c's game_text_format, one character per square:
    ?21-              '-' an opened square with no mine around it (0), 1-8 an opened count,
    *1--              '?' a covered square (or one marked with a question mark), '*' a flag,
                      '!' a mine shown after the game ended, or a flag shown to be wrong

A flag is the player's claim and reads as a known mine, as flags do in the other game notations; '!'
covers both a mine and a wrong flag (the format does not tell them apart), so it reads as an unknown
cell and the reader says so in a note. The text holds no total (the game's parameters do). Writer: the
same layout; a known safe square without a count has no symbol and is written '?'.

Detection by content: rows of one width made of '-', '?', '*', '!' and 1-8 with a '-' among them (native
text, which shares '?', '*' and the digits, has no '-'; a grid without '-' reads alike in both).
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

_TABLE = symbol_table({"-": "0", "?": "?", "*": "*", "!": "?", **{str(d): str(d) for d in range(1, 9)}})
_ROW = re.compile(r"[-?*!1-8]+")
_WHAT = "a Mines square ('-' opened 0, 1-8, '?' covered, '*' flag, '!' mine shown after the game)"


def read_tatham_text(text: str, source: str = "<string>") -> Puzzle:
    """Parse Mines' text form: '-' 0, 1-8, '?' covered, '*' flag (a known mine), '!' read as unknown."""
    text = normalise_newlines(text)
    rows: List[str] = []
    offs: List[int] = []
    shown = 0
    for start, line in lines_with_offsets(text):
        row = line.rstrip(" \t")
        if not row:
            continue
        cells, bad = decode(row, _TABLE)
        if cells is None:
            raise fail(f"{row[bad]!r} is not {_WHAT}", text, start + bad, source)
        if rows and len(cells) != len(rows[0]):
            raise fail(f"this row has {plural(len(cells), 'square')}, the first row has {len(rows[0])} (the grid "
                       "must be rectangular)", text, start, source)
        rows.append(cells)
        offs.append(start)
        shown += row.count("!")
    if not rows:
        raise fail("no grid rows found", text, len(text), source)
    notes = [f"{plural(shown, 'square')} shown as '!' after the game (a mine, or a wrong flag) read as unknown"] \
        if shown else []
    return puzzle_at(rows, lambda r, c: offs[r] + c, text, source, notes=notes)


def write_tatham_text(puzzle: Puzzle, out: TextIO, **options: Any) -> None:
    """Write the grid as Mines' text form: '-' 0, 1-8, '?' unknown, '*' a known mine."""
    table = str.maketrans({"0": "-", ".": "?"})
    out.write("".join(puzzle.row(r).translate(table) + "\n" for r in range(puzzle.rows)))


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    if puzzle.stats["known_safe"]:
        lost.append(f"{plural(puzzle.stats['known_safe'], 'known safe cell')} without a count (written as '?', "
                    "covered)")
    return lost + lost_parts(puzzle, mines_as=None, safe_as=None)


def detect_tatham_text(text: str) -> float:
    """LIKELY for rows of one width of '-', '?', '*', '!' and 1-8 with a '-' among them."""
    head = normalise_newlines(text[:8000])
    rows = [ln.rstrip(" \t") for ln in head.split("\n") if ln.strip()]
    if len(head) < len(text) and rows:
        rows.pop()     # cut short: the last row's width says nothing
    if not rows or not all(_ROW.fullmatch(r) for r in rows[:200]) or len({len(r) for r in rows[:200]}) != 1:
        return NO
    # a lone row of dashes is a rule line, not a board
    return LIKELY if any("-" in r for r in rows) and any(set(r) - {"-"} for r in rows) else NO


register_format("tatham-text", reader=read_tatham_text, writer=write_tatham_text,
                detect=detect_tatham_text, losses=_losses,
                description="Mines (Tatham's puzzles) as Copy gives it: '-' opened 0, 1-8, '?' covered, '*' "
                            "flag, '!' shown after the game (read as unknown)")
