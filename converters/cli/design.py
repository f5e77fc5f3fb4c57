"""mineconv design: unique, minimal puzzles of an exact grade (Steinruecken's style), one or a folder of many."""
from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any, Optional

from ..core.bounds import stderr_progress_wanted
from ..core.errors import InputError
from ..core.fileio import atomic_output
from ..core.puzzle import Puzzle
from ..core.wording import plural
from ..formats.reading import guess_format
from ..formats.registry import Format, get_format
from ..formats.writing import dump, losses, write
from ..make.design import DEFAULT_DENSITY, LEVELS, DesignStats, DesignTimeout, design_puzzles
from . import COMMANDS, number_in, say, timeout_seconds
from .generate import count_folder
from .grade import LEVEL_MEANINGS

DEFAULT_TIMEOUT = 60.0
# the search builds one SAT solver per layout in Python: 256 x 256 is far past what designs in minutes
DEFAULT_MAX_CELLS = 1 << 16

EPILOG = f"""what is made: revealed counts only (no known mines unless --known-mines), exactly one solution,
graded exactly LEVEL (LEVEL decides every unknown cell by propagation, the level below does not; the
levels are below), and minimal: hiding any one revealed count (making it an unknown cell) lets a second
solution in. Like the published puzzles of this kind, the puzzle does not state the total number
of mines: the counts alone make it unique. With --total it states it, and the total then counts for
uniqueness, minimality and the grade (such puzzles need fewer counts and lean on the total: most grade
full).

{LEVEL_MEANINGS}
how: mines are placed at random, every safe cell shows its count, then counts are hidden in a random
order while the puzzle stays unique (one incremental SAT solver per layout); the result is graded and
kept when its grade is exactly LEVEL. For gac, hides that gac could not follow are refused and the
regions that come out wrong are redrawn. Each layout gets several hide orders.

--timeout bounds the whole run (no bound by default); --timeout-each bounds the wait for each next puzzle
(default {DEFAULT_TIMEOUT:g} s, the meaning --timeout had before). When either runs out, the run stops with a
message saying how many were made (the puzzles already written stay, each file whole) and exit status 1. Small boards rarely reach 3rc or full: try a bigger
board or another density.

examples:
  mineconv design --rows 8 --cols 8 --level 2rc --seed 1 -o puzzle.txt
  mineconv design --rows 10 --cols 10 --level gac --count 20 -o puzzles/
  mineconv design --rows 8 --cols 8 --level 3rc --count 5 --to cnf -o cnfs/
  mineconv design --rows 8 --cols 8 --mines 12 --level full --total -o hard.txt

exit status: 0 every puzzle made, 1 fewer than asked within --timeout or --timeout-each, 2 bad options
"""


