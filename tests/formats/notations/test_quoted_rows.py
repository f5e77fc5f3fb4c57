"""Quoted row lists in native symbols: known = ["01?1", "0111"] as Python / JS / C source."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.formats.notations.quoted_rows import detect_quoted_rows
from mineconv.formats.registry import LIKELY, NO, WEAK
from tests.conftest import SAMPLES


@pytest.mark.parametrize("text", [
    'known = ["01?1", "0111"]',
    "known = ['01?1', '0111',]",
    'const known = [\n  "01?1",  // top\n  "0111",\n];\n',
    '"01?1",\n"0111"\n',
    '"01?1"\n"0111"',
    '{"01?1", "0111"};',
    '# rows\nknown = (\n    "01?1",\n    "0111",\n)\n',
])
def test_layouts(text):
    assert parse(text, "quoted-rows").grid_lines == ["01?1", "0111"]


def test_notes():
    assert parse('k = ["?1"]  # the note', "quoted-rows").notes == ("the note",)


@pytest.mark.parametrize("text, where, msg", [
    ('k = ["01?1",\n     "01x1"]', (2, 9), "'x' is not a cell symbol"),
    ('k = ["01?1",\n     "011"]', (2, 6), "rectangular"),
    ('k = ["01?1"] y', (1, 14), "unexpected 'y'"),
    ('k = ["01?1"]\nj = ["0111"]', (2, 1), "unexpected 'j'"),
    ('k = ["01?1"], "0111"', (1, 15), "one list of rows"),
    ('k = []', (1, 7), "no quoted rows"),
    ('k = ["9?"]', (1, 7), "not a cell symbol"),
    ('k = ["8?"]', (1, 7), "only 1 neighbour"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "quoted-rows", source="q.py")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, score", [
    ('known = ["01?1", "0111"]', LIKELY),
    ('"..2.3."\n"2....."', WEAK),              # Gecode's dot specification: '.' is unknown there
    ('board = [["E", "E"]]', NO),
    ("[[1, -1]]", NO),
    ("??\n12\n", NO),
])
def test_detect(text, score):
    assert detect_quoted_rows(text) == score


def test_cli_sample(capsys):
    sample = SAMPLES / "dusautoy-6x6.rows"
    assert main(["info", str(sample), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["rows"], info["cols"], info["unknown"]) == (6, 6, 20)
    assert main(["solve", str(sample), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2],
                                                             [5, 3]]


@pytest.mark.parametrize("text, rows, joined", [
    ('known = ["01?1" "0111"]', ["01?10111"], 1),                      # Python / C: one row of 8
    ('x = ["01" "?1",\n     "01"  // c\n     "11"];', ["01?1", "0111"], 2),  # split rows, comments between
    ('known = ["01?1", "0111"]', ["01?1", "0111"], 0),                 # commas: rows apart, no warning
    ('"01?1"\n"0111"\n', ["01?1", "0111"], 0),                         # bare lines are rows, as documented
])
def test_adjacent_literals_join_as_python_and_c_do_and_warn(text, rows, joined):
    import warnings
    from mineconv.core.errors import AmbiguousInputWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        puzzle = parse(text, "quoted-rows")
    assert list(puzzle.grid_lines) == rows
    said = [w for w in caught if issubclass(w.category, AmbiguousInputWarning)]
    assert len(said) == (1 if joined else 0)
    if joined:
        assert f"{joined} quoted row" in str(said[0].message) and "JavaScript refuses" in str(said[0].message)


def test_a_joined_row_of_the_wrong_width_is_located():
    with pytest.raises(PuzzleSyntaxError, match="first row has 4") as caught:
        parse('x = ["01?1",\n "01" "1"]', "quoted-rows")
    assert caught.value.line == 2
