"""The endgame's game tree (advice/endgame.Tree) against the plain search written here: the same wins for
every set and move, and never more sets weighed (ENDGAME_NODES bounds that number, so a tree that weighed
more would give up on positions the plain search finishes; its cuts only skip sets)."""
from __future__ import annotations

import time
from typing import Dict, List

import numpy as np
import pytest

from mineconv import Puzzle
from mineconv.analysis.advice.endgame import Tree, list_layouts
from mineconv.analysis.advice.position import count_puzzle, neighbour_table


class PlainTree:
    """wins(S) looking at every cell of every set, each split made in full."""

    def __init__(self, shows: List[Dict[int, int]]) -> None:
        self.shows = shows
        self.memo: Dict[int, int] = {}
        self.nodes = 0

    def split(self, S: int, k: int) -> Dict[int, int]:
        return {v: S & m for v, m in self.shows[k].items() if S & m}

    def move_wins(self, S: int, k: int) -> int:
        return sum(self.wins(p) for p in self.split(S, k).values())

    def wins(self, S: int) -> int:
        if bin(S).count("1") <= 1:
            return S.bit_count()
        if S in self.memo:
            return self.memo[S]
        self.nodes += 1
        size = bin(S).count("1")
        risky = []
        for k in range(len(self.shows)):
            parts = self.split(S, k)
            empty = sum(bin(p).count("1") for p in parts.values())
            if empty == size and len(parts) > 1:
                self.memo[S] = sum(self.wins(p) for p in parts.values())
                return self.memo[S]
            if 0 < empty < size:
                risky.append((-empty, k))
        best = 0
        for minus_empty, k in sorted(risky):
            if -minus_empty > best:
                best = max(best, self.move_wins(S, k))
        self.memo[S] = best
        return best


def endgames(seed: int, count: int):
    """Random game positions of 6x6 to 8x8 boards with 2 to 120 layouts: a random layout, a flood-filling
    first click on a cell next to no mine, then random safe clicks."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        rows, cols = int(rng.integers(6, 9)), int(rng.integers(6, 9))
        n = rows * cols
        mines = set(rng.choice(n, size=int(rng.integers(n // 8, n // 4)), replace=False).tolist())
        table = neighbour_table(rows, cols)
        shown: Dict[int, int] = {}
        for _ in range(int(rng.integers(1, 4))):
            closed = [i for i in range(n) if i not in mines and i not in shown]
            stack = [closed[int(rng.integers(len(closed)))]]
            while stack:
                i = stack.pop()
                if i not in shown:
                    shown[i] = sum(j in mines for j in table[i])
                    if not shown[i]:
                        stack.extend(table[i])
        cells = "".join(str(shown[i]) if i in shown else "?" for i in range(n))
        puzzle = Puzzle(rows, cols, cells, mines=len(mines))
        counted = count_puzzle(puzzle)
        if 2 <= counted.solutions <= 120:
            made += 1
            yield puzzle, counted


@pytest.mark.parametrize("seed", range(3))
def test_tree_weighs_the_plain_searchs_sets_with_its_wins(seed):
    weighed = 0
    for puzzle, counted in endgames(seed, 40):
        table = neighbour_table(puzzle.rows, puzzle.cols)
        layouts = list_layouts(puzzle.cells, counted.unknown, table, puzzle.mines, time.perf_counter() + 60)
        assert len(layouts) == counted.solutions
        tree = Tree(layouts, counted.unknown, table, time.perf_counter() + 60)
        plain = PlainTree(tree.shows)
        full = (1 << len(layouts)) - 1
        assert tree.wins(full) == plain.wins(full)
        for k in range(len(counted.unknown)):
            assert tree.move_wins(full, k) == plain.move_wins(full, k), (puzzle, k)
            assert tree.nodes <= plain.nodes, (puzzle, k)
        weighed += tree.nodes
    assert weighed > 200


@pytest.mark.parametrize("seed", range(3))
def test_layouts_with_the_counts_certain_cells_placed_first_are_the_full_searchs(seed):
    placed = 0
    for puzzle, counted in endgames(10 + seed, 40):
        table = neighbour_table(puzzle.rows, puzzle.cols)
        n, ms = counted.solutions, counted.mine_solutions
        assert ms is not None
        certain = {k: 1 if x else 0 for k, x in enumerate(ms) if x in (0, n)}
        every = list_layouts(puzzle.cells, counted.unknown, table, puzzle.mines, time.perf_counter() + 60)
        fast = list_layouts(puzzle.cells, counted.unknown, table, puzzle.mines, time.perf_counter() + 60, certain)
        assert fast == every and len(every) == n, puzzle
        # a number beside both a certain cell and a searched one: the certain cell's mine is taken off it
        kinds = {cell: k in certain for k, cell in enumerate(counted.unknown)}
        placed += any(ch.isdigit() and {kinds[j] for j in table[i] if j in kinds} == {True, False}
                      for i, ch in enumerate(puzzle.cells))
    assert placed > 20
