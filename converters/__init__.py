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

TYPE_CHECKING = False   # typing.TYPE_CHECKING, without importing typing at run time (`mineconv --version`)
if TYPE_CHECKING:
    from typing import Any, List

from .core import display as _display
from .core import lazy as _lazy

# Every public name, by the module that defines it (as `module:attribute` when the names differ). Nothing is
# imported until a name is first used: `mineconv --version` and a small `solve` would otherwise pay for
# numpy, lark, pysat and every notation (issue 24).
_ERRORS = ("AmbiguousInputWarning FileAccessError FormatError InputError InputNotFoundError LossyConversionError "
           "LossyConversionWarning MineconvError PuzzleError PuzzleSyntaxError ResourceError SolutionSyntaxError "
           "SolverError VerificationError").split()
_HOMES = {
    ".core.puzzle": ["Puzzle"],
    ".core.system": ["LinearSystem", "Violation", "build_system", "check_assignment"],
    ".core.errors": _ERRORS,
    ".formats.reading": ["read", "read_all", "parse"],
    ".formats.writing": ["write", "dump", "dumps"],
    ".formats.registry": ["list_formats:formats", "get_format", "register_format"],
    ".formats.dimacs_formula": ["Formula", "parse_formula", "read_formula"],
    ".encode": ["to_cnf", "to_pulp", "to_cpsat"],
    ".solvers": ["Answer", "Decoded", "read_answer", "decode", "solve", "enumerate_solutions", "SolutionStream"],
    ".solvers.enumeration": ["solutions"],
    ".analysis": ["Analysis", "analyze"],
    ".analysis.grade": ["Grade", "grade"],
    ".analysis.steps": ["Explanation"],
    ".analysis.advice": ["Advice", "advise"],
    ".analysis.explain": ["explain", "iter_steps"],
    ".present.picture": ["render"],
    ".make.design": ["design_puzzles"],
    ".make.reduce": ["reduce:reduce_cnf", "cnf_model"],
}

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
    # the best move
    "Advice", "advise",
    # puzzle design, and CNF formulas as boards
    "design_puzzles", "reduce", "Formula", "parse_formula", "read_formula", "cnf_model",
    # errors
    "MineconvError", "PuzzleError", "PuzzleSyntaxError", "FormatError", "LossyConversionError",
    "LossyConversionWarning", "AmbiguousInputWarning", "SolutionSyntaxError", "SolverError", "VerificationError",
    "InputError", "ResourceError", "FileAccessError", "InputNotFoundError",
]


_public, _names = _lazy.lazy_names(__name__, _HOMES)


def __getattr__(name: str) -> Any:
    # the version is read from the package metadata when asked for, not at import (core/about.py says why)
    if name == "__version__":
        from .core.about import version
        return version()
    return _public(name)


def __dir__() -> List[str]:
    return sorted({*_names(), "__version__"})


def _draw(*args: Any) -> str:
    # Puzzle, Analysis and Decoded draw themselves in notebooks through core/display, floors below the
    # picture; the picture module is imported on the first drawing, not with the package
    from .present.picture import render_svg
    return render_svg(*args)


_display.register_svg_renderer(_draw)

if TYPE_CHECKING:   # what the names are, for type checkers and editors (never run)
    from .analysis import Analysis, analyze
    from .analysis.advice import Advice, advise
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
    from .make.reduce import cnf_model
    from .make.reduce import reduce_cnf as reduce
    from .present.picture import render
    from .solvers import Answer, Decoded, SolutionStream, decode, enumerate_solutions, read_answer, solve
    from .solvers.enumeration import solutions
