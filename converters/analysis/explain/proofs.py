"""Proofs by contradiction for explain's full level: which few counts rule out a cell's other value.

One SAT solver holds every count (and the total mine count), each behind a selector literal of its own
(a clause of the count binds only while its selector is assumed). Assuming the decided cells, the
opposite of a claim and every selector, the solver refutes the claim's negation and names the selectors
it used (an unsat core); deletion then shrinks that set, the total first, then the counts farthest from
the cell, so what remains is a short argument a student can follow.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Set, Tuple

from ...core.bounds import Bounds
from ...core.errors import SolverError
from ...encode.cardinality import exactly, off_main_thread
from ..cellstate import SAFE
from ..levels.backbone import solve_within

if TYPE_CHECKING:
    from pysat.solvers import Solver

# pysat's glucose can both report an unsat core and be interrupted at a deadline
CORE_SOLVER = "glucose4"


def selector_clauses(cvars: Sequence[Sequence[int]], rhs: Sequence[int], total: Optional[int], k: int
                     ) -> Tuple[List[List[int]], Dict[int, int], Optional[int]]:
    """Every count (seqcounter) and the total (kmtotalizer) as clauses behind selectors, over k cells.

    Returns (clauses, selector -> count index, the total's selector or None). Count i's selector is the
    variable after the auxiliaries of count i - 1 (the first is k + 1), and its clauses follow it.
    """
    top = k
    clauses: List[List[int]] = []
    selector: Dict[int, int] = {}
    for ci, vs in enumerate(cvars):
        s = top = top + 1
        selector[s] = ci
        encoded, top = exactly(vs, rhs[ci], top=top, encoding="seqcounter")
        clauses.extend(cl + [-s] for cl in encoded)
    total_selector = None
    if total is not None:
        top += 1
        total_selector = top
        encoded, top = exactly(range(1, k + 1), total, top=top, encoding="kmtotalizer")
        clauses.extend(cl + [-total_selector] for cl in encoded)
    return clauses, selector, total_selector


def clause_bytes(cvars: Sequence[Sequence[int]], total: Optional[int], k: int) -> float:
    """Estimated bytes of selector_clauses() and their copy in the solver, before building them.

    Measured: a count of n cells costs a few hundred bytes per cell; the total over k cells grows as
    k ** 1.5 (about 2.3 k ** 1.5 clauses of some 105 bytes each, from k = 500 to 2000), so a board of
    tens of thousands of unknown cells with a total would need gigabytes.
    """
    counts = sum(300.0 * len(vs) for vs in cvars)
    return counts + (0.0 if total is None else 250.0 * k ** 1.5)


class Prover:
    """The SAT solver of a board's counts behind selectors, and the small cores that prove cells.

    `rc` gives each variable's (row, col) (index 0 unused), `crc` each count's; they order the deletion.
    The solver is built on first use and freed by close().
    """

    def __init__(self, cvars: Sequence[Sequence[int]], rhs: Sequence[int], total: Optional[int],
                 rc: Sequence[Tuple[int, int]], crc: Sequence[Tuple[int, int]], bounds: Bounds) -> None:
        self.cvars, self.rhs, self.total, self.rc, self.crc, self.bounds = cvars, rhs, total, rc, crc, bounds
        self.sat: Optional["Solver"] = None
        self.selector: Dict[int, int] = {}
        self.total_selector: Optional[int] = None
        self.cores: Dict[Optional[int], Set[int]] = {}   # target variable -> the selectors of its last proof

    def solver(self) -> "Solver":
        """The solver, built on first use (its clauses encoded off the main thread in one go)."""
        if self.sat is None:
            from pysat.solvers import Solver

            k = len(self.rc) - 1
            self.bounds.check_memory(clause_bytes(self.cvars, self.total, k),
                                     "the proofs of explain's full level (a SAT solver over every count)")
            clauses, self.selector, self.total_selector = off_main_thread(
                lambda: selector_clauses(self.cvars, self.rhs, self.total, k))
            self.sat = Solver(name=CORE_SOLVER)
            for cl in clauses:
                self.sat.add_clause(cl)
        return self.sat

    def unsat(self, assumptions: List[int]) -> bool:
        """True when the counts admit no solution under the assumptions (AnalysisTimeout at the deadline)."""
        return not solve_within(self.solver(), assumptions, self.bounds)

    def core(self, known: List[int], x: Optional[int], b: int) -> Tuple[List[int], bool]:
        """A small set of counts (and whether the total is needed) that, with the decided cells `known`
        (literals), rule out cell x taking the other value than b (x None: that admit no solution at all).
        Shrunk by deletion; returns (count indices, total needed)."""
        sat = self.solver()
        target = [] if x is None else [x if b == SAFE else -x]   # assume the opposite of the claim
        sels = list(self.selector)
        if self.total_selector is not None:
            sels.append(self.total_selector)
        cached = self.cores.get(x)
        if cached is not None and self.unsat(known + target + sorted(cached)):
            # a proof found at an earlier step still holds (more cells are decided now): shrink that one
            core = cached & set(sat.get_core() or cached)
        elif self.unsat(known + target + sels):
            core = set(sat.get_core() or []) & set(sels)
        else:  # pragma: no cover - every target is in the backbone, so the solver refutes its negation
            raise SolverError("explain: a backbone cell the SAT solver cannot prove")
        # deletion: drop the total first (a proof from the counts alone is easier to follow), then the
        # counts farthest from the cell
        order = sorted(core, key=lambda s: (s != self.total_selector, -self.distance(x, s)))
        for s in order:
            if s not in core:
                continue
            trial = core - {s}
            if self.unsat(known + target + sorted(trial)):
                # the solver's own core may drop more than the one selector taken out
                core = trial & set(sat.get_core() or trial)
        if x is not None:
            self.cores[x] = core
        cons = sorted(self.selector[s] for s in core if s != self.total_selector)
        return cons, self.total_selector in core

    def also_proves(self, known: List[int], x: int, y: int, b: int) -> bool:
        """True when the counts of cell x's last proof also rule out cell y taking the other value than b."""
        return self.unsat(known + [y if b == SAFE else -y] + sorted(self.cores[x]))

    def distance(self, x: Optional[int], s: int) -> int:
        """How far (in king moves) the count of selector s is from cell x (0 for the total, or no cell)."""
        if x is None or s not in self.selector:
            return 0
        r, c = self.rc[x]
        cr, cc = self.crc[self.selector[s]]
        return max(abs(r - cr), abs(c - cc))

    def close(self) -> None:
        """Free the solver, if it was built."""
        if self.sat is not None:
            self.sat.delete()
            self.sat = None
