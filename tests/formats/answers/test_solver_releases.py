"""Answers of today's solver releases from PyPI, read beside Debian's where both install.

Each solver that pip installs as a wheel runs on files mineconv wrote (a board with two solutions, one with
one, one with none), writes its own answer file, and `mineconv decode` must read it and verify the mines:
HiGHS (highspy: no `highs` program, the answer is Highs.writeSolution in every style), CBC (the program PuLP
bundles, beside Debian's coinor-cbc), SCIP (pyscipopt's writeBestSol), Gurobi (gurobipy's `.sol` and JSON,
under its size-limited pip licence) and OR-Tools CP-SAT (the response of mineconv.to_cpsat's model, as text
and as JSON). Missing modules skip with the reason locally and fail under CI=true (pyproject's test extra
installs them). The answers of one run of each are kept in tests/fixtures/captured/ and read without the
solver, so a reader change that breaks today's output fails even where the solver is absent.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers import FIXTURES, IN_CI, ROOT, SAMPLES, mine_sets, require_module, require_tool, run_cli
from mineconv import parse, write

BOARDS = {"one": (SAMPLES / "dusautoy-6x6.txt").read_text(), "two": (SAMPLES / "seed-3x3.txt").read_text(),
          "none": "mines: 3\n1?\n??\n"}
CAPTURED = FIXTURES / "captured"
# HiGHS writeSolution styles: raw, pretty, glpsol's raw clone, glpsol's report clone, sparse
HIGHS_STYLES = {0: "highs", 1: "highs", 2: "glpsol-raw", 3: "glpsol-report", 4: "highs"}


def _decode(capsys, model: Path, answer: Path, board: str, reader: str) -> None:
    """decode must read the answer with `reader` and give a verified solution of the board (or none)."""
    status, text, err = run_cli(capsys, "decode", model, answer, "--json")
    result = json.loads(text) if text else {}
    assert result.get("format") == reader, err or text
    if board == "none":
        assert status == 1 and result["status"] == "infeasible", err
    else:
        assert status == 0 and result["status"] == "solved", err
        assert frozenset(map(tuple, result["mines"])) in mine_sets(parse(BOARDS[board]))


def _model(tmp_path: Path, board: str, ext: str) -> Path:
    path = tmp_path / f"{board}{ext}"
    write(parse(BOARDS[board]), path)
    return path


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("ext", [".lp", ".mps"])
def test_highspy_solution_files_in_every_style(tmp_path, capsys, board, ext):
    highspy = require_module("highspy")
    model = _model(tmp_path, board, ext)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(model)) == highspy.HighsStatus.kOk
    h.run()
    for style, reader in HIGHS_STYLES.items():
        answer = tmp_path / f"style{style}.sol"
        h.writeSolution(str(answer), style)
        _decode(capsys, model, answer, board, reader)


def test_highspy_solution_file_option_as_the_highs_program_takes_it(tmp_path, capsys):
    # `highs --solution_file F --write_solution_style 1` sets these options; highspy takes the same ones
    highspy = require_module("highspy")
    model = _model(tmp_path, "two", ".lp")
    h = highspy.Highs()
    for option, value in (("output_flag", False), ("solution_file", str(tmp_path / "out.sol")),
                          ("write_solution_to_file", True), ("write_solution_style", 1)):
        h.setOptionValue(option, value)
    h.readModel(str(model))
    h.run()
    _decode(capsys, model, tmp_path / "out.sol", "two", "highs")


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("ext", [".lp", ".mps"])
def test_pulp_bundled_cbc_and_debian_cbc_solution_files(tmp_path, capsys, board, ext):
    require_module("pulp")
    from pulp.apis import coin_api

    bundled = coin_api.pulp_cbc_path   # the program PuLP ships (PULP_CBC_CMD, deprecated, runs it)
    model = _model(tmp_path, board, ext)
    for name, program in (("pulp", bundled), ("debian", require_tool("cbc"))):
        answer = tmp_path / f"{name}.sol"
        subprocess.run([program, model.name, "solve", "solu", answer.name], cwd=tmp_path, capture_output=True,
                       timeout=120)
        _decode(capsys, model, answer, board, "cbc")


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("ext", [".lp", ".mps"])
def test_pyscipopt_best_solution_file(tmp_path, capsys, board, ext):
    pyscipopt = require_module("pyscipopt")
    model = _model(tmp_path, board, ext)
    m = pyscipopt.Model()
    m.hideOutput()
    m.readProblem(str(model))
    m.optimize()
    m.writeBestSol(str(tmp_path / "best.sol"))   # 'no solution available' when infeasible
    _decode(capsys, model, tmp_path / "best.sol", board, "scip")


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("ext", [".lp", ".mps"])
def test_gurobipy_sol_and_json_files(tmp_path, capsys, board, ext):
    gurobipy = require_module("gurobipy")
    model = _model(tmp_path, board, ext)
    env = gurobipy.Env(params={"OutputFlag": 0})
    m = gurobipy.read(str(model), env)
    m.optimize()
    if board == "none":
        # Gurobi writes no solution file without a solution: the status is the only answer
        assert m.Status == gurobipy.GRB.INFEASIBLE and m.SolCount == 0
        return
    for suffix, reader in ((".sol", "gurobi"), (".json", "gurobi-json")):
        m.write(str(tmp_path / f"answer{suffix}"))
        _decode(capsys, model, tmp_path / f"answer{suffix}", board, reader)


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_ortools_cpsat_response_as_text_and_json(tmp_path, capsys, board):
    require_module("ortools")
    from google.protobuf import json_format, text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model

    from mineconv import to_cpsat

    puzzle_file = tmp_path / "board.txt"
    puzzle_file.write_text(BOARDS[board])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.solve(to_cpsat(parse(BOARDS[board])))
    # since 9.15 the response is not a protobuf message (no DESCRIPTOR): str() is its text format, and
    # JSON goes through the message class
    text = str(solver.response_proto)
    (tmp_path / "response.txt").write_text(text)
    message = text_format.Parse(text, cp_model_pb2.CpSolverResponse())
    (tmp_path / "response.json").write_text(json_format.MessageToJson(message))
    for name in ("response.txt", "response.json"):
        _decode(capsys, puzzle_file, tmp_path / name, board, "cpsat-response")


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_debian_minizinc_json_stream_and_merged_stderr(tmp_path, capsys, board):
    # Debian's MiniZinc 2.6.4, in the output forms a user saves besides plain stdout (--json-stream; 2>&1,
    # which puts its warnings first); today's 2.10 runs below from npm
    minizinc = require_tool("minizinc")
    model = _model(tmp_path, board, ".mzn")
    for name, flags, merged in (("stream.jsonl", ["--json-stream", "-a"], False),
                                ("stream-json.jsonl", ["--json-stream", "--output-mode", "json"], False),
                                ("merged.out", [], True)):
        proc = subprocess.run([minizinc, "--solver", "gecode", *flags, model.name], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        (tmp_path / name).write_text(proc.stderr + proc.stdout if merged else proc.stdout)
        _decode(capsys, model, tmp_path / name, board, "minizinc-answer")


# MiniZinc's current release with Gecode, Chuffed, COIN-BC and HiGHS: the WebAssembly build the npm package
# `minizinc` carries, run under Node by tests/tools/minizinc_wasm.cjs (.ci/run installs it into .ci/npm)
MINIZINC_JS = Path(os.environ.get("MINECONV_MINIZINC_JS", ROOT / ".ci" / "npm" / "node_modules" / "minizinc" / "dist"))
WASM_RUNNER = ROOT / "tests" / "tools" / "minizinc_wasm.cjs"
# (board, solver, flags, how stderr joins the saved output: None not at all, "before" or "after" stdout); a
# run compiles the 17 MB module (~3 s of CPU), so every form is run on one board and two forms on all
WASM_RUNS = [(b, "gecode", ["-a"], None) for b in sorted(BOARDS)] + \
    [(b, "cbc", ["-a"], "before") for b in sorted(BOARDS)] + \
    [("two", "gecode", ["--json-stream", "-a"], None), ("two", "gecode", ["--json-stream", "--output-mode", "json"], None),
     ("two", "chuffed", ["-a"], "before"), ("two", "cbc", ["-a"], "after"), ("two", "highs", [], "after")]


def _minizinc_wasm() -> str:
    """node, once the npm package's MiniZinc is there (a skip with the reason locally, a failure under CI)."""
    node = require_tool("node")
    if not (MINIZINC_JS / "minizinc.wasm").is_file():
        msg = f"the npm package minizinc is not installed in {MINIZINC_JS} (.ci/run installs it)"
        if IN_CI:
            pytest.fail(msg + " -- under CI=true this is a failure")
        pytest.skip(msg)
    return node


