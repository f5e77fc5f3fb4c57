"""generate --no-guess --uniform, the fast replay against the independent checker, and the up-front refusals.

The checker is test_noguess's (pysat, its own flood fill, shares no code with mineconv).
"""
from __future__ import annotations

import itertools
import time

import numpy as np
import pytest
from test_noguess import check_written, clears_without_guessing

from helpers import run_cli
from mineconv.make import noguess_solver
from mineconv.make.noguess import NoGuessFailure, no_guess_layout, replay, start_block


def _run(capsys, *argv):
    try:
        return run_cli(capsys, *argv)
    except SystemExit as exc:  # argparse's own type errors
        return exc.code, "", capsys.readouterr().err


def _rows(grid: np.ndarray):
    return ["".join("*" if m else "." for m in row) for row in grid]


def _random_layouts(R, C, M, start, n, seed):
    rng = np.random.default_rng(seed)
    free = np.flatnonzero(~start_block(R, C, start).ravel())
    for _ in range(n):
        grid = np.zeros(R * C, dtype=bool)
        grid[rng.choice(free, size=M, replace=False)] = True
        yield grid.reshape(R, C)


# the replay agrees with the checker, where the total decides too ------------------------------------------
@pytest.mark.parametrize("R,C,M,start", [(8, 8, 20, (3, 3)), (6, 6, 8, (0, 0)), (9, 9, 18, (4, 0))])
def test_replay_agrees_with_the_checker_on_dense_random_layouts(R, C, M, start):
    verdicts = [replay(g, start).cleared for g in _random_layouts(R, C, M, start, 25, R * C + M)]
    assert verdicts == [clears_without_guessing(_rows(g), start)
                        for g in _random_layouts(R, C, M, start, 25, R * C + M)]
    assert any(verdicts) and not all(verdicts)


@pytest.mark.parametrize("R,C,M,start", [(9, 9, 50, (4, 4)), (8, 8, 40, (0, 0)), (6, 10, 33, (2, 5))])
def test_dense_generated_boards_pass_the_checker(R, C, M, start):
    # at 60-75% mines the endgame leans on the total, which the enumeration brings in
    # (--uniform is hopeless this dense: rejection sampling would need millions of layouts)
    for seed in range(3):
        grid = no_guess_layout(R, C, M, start, seed=seed).mines
        assert clears_without_guessing(_rows(grid), start)


def test_the_sat_fallback_decides_what_the_enumeration_decides(monkeypatch):
    # past the state budget the stuck state goes to the SAT backbone: same cells opened, same mines proven
    layouts = list(_random_layouts(16, 30, 99, (8, 15), 12, 7))
    fast = [replay(g, (8, 15)) for g in layouts]
    monkeypatch.setattr(noguess_solver, "NODE_BUDGET", 0)
    slow = [replay(g, (8, 15)) for g in layouts]
    assert any(s.sat_rounds for s in slow) and not any(f.sat_rounds for f in fast)
    for a, b in zip(fast, slow):
        assert a.cleared == b.cleared and np.array_equal(a.opened, b.opened)
        assert a.cleared or np.array_equal(a.proven_mines, b.proven_mines)


# --uniform ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rows,cols,mines,seed,first", [(9, 9, 10, 1, "4,4"), (16, 16, 40, 2, "0,0"),
                                                        (16, 30, 99, 3, None), (16, 30, 99, 4, "15,29")])
def test_uniform_boards_clear_from_their_first_click(tmp_path, capsys, rows, cols, mines, seed, first):
    out = tmp_path / "board.txt"
    extra = ["--first", first] if first else []
    status, _, err = run_cli(capsys, "generate", "--rows", rows, "--cols", cols, "--mines", mines, "--reveal",
                             "game", "--no-guess", "--uniform", "--seed", seed, *extra, "-o", out)
    assert status == 0, err
    check_written(out.read_text(), rows, cols, mines)


def test_uniform_is_deterministic_per_seed_and_not_the_repaired_board(capsys):
    argv = ["generate", "--rows", 16, "--cols", 30, "--mines", 99, "--reveal", "game", "--no-guess", "-o", "-"]
    a, b, c = (run_cli(capsys, *argv, "--uniform", "--seed", s)[1] for s in (5, 5, 6))
    assert a == b != c
    assert run_cli(capsys, *argv, "--seed", 5)[1] != a
    layout = no_guess_layout(16, 30, 99, (8, 15), seed=5, uniform=True)
    assert layout.repairs == 0 and layout.layouts >= 1


