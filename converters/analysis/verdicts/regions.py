"""The zero regions of a mine layout, in numpy: the openings a click cascades into, and the 3BV.

A cell with no mine around it opens its neighbours when opened, so a click on it opens its whole region of
such cells (8-connected) and the ring around it. Cell by cell in Python, the 3BV of a 2000 x 2000 layout
took 33 s (issue 41, point 8); here the regions are found from the runs of zero cells in each row, runs of
adjacent rows that touch are joined by a union-find over the runs (not the cells), and a region's cells
come from one argsort of the labels.
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from ...core.puzzle import neighbour_count


def dilate(mask: np.ndarray) -> np.ndarray:
    """The cells of mask and their up to 8 neighbours."""
    out = mask.copy()
    out[1:, :] |= mask[:-1, :]
    out[:-1, :] |= mask[1:, :]
    grown = out.copy()
    grown[:, 1:] |= out[:, :-1]
    grown[:, :-1] |= out[:, 1:]
    return grown


def _runs(zero: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The runs of True cells per row, row-major: (row, first column, column after the last)."""
    rows, cols = zero.shape
    padded = np.zeros((rows, cols + 2), dtype=np.int8)
    padded[:, 1:-1] = zero
    step = np.diff(padded, axis=1)
    start_row, start_col = np.nonzero(step == 1)
    _, stop_col = np.nonzero(step == -1)
    return start_row, start_col, stop_col


def _touching(row: np.ndarray, start: np.ndarray, stop: np.ndarray, width: int) -> Tuple[np.ndarray, np.ndarray]:
    """Pairs (a, b) of runs, a in the row above b's, that touch (8-connected): a's columns meet b's +-1."""
    key_start = row * width + start
    key_stop = row * width + stop
    below = np.flatnonzero(row > 0)
    above_row = row[below] - 1
    # runs a of the row above with a.stop >= b.start (they reach b's first column - 1) and a.start <= b.stop
    lo = np.searchsorted(key_stop, above_row * width + start[below], "left")
    hi = np.searchsorted(key_start, above_row * width + stop[below], "right")
    many = np.maximum(hi - lo, 0)
    b = np.repeat(below, many)
    offsets = np.arange(int(many.sum())) - np.repeat(np.cumsum(many) - many, many)
    a = np.repeat(lo, many) + offsets
    return a, b


def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per node of a graph (edges a[i]-b[i]), the smallest node of its component: roots hooked under the
    smaller root across each edge, then paths halved, until no edge joins two roots (a few rounds)."""
    root = np.arange(n)
    while True:
        ra, rb = root[a], root[b]
        apart = ra != rb
        if not apart.any():
            return root
        ra, rb = ra[apart], rb[apart]
        low = np.minimum(ra, rb)
        np.minimum.at(root, ra, low)
        np.minimum.at(root, rb, low)
        while True:   # every node straight under its root
            up = root[root]
            if np.array_equal(up, root):
                break
            root = up


class Regions:
    """The zero regions of a layout: label per cell (-1: not a zero cell) and each region's cells."""

    def __init__(self, mines: np.ndarray, counts: Optional[np.ndarray] = None) -> None:
        self.mines = np.asarray(mines, dtype=bool)
        rows, cols = self.mines.shape
        if counts is None:
            counts = neighbour_count(self.mines)
        self.zero = (~self.mines) & (counts == 0)
        row, start, stop = _runs(self.zero)
        a, b = _touching(row, start, stop, cols + 2)
        roots = _components(len(row), a, b)
        self.count = int((roots == np.arange(len(row))).sum())
        self._zero_cells = np.flatnonzero(self.zero)          # row-major, as the runs
        self._labels = np.repeat(roots, stop - start)          # the region of each of them
        self._order: Optional[np.ndarray] = None

    def label(self, flat: int) -> int:
        """The region of a zero cell (its flat index)."""
        return int(self._labels[np.searchsorted(self._zero_cells, flat)])

    def cells(self, label: int) -> np.ndarray:
        """The flat indices of one region's cells (the first call sorts the zero cells by region)."""
        if self._order is None:
            self._order = np.argsort(self._labels, kind="stable")
            self._sorted = self._labels[self._order]
        lo, hi = np.searchsorted(self._sorted, [label, label + 1])
        return self._zero_cells[self._order[lo:hi]]

    def bbbv(self) -> int:
        """The fewest left clicks that open every safe cell: one per region, one per safe cell no region
        touches."""
        return self.count + int(((~self.mines) & ~dilate(self.zero)).sum())


def bbbv_of(mines: np.ndarray) -> int:
    """The layout's 3BV."""
    return Regions(mines).bbbv()
