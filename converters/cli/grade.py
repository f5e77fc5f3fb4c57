"""mineconv grade: how hard a puzzle is by reasoning (Bayer's consistency levels) and whether it is unique."""
from __future__ import annotations

import argparse
import sys
from typing import List

from ..analysis import count_text, unlimited_int_digits
from ..analysis.levels.grade import GRADE_LEVELS, Grade, grade
from ..core.bounds import Bounds, stderr_progress_wanted
from ..core.fileio import atomic_output
from ..core.jsonout import json_text
from ..core.wording import plural
from . import COMMANDS, add_input_options, input_settings, load_puzzle
from .analyze import StageProgress, add_bound_options

LEVEL_MEANINGS = """levels, each including the ones before it:
  gac   each count on its own (and the total mine count)
  2rc   any two overlapping counts together
  3rc   any three linked counts together
  full  everything that follows from the counts (needs search; a unique puzzle is always decided here)
"""

EPILOG = LEVEL_MEANINGS + """The grade is the weakest level that decides every unknown cell by propagation alone, without guessing.
A puzzle with more than one solution has no grade (level null in the JSON).

JSON: {"unique": bool (null when not known), "solutions": N, "level": "gac"|"2rc"|"3rc"|"full"|null,
       "decided": {"gac": n, "2rc": n, "3rc": n, "full": n}, "rounds": {...}, "unknown": n, ...}
  solutions_str / solutions_log10 carry counts past 2**53; "status" is complete, partial (not counted:
  the counter passed --memory-budget) or timeout.

examples:
  mineconv grade samples/dusautoy-6x6.txt
  mineconv grade samples/kaye-splitter.txt --json

exit status: 0 graded (unique or not), 1 no solution or timed out, 2 bad input
"""


def report_text(g: Grade) -> str:
    """The text report: the verdict, then one line per level."""
    k = g.unknown
    lines: List[str] = []
    if not g.feasible:
        lines.append("no solution: the counts contradict each other"
                     + (" or the total mine count" if g.system.total is not None else ""))
        return "\n".join(lines) + "\n"
    if g.status == "timeout":
        lines.append(f"grade: not finished ({g.count_error})")
    elif g.level is not None:
        below = GRADE_LEVELS[GRADE_LEVELS.index(g.level) - 1] if g.level != "gac" else None
        why = f"decided by {g.level}" + (f", not by {below}" if below else "")
        lines.append(f"grade: {g.level} ({why})")
    elif g.unique is None:
        lines.append("grade: unknown (the full level could not finish its decisions; see below)")
    else:
        lines.append("grade: none (more than one solution: no reasoning decides every cell)")
    if g.solutions is None:
        known = {True: ", unique", False: ", not unique", None: ""}[g.unique]
        why = f" ({g.count_error})" if g.status == "partial" else ""
        lines.append(f"solutions: not counted{why}{known}")
    else:
        lines.append(f"solutions: {count_text(g.solutions)}, {'unique' if g.unique else 'not unique'}")
    for level in GRADE_LEVELS:
        if level not in g.decided:
            continue
        line = f"  {level:<4}  {g.decided[level]} of {plural(k, 'unknown cell')} decided"
        if level in g.rounds:
            line += f" in {plural(g.rounds[level], 'round')}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Grade one puzzle and print or write the report."""
    puzzle = load_puzzle(args.input, input_settings(args))
    progress = StageProgress(stderr_progress_wanted(getattr(args, "quiet", False)), "grade")
    try:
        g = grade(puzzle, bounds=Bounds(args.memory_budget, args.timeout, progress))
    finally:
        progress.close()
    if g.status == "timeout":
        print(f"mineconv: grade: {g.count_error}; reporting the levels reached by then", file=sys.stderr)
    if args.json:
        with unlimited_int_digits():
            text = json_text(g.to_json()) + "\n"
    else:
        text = report_text(g)
    with atomic_output(args.output) as out:
        out.write(text)
    return 0 if g.feasible and g.status != "timeout" else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("grade", help=COMMANDS["grade"],
                       description="Grade a puzzle by the weakest consistency level (Bayer, Snyder & Choueiry) "
                                   "that decides every unknown cell without guessing, with the number of cells "
                                   "each level decides and in how many rounds, and the exact solution count.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    add_input_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-o", "--output", default="-", help="write the report here (default: stdout)")
    add_bound_options(p)
    p.set_defaults(func=run)
