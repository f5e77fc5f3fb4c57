""""Must I guess?": a position's verdict, with evidence a skeptic can check without trusting mineconv.

- no-guess: some unknown cell is decided in every solution. The verdict names one (a safe cell when the
  first deduction offers one) and its proof: the first step `explain` finds (the counts it uses, its level,
  its words), which holds on the position as given.
- guess: no unknown cell is decided. The certificate is a short list of solutions, each meeting every
  count and the total, that together put a mine and no mine on every unknown cell: then no cell can be
  decided, and anyone can check that with a few additions per count. The list is built greedily: each
  new solution is asked for one value not yet shown, with the solver's phases set to every value not yet
  shown, so one solution usually covers many.

Either way the verdict also gives the best guess (the unknown cell most likely safe) and the exact count.
`check_certificate` re-verifies a verdict's JSON against the position with no solver at all.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import numpy as np

from ..core.bounds import UNBOUNDED, AnalysisTimeout, Bounds
from ..core.errors import VerificationError
from ..core.puzzle import CODE_MINE, CODE_UNKNOWN, Puzzle, neighbour_count
from ..core.system import check_assignment
from ..encode.cardinality import off_main_thread
from ..encode.cnf import to_cnf
from .advice import advise
from .backbone import solve_within
from .explain import iter_steps
from .report import Analysis, analyze, mine_chances

Cell = Tuple[int, int]
BEST_GUESS_RULE = ("the unknown cell most likely safe; among equals, the one with the most unknown neighbours "
                   "(opening it tells the most), then the first in row-major order")
# a no-guess proof is re-checked by enumerating the named counts' cells; past this many cells it is not
MAX_CHECKED_CELLS = 24


@dataclass
class Verdict:
    """A position's verdict: "no-guess" with a decided cell and its proof, "guess" with a certificate, or
    "solved" when no unknown cell is left."""

    verdict: str
    count: Optional[int]
    cell: Optional[Cell] = None
    value: Optional[str] = None
    proof: Optional[Dict[str, Any]] = None
    solutions: List[List[Cell]] = field(default_factory=list)
    best_guess: Optional[Dict[str, Any]] = None
    status: str = "complete"

    def to_json(self) -> Dict[str, Any]:
        """The verdict as the command line's --json prints it."""
        out: Dict[str, Any] = {"verdict": self.verdict}
        if self.cell is not None:
            out.update(cell=list(self.cell), value=self.value, proof=self.proof)
        if self.verdict == "guess":
            out["solutions"] = [[list(c) for c in s] for s in self.solutions]
            out["certificate_size"] = len(self.solutions)
        out["best_guess"] = self.best_guess
        out["count"] = None if self.count is None else str(self.count)
        out["status"] = self.status
        return out


def verdict(puzzle: Puzzle, *, timeout: Optional[float] = None,
            memory_budget: Optional[int] = None) -> Optional[Verdict]:
    """The verdict on a position, or None when it has no solution (the counts contradict each other).

    `timeout` bounds the whole verdict: the analysis, the proof and the certificate share it.
    """
    start = time.monotonic()

    def left() -> Optional[float]:
        return None if timeout is None else max(0.0, timeout - (time.monotonic() - start))

    a = analyze(puzzle, memory_budget=memory_budget, timeout=timeout)
    if not a.feasible:
        return None
    best = best_guess(puzzle, a)
    if best is not None and a.status == "complete":   # the engine's move beside the safest cell (issue 37)
        best["engine"] = advise(puzzle, budget=left(), known_mines=True).move_json()
    if a.system.num_vars == 0:
        return Verdict("solved", a.solutions, best_guess=None, status=a.status)
    if a.safe_cells or a.mine_cells:
        cell, value, proof = named_cell(puzzle, a, left())
        return Verdict("no-guess", a.solutions, cell, value, proof, best_guess=best, status=a.status)
    solutions, complete = covering_solutions(puzzle, Bounds(None, left()))
    return Verdict("guess", a.solutions, solutions=solutions, best_guess=best,
                   status=a.status if complete else "timeout")


