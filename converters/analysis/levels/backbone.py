"""The backbone (level ``full``): cells every solution agrees on, by incremental SAT.

The backbone comes from incremental SAT solvers on the CNF of mineconv.encode, one per independent part
of the board, asked one question per open cell under an assumption, with model-based filtering: a cell
that took both values in models already found is not asked about. The parts are cut after substituting
the cells already known (propagation's), which splits a game board's frontier into small pieces. The counts' CNF goes to the solver;
what the total mine count adds to the backbone is read off the exact per-cell counts (0 or all
solutions). Only if the counter gives up does the total count go into the CNF too (one solver for the
whole board; free cells are interchangeable, so one of them is asked).
"""
from __future__ import annotations

import threading
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ...core.bounds import UNBOUNDED, AnalysisTimeout, Bounds
from ...core.puzzle import Puzzle
from ...core.system import LinearSystem, build_system
from ...encode.parts import independent_parts
from ..cellstate import MINE, SAFE, UNDECIDED
from ..counting.count import DEFAULT_MAX_STATES, Count, CountingLimitError, count_solutions

SAT_SOLVER = "cadical153"
# pysat's CaDiCaL cannot be interrupted; under a deadline a solver that can takes its place
INTERRUPTIBLE_SAT_SOLVER = "glucose4"
# seconds the backbone with the total in the CNF may take when the counter gave up and no deadline was
# given: without a bound it ran for hours on boards too entangled to count (issue 13)
FALLBACK_SECONDS = 10.0
# how full_backbone's error says that fallback was cut short (its decisions are then incomplete)
FALLBACK_CUT = "the cells the total mine count decides beyond the counts are not all known"
# one independent part of the clauses: its clauses over 1..m, its cells (ids - 1), each cell's number 1..m
OpenPart = Tuple[List[List[int]], np.ndarray, np.ndarray]



def sat_backbone(puzzle: Puzzle, mines: Optional[int] = None, system: Optional[LinearSystem] = None,
                 known: Optional[np.ndarray] = None, solver: str = SAT_SOLVER,
                 use_total: bool = True, bounds: Bounds = UNBOUNDED) -> Optional[np.ndarray]:
    """Backbone of the puzzle: (k,) int8 with 0/1 where every solution agrees, -1 elsewhere; None if none.

    `known` (k,) int8 holds values already proven (e.g. by propagation); they are added as unit clauses
    and not asked about again. With use_total=False the CNF leaves out the total mine count: the result
    is then the backbone of the counts alone (plus `known`), a subset of the full one. Without the total,
    cells linked by no chain of counts are independent, so the clauses are split into those independent
    parts and each part gets its own incremental solver (a call then only touches its own part).
    """
    system = system if system is not None else build_system(puzzle, mines)
    k = system.num_vars
    values = np.full(k, UNDECIDED, dtype=np.int8)
    if known is not None:
        values[:] = known
    total = None if system.total is None or not use_total else system.total + puzzle.known_mine_count
    if total is not None:
        from ...encode.cnf import to_cnf

        clauses = to_cnf(puzzle.replace(mines=total), mines=total).clauses
        if k == 0:
            return None if any(len(c) == 0 for c in clauses) else values
        local_clauses, local_id = _renumbered(clauses, np.arange(k))
        parts: List[OpenPart] = [(local_clauses, np.arange(k), local_id)]
    else:
        cut = open_parts(system, values)
        if cut is None:
            return None
        parts = cut
    free = ~system.constrained_vars
    if bounds.deadline is not None and solver == SAT_SOLVER:
        solver = INTERRUPTIBLE_SAT_SOLVER
    try:
        for n, (part, cells, local_id) in enumerate(parts):
            bounds.report("backbone", n, len(parts))
            if not _part_backbone(part, cells, local_id, values, free, solver, bounds):
                return None
    except AnalysisTimeout as exc:
        if exc.values is None:
            exc.values, exc.level = values.copy(), "full"
        raise
    bounds.report("backbone", len(parts), len(parts))
    return values


