"""OPB writer (.opb, the pseudo-Boolean competition format), read by clasp and minisat+.

Variable x<i> is unknown cell id i (as in DIMACS). One `=` constraint per stated count, then the total;
each constraint on one line (minisat+ rejects a constraint split across lines), so the total's line holds
every variable. A count that cannot be met with no variable around it is written `+0 x1 = <rhs> ;`.
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ..header import header_text
from ..puzzle import Puzzle
from ..registry import register_format
from ._linear import linear_model
from ._text import Lines, chunks


def write_opb(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as an OPB file."""
    model = linear_model(puzzle, mines)
    system = model.system
    k = model.k
    total = system.total
    # with no unknown cell, a row that must fail still needs a variable: x1, declared for it
    needs_x1 = (not k) and (bool((model.system.con_rhs[model.rows] != 0).any()) or bool(total))
    nvars = max(k, 1) if needs_x1 else k
    ncons = model.n + (1 if total is not None and (k or total) else 0)
    out.write(f"* #variable= {nvars} #constraint= {ncons}\n")
    extra = ["one '=' constraint per revealed cell with an unknown neighbour (or whose count cannot be met), "
             "in row-major order: the sum of its unknown neighbours = its count minus its known-mine "
             "neighbours"]
    if total is not None:
        extra.append(f"last constraint: the {k} cell variables sum to {total} (mines left to place)")
    out.write(header_text(puzzle, system, "*", "OPB", extra))
    for start, stop in chunks(model.n):
        rows = model.chunk(start, stop)
        head = Lines(rows.n).matrix()
        terms = Lines(rows.term_id.shape[0]).text("+1 x").number(rows.term_id).text(" ").matrix()
        empty = Lines(1).text("+0 x1 ").matrix()
        tail = Lines(rows.n).text("= ").number(rows.rhs, signed=True).text(" ;\n").matrix()
        out.write(rows.assemble(head, terms, empty, tail))
    if total is not None:
        if k:
            for start, stop in chunks(k):
                out.write(Lines(stop - start).text("+1 x").number(np.arange(start + 1, stop + 1)).text(" ").render())
            out.write(f"= {total} ;\n")
        elif total:
            out.write(f"+0 x1 = {total} ;\n")


def _detect(text: str) -> bool:
    return text.lstrip("\ufeff").startswith("* #variable=")


register_format("opb", [".opb"], "model", writer=write_opb, detect=_detect,
                description="pseudo-Boolean OPB (clasp, minisat+, RoundingSat)", aliases=("pb",))
