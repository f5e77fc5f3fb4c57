"""What a board implies, exactly: safe cells, certain mines, the solution count, mine probabilities.

- The backbone (level ``full``) comes from incremental SAT solvers on the CNF of converters.encode, one
  per independent part of the board, asked one question per open cell under an assumption, with
  model-based filtering: a cell that took both values in models already found is not asked about.
  The counts' CNF goes to the solver; what the total mine count adds to the backbone is read off the
  exact per-cell counts (0 or all solutions). Only if the counter gives up does the total count go into
  the CNF too (one solver for the whole board; free cells are interchangeable, so one of them is asked).
- Counting never enumerates solutions. The open cells split into independent components (cells linked
  through shared counts); each component is counted by a dynamic programme over its cells in an order
  that keeps the frontier of partly filled counts small, with the states memoised on the counts' remaining
  right-hand sides, and counts kept per number of mines. Components combine by convolution, and cells
  touched by no count by powers of two (no total) or binomial coefficients (with the total mine count).
- A forward and a backward pass of the same programme give, per cell, the number of solutions that put
  a mine there: exact probabilities (fractions.Fraction). On big boards with a total, where those exact
  numbers would take minutes, the probabilities are computed in double precision instead (the count,
  and which cells are certain, stay exact; Analysis.probabilities_exact says which).
"""
from __future__ import annotations

import contextlib
import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import MineconvError
from .propagation import LEVELS as PROPAGATION_LEVELS
from .propagation import MINE, SAFE, UNDECIDED, propagate
from ..model.puzzle import Puzzle
from ..model.system import LinearSystem, build_system

LEVELS = PROPAGATION_LEVELS + ("full",)
DEFAULT_MAX_STATES = 200_000
SAT_SOLVER = "cadical153"

Poly = List[int]  # coefficient j = number of solutions placing j mines


