"""How an explanation's sentences name counts, cells and what a step decides."""
from __future__ import annotations

from typing import Sequence, Tuple

from ...core.wording import plural
from ..cellstate import MINE, SAFE
from .state import WalkState
from .steps import and_list, cell_name


def needs(s: WalkState, ci: int, n: int) -> str:
    """'needs 2 mines' or, with mines already around the count, 'needs 2 more mines'."""
    return f"needs {plural(n, 'more mine' if s.mines_around(ci) else 'mine')}"


def count_name(s: WalkState, ci: int) -> str:
    """'the 3 at (2, 5)': count ci as its sentences name it."""
    r, c = s.crc[ci]
    return f"the {s.shown[ci]} at {cell_name(r, c)}"


def cells_text(s: WalkState, xs: Sequence[int]) -> str:
    """'(0, 3), (0, 4) and (1, 2)': cells given by variable, row-major."""
    return and_list([cell_name(*s.rc[x]) for x in sorted(xs)])


def head(s: WalkState, forced: Sequence[Tuple[int, int]]) -> str:
    """'(1, 2) is safe and (0, 3) and (0, 4) are mines'."""
    parts = []
    for value, one, many in ((SAFE, "is safe", "are safe"), (MINE, "is a mine", "are mines")):
        xs = [x for x, b in forced if b == value]
        if xs:
            parts.append(f"{cells_text(s, xs)} {one if len(xs) == 1 else many}")
    return " and ".join(parts)
