"""mineconv generate: random boards, fully revealed (Chlond) or as a game state, one or a folder of many."""
from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from ..analysis.bounds import stderr_progress_wanted
from . import number_in
from ..errors import MineconvError
from ..generate import REVEALS, random_puzzle
from ..fileio import atomic_output
from ..registry import dump, get_format, write


def board_name(rows: int, cols: int, reveal: str, seed: int) -> str:
    """The name a generated board carries, enough to make it again."""
    return f"random {rows}x{cols} {reveal} seed {seed}"


# 2^24 cells (4096 x 4096) is far beyond any published board and still writes every format in a few GB
DEFAULT_MAX_CELLS = 1 << 24


def run(args: argparse.Namespace) -> int:
    """Generate one board to a file, or --count boards into a folder."""
    if args.count is not None and args.count < 1:
        raise MineconvError(f"--count must be at least 1, got {args.count}")
    if args.rows < 1 or args.cols < 1:
        raise MineconvError(f"the board must have at least one row and one column, got {args.rows} x {args.cols}")
    if args.rows * args.cols > args.max_cells:
        raise MineconvError(f"{args.rows} x {args.cols} = {args.rows * args.cols} cells is over the limit of "
                            f"{args.max_cells} (raise it with --max-cells if the machine has the memory)")
    if args.openings is not None and args.openings < 0:
        raise MineconvError(f"--openings must be 0 or more, got {args.openings}")
    # without --seed, draw one and record it in the board's name so any board can be made again
    base = args.seed if args.seed is not None else secrets.randbelow(2 ** 31)
    common = dict(density=args.density, mines=args.mines, reveal=args.reveal, openings=args.openings,
                  with_total=not args.no_total)
    if args.count is None:
        puzzle = random_puzzle(args.rows, args.cols, seed=base,
                               name=board_name(args.rows, args.cols, args.reveal, base), **common)
        fmt = args.to or (None if args.output != "-" else "native")
        write(puzzle, args.output, fmt, strict=args.strict)
        return 0
    if os.sep in args.prefix or (os.altsep and os.altsep in args.prefix) or args.prefix in (".", ".."):
        raise MineconvError(f"--prefix must be a plain file name prefix, got {args.prefix!r}")
    if args.output == "-":
        raise MineconvError("--count writes a folder of boards: give a folder with -o, not '-'")
    fmt = get_format(args.to, direction="write") if args.to else get_format("native")
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise MineconvError("--count writes a folder of boards, but this is an existing file", source=str(folder))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise MineconvError(f"cannot create the folder: {exc.strerror or exc}", source=str(folder)) from None
    width = max(4, len(str(args.count - 1)))
    ext = fmt.extensions[0] if fmt.extensions else "." + fmt.name
    bar = None
    if stderr_progress_wanted(getattr(args, "quiet", False)):
        from tqdm import tqdm
        bar = tqdm(total=args.count, desc="generate", unit="board", file=sys.stderr, leave=False,
                   dynamic_ncols=True, mininterval=0.5)
    try:
        _write_boards(args, folder, fmt, base, common, width, ext, bar)
    finally:
        if bar is not None:
            bar.close()
    return 0


def _write_boards(args: argparse.Namespace, folder: Path, fmt, base: int, common: dict, width: int, ext: str,
                  bar) -> None:
    """Write the --count boards into the folder, ticking the progress bar (None: no bar) once per board."""
    for i in range(args.count):
        # board i is exactly what `generate --seed BASE+i` makes
        seed = base + i
        puzzle = random_puzzle(args.rows, args.cols, seed=seed,
                               name=board_name(args.rows, args.cols, args.reveal, seed), **common)
        # no fsync per board: thousands of small files; the rename alone keeps each one whole
        with atomic_output(folder / f"{args.prefix}{i:0{width}d}{ext}", fsync=False) as out:
            dump(puzzle, out, fmt.name, strict=args.strict)
        if bar is not None:
            bar.update(1)








def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "generate", help="random boards: fully revealed or a game in progress",
        description="Place mines at random and reveal the board: 'full' shows every safe cell's count "
                    "(Chlond's random boards), 'game' opens random zero cells and flood-fills them as a "
                    "player's clicks would, leaving a frontier. The same --seed always gives the same "
                    "board; with --count K, board i gets seed S+i.",
        epilog="examples:\n"
               "  mineconv generate --rows 16 --cols 30 --mines 99 --reveal game --seed 7 -o expert.txt\n"
               "  mineconv generate --rows 1000 --cols 1000 --density 0.15 -o big.txt\n"
               "  mineconv generate --rows 16 --cols 30 --mines 99 --reveal game --count 5000 -o boards/",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, required=True, help="rows of the board")
    p.add_argument("--cols", type=int, required=True, help="columns of the board")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--density", type=number_in("the density", 0, 1, whole=False), metavar="D",
                     help="fraction of cells that are mines")
    how.add_argument("--mines", type=int, metavar="N", help="exact number of mines")
    p.add_argument("--reveal", choices=REVEALS, default="full",
                   help="full: every safe cell shows its count (default); game: random openings")
    p.add_argument("--openings", type=int, metavar="K",
                   help="game reveal: how many random zero cells to open (default one per 50 cells)")
    p.add_argument("--seed", type=number_in("a seed", 0, 2 ** 63 - 1), metavar="S",
                   help="random seed, 0 to 2^63-1 (default: a fresh one, kept in the name)")
    p.add_argument("--no-total", action="store_true", help="do not state the total mine count")
    p.add_argument("--count", type=int, metavar="K", help="write K boards into the folder given with -o")
    p.add_argument("--prefix", default="board-", help="file name prefix with --count (default 'board-')")
    p.add_argument("-o", "--output", required=True, help="output file ('-' for stdout), or folder with --count")
    p.add_argument("--to", metavar="NAME", help="output format (default: from the extension; native with --count)")
    p.add_argument("--strict", action="store_true", help="refuse a format that would drop information")
    p.add_argument("--max-cells", type=number_in("--max-cells", 1, 10 ** 18), default=DEFAULT_MAX_CELLS,
                   metavar="N",
                   help=f"refuse boards of more than N cells (default {DEFAULT_MAX_CELLS})")
    p.set_defaults(func=run)

