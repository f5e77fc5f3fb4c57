"""Solving a puzzle once with a named solver: the model built or written, the solver run under one clock,
its answer decoded and verified, and (on request) whether the solution is the only one."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional, Union

from ..core.fileio import PathLike
from ..core.puzzle import Puzzle
from ..core.system import build_system
from ..formats.answer import Decoded, decode_answer
from . import embedded
from .decoding import read_puzzle_or_model
from .embedded import EmbeddedSolver, cell_values, model_too_slow, unknown_answer
from .process import Deadline
from .table import EMBEDDED, SolverSpec, available, get_solver, missing_solver

UNIQUE_CARD_WORK = 2 * 10**7  # beyond this, checking an external answer never builds the total (~2 s, 200 MB)


def solve(puzzle: Union[Puzzle, PathLike], solver: str = EMBEDDED, *, timeout: Union[None, float, Deadline] = None,
          mines: Optional[int] = None, check_unique: bool = False) -> Decoded:
    """Solve a puzzle (or a puzzle / mineconv model file) with the named solver; decode and verify its answer.

    `timeout` bounds the whole call (building the model, every solver run); a Deadline shares one clock
    with the caller. With `check_unique`, `Decoded.unique` says whether the solution is the only one: the
    embedded solver looks for another (for every solver: blocking one solution is a clause in CNF).
    """
    deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout)
    if not isinstance(puzzle, Puzzle):
        puzzle, _ = read_puzzle_or_model(puzzle)
    if mines is not None:
        puzzle = puzzle.replace(mines=mines)
    spec = get_solver(solver)
    if not available(solver):
        raise missing_solver(spec)
    fmt = "cnf" if spec.name == EMBEDDED else spec.model_format
    too_slow = model_too_slow(puzzle, fmt, deadline, embedded=spec.name == EMBEDDED)
    if too_slow:
        return decode_answer(puzzle, unknown_answer(spec, too_slow))
    if spec.name == EMBEDDED:
        return _solve_embedded(spec, puzzle, deadline, check_unique)
    # here: writing a model, running a program and reading its answer file are no part of the embedded solver's
    # path, the one most runs take (~10 ms of start-up)
    import tempfile

    from .runners import runner_for

    with tempfile.TemporaryDirectory(prefix="mineconv-") as tmp:
        answer = runner_for(spec)(spec, puzzle, Path(tmp), deadline)
    decoded = decode_answer(puzzle, answer)
    return _with_unique(puzzle, decoded, deadline) if check_unique else decoded


def _solve_embedded(spec: SolverSpec, puzzle: Puzzle, deadline: Deadline, check_unique: bool) -> Decoded:
    """pysat on the CNF encoding; the uniqueness check blocks the solution in the same solver."""
    emb = EmbeddedSolver(puzzle, deadline=deadline)
    try:
        if deadline.expired():
            answer = unknown_answer(spec, deadline.why("while the CNF model was built"))
        else:
            answer = emb.next(deadline)
        decoded = decode_answer(puzzle, answer, model_vars=emb.nv)
        if check_unique:
            decoded = _with_unique(puzzle, decoded, deadline, emb)
    finally:
        emb.close()
    return decoded


def _with_unique(puzzle: Puzzle, decoded: Decoded, deadline: Deadline,
                 emb: Optional[EmbeddedSolver] = None) -> Decoded:
    if decoded.status == "infeasible":
        return dataclasses.replace(decoded, unique=False)
    if decoded.status != "solved":
        return decoded
    other = _other_solution(puzzle, decoded, deadline, emb)
    return dataclasses.replace(decoded, unique=None if other is None else not other)


def _other_solution(puzzle: Puzzle, dec: Decoded, deadline: Deadline,
                    emb: Optional[EmbeddedSolver] = None) -> Optional[bool]:
    """True when the puzzle has a solution besides dec's, False when not, None when time ran out."""
    system = build_system(puzzle)
    if system.num_vars == 0:
        return False
    own = emb is None
    if emb is None:
        big = system.total is not None and 0 < system.total < system.num_vars and \
            system.num_vars * min(system.total, system.num_vars - system.total) > UNIQUE_CARD_WORK
        if big and not embedded.GUIDE:
            return None   # the CNF of the total alone would cost far more than the external solver's run
        if model_too_slow(puzzle, "cnf", deadline, embedded=True) or deadline.expired():
            return None
        # a big total's clauses are never built for this check: a guess answers it, or nothing does
        emb = EmbeddedSolver(puzzle, deadline=deadline, card_work=UNIQUE_CARD_WORK if big else None)
    try:
        emb.block(cell_values(dec, system))
        status = emb.next(deadline).status
    finally:
        if own:
            emb.close()
    return None if status == "unknown" else status == "solved"
