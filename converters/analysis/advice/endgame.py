"""The endgame: when few layouts fit, the game tree is searched whole and the move likeliest to win is found.

The layouts are listed (a depth-first search over the unknown cells, each opened number and the total
bounding it), and a set of layouts is a bit mask over that list. From a set S, cells safe in every layout
are opened first (free information: S splits by the numbers they show); otherwise each cell c that some
layout mines is tried, S splitting into the layouts where c is empty and shows v. wins(S) is the number of
layouts of S the best play wins (a single layout is won: every safe cell is then known), so a move's chance
to win is wins over |S|, an exact fraction. Sets are memoised; a move whose chance of being safe cannot
beat the best found is skipped; past ENDGAME_NODES sets weighed (or the caller's deadline) the search gives
up (None) and the guess heuristics answer.
"""
from __future__ import annotations

import time
from typing import Dict, List, Optional, Tuple

from .position import Counted, Neighbours

# the search runs when at most this many layouts fit ...
ENDGAME_LAYOUTS = 120
# ... and gives up past this many sets of layouts weighed (a count, not a clock: the same position gets
# the same answer on a busy machine), or past the caller's budget
ENDGAME_NODES = 5000


class OutOfTime(Exception):
    """The search passed its deadline."""


def list_layouts(cells: str, unknown: Tuple[int, ...], neighbours: Neighbours, total: Optional[int],
                 deadline: float, certain: Optional[Dict[int, int]] = None) -> List[int]:
    """Every layout that fits the position, as a bit mask over `unknown` (bit k: a mine on unknown[k]);
    `certain` ({k: 1 a mine in every layout, 0 in none}, from the count) is placed before the search.

    Speed: in a late expert endgame ~100 cells are unknown and nearly all are certain mines (99 mines, a
    few safe cells left), so a search over every cell walks a path of ~100 cells per layout. The certain
    cells take their only value up front (their numbers' needs and the total take their mines), and the
    search branches on the few others alone, in the same order: the same layouts in the same order. E.g.
    unknown cells a, b, c with a certain mine and one of b, c a mine: the search tries b = 0, c = 1 then
    b = 1, c = 0 and gives (a, c) then (a, b), as the walk over a, b, c would."""
    index = {cell: k for k, cell in enumerate(unknown)}
    certain = certain or {}
    free = [k for k in range(len(unknown)) if k not in certain]
    rows: List[Tuple[List[int], int]] = []
    flagged = "*" in cells
    # the numbers next to a cell left to search, row-major (the others bound no layout: the count fixed
    # their unknown cells)
    for j in sorted({j for k in free for j in neighbours[unknown[k]] if cells[j] in "012345678"}):
        ks = [index[x] for x in neighbours[j] if x in index]
        # known mines ('*', advise's known_mines) around take their share of the number
        rows.append((ks, int(cells[j]) - (sum(cells[x] == "*" for x in neighbours[j]) if flagged else 0)))
    rows_of: List[List[int]] = [[] for _ in unknown]
    need = [v for _, v in rows]
    left = [len(ks) for ks, _ in rows]
    for r, (ks, _) in enumerate(rows):
        for k in ks:
            if k in certain:   # placed now: its number's need takes its mine
                need[r] -= certain[k]
                left[r] -= 1
            else:
                rows_of[k].append(r)
    base = sum(mine << k for k, mine in certain.items())
    placed = sum(certain.values())
    order = sorted(free, key=lambda k: (not rows_of[k], unknown[k]))
    found: List[int] = []
    K = len(order)

    def place(pos: int, mask: int, mines: int) -> None:
        if time.perf_counter() > deadline:
            raise OutOfTime
        if pos == K:
            if total is None or mines == total:
                found.append(mask)
            return
        k = order[pos]
        for mine in (0, 1):
            if total is not None and not mines + mine <= total <= mines + mine + K - pos - 1:
                continue
            if all(0 <= need[r] - mine <= left[r] - 1 for r in rows_of[k]):
                for r in rows_of[k]:
                    need[r] -= mine
                    left[r] -= 1
                place(pos + 1, mask | (mine << k), mines + mine)
                for r in rows_of[k]:
                    need[r] += mine
                    left[r] += 1

    if all(0 <= n <= room for n, room in zip(need, left)):
        place(0, base, placed)
    return found


