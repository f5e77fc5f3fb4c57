"""One pass from a small board's cells string to its settled frontier groups, for the quick path.

The board is a few Python ints: bit masks over the cells (bit i: cell i) of the unknown cells, the counts
and the known mines. The counts decide what they decide alone on masks (a count's open cells are its
neighbour mask ANDed with the undecided cells; one popcount each), without a list of cells per count.
Only the cells left undecided are then grouped: an unknown cell's counts are its neighbour mask ANDed
with the counts still open, so cells with the same mask are one group (a variable of 0..n mines).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from ..core.puzzle import NEIGHBOUR_OFFSETS, Puzzle


@lru_cache(maxsize=32)
def shape_table(rows: int, cols: int) -> Tuple[Tuple[int, ...], Tuple[Tuple[int, ...], ...], int, int, int]:
    """Per cell (row-major) the bit mask of its neighbours and their indices ascending; and as bit masks
    over the cells the cells not in the first column, those not in the last, and all; cached per shape."""
    around = tuple(tuple((r + dr) * cols + c + dc for dr, dc in sorted(NEIGHBOUR_OFFSETS)
                         if 0 <= r + dr < rows and 0 <= c + dc < cols)
                   for r in range(rows) for c in range(cols))
    masks = tuple(sum(1 << j for j in cells) for cells in around)
    rows_of = sum(1 << (r * cols) for r in range(rows))   # bit 0 of every row
    full = (1 << (rows * cols)) - 1
    return masks, around, full & ~rows_of, full & ~(rows_of << (cols - 1)), full


def _byte_table(symbols: str, one: int = ord("1"), zero: int = ord("0")) -> bytes:
    """A bytes.translate table: `one` for the symbols' bytes, `zero` for every other byte."""
    return bytes(one if chr(b) in symbols else zero for b in range(256))


_UNKNOWN_BITS = _byte_table("?")
_MINE_BITS = _byte_table("*")
_COUNT_BITS = _byte_table("012345678")
_NONZERO_BITS = _byte_table("12345678")
_ZERO = ord("0")
_MINE = ord("*")
# a cell's class for the answer, one byte per cell: 1 an unknown cell, 0 any other (then 2 safe, 3 mine
# for the decided ones: their bits' digits added on)
_UNKNOWN_ONE = _byte_table("?", 1, 0)
_DIGIT_VALUE = _byte_table("1", 1, 0)
FREE, SAFE, MINE = 1, 2, 3      # the classes; groups left open are 4 and up
MAX_CLASSES = 256

try:
    popcount = int.bit_count     # Python 3.10+
except AttributeError:  # pragma: no cover
    def popcount(x: int) -> int:  # type: ignore[misc]
        """Set bits of a non-negative int."""
        return bin(x).count("1")


def bits(raw: bytes, table: bytes) -> int:
    """The cells whose byte `table` maps to "1", as a bit mask (bit i: cell i)."""
    return int(raw.translate(table)[::-1], 2)


