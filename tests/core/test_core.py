"""The core model: Puzzle validation, the linear system, assignment checking, headers, the registry."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from mineconv import (FormatError, LossyConversionError, MineconvError, Puzzle, PuzzleError,
                        build_system, check_assignment, dumps, get_format, parse, register_format)
from mineconv.make.generate import place_mines
from mineconv.core.layout import full_reveal, mine_counts
from mineconv.core.system import Violation
from mineconv.formats.header import header_text, read_header
from mineconv.formats import registry
from mineconv.formats.reading import guess_format


def test_puzzle_validation_messages():
    with pytest.raises(PuzzleError, match="only 3 neighbours"):
        Puzzle.from_rows(["4?", "??"])
    with pytest.raises(PuzzleError, match="only 5 neighbours"):
        Puzzle.from_rows(["?6?", "???"])
    with pytest.raises(PuzzleError, match="rectangular"):
        Puzzle.from_rows(["??", "?"])
    with pytest.raises(PuzzleError, match="empty"):
        Puzzle.from_rows([])
    with pytest.raises(PuzzleError, match="symbol"):
        Puzzle.from_rows(["?x"])
    with pytest.raises(PuzzleError, match="whole number"):
        Puzzle.from_rows(["??"], mines=-1)
    # an impossible but well-formed count is not a model error: solvers report infeasibility
    Puzzle.from_rows(["3?", "??"])
    assert isinstance(PuzzleError("x"), ValueError) and isinstance(PuzzleError("x"), MineconvError)


def test_puzzle_accessors():
    p = Puzzle.from_rows(["1??", "12?", "0*."], mines=3, name="n")
    assert p[1, 1] == "2" and p.count(1, 1) == 2 and p.count(0, 1) is None
    assert p.unknown_cells == [(0, 1), (0, 2), (1, 2)]
    assert p.known_mine_cells == [(2, 1)]
    assert p.stats == {"unknown": 3, "revealed": 4, "known_mines": 1, "known_safe": 1}
    assert list(p.neighbours(0, 0)) == [(0, 1), (1, 0), (1, 1)]
    solved = p.with_mines_at([(0, 2)])
    assert solved.grid_lines == ["1.*", "12.", "0*."]
    with pytest.raises(PuzzleError):
        p.with_mines_at([(1, 1)])
    assert p == Puzzle.from_rows(["1??", "12?", "0*."], mines=3, name="n")
    assert p != p.replace(mines=4)


def _brute_force(p: Puzzle):
    unknown = p.unknown_cells
    known = np.array([[ch == "*" for ch in row] for row in p.grid_lines])
    for bits in itertools.product((0, 1), repeat=len(unknown)):
        grid = known.copy()
        for (r, c), b in zip(unknown, bits):
            grid[r, c] = bool(b)
        if check_assignment(p, grid) is None:
            yield bits


def test_system_matches_brute_force_on_random_boards():
    rng = np.random.default_rng(7)
    for trial in range(40):
        R, C = rng.integers(1, 5, size=2)
        mines = rng.random((R, C)) < 0.3
        p = full_reveal(mines, with_total=bool(trial % 2))
        codes = np.array([list(row) for row in p.grid_lines])
        # hide some counts, mark some mines known, some safe cells known-safe
        hide = rng.random((R, C)) < 0.3
        codes[hide & ~mines] = "?"
        codes[(rng.random((R, C)) < 0.2) & mines] = "*"
        codes[(rng.random((R, C)) < 0.1) & ~mines] = "."
        p = Puzzle.from_rows(["".join(r) for r in codes], mines=p.mines)
        s = build_system(p)
        # every brute-force solution satisfies the system's equations, and vice versa
        unknown = p.unknown_cells
        assert [tuple(rc) for rc in s.var_rc.tolist()] == [tuple(u) for u in unknown]
        sols = set(_brute_force(p))
        assert sols, "a board made from a real mine placement has a solution"
        for bits in itertools.product((0, 1), repeat=len(unknown)):
            x = np.array((0,) + bits)
            ok = all(x[s.con_vars[i, :s.con_len[i]]].sum() == s.con_rhs[i] for i in range(s.num_constraints))
            if s.total is not None:
                ok = ok and sum(bits) == s.total
            assert ok == (bits in sols)


def test_check_assignment_names_the_cell():
    p = Puzzle.from_rows(["1??", "12?", "01?"])
    g = np.zeros((3, 3), dtype=bool)
    g[0, 1] = g[1, 2] = True
    assert check_assignment(p, g) is None
    g[1, 2] = False
    assert check_assignment(p, g) == Violation((1, 1), "cell (1, 1) shows 2 but the answer puts 1 mine around it")
    g[0, 0] = True
    assert check_assignment(p, g).cell == (0, 0)
    v = check_assignment(p.replace(mines=3), np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], dtype=bool))
    assert v.cell is None and "must hold 3 mines" in v.message


def test_header_round_trip():
    p = Puzzle.from_rows(["1??", "12?", "0*?"], mines=3, name="demo")
    text = header_text(p, build_system(p), "c", "DIMACS CNF") + "p cnf 3 0\n"
    assert text.startswith("c mineconv ")
    assert "c var 1 0 1 x0_1\n" in text
    back = read_header(text)
    assert back == p.replace(name="demo")
    assert read_header("p cnf 1 1\n1 0\n") is None


def test_generator_is_deterministic():
    a = place_mines(30, 16, mines=99, seed=5)
    assert (a == place_mines(30, 16, mines=99, seed=5)).all() and a.sum() == 99
    p = full_reveal(a)
    assert p.mines == 99 and p.unknown_count == 99
    assert (mine_counts(a)[~a] == p.codes[~a]).all()


def test_registry_lookup_errors():
    with pytest.raises(FormatError, match="valid names: .*native"):
        get_format("nope")
    with pytest.raises(FormatError, match="cannot tell"):
        guess_format("x.unknownext", "", direction="write", kind=None)
    assert guess_format("a.txt").name == "native"
    assert get_format("text").name == "native"


def test_lossy_conversion_warns_and_strict_refuses():
    register_format("test-lossy", [".testlossy"], "puzzle", writer=lambda p, out, **o: out.write("x"),
                    losses=lambda p, **o: ["the total mine count"] if p.mines is not None else [])
    try:
        p = parse("??\n", "native").replace(mines=1)
        with pytest.warns(UserWarning, match="cannot express the total mine count"):
            assert dumps(p, "test-lossy") == "x"
        with pytest.raises(LossyConversionError):
            dumps(p, "test-lossy", strict=True)
    finally:
        registry.unregister_format("test-lossy")
