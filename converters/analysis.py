"""What a board implies, exactly: safe cells, certain mines, the solution count, mine probabilities.

- The backbone (level ``full``) comes from one incremental SAT solver on the CNF of converters.encode,
  asked one question per open cell under an assumption, with model-based filtering: a cell that took
  both values in models already found is not asked about.
- Counting never enumerates solutions. The open cells split into independent components (cells linked
  through shared counts); each component is counted by a dynamic programme over its cells in an order
  that keeps the frontier of partly filled counts small, with the states memoised on the counts' remaining
  right-hand sides, and counts kept per number of mines. Components combine by convolution, and cells
  touched by no count by powers of two (no total) or binomial coefficients (with the total mine count).
- A forward and a backward pass of the same programme give, per cell, the number of solutions that put
  a mine there: exact probabilities (fractions.Fraction).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from .errors import MineconvError
from .propagation import LEVELS as PROPAGATION_LEVELS
from .propagation import MINE, SAFE, UNDECIDED, propagate
from .puzzle import Puzzle
from .system import LinearSystem, build_system

LEVELS = PROPAGATION_LEVELS + ("full",)
DEFAULT_MAX_STATES = 200_000
SAT_SOLVER = "cadical153"

Poly = List[int]  # coefficient j = number of solutions placing j mines


class CountingLimitError(MineconvError, RuntimeError):
    """A component too entangled for the exact counter within its state budget."""


@dataclass(frozen=True)
class Analysis:
    """The answer to `analyze`: decisions of one level, and the exact count and probabilities.

    `values[i]` is the decision for variable i + 1 (the unknown cells in row-major order): -1 open,
    0 safe, 1 mine. `mine_solutions[i]` is the number of solutions with a mine on variable i + 1.
    `solutions` is None only when the counter gave up (`count_error` says why).
    """

    puzzle: Puzzle
    system: LinearSystem
    level: str
    values: np.ndarray
    solutions: Optional[int]
    mine_solutions: Optional[Tuple[int, ...]]
    count_error: Optional[str] = None
    by_level: Dict[str, int] = field(default_factory=dict)

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

    def safe_cells(self) -> List[Tuple[int, int]]:
        """Unknown cells the level proves safe, row-major."""
        return [tuple(rc) for rc in self.system.var_rc[self.values == SAFE].tolist()]

    def mine_cells(self) -> List[Tuple[int, int]]:
        """Unknown cells the level proves to be mines, row-major."""
        return [tuple(rc) for rc in self.system.var_rc[self.values == MINE].tolist()]

    def probabilities(self) -> Optional[List[Fraction]]:
        """Exact mine probability of each variable (id order), or None without a count or a solution."""
        if not self.solutions or self.mine_solutions is None:
            return None
        return [Fraction(n, self.solutions) for n in self.mine_solutions]

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
    is then the backbone of the counts alone (plus `known`), a subset of the full one.
    """
    from pysat.solvers import Solver

    from .encode import to_cnf

    system = system if system is not None else build_system(puzzle, mines)
    k = system.num_vars
    values = np.full(k, UNDECIDED, dtype=np.int8)
    if known is not None:
        values[:] = known
    total = None if system.total is None or not use_total else system.total + puzzle.known_mine_count
    cnf = to_cnf(puzzle.replace(mines=total), mines=total)
    free = ~system.constrained_vars()
    with Solver(name=solver, bootstrap_with=cnf.clauses) as sat:
        for i in np.flatnonzero(values != UNDECIDED).tolist():
            sat.add_clause([i + 1 if values[i] == MINE else -(i + 1)])
        if not sat.solve():
            return None
        if k == 0:
            return values
        model, absent = _model_array(sat.get_model(), k)
        candidate = values == UNDECIDED
        # a cell in no clause takes either value: never part of the backbone
        candidate &= ~absent
        # free cells only meet the total count, so they are interchangeable: one stands for all of them
        free_open = np.flatnonzero(free & candidate)
        representative = int(free_open[0]) if free_open.size else -1
        if free_open.size > 1:
            candidate[free_open[1:]] = False
        seen = np.zeros((k, 2), dtype=bool)
        seen[np.arange(k), model.astype(np.int64)] = True
        if free_open.size and seen[free_open, 0].any() and seen[free_open, 1].any():
            candidate[representative] = False  # free cells of both values in one model: none is fixed
        for i in np.flatnonzero(candidate).tolist():
            if seen[i, 0] and seen[i, 1]:
                continue
            lit = i + 1 if model[i] else -(i + 1)
            try:
                # steer the search away from the models seen so far, to filter more cells per call
                sat.set_phases([-(j + 1) if model[j] else j + 1 for j in range(k)])
            except NotImplementedError:
                pass
            if sat.solve(assumptions=[-lit]):
                model, _ = _model_array(sat.get_model(), k)
                seen[np.arange(k), model.astype(np.int64)] = True
            else:
                values[i] = MINE if lit > 0 else SAFE
                sat.add_clause([lit])
        if representative >= 0:
            if values[representative] != UNDECIDED:
                values[free_open] = values[representative]
    return values


