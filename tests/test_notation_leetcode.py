"""LeetCode 529 boards: E/M unrevealed (unknown), B blank (0), digits, X revealed mine; total = M + X."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.formats.notations.leetcode import detect_leetcode
from mineconv.formats.registry import LIKELY, NO, POSSIBLE
from tests.conftest import SAMPLES


@pytest.mark.parametrize("text", [
    '[["B","1","E"],["B","1","M"]]',
    "[['B', '1', 'E'], ['B', '1', 'M']]",
    'board = [["B","1","E"],["B","1","M"]], click = [0,2]',
    '["B1E", "B1M"]',
    "B1E\nB1M\n",
    "B 1 E\nB 1 M",
])
def test_layouts(text):
    p = parse(text, "leetcode")
    assert (p.grid_lines, p.mines) == (["01?", "01?"], 1)


def test_revealed_mine_and_click_note():
    p = parse('board = [["X","1"],["1","1"]], click = [0,0]', "leetcode")
    assert (p.grid_lines, p.mines, p.notes) == (["*1", "11"], 1, ("click: [0, 0]",))


@pytest.mark.parametrize("text, where, msg", [
    ('[["E","Q"]]', (1, 8), "'Q' is not a LeetCode cell"),
    ('[["E","E"],\n ["E"]]', (2, 2), "rectangular"),
    ('[["E","EE"]]', (1, 7), "one-character string"),
    ('[["E","E"]', (1, 11), "not closed"),
    ('[["E"]] foo', (1, 9), "after the board"),
    ("EQ\nEE\n", (1, 2), "not a LeetCode cell"),
    ('[["8","E"]]', (1, 4), "only 1 neighbour"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "leetcode", source="l.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, score", [
    ('[["E","E"],["E","M"]]', LIKELY), ('["B1E", "B1M"]', LIKELY), ("B1E\nB1M\n", POSSIBLE),
    ("11\n11\n", NO), ('known = ["01?1"]', NO), ("[[1, -1]]", NO),
])
def test_detect(text, score):
    assert detect_leetcode(text) == score


def test_cli_solve_gives_the_published_mine(capsys):
    assert main(["solve", str(SAMPLES / "leetcode-529.leetcode"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == [[1, 2]]     # the board's 'M'
