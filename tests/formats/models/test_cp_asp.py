"""The constraint-programming and answer-set formats read by the real tools, on the boards every other solver
file is proven on (tests/formats/models/test_real_solvers.py: feasible, infeasible, unique, several solutions, with and
without a total): MiniZinc with Gecode (grid rows and --output-mode json), clingo and gringo | clasp on the
ASP program, ACE (the XCSP3 solver the pycsp3 package ships) on the XCSP3 file, and OR-Tools CP-SAT on
to_cpsat's model. Each verdict agrees with pysat on mineconv's CNF; each answer meets every count, read once
by a minimal parser here and once by mineconv's own reader through decode; `solve --solver` agrees too.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np
import pytest

from conftest import require_module, require_tool
from mineconv import decode
from mineconv.formats import writing
from mineconv import solve
from mineconv import to_cpsat
from tests.helpers import run_tool
from mineconv.core.puzzle import Puzzle
from mineconv.core.system import check_assignment
from test_real_solvers import BOARDS, feasible, mine_grid

NAMES = sorted(BOARDS)


run = run_tool


def _write(puzzle: Puzzle, tmp_path: Path, fmt: str, ext: str) -> Path:
    path = tmp_path / f"board{ext}"
    writing.write(puzzle, path, fmt)
    return path


def _check(name: str, tool: str, ok: bool, grid) -> None:
    puzzle = BOARDS[name]
    assert ok == feasible(puzzle), f"{tool} says {'feasible' if ok else 'infeasible'} on {name}"
    if ok:
        problem = check_assignment(puzzle, grid)
        assert problem is None, f"{tool}'s answer on {name}: {problem}"


def _decoded_agrees(path: Path, answer: Path, name: str) -> None:
    """mineconv's reader gives the verdict the tool gave, from the model file's header alone."""
    d = decode(path, answer)
    assert d.status == ("solved" if feasible(BOARDS[name]) else "infeasible")


@pytest.mark.parametrize("name", NAMES)
def test_minizinc_gecode_reads_the_model(name: str, tmp_path: Path) -> None:
    minizinc = require_tool("minizinc")
    path = _write(BOARDS[name], tmp_path, "mzn", ".mzn")
    proc = run([minizinc, "--solver", "gecode", path.name], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    ok = "----------" in lines
    if not ok:
        assert "=====UNSATISFIABLE=====" in lines, proc.stdout
    rows = [ln[len("grid: "):] for ln in lines if ln.startswith("grid: ")]
    grid = np.array([[ch == "*" for ch in row] for row in rows], dtype=bool) if ok else None
    if ok:
        puzzle = BOARDS[name]
        for (r, c), ch in zip(np.ndindex(puzzle.rows, puzzle.cols), puzzle.cells):
            if ch not in "?*":
                assert rows[r][c] == ch, "revealed cells are printed as given"
    _check(name, "minizinc/gecode", ok, grid)
    (tmp_path / "answer.txt").write_text(proc.stdout)
    _decoded_agrees(path, tmp_path / "answer.txt", name)


@pytest.mark.parametrize("name", NAMES)
def test_minizinc_json_output_mode(name: str, tmp_path: Path) -> None:
    minizinc = require_tool("minizinc")
    path = _write(BOARDS[name], tmp_path, "mzn", ".mzn")
    proc = run([minizinc, "--solver", "gecode", "--output-mode", "json", path.name], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ok = "----------" in proc.stdout.splitlines()
    values = dict(re.findall(r'"(x\d+_\d+)" : (\d+)', proc.stdout))
    _check(name, "minizinc --output-mode json", ok, mine_grid(BOARDS[name], {k: int(v) for k, v in values.items()}))
    (tmp_path / "answer.json").write_text(proc.stdout)
    _decoded_agrees(path, tmp_path / "answer.json", name)


def _clingo_atoms(text: str) -> Tuple[bool, Dict]:
    lines = text.splitlines()
    if "UNSATISFIABLE" in lines:
        return False, {}
    assert "SATISFIABLE" in lines, text
    atoms = lines[lines.index("Answer: 1") + 1].split()
    cells = {}
    for atom in atoms:
        m = re.fullmatch(r"mine\((\d+),(\d+)\)", atom)
        assert m, atom
        cells[(int(m.group(1)) - 1, int(m.group(2)) - 1)] = 1
    return True, cells


@pytest.mark.parametrize("name", NAMES)
def test_clingo_reads_the_program(name: str, tmp_path: Path) -> None:
    clingo = require_tool("clingo")
    path = _write(BOARDS[name], tmp_path, "asp", ".asp")
    proc = run([clingo, path.name], tmp_path)
    assert proc.returncode in (10, 20, 30), proc.stdout + proc.stderr   # sat, unsat (+ exhausted)
    ok, cells = _clingo_atoms(proc.stdout)
    grid = np.zeros((BOARDS[name].rows, BOARDS[name].cols), dtype=bool)
    for rc in cells:
        grid[rc] = True   # the program shows every mine, known ones included
    _check(name, "clingo", ok, grid)
    (tmp_path / "answer.txt").write_text(proc.stdout)
    _decoded_agrees(path, tmp_path / "answer.txt", name)
    js = run([clingo, "--outf=2", path.name], tmp_path)
    (tmp_path / "answer.json").write_text(js.stdout)
    _decoded_agrees(path, tmp_path / "answer.json", name)


@pytest.mark.parametrize("name", NAMES)
def test_gringo_then_clasp_read_the_program(name: str, tmp_path: Path) -> None:
    gringo, clasp = require_tool("gringo"), require_tool("clasp")
    path = _write(BOARDS[name], tmp_path, "asp", ".asp")
    ground = run([gringo, path.name], tmp_path)
    assert ground.returncode == 0, ground.stderr
    proc = subprocess.run([clasp], input=ground.stdout, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode in (10, 20, 30), proc.stdout + proc.stderr
    ok, cells = _clingo_atoms(proc.stdout)
    grid = np.zeros((BOARDS[name].rows, BOARDS[name].cols), dtype=bool)
    for rc in cells:
        grid[rc] = True
    _check(name, "gringo | clasp", ok, grid)


def _ace_jar() -> str:
    pycsp3 = require_module("pycsp3")
    jars = sorted((Path(pycsp3.__file__).parent / "solvers" / "ace").glob("ACE-*.jar"))
    assert jars, "pycsp3 ships the ACE solver's jar"
    return str(jars[-1])


def _ace_values(text: str) -> Dict[str, int]:
    """The names and values of ACE's <instantiation> (XCSP3's compact 'vxN' repeats expanded)."""
    m = re.search(r"<list>(.*?)</list>\s*<values>(.*?)</values>", text, re.S)
    assert m, text
    names = m.group(1).split()
    values: List[int] = []
    for tok in m.group(2).split():
        v, _, n = tok.partition("x")
        values.extend([int(v)] * (int(n) if n else 1))
    assert len(names) == len(values), text
    return dict(zip(names, values))


@pytest.mark.parametrize("name", NAMES)
def test_ace_reads_the_xcsp3_instance(name: str, tmp_path: Path) -> None:
    java = require_tool("java")
    jar = _ace_jar()
    path = _write(BOARDS[name], tmp_path, "xcsp", ".xml")
    proc = run([java, "-jar", jar, path.name], tmp_path)
    text = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout + proc.stderr)   # ACE colours its output
    status = [ln.strip() for ln in text.splitlines() if ln.startswith("s ")]
    assert status in (["s SATISFIABLE"], ["s UNSATISFIABLE"]), text
    ok = status == ["s SATISFIABLE"]
    values = _ace_values(text) if ok and "<instantiation" in text else {}
    values.pop("zero", None)
    _check(name, "ACE", ok, mine_grid(BOARDS[name], values) if ok else None)


@pytest.mark.parametrize("name", NAMES)
def test_cpsat_solves_to_cpsat_model(name: str) -> None:
    require_module("ortools")
    from ortools.sat.python import cp_model

    puzzle = BOARDS[name]
    model = to_cpsat(puzzle)
    solver = cp_model.CpSolver()
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE), solver.status_name(status)
    ok = status != cp_model.INFEASIBLE
    grid = puzzle.codes == 9
    if ok:
        for cell, var in model.cell_vars.items():
            grid[cell] = solver.value(var) == 1
    assert model.cells == [tuple(rc) for rc in puzzle.unknown_cells]
    _check(name, "CP-SAT", ok, grid)


@pytest.mark.parametrize("solver", ["gecode", "clingo", "clasp-asp", "cp-sat"])
@pytest.mark.parametrize("name", ["seed-3x3", "seed-total-3", "dusautoy", "known", "no-unknown", "game-16x16"])
def test_solve_through_mineconv_agrees_with_pysat(solver: str, name: str) -> None:
    {"gecode": lambda: require_tool("minizinc"), "clingo": lambda: require_tool("clingo"),
     "clasp-asp": lambda: (require_tool("gringo"), require_tool("clasp")),
     "cp-sat": lambda: require_module("ortools")}[solver]()
    puzzle = BOARDS[name]
    ours = solve(puzzle, solver, check_unique=True)
    embedded = solve(puzzle, check_unique=True)
    assert ours.status == embedded.status
    assert ours.unique == embedded.unique
    if ours.status == "solved":
        assert check_assignment(puzzle, ours.grid) is None


@pytest.mark.parametrize("fmt", ["mzn", "xcsp"])
def test_batched_writers_match_the_reference_across_batches(fmt: str, monkeypatch) -> None:
    import importlib

    from reference_writers import REFERENCES

    module = importlib.import_module(f"mineconv.formats.models.{fmt}")
    monkeypatch.setattr(module, "BATCH", 3)   # every board below crosses many batch boundaries
    for name in ("game-16x16", "chlond-12x12", "impossible-count", "known"):
        assert writing.dumps(BOARDS[name], fmt) == REFERENCES[fmt](BOARDS[name]), name
