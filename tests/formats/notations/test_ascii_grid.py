"""Boxed and pipe ASCII grids: rule lines skipped, cells split on '|', --blank unknown|zero."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.core.errors import FormatError
from mineconv.formats.notations.ascii_grid import detect_ascii_grid
from mineconv.formats.registry import LIKELY, NO, POSSIBLE
from tests.conftest import SAMPLES

BOXED = "+---+---+---+\n| 1 |   | 2 |\n+---+---+---+\n| ? | * | 1 |\n+---+---+---+\n"


@pytest.mark.parametrize("text, blank, rows", [
    (BOXED, "unknown", ["1?2", "?*1"]),
    (BOXED, "zero", ["102", "?*1"]),
    (" 1 | . | 2\n---+---+---\n ? | F | 1\n", "unknown", ["1?2", "?*1"]),
    ("| 1 | # | 2 |\n|---|:-:|---|\n| ? | X | 1 |\n", None, ["1?2", "?*1"]),
    ("Puzzle 1\n|1|?|2|\n|?|M|1|\n(from a page)\n", None, ["1?2", "?*1"]),
])
def test_layouts(text, blank, rows):
    assert parse(text, "ascii-grid", blank=blank).grid_lines == rows


def test_text_around_the_grid_becomes_notes():
    assert parse("# Puzzle 1\n|1|?|\n|?|1|\nsolution below\n", "ascii-grid").notes == ("Puzzle 1", "solution below")


@pytest.mark.parametrize("text, where, msg", [
    (BOXED, (2, 7), "--blank unknown or --blank zero"),
    ("| 1 | q |\n| 1 | 1 |\n", (1, 7), "'q' is not a grid cell"),
    ("| 1 | 1 |\n| 1 |\n", (2, 1), "rectangular"),
    ("|1|1|\n|1|1|\ntext\n|1|1|\n", (4, 1), "one grid per file"),
    ("no grid here\n", (2, 1), "no grid lines"),
    ("|8|?|\n|?|?|\n", (1, 2), "only 3 neighbours"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "ascii-grid", source="g.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_bad_blank_value():
    with pytest.raises(FormatError, match="unknown' or 'zero'"):
        parse(BOXED, "ascii-grid", blank="maybe")


@pytest.mark.parametrize("text, score", [
    (BOXED, LIKELY), ("|1|?|\n|?|1|\n", POSSIBLE), ("??\n12\n", NO), ("|1|?|\n|?|\n", NO), ("| a | b |\n", NO),
])
def test_detect(text, score):
    assert detect_ascii_grid(text) == score


def test_cli_blank_flag_and_sample(tmp_path, capsys):
    assert main(["solve", str(SAMPLES / "dusautoy-6x6.grid"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2],
                                                             [5, 3]]
    board = tmp_path / "board.grid"
    board.write_text(BOXED)
    assert main(["info", str(board)]) == 2
    assert f"{board}:2:7:" in capsys.readouterr().err
    assert main(["info", str(board), "--blank", "zero", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unknown"] == 1
