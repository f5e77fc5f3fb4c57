"""mineconv info: what a puzzle holds."""
from __future__ import annotations

import argparse
import json

from ..core.wording import plural
from . import add_input_options, describe_reading, input_settings, load_reading


def run(args: argparse.Namespace) -> int:
    """Print size, cell counts and the notation that read the puzzle."""
    reading = load_reading(args.input, input_settings(args))
    p = reading.puzzle
    data = {"rows": p.rows, "cols": p.cols, **p.stats, "mines": p.mines, "name": p.name,
            "notation": reading.format.name}
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"notation:    {describe_reading(reading)}")
    if p.name:
        print(f"name:        {p.name}")
    print(f"size:        {p.rows} x {p.cols} ({plural(p.rows * p.cols, 'cell')})")
    print(f"unknown:     {data['unknown']}")
    print(f"revealed:    {data['revealed']}")
    print(f"known mines: {data['known_mines']}")
    if data["known_safe"]:
        print(f"known safe:  {data['known_safe']}")
    print(f"total mines: {p.mines if p.mines is not None else 'not given'}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("info", help="size, cell counts and notation of a puzzle",
                       description="Say what a puzzle holds: the notation that read it (and whether it was "
                                   "named, detected from the content or chosen by the file name), its size, "
                                   "how many cells are unknown, revealed, known mines or known safe, and "
                                   "the total mine count.",
                       epilog="examples:\n  mineconv info samples/dusautoy-6x6.txt\n"
                              "  mineconv info samples/kaye-config3.dots --json\n"
                              "  mineconv info - -f json < samples/seed-3x3.json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    p.add_argument("-f", "--from", dest="from_", metavar="NAME", help="input notation (see `mineconv formats`)")
    add_input_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)
