"""Dot grids (formats/notations/dots.py): Gecode's rows and hakank's with the two count lines, '.' unknown."""
from __future__ import annotations


from mineconv import Puzzle, dumps, parse, read

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
