"""RAW video text (formats/notations/rawvf.py): a replay's header, board and events, read as its mine layout."""
from __future__ import annotations

import pytest

from helpers import FIXTURES
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
