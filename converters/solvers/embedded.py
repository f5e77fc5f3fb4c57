"""The embedded solver: the CNF encoding in pysat, kept open so that solutions can be blocked one by one.

On a board with a total mine count it first guesses (EmbeddedSolver._guess): the counts alone, then the
total's remaining mines on the cells next to no count; the total's cardinality encoding is built only when no
guess answers. The solver numbers the cells next to no count last (feeding.free_last), so that it never
decides them while the count clauses alone are in, and a big board's first model of the counts comes part
by part (_by_parts): a 1000 x 1000 game position is solved and found not unique in 5 s, not 80.

Also what the CNF encoding costs: `model_too_slow` refuses, before anything is built, a time limit too short
for that encoding in a written CNF model; the embedded solver asks `card_too_slow` itself, when it comes to
build it.
"""
from __future__ import annotations

import _thread
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Sequence, Set, Tuple, Union

from ..core.lazy import LazyModule
from ..core.puzzle import Puzzle
from . import feeding
from .process import Deadline
from .settled import settled

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")

if TYPE_CHECKING:
    from ..core.system import LinearSystem
    from ..encode.cnf import ClauseArrays
    from ..formats.answer import Answer, Decoded
    from .table import SolverSpec

PYSAT_SOLVER = "glucose4"   # interruptible (pysat's CaDiCaL ignores interrupt(), so a timeout could not stop it)
START_WAIT = 5.0             # seconds a solve thread may take to begin before it is taken as never started
SMALL_SOLVE = 500             # boards up to this many cells (expert's 480) are encoded as lists, not arrays
CARD_UNITS_PER_SECOND = 1e8  # an upper bound on pysat's cardinality-encoding speed (measured: ~1e7 units/s)
GUIDE = True                 # boards with a total are guided to a solution (_guess); False: the plain search
FREE_LAST = True             # the cells next to no count are the solver's last variables (feeding.free_last)
# a board with this many cells in count clauses of two or more literals finds its first model part by part
# (_by_parts); below it one solver is as quick (a 200 x 200 game position, 9,042 such cells: 0.08 s either
# way), and unit clauses need no search (a full reveal's are all units: 0.15 s by one solver, 0.24 by parts)
PARTS_FROM = 10_000
PART_THREAD = 2000           # parts of more cells are solved where the clock and signals can stop them
PART_GROUP = 300             # small parts go to one solver together, about this many cells to a solver


def unknown_answer(spec: SolverSpec, why: str) -> Answer:
    """The answer of a run that did not finish (a time limit), saying why."""
    from ..formats.answer import Answer  # here: a small solve needs no Answer (solvers/small_solve.py)
    return Answer("unknown", why=why, format=spec.answer_format or "", source=spec.name)


