"""MathProg / AMPL data in hakank's layout (param r, c, game; '.' = no value = unknown), next to Chlond's."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from helpers import SAMPLES, require_tool, run_cli
from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse, read
from mineconv.formats.detection import rank_formats
from mineconv.formats.notations.mathprog_dat import dat_section

DU = Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"])


def grid(p: Puzzle) -> list:
    return p.grid_lines


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


CHLOND = """\
/* du Sautoy's puzzle as in Chlond's minesweeper.mod */
data;
param n := 6;
param R : 1 2 3 4 5 6 :=
  1  -1 -1 -1 -1 -1 -1
  2  -1  2  2  2  2 -1
  3  -1  2  0  0  2 -1   # comments anywhere
  4  -1  2  0  0  2 -1
  5  -1  2  2  2  2 -1
  6  -1 -1 -1 -1 -1 -1 ;
end;
"""


def test_dat_chlond_layout():
    assert parse(CHLOND, "dat") == DU


def test_dat_free_layout_defaults_and_order():
    text = ("# name: odd\n# a note\nparam rows:=2;param cols:=3;param mines:=2;\n"
            "param M default 0 : 3 1 2 := 2 1 . . 1 0 . .;\n"          # columns and rows in any order
            "param R:1 2 3:=\n2 0 1 -1\n1 -2 -1\n 1;")                    # a row split across lines
    p = parse(text, "dat")
    assert grid(p) == [".?1", "01*"] and (p.mines, p.name, p.notes) == (2, "odd", ("a note",))


def test_dat_writer_layout_and_section():
    p = Puzzle.from_rows(["1??*", "12?.", "01??"], mines=4, name="n", notes=["x"])
    text = dumps(p, "dat")
    assert text.startswith("# name: n\n# x\ndata;\n")
    section = dat_section(p)
    assert section.startswith("data;\n") and section.endswith("end;\n") and section in text
    assert "param n := 4;\nparam m := 3;\nparam mines := 4;\n" in section
    assert "param R :\n   1  2  3  4 :=\n1  1 -1 -1 -1\n2  1  2 -1 -2\n3  0  1 -1 -1\n;\n" in section
    assert "param M :\n   1  2  3  4 :=\n1  0  0  0  1\n" in section
    square = dat_section(DU)
    assert "param m" not in square and "param M" not in square and "param mines" not in square


def test_dat_wide_board_aligns_labels():
    p = Puzzle(3, 120, "?" * 360)
    text = dumps(p, "dat")
    head = text.split("param R :\n")[1].split("\n")[0]
    assert head.startswith("    1   2") and head.endswith(" 120 :=")
    assert text.split("param R :\n")[1].split("\n")[1] == "1" + "  -1" * 120
    assert parse(text, "dat") == p


def test_dat_read_by_glpsol(tmp_path):
    glpsol = require_tool("glpsol")
    model = tmp_path / "m.mod"
    model.write_text(
        "param n, integer, > 0;\nparam m, integer, > 0, default n;\nparam mines, integer, default -1;\n"
        "set I := 1..m; set J := 1..n;\nparam R{I, J}, integer;\nparam M{I, J}, binary, default 0;\n"
        "var x{I, J}, binary;\n"
        "s.t. open{i in I, j in J: R[i,j] <> -1}: x[i,j] = 0;\n"
        "s.t. flag{i in I, j in J: M[i,j] = 1}: x[i,j] = 1;\n"
        "s.t. cnt{i in I, j in J: R[i,j] >= 0}: sum{a in I, b in J: abs(a-i) <= 1 and abs(b-j) <= 1 and "
        "(a <> i or b <> j)} x[a,b] = R[i,j];\n"
        "s.t. tot{k in 1..1: mines >= 0}: sum{i in I, j in J} x[i,j] = mines;\n"
        "solve;\nprintf{i in I, j in J: x[i,j] > 0.5} \"MINE %d %d\\n\", i-1, j-1;\nend;\n")
    data = tmp_path / "p.dat"
    data.write_text(dumps(read(SAMPLES / "dusautoy-6x6-flagged.txt"), "dat"))
    out = subprocess.run([glpsol, "-m", str(model), "-d", str(data)], capture_output=True, text=True, timeout=60)
    mines = sorted(tuple(int(v) for v in line.split()[1:]) for line in out.stdout.splitlines()
                   if line.startswith("MINE "))
    assert mines == [(0, 2), (0, 3), (2, 0), (2, 5), (3, 0), (3, 5), (5, 2), (5, 3)], out.stdout + out.stderr


def test_dat_big_board_is_fast():
    import time
    rng = np.random.default_rng(1)
    codes = rng.integers(-1, 9, size=(1000, 1000))
    codes[0, :] = -1  # keep the first row legal (edge cells have fewer neighbours)
    sym = np.frombuffer(b"?012345678", dtype=np.uint8)[codes + 1]
    # only the format's speed matters here, so keep the counts within every cell's neighbour limit
    sym = np.where(codes > 3, ord("?"), sym).astype(np.uint8)
    p = Puzzle(1000, 1000, sym.tobytes().decode())
    text = dumps(p, "dat")
    t = time.perf_counter()
    assert parse(text, "dat") == p
    assert time.perf_counter() - t < 3.0  # about 0.2 s on a laptop; generous for loaded CI machines
