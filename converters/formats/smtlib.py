"""SMT-LIB 2 writer (.smt2), QF_LIA: read by z3, cvc5, Yices, MathSAT, OpenSMT.

Each unknown cell is an Int x<row>_<col> bounded to 0..1 (Int rather than Bool so that a count is a plain
sum, as in the linear formats); one `(assert (= (+ ...) rhs))` per stated count in row-major order, then
the total; `(check-sat)` and `(get-model)`. No `:named` labels (z3 would list them in the model).
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ..header import header_text
from ..puzzle import Puzzle
from ..registry import register_format
from ._linear import linear_model
from ._text import Lines, add_rc, chunks

NAMES_PER_LINE = 10


def _int(value: int) -> str:
    """An SMT-LIB integer literal (negative numbers as (- n))."""
    return str(value) if value >= 0 else f"(- {-value})"


def write_smtlib(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as an SMT-LIB 2 script."""
    model = linear_model(puzzle, mines)
    system = model.system
    k = model.k
    extra = ["cell variables are Int x<row>_<col> in 0..1; one assertion per revealed cell with an unknown "
             "neighbour (or whose count cannot be met), in row-major order: the sum of its unknown neighbours "
             "= its count minus its known-mine neighbours"]
    if system.total is not None:
        extra.append(f"last assertion: the {k} cell variables sum to {system.total} (mines left to place)")
    out.write(header_text(puzzle, system, ";", "SMT-LIB 2", extra))
    out.write("(set-logic QF_LIA)\n")
    for start, stop in chunks(k):
        rc = system.var_rc[start:stop]
        r, c = rc[:, 0], rc[:, 1]
        lines = add_rc(Lines(stop - start).text("(declare-fun "), "x", r, c).text(" () Int)\n")
        out.write(lines.render())
    for start, stop in chunks(k):
        rc = system.var_rc[start:stop]
        out.write(add_rc(Lines(stop - start).text("(assert (<= 0 "), "x", rc[:, 0], rc[:, 1])
                  .text(" 1))\n").render())
    for start, stop in chunks(model.n):
        rows = model.chunk(start, stop)
        several = rows.lens >= 2
        neg = rows.rhs < 0
        head = Lines(rows.n).text("(assert (=").text(" (+", several).matrix()
        terms = add_rc(Lines(rows.term_id.shape[0]), " x", rows.term_r, rows.term_c).matrix()
        empty = Lines(1).text(" 0").matrix()
        tail = Lines(rows.n).text(")", several).text(" ").text("(- ", neg)
        tail.number(np.abs(rows.rhs.astype(np.int64))).text(")", neg).text("))\n")
        out.write(rows.assemble(head, terms, empty, tail.matrix()))
    total = system.total
    if total is not None:
        if k >= 2:
            out.write("(assert (= (+")
            for start, stop in chunks(k):
                i = np.arange(start, stop)
                rc = system.var_rc[start:stop]
                lines = Lines(stop - start).text("\n ", (i % NAMES_PER_LINE == 0) & (i > 0))
                out.write(add_rc(lines, " x", rc[:, 0], rc[:, 1]).render())
            out.write(f")\n {_int(total)}))\n")
        elif k == 1:
            r, c = system.var_rc[0].tolist()
            out.write(f"(assert (= x{r}_{c} {_int(total)}))\n")
        else:
            out.write(f"(assert (= 0 {_int(total)}))\n")
    out.write("(check-sat)\n(get-model)\n(exit)\n")


def _detect(text: str) -> bool:
    return "(set-logic" in text[:65536] and "(check-sat)" in text


register_format("smt2", [".smt2", ".smt"], "model", writer=write_smtlib, detect=_detect,
                description="SMT-LIB 2, QF_LIA (z3, cvc5, Yices)", aliases=("smtlib", "smt-lib"))
