"""solve within bounds: --timeout values, the whole-run clock, process groups, signals, capped output, --all.

Signal tests run `mineconv` as a subprocess with fake solvers (shell scripts put first on PATH) that write
their pids to files, so each test can check that no process and no mineconv-* temp folder is left.
"""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mineconv.formats.notations.native import canonical_text
from mineconv.core.puzzle import Puzzle
from mineconv.solvers import process, solving, table

from helpers import SAMPLES, require_module, require_tool, run_cli

UNIQUE = Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"])
TWO = Puzzle.from_rows(["1??", "12?", "01?"])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it no longer runs
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


def _gone(pids, wait: float = 5.0) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def _pids(folder: Path):
    return [int(p.read_text()) for p in folder.glob("*.pid") if p.read_text().strip()]


def _fake(folder: Path, name: str, body: str) -> None:
    folder.mkdir(exist_ok=True)
    exe = folder / name
    exe.write_text("#!/bin/sh\n" + body)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)


# a "minisat" that starts a grandchild (as a wrapper script would) and sleeps; both write their pids
FORKING = 'sleep 300 & echo $! > "$PIDS/child.pid"\necho $$ > "$PIDS/solver.pid"\nexec sleep 300\n'


@pytest.fixture
def env(tmp_path):
    """Environment of a mineconv subprocess: fake solvers first on PATH, its own TMPDIR, a pid folder."""
    pids = tmp_path / "pids"
    pids.mkdir()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    e = dict(os.environ, PATH=f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}", TMPDIR=str(tmp),
             PIDS=str(pids))
    yield e
    for pid in _pids(pids):   # whatever a failing test left behind, with its process group
        try:
            group = os.getpgid(pid)
            if group != os.getpgrp():
                os.killpg(group, signal.SIGKILL)
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _board(tmp_path: Path, puzzle: Puzzle = TWO) -> Path:
    p = tmp_path / "b.txt"
    p.write_text(canonical_text(puzzle))
    return p


def _mineconv(*args, env, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "mineconv", *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _wait_for(path: Path, proc: subprocess.Popen, wait: float = 20.0) -> None:
    end = time.monotonic() + wait
    while not (path.exists() and path.read_text().strip()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the fake solver never started"
        time.sleep(0.05)


# --timeout --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-5", "1e300", "abc", ""])
def test_timeout_accepts_only_finite_positive_seconds(tmp_path, value):
    p = _board(tmp_path)
    r = subprocess.run([sys.executable, "-m", "mineconv", "solve", str(p), "--timeout", value],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert "--timeout" in r.stderr and "Traceback" not in r.stderr


def test_library_refuses_a_timeout_without_meaning():
    for bad in (float("nan"), float("inf"), 0, -5):
        with pytest.raises(ValueError, match="finite number of seconds"):
            solving.solve(UNIQUE, timeout=bad)


def test_pulp_cbc_with_a_time_limit_never_says_infeasible(tmp_path, capsys):
    require_module("pulp")
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, UNIQUE), "--solver", "pulp-cbc", "--timeout", "30",
                           "--json")
    data = json.loads(out)
    assert rc == 0 and data["status"] == "solved" and data["unique"] is True, err
    assert data["mines"] == solving.solve(UNIQUE).mines


def test_the_timeout_covers_building_the_model(tmp_path, capsys):
    # 14400 unknown cells, 4000 mines: the CNF's total-count encoding alone takes seconds and GBs
    big = Puzzle(120, 120, "?" * 14400, mines=4000)
    p = _board(tmp_path, big)
    for solver in ("pysat", "minisat"):
        t0 = time.monotonic()
        rc, out, _ = run_cli(capsys, "solve", p, "--solver", solver, "--timeout", "0.01", "--json")
        assert time.monotonic() - t0 < 5
        data = json.loads(out)
        if solver == "minisat":   # it needs the file, total and all: refused before anything is built
            assert rc == 1 and data["status"] == "unknown" and "too short to build" in data["why"], data
            assert data["unique"] is None
        elif rc == 1:   # the embedded solver builds the total only if no guess answers: the clock ran out first
            assert data["status"] == "unknown" and "ran out" in data["why"], data
        else:   # or, on a fast machine, a guess answered in time
            assert rc == 0 and data["status"] == "solved", data


def test_the_embedded_solver_is_not_refused_a_total_it_never_builds(tmp_path, capsys):
    # the same board with 0.5 s: the total's encoding would take longer (refused before the solver guessed), but a
    # guess needs none of it: 4000 mines on cells next to no count, and moving one gives another solution
    p = _board(tmp_path, Puzzle(120, 120, "?" * 14400, mines=4000))
    t0 = time.monotonic()
    rc, out, _ = run_cli(capsys, "solve", p, "--timeout", "0.5", "--json")
    assert time.monotonic() - t0 < 5
    data = json.loads(out)
    assert rc == 0 and data["status"] == "solved" and data["unique"] is False and len(data["mines"]) == 4000, data


# uniqueness ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["pysat", "minisat", "cbc", "glpsol"])
def test_solve_says_whether_the_solution_is_unique(tmp_path, capsys, solver):
    spec = table.get_solver(solver)
    if spec.program:
        require_tool(spec.program)
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, TWO), "--solver", solver)
    assert rc == 0 and "not unique" in err and out.count("*") == 2
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, TWO), "--solver", solver, "--json")
    assert json.loads(out)["unique"] is False and err == ""
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, UNIQUE), "--solver", solver, "--json")
    assert json.loads(out)["unique"] is True
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path, UNIQUE), "--solver", solver)
    assert rc == 0 and "unique" not in err
    rc, out, _ = run_cli(capsys, "solve", _board(tmp_path, Puzzle.from_rows(["?1?", "?0?", "???"])), "--json")
    assert rc == 1 and json.loads(out)["unique"] is False


