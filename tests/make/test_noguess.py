"""No-guess games (issue 14): every generated board is replayed from its first click by a checker of its own.

The checker below shares no code with mineconv: it reads the written text itself, floods zero regions
with its own stack, and decides "safe in every layout consistent with the revealed counts and the total"
with pysat's cardinality encodings and an incremental SAT solver. A board passes only when opening the
cells it proves safe, round after round, clears it.
"""
from __future__ import annotations

from typing import Iterator, List, Sequence, Set, Tuple

import numpy as np
import pytest
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from helpers import run_cli
from mineconv import parse
from mineconv.make.noguess import no_guess_layout, replay

Cell = Tuple[int, int]


# the independent checker ---------------------------------------------------------------------------
def _nbrs(R: int, C: int, r: int, c: int) -> Iterator[Cell]:
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < R and 0 <= c + dc < C:
                yield r + dr, c + dc


def _proven_safe(R: int, C: int, opened: Set[Cell], cnt: List[List[int]], total: int) -> List[Cell]:
    """Closed cells that hold no mine in any layout fitting the opened counts and the total."""
    closed = [(r, c) for r in range(R) for c in range(C) if (r, c) not in opened]
    frontier = [rc for rc in closed if any(x in opened for x in _nbrs(R, C, *rc))]
    interior = [rc for rc in closed if rc not in set(frontier)]
    var = {rc: i + 1 for i, rc in enumerate(frontier)}
    pool = IDPool(start_from=len(frontier) + 1)
    clauses: List[List[int]] = []
    for (r, c) in opened:
        lits = [var[x] for x in _nbrs(R, C, r, c) if x in var]
        if lits:
            clauses += CardEnc.equals(lits=lits, bound=cnt[r][c], vpool=pool, encoding=EncType.seqcounter).clauses
    lits = list(var.values())

    def frontier_sum(lo: int, hi: int) -> List[List[int]]:
        out: List[List[int]] = []
        if hi < 0:
            return [[]]  # no layout at all
        if hi < len(lits):
            out += CardEnc.atmost(lits=lits, bound=hi, vpool=pool, encoding=EncType.seqcounter).clauses
        if lo > 0:
            out += CardEnc.atleast(lits=lits, bound=lo, vpool=pool, encoding=EncType.seqcounter).clauses
        return out

    # cells out of reach of every count meet only the total: they hold total - sum(frontier) mines,
    # anything from 0 to len(interior), and they are interchangeable
    lo, hi = total - len(interior), total
    safe: List[Cell] = []
    with Solver(name="minisat22", bootstrap_with=clauses + frontier_sum(lo, hi)) as s:
        assert s.solve(), "the true layout fits the board, so some layout must"
        maybe = set(frontier)
        while maybe:
            rc = min(maybe)
            maybe.discard(rc)
            if s.solve(assumptions=[var[rc]]):
                model = {v for v in s.get_model() if v > 0}
                maybe -= {x for x in frontier if var[x] in model}
            else:
                safe.append(rc)
    if interior:
        with Solver(name="minisat22", bootstrap_with=clauses + frontier_sum(lo, total - 1)) as s:
            if not s.solve():
                safe += interior
    return safe


def clears_without_guessing(rows: Sequence[str], start: Cell) -> bool:
    """Replay a full layout ('*' mine) from its first click, opening only provably safe cells; True if cleared."""
    R, C = len(rows), len(rows[0])
    mine = [[ch == "*" for ch in row] for row in rows]
    cnt = [[sum(mine[a][b] for a, b in _nbrs(R, C, r, c)) for c in range(C)] for r in range(R)]
    total = sum(map(sum, mine))
    opened: Set[Cell] = set()

    def click(r: int, c: int) -> None:
        assert not mine[r][c], f"the replay opened a mine at {(r, c)}"
        stack = [(r, c)]
        while stack:
            a, b = stack.pop()
            if (a, b) in opened:
                continue
            opened.add((a, b))
            if cnt[a][b] == 0:
                stack.extend(x for x in _nbrs(R, C, a, b) if x not in opened)

    click(*start)
    while len(opened) < R * C - total:
        safe = _proven_safe(R, C, opened, cnt, total)
        if not safe:
            return False
        for rc in safe:
            click(*rc)
    return True


