"""mineconv generate: random boards, fully revealed (Chlond) or as a game state, one or a folder of many;
with --no-guess, layouts a player clears from the first click without guessing."""
from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
from pathlib import Path
from typing import Callable, Optional, Tuple

from ..core.bounds import DEFAULT_MEMORY_BUDGET, size_text, stderr_progress_wanted
from ..core.errors import FileAccessError, InputError
from ..core.fileio import atomic_output
from ..core.puzzle import Puzzle
from ..formats.registry import Format, get_format
from ..formats.writing import dump, write
from ..make.generate import REVEALS, random_puzzle
from ..make.noguess import DEFAULT_MAX_LAYOUTS, DEFAULT_MAX_UNIFORM, check_request, no_guess_puzzle
from . import COMMANDS, number_in, timeout_seconds
from .analyze import memory_budget


def board_name(rows: int, cols: int, reveal: str, seed: int) -> str:
    """The name a generated board carries, enough to make it again."""
    return f"random {rows}x{cols} {reveal} seed {seed}"


def no_guess_name(rows: int, cols: int, first: Tuple[int, int], seed: int) -> str:
    """The name a no-guess board carries, enough to make it again."""
    return f"no-guess {rows}x{cols} first {first[0]},{first[1]} seed {seed}"


def first_click(text: str) -> Tuple[int, int]:
    """argparse type of --first: 'R,C', a 0-based row and column in ASCII digits."""
    m = re.fullmatch(r"\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*", text)
    if not m or not text.isascii():
        raise argparse.ArgumentTypeError(f"{text!r} is not a cell: give ROW,COL, 0-based (e.g. 8,15)")
    return int(m.group(1)), int(m.group(2))


