"""The solver bridge: write the right file, run the solver without a shell and with a timeout, read its answer.

Every external solver is described once (program, Debian package, model format, command line, exit
codes, where the answer goes and which reader reads it). `solve(puzzle, "glpsol")` returns the decoded
and verified result; `SolutionStream` enumerates with the embedded pysat solver (blocking clauses) or with
the all-solutions mode of MiniZinc/Gecode, clingo, gringo | clasp or CP-SAT, reading their output as it comes.
"""
from __future__ import annotations

import dataclasses
import math
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Callable, Dict, FrozenSet, Iterator, List, Optional, Tuple, Union

import numpy as np

from ..core.errors import InputError, MineconvError, SolverError
from ..core.fileio import PathLike
from ..core.puzzle import Puzzle
from ..core.system import LinearSystem, build_system
from ..formats.answer import Answer, Decoded, decode_answer, literal_answer
from ..formats.registry import get_format, write
from .decoding import read_puzzle_or_model

EMBEDDED = "pysat"
PYSAT_SOLVER = "glucose4"   # interruptible (pysat's CaDiCaL ignores interrupt(), so a timeout could not stop it)
OUTPUT_CAP = 64 * 2**20     # the least output (stdout, stderr, an answer file) kept: past it a solver is stopped
ANSWER_BYTES_PER_CELL = 256  # a correct answer takes under 60 bytes a cell in every format (lp_solve -S3, z3)
SLACK = 1.0                 # seconds a solver gets past its own time limit to write its answer
UNIQUE_CARD_WORK = 2 * 10**7  # beyond this, an external solver's answer is not checked for uniqueness (~2 s, 200 MB)
CARD_UNITS_PER_SECOND = 1e8  # an upper bound on pysat's cardinality-encoding speed (measured: ~1e7 units/s)


@dataclass(frozen=True)
class SolverSpec:
    """How to run one solver and read its answer."""

    name: str
    description: str
    model_format: Optional[str] = None       # registry format of the file to write (None: in-process)
    suffix: str = ""
    program: Optional[str] = None            # executable looked up on PATH
    package: Optional[str] = None            # Debian package that provides it
    answer_format: Optional[str] = None      # registry reader of the answer
    answer_file: Optional[str] = None        # the answer is written to this file (else: stdout)
    args: Callable[..., List[str]] = field(default=lambda model, answer, timeout: [])
    ok_codes: FrozenSet[int] = frozenset({0})
    module: Optional[str] = None             # Python module an in-process solver needs


