"""Exact counting: the number of solutions and, per cell, the number with a mine there.

Counting never enumerates solutions. The open cells split into independent components (cells linked
through shared counts); each component is counted by a dynamic programme over its cells in an order
that keeps the frontier of partly filled counts small, with the states memoised on the counts' remaining
right-hand sides, and counts kept per number of mines. Components combine by convolution, and cells
touched by no count by powers of two (no total) or binomial coefficients (with the total mine count).

Big components (BIG_COMPONENT cells and more) go to a numpy table sweep (sweep/: rows, total), or, where
a tree decomposition of their counts is narrower than the sweep's frontier, to dynamic programming over
that tree (tree/: decompose, dp, weigh): on checkerboards of openings the sweep keeps 25-57 counts open,
the tree's bags 10-20.

A forward and a backward pass of the same programme give, per cell, the number of solutions that put
a mine there: exact probabilities (fractions.Fraction). On big boards with a total, where those exact
numbers would take minutes, the probabilities come from `marginals` in double precision instead (the
count, and which cells are certain, stay exact).
"""
from __future__ import annotations

from operator import itemgetter, le
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ...core.bounds import UNBOUNDED, Bounds, CountingLimitError, CountingMemoryError, int_bytes, layer_bytes  # noqa: F401 (re-exported)
from ...core.graph import component_roots
from ...core.system import LinearSystem
from ..cellstate import MINE, SAFE, UNDECIDED
from .board import EXACT_WORK_BUDGET, Count, count_with_total, count_without_total
from .polynomials import Poly, oadd, oplain, pmul
from .sweep.rows import BIG_COMPONENT, STATES_PER_CAP, count_big_component, prepare
from .sweep.total import big_components
from .tree.decompose import decompose
from .tree.dp import count_by_tree, tree_bags
from .tree.weigh import TreeComponent

DEFAULT_MAX_STATES = 200_000
# which big components go to a tree decomposition (tree/dp) rather than a sweep: "narrower" (its bags are
# narrower than the sweep's frontier), "always" or "never" (tests hold each way to the other)
TREES = "narrower"



def _order(vars_: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]], var_rc: np.ndarray) -> List[int]:
    """An order of the component's cells with a narrow frontier of partly filled counts."""
    adj: Dict[int, set] = {v: set() for v in vars_}
    for vs, _ in cons:
        for x in vs:
            adj[x].update(vs)
    rc = {v: (int(var_rc[v - 1, 0]), int(var_rc[v - 1, 1])) for v in vars_}
    candidates = [sorted(vars_), sorted(vars_, key=lambda v: (rc[v][1], rc[v][0]))]
    # Cuthill-McKee from a far end: breadth-first layers follow the component like a wavefront
    start = min(vars_, key=lambda v: (len(adj[v]), v))
    for _ in range(2):
        order = _bfs(start, adj)
        start = order[-1]
    candidates.append(order)
    candidates.append(_bfs(start, adj))
    return min(candidates, key=lambda o: _frontier_cost(o, cons))


def _bfs(start: int, adj: Dict[int, set]) -> List[int]:
    seen = {start}
    order = [start]
    i = 0
    while i < len(order):
        for w in sorted(adj[order[i]], key=lambda x: (len(adj[x]), x)):
            if w not in seen:
                seen.add(w)
                order.append(w)
        i += 1
    return order


def _frontier_cost(order: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]]) -> Tuple[int, int]:
    pos = {v: i for i, v in enumerate(order)}
    diff = [0] * (len(order) + 1)
    for vs, _ in cons:
        ps = [pos[x] for x in vs]
        lo, hi = min(ps), max(ps)
        diff[lo + 1] += 1
        diff[hi + 1] -= 1
    width, run, total = 0, 0, 0
    for d in diff:
        run += d
        width = max(width, run)
        total += run
    return width, total


def _picker(idx: Sequence[int]):
    """A function taking the values at idx out of a sequence, as a tuple (for any length of idx)."""
    if not idx:
        return lambda values: ()
    if len(idx) == 1:
        j = idx[0]
        return lambda values: (values[j],)
    return itemgetter(*idx)


Step = Tuple[Tuple[int, ...], List[int], List[int], List[int], List[int]]


