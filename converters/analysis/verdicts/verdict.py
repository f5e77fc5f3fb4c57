""""Must I guess?": a position's verdict, with evidence a skeptic can check without trusting mineconv.

- no-guess: some unknown cell is decided in every solution. The verdict names one (a safe cell when the
  first deduction offers one) and its proof: the first step `explain` finds (the counts it uses, its level,
  its words), which holds on the position as given.
- guess: no unknown cell is decided. The certificate is a short list of solutions, each meeting every
  count and the total, that together put a mine and no mine on every unknown cell: then no cell can be
  decided, and anyone can check that with a few additions per count. The list is built greedily: each
  new solution is asked for one value not yet shown, with the solver's phases set to every value not yet
  shown, so one solution usually covers many.

Either way the verdict also gives the best guess (the unknown cell most likely safe; "certain" when it is
proven safe, and then it is no guess) and the exact count. `check_certificate` re-verifies a verdict's
JSON on the position: the evidence with no solver at all (certificate.py), every other field recomputed.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

from ...core.bounds import UNBOUNDED, AnalysisTimeout, Bounds, CountingMemoryError
from ...core.errors import ResourceError, VerificationError
from ...core.jsonout import decimal_text, json_text
from ...core.puzzle import CODE_MINE, CODE_UNKNOWN, Puzzle, neighbour_count
from ...encode.cnf import to_cnf
from ..advice import advise
from ..cellstate import SAFE
from ..explain.walk import iter_steps
from ..levels.backbone import solve_within
from ..report import Analysis, analyze, mine_chances
from .certificate import board_cell, check_guess, check_proof

Cell = Tuple[int, int]
# the engine's move is weighed up to this many unknown cells: its exact count (advice.position) runs with no
# deadline and grew as cells ** 1.8 on boards of '?' (measured 2026-11-27: 100x100 0.14 s, 200x200 0.82 s,
# 300x300 3.6 s; 1000x1000 past 120 s with --timeout 5). A cap, not the clock, so that --check recomputes
# the same best_guess; 10,000 is twenty expert boards
ENGINE_MAX_UNKNOWN = 10_000
BEST_GUESS_RULE = ("the unknown cell most likely safe (a cell proven safe first); among equals, the one with the most unknown neighbours "
                   "(opening it tells the most), then the first in row-major order")


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
        out["count"] = None if self.count is None else decimal_text(self.count)
        out["status"] = self.status
        return out


def verdict(puzzle: Puzzle, *, timeout: Optional[float] = None,
            memory_budget: Optional[int] = None) -> Optional[Verdict]:
    """The verdict on a position, or None when it has no solution (the counts contradict each other).

    `timeout` bounds the whole verdict: the analysis, the proof and the certificate share it.
    """
    return decide(puzzle, timeout=timeout, memory_budget=memory_budget)


def decide(puzzle: Puzzle, *, timeout: Optional[float] = None, memory_budget: Optional[int] = None,
           cover: bool = True) -> Optional[Verdict]:
    """verdict(), and without the guess certificate's solutions when `cover` is False (--check's recomputation)."""
    start = time.monotonic()

    def left() -> Optional[float]:
        return None if timeout is None else max(0.0, timeout - (time.monotonic() - start))

    a = analyze(puzzle, memory_budget=memory_budget, timeout=timeout)
    if not a.feasible:
        return None
    best = best_guess(puzzle, a)
    if best is not None and a.status == "complete":   # the engine's move beside the safest cell (issue 37)
        if puzzle.unknown_count <= ENGINE_MAX_UNKNOWN:
            best["engine"] = advise(puzzle, budget=left(), known_mines=True).move_json()
        else:
            best["engine_skipped"] = (f"{puzzle.unknown_count} unknown cells, past the {ENGINE_MAX_UNKNOWN} the "
                                      "engine is weighed on (its exact count takes no deadline)")
    if a.system.num_vars == 0:
        return Verdict("solved", a.solutions, best_guess=None, status=a.status)
    if a.safe_cells or a.mine_cells:
        cell, value, proof = named_cell(puzzle, a, left())
        return Verdict("no-guess", a.solutions, cell, value, proof, best_guess=best, status=a.status)
    if not cover:
        return Verdict("guess", a.solutions, best_guess=best, status=a.status)
    bounds = Bounds(memory_budget, left())
    try:
        bounds.check_memory(cover_bytes(puzzle), "the guess certificate (a SAT solver holding the board)")
        solutions, complete = covering_solutions(puzzle, bounds)
    except CountingMemoryError:
        return Verdict("guess", a.solutions, best_guess=best, status="partial")
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
    """The unknown cell most likely safe (one proven safe first; ties: most unknown neighbours, then
    row-major), with its chance and whether it is certain (proven safe: then it is no guess)."""
    p = mine_chances(a)
    if p is None or not p.size:
        return None
    # the same float keys as a cell-by-cell scan, at numpy speed (a 1000x1000 board took 3.6 s)
    key = -(1.0 - p)
    # a cell proven safe comes first: a chance of 1 - 1e-20 rounds to the same float 1.0
    certain = np.asarray(a.values) == SAFE
    rc = a.system.var_rc
    opens = neighbour_count(puzzle.codes == CODE_UNKNOWN)[rc[:, 0], rc[:, 1]].astype(np.int64)
    # the first of numpy.lexsort((index, -opens, key, ~certain)) in three passes, without sorting 16 million
    # cells (4 s at 4000x4000): certain first, then the lowest key, the most opens, the lowest index
    pick = certain if certain.any() else np.ones(p.size, dtype=bool)
    pick &= key == key[pick].min()
    pick &= opens == opens[pick].max()
    if not pick.any():   # a NaN chance matches no minimum: lexsort's order, which puts it last
        pick[np.lexsort((np.arange(p.size), -opens, key, ~certain))[0]] = True
    i = int(np.argmax(pick))   # variables are numbered row-major
    return {"cell": [int(rc[i, 0]), int(rc[i, 1])], "p_safe": float(-key[i]), "rule": BEST_GUESS_RULE,
            "certain": bool(certain[i])}


# measured 2026-11-27: the CNF of a total over k unknown cells (kmtotalizer, a total of k / 5) holds about
# 1,000 k ** 1.5 bytes in pysat's lists: 158 MB at k = 2,500, 924 MB at 10,000, 2.6 GB at 19,881 (built
# in 9, 70 and 182 s on the shared 2-core machine, in one call that no deadline interrupts)
# and without a total, measured the same day on boards of '?' (300x300, 600x600): the solver, the CNF, the
# set of literals still wanted and the first models take 550-600 bytes per unknown cell (16 million cells:
# about 9 GB, which the budget now refuses before building)
CELL_BYTES = 600
# each solution kept lists its mine cells as (row, col) tuples, and to_json copies them as lists
SOLUTION_CELL_BYTES = 250


def cover_bytes(puzzle: Puzzle) -> float:
    """Estimated bytes of the guess certificate's solver before its first solution: a few hundred bytes per
    unknown cell, and a total's CNF, which grows faster."""
    k = puzzle.unknown_count
    return CELL_BYTES * k + (0.0 if puzzle.mines is None else 1000.0 * k ** 1.5)


