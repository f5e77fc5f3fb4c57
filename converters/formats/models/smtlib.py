"""SMT-LIB 2 writer (.smt2), QF_LIA: read by z3, cvc5, Yices, MathSAT, OpenSMT.

Each unknown cell is an Int x<row>_<col> bounded to 0..1 (Int rather than Bool so that a count is a plain
sum, as in the linear formats); one `(assert (= (+ ...) rhs))` per stated count in row-major order, then
the total; `(check-sat)` and `(get-model)`. No `:named` labels (z3 would list them in the model).
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ...core.naming import VAR_FORM, VAR_PREFIX, name_pieces, var_name
from ...core.puzzle import Puzzle
from ...encode import bulk_text
from ...encode.bulk_text import emit
from ...encode.linear import linear_model, rows_prose
from ..header import write_header
from ..registry import register_format

NAMES_PER_LINE = 10


def _int(value: int) -> str:
    """An SMT-LIB integer literal (negative numbers as (- n))."""
    return str(value) if value >= 0 else f"(- {-value})"


def write_smtlib(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as an SMT-LIB 2 script."""
    model = linear_model(puzzle, mines)
    system = model.system
    k = model.k
    notes = model.notes(f"cell variables are Int {VAR_FORM} in 0..1; " + rows_prose("assertion", named=False),
                        "last assertion")
    write_header(out, puzzle, system, ";", "SMT-LIB 2", notes)
    out.write("(set-logic QF_LIA)\n")
    # every piece of an assertion is an item of one table: the names ' x<row>_<col>', the two heads (a
    # sum of two or more terms, or not), the tails by right-hand side (closing the sum or not), the empty
    # sum ' 0', the line break of the total's long sum
    values, which = bulk_text.value_table(model.of(system.con_rhs))
    rc = system.var_rc
    builder = bulk_text.TableBuilder()
    names = builder.add(bulk_text.cell_items((puzzle.rows, puzzle.cols), name_pieces(VAR_PREFIX, " "),
                                          rc[:, 0], rc[:, 1]))
    heads = builder.add(["(assert (=", "(assert (= (+"])
    tails = builder.add([(")" if several else "") + " " + _int(v) + "))\n" for several in (False, True)
                         for v in values])
    empty = builder.add([" 0"])
    newline = builder.add(["\n "])
    table = builder.build()
    # the declarations and bounds: the same names between constant text
    for before, after in ((b"(declare-fun", b" () Int)\n"), (b"(assert (<= 0", b" 1))\n")):
        for start, stop in bulk_text.chunks(k):
            emit(out, bulk_text.join(stop - start, [before, (table, names.at(np.arange(start, stop))), after]))
    lens = model.of(system.con_len)
    for start, stop in bulk_text.chunks(model.n, bulk_text.ROW_CHUNK):
        several = (lens[start:stop] >= 2).astype(np.int64)
        emit(out, model.line_items(start, stop, table, names, tails.at(several * len(values) + which[start:stop]),
                                   empty.item, head=heads.at(several)))
    total = system.total
    if total is not None:
        if k >= 2:
            out.write("(assert (= (+")
            for start, stop in bulk_text.chunks(k):
                index = np.arange(start, stop)
                # a line break before every tenth name but the first
                breaks = np.flatnonzero((index % NAMES_PER_LINE == 0) & (index > 0))
                emit(out, bulk_text.squeeze(table.take(np.insert(names.at(index), breaks, newline.item))))
            out.write(f")\n {_int(total)}))\n")
        elif k == 1:
            r, c = rc[0].tolist()
            out.write(f"(assert (= {var_name(r, c)} {_int(total)}))\n")
        else:
            out.write(f"(assert (= 0 {_int(total)}))\n")
    out.write("(check-sat)\n(get-model)\n(exit)\n")


def _detect(text: str) -> bool:
    return "(set-logic" in text[:65536] and "(check-sat)" in text


register_format("smt2", writer=write_smtlib, detect=_detect,
                description="SMT-LIB 2, QF_LIA (z3, cvc5, Yices)", write_options=("mines",))
