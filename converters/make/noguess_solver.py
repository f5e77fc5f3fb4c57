"""The no-guess solver in plain Python: a layout played from the first click by cells proven safe, incrementally.

A generator replays thousands of small boards, so this works on flat lists and bytearrays (numpy's per-call
cost dominates on 480 cells) and never rebuilds anything from scratch between rounds:

1. single counts, incrementally: a count is looked at again only when one of its neighbours was opened or
   flagged (a worklist), and it decides its unknown neighbours when its remaining mines are 0 or all of them;
2. when that is stuck, pairs of counts sharing cells (the subset rule and its overlap form);
3. when that is stuck too, exact reasoning over the frontier: the unknown cells next to a count fall into
   components linked by shared counts; each is enumerated by a dynamic programme (its solutions grouped
   by their number of mines, as bit masks; a component no change touched keeps its table), and the total
   mine count is brought in by which mine counts of the components and of the cells beyond the frontier
   can add up to it. A cell is safe when no feasible combination puts a mine on it, a mine when all do;
4. only when the components are too big to enumerate within a state budget does the stuck state go to
   the SAT backbone (mineconv.analysis.levels.backbone.full_backbone) as a puzzle.

Every step is sound, and step 3 (or 4) decides everything full reasoning with the total decides, so the
replay stops at the same place as opening "every cell safe in every consistent layout" round by round:
the cells such reasoning can open only grow as cells are opened, whatever the order.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Set, Tuple

import numpy as np

from ..analysis.cellstate import MINE, SAFE
from ..analysis.levels.backbone import full_backbone
from ..core.bounds import UNBOUNDED, AnalysisTimeout, Bounds
from ..core.errors import ResourceError
from ..core.graph import component_roots
from ..core.puzzle import Puzzle
from ..core.system import build_system

UNKNOWN, OPENED, FLAGGED = 0, 1, 2
# dynamic-programme states one stuck state may visit on enumerating its frontier before the SAT backbone decides it
NODE_BUDGET = 50_000
# bytes per cell a no-guess search holds on big boards (neighbour tuples, counts, state, the repair's
# arrays): peak RSS grew by 470-480 bytes per cell replaying and repairing 300 x 300 and 600 x 600 boards
CELL_BYTES = 600
# enumerated component tables a replay keeps (a big board's frontier changes all the time)
MAX_TABLES = 4096


def cell_bytes(rows: int, cols: int) -> int:
    """Estimated bytes the replay and the repair hold for a rows x cols board (checked before any of it is built)."""
    return rows * cols * CELL_BYTES


_NEIGHBOURS: Dict[Tuple[int, int], Tuple[Tuple[int, ...], ...]] = {}   # the last few boards' (as lru_cache(4))
_OFFSETS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
_ROWS_AT_ONCE = 64


def neighbours(rows: int, cols: int, bounds: Bounds = UNBOUNDED) -> Tuple[Tuple[int, ...], ...]:
    """The flat indices of every cell's neighbours, row-major (each cell's in row-major order too).

    Built in numpy, 64 rows at a time with a look at `bounds`' clock between them: cell by cell in Python
    it took 12 s of 1800 x 1800's `generate --no-guess --timeout 1` before the first look."""
    key = (rows, cols)
    if key in _NEIGHBOURS:
        return _NEIGHBOURS[key]
    out: List[Tuple[int, ...]] = []
    across = np.arange(cols)[None, :]
    for top in range(0, rows, _ROWS_AT_ONCE):
        down = np.arange(top, min(rows, top + _ROWS_AT_ONCE))[:, None]
        block = np.stack([np.where((0 <= down + dr) & (down + dr < rows) & (0 <= across + dc) & (across + dc < cols),
                                   (down + dr) * cols + across + dc, -1) for dr, dc in _OFFSETS], axis=-1)
        block = block.reshape(-1, len(_OFFSETS))
        listed = block.tolist()
        cells = list(map(tuple, listed))
        for i in np.flatnonzero((block < 0).any(axis=1)).tolist():   # the board's edge: fewer neighbours
            cells[i] = tuple(x for x in listed[i] if x >= 0)
        out.extend(cells)
        bounds.check()
    if len(_NEIGHBOURS) >= 4:
        del _NEIGHBOURS[next(iter(_NEIGHBOURS))]
    _NEIGHBOURS[key] = made = tuple(out)
    return made


