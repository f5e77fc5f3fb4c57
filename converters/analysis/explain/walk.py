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
is in analysis/steps.py, the SAT proofs of the full level in analysis/proofs.py.
"""
from __future__ import annotations

import heapq
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np

from ...core.bounds import UNBOUNDED, AnalysisTimeout, Bounds, CountingMemoryError
from ...core.errors import InputError
from ...core.puzzle import Puzzle
from ...core.system import LinearSystem, build_system
from ...core.wording import plural
from ..cellstate import MINE, SAFE, UNDECIDED
from ..levels.backbone import full_backbone
from ..levels.propagation import Contradiction, join_forced
from .board_index import BoardIndex
from .proofs import Prover
from .steps import Cell, CellList, Clue, Explanation, Step, and_list, cell_name

LEVELS = ("gac", "2rc", "3rc", "full")


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
        self.engine = _Engine(puzzle, build_system(puzzle, mines), level, bounds)
        self.unknown_cells = self.engine.system.num_vars   # no explanation has more steps than this

    def steps(self) -> Iterator[Step]:
        """Each step once found, in explain()'s order; stops at a contradiction, the end or the deadline."""
        engine = self.engine
        try:
            yield from engine.run()
        except AnalysisTimeout as exc:
            engine.timeout_message = exc.message
        except CountingMemoryError as exc:
            engine.memory_message = exc.message
        finally:
            engine.prover.close()

    def result(self) -> Explanation:
        """The explanation of the steps taken so far (all of them, once steps() is exhausted)."""
        return self.engine.result()