def open_parts(system: LinearSystem, values: np.ndarray) -> Optional[List[OpenPart]]:
    """The count clauses with the decided cells substituted, split into independent parts, or None if unsat.

    Returns [(clauses over 1..m, cell ids - 1 of the part, each cell's number 1..m)]. Substituting the
    cells propagation already decided (values) breaks the board's long chains of counts: on a game board
    one part held most of the frontier, and every call on it read and steered a model of that size.
    """
    from ...encode.cnf import cnf_clauses

    arrays = cnf_clauses(system)
    lits = arrays.lits.astype(np.int64)
    width = lits.shape[1]
    used = np.arange(width)[None, :] < arrays.lens[:, None].astype(np.int64)
    # value of each literal: 1 true, -1 false, 0 open (padding counts as false)
    cell = np.concatenate([[UNDECIDED], values]).astype(np.int8)[np.abs(lits)]
    truth = np.where(cell == UNDECIDED, 0, np.where((cell == MINE) == (lits > 0), 1, -1))
    truth[~used] = -1
    keep = ~(truth == 1).any(axis=1)
    lits, truth = lits[keep], truth[keep]
    lits[truth != 0] = 0
    # open literals first in each row, in their old order: a clause is then lits[i, :lens[i]]
    order = np.argsort(lits == 0, axis=1, kind="stable")
    lits = np.take_along_axis(lits, order, axis=1)
    lens = (lits != 0).sum(axis=1)
    if (lens == 0).any():  # a clause every literal of which is false: the counts have no solution
        return None
    return [(part, cells, np.arange(1, cells.size + 1)) for part, cells in independent_parts(lits, system.num_vars)]


def solve_within(sat, assumptions: List[int], bounds: Bounds) -> bool:
    """One SAT call; under a deadline it is interrupted when the deadline passes (AnalysisTimeout)."""
    if bounds.deadline is None:
        return sat.solve(assumptions=assumptions)
    bounds.check()
    timer = threading.Timer(bounds.remaining() or 0.0, sat.interrupt)
    timer.daemon = True
    timer.start()
    try:
        result = sat.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    if result is None:
        sat.clear_interrupt()
        raise AnalysisTimeout(f"the analysis did not finish within {bounds.timeout:g} s")
    return result


def _part_backbone(local_clauses: List[List[int]], cells: np.ndarray, local_id: np.ndarray,
                   values: np.ndarray, free: np.ndarray, solver: str, bounds: Bounds = UNBOUNDED) -> bool:
    """Fill values[cells] with the backbone of one independent part; False when the part is unsatisfiable.

    local_clauses are over the part's own numbering: cell cells[i] is variable local_id[i] (0: in no clause).
    """
    from pysat.solvers import Solver

    with Solver(name=solver, bootstrap_with=local_clauses) as sat:
        known = values[cells] != UNDECIDED
        for i, v in zip(local_id[known].tolist(), values[cells][known].tolist()):
            if i:  # a known cell in no clause constrains nothing
                sat.add_clause([i if v == MINE else -i])
        if not solve_within(sat, [], bounds):
            return False
        is_open = ~known
        open_cells = cells[is_open]
        if open_cells.size == 0:
            return True
        lits = local_id[is_open]
        model, absent = _model_array(sat.get_model(), lits)
        # a cell in no clause takes either value: never part of the backbone
        candidate = ~absent
        # free cells only meet the total count, so they are interchangeable: one stands for all of them
        is_free = free[open_cells]
        free_pos = np.flatnonzero(is_free & candidate)
        if free_pos.size > 1:
            candidate[free_pos[1:]] = False
        seen = np.zeros((open_cells.size, 2), dtype=bool)
        seen[np.arange(open_cells.size), model.astype(np.int64)] = True
        if free_pos.size and seen[free_pos, 0].any() and seen[free_pos, 1].any():
            candidate[free_pos[0]] = False  # free cells of both values in one model: none is fixed
        steer = True
        for j in np.flatnonzero(candidate).tolist():
            if seen[j, 0] and seen[j, 1]:
                continue
            lit = int(lits[j]) if model[j] else -int(lits[j])
            if steer:
                # steer the search away from the model just seen, to filter more cells per call (the
                # phases stay set until the next model: setting them again per call cost as much as solving)
                try:
                    sat.set_phases(np.where(model, -lits, lits)[lits != 0].tolist())
                except NotImplementedError:
                    pass
                steer = False
            if solve_within(sat, [-lit], bounds):
                model, _ = _model_array(sat.get_model(), lits)
                seen[np.arange(open_cells.size), model.astype(np.int64)] = True
                steer = True
            else:
                values[open_cells[j]] = MINE if lit > 0 else SAFE
                sat.add_clause([lit])
        if free_pos.size:
            rep = open_cells[free_pos[0]]
            if values[rep] != UNDECIDED:
                values[open_cells[free_pos]] = values[rep]
    return True


