"""Bounded analysis (issues 12 and 13): the counter's memory budget, --timeout, progress, partial reports."""
from __future__ import annotations

import argparse
import io
import json
import time

import numpy as np
import pytest

from mineconv import parse
from mineconv.analysis import AnalysisTimeout, Bounds, CountingMemoryError, analyze, parse_size
from mineconv.core.bounds import layer_bytes
from mineconv.analysis.propagation import UNDECIDED
from mineconv.cli import main
from mineconv.cli.analyze import StageProgress, memory_budget
from mineconv.make.generate import lattice_text
from mineconv.core.system import build_system
from tests.conftest import SAMPLES


lattice = lattice_text  # the issue's board: counts on a lattice, every other cell unknown


@pytest.mark.parametrize("text,expected", [("2G", 2 << 30), ("512M", 512 << 20), ("1.5GiB", 3 << 29),
                                           ("300000", 300000), ("64k", 65536), (" 1 T ", 1 << 40)])
def test_parse_size(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "G", "-1G", "0", "nan", "inf", "1e9", "2X", "٣G", "2 GB extra"])
def test_parse_size_refuses(text):
    with pytest.raises(ValueError):
        parse_size(text)
    with pytest.raises(argparse.ArgumentTypeError):
        memory_budget(text)


def test_memory_budget_stops_the_counter_and_keeps_the_decisions():
    # no total: the counts' backbone is then the whole backbone, with or without the counter
    p = parse(lattice(12, 40, total=False))
    whole = analyze(p)
    assert whole.status == "complete" and whole.solutions
    # (the table sweep of issue 24 counts this board within 1 MiB: half of that stops it)
    cut = analyze(p, memory_budget=1 << 19)
    assert cut.status == "partial"
    assert cut.solutions is None and "512.0 KiB" in cut.count_error and "--memory-budget" in cut.count_error
    assert (cut.values == whole.values).all()
    data = cut.to_json()
    assert data["status"] == "partial" and data["solutions"] is None


