"""No-guess games: a mine layout and a first click from which a player never has to guess.

A board is no-guess from its first click when this replay clears it: open the first click (its cell and
neighbours hold no mine, so it shows 0 and opens a region, zeros cascading as in the game), then over and
over open every cell that is safe in every layout consistent with the revealed counts and the total mine
count. The solver (mineconv.make.noguess_solver) does this incrementally in plain Python: single counts,
then pairs of counts, then exact enumeration of the frontier with the total, and the SAT backbone only for
a frontier too big to enumerate; the board is no-guess when the safe cells run out before the reasoning
does.

Two ways to find one. By default (repaired), a random layout is repaired where the replay gets stuck, as
below: fast, but not uniform among no-guess layouts. With `uniform`, fresh random layouts (the first
click's block free) are drawn until the replay clears one, which is exactly uniform among the no-guess
layouts with that block free, and costs as many replays as layouts are rejected.

What was taken from the two generators the issue names:

- ms-toollib's ``laymine_solvable`` (Rust, "screening method"): lay mines uniformly with the first
  click's 3 x 3 block kept free (``laymine_op``), run its solver from the click, and throw the layout away
  when it gets stuck, up to ``max_times`` layouts. The layouts it returns are uniform among the solvable
  ones, but on expert boards most layouts are rejected. Its solver (``is_solvable``: single counts, the
  subtraction of two counts, then enumeration of small frontier blocks) ignores the total mine count.
  From it: the free 3 x 3 block at the first click, and a fresh layout per attempt.
- Simon Tatham's Mines (``mines.c``: ``minegen``, ``mineperturb``): when the solver is stuck, it does not
  start over but perturbs the layout locally. The stuck set (the unknown neighbours of one count the
  solver could not settle) is emptied of its mines, or filled, by swapping with squares outside it,
  taken first from the unknown squares on the border of the known area, then from the unknown squares
  beyond it, then, as a last resort, from known squares, never within one square of the first click; the
  mine count stays the same and the solve is run again from the first click. From it: this repair, with
  the same preference order and the same 3 x 3 exclusion. The repaired layouts are not uniform (mines
  drift away from what was stuck), the price of needing far fewer layouts.

Tatham gives up a layout when a repair stops reducing the solver's work; here a layout is given up after
REPAIR_PATIENCE repairs in a row that did not let the replay open more cells than before, and the next
layout comes from the same seeded stream, so a seed always gives the same board (the deadline only
decides whether it is found in time).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np

from ..core.bounds import DEFAULT_MEMORY_BUDGET, UNBOUNDED, AnalysisTimeout, Bounds, size_text
from ..core.errors import InputError, MineconvError, ResourceError
from ..core.layout import dilate, mine_counts
from ..core.puzzle import Puzzle
from ..core.wording import plural
from .noguess_solver import FLAGGED, OPENED, cell_bytes, play

# repairs in a row that open no more cells than the best replay of this layout so far, before a new layout
REPAIR_PATIENCE = 12
DEFAULT_MAX_LAYOUTS = 1000
# --uniform draws fresh layouts only: at expert density about 1 in 7 clears, at 27% mines about 1 in 400
DEFAULT_MAX_UNIFORM = 100_000
# the rule of thumb of check_request: above this share of mines among the free cells, on boards with more
# free cells than this, random layouts with local repair found no no-guess layout (30 x 30 with 600 mines:
# none in 1000 layouts; 16 x 30 with 330 mines: 1 search in 3). Smaller boards succeed even at 80%.
HEURISTIC_DENSITY = 0.6
HEURISTIC_FREE_CELLS = 600


class NoGuessMemoryError(ResourceError, MemoryError):
    """A no-guess search would hold more than its memory budget (refused before anything is built; exit 2)."""


class NoGuessFailure(MineconvError, RuntimeError):
    """No no-guess layout was found within the time or layout bound (exit status 1)."""

    exit_status = 1


@dataclass(frozen=True)
class Replay:
    """How far the no-guess replay got: the opened cells, the mines it proved, and whether it cleared the board."""

    cleared: bool
    opened: np.ndarray        # (rows, cols) bool: cells the player opened (or that cascaded open)
    proven_mines: np.ndarray  # (rows, cols) bool: mines the reasoning proved
    rounds: int               # times single counts were stuck (the pair rule or the exact step went on)
    sat_rounds: int           # of those, frontiers too big to enumerate, decided by the SAT backbone


@dataclass(frozen=True)
class NoGuessLayout:
    """A no-guess layout: the mine grid, its first click, and what finding it took."""

    mines: np.ndarray         # (rows, cols) bool
    start: Tuple[int, int]
    layouts: int              # fresh layouts drawn (1 when the first one could be repaired)
    repairs: int              # local repairs over all layouts
    seconds: float


def start_block(rows: int, cols: int, start: Tuple[int, int]) -> np.ndarray:
    """The first click and its neighbours: the cells a no-guess layout keeps free of mines."""
    block = np.zeros((rows, cols), dtype=bool)
    r, c = start
    block[max(0, r - 1):r + 2, max(0, c - 1):c + 2] = True
    return block


def replay(mine_grid: np.ndarray, start: Tuple[int, int], bounds: Bounds = UNBOUNDED) -> Replay:
    """Play the board from `start` opening only provably safe cells (full reasoning with the total) until stuck or cleared.

    Raises MineconvError when the first click holds a mine, AnalysisTimeout past the deadline of `bounds`.
    """
    R, C = mine_grid.shape
    r0, c0 = start
    if not (0 <= r0 < R and 0 <= c0 < C):
        raise InputError(f"the first click ({r0}, {c0}) is outside the {R} x {C} board")
    if mine_grid[r0, c0]:
        raise InputError(f"the first click ({r0}, {c0}) holds a mine")
    board, rounds, sat_rounds = play(mine_grid, start, bounds)
    state = np.frombuffer(bytes(board.state), dtype=np.uint8).reshape(R, C)
    return Replay(board.safe_left == 0, state == OPENED, state == FLAGGED, rounds, sat_rounds)


def _stuck_set(opened: np.ndarray, flagged: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Tatham's perturbation set: the undecided unknown neighbours of one revealed count, picked at random.

    When no count borders an undecided cell (the rest is walled off by proven mines), the set is every
    undecided cell, as in Tatham's big perturbation of the whole unreachable area.
    """
    unknown = ~opened & ~flagged
    R, C = opened.shape
    # counts that still border an undecided cell
    border = opened & dilate(unknown)
    cells = np.argwhere(border)
    if not len(cells):
        return unknown
    r, c = cells[rng.integers(len(cells))]
    block = np.zeros((R, C), dtype=bool)
    block[max(0, r - 1):r + 2, max(0, c - 1):c + 2] = True
    return block & unknown


