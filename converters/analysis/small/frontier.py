"""One pass from a small board's cells string to its settled frontier groups, for the quick path.

The board is a few Python ints: bit masks over the cells (bit i: cell i) of the unknown cells, the counts
and the known mines. The counts decide what they decide alone on masks (a count's open cells are its
neighbour mask ANDed with the undecided cells; one popcount each), without a list of cells per count.
Only the cells left undecided are then grouped: an unknown cell's counts are its neighbour mask ANDed
with the counts still open, so cells with the same mask are one group (a variable of 0..n mines).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, NamedTuple, Optional, Tuple

from ...core.puzzle import NEIGHBOUR_OFFSETS, Puzzle


class Shape(NamedTuple):
    """Per-shape tables: per cell (row-major) the bit mask of its neighbours; bit masks of the cells not in
    the first column, not in the last, and all; the same three as byte masks (byte i: cell i, 0xff where
    set), for sums over the neighbours of one-byte-per-cell numbers."""

    neighbours: Tuple[int, ...]
    not_first: int
    not_last: int
    full: int
    bytes_not_first: int
    bytes_not_last: int
    bytes_full: int


@lru_cache(maxsize=32)
def shape_table(rows: int, cols: int) -> Shape:
    """The Shape of a rows x cols board, cached."""
    around = [[(r + dr) * cols + c + dc for dr, dc in NEIGHBOUR_OFFSETS if 0 <= r + dr < rows and 0 <= c + dc < cols]
              for r in range(rows) for c in range(cols)]
    first = [c == 0 for r in range(rows) for c in range(cols)]
    last = [c == cols - 1 for r in range(rows) for c in range(cols)]

    def as_bits(flags: List[bool]) -> int:
        return sum(1 << i for i, f in enumerate(flags) if f)

    def as_bytes(flags: List[bool]) -> int:
        return int.from_bytes(bytes(0xff if f else 0 for f in flags), "little")

    return Shape(tuple(sum(1 << j for j in cells) for cells in around),
                 as_bits([not f for f in first]), as_bits([not f for f in last]), (1 << (rows * cols)) - 1,
                 as_bytes([not f for f in first]), as_bytes([not f for f in last]), as_bytes([True] * (rows * cols)))


def _byte_table(symbols: str, one: int = ord("1"), zero: int = ord("0")) -> bytes:
    """A bytes.translate table: `one` for the symbols' bytes, `zero` for every other byte."""
    return bytes(one if chr(b) in symbols else zero for b in range(256))


