"""Explanations: a board decided one small justified step at a time, cheapest first, in words a player reads.

This room owns the solving path. `walk` searches the steps (one count, the total, two or three counts,
then a SAT proof); `steps` holds what an explanation records (Steps, the Cells they decide, the Clues that
justify them, the JSON of `mineconv explain --json`); `proofs` finds the few counts that rule out a cell's
other value at level ``full``; `board_index` makes the per-count and per-cell lookups on first use.
"""
from .steps import Explanation, Step
from .walk import LEVELS, Explainer, explain, iter_steps

__all__ = ["LEVELS", "Explainer", "Explanation", "Step", "explain", "iter_steps"]
