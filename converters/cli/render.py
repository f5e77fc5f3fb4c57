"""mineconv render: a picture of a board (SVG, PNG or PDF), optionally with its analysis as a probability map."""
from __future__ import annotations

import argparse

from ..analysis import LEVELS
from ..present.annotate import gadget_overlay
from ..present.picture import picture_kind, render_svg, write_picture
from . import COMMANDS, add_input_options, input_settings, load_puzzle, number_in
from .analyze import add_bound_options, run_analysis

EPILOG = """examples:
  mineconv render samples/kaye-splitter.txt -o splitter.svg
  mineconv render samples/expert-16x30.txt -o expert.png --analysis --percent
  mineconv render samples/expert-16x30.txt -o expert.pdf --analysis --level gac --no-heat
The format follows the extension: .svg (no dependency), .png or .pdf (CairoSVG: pip install
'mineconv[pictures]', and the cairo library: on Debian/Ubuntu apt-get install libcairo2).
With --analysis, a proven safe cell is white with a check mark and a certain mine carries a mine glyph
on grey; every other unknown cell is coloured by its exact mine probability on a colour-blind-safe
scale (pale yellow 0% to dark red 100%), with a legend. Rows and columns are numbered from 0.
With --analysis, --timeout bounds the analysis: past it the picture shows the cells proven by then
(no probabilities) and the exit status is 1; --memory-budget bounds the exact counter as in analyze.
"""


def run(args: argparse.Namespace) -> int:
    """Render one puzzle to SVG."""
    puzzle = load_puzzle(args.input, input_settings(args))
    picture_kind(args.output)  # a wrong extension is refused before any work
    analysis = run_analysis(puzzle, args, "render", args.level) if args.analysis else None
    overlay = gadget_overlay(puzzle) if args.annotate else None
    svg = render_svg(puzzle, analysis, cell=args.cell, heat=not args.no_heat, title=args.title,
                     percent=args.percent, coordinates=not args.no_coordinates, overlay=overlay)
    write_picture(svg, args.output, scale=args.scale)
    return 0 if analysis is None or (analysis.feasible and analysis.status != "timeout") else 1






def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("render", help=COMMANDS["render"],
                       description="Draw a board; with --analysis, mark the decided cells and colour "
                                   "the open ones by mine probability.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    p.add_argument("-o", "--output", required=True,
                   help="picture to write: .svg, .png or .pdf by extension; - for SVG on stdout")
    add_input_options(p)
    p.add_argument("--analysis", action="store_true", help="mark safe cells and certain mines, heat-map the rest")
    p.add_argument("--level", choices=LEVELS, default="full",
                   help="with --analysis: how cells are decided (default: full)")
    p.add_argument("--no-heat", action="store_true", help="with --analysis: no probability colours")
    p.add_argument("--percent", action="store_true",
                   help="with --analysis: print each open cell's mine probability in percent")
    p.add_argument("--title", help="the caption above the board (default: the puzzle's name, else its size)")
    p.add_argument("--annotate", action="store_true",
                   help="on a board made by `mineconv reduce`: box and name its gadgets, with a legend")
    p.add_argument("--no-coordinates", action="store_true", help="leave out the row and column numbers")
    p.add_argument("--cell", type=number_in("a cell", 2, 200), default=24, metavar="PX",
                   help="cell size in pixels, 2-200 (default 24)")
    p.add_argument("--scale", type=number_in("the scale", 0.1, 20, whole=False), default=1.0, metavar="X",
                   help="PNG/PDF: scale the picture by X (default 1; 2 for a sharp PNG on a high-DPI screen)")
    add_bound_options(p)
    p.set_defaults(func=run)
