"""solve --all through the CP/ASP solvers' own all-solutions modes (MiniZinc -a with Gecode, clingo -n 0,
gringo | clasp -n 0, CP-SAT enumerate_all_solutions), bounded solver output, and solve/decode -v.

Every enumeration is compared with brute force (helpers.mine_sets), written from the rules alone. Streaming
is proven as a subprocess: the first solution arrives while the solver still runs (a board of 2^36
solutions), then --limit 1 or Ctrl-C ends the run and no solver process or temp folder is left.
"""
from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mineconv.core.errors import SolverError
from mineconv.formats.notations.native import canonical_text
from mineconv.core.puzzle import Puzzle
from mineconv.solvers import enumeration, process, solving

from helpers import SAMPLES, mine_sets, require_module, require_tool, run_cli

NATIVE = ["gecode", "clingo", "clasp-asp", "cp-sat"]

BOARDS = {   # name: (board, its number of solutions as brute force counts them)
    "one": Puzzle.from_rows(["0?1?0", "23?10", "????0"]),
    "one-total": Puzzle.from_rows(["1???", "1332", "1?*1", "??.2", "1?1?"], mines=5),
    "two": Puzzle.from_rows(["1??", "12?", "01?"]),
    "two-total": Puzzle.from_rows(["2?", "??", "11", "22", "*?"], mines=4),
    "six": Puzzle.from_rows(["0??32", "12???", "?*4?.", "12???"]),
    "six-total": Puzzle.from_rows(["?2?2?", "1*???"], mines=3),
    "none": Puzzle.from_rows(["123", "1??", "?22"]),
    "none-total": Puzzle.from_rows(["1??.?", "2??32", "2??2?", "1.?21"], mines=10),
    "no-unknown": Puzzle.from_rows(["1*", "11"]),
}
COUNTS = {"one": 1, "one-total": 1, "two": 2, "two-total": 2, "six": 6, "six-total": 6, "none": 0,
          "none-total": 0, "no-unknown": 1}
OPEN = Puzzle(6, 6, "?" * 36)   # 2^36 solutions: no solver lists them all


def need(solver: str) -> None:
    """Skip (fail under CI=true) when the solver's programs or module are missing."""
    {"gecode": lambda: require_tool("minizinc"), "clingo": lambda: require_tool("clingo"),
     "clasp-asp": lambda: (require_tool("gringo"), require_tool("clasp")),
     "cp-sat": lambda: require_module("ortools"), "pysat": lambda: None}[solver]()


def _board(tmp_path: Path, puzzle: Puzzle, name: str = "b.txt") -> Path:
    p = tmp_path / name
    p.write_text(canonical_text(puzzle))
    return p


def _jsonl(out: str):
    lines = [json.loads(ln) for ln in out.splitlines()]
    return lines[:-1], lines[-1]


def test_the_boards_have_the_counts_they_claim():
    for name, puzzle in BOARDS.items():
        assert len(mine_sets(puzzle)) == COUNTS[name], name


@pytest.mark.parametrize("solver", ["pysat", *NATIVE])
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_each_solver_enumerates_exactly_the_solution_set(tmp_path, capsys, solver, name):
    need(solver)
    puzzle = BOARDS[name]
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, puzzle), "--solver", solver, "--all", "--jsonl")
    found, summary = _jsonl(out)
    got = [frozenset(map(tuple, s["mines"])) for s in found]
    assert len(got) == len(set(got)), "a solution was printed twice"
    assert set(got) == mine_sets(puzzle), f"{solver} on {name}"
    assert [s["solution"] for s in found] == list(range(1, len(found) + 1))
    assert summary["count"] == len(found) == COUNTS[name]
    assert summary["complete"] is True and summary["stopped"] is None and summary["solver"] == solver
    assert summary["status"] == ("solved" if found else "infeasible")
    assert rc == (0 if found else 1) and "Traceback" not in err


