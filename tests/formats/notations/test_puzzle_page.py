"""Saved puzzle-minesweeper.com game pages: cells placed by their style's top/left, numbered divs the clues."""
from __future__ import annotations

import os
import random
import subprocess
import warnings
from pathlib import Path

import pytest

import mineconv as mc
from mineconv import AmbiguousInputWarning, PuzzleSyntaxError, parse
from mineconv.core.errors import MineconvError
from mineconv.core.puzzle import Puzzle
from mineconv.formats.detection import rank_formats
from mineconv.formats.notations.puzzle_page import detect_puzzle_page
from mineconv.formats.registry import CERTAIN, LIKELY, NO, WEAK, get_format
from mineconv.formats.writing import dumps
from helpers import ROOT, SAMPLES, brute_force, mutate

SAMPLE = SAMPLES / "pzpage-6x6.html"
SAMPLE_GRID = ["?11??3", "?21???", "?2??2?", "???2??", "???2??", "0????0"]

# tb-aiap/daily-minesweeper-solver keeps two boards scraped from the site (its tests' data); they are read
# from a local mirror of that repository when there is one (beside the repository, where the search tool's
# fetch puts it, or where MINECONV_PAGE_MIRROR says), never copied in: a check of real files as they come,
# not of a solver, so it skips without them in CI too. The grids are our transcription of the expected
# arrays in its src/tests/test_parser.py ("" = unknown).
MIRROR = Path(os.environ.get("MINECONV_PAGE_MIRROR",
                             ROOT.parent / ".mirror" / "tb-aiap+daily-minesweeper-solver" / "repo"))
REAL = {
    "src/tests/data/minesweeper-5x5-easy.html": ["2????", "2??1?", "?211?", "??1?1", "?1???"],
    "src/tests/data/minesweeper-5x5-hard.html": ["2???1", "??32?", "2?3??", "2?23?", "?????"],
}


def cell(top, left, shown="", task=None, classes="", style=None):
    task = bool(shown) if task is None else task
    kind = "task cell-x" if task else (classes or "cell-off")
    number = f'<div class="number number-{shown}">{shown}</div>' if shown else '<div class="number"></div>'
    style = f"top: {top}px; left: {left}px;" if style is None else style
    return f'<div class="cell selectable {kind}" style="{style}" tabindex="-1">\n  {number}\n</div>\n'


def board(rows, pitch=31, offset=3, game='<div class="minesweeper{r}x{c}" id="game">', extra=""):
    cells = "".join(cell(offset + pitch * r, offset + pitch * c, "" if ch == "?" else ch)
                    for r, row in enumerate(rows) for c, ch in enumerate(row))
    head = game.format(r=len(rows), c=len(rows[0]))
    return f'{head}\n<div class="minesweeper-cell-back">\n{cells}{extra}</div>\n</div>\n'


def _real(path):
    if not MIRROR.is_dir():
        pytest.skip(f"the mirror of tb-aiap/daily-minesweeper-solver is not at {MIRROR}")
    return subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:{path}"], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("path", sorted(REAL))
def test_real_saved_boards_read_as_they_come_and_are_unique(path):
    text = _real(path)
    p = parse(text)      # detected by content, as a user would give it
    assert p.grid_lines == REAL[path] and p.mines is None
    assert len(brute_force(p)) == 1    # the site promises one solution


def test_sample_is_a_whole_page_detected_and_unique():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = mc.read(SAMPLE)
    assert p.grid_lines == SAMPLE_GRID and p.mines is None
    found = list(mc.solutions(p, limit=2))
    assert len(found) == 1
    solved = found[0].solved_puzzle()
    for r in range(p.rows):      # the one solution fits every clue (checked here by hand, not by the solver)
        for c in range(p.cols):
            if p[r, c].isdigit():
                around = sum(solved[r + dr, c + dc] == "*" for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if (dr or dc) and 0 <= r + dr < p.rows and 0 <= c + dc < p.cols)
                assert around == int(p[r, c]), (r, c)


@pytest.mark.parametrize("text", [
    board(["1?", "?1"], pitch=40, offset=0),                       # another cell size
    board(["1?", "?1"], game='<div id="game" class="minesweeper2x2 big">'),
    board(["1?", "?1"], game="<div class='minesweeper2x2'>").replace('"', "'"),   # single quotes
    "<div class=\"minesweeper-cell-back\">" + cell(3, 3, "1") + cell(3, 34) + cell(34, 3) + cell(34, 34, "1")
    + "</div>",                                                    # only the cells, no game element
    "\ufeff  " + cell(34, 34, "1") + cell(3, 34) + cell(34, 3) + cell(3, 3, "1"),   # cells in any order
    cell(3, 3, "1", style="left:3px;top:3px") + cell(3, 34, style="LEFT: 34px; top: 3px")
    + cell(34, 3, style=" top : 34px ; left : 3px ") + cell(34, 34, "1"),
])
def test_own_transcriptions(text):
    assert parse(text, "puzzle-page").grid_lines == ["1?", "?1"]
    assert detect_puzzle_page(text) in (CERTAIN, LIKELY)


def test_a_wide_board_and_a_single_cell():
    rows = ["0?1??2?", "???????", "1??3??1"]
    assert parse(board(rows)).grid_lines == rows
    assert parse(board(["0"])).grid_lines == ["0"] and parse(board(["?"])).grid_lines == ["?"]


def test_only_the_game_elements_cells_count_on_a_whole_page():
    page = ("<html><body><p>stray</i> text<br><div class=\"cell\" style=\"top: 0px; left: 0px\">"
            "<div class=\"number\">9</div></div>\n" + board(["1?", "?1"]) + "<div><p>after</div></body></html>")
    assert parse(page).grid_lines == ["1?", "?1"]


