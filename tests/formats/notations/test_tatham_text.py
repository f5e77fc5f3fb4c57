"""Simon Tatham's Mines text form (formats/notations/tatham_text.py): '-' blank (0), '?' unknown, '*' mine, '!'."""
from __future__ import annotations

import pytest

from mineconv import PuzzleSyntaxError, parse


def test_tatham_text_cells_and_the_bang_note():
    p = parse("??1-\n?21-\n*1--\n", "tatham-text")
    assert p.grid_lines == ["??10", "?210", "*100"] and not p.notes
    shown = parse("!1-\n11-\n", "tatham-text")
    assert shown.grid_lines == ["?10", "110"] and "read as unknown" in shown.notes[0]


@pytest.mark.parametrize("text, where, msg", [
    ("?1-\n?x-\n", (2, 2), "'x' is not a Mines square"),
    ("?1-\n?1\n", (2, 1), "rectangular"),
])
def test_tatham_text_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "tatham-text", source="b.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
