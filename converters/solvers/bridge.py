"""The solver bridge: write the right file, run the solver without a shell and with a timeout, read its answer.

Every external solver is described once (program, Debian package, model format, command line, exit
codes, where the answer goes and which reader reads it). `solve(puzzle, "glpsol")` returns the decoded
and verified result; `enumerate_solutions` uses the embedded pysat solver with blocking clauses.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, FrozenSet, List, Optional, Tuple, Union

import numpy as np

from .answer import IGNORED_NAMES, Answer, Decoded, decode_answer, literal_answer
from .decoding import read_puzzle_or_model
from ..errors import MineconvError, SolverError
from ..fileio import PathLike
from ..model.puzzle import Puzzle
from ..registry import get_format, write
from ..model.system import build_system

EMBEDDED = "pysat"
PYSAT_SOLVER = "glucose4"   # interruptible (pysat's CaDiCaL ignores interrupt(), so a timeout could not stop it)


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


def _run(spec: SolverSpec, cmd: List[str], cwd: Path, timeout: Optional[float]) -> Optional[subprocess.CompletedProcess]:
    """Run without a shell; None when the timeout killed it."""
    try:
        # a little slack over the solver's own limit, so that a solver that honours it can still answer
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace",
                              timeout=None if timeout is None else timeout + 2.0, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    except FileNotFoundError:
        raise _missing(spec) from None
    except OSError as exc:
        raise SolverError(f"cannot run {spec.program}: {exc.strerror or exc}") from None


def _read(spec: SolverSpec, text: str, source: str, proc: subprocess.CompletedProcess) -> Answer:
    try:
        return get_format(spec.answer_format, kind="solution").reader(text, source)  # type: ignore[misc]
    except MineconvError as exc:
        # the solver's own output is unreadable: the solver failed, not the user's input
        raise SolverError(f"{spec.name} gave an answer mineconv cannot read ({exc.message}); its output "
                          f"ends:\n    {_tail(proc.stdout + proc.stderr)}") from None


def run_external(spec: SolverSpec, puzzle: Puzzle, workdir: Path, timeout: Optional[float]) -> Answer:
    """Write the model file, run the program, read its answer."""
    program = shutil.which(spec.program or "")
    if program is None:
        raise _missing(spec)
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    answer_path = workdir / spec.answer_file if spec.answer_file else None
    cmd = [program, *spec.args(model.name, answer_path.name if answer_path else "", timeout)]
    proc = _run(spec, cmd, workdir, timeout)
    if proc is None:
        return Answer("unknown", why=f"{spec.name} did not finish within {timeout:g} s (stopped)",
                      format=spec.answer_format or "", source=spec.name)
    if proc.returncode not in spec.ok_codes:
        raise SolverError(f"{spec.name} failed (exit status {proc.returncode}):\n    "
                          f"{_tail(proc.stderr or proc.stdout)}")
    if answer_path is not None:
        if not answer_path.exists():
            # CBC exits 0 when the model did not load, and writes no solution file
            raise SolverError(f"{spec.name} wrote no answer file; its output ends:\n    "
                              f"{_tail(proc.stdout + proc.stderr)}")
        text = answer_path.read_text(encoding="utf-8", errors="replace")
    else:
        text = proc.stdout
    return _read(spec, text, f"<{spec.name} answer>", proc)


def run_highs(spec: SolverSpec, puzzle: Puzzle, workdir: Path, timeout: Optional[float]) -> Answer:
    """HiGHS in-process (highspy): read our LP file, solve, write its raw solution file, read that."""
    try:
        import highspy
    except ImportError:
        raise _missing(spec) from None
    model = workdir / ("model" + spec.suffix)
    write(puzzle, model, spec.model_format)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if timeout:
        h.setOptionValue("time_limit", float(timeout))
    if h.readModel(str(model)) == highspy.HighsStatus.kError:
        raise SolverError("HiGHS could not read the LP file mineconv wrote")
    h.run()
    out = workdir / "answer.sol"
    h.writeSolution(str(out), 0)
    text = out.read_text(encoding="utf-8", errors="replace")
    try:
        return get_format("highs", kind="solution").reader(text, "<highs answer>")  # type: ignore[misc]
    except MineconvError as exc:
        raise SolverError(f"HiGHS gave an answer mineconv cannot read ({exc.message})") from None


def run_pulp_cbc(spec: SolverSpec, puzzle: Puzzle, workdir: Path, timeout: Optional[float]) -> Answer:
    """PuLP's bundled CBC on the PuLP model of the puzzle."""
    try:
        import pulp
    except ImportError:
        raise _missing(spec) from None
    from ..encode.linear import to_pulp
    with warnings.catch_warnings():
        # PuLP 3.3 announces API changes for 4.0 on every call; they are not the user's concern
        warnings.simplefilter("ignore", DeprecationWarning)
        prob = to_pulp(puzzle)
        cmd = pulp.PULP_CBC_CMD(msg=False, timeLimit=timeout, keepFiles=False)
        if not cmd.available():
            raise SolverError("PuLP's bundled CBC is not available on this platform (pip install "
                              "--force-reinstall pulp)")
        prob.solve(cmd)
    word = pulp.LpStatus[prob.status]
    if word == "Infeasible":
        return Answer("infeasible", format="pulp", source="<pulp-cbc>")
    if word != "Optimal":
        return Answer("unknown", why=f"PuLP status {word}", format="pulp", source="<pulp-cbc>")
    names, vals = [], []
    for v in prob.variables():
        if v.varValue is None and v.name in IGNORED_NAMES:
            continue
        if v.varValue is None:
            raise SolverError(f"PuLP's CBC left variable {v.name} without a value")
        names.append(v.name)
        vals.append(float(v.varValue))
    return Answer("solved", "name", names, np.asarray(vals), None, format="pulp", source="<pulp-cbc>")


