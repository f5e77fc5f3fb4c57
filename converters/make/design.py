"""Puzzle design: unique, minimal puzzles of an exact grade, in Steinruecken's style.

A designed puzzle shows revealed counts only (and known mines, with ``known_mines=True``), has exactly one
solution, is graded exactly at the requested level (that level of mineconv.analysis.grade decides every
unknown cell and the level below it does not), and is minimal: hiding any one of its clues (turning a
count into an unknown cell) lets a second solution in.

The method. Place mines at random (mineconv.make.generate.place_mines) and start from the full reveal: every
safe cell shows its count, every mine is unknown. Visit the clues in a random order and hide each one
whose hiding keeps the puzzle unique. One pass is enough for minimality: a clue kept at its turn was
needed with the clues present then, which include every clue left at the end, and fewer clues cannot
bring uniqueness back. Then grade the result and keep it when its grade is exactly the requested level.

The trick that makes each uniqueness question cheap is one incremental SAT solver per layout. It has one
variable per cell (true: a mine) and one selector literal per clue; every clause of a clue (its cell is
safe, and its neighbours hold exactly its count, as the binomial clauses: no n + 1 neighbours all mines,
no d - n + 1 all safe) carries the clue's negated selector, so the clue binds only while its selector is
assumed true. One clause blocks the planted layout. "Still unique after hiding clue c" is then one call:
UNSAT under the assumptions of the selectors of the other clues still shown. A hidden clue's selector is
just left out of the assumptions, so one solver, and everything it learnt, serves every hide order tried
on the layout.

A tiny worked example: the one-row layout ``*...`` fully revealed reads ``?100``. Take the hide order
column 3, column 2, column 1. Hiding the 0 at column 3 (``?10?``): the 0 at column 2 still says column 3
is safe, so no second model exists (UNSAT) and the clue goes. Hiding the 0 at column 2 (``?1??``): the 1
at column 1 takes its mine at column 0 or at column 2, a second model (SAT), so the 0 stays. Hiding the
1 (``??0?``): nothing speaks of column 0 any more (SAT), it stays. ``?10?`` is minimal, and gac grades
it: the 0 clears column 3, the 1 then has only column 0 left for its mine.

Steering toward a level. Hiding clues makes a puzzle harder, and plain passes mostly end at 2rc (on
8 x 8 boards of density 0.2, about 70 % 2rc, 10 % gac, 12 % 3rc, 5 % full; bigger boards shift toward
3rc and full, and with the total mine count stated most grade full). On boards of 16 x 16 hardly any
minimal puzzle is gac: every region must come out easy at once. So for gac the pass also refuses a hide
after which gac no longer decides every cell; the clues that gac needs but uniqueness does not are then
repaired locally: the hidden clues within two cells of one are shown again and the pass reruns in a
fresh order, so only the region that came out wrong is drawn again (REPAIRS times at most, then a plain
pass). For 2rc, 3rc and full the plain pass is cheaper per hit than steering. Every layout gets
ORDERS_PER_LAYOUT random hide orders (one solver serves them all), and the result's exact grade decides.
"""
from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..analysis.levels.backbone import solve_within
from ..analysis.levels.grade import GRADE_LEVELS
from ..analysis.levels.propagation import LEVELS as PROPAGATION_LEVELS
from ..analysis.levels.propagation import propagate
from ..core.bounds import UNBOUNDED, AnalysisTimeout, Bounds
from ..core.errors import InputError, MineconvError
from ..core.puzzle import NEIGHBOUR_OFFSETS, Puzzle
from ..core.system import build_system
from ..core.wording import plural
from ..encode.cardinality import exactly
from .generate import mine_counts, place_mines

LEVELS = GRADE_LEVELS
# a fifth of the cells: dense enough that counts interlock (sparser boards are mostly zeros, which one
# clue can stand for), sparse enough that few mines are walled in by other mines
DEFAULT_DENSITY = 0.2
# random hide orders tried on one layout before the next layout is drawn
ORDERS_PER_LAYOUT = 4
# local repairs of a gac design before a plain pass gives up on the level
REPAIRS = 30
SAT_SOLVER = "minisat22"