def _check_no_guess(args: argparse.Namespace) -> Optional[Tuple[int, int]]:
    """Refuse option mixes --no-guess cannot honour; the first click to use (None without --no-guess)."""
    if not args.no_guess:
        for flag, value in (("--first", args.first), ("--timeout", args.timeout),
                            ("--memory-budget", args.memory_budget), ("--uniform", args.uniform or None),
                            ("--any-density", args.any_density or None)):
            if value is not None:
                raise InputError(f"{flag} applies to --no-guess boards only")
        return None
    if args.reveal != "game":
        raise InputError("--no-guess makes a game a player starts from one click: it needs --reveal game "
                         "(a full reveal has nothing left to guess)")
    if args.openings is not None:
        raise InputError("--openings does not apply to --no-guess: the game opens from its --first click")
    if args.no_total:
        raise InputError("--no-guess boards are solved with the total mine count, which --no-total would "
                         "hide")
    first = args.first if args.first is not None else (args.rows // 2, args.cols // 2)
    if not (first[0] < args.rows and first[1] < args.cols):
        raise InputError(f"--first {first[0]},{first[1]} is outside the {args.rows} x {args.cols} board "
                         f"(rows 0-{args.rows - 1}, columns 0-{args.cols - 1})")
    # the refusals (room, memory, the density rule of thumb) come before any folder or board is made
    mines = args.mines if args.mines is not None else int(round(args.density * args.rows * args.cols))
    check_request(args.rows, args.cols, mines, first, memory_budget=args.memory_budget or DEFAULT_MEMORY_BUDGET,
                  any_density=args.any_density)
    return first


def _board(args: argparse.Namespace, seed: int, common: dict, first: Optional[Tuple[int, int]]) -> Puzzle:
    """One board: a random one, or a no-guess layout under its first click."""
    if first is None:
        return random_puzzle(args.rows, args.cols, seed=seed,
                             name=board_name(args.rows, args.cols, args.reveal, seed), **common)
    return no_guess_puzzle(args.rows, args.cols, mines=args.mines, density=args.density, start=first, seed=seed,
                           timeout=args.timeout, name=no_guess_name(args.rows, args.cols, first, seed),
                           uniform=args.uniform, any_density=args.any_density,
                           memory_budget=args.memory_budget or DEFAULT_MEMORY_BUDGET)


# 2^24 cells (4096 x 4096) is far beyond any published board and still writes every format in a few GB
DEFAULT_MAX_CELLS = 1 << 24


def run(args: argparse.Namespace) -> int:
    """Generate one board to a file, or --count boards into a folder."""
    if args.count is not None and args.count < 1:
        raise InputError(f"--count must be at least 1, got {args.count}")
    if args.rows < 1 or args.cols < 1:
        raise InputError(f"the board must have at least one row and one column, got {args.rows} x {args.cols}")
    if args.rows * args.cols > args.max_cells:
        raise InputError(f"{args.rows} x {args.cols} = {args.rows * args.cols} cells is over the limit of "
                         f"{args.max_cells} (raise it with --max-cells if the machine has the memory)")
    if args.openings is not None and args.openings < 0:
        raise InputError(f"--openings must be 0 or more, got {args.openings}")
    first = _check_no_guess(args)
    # without --seed, draw one and record it in the board's name so any board can be made again
    base = args.seed if args.seed is not None else secrets.randbelow(2 ** 31)
    common = dict(density=args.density, mines=args.mines, reveal=args.reveal, openings=args.openings,
                  with_total=not args.no_total)
    if args.count is None:
        puzzle = _board(args, base, common, first)
        fmt = args.to or (None if args.output != "-" else "native")
        write(puzzle, args.output, fmt, strict=args.strict)
        return 0
    folder, fmt, width, ext = count_folder(args, "boards")
    bar = None
    if stderr_progress_wanted(getattr(args, "quiet", False)):
        from tqdm import tqdm
        bar = tqdm(total=args.count, desc="generate", unit="board", file=sys.stderr, leave=False,
                   dynamic_ncols=True, mininterval=0.5)
    try:
        _write_boards(args, folder, fmt, base, common, width, ext, bar, first)
    finally:
        if bar is not None:
            bar.close()
    return 0


def count_folder(args: argparse.Namespace, noun: str, check: Optional[Callable[[Format], None]] = None
                 ) -> Tuple[Path, Format, int, str]:
    """The --count folder of generate and design, made if needed: (folder, format, digits, extension).

    `check(format)` runs before the folder is made, so a refused format leaves nothing behind.
    """
    if os.sep in args.prefix or (os.altsep and os.altsep in args.prefix) or args.prefix in (".", ".."):
        raise InputError(f"--prefix must be a plain file name prefix, got {args.prefix!r}")
    if args.output == "-":
        raise InputError(f"--count writes a folder of {noun}: give a folder with -o, not '-'")
    fmt = get_format(args.to, direction="write") if args.to else get_format("native")
    if check is not None:
        check(fmt)
    folder = Path(args.output)
    if folder.exists() and not folder.is_dir():
        raise FileAccessError(f"--count writes a folder of {noun}, but this is an existing file", source=str(folder))
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(f"cannot create the folder: {exc.strerror or exc}", source=str(folder)) from None
    return folder, fmt, max(4, len(str(args.count - 1))), fmt.extensions[0] if fmt.extensions else "." + fmt.name


def _write_boards(args: argparse.Namespace, folder: Path, fmt, base: int, common: dict, width: int, ext: str,
                  bar, first: Optional[Tuple[int, int]] = None) -> None:
    """Write the --count boards into the folder, ticking the progress bar (None: no bar) once per board."""
    for i in range(args.count):
        # board i is exactly what `generate --seed BASE+i` makes
        seed = base + i
        puzzle = _board(args, seed, common, first)
        # no fsync per board: thousands of small files; the rename alone keeps each one whole
        with atomic_output(folder / f"{args.prefix}{i:0{width}d}{ext}", fsync=False) as out:
            dump(puzzle, out, fmt.name, strict=args.strict)
        if bar is not None:
            bar.update(1)








def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser(
        "generate", help=COMMANDS["generate"],
        description="Place mines at random and reveal the board: 'full' shows every safe cell's count "
                    "(Chlond's random boards), 'game' opens random zero cells and flood-fills them as a "
                    "player's clicks would, leaving a frontier. The same --seed always gives the same "
                    "board; with --count K, board i gets seed S+i.",
        epilog="examples:\n"
               "  mineconv generate --rows 16 --cols 30 --mines 99 --reveal game --seed 7 -o expert.txt\n"
               "  mineconv generate --rows 1000 --cols 1000 --density 0.15 -o big.txt\n"
               "  mineconv generate --rows 16 --cols 30 --mines 99 --reveal game --count 5000 -o boards/\n"
               "  mineconv generate --rows 16 --cols 30 --mines 99 --reveal game --no-guess --first 8,15 \\\n"
               "      --seed 7 -o noguess.txt   # the layout under 'start: 8,15'; play it from there",
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
    p.add_argument("--no-guess", action="store_true",
                   help="with --reveal game: a layout a player clears from the first click without ever "
                        "guessing (every cell opened is safe in every layout fitting the counts shown and the "
                        "total); written as the full layout ('*' every mine, counts elsewhere) under a "
                        "'start: R,C' header (native; .mbf and .board keep the layout and warn that the "
                        "first click is lost)")
    p.add_argument("--first", type=first_click, metavar="R,C",
                   help="--no-guess: the first click, 0-based row,column (default: the centre cell, "
                        "rows//2,cols//2); it and its neighbours hold no mine")
    p.add_argument("--uniform", action="store_true",
                   help="--no-guess: draw the layout uniformly among the no-guess layouts (with the first "
                        "click's block free): fresh random layouts until one needs no guess, slower and "
                        f"bounded by --timeout or {DEFAULT_MAX_UNIFORM} layouts (exit 1). Without it a random "
                        "layout is repaired where it needs a guess (Tatham's method), which is faster but "
                        "not uniform among no-guess layouts: mines drift away from where guesses were")
    p.add_argument("--timeout", type=timeout_seconds, metavar="S",
                   help="--no-guess: give up a board after S seconds (exit 1); without it the search stops "
                        f"after {DEFAULT_MAX_LAYOUTS} fresh layouts ({DEFAULT_MAX_UNIFORM} with --uniform)")
    p.add_argument("--memory-budget", type=memory_budget, metavar="SIZE",
                   help="--no-guess: memory the search may hold, e.g. 512M or 4G (default "
                        f"{size_text(DEFAULT_MEMORY_BUDGET)}); a bigger board is refused before any work (exit 2)")
    p.add_argument("--any-density", action="store_true",
                   help="--no-guess: search even above 60%% mines among the free cells on boards bigger than "
                        "expert, which is refused by default as a rule of thumb (the search finds none there)")
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

