"""Per-mine-count weights of the table sweep (analysis/treecount.py) by residues modulo small primes.

With a total mine count a component's answer is polynomials: P[j] = solutions with j mines, M[v][j] = the
same with a mine on v. Packed into one big integer per state, the per-cell numbers cost one big-integer
product per live state and cell (2.45 million on a 30x30 checkerboard at density 0.4: most of a minute).
Here each state's polynomial is a row of residues modulo a prime p < 2**17, its columns the numbers of
mines so far within the layer's window (the fewest and most mines any of its states can hold, at most
some fifty wide on that board). A cell's safe move adds rows into the next state, its mine move adds them
one column to the right. The backward pass is the same in reverse (columns: mines from here to the end),
and the mine count of cell v is sum over states s with a mine move of fwd(s) (x) x (x) bwd(next(s, mine)):
a product of a (window x states) by a (states x window) matrix, whose anti-diagonals are the coefficients.

In float64 every sum is exact: a residue is below 2**17, a product below 2**34, and the matrix products
run over chunks of at most 2**18 rows, so no sum reaches 2**53. The layers are kept in float32, exact for
residues below 2**24. Enough primes are taken for their product to pass the plain count (every coefficient
is at most that), and the coefficients are rebuilt by Chinese remainders.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

import numpy as np

from ..core.bounds import UNBOUNDED, Bounds, CountingLimitError
from .treecount import (MAX_WIDTH, Cons, Moves, frontier, log_pass, modular_weigh, primes_below, prune, schedule,
                        sweep, sweep_order)

PRIME_LIMIT = 1 << 17
CHUNK = 1 << 18
NONE = 1 << 40    # the window bound of a state nothing reaches (pruned layers have none)

Poly = List[int]
Scatter = Tuple[np.ndarray, np.ndarray, np.ndarray]   # rows sorted by target, distinct targets, their starts


def windows(moves: Sequence[Moves]) -> Tuple[List[Tuple[int, int]], List[Tuple[int, int]]]:
    """Per layer, (fewest, most) mines before it over its states, and (fewest, most) from it to the end."""
    lo, hi = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    fwd = [(0, 0)]
    for idx0, idx1, size in moves:
        m0, m1 = idx0 >= 0, idx1 >= 0
        nlo, nhi = np.full(size, NONE, dtype=np.int64), np.full(size, -NONE, dtype=np.int64)
        np.minimum.at(nlo, idx0[m0], lo[m0])
        np.minimum.at(nlo, idx1[m1], lo[m1] + 1)
        np.maximum.at(nhi, idx0[m0], hi[m0])
        np.maximum.at(nhi, idx1[m1], hi[m1] + 1)
        lo, hi = nlo, nhi
        fwd.append((int(lo.min(initial=0)), int(hi.max(initial=0))))
    lo, hi = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    back = [(0, 0)]
    for idx0, idx1, _ in reversed(moves):
        m0, m1 = idx0 >= 0, idx1 >= 0
        s0, s1 = np.maximum(idx0, 0), np.maximum(idx1, 0)
        nlo = np.minimum(np.where(m0, lo[s0], NONE), np.where(m1, lo[s1] + 1, NONE))
        hi = np.maximum(np.where(m0, hi[s0], -NONE), np.where(m1, hi[s1] + 1, -NONE))
        lo = nlo
        back.append((int(lo.min(initial=0)), int(hi.max(initial=0))))
    back.reverse()
    return fwd, back


def _scatter_plan(idx: np.ndarray) -> Scatter:
    """How to add rows into their targets (idx, -1: none) by one sort, reused for every prime."""
    rows = np.flatnonzero(idx >= 0)
    rows = rows[np.argsort(idx[rows], kind="stable")]
    targets, starts = np.unique(idx[rows], return_index=True)
    return rows, targets, starts


def _scatter(plan: Scatter, src: np.ndarray, out: np.ndarray) -> None:
    """out[t] += sum of the rows of src moving to t."""
    rows, targets, starts = plan
    if len(rows):
        out[targets] += np.add.reduceat(src[rows], starts, axis=0)


def _forward(moves: Sequence[Moves], plans: Sequence[Tuple[Scatter, Scatter]], fwin: Sequence[Tuple[int, int]],
             p: float, bounds: Bounds, what: str, held: int) -> List[np.ndarray]:
    """Per layer, the forward residues: a row per state, a column per number of mines in the window."""
    layers = [np.ones((1, 1), dtype=np.float32)]
    kept = held
    for i, ((_, _, size), (plan0, plan1)) in enumerate(zip(moves, plans)):
        (lo, hi), (nlo, nhi) = fwin[i], fwin[i + 1]
        src = layers[-1].astype(np.float64)
        wide = np.zeros((size, hi - lo + 2))   # mines lo .. hi + 1, cut to the next window below
        _scatter(plan0, src, wide[:, :-1])
        _scatter(plan1, src, wide[:, 1:])
        layers.append(np.fmod(wide[:, nlo - lo:nhi - lo + 1], p).astype(np.float32))
        kept += layers[-1].nbytes
        bounds.check_memory(kept, what)
        bounds.check()
    return layers


def _mine_counts(fwd: np.ndarray, back: np.ndarray, idx1: np.ndarray, p: float) -> np.ndarray:
    """Sum over states with a mine move of fwd (x) bwd(next), as residues by (mines before + mines after)."""
    rows = np.flatnonzero(idx1 >= 0)
    out = np.zeros((fwd.shape[1], back.shape[1]))
    for start in range(0, len(rows), CHUNK):
        part = rows[start:start + CHUNK]
        out += np.fmod(fwd[part].astype(np.float64).T @ back[idx1[part]].astype(np.float64), p)
    out = np.fmod(out, p)
    diag = np.zeros(out.shape[0] + out.shape[1] - 1)
    for a in range(out.shape[0]):
        diag[a:a + out.shape[1]] += out[a]
    return np.fmod(diag, p)


def _residues(moves: Sequence[Moves], plans, fwin, bwin, p: float, degree: int, bounds: Bounds, what: str,
              held: int) -> Tuple[np.ndarray, np.ndarray]:
    """(P mod p by mines, M[cell] mod p by mines: a row per cell), columns 0 .. degree."""
    fwd = _forward(moves, plans, fwin, p, bounds, what, held)
    total = np.zeros(degree + 1)
    lo, hi = fwin[-1]
    total[lo:hi + 1] = fwd[-1][0]
    marg = np.zeros((len(moves), degree + 1))
    back = np.ones((1, 1))
    for i in range(len(moves) - 1, -1, -1):
        idx0, idx1, _ = moves[i]
        (flo, _), (blo, bhi) = fwin[i], bwin[i + 1]
        counts = _mine_counts(fwd[i], back, idx1, p)
        start = flo + blo + 1
        # past the most mines of the whole component the counts are exact zeros: cut them off
        counts = counts[:degree + 1 - start]
        marg[i, start:start + len(counts)] = counts
        (nlo, nhi) = bwin[i]
        wide = np.zeros((len(idx0), bhi - blo + 2))   # mines blo .. bhi + 1 from this layer on
        m0, m1 = idx0 >= 0, idx1 >= 0
        wide[m0, :-1] = back[idx0[m0]]
        wide[m1, 1:] += back[idx1[m1]]
        back = np.fmod(wide[:, nlo - blo:nhi - blo + 1], p)
        fwd[i + 1] = fwd[i + 1][:0]   # no longer needed
        bounds.check()
    return total, marg


def _polys(residues: Sequence[np.ndarray], primes: List[int]) -> List[Poly]:
    """Rows of exact coefficients from their residues modulo each prime (Chinese remainders)."""
    modulus = 1
    for q in primes:
        modulus *= q
    basis = [(modulus // q) * pow(modulus // q, -1, q) for q in primes]
    stacked = np.stack([r.astype(np.int64) for r in residues])   # primes x rows x degree
    out = []
    for row in range(stacked.shape[1]):
        cols = np.flatnonzero(stacked[:, row].any(axis=0))
        coeffs = [0] * (int(cols.max()) + 1 if len(cols) else 1)
        for c in cols.tolist():
            coeffs[c] = sum(int(r) * b for r, b in zip(stacked[:, row, c].tolist(), basis)) % modulus
        out.append(coeffs)
    return out


def modular_polys(moves: Sequence[Moves], bits: int, bounds: Bounds = UNBOUNDED, what: str = "a component",
                  held: int = 0) -> Tuple[Poly, List[Poly]]:
    """(P, M per cell of the sweep's order) as exact coefficient lists; `bits`: bits of the plain count.

    A coefficient is at most the plain count, so primes whose product passes 2**bits rebuild it exactly.
    """
    primes = primes_below(PRIME_LIMIT, bits // 16 + 1)
    fwin, bwin = windows(moves)
    degree = fwin[-1][1]
    plans = [(_scatter_plan(idx0), _scatter_plan(idx1)) for idx0, idx1, _ in moves]
    held += sum(8 * (len(a[0]) + len(b[0])) for a, b in plans)
    per_prime = [_residues(moves, plans, fwin, bwin, float(q), degree, bounds, what, held) for q in primes]
    rows = _polys([np.vstack([t[None, :], m]) for t, m in per_prime], primes)
    return rows[0], rows[1:]


def count_big_component(vars_: Sequence[int], cons: Cons, var_rc: np.ndarray, weighted: bool = True,
                        bounds: Bounds = UNBOUNDED, max_states: int = 1 << 62):
    """The same answer as counting.count_component: (P, {v: M[v]}), polynomials when weighted, else ints.

    Raises CountingLimitError when the sweep would keep more than MAX_WIDTH counts open or a layer would
    pass max_states states, CountingMemoryError past the memory budget of `bounds`."""
    what = f"counting a component of {len(vars_)} linked unknown cells"
    order = sweep_order(vars_, cons, var_rc)
    width, _ = frontier(order, cons)
    if width > MAX_WIDTH:
        raise CountingLimitError(f"{what} would keep {width} counts open at once (more than {MAX_WIDTH})")
    moves = prune(sweep(schedule(order, cons), bounds, what, max_states))
    held = sum(16 * len(idx0) for idx0, _, _ in moves)
    log_total, _ = log_pass(moves)
    if log_total == float("-inf"):
        zero: object = [0] if weighted else 0
        return zero, {v: zero for v in vars_}
    if not weighted:
        total, marg = modular_weigh(moves, int(log_total) + 4, bounds, what, held)
        return total, dict(zip(order, marg))
    P, M = modular_polys(moves, int(log_total) + 4, bounds, what, held)
    return P, dict(zip(order, M))