def test_todays_minizinc_is_the_one_run():
    node = _minizinc_wasm()
    proc = subprocess.run([node, str(WASM_RUNNER), str(MINIZINC_JS), "--", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "version 2.10" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("board, solver, flags, merged", WASM_RUNS,
                         ids=[f"{b}-{s}{''.join(f)}-{m}" for b, s, f, m in WASM_RUNS])
def test_todays_minizinc_answers_decode(tmp_path, capsys, board, solver, flags, merged):
    node = _minizinc_wasm()
    model = _model(tmp_path, board, ".mzn")
    proc = subprocess.run([node, str(WASM_RUNNER), str(MINIZINC_JS), str(model), "--", "--solver", solver, *flags,
                           model.name], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = {None: proc.stdout, "before": proc.stderr + proc.stdout, "after": proc.stdout + proc.stderr}[merged]
    (tmp_path / "answer.out").write_text(text)
    _decode(capsys, model, tmp_path / "answer.out", board, "minizinc-answer")


CAPTURED_ANSWERS = [
    ("seed-3x3.highs-1.16-raw.sol", "highs"),      # highspy 1.16.0 writeSolution(path, 0)
    ("seed-3x3.highs-1.16-pretty.sol", "highs"),   # style 1
    ("seed-3x3.highs-1.16-sparse.sol", "highs"),   # style 4: '# Columns -2 sparse' since 1.16
    ("seed-3x3.pulp-cbc-2.10.3.sol", "cbc"),       # the CBC PuLP 3.3.2 bundles
    ("seed-3x3.scip-10.sol", "scip"),              # pyscipopt 6.3.0 (SCIP 10.0) writeBestSol
    ("seed-3x3.gurobi-13.sol", "gurobi"),          # gurobipy 13.0.3 Model.write
    ("seed-3x3.gurobi-13.json", "gurobi-json"),
    ("seed-3x3.cpsat-9.15.txt", "cpsat-response"),  # ortools 9.15 str(response_proto)
    ("seed-3x3.cpsat-9.15.json", "cpsat-response"),
    ("seed-3x3.minizinc-2.6.4.jsonl", "minizinc-answer"),        # Debian's minizinc --json-stream -a
    ("seed-3x3.minizinc-2.6.4-merged.out", "minizinc-answer"),   # its stderr warning first (2>&1)
    ("seed-3x3.minizinc-2.10.0.out", "minizinc-answer"),         # MiniZinc 2.10.0 (npm minizinc 4.5.1)
    ("seed-3x3.minizinc-2.10.0.jsonl", "minizinc-answer"),
    ("seed-3x3.minizinc-2.10.0-json.jsonl", "minizinc-answer"),
    ("seed-3x3.minizinc-2.10.0-cbc-merged.out", "minizinc-answer"),  # the driver's WARNING line last
]


@pytest.mark.parametrize("name, reader", CAPTURED_ANSWERS, ids=[n for n, _ in CAPTURED_ANSWERS])
def test_captured_answers_of_todays_releases_decode(capsys, name, reader):
    # the CP-SAT response carries no model: it is decoded against the board itself
    model = SAMPLES / "seed-3x3.txt" if "cpsat" in name else \
        CAPTURED / ("seed-3x3.mzn" if "minizinc" in name else "seed-3x3.lp")
    _decode(capsys, model, CAPTURED / name, "two", reader)