class _Engine:
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

    # the state -------------------------------------------------------------------------------------
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

    def needs(self, ci: int, n: int) -> str:
        """'needs 2 mines' or, with mines already around the count, 'needs 2 more mines'."""
        return f"needs {plural(n, 'more mine' if self.mines_around(ci) else 'mine')}"

    def clue(self, ci: int) -> Clue:
        r, c = self.crc[ci]
        return Clue(r, c, self.shown[ci])

    def count_name(self, ci: int) -> str:
        r, c = self.crc[ci]
        return f"the {self.shown[ci]} at {cell_name(r, c)}"

    def cells_text(self, xs: Sequence[int]) -> str:
        return and_list([cell_name(*self.rc[x]) for x in sorted(xs)])

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

    # the loop --------------------------------------------------------------------------------------
    def run(self) -> Iterator[Step]:
        """Take steps, cheapest kind first, until nothing at the level decides another cell; yield each."""
        if self.initial_conflict():
            return
        taken = 0
        try:
            while True:
                while taken < len(self.steps):
                    taken += 1
                    yield self.steps[taken - 1]
                self.ticks += 1
                if self.ticks & 255 == 0:
                    self.bounds.check()
                if self.gac_heap:
                    ci = heapq.heappop(self.gac_heap)
                    self.gac_pending.discard(ci)
                    self.gac_step(ci)
                elif self.total_step():
                    pass
                elif self.rank >= 1 and not self.groups_seeded:
                    self.groups_seeded = True
                    self.seed_groups(range(len(self.cvars)))
                elif self.group_heaps[2]:
                    self.group_step(heapq.heappop(self.group_heaps[2]))
                elif self.rank >= 2 and self.group_heaps[3]:
                    self.group_step(heapq.heappop(self.group_heaps[3]))
                elif self.rank >= 3 and self.full_step():
                    pass
                else:
                    return
        except Contradiction:
            self.consistent = False

    def initial_conflict(self) -> bool:
        """A count no assignment can meet, or a total out of range: the board has no solution at all."""
        bad = np.flatnonzero(self.system.impossible)
        if bad.size:
            ci = int(bad[0])
            self.fail_count(ci, self.rhs[ci], len(self.cvars[ci]))
            return True
        if self.total is not None and not 0 <= self.total <= self.system.num_vars:
            self.consistent = False
            self.conflict_total = True
            self.conflict = (f"the board must hold {plural(self.total_shown, 'mine')}, but "
                             f"{plural(self.puzzle.known_mine_count, 'mine is', 'mines are')} given and "
                             f"{plural(self.system.num_vars, 'unknown cell')} left")
            return True
        return False

    def fail_count(self, ci: int, need: int, left: int) -> None:
        self.consistent = False
        self.conflict_because = (self.clue(ci),)
        if need < 0:
            self.conflict = f"{self.count_name(ci)} has {plural(self.shown[ci] - need, 'mine')} around it, too many"
        else:
            self.conflict = (f"{self.count_name(ci)} {self.needs(ci, need)} but has only "
                             f"{plural(left, 'unknown neighbour')} left")

    def gac_step(self, ci: int) -> None:
        """One count on its own: all its unknown neighbours are mines, or it already has its mines."""
        und, need = self.open_of(ci)
        if need < 0 or need > len(und):
            self.fail_count(ci, need, len(und))
            raise Contradiction()
        if not und or 0 < need < len(und):
            return
        name = self.count_name(ci)
        cells = self.cells_text(und)
        if need == 0:
            mines = self.mines_around(ci)
            verb = "is" if len(und) == 1 else "are"
            if not mines:
                text = f"{cells} {verb} safe: {name} has no mine around it"
            elif len(mines) == 1:
                text = f"{cells} {verb} safe: {name} already has its mine at {cell_name(*mines[0])}"
            else:
                text = (f"{cells} {verb} safe: {name} already has its {len(mines)} mines at "
                        f"{and_list([cell_name(*m) for m in mines])}")
            self.apply("gac", [(x, SAFE) for x in und], [ci], False, text)
            return
        mines = self.mines_around(ci)
        if len(und) == 1:
            head = f"{cells} is a mine"
            only = f"{cells} is its only unknown neighbour left"
        else:
            head = f"{cells} are mines"
            only = f"it has exactly {len(und)} unknown neighbours left"
        if mines:
            why = (f"{name} has {plural(len(mines), 'mine')} at {and_list([cell_name(*m) for m in mines])} and "
                   f"needs {need} more, and {only}")
        else:
            why = f"{name} needs {plural(need, 'mine')} and {only}"
        self.apply("gac", [(x, MINE) for x in und], [ci], False, f"{head}: {why}")

    def mines_around(self, ci: int) -> List[Tuple[int, int]]:
        """The mines next to count ci: given by the puzzle or decided so far, row-major."""
        found = list(self.known_mines[ci]) + [self.rc[x] for x in self.cvars[ci] if self.val[x] == MINE]
        return sorted(found)

    def total_step(self) -> bool:
        """The total mine count: every mine found (the rest is safe) or every open cell needed."""
        if self.total is None:
            return False
        # the counters first: scanning the board at every call would make the loop quadratic
        placed, left = self.placed, self.total - self.placed
        if 0 < left < self.free or (self.free == 0 and left == 0):
            return False
        free = np.flatnonzero(self.val[1:] == UNDECIDED) + 1
        if left < 0 or left > free.size:
            self.consistent = False
            self.conflict_total = True
            found = self.total_shown - self.total + placed
            self.conflict = (f"the board must hold {plural(self.total_shown, 'mine')}, but "
                             + (f"{found} are found already" if left < 0 else
                                f"only {found} are found and {plural(free.size, 'unknown cell')} "
                                f"{'is' if free.size == 1 else 'are'} left"))
            raise Contradiction()
        if free.size == 0 or 0 < left < free.size:
            return False
        cells = self.cells_text(free.tolist())
        found = self.total_shown - left
        if left == 0:
            verb = "is" if free.size == 1 else "are"
            every = "it is found" if self.total_shown == 1 else "all of them are found"
            text = f"{cells} {verb} safe: the board has {plural(self.total_shown, 'mine')} and {every}"
            forced = [(int(x), SAFE) for x in free]
        else:
            verb = "is a mine" if free.size == 1 else "are mines"
            text = (f"{cells} {verb}: the board has {plural(self.total_shown, 'mine')}, {found} "
                    f"{'is' if found == 1 else 'are'} found, and exactly {plural(left, 'unknown cell')} "
                    f"{'is' if left == 1 else 'are'} left")
            forced = [(int(x), MINE) for x in free]
        self.apply("gac", forced, [], True, text)
        return True

    def group_step(self, group: Tuple[int, ...]) -> bool:
        """Two or three linked counts together; a step when they force a cell no single count does."""
        self.group_pending[len(group)].discard(group)
        current = [self.open_of(ci) for ci in group]
        if any(not vs for vs, _ in current):
            return False  # a member is closed: a single count (gac) handles it
        try:
            forced = [(x, b) for x, b in join_forced(current) if self.val[x] == UNDECIDED]
        except Contradiction:
            self.consistent = False
            self.conflict_because = tuple(self.clue(ci) for ci in group)
            self.conflict = (f"{and_list([self.count_name(ci) for ci in group])} cannot all be satisfied: "
                             "no way to place their mines fits them together")
            raise
        if not forced:
            return False
        level = "2rc" if len(group) == 2 else "3rc"
        if len(group) == 2:
            text = self.pair_text(group, current, forced)
        else:
            text = self.triple_text(group, forced)
        self.apply(level, forced, group, False, text)
        return True

    def head(self, forced: Sequence[Tuple[int, int]]) -> str:
        """'(1, 2) is safe and (0, 3) and (0, 4) are mines'."""
        parts = []
        for value, one, many in ((SAFE, "is safe", "are safe"), (MINE, "is a mine", "are mines")):
            xs = [x for x, b in forced if b == value]
            if xs:
                parts.append(f"{self.cells_text(xs)} {one if len(xs) == 1 else many}")
        return " and ".join(parts)

    def pair_text(self, group: Tuple[int, ...], current, forced) -> str:
        """Subset / difference reasoning on two counts: their shared cells hold a fixed number of mines."""
        (va, na), (vb, nb) = current
        a, b = group
        shared = sorted(set(va) & set(vb))
        only = {a: sorted(set(va) - set(vb)), b: sorted(set(vb) - set(va))}
        need = {a: na, b: nb}
        lo = max(0, na - len(only[a]), nb - len(only[b]))
        hi = min(len(shared), na, nb)
        if lo != hi:  # two counts force a cell only when their shared cells' mines are pinned
            return (f"{self.head(forced)}: {self.count_name(a)} and {self.count_name(b)} together leave "
                    "no other way")
        t = lo
        decided = {x for x, _ in forced}
        then = []
        for ci in (a, b):
            rest, cells = need[ci] - t, only[ci]
            if not cells or not decided & set(cells):
                continue
            if rest == 0:
                then.append(f"{self.count_name(ci)} has no mine left for {self.cells_text(cells)}")
            else:
                mines = "mine" if rest == 1 else f"{rest} mines"
                then.append(f"{self.count_name(ci)} must have its other {mines} on {self.cells_text(cells)}")
        if decided & set(shared):
            verb = ("is" if len(shared) == 1 else "are all") + (" safe" if t == 0 else " mines" if len(shared) > 1
                                                                else " a mine")
            then.append(f"{self.cells_text(shared)} {verb}")
        inner = [ci for ci in (a, b) if not only[ci]]
        if inner:
            # one count's open cells lie inside the other's: the classic subset rule
            sub = inner[0]
            big = b if sub == a else a
            return (f"{self.head(forced)}: {self.count_name(sub)} {self.needs(sub, need[sub])} among "
                    f"{self.cells_text(shared)}, all of which {self.count_name(big)} also touches, so "
                    f"{and_list(then)}")
        up = [ci for ci in (a, b) if need[ci] == hi]
        if up:
            at_most = f"{self.count_name(up[0])} {self.needs(up[0], hi).replace('needs', 'needs only')}"
        else:
            at_most = f"there are only {len(shared)} of them"
        down = [ci for ci in (a, b) if need[ci] - len(only[ci]) == lo][0]
        at_least = (f"{self.count_name(down)} {self.needs(down, need[down])} and has only "
                    f"{plural(len(only[down]), 'other unknown neighbour')}")
        return (f"{self.head(forced)}: {self.count_name(a)} and {self.count_name(b)} share "
                f"{self.cells_text(shared)}, which hold exactly {plural(t, 'mine')} (at most {t}: {at_most}; "
                f"at least {t}: {at_least}), so {and_list(then)}")
    def triple_text(self, group: Tuple[int, ...], forced) -> str:
        """Three linked counts: every way to give each its mines agrees on the forced cells."""
        names = and_list([self.count_name(ci) for ci in group])
        safe = [x for x, b in forced if b == SAFE]
        mine = [x for x, b in forced if b == MINE]
        agree = []
        if safe:
            agree.append(f"none puts a mine on {self.cells_text(safe)}")
        if mine:
            agree.append(f"every one puts a mine on {self.cells_text(mine)}")
        return (f"{self.head(forced)}: taken together, {names} can be satisfied in several ways, and "
                f"{' and '.join(agree)}")

    # level full: proofs by contradiction -----------------------------------------------------------
    def full_step(self) -> bool:
        """One backbone cell no cheaper rule reaches, with the smallest set of counts found to prove it."""
        if self.backbone is None:
            values, _, _ = full_backbone(self.puzzle, None, self.system, known=self.val[1:].copy(),
                                         bounds=self.bounds)
            if values is None:
                self.fail_sat()
                raise Contradiction()
            self.backbone = values
        targets = np.flatnonzero((self.backbone != UNDECIDED) & (self.val[1:] == UNDECIDED)) + 1
        if targets.size == 0:
            return False
        proofs = []
        for x in targets.tolist():
            b = int(self.backbone[x - 1])
            core, total = self.prover.core(self.decided_lits(), x, b)
            proofs.append(((len(core) + total, x), x, b, core, total))
        _, x, b, core, total = min(proofs, key=lambda proof: proof[0])
        # the other targets the same counts prove, each by its own contradiction, join this step
        forced = [(x, b)]
        for y in targets.tolist():
            if y != x and self.backbone[y - 1] == b:
                if self.prover.also_proves(self.decided_lits(), x, y, b):
                    forced.append((y, b))
        cells = self.cells_text([y for y, _ in forced])
        if len(forced) == 1:
            value = "is safe" if b == SAFE else "is a mine"
            other = "it were a mine" if b == SAFE else "it were safe"
        else:
            value = "are safe" if b == SAFE else "are mines"
            other = "any of them were a mine" if b == SAFE else "any of them were safe"
        named = [self.count_name(ci) for ci in core]
        if total:
            named.append(f"the total of {plural(self.total_shown, 'mine')}")
        text = f"{cells} {value}: if {other}, no arrangement of mines would satisfy {and_list(named)}"
        self.apply("full", forced, core, total, text)
        return True

    def decided_lits(self) -> List[int]:
        d = np.flatnonzero(self.val[1:] != UNDECIDED) + 1
        return [int(x) if self.val[x] == MINE else -int(x) for x in d]

    def fail_sat(self) -> None:
        """The board has no solution: name a small set of counts that contradict each other."""
        cons, total = self.prover.core(self.decided_lits(), None, SAFE)
        named = [self.count_name(ci) for ci in cons]
        if total:
            named.append(f"the total of {plural(self.total_shown, 'mine')}")
        self.consistent = False
        self.conflict_because = tuple(self.clue(ci) for ci in cons)
        self.conflict_total = total
        self.conflict = f"no arrangement of mines satisfies {and_list(named)} together"

    # the result ------------------------------------------------------------------------------------
    def result(self) -> Explanation:
        values = self.val[1:].copy()
        stuck = CellList(self.system.var_rc[values == UNDECIDED])   # a tuple per cell only when read
        return Explanation(self.puzzle, self.system, self.level, tuple(self.steps), values, self.consistent,
                           self.conflict, self.conflict_because, self.conflict_total,
                           self.timeout_message is not None,
                           self.timeout_message, stuck, self.memory_message)
