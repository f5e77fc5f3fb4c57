"""mineconv decode: read a solver's answer, map it onto the puzzle, verify every count, show the grid."""
from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any, Dict, Optional, Tuple

from ..solve.answer import Answer, Decoded, decode_answer
from . import add_input_options, input_options, load_puzzle
from ..fileio import read_input
from ..formats.notations.native import canonical_text
from ..formats.header import read_header
from ..model.puzzle import Puzzle
from ..registry import get_format, guess_format

_NVARS = (re.compile(r"^p cnf (\d+) ", re.M), re.compile(r"^\* #variable= (\d+)", re.M))


def load_puzzle_or_model(path: str, fmt: Optional[str] = None, mines: Optional[int] = None,
                         options: Optional[Dict[str, Any]] = None) -> Tuple[Puzzle, Optional[int]]:
    """The puzzle of a puzzle file, or of a solver file mineconv wrote (from its comment header).

    Also returns the number of variables a DIMACS or OPB model declares (auxiliary ones included),
    so that answers can be checked against it; None for a plain puzzle.
    """
    if fmt is None:
        text, src = read_input(path)
        puzzle = read_header(text, src)
        if puzzle is not None:
            nvars = None
            for rx in _NVARS:
                m = rx.search(text)
                if m:
                    nvars = int(m.group(1))
                    break
            if mines is not None:
                puzzle = puzzle.replace(mines=mines)
            return puzzle, nvars
    return load_puzzle(path, fmt, mines, options), None


def read_answer(path: str, fmt: Optional[str] = None) -> Answer:
    """Read a solver's output with the named reader, or the one its content matches."""
    text, src = read_input(path)
    f = get_format(fmt, direction="read", kind="solution") if fmt else guess_format(path, text, kind="solution")
    return f.reader(text, src)  # type: ignore[misc]


def emit(decoded: Decoded, as_json: bool, source: str, **extra) -> int:
    """Print the solved grid (or the JSON object); exit status 0 solved, 1 infeasible or unknown."""
    if as_json:
        print(json.dumps(decoded.to_json(**extra)))
    elif decoded.status == "solved":
        sys.stdout.write(canonical_text(decoded.solved_puzzle()))
    else:
        what = "the puzzle has no solution (infeasible)" if decoded.status == "infeasible" else \
            "no answer (unknown" + (f": {decoded.why}" if decoded.why else "") + ")"
        print(f"mineconv: {source}: {what}", file=sys.stderr)
    return 0 if decoded.status == "solved" else 1


def run(args: argparse.Namespace) -> int:
    """Decode and verify one answer."""
    puzzle, nvars = load_puzzle_or_model(args.puzzle, args.puzzle_from, args.mines, input_options(args))
    answer = read_answer(args.solution, args.from_)
    decoded = decode_answer(puzzle, answer, model_vars=nvars)
    return emit(decoded, args.json, answer.source, format=answer.format)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "decode", help="read a solver's answer back onto the puzzle and verify it",
        description="Map a solver's answer onto the puzzle, verify every count and print the solved grid "
                    "('*' mine, '.' safe). PUZZLE may be the puzzle or the solver file mineconv wrote (its "
                    "comment header records the puzzle). Exit status: 0 solved, 1 infeasible or unknown, "
                    "2 bad input, 3 the answer violates the puzzle.",
        epilog="examples:\n  mineconv convert board.txt -o board.cnf && minisat board.cnf board.out\n"
               "  mineconv decode board.cnf board.out\n"
               "  glpsol --lp board.lp --write board.raw; mineconv decode board.txt board.raw --json\n"
               "  cbc board.lp solve solu board.sol; mineconv decode board.lp board.sol --from cbc",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", help="the puzzle, or the solver file mineconv wrote ('-' for stdin)")
    p.add_argument("solution", help="the solver's answer ('-' for stdin)")
    p.add_argument("--from", dest="from_", metavar="NAME",
                   help="answer format (default: detected from the content; see `mineconv formats`)")
    p.add_argument("--puzzle-from", metavar="NAME", help="puzzle notation, when it cannot be detected")
    add_input_options(p)
    p.add_argument("--mines", type=int, metavar="N", help="total number of mines (overrides the puzzle's)")
    p.add_argument("--json", action="store_true",
                   help='print {"status": ..., "mines": [[row, col], ...]} (0-based, known mines included)')
    p.set_defaults(func=run)
