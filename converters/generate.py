"""Random boards: Chlond's fully revealed boards, and game states a player would see."""
from __future__ import annotations

from typing import Optional

import numpy as np

from .errors import MineconvError
from .puzzle import NEIGHBOUR_OFFSETS, Puzzle


def mine_counts(mine_grid: np.ndarray) -> np.ndarray:
    """Number of mines around each cell of a bool grid."""
    R, C = mine_grid.shape
    pad = np.zeros((R + 2, C + 2), dtype=np.int8)
    pad[1:-1, 1:-1] = mine_grid
    out = np.zeros((R, C), dtype=np.int8)
    for dr, dc in NEIGHBOUR_OFFSETS:
        out += pad[1 + dr:1 + dr + R, 1 + dc:1 + dc + C]
    return out


def place_mines(rows: int, cols: int, *, density: Optional[float] = None, mines: Optional[int] = None,
                seed: Optional[int] = None) -> np.ndarray:
    """A bool grid with exactly `mines` mines, or round(density * cells), at random (deterministic per seed)."""
    if rows < 1 or cols < 1:
        raise MineconvError(f"the board must have at least one row and one column, got {rows} x {cols}")
    n = rows * cols
    if (density is None) == (mines is None):
        raise MineconvError("give exactly one of density and mines")
    if mines is None:
        if not 0.0 <= float(density) <= 1.0:  # type: ignore[arg-type]
            raise MineconvError(f"density must be between 0 and 1, got {density}")
        mines = int(round(float(density) * n))  # type: ignore[arg-type]
    if not 0 <= mines <= n:
        raise MineconvError(f"cannot place {mines} mines on {n} cells")
    rng = np.random.default_rng(seed)
    flat = np.zeros(n, dtype=bool)
    flat[rng.choice(n, size=mines, replace=False)] = True
    return flat.reshape(rows, cols)


def full_reveal(mine_grid: np.ndarray, *, with_total: bool = True) -> Puzzle:
    """Chlond's setting: every safe cell shows its count, every mine is an unknown cell."""
    counts = mine_counts(mine_grid)
    codes = np.where(mine_grid, ord("?"), counts + ord("0")).astype(np.uint8)
    R, C = mine_grid.shape
    return Puzzle(R, C, codes.tobytes().decode("ascii"), mines=int(mine_grid.sum()) if with_total else None)
