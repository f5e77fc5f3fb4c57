"""Gurobi solution files: `.sol` (`name value` lines after `#` comments) and `.json` (non-zeros only)."""
from __future__ import annotations

import json

from ...core.errors import SolutionSyntaxError
from ..answer import Answer, named_answer, parse_value
from ..located_errors import error_at, json_item_offset, json_key_offset
from ..registry import CERTAIN, register_format

# Gurobi status codes (Status attribute): 2 OPTIMAL, 3 INFEASIBLE, 4 INF_OR_UNBD; the rest are limits
# or interruptions, where a kept solution (SolCount > 0) is still a solution
_INFEASIBLE = {3, 4}
_UNBOUNDED = {5}


def read_gurobi(text: str, source: str = "<string>") -> Answer:
    """Read `name value` lines; Gurobi writes no file at all without a solution, so values are required."""
    lines = text.splitlines()
    names, vals, where = [], [], []
    for ln, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        tok = s.split()
        if len(tok) != 2:
            raise SolutionSyntaxError("expected 'name value'", source=source, line=ln, line_text=line)
        names.append(tok[0])
        vals.append(parse_value(tok[1], source=source, line=ln, line_text=line))
        where.append(ln)
    if not names:
        raise SolutionSyntaxError("no variable values (Gurobi writes a .sol file only when it has a solution)",
                                  source=source)
    return named_answer(names, vals, where, format="gurobi", source=source, text=text)


def detect_gurobi(text: str) -> bool:
    """Gurobi's first comment line."""
    return text.lstrip().startswith(("# Solution for model", "# Objective value ="))


def read_gurobi_json(text: str, source: str = "<string>") -> Answer:
    """Read Gurobi's JSON solution: SolutionInfo.Status and the non-zero Vars."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SolutionSyntaxError(f"not valid JSON: {exc.msg} (truncated?)", source=source, line=exc.lineno,
                                  column=exc.colno) from None
    info = data.get("SolutionInfo") if isinstance(data, dict) else None
    if not isinstance(info, dict) or not isinstance(info.get("Status"), int):
        raise SolutionSyntaxError("no SolutionInfo.Status: not a Gurobi JSON solution", source=source)
    code = info["Status"]
    sols = info.get("SolCount", 0)
    if code in _INFEASIBLE:
        return Answer("infeasible", format="gurobi-json", source=source, text=text)
    if code in _UNBOUNDED or not sols or "Vars" not in data:
        return Answer("unknown", why=f"Gurobi status {code} without a solution", format="gurobi-json",
                      source=source, text=text)
    if not isinstance(data["Vars"], list):
        raise error_at(f"\"Vars\" must be a list of {{\"VarName\": ..., \"X\": ...}}, got "
                       f"{json.dumps(data['Vars'])[:40]}", text, json_key_offset(text, "Vars"), source,
                       SolutionSyntaxError)
    names, vals = [], []
    for i, v in enumerate(data["Vars"]):
        if not isinstance(v, dict) or not isinstance(v.get("VarName"), str) \
                or not isinstance(v.get("X"), (int, float)) or isinstance(v.get("X"), bool):
            raise error_at(f"bad entry {i} in Vars: {json.dumps(v)[:60]} (expected {{\"VarName\": name, "
                           "\"X\": number}})", text, json_item_offset(text, "Vars", i), source,
                           SolutionSyntaxError)
        names.append(v["VarName"])
        vals.append(float(v["X"]))
    why = "" if code == 2 else f"Gurobi status {code}; the solution it kept is checked"
    return named_answer(names, vals, [1] * len(names), why=why, sparse=True, format="gurobi-json",
                        source=source, text=text)


def detect_gurobi_json(text: str) -> bool:
    """A JSON object whose first key is SolutionInfo."""
    return text.lstrip().startswith("{") and '"SolutionInfo"' in text[:200]


register_format("gurobi", [], "solution", reader=read_gurobi, detect=detect_gurobi,
                description="Gurobi .sol: '# ...' comments, then name value")
register_format("gurobi-json", [], "solution", reader=read_gurobi_json, detect=detect_gurobi_json,
                detect_level=CERTAIN,
                description="Gurobi JSON solution (SolutionInfo + non-zero Vars)")
