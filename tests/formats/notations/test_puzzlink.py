"""puzz.link / pzv.jp addresses of pzprjs 'mines' puzzles: the number16 body, read and written."""
from __future__ import annotations

import random

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.core.errors import MineconvError
from mineconv.formats.notations.puzzlink import detect_puzzlink
from mineconv.formats.registry import CERTAIN, LIKELY, NO
from mineconv.formats.writing import dumps
from mineconv.core.puzzle import Puzzle
from tests.conftest import SAMPLES
from helpers import mutate

GRID = ["?2???", "????1", "3????", "??13?", "0????"]


@pytest.mark.parametrize("text", [
    "https://puzz.link/p?mines/5/5/g2m13l13g0j",
    "http://pzv.jp/p.html?mines/5/5/g2m13l13g0j",
    "https://puzz.link/p.html?mines/5/5/g2m13l13g0j/",
    "  mines/5/5/g2m13l13g0j\n",
])
def test_address_forms(text):
    assert parse(text, "puzzlink").grid_lines == GRID


def test_sample_detected_and_hidden_clue_is_safe():
    p = parse((SAMPLES / "pzprjs-5x5.puzzlink").read_text())
    assert p.grid_lines == GRID and p.mines is None
    assert parse("mines/5/3/1g1g.j.0g1g./").grid_lines == ["1?1?.", "????.", "0?1?."]


def test_a_short_body_leaves_the_rest_empty():
    assert parse("mines/3/1/1", "puzzlink").grid_lines == ["1??"]


@pytest.mark.parametrize("rows", [GRID, ["." * 21, "?" * 21], ["0" + "?" * 40 + "1"]])
def test_round_trip(rows):
    p = Puzzle.from_rows(rows)
    text = dumps(p, "puzzlink")
    assert text.startswith("https://puzz.link/p?mines/") and parse(text).cells == p.cells


def test_writer_matches_pzprjs_runs():
    # pzprjs's own encoder closes a run at 20 cells ('z')
    assert dumps(Puzzle.from_rows(["?" * 21]), "puzzlink").strip().endswith("/21/1/zg")


@pytest.mark.parametrize("text, col, msg", [
    ("mines/5/5/g2m13l13g0jg", 22, "goes on after"),
    ("mines/3/1/9", 11, "not a Minesweeper count"),
    ("mines/3/1/-1f", 11, "not a Minesweeper count"),
    ("mines/3/1/-1", 11, "2 hex digits"),
    ("mines/3/1/1A", 12, "not a character"),
    ("mines/3/1/z", 11, "goes past"),
    ("mines/0/1/", 7, "column count"),
    ("mines/3/x/", 9, "row count"),
    ("https://puzz.link/p?nurikabe/3/1/1", 21, "'nurikabe' puzzle"),
    ("mines/99999/99999/", 7, "--max-cells"),
])
def test_errors_are_located(text, col, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "puzzlink", source="u.txt")
    assert (err.value.line, err.value.column) == (1, col) and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, score", [
    ("https://puzz.link/p?mines/5/5/g2m13", CERTAIN), ("mines/5/5/g2", CERTAIN),
    ("https://puzz.link/p?nurikabe/3/3/g", LIKELY), ("nurikabe/3/3/g", NO), ("1 2\n3 4", NO),
])
def test_detect(text, score):
    assert detect_puzzlink(text) == score


def test_known_mine_and_total_are_reported_lost():
    with pytest.warns(UserWarning, match="known-mine"):
        dumps(Puzzle.from_rows(["1*"], mines=1), "puzzlink")


def test_fuzz_mutations_give_our_error_or_a_puzzle():
    rng = random.Random(7)
    seed = (SAMPLES / "pzprjs-5x5.puzzlink").read_text()
    alphabet = "0123456789abcdefghz-+=%*$./?:mines \n"
    for _ in range(400):
        try:
            assert isinstance(parse(mutate(rng, seed, alphabet), "puzzlink"), Puzzle)
        except MineconvError:
            pass