def read_board(text: str) -> Tuple[List[str], Cell, int]:
    """The checker's own reading of a written board: grid rows, 'start: R,C', 'mines: N'."""
    head = {}
    rows = []
    for line in text.splitlines():
        if ":" in line:
            key, _, value = line.partition(":")
            head[key.strip()] = value.strip()
        elif line and not line.startswith("#"):
            rows.append(line)
    r, c = (int(v) for v in head["start"].split(","))
    return rows, (r, c), int(head["mines"])


def check_written(text: str, rows_: int, cols_: int, mines_: int) -> Tuple[List[str], Cell]:
    """Everything a written no-guess board promises, checked independently."""
    rows, start, total = read_board(text)
    assert len(rows) == rows_ and all(len(row) == cols_ for row in rows)
    assert total == mines_ == sum(row.count("*") for row in rows)
    R, C = rows_, cols_
    for r in range(R):
        for c in range(C):
            if rows[r][c] != "*":
                assert int(rows[r][c]) == sum(rows[a][b] == "*" for a, b in _nbrs(R, C, r, c))
    # the first click and its neighbours are mine-free, so it opens a region
    assert all(rows[a][b] != "*" for a, b in [start, *_nbrs(R, C, *start)])
    assert clears_without_guessing(rows, start)
    return rows, start


# the checker itself can fail ------------------------------------------------------------------------
def test_checker_rejects_a_forced_guess():
    # from (0, 0) the zeros open up to two 1s over (0, 3) and (1, 3); the total then proves the right
    # column safe, but its two 1s see the same pair: which of (0, 3) and (1, 3) is the mine is a coin toss
    assert not clears_without_guessing(["...*.", "....."], (0, 0))
    # one more row and the zeros reach round the mine: (1, 4) shows 1, and the total settles the rest
    assert not clears_without_guessing(["....*", "....."], (0, 0))
    assert clears_without_guessing(["....*", ".....", "....."], (0, 0))
    # a mine inside the zero region is no board of this game: the checker refuses to open it
    with pytest.raises(AssertionError):
        clears_without_guessing(["*....", "....."], (0, 0))


