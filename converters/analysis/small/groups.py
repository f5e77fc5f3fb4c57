"""Counting one component of a board over groups of cells, with count polynomials packed in Python ints.

A group is a set of unknown cells touched by the same counts: one variable holding 0..n mines, weighted
by C(n, j). A component (groups linked through shared counts) is counted by a forward and a backward pass
over its groups, with the states memoised on the partly filled counts' remaining right-hand sides; a
component of a few groups is counted solution by solution instead, which costs less than setting up
states (one of up to TRY_ENUMERATE_GROUPS groups is tried so first, within a number of visits), and one of
one or two groups in closed form. A count polynomial (coefficient j: the weight of j mines) is one Python int with the coefficients
in fixed-width bit slots, so a sum is one addition, one more mine a shift, and a product one big-integer
multiplication (Kronecker substitution), all in C. `quick` uses it on small boards.
"""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

from ..counting.packing import unpack

# bytes of count polynomials the forward layers may keep before the counter hands over (None)
QUICK_MEMORY = 16 << 20
# components of at most this many groups are counted solution by solution (no states to set up)
ENUMERATE_GROUPS = 10
# ... and at most this many assignments of mine numbers to the groups (the solutions are fewer)
ENUMERATE_BOXES = 1 << 12
# components of two groups are counted in closed form (False: as any other, for the tests)
CLOSED_FORM = True
# components of up to this many groups past the box bound are first tried solution by solution, giving up
# past ENUMERATE_VISITS visits a group (then the programme counts them): a game's frontier chains have
# few solutions, which cost less to visit than the programme's set-up. Measured on the 1,028 components
# count_groups met in 60 expert games: per component the visits took a median 0.5-0.8 of the programme's
# time up to 20 groups, 1-3x from 23 (up to 20x); none of those up to 20 groups needed 30 visits a group;
# the 2,557 positions of those games counted 375 -> 304 us each (24 groups: 297, 16: 312; 12 visits: 334).
# E.g. a chain of 16 groups of one cell, each count "1" over two neighbours, has 2 solutions: the search
# visits ~32 groups (30 x 16 = 480 allowed), where the programme first builds an order and a schedule
TRY_ENUMERATE_GROUPS = 20
ENUMERATE_VISITS = 30

BINOMIAL = [[math.comb(n, j) for j in range(n + 1)] for n in range(9)]   # a group has at most 8 cells

GroupCons = Sequence[Tuple[List[int], int]]   # per count: (positions of its groups, rhs)
_SHIFTED: Dict[int, Tuple[List[List[int]], List[List[int]]]] = {}


def shifted(width: int) -> Tuple[List[List[int]], List[List[int]]]:
    """Per group size n (0..8) and mines v on it, one multiplier of a polynomial packed at `width` bits a
    coefficient: C(n, v) << (v * width), the weight of v mines on the group; and C(n - 1, v - 1) << (v * width)
    (0 for v = 0), the same with a given cell of it a mine (C(n, v) v / n). Made once per width.

    E.g. width 8, a group of 2 cells: [1, 2 << 8, 1 << 16] and [0, 1 << 8, 1 << 16]. A weight w = 3 + 5x
    (packed 3 + (5 << 8)) with one mine on the group is w * (2 << 8) = 6x + 10x^2, one multiplication in
    place of w * 2 shifted by a slot; with a given cell the mine, w * (1 << 8) = 3x + 5x^2, so the marginals
    need no division by the group's size afterwards."""
    tables = _SHIFTED.get(width)
    if tables is None:
        tables = _SHIFTED[width] = (
            [[BINOMIAL[n][v] << (v * width) for v in range(n + 1)] for n in range(9)],
            [[0] + [BINOMIAL[n - 1][v - 1] << (v * width) for v in range(1, n + 1)] for n in range(9)])
    return tables


