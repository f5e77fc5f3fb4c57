"""A small board solved without numpy (issue 24, start-up) gives what the numpy path gives, byte for byte.

Three plain-Python twins stand in for numpy on a small board: Puzzle's validation (core/puzzle.py, up to
SMALL_BOARD cells in a process without numpy), the CNF clauses (encode/plain.py) and `mineconv solve`
with the embedded solver (solvers/small_solve.py, up to SMALL_SOLVE cells). Each is held here to the numpy path it
replaces, on random boards and on every small sample: the same errors, the same clauses in the same order (so
pysat finds the same model), the same status, mines, uniqueness and CLI output.
"""
from __future__ import annotations

import random
from typing import List, Optional

import pytest

import mineconv.core.puzzle as puzzle_module
import mineconv.solvers.embedded as embedded_module
import mineconv.solvers.small_solve as small_solve
from mineconv.cli import main
from mineconv.core.errors import MineconvError
from mineconv.core.puzzle import Puzzle
from mineconv.core.system import build_system, check_assignment
from mineconv.encode.cnf import encode_cnf
from mineconv.encode.plain import check_mines, small_cnf
from mineconv.solvers.process import Deadline
from mineconv.solvers.small_solve import solve_small
from mineconv.solvers.solving import solve
from tests.conftest import SAMPLES


def random_cells(rng: random.Random, rows: int, cols: int) -> str:
    symbols = rng.choice(["?0123*.", "??0123456*.", "?1", "?012345678*.", "?0123x", "??????12"])
    return "".join(rng.choice(symbols) for _ in range(rows * cols))


def random_puzzles(seed: int, count: int, *, most: int = 9) -> List[Puzzle]:
    """Valid random boards of 1x1 to most x most, half with a total mine count (some out of range)."""
    rng = random.Random(seed)
    out: List[Puzzle] = []
    while len(out) < count:
        R, C = rng.randint(1, most), rng.randint(1, most)
        try:
            out.append(Puzzle(R, C, random_cells(rng, R, C), mines=rng.choice([None, rng.randint(0, R * C)])))
        except MineconvError:
            pass
    return out


def outcome(make) -> str:
    try:
        p = make()
    except MineconvError as exc:
        return f"{type(exc).__name__}: {exc} {getattr(exc, 'cell', None)}"
    return f"{p.codes.tolist()} {p.stats}"


def test_the_plain_validation_raises_what_the_numpy_one_raises(monkeypatch):
    rng = random.Random(5)
    cases = []
    for _ in range(1500):
        R, C = rng.randint(1, 6), rng.randint(1, 6)
        cells = random_cells(rng, R, C)
        if rng.random() < 0.1:
            cells = cells[:-1] + rng.choice("é9 ")
        start = rng.choice([None, (rng.randint(-1, R), rng.randint(-1, C))])
        wires = tuple((rng.randint(0, R), rng.randint(0, C)) for _ in range(rng.randint(0, 2)))
        cases.append((R, C, cells, start, wires))
    make = [lambda case=case: Puzzle(*case[:3], start=case[3], wires=case[4]) for case in cases]
    bulk = [outcome(m) for m in make]   # numpy is loaded here: every board validated with it
    assert puzzle_module._checked_in_bulk(36)
    monkeypatch.setattr(puzzle_module, "_checked_in_bulk", lambda cells: False)   # as in a process without numpy
    plain = [outcome(m) for m in make]
    assert plain == bulk
    assert sum(o.startswith("PuzzleError") for o in plain) > 300 and sum(o.startswith("[") for o in plain) > 150


def test_the_plain_clauses_are_encode_cnfs_in_its_order():
    for p in random_puzzles(1, 500):
        for mines in (None, p.rows):
            enc = encode_cnf(p, mines)
            system, cells, card, nv = small_cnf(p, mines)
            assert cells == enc.cells.as_lists(), p
            assert card == enc.card.as_lists(), p
            assert nv == enc.nv
            assert system.var_cells == [tuple(rc) for rc in enc.system.var_rc.tolist()]
            assert system.total == enc.system.total


def test_the_plain_check_finds_the_first_violation_as_check_assignment():
    import numpy as np

    rng = random.Random(3)
    for p in random_puzzles(2, 600):
        unknown = [i for i, ch in enumerate(p.cells) if ch == "?"]
        known = {i for i, ch in enumerate(p.cells) if ch == "*"}
        mines = known | {i for i in unknown if rng.random() < 0.3}
        grid = np.zeros(p.rows * p.cols, dtype=bool)
        grid[sorted(mines)] = True
        want = check_assignment(p, grid.reshape(p.rows, p.cols))
        assert check_mines(p, mines) == (None if want is None else (want.cell, want.message)), p


def reference(p: Puzzle, monkeypatch) -> tuple:
    with monkeypatch.context() as m:
        m.setattr(embedded_module, "SMALL_SOLVE", 0)   # the numpy arrays fed to pysat, decode_answer's checks
        d = solve(p, check_unique=True)
    return d.status, d.mines, d.unique, d.why, str(d.solved_puzzle()) if d.status == "solved" else None


def test_the_quick_solve_finds_what_solve_finds(monkeypatch):
    statuses = set()
    for p in random_puzzles(4, 400, most=7):
        q = solve_small(p, Deadline(None))
        assert q is not None
        got = q.status, q.mines, q.unique, q.why, str(q.solved_puzzle()) if q.status == "solved" else None
        assert got == reference(p, monkeypatch), p
        assert q.to_json(solver="pysat") == {"status": q.status, "mines": q.mines, "solver": "pysat"}
        statuses.add((q.status, q.unique))
    assert {("solved", True), ("solved", False), ("infeasible", False)} <= statuses


def test_a_big_board_or_a_wired_one_takes_the_numpy_path():
    assert solve_small(Puzzle.from_rows(["?" * 40] * 30), Deadline(None)) is None
    assert solve_small(Puzzle(2, 2, "1???", wires=((0, 1),)), Deadline(None)) is None


SMALL_SAMPLES = sorted(p for p in SAMPLES.glob("*.txt") if len(p.read_text()) < 3000)


@pytest.mark.parametrize("flags", [[], ["--json"], ["--timeout", "30"], ["--mines", "3"]])
def test_the_cli_prints_the_same_bytes_either_way(flags, capsys, monkeypatch):
    assert len(SMALL_SAMPLES) > 5

    def run(path) -> tuple:
        status: Optional[int] = main(["solve", str(path), *flags])
        out, err = capsys.readouterr()
        return status, out, err

    quick = [run(path) for path in SMALL_SAMPLES]
    monkeypatch.setattr(small_solve, "SMALL_SOLVE", 0)
    monkeypatch.setattr(embedded_module, "SMALL_SOLVE", 0)
    assert quick == [run(path) for path in SMALL_SAMPLES]


def test_build_system_is_not_needed_for_the_plain_numbering():
    # the plain system numbers the variables as build_system does, on a board with every kind of cell
    p = Puzzle.from_rows(["1?*.", "?2??", "0.3?"], mines=5)
    assert [tuple(rc) for rc in build_system(p).var_rc.tolist()] == small_cnf(p)[0].var_cells
