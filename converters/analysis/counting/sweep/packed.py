"""The table sweep's forward pass on packed keys: a state is one or two 64-bit words, not a row of residues.

`rows.row_sweep` keeps a layer's keys as an int8 matrix (a column per open count) and copies, checks and
gathers whole rows at every cell. Here each open count owns a bit field of a word while it is open (as
many bits as its right-hand side needs: a residue only goes down), so a cell's moves touch only the
fields of the counts that contain it:

    safe:  the key as it is;
    mine:  the key less the sum of 1 << shift over those fields (no borrow: each was checked >= 1 first);
    both:  each such field at most the cells its count has left after this one (0 for a count ending here).

A count that ends at a cell has field 0 in every key that survives it, so its bits are free for the next
count to enter, whose right-hand side is added to every key as one constant. Equal keys merge with one
np.unique (one word) or a lexicographic sort (more words). The moves are row_sweep's, state for
state, up to the numbering of each layer's states (tests/analysis/counting/sweep/test_packed.py holds them to it).

Worked example: counts A (cells a, b; rhs 1) and B (cells b, c; rhs 1), A's field bit 0, B's bit 1.

    a:  A enters, every key + 0b01: {0b01}. A keeps 1 cell after a, so a field of at most 1 passes:
        safe 0b01, mine 0b01 - 0b01 = 0b00                                   keys {0b00, 0b01}
    b:  B enters (+0b10): {0b10, 0b11}. A ends at b (at most 0 left), B keeps 1 cell:
        safe: 0b10 passes (A = 0), 0b11 does not;  mine: needs A >= 1 and B >= 1: 0b11 - 0b11 = 0b00
                                                                              keys {0b00, 0b10}
    c:  B ends: safe 0b00 -> 0b00; mine 0b10 - 0b10 -> 0b00                 keys {0b00}, reached twice
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple, Sequence, Tuple

import numpy as np

from ....core.bounds import UNBOUNDED, Bounds, CountingLimitError

Cons = Sequence[Tuple[Tuple[int, ...], int]]   # per count: its cells (ids) and its right-hand side
Moves = Tuple[np.ndarray, np.ndarray, int]     # next state without / with a mine (-1: none), next layer's size
WORD = 64


class Field(NamedTuple):
    """Where one open count's residue sits: word, shift and mask of its bits."""

    word: int
    shift: int
    mask: int


class Step(NamedTuple):
    """One cell of the sweep: the counts entering (field, rhs) and those containing it (field, cells left
    after it)."""

    entering: List[Tuple[Field, int]]
    containing: List[Tuple[Field, int]]


def plan(order: Sequence[int], cons: Cons) -> Tuple[List[Step], int]:
    """The steps of a sweep in this order and the number of words a key needs (bit fields, first fit)."""
    pos = {v: i for i, v in enumerate(order)}
    members = [sorted(pos[x] for x in vs) for vs, _ in cons]
    entering: Dict[int, List[int]] = {}
    containing: List[List[int]] = [[] for _ in order]
    for ci, ps in enumerate(members):
        entering.setdefault(ps[0], []).append(ci)
        for p in ps:
            containing[p].append(ci)
    used: List[int] = []          # per word, a mask of the bits held by open counts
    field: Dict[int, Field] = {}
    steps = []
    for i in range(len(order)):
        enter = []
        for ci in entering.get(i, []):
            rhs = cons[ci][1]
            bits = max(1, int(rhs).bit_length())
            field[ci] = _allocate(used, bits)
            enter.append((field[ci], rhs))
        inside = []
        for ci in containing[i]:
            left = len(members[ci]) - 1 - members[ci].index(i)
            inside.append((field[ci], left))
            if not left:   # the count ends here: its bits are free from the next cell on
                f = field.pop(ci)
                used[f.word] &= ~(f.mask << f.shift)
        steps.append(Step(enter, inside))
    return steps, max(1, len(used))


def _allocate(used: List[int], bits: int) -> Field:
    """The lowest run of `bits` free bits in the first word that has one (a new word when none has)."""
    mask = (1 << bits) - 1
    for word, taken in enumerate(used):
        for shift in range(WORD - bits + 1):
            if not taken & (mask << shift):
                used[word] |= mask << shift
                return Field(word, shift, mask)
    used.append(mask)
    return Field(len(used) - 1, 0, mask)


