"""The solver table: every solver `solve --solver NAME` knows, described once as data, and its lookup.

A row says how the solver takes its input (the model format mineconv writes and the file suffix), how it
is run (the program on PATH, the Debian package that ships it, its command line, the exit statuses that
mean it answered) and how it gives its output (the registry reader of its answer, and where the answer
goes: stdout, or the file named in `answer_file`). In-process solvers (pysat, highspy, PuLP, OR-Tools)
name the Python module they need instead of a program. Adding a solver is one row here.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional

from ..core.errors import SolverError

EMBEDDED = "pysat"
# the solvers with an all-solutions mode of their own (the enumeration runs it once and reads each solution)
NATIVE_ENUMERATION = ("gecode", "clingo", "clasp-asp", "cp-sat")


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


def _secs(t: float) -> str:
    """A solver's own time limit in whole seconds, at least 1."""
    return str(max(1, int(t)))


# args(model file, answer file, seconds or None) -> the command line after the program
_TABLE = (
    SolverSpec(EMBEDDED, "embedded pysat (Glucose 4) on the CNF encoding; no program needed",
               module="pysat"),
    SolverSpec("minisat", "MiniSat on DIMACS CNF (result file)",
               model_format="cnf", suffix=".cnf", program="minisat", package="minisat",
               args=lambda m, a, t: [*([f"-cpu-lim={_secs(t)}"] if t else []), "-verb=0", m, a],
               ok_codes=frozenset({0, 10, 20}),   # 0 = INDET (a limit), 10 SAT, 20 UNSAT
               answer_format="minisat", answer_file="answer.out"),
    SolverSpec("picosat", "PicoSAT on DIMACS CNF",
               model_format="cnf", suffix=".cnf", program="picosat", package="picosat",
               args=lambda m, a, t: [*(["-L", _secs(t)] if t else []), m],
               ok_codes=frozenset({0, 10, 20}),
               answer_format="competition"),
    SolverSpec("cadical", "CaDiCaL on DIMACS CNF",
               model_format="cnf", suffix=".cnf", program="cadical", package="cadical",
               args=lambda m, a, t: ["-q", *(["-t", _secs(t)] if t else []), m],
               ok_codes=frozenset({0, 10, 20}),
               answer_format="competition"),
    SolverSpec("glpsol", "GLPK on the CPLEX LP file (raw --write answer)",
               model_format="lp", suffix=".lp", program="glpsol", package="glpk-utils",
               args=lambda m, a, t: ["--lp", m, *(["--tmlim", _secs(t)] if t else []), "--write", a],
               answer_format="glpsol-raw", answer_file="answer.raw"),
    SolverSpec("glpsol-mps", "GLPK on the free MPS file (raw --write answer)",
               model_format="mps", suffix=".mps", program="glpsol", package="glpk-utils",
               args=lambda m, a, t: ["--freemps", m, *(["--tmlim", _secs(t)] if t else []), "--write", a],
               answer_format="glpsol-raw", answer_file="answer.raw"),
    SolverSpec("glpsol-mathprog", "GLPK on the MathProg model (raw --write answer, a column per cell)",
               model_format="mathprog", suffix=".mod", program="glpsol", package="glpk-utils",
               args=lambda m, a, t: ["--math", m, *(["--tmlim", _secs(t)] if t else []), "--write", a],
               answer_format="glpsol-raw", answer_file="answer.raw"),
    SolverSpec("cbc", "COIN-OR CBC on the CPLEX LP file (solu answer)",
               model_format="lp", suffix=".lp", program="cbc", package="coinor-cbc",
               # printingOptions all: else zeros are left out of the solution file
               args=lambda m, a, t: [m, *(["sec", _secs(t)] if t else []), "solve", "printingOptions", "all",
                                     "solu", a],
               answer_format="cbc", answer_file="answer.sol"),
    SolverSpec("highs", "HiGHS through highspy, in-process, on the CPLEX LP file",
               model_format="lp", suffix=".lp", module="highspy",
               answer_format="highs"),
    SolverSpec("lp_solve", "lp_solve on the free MPS file (-S3 printout)",
               model_format="mps", suffix=".mps", program="lp_solve", package="lp-solve",
               args=lambda m, a, t: ["-S3", "-fmps", m],
               ok_codes=frozenset({0, 1, 2, 3}),   # 1 sub-optimal, 2 infeasible, 3 unbounded
               answer_format="lp_solve"),
    SolverSpec("z3", "Z3 on the SMT-LIB2 file",
               model_format="smt2", suffix=".smt2", program="z3", package="z3",
               args=lambda m, a, t: ["-smt2", *([f"-T:{_secs(t)}"] if t else []), m],
               ok_codes=frozenset({0, 1}),         # 1 after unsat: (get-model) then reports an error
               answer_format="smt2-model"),
    SolverSpec("clasp", "clasp on the OPB file",
               model_format="opb", suffix=".opb", program="clasp", package="clasp",
               args=lambda m, a, t: [*([f"--time-limit={_secs(t)}"] if t else []), m],
               ok_codes=frozenset({0, 10, 20, 30}),
               answer_format="competition"),
    SolverSpec("minisat+", "MiniSat+ on the OPB file",
               model_format="opb", suffix=".opb", program="minisat+", package="minisat+",
               args=lambda m, a, t: [m],
               ok_codes=frozenset({0, 10, 20}),   # exits 0 always
               answer_format="competition"),
    SolverSpec("pulp-cbc", "the CBC bundled with PuLP, through the PuLP model", module="pulp"),
    SolverSpec("gecode", "MiniZinc with Gecode on the MiniZinc model",
               model_format="mzn", suffix=".mzn", program="minizinc", package="minizinc",
               args=lambda m, a, t: ["--solver", "gecode", *(["--time-limit", str(int(t * 1000))] if t else []), m],
               answer_format="minizinc-answer"),
    # clingo's exit status adds up 1 interrupted, 10 sat, 20 unsat, 30 search space exhausted
    SolverSpec("clingo", "clingo on the ASP program",
               model_format="asp", suffix=".asp", program="clingo", package="gringo",
               args=lambda m, a, t: [*([f"--time-limit={int(t)}"] if t else []), m],
               ok_codes=frozenset({0, 1, 10, 11, 20, 21, 30}),
               answer_format="clingo-answer"),
    SolverSpec("clasp-asp", "gringo grounds the ASP program, clasp solves it",
               model_format="asp", suffix=".asp", program="clasp", package="gringo",
               args=lambda m, a, t: [*([f"--time-limit={int(t)}"] if t else []), m],
               ok_codes=frozenset({0, 1, 10, 11, 20, 21, 30}),
               answer_format="clingo-answer"),
    SolverSpec("cp-sat", "OR-Tools CP-SAT in-process on to_cpsat's model (pip install 'mineconv[cpsat]')",
               module="ortools", answer_format="cpsat-response"),
)

SOLVERS: Dict[str, SolverSpec] = {s.name: s for s in _TABLE}


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


def missing_solver(spec: SolverSpec) -> SolverError:
    """The error for a solver whose program or module is not installed, saying how to install it."""
    if spec.program:
        return SolverError(f"solver {spec.name!r} needs the program {spec.program!r}, which is not installed "
                           f"(on Debian/Ubuntu: sudo apt-get install {spec.package})")
    return SolverError(f"solver {spec.name!r} needs the Python module {spec.module!r} "
                       f"(pip install {spec.module})")
