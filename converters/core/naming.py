"""The one place that decides how cells are named in solver files, and maps names back.

A variable (unknown cell) is `x<row>_<col>`, a constraint (revealed cell) `c<row>_<col>`, both 0-based. The
string form (var_name, con_name), the one regex that reads a variable name back (VAR_RE), and the pieces
the bulk text engine assembles names from (name_pieces) all come from the constants below.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

VAR_PREFIX = "x"
CON_PREFIX = "c"
SEPARATOR = "_"
VAR_FORM = f"{VAR_PREFIX}<row>{SEPARATOR}<col>"   # how the headers' prose spells the rule
CON_FORM = f"{CON_PREFIX}<row>{SEPARATOR}<col>"
VAR_RE = re.compile(re.escape(VAR_PREFIX) + r"(\d+)" + re.escape(SEPARATOR) + r"(\d+)\Z")

TOTAL_CONSTRAINT = "total"  # short enough for fixed MPS (8 characters)


def var_name(r: int, c: int) -> str:
    """Name of the variable of unknown cell (r, c), 0-based: legal in LP, MPS, MathProg and SMT-LIB."""
    return f"{VAR_PREFIX}{r}{SEPARATOR}{c}"


def con_name(r: int, c: int) -> str:
    """Name of the constraint of revealed cell (r, c), 0-based."""
    return f"{CON_PREFIX}{r}{SEPARATOR}{c}"


def parse_var_name(name: str) -> Optional[Tuple[int, int]]:
    """(r, c) of a name made by var_name, or None."""
    m = VAR_RE.match(name)
    return (int(m.group(1)), int(m.group(2))) if m else None


def name_pieces(prefix: str, before: str = "", after: str = "") -> Tuple[object, ...]:
    """The pieces of '<before><prefix><row>_<col><after>' for the bulk engine's cell_items ("r" and "c"
    stand for the cell's row and column numbers)."""
    return ((before + prefix).encode("ascii"), "r", SEPARATOR.encode("ascii"), "c", after.encode("ascii"))
