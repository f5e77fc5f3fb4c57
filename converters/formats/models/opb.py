"""OPB writer (.opb, the pseudo-Boolean competition format), read by clasp and minisat+.

Variable x<i> is unknown cell id i (as in DIMACS). One `=` constraint per stated count, then the total;
each constraint on one line (minisat+ rejects a constraint split across lines), so the total's line holds
every variable. A count that cannot be met with no variable around it is written `+0 x1 = <rhs> ;`.
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ...core.puzzle import Puzzle
from ...encode import bulk_text
from ...encode.bulk_text import emit
from ...encode.linear import linear_model, rows_prose
from ..header import write_header
from ..registry import register_format


def write_opb(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as an OPB file."""
    model = linear_model(puzzle, mines)
    system = model.system
    k = model.k
    total = system.total
    # with no unknown cell, a row that must fail still needs a variable: x1, declared for it
    needs_x1 = (not k) and (bool((model.of(model.system.con_rhs) != 0).any()) or bool(total))
    nvars = max(k, 1) if needs_x1 else k
    ncons = model.n + (1 if total is not None and (k or total) else 0)
    out.write(f"* #variable= {nvars} #constraint= {ncons}\n")
    write_header(out, puzzle, system, "*", "OPB", model.notes(rows_prose("'=' constraint", named=False),
                                                              "last constraint"))
    # every piece of a line is an item of one table: the terms '+1 x<id> ', the tails '= <rhs> ;' of the
    # distinct right-hand sides, the stand-in for a sum with no term
    values, which = bulk_text.value_table(model.of(system.con_rhs))
    builder = bulk_text.TableBuilder()
    terms = builder.add(bulk_text.rows_of(k, [b"+1 x", bulk_text.numbers(np.arange(1, k + 1)), b" "]))
    tails = builder.add([f"= {v} ;\n" for v in values])
    empty = builder.add(["+0 x1 "])
    table = builder.build()
    for start, stop in bulk_text.chunks(model.n, bulk_text.ROW_CHUNK):
        emit(out, model.line_items(start, stop, table, terms, tails.at(which[start:stop]), empty.item))
    if total is not None:
        if k:
            for start, stop in bulk_text.chunks(k):
                emit(out, bulk_text.squeeze(table[terms.at(start):terms.at(stop)]))
            out.write(f"= {total} ;\n")
        elif total:
            out.write(f"+0 x1 = {total} ;\n")


def _detect(text: str) -> bool:
    return text.lstrip("\ufeff").startswith("* #variable=")


register_format("opb", writer=write_opb, detect=_detect,
                description="pseudo-Boolean OPB (clasp, minisat+, RoundingSat)", write_options=("mines",))
