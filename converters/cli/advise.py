"""mineconv advise: the best move in a position, with its chance of a mine and why."""
from __future__ import annotations

import argparse
import sys

from ..analysis.advice import Advice, advise, describe
from ..core.errors import PuzzleError
from ..core.fileio import atomic_output
from ..core.jsonout import json_text
from . import COMMANDS, add_input_options, input_settings, load_puzzle

EPILOG = """The position is the board as the player sees it: opened numbers, unknown cells ('?'), and the total
number of mines when the file (or --mines) gives it; flags ('*') count as unknown cells. The move is a cell
proven safe when any is, else the best guess: among the cells close to the lowest risk, the one whose number
most likely proves another cell safe; when few layouts fit, the move an exhaustive search of the game tree
finds likeliest to win.

JSON: {"move": [r, c] | null, "p_mine": p, "why": "...", "safe": [[r, c], ...], "mines": [[r, c], ...],
       "alternatives": [{"cell": [r, c], "p_mine": p, "progress": q | null, "win": w | null, "score": s}, ...]}

examples:
  mineconv advise samples/seed-3x3.txt
  mineconv advise position.txt --mines 99 --json

exit status: 0 advice given, 1 no layout fits the position, 2 bad input
"""


def report_text(advice: Advice) -> str:
    """The text report: the move and why, the proven cells, and the alternatives weighed."""
    lines = [describe(advice)]
    if len(advice.alternatives) > 1:
        lines.append("weighed: " + ", ".join(
            f"({a.cell[0]}, {a.cell[1]}) mine {100 * a.p_mine:.1f}%" +
            (f" wins {100 * a.win:.1f}%" if a.win is not None else
             f" progress {100 * a.progress:.0f}%" if a.progress is not None else "")
            for a in advice.alternatives))
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Advise the move in one position."""
    puzzle = load_puzzle(args.input, input_settings(args))
    try:
        advice = advise(puzzle, budget=args.budget)
    except PuzzleError as exc:   # the file read well; no layout fits its numbers
        print(f"mineconv: {exc}", file=sys.stderr)
        return 1
    text = json_text(advice.to_json()) + "\n" if args.json else report_text(advice)
    with atomic_output(args.output) as out:
        out.write(text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("advise", help=COMMANDS["advise"],
                       description="Name the cell to open next in a position, with its exact chance of a mine "
                                   "and why: a proven-safe cell, or the guess likeliest to lead to a win.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="position file (any notation), or - for stdin")
    add_input_options(p, mines="total number of mines (overrides the position's)")
    p.add_argument("--budget", type=float, metavar="SECONDS",
                   help="cap on the search (default 1.0); past it, the lowest-risk move")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-o", "--output", default="-", help="write the advice here (default: stdout)")
    p.set_defaults(func=run)