class Board:
    """The replay's state: what is opened and flagged, and each open count's remaining mines and unknowns."""

    def __init__(self, mine_grid: np.ndarray, bounds: Bounds = UNBOUNDED) -> None:
        R, C = mine_grid.shape
        self.rows, self.cols = R, C
        self.nb = neighbours(R, C, bounds)
        self.mine = mine_grid.ravel().tolist()
        padded = np.pad(mine_grid.astype(np.int8), 1)
        counts = sum(padded[1 + dr:1 + dr + R, 1 + dc:1 + dc + C] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if dr or dc)
        self.count: List[int] = counts.ravel().tolist()  # type: ignore[union-attr]
        n = R * C
        self.state = bytearray(n)
        self.rem = [0] * n       # an open cell's mines not yet flagged around it
        self.unk = [0] * n       # an open cell's unknown neighbours
        self.total = sum(self.mine)
        self.safe_left = n - self.total
        self.flags = 0
        self.work: List[int] = []
        self.live: List[int] = []  # open counts that had unknown neighbours when opened (pruned when stuck)
        self.dirty: Set[int] = set()  # counts changed since the last pair step (only their pairs can say more)
        # enumerated components by their counts (cell, remaining mines, unknown neighbours): a component no
        # opening or flag touched since the last stuck state is not enumerated again
        self.tables: Dict[Tuple[Tuple[int, int, int], ...], Dict[int, Tuple[int, int]]] = {}

    def open(self, cells: List[int]) -> None:
        """Open safe cells (the list is used up); a zero opens its neighbours, cascading as in the game."""
        state, nb, work, count, mine, unk_of, rem_of = (self.state, self.nb, self.work, self.count, self.mine,
                                                        self.unk, self.rem)
        stack = cells
        opened = 0
        while stack:
            i = stack.pop()
            if state[i]:
                continue
            if mine[i]:
                raise ResourceError(f"the no-guess replay opened a mine at {divmod(i, self.cols)}")
            state[i] = OPENED
            opened += 1
            unk = flagged = 0
            for k in nb[i]:
                s = state[k]
                if s == OPENED:
                    unk_of[k] -= 1
                    work.append(k)
                elif s == UNKNOWN:
                    unk += 1
                else:
                    flagged += 1
            n = count[i]
            unk_of[i], rem_of[i] = unk, n - flagged
            if n == 0:
                stack.extend(nb[i])
            elif unk:
                work.append(i)
                self.live.append(i)
        self.safe_left -= opened

    def flag(self, cell: int) -> None:
        """Mark a proven mine."""
        state = self.state
        if state[cell] != UNKNOWN:
            return
        state[cell] = FLAGGED
        self.flags += 1
        unk_of, rem_of, work = self.unk, self.rem, self.work
        for k in self.nb[cell]:
            if state[k] == OPENED:
                unk_of[k] -= 1
                rem_of[k] -= 1
                work.append(k)

    def propagate(self) -> None:
        """Single counts to a fixed point: the worklist holds the counts whose neighbourhood changed."""
        work, state, nb, rem, unk, dirty = self.work, self.state, self.nb, self.rem, self.unk, self.dirty
        while work:
            k = work.pop()
            if not unk[k]:
                continue
            dirty.add(k)
            if rem[k] == 0:
                self.open([j for j in nb[k] if state[j] == UNKNOWN])
            elif rem[k] == unk[k]:
                for j in nb[k]:
                    if state[j] == UNKNOWN:
                        self.flag(j)

    def sat_step(self, bounds: Bounds) -> Tuple[List[int], List[int]]:
        """The same decisions from the SAT backbone over the state as a puzzle (for frontiers too big to enumerate)."""
        codes = bytearray(b"?" * len(self.state))
        for i, s in enumerate(self.state):
            if s == OPENED:
                codes[i] = 48 + self.count[i]
            elif s == FLAGGED:
                codes[i] = 42
        puzzle = Puzzle(self.rows, self.cols, codes.decode("ascii"), mines=self.total)
        system = build_system(puzzle)
        values, _, _ = full_backbone(puzzle, system=system, bounds=bounds)
        if values is None:  # the true layout is a solution: this cannot happen
            raise ResourceError("the no-guess replay found no layout consistent with the board")
        rc = system.var_rc
        flat = rc[:, 0] * self.cols + rc[:, 1]
        return flat[values == SAFE].tolist(), flat[values == MINE].tolist()


