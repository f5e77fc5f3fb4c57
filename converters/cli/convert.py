"""mineconv convert: any puzzle notation to any registered output format."""
from __future__ import annotations

import argparse
import sys

from ..core.bounds import gc_paused
from ..core.errors import InputError
from ..core.fileio import STDIO
from ..encode.cardinality import CARD_ENCODINGS, DEFAULT_CARD_ENCODING
from ..formats.reading import guess_format
from ..formats.registry import get_format
from ..formats.writing import write
from . import COMMANDS, add_input_options, collector_frozen_after, input_settings, load_reading

EPILOG = f"""examples:
  mineconv convert puzzle.txt puzzle.cnf
  mineconv convert puzzle.txt -o puzzle.lp
  mineconv convert board.txt board.mps -t fixed-mps --mines 99
  mineconv convert - -f json -o - -t lp < puzzle.json
The output is named either as the second argument (OUT) or with -o OUT, not both.
CNF cardinality encodings (--card-encoding, for the total mine count; default {DEFAULT_CARD_ENCODING}):
  {', '.join(CARD_ENCODINGS)}
"""


def output_path(args: argparse.Namespace) -> str:
    """The one output named, as OUT or as -o OUT (both or neither is a usage error, exit 2)."""
    if args.out is not None and args.output is not None:
        raise InputError(f"the output is named twice ({args.out!r} and -o {args.output!r}); give OUT or -o OUT")
    if args.out is None and args.output is None:
        raise InputError("no output: give it as the second argument (OUT) or with -o OUT ('-' for stdout)")
    return args.out if args.out is not None else args.output


def run(args: argparse.Namespace) -> int:
    """Read, convert, write atomically."""
    # one bounded conversion makes little cyclic garbage, but importing numpy and the big board's containers
    # made the collector run ~50 times (~15 ms of a 1000 x 1000 board's 0.4 s)
    with gc_paused(freeze=collector_frozen_after()):
        return _convert(args)


def _convert(args: argparse.Namespace) -> int:
    output = output_path(args)
    reading = load_reading(args.input, input_settings(args))
    puzzle = reading.puzzle
    if args.ignore_total:
        puzzle = puzzle.replace(mines=None)
    options = {}
    if args.card_encoding:
        options["card_encoding"] = args.card_encoding
    to = get_format(args.to, direction="write") if args.to else guess_format(output, kind=None,
                                                                             direction="write")
    write(puzzle, output, to.name, strict=args.strict, **options)
    if args.verbose:
        print(f"mineconv: wrote {'<stdout>' if output == STDIO else output} as {to.name}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("convert", help=COMMANDS["convert"],
                       description="Convert a puzzle. Formats come from the content and the file extensions "
                                   "unless named with -f/--from and -t/--to; '-' is stdin/stdout.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    p.add_argument("out", nargs="?", metavar="OUT", help="output file, or - for stdout (or give -o OUT)")
    p.add_argument("-o", "--output", metavar="OUT", help="output file, or - for stdout (or give OUT)")
    add_input_options(p, short=True)
    p.add_argument("-t", "--to", metavar="NAME", help="output format (see `mineconv formats`)")
    p.add_argument("--strict", action="store_true",
                   help="refuse a conversion that would drop information (instead of warning)")
    p.add_argument("--ignore-total", action="store_true",
                   help="leave the total mine count out of the output (e.g. a CNF of a huge board)")
    p.add_argument("--card-encoding", metavar="NAME",
                   help=f"CNF cardinality encoding for the total mine count (default {DEFAULT_CARD_ENCODING}; "
                        f"one of: {', '.join(CARD_ENCODINGS)})")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="say on stderr which notation read the input (and how it was chosen), which wrote it "
                        "and how long it took")
    p.set_defaults(func=run, late_positional="out")
