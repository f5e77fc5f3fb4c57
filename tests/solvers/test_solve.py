"""mineconv solve: every solver agrees with the embedded one; enumeration; missing solvers; timeouts."""
from __future__ import annotations

import functools
import json
import stat
import sys

import pytest
from hypothesis import given, settings, strategies as st

from mineconv.solvers import embedded, enumeration, solving, table
from mineconv.formats.notations.native import canonical_text
from mineconv.core.puzzle import Puzzle

from helpers import mine_sets, require_module, require_tool, run_cli

BOARDS = {
    "unique": Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"]),
    "two-solutions": Puzzle.from_rows(["1??", "12?", "01?"]),
    "infeasible": Puzzle.from_rows(["?1?", "?0?", "???"]),
    "known-mine-total": Puzzle.from_rows(["*1?", "11?", "???"], mines=1),
    "known-mine-total-infeasible": Puzzle.from_rows(["*1?", "11?", "???"], mines=2),
    "total": Puzzle.from_rows(["1??", "12?", "01?"], mines=2),
    "total-infeasible": Puzzle.from_rows(["1??", "12?", "01?"], mines=3),
    "lone-cell": Puzzle.from_rows(["1?..?"]),
    "lone-cell-total": Puzzle.from_rows(["1?..?"], mines=2),
    "known-safe": Puzzle.from_rows(["?.?", "?3?", "???"]),
    "no-unknown": Puzzle.from_rows(["*1", "11"]),           # linear files get a placeholder column
    "no-unknown-infeasible": Puzzle.from_rows(["1."]),
    "one-cell-total": Puzzle.from_rows(["?"], mines=1),
}


brute = functools.lru_cache(maxsize=None)(mine_sets)   # every solution, each a frozenset of mine cells


def need(name: str) -> None:
    spec = table.get_solver(name)
    if spec.program:
        require_tool(spec.program)
    if spec.module:
        require_module(spec.module)


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_embedded_matches_brute_force(board):
    _embedded_matches_brute_force(BOARDS[board])


def _embedded_matches_brute_force(puzzle: Puzzle) -> None:
    """The embedded solver's verdict, answer and full enumeration agree with brute force."""
    expected = brute(puzzle)
    dec = solving.solve(puzzle)
    assert dec.status == ("solved" if expected else "infeasible")
    if expected:
        assert frozenset(map(tuple, dec.mines)) in expected
    found, complete = enumeration.enumerate_solutions(puzzle)
    assert complete and {frozenset(map(tuple, d.mines)) for d in found} == expected


@pytest.mark.parametrize("solver", [s for s in table.solver_names() if s != table.EMBEDDED])
def test_every_solver_agrees_with_the_embedded_one(solver):
    need(solver)
    for name, puzzle in BOARDS.items():
        embedded = solving.solve(puzzle)
        dec = solving.solve(puzzle, solver, timeout=60)
        assert dec.status == embedded.status, (solver, name)
        if dec.status == "solved":
            # decode already verified every count; a unique puzzle must give the same grid
            solutions = brute(puzzle)
            assert frozenset(map(tuple, dec.mines)) in solutions, (solver, name)
            if len(solutions) == 1:
                assert dec.mines == embedded.mines


def test_cli_solve_text_and_json(tmp_path, capsys):
    p = tmp_path / "u.txt"
    p.write_text(canonical_text(BOARDS["unique"]))
    rc, out, _ = run_cli(capsys, "solve", p)
    assert rc == 0 and out == canonical_text(solving.solve(BOARDS["unique"]).solved_puzzle())
    rc, out, _ = run_cli(capsys, "solve", p, "--json")
    data = json.loads(out)
    assert rc == 0 and data["status"] == "solved" and data["mines"] == solving.solve(BOARDS["unique"]).mines
    p.write_text(canonical_text(BOARDS["infeasible"]))
    rc, out, err = run_cli(capsys, "solve", p, "--json")
    assert rc == 1 and json.loads(out)["status"] == "infeasible" and json.loads(out)["mines"] == []