def frontier_counts(board: Board) -> List[int]:
    """The open counts that still have unknown neighbours, in cell order (the live list is pruned to them)."""
    unk = board.unk
    board.live = sorted(k for k in set(board.live) if unk[k])
    return board.live


def pair_step(board: Board) -> Tuple[List[int], List[int]]:
    """(safe cells, mine cells) that two overlapping counts decide together (before any enumeration).

    For counts A and B sharing cells, the mines in the shared part lie between max(0, rA - |A\\B|, rB - |B\\A|)
    and min(|A&B|, rA, rB); A\\B then holds rA minus that, and is safe when it can hold none, all mines when
    it must be full. Only pairs with a count changed since the last pair step are looked at: the others
    said nothing then and say nothing now.
    """
    state, nb, rem, unk = board.state, board.nb, board.rem, board.unk
    sets: Dict[int, FrozenSet[int]] = {}

    def unknowns(k: int) -> FrozenSet[int]:
        got = sets.get(k)
        if got is None:
            got = sets[k] = frozenset(j for j in nb[k] if state[j] == UNKNOWN)
        return got

    safe: List[int] = []
    mines: List[int] = []
    done = set()
    for a in sorted(k for k in board.dirty if unk[k]):
        sa = unknowns(a)
        for j in sa:
            for b in nb[j]:
                if b == a or state[b] != OPENED or (b, a) in done or (a, b) in done:
                    continue
                done.add((a, b))
                sb = unknowns(b)
                only_a, only_b = sa - sb, sb - sa
                ra, rb = rem[a], rem[b]
                lo = max(0, ra - len(only_a), rb - len(only_b))
                hi = min(len(sa) - len(only_a), ra, rb)
                for only, r in ((only_a, ra), (only_b, rb)):
                    if only:
                        if r - lo == 0:
                            safe.extend(only)
                        elif r - hi == len(only):
                            mines.extend(only)
    board.dirty.clear()
    return safe, mines


def decide_frontier(board: Board) -> Optional[Tuple[List[int], List[int]]]:
    """Exact decisions by enumerating the frontier's components; None when one passes NODE_BUDGET."""
    state, nb, rem = board.state, board.nb, board.rem
    counts = frontier_counts(board)
    if len(board.tables) > MAX_TABLES:
        board.tables.clear()
    # components: unknown cells joined through the counts they share (core/graph's union-find; a cell's
    # index is its first appearance, so each component's root is its first cell and comes in that order)
    index: Dict[int, int] = {}
    cons: List[Tuple[List[int], int, int]] = []
    ends: List[int] = []
    others: List[int] = []
    for k in counts:
        cells = [j for j in nb[k] if state[j] == UNKNOWN]
        cons.append((cells, rem[k], k))
        for j in cells:
            index.setdefault(j, len(index))
        ends.extend([index[cells[0]]] * (len(cells) - 1))
        others.extend(index[j] for j in cells[1:])
    roots = component_roots(len(index), np.array(ends, dtype=np.int64), np.array(others, dtype=np.int64)).tolist()
    groups: Dict[int, List[int]] = {}
    for j, i in index.items():
        groups.setdefault(roots[i], []).append(j)
    by_root: Dict[int, List[Tuple[List[int], int, int]]] = {}
    for con in cons:
        by_root.setdefault(roots[index[con[0][0]]], []).append(con)
    budget = [NODE_BUDGET]
    comps = []
    for root, cells in groups.items():
        members = by_root[root]
        cells.sort()
        key = tuple((k, need, len(m)) for m, need, k in members)
        table = board.tables.get(key)
        if table is None:
            table = enumerate_component(cells, [(m, need) for m, need, _ in members], budget)
            if table is None:
                return None
            board.tables[key] = table
        comps.append((cells, table))
    interior = board.safe_left + board.total - board.flags - len(index)
    return combine(comps, interior, board.total - board.flags)