def test_uniform_frequencies_are_uniform_over_every_no_guess_layout():
    # 4 x 4, first click in a corner (its 2 x 2 block free), 3 mines: 220 layouts, every one checked
    R, C, M, start = 4, 4, 3, (0, 0)
    free = np.flatnonzero(~start_block(R, C, start).ravel())
    no_guess = set()
    for cells in itertools.combinations(free.tolist(), M):
        grid = np.zeros(R * C, dtype=bool)
        grid[list(cells)] = True
        if clears_without_guessing(_rows(grid.reshape(R, C)), start):
            no_guess.add(cells)
    k = len(no_guess)
    assert 10 < k < 220
    n = 20 * k
    seen: dict = {}
    for seed in range(n):
        cells = tuple(np.flatnonzero(no_guess_layout(R, C, M, start, seed=seed, uniform=True).mines).tolist())
        seen[cells] = seen.get(cells, 0) + 1
    assert set(seen) == no_guess  # only no-guess layouts, and every one of them
    expected = n / k
    chi2 = sum((seen[x] - expected) ** 2 / expected for x in no_guess)
    # k - 1 degrees of freedom: mean k - 1, sd sqrt(2(k - 1)); 6 sd is a 1-in-10^7 event for uniform
    # draws, and the seeds are fixed, so this cannot flake; the repaired layouts fail it (see below)
    assert chi2 < (k - 1) + 6 * (2 * (k - 1)) ** 0.5, chi2
    repaired: dict = {}
    for seed in range(n):
        cells = tuple(np.flatnonzero(no_guess_layout(R, C, M, start, seed=seed).mines).tolist())
        repaired[cells] = repaired.get(cells, 0) + 1
    chi2_repaired = sum((repaired.get(x, 0) - expected) ** 2 / expected for x in no_guess)
    assert chi2_repaired > (k - 1) + 6 * (2 * (k - 1)) ** 0.5, chi2_repaired


def test_uniform_gives_up_with_the_reason_and_exit_1(tmp_path, capsys):
    out = tmp_path / "x.txt"
    status, _, err = _run(capsys, "generate", "--rows", 30, "--cols", 30, "--mines", 500, "--reveal", "game",
                          "--no-guess", "--uniform", "--seed", 1, "--timeout", "1", "-o", out)
    assert status == 1 and "no no-guess layout of 500 mines on 30 x 30 from 15,15 within --timeout 1 s" in err
    assert "drop --uniform" in err and "Traceback" not in err and not out.exists()
    with pytest.raises(NoGuessFailure) as info:
        no_guess_layout(16, 30, 130, (8, 15), seed=1, uniform=True, max_layouts=3)
    assert "in 3 random layouts (--uniform keeps only layouts that need no guess as drawn)" in info.value.message


# refusals before any work --------------------------------------------------------------------------------
@pytest.mark.parametrize("extra,status_,message", [
    (("--rows", 30, "--cols", 30, "--mines", 600), 2, "is 67%: refused by a rule of thumb, not a proof"),
    (("--rows", 30, "--cols", 30, "--mines", 600), 2, "pass --any-density to search anyway"),
    (("--rows", 4000, "--cols", 4000, "--density", "0.2"), 2,
     "a no-guess search on 4000 x 4000 would hold about 8.9 GiB, more than the memory budget of 2.0 GiB"),
    (("--rows", 16, "--cols", 30, "--mines", 99, "--memory-budget", "100K"), 2,
     "more than the memory budget of 100.0 KiB (raise it with --memory-budget"),
    (("--rows", 16, "--cols", 30, "--mines", 99, "--memory-budget", "lots"), 2, "not a size: 'lots'"),
    (("--rows", 3, "--cols", 3, "--mines", 1), 2, "1 mine cannot fit a no-guess board of 3 x 3"),
])
def test_refused_up_front_with_the_reason(tmp_path, capsys, extra, status_, message):
    out = tmp_path / "x"
    began = time.monotonic()
    status, _, err = _run(capsys, "generate", *extra, "--reveal", "game", "--no-guess", "--count", 3, "-o", out)
    assert time.monotonic() - began < 5
    assert status == status_ and message in err and "Traceback" not in err, err
    assert not out.exists()  # refused before the --count folder was made


@pytest.mark.parametrize("flag", [("--uniform",), ("--any-density",), ("--memory-budget", "1G")])
def test_no_guess_options_need_no_guess(tmp_path, capsys, flag):
    status, _, err = _run(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 10, "--reveal", "game", *flag,
                          "-o", tmp_path / "x.txt")
    assert status == 2 and f"{flag[0]} applies to --no-guess boards only" in err


def test_any_density_searches_and_small_boards_are_not_refused(capsys):
    # the rule of thumb spares boards up to expert size: 9 x 9 with 60 mines (83%) is found at once
    status, text, err = run_cli(capsys, "generate", "--rows", 9, "--cols", 9, "--mines", 60, "--reveal", "game",
                                "--no-guess", "--seed", 1, "-o", "-")
    assert status == 0, err
    check_written(text, 9, 9, 60)
    status, _, err = _run(capsys, "generate", "--rows", 30, "--cols", 30, "--mines", 600, "--reveal", "game",
                          "--no-guess", "--any-density", "--seed", 1, "--timeout", "1", "-o", "-")
    assert status == 1 and "within --timeout 1 s" in err


def test_help_says_repaired_layouts_are_not_uniform(capsys):
    with pytest.raises(SystemExit):
        run_cli(capsys, "generate", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "not uniform among no-guess layouts" in text and "--uniform" in text