@pytest.mark.parametrize("seed", range(12))
def test_checker_agrees_with_the_library_on_random_expert_layouts(seed):
    # two independent replays must reach the same verdict on plain random layouts (most are not no-guess)
    rng = np.random.default_rng(seed)
    start = (8, 15)
    free = [i for i in range(480) if not (abs(i // 30 - 8) <= 1 and abs(i % 30 - 15) <= 1)]
    grid = np.zeros(480, dtype=bool)
    grid[rng.choice(free, size=99, replace=False)] = True
    grid = grid.reshape(16, 30)
    rows = ["".join("*" if m else "." for m in row) for row in grid]
    assert replay(grid, start).cleared == clears_without_guessing(rows, start)


# generated boards, replayed ---------------------------------------------------------------------------
SAMPLE = ([(9, 9, 10, seed, first) for seed, first in zip(range(6), ["4,4", "0,0", "8,8", "0,4", None, "7,1"])]
          + [(16, 16, 40, seed, first) for seed, first in zip(range(4), ["8,8", "0,15", None, "3,12"])]
          + [(16, 30, 99, seed, first) for seed, first in zip(range(4), ["8,15", None, "0,0", "15,3"])])


@pytest.mark.parametrize("rows,cols,mines,seed,first", SAMPLE)
def test_every_generated_board_clears_from_its_first_click(tmp_path, capsys, rows, cols, mines, seed, first):
    out = tmp_path / "board.txt"
    extra = ["--first", first] if first else []
    status, _, err = run_cli(capsys, "generate", "--rows", rows, "--cols", cols, "--mines", mines, "--reveal",
                             "game", "--no-guess", "--seed", seed, *extra, "-o", out)
    assert status == 0, err
    _, start = check_written(out.read_text(), rows, cols, mines)
    want = tuple(int(v) for v in first.split(",")) if first else (rows // 2, cols // 2)
    assert start == want


def test_count_writes_k_no_guess_boards(tmp_path, capsys):
    status, _, err = run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game",
                             "--no-guess", "--first", "2,3", "--count", 5, "--seed", 40, "-o", tmp_path / "b")
    assert status == 0, err
    files = sorted((tmp_path / "b").iterdir())
    assert len(files) == 5
    texts = [f.read_text() for f in files]
    for text in texts:
        check_written(text, 9, 9, 10)
    assert len(set(texts)) == 5
    # board i is the board of seed 40 + i
    status, single, _ = run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game",
                                "--no-guess", "--first", "2,3", "--seed", 43, "-o", "-")
    assert single == texts[3]


def test_density_and_a_higher_mine_count(tmp_path, capsys):
    # 20% of an 12 x 12 board, above beginner density: the repair has to work for it
    status, text, err = run_cli(capsys, "generate", "--rows", 12, "--cols", 12, "--density", "0.2", "--reveal",
                                "game", "--no-guess", "--seed", 5, "--first", "6,6", "-o", "-")
    assert status == 0, err
    check_written(text, 12, 12, 29)


def test_same_seed_same_board_other_seed_other_board(capsys):
    argv = ["generate", "--rows", 16, "--cols", 30, "--mines", 99, "--reveal", "game", "--no-guess",
            "--first", "8,15", "-o", "-"]
    boards = [run_cli(capsys, *argv, "--seed", s)[1] for s in (11, 11, 12)]
    assert boards[0] == boards[1] != boards[2]
    assert boards[0].startswith("name: no-guess 16x30 first 8,15 seed 11\nmines: 99\nstart: 8,15\n")


def test_library_layout_is_deterministic_and_no_guess():
    a = no_guess_layout(16, 16, 40, (0, 0), seed=3)
    b = no_guess_layout(16, 16, 40, (0, 0), seed=3)
    assert np.array_equal(a.mines, b.mines) and a.start == (0, 0) and int(a.mines.sum()) == 40
    rows = ["".join("*" if m else "." for m in row) for row in a.mines]
    assert clears_without_guessing(rows, (0, 0))


# the native 'start:' header ------------------------------------------------------------------------
def test_native_start_round_trips_exactly(capsys):
    status, text, _ = run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game",
                              "--no-guess", "--first", "1,7", "--seed", 2, "-o", "-")
    assert status == 0
    p = parse(text)
    assert p.start == (1, 7) and p.mines == 10
    from mineconv import dumps
    assert dumps(p, "native") == text
    assert parse(dumps(p, "native")) == p


@pytest.mark.parametrize("header,message,col", [
    ("start: 2,0", "is outside the 2 x 2 grid", 8),
    ("start: 0,1", "is on a known mine", 8),
    ("start: 1", "needs the first click as ROW,COL", 7),
    ("start: -1,0", "needs the first click as ROW,COL", 7),
])
def test_native_start_errors_are_located(header, message, col):
    from mineconv import MineconvError
    with pytest.raises(MineconvError) as info:
        parse(f"mines: 1\n{header}\n1*\n11\n", "native")
    assert message in info.value.message and info.value.line == 2 and info.value.column == col


def test_other_notations_report_the_first_click_lost(tmp_path, capsys):
    board = tmp_path / "b.txt"
    run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game", "--no-guess",
            "--seed", 1, "-o", board)
    for ext in ("board",):
        status, _, err = run_cli(capsys, "convert", board, tmp_path / f"b.{ext}", "--strict")
        assert status == 2 and "cannot express the first click (start: 4,4)" in err
        assert not (tmp_path / f"b.{ext}").exists()
    # without --strict the layout itself is kept: the .mbf reads back as the same mines
    status, _, err = run_cli(capsys, "convert", board, tmp_path / "b.mbf")
    assert status == 0 and "first click (start: 4,4)" in err
    original = parse(board.read_text())
    back = parse((tmp_path / "b.mbf").read_bytes().decode("latin-1"), "mbf")
    assert [i for i, ch in enumerate(back.cells) if ch == "?"] == [i for i, ch in enumerate(original.cells)
                                                                   if ch == "*"]
    # a solver file has no use for the first click: no warning
    status, _, err = run_cli(capsys, "convert", board, tmp_path / "b.cnf", "--strict")
    assert status == 0 and "first click" not in err


