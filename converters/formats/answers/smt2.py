"""SMT-LIB2 solver output (z3, cvc5, ...): `sat`/`unsat`/`unknown`, then `(get-model)` and/or `(get-value)`."""
from __future__ import annotations

import re
from typing import List, Tuple, Union

from ...core.errors import SolutionSyntaxError
from ...core.fileio import locate
from ..answer import Answer, named_answer
from ..registry import register_format

_TOKEN = re.compile(r'\s+|;[^\n]*|\(|\)|"(?:[^"]|"")*"|\|[^|]*\||[^\s()";|]+')
_STATUS = {"sat": "solved", "unsat": "infeasible", "unknown": "unknown", "timeout": "unknown"}

Sexp = Union[str, list]


def _parse(text: str, source: str) -> List[Tuple[Sexp, int]]:
    """Top-level s-expressions with the offset where each starts; unbalanced text is an error."""
    out: List[Tuple[Sexp, int]] = []
    stack: List[Tuple[list, int]] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        if m.start() != pos:
            break
        pos = m.end()
        tok = m.group()
        if tok[0].isspace() or tok[0] == ";":
            continue
        if tok == "(":
            stack.append(([], m.start()))
        elif tok == ")":
            if not stack:
                line, col, lt = locate(text, m.start())
                raise SolutionSyntaxError("unbalanced ')'", source=source, line=line, column=col, line_text=lt)
            done, at = stack.pop()
            (stack[-1][0].append(done) if stack else out.append((done, at)))
        else:
            sym = tok[1:-1] if tok[0] == "|" else tok
            (stack[-1][0].append(sym) if stack else out.append((sym, m.start())))
    if pos != len(text):
        line, col, lt = locate(text, pos)
        raise SolutionSyntaxError("unexpected character", source=source, line=line, column=col, line_text=lt)
    if stack:
        line, col, lt = locate(text, stack[-1][1])
        raise SolutionSyntaxError("this '(' is never closed (truncated?)", source=source, line=line, column=col,
                                  line_text=lt)
    return out


def _value(term: Sexp) -> Union[float, None]:
    """A literal value: integers, decimals, (- n), (/ a b), true/false; None for anything else."""
    if isinstance(term, str):
        if term in ("true", "false"):
            return 1.0 if term == "true" else 0.0
        try:
            return float(term)
        except ValueError:
            return None
    if len(term) == 2 and term[0] == "-":
        v = _value(term[1])
        return None if v is None else -v
    if len(term) == 3 and term[0] == "/":
        a, b = _value(term[1]), _value(term[2])
        return None if a is None or b in (None, 0.0) else a / b
    return None


def read_smt2(text: str, source: str = "<string>") -> Answer:
    """Read the status word and every constant the model or get-value defines."""
    items = _parse(text, source)
    if not items:
        raise SolutionSyntaxError("empty output", source=source)
    first, at = items[0]
    if not isinstance(first, str) or first not in _STATUS:
        line, col, lt = locate(text, at)
        raise SolutionSyntaxError(f"unknown status {first if isinstance(first, str) else '(...)'!r} (expected "
                                  "sat, unsat or unknown)", source=source, line=line, column=col, line_text=lt)
    status = _STATUS[first]
    if status != "solved":
        # after unsat, z3 answers (get-model) with (error "... model is not available"): expected
        why = "" if status == "infeasible" else f"the solver answered {first}"
        return Answer(status, why=why, format="smt2-model", source=source, text=text)
    names: List[str] = []
    vals: List[float] = []
    where: List[int] = []

    def add(name: str, value: Sexp, offset: int) -> None:
        v = _value(value)
        line, col, lt = locate(text, offset)
        if v is None:
            raise SolutionSyntaxError(f"{name} has no literal value", source=source, line=line, line_text=lt)
        names.append(name)
        vals.append(v)
        where.append(line)

    saw_model = False
    for item, at in items[1:]:
        if isinstance(item, str):
            line, col, lt = locate(text, at)
            raise SolutionSyntaxError(f"unexpected {item!r} after the status", source=source, line=line,
                                      column=col, line_text=lt)
        if item and item[0] == "error":
            line, col, lt = locate(text, at)
            raise SolutionSyntaxError(f"the solver reported an error: {' '.join(map(str, item[1:]))}",
                                      source=source, line=line, column=col, line_text=lt)
        body = item[1:] if item and item[0] == "model" else item   # older z3 wrapped the model in (model ...)
        saw_model = True
        for entry in body:
            if isinstance(entry, list) and entry and entry[0] == "define-fun" and len(entry) == 5:
                _, name, args, sort, value = entry
                if args:
                    continue  # a function, not a constant
                if sort == "Bool" and _value(value) is None:
                    continue  # a :named assertion label, defined as its formula
                add(name, value, at)
            elif isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str):
                add(entry[0], entry[1], at)  # (get-value) pair
            else:
                line, col, lt = locate(text, at)
                raise SolutionSyntaxError("expected (define-fun name () Sort value) or (name value)",
                                          source=source, line=line, column=col, line_text=lt)
    if not saw_model:
        # an empty model '()' is right for a puzzle without unknown cells; no model at all is not
        raise SolutionSyntaxError("sat, but no model or values follow (truncated?)", source=source)
    return named_answer(names, vals, where, format="smt2-model", source=source, text=text)


def detect_smt2(text: str) -> bool:
    """The first word is sat/unsat/unknown and s-expressions follow (or nothing)."""
    s = text.lstrip()
    m = re.match(r"(sat|unsat|unknown)\s*(\(|\Z)", s[:64])
    return bool(m)


register_format("smt2-model", [], "solution", reader=read_smt2, detect=detect_smt2, aliases=("z3", "smt"),
                description="SMT-LIB2 solver output: status, (get-model) define-funs and/or (get-value) pairs")
