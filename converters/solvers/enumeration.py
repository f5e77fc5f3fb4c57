"""Enumerating a puzzle's solutions as a solver finds them, each verified, with a limit and one clock.

The embedded solver (pysat) blocks each solution found and is called again; MiniZinc/Gecode, clingo,
gringo | clasp and CP-SAT run their own all-solutions mode once, and their output is read as it comes.
"""
from __future__ import annotations

import queue
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Generator, Iterator, List, Optional, Tuple, Union

import numpy as np

from ..core.errors import InputError, MineconvError, SolverError
from ..core.puzzle import Puzzle
from ..core.system import build_system
from ..formats.answer import Answer, Decoded, decode_answer
from ..formats.writing import write
from .embedded import EmbeddedSolver, cell_values, model_too_slow
from .process import READ_AHEAD, Deadline, StreamedProcess, answer_cap, file_size, output_tail
from .runners import find_gringo, ground_asp, grounding_failed, read_spec_answer
from .table import EMBEDDED, NATIVE_ENUMERATION, SolverSpec, available, get_solver, missing_solver

# the solvers `SolutionStream` runs in their own all-solutions mode (every other one is refused for enumeration)

Answers = Generator[Answer, None, None]


class SolutionStream:
    """Distinct solutions as a solver finds them, lazily, each verified against every count.

    With the embedded solver (pysat) each solution found is blocked and the solver called again; with
    "gecode", "clingo", "clasp-asp" or "cp-sat" the tool's own all-solutions mode runs once and its
    output is read as it prints. Iterate to get each Decoded as soon as it is found. Afterwards
    `complete` is True when the search proved there are no more, and `stopped` says why it ended early:
    "limit", "timeout" or "" (complete). `timeout` bounds the whole enumeration, not each call. Closing
    the iterator (or leaving it to the garbage collector) stops an external solver's process group.
    """

    def __init__(self, puzzle: Puzzle, limit: Optional[int] = None, *,
                 timeout: Union[None, float, Deadline] = None, mines: Optional[int] = None,
                 solver: str = EMBEDDED) -> None:
        if limit is not None and limit < 1:
            raise InputError(f"limit must be at least 1, not {limit}")
        if solver != EMBEDDED and solver not in NATIVE_ENUMERATION:
            get_solver(solver)   # an unknown name gets the list of valid ones
            raise SolverError(f"{solver} has no all-solutions mode mineconv can run; enumerate with "
                              f"{EMBEDDED} (blocking clauses) or natively with {', '.join(NATIVE_ENUMERATION)}")
        self.puzzle = puzzle if mines is None else puzzle.replace(mines=mines)
        self.limit = limit
        self.solver = solver
        self.deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout)
        self.count = 0
        self.complete = False
        self.stopped = ""
        self.why = ""

    def __iter__(self) -> Iterator[Decoded]:
        return self._embedded() if self.solver == EMBEDDED else self._native()

    def _embedded(self) -> Iterator[Decoded]:
        puzzle = self.puzzle
        system = build_system(puzzle)
        too_slow = model_too_slow(puzzle, "cnf", self.deadline, embedded=True)
        if too_slow:
            self.stopped, self.why = "timeout", too_slow
            return
        emb = EmbeddedSolver(puzzle, deadline=self.deadline)
        try:
            while self.limit is None or self.count < self.limit:
                answer = emb.next(self.deadline)
                if answer.status == "unknown":
                    self.stopped, self.why = "timeout", answer.why
                    return
                if answer.status == "infeasible":
                    self.complete = True
                    return
                dec = decode_answer(puzzle, answer, model_vars=emb.nv, system=system)
                self.count += 1
                if system.num_vars == 0:
                    self.complete = True
                    yield dec
                    return
                emb.block(cell_values(dec, system))
                yield dec
            self.stopped = "limit"
        finally:
            emb.close()

    def _native(self) -> Iterator[Decoded]:
        puzzle = self.puzzle
        spec = get_solver(self.solver)
        if not available(spec.name):
            raise missing_solver(spec)
        system = build_system(puzzle)
        # a solver that printed one solution twice would be counted twice: refused (the model's choice
        # variables are the cells alone, so its all-solutions mode never does)
        seen = set()
        runner = _NATIVE_RUNNERS[spec.name]
        with tempfile.TemporaryDirectory(prefix="mineconv-") as tmp:
            answers = runner(spec, puzzle, Path(tmp), self)
            try:
                for answer in answers:
                    dec = decode_answer(puzzle, answer, system=system)   # every count checked
                    key = np.packbits(cell_values(dec, system)).tobytes()
                    if key in seen:
                        raise SolverError(f"{spec.name} gave solution {self.count + 1} twice: the same mines as an "
                                          "earlier one")
                    seen.add(key)
                    self.count += 1
                    yield dec
                    if self.limit is not None and self.count >= self.limit:
                        self.stopped = "limit"
                        return
            finally:
                answers.close()   # kills the solver's process group (or stops CP-SAT) before the folder goes

    def _finish(self, complete: bool, why: str = "") -> None:
        """Record how a native run ended: complete, or stopped by a time limit (the clock's, or the solver's)."""
        if complete:
            self.complete = True
        else:
            self.stopped, self.why = "timeout", why or self.deadline.why("during the enumeration")