class _Embedded:
    """The CNF encoding in a pysat solver, kept open so that blocking clauses can be added."""

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

    def next(self, timeout: Optional[float]) -> Answer:
        """Solve once: a model over every variable, or unsat, or unknown when interrupted."""
        timer = None
        if timeout:
            timer = threading.Timer(timeout, self.solver.interrupt)
            timer.start()
        try:
            result = self.solver.solve_limited(expect_interrupt=True) if timeout else self.solver.solve()
        finally:
            if timer is not None:
                timer.cancel()
        if result is None:
            self.solver.clear_interrupt()
            return Answer("unknown", why=f"pysat did not finish within {timeout:g} s", format="pysat",
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


def solve(puzzle: Union[Puzzle, PathLike], solver: str = EMBEDDED, *, timeout: Optional[float] = None,
          mines: Optional[int] = None) -> Decoded:
    """Solve a puzzle (or a puzzle / mineconv model file) with the named solver; decode and verify its answer."""
    if not isinstance(puzzle, Puzzle):
        puzzle, _ = read_puzzle_or_model(puzzle)
    if mines is not None:
        puzzle = puzzle.replace(mines=mines)
    spec = get_solver(solver)
    if not available(solver):
        raise _missing(spec)
    if spec.name == EMBEDDED:
        emb = _Embedded(puzzle)
        try:
            answer = emb.next(timeout)
        finally:
            emb.close()
        return decode_answer(puzzle, answer, model_vars=emb.nv)
    with tempfile.TemporaryDirectory(prefix="mineconv-") as tmp:
        runner = {"highs": run_highs, "pulp-cbc": run_pulp_cbc}.get(spec.name, run_external)
        answer = runner(spec, puzzle, Path(tmp), timeout)
    return decode_answer(puzzle, answer)


def enumerate_solutions(puzzle: Puzzle, limit: Optional[int] = None, *, timeout: Optional[float] = None,
                        mines: Optional[int] = None) -> Tuple[List[Decoded], bool]:
    """Up to `limit` distinct solutions (all when None) with pysat and blocking clauses.

    Returns (solutions, complete): complete is True when the search proved there are no more.
    The timeout applies to each solver call.
    """
    if mines is not None:
        puzzle = puzzle.replace(mines=mines)
    system = build_system(puzzle)
    emb = _Embedded(puzzle)
    found: List[Decoded] = []
    try:
        while limit is None or len(found) < limit:
            answer = emb.next(timeout)
            if answer.status != "solved":
                return found, answer.status == "infeasible"
            dec = decode_answer(puzzle, answer, model_vars=emb.nv, system=system)
            found.append(dec)
            cells = dec.grid[system.var_rc[:, 0], system.var_rc[:, 1]] if system.num_vars else np.zeros(0, bool)
            if system.num_vars == 0:
                return found, True
            emb.block(cells)
        return found, False
    finally:
        emb.close()
