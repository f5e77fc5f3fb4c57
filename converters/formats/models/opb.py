"""OPB writer (.opb, the pseudo-Boolean competition format), read by clasp and minisat+.

Variable x<i> is unknown cell id i (as in DIMACS). One `=` constraint per stated count, then the total;
each constraint on one line (minisat+ rejects a constraint split across lines), so the total's line holds
every variable. A count that cannot be met with no variable around it is written `+0 x1 = <rhs> ;`.
"""
from __future__ import annotations

from typing import Any, Optional, TextIO

import numpy as np

from ..header import header_text
from ...model.puzzle import Puzzle
from ...registry import register_format
from ...encode.linear import linear_model
from ...bulk.items import CHUNK, chunks, distinct, item_table, number_words, text_words, word_matrix, write_ascii


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
    # every piece of a line is an item of one table: the terms '+1 x<id> ' (item id - 1), then the
    # tails '= <rhs> ;' of the distinct right-hand sides, then the stand-in for a sum with no term
    values, which = distinct(system.con_rhs[model.rows])
    tails = [f"= {v} ;\n" for v in values] + ["+0 x1 "]
    table = item_table(word_matrix(k, ["+1 x", number_words(np.arange(1, k + 1)), " "]),
                       *[text_words(t).reshape(1, -1) for t in tails])
    for start, stop in chunks(model.n, CHUNK // 4):  # small pieces: fewer page faults, warm caches
        write_ascii(out, model.line_items(start, stop, table, -1, k + which[start:stop], k + len(values)))
    if total is not None:
        if k:
            for start, stop in chunks(k):
                write_ascii(out, table[start:stop].tobytes().translate(None, b"\0"))
            out.write(f"= {total} ;\n")
        elif total:
            out.write(f"+0 x1 = {total} ;\n")


def _detect(text: str) -> bool:
    return text.lstrip("\ufeff").startswith("* #variable=")


register_format("opb", [".opb"], "model", writer=write_opb, detect=_detect,
                description="pseudo-Boolean OPB (clasp, minisat+, RoundingSat)", aliases=("pb",),
                write_options=("mines",))