def covering_solutions(puzzle: Puzzle, bounds: Bounds = UNBOUNDED) -> Tuple[List[List[Cell]], bool]:
    """Solutions that together put a mine and no mine on every unknown cell (greedy, phases steered),
    and whether they are all there (False: the deadline of `bounds` came first). CountingMemoryError when
    the solutions kept would pass the memory budget of `bounds`."""
    box: Dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = _cover(puzzle, bounds)
        except BaseException as exc:  # handed back to the caller, which raises it
            box["error"] = exc

    # off the main thread (pysat's encoders and Ctrl-C: see cardinality.off_main_thread), and joined only
    # until the deadline: building a total's CNF is one call the solver's own deadline cannot stop
    helper = threading.Thread(target=run, name="mineconv-cover", daemon=True)
    helper.start()
    helper.join(bounds.remaining())
    if helper.is_alive():
        return [], False
    if "error" in box:
        raise box["error"]
    found: Tuple[List[List[Cell]], bool] = box["value"]
    return found


def _cover(puzzle: Puzzle, bounds: Bounds) -> Tuple[List[List[Cell]], bool]:
    from pysat.solvers import Solver

    cnf = to_cnf(puzzle)
    known = [(int(r), int(c)) for r, c in zip(*np.nonzero(puzzle.codes == CODE_MINE))]
    wanted: Set[int] = {lit for v in range(1, cnf.k + 1) for lit in (v, -v)}
    found: List[List[Cell]] = []
    held = cover_bytes(puzzle)
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
            # a certificate of hundreds of solutions, each naming half the board, passed 1.3 GB at 600x600
            held += SOLUTION_CELL_BYTES * (len(known) + sum(1 for lit in model if lit > 0))
            bounds.check_memory(held, "the guess certificate's solutions")
            wanted.difference_update(model)
            found.append(sorted(known + [cnf.cells[lit - 1] for lit in model if lit > 0]))
    return found, True


# the fields each kind of certificate holds, in the order to_json writes them: --check wants exactly these
FIELDS = {"no-guess": ("verdict", "cell", "value", "proof", "best_guess", "count", "status"),
          "guess": ("verdict", "solutions", "certificate_size", "best_guess", "count", "status"),
          "solved": ("verdict", "best_guess", "count", "status"),
          None: ("verdict", "feasible")}