_UNKNOWN_BITS = _byte_table("?")
_MINE_BITS = _byte_table("*")
_COUNT_BITS = _byte_table("012345678")
_NONZERO_BITS = _byte_table("12345678")
_ZERO = ord("0")
_MINE = ord("*")
_UNKNOWN_ONE = _byte_table("?", 1, 0)
_MINE_ONE = _byte_table("*", 1, 0)
# a count's byte 16 + its digit (16 any other cell's), less its neighbours' known mines: 16 + what it needs
_NEED_16 = bytes(16 + b - _ZERO if chr(b) in "012345678" else 16 for b in range(256))
_IS_16 = bytes(ord("1") if b == 16 else ord("0") for b in range(256))
_BELOW_16 = bytes(ord("1") if b < 16 else ord("0") for b in range(256))
_ABOVE_16 = bytes(ord("1") if b > 16 else ord("0") for b in range(256))
FREE, SAFE, MINE = 1, 2, 3      # the classes; groups left open are 4 and up
MAX_CLASSES = 256
_CLASS_OF_SUM = bytes({97: FREE, 98: SAFE, 99: MINE}.get(b, 0) for b in range(256))
_BINARY_SPECS: Dict[int, str] = {}
# counts to look at from which a round takes them all at once (bytes arithmetic) rather than one by one
# (measured: one by one is as quick below ~24 counts, bulk ~15-25% quicker on 16x16 and 30x16 boards)
BULK_COUNTS = 24

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

    __slots__ = ("raw", "unknown", "known", "mines", "live", "cells", "masks", "need", "open", "state",
                 "_counts_of", "con_groups")

    def __init__(self, raw: bytes, unknown: int, known: int, mines: int, live: int) -> None:
        self.raw, self.unknown, self.known, self.mines, self.live = raw, unknown, known, mines, live
        self.cells: List[List[int]] = []           # per group its cells
        self.masks: List[int] = []                 # per group its counts, as a bit mask of their cells
        self.need: Dict[int, int] = {}             # per open count the mines it still needs
        self.open: Dict[int, int] = {}             # per open count its open cells, once linked
        self.state: List[int] = []                 # per group: 1 mines, 0 safe, -1 open
        self._counts_of: Optional[List[List[int]]] = None   # counts_of, once read
        self.con_groups: Dict[int, List[int]] = {}  # per open count its groups, once linked

    @property
    def counts_of(self) -> List[List[int]]:
        """Per group its counts (cell indices), ascending: made on first read (a count whose components all
        come from quick's cache never reads it)."""
        if self._counts_of is None:
            self._counts_of = [positions(sig) for sig in self.masks]
        return self._counts_of

    def classes(self) -> bytearray:
        """One byte per cell of the board, row-major: 0 off the unknown cells, else FREE, SAFE, MINE, or
        4 + g for group g's cells (the caller keeps groups below MAX_CLASSES - 4). Without the zeros: one
        byte per unknown cell in variable order."""
        n = len(self.raw)
        spec = _BINARY_SPECS.get(n) or _BINARY_SPECS.setdefault(n, f"0{n}b")
        # a byte per cell: 1 if unknown, plus "0" or "1" (48, 49) for decided and for a mine found; the
        # sums (at most 99) never carry into the next cell
        code = (int.from_bytes(self.raw.translate(_UNKNOWN_ONE), "little")
                + int.from_bytes(format(self.unknown & ~self.live, spec).encode(), "big")
                + int.from_bytes(format(self.mines & ~self.known, spec).encode(), "big"))
        classes = bytearray(code.to_bytes(n, "little").translate(_CLASS_OF_SUM))
        state = self.state
        for g, members in enumerate(self.cells):
            c = 4 + g if state[g] < 0 else MINE if state[g] else SAFE
            for i in members:
                classes[i] = c
        return classes


def _around(x: int, shape: Shape, cols: int) -> int:
    """Per byte of x (one byte per cell, each at most 1), the sum over the cell's neighbours."""
    h = x + ((x >> 8) & shape.bytes_not_last) + ((x << 8) & shape.bytes_not_first)
    return ((h + (h << (8 * cols)) + (h >> (8 * cols))) & shape.bytes_full) - x


def _bulk(raw: bytes, mines: int, live: int, todo: int, shape: Shape, cols: int) -> Optional[Tuple[int, int, int]]:
    """The counts in todo all at once, a byte per cell: (the cells they make safe, those they make mines,
    the counts that decided all their cells); None when one of them cannot be met."""
    n = len(raw)
    need16 = int.from_bytes(raw.translate(_NEED_16), "little")
    # 16 + the mines each count still needs, and that less its open cells (never below 0: at most 8 each)
    need = need16 - _around(_byte_per_bit(mines & shape.full, n), shape, cols) if mines else need16
    less_open = (need - _around(_byte_per_bit(live, n), shape, cols)).to_bytes(n, "little")
    need_bytes = need.to_bytes(n, "little")
    if (bits(need_bytes, _BELOW_16) | bits(less_open, _ABOVE_16)) & todo:
        return None
    none_left = bits(need_bytes, _IS_16) & todo    # their open cells are safe
    all_left = bits(less_open, _IS_16) & todo      # their open cells are mines
    not_first, not_last = shape.not_first, shape.not_last
    safe = none_left | (none_left >> 1) & not_last | (none_left << 1) & not_first
    safe = (safe | safe << cols | safe >> cols) & live
    mined = all_left | (all_left >> 1) & not_last | (all_left << 1) & not_first
    mined = (mined | mined << cols | mined >> cols) & live
    if safe & mined:
        return None
    return safe, mined, none_left | all_left


def _byte_per_bit(mask: int, n: int) -> int:
    """The mask's bits as bytes (byte i is 1 where bit i is set), read as one little-endian int."""
    # "0" and "1" are bytes 48 and 49: read big-endian (bit i is byte i from the end), less 48 a byte
    return int.from_bytes(format(mask, f"0{n}b").encode(), "big") - int.from_bytes(b"0" * n, "big")


