"""Exact analysis of small boards in plain Python: the whole of `analyze`'s full level, without SAT.

On a board of a few hundred cells the general path (numpy system, propagation, a SAT backbone, the cell
by cell counter) spends almost all of its time on fixed costs: numpy calls on tiny arrays, solver set-up.
Here the exact count alone answers everything the full level asks: a cell is certain exactly when no
solution, or every one, puts a mine on it, so the backbone is read off the per-cell counts.

The counter works on groups, not cells (`groups`): unknown cells touched by the same set of counts are
one variable holding 0..n mines. `frontier` goes from the cells string straight to them: the cells single
counts decide are settled on bit masks of the cells, only the cells left open are grouped, and on a long
frontier the groups pairs of overlapping counts decide are settled too, which cuts a game board's frontier
into small components. The answer is made per class of cells (free, safe, mine, each open group) and
spread to the unknown cells in one bytes pass; the answer keeps the classes (CellClasses), so the
probability grid is one division per class and one lookup per cell.

`quick_count` gives up (None) where the states grow past a small budget; the caller then takes the
general path. Its answers are the general path's, integer for integer (tests/analysis/small/test_quick.py holds them).
"""
from __future__ import annotations

from operator import mul
from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy as np

from ...core.puzzle import Puzzle
from ...core.system import LinearSystem, build_system, unknown_rc
from ..counting.count import Count
from ..counting.packing import pack, unpack
from ..counting.polynomials import binomial, binomial_window
from .frontier import FREE, MAX_CLASSES, MINE, components, pair_rule, popcount, positions, settled_frontier
from .groups import component_polynomials

# boards up to this many cells take the quick path (expert is 480); beyond it the general path's
# numpy set-up costs less than Python loops over the cells
QUICK_MAX_CELLS = 1024
# components of more groups than this are first cut by what pairs of counts decide
PAIR_RULE_GROUPS = 30
# components of at least this many groups are kept once counted, up to COMPONENT_CACHE of them (0: none),
# keyed by all their count depends on (per group its counts' mask and size, per count the mines it needs):
# a game's next position, and each position the guess weigher imagines, changes one component and leaves
# the others as they were (smaller components cost less to count than to look up). 512 kept the gain of
# 4096 on 30 expert games' counts (429 and 428 us a count, 466 without); an entry of those games took ~4 kB
# (key and answer), so the cache stays at a few MB
CACHED_GROUPS = 3
COMPONENT_CACHE = 512
_counted: Dict[tuple, object] = {}
# the last positions quick_outcome counted (the guess weigher's imagined ones), up to IMAGINED of them, the
# oldest dropped first, for quick_classes to take once: when a guess shows a number that proves no cell,
# the game's next position is one of them (in 60 expert games, 88 of 1,519 turns' counts). Off with the
# component cache (COMPONENT_CACHE 0)
IMAGINED = 64
_imagined: Dict[tuple, tuple] = {}

_LAZY = "As in LinearSystem; built on first read."
# analyze's values as bytes (propagation's MINE, SAFE, UNDECIDED as int8)
SAFE_CODE, MINE_CODE, OPEN_CODE = 0, 1, 255


class QuickSystem(LinearSystem):
    """build_system's LinearSystem, its arrays built on first read: the quick path itself reads none of
    them, and a board of a few dozen cells costs more to put in numpy arrays than to count."""

    _mines: Optional[int]
    _k: int

    def __init__(self, puzzle: Puzzle, mines: Optional[int], k: int, total: Optional[int]) -> None:
        # the dataclass is frozen: its fields go in through __dict__ (one call, not four __setattr__s)
        self.__dict__.update(puzzle=puzzle, total=total, _mines=mines, _k=k)

    def built(self) -> LinearSystem:
        """The system build_system makes, made once."""
        system = self.__dict__.get("_built")
        if system is None:
            system = build_system(self.puzzle, self._mines)
            object.__setattr__(self, "_built", system)
        return system

    var_grid = property(lambda self: self.built().var_grid, doc=_LAZY)
    con_rc = property(lambda self: self.built().con_rc, doc=_LAZY)
    con_len = property(lambda self: self.built().con_len, doc=_LAZY)
    con_rhs = property(lambda self: self.built().con_rhs, doc=_LAZY)

    @property
    def var_rc(self) -> np.ndarray:
        """As in LinearSystem; made on first read from the cells alone (what an answer's cells and
        probabilities need), without building the rest of the system."""
        rc = self.__dict__.get("_var_rc")
        if rc is None:
            built = self.__dict__.get("_built")
            rc = built.var_rc if built is not None else unknown_rc(self.puzzle)
            self.__dict__["_var_rc"] = rc
        return rc

    @property
    def num_vars(self) -> int:
        """k, the number of variables (unknown cells)."""
        return self._k