def repair(mine_grid: np.ndarray, stuck: Replay, start: Tuple[int, int], rng: np.random.Generator) -> bool:
    """Move mines in or out of a stuck set as Tatham's mineperturb does (mutates mine_grid); False if impossible.

    The squares swapped with the set are taken in Tatham's order of preference: unknown squares on the
    border of what the player has opened, then unknown squares beyond it, then known squares; none within
    one square of the first click. Within each class the order is random (from rng).
    """
    R, C = mine_grid.shape
    target = _stuck_set(stuck.opened, stuck.proven_mines, rng)
    known = stuck.opened | stuck.proven_mines
    usable = ~target & ~start_block(R, C, start)
    border = ~known & dilate(stuck.opened)
    klass = np.where(known, 3, np.where(border, 1, 2))
    cand = np.flatnonzero(usable.ravel())
    order = np.lexsort((rng.random(cand.size), klass.ravel()[cand]))
    cand = cand[order]
    flat = mine_grid.reshape(-1)
    in_set = np.flatnonzero(target.ravel())
    full, empty = in_set[flat[in_set]], in_set[~flat[in_set]]
    # walk the candidates until there are enough empty squares to take the set's mines, or enough mined
    # squares to fill the set's empty ones, whichever comes first
    is_mine = flat[cand]
    n_empty_seen = np.cumsum(~is_mine)
    n_mine_seen = np.cumsum(is_mine)
    stop_empty = np.searchsorted(n_empty_seen, full.size) if full.size else -1
    stop_fill = np.searchsorted(n_mine_seen, empty.size) if empty.size else -1
    can_empty = full.size and stop_empty < cand.size
    can_fill = empty.size and stop_fill < cand.size
    if not can_empty and not can_fill:
        return False
    if can_empty and (not can_fill or stop_empty <= stop_fill):
        dest = cand[:stop_empty + 1][~is_mine[:stop_empty + 1]]
        flat[full] = False
        flat[dest] = True
    else:
        src = cand[:stop_fill + 1][is_mine[:stop_fill + 1]]
        flat[src] = False
        flat[empty] = True
    return True


