"""Exact analysis of a board: what it implies, how many solutions it has, each cell's mine probability.

Its rooms, bottom to top (an import-linter contract in pyproject.toml holds the order): `cellstate` (the
values of a decided cell); `counting/` (exact counts and per-cell numbers: `sweep/` and `tree/` for big
components); `levels/` (propagation gac, 2rc, 3rc; the SAT backbone, level full; grade) beside `small/`
(small boards answered whole from the exact count, no SAT); `report` ties them together: `analyze()` and
its `Analysis`; above it `explain/` (a board decided one justified step at a time) beside `advice/` (the
best move); on top `verdicts/` (must I guess? a replay audited). The flat module paths of before
(`mineconv.analysis.treecount`, `...verdict`, ...) still import: `oldpaths` maps each to its room.
"""
from types import ModuleType
from typing import TYPE_CHECKING

from ..core.bounds import DEFAULT_MEMORY_BUDGET, AnalysisTimeout, Bounds, CountingMemoryError, parse_size
from . import oldpaths
from .counting import DEFAULT_MAX_STATES, Count, CountingLimitError, count_component, count_solutions

# explain() stays mineconv.analysis.explain.explain (and mineconv.explain): here its name would hide its room
from .explain import Explanation, Step
from .levels import SAT_SOLVER, Propagation, full_backbone, propagate, sat_backbone
from .report import LEVELS, Analysis, analyze, count_text, unlimited_int_digits

oldpaths.install(__name__)
if not TYPE_CHECKING:   # hidden from mypy, which would otherwise take any name of this package for a module
    def __getattr__(name: str) -> ModuleType:
        """An old module path read as an attribute (mineconv.analysis.steps): the module in its room."""
        return oldpaths.old_module(__name__, name)

__all__ = ["DEFAULT_MAX_STATES", "DEFAULT_MEMORY_BUDGET", "LEVELS", "SAT_SOLVER", "Analysis", "AnalysisTimeout",
           "Bounds", "Count", "CountingLimitError", "CountingMemoryError", "Explanation", "Propagation", "Step", "analyze", "count_component", "count_solutions", "count_text", "full_backbone",
           "parse_size", "propagate", "sat_backbone", "unlimited_int_digits"]
