"""The prediction JSON notation (formats/notations/pred_json.py): revealed / unrevealed lists, plain or wrapped
in "data", written in the published shape, located errors."""
from __future__ import annotations

import json

import pytest


from helpers import SAMPLES
from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse

SEED = Puzzle.from_rows(["1??", "12?", "01?"])


def test_pred_json_plain_and_wrapped():
    wrapped = (SAMPLES / "seed-3x3.pred.json").read_text()
    plain = json.dumps(json.loads(wrapped)["data"])
    assert parse(wrapped, "pred-json") == SEED == parse(plain, "pred-json")
    assert dumps(SEED, "pred-json") == wrapped  # the writer produces exactly the published shape


# a small board of our own: 0-based [row, col, count] items in any order, the rest unrevealed
OWN = ('{"rows": 2, "cols": 3, "revealed": [[0, 0, 1], [1, 1, 2], [1, 0, 0]],\n'
       ' "unrevealed": [[0, 1], [0, 2], [1, 2]]}')


def test_a_small_board_cell_by_cell():
    p = parse(OWN, "pred-json")
    assert (p.rows, p.cols, p.mines) == (2, 3, None)
    assert [p.cells[r * 3 + c] for r in range(2) for c in range(3)] == ["1", "?", "?", "0", "2", "?"]
    assert json.loads(dumps(p, "pred-json"))["data"]["unrevealed"] == [[0, 1], [0, 2], [1, 2]]


@pytest.mark.parametrize("text, where, msg", [
    (OWN.replace("[1, 1, 2]", "[1, 1, 9]"), (1, 48), "revealed item 1: count 9 is not 0-8"),
    (OWN.replace(", [1, 0, 0]", ""), (2, 2), "cell (1, 0) is neither revealed nor unrevealed"),
    (OWN.replace("[1, 2]]", "[1, 2], [0, 1]]"), (2, 41), "cell (0, 1) is listed twice"),
])
def test_bad_input_is_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "pred-json", source="b.json")
    assert err.value.source == "b.json" and str(err.value).startswith(f"b.json:{where[0]}:{where[1]}: ")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
    assert SEED == parse(dumps(SEED, "pred-json"), "pred-json")
