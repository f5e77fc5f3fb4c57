"""XCSP3 instance writer (.xml): the CSP interchange format of the XCSP competitions (ACE, Choco, ...).

`<var id="x<row>_<col>"> 0 1 </var>` per unknown cell, one `<sum>` with condition `(eq,n)` per revealed cell
with an unknown neighbour (or whose count cannot be met), in row-major order, the total last when given. A
sum needs a variable: when there is no unknown cell, or a count has nothing unknown around it, the variable
`zero` (domain 0) carries it, as the linear formats' placeholder column does. The mineconv header sits in an
XML comment before the root element, one `# ` line each.
"""
from __future__ import annotations

from typing import Any, List, Optional, TextIO

from ...core.naming import VAR_FORM
from ...core.puzzle import Puzzle
from ...core.system import build_system
from ...encode.linear import PLACEHOLDER, constraint_rows, rows_prose
from ..header import write_header
from ..registry import register_format
from .mzn import comment_safe

TITLE = "XCSP3"
NAMES_PER_LINE = 10
BATCH = 10000


def _sum(names: List[str], rhs: int) -> str:
    """One <sum> element over `names` (ten to a line) equal to rhs."""
    body = "\n        ".join(" ".join(names[i:i + NAMES_PER_LINE]) for i in range(0, len(names), NAMES_PER_LINE))
    return f"    <sum>\n      <list> {body} </list>\n      <condition> (eq,{rhs}) </condition>\n    </sum>\n"


def write_xcsp(puzzle: Puzzle, out: TextIO, *, mines: Optional[int] = None, **_: Any) -> None:
    """Write the puzzle as an XCSP3 CSP instance."""
    system = build_system(puzzle, mines)
    k = system.num_vars
    names = system.var_name_list
    rows = constraint_rows(system).tolist()
    lens = system.con_len.tolist()
    rhs = system.con_rhs.tolist()
    cons = system.con_vars
    placeholder = k == 0 or any(lens[i] == 0 for i in rows)
    extra = [f"cell variables are {VAR_FORM} with domain 0 1; " + rows_prose("sum", named=False)]
    if system.total is not None:
        extra.append(f"last sum: the {k} cell variables sum to {system.total} (mines left to place)")
    if placeholder:
        extra.append(f"the variable {PLACEHOLDER} (domain 0) carries a sum with no cell variable")
    extra.append("run: java -jar ACE.jar FILE.xml (ACE ships with the pycsp3 package), or any XCSP3 solver")
    out.write("<!--\n")
    write_header(out, comment_safe(puzzle, "--", "- -"), system, "#", TITLE, extra)
    out.write("-->\n")
    out.write('<instance format="XCSP3" type="CSP">\n  <variables>\n')
    out.write("".join(f'    <var id="{n}"> 0 1 </var>\n' for n in names))
    if placeholder:
        out.write(f'    <var id="{PLACEHOLDER}"> 0 </var>\n')
    out.write("  </variables>\n  <constraints>\n")
    parts = []
    for i in rows:
        ids = cons[i, :lens[i]].tolist()
        parts.append(_sum([names[v - 1] for v in ids] or [PLACEHOLDER], rhs[i]))
        if len(parts) == BATCH:   # written in batches: the whole text of a large board never sits in memory
            out.write("".join(parts))
            parts = []
    out.write("".join(parts))
    if system.total is not None:
        out.write(_sum(names or [PLACEHOLDER], system.total))
    out.write("  </constraints>\n</instance>\n")


def _detect(text: str) -> bool:
    return text.startswith("<!--\n# mineconv ") and '<instance format="XCSP3"' in text[:1 << 20]


register_format("xcsp", writer=write_xcsp, detect=_detect,
                description="XCSP3 CSP instance (ACE from pycsp3, Choco): a 0..1 variable per unknown cell, "
                            "a <sum> per revealed cell",
                write_options=("mines",))
