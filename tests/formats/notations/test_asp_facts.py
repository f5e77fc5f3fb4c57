"""ASP facts: the row-first, cell/2 and column-first layouts, the --order option, the writer, errors, the CLI."""
from __future__ import annotations

import pytest

from helpers import SAMPLES, run_cli
from mineconv import Puzzle, PuzzleSyntaxError, dumps, parse
from mineconv.make.generate import random_puzzle
from mineconv.formats.detection import rank_formats

# the shape Jolyon Bloomfield's clingo puzzle wrapper writes (column first), for his 5 x 6 example
COL_FIRST = """% Puzzle Definition
% Numeric entries in the puzzle
% number(col, row, #).
number(2, 1, 2).
number(3, 2, 3).
number(4, 2, 2).
number(1, 3, 3).
number(4, 3, 2).
number(2, 4, 2).
number(5, 4, 2).
number(3, 5, 1).
number(4, 5, 2).

% Mines in the puzzle
% mine(col, row).
mine(6, 4).

% Cells that are excluded from the puzzle grid
% excluded(col, row).
excluded(6, 1).
excluded(6, 2).
excluded(6, 3).
excluded(6, 5).

% Define our grid size
#const r=5.
#const c=6.

% Add in a mine count constraint
#const mine_count=8.
:- #count{C, R: mine(C, R)} != mine_count.
"""


def validate(text: str, rows: list, **expect) -> Puzzle:
    """Read text as ASP facts and check the grid (and any other attribute given)."""
    options = {k: expect.pop(k) for k in ("order",) if k in expect}
    p = parse(text, "asp-facts", **options)
    assert p.grid_lines == rows
    for key, value in expect.items():
        assert getattr(p, key) == value, key
    return p


def test_one_liners():
    validate("#const r = 2. #const c = 3. number(1,3,1).", ["??1", "???"])
    validate("#const r=2. #const c=3. number(3,1,1).", ["??1", "???"])          # only col-first fits
    validate("#const r=2. #const c=2. number(2,1,1).", ["??", "1?"])            # square: row first by default
    validate("#const r=2. #const c=2. number(2,1,1).", ["?1", "??"], order="col-first")
    validate("cell(R,C) :- R = 1..2, C = 1..3.\nnumber(cell(1,2),1).", ["?1?", "???"])
    validate("#const r=1. #const c=3. number(1,1,1). mine(1,2). excluded(1,3).", ["1*."])
    validate("#const r=1. #const c=2. #const mine_count=1. number(1,1,1).", ["1?"], mines=1)
    validate("%* block *% #const r=1. #const c=2. number(1,1,1). #show mine/2. p(X) :- q(X).", ["1?"])


def test_column_first_layout_with_its_comment():
    p = validate(COL_FIRST, ["?2???.", "??32?.", "3??2?.", "?2??2*", "??12?."], mines=8)
    assert p.notes[:1] == ("Puzzle Definition",)


def test_column_first_gives_the_published_answer(capsys, tmp_path):
    path = tmp_path / "bloomfield.lp"      # '.lp' is read by content: the extension stays CPLEX LP for writing
    path.write_text(COL_FIRST)
    rc, out, _ = run_cli(capsys, "solve", path)
    assert rc == 0 and out.splitlines()[-5:] == [".2.*..", "**32*.", "3*.2..", ".2*.2*", "..12*."]


def test_writer_bytes():
    p = Puzzle.from_rows(["1*", "?."], mines=1, name="n", notes=["x"])
    assert dumps(p, "asp-facts") == (
        "% name: n\n% x\n#const r = 2.\n#const c = 2.\n#const mine_count = 1.\n% mineconv 0.1.0: number(row, col, "
        "count), mine(row, col) = known mine, excluded(row, col) = known safe; 1-based; a cell without a fact is "
        "unknown\nnumber(1,1,1).\nmine(1,2).\nexcluded(2,2).\n")


@pytest.mark.parametrize("seed", range(12))
def test_round_trip(seed):
    p = random_puzzle(5, 5, mines=5, reveal="game", seed=seed).replace(name="a", notes=("", "y"))
    assert parse(dumps(p, "asp-facts"), "asp-facts") == p


@pytest.mark.parametrize("text, line, col, words", [
    ("#const r=2. #const c=3.\nnumber(3,3,1).", 2, 8, "outside the 2 x 3 board"),
    ("#const r=2. #const c=3.\nnumber(1,1,9).", 2, 12, "a count is 0..8"),
    ("#const r=2. #const c=3.\nnumber(1,1,1). mine(1,1).", 2, 21, "described twice"),
    ("number(1,1,1).", 1, 1, "no board size"),
    ("#const r=2. #const c=2.\nnumber(1,1,4).", 2, 12, "shows 4 but has only 3"),
    ("#const r=1. #const c=2.\nnumber(1,k,1).", 2, 10, "'k' is not a whole number"),
    ("#const r=5000. #const c=5000.\n", 1, 10, "more than"),
    ("#const r=1. #const c=1. number(1,1,0)", 1, 25, "unexpected"),
])
def test_errors_name_line_and_column(text, line, col, words):
    with pytest.raises(PuzzleSyntaxError) as info:
        parse(text, "asp-facts")
    err = info.value
    assert (err.line, err.column) == (line, col) and words in err.message, str(err)


def test_bad_order_value():
    with pytest.raises(PuzzleSyntaxError, match="--order must be one of"):
        parse("#const r=1. #const c=1.", "asp-facts", order="diagonal")


def test_detection_is_by_content():
    assert rank_formats(COL_FIRST)[0][1].name == "asp-facts"
    assert rank_formats("number(1,2,3).\n")[0][0] == 0.5


def test_cli_info_solve_and_order_flag(capsys, tmp_path):
    rc, out, _ = run_cli(capsys, "info", SAMPLES / "dusautoy-6x6.facts")
    assert rc == 0 and "asp-facts" in out
    path = tmp_path / "sq.facts"
    path.write_text("#const r=2. #const c=2.\nnumber(2,1,1).\n")
    rc, out, _ = run_cli(capsys, "convert", path, "-o", "-", "--to", "native", "--order", "col-first")
    assert rc == 0 and out.splitlines()[-2:] == ["?1", "??"]
    with pytest.raises(SystemExit):
        run_cli(capsys, "info", "--help")
    out = capsys.readouterr().out
    assert "--order" in out and "col-first" in out
    bad = tmp_path / "bad.facts"
    bad.write_text("#const r=2. #const c=3.\nnumber(3,3,1).\n")
    rc, _, err = run_cli(capsys, "info", bad)
    assert rc == 2 and f"{bad}:2:8:" in err and "Traceback" not in err
