"""Solver libraries' own boards: minesolver (# unknown, . = 0), minesweepr (x unknown, . = 0), Tatham's
Mines text form (- = 0), MiniZinc mine layouts (in_mine_pos, -1 a mine) and game states (fields, not_mines)."""
from __future__ import annotations

import warnings

import pytest

from mineconv import AmbiguousInputWarning, PuzzleSyntaxError, dumps, parse
from mineconv.formats.notations.minesolver import detect_minesolver
from mineconv.formats.notations.minesweepr import detect_minesweepr
from mineconv.formats.notations.tatham_text import detect_tatham_text
from mineconv.formats.reading import read
from mineconv.formats.registry import LIKELY, NO, POSSIBLE
from tests.conftest import SAMPLES

# a 30 x 16 board of minesolver's kind: blank lines only group rows for the eye
GROUPED = "# # 1 .\n# 2 1 .\n\n# 2 . .\n* 1 . .\n"


def test_minesolver_cells():
    p = parse(GROUPED, "minesolver")
    assert p.grid_lines == ["??10", "?210", "?200", "*100"] and p.mines is None


@pytest.mark.parametrize("token", ["*", "F", "M", "!", "*1", "F1"])
def test_minesolver_mine_spellings(token):
    assert parse(f"# 1\n1 {token}\n", "minesolver").grid_lines == ["?1", "1*"]


@pytest.mark.parametrize("text, where, msg", [
    ("# 2\n# *2\n", (2, 3), "2 mines in one cell"),
    ("# X\n# 1\n", (1, 3), "wrong flag"),
    ("# q\n# 1\n", (1, 3), "'q' is not a minesolver cell"),
    ("# 1\n# 1 #\n", (2, 1), "rectangular"),
    ("# 9\n# #\n", (1, 3), "not a minesolver cell"),
    ("# 8\n# #\n", (1, 3), "only 3 neighbours"),
])
def test_minesolver_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "minesolver", source="b.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_minesweepr_cells_and_blank_splitting():
    p = parse("...2x\n.113x\n.2*xx\n", "minesweepr")
    assert p.grid_lines == ["0002?", "0113?", "02*??"]
    assert parse("..1x ..1x\n", "minesweepr").grid_lines == ["001?", "001?"]   # minesweepr splits at any blank


@pytest.mark.parametrize("text, where, msg", [
    ("..x\n.?x\n", (2, 2), "'?' is not a minesweepr cell"),
    ("..x\n.x\n", (2, 1), "rectangular"),
    ("8.x\n..x\n", (1, 1), "only 3 neighbours"),
])
def test_minesweepr_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "minesweepr", source="b.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_tatham_text_cells_and_the_bang_note():
    p = parse("??1-\n?21-\n*1--\n", "tatham-text")
    assert p.grid_lines == ["??10", "?210", "*100"] and not p.notes
    shown = parse("!1-\n11-\n", "tatham-text")
    assert shown.grid_lines == ["?10", "110"] and "read as unknown" in shown.notes[0]


@pytest.mark.parametrize("text, where, msg", [
    ("?1-\n?x-\n", (2, 2), "'x' is not a Mines square"),
    ("?1-\n?1\n", (2, 1), "rectangular"),
])
def test_tatham_text_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "tatham-text", source="b.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


LAYOUT = "square_size = 3;\nin_mine_pos = [| 0, 0, 0 | 0, -1, 0 | 0, 0, 0 |];\n"


def test_a_minizinc_layout_is_its_full_reveal():
    p = parse(LAYOUT, "dzn")
    assert p.grid_lines == ["111", "1?1", "111"] and p.mines == 1
    assert parse(LAYOUT.replace("-1", "1"), "dzn").grid_lines == p.grid_lines


def test_a_minizinc_layout_opened_at_a_cell():
    text = "square_size = 4;\nin_mine_pos = [| 0, 0, 0, 0 | 0, 0, 0, 0 | 0, 0, 0, 0 | 0, 0, 0, -1 |];\n"
    assert parse(text, "dzn", reveal_from="0,0").grid_lines == ["0000", "0000", "0011", "001?"]


@pytest.mark.parametrize("text, where, msg", [
    (LAYOUT.replace("-1", "2"), (2, 31), "each entry 0 (no mine) or -1"),
    (LAYOUT.replace("| 0, 0, 0 |]", "| 0, 1, 0 |]"), (2, 42), "not both"),
    (LAYOUT.replace("3;", "4;"), (1, 15), "square_size = 4 but in_mine_pos has 3 rows"),
    (LAYOUT + "mines = 2;\n", (3, 9), "the total says 2 mines but in_mine_pos holds 1"),
])
def test_minizinc_layout_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "dzn", source="d.dzn")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_reveal_from_on_a_minizinc_game_is_refused():
    with pytest.raises(Exception, match="game"):
        parse("game = [| 1, -1 |];\n", "dzn", reveal_from="0,0")


# the game state razogarz/minesweeper-engineering's player hands to MiniZinc (data_gen.dzn): fields with -1
# unchecked, 0..8 counts and 9 a revealed mine; not_mines 1 where the player knows there is no mine
STATE = ("rows = 3;\ncols = 3;\nmines_count = 2;\n"
         "not_mines = array2d(1..rows, 1..cols, [0,0,1,0,0,0,0,0,0,]);\n"
         "fields = array2d(1..rows, 1..cols, [-1,-1,-1,1,2,-1,0,1,9,]);\n")


def test_a_minizinc_game_state_with_a_safe_mask():
    p = parse(STATE, "dzn")
    assert p.grid_lines == ["??.", "12?", "01*"] and p.mines == 2
    assert parse(STATE, source="data_gen.dzn").grid_lines == p.grid_lines   # detected by content


