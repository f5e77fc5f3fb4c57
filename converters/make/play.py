"""Games played to the end: the simulator deals layouts, a player sees only what a person would, and a tally.

The rules are MineSweeperProb's (the field's tables use them): boards are rows x cols; under SNR the first
click and its 8 neighbours are mine-free, so the first click opens an area; under SFAR only the first click
is; the mines lie uniformly over the other cells. A zero opens its neighbours; a game is won when every safe
cell is open and lost when a mine is opened. The simulator makes the first click itself (at `first`), then
asks the player for one cell at a time.

A player is a callable Puzzle -> (row, col). The Puzzle it gets holds the opened counts, '?' elsewhere and
the total mine count: never a mine, never a layout. Game i of a run is dealt from numpy's Generator seeded
with (seed, i) alone, so a run split over processes plays the same games as one process, game for game.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from ..core.errors import InputError
from ..core.puzzle import Puzzle, neighbour_count
from ..core.wording import plural

Cell = Tuple[int, int]
Player = Callable[[Puzzle], Cell]

BOARDS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
RULES = ("snr", "sfar")
MAX_CELLS = 1 << 20                  # a board past a million cells is no game a player is asked to play
_BOARD = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*/\s*(\d+)\s*$")
_FIRST = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s*$")
Z95 = 1.959963984540054              # the normal quantile of a two-sided 95% interval


def parse_board(text: str) -> Tuple[int, int, int]:
    """(rows, cols, mines) of 'beginner', 'intermediate', 'expert' or 'RxC/M' (rows x cols, M mines)."""
    name = text.strip().lower()
    if name in BOARDS:
        return BOARDS[name]
    m = _BOARD.match(text)
    if m is None:
        raise InputError(f"--board {text!r}: expected {', '.join(BOARDS)} or ROWSxCOLS/MINES (as 16x30/99)")
    rows, cols, mines = map(int, m.groups())
    if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
        raise InputError(f"--board {text!r}: the board must have 1 to {MAX_CELLS} cells")
    return rows, cols, mines


def parse_first(text: str) -> Cell:
    """(row, col), 0-based, of 'R,C'."""
    m = _FIRST.match(text)
    if m is None:
        raise InputError(f"--first {text!r}: expected ROW,COL (0-based, as 3,3)")
    return int(m.group(1)), int(m.group(2))


def default_first(rows: int, cols: int, rule: str) -> Cell:
    """The first click of the field's tables: (0, 0) under SFAR; under SNR (3, 3) on boards 30 wide and up
    (expert), else (2, 2), each kept on the board."""
    if rule == "sfar":
        return 0, 0
    at = 3 if cols >= 30 else 2
    return min(at, rows - 1), min(at, cols - 1)


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares: the board, the rule and the first click."""

    rows: int
    cols: int
    mines: int
    rule: str = "snr"
    first: Cell = (2, 2)

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise InputError(f"unknown rule {self.rule!r}; valid: {', '.join(RULES)}")
        r, c = self.first
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise InputError(f"--first {r},{c} is outside the {self.rows} x {self.cols} board")
        room = self.rows * self.cols - len(self.protected())
        if not 0 <= self.mines <= room:
            raise InputError(f"{plural(self.mines, 'mine')} do not fit: under {self.rule.upper()} "
                             f"{plural(room, 'cell')} of the {self.rows} x {self.cols} board may hold one")

    def protected(self) -> List[int]:
        """The flat indices the rule keeps mine-free: the first click, and under SNR its neighbours."""
        r, c = self.first
        if self.rule == "sfar":
            return [r * self.cols + c]
        return [rr * self.cols + cc for rr in range(max(r - 1, 0), min(r + 2, self.rows))
                for cc in range(max(c - 1, 0), min(c + 2, self.cols))]

    def label(self) -> str:
        """'16x30/99 SNR, first click (3, 3)'."""
        return f"{self.rows}x{self.cols}/{self.mines} {self.rule.upper()}, first click {self.first}"


def make_setup(board: str = "expert", rule: str = "snr", first: Optional[str] = None) -> Setup:
    """The Setup of the CLI's --board, --rule and --first texts (the rule's default first click when None)."""
    rows, cols, mines = parse_board(board)
    rule = rule.lower()
    if rule not in RULES:
        raise InputError(f"--rule {rule!r}: valid: {', '.join(RULES)}")
    cell = default_first(rows, cols, rule) if first is None else parse_first(first)
    return Setup(rows, cols, mines, rule, cell)


@lru_cache(maxsize=8)
def free_cells(setup: Setup) -> np.ndarray:
    """The flat indices of the cells the rule lets hold a mine, in order (made once per setup)."""
    free = np.ones(setup.rows * setup.cols, dtype=bool)
    free[setup.protected()] = False
    cells = np.flatnonzero(free)
    cells.flags.writeable = False
    return cells


def deal(setup: Setup, seed: int, index: int) -> np.ndarray:
    """Game `index`'s layout, (rows, cols) bool: the mines uniform over the cells the rule leaves free,
    drawn from a Generator seeded with (seed, index) alone."""
    if seed < 0 or index < 0:
        raise InputError(f"seed and game index must be >= 0, got {seed} and {index}")
    cells = free_cells(setup)
    rng = np.random.default_rng([seed, index])
    flat = np.zeros(setup.rows * setup.cols, dtype=bool)
    flat[cells[rng.choice(cells.size, size=setup.mines, replace=False)]] = True
    return flat.reshape(setup.rows, setup.cols)