@pytest.mark.parametrize("solver", NATIVE)
def test_the_text_and_json_outputs_keep_their_contracts(tmp_path, capsys, solver):
    need(solver)
    board = _board(tmp_path, BOARDS["six"])
    rc, out, err = run_cli(capsys, "solve", board, "--solver", solver, "--all", "--json")
    data = json.loads(out)
    assert rc == 0 and err == ""
    assert {frozenset(map(tuple, s)) for s in data["solutions"]} == mine_sets(BOARDS["six"])
    assert data["mines"] == data["solutions"][0] and data["count"] == 6 and data["complete"] is True
    assert data["solver"] == solver and "stopped" not in data and data["total_solutions"] == 6
    rc, out, err = run_cli(capsys, "solve", board, "--solver", solver, "--all")
    assert rc == 0 and out.count("# solution") == 6 and "6 solutions (all of them)" in err


@pytest.mark.parametrize("solver", NATIVE)
def test_limit_two_stops_at_two(tmp_path, capsys, solver):
    need(solver)
    for name in ("six", "six-total"):
        rc, out, err = run_cli(capsys, "solve", _board(tmp_path, BOARDS[name]), "--solver", solver, "--all",
                               "--limit", "2", "--jsonl")
        found, summary = _jsonl(out)
        assert rc == 0 and len(found) == 2 and summary["count"] == 2
        assert summary["stopped"] == "limit" and summary["complete"] is False
        assert {frozenset(map(tuple, s["mines"])) for s in found} <= mine_sets(BOARDS[name])
        assert "stopped at the limit 2 of 6" in err


@pytest.mark.parametrize("solver", NATIVE)
def test_the_astronomical_refusal_holds_for_every_enumerator(tmp_path, capsys, solver):
    need(solver)
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, OPEN), "--solver", solver, "--all")
    assert rc == 2 and out == "" and str(2**36) in err and "--force" in err


@pytest.mark.parametrize("solver", NATIVE)
def test_the_timeout_bounds_a_native_enumeration(capsys, solver):
    need(solver)
    t0 = time.monotonic()
    rc, out, err = run_cli(capsys, "solve", SAMPLES / "kaye-splitter.txt", "--solver", solver, "--all",
                           "--limit", "1000000", "--timeout", "1.5", "--jsonl")
    assert time.monotonic() - t0 < 8
    found, summary = _jsonl(out)
    assert rc == 0 and summary["stopped"] == "timeout" and summary["complete"] is False
    assert summary["count"] == len(found) > 0 and "stopped by the time limit" in err


def test_solvers_without_an_all_solutions_mode_are_refused(tmp_path, capsys):
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, BOARDS["two"]), "--solver", "minisat", "--all")
    assert rc == 2 and out == "" and all(name in err for name in NATIVE) and "minisat has none" in err
    with pytest.raises(SolverError, match="no all-solutions mode"):
        enumeration.SolutionStream(BOARDS["two"], solver="cbc")
    assert main_help_names_the_enumerators(capsys)


def main_help_names_the_enumerators(capsys) -> bool:
    with pytest.raises(SystemExit):
        run_cli(capsys, "solve", "--help")
    text = " ".join(capsys.readouterr().out.split())
    return all(name in text for name in NATIVE) and "all-solutions mode" in text


@pytest.mark.parametrize("solver", NATIVE)
def test_the_library_stream_says_complete(solver):
    need(solver)
    found, complete = enumeration.enumerate_solutions(BOARDS["six-total"], solver=solver)
    assert complete and {frozenset(map(tuple, d.mines)) for d in found} == mine_sets(BOARDS["six-total"])