def _schedule(order: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]]) -> List[Step]:
    """Per cell i of the order: (rhs of the counts starting at i, positions in the state extended by them
    of the counts containing i, positions kept after i, how many cells each kept count has left after i,
    positions of the counts ending at i)."""
    pos = {v: i for i, v in enumerate(order)}
    first, last, rhs, members = [], [], [], []
    for vs, r in cons:
        ps = sorted(pos[x] for x in vs)
        first.append(ps[0])
        last.append(ps[-1])
        rhs.append(r)
        members.append(set(ps))
    # per step i: the active constraints before it, the ones starting at it, and where each goes after
    active: List[int] = []
    steps = []
    by_first: Dict[int, List[int]] = {}
    for ci in range(len(cons)):
        by_first.setdefault(first[ci], []).append(ci)
    for i in range(len(order)):
        ext = active + by_first.get(i, [])
        start_rhs = tuple(rhs[ci] for ci in by_first.get(i, []))
        contains = [j for j, ci in enumerate(ext) if i in members[ci]]
        nxt = [ci for ci in ext if last[ci] > i]
        nxt.sort()
        where = {ci: j for j, ci in enumerate(ext)}
        keep = [where[ci] for ci in nxt]
        cap = [sum(1 for p in members[ci] if p > i) for ci in nxt]
        ends = [where[ci] for ci in ext if last[ci] == i]
        steps.append((start_rhs, contains, keep, cap, ends))
        active = nxt
    return steps


State = Tuple[int, ...]
Move = Tuple[Optional[State], Optional[State]]


def _transitions(steps: Sequence[Step]) -> Callable[[State, int], Move]:
    """transitions(state, i): the states after cell i without and with a mine on it (None: impossible)."""
    # the hot loop of the counter (issue 13: 20 of 32 s went here on a 22x80 lattice): each step's
    # picks are C-level itemgetters and the checks run in map/any, not in Python loops per value
    fast = [(start_rhs, contains, _picker(keep), tuple(cap), _picker(ends), bool(ends))
            for start_rhs, contains, keep, cap, ends in steps]

    def transitions(state: State, i: int) -> Move:
        start_rhs, contains, pick, cap, pick_ends, any_ends = fast[i]
        vals = state + start_rhs
        # no mine on cell i: a count that ends here must be 0, the others must still fit in their cells
        if any_ends and any(pick_ends(vals)):
            t0 = None
        else:
            t0 = pick(vals)
            if t0 and (min(t0) < 0 or not all(map(le, t0, cap))):
                t0 = None
        # a mine on cell i: the counts containing it need one mine less
        ones = list(vals)
        for j in contains:
            ones[j] -= 1
        if any_ends and any(pick_ends(ones)):
            t1 = None
        else:
            t1 = pick(ones)
            if t1 and (min(t1) < 0 or not all(map(le, t1, cap))):
                t1 = None
        return t0, t1

    return transitions


class _Weights(NamedTuple):
    """The arithmetic of a state's weight: (offset, coefficients) per number of mines, or a plain count."""

    one: object
    zero: object       # the empty sum
    add: Callable[[Any, Any], Any]
    shift: Callable[[Any], Any]    # one mine more
    mul: Callable[[Any, Any], Any]


# weighted: (offset, coefficients) so a shift is free and sums only touch the occupied span
WEIGHTED = _Weights((0, [1]), (0, []), oadd, lambda a: (a[0] + 1, a[1]),
                    lambda a, b: (a[0] + b[0], pmul(a[1], b[1])))
UNWEIGHTED = _Weights(1, 0, lambda a, b: a + b, lambda a: a, lambda a, b: a * b)


def _tree(vars_: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]], var_rc: np.ndarray,
          bounds: Bounds = UNBOUNDED):
    """A big component's tree decomposition, when it is to be counted over one (None: swept)."""
    if TREES == "never":
        return None
    return decompose(cons, None, bounds) if TREES == "always" else tree_bags(vars_, cons, var_rc, bounds)


def _count_big(vars_: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]], var_rc: np.ndarray,
               weighted: bool, max_states: int, bounds: Bounds, bags):
    """count_component's answer on a big component: over its tree's bags if any, else swept in numpy."""
    if bags is not None:
        return count_by_tree(vars_, cons, weighted, bounds, max_states * STATES_PER_CAP, bags)
    return count_big_component(vars_, cons, var_rc, weighted, bounds, max_states * STATES_PER_CAP)


