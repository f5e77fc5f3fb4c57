"""A grid padded by a border and flattened, so each cell's 8 neighbours are fixed offsets in one array.

Worked example: a 2 x 3 grid padded with 0 becomes a flat array of 4 x 5 values with row width 5; the
cell (0, 0) sits at flat position (0 + 1) * 5 + 0 + 1 = 6, and its neighbours at 6 + dr * 5 + dc for each
(dr, dc) in NEIGHBOUR_OFFSETS: 0, 1, 2, 5, 7, 10, 11, 12. The border stands in for the cells off the board,
so no neighbour lookup needs a bounds check.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Tuple

from .lazy import LazyModule
from .puzzle import NEIGHBOUR_OFFSETS

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")


def padded(grid: np.ndarray, fill: int) -> Tuple[np.ndarray, int]:
    """A (rows, cols) grid with a border of `fill` around it, flattened, and its row width (cols + 2)."""
    R, C = grid.shape
    out = np.full((R + 2, C + 2), fill, dtype=grid.dtype)
    out[1:-1, 1:-1] = grid
    return out.ravel(), C + 2


def centres(rc: np.ndarray, width: int) -> np.ndarray:
    """Flat positions of cells (rows of rc) in a grid padded by `padded`."""
    return (rc[:, 0].astype(np.int64) + 1) * width + rc[:, 1] + 1


def scatter_neighbours(grid: np.ndarray, width: int, centre: np.ndarray, dest: np.ndarray, slot: np.ndarray,
                       blank: int = 0, offset: int = 0) -> np.ndarray:
    """Pack each centre's neighbour values that are not `blank` (plus offset) into dest[slot[i]],
    dest[slot[i] + 1], ...; return each centre's next free slot. The neighbours come in row-major order,
    so ids come out ascending without a sort; a blank is written too, then overwritten by the next value
    (or left as padding)."""
    slot = slot.copy()
    for dr, dc in NEIGHBOUR_OFFSETS:
        found = grid.take(centre + (dr * width + dc))
        dest[slot] = found + offset if offset else found
        slot += found != blank
    return slot
