"""exercism minesweeper canonical-data.json: every case's minefield with its annotation, read fully revealed."""
from __future__ import annotations

import json
import random
import warnings

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.core.errors import MineconvError
from mineconv.core.puzzle import Puzzle
from mineconv.formats.collection import CollectionWarning
from mineconv.formats.notations.exercism import detect_exercism, puzzles
from mineconv.formats.registry import CERTAIN, LIKELY, NO
from tests.conftest import SAMPLES
from helpers import mutate

FRAMED = {"exercise": "minesweeper", "version": "1.1.0", "cases": [
    {"description": "no columns", "input": {"minefield": ["++", "++"]}, "expected": ["++", "++"]},
    {"description": "horizontal line", "property": "annotate",
     "input": {"minefield": ["+-----+", "| * * |", "+-----+"]}, "expected": ["+-----+", "|1*2*1|", "+-----+"]}]}


def test_sample_numbers_the_empty_board_reads_the_first_with_one_and_warns():
    # issue 40.1: every case keeps the file's number; the empty one is listed, not skipped
    text = (SAMPLES / "exercism-minesweeper.exercism.json").read_text()
    with pytest.warns(CollectionWarning, match="3 cases"):
        p = parse(text, layout_as="annotated")   # the reading before the one rule for layouts (issue 40.3)
    assert (p.grid_lines, p.mines, p.name) == (["111", "1*1", "111"], 1, "mine surrounded by spaces")
    assert [lab for lab, _ in puzzles(text)] == ["no rows", "mine surrounded by spaces", "large minefield"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert parse(text, "exercism", puzzle=3, layout_as="annotated").grid_lines[2] == "0123*2"


def test_framed_rows_and_old_list_input():
    assert parse(json.dumps(FRAMED), "exercism", layout_as="annotated").grid_lines == ["1*2*1"]
    old = {"cases": [{"description": "d", "input": ["* "], "expected": ["*1"]}], "exercise": "minesweeper"}
    assert parse(json.dumps(old), "exercism", layout_as="annotated").grid_lines == ["*1"]


def test_missing_annotation_is_computed():
    doc = {"exercise": "minesweeper", "cases": [{"description": "d", "input": {"minefield": ["*  "]}}]}
    assert parse(json.dumps(doc, indent=1), "exercism", layout_as="annotated").grid_lines == ["*10"]


@pytest.mark.parametrize("rows, expected, at, msg", [
    (["* "], ["*2"], '2"]', "annotation shows '2'"),
    (["*x"], ["*1"], 'x"', "not a minefield cell"),
    (["* ", "*"], ["*1", "*"], '"*"', "row 2 has 1 cell"),
])
def test_errors_are_located(rows, expected, at, msg):
    doc = {"exercise": "minesweeper", "cases": [{"description": "d", "input": {"minefield": rows},
                                                 "expected": expected}]}
    text = json.dumps(doc)
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "exercism", source="c.json")
    col = text.index(at) + 1 + (1 if at.startswith('"') else 0)
    assert (err.value.line, err.value.column) == (1, col) and msg in err.value.message, str(err.value)


def test_out_of_range_and_not_json():
    with pytest.raises(PuzzleSyntaxError, match="holds only 3 cases"):
        parse((SAMPLES / "exercism-minesweeper.exercism.json").read_text(), "exercism", puzzle=4)
    with pytest.raises(PuzzleSyntaxError, match="not valid JSON"):
        parse('{"exercise": "minesweeper", "cases": [', "exercism")


@pytest.mark.parametrize("text, score", [
    ('{"exercise": "minesweeper", "cases": []}', CERTAIN), ('{"cases": [{"input": {"minefield": []}}]}', LIKELY),
    ('{"cases": []}', NO),
])
def test_detect(text, score):
    assert detect_exercism(text) == score


def test_fuzz_mutations_give_our_error_or_a_puzzle():
    rng = random.Random(3)
    seed = (SAMPLES / "exercism-minesweeper.exercism.json").read_text()
    for _ in range(300):
        text = mutate(rng, seed, '* 12"[]{},:x\n')
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", CollectionWarning)
                assert isinstance(parse(text, "exercism", puzzle=rng.choice([None, 2])), Puzzle)
        except MineconvError:
            pass
