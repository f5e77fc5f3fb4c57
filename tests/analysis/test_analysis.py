"""Analysis: backbone, exact counts, probabilities, uniqueness; checked against brute-force enumeration."""
from __future__ import annotations

import json
import time
from fractions import Fraction

import numpy as np
import pytest

from mineconv import Puzzle
from tests import helpers
from mineconv import build_system
from mineconv.analysis import CountingLimitError, analyze, count_component, count_solutions, sat_backbone
from mineconv.make.generate import place_mines, random_puzzle
from mineconv.core.layout import full_reveal
from mineconv.formats.reading import read

from helpers import brute_force, random_board
from conftest import SAMPLES


def check_against_brute_force(p: Puzzle) -> None:
    sols = brute_force(p)
    n = sols.shape[0]
    a = analyze(p)
    assert a.solutions == n, p
    assert a.unique == (n == 1)
    k = a.system.num_vars
    if n == 0:
        assert a.probabilities is None and not a.feasible
        return
    counts = sols.sum(axis=0)
    assert list(a.mine_solutions) == counts.tolist()
    assert a.probabilities == [Fraction(int(c), n) for c in counts]
    backbone_safe = counts == 0
    backbone_mine = counts == n
    assert ((a.values == 0) == backbone_safe).all() and ((a.values == 1) == backbone_mine).all(), p
    assert k == len(counts)


def test_brute_force_random_boards():
    rng = np.random.default_rng(20261122)
    for _ in range(400):
        check_against_brute_force(random_board(rng))


def test_levels_are_sound_and_nested():
    rng = np.random.default_rng(7)
    for _ in range(300):
        p = random_board(rng)
        sols = brute_force(p)
        decided = {}
        for level in ("gac", "2rc", "3rc", "full"):
            a = analyze(p, level=level, count=False)
            if sols.shape[0] == 0:
                continue
            for (r, c) in a.safe_cells:
                i = int(a.system.var_grid[r, c]) - 1
                assert not sols[:, i].any(), (level, p, (r, c))
            for (r, c) in a.mine_cells:
                i = int(a.system.var_grid[r, c]) - 1
                assert sols[:, i].all(), (level, p, (r, c))
            decided[level] = set(a.safe_cells) | {("m",) + rc for rc in a.mine_cells}
        if decided:
            assert decided["gac"] <= decided["2rc"] <= decided["3rc"] <= decided["full"], p


def test_seed_board_and_total_weighting():
    p = read(SAMPLES / "seed-3x3.txt")
    a = analyze(p)
    assert a.solutions == 2 and not a.unique
    assert a.mine_cells == [(0, 1)] and a.safe_cells == [(0, 2)]
    # a cell touched by no count, with a total: weights are binomial coefficients
    q = Puzzle.from_rows(["1?", "??", "??"], mines=2)
    # (0,1),(1,0),(1,1) hold exactly one mine; the free cells (2,0),(2,1) hold the other one
    b = analyze(q)
    assert b.solutions == 3 * 2
    grid = b.probability_grid
    assert grid[0][0] is None
    assert grid[0][1] == pytest.approx(1 / 3) and grid[2][0] == pytest.approx(1 / 2)
    # without the total the two free cells double the count each
    assert analyze(q.replace(mines=None)).solutions == 3 * 4


def test_unequal_components_with_total_count():
    # two components whose solutions use different numbers of mines: the total makes them interact
    p = Puzzle.from_rows(["?1?.?2??", "????????"], mines=4)
    check_against_brute_force(p)
    q = Puzzle.from_rows(["1???", "????", "??2?", "????"], mines=3)
    check_against_brute_force(q)


def test_sat_backbone_matches_counts_on_free_cells():
    # free cells interchangeable: all forced when the total leaves them no choice
    p = Puzzle.from_rows(["1?", "??", "??"], mines=1)
    values = sat_backbone(p)
    assert values.tolist() == [-1, -1, -1, 0, 0]
    p5 = Puzzle.from_rows(["1?", "??", "??"], mines=3)
    assert sat_backbone(p5).tolist() == [-1, -1, -1, 1, 1]
    assert sat_backbone(Puzzle.from_rows(["1?", "??"], mines=4)) is None


def test_full_level_joins_counts_with_the_total():
    r = Puzzle.from_rows(["1??", "???"]).replace(mines=1)
    a = analyze(r)
    assert a.safe_cells == [(0, 2), (1, 2)] and a.mine_cells == [] and a.solutions == 3


