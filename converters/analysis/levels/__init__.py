"""The levels of reasoning: which cells a board decides, and by how much thought.

This room owns certainty, never likelihood. `propagation` decides what local reasoning can (``gac``: each
count alone and the total mine count; ``2rc`` / ``3rc``: joins of two / three overlapping counts), to a
fixed point; `backbone` decides the rest by incremental SAT (level ``full``, with the exact count where it
is cheap); `grade` names the weakest level that decides a whole board. `grade()` itself stays
`levels.grade.grade`: here its name would hide its module.
"""
from .backbone import FALLBACK_CUT, SAT_SOLVER, full_backbone, sat_backbone, solve_within
from .grade import GRADE_LEVELS, Grade
from .propagation import LEVELS, Contradiction, Propagation, propagate

__all__ = ["FALLBACK_CUT", "GRADE_LEVELS", "LEVELS", "SAT_SOLVER", "Contradiction", "Grade", "Propagation",
           "full_backbone", "propagate", "sat_backbone", "solve_within"]
