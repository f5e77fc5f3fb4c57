"""Before a swept component's passes: each layer's span of mines, the bytes its kept layers would take
either way, and so which way runs first and whether it keeps every layer or one in a square root of them.

`KeptPasses` is what the second pass (`carry`) reads of a `BigComponent`: the layers kept by the first
pass, and the means to recompute those between two kept ones.
"""
from __future__ import annotations

from typing import Dict, List, Protocol, Sequence, Tuple

import numpy as np

from ....core.bounds import Bounds, int_bytes
from ..packing import top_bits
from .rows import NONE, Moves, Swept, Weights


class KeptPasses(Protocol):
    """A swept component after its first pass, as the second pass sees it (`total.BigComponent`)."""

    swept: Swept
    what: str
    slot: int
    every: int
    kept: Dict[int, Weights]
    lows: List[np.ndarray]
    tops: List[np.ndarray]
    logs: List[float]
    slots: List[int]

    def segment(self, start: int, end: int, bounds: Bounds, held: int) -> List[Weights]:
        """The kept pass's layers between two kept ones, recomputed."""


# a step's peak beside what is held: the layer it reads, the shifted copies of its weights and the layer it
# makes (push and _pull_down); counting the new layer once let checker-40x40-0.4 reach 2.5 GB of RSS under a
# 2 GB budget, whose estimate stayed below it
WORKING = 4


def layer_bytes(layer: Weights) -> int:
    """Estimated bytes of a layer of packed weights (judged by the biggest of 16 states across it)."""
    vals = layer[0]
    return (16 + int_bytes(top_bits(vals[::max(1, len(vals) // 16)]))) * len(vals)


def back_extent(moves: Sequence[Moves]) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    """Per layer and state, the fewest and the most mines a way on from it places (the backward weights'
    first and last slots)."""
    lows, tops = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
    for idx0, idx1, _ in reversed(moves):
        m0, m1 = idx0 >= 0, idx1 >= 0
        i0, i1 = np.maximum(idx0, 0), np.maximum(idx1, 0)
        lows.append(np.minimum(np.where(m0, lows[-1][i0], NONE), np.where(m1, lows[-1][i1] + 1, NONE)))
        tops.append(np.maximum(np.where(m0, tops[-1][i0], -1), np.where(m1, tops[-1][i1] + 1, -1)))
    return lows[::-1], tops[::-1]


def log_back(moves: Sequence[Moves]) -> List[float]:
    """Per layer, log2 of its largest plain backward weight (scaled floats, as rows' log pass)."""
    back, scale, logs = np.ones(1), 0.0, [0.0]
    for idx0, idx1, _ in reversed(moves):
        m0, m1 = idx0 >= 0, idx1 >= 0
        out = np.zeros(len(idx0))
        out[m0] = back[idx0[m0]]
        out[m1] += back[idx1[m1]]
        peak = float(out.max(initial=0.0))
        back = out / peak if peak > 0 else out
        scale += float(np.log2(peak)) if peak > 0 else 0.0
        logs.append(scale)
    return logs[::-1]


def kept_bound(lows: Sequence[np.ndarray], tops: Sequence[np.ndarray], slots: Sequence[int]) -> int:
    """Bytes of every layer's weights: their slots, each a Python int (~56 bytes besides its digits) behind
    16 bytes of arrays."""
    return sum(int(((top - low + 1) * slot).sum()) + 72 * len(top) for low, top, slot in zip(lows, tops, slots))


def slot_widths(logs: Sequence[float], most: int) -> List[int]:
    """Per layer, bytes per slot of the backward weights: whole 16-bit limbs over the layer's largest plain
    weight, growing from the end (a layer's pull can widen what it reads, never narrow it)."""
    out, cur = [], 2
    for log in reversed(logs):
        cur = min(most, max(cur, (int(log) + 4 + 15) // 16 * 2))
        out.append(cur)
    return out[::-1]


def extent(moves: Sequence[Moves]) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    """Per layer and state, the fewest and the most mines a way in places (the forward weights' first
    and last slots)."""
    lows, tops = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
    for idx0, idx1, size in moves:
        m0, m1 = idx0 >= 0, idx1 >= 0
        low = np.full(size, NONE, dtype=np.int64)
        top = np.full(size, -1, dtype=np.int64)
        for m, idx, mine in ((m0, idx0, 0), (m1, idx1, 1)):
            np.minimum.at(low, idx[m], lows[-1][m] + mine)
            np.maximum.at(top, idx[m], tops[-1][m] + mine)
        lows.append(low)
        tops.append(top)
    return lows, tops