def test_infeasible_reports_zero():
    a = analyze(Puzzle.from_rows(["3?", ".?"]))
    assert a.solutions == 0 and not a.unique
    data = a.to_json()
    assert data["solutions"] == 0 and data["safe"] == [] and data["mines"] == []
    assert data["probabilities"] == [[None, None], [None, None]]


def test_counting_limit_is_reported_not_hidden():
    # a wide open component: the counter refuses rather than running away
    vars_ = list(range(1, 41))
    var_rc = np.array([[0, i] for i in range(40)], dtype=np.int32)
    cons = [(tuple(vars_), 20)]
    with pytest.raises(CountingLimitError):
        count_component(vars_, cons, var_rc, weighted=True, max_states=5)
    P, _ = count_component(vars_, cons, var_rc, weighted=False)
    assert P == 137846528820  # C(40, 20)


def test_fully_revealed_board_is_fast_and_consistent():
    grid = place_mines(60, 60, density=0.2, seed=3)
    p = full_reveal(grid)
    t = time.perf_counter()
    a = analyze(p)
    elapsed = time.perf_counter() - t
    assert a.solutions >= 1
    # the true mine layout is one of the solutions: no certain mine off it, no safe cell on it
    truth = grid[p.codes == -1]
    assert not (truth & (a.values == 0)).any() and not (~truth & (a.values == 1)).any()
    assert elapsed < 20


def test_json_shape_matches_issue():
    p = Puzzle.from_rows(["1??", "12?", "01?"])
    data = analyze(p).to_json()
    assert data["solutions"] == 2 and data["unique"] is False
    assert data["safe"] == [[0, 2]] and data["mines"] == [[0, 1]]
    assert data["probabilities"] == [[None, 1.0, 0.0], [None, None, 0.5], [None, None, 0.5]]
    json.dumps(data)


PUBLISHED = [
    # (sample, notation, solutions): sources in samples/ANALYSIS.md and samples/README.md
    ("kaye-splitter.txt", None, 131072),
    ("kaye-wire.dots", "dots", 2),
    ("kaye-config3.dots", "dots", 4),
    ("dusautoy-6x6.txt", None, 1),
    ("gecode-0.txt", None, 1),
    ("seed-3x3.txt", None, 2),
]


@pytest.mark.parametrize("name,fmt,expected", PUBLISHED)
def test_published_boards(name, fmt, expected):
    p = read(SAMPLES / name, fmt)
    t = time.perf_counter()
    a = analyze(p)
    assert time.perf_counter() - t < 1.0
    assert a.solutions == expected
    assert a.unique == (expected == 1)
    if expected == 1:
        assert (a.values != -1).all()


def test_splitter_structure():
    a = analyze(read(SAMPLES / "kaye-splitter.txt"))
    # 16 free corner cells (no count touches them) at 1/2, everything else 0 or the wire's 1/2
    probs = a.probabilities
    assert set(probs) <= {Fraction(0), Fraction(1, 2)}
    free = ~a.system.constrained_vars
    assert int(free.sum()) == 16 and all(p == Fraction(1, 2) for p, f in zip(probs, free) if f)


@pytest.mark.parametrize("with_total", [False, True])
def test_sat_backbone_agrees_with_counts_on_game_boards(with_total):
    for seed in range(3):
        p = random_puzzle(20, 20, density=0.2, reveal="game", seed=seed, with_total=with_total)
        a = analyze(p)
        n = a.solutions
        per = np.asarray([0 if x == 0 else 2 if x == n else 1 for x in a.mine_solutions])
        by_counts = np.where(per == 0, 0, np.where(per == 2, 1, -1))
        assert (a.values == by_counts).all()
        # the SAT solver with the total in its CNF finds the same backbone on its own
        assert (sat_backbone(p) == a.values).all()


def run_cli(args, capsys):
    """helpers.run_cli with the arguments as one list."""
    return helpers.run_cli(capsys, *args)