# streaming, as a subprocess ----------------------------------------------------------------------------
@pytest.fixture
def env(tmp_path):
    """A mineconv subprocess's environment: fake programs first on PATH, its own TMPDIR."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    (tmp_path / "bin").mkdir()
    return dict(os.environ, PATH=f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}", TMPDIR=str(tmp))


def _mineconv(*args, env, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mineconv", *map(str, args)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def _no_solver_left(tmp: Path) -> bool:
    """No process has a file open in the run's TMPDIR's folders (they are gone) within a few seconds."""
    end = time.monotonic() + 5
    while time.monotonic() < end:
        if not list(tmp.iterdir()):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("solver", NATIVE)
def test_limit_one_on_a_huge_board_prints_at_once_and_stops_the_solver(tmp_path, env, solver):
    need(solver)
    t0 = time.monotonic()
    proc = _mineconv("solve", _board(tmp_path, OPEN), "--solver", solver, "--all", "--force", "--limit", "1",
                     "--jsonl", env=env)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 15, "the solver was not stopped after the first solution"
    found, summary = _jsonl(out)
    assert proc.returncode == 0 and len(found) == 1 and summary["stopped"] == "limit", err
    assert _no_solver_left(Path(env["TMPDIR"]))


@pytest.mark.parametrize("solver", NATIVE)
def test_the_first_solution_streams_and_ctrl_c_keeps_it(tmp_path, env, solver):
    need(solver)
    # unbuffered bytes: readline must not read ahead what communicate() then never sees
    proc = subprocess.Popen([sys.executable, "-m", "mineconv", "solve", str(_board(tmp_path, OPEN)), "--solver",
                             solver, "--all", "--force", "--limit", "100000000", "--jsonl"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    try:
        first = proc.stdout.readline()   # the solver is still enumerating 2^36 solutions here
        assert json.loads(first)["solution"] == 1
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = err.decode()
    lines = [json.loads(ln) for ln in (first + rest).decode().splitlines()]
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert lines[-1]["stopped"] == "interrupted" and lines[-1]["count"] == len(lines) - 1 >= 1
    assert _no_solver_left(Path(env["TMPDIR"]))


class _SignalOnWrite:
    """A stdout that sends this process a signal in the middle of its Nth write, before keeping the text."""

    def __init__(self, n: int, signum: int) -> None:
        self.n, self.signum, self.writes, self.text = n, signum, 0, []

    def write(self, text: str) -> int:
        self.writes += 1
        if self.writes == self.n:
            os.kill(os.getpid(), self.signum)   # its handler runs here, before the text is kept
        self.text.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("mode", ["--jsonl", "text"])
def test_a_stop_while_a_solution_is_printed_keeps_the_count_honest(tmp_path, monkeypatch, signum, status, mode):
    # CI once saw `--jsonl` end with count 10 after 9 solution lines: Ctrl-C landed between counting a
    # solution and printing it. The stop now waits until both are done.
    from mineconv.cli import main
    out = _SignalOnWrite(3, signum)
    monkeypatch.setattr(sys, "stdout", out)
    flags = ["--jsonl"] if mode == "--jsonl" else []
    rc = main(["solve", str(_board(tmp_path, OPEN)), "--all", "--force", "--limit", "100", *flags])
    assert rc == status
    text = "".join(out.text)
    if mode == "--jsonl":
        lines = [json.loads(ln) for ln in text.splitlines()]
        assert [ln["solution"] for ln in lines[:-1]] == [1, 2, 3]
        assert lines[-1]["stopped"] == "interrupted" and lines[-1]["count"] == 3
    else:
        assert text.count("# solution ") == 3 and "# solution 3\n" in text


# bounded solver output ---------------------------------------------------------------------------------
def _fake(env, name: str, body: str) -> None:
    exe = Path(env["PATH"].split(os.pathsep)[0]) / name
    exe.write_text("#!/bin/sh\n" + body)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)


def _limited(args, env, memory: int = 2**30, wait: float = 60):
    """Run mineconv with its address space capped (RLIMIT_AS) and a wall-clock bound."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "mineconv", *map(str, args)], env=env, capture_output=True,
                       text=True, timeout=wait, preexec_fn=cap)
    return r, time.monotonic() - t0


@pytest.mark.parametrize("solver, program", [("minisat", "minisat"), ("z3", "z3"), ("gecode", "minizinc"),
                                             ("clingo", "clingo")])