@pytest.mark.parametrize("rows", [SAMPLE_GRID, ["0?1", "???", "2??"], ["?"]])
def test_round_trip(rows):
    p = Puzzle.from_rows(rows)
    text = dumps(p, "puzzle-page")
    again = parse(text)
    assert again.cells == p.cells and text == dumps(again, "puzzle-page")


def test_writer_reports_what_the_page_cannot_hold():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        text = dumps(Puzzle.from_rows(["1*", "?."], mines=1), "puzzle-page")
    said = " ".join(str(w.message) for w in seen)
    assert "1 known mine(s)" in said and "1 known safe cell(s)" in said and "total mine count (1)" in said
    assert parse(text).grid_lines == ["1?", "??"]


def test_player_marks_are_read_as_unknown_with_a_warning():
    text = board(["1?", "?1"]).replace('cell selectable cell-off" style="top: 3px; left: 34px',
                                       'cell selectable cell-on" style="top: 3px; left: 34px')
    with pytest.warns(AmbiguousInputWarning, match=r"1 cell marked by the player \(cell-on\) read as unknown"):
        assert parse(text, "puzzle-page").grid_lines == ["1?", "?1"]


OK = board(["1?", "?1"])


@pytest.mark.parametrize("text, line, col, msg", [
    (OK.replace("</div>\n</div>\n", "</span>\n</div>\n", 1), 4, 33, "</span> where the open <div> should close"),
    (OK[:OK.rindex("</div>")], 1, 1, "game element is never closed"),
    (OK.replace("left: 34px", "left: 50px", 1), 12, 1, "off the grid"),
    (OK.replace("left: 34px", "left: 3px", 1), 6, 1, "cells overlap"),
    (cell(3, 3) + cell(3, 34) + cell(3, 96), 7, 1, "spacing is not uniform"),
    (OK.replace(cell(34, 34, "1"), ""), 1, 1, "no cell at row 2, column 2"),
    (OK.replace("top: 3px; left: 34px", "top: 3px", 1), 6, 1, "without its position"),
    (OK.replace("left: 34px", "left: 34em", 1), 6, 1, "not a position in pixels"),
    (OK.replace("left: 34px", "left: 99999999999px", 1), 6, 1, "not a position in pixels"),
    (OK.replace('number number-1">1<', 'number number-9">9<', 1), 4, 3, "not a Minesweeper count"),
    (OK.replace('number number-1">1<', 'number">x<', 1), 4, 3, "not a Minesweeper count"),
    (OK.replace('<div class="number number-1">1</div>', '<div class="number"></div>', 1), 4, 3,
     "clue cell (class 'task') whose number div is empty"),
    (OK.replace('<div class="number"></div>', "", 1), 6, 1, "without its number div"),
    (OK.replace('<div class="number"></div>', '<div class="number"></div><div class="number"></div>', 1), 7, 29,
     "a second number div"),
    (OK.replace('minesweeper2x2"', 'minesweeper3x3"'), 1, 1, "says minesweeper3x3"),
    ('<div id="game" class="nurikabe5x5">' + cell(3, 3) + "</div>", 1, 1, "another puzzle-*.com game"),
    ("<!DOCTYPE html>\n<html><body><p>hello</p></body></html>\n", 1, 1, "no puzzle-minesweeper.com board"),
    (cell(3, 3, "1").replace("</div>\n</div>", "<div class=\"cell\"></div></div></div>"), 2, 33, "cell inside"),
    ("<div class=\"cell\" style=\"top: 3px; left: 3px\"/>", 1, 1, "self-closed"),
    ('<html><body><div id="A43"><div class="cell size24 hd_closed" id="cell_0_0"></div></div></body></html>', 1, 27,
     "without its position (style=\"top: ..px; left: ..px\"; no top): is this a puzzle-minesweeper.com board?"),
])
def test_errors_are_located(text, line, col, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "puzzle-page", source="page.html")
    assert (err.value.line, err.value.column) == (line, col) and msg in err.value.message, str(err.value)


def test_an_absurd_board_is_refused_before_it_is_built():
    # 4100 cells on a diagonal make a 4100 x 4100 lattice: refused by --max-cells, nothing of that size built
    text = "".join(cell(31 * i, 31 * i) for i in range(4100))
    with pytest.raises(MineconvError, match="--max-cells"):
        parse(text, "puzzle-page")


@pytest.mark.parametrize("text, score", [
    (OK, CERTAIN), (OK.split("\n", 2)[2], LIKELY), (cell(3, 3, "1"), LIKELY),
    ("<html><body>nothing</body></html>", WEAK), ("1 2\n3 4", NO), ("?1\n1?", NO),
    ("   " * 2000 + "<html>", NO),
])
def test_detect(text, score):
    assert detect_puzzle_page(text) == score


def test_a_page_that_is_no_game_is_told_so_not_misread():
    ranked = rank_formats("<!DOCTYPE html>\n<html><head><title>Mines</title></head><body>1?\n?1</body></html>")
    assert ranked and ranked[0][1].name == "puzzle-page"


def test_fuzz_mutations_give_our_error_or_a_puzzle():
    # the reader itself, as the slow campaign calls it (parse's error hints would dominate the time)
    reader = get_format("puzzle-page").reader
    rng = random.Random(20)
    seed = SAMPLE.read_text()
    alphabet = "<>/=\"' ;:-0123456789pxtopleftdivclasscellnumbertask\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(400):
            try:
                assert isinstance(reader(mutate(rng, seed, alphabet, most=6), "fuzz.html"), Puzzle)
            except MineconvError:
                pass