def test_cli_enumeration(tmp_path, capsys):
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, out, _ = run_cli(capsys, "solve", p, "--all", "--json")
    data = json.loads(out)
    assert rc == 0 and data["count"] == 2 and data["complete"] is True
    assert sorted(data["solutions"]) == [[[0, 1], [1, 2]], [[0, 1], [2, 2]]]
    assert data["mines"] == data["solutions"][0]
    rc, out, _ = run_cli(capsys, "solve", p, "--limit", "1", "--json")
    data = json.loads(out)
    assert rc == 0 and data["count"] == 1 and data["complete"] is False
    rc, out, err = run_cli(capsys, "solve", p, "--all")
    assert rc == 0 and out.count("# solution") == 2 and "2 solutions" in err
    p.write_text(canonical_text(BOARDS["infeasible"]))
    rc, out, _ = run_cli(capsys, "solve", p, "--all", "--json")
    data = json.loads(out)
    assert rc == 1 and {k: data[k] for k in ("status", "mines", "solutions", "count", "complete", "solver")} == \
        {"status": "infeasible", "mines": [], "solutions": [], "count": 0, "complete": True, "solver": "pysat"}
    assert data["total_solutions"] == 0 and data["total_solutions_str"] == "0"


def test_enumeration_needs_the_embedded_solver(tmp_path, capsys):
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, _, err = run_cli(capsys, "solve", p, "--all", "--solver", "minisat")
    assert rc == 2 and "embedded" in err


@pytest.mark.parametrize("solver,package", [("minisat", "minisat"), ("glpsol", "glpk-utils"),
                                            ("cbc", "coinor-cbc"), ("lp_solve", "lp-solve"), ("z3", "z3")])
def test_missing_solver_names_the_debian_package(tmp_path, capsys, monkeypatch, solver, package):
    monkeypatch.setenv("PATH", str(tmp_path))   # nothing on PATH
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, out, err = run_cli(capsys, "solve", p, "--solver", solver)
    assert rc == 2 and out == ""
    assert f"apt-get install {package}" in err and "Traceback" not in err


def test_external_timeout_gives_unknown(tmp_path, capsys, monkeypatch):
    slow = tmp_path / "slow-solver"
    slow.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(60)\n")
    slow.chmod(slow.stat().st_mode | stat.S_IEXEC)
    spec = table.SolverSpec("slow", "a solver that never answers", "cnf", ".cnf", str(slow), "none",
                             "competition", None, lambda m, a, t: [m])
    monkeypatch.setitem(table.SOLVERS, "slow", spec)
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, out, _ = run_cli(capsys, "solve", p, "--solver", "slow", "--timeout", "0.2", "--json")
    data = json.loads(out)
    assert rc == 1 and data["status"] == "unknown" and "0.2 s" in data["why"]


def test_embedded_timeout_interrupts(monkeypatch):
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver
    emb = embedded.EmbeddedSolver(BOARDS["two-solutions"])
    emb.solver.delete()
    emb.solver = Solver(name=embedded.PYSAT_SOLVER, bootstrap_with=PHP(10).clauses)  # hard: minutes
    try:
        ans = emb.next(0.3)
    finally:
        emb.close()
    assert ans.status == "unknown"


