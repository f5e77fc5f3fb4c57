"""A replay audited: at every opening, how likely the player was to hit a mine, and whether they had to risk it.

The game is played again from the replay's mouse events (`play`): left releases open a cell (a zero opens its
neighbourhood), chords (both buttons, the middle button, Shift+left) on a count whose flagged neighbours
match it open the other neighbours. For each opening that opened at least one new cell, the position the
player saw just before (the opened counts and the total; their flags are not knowledge: a flag can be
wrong) is analysed exactly: the chance that the click hits a mine (for a chord, that any of the cells it
opens does, jointly), and whether some other cell was provably safe. The running luck is ms-toollib's
`pluck`: -log10 of the chance that every opening after the first was safe.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np

from ...core.bounds import DEFAULT_MEMORY_BUDGET, AnalysisTimeout
from ...core.errors import InputError
from ...core.fileio import too_many_cells
from ...core.puzzle import Puzzle, neighbour_count
from ...core.replay import (
    GAME_FAIL,
    LEFT_PRESS,
    LEFT_RELEASE,
    LEFT_TOGGLE,
    MIDDLE_PRESS,
    MIDDLE_RELEASE,
    MIDDLE_TOGGLE,
    PRE_FLAG,
    RIGHT_PRESS,
    RIGHT_RELEASE,
    RIGHT_TOGGLE,
    SECOND_PRESS,
    SHIFT_LEFT_PRESS,
    Replay,
)
from ..advice import advise
from ..report import analyze
from .regions import Regions, dilate
from .verdict import ENGINE_MAX_UNKNOWN

Cell = Tuple[int, int]
LEFT = "left"
CHORD = "chord"
RIGHT = "right"


@dataclass(frozen=True)
class Opening:
    """One effective opening: the cell clicked, how, when, the cells it opened, and the board before it."""

    row: int
    col: int
    kind: str                         # LEFT or CHORD
    time: float
    risked: Tuple[Cell, ...]          # the closed cells it opened directly (a chord's unflagged neighbours)
    opened_cells: np.ndarray          # every cell it opened, cascades included: flat indices (row * cols + col)
    step: int                         # its place among the game's openings (0: the first)
    opened_by: np.ndarray = field(repr=False, compare=False)   # the game's: per cell, the opening that opened it
    hit_mine: bool = False

    @property
    def opened(self) -> Tuple[Cell, ...]:
        """Every cell it opened, as (row, col): made when asked (a cascade can open millions)."""
        cols = self.opened_by.shape[1]
        return tuple(divmod(int(i), cols) for i in self.opened_cells.tolist())

    @property
    def before(self) -> np.ndarray:
        """(rows, cols) bool: the cells open just before it. Made when asked, from the game's one array: a
        copy of the board per opening took 4 MB each on 2000 x 2000."""
        return self.opened_by < self.step


@dataclass
class ClickAudit:
    """An opening with its risk: P(mine) just before it, and whether a safe cell existed elsewhere."""

    opening: Opening
    p_mine: Optional[Fraction]        # None when the analysis timed out
    safe_elsewhere: Optional[bool]
    engine: Optional[Dict[str, Any]] = None   # on a guess, the engine's move then (Advice.move_json)

    def to_json(self) -> Dict[str, Any]:
        """One entry of the JSON's "clicks"."""
        o = self.opening
        return {"row": o.row, "col": o.col, "kind": o.kind, "time": o.time,
                "p_mine": None if self.p_mine is None else float(self.p_mine),
                "safe_elsewhere": self.safe_elsewhere, "engine": self.engine}