def test_cli_json_equals_library(capsys):
    path = str(SAMPLES / "kaye-config3.dots")
    status, out, _ = run_cli(["analyze", path, "--from", "dots", "--json"], capsys)
    assert status == 0
    assert json.loads(out) == json.loads(json.dumps(analyze(read(path, "dots")).to_json()))
    status, out, _ = run_cli(["analyze", path, "--from", "dots", "--json", "--level", "gac",
                              "--compare-levels"], capsys)
    data = json.loads(out)
    assert data["level"] == "gac" and data["solutions"] == 4
    by = data["decided_by_level"]
    assert by["gac"] <= by["2rc"] <= by["3rc"] <= by["full"]


def test_cli_text_report_is_a_puzzle(capsys, tmp_path):
    status, out, _ = run_cli(["analyze", str(SAMPLES / "seed-3x3.txt"), "--probabilities"], capsys)
    assert status == 0
    assert "# solutions: 2" in out and "# unique: no" in out
    back = tmp_path / "marked.txt"
    back.write_text(out)
    marked = read(back)
    assert marked.grid_lines == ["1*.", "12?", "01?"]


def test_cli_infeasible_and_bad_input(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3?\n.?\n")
    status, out, _ = run_cli(["analyze", str(bad), "--json"], capsys)
    assert status == 1 and json.loads(out)["solutions"] == 0
    broken = tmp_path / "broken.txt"
    broken.write_text("1?\n?x\n")
    target = tmp_path / "report.json"
    status, out, err = run_cli(["analyze", str(broken), "--json", "-o", str(target)], capsys)
    assert status == 2 and f"{broken}:2:2:" in err and "Traceback" not in err
    assert not target.exists() and not list(tmp_path.glob(".report.json*"))


def test_float_probabilities_on_big_boards_match_exact():
    # the double-precision product tree (used when exact per-cell numbers cost too much) against exact
    for seed in range(2):
        p = random_puzzle(40, 40, density=0.16, reveal="game", seed=seed)
        s = build_system(p)
        exact = count_solutions(s)
        approx = count_solutions(s, exact_budget=-1)
        assert approx.solutions == exact.solutions and approx.mine_solutions is None
        err = max(abs(x / exact.solutions - y) for x, y in zip(exact.mine_solutions, approx.approx))
        assert err < 1e-12
        assert (approx.never_mine() == exact.never_mine()).all()
        assert (approx.always_mine() == exact.always_mine()).all()
    rng = np.random.default_rng(5)
    for _ in range(200):
        p = random_board(rng)
        s = build_system(p)
        if p.mines is None or s.impossible.any() or not 0 <= s.total <= s.num_vars:
            continue
        exact, approx = count_solutions(s), count_solutions(s, exact_budget=-1)
        if exact.solutions:
            assert (approx.never_mine() == exact.never_mine()).all(), p
            assert (approx.always_mine() == exact.always_mine()).all(), p


def test_huge_counts_print(capsys, tmp_path):
    # 14400 free cells holding 7200 mines: C(14400, 7200) has more digits than Python prints by default
    board = tmp_path / "open.txt"
    board.write_text("mines: 7200\n" + ("?" * 120 + "\n") * 120)
    status, out, _ = run_cli(["analyze", str(board), "--json"], capsys)
    assert status == 0
    # past Python's 4,300-digit limit the count is written as its digits in a string, under "solutions"
    # and "solutions_str" alike (core/jsonout's rule, issue 38 point 6), so json.loads reads it whole
    report = json.loads(out)
    digits = report["solutions"]
    assert isinstance(digits, str) and len(digits) > 4300 and digits.isdigit()
    assert report["solutions_str"] == digits
    status, out, _ = run_cli(["analyze", str(board)], capsys)
    assert "digits)" in out and "# unique: no" in out


def test_backbone_without_counts_falls_back_to_sat_with_total():
    # when the counter gives up, the SAT solver takes the total count into its CNF itself
    rng = np.random.default_rng(17)
    checked = 0
    for _ in range(400):
        p = random_board(rng)
        if p.mines is None:
            continue
        sols = brute_force(p)
        a = analyze(p, max_states=0)
        if sols.shape[0] == 0:
            continue
        if a.solutions is not None:  # everything decided before any component needed counting
            assert a.solutions == sols.shape[0]
            continue
        assert a.count_error and a.probabilities is None
        never, always = ~sols.any(axis=0), sols.all(axis=0)
        assert ((a.values == 0) == never).all() and ((a.values == 1) == always).all(), p
        assert a.unique == (sols.shape[0] == 1)
        checked += 1
    assert checked >= 40
