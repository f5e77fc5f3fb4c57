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
_HOMES = {
    ".core.puzzle": ["Puzzle"],
    ".core.system": ["LinearSystem", "Violation", "build_system", "check_assignment"],
    ".core.errors": ["AmbiguousInputWarning", "FileAccessError", "FormatError", "InputError", "InputNotFoundError",
                     "LossyConversionError", "LossyConversionWarning", "MineconvError", "PuzzleError",
                     "PuzzleSyntaxError", "ResourceError", "SolutionSyntaxError", "SolverError", "VerificationError"],
    ".formats.reading": ["read", "read_all", "parse"],
    ".formats.writing": ["write", "dump", "dumps"],
    ".formats.registry": ["list_formats:formats", "get_format", "register_format"],
    ".formats.dimacs_formula": ["Formula", "parse_formula", "read_formula"],
    ".encode": ["to_cnf", "to_pulp", "to_cpsat"],
    ".solvers": ["Answer", "Decoded", "read_answer", "decode", "solve", "enumerate_solutions", "SolutionStream"],
    ".solvers.enumeration": ["solutions"],
    ".analysis": ["Analysis", "analyze"],
    ".analysis.levels.grade": ["Grade", "grade"],
    ".analysis.explain.steps": ["Explanation"],
    ".analysis.advice": ["Advice", "advise"],
    ".analysis.explain": ["explain", "iter_steps"],
    ".present.picture": ["render"],
    ".make.design": ["design_puzzles"],
    ".make.reduce": ["reduce:reduce_cnf", "cnf_model"],
}

# derived from _HOMES, the one home of the public names. Type checkers cannot run this line: they read the
# TYPE_CHECKING block at the end, a copy that tests/test_public_names.py holds equal to _HOMES
if not TYPE_CHECKING:
    __all__ = ["__version__", *(entry.partition(":")[0] for names in _HOMES.values() for entry in names)]


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

if TYPE_CHECKING:   # what the names are, for type checkers and editors (never run); "X as X" exports them
    # under mypy --strict. A copy of _HOMES, their one home: tests/test_public_names.py holds the two equal
    from .analysis import Analysis as Analysis
    from .analysis import analyze as analyze
    from .analysis.advice import Advice as Advice
    from .analysis.advice import advise as advise
    from .analysis.explain import explain as explain
    from .analysis.explain import iter_steps as iter_steps
    from .analysis.explain.steps import Explanation as Explanation
    from .analysis.levels.grade import Grade as Grade
    from .analysis.levels.grade import grade as grade
    from .core.errors import AmbiguousInputWarning as AmbiguousInputWarning
    from .core.errors import FileAccessError as FileAccessError
    from .core.errors import FormatError as FormatError
    from .core.errors import InputError as InputError
    from .core.errors import InputNotFoundError as InputNotFoundError
    from .core.errors import LossyConversionError as LossyConversionError
    from .core.errors import LossyConversionWarning as LossyConversionWarning
    from .core.errors import MineconvError as MineconvError
    from .core.errors import PuzzleError as PuzzleError
    from .core.errors import PuzzleSyntaxError as PuzzleSyntaxError
    from .core.errors import ResourceError as ResourceError
    from .core.errors import SolutionSyntaxError as SolutionSyntaxError
    from .core.errors import SolverError as SolverError
    from .core.errors import VerificationError as VerificationError
    from .core.puzzle import Puzzle as Puzzle
    from .core.system import LinearSystem as LinearSystem
    from .core.system import Violation as Violation
    from .core.system import build_system as build_system
    from .core.system import check_assignment as check_assignment
    from .encode import to_cnf as to_cnf
    from .encode import to_cpsat as to_cpsat
    from .encode import to_pulp as to_pulp
    from .formats import registry as _registry
    from .formats.dimacs_formula import Formula as Formula
    from .formats.dimacs_formula import parse_formula as parse_formula
    from .formats.dimacs_formula import read_formula as read_formula
    from .formats.reading import parse as parse
    from .formats.reading import read as read
    from .formats.reading import read_all as read_all
    from .formats.registry import get_format as get_format
    from .formats.registry import register_format as register_format
    from .formats.writing import dump as dump
    from .formats.writing import dumps as dumps
    from .formats.writing import write as write
    from .make import reduce as _reduce
    from .make.design import design_puzzles as design_puzzles
    from .make.reduce import cnf_model as cnf_model
    from .present.picture import render as render
    from .solvers import Answer as Answer
    from .solvers import Decoded as Decoded
    from .solvers import SolutionStream as SolutionStream
    from .solvers import decode as decode
    from .solvers import enumerate_solutions as enumerate_solutions
    from .solvers import read_answer as read_answer
    from .solvers import solve as solve
    from .solvers.enumeration import solutions as solutions
    # the two names their modules call otherwise: an assignment exports them, an "import ... as" would not
    list_formats = _registry.formats
    reduce = _reduce.reduce_cnf
