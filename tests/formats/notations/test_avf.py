"""AVF replays (Minesweeper Arbiter; formats/notations/avf.py), built here byte for byte as the reader reads them."""
from __future__ import annotations

import pytest

from mineconv.core.errors import PuzzleSyntaxError
from mineconv.formats.notations.avf import read_avf


def test_avf_mine_count_beyond_the_board_is_refused() -> None:
    # custom 2 x 2 claiming 5 mines
    with pytest.raises(PuzzleSyntaxError, match="byte 6.*5 mines on a 2 x 2 board"):
        read_avf(b"4\x00\x00\x00\x00\x06\x01\x01\x00\x05" + b"\x01" * 10)
