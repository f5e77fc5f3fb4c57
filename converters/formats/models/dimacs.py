"""DIMACS CNF writer (.cnf): the binomial clauses of converters.encode, one clause per line."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, List, Optional, TextIO

import numpy as np

from ...encode.cnf import ClauseArrays, CnfEncoding, encode_cnf
from ..header import header_text
from ...model.puzzle import Puzzle
from ...registry import register_format
from ...model.system import LinearSystem
from ...bulk import columns as _columns
from ...bulk.columns import number_text
from ...bulk.items import chunks, squeeze


def clause_text(clauses: ClauseArrays, start: int = 0, stop: Optional[int] = None) -> str:
    """DIMACS lines of clauses[start:stop] ('lit lit ... 0', an empty clause as '0').

    The padding after each clause's literals must be 0, as ClauseArrays promises.
    """
    lits = clauses.lits[start:stop]
    lens = clauses.lens[start:stop].astype(np.int64)
    n = lens.shape[0]
    if not n:
        return ""
    bound = _columns.SMALL_NUMBERS
    if -bound < int(lits.min()) and int(lits.max()) < bound:
        # every literal's text from a table in which the padding 0 is empty: no mask, no positions
        tokens = _literal_table(bound).take(lits + (bound - 1), axis=0)
        width = tokens.shape[1] * tokens.shape[2]
        buf = np.empty((n, width + 2), dtype=np.uint8)
        buf[:, :width] = tokens.reshape(n, width)
        buf[:, width] = 48
        buf[:, width + 1] = 10
        return squeeze(buf)
    # one token per literal ('-12 ') and one per clause end ('0\n'), laid out in one byte matrix
    flat = lits[np.arange(lits.shape[1])[None, :] < lens[:, None]]
    nums = number_text(flat, suffix=b" ")
    t = flat.shape[0]
    ends = np.cumsum(lens) + np.arange(n)
    buf = np.zeros((t + n, max(nums.shape[1], 2)), dtype=np.uint8)
    if t:
        buf[np.arange(t) + np.repeat(np.arange(n), lens), :nums.shape[1]] = nums
    buf[ends, 0] = 48
    buf[ends, 1] = 10
    return squeeze(buf)


@lru_cache(maxsize=4)
def _literal_table(bound: int) -> np.ndarray:
    """'<lit> ' for every literal of magnitude below bound (row lit + bound - 1); the row of 0 is empty."""
    table = _columns.number_text(np.arange(-bound + 1, bound), suffix=b" ").copy()
    table[bound - 1] = 0
    return table


def cnf_header(enc: CnfEncoding, title: str = "DIMACS CNF") -> str:
    """The comment header of a CNF file made from this encoding."""
    system = enc.system
    k = system.num_vars
    extra: List[str] = ["clauses: per revealed cell with d unknown neighbours that must hold c mines, a clause "
                        "of negated literals per (c+1)-subset and of positive literals per (d-c+1)-subset "
                        "(binomial encoding, no auxiliary variables), cells in row-major order; a count that "
                        "cannot be met is an empty clause"]
    if system.total is not None:
        if enc.card_encoding:
            extra.append(f"total: exactly {system.total} of the {k} cell variables are true (pysat "
                         f"{enc.card_encoding} encoding, auxiliary variables {k + 1}..{enc.nv}), last "
                         f"{enc.card.count} clauses")
        else:
            extra.append(f"total: exactly {system.total} of the {k} cell variables are true, last "
                         f"{enc.card.count} clauses (no auxiliary variables needed)")
    return header_text(system.puzzle, system, "c", title, extra)


def write_dimacs(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None,
                 card_encoding: Optional[str] = None, system: Optional[LinearSystem] = None, **_: Any) -> None:
    """Write the puzzle as DIMACS CNF: header comments, 'p cnf nv nclauses', one clause per line.

    `system` is build_system(puzzle, mines) when the caller has it already (batch shares it between writers).
    """
    enc = encode_cnf(puzzle, mines, card_encoding, system=system)
    out.write(cnf_header(enc))
    out.write(f"p cnf {enc.nv} {enc.num_clauses}\n")
    for start, stop in chunks(enc.cells.count):
        out.write(clause_text(enc.cells, start, stop))
    for start, stop in chunks(enc.card.count):
        out.write(clause_text(enc.card, start, stop))


def _detect(text: str) -> bool:
    head = text.lstrip("\ufeff")[:4096]
    return any(line.startswith("p cnf ") for line in head.splitlines())


register_format("cnf", [".cnf"], "model", writer=write_dimacs, detect=_detect,
                description="DIMACS CNF for SAT solvers (minisat, picosat, cadical, kissat, pysat)",
                aliases=("dimacs",), write_options=("mines", "card_encoding", "system"))
