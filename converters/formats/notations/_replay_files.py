"""What the replay readers (avf, rmv, mvf, evf, rawvf) share: a bounds-checked byte cursor, the mine layout
check, player-name decoding, and the step from a Replay to the puzzle a notation reader returns.

Every read of a binary replay goes through `ByteCursor`, which checks each length against the bytes left
before it reads or allocates anything: a truncated file or a header that lies is a PuzzleSyntaxError
naming the byte offset ("byte 37: ..."), never an IndexError or a huge allocation.
"""
from __future__ import annotations

from typing import Callable, Iterable, NoReturn, Optional, Tuple, Union

import numpy as np

from ...core.errors import FormatError, MineconvError, PuzzleSyntaxError
from ...core.puzzle import Puzzle
from ...core.replay import Replay
from ...core.wording import plural
from ..mine_layouts import layout_reading, parse_reveal_from

REPLAY_REVEAL_HELP = ("read the replay as the game state after opening this cell: 'R,C' 0-based row,col, or "
                      "'start' for the game's first left click that opened a cell; default: the mine layout, "
                      "every mine a known mine and every other cell known safe")

# a replay notation's own parser: (content, source) -> Replay
ReplayParser = Callable[[Union[bytes, str], str], Replay]


def as_bytes(data: Union[bytes, bytearray, memoryview, str]) -> bytes:
    """The bytes of a binary notation's input (registry.parse hands text as latin-1, one char per byte)."""
    if isinstance(data, str):
        try:
            return data.encode("latin-1")
        except UnicodeEncodeError:
            return data.encode("utf-8")
    return bytes(data)


def byte_error(message: str, offset: int, source: str) -> PuzzleSyntaxError:
    """A PuzzleSyntaxError located at a byte offset of a binary file."""
    return PuzzleSyntaxError(f"byte {offset}: {message}", source=source)


class ByteCursor:
    """Reads a binary replay front to back; every read is checked against the end of the data."""

    def __init__(self, data: bytes, source: str, what: str, pos: int = 0) -> None:
        self.data = data
        self.source = source
        self.what = what          # 'an AVF replay', named in the errors
        self.pos = pos

    def fail(self, message: str, offset: Optional[int] = None) -> NoReturn:
        """Raise the located error for a problem at offset (default: the current position)."""
        raise byte_error(message, self.pos if offset is None else offset, self.source)

    def need(self, n: int, what: str) -> None:
        """Fail unless n more bytes are there to read."""
        if n < 0 or self.pos + n > len(self.data):
            left = max(0, len(self.data) - self.pos)
            self.fail(f"{self.what} ends early: {what} needs {plural(n, 'byte')} here, "
                      f"with only {plural(left, 'byte')} left (a truncated or damaged file)")

    def take(self, n: int, what: str) -> bytes:
        """The next n bytes."""
        self.need(n, what)
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def skip(self, n: int, what: str) -> None:
        """Step over n bytes that must be there."""
        self.need(n, what)
        self.pos += n

    def uint(self, size: int, what: str) -> int:
        """A big-endian unsigned integer of size bytes."""
        return int.from_bytes(self.take(size, what), "big")

    def u8(self, what: str) -> int:
        """One unsigned byte."""
        return self.uint(1, what)

    def u16(self, what: str) -> int:
        """A big-endian uint16."""
        return self.uint(2, what)

    def i16(self, what: str) -> int:
        """A big-endian int16."""
        return int.from_bytes(self.take(2, what), "big", signed=True)

    def cstring(self, what: str) -> bytes:
        """Bytes up to a NUL (the NUL is read, not returned)."""
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            self.fail(f"{self.what} ends early: {what} has no closing NUL byte")
        out = self.data[self.pos:end]
        self.pos = end + 1
        return out


def decode_name(raw: bytes) -> str:
    """Text of unknown encoding as the clones wrote it: UTF-8, else GB18030, else Windows-1252."""
    for codec in ("utf-8", "gb18030", "cp1252"):
        try:
            return raw.decode(codec)
        except UnicodeDecodeError:
            continue
    return raw.decode("latin-1")


def mine_grid(rows: int, cols: int, cells: Iterable[Tuple[int, int, int]], count: int,
              source: str) -> np.ndarray:
    """The bool layout from (row, col, byte offset) triples, each checked on the board and not repeated."""
    grid = np.zeros((rows, cols), dtype=bool)
    for i, (r, c, offset) in enumerate(cells):
        if not (0 <= r < rows and 0 <= c < cols):
            raise byte_error(f"mine {i + 1} of {count} is at row {r}, column {c} (0-based), off the "
                             f"{rows} x {cols} board", offset, source)
        if grid[r, c]:
            raise byte_error(f"mine {i + 1} of {count} repeats the cell at row {r}, column {c}: a cell holds "
                             "one mine at most", offset, source)
        grid[r, c] = True
    return grid


def check_board(rows: int, cols: int, mines: int, offset: int, source: str) -> None:
    """Fail on an empty board or more mines than cells (before anything is allocated)."""
    if rows < 1 or cols < 1:
        raise byte_error(f"the board is {rows} x {cols}: a board has at least one row and one column",
                         offset, source)
    if mines > rows * cols:
        raise byte_error(f"the header claims {plural(mines, 'mine')} on a {rows} x {cols} board, which has only "
                         f"{plural(rows * cols, 'cell')}", offset, source)


def layout_text(replay: Replay) -> Puzzle:
    """The replay's mine layout as a puzzle: mines known mines, every other cell known safe, the total."""
    cells = np.where(replay.mines, ord("*"), ord(".")).astype(np.uint8).tobytes().decode("ascii")
    return Puzzle(replay.rows, replay.cols, cells, mines=replay.total)


def replay_puzzle(replay: Replay, reveal_from: Optional[str] = None, layout_as: Optional[str] = None,
                  notation: str = "replay") -> Puzzle:
    """The puzzle a replay notation reads: its layout as --layout-as says (its full reveal by default), or
    the game state after opening reveal_from."""
    start = replay.first_opening() if reveal_from is not None else None
    if reveal_from is not None and str(reveal_from).strip().lower() == "start" and start is None:
        raise FormatError("--reveal-from start: no left click of this replay opened a cell; give the cell as R,C")
    at = parse_reveal_from(reveal_from, start)
    return layout_reading(replay.mines, layout_as, at, was="mines", notation=notation)


def puzzle_of(replay_of: ReplayParser, data: Union[bytes, str], source: str,
              reveal_from: Optional[str], layout_as: Optional[str] = None, notation: str = "replay") -> Puzzle:
    """Read a replay with replay_of and make it the notation's puzzle, errors told the source."""
    try:
        return replay_puzzle(replay_of(data, source), reveal_from, layout_as, notation)
    except MineconvError as exc:
        exc.located(source)
        raise
