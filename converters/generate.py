"""Random boards: Chlond's fully revealed boards, and game states a player would see."""
from __future__ import annotations

from typing import Optional

import numpy as np

from .errors import MineconvError
from .model.puzzle import NEIGHBOUR_OFFSETS, Puzzle, neighbour_count
from .wording import plural


def mine_counts(mine_grid: np.ndarray) -> np.ndarray:
    """Number of mines around each cell of a bool grid."""
    return neighbour_count(mine_grid)


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
        raise MineconvError(f"cannot place {plural(mines, 'mine')} on {plural(n, 'cell')}")
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


def _label_regions(mask: np.ndarray) -> np.ndarray:
    """Label the 8-connected regions of a bool grid: each True cell gets the smallest flat index of its region.

    Vectorised union-find (hook the larger root onto the smaller, then pointer jumping), so a 4000 x 4000
    board takes a few seconds rather than a Python loop per cell.
    """
    R, C = mask.shape
    parent = np.arange(R * C, dtype=np.int64)
    flat = np.arange(R * C, dtype=np.int64).reshape(R, C)
    pairs = []
    # each undirected neighbour pair once: right, down-left, down, down-right
    for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
        r0, r1 = 0, R - dr
        c0, c1 = max(0, -dc), C - max(0, dc)
        a = mask[r0:r1, c0:c1] & mask[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        pairs.append((flat[r0:r1, c0:c1][a], flat[r0 + dr:r1 + dr, c0 + dc:c1 + dc][a]))
    a = np.concatenate([p[0] for p in pairs])
    b = np.concatenate([p[1] for p in pairs])
    while a.size:
        ra, rb = parent[a], parent[b]
        differ = ra != rb
        a, b, ra, rb = a[differ], b[differ], ra[differ], rb[differ]
        if not a.size:
            break
        # any smaller root will do: labels only ever decrease, so no cycle can form
        parent[np.maximum(ra, rb)] = np.minimum(ra, rb)
        while True:
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
    return parent.reshape(R, C)


def _dilate(mask: np.ndarray) -> np.ndarray:
    """The cells of mask and their 8 neighbours."""
    R, C = mask.shape
    pad = np.zeros((R + 2, C + 2), dtype=bool)
    pad[1:-1, 1:-1] = mask
    out = mask.copy()
    for dr, dc in NEIGHBOUR_OFFSETS:
        out |= pad[1 + dr:1 + dr + R, 1 + dc:1 + dc + C]
    return out


def default_openings(rows: int, cols: int) -> int:
    """How many cells a game reveal opens by default: one per 50 cells, at least one.

    On expert boards (30 x 16, 99 mines) that uncovers about a third of the safe cells, a mid-game state.
    """
    return max(1, (rows * cols) // 50)


def game_reveal(mine_grid: np.ndarray, *, openings: Optional[int] = None, seed: Optional[int] = None,
                with_total: bool = True) -> Puzzle:
    """What a player sees after opening `openings` random zero cells: each flood-fills its zero region.

    Opening a zero cell reveals its whole 8-connected region of zeros and the counts bordering it, as in
    the game; the cells beyond stay unknown, so a frontier of counts next to unknown cells remains. A board
    without any zero cell opens random safe cells instead (each shows only its own count). Deterministic
    for a given seed; the openings are drawn from a stream separate from the mine placement.
    """
    R, C = mine_grid.shape
    if openings is None:
        openings = default_openings(R, C)
    if openings < 0:
        raise MineconvError(f"openings must be >= 0, got {openings}")
    counts = mine_counts(mine_grid)
    rng = np.random.default_rng(None if seed is None else [int(seed), 1])
    zero = (counts == 0) & ~mine_grid
    zero_cells = np.flatnonzero(zero)
    if zero_cells.size:
        picks = rng.choice(zero_cells, size=min(openings, zero_cells.size), replace=False)
        labels = _label_regions(zero)
        chosen = np.zeros(R * C, dtype=bool)
        chosen[labels.ravel()[picks]] = True
        opened = zero & chosen[labels]
        revealed = _dilate(opened)
    else:
        safe = np.flatnonzero(~mine_grid)
        revealed = np.zeros(R * C, dtype=bool)
        if safe.size:
            revealed[rng.choice(safe, size=min(openings, safe.size), replace=False)] = True
        revealed = revealed.reshape(R, C)
    codes = np.where(revealed & ~mine_grid, counts + ord("0"), ord("?")).astype(np.uint8)
    return Puzzle(R, C, codes.tobytes().decode("ascii"), mines=int(mine_grid.sum()) if with_total else None)


REVEALS = ("full", "game")


def random_puzzle(rows: int, cols: int, *, density: Optional[float] = None, mines: Optional[int] = None,
                  reveal: str = "full", seed: Optional[int] = None, openings: Optional[int] = None,
                  with_total: bool = True, name: Optional[str] = None) -> Puzzle:
    """A random board with its mines placed by seed, revealed fully (Chlond) or as a game state."""
    grid = place_mines(rows, cols, density=density, mines=mines, seed=seed)
    if reveal == "full":
        puzzle = full_reveal(grid, with_total=with_total)
    elif reveal == "game":
        puzzle = game_reveal(grid, openings=openings, seed=seed, with_total=with_total)
    else:
        raise MineconvError(f"unknown reveal {reveal!r}; valid: {', '.join(REVEALS)}")
    return puzzle.replace(name=name) if name is not None else puzzle


def opened_state(mine_grid: np.ndarray, row: int, col: int, *, with_total: bool = True) -> Puzzle:
    """What the player sees after opening (row, col) on a fresh board: a zero flood-fills as in the game.

    Opening a zero reveals its 8-connected region of zeros and every count bordering it; opening any
    other safe cell reveals only its own count. Raises MineconvError when (row, col) is off the board or
    holds a mine.
    """
    R, C = mine_grid.shape
    if not (0 <= row < R and 0 <= col < C):
        raise MineconvError(f"cell ({row}, {col}) is outside the {R} x {C} board")
    if mine_grid[row, col]:
        raise MineconvError(f"cell ({row}, {col}) holds a mine: opening it loses the game")
    counts = mine_counts(mine_grid)
    if counts[row, col] == 0:
        zero = (counts == 0) & ~mine_grid
        labels = _label_regions(zero)
        revealed = _dilate(zero & (labels == labels[row, col]))
    else:
        revealed = np.zeros((R, C), dtype=bool)
        revealed[row, col] = True
    codes = np.where(revealed & ~mine_grid, counts + ord("0"), ord("?")).astype(np.uint8)
    return Puzzle(R, C, codes.tobytes().decode("ascii"), mines=int(mine_grid.sum()) if with_total else None)


def lattice_text(rows: int, cols: int, density: float = 0.3, total: bool = True, seed: int = 1) -> str:
    """A board hard to count (issue 13): counts on every (odd row, odd column), every other cell unknown.

    Native text, with the total mine count first unless total=False; the same seed gives the same board.
    """
    import random

    rnd = random.Random(seed)
    mine = [[rnd.random() < density and not (r % 2 and c % 2) for c in range(cols)] for r in range(rows)]
    lines = []
    for r in range(rows):
        lines.append("".join(
            str(sum(mine[rr][cc] for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1)
                    if 0 <= rr < rows and 0 <= cc < cols)) if r % 2 and c % 2 else "?"
            for c in range(cols)))
    head = f"mines: {sum(map(sum, mine))}\n" if total else ""
    return head + "\n".join(lines) + "\n"
