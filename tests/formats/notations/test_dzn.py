"""MiniZinc data (dzn): hakank's layout as it comes, the writer's bytes, errors with their location, the CLI."""
from __future__ import annotations

import subprocess

import pytest

from helpers import SAMPLES, require_tool, run_cli
from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse, read
from mineconv.make.generate import random_puzzle
from mineconv.formats.detection import rank_formats

GECODE0 = ["??2?3?", "2?????", "??24?3", "1?34??", "?????3", "?3?3??"]


def validate(text: str, rows: list, **expect) -> Puzzle:
    """Read text as dzn and check the grid (and any other attribute given)."""
    p = parse(text, "dzn")
    assert p.grid_lines == rows
    for key, value in expect.items():
        assert getattr(p, key) == value, key
    return p


def test_one_liners():
    validate("r = 1; c = 3; game = array2d(1..r, 1..c, [X, 1, X]);", ["?1?"])
    validate("game = array2d(1..1, 1..3, [-1, 1, -1,]);", ["?1?"])                 # literal ranges, trailing comma
    validate("X = -1; game = [| X, 1 | 1, X |];", ["?1", "1?"])                     # 2-D literal, X bound here
    validate("int: U = -1; game = [| U, 1 | 1, U |];", ["?1", "1?"])                # a typed declaration binds too
    validate("rows = 1; cols = 2; board = [ 1, _ ];", ["1?"])                        # flat list with its shape
    validate('include "minesweeper_model.mzn";\nr=1;\nc=2;\ngame=[|0,0|];', ["00"])
    validate("/* block */ r = 1; % line\nc = 2; game = [|1,X|]; mine_count = 1;", ["1?"], mines=1)
    validate("game = array2d(0..1, 5..6, [X,1,1,X]);", ["?1", "1?"])                # any index base


def test_model_with_its_data_is_read_item_by_item():
    text = ('int: r; int: c; int: X = -1;\narray[1..r, 1..c] of -1..8: game;\n'
            'array[1..r, 1..c] of var 0..1: mines;\n'
            'constraint forall(i in 1..r, j in 1..c)(game[i,j] >= 0 -> mines[i,j] = 0);\n'
            'solve satisfy;\noutput ["game; done\\n"];\nr = 2; c = 2;\n'
            'game = array2d(1..r, 1..c, [X, 1, 1, X]);\nfoo = {1, 2};\n')
    validate(text, ["?1", "1?"])


def test_comments_before_the_data_are_the_notes():
    p = validate("% name: wire\n% Kaye, ASE 2003\nr = 1; c = 2; game = [|1, X|];\n% after\n", ["1?"])
    assert (p.name, p.notes) == ("wire", ("Kaye, ASE 2003",))


def test_hakank_sample_as_it_comes():
    p = read(SAMPLES / "german-lakshtanov.hakank.mzn")
    assert p.grid_lines == ["?1?1?1", "2?2?1?", "?3?2?1", "1?3?2?", "?1?2?1"]
    assert "Oleg German, Evgeny Lakshtanov: \"Minesweeper\" without a computer" in p.notes


def test_writer_bytes():
    p = Puzzle.from_rows(["1?", "?2"], name="n", notes=["x"])
    assert dumps(p, "dzn").endswith("% name: n\n% x\nr = 2;\nc = 2;\n% mineconv 0.1.0: -1 = unknown cell, 0..8 = "
                                    "the count shown\ngame = array2d(1..r, 1..c, [\n     1,-1,\n    -1, 2,\n]);\n")


@pytest.mark.parametrize("seed", range(12))
def test_round_trip(seed):
    p = random_puzzle(4, 7, mines=6, reveal="game", seed=seed, with_total=False).replace(name="a b", notes=("x", ""))
    # a game state has only counts and unknown cells, which the notation expresses whole
    assert not p.stats["known_safe"] and not p.stats["known_mines"]
    assert parse(dumps(p, "dzn"), "dzn") == p


def test_writer_warns_what_it_drops():
    p = Puzzle.from_rows(["1*", "?."], mines=1)
    with pytest.warns(UserWarning) as record:
        text = dumps(p, "dzn")
    assert len(record) == 3 and parse(text, "dzn").grid_lines == ["1?", "??"]