def enumerate_component(cells: List[int], cons: List[Tuple[List[int], int]], budget: List[int]
                        ) -> Optional[Dict[int, Tuple[int, int]]]:
    """Every solution of one component, by mine count: {m: (OR of mine masks, AND of mine masks)}; None past the budget.

    Bit i of a mask is cells[i]. Cells under exactly the same counts are interchangeable, so they form one
    group, and a group of g cells takes 0 to g mines at once. A dynamic programme over the groups in
    breadth-first order: a state is the remaining mines of the counts begun and not yet finished, with the
    mines placed so far; partial solutions reaching the same state have the same completions, so their
    masks merge (OR with OR, AND with AND: a completion's bits are disjoint from the partial ones).
    `budget` (a one-item list, shared by the components of one stuck state) loses one per state visited.
    """
    if len(cons) == 1:  # one count alone: any `need` of its cells
        need, full = cons[0][1], (1 << len(cells)) - 1
        return {need: (full if need else 0, full if need == len(cells) else 0)}
    index = {j: i for i, j in enumerate(cells)}
    under: List[List[int]] = [[] for _ in cells]
    for c, (members, _) in enumerate(cons):
        for j in members:
            under[index[j]].append(c)
    by_key: Dict[Tuple[int, ...], int] = {}
    for i, over in enumerate(under):
        by_key[tuple(over)] = by_key.get(tuple(over), 0) | (1 << i)
    groups = _order(list(by_key.items()), len(cons))
    first: Dict[int, int] = {}
    last: Dict[int, int] = {}
    for g, (cs, _) in enumerate(groups):
        for c in cs:
            first.setdefault(c, g)
            last[c] = g
    left = [len(members) for members, _ in cons]  # cells of each count not yet placed
    active: List[int] = []
    layer: Dict[Tuple[Tuple[int, ...], int], Tuple[int, int]] = {((), 0): (0, 0)}
    for g, (cs, mask) in enumerate(groups):
        size = bin(mask).count("1")
        fresh = [c for c in cs if first[c] == g]
        ext = active + fresh
        start = tuple(cons[c][1] for c in fresh)
        for c in cs:
            left[c] -= size
        # each count over this group: its slot, and how many of its cells come after the group
        checks = [(ext.index(c), left[c]) for c in cs]
        keep = [x for x, c in enumerate(ext) if last[c] != g]
        active = [ext[x] for x in keep]
        budget[0] -= len(layer)
        if budget[0] < 0:
            return None
        nxt: Dict[Tuple[Tuple[int, ...], int], Tuple[int, int]] = {}
        for (needs, m), (o, a) in layer.items():
            base = needs + start
            for t in range(size + 1):
                new = list(base)
                for x, after in checks:
                    v = new[x] - t
                    if v < 0 or v > after:
                        break
                    new[x] = v
                else:
                    reached = (tuple(new[x] for x in keep), m + t)
                    oo = o | mask if t else o
                    aa = a | mask if t == size else a
                    old = nxt.get(reached)
                    nxt[reached] = (oo, aa) if old is None else (old[0] | oo, old[1] & aa)
        layer = nxt
    return {m: masks for (_, m), masks in layer.items()}


def _order(groups: List[Tuple[Tuple[int, ...], int]], n_cons: int) -> List[Tuple[Tuple[int, ...], int]]:
    """The groups (counts over them, cell mask) in breadth-first order over shared counts, from the first."""
    by_con: List[List[int]] = [[] for _ in range(n_cons)]
    for g, (cs, _) in enumerate(groups):
        for c in cs:
            by_con[c].append(g)
    seen = [False] * len(groups)
    order = [0]
    seen[0] = True
    head = 0
    while head < len(order):
        for c in groups[order[head]][0]:
            for g in by_con[c]:
                if not seen[g]:
                    seen[g] = True
                    order.append(g)
        head += 1
    return [groups[g] for g in order]