def check_request(rows: int, cols: int, mines: int, start: Tuple[int, int], *,
                  memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET, any_density: bool = False) -> None:
    """Refuse, before anything is built, a no-guess request that cannot or, by rule of thumb, will not succeed.

    Sound refusals: a first click off the board, more mines than the cells outside the first click's block,
    and a board whose search would hold more than `memory_budget` bytes (NoGuessMemoryError). There is no
    sound refusal by density: every mine count that fits has a no-guess layout (the safe cells as one blob
    around the first click: its zeros open all of it, and the total says every cell left is a mine). Above
    HEURISTIC_DENSITY on boards bigger than HEURISTIC_FREE_CELLS the search is refused by measurement, not
    proof, unless `any_density`.
    """
    if rows < 1 or cols < 1:
        raise InputError(f"the board must have at least one row and one column, got {rows} x {cols}")
    r0, c0 = start
    if not (0 <= r0 < rows and 0 <= c0 < cols):
        raise InputError(f"the first click {r0},{c0} is outside the {rows} x {cols} board (row and column "
                         "count from 0)")
    block = (min(r0 + 2, rows) - max(r0 - 1, 0)) * (min(c0 + 2, cols) - max(c0 - 1, 0))
    room = rows * cols - block
    if not 0 <= mines <= room:
        raise InputError(f"{plural(mines, 'mine')} cannot fit a no-guess board of {rows} x {cols}: the first "
                         f"click and its {block - 1} neighbours are kept free, leaving {plural(room, 'cell')}")
    need = cell_bytes(rows, cols)
    if memory_budget is not None and need > memory_budget:
        raise NoGuessMemoryError(
            f"a no-guess search on {rows} x {cols} would hold about {size_text(need)}, more than the memory "
            f"budget of {size_text(memory_budget)} (raise it with --memory-budget, or ask for a smaller board)")
    if not any_density and room > HEURISTIC_FREE_CELLS and mines > HEURISTIC_DENSITY * room:
        raise InputError(
            f"{plural(mines, 'mine')} in the {room} free cells of {rows} x {cols} is {mines / room:.0%}: "
            f"refused by a rule of thumb, not a proof (no-guess layouts of any density exist, e.g. the safe "
            f"cells as one blob around the first click, but above {HEURISTIC_DENSITY:.0%} on boards bigger "
            f"than expert the random layouts and repairs found none: 30 x 30 with 600 mines, none in 1000 "
            f"layouts); place fewer mines, or pass --any-density to search anyway")


