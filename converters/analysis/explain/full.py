"""Level full of explain: a proof by contradiction with a SAT solver, naming a small set of counts.

The backbone (every cell all solutions agree on) is found once; each step then proves the backbone cell
whose proof names the fewest counts (`proofs.Prover`), with the other cells the same counts prove.
"""
from __future__ import annotations

import numpy as np

from ...core.wording import plural
from ..cellstate import SAFE, UNDECIDED
from ..levels.backbone import full_backbone
from ..levels.propagation import Contradiction
from .state import WalkState
from .steps import and_list
from .words import cells_text, count_name


def full_step(s: WalkState) -> bool:
    """One backbone cell no cheaper rule reaches, with the smallest set of counts found to prove it."""
    if s.backbone is None:
        values, _, _ = full_backbone(s.puzzle, None, s.system, known=s.val[1:].copy(),
                                     bounds=s.bounds)
        if values is None:
            fail_sat(s)
            raise Contradiction()
        s.backbone = values
    targets = np.flatnonzero((s.backbone != UNDECIDED) & (s.val[1:] == UNDECIDED)) + 1
    if targets.size == 0:
        return False
    proofs = []
    for x in targets.tolist():
        b = int(s.backbone[x - 1])
        core, total = s.prover.core(s.decided_lits(), x, b)
        proofs.append(((len(core) + total, x), x, b, core, total))
    _, x, b, core, total = min(proofs, key=lambda proof: proof[0])
    # the other targets the same counts prove, each by its own contradiction, join this step
    forced = [(x, b)]
    for y in targets.tolist():
        if y != x and s.backbone[y - 1] == b:
            if s.prover.also_proves(s.decided_lits(), x, y, b):
                forced.append((y, b))
    cells = cells_text(s, [y for y, _ in forced])
    if len(forced) == 1:
        value = "is safe" if b == SAFE else "is a mine"
        other = "it were a mine" if b == SAFE else "it were safe"
    else:
        value = "are safe" if b == SAFE else "are mines"
        other = "any of them were a mine" if b == SAFE else "any of them were safe"
    named = [count_name(s, ci) for ci in core]
    if total:
        named.append(f"the total of {plural(s.total_shown, 'mine')}")
    text = f"{cells} {value}: if {other}, no arrangement of mines would satisfy {and_list(named)}"
    s.apply("full", forced, core, total, text)
    return True


def fail_sat(s: WalkState) -> None:
    """The board has no solution: name a small set of counts that contradict each other."""
    cons, total = s.prover.core(s.decided_lits(), None, SAFE)
    named = [count_name(s, ci) for ci in cons]
    if total:
        named.append(f"the total of {plural(s.total_shown, 'mine')}")
    s.consistent = False
    s.conflict_because = tuple(s.clue(ci) for ci in cons)
    s.conflict_total = total
    s.conflict = f"no arrangement of mines satisfies {and_list(named)} together"