class EmbeddedSolver:
    """The CNF encoding in a pysat solver, kept open so that blocking clauses can be added.

    Each solve runs in a worker thread while the calling thread waits: the wait can be interrupted (by
    the clock, Ctrl-C, SIGTERM), and then the solver is interrupted too.

    A board whose total mine count leaves some cells free is guided (_guess): CDCL solvers struggle with the
    total, and the total's clauses cost the most to build, so the solver first gets the count clauses alone;
    the total's clauses are built and added only when a guess cannot answer.
    """

    def __init__(self, puzzle: Puzzle, mines: Optional[int] = None,
                 deadline: Optional[Deadline] = None, card_work: Optional[int] = None) -> None:
        """card_work: on a guided board, the most work (cells x min(mines, safe cells)) the total's clauses may
        take; past it they are never built, and a run no guess answers is unknown."""
        from pysat.solvers import Solver

        self.k = k = puzzle.unknown_count
        counts: Optional[List[List[int]]] = None   # a small board's count clauses
        arrays: Optional[ClauseArrays] = None       # a big board's
        card: Callable[[], Tuple[Iterator[List[List[int]]], int]]   # the total's clauses, and the highest variable
        if puzzle.rows * puzzle.cols <= SMALL_SOLVE:
            # a small board: the same clauses built as lists, so that solving it never imports numpy (issue 24)
            from ..encode.plain import small_card, small_counts
            small, counts = small_counts(puzzle, mines)
            total = small.total

            def card() -> Tuple[Iterator[List[List[int]]], int]:
                clauses, nv = small_card(small)
                return feeding.list_slices(clauses), nv
        else:
            from ..core.system import build_system
            from ..encode.cnf import card_clauses, cnf_clauses
            system = build_system(puzzle, mines)
            arrays = cnf_clauses(system)
            total = system.total

            def card() -> Tuple[Iterator[List[List[int]]], int]:
                clauses, nv, _ = card_clauses(system)
                return feeding.array_slices(clauses), nv
        self.nv = k   # the count clauses mention the cells only; the total's add auxiliary variables
        free = _free_cells(k, counts, arrays)
        # the solver's variable of each cell (None: the cell's own id); see feeding.free_last
        self._var: Optional[List[int]] = feeding.free_last(k, free) if FREE_LAST else None
        if counts is not None:
            count_slices = feeding.list_slices(feeding.renamed(counts, self._var))
        else:
            assert arrays is not None
            count_slices = feeding.renamed_slices(arrays, self._var)
        self._free: Optional[List[int]] = None        # guided: the cells next to no count (ids, ascending)
        self._total = 0                               # guided: the mines the total puts on the cells
        self._card: Optional[Callable[[], Tuple[Iterator[List[List[int]]], int]]] = None   # not yet in the solver
        self._last: Optional[List[bool]] = None        # guided: the cells' values in the last solution
        self._given: Optional[List[int]] = None        # a solution made by a guess, not by the solver
        self._blocked: Set[Tuple[bool, ...]] = set()   # solutions blocked before the total's clauses were in
        self._card_work = card_work
        self._m = k - len(free)   # the solver's variables 1..m are the cells in a count clause
        guided = GUIDE and total is not None and 0 < total < k
        # a big board's count clauses (cell ids), solved part by part for the first model (_counts_model) while
        # the solver holds nothing else: no blocking clause, and no total's clauses (they would link every
        # part), so only without a total or guided
        split = (total is None or guided) and _searched(arrays) >= PARTS_FROM
        self._parts: Optional[ClauseArrays] = arrays if split else None
        if guided:
            assert total is not None
            self._free = free
            self._total = total
            self._card = card
        self.solver = settled(lambda: Solver(name=PYSAT_SOLVER))   # every pysat call off the main thread
        self.built = False   # False when the deadline came before every clause was in: never solved then
        # fed by clause length in bulk: building a pysat CNF object first costs seconds on a 1000 x 1000 board;
        # fed in slices, so that a deadline stops the building (a fully revealed 1000 x 1000 board's 1.5
        # million clauses took 4 s, past a 5 s --timeout). Solved part by part, the count clauses go in only
        # when the solver is first asked (_fed): a guess often answers every later question of a game position.
        self._unfed: Optional[Iterator[List[List[int]]]] = count_slices
        self._held: List[List[int]] = []   # blocking clauses that wait for the count clauses (block)
        if self._parts is None and not self._fed(deadline):
            return
        if self._card is None:
            slices, self.nv = card()
            if not self._feed(slices, deadline):
                return
        self.built = True

    def _fed(self, deadline: Optional[Deadline]) -> bool:
        """Whether the solver holds the count clauses (they are added now if not); False when the deadline
        came first (then it is never solved)."""
        if self._unfed is None:
            return True
        if not self._feed(self._unfed, deadline):
            self.built = False
            return False
        self._unfed = None
        held = self._held
        settled(lambda: self.solver.append_formula(held))   # blocking clauses given before
        self._held = []
        return True

    def _feed(self, slices: Iterator[List[List[int]]], deadline: Optional[Deadline]) -> bool:
        """Add the clauses to the solver; False when the deadline came first."""
        for clauses in slices:
            if deadline is not None and deadline.expired():
                return False
            settled(lambda: self.solver.append_formula(clauses))   # noqa: B023 (called at once)
        return True

    def next(self, timeout: Union[None, float, Deadline]) -> Answer:
        """Solve once: a model over every variable, or unsat, or unknown when the time ran out."""
        from ..formats.answer import Answer, literal_answer
        status, why = self.run(timeout)
        if status == "solved":
            return literal_answer(self.model(), [], format="pysat", source="<pysat>")
        return Answer(status, why=why, format="pysat", source="<pysat>")

    def model(self) -> List[int]:
        """The literals of the last model found (every variable the clauses mention)."""
        if self._given is not None:
            return self._given
        model = self.solver.get_model() or []
        if self._var is None:
            return model
        return _literals(self._values(model)) + model[self.k:]   # auxiliary variables keep their ids

    def _values(self, model: List[int]) -> List[bool]:
        """The cells' values, in cell id order, in a model of the solver's variables (False: a cell the solver
        has not met yet)."""
        k = self.k
        by_var = [lit > 0 for lit in model[:k]]
        by_var.extend([False] * (k - len(by_var)))
        if self._var is None:
            return by_var
        return [by_var[v - 1] for v in self._var[1:]]

    def _assumed(self, values: Sequence[bool]) -> List[int]:
        """The cells' values (cell id order) as literals of the solver's variables."""
        if self._var is None:
            return _literals(values)
        return [v if mine else -v for v, mine in zip(self._var[1:], values)]

    def run(self, timeout: Union[None, float, Deadline]) -> Tuple[str, str]:
        """Solve once: ("solved", ""), ("infeasible", "") or ("unknown", why) when the time ran out."""
        deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout)
        if deadline.expired() or not self.built:
            return "unknown", deadline.why("before the solver started")
        self._given = None
        if self._card is not None:
            status, why, values = self._guess(deadline)
            if status != "solved" or values is not None:
                return status, why
            # no guess answers: the total's clauses go in, and the solver searches
            if self._card_work is not None and self.k * min(self._total, self.k - self._total) > self._card_work:
                return "unknown", (f"the total mine count's clauses ({self._total} of {self.k} cells) are too large "
                                   "to build for this check")
            too_slow = card_too_slow(self.k, self._total, deadline,
                                     "the counts alone were solved, and no guess answered")
            if too_slow:
                return "unknown", too_slow
            if not self._fed(deadline):
                return "unknown", deadline.why("while the count clauses were given to the solver")
            slices, nv = self._card()
            self._card = None
            if not self._feed(slices, deadline):
                self.built = False
                return "unknown", deadline.why("while the total mine count's clauses were built")
            self.nv = nv
        elif self._free is not None and self._last is not None:
            # the total's clauses were in before this run: the move of the last solution found by the search
            values = self._moved(self._last)
            if values is not None:
                status, why = self._solve(self.solver, deadline, self._assumed(values))
                if status != "infeasible":   # solved, or out of time; infeasible: that solution was blocked
                    return self._remember(status), why
        if self._parts is not None:   # no total: the counts' model is a solution
            status, why, values = self._counts_model(deadline)
            if values is not None:
                self._given = _literals(values)
            return status, why
        if not self._fed(deadline):
            return "unknown", deadline.why("while the count clauses were given to the solver")
        status, why = self._solve(self.solver, deadline, [])
        return self._remember(status), why

    def _counts_model(self, deadline: Deadline) -> Tuple[str, str, Optional[List[bool]]]:
        """A model of the solver's clauses while they are the count clauses alone: (status, why, the cells'
        values when solved); part by part on a big board (_by_parts), else by the solver."""
        if self._parts is not None:
            arrays, self._parts = self._parts, None
            return self._by_parts(arrays, deadline)
        if not self._fed(deadline):
            return "unknown", deadline.why("while the count clauses were given to the solver"), None
        status, why = self._solve(self.solver, deadline, [])
        return status, why, self._values(self.solver.get_model() or []) if status == "solved" else None

    def _by_parts(self, arrays: ClauseArrays, deadline: Deadline) -> Tuple[str, str, Optional[List[bool]]]:
        """_counts_model from small solvers over the independent parts of the count clauses (small parts
        together, about PART_GROUP cells to a solver).

        The frontier of a big game position falls apart into many parts, and one solver holding them all
        undoes, at each backjump, the decisions made since in other parts: on a 500 x 500 game position
        (59,455 cells in 1,310 parts) glucose made 1.6 million decisions for 1,142 conflicts, and 16,000 part by
        part. The model found this way becomes the solver's preferred phases, so that its later runs (after a
        block) start from it.
        """
        from pysat.solvers import Solver

        from ..encode.parts import independent_parts
        if (arrays.lens == 0).any():   # a count no assignment meets
            return "infeasible", "", None
        values = np.zeros(self.k, dtype=bool)
        for clauses, cells in independent_parts(arrays.lits, self.k, PART_GROUP):
            if deadline.expired():
                return "unknown", deadline.why("while the counts were solved part by part"), None
            if cells.size > PART_THREAD:
                part = settled(lambda: Solver(name=PYSAT_SOLVER, bootstrap_with=clauses))   # noqa: B023
                try:
                    status, why = self._solve(part, deadline, [])
                    found = part.get_model() if status == "solved" else None
                finally:
                    settled(part.delete)
            else:   # a small part takes microseconds: built, solved and freed in one call off the main thread
                status, why, found = settled(lambda: _small_part(clauses))   # noqa: B023
            if status != "solved":
                return status, why, None
            model = np.asarray(found or [], dtype=np.int64)
            values[cells[model[model > 0] - 1]] = True
        # phases of the variables the solver has (1..m): a phase set on another would add it, to be decided
        var = np.arange(1, self.k + 1) if self._var is None else np.asarray(self._var[1:], dtype=np.int64)
        phases = np.where(values, var, -var)
        self.solver.set_phases(phases[var <= self._m].tolist())
        return "solved", "", values.tolist()

    def _remember(self, status: str) -> str:
        """status, the cells' values in the model kept when solved (what the next guess starts from)."""
        if status == "solved" and self._free is not None:
            self._last = self._values(self.solver.get_model() or [])
        return status

    def _guess(self, deadline: Deadline) -> Tuple[str, str, Optional[List[bool]]]:
        """A solution made without the total's clauses: (status, why, the cells' values); solved with None
        values when no guess answers.

        CDCL solvers struggle with the total mine count: on game positions of 16 x 30 with 99 mines, glucose
        took 0.03-1.0 s to find any solution, and a 100 x 100 game position did not finish in 60 s (the cells
        next to no count are interchangeable, and the cardinality encoding's counter learns that one clause
        at a time), while the counts alone are solved in a few ms. So the first guess solves the count clauses
        alone (infeasible there is infeasible everywhere), then puts the mines the total still wants on the
        first free cells (next to no count), when there are enough of them: a solution. A later guess (after
        block()) moves one of those mines to another free cell: a different solution whenever the free cells
        hold some mines and some safe ones, and not blocked before. Worked example: counts that alone need
        3 mines, a total of 10, 40 free cells: the first guess puts 7 mines on free cells 1-7; the next moves
        the mine of cell 1 to cell 8.
        """
        if self._last is not None:
            values = self._moved(self._last)
            if values is None or tuple(values) in self._blocked:
                return "solved", "", None
        else:
            status, why, counted = self._counts_model(deadline)
            if counted is None:
                return status, why, None
            assert self._free is not None
            values = counted
            for v in self._free:
                values[v - 1] = False
            need = self._total - sum(values)
            if not 0 <= need <= len(self._free):
                return "solved", "", None
            for v in self._free[:need]:
                values[v - 1] = True
            if tuple(values) in self._blocked:   # the solver met the blocking clause on cells the guess overrides
                return "solved", "", None
        self._given = _literals(values)
        self._last = values
        return "solved", "", values

    def _moved(self, values: List[bool]) -> Optional[List[bool]]:
        """values with the first free cell holding a mine made safe and the first safe one a mine (None: the
        free cells are all mines or all safe)."""
        assert self._free is not None
        mined = next((v for v in self._free if values[v - 1]), None)
        safe = next((v for v in self._free if not values[v - 1]), None)
        if mined is None or safe is None:
            return None
        moved = list(values)
        moved[mined - 1], moved[safe - 1] = False, True
        return moved

    def _solve(self, solver: Any, deadline: Deadline, assumptions: List[int]) -> Tuple[str, str]:
        """One solve of solver under the assumptions, in a worker thread the clock and signals can stop."""
        if deadline.expired():
            return "unknown", deadline.why("before the solver started")
        box: List[Optional[bool]] = []
        began: List[bool] = []
        ended: List[bool] = []   # the truth: a signal raised just after an acquire() leaves the lock taken
        done = _thread.allocate_lock()   # held until the solve has ended: waiting on it wakes at once
        done.acquire()

        def work() -> None:
            began.append(True)
            try:
                box.append(solver.solve_limited(assumptions=assumptions, expect_interrupt=True))
            finally:
                ended.append(True)
                done.release()

        launched = False
        try:
            # the low-level start: Thread.start() waits on an Event, and a Ctrl-C landing in that wait left
            # the solve running unseen, to be freed under it by close()
            launched = True
            try:
                _thread.start_new_thread(work, ())
            except Exception:
                launched = False
                raise
            while not ended:
                left = deadline.remaining()
                if left is not None and left <= 0:
                    break
                done.acquire(timeout=0.05 if left is None else min(0.05, left))
        finally:
            if launched:
                self._settle(solver, began, ended, done)
        result = box[0] if box else None
        if result is None:
            solver.clear_interrupt()
            return "unknown", f"pysat did not finish within {deadline.seconds:g} s"
        return ("solved" if result else "infeasible"), ""

    def _settle(self, solver: Any, began: List[bool], ended: List[bool], done: "_thread.LockType") -> None:
        """Interrupt the solve and wait for it to end, whatever signal comes meanwhile.

        close() frees the solver: freed under a solve still running, pysat died of SIGSEGV (a Ctrl-C that
        landed inside Thread.start() or in a join skipped the wait; issue 25: 4 runs in 30 of a Ctrl-C test).
        A thread that has not begun within START_WAIT seconds was never started (a Ctrl-C just before it).
        """
        pending: Optional[BaseException] = None
        start = time.monotonic()
        while not ended and (began or time.monotonic() - start < START_WAIT):
            try:
                solver.interrupt()
                done.acquire(timeout=0.05)
            except KeyboardInterrupt as exc:   # Ctrl-C again, SIGTERM, SIGHUP: wait first, then raise it
                pending = pending or exc
        if pending is not None:
            raise pending

    def block(self, grid_values: Union[Sequence[bool], "np.ndarray"]) -> None:
        """Forbid this assignment of the cell variables (ids 1..k, their values in id order) from now on."""
        values = grid_values.tolist() if hasattr(grid_values, "tolist") else grid_values   # plain bools, fast
        clause = [-lit for lit in self._assumed(values)]
        if self._unfed is None:
            self.solver.add_clause(clause)
        else:
            # after the count clauses (_fed): glucose, fed a clause of every cell first, then each count's unit
            # clauses, looked for a new watched literal from the clause's start at each unit: 9 s of quadratic
            # scans on a 1000 x 1000 board
            self._held.append(clause)
        self._parts = None   # the solver is to hold more than the count clauses
        if self._card is not None:   # a guess must not give it again (the solver does not check guesses)
            self._blocked.add(tuple(bool(x) for x in values))

    def close(self) -> None:
        """Free the solver (off the main thread: a Ctrl-C inside delete() made pysat free it twice)."""
        settled(self.solver.delete)