def _spec_list() -> List[SolverSpec]:
    lim = lambda flag, t, fmt="{}": [flag + fmt.format(max(1, int(t)))] if t else []  # noqa: E731
    return [
        SolverSpec(EMBEDDED, "embedded pysat (Glucose 4) on the CNF encoding; no program needed",
                   module="pysat"),
        SolverSpec("minisat", "MiniSat on DIMACS CNF (result file)", "cnf", ".cnf", "minisat", "minisat",
                   "minisat", "answer.out",
                   lambda m, a, t: [*lim("-cpu-lim=", t), "-verb=0", m, a],
                   frozenset({0, 10, 20})),   # 0 = INDET (a limit), 10 SAT, 20 UNSAT
        SolverSpec("picosat", "PicoSAT on DIMACS CNF", "cnf", ".cnf", "picosat", "picosat", "competition",
                   None, lambda m, a, t: [*(["-L", str(max(1, int(t)))] if t else []), m],
                   frozenset({0, 10, 20})),
        SolverSpec("cadical", "CaDiCaL on DIMACS CNF", "cnf", ".cnf", "cadical", "cadical", "competition",
                   None, lambda m, a, t: ["-q", *(["-t", str(max(1, int(t)))] if t else []), m],
                   frozenset({0, 10, 20})),
        SolverSpec("glpsol", "GLPK on the CPLEX LP file (raw --write answer)", "lp", ".lp", "glpsol",
                   "glpk-utils", "glpsol-raw", "answer.raw",
                   lambda m, a, t: ["--lp", m, *(["--tmlim", str(max(1, int(t)))] if t else []), "--write", a]),
        SolverSpec("glpsol-mps", "GLPK on the free MPS file (raw --write answer)", "mps", ".mps", "glpsol",
                   "glpk-utils", "glpsol-raw", "answer.raw",
                   lambda m, a, t: ["--freemps", m, *(["--tmlim", str(max(1, int(t)))] if t else []),
                                    "--write", a]),
        SolverSpec("glpsol-mathprog", "GLPK on the MathProg model (raw --write answer, a column per cell)",
                   "mathprog", ".mod", "glpsol", "glpk-utils", "glpsol-raw", "answer.raw",
                   lambda m, a, t: ["--math", m, *(["--tmlim", str(max(1, int(t)))] if t else []),
                                    "--write", a]),
        SolverSpec("cbc", "COIN-OR CBC on the CPLEX LP file (solu answer)", "lp", ".lp", "cbc", "coinor-cbc",
                   "cbc", "answer.sol",
                   lambda m, a, t: [m, *(["sec", str(max(1, int(t)))] if t else []), "solve",
                                    "printingOptions", "all", "solu", a]),   # else zeros are left out
        SolverSpec("highs", "HiGHS through highspy, in-process, on the CPLEX LP file", "lp", ".lp",
                   answer_format="highs", module="highspy"),
        SolverSpec("lp_solve", "lp_solve on the free MPS file (-S3 printout)", "mps", ".mps", "lp_solve",
                   "lp-solve", "lp_solve", None, lambda m, a, t: ["-S3", "-fmps", m],
                   frozenset({0, 1, 2, 3})),   # 1 sub-optimal, 2 infeasible, 3 unbounded
        SolverSpec("z3", "Z3 on the SMT-LIB2 file", "smt2", ".smt2", "z3", "z3", "smt2-model", None,
                   lambda m, a, t: ["-smt2", *([f"-T:{max(1, int(t))}"] if t else []), m],
                   frozenset({0, 1})),         # 1 after unsat: (get-model) then reports an error
        SolverSpec("clasp", "clasp on the OPB file", "opb", ".opb", "clasp", "clasp", "competition", None,
                   lambda m, a, t: [*([f"--time-limit={max(1, int(t))}"] if t else []), m],
                   frozenset({0, 10, 20, 30})),
        SolverSpec("minisat+", "MiniSat+ on the OPB file", "opb", ".opb", "minisat+", "minisat+",
                   "competition", None, lambda m, a, t: [m], frozenset({0, 10, 20})),  # exits 0 always
        SolverSpec("pulp-cbc", "the CBC bundled with PuLP, through the PuLP model", module="pulp"),
        SolverSpec("gecode", "MiniZinc with Gecode on the MiniZinc model", "mzn", ".mzn", "minizinc", "minizinc",
                   "minizinc-answer", None,
                   lambda m, a, t: ["--solver", "gecode", *(["--time-limit", str(int(t * 1000))] if t else []), m]),
        # clingo's exit status adds up 1 interrupted, 10 sat, 20 unsat, 30 search space exhausted
        SolverSpec("clingo", "clingo on the ASP program", "asp", ".asp", "clingo", "gringo", "clingo-answer", None,
                   lambda m, a, t: [*([f"--time-limit={int(t)}"] if t else []), m],
                   frozenset({0, 1, 10, 11, 20, 21, 30})),
        SolverSpec("clasp-asp", "gringo grounds the ASP program, clasp solves it", "asp", ".asp", "clasp",
                   "gringo", "clingo-answer", None,
                   lambda m, a, t: [*([f"--time-limit={int(t)}"] if t else []), m],
                   frozenset({0, 1, 10, 11, 20, 21, 30})),
        SolverSpec("cp-sat", "OR-Tools CP-SAT in-process on to_cpsat's model (pip install 'mineconv[cpsat]')",
                   answer_format="cpsat-response", module="ortools"),
    ]


SOLVERS: Dict[str, SolverSpec] = {s.name: s for s in _spec_list()}


def solver_names() -> List[str]:
    """Every solver `solve` knows, embedded first."""
    return list(SOLVERS)


def get_solver(name: str) -> SolverSpec:
    """The solver with this name; SolverError lists the valid names."""
    spec = SOLVERS.get(name)
    if spec is None:
        raise SolverError(f"unknown solver {name!r}; valid names: {', '.join(SOLVERS)}")
    return spec


def available(name: str) -> bool:
    """True when the solver's program or module is installed."""
    spec = get_solver(name)
    if spec.program:
        return shutil.which(spec.program) is not None
    if spec.module:
        try:
            __import__(spec.module)
        except ImportError:
            return False
    return True


def _missing(spec: SolverSpec) -> SolverError:
    if spec.program:
        return SolverError(f"solver {spec.name!r} needs the program {spec.program!r}, which is not installed "
                           f"(on Debian/Ubuntu: sudo apt-get install {spec.package})")
    return SolverError(f"solver {spec.name!r} needs the Python module {spec.module!r} "
                       f"(pip install {spec.module})")


def _tail(text: str, lines: int = 6) -> str:
    body = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n    ".join(body[-lines:]) if body else "(no output)"


class Deadline:
    """The end of a whole run (reading, building the model, every solver call): one clock for all stages."""

    def __init__(self, seconds: Optional[float] = None) -> None:
        self.seconds = check_timeout(seconds)
        self.end = None if self.seconds is None else time.monotonic() + self.seconds

    def remaining(self) -> Optional[float]:
        """Seconds left (at least 0), None without a limit."""
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        """True once the time is up."""
        return self.end is not None and time.monotonic() >= self.end

    def why(self, stage: str) -> str:
        """The unknown answer's reason: the limit and the stage it ran out in."""
        return f"the time limit of {self.seconds:g} s ran out {stage}"


def check_timeout(seconds: Optional[float]) -> Optional[float]:
    """A time limit as solve accepts it: None, or a finite number of seconds above 0 (else ValueError)."""
    if seconds is None:
        return None
    value = float(seconds)
    # nan made pulp-cbc call a solvable board infeasible, 0 meant "no limit" to some solvers
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"timeout must be a finite number of seconds above 0, not {seconds!r}")
    return value


