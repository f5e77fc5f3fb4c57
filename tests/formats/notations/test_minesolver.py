"""minesolver's boards (# unknown, . = 0), and what the solver libraries' own boards share: minesolver's,
minesweepr's (x unknown, . = 0) and Tatham's Mines text form (- = 0) written back, detected, and told apart.

Each notation's own cells and errors are in its file (test_minesweepr.py, test_tatham_text.py; the
MiniZinc layouts and game states in test_dzn.py)."""
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
