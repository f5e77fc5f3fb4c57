"""Minesweeper board files (.mbf): a mine layout in bytes, as Minesweeper Arbiter / JSMinesweeper save it.

    byte 0      width  (1-255)
    byte 1      height (1-255)
    bytes 2-3   number of mines N, big-endian
    then N pairs of bytes (x, y): column and row of each mine, 0-based

JSMinesweeper's "save MBF" (Board.getFormatMBF) writes exactly this, mines in row-major order. A layout
holds mines but no numbers, so it is read as the full-reveal puzzle (every safe cell shows its count,
every mine is an unknown cell, the total is known), or with reveal_from='R,C' (--reveal-from) as the
game state after opening that cell. Every claim of the header is checked against the bytes before
anything is allocated: the length must be exactly 4 + 2N, every pair must lie on the board, no cell may
hold two mines. Errors name byte offsets as column numbers of line 1 (column = offset + 1).

The writer needs a puzzle whose mines are all known (no unknown cell, or a total that makes every
unknown cell a mine, with every count agreeing): it refuses anything else, a partial game state above
all, since writing it would invent a layout.
"""
from __future__ import annotations

from typing import Any, BinaryIO, List, Optional, Union

import numpy as np

from ...core.errors import FormatError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.wording import plural
from ..mine_layouts import LAYOUT_HELP, REVEAL_HELP, known_layout, layout_reading, parse_reveal_from
from ..registry import CERTAIN, LIKELY, NO, register_format

MAX_SIDE = 255
MAX_MINES = 0xFFFF


def _as_bytes(data: Union[bytes, bytearray, memoryview, str]) -> bytes:
    if isinstance(data, str):  # registry.parse hands binary notations their text as latin-1 bytes
        try:
            return data.encode("latin-1")
        except UnicodeEncodeError:
            return data.encode("utf-8")
    return bytes(data)


def _pairs(data: bytes, source: str) -> np.ndarray:
    """The (x, y) mine pairs after checking the header against the length: shape (N, 2) uint8."""
    def fail(msg: str, offset: int) -> PuzzleSyntaxError:
        return PuzzleSyntaxError(msg, source=source, line=1, column=offset + 1)

    if len(data) < 4:
        raise fail(f"an MBF file starts with 4 header bytes (width, height, mine count); this one has "
                   f"{len(data)} byte(s)", len(data))
    width, height, mines = data[0], data[1], (data[2] << 8) | data[3]
    if width == 0:
        raise fail("the board width (byte 0) is 0", 0)
    if height == 0:
        raise fail("the board height (byte 1) is 0", 1)
    want = 4 + 2 * mines
    if len(data) != want:
        more = "more" if len(data) > want else "fewer"
        raise fail(f"the header claims {mines} mine(s) on a {width} x {height} board, which takes "
                   f"4 + 2 x {mines} = {want} bytes, but the file has {len(data)} ({more} than that)",
                   want if len(data) > want else 2)
    if mines > width * height:
        raise fail(f"the header claims {plural(mines, 'mine')} but a {width} x {height} board has only "
                   f"{plural(width * height, 'cell')}", 2)
    pairs = np.frombuffer(data, dtype=np.uint8, offset=4).reshape(-1, 2)
    off = np.flatnonzero((pairs[:, 0] >= width) | (pairs[:, 1] >= height))
    if off.size:
        i = int(off[0])
        x, y = int(pairs[i, 0]), int(pairs[i, 1])
        raise fail(f"mine {i + 1} of {mines} is at x={x}, y={y}, off the {width} x {height} board",
                   4 + 2 * i + (0 if x >= width else 1))
    flat = pairs[:, 1].astype(np.int64) * width + pairs[:, 0]
    order = np.argsort(flat, kind="stable")
    twice = np.flatnonzero(flat[order][1:] == flat[order][:-1])
    if twice.size:
        i = int(order[twice[0] + 1])
        raise fail(f"mine {i + 1} repeats the cell x={int(pairs[i, 0])}, y={int(pairs[i, 1])}: a cell holds "
                   "one mine at most", 4 + 2 * i)
    return pairs


def read_mbf(data: Union[bytes, str], source: str = "<bytes>", reveal_from: Optional[str] = None,
             layout_as: Optional[str] = None) -> Puzzle:
    """Parse an .mbf layout into the full-reveal puzzle, or the state after opening reveal_from."""
    raw = _as_bytes(data)
    pairs = _pairs(raw, source)
    width, height = raw[0], raw[1]
    grid = np.zeros((height, width), dtype=bool)
    grid[pairs[:, 1], pairs[:, 0]] = True
    try:
        return layout_reading(grid, layout_as, parse_reveal_from(reveal_from))
    except FormatError as exc:
        exc.source = exc.source or source
        raise


def write_mbf(puzzle: Puzzle, out: BinaryIO, **options: Any) -> None:
    """Write the mine layout (refused unless the puzzle pins every mine down)."""
    if puzzle.rows > MAX_SIDE or puzzle.cols > MAX_SIDE:
        raise FormatError(f"an MBF board is at most {MAX_SIDE} x {MAX_SIDE}; this one is "
                          f"{puzzle.rows} x {puzzle.cols}")
    layout = known_layout(puzzle)
    if layout is None:
        raise FormatError("an MBF file holds a complete mine layout, and this puzzle does not pin every mine "
                          "down (its unknown cells are not all mines, or no total says so); solve it first "
                          "(`mineconv solve FILE`) and convert the solved grid")
    ys, xs = np.nonzero(layout)
    if ys.size > MAX_MINES:
        raise FormatError(f"an MBF file holds at most {plural(MAX_MINES, 'mine')}; this layout has {ys.size}")
    body = np.empty(2 * ys.size, dtype=np.uint8)
    body[0::2] = xs
    body[1::2] = ys
    out.write(bytes([puzzle.cols, puzzle.rows, ys.size >> 8, ys.size & 0xFF]) + body.tobytes())


def _losses(puzzle: Puzzle, **options: Any) -> List[str]:
    lost = []
    # a puzzle that pins every mine down is its layout: its '*' and '.' marks follow from the mines the
    # file stores. Only a puzzle the writer refuses anyway has marks to lose.
    if known_layout(puzzle) is None:
        st = puzzle.stats
        if st["known_mines"]:
            lost.append(f"{st['known_mines']} known-mine mark(s) (the layout has mines, read back as unknown "
                        "cells)")
        if st["known_safe"]:
            lost.append(f"{st['known_safe']} known safe cell(s) (read back as counts)")
    if puzzle.name is not None:
        lost.append("the puzzle name")
    if puzzle.notes:
        lost.append("the notes")
    return lost


def detect_mbf(data: Union[bytes, str]) -> float:
    """CERTAIN when the bytes have the exact MBF structure (length 4 + 2N, every mine on the board, no repeat)."""
    raw = _as_bytes(data[:4 + 2 * MAX_MINES + 1])
    try:
        pairs = _pairs(raw, "<detect>")
    except PuzzleSyntaxError:
        return NO
    return CERTAIN if len(pairs) else LIKELY


register_format("mbf", reader=read_mbf, writer=write_mbf, detect=detect_mbf, losses=_losses,
                read_options={"reveal_from": REVEAL_HELP, "layout_as": LAYOUT_HELP},
                description="Minesweeper board file (binary): width, height, mine count, (x, y) per mine; "
                            "read fully revealed or --reveal-from R,C")
