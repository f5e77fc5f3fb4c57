"""Simon Tatham's Mines game IDs: masked (SHA-1) and plain bitmaps, full reveal or --reveal-from."""
from __future__ import annotations

import json

import pytest

from mineconv import PuzzleSyntaxError, parse
from mineconv.cli import main
from mineconv.core.errors import FormatError
from mineconv.formats.notations.tatham_mines import detect_tatham_mines, obfuscate_bitmap
from mineconv.formats.registry import CERTAIN, LIKELY, NO
from tests.conftest import SAMPLES

# printed by Tatham's own generator (`sgt-mines --generate 3 PARAMS`, Debian sgt-puzzles 20230122):
# the mine count of each must come out as the one asked for, which a wrong unmasking would not give
GENERATED = [("9x9:5,8,m0047ccb54f1ad247c4788", 10), ("9x9:4,1,mdb8399dba1ff380ebaa18", 10),
             ("16x16:9,9,m21335abeebcfa7104e658e1a45ed1e6b3e4968c6b55e9a0fc905051a73f0f552", 40),
             ("30x16:5,7,m4df948b39a6e2e8b92b7d2dae6f3076f59b79baac300138b5521122fdd66b1ffcd69fc909650d2508545dd6a8"
              "134dd9c0c7d63d1a7b08c51229fb784", 99),
             ("5x4:4,1,m093a5", 3), ("7x3:6,1,m3131f0", 5)]


# published in bug reports, as they come: a game ID (medmunds/puzzles issue 1) and a web-game address
# (chrisboyle/sgtpuzzles issue 669, the "9x9, 35 mines" preset)
PUBLISHED = [
    ("49x22:9,12,m5141a7b0615643db1b461184eb1f52ef59a7de6edaea3c5cec7d4f84b8e694d1f4969d86c6b84570d106192ce297d73"
     "357451b54e18c4ab254eb79a4ba876ebdf50f4e00a91f90587b22038679ca036af88871ace4351c3e0472db9bc6421098a6343c1560"
     "e5e0e2df9a06cf070f21ee81d37791a65a89681d88a27fc97d0ef97c8dd5589b2c24", (22, 49), 220),
    ("https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/mines.html#9x9:4,4,m00b7d48a3e0231c419200", (9, 9), 35),
]


@pytest.mark.parametrize("text, shape, mines", PUBLISHED)
def test_published_ids_read_as_they_come(text, shape, mines):
    p = parse(text + "\n", source="issue.txt")  # detected by content
    assert (p.rows, p.cols, p.mines) == (*shape, mines)
    start = parse(text, "tatham-mines", reveal_from="start")
    assert start.stats["revealed"] > 1  # the first square is a zero that opens a region


def test_obfuscation_matches_tathams_test_vectors():
    # mines.c TEST_OBFUSCATION: 1234567 -> 07FA650, and fifty zero bytes
    assert obfuscate_bitmap(bytes.fromhex("12345670"), 28, decode=False).hex() == "07fa6500"
    assert obfuscate_bitmap(bytes.fromhex("07fa6500"), 28, decode=True).hex() == "12345670"
    assert obfuscate_bitmap(bytes(50), 400, decode=False).hex() == (
        "b202c07b990c01f6ff2d544707f60e506019b671fcb1d8b5a2"
        "10b0af913db85d37ca27f52a9f78bba3a80030db3d01d8df78")


@pytest.mark.parametrize("game_id, mines", GENERATED)
def test_generated_ids_unmask_to_the_asked_mine_count(game_id, mines):
    assert parse(game_id, "tatham-mines").mines == mines


@pytest.mark.parametrize("game_id, mines", GENERATED)
def test_the_first_square_is_a_zero_that_opens_a_region(game_id, mines):
    p = parse(game_id, "tatham-mines", reveal_from="start")
    x, y = (int(v) for v in game_id.split(":")[1].split(",")[:2])
    assert p[y, x] == "0" and p.stats["revealed"] > 1 and p.mines == mines