@contextlib.contextmanager
def unlimited_int_digits() -> Iterator[None]:
    """Let str()/json print integers of any length (solution counts of big boards pass Python's 4300)."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:  # Python before 3.11 has no limit
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def count_text(n: int, max_digits: int = 30) -> str:
    """A solution count for people: exact when short, else mantissa, exponent and number of digits."""
    with unlimited_int_digits():
        s = str(n)
    if len(s) <= max_digits:
        return s
    return f"{s[0]}.{s[1:4]}e{len(s) - 1} ({len(s)} digits)"


class CountingLimitError(MineconvError, RuntimeError):
    """A component too entangled for the exact counter within its state budget."""


@dataclass(frozen=True)
class Analysis:
    """The answer to `analyze`: decisions of one level, and the exact count and probabilities.

    `values[i]` is the decision for variable i + 1 (the unknown cells in row-major order): -1 open,
    0 safe, 1 mine. `mine_solutions[i]` is the number of solutions with a mine on variable i + 1 (None
    on big boards where only `approx_probabilities` were affordable). `solutions` is None only when
    the counter gave up (`count_error` says why).
    """

    puzzle: Puzzle
    system: LinearSystem
    level: str
    values: np.ndarray
    solutions: Optional[int]
    mine_solutions: Optional[Tuple[int, ...]]
    count_error: Optional[str] = None
    by_level: Dict[str, int] = field(default_factory=dict)
    approx_probabilities: Optional[Tuple[float, ...]] = None

    @property
    def feasible(self) -> bool:
        """True when at least one solution exists (or, uncounted, when the level found no contradiction)."""
        return self.solutions != 0

    @property
    def unique(self) -> bool:
        """True when the puzzle has exactly one solution."""
        if self.solutions is not None:
            return self.solutions == 1
        return self.level == "full" and bool((self.values != UNDECIDED).all())

    @property
    def probabilities_exact(self) -> bool:
        """True when the probabilities are exact fractions (not double-precision approximations)."""
        return self.mine_solutions is not None

    def safe_cells(self) -> List[Tuple[int, int]]:
        """Unknown cells the level proves safe, row-major."""
        return [tuple(rc) for rc in self.system.var_rc[self.values == SAFE].tolist()]

    def mine_cells(self) -> List[Tuple[int, int]]:
        """Unknown cells the level proves to be mines, row-major."""
        return [tuple(rc) for rc in self.system.var_rc[self.values == MINE].tolist()]

    def probabilities(self) -> Optional[list]:
        """Mine probability of each variable (id order): Fractions, or floats on big boards (see
        probabilities_exact); None without a count or a solution."""
        if not self.solutions:
            return None
        if self.mine_solutions is not None:
            return [Fraction(n, self.solutions) for n in self.mine_solutions]
        if self.approx_probabilities is not None:
            return list(self.approx_probabilities)
        return None

    def probability_grid(self) -> List[List[Optional[float]]]:
        """Rows of floats (mine probability of each unknown cell) with None on every other cell."""
        grid: List[List[Optional[float]]] = [[None] * self.puzzle.cols for _ in range(self.puzzle.rows)]
        probs = self.probabilities()
        if probs is None:
            return grid
        for (r, c), p in zip(self.system.var_rc.tolist(), probs):
            grid[r][c] = float(p)
        return grid

    def marked_puzzle(self) -> Puzzle:
        """The puzzle with the decided cells filled in: '.' safe, '*' mine, '?' still open."""
        buf = bytearray(self.puzzle.cells, "ascii")
        cols = self.puzzle.cols
        for (r, c), v in zip(self.system.var_rc.tolist(), self.values.tolist()):
            if v != UNDECIDED:
                buf[r * cols + c] = ord("*") if v == MINE else ord(".")
        return self.puzzle.replace(cells=buf.decode("ascii"))

    def to_json(self) -> dict:
        """The JSON report of `mineconv analyze --json`."""
        ok = self.feasible
        data = {
            "solutions": self.solutions,
            "unique": self.unique,
            "safe": [list(rc) for rc in self.safe_cells()] if ok else [],
            "mines": [list(rc) for rc in self.mine_cells()] if ok else [],
            "probabilities": self.probability_grid(),
            "level": self.level,
            "rows": self.puzzle.rows,
            "cols": self.puzzle.cols,
            "unknown": self.system.num_vars,
            "open": int((self.values == UNDECIDED).sum()) if ok else self.system.num_vars,
            "total_mines": None if self.system.total is None
            else self.system.total + self.puzzle.known_mine_count,
        }
        if self.solutions and not self.probabilities_exact:
            data["probabilities_exact"] = False
        if self.by_level:
            data["decided_by_level"] = dict(self.by_level)
        if self.count_error:
            data["count_error"] = self.count_error
        return data


# ---------------------------------------------------------------------------------------------------
# the backbone by SAT

def sat_backbone(puzzle: Puzzle, mines: Optional[int] = None, system: Optional[LinearSystem] = None,
                 known: Optional[np.ndarray] = None, solver: str = SAT_SOLVER,
                 use_total: bool = True) -> Optional[np.ndarray]:
    """Backbone of the puzzle: (k,) int8 with 0/1 where every solution agrees, -1 elsewhere; None if none.

    `known` (k,) int8 holds values already proven (e.g. by propagation); they are added as unit clauses
    and not asked about again. With use_total=False the CNF leaves out the total mine count: the result
    is then the backbone of the counts alone (plus `known`), a subset of the full one. Without the total,
    cells linked by no chain of counts are independent, so the clauses are split into those independent
    parts and each part gets its own incremental solver (a call then only touches its own part).
    """
    from ..encode.cnf import to_cnf

    system = system if system is not None else build_system(puzzle, mines)
    k = system.num_vars
    values = np.full(k, UNDECIDED, dtype=np.int8)
    if known is not None:
        values[:] = known
    total = None if system.total is None or not use_total else system.total + puzzle.known_mine_count
    clauses = to_cnf(puzzle.replace(mines=total), mines=total).clauses
    if k == 0:
        return None if any(len(c) == 0 for c in clauses) else values
    if total is not None:
        parts = [(np.arange(k), clauses)]
    else:
        parts = _split_clauses(clauses, system, k)
    free = ~system.constrained_vars()
    for cells, part in parts:
        if not _part_backbone(part, cells, values, free, solver):
            return None
    return values


def _split_clauses(clauses: Sequence[Sequence[int]], system: LinearSystem, k: int):
    """[(cell ids - 1 of the part, clauses of the part)] for parts of cells linked through counts."""
    label = np.arange(k + 1)
    for vs, _ in _components([(tuple(x for x in row if x), 0) for row in system.con_vars.tolist() if row[0]]):
        label[vs] = vs[0]
    groups: Dict[int, list] = {}
    for cl in clauses:
        if not cl:
            groups.setdefault(-1, []).append(cl)
            continue
        groups.setdefault(int(label[abs(cl[0])]), []).append(cl)
    if -1 in groups:  # an empty clause: nothing satisfies the counts
        return [(np.zeros(0, dtype=np.int64), [[]])]
    members: Dict[int, List[int]] = {}
    for i, lab in enumerate(label[1:].tolist()):
        if lab in groups:
            members.setdefault(lab, []).append(i)
    return [(np.asarray(members.get(lab, []), dtype=np.int64), groups[lab]) for lab in sorted(groups)]


def _part_backbone(clauses: Sequence[Sequence[int]], cells: np.ndarray, values: np.ndarray,
                   free: np.ndarray, solver: str) -> bool:
    """Fill values[cells] with the backbone of one independent part; False when the part is unsatisfiable."""
    from pysat.solvers import Solver

    with Solver(name=solver, bootstrap_with=clauses) as sat:
        for i in cells[values[cells] != UNDECIDED].tolist():
            sat.add_clause([i + 1 if values[i] == MINE else -(i + 1)])
        if not sat.solve():
            return False
        open_cells = cells[values[cells] == UNDECIDED]
        if open_cells.size == 0:
            return True
        lits = open_cells + 1
        model, absent = _model_array(sat.get_model(), lits)
        # a cell in no clause takes either value: never part of the backbone
        candidate = ~absent
        # free cells only meet the total count, so they are interchangeable: one stands for all of them
        is_free = free[open_cells]
        free_pos = np.flatnonzero(is_free & candidate)
        if free_pos.size > 1:
            candidate[free_pos[1:]] = False
        seen = np.zeros((open_cells.size, 2), dtype=bool)
        seen[np.arange(open_cells.size), model.astype(np.int64)] = True
        if free_pos.size and seen[free_pos, 0].any() and seen[free_pos, 1].any():
            candidate[free_pos[0]] = False  # free cells of both values in one model: none is fixed
        for j in np.flatnonzero(candidate).tolist():
            if seen[j, 0] and seen[j, 1]:
                continue
            lit = int(lits[j]) if model[j] else -int(lits[j])
            try:
                # steer the search away from the model just seen, to filter more cells per call
                sat.set_phases(np.where(model, -lits, lits).tolist())
            except NotImplementedError:
                pass
            if sat.solve(assumptions=[-lit]):
                model, _ = _model_array(sat.get_model(), lits)
                seen[np.arange(open_cells.size), model.astype(np.int64)] = True
            else:
                values[open_cells[j]] = MINE if lit > 0 else SAFE
                sat.add_clause([lit])
        if free_pos.size:
            rep = open_cells[free_pos[0]]
            if values[rep] != UNDECIDED:
                values[open_cells[free_pos]] = values[rep]
    return True


def _model_array(model_lits: Sequence[int], variables: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(values, absent) of the given variables in a SAT model; absent marks variables the model omits."""
    arr = np.asarray(model_lits if model_lits is not None else [], dtype=np.int64)
    top = int(variables.max()) if variables.size else 0
    value = np.zeros(top + 1, dtype=np.int8)  # 0 absent, 1 false, 2 true
    arr = arr[(np.abs(arr) <= top) & (arr != 0)]
    value[np.abs(arr)] = np.where(arr > 0, 2, 1)
    v = value[variables]
    return v == 2, v == 0