def _order(sizes: Sequence[int], cons: GroupCons) -> List[int]:
    """The groups breadth first from a far end: the partly filled counts stay few."""
    # per group, its neighbours (itself too) as a bit mask over the groups: a neighbour list sorted
    # ascending is then the set bits read from the low end
    adj = [0] * len(sizes)
    for gs, _ in cons:
        mask = 0
        for g in gs:
            mask |= 1 << g
        for g in gs:
            adj[g] |= mask
    degrees = [m.bit_count() for m in adj]
    start = degrees.index(min(degrees))
    for _ in range(2):
        seen = 1 << start
        order = [start]
        for g in order:
            new = adj[g] & ~seen
            seen |= new
            while new:
                low = new & -new
                order.append(low.bit_length() - 1)
                new ^= low
        start = order[-1]
    return order


def component_polynomials(sizes: List[int], cons_of: List[List[int]], need: Dict[int, int], sums: bool = False):
    """(offset, P, M) of one component: P[j] the weight of offset + j mines in it, M[g][j] the same with a
    given cell of group g a mine; None past the state budget. Per group its size and its counts (any
    ids, each count's open cells all in the component's groups); per count the mines it needs (need is
    used as scratch and left as it was). With `sums` (no total to share out), the programme may answer
    with the sums alone: P and each M of one coefficient, the offset 0."""
    if len(sizes) == 1:   # one group: every count of the component sees exactly its cells
        r = need[cons_of[0][0]]
        if any(need[c] != r for c in cons_of[0]):
            return 0, [0], [[0]]
        n = sizes[0]
        return r, [BINOMIAL[n][r]], [[BINOMIAL[n - 1][r - 1] if r else 0]]
    if len(sizes) == 2 and CLOSED_FORM:
        return _two(sizes[0], sizes[1], cons_of, need)
    if len(sizes) <= ENUMERATE_GROUPS and math.prod(n + 1 for n in sizes) <= ENUMERATE_BOXES:
        return _enumerate(sizes, cons_of, need)
    if len(sizes) <= TRY_ENUMERATE_GROUPS:
        counted = _enumerate(sizes, cons_of, need, ENUMERATE_VISITS * len(sizes))
        if counted is not None:
            return counted
    local: Dict[int, List[int]] = {}
    for g, cs in enumerate(cons_of):
        for c in cs:
            if c in local:
                local[c].append(g)
            else:
                local[c] = [g]
    return count_groups(sizes, [(gs, need[c]) for c, gs in local.items()], sums)


def count_groups(sizes: List[int], cons: GroupCons, sums: bool = False):
    """component_polynomials's answer by the forward/backward programme, the counts as (the positions of their
    groups, mines needed); with `sums`, the sums alone (weights as plain integers, not polynomials)."""
    if any(r < 0 for _, r in cons):
        return 0, [0], [[0]] * len(sizes)
    cells = sum(sizes)
    order = _order(sizes, cons)
    # a slot holds any count of the component's cells times a group's size; slots of no width add the
    # coefficients up: the polynomial's value at 1, the sums
    width = 0 if sums else cells + 8
    bits = max(r for _, r in cons).bit_length() or 1    # a state's slot holds at most its count's mines
    steps = _schedule(order, sizes, cons, bits)
    layers, spans = _forward(steps, width, cells, (1 << bits) - 1)
    if layers is None:
        return None
    if 0 not in layers[-1]:
        return 0, [0], [[0]] * len(sizes)
    back: Dict[int, int] = {0: 1}
    marg: List[int] = [0] * len(sizes)
    weights, mine_weights = shifted(width)
    for i in range(len(order) - 1, -1, -1):
        size, start, dec, _ = steps[i]
        # v mines on the group: its weight C(size, v) x^v, and C(size - 1, v - 1) x^v with a given cell a mine
        shift, one_mine = weights[size], mine_weights[size]
        cur: Dict[int, int] = {}
        get = back.get
        into = 0
        for (s, w), (lo, hi) in zip(layers[i].items(), spans[i]):
            acc = 0
            t = s + start - lo * dec
            for v in range(lo, hi + 1):
                b = get(t)
                if b is not None:
                    acc += b * shift[v]
                    if v:
                        into += b * w * one_mine[v]
                t -= dec
            if acc:
                cur[s] = acc
        marg[order[i]] = into
        back = cur
    total = back[0]
    if sums:
        return 0, [total], [[m] for m in marg]
    # only the span of mine counts the component can hold: offset, then the coefficients from there
    lo = ((total & -total).bit_length() - 1) // width
    hi = (total.bit_length() - 1) // width
    P = unpack(total >> (lo * width), width, hi - lo + 1)
    M = [unpack(m >> (lo * width), width, hi - lo + 1) for m in marg]
    return lo, P, M


