"""CBC's solution file (`cbc model.lp solve solu FILE`): a status line, then `index name value reduced-cost`."""
from __future__ import annotations

import re
from typing import List

from ...core.errors import SolutionSyntaxError
from ..answer import Answer, named_answer, parse_value
from ..registry import register_format

_HEAD = re.compile(r"^(?P<phrase>.*?) - objective value (?P<obj>\S+)\s*$")
# matched by prefix: stopped runs carry extra text, e.g. "(no integer solution - continuous used)"
_PHRASES = (
    ("Optimal", "solved"),
    ("Integer infeasible", "infeasible"),
    ("Infeasible", "infeasible"),
    ("Unbounded", "unknown"),
    ("Stopped on", "stopped"),
    ("Status unknown", "unknown"),
)


def read_cbc(text: str, source: str = "<string>") -> Answer:
    """Read a CBC `solu` file; with `printingOptions all` the row block comes first and is skipped."""
    lines = text.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise SolutionSyntaxError("empty solution file (CBC writes none when the model did not load)",
                                  source=source)
    head = lines[first].strip()
    m = _HEAD.match(head)
    phrase = m.group("phrase") if m else head
    status = next((st for p, st in _PHRASES if phrase.startswith(p)), None)
    if m is None or status is None:
        raise SolutionSyntaxError(f"unknown status line {head!r} (expected e.g. 'Optimal - objective value 0')",
                                  source=source, line=first + 1, line_text=lines[first])
    if status == "stopped":
        status = "unknown" if "no integer solution" in phrase else "solved"
    if status != "solved":
        # CBC still lists (meaningless) values after Infeasible: the status decides
        why = "" if status == "infeasible" else f"CBC reports {phrase!r}"
        return Answer(status, why=why, format="cbc", source=source, text=text)
    names: List[str] = []
    vals: List[float] = []
    where: List[int] = []
    last_index = -1
    blocks, gaps = 1, False
    for ln in range(first + 2, len(lines) + 1):
        line = lines[ln - 1]
        tok = line.split()
        if not tok:
            continue
        if tok[0] == "**":  # CBC flags values that break a bound or row with '**'
            tok = tok[1:]
        elif tok[0].startswith("**"):
            tok[0] = tok[0][2:]
        if len(tok) != 4 or not (tok[0].isascii() and tok[0].isdigit()):
            raise SolutionSyntaxError("expected 'index name value reduced-cost' (truncated?)", source=source,
                                      line=ln, line_text=line)
        index = int(tok[0])
        if index <= last_index:
            if blocks == 2:
                raise SolutionSyntaxError(f"index {index} out of order", source=source, line=ln, line_text=line)
            # the block so far listed the rows (printingOptions all); the columns start again
            names, vals, where = [], [], []
            blocks, gaps = 2, False
        elif index != last_index + 1:
            gaps = True  # by default CBC lists only the non-zero columns of a larger model
        last_index = index
        names.append(tok[1])
        vals.append(parse_value(tok[2], source=source, line=ln, line_text=line))
        parse_value(tok[3], source=source, line=ln, line_text=line)
        where.append(ln)
    why = "" if phrase.startswith("Optimal") else f"CBC reports {phrase!r}; the solution it kept is checked"
    # with gaps the listing holds the non-zeros only: an absent column is 0 (a cut-off tail can then not
    # be told apart, but the counts it breaks still fail verification)
    return named_answer(names, vals, where, why=why, sparse=gaps, format="cbc", source=source, text=text)


def detect_cbc(text: str) -> bool:
    """The first line is '<status> - objective value <number>'."""
    first = text.lstrip().split("\n", 1)[0]
    return bool(_HEAD.match(first.strip()))


register_format("cbc", [], "solution", reader=read_cbc, detect=detect_cbc, aliases=("cbc-solu",),
                description="CBC solution file: status line, then index name value reduced-cost")
