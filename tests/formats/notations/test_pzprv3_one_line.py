"""pzprv3 on one line, '/' ending each line, as pzprjs's test scripts and answer strings write it (issue 40.2)."""
from __future__ import annotations

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.formats.detection import rank_formats
from mineconv.formats.notations.pzprv3 import detect_pzprv3
from mineconv.formats.registry import CERTAIN, LIKELY
from tests.helpers import run_cli

# our own 3 x 4 board in the shape of pzprjs's failcheck strings: tag/type/rows/cols/, the question rows,
# then the answer rows, every row ending in ' /'
QUESTION = "pzprv3/mines/3/4/1 . . - /. 2 . . /0 . 1 . /"
ANSWER = ". # + . /+ . # + /. + . + /"
MULTI = "pzprv3\nmines\n3\n4\n1 . . - \n. 2 . . \n0 . 1 . \n. # + . \n+ . # + \n. + . + \n"


def test_one_line_reads_as_the_multi_line_form():
    one = parse(QUESTION + ANSWER)
    many = parse(MULTI)
    assert one.grid_lines == many.grid_lines == ["1??.", "?2??", "0?1?"]
    assert one.notes == many.notes
    assert one.notes[-1] == "answer: verified, its 2 mines fit every clue"


def test_question_only_and_a_wrong_answer():
    assert parse(QUESTION, "pzprv3").notes == ()
    wrong = parse(QUESTION + ". . + . /+ . # + /. + . + /")
    assert "break the clue" in wrong.notes[-1]
    assert parse(QUESTION + "\n").grid_lines == ["1??.", "?2??", "0?1?"]   # a final newline is fine


def test_detected_by_content():
    assert detect_pzprv3(QUESTION + ANSWER) == CERTAIN
    assert detect_pzprv3("pzprv3/snake/4/4/. . 1 . . /") == LIKELY
    assert rank_formats(QUESTION)[0][1].name == "pzprv3"


def test_errors_point_into_the_one_line():
    bad = QUESTION.replace("0 . 1", "0 x 1")
    with pytest.raises(PuzzleSyntaxError) as exc:
        parse(bad)
    assert (exc.value.line, exc.value.column) == (1, bad.index("x") + 1)
    short = "pzprv3/mines/3/4/1 . . - /. 2 . /0 . 1 . /"
    with pytest.raises(PuzzleSyntaxError, match="3 cells, the board has 4 columns") as exc:
        parse(short)
    assert exc.value.line == 1
    with pytest.raises(PuzzleSyntaxError, match="ends after 2"):
        parse("pzprv3/mines/3/4/1 . . - /. 2 . . /")


def test_cli_reads_it(capsys, tmp_path):
    f = tmp_path / "mines.txt"
    f.write_text(QUESTION + ANSWER)
    rc, out, _ = run_cli(capsys, "convert", f, "-o", "-", "--to", "native")
    assert rc == 0 and out.splitlines()[-3:] == ["1??.", "?2??", "0?1?"]
