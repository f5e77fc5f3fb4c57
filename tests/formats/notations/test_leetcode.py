"""LeetCode 529 boards: E/M unrevealed (unknown), B blank (0), digits, X revealed mine; total = M + X."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, dumps, parse
from mineconv.formats.collection import CollectionWarning
from mineconv.formats.notations.leetcode import puzzles
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
    ('[["E","E"]] ]', (1, 13), "closes nothing"),
    ('char[][] b = {{\'E\', \'M\'}, {\'E\', \'Z\'}};', (1, 34), "'Z' is not a LeetCode cell"),
    ('["EE", "E"]', (1, 8), "rectangular"),
    ("[['E', 'M']", (1, 12), "not closed"),
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


# how the boards sit in real files: solutions' code (Java, C++, Go, C#), LeetCode's test-case files, doctests
JAVA = """public static void main(String[] args) {
    char[][] board = {{'E', 'E', 'E'},
                      {'E', 'M', 'E'}};   // the mine is in the middle
    int[] click = {1, 0};
    System.out.println(new Solution().updateBoard(board, click));
}
"""
GO_TABLE = """tests := []struct{ name string; board [][]byte; click []int; want [][]byte }{
	{"one", [][]byte{
		{'E', 'E'},
		{'E', 'M'},
	}, []int{0, 0}, [][]byte{
		{'1', 'E'},
		{'E', 'M'},
	}},
}
"""
TESTCASES = '[["E","E","E"],["E","M","E"]]\n[1,0]\n[["B","1","E"],["B","1","M"]]\n[0,2]\n'


@pytest.mark.parametrize("text", [
    JAVA,
    "vector<vector<char>> board = {{'E','E','E'},{'E','M','E'}};\nvector<int> click = {1,0};",
    "var b = new char[2][] { new char[3]{'E','E','E'}, new char[3]{'E','M','E'} };",
    '>>> example = [["E","E","E"],["E","M","E"]], [1,0]',
])
def test_boards_in_code(text):
    p = parse(text, "leetcode")
    assert (p.grid_lines, p.mines) == (["???", "???"], 1)
    assert [n for n in p.notes if n.startswith("[real] ")] == ["[real] 111", "[real] 1*1"]


def test_code_comments_are_not_notes_but_a_data_file_s_are():
    assert not any(n.startswith("the mine") for n in parse(JAVA, "leetcode").notes)
    assert parse('# case 1\n[["E","M"]]', "leetcode").notes[0] == "case 1"


def test_a_test_case_file_is_a_collection():
    found = puzzles(TESTCASES)
    assert [label for label, _ in found] == ["click [1, 0]", "click [0, 2]"]
    assert found[1][1].grid_lines == ["01?", "01?"] and found[1][1].mines == 1
    with pytest.warns(CollectionWarning, match="2 boards"):
        first = parse(TESTCASES, "leetcode")
    assert first.notes[0] == "click: [1, 0]"
    assert parse(TESTCASES, "leetcode", puzzle=2) == found[1][1]


def test_a_go_test_table_gives_input_and_expected_boards():
    found = puzzles(GO_TABLE)
    assert [label for label, _ in found] == ["click [0, 0]", "no click"]
    assert found[1][1].grid_lines == ["1?", "??"]


def test_m_is_unknown_so_a_board_is_never_solved_by_reading():
    p = parse('[["E","E","E","E","E"],["E","E","M","E","E"],["E","E","E","E","E"],["E","E","E","E","E"]]',
              "leetcode")
    assert p.stats["unknown"] == 20 and p.mines == 1 and p.known_mine_count == 0
    assert "[real] 01110" in p.notes and "[real] 01*10" in p.notes


def test_a_board_whose_mines_break_a_count_says_so():
    p = parse('[["2","E"],["E","M"]]', "leetcode")
    assert p.notes == ("answer: the board's 1 mine break the count 2 at row 1, column 1 (1 around it)",)


def test_round_trip_keeps_the_layout(tmp_path):
    p = parse(TESTCASES, "leetcode", puzzle=2)
    text = dumps(p, "leetcode")
    assert text == '[["B","1","E"],\n ["B","1","M"]]\n'
    back = parse(text, "leetcode")
    assert back == p.replace(notes=tuple(n for n in p.notes if not n.startswith("click")))
    assert "[real]\n011\n01*\n" in dumps(back, "ms-board")


SOLUTION_WITH_CASES_BELOW = """class Solution {
    // Let's play: 'M' is a mine (see the rules (1) and (2)
    vector<vector<char>> updateBoard(vector<vector<char>>& board, vector<int>& click) {
        if (board[click[0]][click[1]] == 'M') { board[click[0]][click[1]] = 'X'; return board; }
        return board;
    }
};
/*
[["E","E","E"],["E","M","E"]]
[1,0]
[["E","E","E"],["E","M","E"]]
[5,9]
*/
"""


def test_boards_pasted_in_comments_read_when_the_code_has_none():
    found = puzzles(SOLUTION_WITH_CASES_BELOW)
    # prose with a lone quote and an unclosed parenthesis does not stop the reading; [5,9] is no cell
    assert [label for label, _ in found] == ["click [1, 0]", "no click"]
    assert found[0][1].grid_lines == ["???", "???"] and found[0][1].mines == 1


def test_a_doctest_board_reads():
    text = '''"""Examples.

    >>> sol.updateBoard([["E","M"],["E","E"]], [1,0])
    [['1', 'M'], ['1', '1']]
    """
def f(): pass
'''
    found = puzzles(text)
    assert [q.grid_lines for _, q in found] == [["??", "??"], ["1?", "11"]]


@pytest.mark.parametrize("text, where, msg", [
    ('[["E","M"]]\n[0,0] "', (2, 7), "unclosed quote"),
    ('[["E","M"]]\n[0,0] )', (2, 7), "closes nothing"),
])
def test_a_data_file_is_read_strictly(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "leetcode", source="l.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