@pytest.mark.parametrize("game_id, mines", GENERATED)
def test_the_first_square_travels_with_the_board(game_id, mines):
    from mineconv import dumps
    x, y = (int(v) for v in game_id.split(":")[1].split(",")[:2])
    p = parse(game_id, "tatham-mines")
    assert p.start == (y, x)
    assert f"start: {y},{x}\n" in dumps(p, "native") and parse(dumps(p, "native")).start == (y, x)
    assert parse("3x3:u000", "tatham-mines").start is None


def test_plain_and_masked_forms_agree():
    masked = parse("5x4:4,1,m093a5", "tatham-mines")
    rows = ["".join("1" if ch == "?" else "0" for ch in row) for row in masked.grid_lines]
    bits = "".join(rows) + "0" * (-len("".join(rows)) % 4)
    plain = f"5x4:4,1,u{int(bits, 2):0{len(bits) // 4}x}"
    assert parse(plain, "tatham-mines").cells == masked.cells
    assert parse(plain.replace(",u", ","), "tatham-mines").cells == masked.cells  # 'u' may be left out


def test_full_reveal_is_chlonds_setting():
    p = parse("3x3:u800", "tatham-mines")  # a mine in the top-left corner only
    assert p.grid_lines == ["?10", "110", "000"] and p.mines == 1


@pytest.mark.parametrize("reveal, rows", [
    ("2,2", ["?10", "110", "000"]), ("0,1", ["?1?", "???", "???"]), (" 1 , 1 ", ["???", "?1?", "???"]),
])
def test_reveal_from_opens_like_the_game(reveal, rows):
    assert parse("3x3:u800", "tatham-mines", reveal_from=reveal).grid_lines == rows


def test_comments_become_notes():
    p = parse("# from the forum\n3x3:u800\n", "tatham-mines")
    assert p.notes[0] == "from the forum" and "3 x 3" in p.notes[1]


@pytest.mark.parametrize("text, where, msg", [
    ("100000x100000:0,0,m00", (1, 20), "takes 2500000000 hex digits"),
    ("3x3:u10", (1, 6), "takes 3 hex digits"),
    ("3x3:u1g0", (1, 7), "'g' is not a hex digit"),
    ("3x3:5,0,u800", (1, 5), "off the 3 x 3 board"),
    ("3x3n2:u800", (1, 4), "say n2 but the layout holds 1"),
    ("9x9#12345\n", (1, 4), "random-seed ID"),
    ("9x9:r10,u,abcdef", (1, 5), "not yet started"),
    ("3x3:u800\n3x3:u800\n", (2, 1), "unexpected"),
    ("0x3:u", (1, 1), "at least 1 x 1"),
])
def test_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "tatham-mines", source="id.txt")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


@pytest.mark.parametrize("value, msg", [("1;1", "takes R,C"), ("start", "needs a first click"), ("9,9", "outside")])
def test_bad_reveal_from(value, msg):
    with pytest.raises(FormatError, match=msg):
        parse("3x3:u800", "tatham-mines", reveal_from=value)


def test_reveal_from_a_mine_is_refused():
    with pytest.raises(FormatError, match="holds a mine"):
        parse("3x3:u800", "tatham-mines", reveal_from="0,0")


@pytest.mark.parametrize("text, score", [
    ("9x9:4,1,mdb8399dba1ff380ebaa18\n", CERTAIN), ("# c\n3x3:u800", CERTAIN), ("3x3:u10", LIKELY),
    ("https://example.org/js/mines.html#3x3:u800\n", CERTAIN),
    ("9x9\n???", NO), ("30x16x99\nHHH", NO), ("", NO),
])
def test_detect(text, score):
    assert detect_tatham_mines(text) == score


def test_cli_sample_info_and_reveal(capsys):
    path = str(SAMPLES / "tatham-9x9n10.txt")
    assert main(["info", path]) == 0
    assert "tatham-mines" in capsys.readouterr().out
    assert main(["analyze", path, "--reveal-from", "start", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["solutions"] > 1 and report["probabilities"][3][1] is None


def test_cli_error_names_file_line_column(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("9x9:4,1,mdb8399dba1ff380ebaa1\n")
    assert main(["info", str(bad), "--from", "tatham-mines"]) == 2
    assert f"{bad}:1:10:" in capsys.readouterr().err