@dataclass
class Audit:
    """The audit of one replay: every effective opening with its risk, the luck and the counts."""

    rows: int
    cols: int
    mines: int
    clicks: List[ClickAudit]
    bbbv: int
    clicks_total: int
    lost: bool
    counts: np.ndarray                # (rows, cols): each cell's mine-neighbour count, to redraw a position
    source: str = ""
    status: str = "complete"

    @property
    def guesses(self) -> List[ClickAudit]:
        """The openings after the first that risked a mine."""
        return [c for c in self.clicks[1:] if c.p_mine is not None and c.p_mine > 0]

    @property
    def forced_guesses(self) -> int:
        """Guesses made when no cell anywhere was provably safe."""
        return sum(1 for c in self.guesses if c.safe_elsewhere is False)

    @property
    def avoidable_guesses(self) -> int:
        """Guesses made while some other cell was provably safe."""
        return sum(1 for c in self.guesses if c.safe_elsewhere)

    @property
    def luck(self) -> Optional[float]:
        """-log10 P(every opening after the first was safe); None when a mine was hit (infinite) or unknown."""
        if self.lost:
            return None
        total = 0.0
        for c in self.clicks[1:]:
            if c.p_mine is None:
                return None
            total -= math.log10(1 - c.p_mine)
        return total + 0.0

    def luck_reason(self) -> Optional[str]:
        """Why the luck is null, or None when it is a number."""
        if self.lost:
            return "a mine was hit: the chance of the game as played is 0 (luck is infinite)"
        if any(c.p_mine is None for c in self.clicks[1:]):
            return ("the analysis timed out before every opening was rated" if self.status == "timeout"
                    else "an opening could not be counted within the memory budget")
        return None

    def to_json(self) -> Dict[str, Any]:
        """The JSON of `mineconv audit --json`."""
        out: Dict[str, Any] = {"file": self.source, "rows": self.rows, "cols": self.cols, "mines": self.mines,
                               "clicks": [c.to_json() for c in self.clicks], "luck": self.luck}
        reason = self.luck_reason()
        if reason:
            out["luck_reason"] = reason
        out.update(forced_guesses=self.forced_guesses, avoidable_guesses=self.avoidable_guesses,
                   bbbv=self.bbbv, clicks_total=self.clicks_total, lost=self.lost, status=self.status)
        return out


def neighbours(r: int, c: int, rows: int, cols: int) -> Iterator[Cell]:
    """The up to 8 cells around (r, c)."""
    for rr in range(max(r - 1, 0), min(r + 2, rows)):
        for cc in range(max(c - 1, 0), min(c + 2, cols)):
            if (rr, cc) != (r, c):
                yield rr, cc


def bbbv(mines: np.ndarray) -> int:
    """The layout's 3BV: the fewest left clicks that open every safe cell (one per zero region, one per
    safe cell no zero touches)."""
    return Regions(mines).bbbv()


class Game:
    """The board as the replay's clicks change it: which cells are open, which flagged, whether it ended."""

    def __init__(self, replay: Replay) -> None:
        self.mines = np.asarray(replay.mines, dtype=bool)
        self.rows, self.cols = self.mines.shape
        self.counts = neighbour_count(self.mines)
        self.open = np.zeros_like(self.mines)
        self.opened_by = np.full(self.mines.shape, np.iinfo(np.int32).max, dtype=np.int32)
        self.flags: Set[Cell] = set()
        self.cut = False   # the replay's events were not all played (its deadline passed)
        self._regions: Optional[Regions] = None
        self.over = False
        self.lost = False
        self.openings: List[Opening] = []
        self.clicks: Dict[str, int] = {LEFT: 0, RIGHT: 0, CHORD: 0}

    def click(self, kind: str) -> None:
        """Count a click (left, right or chord, on the board or off it) made while the game runs."""
        if not self.over:
            self.clicks[kind] += 1

    def flag(self, cell: Cell) -> None:
        """A right click on a closed cell: its flag goes on or off (Mouse counts those on open cells)."""
        if not self.over and not self.open[cell]:
            self.click(RIGHT)
            self.flags ^= {cell}

    def left(self, cell: Cell, time: float) -> None:
        """A left release on a cell: opens it unless open or flagged."""
        if not self.over and not self.open[cell] and cell not in self.flags:
            self._open(cell, LEFT, time, (cell,))

    def chord(self, cell: Cell, time: float) -> None:
        """A chord on a cell: on an open count whose flagged neighbours match it, opens the other neighbours."""
        if self.over or not self.open[cell] or self.mines[cell]:
            return
        around = list(neighbours(*cell, self.rows, self.cols))
        if sum(1 for n in around if n in self.flags) != self.counts[cell]:
            return
        risked = tuple(n for n in around if not self.open[n] and n not in self.flags)
        if risked:
            self._open(cell, CHORD, time, risked)

    @property
    def regions(self) -> Regions:
        """The layout's zero regions (found on first use)."""
        if self._regions is None:
            self._regions = Regions(self.mines, self.counts)
        return self._regions

    def _open(self, cell: Cell, kind: str, time: float, risked: Tuple[Cell, ...]) -> None:
        hit = any(self.mines[n] for n in risked)
        opened = self._cascade(risked)
        if opened is None:
            opened = self._cascade_by_cells(risked)
        step = len(self.openings)
        self.open.flat[opened] = True
        self.opened_by.flat[opened] = step
        self.openings.append(Opening(cell[0], cell[1], kind, time, risked, opened, step, self.opened_by, hit))
        if hit:
            self.over = self.lost = True
        elif bool((self.open | self.mines).all()):
            self.over = True

    def _cascade(self, risked: Tuple[Cell, ...]) -> Optional[np.ndarray]:
        """The cells the risked ones open, from the zero regions in numpy (row-major); None when a flag
        lies where the cascade goes (a flag stops it: cell by cell then)."""
        zero = [r * self.cols + c for r, c in risked if not self.mines[r, c] and self.counts[r, c] == 0]
        if not zero:
            return np.asarray([r * self.cols + c for r, c in risked if not self.open[r, c]], dtype=np.int64)
        reached = np.zeros(self.mines.shape, dtype=bool)
        for label in {self.regions.label(z) for z in zero}:
            cells = self.regions.cells(label)
            if self.open.flat[cells].any():   # a flag once stopped a cascade into this region
                return None
            reached.flat[cells] = True
        reached = dilate(reached)
        if any(reached[f] for f in self.flags):
            return None
        for n in risked:
            reached[n] = True
        reached &= ~self.open
        return np.flatnonzero(reached)

    def _cascade_by_cells(self, risked: Tuple[Cell, ...]) -> np.ndarray:
        """The cells the risked ones open, one at a time (the flags' way)."""
        seen = self.open.copy()
        stack = list(risked)
        opened: List[Cell] = []
        while stack:
            n = stack.pop()
            if seen[n] or (n in self.flags and n not in risked):
                continue
            seen[n] = True
            opened.append(n)
            if not self.mines[n] and self.counts[n] == 0:
                stack.extend(m for m in neighbours(*n, self.rows, self.cols) if not seen[m])
        return np.asarray([r * self.cols + c for r, c in opened], dtype=np.int64)