def test_the_estimate_is_what_stops_it():
    """A budget just above the estimate passes, one below stops: the estimate is the measure.

    With the total, a budget below the estimate of keeping every forward layer makes the big component keep
    one in about sqrt(n) and recompute the others (analysis/treetotal.py): the same count, within that
    budget; only a budget below that estimate too stops it."""
    p = parse(lattice(12, 40))
    system = build_system(p)
    from mineconv.analysis.counting import count_solutions
    probe = Bounds(memory=None)
    full = count_solutions(system, None, bounds=probe)
    peak = probe.peak_estimate
    assert peak > 1 << 20
    count_solutions(system, None, bounds=Bounds(memory=peak + 1))
    thin = Bounds(memory=peak // 2)
    assert count_solutions(system, None, bounds=thin) == full
    assert thin.peak_estimate <= peak // 2
    with pytest.raises(CountingMemoryError):
        count_solutions(system, None, bounds=Bounds(memory=thin.peak_estimate // 2))


def test_layer_bytes_counts_shared_coefficient_lists_once():
    shared = [10 ** 40] * 5
    seen: set = set()
    once = layer_bytes([(0, shared)], 1, 3, seen)
    again = layer_bytes([(1, shared)], 1, 3, seen)
    assert once - again > 5 * 8  # the list and its big coefficients counted the first time only
    assert layer_bytes([(0, [1, 2, 3])], 1, 3, set()) < layer_bytes([(0, [10 ** 40] * 3)], 1, 3, set())


def test_timeout_reports_what_is_proven():
    p = parse(lattice(22, 80))
    start = time.monotonic()
    a = analyze(p, timeout=1.0)
    assert time.monotonic() - start < 20
    assert a.status == "timeout" and a.solutions is None
    assert "did not finish within 1 s" in a.count_error
    gac = analyze(p, level="gac", count=False)
    # at least what gac proves, every decision agreeing with the gac ones
    decided = gac.values != UNDECIDED
    assert (a.values[decided] == gac.values[decided]).all()
    assert a.to_json()["status"] == "timeout"


def test_timeout_at_a_propagation_level_keeps_that_level_honest():
    p = parse(lattice(22, 80))
    a = analyze(p, level="gac", timeout=0.5)
    assert a.status == "timeout"
    assert (a.values == analyze(p, level="gac", count=False).values).all()


def test_analysis_timeout_is_exit_status_1():
    assert AnalysisTimeout("x").exit_status == 1


def test_cli_timeout_json_and_exit_1(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(lattice(22, 80))
    status = main(["analyze", str(board), "--timeout", "1", "--json"])
    out, err = capsys.readouterr()
    assert status == 1
    data = json.loads(out)
    assert data["status"] == "timeout" and data["solutions"] is None
    assert "did not finish within 1 s" in err and "Traceback" not in err


def test_cli_text_report_says_timeout(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(lattice(22, 80))
    assert main(["analyze", str(board), "--timeout", "0.5"]) == 1
    out, _ = capsys.readouterr()
    assert "# status: timeout" in out


def test_cli_memory_budget_partial_exit_0(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(lattice(12, 40, total=False))
    assert main(["analyze", str(board), "--memory-budget", "512K", "--json"]) == 0  # 1M fits the sweep (issue 24)
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "partial" and "--memory-budget" in data["count_error"]


def test_complete_analysis_says_so(capsys):
    assert main(["analyze", str(SAMPLES / "kaye-splitter.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "complete"


@pytest.mark.parametrize("bad", ["0", "-5", "nan", "inf"])
def test_cli_refuses_bad_timeouts(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["analyze", str(SAMPLES / "kaye-splitter.txt"), "--timeout", bad])
    assert exc.value.code == 2


def test_render_timeout_draws_the_partial_analysis(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(lattice(22, 80))
    out = tmp_path / "x.svg"
    assert main(["render", str(board), "-o", str(out), "--analysis", "--timeout", "0.5"]) == 1
    assert out.read_text().startswith("<svg") or "<svg" in out.read_text()[:500]
    assert "did not finish" in capsys.readouterr().err


def test_progress_reaches_the_callback():
    seen = []
    analyze(parse(lattice(12, 40)), progress=lambda stage, done, total: seen.append((stage, done, total)))
    stages = {s for s, _, _ in seen}
    assert {"backbone", "counting"} <= stages
    counting = [(d, t) for s, d, t in seen if s == "counting"]
    assert counting[-1][0] == counting[-1][1]  # the bar reaches its end


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_stage_progress_draws_a_bar_and_clears_it(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    bar = StageProgress(True)
    for i in range(1, 11):
        bar("counting", i, 10)
    bar.close()
    text = err.getvalue()
    assert "analyze: counting" in text and "/10" in text
    assert text.endswith("\r")  # leave=False: the bar is wiped before the report


def test_progress_is_silent_when_quiet_or_not_a_terminal(monkeypatch, tmp_path, capsys):
    from mineconv.core.bounds import stderr_progress_wanted
    monkeypatch.setattr("sys.stderr", _Terminal())
    assert stderr_progress_wanted(False) and not stderr_progress_wanted(True)
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert not stderr_progress_wanted(False)


def test_timeout_in_a_higher_level_does_not_leak_into_the_level_asked_for():
    # --compare-levels runs the full level first; its partial decisions are more than gac proves
    p = parse(lattice(22, 80))
    a = analyze(p, level="gac", compare_levels=True, timeout=1.0)
    assert a.status == "timeout"
    assert (a.values == analyze(p, level="gac", count=False).values).all()


def _counts_backbone(p):
    from mineconv.analysis.backbone import sat_backbone
    return sat_backbone(p, use_total=False)


def test_fallback_after_the_budget_is_bounded_without_a_timeout(monkeypatch):
    """Counter stopped by the budget, total on the board, no --timeout: the SAT check with the total is cut
    after FALLBACK_SECONDS (on this board it finds no model in minutes) and the counts' decisions stay."""
    import mineconv.analysis.backbone as backbone
    monkeypatch.setattr(backbone, "FALLBACK_SECONDS", 0.5)
    p = parse(lattice(22, 80))
    start = time.monotonic()
    a = analyze(p, memory_budget=1 << 20)
    assert time.monotonic() - start < 20
    assert a.status == "partial" and a.solutions is None
    assert "--memory-budget" in a.count_error and "stopped after 0.5 s" in a.count_error
    counts = _counts_backbone(p)
    decided = counts != UNDECIDED
    # every cell the counts decide is in, with the counts' value; anything more was proven with the total
    assert (a.values[decided] == counts[decided]).all()
    data = a.to_json()
    assert data["status"] == "partial" and data["solutions"] is None


def test_fallback_that_finishes_decides_with_the_total():
    """A board whose SAT check with the total is quick: the fallback's decisions are the whole backbone."""
    p = parse(lattice(8, 20))   # 12x40 is already too hard for it (no answer in 30 s)
    whole = analyze(p)
    assert whole.status == "complete"
    cut = analyze(p, memory_budget=16 << 10)
    assert cut.status == "partial" and "stopped after" not in cut.count_error
    assert (cut.values == whole.values).all()


def test_fallback_under_a_timeout_runs_to_the_users_deadline(monkeypatch):
    """With --timeout the user bounded the run: the fallback may use all of it (status timeout, as before)."""
    import mineconv.analysis.backbone as backbone
    monkeypatch.setattr(backbone, "FALLBACK_SECONDS", 0.2)
    p = parse(lattice(22, 80))
    start = time.monotonic()
    a = analyze(p, memory_budget=1 << 20, timeout=4.0)
    assert 3.5 < time.monotonic() - start < 25
    assert a.status == "timeout" and "did not finish within 4 s" in a.count_error
    counts = _counts_backbone(p)
    decided = counts != UNDECIDED
    assert (a.values[decided] == counts[decided]).all()


def test_cli_analyze_of_the_issue_board_ends_partial_without_a_timeout(tmp_path):
    """Issue 13's 22x80 lattice with its total, default budget and no --timeout: it ran for hours (the SAT
    check with the total after the counter gave up); now it ends with status partial and exit 0."""
    import os
    import subprocess
    import sys
    board = tmp_path / "lattice.txt"
    board.write_text(lattice(22, 80))
    env = dict(os.environ, PYTHONPATH=str(SAMPLES.parent))
    # 1 MiB keeps the counter's part short; the default budget is measured in benchmarks/README.md
    proc = subprocess.run([sys.executable, "-m", "mineconv", "analyze", str(board), "--json",
                           "--memory-budget", "1M"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    assert data["status"] == "partial" and data["solutions"] is None
    assert "SAT check was stopped after 10 s" in data["count_error"]


def test_each_part_is_solved_in_its_own_numbering(tmp_path, monkeypatch):
    """A game board's frontier splits into many parts; each part's solver numbers only its own variables
    (with the board's numbering every model cost the whole board: a 1000x1000 game board never ended).
    The backbone is still the exact one: the cells no solution, or every solution, puts a mine on."""
    import pysat.solvers
    from mineconv.analysis.backbone import sat_backbone
    from mineconv.analysis.counting import count_solutions
    board = tmp_path / "game.txt"
    assert main(["generate", "--rows", "40", "--cols", "40", "--density", "0.18", "--reveal", "game",
                 "--seed", "11", "--no-total", "-o", str(board), "-q"]) == 0
    p = parse(board.read_text())
    real = pysat.solvers.Solver
    widths = []

    def spy(*args, bootstrap_with=(), **kwargs):
        used = {abs(x) for c in bootstrap_with for x in c}
        widths.append((max(used, default=0), len(used)))
        return real(*args, bootstrap_with=bootstrap_with, **kwargs)

    monkeypatch.setattr(pysat.solvers, "Solver", spy)
    values = sat_backbone(p, use_total=False)
    monkeypatch.setattr(pysat.solvers, "Solver", real)
    assert len(widths) > 3
    assert all(top == n for top, n in widths), widths
    counted = count_solutions(build_system(p))
    expected = np.full(len(values), UNDECIDED, dtype=np.int8)
    expected[counted.never_mine()] = 0
    expected[counted.always_mine()] = 1
    assert (values == expected).all()


def test_binomial_weights_are_the_window_of_pascals_row():
    import math
    from mineconv.analysis.counting.board import binomial_weights
    from mineconv.analysis.polynomials import binomial_bits, binomial_window
    for n in range(12):
        for lo in range(n + 1):
            for hi in range(lo, n + 1):
                assert binomial_window(n, lo, hi) == [math.comb(n, j) for j in range(lo, hi + 1)]
    for n, t, d in [(10, 4, 3), (10, 4, 9), (10, 12, 5), (10, -1, 3), (0, 0, 2), (7, 7, 1)]:
        assert binomial_weights(n, t, d, Bounds(memory=None)) == \
            [math.comb(n, t - m) if 0 <= t - m <= n else 0 for m in range(d)]
    for n, j in [(261722, 130000), (1000, 3), (50, 25)]:
        assert abs(binomial_bits(n, j) - math.comb(n, j).bit_length()) <= 2


def test_the_binomial_weights_are_held_to_the_budget():
    # a 1000x1000 game board's 261,722 free cells needed 6 GB of binomials: estimated before building
    from mineconv.analysis.counting.board import binomial_weights
    bounds = Bounds(memory=50 << 20)
    with pytest.raises(CountingMemoryError, match="binomial weights of 200000 free cells"):
        binomial_weights(200000, 100000, 20000, bounds)
    assert bounds.peak_estimate > 200 << 20   # 20,000 binomials of ~200,000 bits: ~500 MB
    assert len(binomial_weights(2000, 1000, 200, bounds)) == 200


def test_uniqueness_is_never_guessed():
    p = parse(lattice(22, 80))
    a = analyze(p, timeout=0.5)
    assert a.status == "timeout" and a.unique is None and a.to_json()["unique"] is None
    # a propagation level without a count cannot tell a unique board from another
    assert analyze(parse((SAMPLES / "dusautoy-6x6.txt").read_text()), level="gac", count=False).unique is None
    assert analyze(parse((SAMPLES / "dusautoy-6x6.txt").read_text()), level="gac").unique is True
    # without the total the counts' backbone is complete: an open cell means a second solution
    a = analyze(p.replace(mines=None), memory_budget=1 << 16)
    assert a.status == "partial" and a.unique is False


def test_cli_says_when_uniqueness_is_unknown(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(lattice(22, 80))
    assert main(["analyze", str(board), "--timeout", "0.5"]) == 1
    assert "# unique: unknown" in capsys.readouterr().out