ProgressCallback = Callable[[str, int, Optional[int]], None]


class DesignTimeout(MineconvError, RuntimeError):
    """The deadline passed before every requested puzzle was found; `made` of `wanted` were."""

    exit_status = 1

    def __init__(self, message: str, made: int, wanted: Optional[int]) -> None:
        super().__init__(message)
        self.made = made
        self.wanted = wanted


@dataclass
class DesignStats:
    """What a design run tried and found: the hit rates of each stage (filled in as it goes)."""

    layouts: int = 0            # mine layouts drawn
    ambiguous_layouts: int = 0  # layouts whose full reveal already has a second solution (skipped)
    passes: int = 0             # hide orders run
    sat_calls: int = 0
    grades: Dict[str, int] = field(default_factory=dict)   # exact grade of every minimal unique puzzle made
    kept: int = 0
    seconds: float = 0.0

    @property
    def minimal(self) -> int:
        """How many minimal unique puzzles were made (each graded)."""
        return sum(self.grades.values())

    def grades_text(self) -> str:
        """'2rc 30, 3rc 4': how many minimal unique puzzles came out at each grade, weakest first."""
        return ", ".join(f"{g} {self.grades[g]}" for g in LEVELS if g in self.grades) or "none"

    def to_json(self) -> dict:
        """The counts as a JSON object (for benchmarks and -v)."""
        return {"layouts": self.layouts, "ambiguous_layouts": self.ambiguous_layouts, "passes": self.passes,
                "sat_calls": self.sat_calls, "minimal": self.minimal, "grades": dict(self.grades),
                "kept": self.kept, "seconds": round(self.seconds, 3)}


@lru_cache(maxsize=None)
def _combos(d: int, size: int) -> Tuple[Tuple[int, ...], ...]:
    """Every size-subset of range(d), as index tuples (cached: only d <= 8 occur)."""
    return tuple(itertools.combinations(range(d), size))


class LayoutSolver:
    """One incremental SAT solver for one mine layout: uniqueness of any subset of its clues, by assumptions.

    Cell (r, c) is variable r * cols + c + 1 (true: a mine); clue j has the selector variable cells + j + 1.
    Clues are the safe cells (their counts) and, with known_mines, the mines too (shown as '*').
    """

    def __init__(self, mine_grid: np.ndarray, *, total: bool = False, known_mines: bool = False,
                 solver: str = SAT_SOLVER, bounds: Bounds = UNBOUNDED) -> None:
        from pysat.solvers import Solver

        self.bounds = bounds   # its deadline stops the building and every SAT call (AnalysisTimeout)

        self.mine_grid = mine_grid
        R, C = mine_grid.shape
        n = R * C
        self.counts = mine_counts(mine_grid)
        mine = mine_grid.ravel()
        self.clues = np.arange(n) if known_mines else np.flatnonzero(~mine)
        self.selector = {int(cell): n + j + 1 for j, cell in enumerate(self.clues.tolist())}
        self.total = total
        self.calls = 0
        self._solver = Solver(name=solver)
        add = self._solver.add_clause
        counts = self.counts.ravel().tolist()
        for cell, s in self.selector.items():
            if cell & 4095 == 0:
                bounds.check()   # a 256x256 layout takes seconds to build
            x = cell + 1
            if mine[cell]:
                add([-s, x])
                continue
            add([-s, -x])
            r, c = divmod(cell, C)
            around = [(r + dr) * C + c + dc + 1 for dr, dc in NEIGHBOUR_OFFSETS if 0 <= r + dr < R and 0 <= c + dc < C]
            d, k = len(around), counts[cell]
            # binomial: no k + 1 neighbours all mines, no d - k + 1 all safe
            for combo in _combos(d, k + 1) if k < d else ():
                add([-s] + [-around[i] for i in combo])
            for combo in _combos(d, d - k + 1) if k > 0 else ():
                add([-s] + [around[i] for i in combo])
        if total:
            clauses, _ = exactly(range(1, n + 1), int(mine.sum()), top=n + len(self.selector),
                                 encoding="seqcounter")
            for cl in clauses:
                add(cl)
        # the planted layout is a solution; any other must differ from it somewhere
        add([-(i + 1) if m else i + 1 for i, m in enumerate(mine.tolist())])

    def unique(self, shown: Sequence[int]) -> bool:
        """True when the clues `shown` (cell indices) admit no solution but the planted layout."""
        self.calls += 1
        return not solve_within(self._solver, [self.selector[c] for c in shown], self.bounds)

    def puzzle(self, shown: Iterable[int], name: Optional[str] = None) -> Puzzle:
        """The puzzle showing exactly these clues (counts, or '*' on a mine), every other cell unknown."""
        R, C = self.mine_grid.shape
        codes = np.full(R * C, ord("?"), dtype=np.uint8)
        idx = np.asarray(sorted(shown), dtype=np.int64)
        if idx.size:
            mine = self.mine_grid.ravel()[idx]
            codes[idx] = np.where(mine, ord("*"), self.counts.ravel()[idx] + ord("0"))
        return Puzzle(R, C, codes.tobytes().decode("ascii"),
                      mines=int(self.mine_grid.sum()) if self.total else None, name=name)

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    def __enter__(self) -> "LayoutSolver":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def weakest_level(puzzle: Puzzle, upto: str = "3rc", bounds: Bounds = UNBOUNDED) -> Optional[str]:
    """The weakest propagation level up to `upto` that decides every unknown cell, or None.

    Each level starts from what the one below it decided (the fixed point is the same as from nothing:
    every level includes the ones below it).
    """
    system = build_system(puzzle)
    k = system.num_vars
    values = None
    for level in PROPAGATION_LEVELS[:PROPAGATION_LEVELS.index(upto) + 1]:
        prop = propagate(puzzle, level, system=system, fixed=values, bounds=bounds)
        if not prop.consistent:
            return None
        if prop.decided == k:
            return level
        values = prop.values
    return None


