"""mineconv convert: any puzzle notation to any registered output format."""
from __future__ import annotations

import argparse
import sys

from . import add_input_options, describe_reading, input_options, load_reading
from ..fileio import source_name
from ..registry import get_format, guess_format, write


def run(args: argparse.Namespace) -> int:
    """Read, convert, write atomically."""
    reading = load_reading(args.input, args.from_, args.mines, input_options(args))
    puzzle = reading.puzzle
    if args.ignore_total:
        puzzle = puzzle.replace(mines=None)
    options = {}
    if args.card_encoding:
        options["card_encoding"] = args.card_encoding
    to = get_format(args.to, direction="write") if args.to else guess_format(args.output, kind=None,
                                                                             direction="write")
    if args.verbose:
        print(f"mineconv: read {source_name(args.input)} as {describe_reading(reading)}", file=sys.stderr)
    write(puzzle, args.output, to.name, strict=args.strict, **options)
    if args.verbose:
        print(f"mineconv: wrote {'<stdout>' if args.output == '-' else args.output} as {to.name}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("convert", help="convert a puzzle to another notation or a solver file",
                       description="Convert a puzzle. Formats come from the file extensions unless named; "
                                   "'-' is stdin/stdout.",
                       epilog="examples:\n  mineconv convert puzzle.txt -o puzzle.cnf\n"
                              "  mineconv convert - --from json -o - --to lp < puzzle.json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    p.add_argument("-o", "--output", required=True, help="output file, or - for stdout")
    p.add_argument("--from", dest="from_", metavar="NAME", help="input notation (see `mineconv formats`)")
    add_input_options(p)
    p.add_argument("--to", metavar="NAME", help="output format (see `mineconv formats`)")
    p.add_argument("--strict", action="store_true",
                   help="refuse a conversion that would drop information (instead of warning)")
    p.add_argument("--mines", type=int, metavar="N", help="total number of mines on the board (overrides the puzzle's)")
    p.add_argument("--ignore-total", action="store_true",
                   help="leave the total mine count out of the output (e.g. a CNF of a huge board)")
    p.add_argument("--card-encoding", metavar="NAME",
                   help="CNF cardinality encoding for the total mine count (see `mineconv formats`)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="say on stderr which notation read the input (and how it was chosen) and which wrote it")
    p.set_defaults(func=run)
