"""The board's count from its components' counts: the solutions, and per cell the solutions with a mine.

`count` counts each component of linked cells; here the components are combined with the cells no
count touches (free cells): by products of plain counts without a total mine count, by a product of
polynomials weighted with binomial coefficients with one.

The per-cell numbers of a big board are huge integers (300,000 digits on 1000x1000), so cells of one kind
share one int object: every free cell, and every cell whose component has the same count and the same
number of solutions with a mine on it. A new integer per cell grew with the square of the board (a 300x300
board of '?' took 1.1 GB); report.per_count divides once per object. The long loops here look at the
clock: a product of two big polynomials or the weighted sum over a 1000x1000 board's window of binomials
took minutes between two looks (issue 40, point 4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...core.bounds import Bounds, int_bytes
from .marginals import approx_marginals
from .polynomials import Poly, big_number, binomial_bits, binomial_window, pdiv_exact, pmul
from .sweep.total import BigComponent
from .tree.weigh import TreeComponent

LATER = (BigComponent, TreeComponent)   # components whose per-cell numbers come once w is known
EXACT_WORK_BUDGET = 10 ** 8  # ~ seconds of big-integer products for exact per-cell numbers
CHECK_EVERY = 64             # terms of a big weighted sum between two looks at the clock


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


def binomial_weights(n: int, t: int, d: int, bounds: Bounds) -> List[int]:
    """[C(n, t - m) for m in 0 .. d-1], 0 where t - m is outside 0..n; its memory checked against bounds."""
    lo, hi = max(0, t - d + 1), min(n, t)
    if lo > hi:
        return [0] * d
    peak = min(max(n // 2, lo), hi)  # the biggest binomial of the window
    bounds.check_memory((hi - lo + 1) * int_bytes(binomial_bits(n, peak)),
                        f"the binomial weights of {n} free cells")
    window = binomial_window(n, lo, hi, bounds.check)
    return [window[t - m - lo] if lo <= t - m <= hi else 0 for m in range(d)]


def weighted_sum(P: Sequence[int], G: Sequence[int], bounds: Bounds) -> int:
    """sum(P[m] * G[m]), the clock looked at every CHECK_EVERY terms; big terms multiplied by GMP.

    On a 1000x1000 game board the 12,000 terms of 7 kbit by 350 kbit took 100 s as CPython ints.
    """
    total: Any = 0
    for m, (c, g) in enumerate(zip(P, G)):
        if c and g:
            total += big_number(c) * g
        if m % CHECK_EVERY == CHECK_EVERY - 1:
            bounds.check()
    return int(total)


def polynomial_product(polys: List[Poly], bounds: Bounds) -> Poly:
    """The product of the polynomials, as a balanced tree, the clock looked at between two products.

    Multiplying the growing product by one component at a time repacked the whole product per component
    (minutes on a 1000x1000 game board with tens of thousands of them).
    """
    layer: List[Poly] = list(polys) or [[1]]
    while len(layer) > 1:
        nxt = []
        for i in range(0, len(layer), 2):
            nxt.append(pmul(layer[i], layer[i + 1]) if i + 1 < len(layer) else layer[i])
            bounds.check()
        layer = nxt
    return layer[0]


def _numbers(k: int, free: np.ndarray, n_free: int, fixed: List[int], N: int) -> np.ndarray:
    """Per variable (index id - 1) its number as an object array: n_free on the free cells (ids), N on the
    fixed mines, 0 elsewhere; numpy's assignment keeps one object for all (16 million cells in 0.7 s)."""
    per_var = np.zeros(k, dtype=object)
    per_var[free - 1] = n_free
    per_var[np.asarray(fixed, dtype=np.int64)] = N
    return per_var


def count_without_total(polys, free: np.ndarray, fixed: List[int], k: int, bounds: Bounds) -> Count:
    """The count and per-cell numbers from the components' plain counts: any number of mines goes.

    `free` holds the ids of the free cells. The distinct per-cell numbers are held to the memory budget
    before they are made.
    """
    N = 2 ** len(free)
    for _, P, _ in polys:
        N *= P
    if N == 0:
        return Count(0, (0,) * k)
    per_var = _numbers(k, free, N // 2, fixed, N)
    shared: Dict[Tuple[int, int], int] = {}   # (P, M[x]) -> M[x] * (N // P)
    size = int_bytes(N.bit_length())
    for n, (vs, P, M) in enumerate(polys):
        for x in vs:
            key = (P, M[x])
            number = shared.get(key)
            if number is None:
                bounds.check_memory((len(shared) + 2) * size, f"the per-cell numbers of {k} unknown cells")
                number = shared[key] = M[x] * (N // P)
            per_var[x - 1] = number
        if n % CHECK_EVERY == 0:
            bounds.check()
    return Count(N, tuple(per_var.tolist()))


def count_with_total(polys, free: np.ndarray, fixed: List[int], k: int, T: int, exact_budget: int,
                     bounds: Bounds) -> Count:
    """The count and per-cell numbers when T mines are left for the components and the F free cells (ids)."""
    F = len(free)
    P_all = polynomial_product([P for _, P, _ in polys], bounds)
    D = len(P_all)
    # G[m]: ways to put the remaining T - m mines on the F free cells when the components hold m; only
    # the window of Pascal's row that m = 0 .. D-1 reaches is built, and its size is held to the budget
    # (on a 1000x1000 game board the whole row of 261,722 free cells took 6 GB)
    G = binomial_weights(F, T, D, bounds)
    N = weighted_sum(P_all, G, bounds)
    if N == 0:
        return Count(0, (0,) * k)
    distinct = {tuple(P) for _, P, _ in polys}
    g_words = max(1, max(g.bit_length() for g in G) // 64)
    work = sum(len(P) for P in distinct) * D * g_words
    if work > exact_budget:
        polys = [(vs, P, M.polynomials(bounds) if isinstance(M, LATER) else M) for vs, P, M in polys]
        return Count(N, None, approx_marginals(polys, P_all, G, free, T, k, fixed, bounds.check))
    # a free cell holds one of the T mines
    n_free = weighted_sum(P_all, binomial_weights(F - 1, T - 1, D, bounds), bounds) if F else 0
    per_var = _numbers(k, free, n_free, fixed, N)
    _weighted_cells(polys, P_all, G, per_var, bounds)
    return Count(N, tuple(per_var.tolist()))


def _weighted_cells(polys, P_all: Poly, G: List[int], per_var: np.ndarray, bounds: Bounds) -> None:
    """Per component cell, the solutions with a mine on it; cells of one kind share one number."""
    D = len(P_all)
    weights: Dict[Tuple[int, ...], List[int]] = {}
    shared: Dict[Tuple[Tuple[int, ...], Tuple[int, ...]], int] = {}
    for vs, P, M in polys:
        key = tuple(P)
        if key not in weights:
            others = pdiv_exact(P_all, P)
            weights[key] = [sum(o * G[j + kk] for kk, o in enumerate(others) if o and j + kk < D)
                            for j in range(len(P))]
            bounds.check()
        w = weights[key]
        if isinstance(M, LATER):
            numbers = M.weighted_mines(w, bounds)
            for x in vs:
                per_var[x - 1] = numbers[x]
            continue
        for x in vs:
            mx = tuple(M[x])
            number = shared.get((key, mx))
            if number is None:
                number = shared[key, mx] = sum(m * w[j] for j, m in enumerate(mx) if m and j < len(w))
            per_var[x - 1] = number
