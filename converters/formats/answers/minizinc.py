"""MiniZinc's output for mineconv's model (`minizinc --solver gecode board.mzn`, with or without `-a`): each
solution ends with a `----------` line, `==========` says the search saw them all, `=====UNSATISFIABLE=====`
and `=====UNKNOWN=====` are the verdicts without one. A solution is the model's `grid: <row>` lines (every
cell, '*' mine) or, with `--output-mode json`, a JSON object of the cell variables by name. The first
solution is the answer; the count of them is kept.

`--json-stream` prints one JSON object a line instead (`{"type": "solution", "output": {"default": ...}}`,
`{"type": "status", "status": "ALL_SOLUTIONS"}`, warnings): it is read as the text it stands for. MiniZinc's
warnings on stderr ('Warning: ...' up to a blank line; the driver's one-line 'WARNING: ...', e.g. 2.10's
"Solver does not support all solutions" with CBC or HiGHS and -a), which `2>&1` puts before, between or
after the solutions, are skipped."""
from __future__ import annotations

import json
import re
from typing import List, Optional, Tuple

import numpy as np

from ...core.errors import SolutionSyntaxError
from ...core.fileio import line_of
from ...core.wording import plural
from ..answer import Answer, named_answer
from ..registry import CERTAIN, LIKELY, NO, register_format

SEPARATOR = "----------"
COMPLETE = "=========="
_VERDICTS = {"=====UNSATISFIABLE=====": "infeasible", "=====UNKNOWN=====": "unknown",
             "=====UNSATorUNBOUNDED=====": "infeasible"}
_ERROR = "=====ERROR====="
_ROW = re.compile(r"grid: ([?0-8*.]*)\Z")
_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"\s*:')


_STREAM_STATUS = {"ALL_SOLUTIONS": COMPLETE, "OPTIMAL_SOLUTION": COMPLETE, "UNSATISFIABLE": "=====UNSATISFIABLE=====",
                  "UNSAT_OR_UNBOUNDED": "=====UNSATorUNBOUNDED=====", "UNKNOWN": "=====UNKNOWN=====",
                  "ERROR": _ERROR}
_STREAM_START = re.compile(r'\s*\{\s*"type"\s*:\s*"')


def _from_stream(text: str, source: str) -> str:
    """The classic output a --json-stream output stands for (solutions ended by ----------, the verdict)."""
    out: List[str] = []
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _error(f"not a line of MiniZinc's --json-stream ({exc.msg})", source, text, ln) from None
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "solution":
            output = item.get("output")
            shown = output.get("default", output.get("raw")) if isinstance(output, dict) else None
            if not isinstance(shown, str) and isinstance(output, dict) and isinstance(output.get("json"), dict):
                shown = json.dumps(output["json"], indent=1) + "\n"
            if not isinstance(shown, str):
                raise _error("a solution without its printed output (default, raw or json)", source, text, ln)
            out += [*shown.splitlines(), SEPARATOR]
        elif kind == "status":
            verdict = _STREAM_STATUS.get(str(item.get("status")))
            if verdict is None:
                raise _error(f"unknown MiniZinc status {item.get('status')!r}", source, text, ln)
            out.append(verdict)
        elif kind == "error":
            raise _error(f"MiniZinc reported an error: {item.get('message', item.get('what', ''))}", source, text, ln)
        elif not isinstance(kind, str):
            raise _error("not a line of MiniZinc's --json-stream (no \"type\")", source, text, ln)
        # warnings, comments, statistics, timestamps, checker output: not the answer
    return "\n".join(out) + "\n"


def _error(message: str, source: str, text: str, line: Optional[int]) -> SolutionSyntaxError:
    return SolutionSyntaxError(message, source=source, line=line, line_text=line_of(text, line) if line else None)


def _solutions(text: str, source: str) -> Tuple[List[Tuple[int, List[str]]], Optional[str], int]:
    """(first line number and lines of each solution, the closing marker or None, its line)."""
    blocks: List[Tuple[int, List[str]]] = []
    current: List[str] = []
    start = 0
    marker: Optional[str] = None
    where = 0
    warning = False
    for ln, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not current and (warning or line.startswith("Warning: ")):
            warning = bool(line)   # MiniZinc's stderr warning, up to the blank line that ends it
            continue
        if not current and line.startswith("WARNING: "):
            continue   # the driver's one-line notes (2.10 with CBC or HiGHS and -a), wherever 2>&1 puts them
        if marker is not None:
            if line and not line.startswith("%"):
                raise _error(f"output after {marker}", source, text, ln)
            continue
        if line == SEPARATOR:
            if not current:
                raise _error("an empty solution (the model prints nothing?)", source, text, ln)
            blocks.append((start, current))
            current = []
            continue
        if line == COMPLETE or line in _VERDICTS or line == _ERROR:
            if current:
                raise _error(f"{line} before the solution printed above it ends with {SEPARATOR} (truncated?)",
                             source, text, ln)
            marker, where = line, ln
            continue
        if line.startswith("%") or (not line and not current):
            continue   # MiniZinc's comments (--output-time, statistics), blank lines between solutions
        if not current:
            start = ln
        current.append(raw)
    if current:
        raise _error(f"the last solution does not end with {SEPARATOR} (truncated?)", source, text, start)
    return blocks, marker, where


