"""Exact counting: how many solutions a board has and, per cell, how many put a mine there, never by listing them.

This room owns the numbers. `count` splits the open cells into components, counts the small ones itself
(a dynamic programme over the cells with a narrow frontier) and hands each big one to a family: `sweep/`
(a table of states swept over an order of the cells) or `tree/` (dynamic programming over a tree
decomposition of the counts). `board` combines the components with the free cells (products of powers of
two, or binomial weights under a total mine count), `polynomials` and `packing` are the arithmetic of
count polynomials (per number of mines), `marginals` the double-precision probabilities of big boards.
From outside, only `count_solutions` and `Count` are needed.
"""
from ...core.bounds import CountingLimitError, CountingMemoryError
from .board import Count
from .count import DEFAULT_MAX_STATES, components, count_component, count_solutions

__all__ = ["DEFAULT_MAX_STATES", "Count", "CountingLimitError", "CountingMemoryError", "components",
           "count_component", "count_solutions"]
