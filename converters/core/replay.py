"""A recorded Minesweeper game (a replay, or "video"): its mine layout, its mouse events and who made it.

Desktop clones save these (Arbiter .avf, Viennasweeper .rmv, Minesweeper Clone .mvf, Metasweeper .evf,
RAWVF text); the readers in formats/notations turn each into one `Replay`. The events are kept as the file
records them, in file order with their exact times, so that a later pass can replay the game: which cell
a left release opened, where a chord was made. A reader adds an event the file leaves out only where the
clone is known to drop it (Viennasweeper does not store the first left press), and marks it `implied`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy as np

# event kinds: the mouse buttons as the clones record them
MOVE = "move"
LEFT_PRESS = "left_press"
LEFT_RELEASE = "left_release"
RIGHT_PRESS = "right_press"
RIGHT_RELEASE = "right_release"
MIDDLE_PRESS = "middle_press"
MIDDLE_RELEASE = "middle_release"
SHIFT_LEFT_PRESS = "shift_left_press"    # Arbiter: a left press with Shift held (RAWVF 'sc')
SECOND_PRESS = "second_press"            # Metasweeper 'cc': a second button went down, which one is not said
LEFT_TOGGLE = "left_toggle"              # Metasweeper 'l' / 'r' / 'm': the button changed state, press or
RIGHT_TOGGLE = "right_toggle"            # release is left to the reader's button state
MIDDLE_TOGGLE = "middle_toggle"
PRE_FLAG = "pre_flag"                    # a flag placed before the game started (Viennasweeper, Metasweeper)
TOGGLE_MARKS = "toggle_marks"            # RAWVF 'mt': the question-mark setting switched
# game-state events (Metasweeper v4): no cell
GAME_REPLAY = "game_replay"
GAME_WIN = "game_win"
GAME_FAIL = "game_fail"
GAME_ERROR = "game_error"

MOUSE_KINDS = frozenset({MOVE, LEFT_PRESS, LEFT_RELEASE, RIGHT_PRESS, RIGHT_RELEASE, MIDDLE_PRESS,
                         MIDDLE_RELEASE, SHIFT_LEFT_PRESS, SECOND_PRESS, LEFT_TOGGLE, RIGHT_TOGGLE,
                         MIDDLE_TOGGLE, PRE_FLAG, TOGGLE_MARKS})
EVENT_KINDS = MOUSE_KINDS | {GAME_REPLAY, GAME_WIN, GAME_FAIL, GAME_ERROR}


class ReplayEvent(NamedTuple):
    """One recorded event: time in seconds, its kind, the cell under the pointer (None off the board).

    A named tuple rather than a dataclass: replays hold tens of thousands of events, made fast this way.
    """

    time: float
    kind: str
    row: Optional[int]
    col: Optional[int]
    x: Optional[int] = None          # pointer position in pixels from the board's top left, as recorded
    y: Optional[int] = None
    implied: bool = False            # added by the reader where the clone leaves the event out


@dataclass(frozen=True, eq=False)
class Replay:
    """A recorded game: the mine layout, the total, the events in file order, and the file's metadata."""

    rows: int
    cols: int
    mines: np.ndarray                # (rows, cols) bool, True where a mine lies
    total: int                       # the mine count the file's header gives
    events: Tuple[ReplayEvent, ...]
    format: str                      # the notation that read it: 'avf', 'rmv', 'mvf', 'evf', 'rawvf'
    player: Optional[str] = None
    program: Optional[str] = None
    version: Optional[str] = None
    square_size: int = 16            # pixels per cell, to map pointer positions to cells
    details: Tuple[Tuple[str, str], ...] = field(default=())  # further header items: (name, value)

    def __post_init__(self) -> None:
        grid = np.asarray(self.mines, dtype=bool)
        if grid.shape != (self.rows, self.cols):
            raise ValueError(f"the mine grid is {grid.shape}, not ({self.rows}, {self.cols})")
        grid = grid.copy()
        grid.flags.writeable = False
        object.__setattr__(self, "mines", grid)
        object.__setattr__(self, "events", tuple(self.events))
        object.__setattr__(self, "details", tuple(self.details))

    @property
    def mine_count(self) -> int:
        """How many mines the layout holds."""
        return int(self.mines.sum())

    def first_opening(self) -> Optional[Tuple[int, int]]:
        """(row, col) of the game's first left click that opened a cell, or None when no click did.

        That is the first left release on a board cell that is not flagged, with no other button held
        (a release with the right button down is a chord, which opens nothing on a closed board). Flags
        come from pre-flags and right presses on the board before it.
        """
        flags: Set[Tuple[int, int]] = set()
        held: Dict[str, bool] = {"left": False, "right": False, "middle": False}
        for ev in self.events:
            cell = None if ev.row is None or ev.col is None else (ev.row, ev.col)
            if ev.kind == PRE_FLAG and cell is not None:
                flags.add(cell)
            elif ev.kind == RIGHT_PRESS:
                if cell is not None and not held["left"]:
                    flags ^= {cell}
                held["right"] = True
            elif ev.kind == RIGHT_RELEASE:
                held["right"] = False
            elif ev.kind in (LEFT_PRESS, SHIFT_LEFT_PRESS):
                held["left"] = True
            elif ev.kind == MIDDLE_PRESS:
                held["middle"] = True
            elif ev.kind == MIDDLE_RELEASE:
                held["middle"] = False
            elif ev.kind == LEFT_RELEASE:
                chord = held["right"] or held["middle"]
                held["left"] = False
                if cell is not None and not chord and cell not in flags:
                    return cell
        return None

    def count(self, kind: str) -> int:
        """How many events of this kind the replay holds."""
        return sum(1 for ev in self.events if ev.kind == kind)


def cell_of(x: int, y: int, rows: int, cols: int, square: int) -> Tuple[Optional[int], Optional[int]]:
    """(row, col) under the pointer at pixel (x, y), or (None, None) off the board."""
    if x < 0 or y < 0 or square <= 0:
        return None, None
    row, col = y // square, x // square
    if row >= rows or col >= cols:
        return None, None
    return row, col


def cells_of(xs: Sequence[int], ys: Sequence[int], rows: int, cols: int, square: int
             ) -> Tuple[List[Optional[int]], List[Optional[int]]]:
    """cell_of over many pointer positions at once: the rows and the columns (None off the board)."""
    x = np.asarray(xs, dtype=np.int64)
    y = np.asarray(ys, dtype=np.int64)
    r, c = y // max(square, 1), x // max(square, 1)
    on = (x >= 0) & (y >= 0) & (r < rows) & (c < cols) & (square > 0)
    return ([int(v) if ok else None for v, ok in zip(r.tolist(), on.tolist())],
            [int(v) if ok else None for v, ok in zip(c.tolist(), on.tolist())])
