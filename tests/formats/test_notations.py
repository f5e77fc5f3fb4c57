"""Parsing each puzzle notation: layouts, line ends, BOM, headers, and the exact grids read."""
from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse, read
from mineconv.formats.notations.mathprog_dat import dat_section
from helpers import SAMPLES, require_tool

SEED = Puzzle.from_rows(["1??", "12?", "01?"])
DU = Puzzle.from_rows(["??????", "?2222?", "?2002?", "?2002?", "?2222?", "??????"])


def grid(p: Puzzle) -> list:
    return p.grid_lines


# native text ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "1??\n12?\n01?\n",
    "1??\r\n12?\r\n01?\r\n",          # CRLF
    "1??\r12?\r01?\r",                # old Mac CR
    "\ufeff1??\n12?\n01?\n",          # BOM
    "1??\n12?\n01?",                  # no final newline
    "1??   \n12? \n01? \n",            # trailing spaces
    "1 ? ?\n1 2 ?\n0 1 ?\n",          # space separated
    "1,?,?\n1,2,?\n0,1,?\n",          # comma separated
    "1, ?, ?\n1 ,2 , ?\n0,1,?\n",     # comma separated with spaces
    "1\t\t\n1\t2\t\n0\t1\t\n",        # tab layout: an empty field is an unknown cell
    "# a note\n\n1??\n\n12?\n01?  # trailing comment\n",
])
def test_native_layouts(text):
    assert grid(parse(text, "native")) == grid(SEED)


def test_native_trailing_tab_is_a_field():
    # a tab makes the row tab-separated: '12?' followed by an empty field is not three cells
    with pytest.raises(PuzzleSyntaxError, match="more than one cell"):
        parse("1??\n12?\t\n01?\n", "native")


def test_native_headers_and_notes():
    p = parse("# first\nname: my board\nmines: 2\nrows: 3\ncols: 3\n1??\n12?\n01?  # last\n", "native")
    assert (p.name, p.mines, p.notes) == ("my board", 2, ("first", "last"))
    with pytest.raises(PuzzleSyntaxError, match="header says rows: 4"):
        parse("rows: 4\n1??\n12?\n01?\n", "native")
    with pytest.raises(PuzzleSyntaxError, match="unknown header key"):
        parse("colour: red\n1??\n", "native")


def test_bom_and_crlf_through_files(tmp_path):
    for name, fmt, text in [("a.txt", None, "1??\r\n12?\r\n01?\r\n"),
                            ("a.mine", None, "3x3x2\r\n1HH\r\n12H\r\n01H\r\n"),
                            ("a.dat", None, "param n := 3;\r\nparam R : 1 2 3 :=\r\n1 1 -1 -1\r\n2 1 2 -1\r\n"
                                            "3 0 1 -1;\r\n"),
                            ("a.dots", "dots", "3\r\n3\r\n1..\r\n12.\r\n01.\r\n")]:
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        assert grid(read(path, fmt)) == grid(SEED), name


# MathProg .dat ----------------------------------------------------------------------------------------
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


# JSON ------------------------------------------------------------------------------------------------
def test_mineconv_json_fields():
    p = parse('{"grid": ["1??", "12?", "01?"], "version": 1, "format": "mineconv-puzzle", "mines": 2, '
              '"name": "s", "notes": ["a"], "rows": 3, "cols": 3}', "json")
    assert grid(p) == grid(SEED) and (p.mines, p.name, p.notes) == (2, "s", ("a",))
    doc = json.loads(dumps(p, "json"))
    assert doc == {"format": "mineconv-puzzle", "version": 1, "name": "s", "rows": 3, "cols": 3, "mines": 2,
                   "notes": ["a"], "grid": ["1??", "12?", "01?"]}


def test_pred_json_plain_and_wrapped():
    wrapped = (SAMPLES / "seed-3x3.pred.json").read_text()
    plain = json.dumps(json.loads(wrapped)["data"])
    assert parse(wrapped, "pred-json") == SEED == parse(plain, "pred-json")
    assert dumps(SEED, "pred-json") == wrapped  # the writer produces exactly the published shape


def test_json_detection_tells_the_two_apart(tmp_path):
    a = tmp_path / "a.json"
    a.write_text(dumps(SEED, "json"))
    b = tmp_path / "b.json"
    b.write_text(dumps(SEED, "pred-json"))
    assert read(a) == SEED == read(b)


# JSMinesweeper .mine --------------------------------------------------------------------------------
def test_mine_cells_and_header():
    p = parse("4x3x5\n1HHF\n12HM\n01OI\n", "mine")
    assert grid(p) == ["1??*", "12?*", "01**"] and p.mines == 5
    assert parse("4 x 3 x 5\n1HHF\n12HM\n01OI", "mine") == p  # spaces in the header, no final newline
    assert parse("4x3x5\n1HHF\n12HM\n01OI\n\n\n", "mine") == p  # blank lines after the rows
    assert dumps(p, "mine") == "4x3x5\n1HHF\n12HF\n01FF\n"


def test_mine_sample_matches_native():
    assert read(SAMPLES / "dusautoy-6x6-flagged.mine") == read(SAMPLES / "dusautoy-6x6-flagged.txt").replace(
        notes=())


# dots ---------------------------------------------------------------------------------------------------
def test_dots_gecode_and_hakank_layouts():
    gecode = "..2.3.\n2.....\n..24.3\n1.34..\n.....3\n.3.3..\n"
    p = parse(gecode, "dots")
    assert grid(p)[0] == "??2?3?" and (p.rows, p.cols) == (6, 6)
    assert parse("6\n6\n" + gecode, "dots") == p
    quoted = "".join(f'  "{row}",\n' for row in gecode.split())
    assert parse(quoted, "dots") == p
    assert parse("% from Gecode\n" + gecode, "dots").notes == ("from Gecode",)
    assert dumps(p, "dots") == "6\n6\n" + gecode


def test_dots_is_detected_by_content(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("3\n3\n1..\n12.\n01.\n")
    assert read(path) == read(path, "dots") == SEED  # the count lines match the grid: hakank's layout


def test_samples_agree_across_notations():
    fmt = {".dots": "dots"}
    groups = {}
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix in (".md",):
            continue
        stem = path.name.split(".")[0]
        groups.setdefault(stem, []).append(read(path, fmt.get(path.suffix)))
    assert {"dusautoy-6x6", "seed-3x3", "dusautoy-6x6-flagged", "gecode-0", "kaye-config3"} <= set(groups)
    for stem, puzzles in groups.items():
        assert len({p.cells for p in puzzles}) == 1, stem
