"""A pysat model list as printed by Python (`print(solver.get_model())`): `[1, -2, 3]`, or `None`."""
from __future__ import annotations

import re

from ...core.errors import SolutionSyntaxError
from ...core.fileio import locate
from ..answer import Answer, literal_answer
from ..registry import POSSIBLE, register_format

_LIST = re.compile(r"\s*\[([\s0-9,+-]*)\]\s*\Z")


def read_pysat(text: str, source: str = "<string>") -> Answer:
    """A list of signed ints is a model; `None`/`null` (what get_model() gives after UNSAT) is infeasible."""
    body = text.strip()
    if body in ("None", "null"):
        return Answer("infeasible", format="pysat", source=source, text=text)
    m = _LIST.match(text)
    if not m:
        pos = len(text) - len(text.lstrip())
        bad = re.search(r"[^\s0-9,+\-\[\]]", text)
        if body.startswith("[") and not body.endswith("]"):
            line, col, lt = locate(text, len(text.rstrip()))
            raise SolutionSyntaxError("the list is not closed with ']' (truncated?)", source=source, line=line,
                                      column=col, line_text=lt)
        line, col, lt = locate(text, bad.start() if bad else pos)
        raise SolutionSyntaxError("not a pysat model list like [1, -2, 3] (or None)", source=source, line=line,
                                  column=col, line_text=lt)
    lits = []
    start = m.start(1)
    for tok in re.finditer(r"[^,]+", m.group(1)):
        t = tok.group().strip()
        if not t:
            continue
        try:
            v = int(t)
        except ValueError:
            v = 0
        if v == 0 or not re.fullmatch(r"[+-]?[0-9]+", t):
            line, col, lt = locate(text, start + tok.start())
            raise SolutionSyntaxError(f"{t!r} is not a literal (a non-zero integer)", source=source, line=line,
                                      column=col, line_text=lt)
        lits.append(v)
    if not lits and re.search(r"[0-9]", m.group(1)):
        raise SolutionSyntaxError("not a pysat model list", source=source)
    line = locate(text, start)[0]
    return literal_answer(lits, [line] * len(lits), format="pysat", source=source, text=text)


def detect_pysat(text: str) -> bool:
    """A bracketed list of integers."""
    return bool(_LIST.match(text[:1 << 16])) if len(text) <= 1 << 16 else text.lstrip().startswith("[")


register_format("pysat", [], "solution", reader=read_pysat, detect=detect_pysat,
                detect_level=POSSIBLE,
                description="pysat model list: [1, -2, 3, ...] (None when unsatisfiable)")
