"""mineconv's own JSON notation (formats/notations/mineconv_json.py): its fields, written back, located errors."""
from __future__ import annotations

import json

import pytest


from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse

SEED = Puzzle.from_rows(["1??", "12?", "01?"])


def grid(p: Puzzle) -> list:
    return p.grid_lines


def test_mineconv_json_fields():
    p = parse('{"grid": ["1??", "12?", "01?"], "version": 1, "format": "mineconv-puzzle", "mines": 2, '
              '"name": "s", "notes": ["a"], "rows": 3, "cols": 3}', "json")
    assert grid(p) == grid(SEED) and (p.mines, p.name, p.notes) == (2, "s", ("a",))
    doc = json.loads(dumps(p, "json"))
    assert doc == {"format": "mineconv-puzzle", "version": 1, "name": "s", "rows": 3, "cols": 3, "mines": 2,
                   "notes": ["a"], "grid": ["1??", "12?", "01?"]}


# a small board of our own, keys in another order than the writer's, with a first click
OWN = '{"grid": ["1?*", ".2?"], "mines": 2, "start": [1, 0], "format": "mineconv-puzzle", "version": 1}'


def test_a_small_board_cell_by_cell():
    p = parse(OWN, "json")
    assert (p.rows, p.cols, p.mines) == (2, 3, 2)
    assert [p.cells[r * 3 + c] for r in range(2) for c in range(3)] == ["1", "?", "*", ".", "2", "?"]
    doc = json.loads(dumps(p, "json"))
    assert doc["grid"] == ["1?*", ".2?"] and doc["start"] == [1, 0] and parse(dumps(p, "json"), "json") == p


HEAD = '{"format": "mineconv-puzzle", "version": 1,\n '


@pytest.mark.parametrize("text, where, msg", [
    (HEAD + '"grid": ["1?*", ".2x"]}', (2, 21), "grid row 1: 'x' is not a cell symbol"),
    (HEAD + '"grid": ["1?*", ".2?"], "colour": 1}', (2, 26), "unknown key 'colour'"),
    (HEAD + '"rows": 3, "grid": ["1?*", ".2?"]}', (2, 2), '"rows" is 3 but the grid has 2'),
])
def test_bad_input_is_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "json", source="b.json")
    assert err.value.source == "b.json" and str(err.value).startswith(f"b.json:{where[0]}:{where[1]}: ")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
    assert SEED == parse(dumps(SEED, "json"), "json")
