"""aspuzzle puzzle JSON: the grid, the total, and every listed solution checked against the puzzle."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.formats.notations.puzzle_json import detect_puzzle_json
from mineconv.formats.registry import CERTAIN, NO
from tests.conftest import SAMPLES

SAMPLE = SAMPLES / "dusautoy-6x6.puzzle.json"


def doc(**changes) -> str:
    d = json.loads(SAMPLE.read_text())
    d.update(changes)
    return json.dumps(d, indent=2)


def test_sample_reads_as_published():
    p = parse(SAMPLE.read_text(), "puzzle-json")
    assert p.grid_lines[:2] == ["??????", "?2222?"] and p.mines == 8 and p.name.startswith("du Sautoy")


@pytest.mark.parametrize("text, rows", [
    ('{"puzzle_type": "Minesweeper", "grid": ["1.", ".."]}', ["1?", "??"]),
    ('{"puzzle_type": "minesweeper", "grid": ["1."], "num_mines": null}', ["1?"]),
])
def test_minimal(text, rows):
    assert parse(text, "puzzle-json").grid_lines == rows


def test_source_and_url():
    p = parse(doc(source="PuzzleMadness, 3 February 2022", url="https://example.org/p"), "puzzle-json")
    assert p.name == "PuzzleMadness, 3 February 2022" and p.notes == ("https://example.org/p",)


@pytest.mark.parametrize("text, marker, msg", [
    (doc(solutions=[{"mine/1": ["mine(loc=cell(row=1, col=1))"]}]), "{", "solution 1 does not solve"),
    (doc(solutions=[{"mine/1": ["mine(loc=cell(row=2, col=2))"]}]), "{", "(row=2, col=2 counting from 1)"),
    (doc(solutions=[{"mine/1": ["mine(loc=cell(row=9, col=1))"]}]), "row=9", "outside"),
    (doc(solutions=[{"mine/1": ["mine(1,1)"]}]), "mine(1,1)", "is not mine(loc=cell"),
    (doc(grid=[".2...", "..32.", "3..2x"]), "3..2x", "'x' is not a cell"),
    (doc(grid=[".2...", "..32"]), '"..32"', "rectangular"),
    (doc(puzzle_type="Sudoku"), "puzzle_type", "must be \"Minesweeper\""),
    (doc(colour="red"), "colour", "unknown key"),
    (doc(num_mines=-1), "num_mines", "num_mines"),
    (doc(grid=["9...", "...."]), "9...", "not a cell"),
])
def test_errors_are_located(text, marker, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "puzzle-json", source="p.json")
    e = err.value
    assert msg in e.message and marker in e.line_text and e.column >= 1, str(e)
    assert e.line_text == text.split("\n")[e.line - 1]


def test_wrong_total_in_solution():
    text = doc(num_mines=9)
    with pytest.raises(PuzzleSyntaxError, match="must hold 9 mines"):
        parse(text, "puzzle-json")


def test_detect():
    assert detect_puzzle_json(SAMPLE.read_text()) == CERTAIN
    assert detect_puzzle_json('{"type": "Minesweeper", "data": {}}') == NO
    assert detect_puzzle_json('{"puzzle_type": "Sudoku"}') == NO


def test_cli_solve_gives_the_published_solution(capsys):
    assert main(["solve", str(SAMPLE), "--json"]) == 0
    published = [[r - 1, c - 1] for r, c in [(1, 3), (1, 4), (3, 1), (3, 6), (4, 1), (4, 6), (6, 3), (6, 4)]]
    assert json.loads(capsys.readouterr().out)["mines"] == sorted(published)