class Mouse:
    """The buttons as the replay's events move them, turned into clicks on a Game.

    A left release opens; with the right button also down (or after a Shift+left press, or on a middle
    release) it is a chord, made by whichever button goes up first; the other button's release then does
    nothing, unless that button was pressed again (a new chord). A right press alone flags a closed cell;
    on an open cell it is a right click only if no chord follows before its release.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.left = self.right = self.middle = self.shift = False
        self.chorded = False          # a chord was made since the buttons last went down
        self.lone_right = False       # a right press on an open cell (or off the board), no chord yet

    def event(self, kind: str, cell: Optional[Cell], time: float) -> None:
        """Apply one mouse event."""
        if kind == PRE_FLAG and cell is not None:
            self.game.flags.add(cell)
        elif kind in (LEFT_PRESS, SHIFT_LEFT_PRESS):
            self.left, self.shift, self.chorded = True, kind == SHIFT_LEFT_PRESS, False
            self.lone_right = False
        elif kind == SECOND_PRESS:
            self.left = self.right = True
            self.chorded = self.lone_right = False
        elif kind == RIGHT_PRESS:
            self.right_press(cell)
        elif kind == LEFT_RELEASE:
            if (self.right or self.shift) and not self.chorded:
                self.chord(cell, time)
            elif self.left and not self.chorded:
                self.game.click(LEFT)
                if cell is not None:
                    self.game.left(cell, time)
            self.left = self.shift = False
            self.chorded = self.chorded and self.right
        elif kind == RIGHT_RELEASE:
            if self.left and not self.chorded:
                self.chord(cell, time)
            elif self.lone_right:
                self.game.click(RIGHT)
            self.right = self.lone_right = False
            self.chorded = self.chorded and self.left
        elif kind == MIDDLE_PRESS:
            self.middle = True
        elif kind == MIDDLE_RELEASE:
            self.middle = False
            self.chord(cell, time)

    def right_press(self, cell: Optional[Cell]) -> None:
        """A right press: a flag on a closed cell, or the start of a chord."""
        if not self.left:
            if cell is not None and not self.game.open[cell]:
                self.game.flag(cell)
            else:
                self.lone_right = True
        self.right, self.chorded = True, False

    def chord(self, cell: Optional[Cell], time: float) -> None:
        """A chord made at the cell under the pointer."""
        self.chorded = True
        self.game.click(CHORD)
        if cell is not None:
            self.game.chord(cell, time)


# Metasweeper's toggles say a button changed state; the button state says which way
TOGGLES = {LEFT_TOGGLE: ("left", LEFT_RELEASE, LEFT_PRESS), RIGHT_TOGGLE: ("right", RIGHT_RELEASE, RIGHT_PRESS),
           MIDDLE_TOGGLE: ("middle", MIDDLE_RELEASE, MIDDLE_PRESS)}


def play(replay: Replay, deadline: Optional[float] = None) -> Game:
    """Play the replay's mouse events on its layout; the Game holds the effective openings in order.

    Past the `deadline` (time.monotonic()) the events left are not played and `game.cut` is set."""
    game = Game(replay)
    mouse = Mouse(game)
    for n, ev in enumerate(replay.events):
        if ev.kind == GAME_FAIL:
            break
        if deadline is not None and n & 63 == 63 and time.monotonic() >= deadline:
            game.cut = True
            break
        kind = ev.kind
        if kind in TOGGLES:
            button, release, press = TOGGLES[kind]
            kind = release if getattr(mouse, button) else press
        mouse.event(kind, None if ev.row is None or ev.col is None else (ev.row, ev.col), ev.time)
    return game


def position(counts: np.ndarray, before: np.ndarray, total: int, safe: Sequence[Cell] = ()) -> Puzzle:
    """What the player saw: the open cells' counts, the rest unknown (`safe` cells given as known safe)."""
    # bytes in numpy: a string object per cell took seconds per position on 2000 x 2000
    cells = np.where(before, counts.astype(np.uint8) + ord("0"), ord("?")).astype(np.uint8)
    for cell in safe:
        cells[cell] = ord(".")
    rows, cols = counts.shape
    return Puzzle(rows, cols, cells.tobytes().decode("ascii"), mines=total)


