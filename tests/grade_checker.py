"""The independent grade checker (issue 14), shared by test_grade.py and test_design.py: what each
consistency level decides, written from the level definitions alone (brute force over every group of
1-3 counts), not from mineconv.analysis."""
from __future__ import annotations

import itertools
from typing import Dict, List, Optional, Tuple

from helpers import brute_force
from mineconv import Puzzle

Cell = Tuple[int, int]


def _constraints(p: Puzzle) -> List[Tuple[frozenset, int]]:
    """Each revealed count as (its unknown neighbours, the mines among them), from the rules alone."""
    out = []
    for r in range(p.rows):
        for c in range(p.cols):
            n = p.count(r, c)
            if n is None:
                continue
            around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < p.rows and 0 <= c + dc < p.cols]
            known = sum(p[rc] == "*" for rc in around)
            cells = frozenset(rc for rc in around if p[rc] == "?")
            if cells:
                out.append((cells, n - known))
    return out


def _forced(group: List[Tuple[frozenset, int]], val: Dict[Cell, int]) -> Optional[Dict[Cell, int]]:
    """Cells taking one value in every joint solution of the group (given val); None: no joint solution."""
    cells = sorted({x for vs, _ in group for x in vs if x not in val})
    seen: Dict[Cell, set] = {x: set() for x in cells}
    any_solution = False
    for bits in itertools.product((0, 1), repeat=len(cells)):
        a = dict(zip(cells, bits))
        if all(sum(val.get(x, a.get(x, 0)) for x in vs) == n for vs, n in group):
            any_solution = True
            for x, b in a.items():
                seen[x].add(b)
    if not any_solution:
        return None
    return {x: next(iter(s)) for x, s in seen.items() if len(s) == 1}


def checker_fixpoint(p: Puzzle, level: str) -> Optional[Dict[Cell, int]]:
    """What a level decides, by its definition: gac = each count alone and the total alone; 2rc/3rc also
    every 2/3 counts linked through open cells, joined by brute force; to a fixed point. None: contradiction."""
    cons = _constraints(p)
    unknown = p.unknown_cells
    size = {"gac": 1, "2rc": 2, "3rc": 3}[level]
    val: Dict[Cell, int] = {}
    total = None if p.mines is None else p.mines - p.known_mine_count
    while True:
        before = dict(val)
        for m in range(1, size + 1):
            for group in itertools.combinations(cons, m):
                opens = [vs - val.keys() for vs, _ in group]
                if m > 1 and not _connected(opens):
                    continue
                forced = _forced(list(group), val)
                if forced is None:
                    return None
                val.update(forced)
        if total is not None:
            left = total - sum(val.values())
            free = [x for x in unknown if x not in val]
            if left < 0 or left > len(free):
                return None
            if left in (0, len(free)):
                val.update({x: int(left > 0) for x in free})
        if val == before:
            return val


def _connected(opens: List[frozenset]) -> bool:
    """Whether the groups' open cells link them into one chain (each shares a cell with another)."""
    reached = {0}
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(opens):
            if i not in reached and any(s & opens[j] for j in reached):
                reached.add(i)
                changed = True
    return len(reached) == len(opens)


def expected_grade(p: Puzzle) -> Tuple[Optional[str], Dict[str, int], int]:
    """(level, decided per level, solution count) from the checker and brute force."""
    sols = brute_force(p)
    n = len(sols)
    k = p.unknown_count
    decided: Dict[str, int] = {}
    level = None
    for lv in ("gac", "2rc", "3rc"):
        fix = checker_fixpoint(p, lv)
        if fix is None:
            return None, {}, 0
        decided[lv] = len(fix)
        if level is None and len(fix) == k and n:
            level = lv
    if n:
        decided["full"] = int(((sols.all(axis=0)) | (~sols.any(axis=0))).sum())
        if level is None and n == 1:
            level = "full"
    return level, decided, n
