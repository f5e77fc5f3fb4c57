"""lp_solve's printed result (`lp_solve -S3`/`-S4` stdout): 'Actual values of the variables:' block."""
from __future__ import annotations

import re

from ...core.errors import SolutionSyntaxError
from ..answer import Answer, named_answer, parse_value
from ..registry import register_format

_MESSAGES = {
    "This problem is infeasible": ("infeasible", ""),
    "This problem is unbounded": ("unknown", "lp_solve reports the problem unbounded"),
}


def read_lp_solve(text: str, source: str = "<string>") -> Answer:
    """Read the variables block; names may be long, so each line is split on its last blank run."""
    lines = text.splitlines()
    for line in lines:
        s = line.strip()
        if s in _MESSAGES:
            status, why = _MESSAGES[s]
            return Answer(status, why=why, format="lp_solve", source=source, text=text)
    start = next((i for i, ln in enumerate(lines) if ln.strip() == "Actual values of the variables:"), None)
    if start is None:
        raise SolutionSyntaxError("no 'Actual values of the variables:' block and no infeasible/unbounded "
                                  "message: not lp_solve output, or truncated", source=source)
    names, vals, where = [], [], []
    j = start + 1
    while j < len(lines) and lines[j].strip():
        line = lines[j]
        if line.startswith("Actual values of the constraints"):
            break
        m = re.match(r"\s*(\S+)\s+(\S+)\s*$", line)
        if not m:
            raise SolutionSyntaxError("expected 'name value'", source=source, line=j + 1, line_text=line)
        names.append(m.group(1))
        vals.append(parse_value(m.group(2), source=source, line=j + 1, line_text=line))
        where.append(j + 1)
        j += 1
    # plain `lp_solve file` ends right after this block, so a cut between two whole lines cannot be seen
    # here; decode_answer then finds the constrained variables that are missing
    why = ""
    if any("sub-optimal" in ln.lower() or "suboptimal" in ln.lower() for ln in lines[:start]):
        why = "lp_solve reports a sub-optimal solution; it is checked"
    return named_answer(names, vals, where, why=why, format="lp_solve", source=source, text=text)


def detect_lp_solve(text: str) -> bool:
    """lp_solve's banner lines."""
    head = text[:4096]
    return "Actual values of the variables:" in head or head.strip() in _MESSAGES \
        or bool(re.match(r"\s*Value of objective function:", head))


register_format("lp_solve", [], "solution", reader=read_lp_solve, detect=detect_lp_solve,
                aliases=("lpsolve", "lp-solve"),
                description="lp_solve -S3/-S4 printed result (Actual values of the variables)")
