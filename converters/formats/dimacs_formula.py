"""Reading a CNF formula in DIMACS (the input of `mineconv reduce`); boards are written as CNF elsewhere.

Accepted: 'c' comment lines anywhere, one 'p cnf VARIABLES CLAUSES' line before the first clause, clauses
as whitespace-separated literals each ended by 0 (a clause may span lines, a line may hold several), the
empty clause (a lone 0), and the SATLIB end marker: a line '%' ends the formula. A last clause without its
0 is taken as ended by the end of the file. Every error names FILE:LINE:COL.

A reader of the formula for a use whose size grows with it (`reduce`'s board) passes `check(variables,
clauses)`: it is called with the problem line's variables before any clause is read, then with the
clauses read so far (a tautology, which `reduce` drops, not counted) every CHECK_EVERY clauses, and raises
to refuse. A 20 MB file of 5 million unit clauses was parsed whole (29 s, 736 MB) before its refusal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Tuple

from ..core.errors import FormatError
from ..core.fileio import PathLike, read_input

_TOKEN = re.compile(r"\S+")
_INT = re.compile(r"[+-]?[0-9]+")
CHECK_EVERY = 256
SizeCheck = Callable[[int, int], None]


@dataclass(frozen=True)
class Formula:
    """A CNF formula: the variable count of its 'p' line and its clauses as tuples of DIMACS literals."""

    variables: int
    clauses: Tuple[Tuple[int, ...], ...]
    source: str = "<string>"

    def satisfied_by(self, model: List[int]) -> bool:
        """Whether a model (a DIMACS literal for every variable) makes every clause true."""
        true = {lit for lit in model}
        return all(any(lit in true for lit in clause) for clause in self.clauses)


def _error(message: str, source: str, line: int, column: Optional[int], text: str) -> FormatError:
    return FormatError(message, source=source, line=line, column=column, line_text=text)


def _header(tokens: List[Tuple[int, str]], source: str, ln: int, line: str) -> Tuple[int, int]:
    """The variable and clause counts of a 'p cnf V C' line."""
    words = [w for _, w in tokens]
    if len(words) != 4 or words[1] != "cnf":
        col = tokens[1][0] if len(words) > 1 else len(line) + 1
        raise _error("the problem line must read 'p cnf VARIABLES CLAUSES'", source, ln, col, line)
    for col, word in tokens[2:]:
        if not word.isdigit():
            raise _error(f"{word!r} is not a whole number >= 0", source, ln, col, line)
    return int(words[2]), int(words[3])


def parse_formula(text: str, source: str = "<string>", check: Optional[SizeCheck] = None) -> Formula:
    """Read DIMACS CNF text; raises FormatError with the line and column of the first problem.

    `check(variables, clauses so far)` may refuse the formula early (see the module's docstring)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = _lines(text)   # one at a time: a list of 5 million lines took 300 MB before any check could run
    header: Optional[Tuple[int, int, int, str]] = None   # variables, clauses, line number, line
    clauses: List[Tuple[int, ...]] = []
    current: List[int] = []
    kept = 0   # clauses read that are no tautology, for `check`
    for ln, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped == "%":
            break
        if not stripped or stripped.startswith("c"):
            continue
        tokens = [(m.start() + 1, m.group()) for m in _TOKEN.finditer(line)]
        if tokens[0][1] == "p":
            if header is not None:
                raise _error("a second problem line", source, ln, tokens[0][0], line)
            header = (*_header(tokens, source, ln, line), ln, line)
            if check is not None:
                check(header[0], 0)
            continue
        for col, word in tokens:
            if header is None:
                raise _error("a clause before the problem line 'p cnf VARIABLES CLAUSES'", source, ln, col, line)
            if not _INT.fullmatch(word):
                raise _error(f"{word!r} is not a literal (a whole number, 0 ending the clause)", source, ln, col,
                             line)
            lit = int(word)
            if lit == 0:
                clauses.append(tuple(current))
                current = []
                if check is not None and not _tautology(clauses[-1]):
                    kept += 1
                    if kept % CHECK_EVERY == 0:
                        check(header[0], kept)
            elif abs(lit) > header[0]:
                raise _error(f"the literal {lit} names variable {abs(lit)}, but the problem line declares "
                             f"{header[0]}", source, ln, col, line)
            else:
                current.append(lit)
    if current:
        clauses.append(tuple(current))
    if header is None:
        every = text.split("\n")   # the error's line: the last one, or the one before a final newline
        last = len(every) if every[-1] else max(1, len(every) - 1)
        raise _error("no problem line 'p cnf VARIABLES CLAUSES'", source, last, 1, every[last - 1])
    variables, declared, ln, line = header
    if declared != len(clauses):
        raise _error(f"the problem line declares {declared} clauses, the file has {len(clauses)}", source, ln, 1,
                     line)
    return Formula(variables, tuple(clauses), source)


def _lines(text: str) -> Iterator[str]:
    """text.split("\n"), one line at a time."""
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def _tautology(clause: Tuple[int, ...]) -> bool:
    lits = set(clause)
    return any(-lit in lits for lit in lits)


def read_formula(path: PathLike, check: Optional[SizeCheck] = None) -> Formula:
    """Read a DIMACS CNF file ('-' for stdin); `check` as parse_formula's."""
    text, source = read_input(path)
    return parse_formula(text, source, check)
