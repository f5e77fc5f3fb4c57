"""MathProg / AMPL data in hakank's layout (param r, c, game; '.' = no value = unknown), next to Chlond's."""
from __future__ import annotations

import pytest

from helpers import SAMPLES, run_cli
from mineconv import PuzzleSyntaxError, dumps, parse, read
from mineconv.formats.detection import rank_formats


def validate(text: str, rows: list) -> None:
    """Read text as dat and check the grid."""
    assert parse(text, "dat").grid_lines == rows


def test_one_liners():
    validate("param r := 2;\nparam c := 3;\nparam game: 1 2 3 :=\n  1 . . .\n  2 1 1 1\n;\n", ["???", "111"])
    validate("param r := 1; param c := 3; param game: 1 2 3:= 1 . 1 .;", ["?1?"])          # ':=' glued to a label
    validate("param c := 2; param game: 1 2 := 1 . 1 2 1 .;", ["?1", "1?"])                # square from c alone
    validate("param r:=1; param c:=2; param game default -2 : 1 2 := 1 1 .;", ["1."])     # a default clause wins
    validate("param r:=1; param c:=2; param R : 1 2 := 1 1 .;", ["1?"])                     # '.' in R: unknown too
    validate("# n\nparam rows := 1; param cols := 2; param game : 1 2 := 1 . 0;", ["?0"])


def test_hakank_sample_as_it_comes():
    p = read(SAMPLES / "gecode-0.hakank.dat")
    assert p.grid_lines == read(SAMPLES / "gecode-0.dots").grid_lines
    assert p.notes == ("Problem from Gecode/examples/minesweeper.cc  problem 0",)


def test_writer_bytes_are_unchanged_by_the_new_layout():
    assert dumps(read(SAMPLES / "gecode-0.hakank.dat"), "dat").count("param n := 6;\nparam R :") == 1


@pytest.mark.parametrize("text, line, col, words", [
    ("param r := 2;\nparam c := 3;\nparam game: 1 2 3 := 1 . . .;", 1, 12, "param r says 2 rows but the table R has 1"),
    ("param r := 1;\nparam c := 2;\nparam game: 1 2 3 := 1 . . .;", 2, 12, "param c says 2 columns"),
    ("param r := 1; param c := 2; param game: 1 2 := 1 . 9;", 1, 52, "R[1,2] = 9"),
    ("param r := 1; param c := 2; param board: 1 2 := 1 . 1;", 1, 35, "unknown table 'board'"),
])
def test_errors_name_line_and_column(text, line, col, words):
    with pytest.raises(PuzzleSyntaxError) as info:
        parse(text, "dat")
    err = info.value
    assert (err.line, err.column) == (line, col) and words in err.message, str(err)


def test_detection_is_by_content():
    assert rank_formats("param r := 1;\nparam c := 2;\nparam game: 1 2 := 1 . 1;\n")[0] == (0.75, rank_formats(
        "param n := 1; param R : 1 := 1 -1;")[0][1])


def test_cli_solve_gives_gecode_answer(capsys):
    rc, out, _ = run_cli(capsys, "solve", SAMPLES / "gecode-0.hakank.dat")
    assert rc == 0 and out.splitlines()[-6:] == ["*.2.3*", "2*.**.", "..24*3", "1.34*.", ".***.3", "*3.3**"]
