"""The best guess when no cell is proven safe: among the cells close to the lowest risk, the one whose
number is expected to prove the most other cells safe (progress; up to SAFE_CAP of them count).

For a candidate cell c and each number v it can show, the position with c opened as v is counted exactly
(analyze): its layouts are the current ones with c empty and v mines around it, so their share is the
chance of v, and its proven-safe cells are the progress v brings. A cell whose number is already
determined (a "dead" cell) proves nothing new and scores its safety alone, so it is played last.
"""
from __future__ import annotations

import heapq
import time
from typing import List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from .position import Counted, Neighbours, outcome

# candidates: cells at most this far above the lowest risk (absolute), the safest first ...
MARGIN = 0.05
# ... at most this many next to an opened number, and this many of the cells next to none (the same risk
# each; those with the fewest unknown neighbours, the likeliest to show a 0, stand for them)
# (8 and 4 with the wider endgame won +0.36% +- 0.21% of engine_trials' 12,000 expert games, paired, but
# -2 games of bench_play's 23,200, at two thirds of the speed: not kept)
FRONTIER_CANDIDATES = 6
INTERIOR_CANDIDATES = 2
# a candidate's score: P(safe) * (1 + PROGRESS_WEIGHT * E[min(cells its number proves safe, SAFE_CAP)] / SAFE_CAP)
# (measured on the same 900 expert games, benchmarks/README.md: SAFE_CAP 4 won 485, 1 won 486; a weight of
# 0.5 changed 2 games, 0 lost 2 of 450)
PROGRESS_WEIGHT = 0.25
SAFE_CAP = 1
# counts skipped where they cannot change the move (False: every candidate weighed in full, for the tests)
PRUNE = True
# a bound must fall this far short of the best score to skip (float sums are not exact)
SLACK = 1e-9


class Candidate(NamedTuple):
    """A cell weighed: its flat index, chance of a mine, chance of progress when safe (None: not searched
    within the budget) and score (higher is better)."""

    cell: int
    p_mine: float
    progress: Optional[float]
    score: float


def candidates(cells: str, counted: Counted, neighbours: Neighbours) -> List[Tuple[int, float]]:
    """The cells worth weighing, (flat cell, chance of a mine), the safest first then row-major."""
    live = [(i, p) for i, p in zip(counted.unknown, counted.chances) if p < 1.0]
    if not live:
        return []
    least = min(p for _, p in live)
    near = [(i, p) for i, p in live if p <= least + MARGIN]
    # the opened numbers' cells, found in one pass over the bytes (a digit less 48 is below 9; '?', '*' and
    # '.' wrap or land above), so "next to a number" is a set test per cell, not 8 look-ups
    digits = set(np.flatnonzero(np.frombuffer(cells.encode(), dtype=np.uint8) - np.uint8(48) < 9).tolist())
    edge: List[Tuple[int, float]] = []
    inner: List[Tuple[int, float]] = []
    for i, p in near:
        (inner if digits.isdisjoint(neighbours[i]) else edge).append((i, p))
    edge.sort(key=lambda ip: (ip[1], ip[0]))
    if "*" in cells or "." in cells:
        inner = heapq.nsmallest(INTERIOR_CANDIDATES, inner,
                                key=lambda ip: (sum(cells[j] == "?" for j in neighbours[ip[0]]), ip[0]))
    else:   # next to no number and no known cell, every neighbour of an inner cell is unknown
        inner = heapq.nsmallest(INTERIOR_CANDIDATES, inner, key=lambda ip: (len(neighbours[ip[0]]), ip[0]))
    chosen = edge[:FRONTIER_CANDIDATES] + inner
    chosen.sort(key=lambda ip: (ip[1], ip[0]))
    return chosen