class Tree:
    """The game tree over a list of layouts: wins(S) for a set S of them (a bit mask over the list).

    Speed (about half an expert game's endgame time): a cell decided in S (a mine in every layout of S, or
    safe in every one and showing the same number in each) stays decided in every subset of S, so wins()
    hands its children only the cells still open in S, in the same order, and the sets its children weigh
    are those the plain search weighs. Worked example: S = {L0, L1, L2}, cell a a mine in L0 only, cell b
    a mine in all three, cell c safe and showing 2 in all three: only a is looked at below S; in S's
    child {L1, L2} (a empty, showing one number) b is still a mine and c still shows 2, so neither could
    be a move there or a free look. `empty[k]`, the layouts where unknown[k] is empty, makes a cell's
    share of S one AND and one popcount; its number is split out only for the moves weighed.
    """

    def __init__(self, layouts: List[int], unknown: Tuple[int, ...], neighbours: Neighbours, deadline: float):
        index = {cell: k for k, cell in enumerate(unknown)}
        around = [sum(1 << index[x] for x in neighbours[cell] if x in index) for cell in unknown]
        # shows[k]: {number: the layouts (a mask) where unknown[k] is empty and shows it}, so a split of a
        # set is one AND per number rather than a walk over its layouts
        self.shows: List[Dict[int, int]] = []
        for k in range(len(unknown)):
            by_number: Dict[int, int] = {}
            for s, m in enumerate(layouts):
                if not m >> k & 1:
                    v = (m & around[k]).bit_count()
                    by_number[v] = by_number.get(v, 0) | 1 << s
            self.shows.append(by_number)
        self.empty = [sum(by_number.values()) for by_number in self.shows]   # the parts are disjoint
        self.every = list(range(len(unknown)))
        self.memo: Dict[int, int] = {}
        self.deadline = deadline
        self.nodes = 0

    def split(self, S: int, k: int) -> Dict[int, int]:
        """The layouts of S where unknown[k] is empty, by the number it shows: {number: subset}."""
        parts: Dict[int, int] = {}
        for v, layouts in self.shows[k].items():
            part = S & layouts
            if part:
                parts[v] = part
        return parts

    def move_wins(self, S: int, k: int, cells: Optional[List[int]] = None) -> int:
        """The layouts of S won by opening unknown[k] now and playing best after (`cells`: a list of the
        cells, in order, holding every cell still open in S; None: all)."""
        return sum(self.wins(part, cells) for part in self.split(S, k).values())

    def wins(self, S: int, cells: Optional[List[int]] = None) -> int:
        """The layouts of S the best play wins (`cells` as in move_wins)."""
        if not S & (S - 1):
            return 1 if S else 0
        known = self.memo.get(S)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > ENDGAME_NODES or time.perf_counter() > self.deadline:
            raise OutOfTime
        risky = []
        live: List[int] = []   # the cells still open in S, in order
        empty_of, shows = self.empty, self.shows
        ks = self.every if cells is None else cells
        for i, k in enumerate(ks):
            empty = S & empty_of[k]
            if not empty:
                continue
            if empty == S:
                parts = [p for p in (S & layouts for layouts in shows[k].values()) if p]
                if len(parts) > 1:   # safe in every layout and telling: free information
                    rest = live + ks[i + 1:]
                    result = sum(self.wins(p, rest) for p in parts)
                    self.memo[S] = result
                    return result
                continue
            risky.append((-empty.bit_count(), k))
            live.append(k)
        best = 0
        for minus_empty, k in sorted(risky):
            if -minus_empty <= best:   # the layouts where k is empty bound its wins
                break
            best = max(best, self.move_wins(S, k, live))
        self.memo[S] = best
        return best


def search(cells: str, counted: Counted, neighbours: Neighbours, total: Optional[int],
           deadline: float, shown: Optional[int] = None) -> Optional[List[Tuple[int, int, int]]]:
    """Per cell worth opening, (flat cell, layouts won, layouts), best first (ties: safer, then row-major);
    with `shown`, only the cells that could be among the `shown` best (a cell wins at most the layouts
    where it is safe, so the safer cells are searched first and the rest once they cannot enter); None when
    the position has too many layouts or the deadline comes first."""
    if counted.solutions > ENDGAME_LAYOUTS:
        return None
    try:
        left = None if total is None else total - cells.count("*")   # known mines set aside
        ms, n = counted.mine_solutions, counted.solutions
        certain = None if ms is None else {k: 1 if x else 0 for k, x in enumerate(ms) if x in (0, n)}
        layouts = list_layouts(cells, counted.unknown, neighbours, left, deadline, certain)
        tree = Tree(layouts, counted.unknown, neighbours, deadline)
        full = (1 << len(layouts)) - 1
        order = []
        for k, cell in enumerate(counted.unknown):
            split = tree.split(full, k)
            empty = sum(p.bit_count() for p in split.values())
            if 0 < empty:
                order.append((-empty, cell, list(split.values())))
        order.sort(key=lambda m: m[:2])
        moves: List[Tuple[int, int, int]] = []
        won: List[int] = []   # the wins found, highest first
        for minus_empty, cell, parts in order:
            if shown is not None and len(won) >= shown and -minus_empty < won[shown - 1]:
                break
            moves.append((cell, sum(tree.wins(p) for p in parts), minus_empty))
            won.append(moves[-1][1])
            won.sort(reverse=True)
    except OutOfTime:
        return None
    moves.sort(key=lambda m: (-m[1], m[2], m[0]))
    return [(cell, w, len(layouts)) for cell, w, _ in moves]