def _grid_answer(start: int, lines: List[str], source: str, text: str, count: int, why: str) -> Answer:
    rows: List[str] = []
    for i, line in enumerate(lines):
        m = _ROW.match(line.rstrip())
        if not m:
            raise _error("expected a 'grid: <row>' line of ? 0-8 * . (the output of mineconv's MiniZinc model)",
                         source, text, start + i)
        rows.append(m.group(1))
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            raise _error(f"a grid row of {plural(len(r), 'cell')} after rows of {width}", source, text, start + i)
    flat = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8) == ord("*")
    n = flat.size
    return Answer("solved", "index", np.arange(1, n + 1), flat.astype(np.float64),
                  np.repeat(np.arange(start, start + len(rows)), width), columns=n, format="minizinc-answer",
                  source=source, text=text, solutions=count, why=why)


def _json_answer(start: int, lines: List[str], source: str, text: str, count: int, why: str) -> Answer:
    body = "\n".join(lines)
    try:
        pairs = json.loads(body, object_pairs_hook=list)
    except json.JSONDecodeError as exc:
        raise _error(f"the solution is not valid JSON ({exc.msg})", source, text, start + exc.lineno - 1) from None
    if not isinstance(pairs, list) or (pairs and not isinstance(pairs[0], tuple)):
        raise _error("the JSON solution is not an object", source, text, start)
    # the line of each key, in order: MiniZinc prints one "name" : value per line
    key_lines = [start + body.count("\n", 0, m.start()) for m in _PAIR.finditer(body)]
    names: List[str] = []
    values: List[float] = []
    where: List[int] = []
    for i, (name, value) in enumerate(pairs):
        ln = key_lines[i] if i < len(key_lines) else start
        if name.startswith("_"):
            continue   # MiniZinc's own entries (_objective, _checker), not variables
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _error(f"{name} has the value {json.dumps(value)}, not a number", source, text, ln)
        names.append(name)
        values.append(float(value))
        where.append(ln)
    answer = named_answer(names, values, where, format="minizinc-answer", source=source, text=text)
    answer.solutions = count
    answer.why = why
    return answer


def read_minizinc(text: str, source: str = "<string>") -> Answer:
    """The first solution MiniZinc printed (grid rows or JSON, or its --json-stream), or its verdict when there
    is none."""
    if _STREAM_START.match(text):
        text = _from_stream(text, source)
    blocks, marker, where = _solutions(text, source)
    if marker == _ERROR:
        raise _error("MiniZinc reported an error (=====ERROR=====)", source, text, where)
    if not blocks:
        if marker is None:
            raise SolutionSyntaxError(f"no solution ({SEPARATOR}) and no verdict (=====UNSATISFIABLE===== ...): "
                                      "empty or truncated MiniZinc output", source=source)
        if marker == COMPLETE:
            raise _error(f"{COMPLETE} without a solution before it", source, text, where)
        status = _VERDICTS[marker]
        why = "" if status == "infeasible" else "MiniZinc answered =====UNKNOWN===== (a time limit?)"
        return Answer(status, why=why, format="minizinc-answer", source=source, text=text)
    if marker is not None and marker != COMPLETE:
        raise _error(f"{marker} after a solution", source, text, where)
    count = len(blocks)
    why = "" if count == 1 else f"MiniZinc printed {count} solutions" + (" (all)" if marker == COMPLETE else "") \
        + "; the first is the answer"
    start, lines = blocks[0]
    if lines[0].lstrip().startswith("{"):
        return _json_answer(start, lines, source, text, count, why)
    return _grid_answer(start, lines, source, text, count, why)


def detect_minizinc(text: str) -> float:
    """MiniZinc's verdict lines are its own; a '----------' after grid rows or a JSON object is likely it."""
    head = text[:1 << 16]
    if _STREAM_START.match(head) and re.search(r'"type"\s*:\s*"(solution|status)"', head):
        return CERTAIN
    while head.startswith(("Warning: ", "WARNING: ")):   # stderr put first by 2>&1
        # 'Warning:' is a paragraph up to a blank line, the driver's 'WARNING:' one line
        end = "\n\n" if head.startswith("Warning: ") else "\n"
        head = head.split(end, 1)[1] if end in head else ""
    if any(("\n" + v) in ("\n" + head) for v in (*_VERDICTS, COMPLETE, _ERROR)):
        return CERTAIN
    if ("\n" + SEPARATOR + "\n") in ("\n" + head + "\n") and (head.startswith("grid: ") or head.lstrip().startswith("{")):
        return LIKELY
    return NO


register_format("minizinc-answer", [], "solution", reader=read_minizinc, detect=detect_minizinc,
                aliases=("minizinc-output",),
                description="MiniZinc output of mineconv's model: 'grid:' rows or --output-mode json, "
                            "----------, ==========, =====UNSATISFIABLE=====, =====UNKNOWN=====")
