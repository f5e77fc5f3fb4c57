"""The step search of explanations (Bayer, Snyder & Choueiry's single-step mode), and each step's wording.

`explain` decides the board one small deduction at a time, always the cheapest one available first:

1. ``gac``: one count on its own ("already has its mines, so the rest are safe" / "needs all of them"),
2. the total mine count, when there is one (still level ``gac``, as in `propagate`),
3. ``2rc``: two overlapping counts (the shared cells hold a fixed number of mines),
4. ``3rc``: three linked counts,
5. ``full``: a proof by contradiction with a SAT solver ("if it were a mine, no arrangement satisfies
   the counts at ..."), naming a small set of counts (an unsat core, shrunk by deletion).

Each step names the counts that justify it; together with the cells decided by earlier steps they force
its cells. The rules are those of `propagate` (and, at ``full``, the backbone of `analyze`) applied in a
different order; their fixed point does not depend on the order, so explain decides exactly the cells
those decide. Cells are named (row, col), 0-based, as in every message of mineconv. What a step records
is in `steps`, the state of a walk in `state`, the rules a module per level (`gac`, `joins`, `full`;
the SAT proofs of the full level in `proofs`); here the loop that runs them, cheapest first.
"""
from __future__ import annotations

import heapq
from typing import Iterator, Optional

from ...core.bounds import UNBOUNDED, AnalysisTimeout, Bounds, CountingMemoryError
from ...core.errors import InputError
from ...core.puzzle import Puzzle
from ...core.system import build_system
from ..levels.propagation import Contradiction
from .full import full_step
from .gac import gac_step, initial_conflict, total_step
from .joins import group_step
from .state import LEVELS, WalkState
from .steps import Explanation, Step


def explain(puzzle: Puzzle, level: str = "full", mines: Optional[int] = None,
            bounds: Bounds = UNBOUNDED) -> Explanation:
    """The solving path of `puzzle` at `level`, one small justified deduction per step, cheapest first."""
    explainer = Explainer(puzzle, level, mines, bounds)
    for _ in explainer.steps():
        pass
    return explainer.result()


def iter_steps(puzzle: Puzzle, level: str = "full", mines: Optional[int] = None,
               bounds: Bounds = UNBOUNDED) -> Iterator[Step]:
    """The steps of explain(), each yielded as soon as it is found (a timeout just ends the steps)."""
    return Explainer(puzzle, level, mines, bounds).steps()


class Explainer:
    """One explanation in progress: steps() yields the steps as they are found, result() sums them up."""

    def __init__(self, puzzle: Puzzle, level: str = "full", mines: Optional[int] = None,
                 bounds: Bounds = UNBOUNDED) -> None:
        if level not in LEVELS:
            raise InputError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        self.engine = WalkState(puzzle, build_system(puzzle, mines), level, bounds)
        self.unknown_cells = self.engine.system.num_vars   # no explanation has more steps than this

    def steps(self) -> Iterator[Step]:
        """Each step once found, in explain()'s order; stops at a contradiction, the end or the deadline."""
        engine = self.engine
        try:
            yield from run(engine)
        except AnalysisTimeout as exc:
            engine.timeout_message = exc.message
        except CountingMemoryError as exc:
            engine.memory_message = exc.message
        finally:
            engine.prover.close()

    def result(self) -> Explanation:
        """The explanation of the steps taken so far (all of them, once steps() is exhausted)."""
        return self.engine.result()


def run(s: WalkState) -> Iterator[Step]:
    """Take steps, cheapest kind first, until nothing at the level decides another cell; yield each."""
    if initial_conflict(s):
        return
    taken = 0
    try:
        while True:
            while taken < len(s.steps):
                taken += 1
                yield s.steps[taken - 1]
            s.ticks += 1
            if s.ticks & 255 == 0:
                s.bounds.check()
            if s.gac_heap:
                ci = heapq.heappop(s.gac_heap)
                s.gac_pending.discard(ci)
                gac_step(s, ci)
            elif total_step(s):
                pass
            elif s.rank >= 1 and not s.groups_seeded:
                s.groups_seeded = True
                s.seed_groups(range(len(s.cvars)))
            elif s.group_heaps[2]:
                group_step(s, heapq.heappop(s.group_heaps[2]))
            elif s.rank >= 2 and s.group_heaps[3]:
                group_step(s, heapq.heappop(s.group_heaps[3]))
            elif s.rank >= 3 and full_step(s):
                pass
            else:
                return
    except Contradiction:
        s.consistent = False
