"""mineconv grade (issue 14): the weakest consistency level that decides every cell, judged by an
independent checker written from the level definitions (brute force over each group of counts)."""
from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

from helpers import brute_force, random_board, run_cli
from mineconv import Puzzle, parse
from mineconv.analysis.bounds import Bounds
from mineconv.analysis.grade import GRADE_LEVELS, grade
from mineconv.generate import lattice_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
Cell = Tuple[int, int]


# the independent checker -----------------------------------------------------------------------------
def _constraints(p: Puzzle) -> List[Tuple[frozenset, int]]:
    """Each revealed count as (its unknown neighbours, the mines among them), from the rules alone."""
    out = []
    for r in range(p.rows):
        for c in range(p.cols):
            n = p.count(r, c)
            if n is None:
                continue
            around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < p.rows and 0 <= c + dc < p.cols]
            known = sum(p[rc] == "*" for rc in around)
            cells = frozenset(rc for rc in around if p[rc] == "?")
            if cells:
                out.append((cells, n - known))
    return out


def _forced(group: List[Tuple[frozenset, int]], val: Dict[Cell, int]) -> Optional[Dict[Cell, int]]:
    """Cells taking one value in every joint solution of the group (given val); None: no joint solution."""
    cells = sorted({x for vs, _ in group for x in vs if x not in val})
    seen: Dict[Cell, set] = {x: set() for x in cells}
    any_solution = False
    for bits in itertools.product((0, 1), repeat=len(cells)):
        a = dict(zip(cells, bits))
        if all(sum(val.get(x, a.get(x, 0)) for x in vs) == n for vs, n in group):
            any_solution = True
            for x, b in a.items():
                seen[x].add(b)
    if not any_solution:
        return None
    return {x: next(iter(s)) for x, s in seen.items() if len(s) == 1}


def checker_fixpoint(p: Puzzle, level: str) -> Optional[Dict[Cell, int]]:
    """What a level decides, by its definition: gac = each count alone and the total alone; 2rc/3rc also
    every 2/3 counts linked through open cells, joined by brute force; to a fixed point. None: contradiction."""
    cons = _constraints(p)
    unknown = p.unknown_cells()
    size = {"gac": 1, "2rc": 2, "3rc": 3}[level]
    val: Dict[Cell, int] = {}
    total = None if p.mines is None else p.mines - p.known_mine_count
    while True:
        before = dict(val)
        for m in range(1, size + 1):
            for group in itertools.combinations(cons, m):
                opens = [vs - val.keys() for vs, _ in group]
                if m > 1 and not _connected(opens):
                    continue
                forced = _forced(list(group), val)
                if forced is None:
                    return None
                val.update(forced)
        if total is not None:
            left = total - sum(val.values())
            free = [x for x in unknown if x not in val]
            if left < 0 or left > len(free):
                return None
            if left in (0, len(free)):
                val.update({x: int(left > 0) for x in free})
        if val == before:
            return val


def _connected(opens: List[frozenset]) -> bool:
    """Whether the groups' open cells link them into one chain (each shares a cell with another)."""
    reached = {0}
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(opens):
            if i not in reached and any(s & opens[j] for j in reached):
                reached.add(i)
                changed = True
    return len(reached) == len(opens)


def expected_grade(p: Puzzle) -> Tuple[Optional[str], Dict[str, int], int]:
    """(level, decided per level, solution count) from the checker and brute force."""
    sols = brute_force(p)
    n = len(sols)
    k = p.unknown_count
    decided: Dict[str, int] = {}
    level = None
    for lv in ("gac", "2rc", "3rc"):
        fix = checker_fixpoint(p, lv)
        if fix is None:
            return None, {}, 0
        decided[lv] = len(fix)
        if level is None and len(fix) == k and n:
            level = lv
    if n:
        decided["full"] = int(((sols.all(axis=0)) | (~sols.any(axis=0))).sum())
        if level is None and n == 1:
            level = "full"
    return level, decided, n


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
    assert g.to_json()["status"] == "timeout"


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
