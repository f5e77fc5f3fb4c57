"""glpsol's terminal output for mineconv's MathProg model (`glpsol -m board.mod`): the `grid:` rows it
prints after solving, and its verdict line when there is no solution."""
from __future__ import annotations

import re

import numpy as np

from ...core.errors import SolutionSyntaxError
from ...core.wording import plural
from ..answer import Answer
from ..registry import CERTAIN, register_format

_INFEASIBLE = ("PROBLEM HAS NO PRIMAL FEASIBLE SOLUTION", "PROBLEM HAS NO INTEGER FEASIBLE SOLUTION",
               "LP RELAXATION HAS NO PRIMAL FEASIBLE SOLUTION")
_STOPPED = ("TIME LIMIT EXCEEDED", "SEARCH TERMINATED", "MEMORY LIMIT EXCEEDED")
_ROW = re.compile(r"grid: ([?0-8*.]*)\s*$")


def read_glpsol_grid(text: str, source: str = "<string>") -> Answer:
    """Rows of `grid: <symbols>` ('*' mine) make an all-cells answer; no rows needs glpsol's verdict."""
    lines = text.splitlines()
    rows, where = [], []
    for ln, line in enumerate(lines, 1):
        if line.startswith("grid:"):
            m = _ROW.match(line)
            if not m:
                raise SolutionSyntaxError("a grid row holds something other than ? 0-8 * .", source=source,
                                          line=ln, line_text=line)
            rows.append(m.group(1))
            where.append(ln)
    if not rows:
        if any(ln.strip().startswith(_INFEASIBLE) for ln in lines):
            return Answer("infeasible", format="glpsol-grid", source=source, text=text)
        stop = next((ln.strip() for ln in lines if ln.strip().startswith(_STOPPED)), None)
        if stop:
            return Answer("unknown", why=f"glpsol: {stop}", format="glpsol-grid", source=source, text=text)
        raise SolutionSyntaxError("no 'grid:' rows and no verdict from glpsol: truncated, or not the output of "
                                  "mineconv's MathProg model", source=source)
    if not any(ln.startswith("Model has been successfully processed") for ln in lines[where[-1]:]):
        raise SolutionSyntaxError("the output stops before 'Model has been successfully processed' "
                                  "(truncated?)", source=source, line=len(lines))
    width = len(rows[0])
    for r, ln in zip(rows, where):
        if len(r) != width:
            raise SolutionSyntaxError(f"a grid row of {plural(len(r), 'cell')} after rows of {width}", source=source,
                                      line=ln, line_text=lines[ln - 1])
    flat = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8) == ord("*")
    n = flat.size
    cell_lines = np.repeat(np.asarray(where), width)
    return Answer("solved", "index", np.arange(1, n + 1), flat.astype(np.float64), cell_lines, columns=n,
                  format="glpsol-grid", source=source, text=text)


def detect_glpsol_grid(text: str) -> bool:
    """glpsol's banner with 'grid:' rows or a MathProg run's verdict."""
    head = text[:1 << 16]
    if not head.startswith("GLPSOL"):
        return False
    return "\ngrid: " in head or ("Reading model section" in head and any(w in head for w in _INFEASIBLE))


register_format("glpsol-grid", [], "solution", reader=read_glpsol_grid, detect=detect_glpsol_grid,
                detect_level=CERTAIN,
                description="glpsol -m output of mineconv's MathProg model: the 'grid:' rows it prints")
