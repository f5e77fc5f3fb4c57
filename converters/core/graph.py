"""Connected components of a graph given as edge lists, vectorised (grids' regions, clauses' independent parts)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import LazyModule

if TYPE_CHECKING:
    import numpy as np
else:   # imported on first use
    np = LazyModule("numpy", __name__, "np")


def component_roots(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each node 0..n-1's component root, the smallest node of its component, the edges being a[i]-b[i].

    Union-find in bulk: every edge whose ends have different roots hooks the larger root onto the smaller
    (of several hooks on one root any one wins: labels only ever decrease, so no cycle forms, and the edges
    left over hook in the next round), then pointer jumping until every node points at its root. A
    4000 x 4000 grid takes seconds, not a Python loop per node.
    """
    parent = np.arange(n, dtype=np.int64)
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    while a.size:
        ra, rb = parent[a], parent[b]
        differ = ra != rb
        a, b, ra, rb = a[differ], b[differ], ra[differ], rb[differ]
        if not a.size:
            break
        parent[np.maximum(ra, rb)] = np.minimum(ra, rb)
        while True:
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
    return parent
