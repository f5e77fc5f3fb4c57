"""The solve floor: from a puzzle to a solver and back. The solver table (table), the process runner with its
caps and clock (process), one run of one solver (runners; the embedded pysat solver: embedded), solve() with
its uniqueness check (solving), the enumeration streams (enumeration), and reading answer files (decoding).

The names below are imported from their modules on first use: solving once does not import the enumeration.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_names

__all__ = ["EMBEDDED", "SolutionStream", "Answer", "Decoded", "decode", "decode_answer", "enumerate_solutions", "read_answer",
           "read_puzzle_or_model", "solve", "solver_names"]

__getattr__, __dir__ = lazy_names(__name__, {
    "..formats.answer": ["Answer", "Decoded", "decode_answer"],
    ".decoding": ["decode", "read_answer", "read_puzzle_or_model"],
    ".enumeration": ["SolutionStream", "enumerate_solutions"],
    ".solving": ["solve"],
    ".table": ["EMBEDDED", "solver_names"],
})

if TYPE_CHECKING:
    from ..formats.answer import Answer, Decoded, decode_answer
    from .decoding import decode, read_answer, read_puzzle_or_model
    from .enumeration import SolutionStream, enumerate_solutions
    from .solving import solve
    from .table import EMBEDDED, solver_names