def quick_system(puzzle: Puzzle, mines: Optional[int]) -> QuickSystem:
    """build_system's LinearSystem, its arrays built when read."""
    cells = puzzle.cells
    known_mines = cells.count("*")
    total_mines = puzzle.mines if mines is None else mines
    total = None if total_mines is None else int(total_mines) - known_mines
    return QuickSystem(puzzle, mines, cells.count("?"), total)


class CellClasses(NamedTuple):
    """A small board's answer per class of cells (frontier.Frontier.classes): per cell of the board its
    class (0 off the unknown cells), and per class the number of solutions with a mine on a cell of it."""

    codes: bytes
    mine_solutions: List[int]

    def chances(self, solutions: int) -> List[Optional[float]]:
        """Per cell of the board, row-major, its mine probability (None off the unknown cells): one division
        per class, then one lookup per cell."""
        table: List[Optional[float]] = [None]
        table += [n / solutions for n in self.mine_solutions[1:]]
        return list(map(table.__getitem__, self.codes))

    def certain(self, solutions: int, cols: int, mines: bool) -> List[Tuple[int, int]]:
        """The unknown cells no solution mines (every one, with `mines`), (row, col) row-major: one byte
        per cell marks the classes, then a find per certain cell (they are few)."""
        want = solutions if mines else 0
        table = bytearray(256)
        for c, x in enumerate(self.mine_solutions):
            if x == want and c:
                table[c] = 1
        marks = self.codes.translate(table)
        out = []
        i = marks.find(1)
        while i >= 0:
            out.append(divmod(i, cols))
            i = marks.find(1, i + 1)
        return out


class QuickCount(NamedTuple):
    """quick_count's answer: the exact Count, the backbone read off it (analyze's values; None without a
    solution), and the answer per class of cells (None without a solution or past MAX_CLASSES classes)."""

    exact: Count
    values: Optional[np.ndarray]
    classes: Optional[CellClasses] = None


def quick_count(puzzle: Puzzle, system: LinearSystem) -> Optional[QuickCount]:
    """The exact Count of count_solutions on system (quick_system's of puzzle), with the backbone and the
    answer per class of cells, or None when the states pass the budget."""
    k = system.num_vars
    counted = _count_board(puzzle, k, system.total)
    if counted is None:
        return None
    board, n, n_free, per_group = counted
    if board is None or not n:
        return _no_solution(k)
    # per class (frontier.classes): the number of solutions with a mine on a cell of it
    values = [0, n_free, 0, n] + per_group
    if len(values) > MAX_CLASSES:
        return _per_cell(board, values, k)
    codes = board.classes()
    classes = codes.translate(None, b"\0")   # a bytearray, so the backbone read off it stays writable
    # a cell is certain exactly when no solution, or every one, puts a mine on it: the backbone
    backbone = bytes([SAFE_CODE if x == 0 else MINE_CODE if x == n else OPEN_CODE for x in values])
    return QuickCount(Count(n, tuple(map(values.__getitem__, classes))),
                      np.frombuffer(classes.translate(backbone.ljust(256, b"\0")), dtype=np.int8),
                      CellClasses(bytes(codes), values))


def quick_classes(puzzle: Puzzle) -> Optional[Tuple[int, Optional[CellClasses]]]:
    """The number of solutions of a small board and its answer per class of cells (analyze's count without
    the per-cell tuples and arrays; None past MAX_CLASSES classes or without a solution); None when the
    states pass the budget."""
    counted = _imagined.pop((puzzle.rows, puzzle.cols, puzzle.cells, puzzle.mines), None) if _imagined else None
    if counted is None:
        counted = _count_puzzle(puzzle)
    if counted is None:
        return None
    board, n, n_free, per_group = counted
    if board is None or not n:
        return 0, None
    values = [0, n_free, 0, n] + per_group
    if len(values) > MAX_CLASSES:
        return n, None
    return n, CellClasses(bytes(board.classes()), values)


