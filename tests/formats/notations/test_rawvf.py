"""RAW video text (formats/notations/rawvf.py): a replay's header, board and events, read as its mine layout."""
from __future__ import annotations

import re

import pytest

from helpers import FIXTURES
from mineconv import parse
from mineconv.core.errors import MineconvError, PuzzleSyntaxError
from mineconv.formats.notations.rawvf import read_rawvf


def test_damaged_rawvf_is_our_error_or_a_puzzle() -> None:
    text = (FIXTURES / "replays" / "tiny_3x3.rawvf").read_text()
    for cut in range(0, len(text), 7):
        try:
            read_rawvf(text[:cut], "cut.rawvf")
        except MineconvError as exc:
            assert isinstance(exc, ValueError)


def test_rawvf_errors_name_the_line() -> None:
    text = "Width: 3\nHeight: 2\nMines: 1\nBoard:\n0*0\n0x0\nEvents:\n"
    with pytest.raises(PuzzleSyntaxError) as info:
        read_rawvf(text, "bad.rawvf")
    assert info.value.line == 6
    with pytest.raises(PuzzleSyntaxError, match="Height"):
        read_rawvf("Width: 3\nMines: 0\nBoard:\n000\n", "x.rawvf")
    with pytest.raises(PuzzleSyntaxError, match="board holds 2"):
        read_rawvf("Width: 2\nHeight: 1\nMines: 1\nBoard:\n**\nEvents:\n", "x.rawvf")


# a small game of our own: 2 x 3, the mine at row 0 col 1, the first click on row 1 col 0 (1-based: 1 2)
OWN = ("RawVF_Version: Rev5\nPlayer: us\nWidth: 3\nHeight: 2\nMines: 1\nBoard:\n0*0\n000\nEvents:\n"
       "0.000 lc 1 2 (8 24)\n0.010 lr 1 2 (8 24)\n")


def test_a_small_game_cell_by_cell() -> None:
    layout = parse(OWN, "rawvf", layout_as="mines")
    assert (layout.rows, layout.cols, layout.mines) == (2, 3, 1)
    assert [layout.cells[r * 3 + c] for r in range(2) for c in range(3)] == [".", "*", ".", ".", ".", "."]
    reveal = parse(OWN, "rawvf", layout_as="full")       # the full reveal: every safe cell shows its count
    assert reveal.grid_lines == ["1?1", "111"] and reveal.mines == 1
    opened = parse(OWN, "rawvf", reveal_from="start")   # the first click opens one cell, a 1
    assert opened.grid_lines == ["???", "1??"] and opened.mines == 1


@pytest.mark.parametrize("row, msg", [("0x0", "board row 2 should be 3 characters"), ("00", "board row 2")])
def test_a_bad_board_row_names_the_file_and_line(row: str, msg: str) -> None:
    with pytest.raises(PuzzleSyntaxError) as info:
        parse(OWN.replace("\n000\n", f"\n{row}\n"), "rawvf", source="b.rawvf")
    assert info.value.source == "b.rawvf" and info.value.line == 8 and msg in info.value.message
    assert str(info.value).startswith("b.rawvf:8: ")


@pytest.mark.parametrize("key, value, line, column", [("Height", "x", 4, 9), ("Width", "-3", 3, 8),
                                                      ("Mines", "99", 5, 8)])
def test_a_bad_option_value_is_named_where_it_is_written(key: str, value: str, line: int, column: int) -> None:
    # the value's own line and column, not the Board: line after the options
    text = re.sub(rf"^{key}: .*$", f"{key}: {value}", OWN, count=1, flags=re.M)
    with pytest.raises(PuzzleSyntaxError) as info:
        parse(text, "rawvf", source="o.rawvf")
    assert key in info.value.message and (info.value.line, info.value.column) == (line, column)
    assert info.value.line_text.startswith(f"{key}: {value}")