def count_component(vars_: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]], var_rc: np.ndarray,
                    weighted: bool = True, max_states: int = DEFAULT_MAX_STATES, bounds: Bounds = UNBOUNDED):
    """Exact count of one component: (P, M) where P[j] = solutions with j mines, M[v] the same with v a mine.

    Unweighted, P and M[v] are plain integers (solutions regardless of their number of mines). `bounds`
    stops the counter (CountingMemoryError, AnalysisTimeout) before its kept layers pass the memory budget
    or the deadline.
    """
    if len(vars_) >= BIG_COMPONENT:
        return _count_big(vars_, cons, var_rc, weighted, max_states, bounds, _tree(vars_, cons, var_rc, bounds))
    order = _order(vars_, cons, var_rc)
    steps = _schedule(order, cons)
    ops = WEIGHTED if weighted else UNWEIGHTED
    layers, moves = _forward(steps, _transitions(steps), ops, max_states, bounds)
    if () not in layers[-1]:
        zero: object = [0] if weighted else 0
        return zero, {v: zero for v in vars_}
    total, marg = _backward(order, layers, moves, ops, bounds)
    if weighted:
        return oplain(total), {v: oplain(m) for v, m in marg.items()}
    return total, marg


def _forward(steps: Sequence[Step], transitions: Callable[[State, int], Move], ops: _Weights, max_states: int,
             bounds: Bounds) -> Tuple[List[Dict[State, Any]], List[Dict[State, Move]]]:
    """The forward pass: per cell, the weight of each state and each state's two moves."""
    n = len(steps)
    add, shift = ops.add, ops.shift
    layers: List[Dict[State, Any]] = [{(): ops.one}]
    moves: List[Dict[State, Move]] = []
    what = f"counting a component of {n} linked unknown cells"
    kept = 0.0        # estimated bytes of the layers (and their moves) kept for the backward pass
    per_state = 0.0   # estimated bytes per state of the last finished layer
    seen_lists: set = set()
    for i in range(n):
        cur = layers[-1]
        nxt_layer: Dict[State, Any] = {}
        mv = {}
        for seen, (s, w) in enumerate(cur.items()):
            if seen & 1023 == 1023:
                # a single layer can pass the budget on its own: judge it with the last layer's sizes
                bounds.check()
                bounds.check_memory(kept + len(nxt_layer) * per_state * 1.25, what)
            t0, t1 = transitions(s, i)
            mv[s] = (t0, t1)
            if t0 is not None:
                nxt_layer[t0] = add(nxt_layer[t0], w) if t0 in nxt_layer else w
            if t1 is not None:
                w1 = shift(w)
                nxt_layer[t1] = add(nxt_layer[t1], w1) if t1 in nxt_layer else w1
        if len(nxt_layer) > max_states:
            raise CountingLimitError(
                f"a component of {n} linked unknown cells needs more than {max_states} counting states")
        moves.append(mv)
        layers.append(nxt_layer)
        added = layer_bytes(nxt_layer.values(), len(nxt_layer), len(steps[i][2]), seen_lists)
        per_state = added / max(1, len(nxt_layer))
        kept += added
        bounds.check_memory(kept, what)
        bounds.report("counting", i + 1, n)
        bounds.check()
    return layers, moves


def _backward(order: Sequence[int], layers: List[Dict[State, Any]], moves: List[Dict[State, Move]],
              ops: _Weights, bounds: Bounds) -> Tuple[Any, Dict[int, Any]]:
    """The backward pass: the component's total weight and, per cell, the weight with a mine there.

    Frees the forward layers and moves as it goes."""
    add, shift, mul = ops.add, ops.shift, ops.mul
    back: Dict[State, Any] = {(): ops.one}
    marg: Dict[int, Any] = {}
    for i in range(len(order) - 1, -1, -1):
        if i & 15 == 0:
            bounds.check()
        # the layers after i are no longer needed: give their memory back while the marginals grow
        layers[i + 1] = {}
        cur_back: Dict[State, Any] = {}
        into: Dict[State, Any] = {}  # forward weight arriving at each state with a mine on i
        for s, w in layers[i].items():
            t0, t1 = moves[i][s]
            acc = None
            if t0 is not None and t0 in back:
                acc = back[t0]
            if t1 is not None and t1 in back:
                b1 = shift(back[t1])
                acc = b1 if acc is None else add(acc, b1)
                into[t1] = add(into[t1], w) if t1 in into else w
            if acc is not None:
                cur_back[s] = acc
        # one product per target state rather than per source state
        m_i = ops.zero
        for t, w in into.items():
            m_i = add(m_i, mul(w, shift(back[t])))
        back = cur_back
        marg[order[i]] = m_i
        moves[i] = {}
    return back[()], marg