def packed_sweep(order: Sequence[int], cons: Cons, bounds: Bounds = UNBOUNDED, what: str = "a component",
                 max_states: int = 1 << 62) -> List[Moves]:
    """The forward pass over the keys: per cell, each state's next state without and with a mine."""
    steps, words = plan(order, cons)
    keys = [np.zeros(1, dtype=np.uint64) for _ in range(words)]
    moves: List[Moves] = []
    kept = 0
    for i, step in enumerate(steps):
        size = len(keys[0])
        # the step's arrays: the keys, both moves' copies and their sort (~6 words a state), before it runs
        bounds.check_memory(kept + size * (48 * words + 40), what)
        for f, rhs in step.entering:
            if rhs < 0:   # a count that can never be met: no state survives it
                keys = [k[:0] for k in keys]
                size = 0
                break
            keys[f.word] = keys[f.word] + np.uint64(rhs << f.shift)
        ok0, ok1 = _checks(keys, step.containing, size)
        delta = [0] * words
        for f, _ in step.containing:
            delta[f.word] += 1 << f.shift
        parts = []
        for w in range(words):
            k0 = keys[w] if ok0 is None else keys[w][ok0]
            k1 = keys[w] if ok1 is None else keys[w][ok1]
            parts.append(np.concatenate([k0, k1 - np.uint64(delta[w])]) if delta[w] else np.concatenate([k0, k1]))
        keys, inv = _merge(parts)
        if len(keys[0]) > max_states:
            raise CountingLimitError(f"{what} needs more than {max_states} counting states")
        n0 = size if ok0 is None else int(np.count_nonzero(ok0))
        idx0 = np.full(size, -1, dtype=np.int32)
        idx1 = np.full(size, -1, dtype=np.int32)
        if ok0 is None:
            idx0[:] = inv[:n0]
        else:
            idx0[ok0] = inv[:n0]
        if ok1 is None:
            idx1[:] = inv[n0:]
        else:
            idx1[ok1] = inv[n0:]
        moves.append((idx0, idx1, len(keys[0])))
        kept += 16 * size + 200
        bounds.check_memory(kept + 8 * words * len(keys[0]), what)
        bounds.report("counting", i + 1, len(steps))
        bounds.check()
    return moves


def _checks(keys: List[np.ndarray], containing: List[Tuple[Field, int]], size: int):
    """(safe move allowed, mine move allowed) per state, None for "every state"."""
    ok0 = ok1 = None
    for f, left in containing:
        d = keys[f.word] >> np.uint64(f.shift) if f.shift else keys[f.word]
        if f.mask != (1 << WORD) - 1:
            d = d & np.uint64(f.mask)
        if left < f.mask:   # a field of more than `left` fails the safe move; more than left + 1 the mine move
            safe = d <= np.uint64(left)
            ok0 = safe if ok0 is None else ok0 & safe
        mine = (d >= np.uint64(1)) & (d <= np.uint64(left + 1)) if left + 1 < f.mask else d >= np.uint64(1)
        ok1 = mine if ok1 is None else ok1 & mine
    if not containing:
        return None, None
    return ok0, ok1


def _merge(parts: List[np.ndarray]) -> Tuple[List[np.ndarray], np.ndarray]:
    """(distinct keys in order, the distinct key number of each given key), keys as lists of words (the
    lowest word first, which orders them)."""
    if len(parts) == 1:
        # the keys come as two sorted runs (a sorted layer's safe moves, then its mine moves, each less the
        # same constant): a stable sort (timsort) merges them in linear time, where np.unique's quicksort
        # took 2.2 of 5.5 s on a 40x40 checkerboard
        order = np.argsort(parts[0], kind="stable")
    else:
        order = np.lexsort(parts[::-1])
    sorted_parts = [p[order] for p in parts]
    new = np.zeros(len(order), dtype=bool)
    new[:1] = True
    for p in sorted_parts:
        new[1:] |= p[1:] != p[:-1]
    inv = np.empty(len(order), dtype=np.intp)
    inv[order] = np.cumsum(new) - 1
    return [p[new] for p in sorted_parts], inv