def _stream(spec: SolverSpec, cmd: List[str], cwd: Path, deadline: Deadline, cap: int) -> StreamedProcess:
    """The solver started with its stdout streamed; a program that cannot start is a SolverError."""
    try:
        return StreamedProcess(spec.name, cmd, cwd, deadline, cap)
    except FileNotFoundError:
        raise missing_solver(spec) from None
    except OSError as exc:
        raise SolverError(f"cannot run {cmd[0]}: {exc.strerror or exc}") from None


def _block_answer(spec: SolverSpec, text: str, n: int, streamed: StreamedProcess) -> Answer:
    """One solution's output through the strict reader (an unreadable one: the solver failed)."""
    try:
        answer = read_spec_answer(spec, text, f"<{spec.name} solution {n}>")
    except MineconvError as exc:
        raise SolverError(f"{spec.name} printed a solution mineconv cannot read ({exc.message}):\n    "
                          f"{output_tail(text)}") from None
    streamed.solution_read()
    answer.why, answer.solutions = "", 1
    return answer


def _failed(spec: SolverSpec, status: int, streamed: StreamedProcess) -> SolverError:
    return SolverError(f"{spec.name} failed (exit status {status}):\n    {output_tail(streamed.stderr())}")


def _minizinc_all(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Answers:
    """MiniZinc -a: the `grid:` rows of each solution end with ----------; ========== says that was all."""
    from ..formats.answers.minizinc import SEPARATOR
    model = workdir / "model.mzn"
    write(puzzle, model, "mzn")
    if stream.deadline.expired():
        stream._finish(False, stream.deadline.why("while the model was written"))
        return
    program = shutil.which(spec.program or "") or spec.program or "minizinc"
    # no solver time limit: the clock stops the process, and every solution printed before it counts
    streamed = _stream(spec, [program, "--solver", "gecode", "--all-solutions", model.name], workdir,
                      stream.deadline, answer_cap(puzzle, file_size(model)))
    try:
        block: List[str] = []
        verdict = ""
        n = 0
        for line in streamed:
            word = line.rstrip()
            if word == SEPARATOR:
                n += 1
                yield _block_answer(spec, "\n".join(block) + "\n" + SEPARATOR + "\n", n, streamed)
                block = []
            elif word.startswith("=====") and word.endswith("====="):
                verdict = word
            elif block or (word and not word.startswith("%")):
                block.append(line)
        if streamed.timed_out:
            stream._finish(False)
            return
        status = streamed.close()
        if status not in spec.ok_codes or verdict == "=====ERROR=====" or block:
            raise _failed(spec, status, streamed)
        _minizinc_verdict(spec, verdict, n, streamed, stream)
    finally:
        streamed.close()


def _minizinc_verdict(spec: SolverSpec, verdict: str, n: int, streamed: StreamedProcess,
                      stream: SolutionStream) -> None:
    """What MiniZinc's last ===== line says about the enumeration: complete, stopped, or a failure."""
    from ..formats.answers.minizinc import COMPLETE
    if verdict == "=====UNSATISFIABLE=====" and n:
        raise SolverError(f"{spec.name} printed {n} solutions, then =====UNSATISFIABLE=====")
    if verdict in (COMPLETE, "=====UNSATISFIABLE====="):
        stream._finish(True)
    elif verdict == "=====UNKNOWN=====" or not verdict:
        stream._finish(False, f"{spec.name} ended without saying it found every solution ({verdict or 'no '}"
                              f"{'' if verdict else COMPLETE})")
    else:
        raise SolverError(f"{spec.name} ended with {verdict}:\n    {output_tail(streamed.stderr())}")


def _clingo_model(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Optional[Path]:
    """The file clingo (the ASP program) or clasp (gringo's ground aspif) reads; None when time ran out."""
    model = workdir / "model.asp"
    write(puzzle, model, "asp")
    if spec.name == "clasp-asp":
        gringo = find_gringo(spec)
        ground = ground_asp(spec, gringo, model, workdir, stream.deadline, puzzle)
        if ground is None:
            stream._finish(False, f"gringo did not finish grounding within {stream.deadline.seconds:g} s (stopped)")
            return None
        if ground.returncode != 0:
            raise grounding_failed(ground)
        model = workdir / "model.aspif"
    if stream.deadline.expired():
        stream._finish(False, stream.deadline.why("while the model was written"))
        return None
    return model


def _clingo_all(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Answers:
    """clingo -n 0 (or gringo, then clasp -n 0): each `Answer: N` line and its line of atoms is one model."""
    model = _clingo_model(spec, puzzle, workdir, stream)
    if model is None:
        return
    program = shutil.which(spec.program or "") or spec.program or "clingo"
    streamed = _stream(spec, [program, "--models=0", model.name], workdir, stream.deadline,
                      answer_cap(puzzle, file_size(model)))
    try:
        head: Optional[str] = None
        result = ""
        n = 0
        for line in streamed:
            if head is not None:
                n += 1
                yield _block_answer(spec, f"{head}\n{line}\nSATISFIABLE\n", n, streamed)
                head = None
            elif line.startswith("Answer: "):
                head = line
            elif line.rstrip() in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN", "OPTIMUM FOUND"):
                result = line.rstrip()
        if streamed.timed_out:
            stream._finish(False)
            return
        status = streamed.close()
        if status not in spec.ok_codes or head is not None or not result:
            raise _failed(spec, status, streamed)
        if (result == "UNSATISFIABLE") != (n == 0) and result != "UNKNOWN":
            raise SolverError(f"{spec.name} printed {n} models, then {result}")
        # clasp's exit status: +10 a model found, +20 the search space exhausted, +1 interrupted
        if status & 20 == 20 and not status & 1:
            stream._finish(True)
        else:
            stream._finish(False, f"{spec.name} stopped before the search space was exhausted (exit status "
                                  f"{status})")
    finally:
        streamed.close()


class _CpsatSearch:
    """CP-SAT's all-solutions search running in a worker thread, handing each solution over a bounded queue."""

    def __init__(self, cp_model: Any, model: Any, deadline: Deadline) -> None:
        # model: to_cpsat's CpModel, which carries its cells and their variables as attributes
        xs = [model.cell_vars[c] for c in model.cells]
        self.found: "queue.Queue[List[int]]" = queue.Queue(maxsize=READ_AHEAD)
        self.stop = threading.Event()
        found, stop = self.found, self.stop

        class Callback(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                values = [int(self.value(x)) for x in xs]
                while not stop.is_set():
                    try:
                        found.put(values, timeout=0.05)
                        return
                    except queue.Full:
                        continue
                self.stop_search()

        self.solver = cp_model.CpSolver()
        self.solver.parameters.enumerate_all_solutions = True
        # CP-SAT's own SIGINT handler aborts the process when the signal lands during the search in this
        # thread (std::bad_function_call); Python's handler raises KeyboardInterrupt here, and close stops it
        self.solver.parameters.catch_sigint_signal = False
        self.solver.parameters.num_workers = 1   # enumeration is exact with one worker (presolve keeps all)
        remaining = deadline.remaining()
        if remaining is not None:
            self.solver.parameters.max_time_in_seconds = max(remaining, 1e-3)
        self.box: List[Any] = []
        callback = Callback()
        self.worker = threading.Thread(target=lambda: self.box.append(self.solver.solve(model, callback)),
                                       daemon=True)
        self.worker.start()

    def status_name(self) -> str:
        """CP-SAT's final status (UNKNOWN when the search gave none)."""
        name: str = self.solver.status_name(self.box[0]) if self.box else "UNKNOWN"
        return name

    def close(self) -> None:
        """Stop the search and wait for the worker."""
        self.stop.set()
        self.solver.stop_search()
        self.worker.join()


def _cpsat_all(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Answers:
    """CP-SAT with enumerate_all_solutions: a solution callback hands each one over as the search finds it."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise missing_solver(spec) from None
    from ..encode.cpsat_model import to_cpsat
    model = to_cpsat(puzzle)
    if stream.deadline.expired():
        stream._finish(False, stream.deadline.why("while the CP-SAT model was built"))
        return
    search = _CpsatSearch(cp_model, model, stream.deadline)
    n = 0
    try:
        while True:
            if stream.deadline.expired():
                stream._finish(False)
                return
            try:
                values = search.found.get(timeout=0.05)
            except queue.Empty:
                if search.worker.is_alive() or not search.found.empty():
                    continue
                break
            n += 1
            text = "status: FEASIBLE\nsolution: [" + ", ".join(map(str, values)) + "]\n"
            try:
                answer = read_spec_answer(spec, text, f"<cp-sat solution {n}>")
            except MineconvError as exc:
                raise SolverError(f"CP-SAT gave a solution mineconv cannot read ({exc.message})") from None
            yield answer
        _cpsat_verdict(search.status_name(), n, stream)
    finally:
        search.close()


def _cpsat_verdict(name: str, n: int, stream: SolutionStream) -> None:
    """What CP-SAT's final status says about the enumeration: complete, stopped, or a failure."""
    if name in ("OPTIMAL", "INFEASIBLE"):
        if name == "INFEASIBLE" and n:
            raise SolverError(f"CP-SAT found {n} solutions, then called the model infeasible")
        stream._finish(True)
    elif name == "MODEL_INVALID":
        raise SolverError("CP-SAT called the model invalid (MODEL_INVALID)")
    else:
        stream._finish(False, f"CP-SAT stopped before it saw every solution ({name})")


_NATIVE_RUNNERS: Dict[str, Callable[[SolverSpec, Puzzle, Path, SolutionStream], Answers]] = {
    "gecode": _minizinc_all, "clingo": _clingo_all, "clasp-asp": _clingo_all, "cp-sat": _cpsat_all}


def enumerate_solutions(puzzle: Puzzle, limit: Optional[int] = None, *, timeout: Optional[float] = None,
                        mines: Optional[int] = None, solver: str = EMBEDDED) -> Tuple[List[Decoded], bool]:
    """Up to `limit` distinct solutions (all when None), with pysat and blocking clauses or a native enumerator.

    Returns (solutions, complete): complete is True when the search proved there are no more.
    The timeout bounds the whole enumeration (SolutionStream streams them instead).
    """
    stream = SolutionStream(puzzle, limit, timeout=timeout, mines=mines, solver=solver)
    found = list(stream)
    return found, stream.complete


def solutions(puzzle: Puzzle, limit: Optional[int] = None, *, timeout: Optional[float] = None) -> SolutionStream:
    """Each solution once, lazily, as the embedded solver finds it (a Decoded each); timeout bounds the whole run."""
    return SolutionStream(puzzle, limit, timeout=timeout)
