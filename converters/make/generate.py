"""Random boards: Chlond's fully revealed boards, and game states a player would see."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..core.errors import InputError
from ..core.layout import dilate, full_reveal, label_regions, mine_counts
from ..core.puzzle import Puzzle
from ..core.wording import plural


def place_mines(rows: int, cols: int, *, density: Optional[float] = None, mines: Optional[int] = None,
                seed: Optional[int] = None) -> np.ndarray:
    """A bool grid with exactly `mines` mines, or round(density * cells), at random (deterministic per seed)."""
    if rows < 1 or cols < 1:
        raise InputError(f"the board must have at least one row and one column, got {rows} x {cols}")
    n = rows * cols
    if (density is None) == (mines is None):
        raise InputError("give exactly one of density and mines")
    if mines is None:
        if not 0.0 <= float(density) <= 1.0:  # type: ignore[arg-type]
            raise InputError(f"density must be between 0 and 1, got {density}")
        mines = int(round(float(density) * n))  # type: ignore[arg-type]
    if not 0 <= mines <= n:
        raise InputError(f"cannot place {plural(mines, 'mine')} on {plural(n, 'cell')}")
    rng = np.random.default_rng(seed)
    flat = np.zeros(n, dtype=bool)
    flat[rng.choice(n, size=mines, replace=False)] = True
    return flat.reshape(rows, cols)


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
        raise InputError(f"openings must be >= 0, got {openings}")
    counts = mine_counts(mine_grid)
    rng = np.random.default_rng(None if seed is None else [int(seed), 1])
    zero = (counts == 0) & ~mine_grid
    zero_cells = np.flatnonzero(zero)
    if zero_cells.size:
        picks = rng.choice(zero_cells, size=min(openings, zero_cells.size), replace=False)
        labels = label_regions(zero)
        chosen = np.zeros(R * C, dtype=bool)
        chosen[labels.ravel()[picks]] = True
        opened = zero & chosen[labels]
        revealed = dilate(opened)
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
        raise InputError(f"unknown reveal {reveal!r}; valid: {', '.join(REVEALS)}")
    return puzzle.replace(name=name) if name is not None else puzzle


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
