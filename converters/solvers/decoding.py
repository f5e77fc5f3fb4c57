"""Reading a solver's answer file and decoding it against a puzzle, a puzzle file, or a model file mineconv wrote."""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any, Optional, Tuple, Union

from ..core.errors import MineconvError
from ..core.fileio import STDIO, PathLike, decode_bytes, read_bytes, read_input
from ..core.puzzle import Puzzle
from ..formats.detection import rank_formats
from ..formats.header import read_header
from ..formats.reading import Reading, guess_format, parse_reading, read_reading
from ..formats.registry import get_format

if TYPE_CHECKING:
    from ..formats.answer import Answer, Decoded

# the variable count a DIMACS or OPB model declares (auxiliary variables of a total-count encoding included)
_NVARS = (re.compile(r"^p cnf (\d+) ", re.M), re.compile(r"^\* #variable= (\d+)", re.M))


def read_puzzle_or_model(path: PathLike, fmt: Optional[str] = None, *, mines: Optional[int] = None,
                         **options: Any) -> Tuple[Puzzle, Optional[int]]:
    """The puzzle of a puzzle file, or of a solver file mineconv wrote (from its comment header).

    Also returns the number of variables a DIMACS or OPB model declares (auxiliary ones included), so
    that answers can be checked against it; None for a plain puzzle. `fmt` names the puzzle notation
    (the header is then not looked for); `mines` overrides the total; `options` go to the reader.
    """
    puzzle, nvars, _ = read_puzzle_reading(path, fmt, mines=mines, **options)
    return puzzle, nvars


def read_puzzle_reading(path: PathLike, fmt: Optional[str] = None, *, mines: Optional[int] = None,
                        **options: Any) -> Tuple[Puzzle, Optional[int], Optional[Reading]]:
    """read_puzzle_or_model, and also the Reading (which notation read it and why); None when a header did."""
    puzzle: Optional[Puzzle] = None
    nvars: Optional[int] = None
    reading: Optional[Reading] = None
    if fmt is None or str(path) == STDIO:
        data, src = read_bytes(path)
        try:
            text: Optional[str] = decode_bytes(data, src)
        except MineconvError:
            text = None   # not text: only a binary notation can read it
        if fmt is None and text is not None:
            puzzle = read_header(text, src)
            if puzzle is not None:
                for rx in _NVARS:
                    m = rx.search(text)
                    if m:
                        nvars = int(m.group(1))
                        break
        if puzzle is None and str(path) == STDIO:
            # stdin can be read only once: the notation reads the text already taken
            if text is None:
                decode_bytes(data, src)   # raises the located error
            reading = parse_reading(text, fmt, source=src, **options)  # type: ignore[arg-type]
            puzzle = reading.puzzle
    if puzzle is None:
        reading = read_reading(path, fmt, **options)
        puzzle = reading.puzzle
    if mines is not None:
        puzzle = puzzle.replace(mines=mines)
    return puzzle, nvars, reading


def read_answer(path: PathLike, fmt: Optional[str] = None) -> Answer:
    """Read a solver's output ('-' for stdin) with the named answer reader, or the one its content matches."""
    return read_answer_how(path, fmt)[0]


def read_answer_how(path: PathLike, fmt: Optional[str] = None) -> Tuple[Answer, str]:
    """read_answer, and also which answer format read it and why: 'glpsol-raw (detected from the content, ...)'."""
    text, src = read_input(path)
    if fmt:
        f = get_format(fmt, direction="read", kind="solution")
        how = "named with --answer-from"
    else:
        f = guess_format(path, text, kind="solution")
        ranked = [(score, g.name) for score, g in rank_formats(text, kind="solution")]
        if ranked and ranked[0][1] == f.name:
            runner_up = f"; next {ranked[1][1]} at {ranked[1][0]:g}" if len(ranked) > 1 else "; no other fits"
            how = f"detected from the content: confidence {ranked[0][0]:g}{runner_up}"
        else:
            how = "chosen by the file name"
    return f.reader(text, src), f"{f.name} ({how})"  # type: ignore[misc]


def decode(puzzle: Union[Puzzle, PathLike], answer: Union[Answer, PathLike], *,
           puzzle_format: Optional[str] = None, answer_format: Optional[str] = None,
           mines: Optional[int] = None, **options: Any) -> Decoded:
    """Map a solver's answer onto the puzzle and verify every count (a puzzle file or mineconv model file works too).

    Raises SolutionSyntaxError when the answer does not fit the model and VerificationError when it
    violates the puzzle; an infeasible or unknown answer is a Decoded with that status.
    """
    from ..formats.answer import Answer, decode_answer  # here: reading a puzzle needs no answer model
    nvars: Optional[int] = None
    if isinstance(puzzle, Puzzle):
        if mines is not None:
            puzzle = puzzle.replace(mines=mines)
    elif isinstance(puzzle, (str, os.PathLike)):
        puzzle, nvars = read_puzzle_or_model(puzzle, puzzle_format, mines=mines, **options)
    else:
        raise TypeError(f"puzzle must be a Puzzle or a path, not {type(puzzle).__name__}")
    if not isinstance(answer, Answer):
        if not isinstance(answer, (str, os.PathLike)):
            raise TypeError(f"answer must be an Answer or a path, not {type(answer).__name__}")
        answer = read_answer(answer, answer_format)
    return decode_answer(puzzle, answer, model_vars=nvars)