# ---------------------------------------------------------------------------------------------------
# exact counting

def _padd(a: Poly, b: Poly) -> Poly:
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    for i, x in enumerate(b):
        out[i] += x
    return out


def _pmul(a: Poly, b: Poly) -> Poly:
    """Product of two polynomials with non-negative integer coefficients.

    Long ones go through one big-integer product (Kronecker substitution: coefficients packed into
    byte slots wide enough that no slot of the product overflows), which runs in C.
    """
    if len(a) * len(b) <= 64:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out
    bits = (max(x.bit_length() for x in a) + max(y.bit_length() for y in b)
            + min(len(a), len(b)).bit_length() + 1)
    width = (bits + 7) // 8
    pa = int.from_bytes(b"".join(x.to_bytes(width, "little") for x in a), "little")
    pb = int.from_bytes(b"".join(y.to_bytes(width, "little") for y in b), "little")
    n = len(a) + len(b) - 1
    raw = (pa * pb).to_bytes(width * n, "little")
    return [int.from_bytes(raw[i:i + width], "little") for i in range(0, width * n, width)]


def _pdiv_exact(a: Poly, b: Poly) -> Poly:
    """The polynomial q with q * b == a (integer coefficients, known to exist)."""
    s = next(i for i, x in enumerate(b) if x)
    b = b[s:]
    a = a[s:]
    n = len(a) - len(b) + 1
    q = [0] * max(n, 0)
    b0 = b[0]
    for i in range(n):
        acc = a[i]
        for j in range(1, min(i, len(b) - 1) + 1):
            acc -= b[j] * q[i - j]
        q[i] = acc // b0
    return q


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


