"""CPLEX LP writer (.lp), read by glpsol --lp, CBC, HiGHS, CPLEX, Gurobi, SCIP.

Layout: a zero objective listing every variable in id order (glpsol rejects an empty objective and numbers
its columns by first appearance, so this pins its column i to cell id i), one equality per count named
after its revealed cell, the total mine count as row 'total', every variable in Binary. Long sums are
broken before a '+' so that no line passes 255 characters.
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ...core.naming import CON_PREFIX, TOTAL_CONSTRAINT, VAR_PREFIX, name_pieces
from ...core.puzzle import Puzzle
from ...core.system import LinearSystem
from ...encode import bulk_text
from ...encode.bulk_text import emit
from ...encode.linear import EMPTY_ROW, PLACEHOLDER, LinearModel, linear_model, rows_prose
from ..header import write_header
from ..registry import register_format

TERMS_PER_LINE = 8    # '+ 0 x3999_3999' is 14 characters: 8 terms stay far below 255 on any board
NAMES_PER_LINE = 10


def _var_sum(out: TextIO, names: np.ndarray, term: str, sep: str, per_line: int, indent: str) -> None:
    """Every variable (names: their items in id order) as '<sep><term><name>' items, per_line to a line."""
    leads = bulk_text.texts([term, "\n" + indent + sep + term, sep + term])
    for start, stop in bulk_text.chunks(names.shape[0]):
        i = np.arange(start, stop)
        # 0: the very first item, 1: first of a later line, 2: any other item
        kind = np.where(i == 0, 0, np.where(i % per_line == 0, 1, 2))
        emit(out, bulk_text.join(stop - start, [(leads, kind), names[start:stop]]))


def _constraints(out: TextIO, model: LinearModel) -> None:
    """' c<r>_<c>: x.. + x.. = rhs' lines of every stated constraint."""
    system = model.system
    shape = (system.puzzle.rows, system.puzzle.cols)
    rc = system.var_rc
    con_rc = model.of(system.con_rc)
    values, which = bulk_text.value_table(model.of(system.con_rhs))
    builder = bulk_text.TableBuilder()
    first = builder.add(bulk_text.cell_items(shape, name_pieces(VAR_PREFIX, " "), rc[:, 0], rc[:, 1]))
    terms = builder.add(bulk_text.cell_items(shape, name_pieces(VAR_PREFIX, " + "), rc[:, 0], rc[:, 1]))
    heads = builder.add(bulk_text.cell_items(shape, name_pieces(CON_PREFIX, " ", ":"), con_rc[:, 0], con_rc[:, 1]))
    tails = builder.add([f" = {v}\n" for v in values])
    # a count that cannot be met, with nothing unknown around it, still needs a variable to be a row
    empty = builder.add([f" 0 {model.any_var}"])
    table = builder.build()
    for start, stop in bulk_text.chunks(model.n, bulk_text.ROW_CHUNK):
        emit(out, model.line_items(start, stop, table, terms, tails.at(which[start:stop]), empty.item,
                                   head=heads.at(np.arange(start, stop)), first=first))


def write_cplex_lp(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None,
             system: Optional[LinearSystem] = None, **_: Any) -> None:
    """Write the puzzle as a CPLEX LP file (`system`: its build_system(puzzle, mines), when already built)."""
    model = linear_model(puzzle, mines, system)
    system = model.system
    k, total = model.k, system.total
    notes = model.notes("Minimize a zero objective over every variable in id order; "
                        + rows_prose("equality", named=True), f"row {TOTAL_CONSTRAINT}",
                        placeholder=True, empty_row=True)
    write_header(out, puzzle, system, "\\", "CPLEX LP", notes)
    rc = system.var_rc
    names = bulk_text.cell_items((puzzle.rows, puzzle.cols), name_pieces(VAR_PREFIX), rc[:, 0], rc[:, 1])
    out.write("Minimize\n obj:")
    if k:
        _var_sum(out, names, " 0 ", " +", TERMS_PER_LINE, " ")
    else:
        out.write(f" 0 {PLACEHOLDER}")
    out.write("\nSubject To\n")
    _constraints(out, model)
    if model.needs_empty_row:
        out.write(f" {EMPTY_ROW}: 0 {model.any_var} = 0\n")  # glpsol needs a constraint
    if total is not None:
        out.write(f" {TOTAL_CONSTRAINT}:")
        if k:
            _var_sum(out, names, " ", " +", TERMS_PER_LINE, " ")
        else:
            out.write(f" 0 {PLACEHOLDER}")
        out.write(f" = {total}\n")
    if k:
        out.write("Binary\n")
        _var_sum(out, names, " ", "", NAMES_PER_LINE, "")
        out.write("\n")
    else:
        out.write(f"Bounds\n {PLACEHOLDER} = 0\nGenerals\n {PLACEHOLDER}\n")
    out.write("End\n")


def _detect(text: str) -> bool:
    lines = [ln.strip().lower() for ln in text[:8192].splitlines() if ln.strip() and not ln.startswith("\\")]
    return bool(lines) and lines[0] in ("minimize", "maximize", "minimum", "maximum", "min", "max") \
        and any(ln in ("subject to", "st", "s.t.", "such that") for ln in lines[1:50])


register_format("lp", writer=write_cplex_lp, detect=_detect,
                description="CPLEX LP for MIP solvers (glpsol --lp, cbc, HiGHS, CPLEX, Gurobi, SCIP)",
                write_options=("mines", "system"))
