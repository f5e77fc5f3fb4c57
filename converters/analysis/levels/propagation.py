"""Local consistency on the count constraints: what a human can infer (Bayer, Snyder & Choueiry).

Levels, each including the ones before it, iterated to a fixed point:

- ``gac``: each count constraint alone (generalised arc consistency on a sum of 0/1 variables: a count
  whose unknown neighbours must all be mines, or all be safe). The total mine count, when given, is one
  more such constraint over every unknown cell.
- ``2rc`` / ``3rc``: relational consistency on the join of every 2 / 3 count constraints that share
  undecided cells (a connected group): a cell takes one value in every joint solution of the group.

Every rule is sound: it only decides a cell that takes that value in every solution of the puzzle. The
complete answer (the backbone, level ``full``) comes from `backbone`, beside it in levels/.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import numpy as np

from ...core.bounds import UNBOUNDED, AnalysisTimeout, Bounds
from ...core.deprecated_calls import callable_list
from ...core.errors import InputError
from ...core.puzzle import Puzzle
from ...core.system import LinearSystem, build_system
from ..cellstate import MINE, SAFE, UNDECIDED

LEVELS = ("gac", "2rc", "3rc")


@dataclass(frozen=True)
class Propagation:
    """What a propagation level decided: values[i] for variable i + 1 is -1 (undecided), 0 safe or 1 mine."""

    system: LinearSystem
    level: str
    values: np.ndarray      # (k,) int8
    consistent: bool        # False when the level proved that no solution exists
    # sweeps that decided at least one cell: a gac sweep reads every open count once, a relational
    # sweep joins every open group once; a student's "rounds" of looking over the whole board
    rounds: int = 0

    @property
    def safe_cells(self) -> List[Tuple[int, int]]:
        """Cells decided safe, row-major."""
        return callable_list(map(tuple, self.system.var_rc[self.values == SAFE].tolist()), "Propagation.safe_cells")

    @property
    def mine_cells(self) -> List[Tuple[int, int]]:
        """Cells decided to be mines, row-major."""
        return callable_list(map(tuple, self.system.var_rc[self.values == MINE].tolist()), "Propagation.mine_cells")

    @property
    def decided(self) -> int:
        """How many unknown cells the level decides."""
        return int((self.values != UNDECIDED).sum())


class Contradiction(Exception):
    """Raised inside propagation (and explain) when the constraints admit no solution."""


def propagate(puzzle: Puzzle, level: str = "gac", mines: Optional[int] = None,
              system: Optional[LinearSystem] = None, fixed: Optional[np.ndarray] = None,
              bounds: Bounds = UNBOUNDED) -> Propagation:
    """Run a propagation level to its fixed point; `fixed` (k,) int8 pre-decides cells (-1 = open).

    Past the deadline of `bounds` it raises AnalysisTimeout carrying the cells decided so far.
    """
    if level not in LEVELS:
        raise InputError(f"level must be one of {LEVELS}, not {level!r}")
    system = system if system is not None else build_system(puzzle, mines)
    k = system.num_vars
    val = np.full(k + 1, UNDECIDED, dtype=np.int8)  # index 0 is the padding of con_vars
    if fixed is not None:
        val[1:] = fixed
    rounds = [0]
    try:
        _gac(system, val, rounds)
        if level != "gac":
            _relational(system, val, 2 if level == "2rc" else 3, bounds, rounds)
    except AnalysisTimeout as exc:
        exc.values, exc.level = val[1:].copy(), level  # every rule is sound: what is decided so far holds
        raise
    except Contradiction:
        return Propagation(system, level, val[1:].copy(), False, rounds[0])
    return Propagation(system, level, val[1:].copy(), True, rounds[0])


def _gac(system: LinearSystem, val: np.ndarray, rounds: Optional[List[int]] = None) -> None:
    """Single-constraint inference to a fixed point, vectorised over all constraints (mutates val).

    rounds[0], when given, grows by one per sweep that decided a cell.
    """
    cv = system.con_vars
    present = cv != 0
    rhs = system.con_rhs.astype(np.int32)
    active = np.arange(cv.shape[0])
    val[0] = SAFE  # padding reads as a safe non-variable; it is masked out by `present` anyway
    while True:
        sub = cv[active]
        v = val[sub]
        pres = present[active]
        und_mask = (v == UNDECIDED) & pres
        und = und_mask.sum(axis=1)
        r = rhs[active] - ((v == MINE) & pres).sum(axis=1)
        if (r < 0).any() or (r > und).any():
            raise Contradiction()
        keep = und > 0
        to0 = sub[und_mask & ((r == 0) & keep)[:, None]]
        to1 = sub[und_mask & ((r == und) & keep)[:, None]]
        changed = False
        if to0.size or to1.size:
            if np.intersect1d(to0, to1).size:
                raise Contradiction()
            val[to0] = SAFE
            val[to1] = MINE
            changed = True
        if system.total is not None:
            free = val[1:] == UNDECIDED
            n_und = int(free.sum())
            left = system.total - int((val[1:] == MINE).sum())
            if left < 0 or left > n_und:
                raise Contradiction()
            if n_und and (left == 0 or left == n_und):
                val[1:][free] = SAFE if left == 0 else MINE
                changed = True
        active = active[keep]
        if not changed:
            return
        if rounds is not None:
            rounds[0] += 1


def _open_constraints(system: LinearSystem, val: np.ndarray) -> Dict[int, Tuple[Tuple[int, ...], int]]:
    """Constraint index -> (its undecided variables, mines still needed among them), for open ones."""
    cv = system.con_vars
    v = val[cv]
    pres = cv != 0
    und = ((v == UNDECIDED) & pres).sum(axis=1)
    idx = np.flatnonzero(und > 0)
    r = system.con_rhs[idx].astype(np.int32) - ((v[idx] == MINE) & pres[idx]).sum(axis=1)
    out = {}
    for i, row, need in zip(idx.tolist(), cv[idx].tolist(), r.tolist()):
        out[i] = (tuple(x for x in row if x and val[x] == UNDECIDED), need)
    return out


def _relational(system: LinearSystem, val: np.ndarray, m: int, bounds: Bounds = UNBOUNDED,
                rounds: Optional[List[int]] = None) -> None:
    """Joins of m = 2 or 3 connected constraints (with gac between rounds) to a fixed point.

    rounds[0], when given, grows by one per relational sweep that decided a cell, and by the gac sweeps.
    """
    dirty: Optional[Set[int]] = None  # None: every open constraint on the first round
    while True:
        cons = _open_constraints(system, val)
        occurs: Dict[int, List[int]] = {}
        for ci, (vs, _) in cons.items():
            for x in vs:
                occurs.setdefault(x, []).append(ci)
        nbrs: Dict[int, Set[int]] = {ci: set() for ci in cons}
        for cis in occurs.values():
            for a in cis:
                nbrs[a].update(cis)
        for a in nbrs:
            nbrs[a].discard(a)
        seeds = cons.keys() if dirty is None else [c for c in dirty if c in cons]
        groups = _groups(seeds, nbrs, m)
        changed_vars: Set[int] = set()
        for done, group in enumerate(sorted(groups)):
            if done & 255 == 255:
                bounds.check()
                bounds.report("propagation", done, len(groups))
            current = []
            for ci in group:
                vs, need = cons[ci]
                open_vs = tuple(x for x in vs if val[x] == UNDECIDED)
                need -= sum(1 for x in vs if val[x] == MINE)
                current.append((open_vs, need))
            if any(not vs for vs, _ in current):
                # a member was closed by an earlier group this round; gac checks its count
                continue
            for x, b in join_forced(current):
                if val[x] == UNDECIDED:
                    val[x] = b
                    changed_vars.add(x)
                elif val[x] != b:
                    raise Contradiction()
        if changed_vars and rounds is not None:
            rounds[0] += 1
        before = val.copy()
        _gac(system, val, rounds)
        changed_vars.update(np.flatnonzero(before != val).tolist())
        if not changed_vars:
            return
        # only groups with a member that lost a cell can infer anything new
        dirty = {ci for x in changed_vars for ci in occurs.get(x, ())}


def _groups(seeds: Iterable[int], nbrs: Dict[int, Set[int]], m: int) -> Set[Tuple[int, ...]]:
    """Connected groups of up to m constraints (pairs; and paths/triangles of 3) that contain a seed."""
    out: Set[Tuple[int, ...]] = set()
    for a in seeds:
        for b in nbrs[a]:
            # pairs too at m = 3: a pair with no third neighbour has no triple to be part of
            out.add((a, b) if a < b else (b, a))
            if m == 2:
                continue
            # every connected triple has a centre adjacent to the other two: a as centre, or as an end
            for c in nbrs[a]:
                if c != b:
                    out.add(tuple(sorted((a, b, c))))
            for c in nbrs[b]:
                if c != a:
                    out.add(tuple(sorted((a, b, c))))
    return out


def join_forced(cons: Sequence[Tuple[Tuple[int, ...], int]]) -> List[Tuple[int, int]]:
    """(variable, value) pairs taken in every joint solution of the constraints; Contradiction if none exist."""
    union = sorted({x for vs, _ in cons for x in vs})
    n = len(union)
    pos = {x: i for i, x in enumerate(union)}
    occ: List[List[int]] = [[] for _ in range(n)]
    need = []
    left = []
    for j, (vs, r) in enumerate(cons):
        if r < 0 or r > len(vs):
            raise Contradiction()
        for x in vs:
            occ[pos[x]].append(j)
        need.append(r)
        left.append(len(vs))
    seen = [[False, False] for _ in range(n)]
    assign = [0] * n
    open_count = [2 * n]  # supports still unseen; the search stops once every value is seen

    def rec(i: int) -> bool:
        if i == n:
            for t in range(n):
                s = seen[t]
                if not s[assign[t]]:
                    s[assign[t]] = True
                    open_count[0] -= 1
            return open_count[0] == 0
        for b in (0, 1):
            ok = True
            for j in occ[i]:
                nr = need[j] - b
                if nr < 0 or nr > left[j] - 1:
                    ok = False
                    break
            if not ok:
                continue
            for j in occ[i]:
                need[j] -= b
                left[j] -= 1
            assign[i] = b
            done = rec(i + 1)
            for j in occ[i]:
                need[j] += b
                left[j] += 1
            if done:
                return True
        return False

    rec(0)
    if not any(s[0] or s[1] for s in seen) and n:
        raise Contradiction()
    forced = []
    for t, (s0, s1) in enumerate(seen):
        if s0 != s1:
            forced.append((union[t], 1 if s1 else 0))
    return forced
