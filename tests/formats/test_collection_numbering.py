"""A collection's entries are numbered as the file orders them, empty ones included (issue 40.1).

Exercism's canonical-data.json holds 12 cases whose first two have no board ("no rows": an empty list;
"no columns": an empty row, or '++' framed rows in older versions). Our own file of that shape: two
empty cases, then ten small minefields, each different, so the number read is visible in the grid.
"""
from __future__ import annotations

import json

import pytest

import mineconv
from mineconv import PuzzleSyntaxError, parse
from mineconv.formats.collection import Empty
from mineconv.formats.notations.exercism import puzzles
from tests.helpers import run_cli

FIELDS = [["*" + " " * k] for k in range(10)]   # case 3 + k: one mine, then k blanks (1 x (k + 1))


def _doc(framed_empty: bool = False) -> str:
    cases = [{"description": "empty board", "property": "annotate", "input": {"minefield": []}, "expected": []},
             {"description": "empty row", "property": "annotate",
              "input": {"minefield": ["++", "++"] if framed_empty else [""]},
              "expected": ["++", "++"] if framed_empty else [""]}]
    cases += [{"description": f"line of {len(f[0])}", "property": "annotate", "input": {"minefield": f}}
              for f in FIELDS]
    return json.dumps({"exercise": "minesweeper", "cases": cases}, indent=2)


@pytest.fixture
def cases(tmp_path):
    path = tmp_path / "canonical-data.json"
    path.write_text(_doc())
    return path


@pytest.mark.parametrize("framed", [False, True])
def test_every_case_keeps_the_files_number(framed):
    text = _doc(framed)
    found = puzzles(text)
    assert len(found) == 12
    assert [type(p) for _, p in found[:2]] == [Empty, Empty]
    assert [p.why for _, p in found[:2]] == ["no rows", "no columns"]
    for number in (3, 11, 12):
        p = parse(text, "exercism", puzzle=number)
        assert p.name == f"line of {number - 2}" and p.cols == number - 2
    with pytest.raises(PuzzleSyntaxError, match="holds only 12 cases"):
        parse(text, "exercism", puzzle=13)


def test_the_default_reads_the_first_case_with_a_board_and_says_which():
    with pytest.warns(UserWarning, match=r"holds 12 cases \(1: 'empty board' \(empty\), 2: 'empty row' "
                                         r"\(empty\), .*case 3, the first with a board, was read"):
        assert parse(_doc()).name == "line of 1"


@pytest.mark.parametrize("number, why", [(1, "no rows"), (2, "no columns")])
def test_asking_for_an_empty_case_is_a_located_error(number, why):
    text = _doc()
    with pytest.raises(PuzzleSyntaxError) as exc:
        parse(text, "exercism", puzzle=number, source="c.json")
    assert f"--puzzle {number} asks for case {number}" in exc.value.message
    assert f"is empty ({why})" in exc.value.message
    # located at the case's description
    nth = [i for i, line in enumerate(text.split("\n"), 1) if '"description"' in line][number - 1]
    assert exc.value.line == nth


def test_info_lists_the_empty_cases_as_such(capsys, cases):
    rc, out, _ = run_cli(capsys, "info", cases)
    assert rc == 0
    assert "puzzles:     12 in the file; shown below: 3" in out
    assert "    1  empty (no rows)  empty board" in out and "    2  empty (no columns)  empty row" in out
    assert "   11  1 x 9  line of 9" in out
    rc, out, _ = run_cli(capsys, "info", cases, "--json", "--puzzle", "11")
    data = json.loads(out)
    assert data["name"] == "line of 9" and len(data["puzzles"]) == 12
    assert data["puzzles"][0] == {"index": 1, "label": "empty board", "rows": 0, "cols": 0, "empty": "no rows"}
    assert "empty" not in data["puzzles"][2]


def test_cli_commands_number_as_the_file_does(capsys, cases):
    rc, out, _ = run_cli(capsys, "solve", cases, "--puzzle", "3")
    assert rc == 0 and out.splitlines()[-1] == "*"
    rc, _, err = run_cli(capsys, "analyze", cases, "--puzzle", "2")
    assert rc == 2 and "is empty (no columns)" in err and "Traceback" not in err
    rc, _, err = run_cli(capsys, "convert", cases, "-o", "-", "--puzzle", "13")
    assert rc == 2 and "holds only 12 cases" in err


def test_read_all_passes_over_empty_cases(cases):
    assert [p.name for p in mineconv.read_all(cases)] == [f"line of {k}" for k in range(1, 11)]


def test_batch_names_outputs_by_the_files_number(capsys, cases, tmp_path):
    out = tmp_path / "out"
    rc, _, err = run_cli(capsys, "batch", cases, "-o", out, "-t", "cnf", "--manifest", tmp_path / "m.jsonl")
    assert rc == 0, err
    assert sorted(p.name for p in out.rglob("*.cnf")) == sorted(f"canonical-data-{n}.cnf" for n in range(3, 13))
    rows = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert [(r["puzzle"], r["status"], r.get("empty")) for r in rows[:3]] == [
        (1, "skipped", "no rows"), (2, "skipped", "no columns"), (3, "converted", None)]
    # --puzzle N on an empty case fails like a bad file, with the reader's words
    rc, _, err = run_cli(capsys, "batch", cases, "-o", tmp_path / "o2", "-t", "cnf", "--puzzle", "1")
    assert rc == 1 and "is empty (no rows)" in err


def test_a_file_of_only_empty_cases_says_so():
    doc = {"exercise": "minesweeper", "cases": [{"description": "nothing", "input": {"minefield": []}}]}
    with pytest.raises(PuzzleSyntaxError, match="no case with a board"):
        parse(json.dumps(doc), "exercism")
