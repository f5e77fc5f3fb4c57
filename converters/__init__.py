"""mineconv: Minesweeper puzzles to SAT/ILP solver files and back."""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import (FormatError, LossyConversionError, LossyConversionWarning, MineconvError, PuzzleError,
                     PuzzleSyntaxError, SolutionSyntaxError, SolverError, VerificationError)
from .model.puzzle import Puzzle
from .registry import dump, dumps, get_format, parse, read, register_format, write
from .registry import formats as list_formats
from .model.system import LinearSystem, build_system, check_assignment

__all__ = [
    "__version__", "Puzzle", "LinearSystem", "build_system", "check_assignment",
    "read", "parse", "write", "dump", "dumps", "list_formats", "get_format", "register_format",
    "MineconvError", "PuzzleError", "PuzzleSyntaxError", "FormatError", "LossyConversionError",
    "LossyConversionWarning", "SolutionSyntaxError", "SolverError", "VerificationError",
]