def no_guess_layout(rows: int, cols: int, mines: int, start: Tuple[int, int], *, seed: Optional[int] = None,
                    timeout: Optional[float] = None, max_layouts: Optional[int] = None, uniform: bool = False,
                    memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET, any_density: bool = False
                    ) -> NoGuessLayout:
    """A layout of `mines` mines that the replay clears from `start` (deterministic per seed).

    By default a random layout is repaired until it clears (Tatham); `uniform` draws fresh random layouts
    until one clears instead (rejection sampling: uniform among no-guess layouts with the first click's
    block free). Raises MineconvError for the refusals of check_request, and NoGuessFailure when `timeout`
    seconds or `max_layouts` fresh layouts (default DEFAULT_MAX_LAYOUTS, DEFAULT_MAX_UNIFORM with
    `uniform`) run out first.
    """
    check_request(rows, cols, mines, start, memory_budget=memory_budget, any_density=any_density)
    bounds = Bounds(timeout=timeout)
    if rows == 1 or cols == 1:
        rng = np.random.default_rng(None if seed is None else [int(seed), 4])
        line = _line_layout(rows, cols, mines, start, rng, bounds)
        if line is not None:
            return line
    if uniform:
        rng = np.random.default_rng(None if seed is None else [int(seed), 3])
        return _uniform(rows, cols, mines, start, rng, bounds, max_layouts or DEFAULT_MAX_UNIFORM)
    rng = np.random.default_rng(None if seed is None else [int(seed), 2])
    return _repaired(rows, cols, mines, start, rng, bounds, max_layouts or DEFAULT_MAX_LAYOUTS)


def _line_layout(rows: int, cols: int, mines: int, start: Tuple[int, int], rng: np.random.Generator,
                 bounds: Bounds) -> Optional[NoGuessLayout]:
    """A board of one row or one column: its safe cells as one run around the first click's block, placed
    at random (None if the replay should not clear it).

    On a line the counts beside a mine say nothing of the cell behind it, so only the total can clear what
    lies past a mine: the no-guess layouts are the mines in two blocks at the ends, and each placement of
    the safe run is one of them (uniform among them). The random repairs almost never found one: 1 x 100000
    with 5 mines searched 35 s and then said to place fewer mines.
    """
    began = time.monotonic()
    n = rows * cols
    at = start[1] if rows == 1 else start[0]
    lo, hi = max(at - 1, 0), min(at + 1, n - 1)
    run = n - mines
    first, last = max(0, hi - run + 1), min(lo, n - run)   # where the safe run may begin
    if run < hi - lo + 1 or first > last:
        return None
    begin = int(rng.integers(first, last + 1))
    line = np.ones(n, dtype=bool)
    line[begin:begin + run] = False
    grid = line.reshape(rows, cols)
    if not replay(grid, start, bounds).cleared:
        return None
    return NoGuessLayout(grid, start, 1, 0, time.monotonic() - began)


def _what(rows: int, cols: int, mines: int, start: Tuple[int, int]) -> str:
    """'no no-guess layout of 99 mines on 16 x 30 from 8,15': the start of every failure message."""
    return f"no no-guess layout of {plural(mines, 'mine')} on {rows} x {cols} from {start[0]},{start[1]}"


def _uniform(rows: int, cols: int, mines: int, start: Tuple[int, int], rng: np.random.Generator, bounds: Bounds,
             max_layouts: int) -> NoGuessLayout:
    """Rejection sampling: fresh uniform layouts (first click's block free) until the replay clears one.

    A layout is rejected at the replay's first stuck state, usually within the first click's opening.
    """
    began = time.monotonic()
    allowed = np.flatnonzero(~start_block(rows, cols, start).ravel())
    layout = 0
    try:
        for layout in range(1, max_layouts + 1):
            grid: np.ndarray = np.zeros(rows * cols, dtype=bool)
            grid[rng.choice(allowed, size=mines, replace=False)] = True
            grid = grid.reshape(rows, cols)
            if play(grid, start, bounds)[0].safe_left == 0:
                return NoGuessLayout(grid, start, layout, 0, time.monotonic() - began)
    except AnalysisTimeout:
        raise NoGuessFailure(f"{_what(rows, cols, mines, start)} within --timeout {bounds.timeout:g} s: --uniform "
                             f"drew {plural(layout, 'random layout')} and each needed a guess; allow more time, "
                             "place fewer mines, or drop --uniform (repaired layouts are found far sooner)"
                             ) from None
    raise NoGuessFailure(f"{_what(rows, cols, mines, start)} in {plural(max_layouts, 'random layout')} (--uniform "
                         "keeps only layouts that need no guess as drawn); place fewer mines, or drop --uniform "
                         "(repaired layouts are found far sooner)")


