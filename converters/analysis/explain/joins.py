"""Levels 2rc and 3rc of explain: two or three linked counts together, and the sentence each step reads as.

A pair's sentence follows the reasoning a player uses (the subset rule, or the shared cells' mines pinned
between an at-most and an at-least); a triple's says that every way to satisfy the three agrees.
"""
from __future__ import annotations

from typing import Tuple

from ...core.wording import plural
from ..cellstate import MINE, SAFE, UNDECIDED
from ..levels.propagation import Contradiction, join_forced
from .state import WalkState
from .steps import and_list
from .words import cells_text, count_name, head, needs


def group_step(s: WalkState, group: Tuple[int, ...]) -> bool:
    """Two or three linked counts together; a step when they force a cell no single count does."""
    s.group_pending[len(group)].discard(group)
    current = [s.open_of(ci) for ci in group]
    if any(not vs for vs, _ in current):
        return False  # a member is closed: a single count (gac) handles it
    try:
        forced = [(x, b) for x, b in join_forced(current) if s.val[x] == UNDECIDED]
    except Contradiction:
        s.consistent = False
        s.conflict_because = tuple(s.clue(ci) for ci in group)
        s.conflict = (f"{and_list([count_name(s, ci) for ci in group])} cannot all be satisfied: "
                         "no way to place their mines fits them together")
        raise
    if not forced:
        return False
    level = "2rc" if len(group) == 2 else "3rc"
    if len(group) == 2:
        text = pair_text(s, group, current, forced)
    else:
        text = triple_text(s, group, forced)
    s.apply(level, forced, group, False, text)
    return True


def pair_text(s: WalkState, group: Tuple[int, ...], current, forced) -> str:
    """Subset / difference reasoning on two counts: their shared cells hold a fixed number of mines."""
    (va, na), (vb, nb) = current
    a, b = group
    shared = sorted(set(va) & set(vb))
    only = {a: sorted(set(va) - set(vb)), b: sorted(set(vb) - set(va))}
    need = {a: na, b: nb}
    lo = max(0, na - len(only[a]), nb - len(only[b]))
    hi = min(len(shared), na, nb)
    if lo != hi:  # two counts force a cell only when their shared cells' mines are pinned
        return (f"{head(s, forced)}: {count_name(s, a)} and {count_name(s, b)} together leave "
                "no other way")
    t = lo
    decided = {x for x, _ in forced}
    then = []
    for ci in (a, b):
        rest, cells = need[ci] - t, only[ci]
        if not cells or not decided & set(cells):
            continue
        if rest == 0:
            then.append(f"{count_name(s, ci)} has no mine left for {cells_text(s, cells)}")
        else:
            mines = "mine" if rest == 1 else f"{rest} mines"
            then.append(f"{count_name(s, ci)} must have its other {mines} on {cells_text(s, cells)}")
    if decided & set(shared):
        verb = ("is" if len(shared) == 1 else "are all") + (" safe" if t == 0 else " mines" if len(shared) > 1
                                                            else " a mine")
        then.append(f"{cells_text(s, shared)} {verb}")
    inner = [ci for ci in (a, b) if not only[ci]]
    if inner:
        # one count's open cells lie inside the other's: the classic subset rule
        sub = inner[0]
        big = b if sub == a else a
        return (f"{head(s, forced)}: {count_name(s, sub)} {needs(s, sub, need[sub])} among "
                f"{cells_text(s, shared)}, all of which {count_name(s, big)} also touches, so "
                f"{and_list(then)}")
    up = [ci for ci in (a, b) if need[ci] == hi]
    if up:
        at_most = f"{count_name(s, up[0])} {needs(s, up[0], hi).replace('needs', 'needs only')}"
    else:
        at_most = f"there are only {len(shared)} of them"
    down = [ci for ci in (a, b) if need[ci] - len(only[ci]) == lo][0]
    at_least = (f"{count_name(s, down)} {needs(s, down, need[down])} and has only "
                f"{plural(len(only[down]), 'other unknown neighbour')}")
    return (f"{head(s, forced)}: {count_name(s, a)} and {count_name(s, b)} share "
            f"{cells_text(s, shared)}, which hold exactly {plural(t, 'mine')} (at most {t}: {at_most}; "
            f"at least {t}: {at_least}), so {and_list(then)}")


def triple_text(s: WalkState, group: Tuple[int, ...], forced) -> str:
    """Three linked counts: every way to give each its mines agrees on the forced cells."""
    names = and_list([count_name(s, ci) for ci in group])
    safe = [x for x, b in forced if b == SAFE]
    mine = [x for x, b in forced if b == MINE]
    agree = []
    if safe:
        agree.append(f"none puts a mine on {cells_text(s, safe)}")
    if mine:
        agree.append(f"every one puts a mine on {cells_text(s, mine)}")
    return (f"{head(s, forced)}: taken together, {names} can be satisfied in several ways, and "
            f"{' and '.join(agree)}")