def count_component(vars_: Sequence[int], cons: Sequence[Tuple[Tuple[int, ...], int]], var_rc: np.ndarray,
                    weighted: bool = True, max_states: int = DEFAULT_MAX_STATES):
    """Exact count of one component: (P, M) where P[j] = solutions with j mines, M[v] the same with v a mine.

    Unweighted, P and M[v] are plain integers (solutions regardless of their number of mines).
    """
    order = _order(vars_, cons, var_rc)
    n = len(order)
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
    for i in range(n):
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

    def transitions(state: Tuple[int, ...], i: int):
        start_rhs, contains, keep, cap, ends = steps[i]
        base = list(state) + list(start_rhs)
        out = []
        for b in (0, 1):
            vals = list(base)
            if b:
                for j in contains:
                    vals[j] -= 1
            if any(vals[j] != 0 for j in ends):
                out.append(None)
                continue
            nxt = []
            ok = True
            for j, c in zip(keep, cap):
                x = vals[j]
                if x < 0 or x > c:
                    ok = False
                    break
                nxt.append(x)
            out.append(tuple(nxt) if ok else None)
        return out

    # weighted: (offset, coefficients) so a shift is free and sums only touch the occupied span
    one: object = (0, [1]) if weighted else 1
    add = _oadd if weighted else (lambda a, b: a + b)
    shift = (lambda a: (a[0] + 1, a[1])) if weighted else (lambda a: a)
    mul = (lambda a, b: (a[0] + b[0], _pmul(a[1], b[1]))) if weighted else (lambda a, b: a * b)

    layers: List[Dict[Tuple[int, ...], object]] = [{(): one}]
    moves: List[Dict[Tuple[int, ...], list]] = []
    for i in range(n):
        cur = layers[-1]
        nxt_layer: Dict[Tuple[int, ...], object] = {}
        mv = {}
        for s, w in cur.items():
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
    if () not in layers[-1]:
        zero: object = [0] if weighted else 0
        return zero, {v: zero for v in vars_}
    back: Dict[Tuple[int, ...], object] = {(): one}
    marg: Dict[int, object] = {}
    zero_w: object = (0, []) if weighted else 0
    for i in range(n - 1, -1, -1):
        cur_back: Dict[Tuple[int, ...], object] = {}
        into: Dict[Tuple[int, ...], object] = {}  # forward weight arriving at each state with a mine on i
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
        m_i = zero_w
        for t, w in into.items():
            m_i = add(m_i, mul(w, shift(back[t])))
        back = cur_back
        marg[order[i]] = m_i
    total = back[()]
    if weighted:
        return _oplain(total), {v: _oplain(m) for v, m in marg.items()}
    return total, marg


def _oadd(a, b):
    """Sum of two (offset, coefficients) polynomials."""
    (oa, ca), (ob, cb) = a, b
    if not ca:
        return b
    if not cb:
        return a
    lo = min(oa, ob)
    out = [0] * (max(oa + len(ca), ob + len(cb)) - lo)
    for i, x in enumerate(ca, oa - lo):
        out[i] = x
    for i, x in enumerate(cb, ob - lo):
        out[i] += x
    return (lo, out)


def _oplain(a) -> Poly:
    """An (offset, coefficients) polynomial as a plain coefficient list."""
    off, coeffs = a
    return [0] * off + list(coeffs) if coeffs else [0]


