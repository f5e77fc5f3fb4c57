"""The bulk encoders and text builders against straightforward code: byte for byte.

The references below are plain (one numpy pass per (d, c) group of constraints, one f-string per clause
or header line): slower, obviously right. Boards are random, from 1x1 to 40x40, with known mines, known
safe cells, infeasible counts and totals. Whole files are checked in test_reference_writers.py.
"""
from __future__ import annotations

import random
from itertools import combinations
from typing import List

import numpy as np
import pytest

from mineconv.encode.cnf import ClauseArrays, cnf_clauses, encode_cnf
from mineconv.core.errors import PuzzleError
from mineconv.encode import bulk_text
from mineconv.formats.models.dimacs import clause_text, literal_bound
from mineconv.make.generate import random_puzzle
from mineconv.formats.header import header_pieces, header_text
from mineconv.core.puzzle import Puzzle
from mineconv.core.system import LinearSystem, build_system


def reference_block_pattern(d: int, c: int):
    """For 'd variables sum to c': the subsets no c + 1 of which are all mines (negative clauses), then those
    no d - c + 1 of which are all safe (positive), each in itertools' order; their signs; clause lengths."""
    neg = np.array(list(combinations(range(d), c + 1)), dtype=np.intp).reshape(-1, c + 1)
    pos = np.array(list(combinations(range(d), d - c + 1)), dtype=np.intp).reshape(-1, d - c + 1)
    lens = np.array([c + 1] * len(neg) + [d - c + 1] * len(pos), dtype=np.int8)
    signs = np.array([-1] * len(neg) + [1] * len(pos), dtype=np.int32)
    return [neg, pos], signs, lens


def reference_cnf_clauses(system: LinearSystem) -> ClauseArrays:
    """Per (d, c) group: the subset patterns gathered and placed at each constraint's offset."""
    d_all = system.con_len.astype(np.int64)
    c_all = system.con_rhs.astype(np.int64)
    bad = system.impossible
    keys = np.where(bad, 0, d_all * 16 + c_all)
    present = np.flatnonzero(np.bincount(keys[~bad], minlength=1)) if keys.size else np.zeros(0, np.int64)
    patterns = {int(key): reference_block_pattern(*divmod(int(key), 16)) for key in present}
    per_key = np.zeros(16 * 9, dtype=np.int64)
    for key, (_, _, lens) in patterns.items():
        per_key[key] = lens.shape[0]
    per = np.where(bad, 1, per_key[keys])
    offsets = np.cumsum(per) - per
    width = max([1] + [int(p[2].max()) for p in patterns.values() if p[2].size])
    total = int(per.sum())
    lits = np.zeros((total, width), dtype=np.int32)
    lens_out = np.zeros(total, dtype=np.int16)
    for key, (pats, signs, lens) in patterns.items():
        if not lens.size:
            continue
        d = key // 16
        idx = np.flatnonzero((keys == key) & ~bad)
        V = system.con_vars[idx, :d]
        n_cl = lens.shape[0]
        block = np.zeros((idx.shape[0], n_cl, int(lens.max())), dtype=np.int32)
        at = 0
        for pat in pats:
            if len(pat):
                block[:, at:at + len(pat), :pat.shape[1]] = V[:, pat]
                at += len(pat)
        block *= signs[None, :, None]
        pos = (offsets[idx][:, None] + np.arange(n_cl)[None, :]).ravel()
        lits[pos, :block.shape[2]] = block.reshape(-1, block.shape[2])
        lens_out[pos] = np.tile(lens, idx.shape[0])
    return ClauseArrays(lits, lens_out)


def reference_clause_text(clauses: ClauseArrays, start: int = 0, stop=None) -> bytes:
    """One f-string per clause."""
    lits, lens = clauses.lits[start:stop].tolist(), clauses.lens[start:stop].tolist()
    return "".join("".join(f"{v} " for v in row[:n]) + "0\n" for row, n in zip(lits, lens)).encode()


def reference_var_lines(system: LinearSystem, prefix: str) -> str:
    """The header's variable map, one f-string per variable."""
    return "".join(f"{prefix} var {i} {r} {c} x{r}_{c}\n" for i, (r, c) in enumerate(system.var_rc.tolist(), 1))


@pytest.fixture(params=["cached tables", "computed"])
def table_mode(request, monkeypatch) -> str:
    """Run a test with the per-process text tables (small boards) and without them (big boards)."""
    if request.param == "computed":
        monkeypatch.setattr(bulk_text, "SMALL_CELLS", 0)
        monkeypatch.setattr(bulk_text, "SMALL_NUMBERS", 2)
    return request.param


def boards(n: int, seed: int) -> List[Puzzle]:
    """Random boards: real games and full reveals (with or without the total), and random symbol soups."""
    rng = random.Random(seed)
    out: List[Puzzle] = []
    while len(out) < n:
        rows, cols = rng.randint(1, 40), rng.randint(1, 40)
        if rng.random() < 0.5:
            out.append(random_puzzle(rows, cols, density=rng.random() * 0.6, reveal=rng.choice(["game", "full"]),
                                     seed=rng.randint(0, 10 ** 6), with_total=rng.random() < 0.3))
            continue
        weights = [rng.random() for _ in "?012345678*."]
        cells = "".join(rng.choices("?012345678*.", weights=weights, k=rows * cols))
        try:
            out.append(Puzzle(rows, cols, cells, mines=rng.choice([None, rng.randint(0, rows * cols)])))
        except PuzzleError:
            continue
    return out


