"""RAWVF replays (.rawvf): the open text form of a Minesweeper game (github thefinerminer/minesweeper-rawvf).

    RawVF_Version: Rev5          'Key: value' lines (Width, Height and Mines are required)
    Width: 3
    Height: 2
    Mines: 1
    Board:
    0*0                          Height rows of Width characters: '*' a mine, '0' no mine
    000
    Events:
    0.00 lc 1 1 (5 6)            time, kind (lc lr rc rr mc mr mv sc mt), [column row, 1-based], (x y) pixels,
    0.01 lr 1 1 (5 6) (l)        [(buttons held)]; other lines (board, game and scroll events) are not mouse
    0.01 number1 1 1             events and are passed over

Times may be negative (before the clock starts); a square is 16 pixels, as the converters write them.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple, Union

import numpy as np

from ...core.errors import PuzzleSyntaxError
from ...core.fileio import too_many_cells
from ...core.replay import (
    LEFT_PRESS,
    LEFT_RELEASE,
    MIDDLE_PRESS,
    MIDDLE_RELEASE,
    MOVE,
    RIGHT_PRESS,
    RIGHT_RELEASE,
    SHIFT_LEFT_PRESS,
    TOGGLE_MARKS,
    Replay,
    ReplayEvent,
    cell_of,
)
from ..mine_layouts import LAYOUT_HELP
from ..registry import CERTAIN, NO, register_format
from ._replay_files import REPLAY_REVEAL_HELP, puzzle_of

SQUARE = 16
MOUSE = {"lc": LEFT_PRESS, "lr": LEFT_RELEASE, "rc": RIGHT_PRESS, "rr": RIGHT_RELEASE, "mc": MIDDLE_PRESS,
         "mr": MIDDLE_RELEASE, "mv": MOVE, "sc": SHIFT_LEFT_PRESS, "mt": TOGGLE_MARKS}
MAX_SIDE = 100000            # far beyond any clone; a header claiming more is a damaged file, not a board
_OPTION = re.compile(r"\s*([^:]+?)\s*:\s*(.*?)\s*$")
_EVENT = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s+([A-Za-z]\w*)\s*(?:(\d+)\s+(\d+))?\s*(?:\(\s*(-?\d+)\s+(-?\d+)\s*\))?")


def _fail(message: str, lineno: int, line: str, source: str, column: Optional[int] = None) -> PuzzleSyntaxError:
    return PuzzleSyntaxError(message, source=source, line=lineno, column=column, line_text=line)


def _header(lines: List[str], source: str) -> Tuple[Dict[str, str], int, Dict[str, Tuple[int, int]]]:
    """The 'Key: value' options up to the 'Board:' line, the index of the line after it, and where each value
    stands (its 1-based line and column), so that a bad value is named where it is written."""
    options: Dict[str, str] = {}
    where: Dict[str, Tuple[int, int]] = {}
    for i, line in enumerate(lines):
        m = _OPTION.match(line)
        if m is None:
            continue
        key = m.group(1).lower()
        if key == "board":
            return options, i + 1, where
        if key not in options:
            options[key] = m.group(2)
            where[key] = (i + 1, m.start(2) + 1)
    raise _fail("a RAWVF replay has a 'Board:' line after its options; this text has none", len(lines),
                lines[-1] if lines else "", source)


def _size(options: Dict[str, str], key: str, least: int, at: int, lines: List[str], source: str,
          where: Dict[str, Tuple[int, int]], most: int = MAX_SIDE) -> int:
    text = options.get(key)
    if text is None:
        raise _fail(f"the RAWVF options give no {key.capitalize()}", at, lines[at - 1], source)
    if not text.isdigit() or len(text) > 20 or not least <= int(text) <= most:
        line, column = where[key]
        raise _fail(f"{key.capitalize()}: {text!r} is not a whole number from {least} to {most}", line,
                    lines[line - 1], source, column)
    return int(text)


def _board(lines: List[str], first: int, rows: int, cols: int, source: str) -> np.ndarray:
    if first + rows > len(lines):
        raise _fail(f"the board has {rows} rows, and the text ends after {len(lines) - first}", len(lines),
                    lines[-1], source)
    grid = np.zeros((rows, cols), dtype=bool)
    for r in range(rows):
        line = lines[first + r]
        row = line.strip()[:cols].encode("utf-8", "replace")
        # a row at a time in numpy: a list per row took a second of a 2000 x 2000 replay's reading
        codes = np.frombuffer(row, dtype=np.uint8)
        mine = codes == ord("*")
        if len(row) < cols or not (mine | (codes == ord("0"))).all():
            raise _fail(f"board row {r + 1} should be {cols} characters of '*' (mine) and '0' (no mine)",
                        first + r + 1, line, source)
        grid[r] = mine
    return grid


def _events(lines: List[str], first: int, rows: int, cols: int, source: str) -> List[ReplayEvent]:
    events = []
    for i in range(first, len(lines)):
        m = _EVENT.match(lines[i])
        if m is None or m.group(2) not in MOUSE:
            continue  # a blank line, 'Events:', a board, game or scroll event
        t, name, col, row, x, y = m.groups()
        px = None if x is None else int(x)
        py = None if y is None else int(y)
        if px is not None and py is not None:
            cell = cell_of(px, py, rows, cols, SQUARE)
        elif col is not None and row is not None and 1 <= int(row) <= rows and 1 <= int(col) <= cols:
            cell = (int(row) - 1, int(col) - 1)
        else:
            cell = (None, None)
        events.append(ReplayEvent(float(t), MOUSE[name], cell[0], cell[1], px, py))
    return events


def parse_rawvf(text: Union[str, bytes], source: str = "<string>") -> Replay:
    """The whole replay of a RAWVF text: layout, mouse events and options."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    options, first, where = _header(lines, source)
    rows = _size(options, "height", 1, first, lines, source, where)
    cols = _size(options, "width", 1, first, lines, source, where)
    too_big = too_many_cells(rows, cols)   # before the board's grid is made, as `info` refuses it
    if too_big:
        raise _fail(too_big, first, lines[first - 1], source)
    # the mines are bounded by the board's cells alone: a 1000 x 1000 replay with 250,000 mines is valid
    claimed = options.get("mines", "")
    if claimed.isdigit() and rows * cols < int(claimed[:20]):
        line, column = where["mines"]
        raise _fail(f"Mines: {int(claimed[:20])} is more than the {rows * cols} cells of a {cols} x {rows} board",
                    line, lines[line - 1], source, column)
    mines = _size(options, "mines", 0, first, lines, source, where, most=rows * cols)
    grid = _board(lines, first, rows, cols, source)
    if int(grid.sum()) != mines:
        raise _fail(f"the options say {mines} mine(s), the board holds {int(grid.sum())}", first, lines[first - 1],
                    source)
    events = _events(lines, first + rows, rows, cols, source)
    program = options.get("program") or None
    details = {k: v for k, v in options.items() if k not in ("player", "program", "version", "width", "height",
                                                              "mines")}
    return Replay(rows, cols, grid, mines, tuple(events), "rawvf", player=options.get("player") or None,
                  program=program.strip() if program else None, version=options.get("version") or None,
                  square_size=SQUARE, details=tuple(sorted(details.items())))


def read_rawvf(text: str, source: str = "<string>", reveal_from: Optional[str] = None,
               layout_as: Optional[str] = None):
    """Parse a RAWVF replay into its mine layout (or the state after opening reveal_from)."""
    return puzzle_of(parse_rawvf, text, source, reveal_from, layout_as, "rawvf")


_KEYS = re.compile(r"^\s*(width|height|mines|board|events|rawvf_version)\s*:", re.IGNORECASE | re.MULTILINE)


def detect_rawvf(text: str) -> float:
    """CERTAIN when the text has Width, Height, Mines, Board and Events lines."""
    found = {m.group(1).lower() for m in _KEYS.finditer(text[:1 << 16])}
    return CERTAIN if {"width", "height", "mines", "board", "events"} <= found else NO


register_format("rawvf", reader=read_rawvf, detect=detect_rawvf,
                read_options={"reveal_from": REPLAY_REVEAL_HELP, "layout_as": LAYOUT_HELP},
                description="RAWVF replay (text): the game's mine layout (and its mouse events, read by "
                            "read_replay); --reveal-from R,C or start")
