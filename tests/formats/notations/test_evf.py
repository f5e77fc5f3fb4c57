"""EVF replays (formats/notations/evf.py), built here byte for byte from the format's specification."""
from __future__ import annotations

import pytest

from helpers import FIXTURES
from mineconv.core.errors import PuzzleSyntaxError
from mineconv.formats.notations.evf import read_evf
from mineconv.formats.replays import read_replay


def tiny_evf() -> bytes:
    """A 3 x 3 EVF v3 game built from the specification: mine at row 0 col 2, a click on row 2 col 0."""
    head = bytes([3, 0xE0, 0, 3, 3]) + (1).to_bytes(2, "big") + bytes([16]) + (0).to_bytes(2, "big")
    head += (1).to_bytes(2, "big") + (300).to_bytes(3, "big")
    for text in ("mineconv test fixture", "tester", "", "", "", "", "XX", ""):
        head += text.encode() + b"\0"
    board = bytes([0b00100000, 0])               # cells row-major, high bit first: cell 2 is the mine

    def event(code: int, ms: int, x: int, y: int) -> bytes:
        return bytes([code]) + ms.to_bytes(3, "big") + x.to_bytes(2, "big") + y.to_bytes(2, "big")

    events = event(1, 0, 8, 40) + event(2, 0, 8, 40) + event(3, 0, 8, 40) + event(1, 100, 20, 41)
    events += event(4, 250, 40, 8) + event(5, 300, 40, 8)
    return head + board + events + b"\0" + b"0" * 32


def test_tiny_evf_fixture_is_what_the_builder_makes() -> None:
    assert (FIXTURES / "replays" / "tiny_3x3.evf").read_bytes() == tiny_evf()


def test_a_small_game_cell_by_cell() -> None:
    layout = read_evf(tiny_evf(), "tiny.evf", layout_as="mines")
    assert (layout.rows, layout.cols, layout.mines) == (3, 3, 1)
    assert [layout.cells[r * 3 + c] for r in range(3) for c in range(3)] == [".", ".", "*"] + ["."] * 6
    assert read_evf(tiny_evf(), layout_as="full").grid_lines == ["01?", "011", "000"]
    replay = read_replay(FIXTURES / "replays" / "tiny_3x3.evf")
    assert (replay.format, replay.player) == ("evf", "tester")


@pytest.mark.parametrize("change, where", [
    (lambda b: b"\x09" + b[1:], "byte 0: EVF version 9 is not 0 to 4"),
    (lambda b: b[:3] + b"\x00" + b[4:], "byte 3: the board is 0 x 3"),
    (lambda b: b[:20], "byte 15: an EVF replay ends early: the software has no closing NUL byte"),
    (lambda b: b[:-33], "byte 102: an EVF replay ends early: the next event (the end byte is missing)"),
])
def test_bad_bytes_are_located(change, where) -> None:
    with pytest.raises(PuzzleSyntaxError) as err:
        read_evf(change(tiny_evf()), "bad.evf")
    assert err.value.source == "bad.evf" and str(err.value).startswith(f"bad.evf: {where}"), str(err.value)
