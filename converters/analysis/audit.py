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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..core.bounds import DEFAULT_MEMORY_BUDGET, AnalysisTimeout
from ..core.puzzle import Puzzle, neighbour_count
from ..core.replay import (
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
from .advice import advise
from .report import analyze

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
    opened: Tuple[Cell, ...]          # every cell it opened, cascades included
    before: np.ndarray                # (rows, cols) bool: the cells open just before
    hit_mine: bool


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
    rows, cols = mines.shape
    counts = neighbour_count(mines)
    zero = (~mines) & (counts == 0)
    seen = np.zeros_like(mines)
    total = 0
    for r in range(rows):
        for c in range(cols):
            if zero[r, c] and not seen[r, c]:
                total += 1
                stack = [(r, c)]
                seen[r, c] = True
                while stack:
                    cell = stack.pop()
                    for n in neighbours(*cell, rows, cols):
                        if not seen[n]:
                            seen[n] = True
                            if zero[n]:
                                stack.append(n)
    return total + int(((~mines) & ~seen).sum())


class Game:
    """The board as the replay's clicks change it: which cells are open, which flagged, whether it ended."""

    def __init__(self, replay: Replay) -> None:
        self.mines = np.asarray(replay.mines, dtype=bool)
        self.rows, self.cols = self.mines.shape
        self.counts = neighbour_count(self.mines)
        self.open = np.zeros_like(self.mines)
        self.flags: Set[Cell] = set()
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

    def _open(self, cell: Cell, kind: str, time: float, risked: Tuple[Cell, ...]) -> None:
        before = self.open.copy()
        hit = any(self.mines[n] for n in risked)
        stack = list(risked)
        opened: List[Cell] = []
        while stack:
            n = stack.pop()
            if self.open[n] or (n in self.flags and n not in risked):
                continue
            self.open[n] = True
            opened.append(n)
            if not self.mines[n] and self.counts[n] == 0:
                stack.extend(m for m in neighbours(*n, self.rows, self.cols) if not self.open[m])
        self.openings.append(Opening(cell[0], cell[1], kind, time, risked, tuple(opened), before, hit))
        if hit:
            self.over = self.lost = True
        elif bool((self.open | self.mines).all()):
            self.over = True


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


def play(replay: Replay) -> Game:
    """Play the replay's mouse events on its layout; the Game holds the effective openings in order."""
    game = Game(replay)
    mouse = Mouse(game)
    for ev in replay.events:
        if ev.kind == GAME_FAIL:
            break
        kind = ev.kind
        if kind in TOGGLES:
            button, release, press = TOGGLES[kind]
            kind = release if getattr(mouse, button) else press
        mouse.event(kind, None if ev.row is None or ev.col is None else (ev.row, ev.col), ev.time)
    return game


def position(counts: np.ndarray, before: np.ndarray, total: int, safe: Sequence[Cell] = ()) -> Puzzle:
    """What the player saw: the open cells' counts, the rest unknown (`safe` cells given as known safe)."""
    cells = np.where(before, counts.astype(str).astype(object), "?").astype(object)
    for cell in safe:
        cells[cell] = "."
    rows, cols = counts.shape
    return Puzzle(rows, cols, "".join(cells.ravel().tolist()), mines=total)


def rate(game: Game, opening: Opening, total: int, timeout: Optional[float],
         memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET) -> Tuple[Optional[Fraction], bool, str]:
    """P(mine) for the opening just before it (None when not counted), whether another cell was provably
    safe then, and the analysis status ("complete", "partial": the counter passed its memory budget)."""
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
    safe = analyze(position(game.counts, opening.before, total, opening.risked), timeout=timeout,
                   memory_budget=memory_budget)
    if safe.status == "timeout":
        raise AnalysisTimeout("the analysis timed out")
    if safe.solutions is None:
        return None, elsewhere, "partial"
    return 1 - Fraction(safe.solutions, a.solutions), elsewhere, a.status


def audit(replay: Replay, *, timeout: Optional[float] = None,
          memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET, source: str = "") -> Audit:
    """Audit a replay: every effective opening with its exact P(mine), the guesses, the luck, 3BV and clicks.

    `timeout` bounds each position's analysis: past one that times out, the openings are left unrated
    (p_mine None) and the status is "timeout"; an opening the counter could not count within
    `memory_budget` is unrated too ("partial").
    """
    game = play(replay)
    result = Audit(game.rows, game.cols, replay.total, [], bbbv(game.mines), sum(game.clicks.values()),
                   game.lost, game.counts, source=source)
    for n, opening in enumerate(game.openings):
        if n == 0:   # nothing is known yet: every cell carries the density
            result.clicks.append(ClickAudit(opening, Fraction(replay.total, game.rows * game.cols), False))
        elif result.status == "timeout":
            result.clicks.append(ClickAudit(opening, None, None))
        else:
            try:
                p, elsewhere, status = rate(game, opening, replay.total, timeout, memory_budget)
            except AnalysisTimeout:
                result.status = "timeout"
                result.clicks.append(ClickAudit(opening, None, None))
                continue
            if status != "complete":
                result.status = "partial"
            engine = None
            if p:   # a guess: what the engine would have opened in that position
                engine = advise(position(game.counts, opening.before, replay.total), budget=timeout).move_json()
            result.clicks.append(ClickAudit(opening, p, elsewhere, engine))
    return result
