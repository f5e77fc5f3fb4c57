"""The Codewars Mine Sweeper kata layout: '? ? 0' rows, x mines, n = N total."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.core.system import check_assignment
from mineconv.formats.notations.kata import detect_kata
from mineconv.formats.registry import LIKELY, NO, WEAK
from tests.conftest import SAMPLES


@pytest.mark.parametrize("text, rows, mines", [
    ("map =\n? ? 0\n? x 0\n\nn = 1\n", ["??0", "?*0"], 1),
    ("n: 1\n? ? 0\n? x 0", ["??0", "?*0"], 1),
    ("const map = `? ? 0\n? X 0`;\nmines = 1", ["??0", "?*0"], 1),
    ('result = """\n1 x\n1 1\n"""', ["1*", "11"], None),
    ("# from the kata\n? ? 0\n? ? 0\n", ["??0", "??0"], None),
])
def test_layouts(text, rows, mines):
    p = parse(text, "kata")
    assert (p.grid_lines, p.mines) == (rows, mines)


@pytest.mark.parametrize("text, where, msg", [
    ("? ? 0\n? q 0\n", (2, 3), "'q' is not a kata cell"),
    ("? ? 0\n? 0\n", (2, 1), "rectangular"),
    ("? ? 0\nn = 1\nn = 2\n", (3, 1), "twice"),
    ("? ?\n? ?\nn = 9\n", (3, 5), "exceeds"),
    ("", (1, 1), "no map rows"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "kata", source="k.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("text, score", [
    ("map =\n? ? 0\n? ? 0\n\nn = 6\n", LIKELY), ("1 x\n1 1\n", LIKELY), ("? ? 0\n? ? 0\n", WEAK),
    ("??0\n??0\n", NO), ("? ? 0\n? 0\n", NO), ("B 1 E\nB 1 M", NO),
])
def test_detect(text, score):
    assert detect_kata(text) == score


def test_cli_sample(capsys):
    sample = SAMPLES / "codewars-6x6.kata"
    assert main(["info", str(sample), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["rows"], info["cols"], info["unknown"], info["mines"]) == (6, 6, 32, 6)
    # the kata's published result satisfies the map (the kata reveals more cells as one plays, so the map
    # alone has several solutions)
    result = parse((SAMPLES.parent / "samples" / "codewars-6x6.kata").read_text(), "kata")
    answer = np.zeros((6, 6), dtype=bool)
    for r, c in [(0, 1), (0, 4), (2, 1), (2, 5), (3, 1), (4, 4)]:
        answer[r, c] = True
    assert check_assignment(result, answer) is None
    assert main(["solve", str(sample), "--json"]) == 0
