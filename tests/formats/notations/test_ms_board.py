"""ms-toollib / Metasweeper board files: the view as the puzzle, the [real] layout as its checked answer."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.formats.notations.ms_board import detect_ms_board, real_layout
from mineconv.formats.registry import CERTAIN, LIKELY, NO
from mineconv.formats.writing import dumps
from mineconv.formats.reading import read
from tests.conftest import SAMPLES

HEAD = "# MINESWEEPER-BOARD v0.1\n# Render: ascii\n\n"
# the layout Metasweeper's board_to_board_string writes: header, render, blank, metadata, blank, sections
BOARD = HEAD + "rows: 3\ncolumns: 4\nmines: 2\ngame_mode: classic\n\n[real]\n1*21\n112*\n0011\n\n[view]\nUF21\n11UU\n0011\n"
EMOJI = ("# MINESWEEPER-BOARD v0.1\n# Render: emoji\n\nrows: 3\ncolumns: 4\nmines: 2\n\n"
         "[view]\n\u2b1c\U0001f6a92\ufe0f\u20e31\ufe0f\u20e3\n1\ufe0f\u20e31\ufe0f\u20e3\u2753\u2b1c\n"
         "0\ufe0f\u20e30\ufe0f\u20e31\ufe0f\u20e31\ufe0f\u20e3\n")


def test_view_is_the_puzzle_and_real_its_answer():
    p = parse(BOARD, "ms-board")
    assert p.grid_lines == ["?*21", "11??", "0011"] and p.mines == 2
    assert real_layout(p) == ["1*21", "112*", "0011"] and p.notes[0] == "game_mode: classic"


@pytest.mark.parametrize("view, rows", [
    ("UF21\n11UU\n0011", ["?*21", "11??", "0011"]),
    ("U?21\n11UU\n0011", ["??21", "11??", "0011"]),  # ? mark: still unknown
    ("UX21\n11U@\n0011", ["?*21", "11?*", "0011"]),  # X stepped on, @ shown after the game
    ("U*21\n#1U*\n0011", ["?*21", ".1?*", "0011"]),  # * a shown mine (Metasweeper), # a wrong flag: safe
])
def test_view_symbols(view, rows):
    assert parse(BOARD.split("[view]")[0] + "[view]\n" + view + "\n", "ms-board").grid_lines == rows


def test_emoji_render_reads_like_ascii():
    assert parse(EMOJI, "ms-board").grid_lines == ["?*21", "11??", "0011"]


def test_a_view_row_starting_with_the_wrong_flag_symbol_is_a_row_not_a_comment():
    text = HEAD + "rows: 1\ncolumns: 3\n[real]\n01*\n[view]\n#1U\n"
    assert parse(text, "ms-board").grid_lines == [".1?"]


def test_real_only_reads_as_the_full_reveal():
    p = parse(HEAD + "[real]\n1*21\n112*\n0011\n", "ms-board")
    assert p.grid_lines == ["1?21", "112?", "0011"] and p.mines == 2 and real_layout(p) is not None


def test_name_comments_and_unknown_metadata_are_kept():
    p = parse(HEAD + "# from the forum\nname: corner\nauthor: eee555\nfuture_key: a:b\n[view]\nU1\n11\n", "ms-board")
    assert (p.name, p.notes) == ("corner", ("from the forum", "author: eee555", "future_key: a:b"))


@pytest.mark.parametrize("text", [BOARD, EMOJI, HEAD + "[real]\n1*21\n112*\n0011\n",
                                  HEAD + "# c\nname: n\n[view]\nU1\n11\n"])
def test_round_trip(text):
    p = parse(text, "ms-board")
    assert parse(dumps(p, "ms-board"), "ms-board") == p


def test_writer_layout_follows_metasweepers():
    assert dumps(parse(BOARD, "ms-board"), "ms-board") == (
        HEAD + "game_mode: classic\nrows: 3\ncolumns: 4\nmines: 2\n\n[real]\n1*21\n112*\n0011\n\n"
        "[view]\nUF21\n11UU\n0011\n")


def test_writer_adds_real_when_the_puzzle_pins_every_mine_down():
    text = dumps(parse("mines: 2\n?21\n12?\n", "native"), "ms-board")
    assert "[real]\n*21\n12*\n" in text and "[view]\nU21\n12U\n" in text and "mines: 2" in text
    assert "[real]" not in dumps(parse("??1\n12?\n", "native"), "ms-board")


@pytest.mark.parametrize("text, where, msg", [
    ("rows: 1\n[view]\nU\n", (1, 1), "the first line must be the header"),
    (HEAD + "[view]\nU1\n1\n", (6, 1), "this [view] row has 1 cell,"),
    (HEAD + "rows: 3\n[view]\nU1\n11\n", (5, 1), "'rows: 3' but the [view] section has 2 rows"),
    (HEAD + "columns: 3\n[view]\nU1\n11\n", (6, 1), "'columns: 3' but the [view] rows have 2"),
    (HEAD + "rows: two\n[view]\nU\n", (4, 7), "'rows' must be a whole number"),
    (HEAD + "[view]\nUZ\n", (5, 2), "'Z' is not a [view] cell"),
    (HEAD + "[real]\n*U\n", (5, 2), "'U' is not a [real] cell"),
    (HEAD + "[real]\n*2\n", (5, 2), "shows 2 at row 0, col 1 but 1 of its neighbours"),
    (HEAD + "mines: 3\n[real]\n*1\n", (4, 8), "'mines: 3' but the [real] layout has 1"),
    (HEAD + "[real]\n*1\n[view]\nU2\n", (7, 2), "shows 2 where the [real] layout has 1"),
    (HEAD + "[real]\n*1\n[view]\nUF\n", (7, 2), "has 'F' (a mine) where the [real] layout has no mine"),
    (HEAD + "[real]\n*1\n[view]\n#1\n", (7, 1), "'#' (a wrong flag) on a cell the [real] layout mines"),
    (HEAD + "[real]\n*1\n[view]\nU1\nU1\n", (6, 1), "the [view] board is 2 x 2, the other is 1 x 2"),
    (HEAD + "U1\n", (4, 1), "before any [real] or [view] section"),
    (HEAD + "[views]\nU1\n", (4, 1), "unknown section"),
    (HEAD + "[view]\nU1\n[view]\nU1\n", (6, 1), "a second [view] section"),
    (HEAD + "rows: 1\nrows: 1\n[view]\nU\n", (5, 1), "'rows' is given twice"),
    ("# MINESWEEPER-BOARD v0.1\n# Render: braille\n[view]\nU\n", (2, 11), "unknown render"),
    (HEAD + "# only a comment\n", (4, 1), "no [real] or [view] section"),
    (HEAD + "[view]\n8U\n", (5, 1), "only 1 neighbour"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "ms-board", source="b.board")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_the_specifications_own_example_is_refused_clearly():
    # board标准.md section 10 declares 16 x 30 and shows 3 x 7 boards that disagree: an error, not a guess
    spec = ("# MINESWEEPER-BOARD v0.1\n# Render: ascii\n\nauthor: eee555\ncomment: Example Board\n\nrows: 16\n"
            "columns: 30\nmines: 99\n\ngame_mode: classic\n\n[real]\n1112*21\n1112*21\n1112*21\n\n"
            "[view]\nUUU2100\nUF1X1?U\nU@U#111\n")
    with pytest.raises(PuzzleSyntaxError, match="'rows: 16' but the \\[real\\] section has 3 rows"):
        parse(spec, "ms-board")


@pytest.mark.parametrize("text, score", [
    (BOARD, CERTAIN), ("\n\n# MINESWEEPER-BOARD v0.2\n", CERTAIN), ("rows: 2\ncolumns: 2\n[view]\nUU\n11\n", LIKELY),
    ("[view]\nUU\n", NO), ("# a comment\n??\n", NO),
])
def test_detect(text, score):
    assert detect_ms_board(text) == score


def test_sample_solves_to_du_sautoys_answer(capsys):
    path = str(SAMPLES / "dusautoy-6x6.board")
    assert read(path).cells == read(SAMPLES / "dusautoy-6x6.txt").cells
    assert main(["solve", path, "--json"]) == 0
    mines = json.loads(capsys.readouterr().out)["mines"]
    assert mines == [[0, 2], [0, 3], [2, 0], [2, 5], [3, 0], [3, 5], [5, 2], [5, 3]]
    assert ["".join("*" if [r, c] in mines else "." for c in range(6)) for r in range(6)] == [
        "".join("*" if ch == "*" else "." for ch in row) for row in real_layout(read(path))]


def test_cli_info_and_error(tmp_path, capsys):
    assert main(["info", str(SAMPLES / "dusautoy-6x6.board")]) == 0
    assert "ms-board" in capsys.readouterr().out
    bad = tmp_path / "bad.board"
    bad.write_text(HEAD + "[real]\n*1\n[view]\nU2\n")
    assert main(["info", str(bad)]) == 2
    assert f"{bad}:7:2:" in capsys.readouterr().err


def test_emoji_real_layout_uses_the_bomb_for_its_mines():
    # Metasweeper's emoji export writes the same bomb emoji for [real] mines ('*') and shown view mines ('@')
    bomb, one = "\U0001f4a3", "1\ufe0f\u20e3"
    text = (f"# MINESWEEPER-BOARD v0.1\n# Render: emoji\n\n[real]\n{one}{bomb}{one}\n{one}{one}{one}\n"
            f"\n[view]\n{one}{bomb}\u2b1c\n{one}{one}{one}\n")
    p = parse(text, "ms-board")
    assert p.grid_lines == ["1*?", "111"] and real_layout(p) == ["1*1", "111"]


def test_a_full_reveal_keeps_no_real_notes_and_round_trips():
    p = parse(HEAD + "mines: 2\n[real]\n1*21\n112*\n0011\n", "ms-board")
    assert p.notes == () and real_layout(p) == ["1*21", "112*", "0011"]
    assert parse(dumps(p, "ms-board"), "ms-board") == p and "[real]\n1*21" in dumps(p, "ms-board")
