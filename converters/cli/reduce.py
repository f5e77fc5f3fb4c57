"""mineconv reduce: a CNF formula (DIMACS) -> a Minesweeper board whose solutions are its models, one to one."""
from __future__ import annotations

import argparse

from ..core.errors import MineconvError
from ..formats.dimacs_formula import read_formula
from ..formats.reading import guess_format
from ..formats.writing import write
from ..make.reduce import DEFAULT_MAX_CELLS, check_size, reduce
from . import COMMANDS, number_in, say

EPILOG = f"""examples:
  mineconv reduce formula.cnf -o board.txt
  mineconv analyze board.txt                 # counts the formula's models
  mineconv solve board.txt --json            # one solution, with "cnf_model": [1, -2, ...]
  mineconv render board.txt -o board.png --annotate
The board has 13 n + 5 rows and 12 m + 7 columns for n variables and m clauses (a clause holding x and
not x gets no column). Variable i is the cell named in the board's 'wires:' header line; a mine there
means true. Larger boards than --max-cells (default {DEFAULT_MAX_CELLS}) are refused before they are built.
"""


def run(args: argparse.Namespace) -> int:
    """Read the formula, build the board (size checked first), write it atomically."""
    # refused from the problem line, or as the clauses are read, before a formula too big is built
    formula = read_formula(args.formula, check=lambda n, m: check_size(n, m, args.max_cells))
    board = reduce(formula, max_cells=args.max_cells)
    fmt = args.to
    if fmt is None:
        try:
            fmt = guess_format(args.output, kind=None, direction="write").name
        except MineconvError:   # '-' or an extension no format claims: the notation that keeps everything
            fmt = "native"
    write(board, args.output, fmt, strict=args.strict)
    say(f"wrote a {board.rows} x {board.cols} board ({board.unknown_count} unknown cells) as {fmt} for "
        f"{formula.variables} variables and {len(formula.clauses)} clauses")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("reduce", help=COMMANDS["reduce"],
                       description="Reduce a CNF formula (DIMACS) to a Minesweeper board with exact gadgets: "
                                   "the board's solutions correspond one to one to the formula's models, so "
                                   "`analyze` counts the models and an unsatisfiable formula gives a board "
                                   "with no solution. Exit status: 0 written, 2 bad input or too large.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("formula", help="DIMACS CNF file, or - for stdin")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the board to write (native text keeps the variables' cells; - for stdout)")
    p.add_argument("-t", "--to", metavar="NAME", help="board notation (default: from the extension, else native)")
    p.add_argument("--max-cells", type=number_in("--max-cells", 1, 10 ** 12), default=DEFAULT_MAX_CELLS,
                   metavar="N", help=f"refuse a board of more than N cells (default {DEFAULT_MAX_CELLS})")
    p.add_argument("--strict", action="store_true",
                   help="refuse a notation that cannot keep the variables' cells (only native keeps them)")
    p.set_defaults(func=run)
