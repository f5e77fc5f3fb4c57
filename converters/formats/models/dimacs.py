"""DIMACS CNF writer (.cnf): the binomial clauses of converters.encode, one clause per line."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, List, Optional, TextIO

import numpy as np

from ...core.puzzle import Puzzle
from ...core.system import LinearSystem
from ...encode import bulk_text
from ...encode.bulk_text import emit
from ...encode.cnf import ClauseArrays, CnfEncoding, encode_cnf
from ..header import write_header
from ..registry import register_format


def clause_text(clauses: ClauseArrays, start: int = 0, stop: Optional[int] = None, bound: int = 0) -> bytes:
    """DIMACS lines of clauses[start:stop] ('lit lit ... 0', an empty clause as '0').

    The padding after each clause's literals must be 0, as ClauseArrays promises (a literal is never 0).
    Literals of magnitude below `bound` (bulk_text.SMALL_NUMBERS when larger) take their text from one table made
    once per process (literal_bound gives the bound worth it for a whole file); others are made per call.
    """
    lits = clauses.lits[start:stop]
    n, width = lits.shape
    if not n:
        return b""
    index = np.empty((n, width + 1), dtype=np.intp)
    bound = max(bound, bulk_text.SMALL_NUMBERS)
    if -bound < int(lits.min()) and int(lits.max()) < bound:
        # every literal's text from a table in which the padding 0 is empty, then the clause end
        table = _literal_table(bound)
        index[:, :width] = lits + (bound - 1)
        index[:, width] = 2 * bound - 1
        return bulk_text.squeeze(table.take(index))
    # big literals: their own texts, the padding pointed at an empty item
    builder = bulk_text.TableBuilder()
    texts = builder.add(bulk_text.number_items(lits.ravel(), suffix=b" "))
    ends = builder.add(["0\n", ""])
    flat = lits.ravel()
    index[:, :width] = np.where(flat == 0, ends.at(1), texts.at(np.arange(flat.shape[0]))).reshape(n, width)
    index[:, width] = ends.at(0)
    return bulk_text.squeeze(builder.build().take(index))


@lru_cache(maxsize=4)
def _literal_table(bound: int) -> np.ndarray:
    """'<lit> ' for every literal of magnitude below bound (item lit + bound - 1; the item of 0 is empty),
    then '0\\n' (item 2 * bound - 1)."""
    builder = bulk_text.TableBuilder()
    builder.add(bulk_text.number_items(np.arange(-bound + 1, bound), suffix=b" "))
    builder.add(["0\n"])
    table = bulk_text.as_bytes(builder.build()).copy()
    table[bound - 1] = 0
    return bulk_text.items(table)


def literal_bound(enc: CnfEncoding) -> int:
    """The literal table's bound for writing this encoding: every variable when the file has more literals than
    the table has items (its 2 * nv texts are made once instead of every literal's text one by one), else 0."""
    literals = int(enc.cells.lens.sum()) + int(enc.card.lens.sum())
    return enc.nv + 1 if 2 * enc.nv < literals else 0


def cnf_notes(enc: CnfEncoding) -> List[str]:
    """The lines a CNF file's header adds on its clauses and the total."""
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
    return extra


def write_dimacs(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None,
                 card_encoding: Optional[str] = None, system: Optional[LinearSystem] = None, **_: Any) -> None:
    """Write the puzzle as DIMACS CNF: header comments, 'p cnf nv nclauses', one clause per line.

    `system` is build_system(puzzle, mines) when the caller has it already (batch shares it between writers).
    """
    enc = encode_cnf(puzzle, mines, card_encoding, system=system)
    write_header(out, enc.system.puzzle, enc.system, "c", "DIMACS CNF", cnf_notes(enc))
    out.write(f"p cnf {enc.nv} {enc.num_clauses}\n")
    bound = literal_bound(enc)
    for clauses in (enc.cells, enc.card):
        for start, stop in bulk_text.chunks(clauses.count):
            emit(out, clause_text(clauses, start, stop, bound))


def _detect(text: str) -> bool:
    head = text.lstrip("\ufeff")[:4096]
    return any(line.startswith("p cnf ") for line in head.splitlines())


register_format("cnf", writer=write_dimacs, detect=_detect,
                description="DIMACS CNF for SAT solvers (minisat, picosat, cadical, kissat, pysat)",
                write_options=("mines", "card_encoding", "system"))
