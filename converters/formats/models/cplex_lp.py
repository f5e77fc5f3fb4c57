"""CPLEX LP writer (.lp), read by glpsol --lp, CBC, HiGHS, CPLEX, Gurobi, SCIP.

Layout: a zero objective listing every variable in id order (glpsol rejects an empty objective and numbers
its columns by first appearance, so this pins its column i to cell id i), one equality per count named
after its revealed cell, the total mine count as row 'total', every variable in Binary. Long sums are
broken before a '+' so that no line passes 255 characters.
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ...encode.linear import constraint_rows
from ..header import header_text
from ...model.naming import TOTAL_CONSTRAINT, var_name
from ...model.puzzle import Puzzle
from ...registry import register_format
from ...model.system import LinearSystem, build_system
from ...bulk.columns import byte_rows, cell_text, number_text, pick
from ...encode.linear import EMPTY_ROW, PLACEHOLDER
from ...bulk.items import chunks, render_tokens, squeeze

TERMS_PER_LINE = 8    # '+ 0 x3999_3999' is 14 characters: 8 terms stay far below 255 on any board
NAMES_PER_LINE = 10


class _Model:
    """What the LP file states, from the linear system: variable names, stated rows and their terms."""

    def __init__(self, system: LinearSystem) -> None:
        self.system = system
        self.k = system.num_vars
        self.rows = constraint_rows(system)
        self.n = int(self.rows.shape[0])
        lens = system.con_len[self.rows].astype(np.int64)
        self.ptr = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(lens, out=self.ptr[1:])
        # rows not stated have no variable: the non-zero ids of all rows, in order, are the stated terms
        flat = system.con_vars.ravel()
        self.term_id = flat[flat != 0]
        # row i = name of variable id i (row 0, for padding, is empty)
        rc = system.var_rc
        self.shape = (system.puzzle.rows, system.puzzle.cols)
        names = cell_text(self.shape, (b"x", "r", b"_", "c"), rc[:, 0], rc[:, 1])
        self.names = np.vstack([np.zeros((1, names.shape[1]), dtype=np.uint8), names])
        if self.k:
            r, c = rc[0].tolist()
            self.any_var = var_name(r, c)  # the first cell variable carries a constant row
        else:
            self.any_var = PLACEHOLDER


def _var_list(model: _Model, start: int, stop: int, term: str, sep: str, per_line: int, indent: str) -> str:
    """Variables start..stop-1 (ids start+1..) as '<sep><term><name>' items, per_line to a line."""
    i = np.arange(start, stop)
    # 0: the very first item, 1: first of a later line, 2: any other item
    kind = np.where(i == 0, 0, np.where(i % per_line == 0, 1, 2))
    lead = pick((term.encode(), ("\n" + indent + sep + term).encode(), (sep + term).encode()), kind)
    return squeeze(byte_rows(stop - start, [lead, model.names.take(i + 1, axis=0)]))


def _sum(model: _Model, out: TextIO, term: str, sep: str, per_line: int, indent: str) -> None:
    for start, stop in chunks(model.k):
        out.write(_var_list(model, start, stop, term, sep, per_line, indent))


def constraint_lines(model: _Model, start: int, stop: int) -> str:
    """' c<r>_<c>: x.. + x.. = rhs' lines of stated constraints start..stop-1."""
    s = model.system
    idx = model.rows[start:stop]
    n = stop - start
    lens = s.con_len[idx].astype(np.int64)
    t0, t1 = int(model.ptr[start]), int(model.ptr[stop])
    ids = model.term_id[t0:t1]
    line = np.repeat(np.arange(n), lens)
    slot = np.arange(t1 - t0) - np.repeat(model.ptr[start:stop] - t0, lens)
    # one token per line head, per term, per empty sum and per line tail, placed by position
    items = np.maximum(lens, 1)
    per_line = items + 2
    starts = np.cumsum(per_line) - per_line
    head = cell_text(model.shape, (b" c", "r", b"_", "c", b":"), s.con_rc[idx, 0], s.con_rc[idx, 1])
    lead = pick((b" ", b" + "), (slot > 0).astype(np.intp))
    terms = byte_rows(ids.shape[0], [lead, model.names.take(ids, axis=0)])
    tail = number_text(s.con_rhs[idx], prefix=b" = ", suffix=b"\n")
    blank = np.nonzero(lens == 0)[0]
    # a count that cannot be met, with nothing unknown around it, still needs a variable to be a row
    empty = np.frombuffer(f" 0 {model.any_var}".encode(), dtype=np.uint8)[None, :]
    return render_tokens(int(per_line.sum()), [
        (starts, head),
        (starts[line] + 1 + slot, terms),
        (starts[blank] + 1, np.broadcast_to(empty, (blank.shape[0], empty.shape[1]))),
        (starts + 1 + items, tail),
    ])


def write_lp(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None,
             system: Optional[LinearSystem] = None, **_: Any) -> None:
    """Write the puzzle as a CPLEX LP file (`system`: its build_system(puzzle, mines), when already built)."""
    if system is None:
        system = build_system(puzzle, mines)
    model = _Model(system)
    k = model.k
    extra = ["Minimize a zero objective over every variable in id order; one equality per revealed cell "
             "with an unknown neighbour (or whose count cannot be met), named c<row>_<col>: the sum of its "
             "unknown neighbours = its count minus its known-mine neighbours"]
    if system.total is not None:
        extra.append(f"row {TOTAL_CONSTRAINT}: the {k} cell variables sum to {system.total} (mines left to place)")
    if not k:
        extra.append(f"no unknown cell: the column {PLACEHOLDER}, fixed at 0, only keeps the file valid")
    if not model.n and system.total is None:
        extra.append(f"no count to state: the row {EMPTY_ROW} (0 = 0) only keeps the file valid")
    out.write(header_text(puzzle, system, "\\", "CPLEX LP", extra))
    out.write("Minimize\n obj:")
    if k:
        _sum(model, out, " 0 ", " +", TERMS_PER_LINE, " ")
    else:
        out.write(f" 0 {PLACEHOLDER}")
    out.write("\nSubject To\n")
    for start, stop in chunks(model.n):
        out.write(constraint_lines(model, start, stop))
    if not model.n and system.total is None:
        out.write(f" {EMPTY_ROW}: 0 {model.any_var} = 0\n")  # glpsol needs a constraint
    if system.total is not None:
        out.write(f" {TOTAL_CONSTRAINT}:")
        if k:
            _sum(model, out, " ", " +", TERMS_PER_LINE, " ")
        else:
            out.write(f" 0 {PLACEHOLDER}")
        out.write(f" = {system.total}\n")
    if k:
        out.write("Binary\n")
        _sum(model, out, " ", "", NAMES_PER_LINE, "")
        out.write("\n")
    else:
        out.write(f"Bounds\n {PLACEHOLDER} = 0\nGenerals\n {PLACEHOLDER}\n")
    out.write("End\n")


def _detect(text: str) -> bool:
    lines = [ln.strip().lower() for ln in text[:8192].splitlines() if ln.strip() and not ln.startswith("\\")]
    return bool(lines) and lines[0] in ("minimize", "maximize", "minimum", "maximum", "min", "max") \
        and any(ln in ("subject to", "st", "s.t.", "such that") for ln in lines[1:50])


register_format("lp", [".lp"], "model", writer=write_lp, detect=_detect,
                description="CPLEX LP for MIP solvers (glpsol --lp, cbc, HiGHS, CPLEX, Gurobi, SCIP)",
                aliases=("cplex-lp",), write_options=("mines", "system"))
