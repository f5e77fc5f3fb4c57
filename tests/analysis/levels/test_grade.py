"""mineconv grade (issue 14): the weakest consistency level that decides every cell, judged by an
independent checker written from the level definitions (brute force over each group of counts)."""
from __future__ import annotations

import json
import time

import pytest

from grade_checker import expected_grade
from helpers import SAMPLES, random_board, run_cli
from mineconv import parse
from mineconv.core.bounds import Bounds
from mineconv.analysis.grade import grade
from mineconv.make.generate import lattice_text



# the tests ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(160))
def test_grade_matches_the_independent_checker(seed):
    p = random_board(seed, max_unknown=12)
    level, decided, n = expected_grade(p)
    g = grade(p)
    assert g.solutions == n
    assert g.unique == (n == 1)
    if n == 0:
        assert not g.feasible and g.level is None
        return
    assert g.level == level
    assert g.decided == decided


def test_levels_above_the_grade_decide_everything():
    g = grade(parse((SAMPLES / "dusautoy-6x6.txt").read_text()))
    assert g.level == "3rc" and g.unique and g.solutions == 1
    assert g.decided == {"gac": 0, "2rc": 0, "3rc": 20, "full": 20}
    assert g.rounds["3rc"] >= 1


def test_the_checker_agrees_on_a_published_3rc_puzzle():
    p = parse((SAMPLES / "dusautoy-6x6.txt").read_text())
    level, decided, n = expected_grade(p)
    assert (level, n) == ("3rc", 1)
    assert grade(p).decided == decided


def test_the_random_sample_reaches_every_grade():
    # so that test_grade_matches_the_independent_checker judges each level, not only the easy ones
    levels = {grade(random_board(seed, max_unknown=12)).level for seed in range(160)}
    assert {"gac", "2rc", "full", None} <= levels


def test_rounds_count_the_sweeps_that_decided_something():
    # a chain: the 0 clears its neighbour, then each 1 learns its other neighbour, one sweep at a time
    assert grade(parse("?1?0\n", "native")).rounds["gac"] == 2
    g = grade(parse("?1?1?0\n", "native"))
    assert g.level == "gac" and g.rounds == {"gac": 3}
    untouched = grade(parse("??\n??\n", "native"))
    assert untouched.rounds == {"gac": 0, "2rc": 0, "3rc": 0} and untouched.level is None


def test_timeout_reports_the_levels_reached():
    p = parse(lattice_text(22, 80))
    start = time.monotonic()
    g = grade(p, bounds=Bounds(timeout=0.5))
    assert time.monotonic() - start < 20
    assert g.status == "timeout" and g.level is None and g.solutions is None
    assert g.unique is None   # not known: never claimed not unique
    assert g.to_json()["status"] == "timeout" and g.to_json()["unique"] is None


def test_a_cut_short_fallback_leaves_uniqueness_unknown(monkeypatch, capsys, tmp_path):
    # the counter gives up (tiny budget) on a board with a total, and the SAT check with the total is
    # stopped at once: the full level's decisions are incomplete, so "not unique" would be a guess
    from mineconv.analysis import backbone
    monkeypatch.setattr(backbone, "FALLBACK_SECONDS", 1e-6)
    p = parse(lattice_text(12, 40))
    g = grade(p, bounds=Bounds(memory=1 << 16))
    assert g.status == "partial" and g.solutions is None and g.level is None
    assert g.unique is None and g.to_json()["unique"] is None
    board = tmp_path / "lattice.txt"
    board.write_text(lattice_text(12, 40))
    status, out, _ = run_cli(capsys, "grade", board, "--memory-budget", "64K")
    assert status == 0 and out.startswith("grade: unknown")
    # without the total the counts' backbone is complete: a board it leaves open is surely not unique
    g = grade(p.replace(mines=None), bounds=Bounds(memory=1 << 16))
    assert g.status == "partial" and g.unique is False


def test_cli_json_contract(capsys):
    status, out, _ = run_cli(capsys, "grade", SAMPLES / "dusautoy-6x6.txt", "--json")
    assert status == 0
    data = json.loads(out)
    assert {"unique", "solutions", "level", "decided"} <= data.keys()
    assert data["unique"] is True and data["solutions"] == 1 and data["level"] == "3rc"
    assert data["decided"] == {"gac": 0, "2rc": 0, "3rc": 20, "full": 20}


def test_cli_not_unique_is_exit_0_with_level_null(capsys):
    status, out, _ = run_cli(capsys, "grade", SAMPLES / "kaye-splitter.txt", "--json")
    data = json.loads(out)
    assert status == 0 and data["unique"] is False and data["level"] is None
    assert data["solutions"] == 131072 and data["solutions_str"] == "131072"


def test_cli_text(capsys):
    status, out, _ = run_cli(capsys, "grade", SAMPLES / "dusautoy-6x6.txt")
    assert status == 0
    assert out.splitlines()[:2] == ["grade: 3rc (decided by 3rc, not by 2rc)", "solutions: 1, unique"]
    assert "  3rc   20 of 20 unknown cells decided in 2 rounds" in out


def test_cli_infeasible_is_exit_1(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("3?0\n???\n")
    status, out, _ = run_cli(capsys, "grade", board, "--json")
    assert status == 1 and json.loads(out)["solutions"] == 0 and json.loads(out)["level"] is None
    status, out, _ = run_cli(capsys, "grade", board)
    assert status == 1 and out.startswith("no solution")


def test_cli_bad_input_is_exit_2(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("4?\n??\n")
    status, out, err = run_cli(capsys, "grade", board, "--from", "native")
    assert status == 2 and out == "" and "b.txt:1:1" in err and "Traceback" not in err


def test_cli_timeout_is_exit_1(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(lattice_text(22, 80))
    status, out, err = run_cli(capsys, "grade", board, "--timeout", "0.5", "--json")
    assert status == 1 and json.loads(out)["status"] == "timeout" and "grade:" in err


def test_mines_option_changes_the_grade(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("??\n??\n")
    assert json.loads(run_cli(capsys, "grade", board, "--json")[1])["solutions"] == 16
    data = json.loads(run_cli(capsys, "grade", board, "--json", "--mines", "4")[1])
    assert data["level"] == "gac" and data["unique"] is True


def test_grade_help_says_what_each_level_means(capsys):
    # a new user saw "gac, 2rc, 3rc, full" named with no word on what they decide
    with pytest.raises(SystemExit) as stop:
        run_cli(capsys, "grade", "--help")
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for meaning in ("gac each count on its own", "2rc any two overlapping counts together",
                    "3rc any three linked counts together", "full everything that follows from the counts"):
        assert meaning in text