def named_cell(puzzle: Puzzle, a: Analysis, timeout: Optional[float]) -> Tuple[Cell, str, Dict[str, Any]]:
    """A decided cell and its proof: explain's first step (a safe cell of it when it has one)."""
    # only the first step is wanted: the rest of the explanation is never looked for
    first = next(iter_steps(puzzle, level="full", bounds=Bounds(timeout=timeout)), None)
    if first is not None:
        chosen = next((c for c in first.cells if not c.mine), first.cells[0])
        return (chosen.row, chosen.col), "mine" if chosen.mine else "safe", first.to_json(1)
    # explain ran out of time: name a decided cell with the analysis's own word for it
    safe = sorted(a.safe_cells)
    decided = safe[0] if safe else sorted(a.mine_cells)[0]
    return (int(decided[0]), int(decided[1])), "safe" if safe else "mine", {"level": "full", "text": "decided in every solution "
                                                      "(the SAT backbone); no step proof within the time limit"}


def best_guess(puzzle: Puzzle, a: Analysis) -> Optional[Dict[str, Any]]:
    """The unknown cell most likely safe (ties: most unknown neighbours, then row-major), with its chance."""
    p = mine_chances(a)
    if p is None or not p.size:
        return None
    # the same float keys as a cell-by-cell scan, at numpy speed (a 1000x1000 board took 3.6 s)
    key = -(1.0 - p)
    rc = a.system.var_rc
    opens = neighbour_count(puzzle.codes == CODE_UNKNOWN)[rc[:, 0], rc[:, 1]].astype(np.int64)
    i = int(np.lexsort((np.arange(p.size), -opens, key))[0])   # variables are numbered row-major
    return {"cell": [int(rc[i, 0]), int(rc[i, 1])], "p_safe": float(-key[i]), "rule": BEST_GUESS_RULE}


def covering_solutions(puzzle: Puzzle, bounds: Bounds = UNBOUNDED) -> Tuple[List[List[Cell]], bool]:
    """Solutions that together put a mine and no mine on every unknown cell (greedy, phases steered),
    and whether they are all there (False: the deadline of `bounds` came first)."""
    return off_main_thread(lambda: _cover(puzzle, bounds))


def _cover(puzzle: Puzzle, bounds: Bounds) -> Tuple[List[List[Cell]], bool]:
    from pysat.solvers import Solver

    cnf = to_cnf(puzzle)
    known = [(int(r), int(c)) for r, c in zip(*np.nonzero(puzzle.codes == CODE_MINE))]
    wanted: Set[int] = {lit for v in range(1, cnf.k + 1) for lit in (v, -v)}
    found: List[List[Cell]] = []
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        while wanted:
            target = min(wanted, key=abs)
            solver.set_phases(sorted(wanted, key=abs))
            try:
                sat = solve_within(solver, [target], bounds)
            except AnalysisTimeout:
                return found, False
            if not sat:
                wanted.discard(target)   # cannot happen when no cell is decided; kept so the loop ends
                continue
            model = solver.get_model()[:cnf.k]
            wanted.difference_update(model)
            found.append(sorted(known + [cnf.cells[lit - 1] for lit in model if lit > 0]))
    return found, True


def check_certificate(puzzle: Puzzle, certificate: Dict[str, Any]) -> str:
    """Re-verify a verdict's JSON on the position without a solver: what was checked, or VerificationError."""
    kind = certificate.get("verdict")
    if kind == "guess":
        return _check_guess(puzzle, certificate.get("solutions"))
    if kind == "no-guess":
        return _check_no_guess(puzzle, certificate)
    raise VerificationError(f"the certificate's verdict is {kind!r}, not 'guess' or 'no-guess'")


def _mine_grid(puzzle: Puzzle, cells: Any, number: int) -> np.ndarray:
    grid = np.zeros((puzzle.rows, puzzle.cols), dtype=bool)
    if not isinstance(cells, list):
        raise VerificationError(f"solution {number} is not a list of cells")
    for cell in cells:
        if not (isinstance(cell, list) and len(cell) == 2 and all(isinstance(x, int) for x in cell)
                and 0 <= cell[0] < puzzle.rows and 0 <= cell[1] < puzzle.cols):
            raise VerificationError(f"solution {number} names {cell!r}, not a cell of the {puzzle.rows} x "
                                    f"{puzzle.cols} board")
        grid[cell[0], cell[1]] = True
    return grid


