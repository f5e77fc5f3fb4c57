"""How hard a puzzle is to solve by reasoning: the weakest consistency level that decides every cell.

Bayer, Snyder & Choueiry grade Minesweeper reasoning by consistency level: ``gac`` (each count alone, and
the total), ``2rc`` and ``3rc`` (joins of two / three overlapping counts), and ``full`` (the backbone: what
every solution agrees on). Each level includes the ones before it, so once one decides every unknown
cell so do all above it. A puzzle's grade is the first level that decides every cell; a puzzle no level
decides has more than one solution (grade None), since the backbone is complete exactly when the
solution is unique. Propagation that decides every cell without a contradiction has checked every
count, so a grade also proves the puzzle feasible.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Dict, Optional

import numpy as np

from ...core.bounds import UNBOUNDED, AnalysisTimeout, Bounds, CountingLimitError
from ...core.puzzle import Puzzle
from ...core.system import LinearSystem, build_system
from ..counting.count import DEFAULT_MAX_STATES, count_solutions
from .backbone import FALLBACK_CUT, full_backbone
from .propagation import LEVELS as PROPAGATION_LEVELS
from .propagation import UNDECIDED, propagate

GRADE_LEVELS = PROPAGATION_LEVELS + ("full",)


@dataclass(frozen=True)
class Grade:
    """The grade of a puzzle: its weakest deciding level, per-level decisions, and its solution count.

    `decided[level]` is how many unknown cells the level decides (every level up to `full`, or up to
    where time ran out); `rounds[level]` how many sweeps over the board decided something, for the
    propagation levels that ran. `solutions` is None when the exact counter gave up (`count_error`).
    `status` is "complete", "partial" (no count) or "timeout" (the levels past `decided`'s last were not
    reached, `level` is then None unless a lower level already decided everything).
    """

    puzzle: Puzzle
    system: LinearSystem
    level: Optional[str]
    decided: Dict[str, int]
    rounds: Dict[str, int]
    solutions: Optional[int]
    status: str = "complete"
    count_error: Optional[str] = None
    values: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8), repr=False)

    @property
    def unknown(self) -> int:
        """How many unknown cells the puzzle has (what each level tries to decide)."""
        return self.system.num_vars

    @property
    def feasible(self) -> bool:
        """True unless the puzzle provably has no solution (a timed-out grade counts as feasible)."""
        return self.solutions != 0

    @property
    def unique(self) -> Optional[bool]:
        """True when the puzzle has exactly one solution; None when that is not known (time ran out, or the
        counter gave up on a board with a total before the full level's decisions were complete)."""
        if self.level is not None:
            return True
        if self.solutions is not None:
            return self.solutions == 1
        if self.status == "timeout" or FALLBACK_CUT in (self.count_error or ""):
            return None
        return False  # the full level is complete and leaves cells open: a second solution exists

    def to_json(self) -> dict:
        """The `mineconv grade --json` object (its keys are a contract: extend, never change)."""
        data: dict = {"unique": self.unique, "solutions": self.solutions, "level": self.level,
                      "decided": dict(self.decided)}
        # counts past 2**53 read wrong in JavaScript: the exact decimal and its log10 go beside the integer
        n = self.solutions
        data["solutions_str"] = None if n is None else str(n)
        data["solutions_log10"] = math.log10(n) if n else None
        data.update({"rounds": dict(self.rounds), "unknown": self.unknown, "feasible": self.feasible,
                     "status": self.status})
        if self.count_error:
            data["count_error"] = self.count_error
        return data


def grade(puzzle: Puzzle, mines: Optional[int] = None, *, count: bool = True,
          max_states: int = DEFAULT_MAX_STATES, bounds: Bounds = UNBOUNDED) -> Grade:
    """Grade a puzzle: the weakest of gac, 2rc, 3rc, full that decides every unknown cell (None if none).

    `count=False` skips the exact solution count of a puzzle that is not unique (`solutions` is then
    None; a unique puzzle's count, 1, costs nothing). Past the deadline of `bounds` the grade stops
    with status "timeout" and what the levels reached so far decided.
    """
    system = build_system(puzzle, mines)
    k = system.num_vars
    decided: Dict[str, int] = {}
    rounds: Dict[str, int] = {}

    def infeasible() -> Grade:
        return Grade(puzzle, system, None, decided, rounds, 0, values=np.full(k, UNDECIDED, dtype=np.int8))

    if system.impossible.any() or (system.total is not None and not 0 <= system.total <= k):
        return infeasible()
    values = np.full(k, UNDECIDED, dtype=np.int8)
    try:
        for level in PROPAGATION_LEVELS:
            prop = propagate(puzzle, level, system=system, bounds=bounds)
            if not prop.consistent:
                return infeasible()
            values = prop.values
            decided[level], rounds[level] = prop.decided, prop.rounds
            if prop.decided == k:
                # every level above decides everything too (each includes the ones below)
                for higher in GRADE_LEVELS[GRADE_LEVELS.index(level) + 1:]:
                    decided[higher] = k
                return Grade(puzzle, system, level, decided, rounds, 1, values=values)
        full, counted, error = full_backbone(puzzle, mines, system, values, max_states, bounds)
        if full is None:
            return infeasible()
        values = full
        decided["full"] = int((full != UNDECIDED).sum())
        if decided["full"] == k:
            return Grade(puzzle, system, "full", decided, rounds, 1, values=values)
        if counted is None and error is None and count:
            try:
                counted = count_solutions(system, full, max_states, bounds=bounds)
            except CountingLimitError as exc:
                error = exc.message
        if counted is not None and counted.solutions == 0:
            return infeasible()
        return Grade(puzzle, system, None, decided, rounds, None if counted is None else counted.solutions,
                     "partial" if error else "complete", error, values=values)
    except AnalysisTimeout as exc:
        return Grade(puzzle, system, None, decided, rounds, None, "timeout", exc.message, values=values)