def _small_part(clauses: List[List[int]]) -> Tuple[str, str, Optional[List[int]]]:
    """A small part of the count clauses solved by a solver of its own: (status, why, its model)."""
    from pysat.solvers import Solver
    with Solver(name=PYSAT_SOLVER, bootstrap_with=clauses) as part:
        if not part.solve():
            return "infeasible", "", None
        return "solved", "", part.get_model()


def _free_cells(k: int, counts: Optional[List[List[int]]], arrays: Optional[ClauseArrays]) -> List[int]:
    """The cells next to no count, ascending: in no count clause (lists, or a big board's arrays; they mention
    cells only, no auxiliary variables)."""
    if counts is not None:
        constrained = [False] * (k + 1)
        for clause in counts:
            for lit in clause:
                constrained[abs(lit)] = True
        return [v for v in range(1, k + 1) if not constrained[v]]
    assert arrays is not None
    seen = np.zeros(k + 1, dtype=bool)
    seen[np.abs(arrays.lits[arrays.lits != 0])] = True
    return (np.flatnonzero(~seen[1:]) + 1).tolist()


def _searched(arrays: Optional[ClauseArrays]) -> int:
    """How many cells a big board's count clauses of two or more literals hold (0 on a small board's lists)."""
    if arrays is None:
        return 0
    cells = np.abs(arrays.lits[arrays.lens > 1]).ravel()
    return int(np.count_nonzero(np.bincount(cells)[1:])) if cells.size else 0   # [0]: the padding


