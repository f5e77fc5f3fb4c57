"""Minesweeper Clone replays (.mvf; formats/notations/mvf.py), built here byte for byte in the headerless
layout of Clone 0.96 and earlier (the board first, 8-byte mouse states, the score and name at the end)."""
from __future__ import annotations

import pytest

from mineconv.core.errors import PuzzleSyntaxError
from mineconv.core.replay import LEFT_PRESS, LEFT_RELEASE, MOVE, RIGHT_PRESS, RIGHT_RELEASE
from mineconv.formats.notations.mvf import detect_mvf, parse_mvf, read_mvf
from mineconv.formats.registry import LIKELY


def state(ms: int, left: bool, right: bool, x: int, y: int) -> bytes:
    """One mouse state: seconds, hundredths, the buttons (1 left, 4 right), uint16 x and y, one spare byte."""
    return bytes([ms // 1000, ms % 1000 // 10, left | right << 2]) + x.to_bytes(2, "big") + \
        y.to_bytes(2, "big") + b"\0"


def tiny_mvf() -> bytes:
    """A game of our own on Clone's 8 x 8 beginner board with one mine (row 0, col 2): a click on row 2 col 0,
    a move, the mine flagged; then 125 bytes of score (1 s), name and checksum."""
    board = bytes([8, 8]) + (1).to_bytes(2, "big") + bytes([2, 0])      # (x, y), 0-based
    states = (state(0, False, False, 8, 40) + state(0, True, False, 8, 40) + state(0, False, False, 8, 40)
              + state(100, False, False, 20, 41) + state(250, False, True, 40, 8) + state(300, False, False, 40, 8))
    tail = bytes([0, 1, 0]) + b"tester".ljust(100, b"\0") + bytes(22)
    return board + b"\0\0" + states + tail


def test_a_small_game_cell_by_cell() -> None:
    layout = read_mvf(tiny_mvf(), "tiny.mvf", layout_as="mines")
    assert (layout.rows, layout.cols, layout.mines) == (8, 8, 1)
    assert layout.grid_lines == ["..*....."] + ["........"] * 7
    assert [layout.cells[c] for c in range(8)] == [".", ".", "*", ".", ".", ".", ".", "."]
    full = read_mvf(tiny_mvf(), layout_as="full")
    assert full.grid_lines == ["01?10000", "01110000"] + ["00000000"] * 6 and full.mines == 1


def test_the_whole_replay_and_its_detection() -> None:
    replay = parse_mvf(tiny_mvf(), "tiny.mvf")
    assert (replay.player, replay.program, replay.version) == ("tester", "Minesweeper Clone", "0.96 beta (or earlier)")
    events = [(e.time, e.kind, e.row, e.col) for e in replay.events]
    assert events == [(0.0, MOVE, 2, 0), (0.0, LEFT_PRESS, 2, 0), (0.0, LEFT_RELEASE, 2, 0), (0.1, MOVE, 2, 1),
                      (0.25, MOVE, 0, 2), (0.25, RIGHT_PRESS, 0, 2), (0.3, RIGHT_RELEASE, 0, 2)]
    assert detect_mvf(tiny_mvf()) == LIKELY


@pytest.mark.parametrize("change, where", [
    (lambda b: b"\x09" + b[1:], "byte 0: a headerless MVF board is 8 x 8, 16 x 16 or 30 x 16; this one is 9 x 8"),
    (lambda b: b[:4] + b"\x09" + b[5:], "byte 4: mine 1 of 1 is at row 0, column 9 (0-based), off the 8 x 8 board"),
    (lambda b: b[:60], "a headerless MVF file ends with at least 125 bytes of score, name and checksum"),
])
def test_bad_bytes_are_located(change, where) -> None:
    with pytest.raises(PuzzleSyntaxError) as err:
        read_mvf(change(tiny_mvf()), "bad.mvf")
    assert err.value.source == "bad.mvf" and where in str(err.value), str(err.value)
