"""Small boards answered whole in plain Python: the full level from the exact count, no numpy, no SAT.

This room owns the quick path of `analyze` (boards of up to QUICK_MAX_CELLS cells). `frontier` settles the
board on bit masks of its cells (what the counts decide alone and in pairs) and groups the open cells that
the same counts touch; `groups` counts a component of such groups with count polynomials packed in Python
ints; `quick` puts them together into the count, the certain cells and the probabilities.
"""
from .quick import QUICK_MAX_CELLS, quick_count, quick_system

__all__ = ["QUICK_MAX_CELLS", "quick_count", "quick_system"]
