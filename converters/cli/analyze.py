"""mineconv analyze: safe cells, certain mines, the exact solution count and mine probabilities."""
from __future__ import annotations

import argparse
import sys
from typing import Any, List, Optional

from ..analysis.report import LEVELS, Analysis, analyze, count_text, report_json
from ..core.bounds import DEFAULT_MEMORY_BUDGET, parse_size, size_text, stderr_progress_wanted
from ..core.fileio import atomic_output
from ..core.wording import plural
from ..formats.notations.native import canonical_text
from . import COMMANDS, add_input_options, input_settings, load_puzzle, timeout_seconds

EPILOG = """levels (what decides the cells shown as '.' and '*'):
  gac   each count on its own (and the total mine count)
  2rc   any two overlapping counts together
  3rc   any three linked counts together
  full  everything: the cells no solution puts a mine on, or every solution does (default)
The solution count is exact whatever the level, and so are the probabilities (computed as fractions;
on very big boards with a total mine count, in double precision: the JSON then says
"probabilities_exact": false).

examples:
  mineconv analyze samples/kaye-splitter.txt
  mineconv analyze board.txt --level gac --compare-levels
  mineconv analyze board.txt --json --mines 99 -o report.json
  mineconv analyze big.txt --timeout 60 --memory-budget 4G
bounds: the exact counter keeps its states in memory; before its estimate passes --memory-budget (default
2 GiB) it stops, and the report has no count ("status": "partial", the decisions still complete, except
that on a board with a total mine count the SAT check of what the total decides gets 10 s without --timeout,
and count_error says when it was cut short). Past --timeout seconds the analysis stops and reports the cells proven by then ("status": "timeout", exit 1).
Progress goes to stderr when it is a terminal (not with -q).
exit status: 0 solvable, 1 no solution or timed out, 2 bad input
"""


class StageProgress:
    """A tqdm bar per stage of a long analysis, on stderr; does nothing when disabled."""

    def __init__(self, enabled: bool, command: str = "analyze") -> None:
        self.enabled = enabled
        self.command = command
        self.stage: Optional[str] = None
        self.bar: Any = None

    def __call__(self, stage: str, done: int, total: Optional[int]) -> None:
        """The progress callback of mineconv.analysis.analyze."""
        if not self.enabled:
            return
        if stage != self.stage:
            self.close()
            from tqdm import tqdm
            self.stage = stage
            self.bar = tqdm(total=total, desc=f"{self.command}: {stage}", file=sys.stderr, leave=False,
                            dynamic_ncols=True, mininterval=0.5)
        if total is not None and self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        """Remove the bar (the report follows on stdout)."""
        if self.bar is not None:
            self.bar.close()
        self.bar = None
        self.stage = None


def memory_budget(text: str) -> int:
    """argparse type of --memory-budget: bytes, or a number with K, M, G or T (binary units)."""
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_bound_options(p: argparse.ArgumentParser) -> None:
    """--timeout and --memory-budget, for every command that runs an analysis."""
    p.add_argument("--timeout", type=timeout_seconds, metavar="SECONDS",
                   help="stop the analysis after this many seconds and report what is proven by then (exit 1)")
    p.add_argument("--memory-budget", type=memory_budget, default=DEFAULT_MEMORY_BUDGET, metavar="SIZE",
                   help=f"memory the exact counter may hold, e.g. 512M or 4G (default "
                        f"{size_text(DEFAULT_MEMORY_BUDGET)}); past it the count is left out")


def run_analysis(puzzle, args: argparse.Namespace, command: str, level: str, compare_levels: bool = False) -> Analysis:
    """analyze() under the command's --timeout and --memory-budget, with progress on a terminal."""
    progress = StageProgress(stderr_progress_wanted(getattr(args, "quiet", False)), command)
    try:
        a = analyze(puzzle, level=level, compare_levels=compare_levels, memory_budget=args.memory_budget,
                    timeout=args.timeout, progress=progress if progress.enabled else None)
    finally:
        progress.close()
    if a.status == "timeout":
        print(f"mineconv: {command}: {a.count_error}; reporting the cells proven by then", file=sys.stderr)
    return a


def report_text(a: Analysis, probabilities: bool = False) -> str:
    """The text report: the marked grid (itself a puzzle file) then the counts as comments."""
    lines: List[str] = [canonical_text(a.marked_puzzle().replace(notes=())).rstrip("\n")]
    if a.status == "timeout":
        lines.append(f"# status: timeout, the report is incomplete ({a.count_error})")
    if a.solutions is None:
        lines.append(f"# solutions: not counted ({a.count_error})")
    else:
        lines.append(f"# solutions: {count_text(a.solutions)}")
    lines.append(f"# unique: {({True: 'yes', False: 'no', None: 'unknown'})[a.unique]}")
    if a.feasible:
        n_safe, n_mine = len(a.safe_cells), len(a.mine_cells)
        open_ = a.system.num_vars - n_safe - n_mine
        lines.append(f"# level {a.level}: {n_safe} safe, {plural(n_mine, 'certain mine')}, {open_} undetermined "
                     f"(of {plural(a.system.num_vars, 'unknown cell')})")
    else:
        lines.append("# no solution: the counts contradict each other"
                     + (" or the total mine count" if a.system.total is not None else ""))
    if a.by_level:
        lines.append("# decided by level: " + ", ".join(f"{k} {v}" for k, v in a.by_level.items()))
    if probabilities and a.feasible and a.solutions is not None:
        lines.append("# mine probabilities (unknown cells; '-' elsewhere):")
        for row in a.probability_grid:
            lines.append(("#   " + " ".join("  -  " if p is None else f"{p:.3f}" for p in row)).rstrip())
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Analyze one puzzle and print or write the report."""
    puzzle = load_puzzle(args.input, input_settings(args))
    a = run_analysis(puzzle, args, "analyze", args.level, args.compare_levels)
    if args.json:
        text = report_json(a.to_json()) + "\n"
    else:
        text = report_text(a, args.probabilities)
    with atomic_output(args.output) as out:
        out.write(text)
    return 0 if a.feasible and a.status != "timeout" else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("analyze", help=COMMANDS["analyze"],
                       description="Say what a board implies: which unknown cells are safe or certain mines, "
                                   "how many solutions it has (exactly), and each cell's mine probability.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    add_input_options(p)
    p.add_argument("--level", choices=LEVELS, default="full", help="how cells are decided (default: full)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--probabilities", action="store_true", help="also print the mine probability of each cell")
    p.add_argument("--compare-levels", action="store_true",
                   help="also report how many cells each level decides (how hard the board is by hand)")
    p.add_argument("-o", "--output", default="-", help="write the report here (default: stdout)")
    add_bound_options(p)
    p.set_defaults(func=run)