def _two(a: int, b: int, cons_of: List[List[int]], need: Dict[int, int]):
    """component_polynomials's answer for two groups of a and b cells, in closed form: some count sees both
    (they are one component), so x + y = s mines on every solution, and counts that see one group fix it."""
    both = set(cons_of[0]).intersection(cons_of[1])
    sums = {need[c] for c in both}
    x_only = {need[c] for c in cons_of[0] if c not in both}
    y_only = {need[c] for c in cons_of[1] if c not in both}
    if len(sums) != 1 or len(x_only) > 1 or len(y_only) > 1:
        return 0, [0], [[0], [0]]
    s = sums.pop()
    lo, hi = max(0, s - b), min(a, s)
    for x in x_only:
        lo, hi = max(lo, x), min(hi, x)
    for y in y_only:
        lo, hi = max(lo, s - y), min(hi, s - y)
    ca, cb = BINOMIAL[a], BINOMIAL[b]
    ca1, cb1 = BINOMIAL[a - 1], BINOMIAL[b - 1]
    p = ma = mb = 0
    for x in range(lo, hi + 1):
        y = s - x
        p += ca[x] * cb[y]
        if x:
            ma += ca1[x - 1] * cb[y]
        if y:
            mb += ca[x] * cb1[y - 1]
    if not p:
        return 0, [0], [[0], [0]]
    return s, [p], [[ma], [mb]]


