"""Viennasweeper replays (.rmv; formats/notations/rmv.py), built here byte for byte after rmv.py's account of
the RMV specification (version 2)."""
from __future__ import annotations

import pytest

from mineconv.core.errors import PuzzleSyntaxError
from mineconv.core.replay import LEFT_PRESS, LEFT_RELEASE, MOVE, PRE_FLAG, RIGHT_PRESS, RIGHT_RELEASE
from mineconv.formats.notations.rmv import parse_rmv, read_rmv


def mouse(kind: int, ms: int, x: int, y: int) -> bytes:
    """One v2 mouse event: kind, a 3-byte millisecond time, a flags byte, int16 x and y from the board."""
    return bytes([kind]) + ms.to_bytes(3, "big") + b"\0" + x.to_bytes(2, "big", signed=True) + \
        y.to_bytes(2, "big", signed=True)


def tiny_rmv(version_info: bytes = b"Viennasweeper - Release 3.2.") -> bytes:
    """The tiny game of tests/fixtures/replays (3 x 3, the mine at row 0 col 2, a click on row 2 col 0, then
    the mine flagged) as an RMV v2 file; the first left press is not stored (Viennasweeper's habit)."""
    player = (1).to_bytes(2, "big") + bytes([6]) + b"tester"
    board = (0).to_bytes(4, "big") + bytes([3, 3]) + (1).to_bytes(2, "big") + bytes([2, 0])   # (x, y) 0-based
    properties = bytes([0, 0, 0, 4, 2, 0, 16])       # no marks, flags allowed, mode, level, 3bv 2, 16 px
    extensions = (0).to_bytes(2, "big")
    events = (mouse(3, 0, 8, 40) + bytes([9, 2, 0]) + mouse(1, 100, 20, 41) + mouse(4, 250, 40, 8)
              + mouse(5, 300, 40, 8) + bytes([16]))   # a release, a board event (2 bytes), moves, won
    sizes = (b"\0" * 4 + len(version_info).to_bytes(2, "big") + len(player).to_bytes(2, "big")
             + len(board).to_bytes(2, "big") + (0).to_bytes(2, "big") + len(properties).to_bytes(2, "big")
             + len(extensions).to_bytes(2, "big") + len(events).to_bytes(4, "big") + (0).to_bytes(2, "big"))
    return b"*rmv" + (2).to_bytes(2, "big") + bytes([1, 3]) + sizes + version_info + player + board + \
        properties + extensions + events


def test_a_small_game_cell_by_cell() -> None:
    layout = read_rmv(tiny_rmv(), "tiny.rmv", layout_as="mines")
    assert (layout.rows, layout.cols, layout.mines) == (3, 3, 1)
    assert [layout.cells[r * 3 + c] for r in range(3) for c in range(3)] == [".", ".", "*"] + ["."] * 6
    assert read_rmv(tiny_rmv(), layout_as="full").grid_lines == ["01?", "011", "000"]


def test_the_whole_replay() -> None:
    replay = parse_rmv(tiny_rmv(), "tiny.rmv")
    assert (replay.player, replay.program, replay.version) == ("tester", "Viennasweeper", "3.2")
    assert dict(replay.details)["end"] == "won" and replay.square_size == 16
    events = [(e.time, e.kind, e.row, e.col, e.implied) for e in replay.events]
    assert events == [(0.0, LEFT_PRESS, 2, 0, True), (0.0, LEFT_RELEASE, 2, 0, False), (0.1, MOVE, 2, 1, False),
                      (0.25, RIGHT_PRESS, 0, 2, False), (0.3, RIGHT_RELEASE, 0, 2, False)]
    assert PRE_FLAG not in {e.kind for e in replay.events}
    assert parse_rmv(tiny_rmv(b""), "tiny.rmv").program == "Viennasweeper"   # no text: named by the clone id


@pytest.mark.parametrize("change, where", [
    (lambda b: b[:5] + b"\x03" + b[6:], "byte 4: RMV format version 3 is not 1 or 2"),
    (lambda b: b.replace(b"\x03\x03\x00\x01\x02\x00", b"\x03\x03\x00\x01\x02\x05"),
     "mine 1 of 1 is at row 5, column 2 (0-based), off the 3 x 3 board"),
    (lambda b: b[:-1], "an RMV replay ends early: the next event (the end event is missing)"),
    (lambda b: b[:-1] + b"\x08", "the event kind byte 8 is not one an RMV v2 file holds"),
])
def test_bad_bytes_are_located(change, where) -> None:
    with pytest.raises(PuzzleSyntaxError) as err:
        read_rmv(change(tiny_rmv()), "bad.rmv")
    assert err.value.source == "bad.rmv" and str(err.value).startswith("bad.rmv: byte "), str(err.value)
    assert where in str(err.value), str(err.value)


def test_ms_toollib_reads_the_built_file_as_we_do(tmp_path) -> None:
    from tests.formats.test_replays import toollib_reading
    path = tmp_path / "tiny.rmv"
    path.write_bytes(tiny_rmv())
    ref = toollib_reading(path)
    assert (ref["rows"], ref["cols"], ref["mines"], ref["player"]) == (3, 3, 1, "tester")
    assert ref["board"][0] == [0, 1, -1]
    assert [(e[0], e[1]) for e in ref["events"]] == [(0.0, "lc"), (0.0, "lr"), (0.1, "mv"), (0.25, "rc"),
                                                     (0.3, "rr")]