def components(cons: Sequence[Tuple[Tuple[int, ...], int]]) -> List[Tuple[List[int], List[int]]]:
    """Group constraints that share variables: (variables, constraint indices) per component."""
    xs = sorted({x for vs, _ in cons for x in vs})
    at = {x: i for i, x in enumerate(xs)}
    ends = [at[vs[0]] for vs, _ in cons for _x in vs[1:]]
    others = [at[x] for vs, _ in cons for x in vs[1:]]
    # core/graph's union-find: a component's root is its smallest variable
    root = component_roots(len(xs), np.array(ends, dtype=np.int64), np.array(others, dtype=np.int64)).tolist()
    groups: Dict[int, Tuple[List[int], List[int]]] = {}
    for ci, (vs, _) in enumerate(cons):
        groups.setdefault(root[at[vs[0]]], ([], []))[1].append(ci)
    for x, r in zip(xs, root):
        groups[r][0].append(x)
    return [groups[r] for r in sorted(groups, key=lambda r: groups[r][0][0])]




def count_solutions(system: LinearSystem, values: Optional[np.ndarray] = None,
                    max_states: int = DEFAULT_MAX_STATES, exact_budget: int = EXACT_WORK_BUDGET,
                    bounds: Bounds = UNBOUNDED) -> Count:
    """Count the solutions exactly, and per variable the solutions with a mine there.

    `values` (k,) int8 fixes cells proven safe (0) or mines (1) in every solution (-1 open); fixing them
    shrinks the components and never changes the answer.
    """
    k = system.num_vars
    val = np.full(k + 1, UNDECIDED, dtype=np.int8)
    if values is not None:
        val[1:] = values
    val[0] = SAFE
    cv = system.con_vars
    pres = cv != 0
    v = val[cv]
    need = system.con_rhs.astype(np.int64) - ((v == MINE) & pres).sum(axis=1)
    und = ((v == UNDECIDED) & pres).sum(axis=1)
    if ((need < 0) | (need > und)).any():
        return Count(0, (0,) * k)
    idx = np.flatnonzero(und > 0)
    cons = [(tuple(x for x in row if x and val[x] == UNDECIDED), r)
            for row, r in zip(cv[idx].tolist(), need[idx].tolist())]
    comps = components(cons)
    bounds.check()
    # the free cells (open, in no component) in numpy: sets of 16 million cells took 2 GB and 10 s
    linked = np.zeros(k + 1, dtype=bool)
    linked[np.fromiter((x for vs, _ in comps for x in vs), dtype=np.int64)] = True
    free = np.flatnonzero((val == UNDECIDED) & ~linked)
    weighted = system.total is not None
    # with a total, a big component is swept first; it gives P, and its per-cell numbers once the rest of
    # the board's weights are known (board.count_with_total), or its polynomials when those may be too wide
    # (components whose tree decomposition is narrower than their sweep are counted over it instead)
    trees = {n: _tree(vs, [cons[ci] for ci in cis], system.var_rc, bounds) for n, (vs, cis) in enumerate(comps)
             if len(vs) >= BIG_COMPONENT}
    sweeps = {n: prepare(vs, [cons[ci] for ci in cis], system.var_rc, bounds, max_states * STATES_PER_CAP)
              for n, (vs, cis) in enumerate(comps) if weighted and n in trees and trees[n] is None}
    parts: Dict[int, Tuple[Poly, Any]] = {}
    for n, (vs, cis) in enumerate(comps):
        cc = [cons[ci] for ci in cis]
        if n in sweeps:
            continue
        if n in trees and trees[n] is not None and weighted:   # P now, the cells' numbers once w is known
            comp = TreeComponent(vs, cc, trees[n], bounds, max_states * STATES_PER_CAP)
            parts[n] = (comp.P, comp)
        elif n in trees:   # big: its tree (or its refusal) is known already, not decomposed again
            parts[n] = _count_big(vs, cc, system.var_rc, weighted, max_states, bounds, trees[n])
        else:
            parts[n] = count_component(vs, cc, system.var_rc, weighted, max_states, bounds)
    fixed = np.flatnonzero(val[1:] == MINE).tolist()
    if system.total is not None:
        parts.update(big_components(sweeps, [P for P, _ in parts.values()], len(free), system.total - len(fixed),
                                    int(linked.sum()), bounds))
    # in the components' order: the probabilities in floats sum over them in it, to the last bit
    polys = [(vs, parts[n][0], parts[n][1]) for n, (vs, _) in enumerate(comps)]
    if system.total is None:
        return count_without_total(polys, free, fixed, k, bounds)
    return count_with_total(polys, free, fixed, k, system.total - len(fixed), exact_budget, bounds)