def _literals(values: Sequence[bool]) -> List[int]:
    """The cells' values as literals of their variables 1..k."""
    return [v if mine else -v for v, mine in enumerate(values, 1)]


def cell_values(dec: Decoded, system: LinearSystem) -> np.ndarray:
    """The decoded mines of the system's cells, in variable order (what `block` forbids)."""
    return dec.grid[system.var_rc[:, 0], system.var_rc[:, 1]]  # type: ignore[index]


def model_too_slow(puzzle: Puzzle, fmt: Optional[str], deadline: Deadline, embedded: bool = False) -> Optional[str]:
    """Why building the model surely takes longer than the time left (None: go ahead, checking the clock).

    Nothing is refused here for the embedded solver (`embedded`) while it guesses (GUIDE): it builds the total's
    clauses only when no guess answers, and asks card_too_slow then."""
    if deadline.remaining() is None or fmt != "cnf" or (embedded and GUIDE):
        return None
    from ..core.system import build_system
    system = build_system(puzzle)
    return card_too_slow(system.num_vars, system.total, deadline)


def card_too_slow(k: int, t: Optional[int], deadline: Deadline, done: str = "nothing was run") -> Optional[str]:
    """model_too_slow for a CNF of k cell variables and t more mines among them (None: no total count); `done`
    ends the reason (what had been done when the clauses were to be built)."""
    left = deadline.remaining()
    if left is None or t is None or not 0 < t < k:
        return None
    work = k * min(t, k - t)
    # pysat's cardinality encoding does about 1e7 units a second here; 1e8 is a bound no machine beats,
    # so a refusal is never a guess
    if work / CARD_UNITS_PER_SECOND > left:
        return (f"the time limit of {deadline.seconds:g} s is too short to build the CNF model (the total "
                f"mine count's encoding, {t} of {k} cells, takes seconds); {done}")
    return None


