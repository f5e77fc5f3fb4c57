"""CPLEX LP writer (.lp), read by glpsol --lp, CBC, HiGHS, CPLEX, Gurobi, SCIP.

Layout: a zero objective listing every variable in id order (glpsol rejects an empty objective and numbers
its columns by first appearance, so this pins its column i to cell id i), one equality per count named
after its revealed cell, the total mine count as row 'total', every variable in Binary. Long sums are
broken before a '+' so that no line passes 255 characters.
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ..header import header_text
from ..naming import TOTAL_CONSTRAINT
from ..puzzle import Puzzle
from ..registry import register_format
from ._linear import EMPTY_ROW, PLACEHOLDER, LinearModel, linear_model
from ._text import Lines, add_rc, chunks

TERMS_PER_LINE = 8    # '+ 0 x3999_3999' is 14 characters: 8 terms stay far below 255 on any board
NAMES_PER_LINE = 10


def _var_list(model: LinearModel, start: int, stop: int, term: str, sep: str, per_line: int,
              indent: str) -> str:
    """Variables start..stop-1 (ids start+1..) as '<sep><term><name>' items, per_line to a line."""
    i = np.arange(start, stop)
    lines = Lines(stop - start).text("\n" + indent, (i % per_line == 0) & (i > 0)).text(sep, i > 0)
    return lines.text(term).block(model.var_names().take(i + 1)).render()


def _sum(model: LinearModel, out: TextIO, term: str, sep: str, per_line: int, indent: str) -> None:
    for start, stop in chunks(model.k):
        out.write(_var_list(model, start, stop, term, sep, per_line, indent))


def constraint_lines(model: LinearModel, start: int, stop: int) -> str:
    """' c<r>_<c>: x.. + x.. = rhs' lines of stated constraints start..stop-1."""
    rows = model.chunk(start, stop)
    head = add_rc(Lines(rows.n), " c", rows.con_r, rows.con_c).text(":").matrix()
    names = model.var_names().take(rows.term_id)
    terms = Lines(rows.term_id.shape[0]).text(" +", rows.term_slot > 0).text(" ").block(names)
    # a count that cannot be met, with nothing unknown around it, still needs a variable to be a row
    empty = Lines(1).text(f" 0 {model.any_var}").matrix()
    tail = Lines(rows.n).text(" = ").number(rows.rhs, signed=True).text("\n").matrix()
    return rows.assemble(head, terms.matrix(), empty, tail)


def write_lp(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as a CPLEX LP file."""
    model = linear_model(puzzle, mines)
    system = model.system
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
                aliases=("cplex-lp",))