def _sumset(a: int, b: int) -> int:
    """The sums of two sets of mine counts, each a bit mask of counts."""
    out = 0
    m = 0
    while a:
        if a & 1:
            out |= b << m
        a >>= 1
        m += 1
    return out


def combine(comps: List[Tuple[List[int], Dict[int, Tuple[int, int]]]], interior: int, mines: int
            ) -> Tuple[List[int], List[int]]:
    """Bring in the total: (safe cells, mine cells) over the components and the `interior` cells beyond them."""
    masks = [sum(1 << m for m in table) for _, table in comps]
    prefix = [1]
    for mk in masks:
        prefix.append(_sumset(prefix[-1], mk))
    suffix = [1]
    for mk in reversed(masks):
        suffix.append(_sumset(suffix[-1], mk))
    suffix.reverse()
    safe: List[int] = []
    mine: List[int] = []

    def fits(others: int, m: int) -> bool:
        """Some count of the others plus some count of the interior (0..interior) makes the remaining mines."""
        hi = mines - m
        if hi < 0:
            return False
        lo = max(0, hi - interior)
        return bool((others >> lo) & ((1 << (hi - lo + 1)) - 1))

    for k, (cells, table) in enumerate(comps):
        others = _sumset(prefix[k], suffix[k + 1])
        can_mine, must_mine = 0, -1
        for m, (any_mask, all_mask) in table.items():
            if fits(others, m):
                can_mine |= any_mask
                must_mine &= all_mask
        if must_mine == -1:  # no feasible count: only an inconsistent state gets here
            raise ResourceError("the no-guess replay found no layout consistent with the board")
        for i, j in enumerate(cells):
            if not (can_mine >> i) & 1:
                safe.append(j)
            elif (must_mine >> i) & 1:
                mine.append(j)
    if interior:
        sums = prefix[-1]
        feasible = [mines - s for s in range(sums.bit_length()) if (sums >> s) & 1 and 0 <= mines - s <= interior]
        if max(feasible) == 0:
            safe.append(-1)   # -1 stands for every interior cell
        elif min(feasible) == interior:
            mine.append(-1)
    return safe, mine


def play(mine_grid: np.ndarray, start: Tuple[int, int], bounds: Bounds = UNBOUNDED) -> Tuple[Board, int, int]:
    """Replay from `start` until cleared or stuck: (the final board, reasoning rounds, rounds the SAT backbone decided)."""
    board = Board(mine_grid, bounds)
    board.open([start[0] * board.cols + start[1]])
    rounds = sat_rounds = 0
    while True:
        board.propagate()
        if board.safe_left == 0:
            break
        if bounds.expired():
            raise AnalysisTimeout("the no-guess search ran out of time")
        rounds += 1
        pairs = pair_step(board)
        if pairs[0] or pairs[1]:
            for j in pairs[1]:
                board.flag(j)
            board.open([j for j in pairs[0] if board.state[j] == UNKNOWN])
            continue
        decided = decide_frontier(board)
        if decided is None:
            sat_rounds += 1
            decided = board.sat_step(bounds)
        safe, mines = decided
        if -1 in safe or -1 in mines:
            interior = _interior(board)
            safe = [j for j in safe if j >= 0] + (interior if -1 in safe else [])
            mines = [j for j in mines if j >= 0] + (interior if -1 in mines else [])
        for j in mines:
            board.flag(j)
        if not safe:
            break
        board.open(safe)
    return board, rounds, sat_rounds


def _interior(board: Board) -> List[int]:
    """Unknown cells next to no open count."""
    state, nb = board.state, board.nb
    return [j for j in range(len(state)) if state[j] == UNKNOWN
            and not any(state[k] == OPENED for k in nb[j])]
