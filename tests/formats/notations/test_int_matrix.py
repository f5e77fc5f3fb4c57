"""Integer matrices: JSON, list literals, numpy, CSV, the --codes schemes, errors, writers, CLI."""
from __future__ import annotations

import json

import pytest

from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse
from mineconv.cli import main
from mineconv.core.errors import FormatError
from mineconv.formats.notations.int_matrix import detect_int_matrix
from mineconv.formats.registry import LIKELY, NO, POSSIBLE, WEAK
from tests.conftest import SAMPLES


def check(text: str, rows: list, codes=None) -> None:
    assert parse(text, "int-matrix", codes=codes).grid_lines == rows


@pytest.mark.parametrize("text", [
    "[[2, 3, -1], [-1, 1, 0]]",
    "[[2, 3, -1],\n [-1, 1, 0],]",
    "board = [[2,3,X],[X,1,0]]",
    "const board = [[2, 3, _], [M, 1, 0]];",
    "game = np.array([[ 2,  3, -1], [-1,  1,  0]], dtype=int)",
    "numpy.array([[2., 3., -1.], [-1., 1., 0.]])",
    "array([[ 2,  3, -1],\n       [-1,  1,  0]])",
    "[[ 2  3 -1]\n [-1  1  0]]",
    "U = -1\nstate = [[2, 3, U], [U, 1, 0]]",
    "int[][] b = {{2, 3, -1}, {-1, 1, 0}};",
    "2,3,-1\n-1,1,0\n",
    "2;3;-1\n-1;1;0",
    "2\t3\t-1\n-1\t1\t0",
    "# a note\n[[2, 3, -1], [-1, 1, 0]]  // trailing\n",
])
def test_layouts(text):
    check(text, ["23?", "?10"])


def test_comments_become_notes():
    assert parse("# first\n[[1, -1]] // second\n/* third */", "int-matrix").notes == ("first", "second", "third")


@pytest.mark.parametrize("text, codes, rows", [
    ("[[9, 10], [1, 1]]", "9", ["?*", "11"]),
    ("[[10, 11, 12], [1, 1, 1]]", "mstoollib", ["?*.", "111"]),
    ("[[14, 15, 16, 18], [1, 2, 2, 1]]", "mstoollib", ["?**?", "1221"]),
    ("[[10, 11], [1, 1]]", "ms-toollib", ["?*", "11"]),
    ("[[-1, 1], [1, 1]]", "-1", ["?1", "11"]),
])
def test_code_schemes(text, codes, rows):
    check(text, rows, codes)


@pytest.mark.parametrize("text, codes, where, msg", [
    ("[[9, 10],\n [1, 1]]", None, (1, 3), "--codes 9"),
    ("[[10, 1],\n [1, 1]]", None, (1, 3), "--codes mstoollib"),
    ("[[10, 1],\n [1, 13]]", "mstoollib", (2, 6), "not a cell code"),
    ("[[-1, 1]]", "mstoollib", (1, 3), "real board"),
    ("[[1, 2],\n [1]]", None, (2, 2), "rectangular"),
    ("[[1, foo]]", None, (1, 6), "unknown name 'foo'"),
    ("[[1, 2]", None, (1, 8), "not closed"),
    ("[[1, 2]] [[3]]", None, (1, 10), "second matrix"),
    ("[[1, 2.5]]", None, (1, 6), "whole number"),
    ("1,2\n3,a\n", None, (2, 3), "not a row of integers"),
    ("[[9, 9], [9, 9]]", "9", None, None),
    ("[[8, -1], [-1, -1]]", None, (1, 3), "only 3 neighbours"),
])
def test_errors_are_located(text, codes, where, msg):
    if where is None:
        assert parse(text, "int-matrix", codes=codes).unknown_count == 4
        return
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "int-matrix", codes=codes, source="m.json")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_unknown_scheme():
    with pytest.raises(FormatError, match="one of: -1, 9, mstoollib"):
        parse("[[1]]", "int-matrix", codes="7")


@pytest.mark.parametrize("text, score", [
    ("[[2, 3, -1], [-1, 1, 0]]", POSSIBLE),
    ("b = np.array([[2, -1], [1, 1]])", LIKELY),
    ("2,3,-1\n-1,1,0\n", POSSIBLE),
    ("1,2\n0,1\n", WEAK),                     # native reads the same grid
    ("letting game be [[-1, 2]]", NO),        # Essence'
    ('{"revealed": [[0, 1, 2]]}', NO),        # pred-json
    ("??\n12\n", NO),
])
def test_detect(text, score):
    assert detect_int_matrix(text) == score


def test_writers_round_trip():
    p = Puzzle.from_rows(["1??", "12?", "01?"])
    text = dumps(p, "int-matrix")
    assert json.loads(text) == [[1, -1, -1], [1, 2, -1], [0, 1, -1]]
    assert parse(text, "int-matrix") == p
    assert dumps(p, "int-csv") == "1,-1,-1\n1,2,-1\n0,1,-1\n"
    assert parse(dumps(p, "int-csv"), "int-csv") == p


def test_losses_warn_and_strict_refuses():
    from mineconv.core.errors import LossyConversionError
    p = Puzzle.from_rows(["1*?", "12?"], mines=3)
    with pytest.warns(UserWarning, match="known mine"):
        dumps(p, "int-matrix")
    with pytest.raises(LossyConversionError):
        dumps(p, "int-matrix", strict=True)


def test_cli_sample_and_codes_flag(tmp_path, capsys):
    assert main(["info", str(SAMPLES / "dusautoy-6x6.matrix")]) == 0
    assert "6 x 6" in capsys.readouterr().out
    assert main(["solve", str(SAMPLES / "dusautoy-6x6.csv"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2],
                                                             [5, 3]]
    board = tmp_path / "board.matrix"
    board.write_text("game_board = [[10, 10, 1],\n              [1, 1, 1]]\n")
    assert main(["info", str(board), "--codes", "mstoollib", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unknown"] == 2
    assert main(["info", str(board)]) == 2
    assert f"{board}:1:16:" in capsys.readouterr().err


# issue 25: a number past a float's range is located like any other bad token ----------------------------
@pytest.mark.parametrize("text, token, col", [
    ("[[0,1],[1e400,2]]", "1e400", 9), ("[[0,1],[-1E+999,2]]", "-1E+999", 9),
    ("X = [[0, 1], [1e999, 2]];", "1e999", 15), ("[[0, 1],\n [2, 9.9e9999]]", "9.9e9999", 6)])
def test_an_overflowing_number_is_named_with_its_place(text, token, col):
    from mineconv.core.errors import PuzzleSyntaxError
    with pytest.raises(PuzzleSyntaxError) as exc:
        parse(text, "int-matrix")
    err = exc.value
    assert f"{token!r} is too large" in str(err) and err.column == col and err.line == text.count("\n", 0, text.index(token)) + 1


def test_guard_reader_locates_an_overflowing_exponent_when_a_reader_overflows():
    from mineconv.core.errors import PuzzleSyntaxError
    from mineconv.core.fileio import guard_reader

    def overflowing(content, source):
        raise OverflowError

    for content in ("a b\nc 1e400 d\n", b"a b\nc 1e400 d\n"):
        with pytest.raises(PuzzleSyntaxError) as exc:
            guard_reader(overflowing)(content, "f.txt")
        assert (exc.value.line, exc.value.column) == (2, 3) and "'1e400' is too large" in str(exc.value)
