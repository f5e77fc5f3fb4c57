"""JSMinesweeper .mine as its writers write it: '?' (a mine shown after a lost game), 'h'/'m', MSG: lines."""
from __future__ import annotations

import pytest

from helpers import SAMPLES
from mineconv import PuzzleSyntaxError, parse, read
from mineconv.cli import main
from mineconv.core.errors import LossyConversionWarning
from mineconv.formats.notations.jsmines import detect_jsmines
from mineconv.formats.writing import dumps

# what JSMinesweeper's Board.getPositionData writes after a lost game: '?' where a mine was shown
AFTER_LOSS = "4x3x3\n1H?F\n12H?\n0111\n"
# what David Hill's Java solver (GameStateReader) reads: lower-case h hidden, m an unflagged mine
JAVA = "4x3x3\n1hmM\n12hm\n0111\n"


@pytest.mark.parametrize("text, rows", [
    (AFTER_LOSS, ["1??*", "12??", "0111"]),
    (JAVA, ["1?**", "12?*", "0111"]),
    ("3x1x1\n1?F\nMSG: lost on the first click\n", ["1?*"]),
])
def test_writer_variants(text, rows):
    assert parse(text, "mine").grid_lines == rows


def test_msg_lines_are_notes_and_written_back():
    p = parse("3x1x1\n01F\nMSG:  solved\n\nMSG: second\n", "mine")
    assert p.notes == ("MSG: solved", "MSG: second")
    assert dumps(p, "mine") == "3x1x1\n01F\nMSG: solved\nMSG: second\n"
    assert parse(dumps(p, "mine"), "mine") == p


def test_existing_bytes_do_not_change():
    p = parse("4x3x5\n1HHF\n12HM\n01OI\n", "mine")
    assert dumps(p, "mine") == "4x3x5\n1HHF\n12HF\n01FF\n"
    with pytest.warns(LossyConversionWarning, match="the notes"):
        assert dumps(p.replace(notes=("other note",)), "mine") == "4x3x5\n1HHF\n12HF\n01FF\n"


@pytest.mark.parametrize("text, where, msg", [
    ("3x2x0\nMSG: early\n000\n000\n", (2, 1), "a MSG: line where row 1 of 2 should be"),
    ("3x1x0\n000\nMSG: x\n000\n", (4, 1), "only blank lines and MSG: lines may follow"),
    ("3x1x0\n0x0\n", (2, 2), "'x' is not a JSMinesweeper cell"),
    ("3x1x0\n000\n000\n", (3, 1), "more rows than the 1"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "mine", source="p.mine")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, hit", [(AFTER_LOSS, True), (JAVA, True), ("4x3x3\nabcd\n", False), ("??\n", False)])
def test_detect(text, hit):
    assert detect_jsmines(text) is hit


def test_cli_solves_a_position_saved_after_a_loss(tmp_path, capsys):
    path = tmp_path / "lost.mine"
    path.write_text("3x3x1\n111\n1?1\n111\nMSG: boom\n")
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-3:] == ["111", "1*1", "111"]


def grid(p) -> list:
    return p.grid_lines


def test_mine_cells_and_header():
    p = parse("4x3x5\n1HHF\n12HM\n01OI\n", "mine")
    assert grid(p) == ["1??*", "12?*", "01**"] and p.mines == 5
    assert parse("4 x 3 x 5\n1HHF\n12HM\n01OI", "mine") == p  # spaces in the header, no final newline
    assert parse("4x3x5\n1HHF\n12HM\n01OI\n\n\n", "mine") == p  # blank lines after the rows
    assert dumps(p, "mine") == "4x3x5\n1HHF\n12HF\n01FF\n"


def test_mine_sample_matches_native():
    assert read(SAMPLES / "dusautoy-6x6-flagged.mine") == read(SAMPLES / "dusautoy-6x6-flagged.txt").replace(
        notes=())
