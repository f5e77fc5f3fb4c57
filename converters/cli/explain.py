"""mineconv explain: the solving path of a board, one justified deduction per step (Bayer's single-step mode)."""
from __future__ import annotations

import argparse
import os
import sys
import threading
from typing import List

from ..analysis.explain import LEVELS, Explainer
from ..analysis.explain.steps import Explanation, Step, json_chunks
from ..core.bounds import DEFAULT_MEMORY_BUDGET, Bounds, size_text
from ..core.errors import FileAccessError
from ..core.jsonout import json_text
from ..core.wording import plural
from . import COMMANDS, add_input_options, input_settings, load_puzzle, timeout_seconds
from .analyze import memory_budget

# seconds the steps are held back before they are printed as they come (a quick run prints as it always has)
STREAM_AFTER = 1.0

EPILOG = """Each step names the cells it decides (safe or mine), the level it needs and the revealed counts
that justify it, cheapest reasoning first:
  gac   one count on its own, then the total mine count
  2rc   two overlapping counts (the cells they share hold a fixed number of mines)
  3rc   three linked counts
  full  a proof by contradiction: if the cell were the other value, no arrangement of mines satisfies
        the named counts (default)
Cells are (row, col), 0-based. --level stops at that level: the last line says how many cells it leaves open.

examples:
  mineconv explain samples/dusautoy-6x6.txt
  mineconv explain samples/kaye-splitter.txt --level 2rc --json
  mineconv explain board.txt --mines 99 --svg steps/      # steps/step-001.svg, step-002.svg, ...
--json prints {"level", "solved", "steps": [{"step", "level", "cells": [{"row", "col", "value"}],
"because": [{"row", "col", "count"}], "total", "text"}], "open": [[row, col], ...]}.
Steps print as they are found once a run takes more than a second (--json and --svg wait for the end).
exit status: 0 solved, 1 stuck (cells left open at the level), no solution, timed out or over the memory
budget, 2 bad input
"""


def summary(e: Explanation) -> str:
    """The last line: solved, stuck with N cells open at the level, infeasible, or timed out."""
    if not e.consistent:
        return f"no solution: {e.conflict}" if e.conflict else "no solution: the counts contradict each other"
    if e.timed_out:
        return f"timed out ({e.timeout_message}) with {plural(len(e.stuck), 'cell')} open"
    if e.memory_message is not None:
        return f"stopped: {e.memory_message}, with {plural(len(e.stuck), 'cell')} open"
    if e.solved:
        return f"solved in {plural(len(e.steps), 'step')}"
    return f"stuck with {plural(len(e.stuck), 'cell')} open at level {e.level}"


def step_line(number: int, step: Step, width: int) -> str:
    """'12. [2rc] (3, 4) is safe: ...', the number right-aligned to `width`."""
    return f"{number:>{width}}. [{step.level}] {step.text}"


def report_text(e: Explanation) -> str:
    """Numbered steps, then the summary line."""
    width = len(str(len(e.steps)))
    lines = [step_line(i, s, width) for i, s in enumerate(e.steps, 1)]
    lines.append(summary(e))
    return "\n".join(lines) + "\n"


def stream_text(explainer: Explainer) -> Explanation:
    """Print the steps as they are found, and the summary line; return the explanation.

    The steps are held back for the first STREAM_AFTER seconds, so a quick explanation prints exactly as
    report_text() does (numbers aligned to the step count); a slow one then prints what it holds and
    every later step at once, numbers aligned to the count of unknown cells (no more steps than that).
    A timer lets the held steps out on time even while one step (a proof of level full) takes long.
    """
    held: List[Step] = []
    lock = threading.Lock()
    width = 0   # 0 while the steps are held back
    ended = False

    def let_out() -> None:
        nonlocal width
        with lock:
            if ended or width:
                return
            width = len(str(explainer.unknown_cells))
            if held:
                print("\n".join(step_line(i, s, width) for i, s in enumerate(held, 1)), flush=True)

    timer = threading.Timer(STREAM_AFTER, let_out)
    timer.daemon = True
    timer.start()
    try:
        for step in explainer.steps():
            with lock:
                held.append(step)
                if width:
                    print(step_line(len(held), step, width), flush=True)
    finally:
        timer.cancel()
        with lock:
            ended = True
    e = explainer.result()
    if width:
        print(summary(e))
    else:
        print(report_text(e), end="")
    return e


def svg_folder(path: str) -> str:
    """The --svg folder, created when missing; an existing file that is not a folder is refused."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise FileAccessError(f"--svg wants a folder, and {path!r} exists and is not one", source=path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:   # a parent that is missing or not writable: one message, not a traceback
        raise FileAccessError(f"cannot create the --svg folder {path!r}: {exc.strerror or exc}", source=path) from None
    return path


def run(args: argparse.Namespace) -> int:
    """Explain one puzzle; print the steps (or JSON) and write one picture per step with --svg."""
    puzzle = load_puzzle(args.input, input_settings(args))
    if args.svg is not None:
        svg_folder(args.svg)  # made (or refused) before any work
    explainer = Explainer(puzzle, args.level, bounds=Bounds(args.memory_budget, args.timeout))
    if args.json or args.svg is not None:
        e = explain_all(explainer)
    else:
        e = stream_text(explainer)
    if args.svg is not None:
        from ..core.fileio import atomic_output
        from ..present.picture import step_svgs
        folder = svg_folder(args.svg)
        for i, svg in enumerate(step_svgs(e), 1):
            with atomic_output(os.path.join(folder, f"step-{i:03d}.svg")) as out:
                out.write(svg)
    if args.json:
        for piece in json_chunks(e, json_text):
            sys.stdout.write(piece)
        sys.stdout.write("\n")
    elif args.svg is not None:
        print(report_text(e), end="")
    return 0 if e.solved else 1


def explain_all(explainer: Explainer) -> Explanation:
    """Every step, then the explanation (for --json and --svg, which need them all)."""
    for _ in explainer.steps():
        pass
    return explainer.result()


def register(sub: argparse._SubParsersAction) -> None:
    """Add the subcommand."""
    p = sub.add_parser("explain", help=COMMANDS["explain"],
                       description="Show how a board is solved by reasoning, one small step at a time: the "
                                   "cells each step decides and the revealed counts that force them.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="puzzle file, or - for stdin")
    add_input_options(p)
    p.add_argument("--level", choices=LEVELS, default="full",
                   help="the strongest reasoning allowed (default: full)")
    p.add_argument("--json", action="store_true", help="print the steps as one JSON object")
    p.add_argument("--svg", metavar="DIR",
                   help="write one picture per step into DIR (step-001.svg, ...; created when missing)")
    p.add_argument("--timeout", type=timeout_seconds, metavar="SECONDS",
                   help="stop after this many seconds: the steps so far are printed (exit 1)")
    p.add_argument("--memory-budget", type=memory_budget, default=DEFAULT_MEMORY_BUDGET, metavar="SIZE",
                   help=f"memory the proofs of level full may hold, e.g. 512M or 4G (default "
                        f"{size_text(DEFAULT_MEMORY_BUDGET)}); past it the steps so far are printed (exit 1)")
    p.set_defaults(func=run)