@dataclass
class RunResult:
    """A finished solver process: exit status and captured output (None when the time limit stopped it)."""

    returncode: int
    stdout: str
    stderr: str


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pump(stream: IO[bytes], chunks: List[bytes], over: threading.Event, cap: int) -> None:
    size = 0
    while True:
        try:
            block = stream.read1(1 << 16) if hasattr(stream, "read1") else stream.read(1 << 16)
        except (ValueError, OSError):
            # a signal unwound the waiting thread, which killed the group and closed the pipe under us:
            # nothing more is wanted from it (and a thread's traceback would reach the user's stderr)
            return
        if not block:
            return
        if size + len(block) > cap:
            over.set()   # the waiting thread kills the group; keep draining so no writer blocks meanwhile
            continue
        size += len(block)
        chunks.append(block)


def _solver_env(workdir: Path) -> Dict[str, str]:
    """The solver's environment: its own temporary files (MiniZinc's .fzn) go into our folder, which is
    removed, because a solver killed on a limit cannot remove them itself."""
    return dict(os.environ, TMPDIR=str(workdir), TMP=str(workdir), TEMP=str(workdir))


def run_process(cmd: List[str], cwd: Path, limit: Optional[float], *, name: str = "",
                cap: Optional[int] = None) -> Optional[RunResult]:
    """Run cmd in its own process group without a shell; None when `limit` seconds passed.

    The whole group is killed when the program ends, when time is up, and when anything (a signal, Ctrl-C)
    interrupts the wait, so a wrapper script's children never outlive mineconv. stdout and stderr are kept
    up to `cap` bytes each; more is a SolverError.
    """
    cap = OUTPUT_CAP if cap is None else cap
    proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, env=_solver_env(cwd))
    out: List[bytes] = []
    err: List[bytes] = []
    over = threading.Event()
    pumps = [threading.Thread(target=_pump, args=(proc.stdout, out, over, cap), daemon=True),
             threading.Thread(target=_pump, args=(proc.stderr, err, over, cap), daemon=True)]
    end = None if limit is None else time.monotonic() + limit
    timed_out = False
    try:
        # inside the try: a signal that lands while the threads start must still kill the group
        for t in pumps:
            t.start()
        while True:
            # WNOWAIT leaves the exited leader a zombie: its pid, the group id, cannot be reused before
            # the group is killed below
            if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                break
            if over.is_set():
                break
            if end is not None and time.monotonic() >= end:
                timed_out = True
                break
            time.sleep(0.02)
    finally:
        _kill_group(proc.pid)
        proc.wait()
        for t in pumps:
            if t.ident is not None:
                t.join(5.0)   # a grandchild that left the group may still hold the pipes: do not wait on it
        for stream in (proc.stdout, proc.stderr):
            stream.close()  # type: ignore[union-attr]
    if over.is_set():
        raise SolverError(f"{name or cmd[0]} printed more than {cap // 2**20} MB; mineconv stopped it")
    if timed_out:
        return None
    return RunResult(proc.returncode, b"".join(out).decode("utf-8", "replace"),
                     b"".join(err).decode("utf-8", "replace"))


def answer_cap(puzzle: Puzzle, model_bytes: int = 0) -> int:
    """Bytes of solver output (each stream, an answer file) kept for this board before the solver is stopped.

    A generous multiple of what a correct answer takes: at most about 50 bytes a cell (cbc's solution
    file, lp_solve -S3) plus a line per auxiliary variable, which the model file lists at least once;
    never below OUTPUT_CAP.
    """
    return max(OUTPUT_CAP, ANSWER_BYTES_PER_CELL * puzzle.rows * puzzle.cols + 2 * model_bytes)


