"""mineconv solve: the whole trip (write, run a solver, read back, verify), embedded pysat by default."""
from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TYPE_CHECKING, Generator, Optional, Union, cast

from ..core.errors import InputError, MineconvError, SolverError, Terminated
from ..core.fileio import atomic_output, protect, source_name
from ..core.jsonout import json_text
from ..formats.notations.native import canonical_text
from ..solvers.decoding import read_puzzle_reading
from ..solvers.process import Deadline
from ..solvers.small_solve import SmallDecoded, solve_small
from ..solvers.table import EMBEDDED, NATIVE_ENUMERATION, available, solver_names
from . import COMMANDS, add_input_options, describe_reading, held_stops, input_options, say, timeout_seconds
from .decode import emit

if TYPE_CHECKING:
    from ..formats.answer import Decoded

DEFAULT_LIMIT = 1000          # solutions --all prints unless --limit says otherwise
ENUMERATION_CEILING = 10**6   # --all refuses boards with more solutions than this, unless --force
ENUMERATORS = (EMBEDDED, *NATIVE_ENUMERATION)   # the solvers --all / --limit / --jsonl can run


def _exit_status(exc: KeyboardInterrupt) -> int:
    return exc.exit_status if isinstance(exc, Terminated) else 130


def _say_stopped(exc: KeyboardInterrupt) -> None:
    # worded as main words it for a signal that lands outside the enumeration
    what = f"terminated ({exc.signal_name})" if isinstance(exc, Terminated) else "interrupted"
    print(f"mineconv: {what}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """Solve once, or enumerate solutions with --all / --limit (main turns SIGTERM/SIGHUP into Terminated)."""
    deadline = Deadline(args.timeout)   # the clock covers the whole run, reading the puzzle included
    if args.output == "-":
        return _run(args, deadline)
    # -o takes exactly what stdout would have shown, written atomically: an error leaves no file, and
    # an interrupted --all (which prints its summary) leaves the solutions printed so far
    protect(args.puzzle)   # the output opens before the puzzle is read: it must not be the puzzle
    with atomic_output(args.output) as out, contextlib.redirect_stdout(out):
        return _run(args, deadline)


def _run(args: argparse.Namespace, deadline: Deadline) -> int:
    puzzle, _, reading = read_puzzle_reading(args.puzzle, args.from_, mines=args.mines, **input_options(args))
    say(f"read {source_name(args.puzzle)} {_described(reading)}")
    if args.all or args.limit is not None or args.jsonl:
        return _enumerate(args, puzzle, deadline)
    decoded: Union[Decoded, SmallDecoded, None] = None
    if args.solver == EMBEDDED and available(EMBEDDED):
        decoded = solve_small(puzzle, deadline)   # a small board: the same steps without numpy (None otherwise)
    if decoded is None:
        from ..solvers.solving import solve
        decoded = solve(puzzle, args.solver, timeout=deadline, check_unique=True)
    unique = decoded.unique
    if decoded.status == "solved" and not args.json:
        if unique is False:
            print(f"mineconv: {args.puzzle}: the solution is not unique (another one exists; "
                  "`mineconv analyze` counts them, `solve --all` lists them)", file=sys.stderr)
        elif unique is None:
            print(f"mineconv: {args.puzzle}: whether the solution is unique is not known (the check ran out "
                  "of time or was too large)", file=sys.stderr)
    return emit(decoded, args.json, args.puzzle, solver=args.solver, unique=unique)


def _described(reading) -> str:
    """'as dots (detected from the content)', or 'from its mineconv header' for a solver file mineconv wrote."""
    return "from its mineconv header (a solver file mineconv wrote)" if reading is None else \
        f"as {describe_reading(reading)}"


# the count only decides whether --all is refused: it may hold this much, not the whole default budget
TOTAL_MEMORY = 256 << 20


def _total(puzzle, deadline: Deadline) -> Optional[int]:
    """The exact number of solutions when the counter gets it (None when it gives up or runs out of time).

    The cells a count decides on its own are fixed first (they are the same in every solution, so the
    count is unchanged): a fully revealed 1000x1000 board was one component of 200,000 cells whose
    counter ran past 1 GB and died of MemoryError.
    """
    from ..analysis.counting import CountingLimitError, count_solutions
    from ..analysis.levels.propagation import propagate
    from ..analysis.report import unlimited_int_digits
    from ..core.bounds import Bounds
    from ..core.system import build_system
    try:
        bounds = Bounds(TOTAL_MEMORY, deadline.remaining())
        system = build_system(puzzle)
        gac = propagate(puzzle, "gac", system=system, bounds=bounds)
        if not gac.consistent:
            return 0
        with unlimited_int_digits():
            return count_solutions(system, gac.values, exact_budget=0, bounds=bounds).solutions
    except (CountingLimitError, MineconvError, MemoryError):
        return None


def _enumerate(args: argparse.Namespace, puzzle, deadline: Deadline) -> int:
    from ..analysis.report import count_json, count_text
    from ..solvers.enumeration import SolutionStream
    if args.solver not in ENUMERATORS:
        raise SolverError(f"--all/--limit/--jsonl enumerate with the embedded solver ({EMBEDDED}, blocking each "
                          f"solution found) or the all-solutions mode of {', '.join(NATIVE_ENUMERATION)}; "
                          f"{args.solver} has none")
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit must be at least 1, got {args.limit}")
    limit = args.limit if args.limit is not None else DEFAULT_LIMIT
    total = _total(puzzle, deadline) if args.all else None
    if args.all and not args.force and total is not None and total > ENUMERATION_CEILING:
        raise InputError(f"{args.puzzle}: the board has {count_text(total)} solutions; --all would never "
                         f"finish (use --limit N for the first N, analyze to count them, or --force to "
                         f"enumerate up to the limit anyway)")
    stream = SolutionStream(puzzle, limit, timeout=deadline, solver=args.solver)
    say(f"enumerating with {args.solver}" + (" (its own all-solutions mode)" if args.solver != EMBEDDED else
                                             " (blocking each solution found)"))
    extra = count_json("total_solutions", total) if total is not None else {}
    found = []
    interrupted: Optional[KeyboardInterrupt] = None
    # SolutionStream.__iter__ is a generator function: closing it ends the solver behind it
    solutions = cast("Generator[Decoded, None, None]", iter(stream))
    try:
        with held_stops() as hold:
            for i, dec in enumerate(solutions, 1):
                mines = list(dec.mines)
                # A stop waits while a solution is printed and counted, so the summary's count is the
                # number of solutions printed (a Ctrl-C between the two made them differ by one).
                with hold:
                    if args.jsonl:
                        # one write of the whole line: a Ctrl-C between print's text and its newline glued
                        # the summary onto the last solution's line
                        sys.stdout.write(json_text({"solution": i, "mines": mines}) + "\n")
                    elif not args.json:
                        sys.stdout.write(("\n" if i > 1 else "") + f"# solution {i}\n" +
                                         canonical_text(dec.solved_puzzle()))
                    # --json prints every solution at the end; otherwise only the count is needed
                    found.append(mines if args.json or i == 1 else None)
                # outside the hold: a flush blocked on a full pipe must not hold Ctrl-C back; what it has
                # not written yet stays buffered and goes out before the summary
                sys.stdout.flush()
    except KeyboardInterrupt as exc:   # Ctrl-C, SIGTERM, SIGHUP: what was printed stays, the summary follows
        interrupted = exc
    finally:
        solutions.close()   # an external solver's process group is killed here, before the summary
    stopped = "interrupted" if interrupted is not None else stream.stopped
    complete = stream.complete and interrupted is None
    status = "solved" if found else ("infeasible" if complete else "unknown")
    summary = {"status": status, "count": len(found), "complete": complete, "stopped": stopped or None,
               "solver": args.solver, **extra}
    if args.jsonl:
        print(json_text(summary), flush=True)
    elif args.json:
        print(json_text({"status": status, "mines": found[0] if found else [],
                          "solutions": found, "count": len(found), "complete": complete,
                          "solver": args.solver, **({"stopped": stopped} if stopped else {}), **extra}))
    if not found and not args.json and not args.jsonl:
        what = "the puzzle has no solution (infeasible)" if complete else \
            "no answer (unknown" + (f": {stream.why}" if stream.why else "") + ")"
        print(f"mineconv: {args.puzzle}: {what}", file=sys.stderr)
    elif found and (stopped or not (args.json or args.jsonl)):   # JSON runs speak on stderr only when cut short
        n = f"{len(found)} solution{'s' if len(found) != 1 else ''}"
        of = f" of {count_text(total)}" if total is not None and not complete else ""
        more = {"": "all of them", "limit": f"stopped at the limit {limit}{of}; there may be more"
                if total is None else f"stopped at the limit {limit}{of}; --limit N for more",
                "timeout": f"stopped by the time limit{of}: {stream.why}",
                "interrupted": f"interrupted{of}"}[stopped]
        print(f"mineconv: {n} ({more})", file=sys.stderr)
    if interrupted is not None:
        _say_stopped(interrupted)
        return _exit_status(interrupted)
    return 0 if found else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "solve", help=COMMANDS["solve"],
        description="Solve a puzzle and print the solved grid ('*' mine, '.' safe), verified like `decode`. "
                    "External solvers get the right file in a temporary folder and run without a shell, in "
                    "their own process group (killed with mineconv on a time limit, Ctrl-C, SIGTERM or "
                    "SIGHUP; the folder is removed). The solution is checked for uniqueness by one more "
                    "call of the embedded solver with the found solution blocked (stderr says when it is "
                    "not unique; JSON \"unique\"). On a board with a total mine count the embedded solver "
                    "first solves the counts alone and puts the mines the total still wants on cells next to "
                    "no count (a solution; moving one of them gives another), and builds the total's clauses "
                    "only when that cannot answer. Exit status: 0 solved, 1 infeasible or unknown (e.g. "
                    "timed out), 2 bad input or solver failure, 3 the solver's answer violates the puzzle, "
                    "130 Ctrl-C, 143 SIGTERM, 129 SIGHUP.",
        epilog="examples:\n  mineconv solve board.txt\n  mineconv solve board.txt --solver glpsol --json\n"
               "  mineconv solve board.txt --solver cbc --timeout 30\n  mineconv solve board.txt --all --json\n"
               "  mineconv solve board.txt --all --jsonl --limit 50 --timeout 10\n"
               "  mineconv solve board.txt --json -o answer.json\n"
               "solvers: " + ", ".join(solver_names()),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("puzzle", help="puzzle file, or a solver file mineconv wrote ('-' for stdin)")
    p.add_argument("--solver", default=EMBEDDED, choices=solver_names(), metavar="NAME",
                   help=f"solver to use (default {EMBEDDED}; one of: {', '.join(solver_names())})")
    add_input_options(p, notation="puzzle notation (see `mineconv formats`)",
                      mines="total number of mines (overrides the puzzle's)")
    p.add_argument("--timeout", type=timeout_seconds, metavar="S",
                   help="bound the whole run (building the model, every solver call, the uniqueness check, "
                        "an enumeration) to S seconds, a finite number above 0; then status unknown, exit 1")
    p.add_argument("--json", action="store_true",
                   help='print {"status": ..., "mines": [[row, col], ...], "unique": true|false|null} '
                        '(0-based, known mines included); with --all one object at the end')
    p.add_argument("--all", action="store_true",
                   help="enumerate the solutions, printed as they are found (each verified first), up to "
                        f"--limit; refused when the board has more than 10^6 (counted exactly first) unless "
                        f"--force. {EMBEDDED} blocks each solution found and asks again; "
                        f"{', '.join(NATIVE_ENUMERATION)} run their own all-solutions mode (MiniZinc -a, "
                        "clingo/clasp -n 0, CP-SAT enumerate_all_solutions); the other solvers cannot "
                        "enumerate")
    p.add_argument("--limit", type=int, metavar="N",
                   help=f"enumerate at most N solutions (default {DEFAULT_LIMIT} with --all; stderr says when "
                        f"it stops there)")
    p.add_argument("--jsonl", action="store_true",
                   help='stream the enumeration as JSON lines: {"solution": i, "mines": [...]} as each is '
                        'found, then {"status", "count", "complete", "stopped", "solver"}')
    p.add_argument("-o", "--output", default="-",
                   help="write what solve prints (the grid, the JSON, the --all solutions) here, atomically "
                        "(default: stdout)")
    p.add_argument("--force", action="store_true",
                   help="enumerate (up to --limit) even when the board has astronomically many solutions")
    p.set_defaults(func=run)