# checked by hand's methods (certificate.py), not compared with a recomputed verdict: another valid list
# of solutions is as good a certificate as the one mineconv found
EVIDENCE_ONLY = ("solutions", "certificate_size")


def check_certificate(puzzle: Puzzle, certificate: Any, *, timeout: Optional[float] = None,
                      memory_budget: Optional[int] = None) -> str:
    """Re-verify a verdict's JSON on the position: what was checked, or VerificationError.

    The evidence is checked with no solver (a guess certificate's solutions by additions, a no-guess
    proof by enumerating the ways to meet the counts it names); every other field (the verdict, the named
    cell, the proof's level, cells, counts and words, the best guess, the count, the status) must equal
    what a fresh verdict computes from the board, so nothing the certificate says goes unchecked.
    Past `timeout` (or `memory_budget`) the recomputation stops with AnalysisTimeout (or ResourceError).
    """
    if not isinstance(certificate, dict):
        raise VerificationError("the certificate is not a JSON object")
    kind = certificate.get("verdict")
    if not (kind is None or isinstance(kind, str)) or kind not in FIELDS:
        raise VerificationError(f"the certificate's verdict is {str(kind)[:40]!r}, not 'guess', 'no-guess' or 'solved'")
    fields = FIELDS[kind]
    extra, missing = sorted(set(certificate) - set(fields)), [f for f in fields if f not in certificate]
    if extra or missing:
        raise VerificationError(f"a {kind or 'no-solution'} certificate holds exactly the fields {', '.join(fields)}"
                                + (f"; this one also has {', '.join(map(repr, extra))[:200]}" if extra else "")
                                + (f"; this one lacks {', '.join(missing)}" if missing else ""))
    evidence = _evidence(puzzle, certificate)
    expected = _expected(puzzle, timeout, memory_budget)
    for name in fields:
        if name in EVIDENCE_ONLY:
            continue
        want = expected.get(name) if expected is not None else {"verdict": None, "feasible": False}[name]
        if not same(certificate[name], want):
            raise VerificationError(f"{name} is {_shown(certificate[name])}, but the position gives {_shown(want)}")
    compared = [f for f in fields if f not in EVIDENCE_ONLY]
    return (f"{evidence}; recomputed from the position and equal: {', '.join(compared)} "
            "(every field of the certificate is checked)")


def _evidence(puzzle: Puzzle, certificate: Dict[str, Any]) -> str:
    """The part a skeptic checks by hand: the guess's solutions, the no-guess proof, or no unknown cell."""
    kind = certificate["verdict"]
    if kind == "guess":
        return check_guess(puzzle, certificate["solutions"], certificate["certificate_size"])
    if kind == "no-guess":
        value = certificate["value"]
        r, c = board_cell(puzzle, certificate["cell"], "cell")
        held = check_proof(puzzle, certificate["proof"], ((r, c), value))
        named = {(c["row"], c["col"]): c["value"] for c in certificate["proof"]["cells"]}
        if named.get((r, c)) != value:
            raise VerificationError(f"the verdict names ({r}, {c}) as {value!r}, which is not one of the cells the "
                                    "proof decides, with that value")
        return held
    if kind == "solved":
        if puzzle.unknown_count:
            raise VerificationError(f"the certificate says solved, but {puzzle.unknown_count} unknown cells are left")
        return "no unknown cell is left"
    return "the position has no solution (mineconv's analysis; there is no evidence to add up)"


def _expected(puzzle: Puzzle, timeout: Optional[float], memory_budget: Optional[int]) -> Optional[Dict[str, Any]]:
    """What a fresh verdict's JSON says (without its list of solutions), as JSON gives it back; None: no solution."""
    v = decide(puzzle, timeout=timeout, memory_budget=memory_budget, cover=False)
    if v is None:
        return None
    if v.status != "complete":
        why = "ran out of time" if v.status == "timeout" else f"stopped ({v.status})"
        raise (AnalysisTimeout if v.status == "timeout" else ResourceError)(
            f"the check's own analysis {why}: the certificate's count and best guess cannot be recomputed "
            "(allow more with --timeout or --memory-budget)")
    if v.proof is not None and "step" not in v.proof:
        raise AnalysisTimeout("the check's explanation ran out of time: the proof cannot be recomputed "
                              "(allow more with --timeout)")
    loaded: Dict[str, Any] = json.loads(json_text(v.to_json()))
    return loaded


def same(x: Any, y: Any) -> bool:
    """Equal as JSON values, types included (1, 1.0 and true differ)."""
    if type(x) is not type(y):
        return False
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list):
        return len(x) == len(y) and all(map(same, x, y))
    return bool(x == y)


def _shown(value: Any) -> str:
    text = json_text(value)
    return text if len(text) <= 120 else text[:117] + "..."