def _repaired(rows: int, cols: int, mines: int, start: Tuple[int, int], rng: np.random.Generator, bounds: Bounds,
              max_layouts: int) -> NoGuessLayout:
    """Random layouts, each repaired (Tatham's mineperturb) until the replay clears it or patience runs out."""
    began = time.monotonic()
    allowed = np.flatnonzero(~start_block(rows, cols, start).ravel())
    repairs = 0
    try:
        for layout in range(1, max_layouts + 1):
            grid: np.ndarray = np.zeros(rows * cols, dtype=bool)
            grid[rng.choice(allowed, size=mines, replace=False)] = True
            grid = grid.reshape(rows, cols)
            best, patience = -1, REPAIR_PATIENCE
            while True:
                result = replay(grid, start, bounds)
                if result.cleared:
                    return NoGuessLayout(grid, start, layout, repairs, time.monotonic() - began)
                reached = int(result.opened.sum())
                if reached > best:
                    best, patience = reached, REPAIR_PATIENCE
                else:
                    patience -= 1
                if patience == 0 or not repair(grid, result, start, rng):
                    break
                repairs += 1
    except AnalysisTimeout:
        raise NoGuessFailure(f"{_what(rows, cols, mines, start)} within --timeout {bounds.timeout:g} s "
                             f"({plural(repairs, 'repair')} tried); allow more time or place fewer mines") from None
    raise NoGuessFailure(f"{_what(rows, cols, mines, start)} in {plural(max_layouts, 'layout')} "
                         f"({plural(repairs, 'repair')}); place fewer mines")


def layout_puzzle(layout: NoGuessLayout, *, with_total: bool = True, name: Optional[str] = None) -> Puzzle:
    """The full layout as a puzzle: '*' on every mine, counts elsewhere, the first click as its start."""
    grid = layout.mines
    counts = mine_counts(grid)
    codes = np.where(grid, ord("*"), counts + ord("0")).astype(np.uint8)
    R, C = grid.shape
    return Puzzle(R, C, codes.tobytes().decode("ascii"), mines=int(grid.sum()) if with_total else None,
                  name=name, start=layout.start)


def no_guess_puzzle(rows: int, cols: int, *, mines: Optional[int] = None, density: Optional[float] = None,
                    start: Optional[Tuple[int, int]] = None, seed: Optional[int] = None,
                    timeout: Optional[float] = None, name: Optional[str] = None, uniform: bool = False,
                    memory_budget: Optional[int] = DEFAULT_MEMORY_BUDGET, any_density: bool = False) -> Puzzle:
    """A no-guess board as a puzzle (see layout_puzzle and no_guess_layout); `start` defaults to the centre cell."""
    if (density is None) == (mines is None):
        raise InputError("give exactly one of density and mines")
    if mines is None:
        if not 0.0 <= float(density) <= 1.0:  # type: ignore[arg-type]
            raise InputError(f"density must be between 0 and 1, got {density}")
        mines = int(round(float(density) * rows * cols))  # type: ignore[arg-type]
    if start is None:
        start = (rows // 2, cols // 2)
    layout = no_guess_layout(rows, cols, mines, start, seed=seed, timeout=timeout, uniform=uniform,
                             memory_budget=memory_budget, any_density=any_density)
    return layout_puzzle(layout, name=name)
