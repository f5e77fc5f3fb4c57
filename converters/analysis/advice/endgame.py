"""The endgame: when few layouts fit, the game tree is searched whole and the move likeliest to win is found.

The layouts are listed (a depth-first search over the unknown cells, each opened number and the total
bounding it), and a set of layouts is a bit mask over that list. From a set S, cells safe in every layout
are opened first (free information: S splits by the numbers they show); otherwise each cell c that some
layout mines is tried, S splitting into the layouts where c is empty and shows v. wins(S) is the number of
layouts of S the best play wins (a single layout is won: every safe cell is then known), so a move's chance
to win is wins over |S|, an exact fraction. Sets are memoised; past ENDGAME_NODES sets weighed (or the
caller's deadline) the search gives up (None) and the guess heuristics answer.

Three cuts keep the tree small, none changing a set's wins:
- a move is tried only while the layouts where it is safe could beat the best move found (wins <= safe);
- a move tried stops once what it has won plus the sizes of its parts not yet weighed cannot beat the best:
  with S of 10 layouts and the best move so far winning 6, a move whose parts are 4, 3 and 2 layouts, the
  first won 2 times in 4, goes on (2 + 3 + 2 = 7 > 6); had the first won 1, 1 + 5 = 6 stops it there;
- cells whose splits are the same (the same layouts safe, showing the same numbers) play alike in every
  set: the first stands for the others, so a set looks at each kind of cell once.
"""
from __future__ import annotations

import time
from typing import Dict, List, Optional, Tuple

from .position import Counted, Neighbours

# the search runs when at most this many layouts fit ... (120 and 5,000 before the cuts below made a set
# ~3x cheaper; 1,000 and 60,000 won +0.17% +- 0.21% of engine_trials' 6,000 expert games but nothing on
# bench_play's 23,200 (with 8 + 4 candidates) at two thirds of the speed; 250 and 10,000 cost no
# measurable speed now, benchmarks/README.md)
ENDGAME_LAYOUTS = 250
# ... and gives up past this many sets of layouts weighed (a count, not a clock: the same position gets
# the same answer on a busy machine), or past the caller's budget
ENDGAME_NODES = 10000


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
    """The game tree over a list of layouts: wins(S) for a set S of them (a bit mask over the list)."""

    def __init__(self, layouts: List[int], unknown: Tuple[int, ...], neighbours: Neighbours, deadline: float):
        index = {cell: k for k, cell in enumerate(unknown)}
        around = [sum(1 << index[x] for x in neighbours[cell] if x in index) for cell in unknown]
        everywhere = -1   # the cells every layout mines: they never open, so they split nothing
        for m in layouts:
            everywhere &= m
        # shows[k]: {number: the layouts (a mask) where unknown[k] is empty and shows it}, so a split of a
        # set is one AND per number rather than a walk over its layouts
        self.shows: List[Dict[int, int]] = []
        for k in range(len(unknown)):
            by_number: Dict[int, int] = {}
            if not everywhere >> k & 1:
                for s, m in enumerate(layouts):
                    if not m >> k & 1:
                        v = (m & around[k]).bit_count()
                        by_number[v] = by_number.get(v, 0) | 1 << s
            self.shows.append(by_number)
        # inside the tree only the parts matter, not their numbers
        self.masks = [tuple(by_number.values()) for by_number in self.shows]
        # empty[k]: the layouts where unknown[k] is empty, so a set's safe share is one AND and a bit count
        self.empty = [sum(by_number.values()) for by_number in self.shows]
        # cells whose every split is the same (the same layouts, numbers alike) play alike in every set, so
        # one of them, the first, stands for the others inside the tree
        seen: Dict[Tuple[Tuple[int, int], ...], int] = {}
        for k, by_number in enumerate(self.shows):
            if by_number:
                seen.setdefault(tuple(sorted(by_number.items())), k)
        self.keys = sorted(seen.values())
        # part_of[k][s]: the part of layout s when unknown[k] opens (the layouts showing its number there),
        # so "does k split S" is one lookup: S is told apart by k when S holds a layout outside that part
        self.part_of: List[List[int]] = [[0] * len(layouts) for _ in unknown]
        for k in self.keys:
            for mask in self.masks[k]:
                rest = mask
                while rest:
                    low = rest & -rest
                    self.part_of[k][low.bit_length() - 1] = mask
                    rest ^= low
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

    def move_wins(self, S: int, k: int, beat: int = 0) -> int:
        """The layouts of S won by opening unknown[k] now and playing best after; once the move cannot win
        more than `beat` (each part left wins at most its size), a bound at most `beat` instead."""
        parts = [part for part in (S & m for m in self.masks[k]) if part]
        left = (S & self.empty[k]).bit_count()
        won = 0
        memo = self.memo
        for part in parts:
            size = part.bit_count()
            left -= size
            if size == 1:   # one layout: won, every safe cell then known
                won += 1
            else:
                known = memo.get(part)
                won += known if known is not None else self.wins(part)
            if won + left <= beat:
                return won + left
        return won

    def wins(self, S: int) -> int:
        """The layouts of S the best play wins."""
        if not S & (S - 1):
            return 1 if S else 0
        known = self.memo.get(S)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > ENDGAME_NODES or time.perf_counter() > self.deadline:
            raise OutOfTime
        risky = []
        first = (S & -S).bit_length() - 1
        for k in self.keys:
            empty = S & self.empty[k]
            if empty == S:
                if S & self.part_of[k][first] != S:   # safe in every layout and telling: free information
                    result = 0
                    for m in self.masks[k]:
                        part = S & m
                        if part:
                            result += self.wins(part) if part & (part - 1) else 1
                    self.memo[S] = result
                    return result
            elif empty:
                risky.append((-empty.bit_count(), k))
        best = 0
        for minus_empty, k in sorted(risky):
            if -minus_empty <= best:   # the layouts where k is empty bound its wins
                break
            best = max(best, self.move_wins(S, k, best))
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
