"""mineconv solve: the whole trip (write, run a solver, read back, verify), embedded pysat by default."""
from __future__ import annotations

import argparse
import json
import sys

from ..formats.notations.native import canonical_text
from ..solvers.decoding import read_puzzle_or_model
from ..solvers.bridge import EMBEDDED, enumerate_solutions, solve, solver_names
from . import add_input_options, input_options, timeout_seconds
from .decode import emit


def run(args: argparse.Namespace) -> int:
    """Solve once, or enumerate solutions with --all / --limit."""
    puzzle, _ = read_puzzle_or_model(args.puzzle, args.from_, mines=args.mines, **input_options(args))
    if args.all or args.limit is not None:
        if args.solver != EMBEDDED:
            from ..errors import SolverError
            raise SolverError(f"--all/--limit enumerate with the embedded solver ({EMBEDDED}), not {args.solver!r}")
        if args.limit is not None and args.limit < 1:
            from ..errors import MineconvError
            raise MineconvError(f"--limit must be at least 1, got {args.limit}")
        found, complete = enumerate_solutions(puzzle, None if args.all and args.limit is None else args.limit,
                                              timeout=args.timeout)
        status = "solved" if found else ("infeasible" if complete else "unknown")
        if args.json:
            print(json.dumps({"status": status, "mines": found[0].mines() if found else [],
                              "solutions": [d.mines() for d in found], "count": len(found),
                              "complete": complete, "solver": EMBEDDED}))
        elif found:
            out = []
            for i, dec in enumerate(found, 1):
                out.append(f"# solution {i}\n" + canonical_text(dec.solved_puzzle()))
            sys.stdout.write("\n".join(out))
            more = "all of them" if complete else "stopped at the limit; there may be more"
            print(f"mineconv: {len(found)} solution{'s' if len(found) != 1 else ''} ({more})", file=sys.stderr)
        else:
            what = "the puzzle has no solution (infeasible)" if complete else "no answer (unknown)"
            print(f"mineconv: {args.puzzle}: {what}", file=sys.stderr)
        return 0 if found else 1
    decoded = solve(puzzle, args.solver, timeout=args.timeout)
    return emit(decoded, args.json, args.puzzle, solver=args.solver)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "solve", help="solve a puzzle (embedded pysat, or an installed solver) and verify the answer",
        description="Solve a puzzle and print the solved grid ('*' mine, '.' safe), verified like `decode`. "
                    "External solvers get the right file in a temporary folder and run without a shell. "
                    "Exit status: 0 solved, 1 infeasible or unknown (e.g. timed out), 2 bad input or "
                    "solver failure, 3 the solver's answer violates the puzzle.",
        epilog="examples:\n  mineconv solve board.txt\n  mineconv solve board.txt --solver glpsol --json\n"
               "  mineconv solve board.txt --solver cbc --timeout 30\n  mineconv solve board.txt --all --json\n"
               "solvers: " + ", ".join(solver_names()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", help="puzzle file, or a solver file mineconv wrote ('-' for stdin)")
    p.add_argument("--solver", default=EMBEDDED, choices=solver_names(), metavar="NAME",
                   help=f"solver to use (default {EMBEDDED}; one of: {', '.join(solver_names())})")
    p.add_argument("--from", dest="from_", metavar="NAME", help="puzzle notation (see `mineconv formats`)")
    add_input_options(p)
    p.add_argument("--mines", type=int, metavar="N", help="total number of mines (overrides the puzzle's)")
    p.add_argument("--timeout", type=timeout_seconds, metavar="S",
                   help="give up after S seconds (status unknown, exit 1)")
    p.add_argument("--json", action="store_true",
                   help='print {"status": ..., "mines": [[row, col], ...]} (0-based, known mines included)')
    p.add_argument("--all", action="store_true", help="enumerate every solution (small puzzles)")
    p.add_argument("--limit", type=int, metavar="N", help="enumerate at most N solutions")
    p.set_defaults(func=run)
