"""The prediction JSON notation (formats/notations/pred_json.py): revealed / unrevealed lists, plain or wrapped
in "data", written in the published shape, located errors."""
from __future__ import annotations

import json


from helpers import SAMPLES
from mineconv import Puzzle, dumps, parse

SEED = Puzzle.from_rows(["1??", "12?", "01?"])


def test_pred_json_plain_and_wrapped():
    wrapped = (SAMPLES / "seed-3x3.pred.json").read_text()
    plain = json.dumps(json.loads(wrapped)["data"])
    assert parse(wrapped, "pred-json") == SEED == parse(plain, "pred-json")
    assert dumps(SEED, "pred-json") == wrapped  # the writer produces exactly the published shape