def progress(cells: str, rows: int, cols: int, total: Optional[int], counted: Counted, cell: int,
             neighbours: Neighbours, deadline: float, need: float = 0.0) -> Optional[Tuple[float, float]]:
    """Given `cell` is safe: the chance its number proves some other cell safe, and the expected number of
    cells it proves, counted up to SAFE_CAP, over SAFE_CAP (the score's progress); None past the deadline,
    or once the progress is sure to stay under `need` (the numbers not yet counted all proving a cell)."""
    chance = dict(zip(counted.unknown, counted.chances))
    around = [chance.get(j, 0.0) for j in neighbours[cell] if cells[j] == "?"]
    # the number lies between the proven mines around and the cells around that may be mines
    known = sum(cells[j] == "*" for j in neighbours[cell])   # known mines (advise's known_mines)
    least, most = known + sum(p == 1.0 for p in around), known + sum(p > 0.0 for p in around)
    # the layouts with the cell empty, split by its number: once they are all seen, no number is left
    empty = None if counted.mine_solutions is None else \
        counted.solutions - counted.mine_solutions[counted.unknown.index(cell)]
    outcomes = []   # (layouts, cells proven safe)
    for v in range(least, most + 1):
        if time.perf_counter() > deadline:
            return None
        after = cells[:cell] + str(v) + cells[cell + 1:]
        layouts, proves = outcome(rows, cols, after, total)
        if layouts:
            outcomes.append((layouts, proves))
        if empty is not None:
            seen = sum(n for n, _ in outcomes)
            if seen == empty:
                break
            gained = sum(n * min(proves, SAFE_CAP) for n, proves in outcomes)   # integers: counts are huge
            if need > 0.0 and (gained + (empty - seen) * SAFE_CAP) / (empty * SAFE_CAP) < need - SLACK:
                return None
    layouts = sum(n for n, _ in outcomes)
    if not layouts:
        return 0.0, 0.0
    return (sum(n for n, proves in outcomes if proves) / layouts,
            sum(n * min(proves, SAFE_CAP) for n, proves in outcomes) / (layouts * SAFE_CAP))


def weigh(cells: str, rows: int, cols: int, total: Optional[int], counted: Counted, neighbours: Neighbours,
          deadline: float) -> List[Candidate]:
    """The candidates with their scores, best first (ties: lower risk, then row-major). A candidate whose
    score could not beat the best so far even with certain progress is not searched (progress None)."""
    weighed = []
    best = 0.0
    chosen = candidates(cells, counted, neighbours)
    if PRUNE and chosen and not any((1.0 - p) * (1.0 + PROGRESS_WEIGHT) > 1.0 - chosen[0][1] - SLACK
                                    for _, p in chosen[1:]):
        # no other candidate could beat the safest one's safety alone: the safest is the move, unweighed
        return [Candidate(i, p, None, 1.0 - p) for i, p in chosen]
    for i, p in chosen:
        q, proven = None, 0.0
        if (1.0 - p) * (1.0 + PROGRESS_WEIGHT) > best:
            # the progress this candidate needs to beat the best so far (ties go to the earlier, safer one)
            need = (best / (1.0 - p) - 1.0) / PROGRESS_WEIGHT if PRUNE and best and PROGRESS_WEIGHT else 0.0
            seen = progress(cells, rows, cols, total, counted, i, neighbours, deadline, need)
            if seen is not None:
                q, proven = seen
        score = (1.0 - p) * (1.0 + PROGRESS_WEIGHT * proven)
        best = max(best, score)
        weighed.append(Candidate(i, p, q, score))
    weighed.sort(key=lambda c: (-c.score, c.p_mine, c.cell))
    return weighed


def lowest_risk(counted: Counted) -> Optional[Tuple[int, float]]:
    """The sound fallback: the cell least likely a mine, first in row order."""
    best: Optional[Tuple[int, float]] = None
    for i, p in zip(counted.unknown, counted.chances):
        if best is None or p < best[1]:
            best = (i, p)
    return best


def percent(p: float) -> str:
    """A chance as a player reads it: '12.5%'."""
    return f"{100 * p:.1f}%"


def guess_text(best: Candidate, others: Sequence[Candidate]) -> str:
    """The one-line why of a guess."""
    safest = min((c.p_mine for c in others), default=best.p_mine)
    if best.progress is not None and best.p_mine > safest:
        return (f"opens progress: {percent(best.progress)} chance of a safe cell next "
                f"(mine {percent(best.p_mine)}, safest {percent(safest)})")
    return f"safest cell: {percent(best.p_mine)}"
