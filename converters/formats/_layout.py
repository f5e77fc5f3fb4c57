"""Mine layouts (boards that hold mines but no numbers) turned into puzzles: full reveal or a game opening."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Tuple

from ..core.errors import FormatError, MineconvError
from ..core.layout import full_reveal, opened_state
from ..core.lazy import LazyModule
from ..core.puzzle import CODE_MINE, CODE_SAFE, CODE_UNKNOWN, Puzzle, neighbour_count

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

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


def full_layout(puzzle: Puzzle) -> np.ndarray:
    """The mines of a puzzle whose every cell is a count or a known mine; FormatError when it is not one."""
    codes = puzzle.codes
    hidden = np.argwhere((codes == CODE_UNKNOWN) | (codes == CODE_SAFE))
    if len(hidden):
        r, c = (int(v) for v in hidden[0])
        raise FormatError(f"--reveal-from needs the whole layout (every cell a count or '*', as `mineconv "
                          f"generate` writes), but cell ({r}, {c}) is '{puzzle[r, c]}': the mines there are "
                          "not known")
    layout = codes == CODE_MINE
    wrong = np.argwhere((codes != CODE_MINE) & (neighbour_count(layout) != codes))
    if len(wrong):
        r, c = (int(v) for v in wrong[0])
        raise FormatError(f"--reveal-from needs the whole layout, but the count {codes[r, c]} at ({r}, {c}) "
                          f"disagrees with the '*' cells around it ({neighbour_count(layout)[r, c]})")
    if puzzle.mines is not None and puzzle.mines != int(layout.sum()):
        raise FormatError(f"--reveal-from needs the whole layout, but the header says mines: {puzzle.mines} "
                          f"and the grid has {int(layout.sum())} '*' cells")
    return layout


def reveal_layout(puzzle: Puzzle, reveal_from: Optional[str]) -> Puzzle:
    """The state after opening reveal_from ('R,C' or 'start') on a puzzle that is a whole layout."""
    layout = full_layout(puzzle)
    if str(reveal_from).strip().lower() == "start" and puzzle.start is None:
        raise FormatError("--reveal-from start needs the first click in a 'start: R,C' header; give the cell "
                          "as R,C")
    at = parse_reveal_from(reveal_from, puzzle.start)
    if at is None:
        return puzzle
    opened = layout_puzzle(layout, at)
    return opened.replace(name=puzzle.name, notes=puzzle.notes, start=at)
