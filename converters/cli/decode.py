"""mineconv decode: read a solver's answer, map it onto the puzzle, verify every count, show the grid."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Union

from ..core.fileio import source_name
from ..core.jsonout import json_text
from ..formats.notations.native import canonical_text
from ..solvers.decoding import read_answer_how, read_puzzle_reading
from ..solvers.small_solve import SmallDecoded
from . import COMMANDS, add_input_options, describe_reading, input_options, say

if TYPE_CHECKING:
    from ..formats.answer import Decoded


def emit(decoded: Union[Decoded, SmallDecoded], as_json: bool, source: str, **extra) -> int:
    """Print the solved grid (or the JSON object); exit status 0 solved, 1 infeasible or unknown."""
    if as_json:
        if decoded.puzzle.wires and decoded.grid is not None:   # a board `reduce` made: the formula's model
            from ..make.reduce import cnf_model
            extra["cnf_model"] = cnf_model(decoded.puzzle, decoded.grid)
        print(json_text(decoded.to_json(**extra)))
    elif decoded.status == "solved":
        sys.stdout.write(canonical_text(decoded.solved_puzzle()))
    else:
        what = "the puzzle has no solution (infeasible)" if decoded.status == "infeasible" else \
            "no answer (unknown" + (f": {decoded.why}" if decoded.why else "") + ")"
        print(f"mineconv: {source}: {what}", file=sys.stderr)
    return 0 if decoded.status == "solved" else 1


def run(args: argparse.Namespace) -> int:
    """Decode and verify one answer (the steps of solve.decoding.decode, keeping the answer's name and format)."""
    from ..formats.answer import decode_answer  # here: `solve`, which shares emit, may need no Answer at all
    puzzle, nvars, reading = read_puzzle_reading(args.puzzle, args.puzzle_from, mines=args.mines,
                                                 **input_options(args))
    say(f"read {source_name(args.puzzle)} " + ("from its mineconv header (a solver file mineconv wrote)" if reading is None
                                  else f"as {describe_reading(reading)}"))
    answer, how = read_answer_how(args.solution, args.from_)
    say(f"read the answer {source_name(args.solution)} as {how}")
    decoded = decode_answer(puzzle, answer, model_vars=nvars)
    return emit(decoded, args.json, answer.source, format=answer.format)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "decode", help=COMMANDS["decode"],
        description="Map a solver's answer onto the puzzle, verify every count and print the solved grid "
                    "('*' mine, '.' safe). PUZZLE may be the puzzle or the solver file mineconv wrote (its "
                    "comment header records the puzzle). Exit status: 0 solved, 1 infeasible or unknown, "
                    "2 bad input, 3 the answer violates the puzzle.",
        epilog="examples:\n  mineconv convert board.txt -o board.cnf && minisat board.cnf board.out\n"
               "  mineconv decode board.cnf board.out\n"
               "  glpsol --lp board.lp --write board.raw; mineconv decode board.txt board.raw --json\n"
               "  cbc board.lp solve solu board.sol; mineconv decode board.lp board.sol --answer-from cbc",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", help="the puzzle, or the solver file mineconv wrote ('-' for stdin)")
    p.add_argument("solution", help="the solver's answer ('-' for stdin)")
    p.add_argument("--answer-from", "--from", dest="from_", metavar="NAME",
                   help="answer format (default: detected from the content; see `mineconv formats`); "
                        "--from is the older name of this option and keeps working")
    p.add_argument("--puzzle-from", metavar="NAME", help="puzzle notation, when it cannot be detected")
    add_input_options(p, notation=None, mines="total number of mines (overrides the puzzle's)")
    p.add_argument("--json", action="store_true",
                   help='print {"status": ..., "mines": [[row, col], ...]} (0-based, known mines included)')
    p.set_defaults(func=run)
