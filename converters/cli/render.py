"""mineconv render: an SVG picture of a board, optionally with its analysis as a heat map."""
from __future__ import annotations

import argparse

from ..analysis import LEVELS, analyze
from . import add_input_options, input_options, load_puzzle
from ..fileio import atomic_output
from ..render import render_svg

EPILOG = """examples:
  mineconv render samples/kaye-splitter.txt -o splitter.svg
  mineconv render board.txt -o board.svg --analysis
  mineconv render board.txt -o board.svg --analysis --level gac --no-heat
With --analysis, proven safe cells carry a green dot and certain mines a black disc; every unknown
cell is coloured by its exact mine probability (green 0, yellow 0.5, red 1), with a legend.
"""


def run(args: argparse.Namespace) -> int:
    """Render one puzzle to SVG."""
    puzzle = load_puzzle(args.input, args.from_, args.mines, input_options(args))
    analysis = analyze(puzzle, level=args.level) if args.analysis else None
    svg = render_svg(puzzle, analysis, cell=args.cell, heat=not args.no_heat)
    with atomic_output(args.output) as out:
        out.write(svg)
    return 0 if analysis is None or analysis.feasible else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("render", help="draw a board (and its analysis) as an SVG picture",
                       description="Draw a board as SVG; with --analysis, mark the decided cells and colour "
                                   "the open ones by mine probability.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    p.add_argument("-o", "--output", required=True, help="SVG file to write, or - for stdout")
    p.add_argument("--from", dest="from_", metavar="NAME", help="input notation (see `mineconv formats`)")
    add_input_options(p)
    p.add_argument("--mines", type=int, metavar="N", help="total number of mines on the board (overrides the puzzle's)")
    p.add_argument("--analysis", action="store_true", help="mark safe cells and certain mines, heat-map the rest")
    p.add_argument("--level", choices=LEVELS, default="full", help="with --analysis: how cells are decided")
    p.add_argument("--no-heat", action="store_true", help="with --analysis: no probability colours")
    p.add_argument("--cell", type=int, default=24, metavar="PX", help="cell size in pixels (default 24)")
    p.set_defaults(func=run)
