"""The state of one explanation: the cells decided so far, the work pending at each level, the steps taken.

`WalkState.apply` is the one way a step is taken: it records the step, decides its cells and queues again
the counts around them (and, once pairs and triples are in play, their groups). The rules that find steps
live beside it, a module per level: `gac`, `joins` (2rc, 3rc), `full`; `walk` runs them cheapest first.
"""
from __future__ import annotations

import heapq
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import numpy as np

from ...core.bounds import Bounds
from ...core.puzzle import Puzzle
from ...core.system import LinearSystem
from ..cellstate import MINE, UNDECIDED
from .board_index import BoardIndex
from .proofs import Prover
from .steps import Cell, CellList, Clue, Explanation, Step

LEVELS = ("gac", "2rc", "3rc", "full")


class WalkState:
    """The state of one explanation: decided values, pending work per level, the steps so far."""

    def __init__(self, puzzle: Puzzle, system: LinearSystem, level: str, bounds: Bounds) -> None:
        self.puzzle, self.system, self.level, self.bounds = puzzle, system, level, bounds
        self.rank = LEVELS.index(level)
        k = system.num_vars
        self.val = np.full(k + 1, UNDECIDED, dtype=np.int8)   # index 0: the padding of con_vars
        index = BoardIndex(system)   # made on first use: the first steps come before the whole board is indexed
        self.rc, self.cvars, self.crc = index.rc, index.cvars, index.crc
        self.shown, self.known_mines, self.var_cons = index.shown, index.known_mines, index.var_cons
        self.rhs = system.con_rhs.astype(int).tolist()
        self.total = system.total
        # the total as the board states it (known mines included); read only when there is a total
        self.total_shown = 0 if system.total is None else system.total + puzzle.known_mine_count
        self.steps: List[Step] = []
        self.consistent = True
        self.conflict: Optional[str] = None
        self.conflict_because: Tuple[Clue, ...] = ()
        self.conflict_total = False
        self.timeout_message: Optional[str] = None
        self.memory_message: Optional[str] = None
        self.gac_heap = list(range(len(self.cvars)))
        self.gac_pending = set(self.gac_heap)
        self.group_heaps: Dict[int, list] = {2: [], 3: []}
        self.group_pending: Dict[int, Set[Tuple[int, ...]]] = {2: set(), 3: set()}
        self.backbone: Optional[np.ndarray] = None
        # The pairs and triples of the whole board are queued when first needed (once no single count
        # and no total decides a cell), not at the start: the first steps then come at once. Groups
        # linked at the start but not by then force nothing their linked part does not, so the steps
        # and their order are those of queueing them all at the start.
        self.groups_seeded = False
        self.free, self.placed = k, 0   # undecided cells and decided mines, kept as cells are decided
        self.prover = Prover(self.cvars, self.rhs, self.total, self.rc, self.crc, bounds)
        self.ticks = 0

    def open_of(self, ci: int) -> Tuple[Tuple[int, ...], int]:
        """(undecided variables, mines still needed) of constraint ci."""
        und, placed = [], 0
        for x in self.cvars[ci]:
            v = self.val[x]
            if v == UNDECIDED:
                und.append(x)
            elif v == MINE:
                placed += 1
        return tuple(und), self.rhs[ci] - placed

    def clue(self, ci: int) -> Clue:
        r, c = self.crc[ci]
        return Clue(r, c, self.shown[ci])

    def apply(self, level: str, forced: Sequence[Tuple[int, int]], cons: Sequence[int], total: bool,
              text: str) -> None:
        """Record a step and decide its cells; the counts around them get checked again."""
        forced = sorted(forced)
        cells = tuple(Cell(*self.rc[x], b == MINE) for x, b in forced)
        cons = tuple(sorted(cons))
        self.steps.append(Step(level, cells, tuple(self.clue(ci) for ci in cons), total, text, cons))
        dirty: Set[int] = set()
        for x, b in forced:
            self.val[x] = b
            dirty.update(self.var_cons[x])
        self.free -= len(forced)
        self.placed += sum(1 for _, b in forced if b == MINE)
        for ci in dirty:
            if ci not in self.gac_pending:
                self.gac_pending.add(ci)
                heapq.heappush(self.gac_heap, ci)
        if self.rank >= 1 and self.groups_seeded:
            self.seed_groups(dirty)

    def neighbours(self, ci: int) -> Set[int]:
        """Open constraints sharing an undecided cell with ci."""
        out: Set[int] = set()
        for x in self.cvars[ci]:
            if self.val[x] == UNDECIDED:
                out.update(self.var_cons[x])
        out.discard(ci)
        return out

    def seed_groups(self, seeds: Iterable[int]) -> None:
        """Queue every connected pair (and, at 3rc and above, triple) of open constraints holding a seed."""
        triples = self.rank >= 2
        nb: Dict[int, Set[int]] = {}
        neighbours, queue = self.neighbours, self.queue

        def nbrs(ci: int) -> Set[int]:
            found = nb.get(ci)
            if found is None:
                found = nb[ci] = neighbours(ci)
            return found

        for a in seeds:
            na = nbrs(a)
            for b in na:
                queue((a, b) if a < b else (b, a))
                if not triples:
                    continue
                for c in na | nbrs(b):
                    if c != a and c != b:
                        queue(tuple(sorted((a, b, c))))

    def queue(self, group: Tuple[int, ...]) -> None:
        pending = self.group_pending[len(group)]
        if group not in pending:
            pending.add(group)
            heapq.heappush(self.group_heaps[len(group)], group)

    def mines_around(self, ci: int) -> List[Tuple[int, int]]:
        """The mines next to count ci: given by the puzzle or decided so far, row-major."""
        found = list(self.known_mines[ci]) + [self.rc[x] for x in self.cvars[ci] if self.val[x] == MINE]
        return sorted(found)

    def decided_lits(self) -> List[int]:
        d = np.flatnonzero(self.val[1:] != UNDECIDED) + 1
        return [int(x) if self.val[x] == MINE else -int(x) for x in d]

    def result(self) -> Explanation:
        values = self.val[1:].copy()
        stuck = CellList(self.system.var_rc[values == UNDECIDED])   # a tuple per cell only when read
        return Explanation(self.puzzle, self.system, self.level, tuple(self.steps), values, self.consistent,
                           self.conflict, self.conflict_because, self.conflict_total,
                           self.timeout_message is not None,
                           self.timeout_message, stuck, self.memory_message)
