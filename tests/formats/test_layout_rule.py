"""One rule for mine layouts (issue 40.3): every layout notation reads its layout as its full reveal by
default, and --layout-as gives the annotation or the layout itself the same way for all of them.

Notations that read otherwise before (replays and UVa input fields: the layout itself; exercism and UVa
output blocks: the annotation) warn once, read without the option, naming the option that restores it.
"""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import mineconv as mc
from mineconv.core.errors import MineconvError
from mineconv.core.layout import full_reveal
from mineconv.formats.mine_layouts import LayoutDefaultWarning
from tests.conftest import FIXTURES, SAMPLES
from tests.helpers import run_cli

# 2 x 3, mines at (0, 0) and (1, 2)
MINES = np.array([[True, False, False], [False, False, True]])
FULL, ANNOTATED, LAYOUT = "?2112?", "*2112*", "*....*"
UVA_IN = "2 3\n*..\n..*\n0 0\n"
UVA_OUT = "Field #1:\n*21\n12*\n"
EXERCISM = json.dumps({"exercise": "minesweeper", "cases": [
    {"description": "two", "input": {"minefield": ["*  ", "  *"]}, "expected": ["*21", "12*"]}]})
DZN = "r = 2;\nc = 3;\nin_mine_pos = [| -1, 0, 0 | 0, 0, -1 |];\n"


def _mbf() -> bytes:
    return bytes([3, 2, 0, 2, 0, 0, 2, 1])   # width, height, big-endian count, (x, y) per mine


# (what, how to read it with keyword options, the reading before the rule or None when it was full already)
TEXTS = [("uva input", lambda **o: mc.parse(UVA_IN, "contest-fields", **o), "mines"),
         ("uva output", lambda **o: mc.parse(UVA_OUT, "contest-fields", **o), "annotated"),
         ("exercism", lambda **o: mc.parse(EXERCISM, "exercism", **o), "annotated"),
         ("dzn", lambda **o: mc.parse(DZN, "dzn", **o), None)]


def _read_mbf(tmp_path, **options):
    path = tmp_path / "two.mbf"
    path.write_bytes(_mbf())
    return mc.read(path, **options)


@pytest.mark.parametrize("what, read, was", TEXTS, ids=[t[0] for t in TEXTS])
def test_every_layout_notation_reads_by_the_one_rule(what, read, was):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        default = read()
    changed = [w for w in seen if issubclass(w.category, LayoutDefaultWarning)]
    assert default.cells == FULL and default.mines == 2
    if was is None:
        assert changed == []
    else:   # the warning names the option that gives the old reading
        (w,) = changed
        assert f"--layout-as {was} reads it so" in str(w.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LayoutDefaultWarning)   # the option named: nothing to warn about
        assert read(layout_as="full").cells == FULL
        assert read(layout_as="annotated").cells == ANNOTATED
        assert read(layout_as="mines").cells == LAYOUT
        assert read(layout_as="mines").mines == 2


def test_mbf_and_replays_follow_the_same_rule(tmp_path):
    assert _read_mbf(tmp_path).cells == FULL
    assert _read_mbf(tmp_path, layout_as="mines").cells == LAYOUT
    assert _read_mbf(tmp_path, layout_as="annotated").cells == ANNOTATED
    tiny = (FIXTURES / "replays" / "tiny_3x3.rawvf").read_text()
    layout = np.array([[c == "*" for c in row] for row in ("..*", "...", "...")])
    with pytest.warns(LayoutDefaultWarning, match="--layout-as mines reads it so"):
        assert mc.parse(tiny).cells == full_reveal(layout).cells
    assert mc.parse(tiny, layout_as="mines").cells == "..*......"
    assert mc.parse(tiny, layout_as="annotated").cells == "01*01100" + "0"
    tatham = (SAMPLES / "tatham-9x9n10.txt").read_text()
    assert mc.parse(tatham, layout_as="mines").known_mine_count == 10
    assert mc.parse(tatham).unknown_count == 10


def test_reveal_from_and_a_layout_reading_are_one_or_the_other(tmp_path):
    assert "?" in _read_mbf(tmp_path, reveal_from="0,1", layout_as="full").cells
    with pytest.raises(MineconvError, match="--reveal-from opens one cell .* --layout-as mines"):
        _read_mbf(tmp_path, reveal_from="0,1", layout_as="mines")
    with pytest.raises(MineconvError, match="--layout-as takes one of full, annotated, mines, not 'all'"):
        _read_mbf(tmp_path, layout_as="all")
    with pytest.raises(MineconvError, match="--layout-as reads a mine layout"):
        mc.parse("r = 1; c = 2; game = array2d(1..r, 1..c, [1, X]);\n", "dzn", layout_as="mines")


def test_the_cli_option_works_the_same_everywhere(capsys, tmp_path):
    uva = tmp_path / "field.uva"
    uva.write_text(UVA_IN)
    rc, out, err = run_cli(capsys, "convert", uva, "-o", "-", "--to", "native")
    assert rc == 0 and out.splitlines()[-2:] == ["?21", "12?"]
    assert "--layout-as mines reads it so" in err
    rc, out, err = run_cli(capsys, "convert", uva, "-o", "-", "--to", "native", "--layout-as", "mines")
    assert rc == 0 and out.splitlines()[-2:] == ["*..", "..*"] and "reads it so" not in err
    rc, _, err = run_cli(capsys, "solve", uva, "--layout-as", "sideways")
    assert rc == 2 and "--layout-as takes one of" in err and "Traceback" not in err
