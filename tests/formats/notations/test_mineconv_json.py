"""mineconv's own JSON notation (formats/notations/mineconv_json.py): its fields, written back, located errors."""
from __future__ import annotations

import json


from mineconv import Puzzle, dumps, parse

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