def quick_outcome(puzzle: Puzzle) -> Optional[Tuple[int, int]]:
    """The number of solutions of a small board and how many of its unknown cells no solution mines, as
    analyze's full level says (its solutions, and its values that are SAFE), without the per-cell answer;
    None when the states pass the budget."""
    counted = _count_puzzle(puzzle)
    if counted is None:
        return None
    if COMPONENT_CACHE and IMAGINED:
        if len(_imagined) >= IMAGINED:
            del _imagined[next(iter(_imagined))]
        _imagined[puzzle.rows, puzzle.cols, puzzle.cells, puzzle.mines] = counted
    board, n, n_free, per_group = counted
    if board is None or not n:
        return 0, 0
    decided = board.unknown & ~board.live
    safe = popcount(decided & ~board.mines)
    grouped = 0
    for members, s, x in zip(board.cells, board.state, per_group):
        grouped += len(members)
        if s == 0 or (s < 0 and x == 0):
            safe += len(members)
    if not n_free:   # the cells next to no count, when none of them is ever a mine
        safe += puzzle.cells.count("?") - popcount(decided) - grouped
    return n, safe


def _count_puzzle(puzzle: Puzzle):
    """_count_board of the puzzle's unknown cells and the mines its total leaves among them."""
    cells = puzzle.cells
    total = None if puzzle.mines is None else int(puzzle.mines) - cells.count("*")
    return _count_board(puzzle, cells.count("?"), total)


def _count_board(puzzle: Puzzle, k: int, total: Optional[int]):
    """The count of a board of k unknown cells and `total` mines among them (None: any): (its settled
    Frontier, the solutions, a free cell's number of them, per group its number); (None, 0, 0, []) without a
    solution; None past the budget."""
    if total is not None and not 0 <= total <= k:
        return None, 0, 0, []
    board = settled_frontier(puzzle)
    if board is None:
        return None, 0, 0, []
    comps = components(board)
    if max(map(len, comps), default=0) > PAIR_RULE_GROUPS:
        # a long frontier: cells two overlapping counts decide split it before the programme sees it
        if not pair_rule(board):
            return None, 0, 0, []
        comps = components(board)
    cells, state = board.cells, board.state
    polys = []   # (groups of the component, offset, P, per group M)
    for members in comps:
        counted = _component(board, members, total is None)
        if counted is None:
            return None
        polys.append((members, *counted))
    # cells next to no count: neither decided by the counts nor in a group
    grouped = sum(map(len, cells))
    free = k - popcount(board.unknown & ~board.live) - grouped
    per_group = [0] * len(cells)
    if total is None:
        n, n_free = _without_total(polys, free, per_group)
    else:
        mines = popcount(board.mines & ~board.known)
        if 1 in state:   # groups the pair rule made mines
            mines += sum(len(c) for c, s in zip(cells, state) if s == 1)
        n, n_free = _with_total(polys, free, total - mines, per_group, grouped)
    return board, n, n_free, per_group


def _component(board, members: List[int], sums: bool):
    """component_polynomials of the component of these groups, from the cache when it was counted lately."""
    cells, masks, need = board.cells, board.masks, board.need
    sizes = [len(cells[g]) for g in members]
    if len(members) < CACHED_GROUPS or not COMPONENT_CACHE:
        return component_polynomials(sizes, [positions(masks[g]) for g in members], need, sums)
    union = 0
    for g in members:
        union |= masks[g]
    key = (tuple([masks[g] for g in members]), tuple(sizes), tuple([need[c] for c in positions(union)]), sums)
    known = _counted.get(key, _counted)
    if known is not _counted:
        return known
    counted = component_polynomials(sizes, [positions(masks[g]) for g in members], need, sums)
    if len(_counted) >= COMPONENT_CACHE:
        _counted.clear()
    _counted[key] = counted
    return counted


def forget_components() -> None:
    """Empty the cache of counted components and of imagined positions (for tests that change how
    components are counted)."""
    _counted.clear()
    _imagined.clear()


def _no_solution(k: int) -> QuickCount:
    """quick_count's answer on a board without a solution."""
    return QuickCount(Count(0, (0,) * k), None)


def _per_cell(board, values: List[int], k: int) -> QuickCount:
    """quick_count's answer cell by cell, for a board with more groups than classes fit in a byte."""
    n = values[MINE]
    var = {cell: i for i, cell in enumerate(positions(board.unknown))}
    per_var = [values[FREE]] * k
    decided = board.unknown & ~board.live
    for cell in positions(decided):
        per_var[var[cell]] = n if board.mines >> cell & 1 else 0
    for g, (members, s) in enumerate(zip(board.cells, board.state)):
        x = values[4 + g] if s < 0 else n if s else 0
        for cell in members:
            per_var[var[cell]] = x
    backbone = np.array([0 if x == 0 else 1 if x == n else -1 for x in per_var], dtype=np.int8)
    return QuickCount(Count(n, tuple(per_var)), backbone)