def test_solver_failure_is_reported(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "crash"
    bad.write_text("#!/bin/sh\necho 'segmentation fault' >&2\nexit 139\n")
    bad.chmod(bad.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setitem(table.SOLVERS, "crash", table.SolverSpec(
        "crash", "crashes", "cnf", ".cnf", str(bad), "none", "competition", None, lambda m, a, t: [m]))
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, out, err = run_cli(capsys, "solve", p, "--solver", "crash")
    assert rc == 2 and "exit status 139" in err and "segmentation fault" in err


def test_solver_answering_garbage_is_a_solver_error(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "garbage"
    bad.write_text("#!/bin/sh\necho 'models/x.cnf:15: expected number'\n")   # like picosat, rc 0
    bad.chmod(bad.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setitem(table.SOLVERS, "garbage", table.SolverSpec(
        "garbage", "prints garbage", "cnf", ".cnf", str(bad), "none", "competition", None, lambda m, a, t: [m]))
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, _, err = run_cli(capsys, "solve", p, "--solver", "garbage")
    assert rc == 2 and "cannot read" in err and "expected number" in err


def test_solve_takes_the_model_file_mineconv_wrote(tmp_path, capsys):
    from mineconv.formats.writing import write
    cnf = tmp_path / "u.cnf"
    write(BOARDS["unique"], cnf, "cnf")
    rc, out, _ = run_cli(capsys, "solve", cnf, "--json")
    assert rc == 0 and json.loads(out)["mines"] == solving.solve(BOARDS["unique"]).mines


@pytest.mark.parametrize("fmt, extra", [("native", []), ("cnf", []), ("native", ["--from", "native"])])
def test_solve_reads_the_puzzle_or_model_from_stdin_once(capsys, monkeypatch, fmt, extra):
    # stdin can be read only once: the header check and the notation reader share what was read
    import io

    from mineconv.formats.writing import dumps
    text = dumps(BOARDS["unique"], fmt).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    rc, out, err = run_cli(capsys, "solve", "-", "--json", *extra)
    assert rc == 0, err
    assert json.loads(out)["mines"] == solving.solve(BOARDS["unique"]).mines


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.data())
def test_random_boards_embedded_agrees_with_brute_force(rows, cols, data):
    cells = data.draw(st.lists(st.sampled_from("??0123*."), min_size=rows * cols, max_size=rows * cols))
    total = data.draw(st.one_of(st.none(), st.integers(0, rows * cols)))
    try:
        puzzle = Puzzle(rows, cols, "".join(cells), mines=total)
    except Exception:
        return  # a count above its neighbour limit: not a puzzle
    _embedded_matches_brute_force(puzzle)


@pytest.mark.parametrize("solver", [s for s in table.solver_names() if s != table.EMBEDDED])
def test_random_boards_every_solver_agrees(solver):
    need(solver)

    @settings(max_examples=8, deadline=None, derandomize=True)
    @given(st.integers(1, 3), st.integers(1, 4), st.data())
    def check(rows, cols, data):
        cells = data.draw(st.lists(st.sampled_from("??0123*."), min_size=rows * cols, max_size=rows * cols))
        total = data.draw(st.one_of(st.none(), st.integers(0, rows * cols)))
        try:
            puzzle = Puzzle(rows, cols, "".join(cells), mines=total)
        except Exception:
            return
        expected = brute(puzzle)
        dec = solving.solve(puzzle, solver, timeout=60)
        assert dec.status == ("solved" if expected else "infeasible"), puzzle
        if expected:
            assert frozenset(map(tuple, dec.mines)) in expected

    check()


def test_solver_that_writes_no_answer_file(tmp_path, capsys, monkeypatch):
    # CBC exits 0 and writes no solution file when the model did not load
    fake = tmp_path / "fake-cbc"
    fake.write_text("#!/bin/sh\necho '** Current model not valid'\nexit 0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    spec = table.get_solver("cbc")
    monkeypatch.setitem(table.SOLVERS, "cbc", table.SolverSpec(
        "cbc", spec.description, spec.model_format, spec.suffix, str(fake), spec.package, spec.answer_format,
        spec.answer_file, spec.args, spec.ok_codes))
    p = tmp_path / "s.txt"
    p.write_text(canonical_text(BOARDS["two-solutions"]))
    rc, out, err = run_cli(capsys, "solve", p, "--solver", "cbc")
    assert rc == 2 and out == "" and "wrote no answer file" in err and "Current model not valid" in err
