"""minesweepr's board text (formats/notations/minesweepr.py): '.' blank (0), 'x' unknown, '*' mine, 1-8."""
from __future__ import annotations

import pytest

from mineconv import PuzzleSyntaxError, parse


def test_minesweepr_cells_and_blank_splitting():
    p = parse("...2x\n.113x\n.2*xx\n", "minesweepr")
    assert p.grid_lines == ["0002?", "0113?", "02*??"]
    assert parse("..1x ..1x\n", "minesweepr").grid_lines == ["001?", "001?"]   # minesweepr splits at any blank


@pytest.mark.parametrize("text, where, msg", [
    ("..x\n.?x\n", (2, 2), "'?' is not a minesweepr cell"),
    ("..x\n.x\n", (2, 1), "rectangular"),
    ("8.x\n..x\n", (1, 1), "only 3 neighbours"),
])
def test_minesweepr_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "minesweepr", source="b.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_minesweepr_readme_board_gives_the_probabilities_its_readme_prints():
    # minesweepr's README solves this 10 x 10 easy board (10 mines); it tags the front cells A..I for
    # illustration and says to give the board untagged: the tags are x here (transcribed)
    from mineconv import analyze
    board = "..1xxxxxxx\n..2xxxxxxx\n..3xxxxxxx\n..2xxxxxxx\n112xxxxxxx\n" + "xxxxxxxxxx\n" * 5
    grid = analyze(parse(board, "minesweepr").replace(mines=10)).probability_grid
    tagged = {"A": (0, 3), "B": (1, 3), "C": (2, 3), "D": (3, 3), "E": (4, 3), "F": (5, 3), "G": (5, 2),
              "H": (5, 1), "I": (5, 0), None: (9, 9)}
    printed = {"A": 0.0, "B": 1.0, "C": 1.0, "D": 1.0, "E": 0.0, "F": 0.0779, "G": 0.0, "H": 0.9221, "I": 0.0779,
               None: 0.0779}
    assert {tag: round(grid[r][c], 4) for tag, (r, c) in tagged.items()} == printed


def test_a_tagged_minesweepr_board_names_the_tag():
    with pytest.raises(PuzzleSyntaxError) as err:
        parse("..1Axx\n..2Bxx\n112xxx\nxxxxxx\n", source="b.txt")
    assert (err.value.line, err.value.column) == (1, 4) and "'A' is not a minesweepr cell" in err.value.message
