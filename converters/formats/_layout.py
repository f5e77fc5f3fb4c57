"""Mine layouts (boards that hold mines but no numbers) turned into puzzles: full reveal or a game opening."""
from __future__ import annotations

import re
from typing import Optional, Tuple

import numpy as np

from ..core.errors import FormatError, MineconvError
from ..core.layout import full_reveal, opened_state
from ..core.puzzle import Puzzle, neighbour_count

REVEAL_HELP = ("read the layout as the game state after opening this cell, 'R,C' 0-based row,col (a zero "
               "flood-fills as in the game); default: every safe cell shows its count")

_RC = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*")


def parse_reveal_from(value: Optional[str], start: Optional[Tuple[int, int]] = None) -> Optional[Tuple[int, int]]:
    """(row, col) from a --reveal-from value 'R,C' (or 'start' where the notation names a first click)."""
    if value is None:
        return None
    text = str(value).strip()
    if text.lower() == "start":
        if start is None:
            raise FormatError("--reveal-from start needs a first click in the input (a Mines game ID "
                              "'W x H:X,Y,...' has one); give the cell as R,C")
        return start
    m = _RC.fullmatch(text)
    if m is None:
        raise FormatError(f"--reveal-from takes R,C (0-based row,col), not {text!r}")
    return int(m.group(1)), int(m.group(2))


def layout_puzzle(mine_grid: np.ndarray, reveal_at: Optional[Tuple[int, int]], *, notes: Tuple[str, ...] = ()
                  ) -> Puzzle:
    """The full-reveal puzzle of a mine layout, or the state after opening reveal_at (row, col)."""
    if reveal_at is None:
        puzzle = full_reveal(mine_grid)
    else:
        r, c = reveal_at
        try:
            puzzle = opened_state(mine_grid, r, c)
        except MineconvError as exc:
            raise FormatError(f"--reveal-from {r},{c}: {exc.message}") from None
    return puzzle.replace(notes=notes) if notes else puzzle


def known_layout(puzzle: Puzzle) -> Optional[np.ndarray]:
    """The mine layout when the puzzle pins every mine down, else None.

    That is the case when no cell is unknown (the mines are the known-mine cells), or when the total
    mine count equals the unknown cells plus the known mines (every unknown cell is a mine, as in a
    full-reveal puzzle). Every count must then agree with the layout.
    """
    codes = puzzle.codes
    unknown = codes == -1
    if unknown.any():
        if puzzle.mines is None or puzzle.mines != int(unknown.sum()) + puzzle.known_mine_count:
            return None
    layout = unknown | (codes == 9)
    counts = neighbour_count(layout)
    shown = (codes >= 0) & (codes <= 8)
    if (counts[shown] != codes[shown]).any():
        return None
    if puzzle.mines is not None and puzzle.mines != int(layout.sum()):
        return None
    return layout
