"""pzprjs saved files (pzprv3) of 'mines' puzzles: the question is the puzzle, the answer becomes notes."""
from __future__ import annotations

import random

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.core.errors import MineconvError
from mineconv.core.puzzle import Puzzle
from mineconv.formats.notations.pzprv3 import detect_pzprv3
from mineconv.formats.registry import CERTAIN, LIKELY, NO
from mineconv.formats.writing import dumps
from tests.conftest import SAMPLES
from helpers import mutate

QUESTION = "pzprv3\nmines\n5\n5\n. 2 . . . \n. . . . 1 \n3 . . . . \n. . 1 3 . \n0 . . . . \n"
GRID = ["?2???", "????1", "3????", "??13?", "0????"]


def test_sample_answer_is_verified():
    p = parse((SAMPLES / "pzprjs-5x5.pzprv3").read_text())
    assert p.grid_lines == GRID
    assert p.notes[-1] == "answer: verified, its 6 mines fit every clue"
    assert p.notes[0] == "answer: ..+../##+../.#++#/++..#/.+++#"


def test_a_wrong_answer_is_named_not_refused():
    # pzprjs's own failing check from its test script: the mines break a clue
    answer = ". . . . # \n# # . . . \n. . . . . \n# . . . # \n. . . # # \n"
    p = parse(QUESTION + answer, "pzprv3")
    assert "break the clue" in p.notes[-1]


def test_question_only_and_hidden_clue():
    assert parse(QUESTION, "pzprv3").notes == ()
    assert parse("pzprv3\nmines\n1\n3\n- . 1 \n", "pzprv3").grid_lines == [".?1"]


def test_round_trip_and_known_mines_go_to_the_answer():
    p = Puzzle.from_rows(["1*?", ".1?"])
    with pytest.warns(UserWarning, match="known-mine"):
        text = dumps(p, "pzprv3")
    assert text.splitlines()[4:] == ["1 . . ", "- 1 . ", ". # . ", ". . . "]
    back = parse(text)
    assert back.grid_lines == ["1??", ".1?"]
    plain = Puzzle.from_rows(GRID)
    assert parse(dumps(plain, "pzprv3")).cells == plain.cells


@pytest.mark.parametrize("text, where, msg", [
    ("pzprv3\nnurikabe\n1\n1\n. \n", (2, 1), "'nurikabe' puzzle"),
    ("pzprv3\nmines\nx\n1\n", (3, 1), "row count"),
    ("pzprv3\nmines\n2\n2\n. . \n", (6, 1), "ends after 1"),
    ("pzprv3\nmines\n1\n2\n. 9 \n", (5, 3), "not a Minesweeper count"),
    ("pzprv3\nmines\n1\n2\n. x \n", (5, 3), "not a question cell"),
    ("pzprv3\nmines\n1\n2\n. . . \n", (5, 6), "3 cells"),
    ("pzprv3\nmines\n1\n2\n. 1 \n. # \n", (6, 3), "marks the clue cell"),
    ("pzprv3\nmines\n99999\n99999\n", (3, 1), "--max-cells"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "pzprv3", source="f.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, score", [
    (QUESTION, CERTAIN), ("pzprv3\nnurikabe\n", LIKELY), ("pzprv3.1\nmines\n1\n1\n", CERTAIN), ("mines\n", NO),
])
def test_detect(text, score):
    assert detect_pzprv3(text) == score


def test_fuzz_mutations_give_our_error_or_a_puzzle():
    rng = random.Random(11)
    seed = (SAMPLES / "pzprjs-5x5.pzprv3").read_text()
    alphabet = "0123456789-.#+ \n\txm"
    for _ in range(400):
        try:
            assert isinstance(parse(mutate(rng, seed, alphabet, most=5), "pzprv3"), Puzzle)
        except MineconvError:
            pass
