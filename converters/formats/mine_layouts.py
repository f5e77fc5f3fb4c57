"""Mine layouts (boards that hold mines but no numbers) turned into puzzles: full reveal or a game opening."""
from __future__ import annotations

import re
import warnings
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

# One rule for every notation that holds a mine layout (every mine known): by default it reads as its full
# reveal, the one reading that leaves a solver something to find (a folder of layouts converted to .cnf
# gives puzzles, not files with no variable), and the one mbf, Tatham's IDs and MiniZinc layouts always
# had. --layout-as gives the two others the same way for all of them.
LAYOUT_AS = {
    "full": "its full reveal (every safe cell shows its count, the mines are to be found, the total is known)",
    "annotated": "its annotation (every safe cell shows its count, every mine a known mine: nothing to find)",
    "mines": "the layout itself (every mine a known mine, every other cell known safe without a count)",
}
LAYOUT_HELP = ("how a mine layout reads: full (the default: every safe cell shows its count, the mines are "
               "to be found, the total is known), annotated (counts and known mines: nothing to find) or "
               "mines (the layout itself: known mines, every other cell known safe without a count)")


class LayoutDefaultWarning(UserWarning):
    """A notation whose layouts read otherwise before now reads them as their full reveal (--layout-as)."""


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


def layout_reading(mine_grid: np.ndarray, layout_as: Optional[str], reveal_at: Optional[Tuple[int, int]], *,
                   notes: Tuple[str, ...] = (), was: Optional[str] = None, notation: str = "") -> Puzzle:
    """A mine layout read as --layout-as says (full by default), or as the game after opening reveal_at.

    `was` names the reading the notation gave before the one rule ('mines', 'annotated'): read without
    --layout-as, such a layout warns once that its reading changed and which option gives the old one.
    """
    if layout_as is not None and layout_as not in LAYOUT_AS:
        raise FormatError(f"--layout-as takes one of {', '.join(LAYOUT_AS)}, not {layout_as!r}")
    if reveal_at is not None:
        if layout_as not in (None, "full"):
            raise FormatError(f"--reveal-from opens one cell of the layout as a game; --layout-as {layout_as} "
                              "reads the whole layout another way: give one of them")
        return layout_puzzle(mine_grid, reveal_at, notes=notes)
    if layout_as is None and was is not None:
        warnings.warn(LayoutDefaultWarning(
            f"a {notation} mine layout now reads as {LAYOUT_AS['full']}, as every layout notation's does; it "
            f"read as {LAYOUT_AS[was]} before: --layout-as {was} reads it so"), stacklevel=2)
    if (layout_as or "full") == "full":
        puzzle = full_reveal(mine_grid)
    else:
        codes = np.where(mine_grid, ord("*"), ord(".") if layout_as == "mines" else
                         neighbour_count(mine_grid) + ord("0")).astype(np.uint8)
        puzzle = Puzzle(mine_grid.shape[0], mine_grid.shape[1], codes.tobytes().decode("ascii"),
                        mines=int(mine_grid.sum()))
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
