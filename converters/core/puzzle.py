"""The one in-memory model every reader produces and every writer consumes."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Iterable, Iterator, Optional, Sequence, Tuple

from .deprecated_calls import callable_array, callable_list
from .display import svg_picture
from .errors import PuzzleError
from .lazy import LazyModule
from .wording import plural

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

UNKNOWN = "?"
MINE = "*"
SAFE = "."
CELL_SYMBOLS = "?012345678*."
_SYMBOL_SET = frozenset(CELL_SYMBOLS)

# int8 codes of Puzzle.codes: counts keep their value
CODE_UNKNOWN = -1
CODE_MINE = 9
CODE_SAFE = 10

# a board of up to this many cells, in a process that has not imported numpy, is validated in plain Python and
# builds its codes array on first use: a small solve then never imports numpy (issue 24)
SMALL_BOARD = 4096


def _checked_in_bulk(cells: int) -> bool:
    """Whether a board of this many cells is validated with numpy: a big one always; a small one when numpy is
    loaded already (its bulk check is several times faster than the plain one on a few hundred cells)."""
    return cells > SMALL_BOARD or "numpy" in sys.modules


_NOT_A_SYMBOL = (-2 & 0xFF).to_bytes(1, "little")   # the code byte of any byte that is no cell symbol


@lru_cache(maxsize=None)
def _code_bytes() -> bytes:
    """A bytes.translate table: each cell symbol's int8 code as a byte, -2 for any other byte."""
    table = [-2] * 256
    for d in range(9):
        table[ord(str(d))] = d
    table[ord(UNKNOWN)] = CODE_UNKNOWN
    table[ord(MINE)] = CODE_MINE
    table[ord(SAFE)] = CODE_SAFE
    return bytes(x & 0xFF for x in table)