def positions(mask: int) -> List[int]:
    """The set bits of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Frontier:
    """A board's unknown cells after the single counts: the masks of the unknown cells, the known mines
    (the puzzle's and those decided) and the cells still open; the open ones next to a count in groups."""

    __slots__ = ("raw", "unknown", "known", "mines", "live", "cells", "group_cons", "con_groups", "need",
                 "open", "state")

    def __init__(self, raw: bytes, unknown: int, known: int, mines: int, live: int) -> None:
        self.raw, self.unknown, self.known, self.mines, self.live = raw, unknown, known, mines, live
        self.cells: List[List[int]] = []           # per group its cells
        self.group_cons: List[List[int]] = []      # per group its counts (cell indices)
        self.con_groups: Dict[int, List[int]] = {}  # per open count its groups
        self.need: Dict[int, int] = {}             # per open count the mines it still needs
        self.open: Dict[int, int] = {}             # per open count its open cells
        self.state: List[int] = []                 # per group: 1 mines, 0 safe, -1 open

    def classes(self) -> bytes:
        """One byte per unknown cell in variable order: FREE, SAFE, MINE, or 4 + g for group g's cells
        (the caller keeps groups below MAX_CLASSES - 4)."""
        n = len(self.raw)
        decided = (self.unknown & ~self.live).__format__(f"0{n}b")[::-1].encode().translate(_DIGIT_VALUE)
        mined = (self.mines & ~self.known).__format__(f"0{n}b")[::-1].encode().translate(_DIGIT_VALUE)
        # per byte at most 1 + 1 + 1: the three adds never carry into the next cell
        code = bytearray((int.from_bytes(self.raw.translate(_UNKNOWN_ONE), "little")
                          + int.from_bytes(decided, "little")
                          + int.from_bytes(mined, "little")).to_bytes(n, "little"))
        state = self.state
        for g, members in enumerate(self.cells):
            c = 4 + g if state[g] < 0 else MINE if state[g] else SAFE
            for i in members:
                code[i] = c
        return bytes(code.translate(None, b"\0"))


def settled_frontier(puzzle: Puzzle) -> Optional[Frontier]:
    """The board's Frontier after what single counts decide; None when some count can never be met."""
    cells, cols = puzzle.cells, puzzle.cols
    nb, around, not_first, not_last, full = shape_table(puzzle.rows, cols)
    raw = cells.encode("ascii")
    unknown = bits(raw, _UNKNOWN_BITS) if "?" in cells else 0
    # the cells next to an unknown one (or one itself): the unknown cells spread a column, then a row, each way
    near = unknown | (unknown >> 1) & not_last | (unknown << 1) & not_first
    near = (near | near << cols | near >> cols) & full
    counts = bits(raw, _COUNT_BITS)
    front = counts & near
    known = bits(raw, _MINE_BITS) if _MINE in raw else 0
    # a count next to no unknown cell is met only by as many known mines
    if not known:
        if bits(raw, _NONZERO_BITS) & ~near:
            return None
    elif any(raw[i] - _ZERO != popcount(nb[i] & known) for i in positions(counts & ~near)):
        return None
    mines, live = known, unknown
    todo = front
    while todo:
        changed = 0
        while todo:
            low = todo & -todo
            c = low.bit_length() - 1
            todo ^= low
            m = nb[c]
            o = m & live
            n = raw[c] - _ZERO - popcount(m & mines)
            if n <= 0:
                if n or not o:   # too many mines, or met already
                    if n:
                        return None
                    continue
                live ^= o
                changed |= o
            elif not o:
                return None
            else:
                p = popcount(o)
                if n >= p:
                    if n > p:
                        return None
                    live ^= o
                    mines |= o
                    changed |= o
        # the counts next to a cell just decided look again
        todo = changed | (changed >> 1) & not_last | (changed << 1) & not_first
        todo = (todo | todo << cols | todo >> cols) & front
    board = Frontier(raw, unknown, known, mines, live)
    _group(board, nb, front, cols, not_first, not_last)
    return board


def _group(board: Frontier, nb: Tuple[int, ...], front: int, cols: int, not_first: int, not_last: int) -> None:
    """board's open cells next to a count, grouped by their counts' mask, and the open counts' tables."""
    live, raw, mines = board.live, board.raw, board.mines
    spread = live | (live >> 1) & not_last | (live << 1) & not_first
    active = (spread | spread << cols | spread >> cols) & front    # the counts with an open cell
    if not active:
        return
    need, con_groups = board.need, board.con_groups
    edge = active | (active >> 1) & not_last | (active << 1) & not_first
    edge = (edge | edge << cols | edge >> cols) & live
    rest = active
    while rest:
        low = rest & -rest
        c = low.bit_length() - 1
        rest ^= low
        need[c] = raw[c] - _ZERO - popcount(nb[c] & mines)
        con_groups[c] = []
    by_mask: Dict[int, List[int]] = {}
    while edge:
        low = edge & -edge
        v = low.bit_length() - 1
        edge ^= low
        sig = nb[v] & active
        if sig in by_mask:
            by_mask[sig].append(v)
        else:
            by_mask[sig] = [v]
    open_ = board.open
    group_cons = board.group_cons
    for g, (sig, members) in enumerate(by_mask.items()):
        size = len(members)
        cs = positions(sig)
        for c in cs:
            open_[c] = open_.get(c, 0) + size
            con_groups[c].append(g)
        group_cons.append(cs)
    board.cells = list(by_mask.values())
    board.state = [-1] * len(board.cells)


def settle(board: Frontier, todo: List[int]) -> bool:
    """Decide the groups the counts in todo, and those they lead to, decide alone; False: no solution."""
    cells, group_cons, con_groups, need, open_, state = (board.cells, board.group_cons, board.con_groups,
                                                         board.need, board.open, board.state)
    while todo:
        c = todo.pop()
        n, o = need[c], open_[c]
        if n < 0 or n > o:
            return False
        if o == 0 or 0 < n < o:
            continue
        value = 1 if n else 0
        for g in con_groups[c]:
            if state[g] < 0:
                state[g] = value
                size = len(cells[g])
                mines = size if value else 0
                for d in group_cons[g]:
                    o = open_[d] - size
                    n = need[d] - mines
                    open_[d] = o
                    need[d] = n
                    # a count decides its open cells, or cannot be met
                    if n <= 0 or n >= o:
                        todo.append(d)
    return True


def pair_rule(board: Frontier) -> bool:
    """Decide what any two overlapping counts decide together (the cells only one of them sees are all
    mines or all safe), then the single counts again, until nothing changes; False: no solution."""
    cells, group_cons, need, open_, state = board.cells, board.group_cons, board.need, board.open, board.state
    while True:
        live = {c: {g for g in gs if state[g] < 0} for c, gs in board.con_groups.items() if open_[c]}
        decided: Dict[int, int] = {}
        for a, sa in live.items():
            for b in {d for g in sa for d in group_cons[g] if d > a}:
                sb = live[b]
                a_only, b_only = sa - sb, sb - sa
                na = sum(len(cells[g]) for g in a_only)
                nb = sum(len(cells[g]) for g in b_only)
                lo = max(0, need[a] - na, need[b] - nb)
                hi = min(open_[a] - na, need[a], need[b])
                if lo > hi:
                    return False
                for only, size, n in ((a_only, na, need[a]), (b_only, nb, need[b])):
                    value = 1 if only and n - hi >= size else 0 if only and n - lo <= 0 else -1
                    for g in only if value >= 0 else ():
                        if decided.setdefault(g, value) != value:
                            return False
        if not decided:
            return True
        todo = []
        for g, value in decided.items():
            state[g] = value
            size = len(cells[g])
            for d in group_cons[g]:
                open_[d] -= size
                need[d] -= size * value
                todo.append(d)
        if not settle(board, todo):
            return False


def components(board: Frontier) -> List[Tuple[List[int], List[Tuple[List[int], int]]]]:
    """The open groups linked through shared counts: per component, its groups and its counts as (the
    groups' positions in the component, mines needed)."""
    group_cons, con_groups, need, state = board.group_cons, board.con_groups, board.need, board.state
    seen = [s >= 0 for s in state]
    out = []
    for first in range(len(state)):
        if seen[first]:
            continue
        seen[first] = True
        members = [first]
        counted = set()
        comp_cons = []
        for g in members:     # breadth first over counts sharing a group
            for c in group_cons[g]:
                if c not in counted:
                    counted.add(c)
                    comp_cons.append(c)
                    for h in con_groups[c]:
                        if not seen[h]:
                            seen[h] = True
                            members.append(h)
        if len(members) == 1:
            out.append((members, [([0], need[c]) for c in comp_cons]))
            continue
        local = {g: i for i, g in enumerate(members)}
        out.append((members, [([local[g] for g in con_groups[c] if state[g] < 0], need[c]) for c in comp_cons]))
    return out
