"""The MiniZinc, clingo and CP-SAT answer readers: outputs the real tools printed for one board, found by
content, decoded onto the grid; strict about unknown names, wrong values and truncation (exit 2), a broken
count is exit 3 naming the cell, verdicts without a solution exit 1. Also: the writers' files decode from
their own header, and the writers' detectors know their files."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run_cli
from mineconv import Puzzle
from mineconv import decode
from mineconv import read_answer
from mineconv.formats import registry, writing
from mineconv.core.errors import SolutionSyntaxError, VerificationError

# one board with a single solution: mines at (0, 1) (known), (0, 3), (2, 0), (3, 4)
BOARD = Puzzle.from_rows(["1*2??", "?2.?1", "?1?11", "???.?"], mines=4)
MINES = [[0, 1], [0, 3], [2, 0], [3, 4]]

# minizinc --solver gecode board.mzn (MiniZinc 2.6.4, Gecode 6.2.0)
MZN_GRID = "grid: 1*2*.\ngrid: .2..1\ngrid: *1.11\ngrid: ....*\n----------\n"
# minizinc --solver gecode --output-mode json -a board.mzn
MZN_JSON = ('{\n  "x0_3" : 1,\n  "x0_4" : 0,\n  "x1_0" : 0,\n  "x1_3" : 0,\n  "x2_0" : 1,\n  "x2_2" : 0,\n'
            '  "x3_0" : 0,\n  "x3_1" : 0,\n  "x3_2" : 0,\n  "x3_4" : 1\n}\n----------\n==========\n')
# clingo board.asp (Debian clingo 5.4.1)
CLINGO = ("clingo version 5.4.1\nReading from board.asp\nSolving...\nAnswer: 1\n"
          "mine(1,2) mine(1,4) mine(3,1) mine(4,5)\nSATISFIABLE\n\nModels       : 1+\nCalls        : 1\n"
          "Time         : 0.001s (Solving: 0.00s 1st Model: 0.00s Unsat: 0.00s)\nCPU Time     : 0.001s\n")
CLINGO_UNSAT = ("clingo version 5.4.1\nReading from board.asp\nSolving...\nUNSATISFIABLE\n\nModels       : 0\n"
                "Calls        : 1\nTime         : 0.001s (Solving: 0.00s 1st Model: 0.00s Unsat: 0.00s)\n")
# clingo --outf=2 board.asp
CLINGO_JSON = ('{\n  "Solver": "clingo version 5.4.1",\n  "Input": [\n    "board.asp"\n  ],\n  "Call": [\n'
               '    {\n      "Witnesses": [\n        {\n          "Value": [\n'
               '            "mine(1,2)", "mine(1,4)", "mine(3,1)", "mine(4,5)"\n          ]\n        }\n'
               '      ]\n    }\n  ],\n  "Result": "SATISFIABLE",\n  "Models": {\n    "Number": 1,\n'
               '    "More": "yes"\n  },\n  "Calls": 1\n}\n')
# print(solver.response_proto) after solving to_cpsat(BOARD) (OR-Tools 9.15)
CPSAT = ("status: OPTIMAL\n" + "".join(f"solution: {v}\n" for v in (1, 0, 0, 0, 1, 0, 0, 0, 0, 1))
         + 'wall_time: 0.005269483\nuser_time: 0.005269523\ndeterministic_time: 5e-08\nsolution_info: "main"\n')
CPSAT_JSON = '{"status": "OPTIMAL", "solution": ["1", "0", "0", "0", "1", "0", "0", "0", "0", "1"]}\n'

GOOD = {"minizinc-answer": [MZN_GRID, MZN_JSON], "clingo-answer": [CLINGO, CLINGO_JSON],
        "cpsat-response": [CPSAT, CPSAT_JSON, CPSAT.replace("solution: 0\n", "solution: 0\n", 1)]}


@pytest.mark.parametrize("fmt, text", [(f, t) for f, ts in GOOD.items() for t in ts])
def test_real_outputs_are_found_by_content_and_decode(fmt: str, text: str, tmp_path: Path) -> None:
    path = tmp_path / "answer.txt"
    path.write_text(text)
    answer = read_answer(path)
    assert answer.format == fmt
    d = decode(BOARD, answer)
    assert d.status == "solved" and d.mines == MINES


def test_cpsat_short_repeated_syntax() -> None:
    answer = registry.get_format("cpsat-response").reader(
        "status: FEASIBLE\nsolution: [1, 0, 0, 0, 1, 0, 0, 0, 0, 1]\n", "<t>")
    assert decode(BOARD, answer).mines == MINES


@pytest.mark.parametrize("fmt, text, status", [
    ("minizinc-answer", "=====UNSATISFIABLE=====\n", "infeasible"),
    ("minizinc-answer", "=====UNKNOWN=====\n", "unknown"),
    ("clingo-answer", CLINGO_UNSAT, "infeasible"),
    ("clingo-answer", CLINGO_UNSAT.replace("UNSATISFIABLE", "UNKNOWN"), "unknown"),
    ("clingo-answer", '{"Solver": "clingo version 5.4.1", "Call": [{}], "Result": "UNSATISFIABLE"}', "infeasible"),
    ("cpsat-response", "status: INFEASIBLE\n", "infeasible"),
    ("cpsat-response", "status: UNKNOWN\nwall_time: 1.0\n", "unknown"),
])
def test_verdicts_without_a_solution(fmt: str, text: str, status: str, tmp_path: Path, capsys) -> None:
    answer = registry.get_format(fmt).reader(text, "<t>")
    assert answer.status == status
    path = tmp_path / "answer.txt"
    path.write_text(text)
    rc, out, _ = run_cli(capsys, "decode", tmp_path / "b.txt" if False else _board(tmp_path), path, "--json")
    assert rc == 1 and f'"status": "{status}"' in out


def _board(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    writing.write(BOARD, path, "native")
    return path


BAD = [
    # truncated
    ("minizinc-answer", MZN_GRID[:-len("----------\n")], "truncated"),
    ("minizinc-answer", MZN_JSON[:40], "truncated"),
    ("minizinc-answer", "", "empty or truncated"),
    ("clingo-answer", CLINGO.split("SATISFIABLE")[0], "truncated"),
    ("clingo-answer", CLINGO_JSON[:120], "truncated"),
    ("cpsat-response", CPSAT_JSON[:30], "truncated"),
    ("cpsat-response", "status: OPTIMAL\nsolution: [1, 0, 0\n", "truncated"),
    ("cpsat-response", "status: OPTIMAL\nsolution: 1\n", "reports 1 column.? but this puzzle has 10"),
    # unknown names
    ("minizinc-answer", MZN_JSON.replace('"x0_4"', '"y0_4"'), "'y0_4' is not in the model"),
    ("minizinc-answer", MZN_JSON.replace('"x0_4"', '"x9_4"'), "outside"),
    ("clingo-answer", CLINGO.replace("mine(1,4)", "flag(1,4)"), "unexpected atom 'flag(1,4)'"),
    ("clingo-answer", CLINGO.replace("mine(1,4)", "mine(9,4)"), "outside"),
    ("cpsat-response", CPSAT.replace("solution: 1\n", "solution: 1\nsolution: 0\n", 1), "reports 11 columns"),
    # wrong values
    ("minizinc-answer", MZN_JSON.replace('"x0_4" : 0', '"x0_4" : 2'), "not 0 or 1"),
    ("minizinc-answer", MZN_JSON.replace('"x0_4" : 0', '"x0_4" : "no"'), "not a number"),
    ("minizinc-answer", MZN_GRID.replace("grid: .2..1", "grid: .2.x1"), "grid: <row>"),
    ("cpsat-response", CPSAT.replace("solution: 0\n", "solution: 3\n", 1), "not 0 or 1"),
    ("cpsat-response", CPSAT.replace("solution: 0\n", "solution: zero\n", 1), "not an integer"),
    ("cpsat-response", "status: MODEL_INVALID\n", "invalid"),
]


@pytest.mark.parametrize("fmt, text, words", BAD, ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(BAD)])
def test_bad_answers_exit_2(fmt: str, text: str, words: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(SolutionSyntaxError, match="(?i)" + words.replace("(", r"\(").replace(")", r"\)")):
        decode(BOARD, registry.get_format(fmt).reader(text, "<t>"))
    path = tmp_path / "answer.txt"
    path.write_text(text)
    rc, out, err = run_cli(capsys, "decode", _board(tmp_path), path, "--answer-from", fmt)
    assert rc == 2 and out == "" and err.startswith("mineconv: ") and "Traceback" not in err


@pytest.mark.parametrize("fmt, text, cell", [
    ("minizinc-answer", MZN_GRID.replace("grid: *1.11", "grid: .1*11"), (2, 3)),
    ("minizinc-answer", MZN_JSON.replace('"x3_4" : 1', '"x3_4" : 0'), (2, 3)),
    ("clingo-answer", CLINGO.replace(" mine(4,5)", ""), (2, 3)),
    ("clingo-answer", CLINGO.replace("mine(1,2) ", ""), (0, 1)),
    ("cpsat-response", CPSAT.replace("solution: 1\n", "solution: 0\n", 1), (0, 2)),
])
def test_broken_count_exits_3_naming_the_cell(fmt: str, text: str, cell, tmp_path: Path, capsys) -> None:
    with pytest.raises(VerificationError) as info:
        decode(BOARD, registry.get_format(fmt).reader(text, "<t>"))
    assert info.value.cell == cell
    path = tmp_path / "answer.txt"
    path.write_text(text)
    rc, out, err = run_cli(capsys, "decode", _board(tmp_path), path)
    assert rc == 3 and out == "" and f"cell ({cell[0]}, {cell[1]})" in err


@pytest.mark.parametrize("fmt, ext", [("mzn", ".mzn"), ("asp", ".asp"), ("xcsp", ".xml")])
@pytest.mark.parametrize("name", [None, "a */ *% -- name"])
def test_model_files_decode_from_their_header(fmt: str, ext: str, name, tmp_path: Path, capsys) -> None:
    board = BOARD.replace(name=name)
    model = tmp_path / f"board{ext}"
    rc, _, err = run_cli(capsys, "convert", _board(tmp_path), "-o", model, "--to", fmt)
    writing.write(board, model, fmt)
    text = model.read_text()
    assert registry.get_format(fmt).detect(text)
    # the header's comment is never closed early by the name
    closer = {"mzn": "*/", "asp": "*%", "xcsp": "--"}[fmt]
    head = text.split("\n", 1)[1].split("\n" + {"mzn": "*/", "asp": "*%", "xcsp": "-->"}[fmt] + "\n")[0]
    assert closer not in head
    answer = tmp_path / "answer.txt"
    answer.write_text({"mzn": MZN_GRID, "asp": CLINGO, "xcsp": CPSAT}[fmt])
    rc, out, err = run_cli(capsys, "decode", model, answer, "--json")
    assert rc == 0, err
    assert '"mines": [[0, 1], [0, 3], [2, 0], [3, 4]]' in out
