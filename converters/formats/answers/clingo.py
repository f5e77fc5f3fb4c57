"""clingo's (and clasp's, after gringo) output for mineconv's ASP program: the text form (`Answer: 1`, the
line of shown atoms, then `SATISFIABLE` / `UNSATISFIABLE` / `UNKNOWN`) and `--outf=2` JSON (`"Result"`,
`"Call": [{"Witnesses": [{"Value": [...]}]}]`). The program shows `mine(R,C)` (1-based, known mines
included), which is the cell variable x[R,C]; every other atom is refused. The first model is the answer."""
from __future__ import annotations

import json
import re
from typing import Any, List, Optional, Tuple

import numpy as np

from ...core.errors import SolutionSyntaxError
from ...core.fileio import line_of
from ..answer import Answer
from ..registry import CERTAIN, NO, register_format

_RESULTS = {"SATISFIABLE": "solved", "OPTIMUM FOUND": "solved", "UNSATISFIABLE": "infeasible", "UNKNOWN": "unknown"}
# clingo 5.6+ (PyPI's `python -m clingo` 5.8 among them) adds the time: `Answer: 1 (Time: 0.016s)`
_ANSWER = re.compile(r"Answer: (\d+)(?: \(Time: [0-9.]+s\))?\Z")
_MINE = re.compile(r"mine\((\d+),(\d+)\)\Z")
# Debian's clingo 5.4 says `clingo version 5.4.1`; the PyPI build says `pyclingo version 5.8.3`
_BANNER = re.compile(r"(py)?(clingo|clasp) version \S+")


def _error(message: str, source: str, text: str, line: Optional[int], column: Optional[int] = None
           ) -> SolutionSyntaxError:
    return SolutionSyntaxError(message, source=source, line=line, column=column,
                               line_text=line_of(text, line) if line else None)


def _atoms(atoms: List[Tuple[str, int, Optional[int]]], source: str, text: str) -> Tuple[List[str], List[int]]:
    """x[R,C] names of the mine(R,C) atoms; any other atom is an error at its line."""
    names: List[str] = []
    lines: List[int] = []
    for atom, ln, col in atoms:
        m = _MINE.match(atom)
        if not m:
            raise _error(f"unexpected atom {atom!r} (mineconv's program shows only mine(R,C))", source, text,
                         ln or None, col)
        names.append(f"x[{int(m.group(1))},{int(m.group(2))}]")
        lines.append(ln)
    return names, lines


def _answer(status: str, why: str, names: List[str], lines: List[int], count: int, source: str, text: str,
            fmt: str) -> Answer:
    if status != "solved":
        return Answer(status, why=why, format=fmt, source=source, text=text)
    # only the shown (true) atoms are listed: every other cell is safe
    return Answer("solved", "name", names, np.ones(len(names)), np.asarray(lines, dtype=np.int64), sparse=True,
                  format=fmt, source=source, text=text, solutions=count,
                  why="" if count <= 1 else f"clingo printed {count} models; the first is the answer")


def _read_json(text: str, source: str) -> Answer:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _error(f"not valid JSON ({exc.msg}; truncated?)", source, text, exc.lineno, exc.colno) from None
    if not isinstance(data, dict) or not isinstance(data.get("Result"), str):
        raise SolutionSyntaxError("clingo JSON output needs a \"Result\"", source=source)
    word = data["Result"]
    if word not in _RESULTS:
        raise SolutionSyntaxError(f"unknown clingo result {word!r}", source=source)
    status = _RESULTS[word]
    witnesses: List[Any] = []  # JSON values, checked before use
    for call in data.get("Call", []) or []:
        if isinstance(call, dict):
            witnesses.extend(call.get("Witnesses", []) or [])
    if status != "solved":
        return _answer(status, "" if status == "infeasible" else "clingo answered UNKNOWN (a time limit?)",
                       [], [], 0, source, text, "clingo-answer")
    if not witnesses or not isinstance(witnesses[0], dict) or not isinstance(witnesses[0].get("Value"), list):
        raise SolutionSyntaxError("SATISFIABLE, but no witness with a \"Value\" list (truncated?)", source=source)
    where = text.find('"Value"')
    ln = text.count("\n", 0, where) + 1 if where >= 0 else 0
    atoms: List[Tuple[str, int, Optional[int]]] = [(str(a), ln, None) for a in witnesses[0]["Value"]]
    names, lines = _atoms(atoms, source, text)
    return _answer(status, "", names, lines, len(witnesses), source, text, "clingo-answer")


def read_clingo(text: str, source: str = "<string>") -> Answer:
    """The first model clingo (or clasp) printed, or its verdict."""
    if text.lstrip().startswith("{"):
        return _read_json(text, source)
    lines = text.splitlines()
    first: Optional[List[Tuple[str, int, Optional[int]]]] = None
    count = 0
    result: Optional[str] = None
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        m = _ANSWER.match(line)
        if m:
            if result is not None:
                raise _error(f"a model after {result}", source, text, i + 1)
            if i + 1 >= len(lines):
                raise _error(f"{line} without its line of atoms (truncated?)", source, text, i + 1)
            count += 1
            if first is None:
                atoms_line = lines[i + 1]
                first = [(a.group(), i + 2, a.start() + 1) for a in re.finditer(r"\S+", atoms_line)]
            i += 2
            continue
        if line in _RESULTS:
            if result is not None:
                raise _error(f"a second result line ({line} after {result})", source, text, i + 1)
            result = line
        i += 1
    if result is None:
        raise SolutionSyntaxError("no SATISFIABLE / UNSATISFIABLE / UNKNOWN line: truncated, or not clingo's output",
                                  source=source, line=len(lines) or None)
    status = _RESULTS[result]
    if status == "solved":
        if first is None:
            raise SolutionSyntaxError(f"{result}, but no 'Answer:' model before it (truncated?)", source=source)
        names, where = _atoms(first, source, text)
        return _answer(status, "", names, where, count, source, text, "clingo-answer")
    if first is not None:
        raise SolutionSyntaxError(f"{result} after a model", source=source)
    why = "" if status == "infeasible" else "clingo answered UNKNOWN (a time limit?)"
    return _answer(status, why, [], [], 0, source, text, "clingo-answer")


def detect_clingo(text: str) -> float:
    """clingo's or clasp's banner line (not clasp's 'c '-prefixed competition output), or its JSON 'Solver'."""
    head = text[:4096]
    if _BANNER.match(head) and ("\nSolving..." in head or "\nReading from" in head):
        return CERTAIN
    if head.lstrip().startswith("{") and re.search(r'"Solver"\s*:\s*"(py)?(clingo|clasp) version', head):
        return CERTAIN
    return NO


register_format("clingo-answer", [], "solution", reader=read_clingo, detect=detect_clingo,
                aliases=("clingo-output", "clasp-asp-answer"),
                description="clingo / clasp output of mineconv's ASP program (text or --outf=2 JSON): "
                            "Answer: N, mine(R,C) atoms, SATISFIABLE / UNSATISFIABLE / UNKNOWN")