def _model_bytes(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _run(spec: SolverSpec, cmd: List[str], cwd: Path, remaining: Optional[float],
         cap: Optional[int] = None) -> Optional[RunResult]:
    """Run a solver program, keeping up to `cap` bytes of each output stream; None when the time limit stopped it."""
    try:
        # a little slack over the solver's own limit (whole seconds, rounded up), so that a solver that
        # honours it can still answer
        return run_process(cmd, cwd, None if remaining is None else remaining + SLACK, name=spec.name, cap=cap)
    except FileNotFoundError:
        raise _missing(spec) from None
    except OSError as exc:
        raise SolverError(f"cannot run {spec.program}: {exc.strerror or exc}") from None


def _read(spec: SolverSpec, text: str, source: str, proc: RunResult, fmt: Optional[str] = None) -> Answer:
    try:
        return get_format(fmt or spec.answer_format, kind="solution").reader(text, source)  # type: ignore[misc]
    except MineconvError as exc:
        # the solver's own output is unreadable: the solver failed, not the user's input
        raise SolverError(f"{spec.name} gave an answer mineconv cannot read ({exc.message}); its output "
                          f"ends:\n    {_tail(proc.stdout + proc.stderr)}") from None


def _read_answer_file(spec: SolverSpec, path: Path, proc: RunResult, cap: Optional[int] = None) -> str:
    if not path.exists():
        # CBC exits 0 when the model did not load, and writes no solution file
        raise SolverError(f"{spec.name} wrote no answer file; its output ends:\n    "
                          f"{_tail(proc.stdout + proc.stderr)}")
    cap = OUTPUT_CAP if cap is None else cap
    # read at most cap + 1 bytes: the size checked by stat() alone would trust a FIFO or /dev/zero
    with open(path, "rb") as f:
        data = f.read(cap + 1)
    if len(data) > cap:
        raise SolverError(f"{spec.name} wrote an answer file of more than {cap // 2**20} MB; mineconv did not "
                          "read it")
    return data.decode("utf-8", "replace")


def _seconds_flag(remaining: Optional[float]) -> Optional[float]:
    # solvers take whole seconds: round up, so that their own limit never comes before ours
    return None if remaining is None else float(max(1, math.ceil(remaining)))


def _unknown(spec: SolverSpec, why: str) -> Answer:
    return Answer("unknown", why=why, format=spec.answer_format or "", source=spec.name)


def _model_too_slow(puzzle: Puzzle, fmt: Optional[str], deadline: Deadline) -> Optional[str]:
    """Why building the model surely takes longer than the time left (None: go ahead, checking the clock)."""
    left = deadline.remaining()
    if left is None or fmt != "cnf":
        return None
    system = build_system(puzzle)
    k, t = system.num_vars, system.total
    if t is None or not 0 < t < k:
        return None
    work = k * min(t, k - t)
    # pysat's cardinality encoding does about 1e7 units a second here; 1e8 is a bound no machine beats,
    # so a refusal is never a guess
    if work / CARD_UNITS_PER_SECOND > left:
        return (f"the time limit of {deadline.seconds:g} s is too short to build the CNF model (the total "
                f"mine count's encoding, {t} of {k} cells, takes seconds); nothing was run")
    return None


def run_external(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """Write the model file, run the program, read its answer."""
    program = shutil.which(spec.program or "")
    if program is None:
        raise _missing(spec)
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    if deadline.expired():
        return _unknown(spec, deadline.why("while the model was written"))
    answer_path = workdir / spec.answer_file if spec.answer_file else None
    remaining = deadline.remaining()
    cmd = [program, *spec.args(model.name, answer_path.name if answer_path else "", _seconds_flag(remaining))]
    cap = answer_cap(puzzle, _model_bytes(model))
    proc = _run(spec, cmd, workdir, remaining, cap)
    if proc is None:
        return _unknown(spec, f"{spec.name} did not finish within {deadline.seconds:g} s (stopped)")
    if proc.returncode not in spec.ok_codes:
        raise SolverError(f"{spec.name} failed (exit status {proc.returncode}):\n    "
                          f"{_tail(proc.stderr or proc.stdout)}")
    text = _read_answer_file(spec, answer_path, proc, cap) if answer_path is not None else proc.stdout
    return _read(spec, text, f"<{spec.name} answer>", proc)


def run_highs(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """HiGHS in-process (highspy): read our LP file, solve, write its raw solution file, read that."""
    try:
        import highspy
    except ImportError:
        raise _missing(spec) from None
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    if deadline.expired():
        return _unknown(spec, deadline.why("while the model was written"))
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
    text = _read_answer_file(spec, out, RunResult(0, "", ""), answer_cap(puzzle, _model_bytes(model)))
    try:
        return get_format("highs", kind="solution").reader(text, "<highs answer>")  # type: ignore[misc]
    except MineconvError as exc:
        raise SolverError(f"HiGHS gave an answer mineconv cannot read ({exc.message})") from None


def run_pulp_cbc(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """PuLP's bundled CBC on the PuLP model of the puzzle, run like every other program.

    PuLP writes the MPS file (its own variable names) into our temp folder; the CBC binary it ships then
    runs in its own process group under our clock, and its solution file is read by the `cbc` reader, so
    a stopped run is "unknown", never "infeasible" (PuLP maps CBC's stopped states to Infeasible in places).
    """
    try:
        import pulp
    except ImportError:
        raise _missing(spec) from None
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
            return _unknown(spec, deadline.why("while the PuLP model was built"))
        model = workdir / "model.mps"
        prob.writeMPS(str(model), rename=0)
    if deadline.expired():
        return _unknown(spec, deadline.why("while the PuLP model was written"))
    answer = workdir / "answer.sol"
    remaining = deadline.remaining()
    argv = [cmd.path, model.name, *(["-sec", f"{_seconds_flag(remaining):g}"] if remaining is not None else []),
            "-solve", "-printingOptions", "all", "-solution", answer.name]
    cap = answer_cap(puzzle, _model_bytes(model))
    proc = _run(spec, argv, workdir, remaining, cap)
    if proc is None:
        return _unknown(spec, f"{spec.name} did not finish within {deadline.seconds:g} s (stopped)")
    if proc.returncode != 0:
        raise SolverError(f"{spec.name} failed (exit status {proc.returncode}):\n    "
                          f"{_tail(proc.stderr or proc.stdout)}")
    ans = _read(spec, _read_answer_file(spec, answer, proc, cap), "<pulp-cbc answer>", proc, "cbc")
    ans.format, ans.source = "pulp", "<pulp-cbc>"
    return ans


def _ground(spec: SolverSpec, gringo: str, model: Path, workdir: Path, deadline: Deadline,
            puzzle: Puzzle) -> Optional[RunResult]:
    """gringo's aspif of the ASP program, written to model.aspif; None when the time limit stopped it."""
    # the ground program is a few times the program's size (each #count spelled out over its cells)
    ground = _run(spec, [gringo, "--output=intermediate", model.name], workdir, deadline.remaining(),
                  answer_cap(puzzle, 8 * _model_bytes(model)))
    if ground is not None and ground.returncode == 0:
        (workdir / "model.aspif").write_text(ground.stdout, encoding="utf-8")
    return ground


def run_clasp_asp(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """gringo grounds the ASP program to aspif, then clasp solves that file (no shell pipe)."""
    gringo = shutil.which("gringo")
    if gringo is None:
        raise SolverError(f"solver {spec.name!r} needs the program 'gringo', which is not installed "
                          f"(on Debian/Ubuntu: sudo apt-get install {spec.package})")
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    ground = _ground(spec, gringo, model, workdir, deadline, puzzle)
    if ground is None:
        return _unknown(spec, f"gringo did not finish grounding within {deadline.seconds:g} s (stopped)")
    if ground.returncode != 0:
        raise SolverError(f"gringo failed (exit status {ground.returncode}):\n    {_tail(ground.stderr or ground.stdout)}")
    program = shutil.which(spec.program or "")
    if program is None:
        raise _missing(spec)
    remaining = deadline.remaining()
    proc = _run(spec, [program, *spec.args("model.aspif", "", _seconds_flag(remaining))], workdir, remaining,
                answer_cap(puzzle))
    if proc is None:
        return _unknown(spec, f"{spec.name} did not finish within {deadline.seconds:g} s (stopped)")
    if proc.returncode not in spec.ok_codes:
        raise SolverError(f"{spec.name} failed (exit status {proc.returncode}):\n    {_tail(proc.stderr or proc.stdout)}")
    return _read(spec, proc.stdout, f"<{spec.name} answer>", proc)


def run_cpsat(spec: SolverSpec, puzzle: Puzzle, workdir: Path, deadline: Deadline) -> Answer:
    """OR-Tools CP-SAT in-process on to_cpsat's model; its response, printed in text format, is read back."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise _missing(spec) from None
    from ..encode.cpsat import to_cpsat
    model = to_cpsat(puzzle)
    if deadline.expired():
        return _unknown(spec, deadline.why("while the CP-SAT model was built"))
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False   # Ctrl-C is Python's KeyboardInterrupt, as for every solver
    remaining = deadline.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 1e-3)
    solver.solve(model)
    # through the reader, as a response saved to a file would be: one strict path for both
    return _read(spec, str(solver.response_proto), "<cp-sat answer>",
                 RunResult(0, "", ""))


class _Embedded:
    """The CNF encoding in a pysat solver, kept open so that blocking clauses can be added.

    Each solve runs in a worker thread while the calling thread waits: the wait can be interrupted (by
    the clock, Ctrl-C, SIGTERM), and then the solver is interrupted too.
    """

    def __init__(self, puzzle: Puzzle, mines: Optional[int] = None) -> None:
        from pysat.solvers import Solver

        from ..encode.cnf import encode_cnf
        enc = encode_cnf(puzzle, mines)
        self.nv = enc.nv
        self.k = puzzle.unknown_count
        self.solver = Solver(name=PYSAT_SOLVER)
        # the encoder's clause arrays, fed by clause length in bulk: building a pysat CNF object first
        # costs seconds on a 1000 x 1000 board
        for arrays in (enc.cells, enc.card):
            for n in np.unique(arrays.lens).tolist():
                self.solver.append_formula(arrays.lits[arrays.lens == n, :n].tolist())

    def next(self, timeout: Union[None, float, Deadline]) -> Answer:
        """Solve once: a model over every variable, or unsat, or unknown when the time ran out."""
        deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout)
        if deadline.expired():
            return Answer("unknown", why=deadline.why("before the solver started"), format="pysat",
                          source="<pysat>")
        box: List[Optional[bool]] = []
        worker = threading.Thread(target=lambda: box.append(self.solver.solve_limited(expect_interrupt=True)),
                                  daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                left = deadline.remaining()
                if left is not None and left <= 0:
                    break
                worker.join(0.05 if left is None else min(0.05, left))
        finally:
            if worker.is_alive():
                self.solver.interrupt()
                worker.join()
        result = box[0] if box else None
        if result is None:
            self.solver.clear_interrupt()
            return Answer("unknown", why=f"pysat did not finish within {deadline.seconds:g} s", format="pysat",
                          source="<pysat>")
        if not result:
            return Answer("infeasible", format="pysat", source="<pysat>")
        model = self.solver.get_model() or []
        return literal_answer(model, [], format="pysat", source="<pysat>")

    def block(self, grid_values: np.ndarray) -> None:
        """Forbid this assignment of the cell variables (ids 1..k) from now on."""
        ids = np.arange(1, self.k + 1)
        self.solver.add_clause(np.where(grid_values, -ids, ids).tolist())

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()


def _cell_values(dec: Decoded, system: LinearSystem) -> np.ndarray:
    return dec.grid[system.var_rc[:, 0], system.var_rc[:, 1]]  # type: ignore[index]


def _other_solution(puzzle: Puzzle, dec: Decoded, deadline: Deadline,
                    emb: Optional[_Embedded] = None) -> Optional[bool]:
    """True when the puzzle has a solution besides dec's, False when not, None when time ran out."""
    system = build_system(puzzle)
    if system.num_vars == 0:
        return False
    own = emb is None
    if own:
        if system.total is not None and 0 < system.total < system.num_vars and \
                system.num_vars * min(system.total, system.num_vars - system.total) > UNIQUE_CARD_WORK:
            return None   # the CNF of the total alone would cost far more than the external solver's run
        if _model_too_slow(puzzle, "cnf", deadline) or deadline.expired():
            return None
        emb = _Embedded(puzzle)
    try:
        emb.block(_cell_values(dec, system))
        status = emb.next(deadline).status
    finally:
        if own:
            emb.close()
    return None if status == "unknown" else status == "solved"


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
        raise _missing(spec)
    fmt = "cnf" if spec.name == EMBEDDED else spec.model_format
    too_slow = _model_too_slow(puzzle, fmt, deadline)
    if too_slow:
        return decode_answer(puzzle, _unknown(spec, too_slow))
    if spec.name == EMBEDDED:
        emb = _Embedded(puzzle)
        try:
            if deadline.expired():
                answer = _unknown(spec, deadline.why("while the CNF model was built"))
            else:
                answer = emb.next(deadline)
            decoded = decode_answer(puzzle, answer, model_vars=emb.nv)
            if check_unique:
                decoded = _with_unique(puzzle, decoded, deadline, emb)
        finally:
            emb.close()
        return decoded
    with tempfile.TemporaryDirectory(prefix="mineconv-") as tmp:
        runner = {"highs": run_highs, "pulp-cbc": run_pulp_cbc, "cp-sat": run_cpsat,
                  "clasp-asp": run_clasp_asp}.get(spec.name, run_external)
        answer = runner(spec, puzzle, Path(tmp), deadline)
    decoded = decode_answer(puzzle, answer)
    return _with_unique(puzzle, decoded, deadline) if check_unique else decoded


def _with_unique(puzzle: Puzzle, decoded: Decoded, deadline: Deadline, emb: Optional[_Embedded] = None) -> Decoded:
    if decoded.status == "infeasible":
        return dataclasses.replace(decoded, unique=False)
    if decoded.status != "solved":
        return decoded
    other = _other_solution(puzzle, decoded, deadline, emb)
    return dataclasses.replace(decoded, unique=None if other is None else not other)


# the solvers `SolutionStream` runs in their own all-solutions mode (every other one is refused for enumeration)
NATIVE_ENUMERATION = ("gecode", "clingo", "clasp-asp", "cp-sat")
_QUEUE = 256   # lines (or CP-SAT solutions) read ahead of the consumer: a fast solver then waits on its pipe


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
        too_slow = _model_too_slow(puzzle, "cnf", self.deadline)
        if too_slow:
            self.stopped, self.why = "timeout", too_slow
            return
        emb = _Embedded(puzzle)
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
                emb.block(_cell_values(dec, system))
                yield dec
            self.stopped = "limit"
        finally:
            emb.close()

    def _native(self) -> Iterator[Decoded]:
        puzzle = self.puzzle
        spec = get_solver(self.solver)
        if not available(spec.name):
            raise _missing(spec)
        system = build_system(puzzle)
        # a solver that printed one solution twice would be counted twice: refused (the model's choice
        # variables are the cells alone, so its all-solutions mode never does)
        seen = set()
        runner = {"gecode": _minizinc_all, "clingo": _clingo_all, "clasp-asp": _clingo_all,
                  "cp-sat": _cpsat_all}[spec.name]
        with tempfile.TemporaryDirectory(prefix="mineconv-") as tmp:
            answers = runner(spec, puzzle, Path(tmp), self)
            try:
                for answer in answers:
                    dec = decode_answer(puzzle, answer, system=system)   # every count checked
                    key = np.packbits(_cell_values(dec, system)).tobytes()
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


class _Streamed:
    """A solver process whose stdout is read line by line while it runs, in its own process group.

    Iterating gives the lines as the solver prints them (without the line end) until it exits or the
    clock runs out (then `timed_out`). No stretch of output between two `solution_read()` calls (so no
    line either) may pass `cap` bytes: the solver is stopped and a SolverError says so. close() kills
    the group and returns the exit status.
    """

    def __init__(self, spec: SolverSpec, cmd: List[str], cwd: Path, deadline: Deadline, cap: int) -> None:
        self.name = spec.name
        self.deadline = deadline
        self.cap = cap
        self.pending = 0
        self.timed_out = False
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue(maxsize=_QUEUE)
        self.stop = threading.Event()
        self.over = threading.Event()
        self.err: List[bytes] = []
        try:
            self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True, env=_solver_env(cwd))
        except FileNotFoundError:
            raise _missing(spec) from None
        except OSError as exc:
            raise SolverError(f"cannot run {cmd[0]}: {exc.strerror or exc}") from None
        self.threads = [threading.Thread(target=self._read_chunks, daemon=True),
                        threading.Thread(target=_pump, args=(self.proc.stderr, self.err, self.over, cap),
                                         daemon=True)]
        try:
            for t in self.threads:
                t.start()
        except BaseException:
            self.close()
            raise

    def _put(self, item: Optional[bytes]) -> None:
        while not self.stop.is_set():
            try:
                self.lines.put(item, timeout=0.05)
                return
            except queue.Full:
                continue

    def _read_chunks(self) -> None:
        stream = self.proc.stdout
        while not self.stop.is_set():
            # chunks, not lines: a queue hand-over per line made 64 MB of short lines take 30 s
            try:
                block = stream.read1(1 << 16)  # type: ignore[union-attr]
            except (ValueError, OSError):
                break   # closed under us by close() after a signal or a limit: as _pump
            if not block:
                break
            self._put(block)
        self._put(None)

    def __iter__(self) -> Iterator[str]:
        partial: List[bytes] = []   # the line being read, in pieces; bounded by the cap on pending bytes
        while True:
            if self.over.is_set():
                raise self._too_much()
            if self.deadline.expired():
                self.timed_out = True
                return
            try:
                item = self.lines.get(timeout=0.05)
            except queue.Empty:
                continue
            if item is None:
                break
            self.pending += len(item)
            if self.pending > self.cap:
                raise self._too_much()
            pieces = item.split(b"\n")
            if len(pieces) == 1:
                partial.append(item)
                continue
            partial.append(pieces[0])
            yield b"".join(partial).decode("utf-8", "replace").rstrip("\r")
            for piece in pieces[1:-1]:
                yield piece.decode("utf-8", "replace").rstrip("\r")
            partial = [pieces[-1]] if pieces[-1] else []
        if partial:
            yield b"".join(partial).decode("utf-8", "replace").rstrip("\r")
        if self.over.is_set():
            raise self._too_much()
        # stdout closed: wait for the exit itself (WNOWAIT keeps the group id from being reused before close)
        while os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            if self.deadline.expired():
                self.timed_out = True
                return
            time.sleep(0.02)

    def solution_read(self) -> None:
        """A whole solution was read: the output cap counts afresh from here."""
        self.pending = 0

    def _too_much(self) -> SolverError:
        return SolverError(f"{self.name} printed more than {self.cap // 2**20} MB without a whole solution; "
                           "mineconv stopped it")

    def stderr(self) -> str:
        """What the solver printed on stderr (up to the cap)."""
        return b"".join(self.err).decode("utf-8", "replace")

    def close(self) -> int:
        """Kill the process group, wait for the solver; its exit status."""
        self.stop.set()
        _kill_group(self.proc.pid)
        self.proc.wait()
        for t in self.threads:
            if t.ident is not None:
                t.join(5.0)   # a grandchild that left the group may still hold the pipes: do not wait on it
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()  # type: ignore[union-attr]
        return self.proc.returncode


def _block_answer(spec: SolverSpec, text: str, n: int, streamed: _Streamed) -> Answer:
    """One solution's output through the strict reader (an unreadable one: the solver failed)."""
    try:
        answer = get_format(spec.answer_format, kind="solution").reader(text, f"<{spec.name} solution {n}>")  # type: ignore[misc]
    except MineconvError as exc:
        raise SolverError(f"{spec.name} printed a solution mineconv cannot read ({exc.message}):\n    "
                          f"{_tail(text)}") from None
    streamed.solution_read()
    answer.why, answer.solutions = "", 1
    return answer


def _failed(spec: SolverSpec, status: int, streamed: _Streamed) -> SolverError:
    return SolverError(f"{spec.name} failed (exit status {status}):\n    {_tail(streamed.stderr())}")


def _minizinc_all(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Iterator[Answer]:
    """MiniZinc -a: the `grid:` rows of each solution end with ----------; ========== says that was all."""
    from ..formats.answers.minizinc import COMPLETE, SEPARATOR
    model = workdir / "model.mzn"
    write(puzzle, model, "mzn")
    if stream.deadline.expired():
        stream._finish(False, stream.deadline.why("while the model was written"))
        return
    program = shutil.which(spec.program or "") or spec.program or "minizinc"
    # no solver time limit: the clock stops the process, and every solution printed before it counts
    streamed = _Streamed(spec, [program, "--solver", "gecode", "--all-solutions", model.name], workdir,
                         stream.deadline, answer_cap(puzzle, _model_bytes(model)))
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
        if verdict == "=====UNSATISFIABLE=====" and n:
            raise SolverError(f"{spec.name} printed {n} solutions, then =====UNSATISFIABLE=====")
        if verdict in (COMPLETE, "=====UNSATISFIABLE====="):
            stream._finish(True)
        elif verdict == "=====UNKNOWN=====" or not verdict:
            stream._finish(False, f"{spec.name} ended without saying it found every solution ({verdict or 'no '}"
                                  f"{'' if verdict else COMPLETE})")
        else:
            raise SolverError(f"{spec.name} ended with {verdict}:\n    {_tail(streamed.stderr())}")
    finally:
        streamed.close()


def _clingo_all(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Iterator[Answer]:
    """clingo -n 0 (or gringo, then clasp -n 0): each `Answer: N` line and its line of atoms is one model."""
    model = workdir / "model.asp"
    write(puzzle, model, "asp")
    if spec.name == "clasp-asp":
        gringo = shutil.which("gringo")
        if gringo is None:
            raise SolverError(f"solver {spec.name!r} needs the program 'gringo', which is not installed "
                              f"(on Debian/Ubuntu: sudo apt-get install {spec.package})")
        ground = _ground(spec, gringo, model, workdir, stream.deadline, puzzle)
        if ground is None:
            stream._finish(False, f"gringo did not finish grounding within {stream.deadline.seconds:g} s (stopped)")
            return
        if ground.returncode != 0:
            raise SolverError(f"gringo failed (exit status {ground.returncode}):\n    "
                              f"{_tail(ground.stderr or ground.stdout)}")
        model = workdir / "model.aspif"
    if stream.deadline.expired():
        stream._finish(False, stream.deadline.why("while the model was written"))
        return
    program = shutil.which(spec.program or "") or spec.program or "clingo"
    streamed = _Streamed(spec, [program, "--models=0", model.name], workdir, stream.deadline,
                         answer_cap(puzzle, _model_bytes(model)))
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


def _cpsat_all(spec: SolverSpec, puzzle: Puzzle, workdir: Path, stream: SolutionStream) -> Iterator[Answer]:
    """CP-SAT with enumerate_all_solutions: a solution callback hands each one over as the search finds it."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise _missing(spec) from None
    from ..encode.cpsat import to_cpsat
    model = to_cpsat(puzzle)
    if stream.deadline.expired():
        stream._finish(False, stream.deadline.why("while the CP-SAT model was built"))
        return
    xs = [model.cell_vars[c] for c in model.cells]
    found: "queue.Queue[List[int]]" = queue.Queue(maxsize=_QUEUE)
    stop = threading.Event()

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

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    # CP-SAT's own SIGINT handler aborts the process when the signal lands during the search in this thread
    # (std::bad_function_call); Python's handler raises KeyboardInterrupt here, and the finally stops it
    solver.parameters.catch_sigint_signal = False
    solver.parameters.num_workers = 1   # enumeration is exact with one worker (presolve keeps every solution)
    remaining = stream.deadline.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 1e-3)
    box: List[int] = []
    callback = Callback()
    worker = threading.Thread(target=lambda: box.append(solver.solve(model, callback)), daemon=True)
    worker.start()
    n = 0
    try:
        while True:
            if stream.deadline.expired():
                stream._finish(False)
                return
            try:
                values = found.get(timeout=0.05)
            except queue.Empty:
                if worker.is_alive() or not found.empty():
                    continue
                break
            n += 1
            text = "status: FEASIBLE\nsolution: [" + ", ".join(map(str, values)) + "]\n"
            try:
                answer = get_format(spec.answer_format, kind="solution").reader(text, f"<cp-sat solution {n}>")  # type: ignore[misc]
            except MineconvError as exc:
                raise SolverError(f"CP-SAT gave a solution mineconv cannot read ({exc.message})") from None
            yield answer
        name = solver.status_name(box[0]) if box else "UNKNOWN"
        if name in ("OPTIMAL", "INFEASIBLE"):
            if name == "INFEASIBLE" and n:
                raise SolverError(f"CP-SAT found {n} solutions, then called the model infeasible")
            stream._finish(True)
        elif name == "MODEL_INVALID":
            raise SolverError("CP-SAT called the model invalid (MODEL_INVALID)")
        else:
            stream._finish(False, f"CP-SAT stopped before it saw every solution ({name})")
    finally:
        stop.set()
        solver.stop_search()
        worker.join()


def enumerate_solutions(puzzle: Puzzle, limit: Optional[int] = None, *, timeout: Optional[float] = None,
                        mines: Optional[int] = None, solver: str = EMBEDDED) -> Tuple[List[Decoded], bool]:
    """Up to `limit` distinct solutions (all when None), with pysat and blocking clauses or a native enumerator.

    Returns (solutions, complete): complete is True when the search proved there are no more.
    The timeout bounds the whole enumeration (SolutionStream streams them instead).
    """
    stream = SolutionStream(puzzle, limit, timeout=timeout, mines=mines, solver=solver)
    found = list(stream)
    return found, stream.complete
