"""The RAWVF writer (formats/notations/rawvf_writer.py): a Replay written as the text rawvf.py reads back."""
from __future__ import annotations

import pytest

from helpers import FIXTURES, REPLAYS
from mineconv.formats.notations.rawvf_writer import rawvf_text, time_text
from mineconv.formats.replays import read_replay

# what the writer makes of tests/fixtures/replays/tiny_3x3.rawvf (our own game): its options first, the
# board, and only the mouse events (the fixture's board and game lines, 'number0', 'start', 'won', have no
# Replay event); the (l) and (r) button marks are the reader's to skip
TINY_WRITTEN = """\
RawVF_Version: Rev5
Program: mineconv test fixture
Player: tester
Marks: off
Width: 3
Height: 3
Mines: 1
Board:
00*
000
000
Events:
-0.010 mv 1 3 (8 40)
0.000 lc 1 3 (8 40)
0.000 lr 1 3 (8 40)
0.100 mv 2 3 (20 41)
0.250 rc 3 1 (40 8)
0.300 rr 3 1 (40 8)
"""


def test_the_tiny_game_written_line_by_line() -> None:
    replay = read_replay(FIXTURES / "replays" / "tiny_3x3.rawvf")
    assert rawvf_text(replay) == TINY_WRITTEN
    again = read_replay(TINY_WRITTEN.encode())
    assert again.mines.tolist() == [[False, False, True], [False, False, False], [False, False, False]]
    assert [(e.time, e.kind, e.row, e.col, e.x, e.y) for e in again.events] == \
           [(e.time, e.kind, e.row, e.col, e.x, e.y) for e in replay.events]


@pytest.mark.parametrize("t, text", [(0.0, "0.000"), (-0.01, "-0.010"), (1.5, "1.500"), (1 / 3, "0.333333"),
                                     (2.0005, "2.000500"), (12.25, "12.250")])
def test_times_have_three_decimals_when_exact_else_six(t: float, text: str) -> None:
    assert time_text(t) == text


def test_rawvf_writer_round_trips_the_real_replays() -> None:
    files = sorted(REPLAYS.rglob("*.rawvf")) if REPLAYS.is_dir() else []
    if not files:
        pytest.skip("the real replays are not here")
    for path in files:
        replay = read_replay(path)
        again = read_replay(rawvf_text(replay).encode())
        assert (again.mines == replay.mines).all() and again.total == replay.total
        assert [(e.time, e.kind, e.row, e.col, e.x, e.y) for e in again.events] == \
               [(e.time, e.kind, e.row, e.col, e.x, e.y) for e in replay.events], path.name
        assert (again.player, again.program, again.version) == (replay.player, replay.program, replay.version)
    assert time_text(0.01) == "0.010" and float(time_text(1 / 3)) == round(1 / 3, 6)
