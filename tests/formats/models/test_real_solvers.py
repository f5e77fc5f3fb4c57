"""Every solver file mineconv writes, read by the real tools: right verdict, and the printed answer meets
every count (mineconv.core.system.check_assignment).

The output parsing here is deliberately minimal (the strict answer readers live in converters/formats/sol_*):
each helper returns (feasible, values) where values maps a DIMACS id, a column name or a cell to 0/1.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np
import pytest

from conftest import require_module, require_tool
from mineconv.formats import writing
from tests.helpers import run_tool
from mineconv.encode.cnf import to_cnf
from mineconv.make.generate import place_mines
from mineconv.core.layout import full_reveal
from mineconv.core.naming import parse_var_name
from mineconv.core.puzzle import Puzzle
from mineconv.core.system import check_assignment

Answer = Tuple[bool, Dict]


def _hide(puzzle: Puzzle, fraction: float, seed: int) -> Puzzle:
    """Turn some counts of a fully revealed board into unknown cells (the mines stay a solution)."""
    rng = np.random.default_rng(seed)
    cells = np.frombuffer(puzzle.cells.encode(), dtype=np.uint8).copy()
    counts = np.nonzero((cells >= ord("0")) & (cells <= ord("8")))[0]
    cells[rng.choice(counts, size=int(len(counts) * fraction), replace=False)] = ord("?")
    return puzzle.replace(cells=cells.tobytes().decode())


BOARDS: Dict[str, Puzzle] = {
    "seed-3x3": Puzzle.from_rows(["1??", "12?", "01?"]),
    "seed-total-2": Puzzle.from_rows(["1??", "12?", "01?"], mines=2),
    "seed-total-3": Puzzle.from_rows(["1??", "12?", "01?"], mines=3),          # infeasible by the total
    "dusautoy": Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"], mines=8),
    "known": Puzzle.from_rows(["1*2??", "?2.?1", "?1?11", "???.?"], mines=4),
    "known-free-cell": Puzzle.from_rows(["1*2??", "?2.?1", "?1?11", "???.?"]),  # x3_4-like cells unconstrained
    "impossible-count": Puzzle.from_rows(["1..", "..?"]),
    "contradiction": Puzzle.from_rows(["?1?", "?3?", "?0?"]),
    "no-unknown": Puzzle.from_rows(["1*", "11"], mines=1),
    "no-unknown-bad": Puzzle.from_rows(["2*", "11"]),
    "all-unknown": Puzzle.from_rows(["???", "???"], mines=2),
    "chlond-12x12": full_reveal(place_mines(12, 12, density=0.2, seed=5)),
    "game-16x16": _hide(full_reveal(place_mines(16, 16, density=0.18, seed=9), with_total=True), 0.5, 2),
}


def feasible(puzzle: Puzzle) -> bool:
    """The verdict, through pysat on mineconv's own CNF (checked against brute force in test_encode)."""
    from pysat.solvers import Solver

    cnf = to_cnf(puzzle)
    if any(not c for c in cnf.clauses):
        return False
    with Solver(name="cadical153", bootstrap_with=cnf.clauses) as s:
        return bool(s.solve())


def mine_grid(puzzle: Puzzle, values: Dict) -> np.ndarray:
    """The answer as a bool grid: known mines, plus the cells whose variable is 1 (absent means 0)."""
    grid = puzzle.codes == 9
    cells = puzzle.unknown_cells
    for key, val in values.items():
        if isinstance(key, int):
            if key <= len(cells):     # DIMACS / OPB id; auxiliary variables of the total are ignored
                r, c = cells[key - 1]
                grid[r, c] = val == 1
        elif isinstance(key, tuple):
            grid[key] = val == 1
        else:
            rc = parse_var_name(key)
            assert rc is not None or key == "zero", f"unexpected variable name {key!r}"
            if rc is not None:
                assert puzzle[rc] == "?", f"{key} is not an unknown cell"
                grid[rc] = val == 1
    return grid


run = run_tool


def _num(text: str) -> int:
    value = float(text)
    assert abs(value - round(value)) < 1e-6, f"fractional value {text}"
    return int(round(value))


# one runner per (tool, format): write the file, run the tool, read its verdict and values -------------
def sat_minisat(path: Path) -> Answer:
    out = path.with_suffix(".out")
    proc = run([require_tool("minisat"), path.name, out.name], path.parent)
    assert proc.returncode in (10, 20), proc.stdout + proc.stderr
    words = out.read_text().split()
    if words[0] == "UNSAT":
        return False, {}
    assert words[0] == "SAT" and words[-1] == "0"
    return True, {abs(int(w)): int(int(w) > 0) for w in words[1:-1]}


