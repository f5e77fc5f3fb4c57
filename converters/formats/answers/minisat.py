"""minisat's result file (`minisat in.cnf out.txt`): SAT / UNSAT / INDET, then one line of literals."""
from __future__ import annotations

from ...core.errors import SolutionSyntaxError
from ..answer import Answer, first_content_line, literal_answer, parse_literals
from ..registry import register_format

_STATUS = {"SAT": "solved", "UNSAT": "infeasible", "INDET": "unknown"}


def read_minisat(text: str, source: str = "<string>") -> Answer:
    """Read a minisat result file; the literal line must end with 0 (else it is truncated)."""
    lines = text.splitlines()
    first, word = first_content_line(text)
    if not word:
        raise SolutionSyntaxError("empty result file (minisat writes none after a parse error)", source=source)
    if word not in _STATUS:
        raise SolutionSyntaxError(f"unknown status {word!r} (expected SAT, UNSAT or INDET)", source=source,
                                  line=first, column=1, line_text=lines[first - 1])
    status = _STATUS[word]
    rest = [(i, ln, 0) for i, ln in enumerate(lines[first:], first + 1) if ln.strip()]
    if status != "solved":
        if rest:
            raise SolutionSyntaxError(f"unexpected text after {word}", source=source, line=rest[0][0],
                                      line_text=rest[0][1])
        why = "minisat stopped before an answer (INDET: a limit or an interrupt)" if status == "unknown" else ""
        return Answer(status, why=why, format="minisat", source=source, text=text)
    if not rest:
        raise SolutionSyntaxError("SAT but no literals: truncated?", source=source, line=first,
                                  line_text=lines[first - 1])
    lits, where, _ = parse_literals(rest, {"text": text, "source": source}, require_zero=True)
    return literal_answer(lits, where, format="minisat", source=source, text=text)


def detect_minisat(text: str) -> bool:
    """The first line is exactly SAT, UNSAT or INDET."""
    return first_content_line(text[:4096])[1] in _STATUS


register_format("minisat", [], "solution", reader=read_minisat, detect=detect_minisat,
                description="minisat result file: SAT/UNSAT/INDET then literals ending in 0")