NEIGHBOUR_OFFSETS: Tuple[Tuple[int, int], ...] = (
    (-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def neighbour_count(mask: np.ndarray) -> np.ndarray:
    """(rows, cols) int8: how many of each cell's 8 neighbours are set in the boolean grid."""
    R, C = mask.shape
    pad = np.zeros((R + 2, C + 2), dtype=np.int8)
    pad[1:-1, 1:-1] = mask
    count = np.zeros((R, C), dtype=np.int8)
    for dr, dc in NEIGHBOUR_OFFSETS:
        count += pad[1 + dr:1 + dr + R, 1 + dc:1 + dc + C]
    return count


def _over_limit(codes: np.ndarray) -> Optional[Tuple[int, int]]:
    """The first cell (row-major) whose count exceeds its number of neighbours, or None.

    Inside the board every cell has 8 neighbours and no count exceeds 8, so only the border is looked at: the
    top and bottom rows and the two side columns, in row-major order (on a 1000 x 1000 board, 4,000 cells
    instead of every cell compared with a whole grid of limits).
    """
    border, r, c, limit = _border_limits(*codes.shape)
    shown = codes.ravel().take(border)
    bad = np.flatnonzero((shown >= 0) & (shown <= 8) & (shown > limit))
    if not bad.size:
        return None
    return int(r[bad[0]]), int(c[bad[0]])


@lru_cache(maxsize=16)
def _border_limits(R: int, C: int) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A board's border cells (flat, row-major), their rows, columns and numbers of neighbours: the same for
    every board of that shape (a game checks one per turn)."""
    mid = np.arange(1, R - 1) * C
    # row-major: the top row, then each middle row's first and last cell, then the bottom row (a board of one
    # row or column lists some cells twice: the first violation is still the first listed)
    border = np.concatenate([np.arange(C), np.stack([mid, mid + C - 1], axis=1).ravel(), (R - 1) * C + np.arange(C)])
    r, c = np.divmod(border, C)
    limit = ((np.minimum(r + 1, R - 1) - np.maximum(r - 1, 0) + 1)
             * (np.minimum(c + 1, C - 1) - np.maximum(c - 1, 0) + 1) - 1)
    for array in (border, r, c, limit):
        array.flags.writeable = False   # shared by every call: nobody may change them
    return border, r, c, limit


@dataclass(frozen=True)
class Puzzle:
    """A Minesweeper board: each cell unknown '?', a count '0'-'8', a known mine '*' or known safe '.'.

    `cells` is the row-major string of cell symbols; `mines` is the total number of mines on the whole
    board (known mines included) when the puzzle states it; `start` is the game's first click (row,
    column), 0-based, when the board comes with one (a no-guess layout is only no-guess from there);
    `wires` is, on a board `mineconv reduce` made from a CNF formula, the cell of each variable (variable
    i + 1 at wires[i]; a mine there means the variable is true).
    """

    rows: int
    cols: int
    cells: str
    mines: Optional[int] = None
    name: Optional[str] = None
    notes: Tuple[str, ...] = field(default=())
    start: Optional[Tuple[int, int]] = None
    wires: Tuple[Tuple[int, int], ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.notes, tuple):
            object.__setattr__(self, "notes", tuple(self.notes))
        if isinstance(self.start, list):
            object.__setattr__(self, "start", tuple(self.start))
        if not isinstance(self.wires, tuple) or any(isinstance(w, list) for w in self.wires):
            object.__setattr__(self, "wires", tuple(tuple(w) for w in self.wires))
        self._validate()

    # construction -------------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, rows: Sequence[str], *, mines: Optional[int] = None, name: Optional[str] = None,
                  notes: Iterable[str] = (), start: Optional[Tuple[int, int]] = None) -> "Puzzle":
        """Build a puzzle from equal-length strings of cell symbols."""
        rows = list(rows)
        if not rows:
            raise PuzzleError("the grid is empty")
        width = len(rows[0])
        for i, row in enumerate(rows if set(map(len, rows)) != {width} else ()):
            if len(row) != width:
                raise PuzzleError(f"row {i + 1} has {plural(len(row), 'cell')}, expected {width} (the grid must be "
                                  "rectangular)", cell=(i, min(len(row), width)))
        return cls(len(rows), width, "".join(rows), mines=mines, name=name, notes=tuple(notes), start=start)

    def _validate(self) -> None:
        if not isinstance(self.rows, int) or not isinstance(self.cols, int) or self.rows < 1 or self.cols < 1:
            raise PuzzleError(f"the grid must be non-empty, got {self.rows} x {self.cols}")
        if len(self.cells) != self.rows * self.cols:
            raise PuzzleError(f"{plural(len(self.cells), 'cell')} given for a {self.rows} x {self.cols} grid")
        codes = self._cell_codes() if _checked_in_bulk(len(self.cells)) else None
        if codes is None:
            self._check_cells()
        if self.mines is not None:
            if isinstance(self.mines, bool) or not isinstance(self.mines, int) or self.mines < 0:
                raise PuzzleError(f"the total mine count must be a whole number >= 0, got {self.mines!r}")
            if self.mines > self.rows * self.cols:
                raise PuzzleError(f"the total mine count {self.mines} exceeds the {self.rows * self.cols} "
                                  "cells of the board")
        if self.start is not None:
            self._validate_start()
        for i, wire in enumerate(self.wires, 1):
            self._validate_wire(i, wire)
        if self.name is not None and ("\n" in self.name or "\r" in self.name):
            raise PuzzleError("the puzzle name must be a single line")
        for note in self.notes:
            if not isinstance(note, str) or "\n" in note or "\r" in note:
                raise PuzzleError("each note must be a single line of text")

    def _bad_symbol(self) -> PuzzleError:
        pos = next(i for i, ch in enumerate(self.cells) if ch not in CELL_SYMBOLS)
        r, c = divmod(pos, self.cols)
        return PuzzleError(f"cell ({r}, {c}) has the symbol {self.cells[pos]!r}; expected one of "
                           f"{CELL_SYMBOLS!r}", cell=(r, c))

    def _too_many(self, r: int, c: int, shown: int) -> PuzzleError:
        limit = sum(1 for _ in self.neighbours(r, c))
        return PuzzleError(f"cell ({r}, {c}) shows {shown} but has only {plural(limit, 'neighbour')}", cell=(r, c))

    def _check_cells(self) -> None:
        """The checks of _cell_codes in plain Python, raising the same first error (a small board)."""
        if not _SYMBOL_SET.issuperset(self.cells):
            raise self._bad_symbol()
        R, C = self.rows, self.cols
        for i, ch in enumerate(self.cells):
            if ch in "45678" or (ch in "123" and (R < 3 or C < 3)):
                r, c = divmod(i, C)
                if int(ch) > (min(r + 1, R - 1) - max(r - 1, 0) + 1) * (min(c + 1, C - 1) - max(c - 1, 0) + 1) - 1:
                    raise self._too_many(r, c, int(ch))

    def _cell_codes(self) -> np.ndarray:
        """The codes array, checked in bulk: every symbol known, no count above its cell's neighbours."""
        try:
            raw = self.cells.encode("ascii")
        except UnicodeEncodeError:
            raw = b""
        # each symbol's code byte by bytes.translate (a fancy-index lookup of a million cells costs ~10x more);
        # the array is read-only, as it is kept
        coded = raw.translate(_code_bytes())
        if not raw or _NOT_A_SYMBOL in coded:
            raise self._bad_symbol()
        codes = np.frombuffer(coded, dtype=np.int8).reshape(self.rows, self.cols)
        over = _over_limit(codes)
        if over is not None:
            raise self._too_many(*over, int(codes[over]))
        object.__setattr__(self, "_codes", callable_array(codes, "Puzzle.codes"))
        return codes

    def _validate_start(self) -> None:
        start = self.start
        if (not isinstance(start, tuple) or len(start) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in start)):
            raise PuzzleError(f"the first click must be a (row, column) pair of whole numbers, got {start!r}")
        r, c = start
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise PuzzleError(f"the first click ({r}, {c}) is outside the {self.rows} x {self.cols} grid")
        if self.cells[r * self.cols + c] == MINE:
            raise PuzzleError(f"the first click ({r}, {c}) is on a known mine", cell=(r, c))

    def _validate_wire(self, variable: int, wire: Tuple[int, int]) -> None:
        if (not isinstance(wire, tuple) or len(wire) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in wire)):
            raise PuzzleError(f"the cell of variable {variable} must be a (row, column) pair, got {wire!r}")
        r, c = wire
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise PuzzleError(f"the cell ({r}, {c}) of variable {variable} is outside the {self.rows} x "
                              f"{self.cols} grid")
        if self.cells[r * self.cols + c].isdigit():
            raise PuzzleError(f"the cell ({r}, {c}) of variable {variable} shows a count", cell=(r, c))

    # access -------------------------------------------------------------------------------------
    @property
    def codes(self) -> np.ndarray:
        """The grid as an int8 array: -1 unknown, 0-8 counts, 9 known mine, 10 known safe (read-only)."""
        codes = self.__dict__.get("_codes")
        if codes is None:   # a small board, checked without numpy: built on first use
            self._cell_codes()
            codes = self.__dict__["_codes"]
        return codes

    def __getitem__(self, rc: Tuple[int, int]) -> str:
        r, c = rc
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise IndexError(f"cell ({r}, {c}) is outside the {self.rows} x {self.cols} grid")
        return self.cells[r * self.cols + c]

    def count(self, r: int, c: int) -> Optional[int]:
        """The number shown at (r, c), or None when the cell shows no number."""
        ch = self[r, c]
        return int(ch) if ch.isdigit() else None

    def row(self, r: int) -> str:
        """Row r as a string of cell symbols."""
        return self.cells[r * self.cols:(r + 1) * self.cols]

    @property
    def grid_lines(self) -> list:
        """The rows of the grid as strings of cell symbols."""
        c = self.cols
        return callable_list((self.cells[i:i + c] for i in range(0, len(self.cells), c)), "Puzzle.grid_lines")

    def neighbours(self, r: int, c: int) -> Iterator[Tuple[int, int]]:
        """The in-grid neighbours of (r, c), in row-major order."""
        for dr, dc in NEIGHBOUR_OFFSETS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                yield rr, cc

    @property
    def unknown_cells(self) -> list:
        """The unknown cells in row-major order: cell i holds DIMACS variable i + 1."""
        return callable_list(map(tuple, np.argwhere(self.codes == CODE_UNKNOWN).tolist()), "Puzzle.unknown_cells")

    @property
    def known_mine_cells(self) -> list:
        """The known mines in row-major order."""
        return callable_list(map(tuple, np.argwhere(self.codes == CODE_MINE).tolist()), "Puzzle.known_mine_cells")

    @cached_property
    def stats(self) -> dict:
        """Counts of unknown, revealed, known-mine and known-safe cells."""
        if "_codes" not in self.__dict__:   # a small board checked without numpy: counted without it
            cells = self.cells
            return {
                "unknown": cells.count(UNKNOWN),
                "revealed": sum(cells.count(d) for d in "012345678"),
                "known_mines": cells.count(MINE),
                "known_safe": cells.count(SAFE),
            }
        counts = np.bincount((self.codes.ravel() + 1).astype(np.int64), minlength=12)
        return {
            "unknown": int(counts[0]),
            "revealed": int(counts[1:10].sum()),
            "known_mines": int(counts[CODE_MINE + 1]),
            "known_safe": int(counts[CODE_SAFE + 1]),
        }

    @property
    def unknown_count(self) -> int:
        """Number of unknown cells (the variables of every encoding)."""
        return self.stats["unknown"]

    @property
    def known_mine_count(self) -> int:
        """Number of cells marked as known mines."""
        return self.stats["known_mines"]

    # derived puzzles ----------------------------------------------------------------------------
    def replace(self, **changes) -> "Puzzle":
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def with_mines_at(self, mine_cells: Iterable[Tuple[int, int]]) -> "Puzzle":
        """The solved grid: unknown cells become '*' where listed and '.' elsewhere."""
        buf = bytearray(self.cells.replace(UNKNOWN, SAFE), "ascii")
        for r, c in mine_cells:
            i = r * self.cols + c
            if self.cells[i] == UNKNOWN:
                buf[i] = ord(MINE)
            elif self.cells[i] != MINE:
                raise PuzzleError(f"cell ({r}, {c}) is {self.cells[i]!r}, not an unknown cell, and cannot "
                                  "hold a mine", cell=(r, c))
        return replace(self, cells=buf.decode("ascii"))

    def __str__(self) -> str:
        """The grid as text, one row a line (print(puzzle) shows the board)."""
        return "\n".join(self.grid_lines)

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter shows a puzzle as its picture (its text while no renderer is registered)."""
        return svg_picture(self)

    def __repr__(self) -> str:
        extra = "".join(f", {k}={getattr(self, k)!r}" for k in ("mines", "name", "start") if getattr(self, k) is not None)
        if self.rows * self.cols <= 400:
            return f"Puzzle.from_rows({self.grid_lines!r}{extra})"
        return f"<Puzzle {self.rows}x{self.cols}{extra}>"
