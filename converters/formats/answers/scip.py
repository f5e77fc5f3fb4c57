"""SCIP's solution file (`write solution`): `objective value:` then non-zero `name value (obj:..)` lines."""
from __future__ import annotations

import re

from ...core.errors import SolutionSyntaxError
from ..answer import Answer, named_answer, parse_value
from ..registry import register_format

_LINE = re.compile(r"\s*(\S+)\s+(\S+)(?:\s+\(obj:[^)]*\))?\s*$")


def read_scip(text: str, source: str = "<string>") -> Answer:
    """Only non-zero variables are listed, so the answer is sparse (absent means 0)."""
    lines = text.splitlines()
    body = [(i, ln) for i, ln in enumerate(lines, 1) if ln.strip()]
    if not body:
        raise SolutionSyntaxError("empty solution file", source=source)
    if body[0][1].strip() == "no solution available":
        # SCIP writes this when it ended without a feasible solution: infeasible, as captured
        return Answer("infeasible", why="SCIP found no feasible solution", format="scip", source=source,
                      text=text)
    names, vals, where = [], [], []
    seen_objective = False
    for ln, line in body:
        s = line.strip()
        if s.startswith("solution status:"):
            if "infeasible" in s:
                return Answer("infeasible", format="scip", source=source, text=text)
            continue
        if s.startswith("objective value:"):
            seen_objective = True
            continue
        m = _LINE.match(line)
        if not m or not seen_objective:
            raise SolutionSyntaxError("expected 'name value (obj:...)' after 'objective value:'", source=source,
                                      line=ln, line_text=line)
        names.append(m.group(1))
        vals.append(parse_value(m.group(2), source=source, line=ln, line_text=line))
        where.append(ln)
    if not seen_objective:
        raise SolutionSyntaxError("no 'objective value:' line", source=source)
    return named_answer(names, vals, where, sparse=True, format="scip", source=source, text=text)


def detect_scip(text: str) -> bool:
    """SCIP's first line."""
    first = text.lstrip().split("\n", 1)[0].strip()
    return first.startswith(("objective value:", "solution status:")) or first == "no solution available"


register_format("scip", [], "solution", reader=read_scip, detect=detect_scip, aliases=("scip-sol",),
                description="SCIP solution file (non-zero variables only)")