def settled_frontier(puzzle: Puzzle) -> Optional[Frontier]:
    """The board's Frontier after what single counts decide; None when some count can never be met."""
    cells, cols = puzzle.cells, puzzle.cols
    shape = shape_table(puzzle.rows, cols)
    nb, not_first, not_last = shape.neighbours, shape.not_first, shape.not_last
    raw = cells.encode("ascii")
    unknown = bits(raw, _UNKNOWN_BITS) if "?" in cells else 0
    # the cells next to an unknown one (or one itself): the unknown cells spread a column, then a row, each way
    near = unknown | (unknown >> 1) & not_last | (unknown << 1) & not_first
    near = (near | near << cols | near >> cols) & shape.full
    counts = bits(raw, _COUNT_BITS)
    front = counts & near
    known = bits(raw, _MINE_BITS) if _MINE in raw else 0
    # a count next to no unknown cell is met only by as many known mines
    if not known:
        if bits(raw, _NONZERO_BITS) & ~near:
            return None
    elif any(raw[i] - _ZERO != popcount(nb[i] & known) for i in positions(counts & ~near)):
        return None
    mines, live, done = known, unknown, 0
    zero, count_bits = _ZERO, popcount
    todo = front
    while todo:
        if popcount(todo) > BULK_COUNTS:
            decided = _bulk(raw, mines, live, todo, shape, cols)
            if decided is None:
                return None
            safe, mined, finished = decided
            done |= finished
            live ^= safe | mined
            mines |= mined
            changed = safe | mined
        else:
            changed = 0
            while todo:
                low = todo & -todo
                c = low.bit_length() - 1
                todo ^= low
                m = nb[c]
                o = m & live
                n = raw[c] - zero - count_bits(m & mines)
                if n <= 0:
                    if n:   # too many mines
                        return None
                    done |= low
                    live ^= o
                    changed |= o
                elif not o:
                    return None
                else:
                    p = count_bits(o)
                    if n >= p:
                        if n > p:
                            return None
                        done |= low
                        live ^= o
                        mines |= o
                        changed |= o
        # the counts next to a cell just decided look again
        todo = changed | (changed >> 1) & not_last | (changed << 1) & not_first
        todo = (todo | todo << cols | todo >> cols) & front & ~done
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
    need = board.need
    edge = active | (active >> 1) & not_last | (active << 1) & not_first
    edge = (edge | edge << cols | edge >> cols) & live
    rest = active
    zero, count_bits = _ZERO, popcount
    while rest:
        low = rest & -rest
        c = low.bit_length() - 1
        rest ^= low
        need[c] = raw[c] - zero - count_bits(nb[c] & mines)
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
    board.cells = list(by_mask.values())
    board.masks = masks = list(by_mask)
    board.state = [-1] * len(masks)


def link(board: Frontier) -> None:
    """board's tables of each count's groups and open cells (for the pair rule, before it decides any)."""
    con_groups: Dict[int, List[int]] = {c: [] for c in board.need}
    open_ = board.open
    for g, (cs, members) in enumerate(zip(board.counts_of, board.cells)):
        for c in cs:
            con_groups[c].append(g)
            open_[c] = open_.get(c, 0) + len(members)
    board.con_groups = con_groups


def settle(board: Frontier, todo: List[int]) -> bool:
    """Decide the groups the counts in todo, and those they lead to, decide alone; False: no solution."""
    cells, group_cons, con_groups, need, open_, state = (board.cells, board.counts_of, board.con_groups,
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
    if not board.con_groups:
        link(board)
    cells, group_cons, need, open_, state = board.cells, board.counts_of, board.need, board.open, board.state
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


def components(board: Frontier) -> List[List[int]]:
    """The open groups linked through shared counts, one list per component: groups whose counts' masks
    meet are joined (two components never meet, so one pass over the groups suffices)."""
    comps: List[Tuple[int, List[int]]] = []
    for g, (mask, s) in enumerate(zip(board.masks, board.state)):
        if s >= 0:
            continue
        joined: List[int] = []
        rest = []
        for comp in comps:
            if comp[0] & mask:
                mask |= comp[0]
                joined += comp[1]
            else:
                rest.append(comp)
        joined.append(g)
        rest.append((mask, joined))
        comps = rest
    return [groups for _, groups in comps]