def minimal_unique(layout: LayoutSolver, order: Sequence[int], bounds: Bounds = UNBOUNDED,
                   shown: Optional[Sequence[int]] = None, steer: Optional[str] = None) -> List[int]:
    """Hide the clues in `order` while the puzzle stays unique; the clues left (a minimal unique puzzle).

    Starts from the clues `shown` (default: all). With steer = gac, 2rc or 3rc a hide is also refused when
    that level would no longer decide every cell; the result is then unique but not always minimal.
    """
    kept = set(layout.clues.tolist() if shown is None else shown)
    for c in order:
        if c not in kept:
            continue
        bounds.check()
        rest = kept - {c}
        if not layout.unique(sorted(rest)):
            continue
        if steer is not None and weakest_level(layout.puzzle(rest), steer, bounds) is None:
            continue
        kept = rest
    return sorted(kept)


def redundant_clues(layout: LayoutSolver, shown: Sequence[int], bounds: Bounds = UNBOUNDED) -> List[int]:
    """The clues of `shown` that can be hidden with the puzzle still unique (none: it is minimal)."""
    out = []
    for c in shown:
        bounds.check()
        if layout.unique([d for d in shown if d != c]):
            out.append(c)
    return out


def steered_minimal(layout: LayoutSolver, level: str, rng: np.random.Generator, repairs: int,
                    bounds: Bounds = UNBOUNDED) -> Tuple[List[int], int]:
    """A minimal unique puzzle that `level` decides, by steered passes and local repairs; (clues, repairs used).

    The steered pass leaves clues that `level` needs but uniqueness does not; each repair shows again the
    hidden clues around one of them and reruns the steered pass in a fresh order, so a region that came
    out wrong gets another draw while the rest of the board keeps its clues. Past `repairs`, a plain pass
    makes the puzzle minimal whatever its grade becomes.
    """
    R, C = layout.mine_grid.shape
    clue_set = set(layout.clues.tolist())
    shown = minimal_unique(layout, rng.permutation(layout.clues).tolist(), bounds, steer=level)
    for used in range(repairs + 1):
        extra = redundant_clues(layout, shown, bounds)
        if not extra:
            return shown, used
        if used == repairs:
            break
        r, c = divmod(extra[int(rng.integers(len(extra)))], C)
        near = {rr * C + cc for rr in range(max(0, r - 2), min(R, r + 3)) for cc in range(max(0, c - 2), min(C, c + 3))}
        again = sorted(set(shown) | (near & clue_set))
        shown = minimal_unique(layout, rng.permutation(again).tolist(), bounds, shown=again, steer=level)
    return minimal_unique(layout, rng.permutation(shown).tolist(), bounds, shown=shown), repairs