# processes and temp folders --------------------------------------------------------------------------
def test_timeout_kills_the_whole_process_group_and_removes_the_folder(tmp_path, env):
    _fake(tmp_path / "bin", "minisat", FORKING)
    proc = _mineconv("solve", _board(tmp_path), "--solver", "minisat", "--timeout", "1", "--json", env=env)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and json.loads(out)["status"] == "unknown", err
    pids = _pids(Path(env["PIDS"]))
    assert len(pids) == 2 and _gone(pids), "the solver or its child survived"
    assert list(Path(env["TMPDIR"]).iterdir()) == []


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_signals_stop_the_solver_and_remove_the_folder(tmp_path, env, sig, status):
    _fake(tmp_path / "bin", "minisat", FORKING)
    proc = _mineconv("solve", _board(tmp_path), "--solver", "minisat", env=env)
    try:
        _wait_for(Path(env["PIDS"]) / "solver.pid", proc)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status, err
    assert "Traceback" not in err and out == ""
    assert _gone(_pids(Path(env["PIDS"]))), "the solver or its child survived mineconv"
    assert list(Path(env["TMPDIR"]).iterdir()) == []


def test_a_solver_that_prints_forever_is_stopped(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(process, "OUTPUT_CAP", 2**20)
    _fake(tmp_path / "bin", "chatty", f'echo $$ > "{tmp_path}/chatty.pid"\nexec yes "c still thinking"\n')
    monkeypatch.setitem(table.SOLVERS, "chatty", table.SolverSpec(
        "chatty", "prints forever", "cnf", ".cnf", str(tmp_path / "bin" / "chatty"), "none", "competition",
        None, lambda m, a, t: [m]))
    t0 = time.monotonic()
    # the timeout only bounds the test should the cap ever fail: the cap must stop the solver first
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path), "--solver", "chatty", "--timeout", "15")
    assert rc == 2 and out == "" and "printed more than 1 MB" in err
    assert time.monotonic() - t0 < 20
    assert _gone([int((tmp_path / "chatty.pid").read_text())])


def test_a_real_solver_leaves_no_temp_folder(tmp_path, env):
    require_tool("minisat")
    proc = _mineconv("solve", _board(tmp_path, UNIQUE), "--solver", "minisat", "--json", env=env)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and json.loads(out)["unique"] is True, err
    assert list(Path(env["TMPDIR"]).iterdir()) == []


