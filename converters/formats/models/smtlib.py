"""SMT-LIB 2 writer (.smt2), QF_LIA: read by z3, cvc5, Yices, MathSAT, OpenSMT.

Each unknown cell is an Int x<row>_<col> bounded to 0..1 (Int rather than Bool so that a count is a plain
sum, as in the linear formats); one `(assert (= (+ ...) rhs))` per stated count in row-major order, then
the total; `(check-sat)` and `(get-model)`. No `:named` labels (z3 would list them in the model).
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ..header import header_text
from ...model.puzzle import Puzzle
from ...registry import register_format
from ...encode.linear import linear_model
from ...bulk.items import (CHUNK, assemble_items, chunks, distinct, item_table, items, number_words, text_words, word_matrix,
                    write_ascii)

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
    # every piece of an assertion is an item of one table: the names ' x<row>_<col>' (item id - 1), the
    # two heads (a sum of two or more terms, or not), the tails by right-hand side, the empty sum ' 0'
    values, which = distinct(system.con_rhs[model.rows])
    heads = ["(assert (=", "(assert (= (+"]
    tails = [(")" if several else "") + " " + _int(v) + "))\n" for several in (False, True) for v in values]
    table = item_table(word_matrix(k, [" x", number_words(system.var_rc[:, 0]), "_",
                                       number_words(system.var_rc[:, 1])]),
                       *[text_words(t).reshape(1, -1) for t in heads + tails + [" 0", "\n "]])
    # the declarations and bounds: the same names between constant text
    for before, after in (("(declare-fun", " () Int)\n"), ("(assert (<= 0", " 1))\n")):
        first, last = items(text_words(before).reshape(1, -1)), items(text_words(after).reshape(1, -1))
        for start, stop in chunks(k):
            write_ascii(out, assemble_items(stop - start, [(first, None), (table, np.arange(start, stop)),
                                                           (last, None)]))
    nv = len(values)
    lens = system.con_len[model.rows]
    for start, stop in chunks(model.n, CHUNK // 4):  # small pieces: fewer page faults, warm caches
        several = (lens[start:stop] >= 2).astype(np.int64)
        write_ascii(out, model.line_items(start, stop, table, -1, k + 2 + several * nv + which[start:stop],
                                          k + 2 + 2 * nv, head=k + several))
    total = system.total
    if total is not None:
        if k >= 2:
            out.write("(assert (= (+")
            newline = k + 3 + 2 * nv
            for start, stop in chunks(k):
                index = np.arange(start, stop)
                # a line break before every tenth name but the first
                breaks = np.flatnonzero((index % NAMES_PER_LINE == 0) & (index > 0))
                write_ascii(out, table.take(np.insert(index, breaks, newline)).tobytes().translate(None, b"\0"))
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
                description="SMT-LIB 2, QF_LIA (z3, cvc5, Yices)", aliases=("smtlib", "smt-lib"),
                write_options=("mines",))
