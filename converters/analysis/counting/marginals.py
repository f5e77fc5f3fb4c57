"""Approximate mine probabilities in double precision, for big boards where exact ones cost minutes.

The solution count and which cells are certain (probability exactly 0 or 1) stay exact; only the
other probabilities are floats. `Analysis.probabilities_exact` tells a caller which it got.
"""
from __future__ import annotations

import math
from typing import Callable, List, Optional, Sequence, Tuple

import numpy as np

from .polynomials import Poly


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


Pair = Tuple[np.ndarray, np.ndarray]   # (tilted floats scaled to a maximum of 1, 0/1 support)


def approx_marginals(polys, P_all: Poly, G: List[int], free: np.ndarray | Sequence[int], T: int, k: int,
                     fixed: List[int], check: Optional[Callable[[], None]] = None) -> Tuple[float, ...]:
    """Probabilities in floats by a product tree of the component polynomials; 0 and 1 decided exactly.

    Going down the tree, each child receives the weights of its parent correlated with its sibling's
    polynomial (a middle product), so every leaf gets the weights w_c[j] of "j mines in component c"
    without dividing polynomials; every term is non-negative, so nothing cancels. To keep the huge
    binomial weights and solution counts inside the range of a double, every polynomial is tilted by
    t**j (and the binomials by t**-m), which leaves each product P_all[m] * G[m] unchanged; t makes the
    binomials flat where the weight of the whole board peaks. Exact zeros are tracked by the same tree
    on 0/1 supports.
    """
    log_t = _tilt(P_all, G)
    leaves = [(_tilted(P, log_t, +1), np.asarray([x > 0 for x in P], dtype=np.int64)) for _, P, _ in polys]
    tree = _product_tree(leaves)
    g_float = _tilted(G, log_t, -1)
    down = _middle_products(tree, (g_float, np.asarray([x > 0 for x in G], dtype=np.int64)))
    probs = [0.0] * k
    for n, ((vs, P, M), weights, (p_float, _)) in enumerate(zip(polys, down, leaves)):
        _component_probs(vs, P, M, weights, p_float, log_t, probs)
        if check is not None and n & 63 == 63:
            check()   # `check`: a deadline's, looked at every 64 components (tens of thousands on 1000x1000)
    if len(free):   # a list, or numpy's array of the free cells' ids
        root = tree[-1][0][0] if tree[-1] else np.ones(1)
        p = _free_prob(root * g_float[:len(root)], P_all, G, T, len(free))
        for x in free:
            probs[x - 1] = p
    for i in fixed:
        probs[i] = 1.0
    return tuple(probs)


def _tilt(P_all: Poly, G: List[int]) -> float:
    """log2 of the tilt t: the binomials' ratio from one mine count to the next where the board's weight peaks."""
    log_w = [_log2(c) + _log2(g) for c, g in zip(P_all, G)]
    peak = int(np.argmax(log_w))
    nxt = peak + 1 if peak + 1 < len(G) and G[peak + 1] else peak - 1
    if 0 <= nxt < len(G) and G[nxt] and G[peak]:
        return (_log2(G[nxt]) - _log2(G[peak])) / (nxt - peak)
    return 0.0


def _product_tree(leaves: List[Pair]) -> List[List[Pair]]:
    """The levels of a balanced product tree, leaves first: each node the product of its two children."""
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
    return tree


def _middle_products(tree: List[List[Pair]], root: Pair) -> List[Pair]:
    """The weights each leaf receives going down the tree from `root` (the tilted binomials)."""
    down = [root]
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
    return down


def _component_probs(vs: Sequence[int], P: Poly, M, weights: Pair, p_float: np.ndarray, log_t: float,
                     probs: List[float]) -> None:
    """Fill probs for the cells of one component, given the weights its leaf received."""
    w, ws = weights
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


def _free_prob(weights: np.ndarray, P_all: Poly, G: List[int], T: int, F: int) -> float:
    """The probability of each of the F free cells (touched by no count), weights[m] for m component mines."""
    support = [c > 0 and g > 0 for c, g in zip(P_all, G)]
    left = np.asarray([(T - m) / F for m in range(len(weights))])
    total_w = weights.sum()
    has_mine = any(e and T - m > 0 for m, e in enumerate(support))
    has_empty = any(e and T - m < F for m, e in enumerate(support))
    p = float((weights * left).sum() / total_w) if total_w > 0 else 0.5
    return 0.0 if not has_mine else 1.0 if not has_empty else min(max(p, 1e-300), 1 - 1e-16)
