"""glpsol's raw solution file (`glpsol ... --write FILE`, also HiGHS' glpsol-raw style): numbered columns."""
from __future__ import annotations

import re

import numpy as np

from ...core.errors import SolutionSyntaxError
from ...core.fileio import ascii_int
from ...core.wording import plural
from ..answer import Answer, parse_value
from ..registry import register_format

# status letters per solution kind (GLPK manual, glp_write_mip / glp_write_sol / glp_write_ipt)
_MIP = {"o": "solved", "f": "solved", "n": "infeasible", "u": "unknown"}
_BAS = {"f": "solved", "i": "infeasible", "n": "infeasible", "u": "unknown"}
_IPT = {"o": "solved", "f": "solved", "i": "infeasible", "n": "infeasible", "u": "unknown"}
_KINDS = {"mip": (_MIP, 1), "bas": (_BAS, 2), "ipt": (_IPT, 1)}  # letters, index of the value in a j line
_WHY = {"u": "glpsol reports the solution as undefined (a limit hit, or an LP the presolver gave up on: "
             "try --nopresol)"}
_DETECT = re.compile(r"^s (mip|bas|ipt) [0-9]+ [0-9]+ ", re.M)


def read_glpsol_raw(text: str, source: str = "<string>") -> Answer:
    """Read `s`, `i`, `j`, `e o f` records; every column 1..n must appear once and the file must end."""
    lines = text.splitlines()
    kind = None
    ncols = 0
    status = "unknown"
    letter = ""
    cols: list = []
    vals: list = []
    where: list = []
    ended = False
    for ln, line in enumerate(lines, 1):
        tok = line.split()
        if not tok or tok[0] == "c":
            continue
        if ended:
            raise SolutionSyntaxError("text after 'e o f'", source=source, line=ln, line_text=line)
        rec = tok[0]
        if rec == "s":
            if kind is not None or len(tok) < 5 or tok[1] not in _KINDS:
                raise SolutionSyntaxError("bad or repeated solution line (expected s mip|bas|ipt ROWS COLS ...)",
                                          source=source, line=ln, line_text=line)
            kind = tok[1]
            try:
                ncols = ascii_int(tok[3])
            except ValueError:
                raise SolutionSyntaxError(f"{tok[3]!r} is not a column count", source=source, line=ln,
                                          line_text=line) from None
            letters = _KINDS[kind][0]
            letter = tok[4]
            if letter not in letters:
                raise SolutionSyntaxError(f"unknown status {letter!r} for a {kind} solution", source=source,
                                          line=ln, line_text=line)
            status = letters[letter]
        elif rec == "i":
            if kind is None:
                raise SolutionSyntaxError("a row line before the 's' line", source=source, line=ln, line_text=line)
        elif rec == "j":
            if kind is None:
                raise SolutionSyntaxError("a column line before the 's' line", source=source, line=ln,
                                          line_text=line)
            at = _KINDS[kind][1]
            if len(tok) < at + 2:
                raise SolutionSyntaxError("short column line (truncated?)", source=source, line=ln, line_text=line)
            try:
                cols.append(ascii_int(tok[1]))
            except ValueError:
                raise SolutionSyntaxError(f"{tok[1]!r} is not a column number", source=source, line=ln,
                                          line_text=line) from None
            vals.append(parse_value(tok[at + 1], source=source, line=ln, line_text=line))
            where.append(ln)
        elif rec == "e" and tok[1:] == ["o", "f"]:
            ended = True
        else:
            raise SolutionSyntaxError(f"unknown record {rec!r} (expected c, s, i, j or e o f)", source=source,
                                      line=ln, line_text=line)
    if kind is None:
        raise SolutionSyntaxError("no 's' solution line: not a glpsol --write file", source=source)
    if not ended and (status == "solved" or cols or any(ln.startswith("i ") for ln in lines)):
        # HiGHS' glpsol-raw style stops after the 's' line when there is no solution; anything else
        # without the end marker was cut short
        raise SolutionSyntaxError("the file does not end with 'e o f' (truncated?)", source=source,
                                  line=len(lines), line_text=lines[-1] if lines else None)
    if len(cols) != ncols and (cols or status == "solved"):
        raise SolutionSyntaxError(f"the 's' line announces {plural(ncols, 'column')} but {len(cols)} are listed",
                                  source=source, line=where[-1] if where else None)
    if status != "solved":
        return Answer(status, why=_WHY.get(letter, ""), format="glpsol-raw", source=source, text=text)
    return Answer("solved", "index", np.asarray(cols, dtype=np.int64), np.asarray(vals), np.asarray(where),
                  columns=ncols, format="glpsol-raw", source=source, text=text)


def detect_glpsol_raw(text: str) -> bool:
    """An `s mip|bas|ipt ROWS COLS` line."""
    return bool(_DETECT.search(text[:1 << 16]))


register_format("glpsol-raw", [".raw"], "solution", reader=read_glpsol_raw, detect=detect_glpsol_raw,
                aliases=("glpsol-write",),
                description="glpsol --write raw solution (numbered columns; HiGHS glpsol-raw style too)")
