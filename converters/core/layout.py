"""Mine layouts made into puzzles: each cell's count, the full reveal, and the state after one opening."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import InputError
from .graph import component_roots
from .lazy import LazyModule
from .puzzle import NEIGHBOUR_OFFSETS, Puzzle, neighbour_count

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use: a small solve needs no numpy
    np = LazyModule("numpy", __name__, "np")


def mine_counts(mine_grid: np.ndarray) -> np.ndarray:
    """Number of mines around each cell of a bool grid."""
    return neighbour_count(mine_grid)


def full_reveal(mine_grid: np.ndarray, *, with_total: bool = True) -> Puzzle:
    """Chlond's setting: every safe cell shows its count, every mine is an unknown cell."""
    counts = mine_counts(mine_grid)
    codes = np.where(mine_grid, ord("?"), counts + ord("0")).astype(np.uint8)
    R, C = mine_grid.shape
    return Puzzle(R, C, codes.tobytes().decode("ascii"), mines=int(mine_grid.sum()) if with_total else None)


def label_regions(mask: np.ndarray) -> np.ndarray:
    """Label the 8-connected regions of a bool grid: each True cell gets the smallest flat index of its region.

    Vectorised union-find (graph.component_roots), so a 4000 x 4000 board takes a few seconds rather than a
    Python loop per cell.
    """
    R, C = mask.shape
    flat = np.arange(R * C, dtype=np.int64).reshape(R, C)
    pairs = []
    # each undirected neighbour pair once: right, down-left, down, down-right
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        r0, r1 = 0, R - dr
        c0, c1 = max(0, -dc), C - max(0, dc)
        a = mask[r0:r1, c0:c1] & mask[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        pairs.append((flat[r0:r1, c0:c1][a], flat[r0 + dr:r1 + dr, c0 + dc:c1 + dc][a]))
    parent = component_roots(R * C, np.concatenate([p[0] for p in pairs]), np.concatenate([p[1] for p in pairs]))
    return parent.reshape(R, C)


def dilate(mask: np.ndarray) -> np.ndarray:
    """The cells of mask and their 8 neighbours."""
    R, C = mask.shape
    pad = np.zeros((R + 2, C + 2), dtype=bool)
    pad[1:-1, 1:-1] = mask
    out = mask.copy()
    for dr, dc in NEIGHBOUR_OFFSETS:
        out |= pad[1 + dr:1 + dr + R, 1 + dc:1 + dc + C]
    return out


def opened_state(mine_grid: np.ndarray, row: int, col: int, *, with_total: bool = True) -> Puzzle:
    """What the player sees after opening (row, col) on a fresh board: a zero flood-fills as in the game.

    Opening a zero reveals its 8-connected region of zeros and every count bordering it; opening any
    other safe cell reveals only its own count. Raises MineconvError when (row, col) is off the board or
    holds a mine.
    """
    R, C = mine_grid.shape
    if not (0 <= row < R and 0 <= col < C):
        raise InputError(f"cell ({row}, {col}) is outside the {R} x {C} board")
    if mine_grid[row, col]:
        raise InputError(f"cell ({row}, {col}) holds a mine: opening it loses the game")
    counts = mine_counts(mine_grid)
    if counts[row, col] == 0:
        zero = (counts == 0) & ~mine_grid
        labels = label_regions(zero)
        revealed = dilate(zero & (labels == labels[row, col]))
    else:
        revealed = np.zeros((R, C), dtype=bool)
        revealed[row, col] = True
    codes = np.where(revealed & ~mine_grid, counts + ord("0"), ord("?")).astype(np.uint8)
    return Puzzle(R, C, codes.tobytes().decode("ascii"), mines=int(mine_grid.sum()) if with_total else None)
