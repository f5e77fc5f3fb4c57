"""UVa 10189 / Programming Challenges 110102 fields: input ('n m', '*' and '.') and 'Field #k:' output."""
from __future__ import annotations

import random
import warnings

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.core.errors import FormatError, MineconvError
from mineconv.core.puzzle import Puzzle
from mineconv.formats.collection import CollectionWarning
from mineconv.formats.notations.contest_fields import detect_contest_fields, puzzles
from mineconv.formats.registry import LIKELY, NO, POSSIBLE
from tests.conftest import SAMPLES
from helpers import mutate

OUTPUT = "Field #1:\n*100\n2210\n1*10\n1110\n\nField #2:\n**100\n33200\n1*100\n"


def test_input_dot_is_safe_without_count_and_the_first_field_warns():
    text = (SAMPLES / "pc110102-fields.in").read_text()
    with pytest.warns(CollectionWarning, match="2 fields.*--puzzle N"):
        p = parse(text, layout_as="mines")   # the reading before the one rule for layouts (issue 40.3)
    assert (p.grid_lines, p.mines, p.name) == (["*...", "....", ".*..", "...."], 2, "Field #1")


def test_puzzle_option_and_listing():
    text = (SAMPLES / "pc110102-fields.in").read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = parse(text, "contest-fields", puzzle="2", layout_as="mines")
    assert p.grid_lines == ["**...", ".....", ".*..."]
    assert [label for label, _ in puzzles(text)] == ["Field #1", "Field #2"]


def test_output_blocks_are_revealed_boards():
    got = puzzles(OUTPUT, layout_as="annotated")   # the reading before the one rule for layouts
    assert [(lab, p.grid_lines[0], p.mines) for lab, p in got] == [("Field #1", "*100", 2), ("Field #2", "**100", 3)]


@pytest.mark.parametrize("text, opt, where, msg", [
    ("2 2\n*.\n.x\n0 0\n", None, (3, 2), "not a field cell"),
    ("2 2\n*.\n...\n0 0\n", None, (3, 3), "header says 2"),
    ("3 2\n*.\n..\n", None, (4, 1), "file ends first"),
    ("2 0\n", None, (1, 1), "no cells"),
    ("x 2\n", None, (1, 1), "field header"),
    ("99999 99999\n", None, (1, 1), "--max-cells"),
    ("1 1\n*\n0 0\n", "2", (4, 1), "holds only 1 field"),
    ("Field #1:\n*1\n12\n*\n", None, (4, 2), "first row of Field #1"),
])
def test_errors_are_located(text, opt, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "contest-fields", source="f.in", puzzle=opt)
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("value", ["0", "x", "-1"])
def test_bad_puzzle_option(value):
    with pytest.raises(FormatError):
        parse("1 1\n*\n0 0\n", "contest-fields", puzzle=value)


@pytest.mark.parametrize("text, score", [
    ("4 4\n*...\n....\n.*..\n....\n0 0\n", LIKELY), ("1 2\n*.\n", POSSIBLE), (OUTPUT, LIKELY),
    ("1 2\n3 4\n", NO), ("Field #1:\nabc\n", NO),
])
def test_detect(text, score):
    assert detect_contest_fields(text) == score


def test_fuzz_mutations_give_our_error_or_a_puzzle():
    rng = random.Random(5)
    for seed in ((SAMPLES / "pc110102-fields.in").read_text(), OUTPUT):
        for _ in range(300):
            text = mutate(rng, seed, "0123456789*. \n#F:x")
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", CollectionWarning)
                    assert isinstance(parse(text, "contest-fields", puzzle=rng.choice([None, "2"])), Puzzle)
            except MineconvError:
                pass