def sat_competition(tool: str) -> Callable[[Path], Answer]:
    def runner(path: Path) -> Answer:
        proc = run([require_tool(tool), path.name], path.parent)
        # 10 sat, 20 unsat; clasp adds 1 when the search space was exhausted (30 = sat, all seen)
        assert proc.returncode in (10, 20, 30), proc.stdout + proc.stderr
        lines = proc.stdout.splitlines()
        status = [ln for ln in lines if ln.startswith("s ")]
        assert status in (["s SATISFIABLE"], ["s UNSATISFIABLE"]), proc.stdout
        lits = [w for ln in lines if ln.startswith("v ") for w in ln.split()[1:]]
        values = {}
        for w in lits:
            if w == "0":
                continue
            if w.lstrip("-").startswith("x"):  # OPB solvers print names: x3 / -x3
                values[int(w.lstrip("-")[1:])] = int(not w.startswith("-"))
            else:
                values[abs(int(w))] = int(int(w) > 0)
        return status == ["s SATISFIABLE"], values
    return runner


def opb_minisatp(path: Path) -> Answer:
    proc = run([require_tool("minisat+"), path.name], path.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # minisat+ exits 0 either way
    status = [ln for ln in proc.stdout.splitlines() if ln.startswith("s ")]
    assert status in (["s SATISFIABLE"], ["s UNSATISFIABLE"]), proc.stdout
    lits = [w for ln in proc.stdout.splitlines() if ln.startswith("v ") for w in ln.split()[1:]]
    return status == ["s SATISFIABLE"], {int(w.lstrip("-")[1:]): int(not w.startswith("-")) for w in lits}


def _glpsol_raw(raw: Path, names: Optional[List[str]]) -> Answer:
    lines = raw.read_text().splitlines()
    s = next(ln.split() for ln in lines if ln.startswith("s "))
    assert s[1] == "mip", lines
    if s[4] == "n":
        return False, {}
    assert s[4] == "o", f"status {s[4]}"
    cols = [ln.split() for ln in lines if ln.startswith("j ")]
    assert len(cols) == int(s[3])
    if names is None:
        return True, {int(c[1]): _num(c[2]) for c in cols}
    assert len(names) == len(cols)
    return True, {names[int(c[1]) - 1]: _num(c[2]) for c in cols}


def glpsol(flag: str) -> Callable[[Path], Answer]:
    def runner(path: Path) -> Answer:
        raw = path.with_suffix(".raw")
        proc = run([require_tool("glpsol"), flag, path.name, "-w", raw.name], path.parent)
        assert proc.returncode == 0 and "error" not in proc.stdout.lower(), proc.stdout
        # the LP objective and the MPS columns list the variables in id order: column i is cell id i
        return _glpsol_raw(raw, None)
    return runner


def glpsol_mathprog(path: Path, puzzle: Puzzle) -> Answer:
    raw = path.with_suffix(".raw")
    proc = run([require_tool("glpsol"), "-m", path.name, "-w", raw.name], path.parent)
    assert proc.returncode == 0 and "error" not in proc.stdout.lower(), proc.stdout
    ok, cols = _glpsol_raw(raw, None)
    rows = [ln[len("grid: "):] for ln in proc.stdout.splitlines() if ln.startswith("grid: ")]
    if not ok:
        assert rows == [], "glpsol prints nothing after solve when infeasible"
        return False, {}
    # the columns are every cell, row-major; the printed grid says the same
    assert len(cols) == puzzle.rows * puzzle.cols
    solved = Puzzle.from_rows(rows)
    raw_grid = np.array([cols[i + 1] for i in range(len(cols))]).reshape(puzzle.rows, puzzle.cols) == 1
    assert np.array_equal(raw_grid, np.array([[ch == "*" for ch in row] for row in rows]))
    for (r, c), ch in zip(np.ndindex(puzzle.rows, puzzle.cols), puzzle.cells):
        if ch not in "?*":
            assert solved[r, c] == ch, "revealed cells are printed as given"
    return True, {(r, c): int(solved[r, c] == "*") for r, c in np.ndindex(puzzle.rows, puzzle.cols)}


def cbc(path: Path) -> Answer:
    sol = path.with_suffix(".sol")
    proc = run([require_tool("cbc"), path.name, "solve", "solu", sol.name], path.parent)
    assert sol.exists(), "cbc wrote no solution (model not read?)\n" + proc.stdout
    lines = sol.read_text().splitlines()
    if lines[0].startswith("Infeasible"):
        return False, {}
    assert lines[0].startswith("Optimal"), lines[0]
    return True, {ln.split()[1]: _num(ln.split()[2]) for ln in lines[1:]}


def highs(path: Path) -> Answer:
    highspy = require_module("highspy")
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    if status == "Infeasible":
        return False, {}
    assert status == "Optimal", status
    lp = h.getLp()
    values = h.getSolution().col_value
    return True, {name: _num(str(v)) for name, v in zip(lp.col_names_, values)}


def lp_solve(flag: str) -> Callable[[Path], Answer]:
    def runner(path: Path) -> Answer:
        proc = run([require_tool("lp_solve"), "-S3", flag, path.name], path.parent)
        if "This problem is infeasible" in proc.stdout:
            assert proc.returncode == 2
            return False, {}
        assert proc.returncode == 0, proc.stdout + proc.stderr
        block = proc.stdout.split("Actual values of the variables:")[1].split("Actual values of the constraints:")[0]
        return True, {ln.split()[0]: _num(ln.split()[1]) for ln in block.strip().splitlines()}
    return runner


def z3(path: Path) -> Answer:
    proc = run([require_tool("z3"), path.name], path.parent)
    first = proc.stdout.split("\n", 1)[0].strip()
    if first == "unsat":
        return False, {}
    assert first == "sat" and proc.returncode == 0, proc.stdout + proc.stderr
    defs = re.findall(r"\(define-fun (\S+) \(\) Int\s+(\(- \d+\)|\d+)\)", proc.stdout)
    return True, {name: int(val.replace("(- ", "-").rstrip(")")) for name, val in defs}


MATRIX = [
    ("cnf", "minisat", sat_minisat),
    ("cnf", "picosat", sat_competition("picosat")),
    ("cnf", "cadical", sat_competition("cadical")),
    ("lp", "glpsol", glpsol("--lp")),
    ("lp", "cbc", cbc),
    ("lp", "highs", highs),
    ("mps", "glpsol", glpsol("--freemps")),
    ("mps", "cbc", cbc),
    ("mps", "highs", highs),
    ("mps", "lp_solve", lp_solve("-fmps")),
    ("fixed-mps", "glpsol", glpsol("--mps")),
    ("fixed-mps", "cbc", cbc),
    ("fixed-mps", "highs", highs),
    ("fixed-mps", "lp_solve", lp_solve("-mps")),
    ("mathprog", "glpsol", None),
    ("opb", "clasp", sat_competition("clasp")),
    ("opb", "minisat+", opb_minisatp),
    ("smt2", "z3", z3),
]
EXT = {"cnf": ".cnf", "lp": ".lp", "mps": ".mps", "fixed-mps": ".mps", "mathprog": ".mod", "opb": ".opb",
       "smt2": ".smt2"}


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("fmt, tool, runner", MATRIX, ids=[f"{f}-{t}" for f, t, _ in MATRIX])
def test_tool_reads_the_file_and_answers_right(fmt: str, tool: str, runner, board: str, tmp_path: Path) -> None:
    puzzle = BOARDS[board]
    path = tmp_path / f"{board}{EXT[fmt]}"
    writing.write(puzzle, path, fmt)
    if runner is None:
        ok, values = glpsol_mathprog(path, puzzle)
    else:
        ok, values = runner(path)
    assert ok == feasible(puzzle), f"{tool} says {'feasible' if ok else 'infeasible'} on {board}"
    if ok:
        problem = check_assignment(puzzle, mine_grid(puzzle, values))
        assert problem is None, f"{tool}'s answer on {board}: {problem}"


@pytest.mark.parametrize("encoding", ["seqcounter", "totalizer", "cardnetwrk", "kmtotalizer"])
def test_card_encodings_through_minisat(encoding: str, tmp_path: Path) -> None:
    puzzle = BOARDS["game-16x16"]
    path = tmp_path / "g.cnf"
    writing.write(puzzle, path, "cnf", card_encoding=encoding)
    ok, values = sat_minisat(path)
    assert ok
    assert check_assignment(puzzle, mine_grid(puzzle, values)) is None


def test_glpsol_reads_the_model_with_a_separate_dat_file(tmp_path: Path) -> None:
    puzzle = BOARDS["known"]
    (tmp_path / "model.mod").write_text(writing.dumps(puzzle.replace(mines=None), "mathprog", with_data=False))
    writing.write(puzzle, tmp_path / "p.dat", "dat")
    proc = run([require_tool("glpsol"), "-m", "model.mod", "-d", "p.dat"], tmp_path)
    rows = [ln[len("grid: "):] for ln in proc.stdout.splitlines() if ln.startswith("grid: ")]
    solved = Puzzle.from_rows(rows)
    assert check_assignment(puzzle, np.array([[ch == "*" for ch in row] for row in solved.grid_lines])) is None
