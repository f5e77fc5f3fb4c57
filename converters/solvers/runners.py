"""Running one solver once on a puzzle and reading its answer: one runner per way a solver is driven.

`run_external` serves every row of the solver table with a program (write the model file, run the
program under the clock, read stdout or the answer file); HiGHS, PuLP's CBC, gringo | clasp and CP-SAT
each need a few steps of their own. Every runner returns the strict reader's Answer, or an "unknown" one
when the clock stopped the run; the solver's unreadable output is a SolverError, not the user's error.
"""
from __future__ import annotations

import math
import shutil
import warnings
from pathlib import Path
from typing import Callable, List, Optional

from ..core.errors import MineconvError, SolverError
from ..core.puzzle import Puzzle
from ..formats.answer import Answer
from ..formats.registry import get_format
from ..formats.writing import write
from .embedded import unknown_answer
from .process import Deadline, RunResult, answer_cap, file_size, output_tail, run_process
from .table import SolverSpec, missing_solver

SLACK = 1.0                 # seconds a solver gets past its own time limit to write its answer

Runner = Callable[[SolverSpec, Puzzle, Path, Deadline], Answer]


def read_spec_answer(spec: SolverSpec, text: str, source: str, fmt: Optional[str] = None) -> Answer:
    """A solver's answer text through the registry's strict reader of its answer format (or of `fmt`)."""
    name = fmt or spec.answer_format
    assert name is not None   # every row whose answer is read names its reader
    reader = get_format(name, kind="solution").reader
    assert reader is not None   # a solution format is registered with its reader
    answer: Answer = reader(text, source)
    return answer


def run_program(spec: SolverSpec, cmd: List[str], cwd: Path, remaining: Optional[float],
                cap: Optional[int] = None) -> Optional[RunResult]:
    """Run a solver program, keeping up to `cap` bytes of each output stream; None when the time limit stopped it."""
    try:
        # a little slack over the solver's own limit (whole seconds, rounded up), so that a solver that
        # honours it can still answer
        return run_process(cmd, cwd, None if remaining is None else remaining + SLACK, name=spec.name, cap=cap)
    except FileNotFoundError:
        raise missing_solver(spec) from None
    except OSError as exc:
        raise SolverError(f"cannot run {spec.program}: {exc.strerror or exc}") from None


def _read(spec: SolverSpec, text: str, source: str, proc: RunResult, fmt: Optional[str] = None) -> Answer:
    try:
        return read_spec_answer(spec, text, source, fmt)
    except MineconvError as exc:
        # the solver's own output is unreadable: the solver failed, not the user's input
        raise SolverError(f"{spec.name} gave an answer mineconv cannot read ({exc.message}); its output "
                          f"ends:\n    {output_tail(proc.stdout + proc.stderr)}") from None


def _read_answer_file(spec: SolverSpec, path: Path, proc: RunResult, cap: int) -> str:
    if not path.exists():
        # CBC exits 0 when the model did not load, and writes no solution file
        raise SolverError(f"{spec.name} wrote no answer file; its output ends:\n    "
                          f"{output_tail(proc.stdout + proc.stderr)}")
    # read at most cap + 1 bytes: the size checked by stat() alone would trust a FIFO or /dev/zero
    with open(path, "rb") as f:
        data = f.read(cap + 1)
    if len(data) > cap:
        raise SolverError(f"{spec.name} wrote an answer file of more than {cap // 2**20} MB; mineconv did not "
                          "read it")
    return data.decode("utf-8", "replace")


def _failed(spec: SolverSpec, proc: RunResult) -> SolverError:
    return SolverError(f"{spec.name} failed (exit status {proc.returncode}):\n    "
                       f"{output_tail(proc.stderr or proc.stdout)}")


def _seconds_flag(remaining: Optional[float]) -> Optional[float]:
    # solvers take whole seconds: round up, so that their own limit never comes before ours
    return None if remaining is None else float(max(1, math.ceil(remaining)))