def test_a_solver_printing_forever_is_stopped_in_bounded_memory(tmp_path, env, solver, program):
    _fake(env, program, "exec yes 'c still thinking, still thinking, still thinking'\n")
    for extra in ([], ["--all"]) if solver in NATIVE else ([],):
        r, took = _limited(["solve", _board(tmp_path, BOARDS["two"]), "--solver", solver, *extra], env)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
        assert "printed more than 64 MB" in r.stderr and "mineconv stopped it" in r.stderr
        assert took < 60   # generous: the machine is shared; memory is the point
        assert _no_solver_left(Path(env["TMPDIR"]))


def test_an_answer_file_past_the_cap_is_not_read(tmp_path, env):
    # a "minisat" writing a 70 MB result file: refused without reading it all
    _fake(env, "minisat", 'for last; do :; done\nhead -c 70000000 /dev/zero | tr "\\0" v > "$last"\n')
    r, _ = _limited(["solve", _board(tmp_path, BOARDS["two"]), "--solver", "minisat"], env)
    assert r.returncode == 2 and "wrote an answer file of more than 64 MB" in r.stderr, r.stderr[-2000:]


def test_the_output_cap_scales_with_the_board():
    small, big = Puzzle(3, 3, "?" * 9), Puzzle(1000, 1000, "?" * 10**6)
    assert process.answer_cap(small) == process.OUTPUT_CAP
    assert process.answer_cap(big) == process.ANSWER_BYTES_PER_CELL * 10**6 > process.OUTPUT_CAP
    # auxiliary variables (a total's cardinality encoding) are in the model file: it raises the cap too
    assert process.answer_cap(small, 10**9) == process.ANSWER_BYTES_PER_CELL * 9 + 2 * 10**9


# -v says what read the inputs -------------------------------------------------------------------------
def test_solve_v_names_the_notation(tmp_path, capsys):
    board = _board(tmp_path, BOARDS["two"])
    rc, _, err = run_cli(capsys, "solve", board, "-v")
    assert rc == 0 and f"mineconv: read {board} as native (detected from the content)" in err
    dots = tmp_path / "b.dots"
    dots.write_text("1..\n12.\n01.\n")
    rc, _, err = run_cli(capsys, "solve", dots, "-v", "--from", "dots", "--all")
    assert rc == 0 and f"read {dots} as dots (named with --from)" in err
    assert "enumerating with pysat (blocking each solution found)" in err
    cnf = tmp_path / "b.cnf"
    assert run_cli(capsys, "convert", board, cnf)[0] == 0
    rc, _, err = run_cli(capsys, "solve", cnf, "-v")
    assert rc == 0 and f"read {cnf} from its mineconv header" in err
    rc, _, err = run_cli(capsys, "solve", board)
    assert "read " not in err   # without -v, nothing of it


def test_decode_v_names_the_puzzle_notation_and_the_answer_format(tmp_path, capsys):
    board = _board(tmp_path, BOARDS["one"])
    cnf = tmp_path / "b.cnf"
    assert run_cli(capsys, "convert", board, cnf)[0] == 0
    answer = tmp_path / "b.out"
    mines = {tuple(m) for m in solving.solve(BOARDS["one"]).mines}
    ids = [i + 1 for i, rc in enumerate(BOARDS["one"].unknown_cells)]
    answer.write_text("SAT\n" + " ".join(str(i if tuple(rc) in mines else -i) for i, rc in
                                           zip(ids, BOARDS["one"].unknown_cells)) + " 0\n")
    rc, _, err = run_cli(capsys, "decode", cnf, answer, "-v")
    assert rc == 0, err
    assert f"read {cnf} from its mineconv header" in err
    assert f"read the answer {answer} as minisat (detected from the content: confidence" in err
    rc, _, err = run_cli(capsys, "decode", board, answer, "-v", "--answer-from", "minisat")
    assert rc == 0 and f"read {board} as native (detected from the content)" in err
    assert f"read the answer {answer} as minisat (named with --answer-from)" in err
