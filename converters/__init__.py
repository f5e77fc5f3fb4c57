"""mineconv: Minesweeper puzzles to SAT/ILP solver files and back.

    import mineconv as mc
    p = mc.read("samples/dusautoy-6x6.txt")      # a Puzzle, from any registered notation
    mc.write(p, "board.lp")                      # a solver file, any registered format
    print(mc.solve(p).solved_puzzle())           # embedded SAT solver; mc.solve(p, "cbc") for an installed one
    mc.decode("board.lp", "board.sol")           # a solver's answer, mapped onto the grid and verified
    mc.analyze(p).probability_grid               # exact analysis
    svg = mc.render(p, analysis=True)            # SVG picture with the probability heat map
"""
from __future__ import annotations

import os
from typing import Any, Optional, Union

from .analysis import Analysis, analyze
from .analysis.explain import explain, iter_steps
from .analysis.grade import Grade, grade
from .analysis.steps import Explanation
from .core.errors import (
    AmbiguousInputWarning,
    FileAccessError,
    FormatError,
    InputError,
    InputNotFoundError,
    LossyConversionError,
    LossyConversionWarning,
    MineconvError,
    PuzzleError,
    PuzzleSyntaxError,
    ResourceError,
    SolutionSyntaxError,
    SolverError,
    VerificationError,
)
from .core.puzzle import Puzzle
from .core.system import LinearSystem, Violation, build_system, check_assignment
from .encode import to_cnf, to_cpsat, to_pulp
from .formats.dimacs_formula import Formula, parse_formula, read_formula
from .formats.reading import parse, read, read_all
from .formats.registry import formats as list_formats
from .formats.registry import get_format, register_format
from .formats.writing import dump, dumps, write
from .make.design import design_puzzles
from .make.reduce import DEFAULT_MAX_CELLS as _REDUCE_MAX_CELLS
from .make.reduce import cnf_model
from .make.reduce import reduce as _reduce
from .present.picture import render_svg as _render_svg
from .solvers import Answer, Decoded, SolutionStream, decode, enumerate_solutions, read_answer, solve


def solutions(puzzle: Puzzle, limit: Optional[int] = None, *, timeout: Optional[float] = None) -> SolutionStream:
    """Each solution once, lazily, as the embedded solver finds it (a Decoded each); timeout bounds the whole run."""
    return SolutionStream(puzzle, limit, timeout=timeout)


def reduce(cnf: Union[Formula, str, "os.PathLike[str]"], max_cells: int = _REDUCE_MAX_CELLS) -> Puzzle:
    """The board whose solutions are a CNF formula's models, one to one (a Formula, or a DIMACS file's path)."""
    formula = cnf if isinstance(cnf, Formula) else read_formula(cnf)
    return _reduce(formula, max_cells=max_cells)


def render(puzzle: Puzzle, analysis: Union[Analysis, bool, None] = None, **options: Any) -> str:
    """The SVG text of the board; `analysis` (an Analysis, or True to compute one) marks and heat-maps cells.

    `options` are render_svg's: cell (pixels), heat, title, percent, coordinates.
    """
    if isinstance(analysis, bool):
        analysis = analyze(puzzle) if analysis else None
    return _render_svg(puzzle, analysis, **options)


__all__ = [
    "__version__",
    # the model
    "Puzzle", "LinearSystem", "Violation", "build_system", "check_assignment",
    # notations and solver files
    "read", "read_all", "parse", "write", "dump", "dumps", "list_formats", "get_format", "register_format",
    # encoders
    "to_cnf", "to_pulp", "to_cpsat",
    # answers and solving
    "Answer", "Decoded", "read_answer", "decode", "solve", "enumerate_solutions", "solutions", "SolutionStream",
    # analysis and pictures
    "Analysis", "analyze", "Grade", "grade", "Explanation", "explain", "iter_steps", "render",
    # puzzle design, and CNF formulas as boards
    "design_puzzles", "reduce", "Formula", "parse_formula", "read_formula", "cnf_model",
    # errors
    "MineconvError", "PuzzleError", "PuzzleSyntaxError", "FormatError", "LossyConversionError",
    "LossyConversionWarning", "AmbiguousInputWarning", "SolutionSyntaxError", "SolverError", "VerificationError",
    "InputError", "ResourceError", "FileAccessError", "InputNotFoundError",
]


def __getattr__(name: str) -> Any:
    # the version is read from the package metadata when asked for, not at import (core/about.py says why)
    if name == "__version__":
        from .core.about import version
        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
