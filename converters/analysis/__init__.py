"""Exact analysis of a board: what it implies, how many solutions it has, each cell's mine probability.

`propagation` decides what local reasoning can (levels gac, 2rc, 3rc), `backbone` the rest by SAT (level
full), `counting` counts solutions exactly per component (with `polynomials` for the arithmetic), and
`marginals` gives double-precision probabilities where exact ones cost too much; on small boards `quick`
answers the full level from the exact count alone (counted over groups of cells by `groups`). `report` ties them
together: `analyze()` and its `Analysis`. `explain` walks a board one justified step at a time (`steps`
holds what it records, `proofs` the SAT cores of its full level); `grade` names the level a board needs.
"""
from ..core.bounds import DEFAULT_MEMORY_BUDGET, AnalysisTimeout, Bounds, CountingMemoryError, parse_size
from .backbone import SAT_SOLVER, full_backbone, sat_backbone
from .counting import DEFAULT_MAX_STATES, Count, CountingLimitError, count_component, count_solutions
from .propagation import Propagation, propagate
from .report import LEVELS, Analysis, analyze, count_text, unlimited_int_digits

# explain() stays mineconv.analysis.explain.explain (and mineconv.explain): here its name would hide its module
from .steps import Explanation, Step

__all__ = ["DEFAULT_MAX_STATES", "DEFAULT_MEMORY_BUDGET", "LEVELS", "SAT_SOLVER", "Analysis", "AnalysisTimeout",
           "Bounds", "Count", "CountingLimitError", "CountingMemoryError", "Explanation", "Propagation", "Step", "analyze", "count_component", "count_solutions", "count_text", "full_backbone",
           "parse_size", "propagate", "sat_backbone", "unlimited_int_digits"]