def _check_guess(puzzle: Puzzle, solutions: Any) -> str:
    if not isinstance(solutions, list) or not solutions:
        raise VerificationError("a guess certificate needs a non-empty list of solutions")
    unknown = puzzle.codes == CODE_UNKNOWN
    seen_mine = np.zeros_like(unknown)
    seen_safe = np.zeros_like(unknown)
    for number, cells in enumerate(solutions, 1):
        grid = _mine_grid(puzzle, cells, number)
        bad = check_assignment(puzzle, grid, puzzle.mines)
        if bad is not None:
            raise VerificationError(f"solution {number} is not a solution: {bad.message}")
        seen_mine |= grid & unknown
        seen_safe |= ~grid & unknown
    undecided = unknown & ~(seen_mine & seen_safe)
    if undecided.any():
        r, c = (int(x) for x in np.argwhere(undecided)[0])
        side = "a mine" if not seen_mine[r, c] else "no mine"
        raise VerificationError(f"no solution of the certificate puts {side} on ({r}, {c}): it does not show that "
                                "every unknown cell could go either way")
    return (f"{len(solutions)} solutions, each meeting every count"
            f"{' and the total' if puzzle.mines is not None else ''}, put a mine and no mine on each of the "
            f"{int(unknown.sum())} unknown cells: no cell is decided, a guess is forced")


def _check_no_guess(puzzle: Puzzle, certificate: Dict[str, Any]) -> str:
    cell, value, proof = certificate.get("cell"), certificate.get("value"), certificate.get("proof") or {}
    if not (isinstance(cell, list) and len(cell) == 2) or value not in ("safe", "mine"):
        raise VerificationError("a no-guess certificate names a cell [row, col] and its value, safe or mine")
    if proof.get("total"):
        raise VerificationError("this proof uses the total mine count: checking it needs every cell of the "
                                "board, which --check does not enumerate; rerun the verdict to re-derive it")
    counts = [(c.get("row"), c.get("col")) for c in proof.get("because", [])]
    if not counts:
        raise VerificationError("the proof names no counts to check")
    r0, c0 = int(cell[0]), int(cell[1])
    cells, checks = _local_problem(puzzle, counts)
    if (r0, c0) not in cells:
        raise VerificationError(f"({r0}, {c0}) is not next to any count the proof names")
    if len(cells) > MAX_CHECKED_CELLS:
        raise VerificationError(f"the proof's counts touch {len(cells)} unknown cells, more than --check "
                                f"enumerates ({MAX_CHECKED_CELLS})")
    index = cells.index((r0, c0))
    values = {bool(assignment[index]) for assignment in _assignments(len(cells), checks)}
    if not values:
        raise VerificationError("the named counts cannot all be met: the position has no solution")
    if values != {value == "mine"}:
        raise VerificationError(f"the named counts allow ({r0}, {c0}) to be {'safe' if value == 'mine' else 'a mine'}")
    return (f"every way to meet the {len(counts)} named counts ({len(cells)} unknown cells around them) "
            f"makes ({r0}, {c0}) {'a mine' if value == 'mine' else 'safe'}")


def _local_problem(puzzle: Puzzle, counts: Sequence[Tuple[Any, Any]]) -> Tuple[List[Cell], List[Tuple[List[int], int]]]:
    """The unknown cells around the named counts, and each count as (indices of its unknown cells, mines left)."""
    codes = puzzle.codes
    cells: List[Cell] = []
    checks: List[Tuple[List[int], int]] = []
    for r, c in counts:
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < puzzle.rows and 0 <= c < puzzle.cols
                and 0 <= codes[r, c] <= 8):
            raise VerificationError(f"the proof names ({r}, {c}), which is not a count of the position")
        need = int(codes[r, c])
        members = []
        for i in range(max(0, r - 1), min(puzzle.rows, r + 2)):
            for j in range(max(0, c - 1), min(puzzle.cols, c + 2)):
                if codes[i, j] == CODE_MINE:
                    need -= 1
                elif codes[i, j] == CODE_UNKNOWN:
                    if (i, j) not in cells:
                        cells.append((i, j))
                    members.append(cells.index((i, j)))
        checks.append((members, need))
    return cells, checks


def _assignments(n: int, checks: List[Tuple[List[int], int]]) -> Iterator[Tuple[int, ...]]:
    """Every 0/1 assignment of n cells meeting every check (backtracking with each check's bounds)."""
    values = [0] * n

    def fits(upto: int) -> bool:
        for members, need in checks:
            placed = sum(values[m] for m in members if m <= upto)
            open_ = sum(1 for m in members if m > upto)
            if not placed <= need <= placed + open_:
                return False
        return True

    def extend(i: int) -> Iterator[Tuple[int, ...]]:
        if i == n:
            yield tuple(values)
            return
        for v in (0, 1):
            values[i] = v
            if fits(i):
                yield from extend(i + 1)
        values[i] = 0

    if fits(-1):
        yield from extend(0)