@pytest.mark.parametrize("text, line, col, words", [
    ("r = 2; c = 2; game = array2d(1..r, 1..c, [1,X,X]);", 1, 30, "2 x 2 = 4 entries but the list has 3"),
    ("game = [| 1, X |\n 2, 9 |];", 2, 5, "game[2,2] = 9"),
    ("game = [| 1, X | 2 |];", 1, 18, "row 2 of game has 1 entry"),
    ("r = 3;\nc = 2;\ngame = [| 1, X | 2, X |];", 1, 5, "r = 3 but game has 2 rows"),
    ("game = array2d(1..2, 1..2, [1,Y,X,X]);", 1, 31, "'Y' in game is not bound"),
    ("game = array2d(1..2, 1..2, [1,,X,X]);", 1, 31, "an empty entry"),
    ("r = 1;\nc = 1;\n", 3, 1, "no grid found"),
    ("game = [| 1, 2 | 3, 4 |];", 1, 21, "game[2,2] (cell (1, 1)) shows 4"),  # too many for its neighbours
    ("game = [| 0 |]; game = [| 0 |];", 1, 17, "assigned twice"),
    ("game = {1, 2};", 1, 8, "cannot read the value of game"),
])
def test_errors_name_line_and_column(text, line, col, words):
    with pytest.raises(PuzzleSyntaxError) as info:
        parse(text, "dzn")
    err = info.value
    assert (err.line, err.column) == (line, col) and words in err.message, str(err)


def test_detection_is_by_content():
    assert rank_formats("r = 1; c = 2; game = array2d(1..r, 1..c, [1, X]);")[0][1].name == "dzn"
    assert rank_formats("X = -1;\nfoo = [| 1, X |];\n")[0][0] == 0.5     # another name: only POSSIBLE


def test_cli_info_and_solve(capsys, tmp_path):
    rc, out, _ = run_cli(capsys, "info", SAMPLES / "german-lakshtanov.hakank.mzn")
    assert rc == 0 and "dzn" in out and "5 x 6" in out
    path = tmp_path / "g0.dzn"
    path.write_text("r = 6;\nc = 6;\ngame = array2d(1..r, 1..c, [\n" + ",\n".join(
        ",".join("X" if ch == "?" else ch for ch in row) for row in GECODE0) + "\n]);\n")
    rc, out, _ = run_cli(capsys, "solve", path)
    # Gecode's published solution of its problem 0
    assert rc == 0 and out.splitlines()[-6:] == ["*.2.3*", "2*.**.", "..24*3", "1.34*.", ".***.3", "*3.3**"]
    rc, _, err = run_cli(capsys, "info", tmp_path / "missing.dzn")
    assert rc == 2
    bad = tmp_path / "bad.dzn"
    bad.write_text("r = 1;\nc = 2;\ngame = [| 1, Q |];\n")
    rc, _, err = run_cli(capsys, "info", bad)
    assert rc == 2 and f"{bad}:3:14:" in err and "Traceback" not in err


def test_minizinc_solves_what_the_writer_writes(tmp_path):
    minizinc = require_tool("minizinc")
    model = tmp_path / "m.mzn"
    model.write_text("int: r; int: c;\narray[1..r, 1..c] of -1..8: game;\narray[1..r, 1..c] of var 0..1: x;\n"
                     "constraint forall(i in 1..r, j in 1..c)(if game[i,j] >= 0 then x[i,j] = 0 /\\ game[i,j] = "
                     "sum(a in max(1,i-1)..min(r,i+1), b in max(1,j-1)..min(c,j+1))(x[a,b]) else true endif);\n"
                     "solve satisfy;\noutput [show(x)];\n")
    data = tmp_path / "du.dzn"
    data.write_text(dumps(read(SAMPLES / "dusautoy-6x6.txt"), "dzn"))
    out = subprocess.run([minizinc, "--solver", "gecode", str(model), str(data)], capture_output=True, text=True,
                         timeout=120)
    flat = [int(v) for v in out.stdout.split("]")[0].strip("[").split(",")]
    mines = sorted(divmod(i, 6) for i, v in enumerate(flat) if v)
    assert mines == [(0, 2), (0, 3), (2, 0), (2, 5), (3, 0), (3, 5), (5, 2), (5, 3)], out.stdout + out.stderr


@pytest.mark.parametrize("key", ["mines", "mine_count", "num_mines", "total_mines", "n_mines", "number_of_mines"])
def test_the_total_is_read_under_each_of_its_spellings(key):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = parse(f"r = 2; c = 2; {key} = 1;\ngame = array2d(1..r, 1..c, [1, X, X, X]);", "dzn")
    assert p.mines == 1


