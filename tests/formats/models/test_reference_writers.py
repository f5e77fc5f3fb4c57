"""Every solver-file writer against its plain reference (tests/reference_writers.py), byte for byte.

Random boards (known mines, known safe cells, counts no assignment meets, no unknown cell at all, a
total or not, the total overridden by the `mines=` option), written at the engine's normal chunk sizes
and at a tiny one, so that every chunk boundary of the bulk text engine is crossed, and with the
per-process text tables on and off.
"""
from __future__ import annotations

from typing import Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mineconv.formats import writing
from mineconv.encode import bulk_text
from mineconv.core.errors import PuzzleError
from mineconv.make.generate import random_puzzle
from mineconv.core.puzzle import Puzzle

from reference_writers import REFERENCES

FORMATS = sorted(REFERENCES)

# pieces of the engine a test can shrink: line chunks, and the boards / numbers that use cached tables
TINY = {"CHUNK": 3, "ROW_CHUNK": 3, "COLUMN_CHUNK": 3, "SMALL_CELLS": 0, "SMALL_NUMBERS": 2}


@st.composite
def boards(draw, max_side: int = 9) -> Puzzle:
    """A random board: any mix of cell symbols that Puzzle accepts, with or without a total."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    # a per-board mix of symbols, so that some boards are mostly unknown and others mostly revealed
    weights = draw(st.lists(st.integers(0, 6), min_size=12, max_size=12))
    symbols = [s for s, w in zip("?012345678*.", weights) for _ in range(w)] or ["?"]
    cells = "".join(draw(st.lists(st.sampled_from(symbols), min_size=rows * cols, max_size=rows * cols)))
    # counts above a cell's neighbour limit are not a puzzle: clip them to what the cell can show
    limit = [[sum(0 <= r + dr < rows and 0 <= c + dc < cols for dr in (-1, 0, 1) for dc in (-1, 0, 1)) - 1
              for c in range(cols)] for r in range(rows)]
    cells = "".join(str(min(int(s), limit[i // cols][i % cols])) if s.isdigit() else s for i, s in enumerate(cells))
    mines = draw(st.one_of(st.none(), st.integers(0, rows * cols)))
    return Puzzle(rows, cols, cells, mines=mines, name=draw(st.sampled_from([None, "t", "a name"])))


def check(puzzle: Puzzle, fmt: str, mines: Optional[int] = None) -> None:
    options = {} if mines is None else {"mines": mines}
    try:
        want = REFERENCES[fmt](puzzle, mines)
    except PuzzleError:   # a total no board can have (mathprog states it in the puzzle): both refuse it
        with pytest.raises(PuzzleError):
            writing.dumps(puzzle, fmt, **options)
        return
    got = writing.dumps(puzzle, fmt, **options)
    assert got == want, (fmt, puzzle, mines)


@pytest.fixture(params=["normal", "tiny"])
def chunking(request, monkeypatch) -> str:
    """The engine at its real chunk sizes, and with every chunk 3 lines long and no cached tables."""
    if request.param == "tiny":
        for name, value in TINY.items():
            monkeypatch.setattr(bulk_text, name, value)
    return request.param


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(puzzle=boards(), override=st.one_of(st.none(), st.integers(-3, 90)))
def test_writer_matches_reference(fmt: str, chunking: str, puzzle: Puzzle, override: Optional[int]) -> None:
    check(puzzle, fmt)
    if override is not None:
        check(puzzle, fmt, override)


@pytest.mark.parametrize("fmt", FORMATS)
def test_writer_matches_reference_on_fixed_boards(fmt: str, chunking: str) -> None:
    cases = [
        Puzzle.from_rows(["1*", "11"], mines=1),                  # no unknown cell
        Puzzle.from_rows(["1.", ".."]),                           # no unknown cell, a count that cannot be met
        Puzzle.from_rows(["1..", "..?"]),                         # a count that cannot be met beside a variable
        Puzzle.from_rows(["?"]), Puzzle.from_rows(["?"], mines=1), Puzzle.from_rows(["??"], mines=2),
        Puzzle.from_rows(["***", "*8*", "***"]),                  # a count met by known mines alone
        Puzzle.from_rows(["3*", "*?"], mines=2),                  # more known mines than the total: negative rhs
        Puzzle.from_rows(["1??*", "12?.", "01??"], mines=4, name="n"),
    ]
    for puzzle in cases:
        check(puzzle, fmt)
        check(puzzle, fmt, 0)
    # boards with thousands of lines and more than 16 names per sum: many chunks even at the normal size
    for seed, reveal in ((1, "game"), (2, "full")):
        big = random_puzzle(70, 90, density=0.2, reveal=reveal, seed=seed, with_total=True)
        if fmt == "cnf" and reveal == "game":
            big = big.replace(mines=None)   # keep pysat's totalizer off the hot path
        check(big, fmt)
