"""The one place that decides how cells are named in solver files, and maps names back."""
from __future__ import annotations

import re
from typing import Optional, Tuple

_VAR_RE = re.compile(r"x(\d+)_(\d+)\Z")


def var_name(r: int, c: int) -> str:
    """Name of the variable of unknown cell (r, c), 0-based: legal in LP, MPS, MathProg and SMT-LIB."""
    return f"x{r}_{c}"


def con_name(r: int, c: int) -> str:
    """Name of the constraint of revealed cell (r, c), 0-based."""
    return f"c{r}_{c}"


def parse_var_name(name: str) -> Optional[Tuple[int, int]]:
    """(r, c) of a name made by var_name, or None."""
    m = _VAR_RE.match(name)
    return (int(m.group(1)), int(m.group(2))) if m else None


TOTAL_CONSTRAINT = "total"  # short enough for fixed MPS (8 characters)