def test_a_number_the_puzzle_does_not_use_warns_with_its_line():
    from mineconv.core.errors import LossyConversionWarning
    with pytest.warns(LossyConversionWarning, match=r"<string>:2: bombs = 1 is not read.*name it mines"):
        p = parse("r = 2; c = 2;\nbombs = 1;\ngame = array2d(1..r, 1..c, [1, X, X, X]);", "dzn")
    assert p.mines is None
    import warnings
    with warnings.catch_warnings():   # a name the grid uses is read, so no warning
        warnings.simplefilter("error")
        parse("U = -1; r = 1; c = 2;\ngame = array2d(1..r, 1..c, [1, U]);", "dzn")


def test_essence_reads_the_total_as_mines():
    p = parse("language ESSENCE' 1.0\nletting mines be 1\nletting game be [[1,-1],[-1,-1]]\n", "essence")
    assert p.mines == 1


LAYOUT = "square_size = 3;\nin_mine_pos = [| 0, 0, 0 | 0, -1, 0 | 0, 0, 0 |];\n"


def test_a_minizinc_layout_is_its_full_reveal():
    p = parse(LAYOUT, "dzn")
    assert p.grid_lines == ["111", "1?1", "111"] and p.mines == 1
    assert parse(LAYOUT.replace("-1", "1"), "dzn").grid_lines == p.grid_lines


def test_a_minizinc_layout_opened_at_a_cell():
    text = "square_size = 4;\nin_mine_pos = [| 0, 0, 0, 0 | 0, 0, 0, 0 | 0, 0, 0, 0 | 0, 0, 0, -1 |];\n"
    assert parse(text, "dzn", reveal_from="0,0").grid_lines == ["0000", "0000", "0011", "001?"]


@pytest.mark.parametrize("text, where, msg", [
    (LAYOUT.replace("-1", "2"), (2, 31), "each entry 0 (no mine) or -1"),
    (LAYOUT.replace("| 0, 0, 0 |]", "| 0, 1, 0 |]"), (2, 42), "not both"),
    (LAYOUT.replace("3;", "4;"), (1, 15), "square_size = 4 but in_mine_pos has 3 rows"),
    (LAYOUT + "mines = 2;\n", (3, 9), "the total says 2 mines but in_mine_pos holds 1"),
])
def test_minizinc_layout_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "dzn", source="d.dzn")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)


def test_reveal_from_on_a_minizinc_game_is_refused():
    with pytest.raises(Exception, match="game"):
        parse("game = [| 1, -1 |];\n", "dzn", reveal_from="0,0")


# the game state razogarz/minesweeper-engineering's player hands to MiniZinc (data_gen.dzn): fields with -1
# unchecked, 0..8 counts and 9 a revealed mine; not_mines 1 where the player knows there is no mine
STATE = ("rows = 3;\ncols = 3;\nmines_count = 2;\n"
         "not_mines = array2d(1..rows, 1..cols, [0,0,1,0,0,0,0,0,0,]);\n"
         "fields = array2d(1..rows, 1..cols, [-1,-1,-1,1,2,-1,0,1,9,]);\n")


def test_a_minizinc_game_state_with_a_safe_mask():
    p = parse(STATE, "dzn")
    assert p.grid_lines == ["??.", "12?", "01*"] and p.mines == 2
    assert parse(STATE, source="data_gen.dzn").grid_lines == p.grid_lines   # detected by content


@pytest.mark.parametrize("text, where, msg", [
    (STATE.replace("[0,0,1,", "[0,0,2,"), (4, 44), "expected 1 (known to hold no mine) or 0"),
    (STATE.replace("0,0,0,0,0,0,]", "0,0,0,0,0,1,]"), (4, 56), "shows a mine there"),
    (STATE.replace("1..cols, [0,0,1,0,0,0,0,0,0,]", "1..2, [0,0,1,0,0,0,]"), (4, 13), "3 x 2 but fields is 3 x 3"),
    (STATE.replace("game", "").replace("fields", "game"), (5, 55), "game[3,3] = 9"),   # 9 is a mine in fields only
])
def test_minizinc_game_state_errors_are_located(text, where, msg):
    with pytest.raises(PuzzleSyntaxError) as err:
        parse(text, "dzn", source="d.dzn")
    assert (err.value.line, err.value.column) == where and msg in err.value.message, str(err.value)
