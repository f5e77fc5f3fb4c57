"""The native text notation (formats/notations/native.py): its layouts, headers and notes, located errors.

The reader's block parser against the token-per-row reader it replaced is in test_native_blocks.py, and
--reveal-from on a layout in test_native_reveal.py."""
from __future__ import annotations

import pytest

from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse

SEED = Puzzle.from_rows(["1??", "12?", "01?"])


def grid(p: Puzzle) -> list:
    return p.grid_lines


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


# a small board of our own: a note, a total, every cell symbol (count, unknown, known mine, known safe)
OWN = "# our own 2 x 3\nmines: 2\n1?*\n.2?\n"


def test_a_small_board_cell_by_cell():
    p = parse(OWN, "native")
    assert (p.rows, p.cols, p.mines, p.notes) == (2, 3, 2, ("our own 2 x 3",))
    assert [p.cells[r * 3 + c] for r in range(2) for c in range(3)] == ["1", "?", "*", ".", "2", "?"]
    assert dumps(p, "native") == OWN


@pytest.mark.parametrize("text, where, msg", [
    ("1?*\n.2x\n", (2, 3), "'x' is not a cell symbol"),
    ("1?*\n.2?\n9??\n", (3, 1), "'9' is not a cell symbol"),
])
def test_bad_cells_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "native", source="b.txt")
    assert err.value.source == "b.txt" and str(err.value).startswith(f"b.txt:{where[0]}:{where[1]}: ")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