@pytest.mark.parametrize("step", [None, 3])
@pytest.mark.parametrize("seed", range(4))
def test_cnf_clauses_match_reference(seed: int, step, monkeypatch) -> None:
    if step is not None:   # many steps of a few constraints each: every step boundary crossed
        import mineconv.encode.cnf as cnf_module
        monkeypatch.setattr(cnf_module, "CONSTRAINT_STEP", step)
    for puzzle in boards(60, seed):
        system = build_system(puzzle)
        got, want = cnf_clauses(system), reference_cnf_clauses(system)
        assert got.lits.dtype == want.lits.dtype and got.lens.dtype == want.lens.dtype
        assert got.lits.shape == want.lits.shape, puzzle
        assert np.array_equal(got.lits, want.lits) and np.array_equal(got.lens, want.lens), puzzle


@pytest.mark.parametrize("seed", range(4))
def test_clause_text_matches_reference(seed: int, table_mode: str) -> None:
    rng = random.Random(seed)
    for puzzle in boards(40, 100 + seed):
        enc = encode_cnf(puzzle)
        for arrays in (enc.cells, enc.card):
            assert clause_text(arrays) == reference_clause_text(arrays), puzzle
            a = rng.randint(0, arrays.count)
            b = rng.randint(a, arrays.count)
            assert clause_text(arrays, a, b) == reference_clause_text(arrays, a, b)


@pytest.mark.parametrize("seed", range(2))
def test_clause_text_with_a_whole_file_literal_table(seed: int, table_mode: str) -> None:
    # the bound write_dimacs passes when the file has more literals than the table has items, and bounds that
    # leave some literals out of the table
    for puzzle in boards(30, 300 + seed):
        enc = encode_cnf(puzzle)
        for bound in (literal_bound(enc), enc.nv + 1, max(2, enc.nv // 2), 3):
            for arrays in (enc.cells, enc.card):
                assert clause_text(arrays, 0, None, bound) == reference_clause_text(arrays), (puzzle, bound)


@pytest.mark.parametrize("seed", range(2))
def test_constraint_vars_in_small_steps_match_plain_code(seed: int, monkeypatch) -> None:
    import mineconv.core.system as system_module
    monkeypatch.setattr(system_module, "SCATTER_STEP", 3)
    for puzzle in boards(30, 400 + seed):
        system = build_system(puzzle)
        ids = system.var_grid
        for i, (r, c) in enumerate(system.con_rc.tolist()):
            around = [int(ids[r + dr, c + dc]) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols]
            want = [v for v in around if v] + [0] * 8
            assert system.con_vars[i].tolist() == want[:8], (puzzle, r, c)


def test_clause_text_edge_cases(table_mode: str) -> None:
    empty = ClauseArrays(np.zeros((0, 1), np.int32), np.zeros(0, np.int16))
    only_empty = ClauseArrays(np.zeros((2, 1), np.int32), np.zeros(2, np.int16))
    wide = ClauseArrays(np.array([[-1234567, 89, 0], [5, -6, 7]], np.int32), np.array([2, 3], np.int16))
    for arrays in (empty, only_empty, wide):
        assert clause_text(arrays) == reference_clause_text(arrays)
    assert clause_text(wide) == b"-1234567 89 0\n5 -6 7 0\n"


@pytest.mark.parametrize("seed", range(3))
def test_header_variable_map_matches_reference(seed: int, table_mode: str) -> None:
    for puzzle in boards(40, 200 + seed):
        system = build_system(puzzle)
        text = header_text(puzzle, system, "c", "DIMACS CNF", ["extra line"])
        head, _, var_map = text.partition("c extra line\n")
        assert var_map == reference_var_lines(system, "c"), puzzle
        assert head.endswith("name x<row>_<col>, 0-based\n")


def test_variable_map_from_a_later_chunk(table_mode: str, monkeypatch) -> None:
    # big boards render the map in chunks: a chunk starting at variable first+1 numbers from there
    puzzle = random_puzzle(30, 40, density=0.9, reveal="game", seed=1)
    system = build_system(puzzle)
    lines = reference_var_lines(system, "c").splitlines(keepends=True)
    monkeypatch.setattr(bulk_text, "CHUNK", 100)     # a map of more than CHUNK variables comes in chunks
    pieces = list(header_pieces(puzzle, system, "c", "T"))
    assert system.num_vars > 200 and pieces[2].decode("ascii") == "".join(lines[100:200])
    assert b"".join(pieces[1:]).decode("ascii") == "".join(lines)


def test_variable_map_reused_across_prefixes(table_mode: str) -> None:
    # a batch writes several files from one system: the map made for one prefix is reused for the next
    for puzzle in boards(30, 400):
        system = build_system(puzzle)
        for prefix in ("c", "\\", "*", "c", ";", ";"):
            text = header_text(puzzle, system, prefix, "T")
            assert text.endswith(reference_var_lines(system, prefix)), (puzzle, prefix)
            assert text.count("\n") == len(puzzle.grid_lines) + 2 + system.num_vars + \
                (puzzle.name is not None) + (system.total is not None or puzzle.mines is not None)