def exact_grade(puzzle: Puzzle, bounds: Bounds = UNBOUNDED) -> str:
    """The grade of a puzzle known to be unique: the weakest of gac, 2rc, 3rc deciding it, else full."""
    return weakest_level(puzzle, "3rc", bounds) or "full"


def design_name(rows: int, cols: int, level: str, seed: int, layout: int) -> str:
    """The name a designed puzzle carries: enough to find it again (`design --seed` makes the same run)."""
    return f"designed {rows}x{cols} {level} seed {seed} layout {layout}"


def design_puzzles(rows: int, cols: int, level: str, *, mines: Optional[int] = None,
                   density: Optional[float] = None, seed: Optional[int] = None, count: Optional[int] = None,
                   total: bool = False, known_mines: bool = False, timeout: Optional[float] = None,
                   orders: int = ORDERS_PER_LAYOUT, repairs: int = REPAIRS,
                   stats: Optional[DesignStats] = None,
                   progress: Optional[Callable[[int, DesignStats], None]] = None,
                   run_timeout: Optional[float] = None) -> Iterator[Puzzle]:
    """Unique, minimal puzzles graded exactly `level`, one by one (all of them different; `count` None: no end).

    Without mines or density, DEFAULT_DENSITY. `total` states the total mine count in each puzzle (it then
    counts for uniqueness, minimality and the grade); `known_mines` lets known mines be clues too. The
    same seed gives the same puzzles in the same order. `timeout` bounds the wait for each next puzzle:
    past it, DesignTimeout says how many were made; `run_timeout` bounds the whole run the same way (the
    time counted from this call). `stats`, when given, is filled in as the run goes;
    `progress(made, stats)` is called after every layout.
    """
    if level not in LEVELS:
        raise InputError(f"unknown level {level!r}; valid: {', '.join(LEVELS)}")
    if count is not None and count < 1:
        raise InputError(f"the number of puzzles must be at least 1, got {count}")
    if orders < 1 or repairs < 0:
        raise InputError("orders must be at least 1 and repairs at least 0")
    if mines is None and density is None:
        density = DEFAULT_DENSITY
    # place_mines checks the board size and the mine count; one mine count for every layout
    n_mines = int(place_mines(rows, cols, density=density, mines=mines, seed=0).sum())
    refuse_hopeless(rows, cols, n_mines, total)
    refuse_unreachable(level, rows, cols, n_mines, total)
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    run_end = None if run_timeout is None else time.monotonic() + run_timeout
    return _designs(rows, cols, level, n_mines, seed, count, total, known_mines, (timeout, run_end, run_timeout),
                    orders, repairs, stats if stats is not None else DesignStats(), progress)


def refuse_unreachable(level: str, rows: int, cols: int, n_mines: int, total: bool) -> None:
    """InputError when every puzzle of such layouts has grade gac, so a higher --level is never met.

    With no mine every count is 0 and each one shown clears its neighbours; every mine with the total
    stated is the total alone. Either way single counts (and the total) decide the board: grade gac.
    (design --level full on a 5x5 board with 0 mines ran to its 60 s timeout.)
    """
    if level == "gac" or not (n_mines == 0 or (total and n_mines == rows * cols)):
        return
    why = "no mine" if n_mines == 0 else "every cell a mine and the total stated"
    raise InputError(f"no {rows} x {cols} puzzle with {why} has grade {level}: single counts (and the total) "
                     "decide every cell, grade gac")