@lru_cache(maxsize=8)
def neighbour_lists(rows: int, cols: int) -> Tuple[Tuple[int, ...], ...]:
    """Per flat cell, the flat indices of its up to 8 neighbours (made once per board size)."""
    return tuple(tuple(rr * cols + cc for rr in range(max(r - 1, 0), min(r + 2, rows))
                       for cc in range(max(c - 1, 0), min(c + 2, cols)) if (rr, cc) != (r, c))
                 for r in range(rows) for c in range(cols))


class Board:
    """One game's board as it is played: the layout (hidden), the cells opened so far, won or lost.

    The opened state is a bytearray of cell symbols kept up to date by each opening, so the position a
    player sees is one decode away, whatever the size of the board.
    """

    def __init__(self, layout: np.ndarray) -> None:
        self.rows, self.cols = layout.shape
        self.total = int(layout.sum())
        self.mine: List[bool] = layout.ravel().tolist()
        self.symbol = (neighbour_count(layout) + ord("0")).astype(np.uint8).tobytes()
        self.near = neighbour_lists(self.rows, self.cols)
        self.cells = bytearray(b"?" * (self.rows * self.cols))
        self.closed_safe = self.rows * self.cols - self.total
        self.lost = False

    @property
    def won(self) -> bool:
        """Every safe cell is open (and no mine was)."""
        return self.closed_safe == 0 and not self.lost

    @property
    def over(self) -> bool:
        """Won or lost."""
        return self.lost or self.closed_safe == 0

    def open(self, row: int, col: int) -> int:
        """Open a closed cell (a zero opens its neighbours, iteratively); how many cells opened, 0 on a mine."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise InputError(f"cell ({row}, {col}) is outside the {self.rows} x {self.cols} board")
        at = row * self.cols + col
        if self.cells[at] != ord("?"):
            raise InputError(f"cell ({row}, {col}) is already open")
        if self.mine[at]:
            self.lost = True
            return 0
        cells, symbol, near = self.cells, self.symbol, self.near
        cells[at] = symbol[at]
        stack = [at] if symbol[at] == ord("0") else []
        opened = 1
        while stack:
            for n in near[stack.pop()]:
                if cells[n] == ord("?"):   # a zero's neighbours are never mines
                    cells[n] = symbol[n]
                    opened += 1
                    if symbol[n] == ord("0"):
                        stack.append(n)
        self.closed_safe -= opened
        return opened

    def position(self) -> Puzzle:
        """What the player sees: the opened counts, '?' on every other cell, and the total.

        Made without Puzzle's checks, as analyze's quick path makes its answers: the counts come from a
        real layout, so they hold by construction (tests/make/test_play.py compares it with a checked Puzzle),
        and the checks cost more than the rest of the simulator's move.
        """
        made = object.__new__(Puzzle)
        made.__dict__.update(rows=self.rows, cols=self.cols, cells=self.cells.decode("ascii"), mines=self.total,
                             name=None, notes=(), start=None, wires=())
        return made


@dataclass
class GameResult:
    """One game played: its index in the run, won or not, the cells clicked in order (the first click
    first; left empty by a run that does not keep them), how many, and the process CPU seconds it took
    (the player's and the simulator's)."""

    index: int
    won: bool
    clicks: List[Cell] = field(default_factory=list)
    cpu: float = 0.0
    click_count: int = 0

    def to_json(self) -> dict:
        """{"index", "won", "clicks": [[row, col], ...], "click_count", "cpu"}."""
        return {"index": self.index, "won": self.won, "clicks": [list(c) for c in self.clicks],
                "click_count": self.click_count, "cpu": self.cpu}


def play_game(setup: Setup, layout: np.ndarray, player: Player, index: int = 0) -> GameResult:
    """Play one game on this layout: the first click by the rule, then the player's, until won or lost.

    Raises InputError when the player names a cell off the board or one already open.
    """
    start = time.process_time()
    board = Board(layout)
    result = GameResult(index, False, [setup.first])
    board.open(*setup.first)
    while not board.over:
        move = player(board.position())
        try:
            row, col = int(move[0]), int(move[1])
            board.open(row, col)
        except (TypeError, IndexError, ValueError) as exc:
            raise InputError(f"game {index}: the player's move {move!r} after {plural(len(result.clicks), 'click')}"
                             f" cannot be played: {exc}") from None
        result.clicks.append((row, col))
    result.won = board.won
    result.click_count = len(result.clicks)
    result.cpu = time.process_time() - start
    return result


def wilson(wins: int, games: int, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); (0, 1) for no games."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


def chunks_of(games: int, size: int) -> List[range]:
    """The game indices 0..games-1 cut into ranges of `size` (the last one shorter)."""
    return [range(i, min(i + size, games)) for i in range(0, games, max(1, size))]


class Tally:
    """A run's outcomes by game index, its CPU seconds and, when kept, its results.

    The outcomes are one byte per game index, so a million games take a megabyte; `keep=False` drops the
    results themselves (a game's clicks are kilobytes).
    """

    def __init__(self, keep: bool = True) -> None:
        self.keep = keep
        self.results: List[GameResult] = []
        self.won = bytearray()          # per game index: 0 not played, 1 lost, 2 won
        self.games = 0
        self.wins = 0
        self.cpu = 0.0

    def add(self, results: Sequence[GameResult]) -> None:
        """Take a chunk's results (in any order)."""
        for r in results:
            if r.index >= len(self.won):
                self.won.extend(bytes(r.index + 1 - len(self.won)))
            self.won[r.index] = 2 if r.won else 1
            self.games += 1
            self.wins += r.won
            self.cpu += r.cpu
        if self.keep:
            self.results.extend(results)

    def outcomes(self) -> str:
        """One letter per game in index order: 'W' won, 'L' lost ('-' for an index not played)."""
        return bytes(self.won).translate(OUTCOME_LETTERS).decode("ascii")


OUTCOME_LETTERS = bytes.maketrans(b"\0\1\2", b"-LW")