def rate(game: Game, opening: Opening, total: int, timeout: Optional[float],
         memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET) -> Tuple[Optional[Fraction], bool, str]:
    """P(mine) for the opening just before it (None when not counted), whether another cell was provably
    safe then, and the analysis status ("complete", "partial": the counter passed its memory budget).
    `timeout` bounds both analyses of a chord together."""
    deadline = None if timeout is None else time.monotonic() + timeout
    a = analyze(position(game.counts, opening.before, total), timeout=timeout, memory_budget=memory_budget)
    if a.status == "timeout":
        raise AnalysisTimeout("the analysis timed out")
    elsewhere = any(cell not in opening.risked for cell in a.safe_cells)
    if all(cell in a.safe_cells for cell in opening.risked):
        return Fraction(0), elsewhere, a.status
    if a.solutions is None or a.mine_solutions is None:
        return None, elsewhere, "partial"
    if len(opening.risked) == 1:
        index = {tuple(rc): i for i, rc in enumerate(a.system.var_rc.tolist())}
        return Fraction(a.mine_solutions[index[opening.risked[0]]], a.solutions), elsewhere, a.status
    # a chord: the chance that every cell it opens is safe, counted with those cells given as safe
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    safe = analyze(position(game.counts, opening.before, total, opening.risked), timeout=left,
                   memory_budget=memory_budget)
    if safe.status == "timeout":
        raise AnalysisTimeout("the analysis timed out")
    if safe.solutions is None:
        return None, elsewhere, "partial"
    return 1 - Fraction(safe.solutions, a.solutions), elsewhere, a.status


def audit(replay: Replay, *, timeout: Optional[float] = None,
          memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET, source: str = "") -> Audit:
    """Audit a replay: every effective opening with its exact P(mine), the guesses, the luck, 3BV and clicks.

    `timeout` bounds the whole audit: each position's analysis gets the time left, and past the deadline
    the openings left are unrated (p_mine None) and the status is "timeout" (a replay of 3,000 clicks took
    10 minutes with a timeout per position). An opening the counter could not count within `memory_budget`
    is unrated too ("partial"). A board past --max-cells is refused, as `info` refuses it.
    """
    too_big = too_many_cells(replay.rows, replay.cols)
    if too_big:
        raise InputError(too_big)
    deadline = None if timeout is None else time.monotonic() + timeout
    game = play(replay, deadline)
    result = Audit(game.rows, game.cols, replay.total, [], game.regions.bbbv(), sum(game.clicks.values()),
                   game.lost, game.counts, source=source, status="timeout" if game.cut else "complete")
    for n, opening in enumerate(game.openings):
        left = None if deadline is None else deadline - time.monotonic()
        if n == 0:   # nothing is known yet: every cell carries the density
            result.clicks.append(ClickAudit(opening, Fraction(replay.total, game.rows * game.cols), False))
        elif result.status == "timeout" or (left is not None and left <= 0):
            result.status = "timeout"
            result.clicks.append(ClickAudit(opening, None, None))
        else:
            try:
                p, elsewhere, status = rate(game, opening, replay.total, left, memory_budget)
            except AnalysisTimeout:
                result.status = "timeout"
                result.clicks.append(ClickAudit(opening, None, None))
                continue
            if status != "complete":
                result.status = "partial"
            engine = None
            seen = position(game.counts, opening.before, replay.total) if p else None
            # a guess: what the engine would have opened there, on a position small enough for its count,
            # which takes no deadline (verdict's cap; past it engine stays null, as on a safe click)
            if seen is not None and seen.unknown_count <= ENGINE_MAX_UNKNOWN:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                engine = advise(seen, budget=left).move_json()
            result.clicks.append(ClickAudit(opening, p, elsewhere, engine))
    return result