@pytest.mark.parametrize("text, where, msg", [
    (STATE.replace("[0,0,1,", "[0,0,2,"), (4, 44), "expected 1 (known to hold no mine) or 0"),
    (STATE.replace("0,0,0,0,0,0,]", "0,0,0,0,0,1,]"), (4, 56), "shows a mine there"),
    (STATE.replace("1..cols, [0,0,1,0,0,0,0,0,0,]", "1..2, [0,0,1,0,0,0,]"), (4, 13), "3 x 2 but fields is 3 x 3"),
    (STATE.replace("game", "").replace("fields", "game"), (5, 55), "game[3,3] = 9"),   # 9 is a mine in fields only
])
def test_minizinc_game_state_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "dzn", source="d.dzn")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("fmt", ["minesolver", "minesweepr", "tatham-text"])
def test_round_trip(fmt):
    p = parse("??10\n?210\n*100\n", "native")
    assert parse(dumps(p, fmt), fmt) == p


@pytest.mark.parametrize("detect, text, score", [
    (detect_minesolver, "# # 1\n3 # 2\n", LIKELY),
    (detect_minesolver, ". 1 *\n. 1 1\n", POSSIBLE),
    (detect_minesolver, "1 1\n1 1\n", NO),
    (detect_minesolver, "##1\n#21\n", NO),          # blog-text's excluded cells, no blanks between cells
    (detect_minesolver, "# a comment\n? 1\n", NO),  # native text with a comment line
    (detect_minesweepr, "..1x\n..1x\n", LIKELY),
    (detect_minesweepr, "..1*\n..11\n", NO),        # no 'x': the dot notations' grid
    (detect_minesweepr, "..1x\n..1\n", NO),
    (detect_minesweepr, "12\n3x\n", NO),           # no '.': a native grid with a typo, say
    (detect_tatham_text, "?1-\n?1-\n", LIKELY),
    (detect_tatham_text, "?1?\n?1*\n", NO),         # native text alike
    (detect_tatham_text, "---\n", NO),              # a rule line
])
def test_detect(detect, text, score):
    assert detect(text) == score


@pytest.mark.parametrize("name, fmt", [
    ("minesolver-5x5.minesolver", "minesolver"), ("minesweepr-5x5.minesweepr", "minesweepr"),
    ("in-mine-pos-5x5.dzn", "dzn"), ("tatham-9x9n10-opened.mines-text", "tatham-text"),
])
def test_samples_are_detected_by_content(tmp_path, name, fmt):
    bare = tmp_path / "board.txt"
    bare.write_bytes((SAMPLES / name).read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("error", AmbiguousInputWarning)
        assert read(bare) == read(SAMPLES / name) == parse((SAMPLES / name).read_text(), fmt)


def test_dot_means_zero_here_and_unknown_there_so_a_blank_separated_grid_warns():
    # '.' is 0 to minesolver and a known safe cell to native text: both read it, the registry says so
    with pytest.warns(AmbiguousInputWarning, match="--from native"):
        p = parse(". 1 *\n. 1 1\n")
    assert p.grid_lines == ["01*", "011"]


def test_the_minesolver_sample_gives_the_probabilities_its_readme_prints():
    # minesolver's zig/README.md runs example2.txt with --mines 8 and prints these (4 decimals)
    from mineconv import analyze
    grid = analyze(read(SAMPLES / "minesolver-5x5.minesolver").replace(mines=8)).probability_grid
    printed = [[0.2711, 0, 0.2711, 0.3133, 0.3133], [0.4859, 0.4859, 0.4859, 0.3133, 0.3133],
               [0.2651, 0, 0.5060, 0.5494, 0.5494], [0.2651, 0, 0.5060, 0, 0.5494],
               [0.1084, 0.1084, 0.2410, 0.5494, 0.5494]]
    assert [[round(v or 0, 4) for v in row] for row in grid] == printed


@pytest.mark.parametrize("text, where, msg", [
    ("# # 1\n3 # Q\n", (2, 5), "'Q' is not a minesolver cell"),
])
def test_an_odd_cell_is_named_by_the_notation_the_file_looks_like(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, source="b.txt")       # no --from: detected by content
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_minesweepr_readme_board_gives_the_probabilities_its_readme_prints():
    # minesweepr's README solves this 10 x 10 easy board (10 mines); it tags the front cells A..I for
    # illustration and says to give the board untagged: the tags are x here (transcribed)
    from mineconv import analyze
    board = "..1xxxxxxx\n..2xxxxxxx\n..3xxxxxxx\n..2xxxxxxx\n112xxxxxxx\n" + "xxxxxxxxxx\n" * 5
    grid = analyze(parse(board, "minesweepr").replace(mines=10)).probability_grid
    tagged = {"A": (0, 3), "B": (1, 3), "C": (2, 3), "D": (3, 3), "E": (4, 3), "F": (5, 3), "G": (5, 2),
              "H": (5, 1), "I": (5, 0), None: (9, 9)}
    printed = {"A": 0.0, "B": 1.0, "C": 1.0, "D": 1.0, "E": 0.0, "F": 0.0779, "G": 0.0, "H": 0.9221, "I": 0.0779,
               None: 0.0779}
    assert {tag: round(grid[r][c], 4) for tag, (r, c) in tagged.items()} == printed


def test_a_tagged_minesweepr_board_names_the_tag():
    with pytest.raises(PuzzleSyntaxError) as err:
        parse("..1Axx\n..2Bxx\n112xxx\nxxxxxx\n", source="b.txt")
    assert (err.value.line, err.value.column) == (1, 4) and "'A' is not a minesweepr cell" in err.value.message
