"""DIMACS CNF writer (.cnf): the binomial clauses of converters.encode, one clause per line."""
from __future__ import annotations

from typing import Any, List, Optional, TextIO

from ..encode import ClauseArrays, CnfEncoding, encode_cnf
from ..header import header_text
from ..puzzle import Puzzle
from ..registry import register_format
from ._text import Lines, chunks


def clause_text(clauses: ClauseArrays, start: int = 0, stop: Optional[int] = None) -> str:
    """DIMACS lines of clauses[start:stop] ('lit lit ... 0', an empty clause as '0')."""
    lits = clauses.lits[start:stop]
    lens = clauses.lens[start:stop]
    lines = Lines(lits.shape[0])
    for j in range(lits.shape[1]):
        present = lens > j
        lines.number(lits[:, j], mask=present, signed=True).text(" ", mask=present)
    return lines.text("0\n").render()


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
                 card_encoding: Optional[str] = None, **_: Any) -> None:
    """Write the puzzle as DIMACS CNF: header comments, 'p cnf nv nclauses', one clause per line."""
    enc = encode_cnf(puzzle, mines, card_encoding)
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
                aliases=("dimacs",))