def _binomial_row(n: int) -> List[int]:
    """[C(n, 0), ..., C(n, n)] by the multiplicative recurrence (one big-integer step each)."""
    row = [1]
    for j in range(n):
        row.append(row[-1] * (n - j) // (j + 1))
    return row


def _components(cons: Sequence[Tuple[Tuple[int, ...], int]]) -> List[Tuple[List[int], List[int]]]:
    """Group constraints that share variables: (variables, constraint indices) per component."""
    parent: Dict[int, int] = {}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for vs, _ in cons:
        for x in vs:
            parent.setdefault(x, x)
        root = find(vs[0])
        for x in vs[1:]:
            rx = find(x)
            if rx != root:
                parent[rx] = root
    groups: Dict[int, Tuple[List[int], List[int]]] = {}
    for ci, (vs, _) in enumerate(cons):
        groups.setdefault(find(vs[0]), ([], []))[1].append(ci)
    for x in sorted(parent):
        groups[find(x)][0].append(x)
    return [groups[r] for r in sorted(groups, key=lambda r: groups[r][0][0])]


@dataclass(frozen=True)
class Count:
    """The exact number of solutions and, per variable, how many put a mine there.

    `mine_solutions` holds exact integers. On big boards with a total mine count the exact per-cell
    numbers cost too much (tens of thousands of huge binomials); `approx` then holds the probabilities
    in double precision instead, exactly 0.0 or 1.0 wherever the exact value is 0 or 1.
    """

    solutions: int
    mine_solutions: Optional[Tuple[int, ...]]
    approx: Optional[Tuple[float, ...]] = None

    def never_mine(self) -> np.ndarray:
        """Bool (k,): variables no solution puts a mine on (all of them when there is no solution)."""
        if self.mine_solutions is not None:
            return np.asarray([x == 0 for x in self.mine_solutions], dtype=bool)
        return np.asarray(self.approx) == 0.0

    def always_mine(self) -> np.ndarray:
        """Bool (k,): variables every solution puts a mine on."""
        if self.mine_solutions is not None:
            n = self.solutions
            return np.asarray([n > 0 and x == n for x in self.mine_solutions], dtype=bool)
        return np.asarray(self.approx) == 1.0


EXACT_WORK_BUDGET = 10 ** 8  # ~ seconds of big-integer products for exact per-cell numbers


def count_solutions(system: LinearSystem, values: Optional[np.ndarray] = None,
                    max_states: int = DEFAULT_MAX_STATES, exact_budget: int = EXACT_WORK_BUDGET) -> Count:
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
    fixed_mines = int((val[1:] == MINE).sum())
    open_vars = set((np.flatnonzero(val[1:] == UNDECIDED) + 1).tolist())
    comps = _components(cons)
    in_comp = set(x for vs, _ in comps for x in vs)
    free = sorted(open_vars - in_comp)
    F = len(free)
    weighted = system.total is not None
    polys = []
    for vs, cis in comps:
        P, M = count_component(vs, [cons[ci] for ci in cis], system.var_rc, weighted, max_states)
        polys.append((vs, P, M))
    fixed = np.flatnonzero(val[1:] == MINE).tolist()
    if not weighted:
        N = 2 ** F
        for _, P, _ in polys:
            N *= P
        per_var = [0] * k
        if N == 0:
            return Count(0, tuple(per_var))
        for vs, P, M in polys:
            rest = N // P
            for x in vs:
                per_var[x - 1] = M[x] * rest
        for x in free:
            per_var[x - 1] = N // 2
        for i in fixed:
            per_var[i] = N
        return Count(N, tuple(per_var))
    T = system.total - fixed_mines
    P_all: Poly = [1]
    for _, P, _ in polys:
        P_all = _pmul(P_all, P)
    D = len(P_all)
    row_f = _binomial_row(F)
    # G[m]: ways to put the remaining T - m mines on the F free cells when the components hold m
    G = [row_f[T - m] if 0 <= T - m <= F else 0 for m in range(D)]
    N = sum(c * g for c, g in zip(P_all, G) if c and g)
    if N == 0:
        return Count(0, (0,) * k)
    distinct = {tuple(P) for _, P, _ in polys}
    g_words = max(1, max(g.bit_length() for g in G) // 64)
    work = sum(len(P) for P in distinct) * D * g_words
    if work > exact_budget:
        return Count(N, None, _approx_marginals(polys, P_all, G, free, T, k, fixed))
    per_var = [0] * k
    weights: Dict[Tuple[int, ...], List[int]] = {}
    for vs, P, M in polys:
        key = tuple(P)
        if key not in weights:
            others = _pdiv_exact(P_all, P)
            weights[key] = [sum(o * G[j + kk] for kk, o in enumerate(others) if o and j + kk < D)
                            for j in range(len(P))]
        w = weights[key]
        for x in vs:
            per_var[x - 1] = sum(m * w[j] for j, m in enumerate(M[x]) if m and j < len(w))
    if F:
        row_f1 = _binomial_row(F - 1)
        n_free = sum(c * row_f1[T - m - 1] for m, c in enumerate(P_all) if c and 0 <= T - m - 1 <= F - 1)
        for x in free:
            per_var[x - 1] = n_free
    for i in fixed:
        per_var[i] = N
    return Count(N, tuple(per_var))


def _log2(x: int) -> float:
    """log2 of a non-negative integer of any size (-inf for 0)."""
    if x <= 0:
        return float("-inf")
    b = x.bit_length()
    if b > 1000:
        return (b - 60) + math.log2(x >> (b - 60))
    return math.log2(x)


def _tilted(values: Sequence[int], log_t: float, sign: int) -> np.ndarray:
    """values[j] * t**(sign * j) as floats scaled so the largest is 1 (exponential tilting in log space)."""
    logs = np.array([_log2(x) for x in values], dtype=float) + sign * log_t * np.arange(len(values))
    top = logs.max() if len(values) else 0.0
    if not np.isfinite(top):
        return np.zeros(len(values))
    return np.exp2(logs - top)


def _approx_marginals(polys, P_all: Poly, G: List[int], free: List[int], T: int, k: int,
                      fixed: List[int]) -> Tuple[float, ...]:
    """Probabilities in floats by a product tree of the component polynomials; 0 and 1 decided exactly.

    Going down the tree, each child receives the weights of its parent correlated with its sibling's
    polynomial (a middle product), so every leaf gets the weights w_c[j] of "j mines in component c"
    without dividing polynomials; every term is non-negative, so nothing cancels. To keep the huge
    binomial weights and solution counts inside the range of a double, every polynomial is tilted by
    t**j (and the binomials by t**-m), which leaves each product P_all[m] * G[m] unchanged; t makes the
    binomials flat where the weight of the whole board peaks. Exact zeros are tracked by the same tree
    on 0/1 supports.
    """
    F = len(free)
    log_w = [_log2(c) + _log2(g) for c, g in zip(P_all, G)]
    peak = int(np.argmax(log_w))
    nxt = peak + 1 if peak + 1 < len(G) and G[peak + 1] else peak - 1
    log_t = 0.0
    if 0 <= nxt < len(G) and G[nxt] and G[peak]:
        log_t = (_log2(G[nxt]) - _log2(G[peak])) / (nxt - peak)
    leaves = [(_tilted(P, log_t, +1), np.asarray([x > 0 for x in P], dtype=np.int64)) for _, P, _ in polys]
    tree = [leaves]
    while len(tree[-1]) > 1:
        level = tree[-1]
        up = []
        for i in range(0, len(level), 2):
            if i + 1 == len(level):
                up.append(level[i])
                continue
            (a, sa), (b, sb) = level[i], level[i + 1]
            prod = np.convolve(a, b)
            m = prod.max()
            up.append((prod / m if m > 0 else prod, (np.convolve(sa, sb) > 0).astype(np.int64)))
        tree.append(up)
    g_float = _tilted(G, log_t, -1)
    g_supp = np.asarray([x > 0 for x in G], dtype=np.int64)
    down = [(g_float, g_supp)]
    for depth in range(len(tree) - 1, 0, -1):
        children = tree[depth - 1]
        new = []
        for i, (w, ws) in enumerate(down):
            left = 2 * i
            if left + 1 >= len(children):
                new.append((w, ws))
                continue
            for sib in (left + 1, left):
                sp, ss = children[sib]
                cw = np.correlate(w, sp, "valid")
                m = cw.max() if cw.size else 0.0
                cs = (np.correlate(ws, ss, "valid") > 0).astype(np.int64)
                new.append((cw / m if m > 0 else cw, cs))
        down = new
    probs = [0.0] * k
    for (vs, P, M), (w, ws), (p_float, _) in zip(polys, down, leaves):
        denom = float(np.dot(p_float, w))
        logs_p = np.array([_log2(x) for x in P]) + log_t * np.arange(len(P))
        top = logs_p.max()
        for x in vs:
            mv = (list(M[x]) + [0] * len(P))[:len(P)]
            mine_supp = any(ws[j] and mv[j] > 0 for j in range(len(P)))
            rest_supp = any(ws[j] and P[j] - mv[j] > 0 for j in range(len(P)))
            if not mine_supp:
                probs[x - 1] = 0.0
            elif not rest_supp:
                probs[x - 1] = 1.0
            else:
                logs_m = np.array([_log2(a) for a in mv]) + log_t * np.arange(len(P))
                m_float = np.exp2(logs_m - top)
                p = float(np.dot(m_float, w)) / denom if denom > 0 else 0.5
                probs[x - 1] = min(max(p, 1e-300), 1 - 1e-16)
    if F:
        root = tree[-1][0][0] if tree[-1] else np.ones(1)
        weights = root * g_float[:len(root)]
        support = [c > 0 and g > 0 for c, g in zip(P_all, G)]
        left = np.asarray([(T - m) / F for m in range(len(root))])
        total_w = weights.sum()
        has_mine = any(e and T - m > 0 for m, e in enumerate(support))
        has_empty = any(e and T - m < F for m, e in enumerate(support))
        p = float((weights * left).sum() / total_w) if total_w > 0 else 0.5
        p = 0.0 if not has_mine else 1.0 if not has_empty else min(max(p, 1e-300), 1 - 1e-16)
        for x in free:
            probs[x - 1] = p
    for i in fixed:
        probs[i] = 1.0
    return tuple(probs)


# ---------------------------------------------------------------------------------------------------
# the whole analysis

def full_backbone(puzzle: Puzzle, mines: Optional[int] = None, system: Optional[LinearSystem] = None,
                  known: Optional[np.ndarray] = None, max_states: int = DEFAULT_MAX_STATES):
    """The complete backbone and, when it could be had, the exact count: (values or None, count, error).

    The SAT solver works on the count constraints; what the total mine count adds on top is read off the
    exact per-cell counts (a cell no solution puts a mine on, or every one does). Only when the counter
    gives up does the SAT solver take the total count into its CNF as well.
    """
    system = system if system is not None else build_system(puzzle, mines)
    values = sat_backbone(puzzle, mines, system=system, known=known, use_total=False)
    if values is None:
        return None, Count(0, (0,) * system.num_vars), None
    try:
        counted = count_solutions(system, values, max_states)
    except CountingLimitError as exc:
        if system.total is not None:
            values = sat_backbone(puzzle, mines, system=system, known=values, use_total=True)
        return values, None, exc.message
    if counted.solutions == 0:
        return None, counted, None
    if system.total is not None:
        values = values.copy()
        values[counted.never_mine()] = SAFE
        values[counted.always_mine()] = MINE
    return values, counted, None


def analyze(puzzle: Puzzle, mines: Optional[int] = None, level: str = "full", *, count: bool = True,
            compare_levels: bool = False, max_states: int = DEFAULT_MAX_STATES) -> Analysis:
    """Decide cells at `level`, count the solutions exactly and compute each cell's mine probability.

    `count=False` skips the counting at the propagation levels (the full level always counts: the
    total mine count's share of the backbone comes from the counts).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    system = build_system(puzzle, mines)
    k = system.num_vars
    by_level: Dict[str, int] = {}
    infeasible = Analysis(puzzle, system, level, np.full(k, UNDECIDED, dtype=np.int8), 0, (0,) * k,
                          by_level=by_level)
    if system.impossible().any() or (system.total is not None and not 0 <= system.total <= k):
        return infeasible
    gac = propagate(puzzle, "gac", system=system)
    if not gac.consistent:
        return infeasible
    counted = None
    error = None
    full_values = None
    if level == "full" or compare_levels:
        full_values, counted, error = full_backbone(puzzle, mines, system, gac.values, max_states)
        if full_values is None:
            return infeasible
    if compare_levels:
        by_level["gac"] = gac.decided
        for lv in ("2rc", "3rc"):
            by_level[lv] = propagate(puzzle, lv, system=system, fixed=gac.values).decided
        by_level["full"] = int((full_values != UNDECIDED).sum())
    if level == "full":
        values = full_values
    elif level == "gac":
        values = gac.values
    else:
        prop = propagate(puzzle, level, system=system, fixed=gac.values)
        if not prop.consistent:
            return infeasible
        values = prop.values
    if counted is None and error is None and count:
        try:
            counted = count_solutions(system, values, max_states)
        except CountingLimitError as exc:
            error = exc.message
    if counted is None:
        return Analysis(puzzle, system, level, values, None, None, error, by_level)
    if counted.solutions == 0:
        return infeasible
    return Analysis(puzzle, system, level, values, counted.solutions, counted.mine_solutions, error,
                    by_level, counted.approx)
