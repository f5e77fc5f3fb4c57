"""--reveal-from on the native notation: a whole layout (what `generate --no-guess` writes) is studied from
its first click; a board that is not a whole layout is refused with the reason."""
from __future__ import annotations

import json

import pytest

from helpers import run_cli
from mineconv.core.layout import opened_state
from mineconv.formats.reading import read
from tests.conftest import SAMPLES


@pytest.fixture
def board(tmp_path, capsys):
    path = tmp_path / "b.txt"
    rc, _, _ = run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game",
                       "--no-guess", "--seed", 3, "-o", path)
    assert rc == 0
    return path


def test_analyze_from_the_start_header(board, capsys):
    whole = read(str(board))
    assert whole.start is not None and not whole.unknown_cells
    rc, out, err = run_cli(capsys, "analyze", board, "--reveal-from", "start", "--json")
    assert rc == 0 and "no effect" not in err
    report = json.loads(out)
    seen = opened_state(whole.codes == 9, *whole.start)
    assert report["unknown"] == seen.unknown_count > 0
    assert report["solutions"] > 1   # the first click alone does not decide the board


def test_convert_from_a_cell(board, capsys):
    rc, out, err = run_cli(capsys, "convert", board, "--reveal-from", "0,3", "-t", "native", "-o", "-")
    assert rc == 0 and "no effect" not in err
    opened = read(str(board), reveal_from="0,3")
    assert opened.start == (0, 3) and opened.mines == 10 and opened.name == read(str(board)).name
    assert opened.grid_lines == opened_state(read(str(board)).codes == 9, 0, 3).grid_lines
    assert "start: 0,3" in out and "??10002??" in out


@pytest.mark.parametrize("change, says", [
    (("111000000", "111000?00"), "cell (8, 6) is '?'"),
    (("111000000", "111001000"), "the count 1 at (8, 5) disagrees"),
    (("mines: 10", "mines: 11"), "mines: 11"),
    (("start: 4,4\n", ""), "'start: R,C' header"),
])
def test_not_a_whole_layout_is_refused(board, capsys, change, says):
    board.write_text(board.read_text().replace(*change))
    rc, _, err = run_cli(capsys, "analyze", board, "--reveal-from", "start")
    assert rc == 2 and says in err and "Traceback" not in err


def test_a_puzzle_is_refused(capsys):
    rc, _, err = run_cli(capsys, "analyze", SAMPLES / "dusautoy-6x6.txt", "--reveal-from", "1,1")
    assert rc == 2 and "--reveal-from needs the whole layout" in err