def run(args: argparse.Namespace) -> int:
    """Design one puzzle to a file, or --count puzzles into a folder."""
    if args.rows < 1 or args.cols < 1:
        raise InputError(f"the board must have at least one row and one column, got {args.rows} x {args.cols}")
    if args.rows * args.cols > args.max_cells:
        raise InputError(f"{args.rows} x {args.cols} = {args.rows * args.cols} cells is over the limit of "
                         f"{args.max_cells} (raise it with --max-cells)")
    if args.count is not None and args.count < 1:
        raise InputError(f"--count must be at least 1, got {args.count}")
    if args.mines is not None and not 0 <= args.mines <= args.rows * args.cols:
        raise InputError(f"cannot place {plural(args.mines, 'mine')} on "
                         f"{plural(args.rows * args.cols, 'cell')}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2 ** 31)
    stats = DesignStats()
    bar: Any = None
    if stderr_progress_wanted(getattr(args, "quiet", False)):
        from tqdm import tqdm
        bar = tqdm(total=args.count or 1, desc=f"design {args.level}", unit="puzzle", file=sys.stderr,
                   leave=False, dynamic_ncols=True, mininterval=0.5)

    def progress(made: int, st: DesignStats) -> None:
        bar.update(made - bar.n)
        bar.set_postfix_str(f"{plural(st.layouts, 'layout')}", refresh=False)

    puzzles = design_puzzles(args.rows, args.cols, args.level, mines=args.mines, density=args.density, seed=seed,
                             count=args.count or 1, total=args.total, known_mines=args.known_mines,
                             timeout=args.timeout_each, run_timeout=args.timeout, stats=stats,
                             progress=progress if bar is not None else None)
    made = 0
    try:
        if args.count is None:
            fmt = _output_format(args)
            _refuse_losses(args, fmt)
            for puzzle in puzzles:
                write(puzzle, args.output, fmt.name, strict=args.strict)
                made = 1
        else:
            made = _write_folder(args, puzzles, bar)
    except DesignTimeout as exc:
        made = exc.made
        asked = args.count or 1
        print(f"mineconv: design: {exc}", file=sys.stderr)
        if args.count is not None:
            print(f"mineconv: design: {made} of {plural(asked, 'puzzle')} made in {args.output}", file=sys.stderr)
        return 1
    finally:
        if bar is not None:
            bar.close()
    say(f"design: {made} made; {plural(stats.layouts, 'layout')}, {plural(stats.passes, 'hide pass', 'hide passes')}, "
        f"{plural(stats.sat_calls, 'SAT call')}, minimal puzzles by grade: {stats.grades_text()}")
    return 0


def _output_format(args: argparse.Namespace) -> Format:
    """The format of the one output file: --to, else its extension (native on stdout)."""
    if args.to:
        return get_format(args.to, direction="write")
    if args.output == "-":
        return get_format("native")
    return guess_format(args.output, kind=None, direction="write")


def _refuse_losses(args: argparse.Namespace, fmt: Format) -> None:
    """Under --strict, refuse before the search a format that cannot carry what every design has."""
    if not args.strict:
        return
    n = args.rows * args.cols
    probe = Puzzle(args.rows, args.cols, ("*" if args.known_mines else "?") + "?" * (n - 1),
                   mines=1 if args.total else None)
    lost = losses(probe, fmt)
    if lost:
        from ..core.errors import LossyConversionError
        raise LossyConversionError(f"{fmt.name} cannot express {lost[0]} (refused under --strict)")


def _write_folder(args: argparse.Namespace, puzzles, bar: Optional[Any]) -> int:
    """Write each puzzle as it is found into the -o folder, numbered; how many were written."""
    folder, fmt, width, ext = count_folder(args, "puzzles", lambda fmt: _refuse_losses(args, fmt))
    made = 0
    for i, puzzle in enumerate(puzzles):
        # no fsync per puzzle (as generate --count): the rename alone keeps each file whole
        with atomic_output(folder / f"{args.prefix}{i:0{width}d}{ext}", fsync=False) as out:
            dump(puzzle, out, fmt.name, strict=args.strict)
        made = i + 1
        if bar is not None:
            bar.update(made - bar.n)
    return made


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "design", help=COMMANDS["design"],
        description="Design puzzles in Steinruecken's style: revealed counts only, exactly one solution, "
                    "minimal (no count can be hidden), and graded exactly at --level. The same --seed "
                    "always gives the same puzzles.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, required=True, help="rows of the board")
    p.add_argument("--cols", type=int, required=True, help="columns of the board")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--density", type=number_in("the density", 0, 1, whole=False), metavar="D",
                     help=f"fraction of cells that are mines (default {DEFAULT_DENSITY:g})")
    how.add_argument("--mines", type=int, metavar="N", help="exact number of mines")
    p.add_argument("--level", choices=LEVELS, required=True,
                   help="the grade every puzzle must have exactly: gac, 2rc, 3rc or full")
    p.add_argument("--seed", type=number_in("a seed", 0, 2 ** 63 - 1), metavar="S",
                   help="random seed, 0 to 2^63-1 (default: a fresh one, kept in each puzzle's name)")
    p.add_argument("--total", action="store_true",
                   help="state the total mine count in each puzzle (it then counts for uniqueness, minimality "
                        "and the grade); by default only the counts are given, as in published puzzles")
    p.add_argument("--known-mines", action="store_true",
                   help="known mines ('*') may be clues too: hiding one must also let a second solution in")
    p.add_argument("--count", type=int, metavar="K", help="write K puzzles into the folder given with -o")
    p.add_argument("--prefix", default="puzzle-", help="file name prefix with --count (default 'puzzle-')")
    p.add_argument("-o", "--output", required=True, help="output file ('-' for stdout), or folder with --count")
    p.add_argument("--to", metavar="NAME", help="output format (default: from the extension; native with --count)")
    p.add_argument("--strict", action="store_true", help="refuse a format that would drop information")
    p.add_argument("--timeout", type=timeout_seconds, default=None, metavar="SECONDS",
                   help="stop the whole run after this long, however many puzzles are made (default: no bound)")
    p.add_argument("--timeout-each", type=timeout_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"give up when no new puzzle is found for this long (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--max-cells", type=number_in("--max-cells", 1, 10 ** 9), default=DEFAULT_MAX_CELLS,
                   metavar="N", help=f"refuse boards of more than N cells (default {DEFAULT_MAX_CELLS})")
    p.set_defaults(func=run)
