"""Dot grids (formats/notations/dots.py): Gecode's rows and hakank's with the two count lines, '.' unknown."""
from __future__ import annotations


import pytest

from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse, read

SEED = Puzzle.from_rows(["1??", "12?", "01?"])


def grid(p: Puzzle) -> list:
    return p.grid_lines


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


# a small board of our own in hakank's layout: a comment, the row and column counts, '.' unknown
OWN = "# our own\n2\n3\n1..\n.2.\n"


def test_a_small_board_cell_by_cell():
    p = parse(OWN, "dots")
    assert (p.rows, p.cols, p.mines, p.notes) == (2, 3, None, ("our own",))
    assert [p.cells[r * 3 + c] for r in range(2) for c in range(3)] == ["1", "?", "?", "?", "2", "?"]


@pytest.mark.parametrize("text, where, msg", [
    ("2\n3\n1..\n.2x\n", (4, 3), "'x' is not a cell of the dot notation"),
    ("3\n3\n1..\n.2.\n", (1, 1), "the first line says 3 rows but 2 follow"),
    ("2\n3\n1..\n.2\n", (4, 1), "this row has 2 cells, the first row has 3"),
])
def test_bad_input_is_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "dots", source="b.dots")
    assert err.value.source == "b.dots" and str(err.value).startswith(f"b.dots:{where[0]}:{where[1]}: ")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
    assert grid(parse(dumps(SEED, "dots"), "dots")) == ["1??", "12?", "01?"]