def _stopped(spec: SolverSpec, deadline: Deadline) -> Answer:
    return unknown_answer(spec, f"{spec.name} did not finish within {deadline.seconds:g} s (stopped)")


def run_external(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """Write the model file, run the program, read its answer."""
    program = shutil.which(spec.program or "")
    if program is None:
        raise missing_solver(spec)
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    if deadline.expired():
        return unknown_answer(spec, deadline.why("while the model was written"))
    answer_path = workdir / spec.answer_file if spec.answer_file else None
    remaining = deadline.remaining()
    cmd = [program, *spec.args(model.name, answer_path.name if answer_path else "", _seconds_flag(remaining))]
    cap = answer_cap(puzzle, file_size(model))
    proc = run_program(spec, cmd, workdir, remaining, cap)
    if proc is None:
        return _stopped(spec, deadline)
    if proc.returncode not in spec.ok_codes:
        raise _failed(spec, proc)
    text = _read_answer_file(spec, answer_path, proc, cap) if answer_path is not None else proc.stdout
    return _read(spec, text, f"<{spec.name} answer>", proc)


def run_highs(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """HiGHS in-process (highspy): read our LP file, solve, write its raw solution file, read that."""
    try:
        import highspy
    except ImportError:
        raise missing_solver(spec) from None
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    if deadline.expired():
        return unknown_answer(spec, deadline.why("while the model was written"))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    remaining = deadline.remaining()
    if remaining is not None:
        h.setOptionValue("time_limit", max(remaining, 1e-3))
    if h.readModel(str(model)) == highspy.HighsStatus.kError:
        raise SolverError("HiGHS could not read the LP file mineconv wrote")
    h.run()
    out = workdir / "answer.sol"
    h.writeSolution(str(out), 0)
    text = _read_answer_file(spec, out, RunResult(0, "", ""), answer_cap(puzzle, file_size(model)))
    try:
        return read_spec_answer(spec, text, "<highs answer>", "highs")
    except MineconvError as exc:
        raise SolverError(f"HiGHS gave an answer mineconv cannot read ({exc.message})") from None


def _write_pulp_mps(spec: SolverSpec, puzzle: Puzzle, model: Path, deadline: Deadline) -> Optional[str]:
    """The CBC program PuLP ships, after PuLP wrote its MPS file of the puzzle; None when time ran out first."""
    try:
        import pulp
    except ImportError:
        raise missing_solver(spec) from None
    from ..encode.linear import to_pulp
    with warnings.catch_warnings():
        # PuLP 3.3 announces API changes for 4.0 on every call; they are not the user's concern
        warnings.simplefilter("ignore", DeprecationWarning)
        prob = to_pulp(puzzle)
        cmd = pulp.PULP_CBC_CMD(msg=False)
        if not cmd.available():
            raise SolverError("PuLP's bundled CBC is not available on this platform (pip install "
                              "--force-reinstall pulp)")
        if deadline.expired():
            return None
        prob.writeMPS(str(model), rename=0)
    path: str = cmd.path
    return path


def run_pulp_cbc(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """PuLP's bundled CBC on the PuLP model of the puzzle, run like every other program.

    PuLP writes the MPS file (its own variable names) into our temp folder; the CBC binary it ships then
    runs in its own process group under our clock, and its solution file is read by the `cbc` reader, so
    a stopped run is "unknown", never "infeasible" (PuLP maps CBC's stopped states to Infeasible in places).
    """
    model = workdir / "model.mps"
    program = _write_pulp_mps(spec, puzzle, model, deadline)
    if program is None:
        return unknown_answer(spec, deadline.why("while the PuLP model was built"))
    if deadline.expired():
        return unknown_answer(spec, deadline.why("while the PuLP model was written"))
    answer = workdir / "answer.sol"
    remaining = deadline.remaining()
    argv = [program, model.name, *(["-sec", f"{_seconds_flag(remaining):g}"] if remaining is not None else []),
            "-solve", "-printingOptions", "all", "-solution", answer.name]
    cap = answer_cap(puzzle, file_size(model))
    proc = run_program(spec, argv, workdir, remaining, cap)
    if proc is None:
        return _stopped(spec, deadline)
    if proc.returncode != 0:
        raise _failed(spec, proc)
    ans = _read(spec, _read_answer_file(spec, answer, proc, cap), "<pulp-cbc answer>", proc, "cbc")
    ans.format, ans.source = "pulp", "<pulp-cbc>"
    return ans


def find_gringo(spec: SolverSpec) -> str:
    """The gringo program that grounds the ASP program for clasp; SolverError when it is not installed."""
    gringo = shutil.which("gringo")
    if gringo is None:
        raise SolverError(f"solver {spec.name!r} needs the program 'gringo', which is not installed "
                          f"(on Debian/Ubuntu: sudo apt-get install {spec.package})")
    return gringo


def ground_asp(spec: SolverSpec, gringo: str, model: Path, workdir: Path, deadline: Deadline,
               puzzle: Puzzle) -> Optional[RunResult]:
    """gringo's aspif of the ASP program, written to model.aspif; None when the time limit stopped it."""
    # the ground program is a few times the program's size (each #count spelled out over its cells)
    ground = run_program(spec, [gringo, "--output=intermediate", model.name], workdir, deadline.remaining(),
                         answer_cap(puzzle, 8 * file_size(model)))
    if ground is not None and ground.returncode == 0:
        (workdir / "model.aspif").write_text(ground.stdout, encoding="utf-8")
    return ground


def grounding_failed(ground: RunResult) -> SolverError:
    """The error for gringo's failure, with the end of its output."""
    return SolverError(f"gringo failed (exit status {ground.returncode}):\n    "
                       f"{output_tail(ground.stderr or ground.stdout)}")


def run_clasp_asp(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """gringo grounds the ASP program to aspif, then clasp solves that file (no shell pipe)."""
    gringo = find_gringo(spec)
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    ground = ground_asp(spec, gringo, model, workdir, deadline, puzzle)
    if ground is None:
        return unknown_answer(spec, f"gringo did not finish grounding within {deadline.seconds:g} s (stopped)")
    if ground.returncode != 0:
        raise grounding_failed(ground)
    program = shutil.which(spec.program or "")
    if program is None:
        raise missing_solver(spec)
    remaining = deadline.remaining()
    proc = run_program(spec, [program, *spec.args("model.aspif", "", _seconds_flag(remaining))], workdir,
                       remaining, answer_cap(puzzle))
    if proc is None:
        return _stopped(spec, deadline)
    if proc.returncode not in spec.ok_codes:
        raise _failed(spec, proc)
    return _read(spec, proc.stdout, f"<{spec.name} answer>", proc)


def run_cpsat(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """OR-Tools CP-SAT in-process on to_cpsat's model; its response, printed in text format, is read back."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise missing_solver(spec) from None
    from ..encode.cpsat_model import to_cpsat
    model = to_cpsat(puzzle)
    if deadline.expired():
        return unknown_answer(spec, deadline.why("while the CP-SAT model was built"))
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False   # Ctrl-C is Python's KeyboardInterrupt, as for every solver
    remaining = deadline.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 1e-3)
    solver.solve(model)
    # through the reader, as a response saved to a file would be: one strict path for both
    return _read(spec, str(solver.response_proto), "<cp-sat answer>", RunResult(0, "", ""))


# the solvers that are not run as a plain program by run_external
_OWN_RUNNERS = {"highs": run_highs, "pulp-cbc": run_pulp_cbc, "cp-sat": run_cpsat, "clasp-asp": run_clasp_asp}


def runner_for(spec: SolverSpec) -> Runner:
    """The runner that drives this solver."""
    return _OWN_RUNNERS.get(spec.name, run_external)