def _renumbered(clauses: Sequence[Sequence[int]], cells: np.ndarray) -> Tuple[List[List[int]], np.ndarray]:
    """The part's clauses over variables renumbered 1..m, and each cell's new number (0: in no clause).

    A model of the board's numbering is as long as the largest variable of the part, so on a 1000x1000
    game board every one of thousands of small parts paid for the whole board on every SAT call.
    """
    sizes = [len(c) for c in clauses]
    flat = np.fromiter((x for c in clauses for x in c), dtype=np.int64, count=sum(sizes))
    used = np.unique(np.abs(flat))
    mapped = (np.sign(flat) * (np.searchsorted(used, np.abs(flat)) + 1)).tolist()
    local: List[List[int]] = []
    at = 0
    for n in sizes:
        local.append(mapped[at:at + n])
        at += n
    ids = np.asarray(cells, dtype=np.int64) + 1
    pos = np.searchsorted(used, ids)
    present = pos < used.size
    present[present] = used[pos[present]] == ids[present]
    return local, np.where(present, pos + 1, 0)


def _model_array(model_lits: Sequence[int], variables: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(values, absent) of the given variables in a SAT model; absent marks variables the model omits."""
    arr = np.asarray(model_lits if model_lits is not None else [], dtype=np.int64)
    top = int(variables.max()) if variables.size else 0
    value = np.zeros(top + 1, dtype=np.int8)  # 0 absent, 1 false, 2 true
    arr = arr[(np.abs(arr) <= top) & (arr != 0)]
    value[np.abs(arr)] = np.where(arr > 0, 2, 1)
    v = value[variables]
    return v == 2, v == 0


def _total_fallback(puzzle: Puzzle, mines: Optional[int], system: LinearSystem, values: np.ndarray,
                    bounds: Bounds, why: str):
    """full_backbone's answer when the counter gave up on a board with a total: SAT with the total in the
    CNF, for at most FALLBACK_SECONDS unless the caller set a deadline of its own (then up to it).

    On a board too entangled to count, finding even one solution with the exact total can take CDCL
    solvers hours (issue 13's 22x80 lattice: no model in 20 s with any cardinality encoding), so the cells
    the counts prove (`values`) are kept and what the SAT calls proved by then is added.
    """
    if bounds.deadline is not None:
        limit = bounds
    else:
        limit = Bounds(None, FALLBACK_SECONDS, bounds.progress)
    try:
        full = sat_backbone(puzzle, mines, system=system, known=values, use_total=True, bounds=limit)
    except AnalysisTimeout as exc:
        if limit is bounds:
            raise
        proven = exc.values if exc.values is not None else values
        return proven, None, (f"{why}; {FALLBACK_CUT}: its SAT check was stopped after {FALLBACK_SECONDS:g} s "
                              f"(--timeout lets it run longer)")
    return full, None, why


def full_backbone(puzzle: Puzzle, mines: Optional[int] = None, system: Optional[LinearSystem] = None,
                  known: Optional[np.ndarray] = None, max_states: int = DEFAULT_MAX_STATES,
                  bounds: Bounds = UNBOUNDED):
    """The complete backbone and, when it could be had, the exact count: (values or None, count, error).

    The SAT solver works on the count constraints; what the total mine count adds on top is read off the
    exact per-cell counts (a cell no solution puts a mine on, or every one does). Only when the counter
    gives up does the SAT solver take the total count into its CNF as well.
    """
    system = system if system is not None else build_system(puzzle, mines)
    values = sat_backbone(puzzle, mines, system=system, known=known, use_total=False, bounds=bounds)
    if values is None:
        return None, Count(0, (0,) * system.num_vars), None
    try:
        counted = count_solutions(system, values, max_states, bounds=bounds)
    except AnalysisTimeout as exc:
        exc.values, exc.level = values.copy(), "full"  # the backbone of the counts is complete and proven
        raise
    except CountingLimitError as exc:
        if system.total is None:
            return values, None, exc.message
        return _total_fallback(puzzle, mines, system, values, bounds, exc.message)
    if counted.solutions == 0:
        return None, counted, None
    if system.total is not None:
        values = values.copy()
        values[counted.never_mine()] = SAFE
        values[counted.always_mine()] = MINE
    return values, counted, None
