"""glpsol's printable report (`glpsol ... -o FILE`, also HiGHS' glpsol-pretty style): named columns."""
from __future__ import annotations

import re

from ...core.errors import SolutionSyntaxError
from ...core.wording import plural
from ..answer import Answer, named_answer, parse_value
from ..registry import register_format

_STATUS = {
    "INTEGER OPTIMAL": "solved",
    "INTEGER NON-OPTIMAL": "solved",       # a feasible integer solution, optimality not proven
    "INTEGER EMPTY": "infeasible",
    "INTEGER UNDEFINED": "unknown",
    "OPTIMAL": "solved",
    "FEASIBLE": "solved",
    "INFEASIBLE (FINAL)": "infeasible",
    "EMPTY": "infeasible",
    "INFEASIBLE (INTERMEDIATE)": "unknown",
    "UNBOUNDED": "unknown",
    "UNDEFINED": "unknown",
}
# what sits between a column's name and its activity: '*' (integer column) or an LP basis status
_MARKERS = {"*", "B", "NL", "NU", "NF", "NS"}
_DETECT = re.compile(r"^Status:\s+\S.*\n(?:.*\n)?^Objective:", re.M)


def read_glpsol_report(text: str, source: str = "<string>") -> Answer:
    """Read the header's Status and the column table (names longer than 12 characters wrap a line)."""
    lines = text.splitlines()
    status_word = None
    status_line = 0
    ncols = None
    for ln, line in enumerate(lines[:12], 1):
        if line.startswith("Status:"):
            status_word, status_line = line[7:].strip(), ln
        elif line.startswith("Columns:"):
            m = re.match(r"Columns:\s+([0-9]+)", line)
            ncols = int(m.group(1)) if m else None
    if status_word is None:
        raise SolutionSyntaxError("no 'Status:' line: not a glpsol report", source=source)
    if status_word not in _STATUS:
        raise SolutionSyntaxError(f"unknown status {status_word!r}", source=source, line=status_line,
                                  line_text=lines[status_line - 1])
    status = _STATUS[status_word]
    if status != "solved":
        why = "" if status == "infeasible" else f"glpsol reports {status_word}"
        return Answer(status, why=why, format="glpsol-report", source=source, text=text)
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s+No\.\s+Column name", ln)), None)
    if start is None or start + 1 >= len(lines) or not lines[start + 1].startswith("------"):
        raise SolutionSyntaxError("no column table (truncated?)", source=source, line=len(lines))
    names, vals, where = [], [], []
    i = start + 2
    while i < len(lines) and lines[i].strip():
        ln = i + 1
        line = lines[i]
        tok = line.split()
        if not (tok[0].isascii() and tok[0].isdigit()) or len(tok) < 2:
            raise SolutionSyntaxError("bad line in the column table", source=source, line=ln, line_text=line)
        name = tok[1]
        rest = tok[2:]
        if not rest:  # a long name sits alone; the numbers follow on the next line
            i += 1
            if i >= len(lines) or not lines[i].strip():
                raise SolutionSyntaxError(f"column {name} has no values (truncated?)", source=source, line=ln,
                                          line_text=line)
            rest = lines[i].split()
        if rest and rest[0] in _MARKERS:
            rest = rest[1:]
        if not rest:
            raise SolutionSyntaxError(f"column {name} has no activity", source=source, line=i + 1,
                                      line_text=lines[i])
        names.append(name)
        vals.append(parse_value(rest[0], source=source, line=i + 1, line_text=lines[i]))
        where.append(ln)
        i += 1
    if ncols is not None and len(names) != ncols:
        raise SolutionSyntaxError(f"the header announces {plural(ncols, 'column')} but the table lists {len(names)} "
                                  "(truncated?)", source=source, line=i)
    if not any(ln.startswith("End of output") for ln in lines[i:]):
        raise SolutionSyntaxError("the report does not end with 'End of output' (truncated?)", source=source,
                                  line=len(lines))
    return named_answer(names, vals, where, format="glpsol-report", source=source, text=text)


def detect_glpsol_report(text: str) -> bool:
    """The report header: a 'Status:' line followed by 'Objective:'."""
    head = text[:4096]
    return head.lstrip().startswith("Problem:") and bool(_DETECT.search(head))


register_format("glpsol-report", [], "solution", reader=read_glpsol_report, detect=detect_glpsol_report,
                aliases=("glpsol-o", "glpsol-output"),
                description="glpsol -o printable report (HiGHS glpsol-pretty style too)")
