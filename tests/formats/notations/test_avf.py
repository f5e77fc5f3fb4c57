"""AVF replays (Minesweeper Arbiter; formats/notations/avf.py), built here byte for byte as the reader reads them."""
from __future__ import annotations

import pytest

from mineconv.core.errors import PuzzleSyntaxError
from mineconv.core.replay import LEFT_PRESS, LEFT_RELEASE, MOVE, RIGHT_PRESS, RIGHT_RELEASE
from mineconv.formats.notations.avf import parse_avf, read_avf


def test_avf_mine_count_beyond_the_board_is_refused() -> None:
    # custom 2 x 2 claiming 5 mines
    with pytest.raises(PuzzleSyntaxError, match="byte 6.*5 mines on a 2 x 2 board"):
        read_avf(b"4\x00\x00\x00\x00\x06\x01\x01\x00\x05" + b"\x01" * 10)


# a game of our own, the tiny game of tests/fixtures/replays (3 x 3, the mine at row 0 col 2, a click on
# row 2 col 0, then the mine flagged), laid out as avf.py's docstring describes Arbiter's bytes
def event(kind: int, ms: int, x: int, y: int) -> bytes:
    """One 8-byte mouse event: kind, x high, seconds + 1 low, x low, hundredths, y high, seconds + 1 high, y low."""
    sec = ms // 1000 + 1
    return bytes([kind, x >> 8, sec & 0xFF, x & 0xFF, ms % 1000 // 10, y >> 8, sec >> 8, y & 0xFF])


def tiny_avf() -> bytes:
    """The tiny 3 x 3 game as an Arbiter 0.52 custom-level file."""
    layout = bytes([52, 0, 0, 0, 0, 6, 3 - 1, 3 - 1]) + (1).to_bytes(2, "big") + bytes([1, 3])  # (row, col) 1-based
    header = b"\x7f\x00[3|W3H3M1|1700000000|1700000001B2T0.30]"
    events = (event(1, 0, 8, 40) + event(3, 0, 8, 40) + event(5, 0, 8, 40) + event(1, 100, 20, 41)
              + event(9, 250, 40, 8) + event(17, 300, 40, 8) + bytes(8))   # seconds 0: the end
    trailer = b"cs=" + b"0" * 17 + b"RealTime: 0.30\rtester\rMinesweeper Arbiter 0.52.3. Copyright\r"
    return layout + header + events + trailer


def test_a_small_game_cell_by_cell() -> None:
    layout = read_avf(tiny_avf(), "tiny.avf", layout_as="mines")
    assert (layout.rows, layout.cols, layout.mines) == (3, 3, 1)
    assert [layout.cells[r * 3 + c] for r in range(3) for c in range(3)] == [".", ".", "*"] + ["."] * 6
    assert read_avf(tiny_avf(), layout_as="full").grid_lines == ["01?", "011", "000"]
    assert read_avf(tiny_avf(), reveal_from="start").grid_lines == ["01?", "011", "000"]   # the 0 opens all


def test_the_whole_replay() -> None:
    replay = parse_avf(tiny_avf(), "tiny.avf")
    assert (replay.player, replay.program, replay.version) == ("tester", "Minesweeper Arbiter", "0.52.3")
    details = dict(replay.details)
    assert (details["3bv"], details["time"], details["marks"]) == ("2", "0.30", "off")
    clicks = [(e.time, e.kind, e.row, e.col) for e in replay.events if e.kind != MOVE]
    assert clicks == [(0.0, LEFT_PRESS, 2, 0), (0.0, LEFT_RELEASE, 2, 0), (0.25, RIGHT_PRESS, 0, 2),
                      (0.3, RIGHT_RELEASE, 0, 2)]


@pytest.mark.parametrize("change, where", [
    (lambda b: b[:5] + b"\x07" + b[6:], "byte 5: the level byte is 7"),
    (lambda b: b[:10] + b"\x01\x04" + b[12:], "byte 10: mine 1 of 1 is at row 0, column 3 (0-based), off"),
    (lambda b: b[:11], "byte 10: an AVF replay ends early: the 1 mine positions"),
])
def test_bad_bytes_are_located(change, where) -> None:
    with pytest.raises(PuzzleSyntaxError) as err:
        read_avf(change(tiny_avf()), "bad.avf")
    assert err.value.source == "bad.avf" and where in str(err.value), str(err.value)