def _enumerate(sizes: List[int], cons_of: List[List[int]], rem: Dict[int, int], visits: Optional[int] = None):
    """component_polynomials's answer for a few groups, by visiting every solution over the groups: on small
    components that costs less than setting up the programme's states. rem (per count the mines it still
    needs) changes as it goes and is restored. With `visits`, None when the search would visit more groups
    than that (it then winds back without going deeper, so rem is restored as well)."""
    n = len(sizes)
    # per group, its counts with how many of their cells lie in the groups after it
    limits: List[List[Tuple[int, int]]] = [[]] * n
    after: Dict[int, int] = {}
    for g in range(n - 1, -1, -1):
        size = sizes[g]
        lim = []
        for c in cons_of[g]:
            a = after.get(c, 0)
            lim.append((c, a))
            after[c] = a + size
        limits[g] = lim
    vals = [0] * n
    found: List[Tuple[int, int, Tuple[int, ...]]] = []   # (weight, mines, per group mines) per solution
    left = [1 << 62 if visits is None else visits]   # visits left (below 0: given up)

    def visit(g: int, w: int, m: int) -> None:
        left[0] -= 1
        if left[0] < 0:
            return
        size = sizes[g]
        lo, hi = 0, size
        for c, a in limits[g]:
            r = rem[c]
            if r < hi:
                hi = r
            if r - a > lo:
                lo = r - a
        if lo > hi:
            return
        binom = BINOMIAL[size]
        if g == n - 1:
            for v in range(lo, hi + 1):
                vals[g] = v
                found.append((w * binom[v], m + v, tuple(vals)))
            return
        cs = cons_of[g]
        if not lo:
            vals[g] = 0
            visit(g + 1, w, m)
            lo = 1
        for v in range(lo, hi + 1):
            for c in cs:
                rem[c] -= v
            vals[g] = v
            visit(g + 1, w * binom[v], m + v)
            for c in cs:
                rem[c] += v

    visit(0, 1, 0)
    # visit calls itself through its closure cell, a reference cycle that only the garbage collector
    # frees (with `found` inside it): emptying the cell lets reference counting free it now
    visit = None  # type: ignore[assignment]
    if left[0] < 0:
        return None
    if not found:
        return 0, [0], [[0]] * n
    lo = min(m for _, m, _ in found)
    d = max(m for _, m, _ in found) - lo + 1
    P = [0] * d
    M = [[0] * d for _ in sizes]
    for w, m, vs in found:
        m -= lo
        P[m] += w
        for g, v in enumerate(vs):
            if v:
                M[g][m] += w * v
    return lo, P, [[x // size for x in Mg] for Mg, size in zip(M, sizes)]


# per group of the order: its size, the counts starting at it (their mines needed, each in its slot), one in
# the slot of each count containing it, and per such count (its slot's shift, cells left after it)
Step = Tuple[int, int, int, List[Tuple[int, int]]]


def _schedule(order: List[int], sizes: List[int], cons: GroupCons, bits: int) -> List[Step]:
    """The programme's steps: a state is one int, the mines each partly filled count still needs in a slot of
    `bits` bits (never below 0: a group takes at most what each of its counts needs). A count's slot is taken
    at its first group and freed after its last, where it needs 0 mines on every state (its last group takes
    exactly what it needs), so a freed slot holds 0 for the next count and two states are equal exactly when
    their partly filled counts need the same."""
    pos = [0] * len(order)
    for i, g in enumerate(order):
        pos[g] = i
    starting: List[List[int]] = [[] for _ in order]
    ending: List[List[int]] = [[] for _ in order]
    of_group: List[List[int]] = [[] for _ in sizes]
    left = []     # per count, its cells in groups not yet stepped past
    for ci, (gs, _) in enumerate(cons):
        first = last = pos[gs[0]]
        cells = 0
        for g in gs:
            p = pos[g]
            if p < first:
                first = p
            elif p > last:
                last = p
            of_group[g].append(ci)
            cells += sizes[g]
        starting[first].append(ci)
        ending[last].append(ci)
        left.append(cells)
    free: List[int] = []
    used = 0
    shift = [0] * len(cons)
    steps = []
    for i, g in enumerate(order):
        start = 0
        for ci in starting[i]:
            if free:
                k = free.pop()
            else:
                k, used = used, used + bits
            shift[ci] = k
            start += cons[ci][1] << k
        size = sizes[g]
        dec = 0
        contains = []
        for ci in of_group[g]:
            k = shift[ci]
            rest = left[ci] - size
            left[ci] = rest
            dec += 1 << k
            contains.append((k, rest))
        steps.append((size, start, dec, contains))
        for ci in ending[i]:
            free.append(shift[ci])
    return steps


def _forward(steps: List[Step], width: int, cells: int, full: int):
    """Forward layers (state -> weight polynomial) and per layer each state's span of mines on the next
    group (lo, hi), in the layer's order; None, None past the memory budget."""
    layers: List[Dict[int, int]] = [{0: 1}]
    spans: List[List[Tuple[int, int]]] = []
    # states the layers may hold (as many for the sums alone: the same boards take this path either way)
    budget = QUICK_MEMORY // max(1, ((cells + 8) * (cells + 1)) // 8 + 64)
    weights = shifted(width)[0]
    for size, start, dec, contains in steps:
        weight = weights[size]
        nxt: Dict[int, int] = {}
        get = nxt.get
        span = []
        for s, w in layers[-1].items():
            ext = s + start
            lo, hi = 0, size
            for shift, cap in contains:
                r = (ext >> shift) & full
                if r < hi:
                    hi = r
                if r - cap > lo:
                    lo = r - cap
            span.append((lo, hi))
            t = ext - lo * dec
            for v in range(lo, hi + 1):
                nxt[t] = get(t, 0) + w * weight[v]
                t -= dec
        budget -= len(nxt)
        if budget < 0:
            return None, None
        layers.append(nxt)
        spans.append(span)
    return layers, spans

