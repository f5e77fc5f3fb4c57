"""Hostile input (issue 13): every case is exit status 2 with FILE:LINE:COL, never a traceback.

Each case runs `mineconv` as a subprocess under a memory limit (RLIMIT_AS) and a time limit, and checks
the exit status, the located message, that no traceback is printed, that no output file (or hidden
`.part`) is left, and that the inputs are byte for byte what they were.
"""
from __future__ import annotations

import hashlib
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional

import pytest

from helpers import SAMPLES

MEMORY = 1 << 30   # 1 GiB of address space: a reader that allocates what a header claims dies here
SECONDS = 60
BIG = "9" * 5000   # past int()'s 4,300-digit limit
LOCATED = re.compile(r"^mineconv: .+:\d+:\d+: ", re.M)


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(args: List[str], stdin: Optional[bytes] = None, cwd: Optional[Path] = None,
        stdin_file: Optional[str] = None) -> subprocess.CompletedProcess:
    """mineconv ARGS under the memory and time limits; stdin from bytes, a file, or nothing."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    fh = open(stdin_file, "rb") if stdin_file else None
    try:
        return subprocess.run([sys.executable, "-m", "mineconv", *args], input=stdin,
                              stdin=fh if fh else (None if stdin is not None else subprocess.DEVNULL),
                              capture_output=True, timeout=SECONDS, preexec_fn=_limits, cwd=cwd, env=env)
    finally:
        if fh:
            fh.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(proc: subprocess.CompletedProcess, located: bool = True) -> str:
    """Assert exit 2, one message (located when asked), no traceback; return stderr."""
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err[-3000:]
    assert proc.returncode == 2, (proc.returncode, err[-2000:])
    assert err.startswith("mineconv"), err[:500]
    if located:
        assert LOCATED.search(err), err[:500]
    assert len(err) < 5000, f"a {len(err)}-character message"   # an echoed line is cut short
    return err


def convert_refuses(tmp_path: Path, name: str, content, fmt: Optional[str] = None,
                    located: bool = True, extra: tuple = ()) -> str:
    """`convert IN -o OUT --to cnf` refuses the input: exit 2, located, no output, input untouched."""
    src = tmp_path / name
    if isinstance(content, str):
        src.write_text(content, encoding="utf-8")
    else:
        src.write_bytes(content)
    before = digest(src)
    out = tmp_path / "out.cnf"
    args = ["convert", str(src), "-o", str(out), "--to", "cnf", *extra]
    if fmt:
        args += ["--from", fmt]
    err = refused(run(args), located)
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    assert digest(src) == before
    return err


HUGE_NUMBERS = [
    ("native-mines", "p.txt", f"mines: {BIG}\n??\n??\n", None),
    ("native-rows", "p.txt", f"rows: {BIG}\n??\n??\n", None),
    ("mine-header", "p.mine", f"2x2x{BIG}\nHH\nHH\n", None),
    ("mine-width", "p.mine", f"{BIG}x2x1\nHH\nHH\n", None),
    ("json-number", "p.json", '{"format": "mineconv", "version": 1, "grid": ["??"], "mines": %s}' % BIG, "json"),
    ("pred-json-rows", "p.pred.json", '{"type": "Minesweeper", "variant": {}, "data": {"rows": %s, "cols": 1, '
     '"revealed": [], "unrevealed": [[0, 0]]}}' % BIG, None),
    ("dzn", "p.dzn", f"r = {BIG};\nc = 2;\ngame = array2d(1..r, 1..c, [-1,-1]);\n", None),
    ("essence", "p.param", f"letting r be {BIG}\nletting c be 1\nletting game be [[-1]]\n", None),
    ("asp-facts-const", "p.facts", f"#const r = {BIG}.\n#const c = 2.\nnumber(1,1,1).\n", None),
    ("asp-facts-count", "p.facts", f"#const r = 2.\n#const c = 2.\nnumber(1,1,{BIG}).\n", None),
    ("int-matrix", "p.matrix", f"[[{BIG}, -1], [-1, -1]]\n", None),
    ("int-matrix-64bit", "p.matrix", "[[99999999999999999999999, -1], [-1, -1]]\n", None),
    ("int-csv", "p.csv", f"{BIG},-1\n-1,-1\n", None),
    ("tatham-width", "p.txt", f"{BIG}x3:1,1,m0\n", "tatham-mines"),
    ("ms-board-columns", "p.board", f"MINESWEEPER-BOARD v0.1\ncolumns: {BIG}\n", "ms-board"),
]


@pytest.mark.parametrize("case,name,content,fmt", HUGE_NUMBERS, ids=[c[0] for c in HUGE_NUMBERS])
def test_a_number_past_int_limits_is_a_located_error(tmp_path, case, name, content, fmt):
    convert_refuses(tmp_path, name, content, fmt)


UNICODE_DIGITS = [
    ("native-mines-arabic", "p.txt", "mines: ٣\n??\n??\n", None),
    ("native-mines-fullwidth", "p.txt", "mines: １\n??\n??\n", None),
    ("mine-fullwidth", "p.mine", "2x2x１\nHH\nHH\n", None),
    ("dots-superscript", "p.dots", "3²\n3\n...\n...\n...\n", "dots"),
    ("dat-arabic", "p.dat", "param r := ٣;\nparam c := 1;\nparam game : 1 :=\n1 .\n;\nend;\n", "dat"),
    ("dzn-arabic", "p.dzn", "r = ٢;\nc = 1;\ngame = array2d(1..r, 1..c, [-1,-1]);\n", "dzn"),
]


@pytest.mark.parametrize("case,name,content,fmt", UNICODE_DIGITS, ids=[c[0] for c in UNICODE_DIGITS])
def test_only_ascii_digits_are_numbers(tmp_path, case, name, content, fmt):
    convert_refuses(tmp_path, name, content, fmt)


NESTED = [
    ("int-matrix", "p.matrix", "[" * 100_000 + "1" + "]" * 100_000, "int-matrix"),
    ("dzn", "p.dzn", "r = 1;\nc = 1;\ngame = " + "[" * 100_000 + "-1" + "]" * 100_000 + ";\n", "dzn"),
    ("essence", "p.param", "letting r be 1\nletting c be 1\nletting game be " + "[" * 100_000 + "-1"
     + "]" * 100_000 + "\n", "essence"),
    ("json", "p.json", "[" * 100_000 + "]" * 100_000, "json"),
    ("pred-json", "p.pred.json", "[" * 100_000 + "]" * 100_000, "pred-json"),
]


@pytest.mark.parametrize("case,name,content,fmt", NESTED, ids=[c[0] for c in NESTED])
def test_deep_nesting_is_a_located_error(tmp_path, case, name, content, fmt):
    convert_refuses(tmp_path, name, content, fmt)


@pytest.mark.parametrize("claim", ["50000, \"cols\": 50000", "1000000000, \"cols\": 1000000000"])
def test_a_header_claiming_a_huge_board_allocates_nothing(tmp_path, claim):
    doc = '{"type": "Minesweeper", "variant": {}, "data": {"rows": %s, "revealed": [], "unrevealed": [[0,0]]}}'
    err = convert_refuses(tmp_path, "p.pred.json", doc % claim)
    assert "--max-cells" in err


def test_max_cells_is_the_users_to_set(tmp_path):
    src = tmp_path / "p.txt"
    src.write_text((SAMPLES / "dusautoy-6x6.txt").read_text())
    err = refused(run(["info", str(src), "--max-cells", "35"]), located=False)
    assert "6 x 6" in err and "--max-cells" in err
    assert run(["info", str(src), "--max-cells", "36"]).returncode == 0


def test_dev_zero_is_read_no_further_than_the_limit():
    t0 = time.perf_counter()
    err = refused(run(["info", "/dev/zero"]))
    assert "--max-bytes" in err
    assert time.perf_counter() - t0 < SECONDS


def test_an_endless_stdin_stops_at_the_limit():
    yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        err = refused(run(["info", "-", "--max-bytes", "1000000"], stdin_file=f"/dev/fd/{yes.stdout.fileno()}"))
    finally:
        yes.kill()
        yes.wait()
    assert "<stdin>:500001:1:" in err and "1000000 bytes" in err


def test_a_long_line_of_garbage_is_refused_fast_and_echoed_short(tmp_path):
    garbage = ("\u00a7" + "x7#" * 4_000_000).encode()   # 12 MB on one line
    t0 = time.perf_counter()
    err = convert_refuses(tmp_path, "p.txt", garbage)
    assert time.perf_counter() - t0 < 30
    assert max(len(line) for line in err.splitlines()) < 400, err[:1000]


def test_max_bytes_refuses_a_larger_file_at_its_position(tmp_path):
    err = convert_refuses(tmp_path, "p.txt", (SAMPLES / "dusautoy-6x6.txt").read_text(),
                          extra=("--max-bytes", "100"))
    assert ":2:" in err and "past 100 bytes" in err


# --- solver answers: `decode PUZZLE ANSWER --from NAME` --------------------------------------------------

ANSWERS = [
    ("minisat-huge", "minisat", f"SAT\n1 -{BIG} 0\n"),
    ("minisat-64bit", "minisat", "SAT\n1 -99999999999999999999999 0\n"),
    ("minisat-arabic", "minisat", "SAT\n1 -٣ 0\n"),
    ("competition-huge", "competition", f"s SATISFIABLE\nv 1 -{BIG} 0\n"),
    ("competition-fullwidth", "competition", "s SATISFIABLE\nv 1 -２ 0\n"),
    ("glpsol-raw-64bit", "glpsol-raw", "s mip 1 1 o 0\nj 99999999999999999999999 1\ne o f\n"),
    ("glpsol-raw-arabic", "glpsol-raw", "s mip 1 ١ o 0\nj 1 1\ne o f\n"),
    ("cbc-index", "cbc", f"Optimal - objective value 0\n {BIG} x0 1 0\n"),
    ("gurobi-json-vars-int", "gurobi-json", '{"SolutionInfo": {"Status": 2, "SolCount": 1}, "Vars": 5}'),
    ("gurobi-json-vars-null", "gurobi-json", '{"SolutionInfo": {"Status": 2, "SolCount": 1}, "Vars": null}'),
    ("gurobi-json-nested", "gurobi-json", "[" * 100_000 + "]" * 100_000),
    ("smt2-nested", "smt2-model", "sat\n(model (define-fun x0 () Int " + "(- " * 50_000 + "1" + ")" * 50_000
     + "))\n"),
    ("smt2-arabic-name", "smt2-model", "sat\n(model (define-fun x٠_٠ () Int 1))\n"),
]


@pytest.mark.parametrize("case,fmt,content", ANSWERS, ids=[c[0] for c in ANSWERS])
def test_a_hostile_answer_is_a_located_error(tmp_path, case, fmt, content):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text((SAMPLES / "seed-3x3.txt").read_text())
    answer = tmp_path / "answer.out"
    answer.write_text(content, encoding="utf-8")
    before = digest(puzzle), digest(answer)
    refused(run(["decode", str(puzzle), str(answer), "--from", fmt]))
    assert (digest(puzzle), digest(answer)) == before


def test_cplex_status_past_int_limits(tmp_path):
    text = (Path(__file__).parent / "fixtures" / "outputs" / "cplex" / "feas_lp.sol").read_text()
    puzzle = tmp_path / "p.txt"
    puzzle.write_text((SAMPLES / "seed-3x3.txt").read_text())
    answer = tmp_path / "a.sol"
    answer.write_text(text.replace('solutionStatusValue="101"', f'solutionStatusValue="{BIG}"'))
    refused(run(["decode", str(puzzle), str(answer), "--from", "cplex"]))


# --- batch ---------------------------------------------------------------------------------------------

def test_batch_j_has_an_upper_bound(tmp_path):
    err = refused(run(["batch", str(SAMPLES / "seed-3x3.txt"), "-o", str(tmp_path / "out"), "-t", "cnf",
                       "-j", "100000"]), located=False)
    assert "-j" in err
    assert not (tmp_path / "out").exists()


def test_batch_refuses_a_bad_card_encoding_once_up_front(tmp_path):
    inputs = [str(SAMPLES / n) for n in ("seed-3x3.txt", "dusautoy-6x6.txt", "expert-16x30.txt")]
    err = refused(run(["batch", *inputs, "-o", str(tmp_path / "out"), "-t", "cnf", "--card-encoding", "nope"]),
                  located=False)
    assert err.count("nope") == 1, err
    assert not (tmp_path / "out").exists()


def test_batch_reads_a_binary_notation(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "board.mbf").write_bytes((SAMPLES / "tatham-9x9n10.mbf").read_bytes())
    (src / "bad.txt").write_bytes(b"\xff\xfe??\n")
    proc = run(["batch", str(src), "-o", str(tmp_path / "out"), "-t", "cnf", "-j", "1"])
    err = proc.stderr.decode()
    assert proc.returncode == 1, err          # bad.txt fails, board.mbf converts
    assert (tmp_path / "out" / "board.cnf").is_file()
    assert "bad.txt:1:1: not UTF-8 text" in err and "Traceback" not in err