def test_mineconv_json_keeps_the_first_click(tmp_path, capsys):
    board = tmp_path / "b.txt"
    run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game", "--no-guess",
            "--seed", 1, "-o", board)
    status, _, err = run_cli(capsys, "convert", board, tmp_path / "b.json", "--strict")
    assert status == 0 and err == ""
    assert '"start": [4, 4]' in (tmp_path / "b.json").read_text()
    assert run_cli(capsys, "convert", tmp_path / "b.json", tmp_path / "back.txt")[0] == 0
    assert (tmp_path / "back.txt").read_bytes() == board.read_bytes()
    # a puzzle without a first click is written as before: no "start" key
    from mineconv import dumps
    assert '"start"' not in dumps(parse("1?\n"), "json")


@pytest.mark.parametrize("value,message", [
    ("[4, 40]", "is outside the 9 x 9 grid"),
    ("[4]", '"start" must be [row, col]'),
    ("[4, true]", '"start" must be [row, col]'),
    ("[-1, 0]", '"start" must be [row, col]'),
    ('"4,4"', '"start" must be [row, col]'),
])
def test_mineconv_json_start_errors_are_located(tmp_path, capsys, value, message):
    board = tmp_path / "b.txt"
    run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game", "--no-guess",
            "--seed", 1, "-o", board)
    run_cli(capsys, "convert", board, tmp_path / "b.json")
    text = (tmp_path / "b.json").read_text().replace('"start": [4, 4]', f'"start": {value}')
    (tmp_path / "bad.json").write_text(text)
    status, _, err = run_cli(capsys, "info", tmp_path / "bad.json")
    line = text[:text.index('"start"')].count("\n") + 1
    assert status == 2 and message in err and f"bad.json:{line}:3" in err


# refusals -------------------------------------------------------------------------------------------
def _run(capsys, *argv):
    try:
        return run_cli(capsys, *argv)
    except SystemExit as exc:  # argparse's own type errors
        return exc.code, "", capsys.readouterr().err


@pytest.mark.parametrize("extra,message", [
    (("--reveal", "game", "--no-guess", "--first", "9,0"), "--first 9,0 is outside the 9 x 9 board"),
    (("--reveal", "game", "--no-guess", "--first", "0,9"), "--first 0,9 is outside the 9 x 9 board"),
    (("--reveal", "game", "--no-guess", "--first", "3"), "is not a cell: give ROW,COL"),
    (("--reveal", "game", "--no-guess", "--first=-1,2"), "is not a cell: give ROW,COL"),
    (("--no-guess",), "it needs --reveal game"),
    (("--reveal", "full", "--no-guess"), "it needs --reveal game"),
    (("--reveal", "game", "--first", "1,1"), "--first applies to --no-guess boards only"),
    (("--reveal", "game", "--no-guess", "--openings", "3"), "--openings does not apply to --no-guess"),
    (("--reveal", "game", "--no-guess", "--no-total"), "solved with the total mine count"),
])
def test_bad_options_exit_2_without_output(tmp_path, capsys, extra, message):
    out = tmp_path / "x.txt"
    status, _, err = _run(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, *extra, "-o", out)
    assert status == 2 and message in err and "Traceback" not in err
    assert not out.exists()


def test_too_many_mines_for_a_free_first_click(tmp_path, capsys):
    status, _, err = _run(capsys, "generate", "--rows", 3, "--cols", 3, "--mines", 1, "--reveal", "game",
                          "--no-guess", "-o", tmp_path / "x.txt")
    assert status == 2 and "1 mine cannot fit a no-guess board of 3 x 3" in err


def test_timeout_gives_a_clear_message_and_exit_1(tmp_path, capsys):
    # 67% mines on 30 x 30 (searched anyway): no layout in 1000 (7 s of CPU), so none within a second
    # (45% on an expert board, used before the replay got fast, is found in 3 s: too close)
    out = tmp_path / "x.txt"
    status, _, err = _run(capsys, "generate", "--rows", 30, "--cols", 30, "--mines", 600, "--reveal", "game",
                          "--no-guess", "--any-density", "--seed", 1, "--timeout", "1", "-o", out)
    assert status == 1 and "no no-guess layout of 600 mines on 30 x 30 from 15,15 within --timeout 1 s" in err
    assert not out.exists()