def _without_total(polys, free: int, per_group: List[int]) -> Tuple[int, int]:
    """The count and a free cell's number when any number of mines goes; each open group's number into
    per_group."""
    N = 1 << free
    sums = []
    for _, _, P, _ in polys:
        p = sum(P)
        sums.append(p)
        N *= p
    if N == 0:
        return 0, 0
    for (gs, _, _, M), p in zip(polys, sums):
        rest = N // p
        for g, m in zip(gs, M):
            per_group[g] = sum(m) * rest
    return N, N >> 1      # a free cell is a mine in half the solutions


def _with_total(polys, F: int, T: int, per_group: List[int], cells: int) -> Tuple[int, int]:
    """The count and a free cell's number when T mines are left for the components (of at most `cells`
    cells) and the F free cells; each open group's number into per_group."""
    # a component with the same number of mines on every solution (one group, two, many an enumerated
    # one) only scales the count: its weight and mines set aside, the rest convolve
    scale = 1
    varying = []
    for poly in polys:
        _, off, P, _ = poly
        if len(P) == 1:
            scale *= P[0]
            T -= off
        else:
            varying.append(poly)
    if not scale:
        return 0, 0
    if varying:
        N, n_free = _convolve(varying, F, T, per_group, cells)
    else:   # the free cells take the T mines left: C(F, T) ways, C(F - 1, T - 1) = C(F, T) T / F with one
        N = binomial(F, T)
        n_free = N * T // F if F else 0
    if not N:
        return 0, 0
    N *= scale
    for poly in varying:
        for g in poly[0]:
            per_group[g] *= scale
    for gs, _, P, M in polys:
        if len(P) == 1:
            rest = N // P[0]
            for g, m in zip(gs, M):
                per_group[g] = m[0] * rest
    return N, n_free * scale


def _convolve(polys, F: int, T: int, per_group: List[int], cells: int) -> Tuple[int, int]:
    """_with_total's count and free cell's number over the components polys."""
    # the components hold between `least` and least + D - 1 mines
    least = sum(off for _, off, _, _ in polys)
    T -= least
    D = 1 + sum(len(P) - 1 for _, _, P, _ in polys)
    G = _binomials(F, T, D)
    if len(polys) <= 1:
        P_all = polys[0][2] if polys else [1]
    else:
        # polynomials over the whole board as ints, in slots wide enough for a sum of D counts times binomials
        width = cells + max(g.bit_length() for g in G) + D.bit_length() + 8
        mask = (1 << width) - 1
        packed = [pack(P, width) for _, _, P, _ in polys]
        prefix = [1]
        for p in packed:
            prefix.append(prefix[-1] * p)
        P_all = unpack(prefix[-1], width, D)
    N = sum(map(mul, P_all, G))
    if N == 0:
        return 0, 0
    # a free cell holds one of the T mines
    # (C(F - 1, T - m - 1) = C(F, T - m) * (T - m) / F: G again, no second window of binomials)
    n_free = sum(c * g * (T - m) for m, (c, g) in enumerate(zip(P_all, G)) if c) // F if F else 0
    if len(polys) <= 1:   # no other component: the free cells alone take the rest
        for gs, _, _, M in polys:
            for g, m in zip(gs, M):
                per_group[g] = sum(map(mul, m, G))
        return N, n_free
    suffix = 1
    g_reversed = pack(G[::-1], width)
    for c in range(len(polys) - 1, -1, -1):
        gs, _, P, M = polys[c]
        # w[j], the weight of j mines in this component (the other components and the free cells
        # take the rest): sum over i of others[i] * G[j + i], slot D - 1 - j of one product
        corr = prefix[c] * suffix * g_reversed
        suffix *= packed[c]
        w = [(corr >> ((D - 1 - j) * width)) & mask for j in range(len(P))]
        for g, m in zip(gs, M):
            per_group[g] = sum(map(mul, m, w))
    return N, n_free


def _binomials(n: int, t: int, d: int) -> List[int]:
    """[C(n, t - m) for m in 0 .. d-1], 0 where t - m is outside 0..n."""
    lo, hi = max(0, t - d + 1), min(n, t)
    if lo > hi:
        return [0] * d
    window = binomial_window(n, lo, hi)
    return [window[t - m - lo] if lo <= t - m <= hi else 0 for m in range(d)]
