"""A join of a child's table into its parent's, for dp's structure: which rows pair, and the new rows.

The parent's rows are grouped by their values on the columns the child shares; a group pairs with each
child row whose sums stay within every count's number and short of it by at most the count's cells still to
come (those with none left must meet it exactly: a hash join on those columns). Each pair's new key is the
parent row's plus the child row's on the shared columns; equal new keys are one new row.
"""
from __future__ import annotations

from typing import Callable, List, Tuple

import numpy as np

from ..sweep.rows import merge_rows


def pair_groups(gkeys: np.ndarray, bkeys: np.ndarray, caps: np.ndarray, lefts: np.ndarray,
                room: Callable[[int], None]) -> Tuple[np.ndarray, np.ndarray]:
    """(group, child row) pairs whose sums fit: within caps, and short of them by at most lefts. Those with
    no cell left must meet their caps exactly: the child rows are looked up by those columns (a hash join)."""
    exact = np.flatnonzero(lefts == 0)
    if len(exact):
        both = np.concatenate([gkeys[:, exact], caps[exact] - bkeys[:, exact]]).astype(np.int8)
        _, ids = merge_rows(both, caps[exact])
        gid, bid = ids[:len(gkeys)], ids[len(gkeys):]
    else:
        gid, bid = np.zeros(len(gkeys), dtype=np.intp), np.zeros(len(bkeys), dtype=np.intp)
    border = np.argsort(bid, kind="stable")
    counts = np.bincount(bid, minlength=int(max(gid.max(initial=0), bid.max(initial=0))) + 1)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    per = counts[gid]
    room(int(per.sum()) * (40 + 2 * len(caps)))
    g = np.repeat(np.arange(len(gkeys)), per)
    within = np.arange(len(g)) - np.repeat(np.cumsum(per) - per, per)
    b = border[np.repeat(starts[gid], per) + within]
    total = gkeys[g].astype(np.int16) + bkeys[b]
    ok = ((total <= caps) & (total + lefts >= caps)).all(axis=1)
    return g[ok], b[ok]


JOIN_CHUNK = 1 << 22   # pairs expanded at once in a join (their temporaries, ~100 bytes each, stay < 0.5 GB)


def join_rows(keys: np.ndarray, cols: np.ndarray, bkeys: np.ndarray, need: np.ndarray, lefts: np.ndarray,
              room: Callable[[int], None]) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(parent rows, child rows, new rows, new keys) of a join on the parent's columns `cols`; `room` is told
    the bytes a step is about to take (and raises past the budget).

    The pairs are expanded JOIN_CHUNK at a time, each chunk's new keys merged, then the chunks' distinct keys
    merged once more: checker-100x100-0.4 has a join of 31 million pairs (3.5 GB of temporaries at once) and
    691,200 new rows. merge_rows numbers distinct keys in the order of their codes, so the new rows' numbers
    are those of one merge of all the pairs, whatever the chunks."""
    first, group = merge_rows(keys[:, cols], need[cols])
    g, b = pair_groups(keys[first][:, cols], bkeys, need[cols], lefts, room)
    order = np.argsort(group, kind="stable")
    counts = np.bincount(group, minlength=len(first))
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    per = counts[g]
    ends = np.cumsum(per)
    parts: List[Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    kept, at = 0, 0
    while at < len(g):
        # whole (group, child row) pairs up to JOIN_CHUNK expanded pairs (at least one)
        stop = max(at + 1, int(np.searchsorted(ends, (ends[at - 1] if at else 0) + JOIN_CHUNK, side="right")))
        gp, bp, pp = g[at:stop], b[at:stop], per[at:stop]
        n = int(pp.sum())
        # the chunk's indices (five int64 arrays), its keys twice and the merge's codes and sort, beside the
        # int32 indices and distinct keys of the chunks before
        room(kept + n * (64 + 3 * keys.shape[1]))
        pair = np.repeat(np.arange(len(gp)), pp)
        within = np.arange(n) - np.repeat(np.cumsum(pp) - pp, pp)
        rows = order[np.repeat(starts[gp], pp) + within]
        other = bp[pair]
        new = keys[rows]
        new[:, cols] += bkeys[other]
        firsts, into = merge_rows(new, need)
        parts.append((narrow(rows), narrow(other), narrow(into), new[firsts]))
        kept += n * 12 + parts[-1][3].nbytes
        at = stop
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int32), keys[:0]
    # the last merge, and the joined indices beside the chunks' (freed as they are copied)
    distinct = np.concatenate([p[3] for p in parts])
    room(2 * kept + 4 * distinct.nbytes)
    firsts, ids = merge_rows(distinct, need)
    size = sum(len(p[0]) for p in parts)
    joined = [np.empty(size, dtype=np.result_type(*(p[f] for p in parts))) for f in range(3)]
    at = base = 0
    while parts:
        rows, other, into, new = parts.pop(0)
        end = at + len(rows)
        joined[0][at:end], joined[1][at:end], joined[2][at:end] = rows, other, ids[base + into]
        at, base = end, base + len(new)
    return joined[0], joined[1], joined[2], distinct[firsts]


def narrow(index: np.ndarray) -> np.ndarray:
    """An index array kept as int32 (half the structure's memory: 2.5 GB of int64 on checker-100x100-0.4)
    where its values fit."""
    return index.astype(np.int32) if len(index) < 1 << 31 and index.max(initial=0) < 1 << 31 else index
