"""Minesweeper board files (.mbf): binary layouts, header checked against the bytes, written back."""
from __future__ import annotations

import warnings

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.core.errors import FormatError, LossyConversionWarning
from mineconv.formats.notations.mbf import detect_mbf, read_mbf
from mineconv.formats.registry import CERTAIN, LIKELY, NO
from mineconv.formats.writing import dumps, write
from mineconv.formats.reading import read
from tests.conftest import SAMPLES

# 3 wide, 2 high, 2 mines at (x=0, y=0) and (x=2, y=1), as JSMinesweeper's getFormatMBF lays it out
SMALL = bytes([3, 2, 0, 2, 0, 0, 2, 1])


def test_full_reveal():
    p = read_mbf(SMALL)
    assert p.grid_lines == ["?21", "12?"] and p.mines == 2


@pytest.mark.parametrize("reveal, rows", [("1,0", ["???", "1??"]), ("0,1", ["?2?", "???"])])
def test_reveal_from(reveal, rows):
    assert read_mbf(SMALL, reveal_from=reveal).grid_lines == rows


def test_reveal_from_a_zero_floods():
    data = bytes([4, 4, 0, 1, 3, 3])  # one mine in the bottom-right corner
    assert read_mbf(data, reveal_from="0,0").grid_lines == ["0000", "0000", "0011", "001?"]


@pytest.mark.parametrize("data, column, msg", [
    (b"", 1, "4 header bytes"),
    (bytes([0, 2, 0, 0]), 1, "width (byte 0) is 0"),
    (bytes([2, 0, 0, 0]), 2, "height (byte 1) is 0"),
    (bytes([255, 255, 0, 200, 1, 1, 2, 2, 3, 3]), 3, "claims 200 mine(s) on a 255 x 255 board"),
    (bytes([255, 255, 255, 255]), 3, "fewer than that"),
    (bytes([3, 2, 0, 1, 1, 1, 9]), 7, "more than that"),
    (bytes([1, 1, 0, 2, 0, 0, 0, 0]), 3, "a 1 x 1 board has only 1 cell"),
    (bytes([3, 2, 0, 1, 5, 0]), 5, "off the 3 x 2 board"),
    (bytes([3, 2, 0, 1, 0, 7]), 6, "off the 3 x 2 board"),
    (bytes([3, 2, 0, 2, 0, 0, 0, 0]), 7, "repeats the cell x=0, y=0"),
])
def test_errors_name_the_byte(data, column, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        read_mbf(data, "b.mbf")
    assert (err.value.line, err.value.column) == (1, column) and msg in err.value.message, str(err.value)


def test_round_trip_through_dumps_and_parse():
    p = read_mbf(SMALL)
    assert dumps(p, "mbf") == SMALL.decode("latin-1") and parse(dumps(p, "mbf"), "mbf") == p


@pytest.mark.parametrize("text", ["*..\n..*\n", "*21\n12*\n", "mines: 2\n*21\n12*\n"])
def test_writer_takes_a_solved_grid_and_loses_nothing(tmp_path, text):
    # a whole layout is exactly what the file stores: no "cannot express N known-mine marks" warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyConversionWarning)
        write(parse(text, "native"), tmp_path / "s.mbf")
    assert (tmp_path / "s.mbf").read_bytes() == SMALL


def test_cli_converts_a_generated_layout_without_a_loss_warning(tmp_path, capsys):
    board = tmp_path / "b.txt"
    assert main(["generate", "--rows", "9", "--cols", "9", "--mines", "10", "--reveal", "game", "--no-guess",
                 "--seed", "3", "-o", str(board)]) == 0
    board.write_text("".join(line for line in board.read_text().splitlines(keepends=True)
                             if not line.startswith(("name:", "start:"))))
    capsys.readouterr()
    assert main(["convert", str(board), "-o", str(tmp_path / "b.mbf")]) == 0
    assert "cannot express" not in capsys.readouterr().err


def test_writer_refusing_a_marked_game_state_names_the_marks(tmp_path):
    with pytest.warns(LossyConversionWarning, match="2 known-mine mark"):
        with pytest.raises(FormatError, match="does not pin every mine down"):
            write(parse("*2?\n?2*\n", "native"), tmp_path / "s.mbf")


@pytest.mark.parametrize("text", ["?21\n12?\n", "mines: 2\n???\n1??\n", "mines: 2\n?22\n12?\n"])
def test_writer_refuses_a_layout_it_would_have_to_invent(text):
    with pytest.raises(FormatError, match="does not pin every mine down"):
        dumps(parse(text, "native"), "mbf")


@pytest.mark.filterwarnings("ignore::mineconv.core.errors.LossyConversionWarning")
def test_writer_refuses_a_board_too_big():
    with pytest.raises(FormatError, match="at most 255 x 255"):
        dumps(parse(("." * 256 + "\n") * 1, "native"), "mbf")


@pytest.mark.parametrize("data, score", [
    (SMALL, CERTAIN), (bytes([3, 2, 0, 0]), LIKELY), (SMALL + b"\x00", NO), (b"9x9\n????", NO), (b"", NO),
])
def test_detect(data, score):
    assert detect_mbf(data) == score


def test_sample_is_the_tatham_layout():
    # the same layout; the game ID's first square has no place in an .mbf file
    tatham = read(SAMPLES / "tatham-9x9n10.txt")
    assert tatham.start is not None
    assert read(SAMPLES / "tatham-9x9n10.mbf") == tatham.replace(notes=(), start=None)


def test_cli_reads_writes_and_refuses(tmp_path, capsys):
    src = tmp_path / "board.mbf"
    src.write_bytes(SMALL)
    assert main(["info", str(src)]) == 0 and "mbf" in capsys.readouterr().out
    assert main(["convert", str(src), "-o", str(tmp_path / "again.mbf")]) == 0
    assert (tmp_path / "again.mbf").read_bytes() == SMALL
    assert main(["convert", str(src), "-o", str(tmp_path / "x.mbf"), "--reveal-from", "1,0"]) == 2
    assert "does not pin every mine down" in capsys.readouterr().err and not (tmp_path / "x.mbf").exists()


def test_cli_damaged_mbf_gets_the_mbf_error_not_the_text_decoders(tmp_path, capsys):
    bad = tmp_path / "bad.mbf"
    bad.write_bytes(bytes([255, 255, 0, 200, 1, 0, 2, 2, 3, 3]))
    assert main(["info", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:1:3:" in err and "claims 200 mine(s)" in err and "NUL" not in err