def refuse_hopeless(rows: int, cols: int, n_mines: int, total: bool) -> None:
    """InputError when no layout of n_mines can give a unique puzzle, so the search would never end.

    Without the total, a mine is pinned only by a count next to it: every mine needs a safe neighbour,
    so the safe cells must dominate the board in king moves, which takes at least
    ceil(rows / 3) * ceil(cols / 3) of them. With the total stated every layout is unique in the end
    (the full reveal plus the total decide the board).
    """
    if total:
        return
    need = -(-rows // 3) * -(-cols // 3)
    if rows * cols - n_mines < need:
        raise InputError(
            f"no {rows} x {cols} puzzle with {plural(n_mines, 'mine')} can have one solution without the "
            f"total: every mine must touch a safe cell showing its count, which takes at least "
            f"{plural(need, 'safe cell')} (there would be {rows * cols - n_mines}); use fewer mines or "
            "--total")


def _designs(rows: int, cols: int, level: str, n_mines: int, seed: int, count: Optional[int], total: bool,
             known_mines: bool, clocks: Tuple[Optional[float], Optional[float], Optional[float]], orders: int,
             repairs: int, stats: DesignStats,
             progress: Optional[Callable[[int, DesignStats], None]]) -> Iterator[Puzzle]:
    """The generator behind design_puzzles (its arguments checked); clocks: (the wait for each puzzle, the
    run's end on time.monotonic(), the run's timeout)."""
    made = 0
    seen = set()
    started = time.monotonic()
    each, run_end, run_timeout = clocks

    def wait() -> Bounds:   # the wait for the next puzzle: `each`, cut to what is left of the run
        left = None if run_end is None else max(0.0, run_end - time.monotonic())
        return Bounds(memory=None, timeout=left if each is None else each if left is None else min(each, left))

    bounds = wait()
    note = (f"mineconv design: one solution, minimal (hiding any clue lets a second in), grade {level}"
            + (", with the total mine count" if total else ""))
    try:
        for index in itertools.count():
            bounds.check()
            # each layout has its own stream: the same seed and index give the same layout and hide orders
            rng = np.random.default_rng([seed, index])
            grid = place_mines(rows, cols, mines=n_mines, seed=int(rng.integers(2 ** 63)))
            stats.layouts += 1
            with LayoutSolver(grid, total=total, known_mines=known_mines, bounds=bounds) as layout:
                try:
                    if not layout.unique(layout.clues.tolist()):
                        stats.ambiguous_layouts += 1
                        continue
                    for _ in range(orders):
                        stats.passes += 1
                        if level == "gac":
                            shown, _used = steered_minimal(layout, level, rng, repairs, bounds)
                        else:
                            shown = minimal_unique(layout, rng.permutation(layout.clues).tolist(), bounds)
                        puzzle = layout.puzzle(shown)
                        got = exact_grade(puzzle, bounds)
                        stats.grades[got] = stats.grades.get(got, 0) + 1
                        if got != level or puzzle.cells in seen:
                            continue
                        seen.add(puzzle.cells)
                        made += 1
                        stats.kept += 1
                        stats.seconds = time.monotonic() - started
                        yield puzzle.replace(name=design_name(rows, cols, level, seed, index), notes=(note,))
                        if count is not None and made >= count:
                            return
                        bounds = wait()  # the wait for the next one starts now
                        layout.bounds = bounds
                finally:
                    stats.sat_calls += layout.calls
            stats.seconds = time.monotonic() - started
            if progress is not None:
                progress(made, stats)
    except AnalysisTimeout:
        stats.seconds = time.monotonic() - started
        whole = run_end is not None and time.monotonic() >= run_end
        within = (f"{each:g} s" if not whole or run_timeout is None else
                  f"the run's {run_timeout:g} s" if made else f"{run_timeout:g} s")
        raise DesignTimeout(
            f"no puzzle of grade {level} found within {within} on a {rows} x {cols} board with "
            f"{plural(n_mines, 'mine')} ({made} of {count if count is not None else 'the'} requested made; "
            f"{plural(stats.layouts, 'layout')} tried, minimal puzzles by grade: {stats.grades_text()})",
            made, count) from None
    finally:
        stats.seconds = time.monotonic() - started