def _model_array(lits: Sequence[int], k: int) -> Tuple[np.ndarray, np.ndarray]:
    """(values, absent) of the first k variables of a SAT model; absent marks variables the model omits."""
    arr = np.asarray(lits if lits is not None else [], dtype=np.int64)
    arr = arr[np.abs(arr) <= k]
    model = np.zeros(k, dtype=bool)
    absent = np.ones(k, dtype=bool)
    model[arr[arr > 0] - 1] = True
    absent[np.abs(arr) - 1] = False
    return model, absent


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
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


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

    one: object = [1] if weighted else 1
    add = _padd if weighted else (lambda a, b: a + b)
    shift = (lambda a: [0] + a) if weighted else (lambda a: a)
    mul = _pmul if weighted else (lambda a, b: a * b)

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
    zero_w: object = [0] if weighted else 0
    for i in range(n - 1, -1, -1):
        cur_back: Dict[Tuple[int, ...], object] = {}
        m_i = zero_w
        for s, w in layers[i].items():
            t0, t1 = moves[i][s]
            acc = None
            if t0 is not None and t0 in back:
                acc = back[t0]
            if t1 is not None and t1 in back:
                b1 = shift(back[t1])
                acc = b1 if acc is None else add(acc, b1)
                m_i = add(m_i, mul(w, b1))
            if acc is not None:
                cur_back[s] = acc
        back = cur_back
        marg[order[i]] = m_i
    total = back[()]
    return total, marg


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


def count_solutions(system: LinearSystem, values: Optional[np.ndarray] = None,
                    max_states: int = DEFAULT_MAX_STATES) -> Tuple[int, Tuple[int, ...]]:
    """(number of solutions, per variable the number of solutions with a mine there).

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
        return 0, (0,) * k
    idx = np.flatnonzero(und > 0)
    cons = [(tuple(x for x in row if x and val[x] == UNDECIDED), r)
            for row, r in zip(cv[idx].tolist(), need[idx].tolist())]
    fixed_mines = int((val[1:] == MINE).sum())
    open_vars = set(np.flatnonzero(val[1:] == UNDECIDED) + 1)
    comps = _components(cons)
    in_comp = set(x for vs, _ in comps for x in vs)
    free = sorted(open_vars - in_comp)
    F = len(free)
    weighted = system.total is not None
    polys = []
    margs: Dict[int, object] = {}
    for vs, cis in comps:
        P, M = count_component(vs, [cons[ci] for ci in cis], system.var_rc, weighted, max_states)
        polys.append((vs, P, M))
        margs.update(M)
    per_var = [0] * k
    if not weighted:
        N = 2 ** F
        for _, P, _ in polys:
            N *= P
        if N == 0:
            return 0, tuple(per_var)
        for vs, P, M in polys:
            rest = N // P
            for x in vs:
                per_var[x - 1] = M[x] * rest
        for x in free:
            per_var[x - 1] = N // 2
    else:
        T = system.total - fixed_mines
        P_all: Poly = [1]
        for _, P, _ in polys:
            P_all = _pmul(P_all, P)

        row_f = _binomial_row(F)
        row_f1 = _binomial_row(F - 1) if F else []

        def binom(n_: int, r_: int) -> int:
            row = row_f if n_ == F else row_f1
            return row[r_] if 0 <= r_ < len(row) else 0

        N = sum(c * binom(F, T - j) for j, c in enumerate(P_all) if c)
        if N == 0:
            return 0, tuple(per_var)
        for vs, P, M in polys:
            others = _pdiv_exact(P_all, P)
            w = [sum(o * binom(F, T - j - kk) for kk, o in enumerate(others) if o) for j in range(len(P))]
            for x in vs:
                per_var[x - 1] = sum(m * w[j] for j, m in enumerate(M[x]) if m and j < len(w))
        if F:
            n_free = sum(c * binom(F - 1, T - j - 1) for j, c in enumerate(P_all) if c)
            for x in free:
                per_var[x - 1] = n_free
    for i in np.flatnonzero(val[1:] == MINE).tolist():
        per_var[i] = N
    return N, tuple(per_var)


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
        return None, (0, (0,) * system.num_vars), None
    try:
        counted = count_solutions(system, values, max_states)
    except CountingLimitError as exc:
        if system.total is not None:
            values = sat_backbone(puzzle, mines, system=system, known=values, use_total=True)
        return values, None, exc.message
    n, per_var = counted
    if n == 0:
        return None, counted, None
    if system.total is not None:
        per = np.asarray([0 if x == 0 else (2 if x == n else 1) for x in per_var], dtype=np.int8)
        values = values.copy()
        values[per == 0] = SAFE
        values[per == 2] = MINE
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
    solutions, per_var = counted if counted is not None else (None, None)
    if solutions == 0:
        return infeasible
    return Analysis(puzzle, system, level, values, solutions, per_var, error, by_level)
