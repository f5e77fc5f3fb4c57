"""OR-Tools CP-SAT's response: a CpSolverResponse in protobuf text format (`print(solver.response_proto)`:
`status: OPTIMAL`, then `solution: 0` per variable, or `solution: [0, 1, ...]`) or its JSON form
(`{"status": "OPTIMAL", "solution": ["0", "1"]}`). Solution entry i is the model's variable index i, which
in mineconv's to_cpsat model is DIMACS id i + 1 (the unknown cells in row-major order)."""
from __future__ import annotations

import json
import re
from typing import List, Optional

import numpy as np

from ...core.errors import SolutionSyntaxError
from ...core.fileio import line_of
from ..answer import Answer
from ..registry import CERTAIN, NO, register_format

_STATUS = {"OPTIMAL": "solved", "FEASIBLE": "solved", "INFEASIBLE": "infeasible", "UNKNOWN": "unknown"}
_FIELD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(:?)\s*(.*?)\s*\Z")
_FIRST = re.compile(r'\s*(\{\s*"status"\s*:\s*"|status:\s*)(OPTIMAL|FEASIBLE|INFEASIBLE|UNKNOWN|MODEL_INVALID)\b')


def _answer(status: str, values: List[int], lines: Optional[List[int]], source: str, text: str,
            where: Optional[int]) -> Answer:
    """The Answer for a status word and the solution list."""
    if status == "MODEL_INVALID":
        raise SolutionSyntaxError("CP-SAT called the model invalid (MODEL_INVALID): not a model mineconv wrote?",
                                  source=source, line=where, line_text=line_of(text, where) if where else None)
    if status not in _STATUS:
        raise SolutionSyntaxError(f"unknown CP-SAT status {status!r} (expected OPTIMAL, FEASIBLE, INFEASIBLE, "
                                  "UNKNOWN)", source=source, line=where,
                                  line_text=line_of(text, where) if where else None)
    verdict = _STATUS[status]
    if verdict != "solved":
        if values:
            raise SolutionSyntaxError(f"a solution after status {status}", source=source, line=where)
        return Answer(verdict, why="" if verdict == "infeasible" else "CP-SAT stopped without an answer "
                      "(UNKNOWN: a time limit?)", format="cpsat-response", source=source, text=text)
    # keyed by column index with the count given: a response for a model with more or fewer variables
    # than the puzzle has unknown cells is refused, total or not (ids would let extra ones pass as auxiliary)
    ids = np.arange(1, len(values) + 1, dtype=np.int64)
    return Answer("solved", "index", ids, np.asarray(values, dtype=np.float64),
                  None if lines is None else np.asarray(lines, dtype=np.int64), columns=len(values),
                  format="cpsat-response", source=source, text=text)


def _int(token: str, source: str, ln: Optional[int], text: str) -> int:
    try:
        return int(token.strip().strip('"'))
    except ValueError:
        raise SolutionSyntaxError(f"{token.strip()!r} is not an integer value", source=source, line=ln,
                                  line_text=line_of(text, ln) if ln else None) from None


def _read_json(text: str, source: str) -> Answer:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SolutionSyntaxError(f"not valid JSON ({exc.msg}; truncated?)", source=source, line=exc.lineno,
                                  column=exc.colno, line_text=line_of(text, exc.lineno)) from None
    if not isinstance(data, dict) or "status" not in data:
        raise SolutionSyntaxError("a CP-SAT JSON response needs a \"status\"", source=source)
    sol = data.get("solution", [])
    if not isinstance(sol, list):
        raise SolutionSyntaxError("\"solution\" is not a list", source=source)
    values = [_int(str(v), source, None, text) for v in sol]
    return _answer(str(data["status"]), values, None, source, text, None)


def read_cpsat(text: str, source: str = "<string>") -> Answer:
    """Read a CpSolverResponse (text format or JSON): the status and the solution values."""
    if text.lstrip().startswith("{"):
        return _read_json(text, source)
    status: Optional[str] = None
    where: Optional[int] = None
    values: List[int] = []
    lines: List[int] = []
    depth = 0
    for ln, line in enumerate(text.splitlines(), 1):
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        if depth:   # a nested message of another field (e.g. tightened_variables { ... }): not ours
            depth += body.count("{") - body.count("}")
            continue
        m = _FIELD.match(body)
        if not m:
            raise SolutionSyntaxError("expected 'field: value' (a CpSolverResponse in text format)",
                                      source=source, line=ln, line_text=line)
        name, colon, value = m.groups()
        if value.startswith("{") or (not colon and value.startswith("{")):
            depth = value.count("{") - value.count("}")
            continue
        if not colon:
            raise SolutionSyntaxError(f"field {name!r} without ':'", source=source, line=ln, line_text=line)
        if name == "status":
            if status is not None:
                raise SolutionSyntaxError("a second status", source=source, line=ln, line_text=line)
            status, where = value, ln
        elif name == "solution":
            if status is None:
                raise SolutionSyntaxError("a solution value before the status", source=source, line=ln,
                                          line_text=line)
            if value.startswith("["):
                if not value.endswith("]"):
                    raise SolutionSyntaxError("the solution list is not closed (truncated?)", source=source,
                                              line=ln, line_text=line)
                items = [v for v in value[1:-1].split(",") if v.strip()]
                values.extend(_int(v, source, ln, text) for v in items)
                lines.extend([ln] * len(items))
            else:
                values.append(_int(value, source, ln, text))
                lines.append(ln)
    if depth:
        raise SolutionSyntaxError("a nested message is never closed (truncated?)", source=source)
    if status is None:
        raise SolutionSyntaxError("no 'status:' line: not a CP-SAT response", source=source)
    return _answer(status, values, lines, source, text, where)


def detect_cpsat(text: str) -> float:
    """A response starts with its status (text format or JSON)."""
    return CERTAIN if _FIRST.match(text[:256]) else NO


register_format("cpsat-response", [], "solution", reader=read_cpsat, detect=detect_cpsat, aliases=("cp-sat",),
                description="OR-Tools CP-SAT CpSolverResponse (text format or JSON): status and solution values")