# enumeration -----------------------------------------------------------------------------------------
def test_all_streams_as_json_lines_with_a_summary(tmp_path, capsys):
    rc, out, err = run_cli(capsys, "solve", _board(tmp_path), "--all", "--jsonl")
    lines = [json.loads(ln) for ln in out.splitlines()]
    assert rc == 0 and err == ""
    assert [ln["solution"] for ln in lines[:-1]] == [1, 2]
    assert sorted(ln["mines"] for ln in lines[:-1]) == [[[0, 1], [1, 2]], [[0, 1], [2, 2]]]
    assert lines[-1] == {"status": "solved", "count": 2, "complete": True, "stopped": None, "solver": "pysat",
                         "total_solutions": 2, "total_solutions_str": "2",
                         "total_solutions_log10": lines[-1]["total_solutions_log10"]}


def test_all_stops_at_the_default_limit_and_says_so(capsys):
    rc, out, err = run_cli(capsys, "solve", SAMPLES / "kaye-splitter.txt", "--all")
    assert rc == 0 and out.count("# solution") == 1000
    assert "stopped at the limit 1000 of 131072" in err


def test_all_refuses_astronomical_counts_unless_forced(tmp_path, capsys):
    open_board = _board(tmp_path, Puzzle(5, 6, "?" * 30))   # 2^30 solutions
    rc, out, err = run_cli(capsys, "solve", open_board, "--all")
    assert rc == 2 and out == "" and "1073741824 solutions" in err and "--force" in err
    rc, out, err = run_cli(capsys, "solve", open_board, "--all", "--force", "--limit", "3", "--json")
    data = json.loads(out)
    assert rc == 0 and data["count"] == 3 and data["complete"] is False and data["stopped"] == "limit"
    assert data["total_solutions_str"] == str(2**30)
    rc, out, _ = run_cli(capsys, "solve", open_board, "--limit", "2")   # no --all: the first two, no count
    assert rc == 0 and out.count("# solution") == 2


def test_the_timeout_bounds_the_whole_enumeration(tmp_path, capsys):
    t0 = time.monotonic()
    rc, out, err = run_cli(capsys, "solve", SAMPLES / "kaye-splitter.txt", "--all", "--limit", "1000000",
                           "--timeout", "1", "--jsonl")
    assert time.monotonic() - t0 < 6
    summary = json.loads(out.splitlines()[-1])
    assert rc == 0 and summary["stopped"] == "timeout" and summary["complete"] is False
    assert summary["count"] == len(out.splitlines()) - 1 > 0
    assert "stopped by the time limit" in err


def test_ctrl_c_keeps_what_was_printed(tmp_path, env):
    proc = _mineconv("solve", _board(tmp_path, Puzzle(6, 6, "?" * 36)), "--all", "--force", "--limit", "100000000",
                     "--jsonl", env=env)
    try:
        first = proc.stdout.readline()   # streamed: the first solution comes before the run ends
        assert json.loads(first)["solution"] == 1
        proc.send_signal(signal.SIGINT)
        # read on through the same buffered stream: communicate() reads the raw pipe and would lose
        # whatever readline() had already buffered past the first line
        killer = threading.Timer(30, proc.kill)
        killer.start()
        try:
            rest = proc.stdout.read()
            err = proc.stderr.read()
            proc.wait()
        finally:
            killer.cancel()
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = [json.loads(ln) for ln in (first + rest).splitlines()]
    assert proc.returncode == 130 and "Traceback" not in err
    assert lines[-1]["stopped"] == "interrupted" and lines[-1]["count"] == len(lines) - 1


def test_analyze_json_counts_past_2_53_as_a_string_too(capsys):
    rc, out, _ = run_cli(capsys, "analyze", SAMPLES / "kaye-splitter.txt", "--json")
    data = json.loads(out)
    assert data["solutions"] == 131072 and data["solutions_str"] == "131072"
    assert abs(data["solutions_log10"] - 17 * 0.30103) < 1e-3
    p = Puzzle(8, 8, "?" * 64)   # 2^64 solutions: past what a double holds exactly
    from mineconv.analysis import analyze
    data = json.loads(json.dumps(analyze(p).to_json()))
    assert data["solutions_str"] == str(2**64) and int(data["solutions_str"]) == 2**64
