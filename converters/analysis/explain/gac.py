"""Level gac of explain: one count on its own, then the total mine count; and the board that fails at once.

Each function takes the walk's state, records at most one step through `WalkState.apply`, and raises
Contradiction (the conflict named on the state) when the counts cannot be met.
"""
from __future__ import annotations

import numpy as np

from ...core.wording import plural
from ..cellstate import MINE, SAFE, UNDECIDED
from ..levels.propagation import Contradiction
from .state import WalkState
from .steps import and_list, cell_name
from .words import cells_text, count_name, needs


def initial_conflict(s: WalkState) -> bool:
    """A count no assignment can meet, or a total out of range: the board has no solution at all."""
    bad = np.flatnonzero(s.system.impossible)
    if bad.size:
        ci = int(bad[0])
        fail_count(s, ci, s.rhs[ci], len(s.cvars[ci]))
        return True
    if s.total is not None and not 0 <= s.total <= s.system.num_vars:
        s.consistent = False
        s.conflict_total = True
        s.conflict = (f"the board must hold {plural(s.total_shown, 'mine')}, but "
                         f"{plural(s.puzzle.known_mine_count, 'mine is', 'mines are')} given and "
                         f"{plural(s.system.num_vars, 'unknown cell')} left")
        return True
    return False


def fail_count(s: WalkState, ci: int, need: int, left: int) -> None:
    s.consistent = False
    s.conflict_because = (s.clue(ci),)
    if need < 0:
        s.conflict = f"{count_name(s, ci)} has {plural(s.shown[ci] - need, 'mine')} around it, too many"
    else:
        s.conflict = (f"{count_name(s, ci)} {needs(s, ci, need)} but has only "
                         f"{plural(left, 'unknown neighbour')} left")


def gac_step(s: WalkState, ci: int) -> None:
    """One count on its own: all its unknown neighbours are mines, or it already has its mines."""
    und, need = s.open_of(ci)
    if need < 0 or need > len(und):
        fail_count(s, ci, need, len(und))
        raise Contradiction()
    if not und or 0 < need < len(und):
        return
    name = count_name(s, ci)
    cells = cells_text(s, und)
    if need == 0:
        mines = s.mines_around(ci)
        verb = "is" if len(und) == 1 else "are"
        if not mines:
            text = f"{cells} {verb} safe: {name} has no mine around it"
        elif len(mines) == 1:
            text = f"{cells} {verb} safe: {name} already has its mine at {cell_name(*mines[0])}"
        else:
            text = (f"{cells} {verb} safe: {name} already has its {len(mines)} mines at "
                    f"{and_list([cell_name(*m) for m in mines])}")
        s.apply("gac", [(x, SAFE) for x in und], [ci], False, text)
        return
    mines = s.mines_around(ci)
    if len(und) == 1:
        head = f"{cells} is a mine"
        only = f"{cells} is its only unknown neighbour left"
    else:
        head = f"{cells} are mines"
        only = f"it has exactly {len(und)} unknown neighbours left"
    if mines:
        why = (f"{name} has {plural(len(mines), 'mine')} at {and_list([cell_name(*m) for m in mines])} and "
               f"needs {need} more, and {only}")
    else:
        why = f"{name} needs {plural(need, 'mine')} and {only}"
    s.apply("gac", [(x, MINE) for x in und], [ci], False, f"{head}: {why}")


def total_step(s: WalkState) -> bool:
    """The total mine count: every mine found (the rest is safe) or every open cell needed."""
    if s.total is None:
        return False
    # the counters first: scanning the board at every call would make the loop quadratic
    placed, left = s.placed, s.total - s.placed
    if 0 < left < s.free or (s.free == 0 and left == 0):
        return False
    free = np.flatnonzero(s.val[1:] == UNDECIDED) + 1
    if left < 0 or left > free.size:
        s.consistent = False
        s.conflict_total = True
        found = s.total_shown - s.total + placed
        s.conflict = (f"the board must hold {plural(s.total_shown, 'mine')}, but "
                         + (f"{found} are found already" if left < 0 else
                            f"only {found} are found and {plural(free.size, 'unknown cell')} "
                            f"{'is' if free.size == 1 else 'are'} left"))
        raise Contradiction()
    if free.size == 0 or 0 < left < free.size:
        return False
    cells = cells_text(s, free.tolist())
    found = s.total_shown - left
    if left == 0:
        verb = "is" if free.size == 1 else "are"
        every = "it is found" if s.total_shown == 1 else "all of them are found"
        text = f"{cells} {verb} safe: the board has {plural(s.total_shown, 'mine')} and {every}"
        forced = [(int(x), SAFE) for x in free]
    else:
        verb = "is a mine" if free.size == 1 else "are mines"
        text = (f"{cells} {verb}: the board has {plural(s.total_shown, 'mine')}, {found} "
                f"{'is' if found == 1 else 'are'} found, and exactly {plural(left, 'unknown cell')} "
                f"{'is' if left == 1 else 'are'} left")
        forced = [(int(x), MINE) for x in free]
    s.apply("gac", forced, [], True, text)
    return True
